# SPDX-License-Identifier: GPL-2.0
# Hostile input: skm-fuzz writes FUZZ_WRITES (default 10000) garbage,
# negative, huge, empty, partial and non-UTF-8 values to every knob, through
# its debugfs file and its /sys/module parameter, and to the cgroup lists,
# from 4 processes at once, with TCP traffic running. Each refused write is
# EINVAL (ENOSPC for a full list) with the value kept, each accepted
# one a value the knob reads back and takes again, nothing is logged at
# warning level or above. Then a non-root user gets EACCES writing any file
# and reading any debugfs file. The module unloads cleanly afterwards.
. /tests/lib.sh
. /tests/lib_burst.sh

FUZZ_WRITES=${FUZZ_WRITES:-10000}

mkdir -p /sys/fs/cgroup/fuzz_a /sys/fs/cgroup/fuzz_b
load
groups=""
for k in $(knobs); do
	groups="$groups $DBG/$k:$PAR/$k"	# the cgroup lists too
done

in_cgroup /sys/fs/cgroup/fuzz_a sh -c 'while :; do skm-tcp -b 4 -c 2 > /dev/null; done' &
traffic=$!
lists=""
for k in exclusive_cgroups throttle_cgroups sock_limits; do
	lists="$lists -e $DBG/$k -e $PAR/$k"
done
# shellcheck disable=SC2086
skm-fuzz -n "$FUZZ_WRITES" -p 4 -s "${FUZZ_SEED:-$$}" $lists $groups \
	> /tmp/fuzz.out 2> /tmp/fuzz.err
rc=$?
cgroup_stop /sys/fs/cgroup/fuzz_a
wait $traffic
note "$(cat /tmp/fuzz.out)"
head -n 20 /tmp/fuzz.err
[ $rc -eq 0 ] || fail "skm-fuzz found errors (exit $rc)"
writes=$(sed -n 's/.*writes=\([0-9]*\).*/\1/p' /tmp/fuzz.out)
[ "${writes:-0}" -ge "$FUZZ_WRITES" ] || fail "only ${writes:-0} writes made"
refused=$(sed -n 's/.*refused=\([0-9]*\).*/\1/p' /tmp/fuzz.out)
[ "${refused:-0}" -gt $((FUZZ_WRITES / 2)) ] || fail "only ${refused:-0} writes refused: the fuzzer is too tame"

# Non-root: EACCES on every write, and on every debugfs read.
files=0
for f in "$DBG"/* "$PAR"/*; do
	[ -f "$f" ] || continue
	files=$((files + 1))
	r=$(printf '1' | skm-asuser 65534 skm-write "$f")
	expect_eq "non-root write $f" "$r" EACCES
	case $f in
	$DBG/*) skm-asuser 65534 cat "$f" > /dev/null 2>&1 &&
		fail "non-root read $f" ;;
	esac
done
note "non-root: $files files refused"
# Parameters stay world-readable (0644, like every module parameter), but
# the cgroup lists, which name tenants' cgroups, are root's (0600).
skm-asuser 65534 cat "$PAR/enabled" > /dev/null ||
	fail "non-root cannot read $PAR/enabled"
for l in exclusive_cgroups throttle_cgroups sock_limits; do
	skm-asuser 65534 cat "$PAR/$l" > /dev/null 2>&1 &&
		fail "non-root can read $PAR/$l"
done

note "lists after: $(cat $DBG/exclusive_cgroups $DBG/throttle_cgroups $DBG/sock_limits | wc -l) entries"
unload
rmdir /sys/fs/cgroup/fuzz_a /sys/fs/cgroup/fuzz_b || fail "rmdir fuzz cgroups"
exit 0
