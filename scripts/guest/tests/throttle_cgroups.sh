# SPDX-License-Identifier: GPL-2.0
# throttle_cgroups scopes throttling: with /tc_on listed (given at load,
# before it was made: the entry waits, then takes effect when it is made),
# the same socket burst under the same memory.max is throttled in /tc_on
# and not in its sibling /tc_off; emptied, the list throttles every cgroup
# again.
. /tests/lib.sh
. /tests/lib_burst.sh

CG=/sys/fs/cgroup
throttled() { # CGROUP-PATH: its throttled TX + RX in "cgroups" (0 if no line)
	awk -v p="$1" '$1 == p { s = $4 + $5 } END { print s + 0 }' $DBG/cgroups
}
# burst_in CG: 8 connections of 4 MiB bursts for 6 s under memory.max 32
# MiB (unthrottled, the burst may be OOM-killed: its status is not checked)
burst_in() {
	mkdir -p "$1"
	echo $((32 << 20)) > "$1/memory.max"
	in_cgroup "$1" skm-burst -c 8 -b 4096 -t 6 > "/tmp/burst.$(basename "$1")" 2>&1
	note "burst in $1: $(awk '$1 == "oom_kill" { print "oom_kill " $2 }' "$1/memory.events")"
}

echo 16777216 > /proc/sys/net/core/rmem_max
echo 16777216 > /proc/sys/net/core/wmem_max
load throttle=1 throttle_cgroups=+/tc_on
expect_eq "throttle_cgroups at load" "$(cat $PAR/throttle_cgroups)" "+/tc_on waiting"
burst_in $CG/tc_on
expect_eq "throttle_cgroups once /tc_on is made" "$(cat $PAR/throttle_cgroups)" "+/tc_on"
burst_in $CG/tc_off
on=$(throttled /tc_on)
off=$(throttled /tc_off)
note "same burst: /tc_on (listed) throttled $on, /tc_off (not listed) $off"
[ "$on" -gt 0 ] || fail "/tc_on, listed, was not throttled"
expect_eq "/tc_off, not listed, throttled" "$off" 0

# Emptied: every cgroup is throttled again.
echo -/tc_on > $PAR/throttle_cgroups
burst_in $CG/tc_off
off=$(throttled /tc_off)
note "list emptied: /tc_off throttled $off"
[ "$off" -gt 0 ] || fail "/tc_off not throttled with throttle_cgroups empty"
unload
rmdir $CG/tc_on $CG/tc_off || fail "rmdir"
exit 0
