# SPDX-License-Identifier: GPL-2.0
# Benchmark (seed 001): writes to the global TCP counter per GiB moved over
# loopback, for 1 MB, auto and 16 MB reserves, counted exactly with a
# hardware watchpoint on tcp_memory_allocated (skm-wcount). Two layouts:
# "spread", where the scheduler places 2 senders and 2 receivers, and
# "pinned", senders on CPU 0 and receivers on the last CPU, so pages are
# charged on one CPU and freed on another (asymmetric, as in the seed's
# loopback memcached case; across nodes on a NUMA guest). Checks that the
# 16 MB reserve takes fewer updates than 1 MB when pinned; prints the table.
# PCPU_BENCH_MIB: MiB per connection (default 128).
. /tests/lib.sh

mib=${PCPU_BENCH_MIB:-128}
last=$(( $(grep -c ^processor /proc/cpuinfo) - 1 ))
gib_x1000=$(( 2 * mib * 1000 / 1024 ))	# 2 connections, GiB x 1000
per_gib() { echo $(( $1 * 1000 / gib_x1000 )); }
# 7.x keeps tcp_memory_allocated in net_aligned_data, a cache line (64
# bytes on x86_64) after net_cookie (include/net/aligned_data.h).
case $(uname -r) in
7.*) TCP_ALLOCATED=net_aligned_data+64 ;;
*) TCP_ALLOCATED=tcp_memory_allocated ;;
esac
run() { skm-wcount $TCP_ALLOCATED skm-tcp -b "$mib" -c 2 "$@" | sed -n 's/^writes=//p'; }

skm-wcount $TCP_ALLOCATED true > /dev/null || skip "no hardware watchpoint"
printf '%-8s %6s %14s %14s\n' reserve pages spread/GiB pinned/GiB
for r in 256 auto 4096; do
	load pcpu_rsv=$r
	pages=$(cat /proc/sys/net/core/mem_pcpu_rsv)
	spread=$(run)
	pinned=$(run -S 0 -R "$last")
	[ -n "$spread" ] && [ -n "$pinned" ] || fail "no count for $r"
	unload
	printf '%-8s %6s %14s %14s\n' "$r" "$pages" "$(per_gib "$spread")" "$(per_gib "$pinned")"
	eval "pinned_$r=$pinned"
done
[ "$pinned_4096" -gt 0 ] || fail "16 MB reserve: no update counted at all"
note "ratio 1 MB / 16 MB, pinned: $(( pinned_256 * 10 / pinned_4096 / 10 )).$(( pinned_256 * 10 / pinned_4096 % 10 ))x; 1 MB / auto: $(( pinned_256 * 10 / pinned_auto / 10 )).$(( pinned_256 * 10 / pinned_auto % 10 ))x"
[ "$pinned_4096" -lt "$pinned_256" ] || fail "16 MB reserve took no fewer updates than 1 MB"
exit 0
