#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The OCI hook (scripts/skmemcg-oci-hook) on a fake tree: the module's
# parameters, /proc/PID/cgroup and /sys/fs/cgroup are folders here
# (SKMEMCG_PARAMS, SKMEMCG_PROC, SKMEMCG_CGROOT), so that every path of the
# hook runs on the host in a second, without root. A knob file keeps the
# last line written to it, as the fake cannot apply updates: enough to see
# what the hook wrote last, and that a failure took back what it had
# written. Ends with "oci-hook: N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
command -v jq > /dev/null || skm_die "jq is not installed (scripts/setup.sh)"

hook=$SKM_ROOT/scripts/skmemcg-oci-hook
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1: $2"; }

export SKMEMCG_PARAMS=$tmp/params SKMEMCG_PROC=$tmp/proc SKMEMCG_CGROOT=$tmp/cg \
	SKMEMCG_OCI_STATE=$tmp/state SKMEMCG_OCI_DEFAULTS=$tmp/none
cg=/machine.slice/libpod-ab12.scope

reset() {
	rm -rf "$tmp/params" "$tmp/proc" "$tmp/cg" "$tmp/state"
	mkdir -p "$tmp/params" "$tmp/proc/77" "$tmp/cg$cg"
	: > "$tmp/params/sock_limits"
	: > "$tmp/params/exclusive_cgroups"
	: > "$tmp/params/throttle_cgroups"
	echo "0::$cg" > "$tmp/proc/77/cgroup"
}

# run STAGE JSON: the hook, its status in $rc and its messages in $err
run() {
	err=$(printf '%s' "$2" | "$hook" "$1" 2>&1 > /dev/null)
	rc=$?
}
state() { printf '{"ociVersion":"1.0.2","id":"%s","status":"creating","pid":%s,"bundle":"/b","annotations":%s}' "$1" "$2" "$3"; }
last() { cat "$tmp/params/$1"; }

# create, then poststop
reset
run create "$(state ab12 77 '{"io.skmemcg.sock_limit":"64M","io.skmemcg.exclusive":"true","other":"x"}')"
if [ "$rc" -eq 0 ] && [ "$(last sock_limits)" = "+$cg=64M" ] &&
	[ "$(last exclusive_cgroups)" = "+$cg" ] && [ -z "$(last throttle_cgroups)" ] &&
	[ -f "$tmp/state/ab12" ]; then
	pass create
else
	fail create "rc $rc, sock_limits '$(last sock_limits)', exclusive '$(last exclusive_cgroups)': $err"
fi
run poststop '{"id":"ab12","status":"stopped"}'
if [ "$rc" -eq 0 ] && [ "$(last sock_limits)" = "-$cg" ] &&
	[ "$(last exclusive_cgroups)" = "-$cg" ] && [ ! -e "$tmp/state/ab12" ]; then
	pass poststop
else
	fail poststop "rc $rc, sock_limits '$(last sock_limits)': $err"
fi

# refused before anything is written: each with the words the error must have
bad_cases=(
	'{"io.skmemcg.sock_limit":"64MB"}|not a size'
	'{"io.skmemcg.sock_limit":"64M\nx"}|not a size'
	'{"io.skmemcg.sock_limit":"-1"}|not a size'
	'{"io.skmemcg.sock_limit":"1234567890123456"}|not a size'
	'{"io.skmemcg.sock_limit":64}|not a string'
	'{"io.skmemcg.exclusive":"yes"}|not true or false'
	'{"io.skmemcg.path":"/"}|not an skmemcg annotation'
	'{"io.skmemcg.sock_limit":"1M","io.skmemcg.bogus":"1"}|not an skmemcg annotation'
)
for c in "${bad_cases[@]}"; do
	ann=${c%|*} want=${c##*|}
	reset
	run create "$(state ab12 77 "$ann")"
	if [ "$rc" -ne 0 ] && [[ $err == *"$want"* ]] && [ -z "$(last sock_limits)" ] &&
		[ -z "$(last exclusive_cgroups)" ] && [ ! -e "$tmp/state/ab12" ]; then
		pass "refused $ann"
	else
		fail "refused $ann" "rc $rc, sock_limits '$(last sock_limits)': $err"
	fi
done

# ids and pids that are not a container's
reset
for st in '{"id":"../x","pid":77}' '{"id":"","pid":77}' '{"id":7,"pid":77}' 'not json' \
	"$(state ab12 0 '{"io.skmemcg.sock_limit":"1M"}')" \
	"$(state ab12 '"77"' '{"io.skmemcg.sock_limit":"1M"}')"; do
	run create "$st"
	if [ "$rc" -ne 0 ] && [ -z "$(last sock_limits)" ] && [ -z "$(ls "$tmp/state" 2> /dev/null)" ]; then
		pass "refused state $st"
	else
		fail "refused state $st" "rc $rc: $err"
	fi
done

# a process in the root cgroup (or one whose cgroup is not there)
for c in "0::/" "0::/gone.scope"; do
	reset
	echo "$c" > "$tmp/proc/77/cgroup"
	run create "$(state ab12 77 '{"io.skmemcg.sock_limit":"1M"}')"
	if [ "$rc" -ne 0 ] && [ -z "$(last sock_limits)" ]; then
		pass "refused cgroup $c"
	else
		fail "refused cgroup $c" "rc $rc, sock_limits '$(last sock_limits)': $err"
	fi
done

# not allowed on this host (/etc/default/skmemcg-oci-hook)
reset
echo "SKMEMCG_OCI_ALLOW=sock_limit" > "$tmp/defaults"
SKMEMCG_OCI_DEFAULTS=$tmp/defaults run create "$(state ab12 77 '{"io.skmemcg.exclusive":"true"}')"
if [ "$rc" -ne 0 ] && [[ $err == *"not allowed on this host"* ]] && [ -z "$(last exclusive_cgroups)" ]; then
	pass not-allowed
else
	fail not-allowed "rc $rc, exclusive_cgroups '$(last exclusive_cgroups)': $err"
fi
SKMEMCG_OCI_DEFAULTS=$tmp/defaults run create "$(state ab12 77 '{"io.skmemcg.sock_limit":"1M"}')"
if [ "$rc" -eq 0 ] && [ "$(last sock_limits)" = "+$cg=1M" ]; then
	pass allowed
else
	fail allowed "rc $rc, sock_limits '$(last sock_limits)': $err"
fi

# throttle: ignored while throttle_cgroups is empty, applied when scoped
reset
run create "$(state ab12 77 '{"io.skmemcg.throttle":"true"}')"
if [ "$rc" -eq 0 ] && [ -z "$(last throttle_cgroups)" ] && [[ $err == *"ignored"* ]]; then
	pass throttle-unscoped
else
	fail throttle-unscoped "rc $rc, throttle_cgroups '$(last throttle_cgroups)': $err"
fi
reset
echo "+/batch.slice" > "$tmp/params/throttle_cgroups"
run create "$(state ab12 77 '{"io.skmemcg.throttle":"true"}')"
if [ "$rc" -eq 0 ] && [ "$(last throttle_cgroups)" = "+$cg" ]; then
	pass throttle-scoped
else
	fail throttle-scoped "rc $rc, throttle_cgroups '$(last throttle_cgroups)': $err"
fi

# a knob that refuses the write: what was written is taken back
reset
rm "$tmp/params/exclusive_cgroups"
mkdir "$tmp/params/exclusive_cgroups"	# writing to it fails
run create "$(state ab12 77 '{"io.skmemcg.sock_limit":"2M","io.skmemcg.exclusive":"true"}')"
if [ "$rc" -ne 0 ] && [ "$(last sock_limits)" = "-$cg" ] && [ ! -e "$tmp/state/ab12" ] &&
	[[ $err == *"nothing of it is left"* ]]; then
	pass rollback
else
	fail rollback "rc $rc, sock_limits '$(last sock_limits)': $err"
fi

# the module not loaded: the container starts, the hook says why
reset
rm -rf "$tmp/params"
run create "$(state ab12 77 '{"io.skmemcg.sock_limit":"2M"}')"
if [ "$rc" -eq 0 ] && [[ $err == *"not loaded"* ]]; then
	pass not-loaded
else
	fail not-loaded "rc $rc: $err"
fi

# a record whose cgroup is gone is cleaned up at the next create
reset
mkdir -p "$tmp/state"
echo "sock_limits /machine.slice/libpod-old.scope" > "$tmp/state/old"
run create "$(state ab12 77 '{"io.skmemcg.exclusive":"true"}')"
if [ "$rc" -eq 0 ] && [ ! -e "$tmp/state/old" ] &&
	[ "$(last sock_limits)" = "-/machine.slice/libpod-old.scope" ]; then
	pass stale-record
else
	fail stale-record "rc $rc, sock_limits '$(last sock_limits)': $err"
fi

# no io.skmemcg annotation: nothing at all
reset
run create "$(state ab12 77 '{"io.skmemcg.exclusive":"false"}')"
if [ "$rc" -eq 0 ] && [ -z "$(last exclusive_cgroups)" ] && [ ! -e "$tmp/state/ab12" ]; then
	pass nothing-asked
else
	fail nothing-asked "rc $rc: $err"
fi

echo "oci-hook: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
