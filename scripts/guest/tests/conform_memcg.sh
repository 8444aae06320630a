# SPDX-License-Identifier: GPL-2.0
# conform_memcg: the kernel's own memcg tests (tools/testing/selftests/cgroup
# test_memcontrol and test_kmem, built from this kernel's Debian source by
# scripts/selftests-build.sh) on the stock kernel, then with skmemcg loaded
# in each policy state of CONFORM_STATES. The stock kernel must pass every
# test (a skip counts as a pass); skmemcg must not change a verdict, except
# those CONFORM_ALLOWED names as "state:test" (policies documented to change
# that behaviour).
#
# The guest these tests want: swap (a brd RAM disk: test_memcg_max and the
# oom tests push anon out), and a disk file system as their root and working
# folder (ext4 on brd, entered with chroot): the protection tests reclaim
# page cache of an O_TMPFILE in ".", and test_kmem_basic counts the negative
# dentries of 100000 lookups in "/", which the initramfs' ramfs does not
# keep; "localhost" in its /etc/hosts (test_memcg_sock).
. /tests/lib.sh

ST=/opt/selftests
[ -x $ST/test_memcontrol ] || fail "no $ST/test_memcontrol (vm.sh builds it when this case is named)"
note "tests from $(cat $ST/source)"
# Every state's files are /tmp/conform.STATE*, the verdicts of all of them
# /tmp/conform-verdicts: a name no state can take ("all" once made the
# aggregate its own input, and cat grew it until the guest stalled).
STATES=$(echo "${CONFORM_STATES:-stock off throttle exclusive reclaim_seed reclaim_cliff limit all}" | tr + ' ')
BINS=$(echo "${CONFORM_BINS:-test_memcontrol test_kmem}" | tr + ' ')
ALLOWED=$(echo "${CONFORM_ALLOWED:-}" | tr + ' ')
# CONFORM_TESTS: only these tests of each binary ("+" between names; the
# binaries read SKM_TESTS, scripts/selftests-build.sh); default all. A name
# this kernel's tests lack runs nowhere and is noted.
TESTS=$(echo "${CONFORM_TESTS:-}" | tr + ' ')
SKM_TESTS=$(echo "$TESTS" | tr ' ' ,)
export SKM_TESTS

modprobe brd rd_nr=2 rd_size=524288 || fail "modprobe brd"
mkswap /dev/ram0 > /dev/null || fail "mkswap /dev/ram0"
swapon /dev/ram0 || fail "swapon /dev/ram0"
modprobe_ext4 || fail "modprobe ext4"
mke2fs -q -b 4096 /dev/ram1 > /dev/null 2>&1 || fail "mke2fs"
R=/mnt/st
mkdir -p $R
mount -t ext4 /dev/ram1 $R || fail "mount $R"
mkdir -p $R/proc $R/sys/fs/cgroup $R/etc $R/bin
mount -t proc proc $R/proc || fail "mount $R/proc"
mount -t cgroup2 cgroup2 $R/sys/fs/cgroup || fail "mount $R/sys/fs/cgroup"
cp $ST/test_memcontrol $ST/test_kmem $R/bin/
printf '127.0.0.1 localhost\n::1 localhost\n' > $R/etc/hosts
printf 'hosts: files\n' > $R/etc/nsswitch.conf
trap 'umount $R/sys/fs/cgroup; umount $R/proc; umount $R; swapoff /dev/ram0' EXIT

now() { cut -d' ' -f1 /proc/uptime; }
secs_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }'; }

# params STATE: the module parameters of a state
params() {
	case $1 in
	off) echo "" ;;
	throttle) echo "throttle=1" ;;
	exclusive) echo "exclusive=1" ;;
	reclaim_*) echo "reclaim_policy=${1#reclaim_}" ;;
	limit) echo "sock_limits=+/skm_conform=1G" ;;
	all) echo "$ALL_POLICIES" ;;
	*) fail "unknown state $1" ;;
	esac
}

# verdicts STATE BIN FILE: "STATE BIN TEST VERDICT" for each TAP line
verdicts() {
	awk -v s="$1" -v b="$2" '
		/^ok [0-9]+ / { v = ($0 ~ /# SKIP/) ? "skip" : "pass"; print s, b, $3, v }
		/^not ok [0-9]+ / { v = ($0 ~ /# SKIP/) ? "skip" : "fail"; print s, b, $4, v }
	' "$3"
}

# run STATE: every test of BINS, one line "STATE BIN TEST VERDICT" each. A
# binary with a failed test runs again, up to CONFORM_TRIES (3) times in
# all, and a test passes if it passed once: under TCG some are timing
# sensitive (test_memcg_sock compares memory.current with the socket memory
# of a stream being read). The output of every try is kept, and a test that
# needed more than one is named in the case's log.
TRIES=${CONFORM_TRIES:-3}
run() {
	for b in $BINS; do
		try=1
		while :; do
			o=/tmp/conform.$1.$b.$try
			echo "conform_memcg: $1: $b, try $try" > /dev/console
			timeout "${CONFORM_BIN_TIMEOUT:-600}" chroot $R "/bin/$b" > "$o" 2>&1
			rc=$?
			if [ "$rc" = 124 ] || [ "$rc" = 143 ]; then
				echo t > /proc/sysrq-trigger
				fail "$1: $b did not finish in ${CONFORM_BIN_TIMEOUT:-600} s (the tasks' stacks are in dmesg); its output: $(tail -n 5 "$o")"
			fi
			verdicts "$1" "$b" "$o" > "$o.v"
			cat /tmp/conform."$1"."$b".*.v | awk '
				{ k = $1 " " $2 " " $3; if (!(k in v) || $4 != "fail") v[k] = $4 }
				END { for (k in v) print k, v[k] }' | sort > "/tmp/conform.$1.$b.v"
			grep -q ' fail$' "/tmp/conform.$1.$b.v" || break
			[ "$try" -lt "$TRIES" ] || break
			try=$((try + 1))
		done
		[ "$try" -gt 1 ] && note "$1: $b ran $try times; failed in some: $(cat /tmp/conform."$1"."$b".*.v | awk '$4 == "fail" { print $3 }' | sort -u | tr '\n' ' ')" >&2
		cat "/tmp/conform.$1.$b.v"
	done
}

: > /tmp/conform-verdicts
for s in $STATES; do
	t=$(now)
	if [ "$s" != stock ]; then
		# shellcheck disable=SC2046
		modprobe skmemcg $(params "$s") || fail "$s: modprobe skmemcg $(params "$s")"
	fi
	run "$s" > "/tmp/conform.$s"
	if [ "$s" != stock ]; then
		echo "conform_memcg: $s: rmmod" > /dev/console
		rmmod skmemcg &
		rm_pid=$!
		n=0
		while kill -0 "$rm_pid" 2> /dev/null && [ $n -lt 120 ]; do
			sleep 1
			n=$((n + 1))
		done
		if kill -0 "$rm_pid" 2> /dev/null; then
			echo l > /proc/sysrq-trigger
			echo t > /proc/sysrq-trigger
			fail "$s: rmmod did not return in 120 s (the stacks are in dmesg)"
		fi
		wait "$rm_pid" || fail "$s: rmmod"
	fi
	cat "/tmp/conform.$s" >> /tmp/conform-verdicts
	note "$s ($(secs_since "$t")s): $(awk '{ n[$4]++ } END { printf "%d pass, %d fail, %d skip", n["pass"], n["fail"], n["skip"] }' "/tmp/conform.$s")$(awk '$4 == "fail" { printf " %s", $3 }' "/tmp/conform.$s")"
	[ -s "/tmp/conform.$s" ] || { for b in $BINS; do tail -n 20 "/tmp/conform.$s.$b.1"; done; fail "$s: no test verdicts"; }
done

for tst in $TESTS; do
	grep -q " $tst " /tmp/conform-verdicts ||
		note "$tst: not among this kernel's tests (from $(cat $ST/source))"
done
[ -s /tmp/conform-verdicts ] || fail "no test ran (CONFORM_TESTS: ${TESTS:-all})"
bad=0
# The stock kernel passes every test in this guest.
for tst in $(awk '$1 == "stock" && $4 == "fail" { print $2 ":" $3 }' /tmp/conform-verdicts); do
	note "FAIL: stock kernel: ${tst#*:} fails; its output:"
	grep -h -B 15 "^not ok .* ${tst#*:}\$" /tmp/conform.stock."${tst%%:*}".[0-9] | sed 's/^/  /'
	bad=1
done
# Each state gives each test stock's verdict, or is allowed to differ.
awk '$1 == "stock" { v[$2 " " $3] = $4; next }
	{ k = $2 " " $3; w = (k in v) ? v[k] : "none"; if (w != $4) print $1, $3, w, $4 }' \
	/tmp/conform-verdicts > /tmp/conform-diff
while read -r s tst want got; do
	case " $ALLOWED " in
	*" $s:$tst "*)
		note "$s: $tst $got where stock gives $want (allowed: CONFORM_ALLOWED)"
		continue ;;
	esac
	note "FAIL: $s: $tst $got where stock gives $want; its output:"
	grep -h -B 15 "^not ok .* $tst\$" /tmp/conform."$s".*.[0-9] | sed 's/^/  /'
	bad=1
done < /tmp/conform-diff
[ "$bad" = 0 ] || fail "verdicts differ (above)"
note "every state gives stock's verdicts: $(wc -l < /tmp/conform-verdicts) test runs"
