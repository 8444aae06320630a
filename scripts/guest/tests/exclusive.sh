# SPDX-License-Identifier: GPL-2.0
# memcg-exclusive socket accounting, the seed's own demonstration: a
# cgroup, tcp_mem "1000 1000 1000", socket pairs that send without reading.
# Not exclusive: sockstat TCP mem grows, TCP enters memory pressure, queues
# stay small. Exclusive: sockstat mem stays ~0, memory.stat sock grows, no
# pressure, larger queues. Then: a socket made before the cgroup became
# exclusive stays global; everything returns to baseline after close, with
# the module loaded and with rmmod in the middle of traffic; the backstop.
. /tests/lib.sh
. /tests/lib_burst.sh
. /tests/lib_sockmem.sh

pressures() {
	awk '$1 == "TcpExt:" { if (!h) { for (i = 2; i <= NF; i++) n[i] = $i; h = 1 }
		else for (i = 2; i <= NF; i++) if (n[i] == "TCPMemoryPressures") print $i }' /proc/net/netstat
}
# rxq: bytes queued at established receivers, summed, from /proc/net/tcp
rxq() {
	sum=0
	for q in $(awk 'NR > 1 && $4 == "01" { split($5, a, ":"); print a[2] }' /proc/net/tcp); do
		sum=$((sum + 0x$q))
	done
	echo $sum
}
# Restore tcp_mem however the case ends.
trap tcp_mem_restore EXIT
tcp_mem_tight
cg=/sys/fs/cgroup/ex
mkdir "$cg"
load
base=$(sockstat_mem)

field_of() { echo "$1" | sed -n "s/.*\<$2=\([0-9-]*\).*/\1/p"; }

# sample NAME: run a burst in the cgroup, sample while it holds memory.
sample() {
	p0=$(pressures)
	in_cgroup "$cg" skm-burst -c 16 -b 1024 -t 4 > /dev/null &
	b=$!
	sleep 3
	echo "$1 sockstat_mem=$(sockstat_mem) memcg_sock=$(memcg_sock $cg)" \
	     "pressures=$(( $(pressures) - p0 )) rxq=$(rxq)" \
	     "exclusive_pages=$(skm_stat exclusive_pages)"
	wait $b
}

global=$(sample global)
note "$global"
printf '+/ex' | skm-write $DBG/exclusive_cgroups > /dev/null
expect_eq "exclusive_cgroups" "$(cat $DBG/exclusive_cgroups)" "+/ex"
excl=$(sample exclusive)
note "$excl"

[ "$(field_of "$global" sockstat_mem)" -gt $((base + 100)) ] || fail "global: sockstat mem did not grow"
[ "$(field_of "$global" pressures)" -gt 0 ] || fail "global: no TCP memory pressure"
[ "$(field_of "$excl" sockstat_mem)" -le $((base + reserve)) ] ||
	fail "exclusive: sockstat mem grew past the per-CPU reserve"
expect_eq "exclusive: TCP memory pressures" "$(field_of "$excl" pressures)" 0
[ "$(field_of "$excl" memcg_sock)" -gt "$(field_of "$global" memcg_sock)" ] ||
	fail "exclusive: memory.stat sock did not grow past the global run's"
[ "$(field_of "$excl" rxq)" -gt "$(field_of "$global" rxq)" ] ||
	fail "exclusive: receive queues not larger"

# A socket created before the cgroup became exclusive stays global.
printf '%s' '-/ex' | skm-write $DBG/exclusive_cgroups > /dev/null
in_cgroup "$cg" skm-burst -c 8 -b 1024 -t 5 > /dev/null &
old=$!
sleep 1
printf '+/ex' | skm-write $DBG/exclusive_cgroups > /dev/null
sleep 2
m=$(sockstat_mem)
note "made before: sockstat_mem=$m exclusive_sockets=$(skm_stat exclusive_sockets)"
[ "$m" -gt $((base + 100)) ] || fail "a socket made before turned exclusive"
expect_eq "exclusive sockets" "$(skm_stat exclusive_sockets)" 0
wait $old

# After close, everything is back (module loaded throughout).
expect_baseline "after close"
expect_eq "exclusive pages after close" "$(skm_stat exclusive_pages)" 0

# rmmod in the middle of exclusive traffic: pages handed back, then freed
# by the stock kernel, to the baseline.
in_cgroup "$cg" skm-burst -c 16 -b 1024 -t 4 > /dev/null &
b=$!
sleep 2
unload_holding
wait $b
expect_baseline "after rmmod and close"

# enabled=0 in the middle of exclusive traffic does the same as rmmod.
load
printf '+/ex' | skm-write $DBG/exclusive_cgroups > /dev/null
in_cgroup "$cg" skm-burst -c 16 -b 1024 -t 4 > /dev/null &
b=$!
sleep 2
held=$(skm_stat exclusive_pages)
echo 0 > $PAR/enabled
note "enabled=0 with $held exclusive pages live: exclusive_pages=$(skm_stat exclusive_pages)" \
     "exclusive_sockets=$(skm_stat exclusive_sockets)"
[ "$held" -gt 0 ] || fail "no exclusive pages before enabled=0"
expect_eq "exclusive pages after enabled=0" "$(skm_stat exclusive_pages)" 0
wait $b
expect_baseline "after enabled=0 and close"
unload

# The cost of finding whether a socket is exclusive, per allocation
# (instrument=1 times it), with no exclusive socket and with 16 pairs live.
# Exclusive accounting is on throughout (an empty cgroup listed first):
# with it off, nothing is hooked and nothing looked up.
lookup_ns() {
	echo 1 > $PAR/instrument
	live=$(skm_stat exclusive_sockets)
	n0=$(skm_stat exclusive_lookups) t0=$(skm_stat exclusive_lookup_ns)
	in_cgroup "$cg" skm-tcp -b 32 > /dev/null
	n=$(( $(skm_stat exclusive_lookups) - n0 ))
	t=$(( $(skm_stat exclusive_lookup_ns) - t0 ))
	echo "exclusive_sockets=$live lookups=$n mean_ns=$((t / (n > 0 ? n : 1)))"
}
mkdir -p /sys/fs/cgroup/ex_none
load exclusive_cgroups=+/ex_none
none=$(lookup_ns)
printf '+/ex' | skm-write $DBG/exclusive_cgroups > /dev/null
printf '%s' '-/ex_none' | skm-write $DBG/exclusive_cgroups > /dev/null
rmdir /sys/fs/cgroup/ex_none
in_cgroup "$cg" skm-burst -c 16 -b 256 -t 6 > /dev/null &
b=$!
sleep 1
live=$(lookup_ns)
note "lookup cost per allocation (TCG ns, one clock read included): none exclusive: $none; exclusive (this socket too): $live"
wait $b
[ "$(field_of "$none" lookups)" -gt 0 ] || fail "no lookups counted"
unload

# The backstop: cap = 1000 x 50% = 500 pages of global + exclusive.
load exclusive=1 exclusive_backstop_pct=50
in_cgroup "$cg" skm-burst -c 16 -b 1024 -t 4 > /dev/null &
b=$!
sleep 3
pages=$(skm_stat exclusive_pages)
stopped=$(skm_stat exclusive_backstopped)
note "backstop 50%: exclusive_pages=$pages backstopped=$stopped sockstat_mem=$(sockstat_mem)"
wait $b
[ "$stopped" -gt 0 ] || fail "the backstop suppressed nothing"
[ "$pages" -le 700 ] || fail "exclusive pages $pages far past the 500-page cap"
r=$(in_cgroup "$cg" skm-tcp -b 4) || fail "traffic did not recover after the burst"
note "after: $r"
unload
rm -f /tmp/*.out
while ! rmdir "$cg" 2>/dev/null; do sleep 0.1; done
exit 0
