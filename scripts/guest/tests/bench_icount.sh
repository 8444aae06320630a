# SPDX-License-Identifier: GPL-2.0
# What skmemcg costs, counted in instructions: the guest runs under QEMU's
# -icount shift=0,sleep=off (vm.sh -I, one vCPU, single-threaded TCG), so
# its clock advances by executed instructions and a fixed workload's guest
# time does not depend on the host's load. Two fixed workloads in a cgroup
# at depth 1: ICOUNT_MIB (128) MiB over one loopback TCP stream (skm-tcp),
# ICOUNT_RR (20000) 64-byte TCP round trips (skm-rr) and ICOUNT_CRR (2000)
# connections with one round trip each (skm-rr -c, TCP_CRR), each timed in the
# guest with CLOCK_MONOTONIC, for each configuration of lib_bench.sh,
# interleaved over ICOUNT_REPEATS (3) repeats. Prints "ICOUNT" lines for
# scripts/bench-report.py, each with the workload's CPU time beside its
# guest time: time the vCPU sat idle (waiting for a timer, say) counts in
# the guest time too, not in the CPU time. Nothing is asserted on the
# figures here. With ICOUNT_AB=1 (scripts/bench-ab.sh) every configuration
# but none runs twice in each repeat, with /opt/skmemcg-base.ko (another
# build) as "CONFIG@base" and the installed module as "CONFIG@new".
. /tests/lib.sh
. /tests/lib_burst.sh
. /tests/lib_bench.sh

REPEATS=${ICOUNT_REPEATS:-3}
MIB=${ICOUNT_MIB:-128}
RR=${ICOUNT_RR:-20000}
CRR=${ICOUNT_CRR:-2000}
CONFIGS=$(echo "${ICOUNT_CONFIGS:-none:off:hooked:throttle:pcpu:exclusive:reclaim:limit:all}" | tr : ' ')

ip link set lo up 2> /dev/null
cg=$(cgroup_at 1)
note "icount: $MIB MiB stream, $RR round trips, $CRR connections, $REPEATS repeats, $(nproc) CPU(s)"
# Once first, not counted: the boot's first stream ran 1.4 % longer than
# every later one (memory and caches warming up), whatever the configuration.
in_cgroup "$cg" skm-tcp -b "$MIB" -c 1 > /dev/null || fail "skm-tcp warm-up"
in_cgroup "$cg" skm-rr -n 1 -N "$RR" > /dev/null || fail "skm-rr warm-up"
in_cgroup "$cg" skm-rr -c -n 1 -N "$CRR" > /dev/null || fail "skm-rr -c warm-up"
# measure CONFIG CASE WORKLOAD...: one "ICOUNT" line, the guest time (ns)
# and the workload's CPU time (cpu_ns): what is not CPU time was waited.
measure() {
	_c=$1 _case=$2
	shift 2
	_out=$(in_cgroup "$cg" "$@")
	_ns=$(echo "$_out" | sed -n 's/.* ns=\([0-9]*\).*/\1/p')
	_cpu=$(echo "$_out" | sed -n 's/.* cpu_ns=\([0-9]*\).*/\1/p')
	[ -n "$_ns" ] && [ -n "$_cpu" ] || fail "$1, $_c: no figure ($_out)"
	echo "ICOUNT config=$_c case=$_case rep=$rep ns=$_ns cpu_ns=$_cpu"
}

rep=1
while [ $rep -le "$REPEATS" ]; do
	order=$(echo $CONFIGS | awk -v r=$rep '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r - 1) % NF + 1) }')
	for config in $order; do
		builds=-
		[ -n "${ICOUNT_AB:-}" ] && [ "$config" != none ] && builds="base new"
		# the two builds alternate which goes first, repeat by repeat
		[ $((rep % 2)) -eq 0 ] && [ "$builds" != - ] && builds="new base"
		for build in $builds; do
			label=$config
			SKM_KO=
			if [ "$build" != - ]; then
				label=$config@$build
				[ "$build" = base ] && SKM_KO=/opt/skmemcg-base.ko
			fi
			config_load "$config" "$cg"
			measure "$label" "TCP_STREAM_${MIB}MiB" skm-tcp -b "$MIB" -c 1
			measure "$label" "TCP_RR_${RR}" skm-rr -n 1 -N "$RR"
			measure "$label" "TCP_CRR_${CRR}" skm-rr -c -n 1 -N "$CRR"
			config_unload "$config"
		done
	done
	SKM_KO=
	rep=$((rep + 1))
done
exit 0
