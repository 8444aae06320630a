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
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# burst CONNS KIB: a burst in the cgroup ($b) until burst_end.
burst() {
	burst_start "$cg" /tmp/burst.out -c "$1" -b "$2"
	b=$bg
}
burst_end() {
	burst_stop "$b" /tmp/burst.out
	b=
}

# Restore tcp_mem, and stop a burst still running, however the case ends.
trap '[ -z "${b:-}" ] || burst_kill "$b"; tcp_mem_restore' EXIT
tcp_mem_tight
cg=/sys/fs/cgroup/ex
mkdir "$cg"
load
base=$(sockstat_mem)

field_of() { echo "$1" | sed -n "s/.*\<$2=\([0-9-]*\).*/\1/p"; }

# sample NAME: a burst in the cgroup, the figures read while it holds
# memory. during=1 when it was still running after the last figure was
# read; read_s: seconds from its start to then.
sample() {
	p0=$(pressures)
	t0=$(uptime_s)
	burst 16 1024
	sleep 3
	line="$1 sockstat_mem=$(sockstat_mem) memcg_sock=$(memcg_sock $cg)"
	line="$line pressures=$(( $(pressures) - p0 )) rxq=$(rxq)"
	line="$line exclusive_pages=$(skm_stat exclusive_pages)"
	during=1
	burst_running /tmp/burst.out || during=0
	echo "$line during=$during read_s=$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN { printf "%.2f", b - a }')"
	burst_kill "$b"
}

global=$(sample global)
note "$global"
printf '+/ex' | skm-write $DBG/exclusive_cgroups > /dev/null
expect_eq "exclusive_cgroups" "$(cat $DBG/exclusive_cgroups)" "+/ex"
excl=$(sample exclusive)
note "$excl"

expect_eq "global: sampled during the burst" "$(field_of "$global" during)" 1
expect_eq "exclusive: sampled during the burst" "$(field_of "$excl" during)" 1
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
burst 8 1024
sleep 1
printf '+/ex' | skm-write $DBG/exclusive_cgroups > /dev/null
sleep 2
m=$(sockstat_mem)
note "made before: sockstat_mem=$m exclusive_sockets=$(skm_stat exclusive_sockets)"
[ "$m" -gt $((base + 100)) ] || fail "a socket made before turned exclusive"
expect_eq "exclusive sockets" "$(skm_stat exclusive_sockets)" 0
burst_end

# After close, everything is back (module loaded throughout).
expect_baseline "after close"
expect_eq "exclusive pages after close" "$(skm_stat exclusive_pages)" 0

# rmmod in the middle of exclusive traffic: pages handed back, then freed
# by the stock kernel, to the baseline.
burst 16 1024
sleep 2
unload_holding
burst_end
expect_baseline "after rmmod and close"

# enabled=0 in the middle of exclusive traffic does the same as rmmod.
load
printf '+/ex' | skm-write $DBG/exclusive_cgroups > /dev/null
burst 16 1024
sleep 2
held=$(skm_stat exclusive_pages)
echo 0 > $PAR/enabled
note "enabled=0 with $held exclusive pages live: exclusive_pages=$(skm_stat exclusive_pages)" \
     "exclusive_sockets=$(skm_stat exclusive_sockets)"
[ "$held" -gt 0 ] || fail "no exclusive pages before enabled=0"
expect_eq "exclusive pages after enabled=0" "$(skm_stat exclusive_pages)" 0
burst_end
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
lb=$!
sleep 1
live=$(lookup_ns)
note "lookup cost per allocation (TCG ns, one clock read included): none exclusive: $none; exclusive (this socket too): $live"
wait $lb
[ "$(field_of "$none" lookups)" -gt 0 ] || fail "no lookups counted"
unload

# The backstop: cap = 1000 x 50% = 500 pages of global + exclusive.
load exclusive=1 exclusive_backstop_pct=50
burst 16 1024
sleep 3
pages=$(skm_stat exclusive_pages)
stopped=$(skm_stat exclusive_backstopped)
note "backstop 50%: exclusive_pages=$pages backstopped=$stopped sockstat_mem=$(sockstat_mem)"
burst_end
[ "$stopped" -gt 0 ] || fail "the backstop suppressed nothing"
[ "$pages" -le 700 ] || fail "exclusive pages $pages far past the 500-page cap"
r=$(in_cgroup "$cg" skm-tcp -b 4) || fail "traffic did not recover after the burst"
note "after: $r"
unload
rm -f /tmp/*.out
while ! rmdir "$cg" 2>/dev/null; do sleep 0.1; done
exit 0
