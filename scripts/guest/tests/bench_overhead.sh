# SPDX-License-Identifier: GPL-2.0
# What skmemcg costs when nothing is under pressure (seed 000's tables):
# loopback TCP and UDP streams (iperf3) and request/response (skm-rr, the
# same number of transactions each run) at each thread count, inside a
# cgroup at depth 1 and at depth 5, for each configuration:
#   none       no module
#   off        module loaded, every policy off
#   throttle   throttle=1
#   pcpu       pcpu_rsv=auto
#   exclusive  the bench cgroup memcg-exclusive
#   reclaim    reclaim_policy=linear
#   all        all of the above
# Configurations are interleaved, repeat by repeat, to cancel drift. Each
# run prints a "BENCH" line; scripts/bench-report.py turns them into the
# table and chart. Then, with every policy on and "instrument" set, each
# workload runs once more and a small page-cache reclaim with memory.low
# runs, and the per-hook timing (debugfs hook_times) is printed as "HOOK"
# lines.
# BENCH_REPEATS (3), BENCH_THREADS (1:2:4:8), BENCH_SECS per stream run (2),
# BENCH_RR_N transactions per thread (2000), BENCH_CRR_N connections per
# thread for TCP_CRR (500), BENCH_DEPTHS (1:5),
# BENCH_CONFIGS (all seven, colon-separated).
. /tests/lib.sh
. /tests/lib_burst.sh
. /tests/lib_bench.sh

REPEATS=${BENCH_REPEATS:-3}
THREADS=$(echo "${BENCH_THREADS:-1:2:4:8}" | tr : ' ')
SECS=${BENCH_SECS:-2}
RR_N=${BENCH_RR_N:-2000}
DEPTHS=$(echo "${BENCH_DEPTHS:-1:5}" | tr : ' ')
CONFIGS=$(echo "${BENCH_CONFIGS:-none:off:throttle:pcpu:exclusive:reclaim:all}" | tr : ' ')
CRR_N=${BENCH_CRR_N:-500}
CASES="TCP_STREAM TCP_RR TCP_CRR UDP_STREAM UDP_RR"

command -v iperf3 > /dev/null || fail "iperf3 missing from the guest (vm.sh SKM_GUEST_BINS)"
ip link set lo up 2> /dev/null

# server_start CGROUP / server_stop: an iperf3 server in the bench cgroup,
# listening on 5201 (0x1451) before server_start returns.
server_start() {
	in_cgroup_bg "$1" iperf3 -s -p 5201 > /dev/null 2>&1
	srv=$bg
	n=0
	until grep -q ':1451 [0-9A-F]*:0000 0A' /proc/net/tcp /proc/net/tcp6 2> /dev/null; do
		n=$((n + 1))
		[ $n -lt 100 ] || fail "iperf3 server did not start"
		sleep 0.1
	done
}
server_stop() {
	kill "$srv" 2> /dev/null
	wait "$srv" 2> /dev/null
}

# run CASE THREADS CGROUP: prints the figure (bits/s or transactions/s).
run() {
	case $1 in
	TCP_STREAM|UDP_STREAM)
		udp=
		[ "$1" = UDP_STREAM ] && udp="-u -b 0 -l 1400"
		# shellcheck disable=SC2086
		in_cgroup "$3" iperf3 -c 127.0.0.1 -p 5201 -t "$SECS" -P "$2" $udp -J > /tmp/iperf.json 2> /dev/null
		# the receiver's figure, bits/s
		awk '/"sum_received"/ { f = 1 } f && /"bits_per_second"/ { gsub(/[^0-9.]/, "", $2); print $2; exit }' /tmp/iperf.json ;;
	TCP_RR) in_cgroup "$3" skm-rr -n "$2" -N "$RR_N" | sed -n 's/.*rate=//p' ;;
	TCP_CRR) in_cgroup "$3" skm-rr -c -n "$2" -N "$CRR_N" | sed -n 's/.*rate=//p' ;;
	UDP_RR) in_cgroup "$3" skm-rr -u -n "$2" -N "$RR_N" | sed -n 's/.*rate=//p' ;;
	esac
}

rep=1
while [ $rep -le "$REPEATS" ]; do
	for depth in $DEPTHS; do
		cg=$(cgroup_at "$depth")
		# rotate the order each repeat so no configuration always runs first
		order=$(echo $CONFIGS | awk -v r=$rep '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r - 1) % NF + 1) }')
		for config in $order; do
			config_load "$config" "$cg"
			server_start "$cg"
			for case in $CASES; do
				for t in $THREADS; do
					v=$(run "$case" "$t" "$cg")
					[ -n "$v" ] || fail "$case $t threads, $config, depth $depth: no figure"
					echo "BENCH depth=$depth config=$config case=$case threads=$t rep=$rep value=$v"
				done
			done
			server_stop
			config_unload "$config"
		done
	done
	rep=$((rep + 1))
done

# Per-hook timing, everything on, at the deepest depth.
for depth in $DEPTHS; do :; done
cg=$(cgroup_at "$depth")
config_load all "$cg"
echo Y > $PAR/instrument
server_start "$cg"
for case in $CASES; do
	run "$case" 2 "$cg" > /dev/null
done
server_stop
# A little reclaim under memory.low, so that the reclaim hooks are timed
# too: on the classic LRU and on MGLRU ($RECLAIM_SIZE_FN, and $EVICT_FN on 6.x).
modprobe brd rd_nr=1 rd_size=65536 && modprobe_ext4 ||
	fail "modprobe brd/ext4"
mke2fs -q /dev/ram0 > /dev/null 2>&1 && mkdir -p /mnt/bench && mount -t ext4 /dev/ram0 /mnt/bench ||
	fail "ext4 on brd"
dd if=/dev/zero of=/mnt/bench/f bs=1M count=48 2> /dev/null && sync
rc=$cg/reclaim
echo +memory > "$cg/cgroup.subtree_control" || fail "subtree_control in $cg"
mkdir "$rc"
echo $((8 << 20)) > "$rc/memory.low" || fail "memory.low of $rc"
echo $((24 << 20)) > "$cg/memory.max"
lru_gen=$(cat /sys/kernel/mm/lru_gen/enabled 2> /dev/null || true)
for mglru in n y; do
	[ -n "$lru_gen" ] && echo $mglru > /sys/kernel/mm/lru_gen/enabled
	echo 3 > /proc/sys/vm/drop_caches
	in_cgroup "$rc" skm-reread -t 3 /mnt/bench/f > /dev/null
done
[ -n "$lru_gen" ] && echo "$lru_gen" > /sys/kernel/mm/lru_gen/enabled
echo N > $PAR/instrument
sed 's/^/HOOK /' $DBG/hook_times
raise=$(awk '$1 == "__sk_mem_raise_allocated" { print $2 }' $DBG/hook_times)
size=$(awk -v f="$RECLAIM_SIZE_FN" '$1 == f { print $2 }' $DBG/hook_times)
unload
umount /mnt/bench
rmdir "$rc"
echo -memory > "$cg/cgroup.subtree_control"
echo max > "$cg/memory.max"
[ "${raise:-0}" -gt 0 ] || fail "hook_times counted no __sk_mem_raise_allocated call"
[ "${size:-0}" -gt 0 ] || fail "hook_times counted no $RECLAIM_SIZE_FN call (classic LRU reclaim)"
exit 0
