# SPDX-License-Identifier: GPL-2.0
# pcpu_rsv drives net.core.mem_pcpu_rsv: auto = max(1 MB, tcp_mem[2] /
# online CPUs / divisor), recomputed when the divisor, tcp_mem or the set of
# online CPUs changes; explicit sizes below the sysctl's 1 MB floor; the
# value found before is restored by "off", enabled=0 and rmmod, unless the
# admin wrote the sysctl meanwhile. Stats show the reserve in force and the
# worst-case uncertainty of sockstat "mem".
. /tests/lib.sh

SYSCTL=/proc/sys/net/core/mem_pcpu_rsv
rsv() { cat $SYSCTL; }
online() { grep -c ^processor /proc/cpuinfo; }
tcp_mem_max() { awk '{ print $3 }' /proc/sys/net/ipv4/tcp_mem; }
# auto DIVISOR: the size the module must pick now
auto() {
	a=$(( $(tcp_mem_max) / $(online) / $1 ))
	[ "$a" -lt 256 ] && a=256
	echo $a
}
# wait_rsv WANT WHAT: the monitor polls once a second; allow three
wait_rsv() {
	for _ in $(seq 30); do
		[ "$(rsv)" = "$1" ] && return 0
		sleep 0.1
	done
	fail "$2: mem_pcpu_rsv $(rsv), want $1"
}

tcp_mem_saved=$(cat /proc/sys/net/ipv4/tcp_mem)
trap 'echo "$tcp_mem_saved" > /proc/sys/net/ipv4/tcp_mem; echo 256 > $SYSCTL
      for c in /sys/devices/system/cpu/cpu*/online; do echo 1 > $c; done' EXIT

# The sysctl itself refuses less than 1 MB; the module does not.
echo 100 > $SYSCTL 2>/dev/null && fail "the sysctl took 100 pages"
echo 512 > $SYSCTL
expect_eq "sysctl before load" "$(rsv)" 512

load pcpu_rsv=auto
expect_eq "auto at load" "$(rsv)" "$(auto 8)"
expect_eq "pcpu_rsv reads back" "$(cat $PAR/pcpu_rsv)" auto
expect_eq "stats pcpu_rsv_pages" "$(skm_stat pcpu_rsv_pages)" "$(rsv)"
expect_eq "stats uncertainty" "$(skm_stat pcpu_uncertainty_pages)" $(( $(online) * $(rsv) ))
note "auto: tcp_mem[2]=$(tcp_mem_max) cpus=$(online) divisor=8 -> $(rsv) pages"

echo 1 > $PAR/pcpu_rsv_divisor
expect_eq "divisor 1" "$(rsv)" "$(auto 1)"
echo 8 > $DBG/pcpu_rsv_divisor
expect_eq "divisor 8 again" "$(rsv)" "$(auto 8)"

set -- $tcp_mem_saved
echo "$1 $2 $(( $3 * 4 ))" > /proc/sys/net/ipv4/tcp_mem
wait_rsv "$(auto 8)" "tcp_mem[2] x4"
note "tcp_mem[2]=$(tcp_mem_max) -> $(rsv) pages"
echo "$tcp_mem_saved" > /proc/sys/net/ipv4/tcp_mem
wait_rsv "$(auto 8)" "tcp_mem restored"

# CPU hotplug: fewer CPUs, a bigger share each.
last=/sys/devices/system/cpu/cpu$(( $(online) - 1 ))/online
if [ -w "$last" ]; then
	before=$(rsv)
	echo 0 > "$last"
	wait_rsv "$(auto 8)" "after a CPU went offline"
	[ "$(rsv)" -gt "$before" ] || fail "offlining a CPU did not grow the reserve"
	note "$(online) CPUs online -> $(rsv) pages"
	expect_eq "uncertainty after offline" "$(skm_stat pcpu_uncertainty_pages)" $(( $(online) * $(rsv) ))
	echo 1 > "$last"
	wait_rsv "$before" "after the CPU came back"
else
	note "no hotpluggable CPU; hotplug not checked"
fi

# Explicit sizes, below the sysctl's floor too.
echo 100 > $PAR/pcpu_rsv
expect_eq "pcpu_rsv=100" "$(rsv)" 100
echo 1 > $DBG/pcpu_rsv
expect_eq "pcpu_rsv=1" "$(rsv)" 1
echo 0 > $PAR/pcpu_rsv
expect_eq "pcpu_rsv=0 is auto" "$(cat $PAR/pcpu_rsv)" auto
expect_eq "pcpu_rsv=0" "$(rsv)" "$(auto 8)"

# Back to the default: the value found at load returns.
echo off > $PAR/pcpu_rsv
expect_eq "pcpu_rsv=off restores" "$(rsv)" 512
echo 64 > $PAR/pcpu_rsv
expect_eq "pcpu_rsv=64" "$(rsv)" 64
echo 0 > $PAR/enabled
expect_eq "enabled=0 restores" "$(rsv)" 512
echo 1 > $PAR/enabled
expect_eq "enabled=1 applies again" "$(rsv)" 64
unload
expect_eq "rmmod restores" "$(rsv)" 512
dmesg | grep -q "skmemcg: net.core.mem_pcpu_rsv restored to 512 pages" ||
	fail "no restore line in dmesg"

# The admin's write while the module drives the sysctl wins, and stays.
load pcpu_rsv=64
echo 300 > $SYSCTL
unload
expect_eq "admin's value kept at rmmod" "$(rsv)" 300
dmesg | grep -q "skmemcg: net.core.mem_pcpu_rsv left at 300, set outside skmemcg" ||
	fail "no 'left at' line in dmesg"
load pcpu_rsv=64
unload
expect_eq "restores the admin's value" "$(rsv)" 300

# Default load leaves the sysctl alone.
load
expect_eq "pcpu_rsv default" "$(cat $PAR/pcpu_rsv)" off
expect_eq "untouched by a default load" "$(rsv)" 300
unload
exit 0
