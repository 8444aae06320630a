#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmarks, in the VM (make bench). The guest gets as many vCPUs as this
# machine has CPUs.
#
#   scripts/bench.sh [-k KVER] [-r repeats] [-t threads] [-s seconds]
#                    [-m MiB-per-connection] [-q]
#
# overhead (scripts/guest/tests/bench_overhead.sh): what skmemcg costs with
# no memory pressure, seed 000's table: TCP/UDP stream (iperf3),
# request/response (skm-rr) and TCP connect/request/response/close
# (skm-rr -c, TCP_CRR, 500 connections a thread) at 1, 2, 4 and 8 threads
# (-t "1:2:4:8"), -r
# repeats (3) of -s seconds (1) per stream run, in a cgroup at depth 1 and
# 5, for no module, the module with every policy off, each policy alone and
# all on, interleaved; then each hook's time per call with "instrument" on.
# Writes out/bench-KVER.txt and out/bench-KVER.png (scripts/bench-report.py).
#
# icount (scripts/guest/tests/bench_icount.sh): the deterministic column. A
# boot of one vCPU under QEMU's -icount (vm.sh -I), where guest time counts
# instructions: 128 MiB over one TCP stream, 20000 TCP round trips and 2000
# TCP connections with one round trip each per configuration (two more:
# limit, a sock_limits entry never reached; hooked, exclusive's hooks with
# no socket exclusive), -r repeats. Writes out/bench-icount-KVER.txt.
#
# pcpu (scripts/guest/tests/pcpu_bench.sh): writes to the global TCP counter
# per GiB moved over loopback, for 1 MB, auto and 16 MB per-CPU reserves,
# in a guest split over 2 NUMA nodes when the CPU count is even. -m MiB per
# connection (512).
#
# -q: the smoke form the test command runs (one repeat, one thread, short
# runs, 100 connections; icount with 16 MiB, 2000 round trips and 200
# connections, none, off and all only;
# no pcpu part), so that the
# benchmark cannot rot.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kver=${KVER:-}
repeats=3
threads=1:2:4:8
secs=1
rr_n=1000
crr_n=500
mib=512
quick=
while getopts "k:r:t:s:m:q" opt; do
	case $opt in
	k) kver=$OPTARG ;;
	r) repeats=$OPTARG ;;
	t) threads=$OPTARG ;;
	s) secs=$OPTARG ;;
	m) mib=$OPTARG ;;
	q) quick=1 repeats=1 threads=1 secs=1 rr_n=500 crr_n=100 ;;
	*) skm_die "usage: see the header of $0" ;;
	esac
done
[ -n "$kver" ] || kver=$(skm_kver_61)
[ -n "$kver" ] || skm_die "no Debian kernel installed: run scripts/setup.sh"
command -v iperf3 > /dev/null || skm_die "iperf3 not installed: run scripts/setup.sh"

cpus=$(nproc)
tag=bench
[ -n "$quick" ] && tag=bench-smoke
# vmrun ARGS...: vm.sh, its result line kept for the sum this script ends with
counts=$SKM_OUT/$tag-$kver.counts
: > "$counts"
vmrun() { "$SKM_ROOT/scripts/vm.sh" "$@" | tee -a "$counts"; }

SKM_GUEST_BINS=iperf3 vmrun -k "$kver" -c "$cpus" -m 1024 -w "$tag" \
	-t bench_overhead -T 2400 ${quick:+-q} \
	-e "BENCH_REPEATS=$repeats BENCH_THREADS=$threads BENCH_SECS=$secs BENCH_RR_N=$rr_n BENCH_CRR_N=$crr_n"
# The report also goes to out/TAG-KVER.txt; printed only in full runs (the
# test command keeps the last line of this script's output as its count).
report=$("$SKM_ROOT/scripts/bench-report.py" "$SKM_OUT/vm-$kver-$tag/console.log" \
	"$SKM_OUT/$tag-$kver" "skmemcg overhead, $kver, $cpus vCPUs (TCG)")

# The deterministic column: one vCPU under -icount.
ic_mib=128 ic_rr=20000 ic_crr=2000 ic_configs=none:off:hooked:throttle:pcpu:exclusive:reclaim:limit:all
[ -n "$quick" ] && ic_mib=16 ic_rr=2000 ic_crr=200 ic_configs=none:off:all
vmrun -k "$kver" -c 1 -I -m 1024 -w "$tag-icount" \
	-t bench_icount -T 2400 ${quick:+-q} \
	-e "ICOUNT_REPEATS=$repeats ICOUNT_MIB=$ic_mib ICOUNT_RR=$ic_rr ICOUNT_CRR=$ic_crr ICOUNT_CONFIGS=$ic_configs"
icount=$("$SKM_ROOT/scripts/bench-report.py" "$SKM_OUT/vm-$kver-$tag-icount/console.log" \
	"$SKM_OUT/$tag-icount-$kver")
# Last line, as vm.sh's: the cases of both boots (the test command counts it).
total() {
	awk -v k="$kver" '/^vm\[.*\]: [0-9]+ passed, [0-9]+ failed$/ { p += $(NF - 3); f += $(NF - 1) }
		END { printf "bench[%s]: %d passed, %d failed\n", k, p, f }' "$counts"
}
if [ -n "$quick" ]; then
	total
	exit 0
fi
echo "$report"
echo "$icount"

nodes=1
[ "$cpus" -ge 2 ] && [ $((cpus % 2)) -eq 0 ] && nodes=2
vmrun -k "$kver" -c "$cpus" -n "$nodes" -m 1024 \
	-t pcpu_bench -T 900 -e "PCPU_BENCH_MIB=$mib"
total
