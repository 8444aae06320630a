# SPDX-License-Identifier: GPL-2.0
# 7.x's own bypass of protocol accounting (net.core.bypass_prot_mem: a
# socket created while it is 1 is kept out of the global counter by the
# kernel itself) beside memcg-exclusive accounting. skmemcg leaves such a
# socket to the kernel, never making it exclusive, so the two neither
# double-count nor leak: while bypassing sockets hold memory, sockstat TCP
# mem stays at the baseline and skmemcg counts no exclusive socket; with
# the sysctl back at 0 the cgroup's new sockets are skmemcg's again; after
# every close, and after an rmmod in the middle of bypassing and exclusive
# traffic together, sockstat mem is back at the baseline (not below: a
# double subtraction would show) and the memcg holds no socket memory.
# Kernels without the sysctl skip the case.
. /tests/lib.sh
. /tests/lib_burst.sh

BYPASS=/proc/sys/net/core/bypass_prot_mem
[ -e $BYPASS ] || skip "no net.core.bypass_prot_mem in this kernel"
. /tests/lib_sockmem.sh

b='' b1='' b2=''
trap 'for _b in $b $b1 $b2; do burst_kill $_b; done; tcp_mem_restore; echo 0 > $BYPASS' EXIT
tcp_mem_tight
cg=/sys/fs/cgroup/bp
mkdir "$cg"
load
printf '+/bp' | skm-write $DBG/exclusive_cgroups > /dev/null
base=$(sockstat_mem)

# holds: the cgroup holds over 1 MB of socket memory
holds() { [ "$(memcg_sock $cg)" -gt 1000000 ]; }
# burst_live: 16 pairs in the cgroup sending without reading until
# burst_stop ($b); returns once they hold their memory (a fixed 3 s once
# saw none yet on a loaded host, 7.3). Stopped, not timed, so that the
# figures read below are read under it however slow the guest.
burst_live() {
	burst_start "$cg" /tmp/bp.burst -c 16 -b 1024
	b=$bg
	wait_for 100 "the burst in $cg holds no socket memory 10 s in" holds
}

# Bypassing sockets in an exclusive cgroup: the kernel's, not skmemcg's.
echo 1 > $BYPASS
burst_live
m=$(sockstat_mem) s=$(memcg_sock $cg)
n=$(skm_stat exclusive_sockets) p=$(skm_stat exclusive_pages)
note "bypass: sockstat_mem=$m memcg_sock=$s exclusive_sockets=$n exclusive_pages=$p"
[ "$m" -le $((base + reserve)) ] || fail "bypass: sockstat mem grew to $m"
[ "$s" -gt 1000000 ] || fail "bypass: memory.stat sock only $s"
expect_eq "bypass: exclusive sockets" "$n" 0
burst_stop "$b" /tmp/bp.burst
b=''
expect_baseline "bypass: after close"

# The sysctl back at 0: new sockets of the cgroup are exclusive again.
echo 0 > $BYPASS
burst_live
n=$(skm_stat exclusive_sockets) m=$(sockstat_mem)
note "no bypass: sockstat_mem=$m exclusive_sockets=$n"
[ "$n" -gt 0 ] || fail "no bypass: no exclusive socket"
[ "$m" -le $((base + reserve)) ] || fail "no bypass: sockstat mem grew to $m"
burst_stop "$b" /tmp/bp.burst
b=''
expect_baseline "no bypass: after close"

# Both kinds live, then rmmod: skmemcg hands back only its own pages.
echo 1 > $BYPASS
burst_start "$cg" /tmp/bp.burst1 -c 8 -b 1024
b1=$bg
wait_for 100 "the bypassing burst holds no socket memory 10 s in" holds
echo 0 > $BYPASS
burst_start "$cg" /tmp/bp.burst2 -c 8 -b 1024
b2=$bg
some_exclusive() { [ "$(skm_stat exclusive_pages)" -gt 0 ]; }
wait_for 100 "the exclusive burst holds no exclusive pages 10 s in" some_exclusive
unload_holding " and bypassing sockets"
burst_stop "$b1" /tmp/bp.burst1
burst_stop "$b2" /tmp/bp.burst2
b1='' b2=''
expect_baseline "both, after rmmod and close"
