# SPDX-License-Identifier: GPL-2.0
# What skmemcg costs, counted in instructions: the guest runs under QEMU's
# -icount shift=0,sleep=off (vm.sh -I, one vCPU, single-threaded TCG), so
# its clock advances by executed instructions and a fixed workload's guest
# time does not depend on the host's load. Two fixed workloads in a cgroup
# at depth ICOUNT_DEPTH (1): ICOUNT_MIB (128) MiB over one loopback TCP stream (skm-tcp),
# ICOUNT_RR (20000) 64-byte TCP round trips (skm-rr) and ICOUNT_CRR (2000)
# connections with one round trip each (skm-rr -c, TCP_CRR), each timed in the
# guest with CLOCK_MONOTONIC, for each configuration of lib_bench.sh,
# interleaved over ICOUNT_REPEATS (3) repeats. Prints "ICOUNT" lines for
# scripts/bench-report.py, each with the workload's CPU time and the kernel
# threads' beside its guest time: time the vCPU sat idle (waiting for a
# timer, say) counts in the guest time too, not in those. Then
# "ICOUNT_CALLS" lines: each hook's calls in each workload (instrument=Y).
# Nothing is asserted on the figures here. With ICOUNT_AB=1 (scripts/bench-ab.sh) every configuration
# but none runs twice in each repeat, with /opt/skmemcg-base.ko (another
# build) as "CONFIG@base" and the installed module as "CONFIG@new".
# The stream's buffers are fixed at ICOUNT_STREAM_BUF (212992, the default
# net.core.rmem_max) bytes a side (skm-tcp -B; 0: autotuned): on 7.3.4 two
# of one configuration's three autotuned 32 MiB streams read the socket 515
# times with a 492807-byte receive buffer and the third 516 times with
# 448332 bytes, 0.33 % apart with no hook in (2026-12-07).
# A TCP_CRR run may carry SLUB "traps" (docs/measurements.md): a slab cache
# of sk_buffs caught so that each connection takes its slow paths once
# more, 0.2-0.3 % of a run each, 0 to 3 of them by the caches' state as the
# run begins; scripts/slab-paths.sh counts them from the host.
# ICOUNT_IDLE_CONNS=N keeps N idle loopback connections (2N sockets, no
# data) open in the cgroup while each configuration's workloads run, made
# after its load: what a host's other sockets add to a hooked call.
. /tests/lib.sh
. /tests/lib_burst.sh
. /tests/lib_bench.sh

REPEATS=${ICOUNT_REPEATS:-3}
MIB=${ICOUNT_MIB:-128}
RR=${ICOUNT_RR:-20000}
CRR=${ICOUNT_CRR:-2000}
SBUF=${ICOUNT_STREAM_BUF:-212992}
CONFIGS=$(echo "${ICOUNT_CONFIGS:-none:off:hooked:throttle:pcpu:exclusive:reclaim:limit:all}" | tr : ' ')

ip link set lo up 2> /dev/null
# Transparent huge pages off. Debian's kernels fault them in "always": a
# stream whose threads' stack or heap got two ran 121.2 M instructions
# against 112.5 M on 6.1, the 2 MiB zeroed byte by byte in QEMU's count
# (each iteration of the kernel's rep stosb is one), with thp_fault_alloc
# 2 in /proc/vmstat and the same system calls, buffers and context
# switches: 4 of 24 streams of one boot (2026-12-06). Not what this
# measures, and no run can tell in advance whether it gets one.
thp=/sys/kernel/mm/transparent_hugepage/enabled
if [ -e $thp ]; then
	echo never > $thp || fail "cannot turn transparent huge pages off"
fi
note "transparent huge pages: $(cat $thp 2> /dev/null || echo none)"
# The workloads' threads run SCHED_FIFO (skm-time.h): on 7.3 under CFS the
# same 2000 round trips took 70.4 M or 74.2 M instructions from run to run,
# as the woken thread preempted its peer or not. 6.1's softirqs wait for
# ksoftirqd once it has been woken (ksoftirqd_running(), gone by 6.12): as
# a CFS thread, FIFO threads starve it, and runs then spent up to 33 % of
# their guest time in it or idle, and under CFS 6.1's streams still moved
# by up to 7.8 % (runs of 2026-12-05). So ksoftirqd runs FIFO too, above
# the workloads (SKM_FIFO_ABOVE): woken, it runs at once.
export SKM_FIFO=${ICOUNT_FIFO:-1}
SKM_FIFO_ABOVE=$(for f in /proc/[0-9]*/stat; do
	awk '$2 ~ /^\(ksoftirqd\// { printf "%s ", $1 }' "$f" 2> /dev/null
done)
export SKM_FIFO_ABOVE
note "workloads SCHED_FIFO: $SKM_FIFO"
# The kernel threads (children of kthreadd), whose runtime during a
# workload each workload reports as other_ns (skm-time.h): ns - cpu_ns -
# other_ns is then the time the vCPU sat idle (or ran a task started since).
SKM_OTHER_PIDS=$(for f in /proc/[0-9]*/stat; do
	awk '$4 == 2 { printf "%s ", $1 }' "$f" 2> /dev/null
done)
export SKM_OTHER_PIDS
# TCP_CRR's clients close with a reset (skm-rr.c): no TIME_WAIT sockets
# pile up from run to run, which later runs would find in their lookups.
export SKM_CRR_RST=${ICOUNT_CRR_RST:-1}
cg=$(cgroup_at "${ICOUNT_DEPTH:-1}")
note "icount: cgroup depth ${ICOUNT_DEPTH:-1}, $MIB MiB stream (buffers $SBUF), $RR round trips, $CRR connections, $REPEATS repeats, $(nproc) CPU(s)"
# Warm-up, not counted, until the guest has settled: the boot's first
# stream ran 1.4 % longer than every later one on 6.1 (memory and caches
# warming up), and on 6.12 the first half second after it still ran 1-2 %
# more instructions and sat idle for tens of ms at a time (a test run of
# 2026-12-05). Rounds of the three workloads, at least ICOUNT_WARMUP_MIN
# (1) and at most ICOUNT_WARMUP (8), until a round's round trips take what
# the last round's took, within 0.2 %, and none of its workloads sat idle
# more than 0.3 % of its time. On 7.3.4 the first one or two measured
# connection runs still run 0.1-0.4 % more than later ones, after 8 rounds
# too (docs/measurements.md, "7.3's first connection runs").
warm=0 last=0
while [ $warm -lt "${ICOUNT_WARMUP:-8}" ]; do
	warm=$((warm + 1))
	idle_max=0
	for w in "skm-tcp -b $MIB -c 1 -B $SBUF" "skm-rr -n 1 -N $RR" "skm-rr -c -n 1 -N $CRR"; do
		# shellcheck disable=SC2086 # the workload's words
		_out=$(in_cgroup "$cg" $w) || fail "warm-up: $w"
		_ns=$(echo "$_out" | sed -n 's/.* ns=\([0-9]*\).*/\1/p')
		_cpu=$(echo "$_out" | sed -n 's/.* cpu_ns=\([0-9]*\).*/\1/p')
		_oth=$(echo "$_out" | sed -n 's/.* other_ns=\([0-9]*\).*/\1/p')
		_idle=$(( (_ns - _cpu - _oth) * 10000 / _ns ))	# in 0.01 %
		[ $_idle -gt $idle_max ] && idle_max=$_idle
		case $w in "skm-rr -n"*) rr=$_cpu ;; "skm-rr -c"*) crr=$_cpu ;; esac
	done
	note "warm-up round $warm (uptime $(cut -d' ' -f1 /proc/uptime) s): round trips $rr ns CPU, connections $crr ns CPU, idle at most $idle_max/10000"
	d=$(( (rr - last) * 10000 / rr ))
	[ $warm -ge "${ICOUNT_WARMUP_MIN:-1}" ] && [ $last -gt 0 ] && [ ${d#-} -le 20 ] && [ $idle_max -le 30 ] && break
	last=$rr
done

# tcpext: the TcpExt counters a workload's instructions follow beyond
# skmemcg's (a receive queue collapsed or pruned copies its data again), a
# "name value" line each.
tcpext() {
	awk '/^TcpExt:/ {
		if (!n) { for (i = 2; i <= NF; i++) k[i] = $i; n = 1; next }
		for (i = 2; i <= NF; i++)
			if (k[i] ~ /^(TCPRcvCollapsed|PruneCalled|RcvPruned|OfoPruned|TCPRcvQDrop|TCPBacklogDrop|TCPMemoryPressures|TCPOFOQueue)$/)
				print k[i], $i
	}' /proc/net/netstat
}

# measure CONFIG CASE WORKLOAD...: one "ICOUNT" line, the guest time (ns),
# the workload's CPU time (cpu_ns) and the kernel threads' (other_ns): what
# is neither was the vCPU idle; tcp=, what moved in tcpext's counters
# during it ("name:delta", comma-separated; "-" for none); and up=, the
# guest's uptime (s) as it began, to place a run that stands out in the
# boot's timeline (docs/measurements.md, "A connection run that ran more").
measure() {
	_c=$1 _case=$2
	shift 2
	_t0=$(tcpext)
	_up=$(cut -d' ' -f1 /proc/uptime)
	_out=$(in_cgroup "$cg" "$@")
	_t1=$(tcpext)
	_tcp=$(printf '%s\n%s\n' "$_t0" "$_t1" | awk '{
		if (!($1 in a)) { a[$1] = $2; next }
		if ($2 != a[$1]) s = s (s ? "," : "") $1 ":" ($2 - a[$1])
	} END { print s ? s : "-" }')
	_ns=$(echo "$_out" | sed -n 's/.* ns=\([0-9]*\).*/\1/p')
	_cpu=$(echo "$_out" | sed -n 's/.* cpu_ns=\([0-9]*\).*/\1/p')
	_oth=$(echo "$_out" | sed -n 's/.* other_ns=\([0-9]*\).*/\1/p')
	[ -n "$_ns" ] && [ -n "$_cpu" ] && [ -n "$_oth" ] || fail "$1, $_c: no figure ($_out)"
	# what shapes the count, where the workload says (skm-tcp): its system
	# calls, its buffers at the end and its context switches
	_wl=$(echo "$_out" | tr ' ' '\n' | awk -F= '/^(reads|writes|rcvbuf|sndbuf|csw|icsw)=/ {
		s = s (s ? "," : "") $1 ":" $2 } END { print s }')
	echo "ICOUNT config=$_c case=$_case rep=$rep ns=$_ns cpu_ns=$_cpu other_ns=$_oth tcp=$_tcp wl=${_wl:--} up=$_up"
}

# With throttling on, a raise reads every pressure source, per memcg, for
# pressure_hold_ms after the last reclaim anywhere (plus 60 s with psi among
# the sources), and turning it on counts as one; then only the headroom,
# from the counters (the quiet fast path, throttle_policy.h). The figures
# are the quiet path's, as on a host where nothing reclaimed for a minute:
# each load waits that out (ICOUNT_QUIET=0 does not; the guest's clock
# skips an idle wait, so it costs no time). With ICOUNT_QUIET=0, the
# figures after a reclaim. Every configuration waits, "none" and "off"
# included, and then runs one small round of the workloads, not counted:
# a workload right after a minute idle ran up to 0.24 % more instructions
# than one after another workload, in any configuration (7.3.4's 32 MiB
# stream, 2026-12-06: "none" 114.03 M or 114.27 M after the wait), and
# when only throttling waited, that read as its cost (+0.39 % on 7.3.4,
# where its hooks ran +0.14 %: scripts/path-count.sh).
quiet_wait() { # PRESSURE_HOLD_MS (empty: the default's)
	[ "${ICOUNT_QUIET:-1}" = 1 ] || return 0
	sleep $(( ${1:-1000} / 1000 + 62 ))
}
warm_round() {
	in_cgroup "$cg" skm-tcp -b 4 -c 1 -B "$SBUF" > /dev/null || fail "warm round: skm-tcp"
	in_cgroup "$cg" skm-rr -n 1 -N 500 > /dev/null || fail "warm round: skm-rr"
	in_cgroup "$cg" skm-rr -c -n 1 -N 50 > /dev/null || fail "warm round: skm-rr -c"
}

# idle_start, idle_stop: ICOUNT_IDLE_CONNS idle connections in the cgroup
idle=
idle_start() {
	[ "${ICOUNT_IDLE_CONNS:-0}" -gt 0 ] || return 0
	in_cgroup_bg "$cg" skm-hold -c "$ICOUNT_IDLE_CONNS" -k 0 > /tmp/icount-idle 2>&1
	idle=$bg
	wait_for 6000 "skm-hold -c $ICOUNT_IDLE_CONNS not ready: $(cat /tmp/icount-idle)" \
		grep -q ready /tmp/icount-idle
}
idle_stop() {
	[ -n "$idle" ] || return 0
	kill -TERM "$idle"
	wait "$idle" 2> /dev/null || true
	idle=
}
trap 'idle_stop' EXIT
[ "${ICOUNT_IDLE_CONNS:-0}" -eq 0 ] ||
	note "$ICOUNT_IDLE_CONNS idle connections in the cgroup during each configuration's workloads"

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
			idle_start
			quiet_wait "$(cat $PAR/pressure_hold_ms 2> /dev/null || true)"
			warm_round
			measure "$label" "TCP_STREAM_${MIB}MiB" skm-tcp -b "$MIB" -c 1 -B "$SBUF"
			measure "$label" "TCP_RR_${RR}" skm-rr -n 1 -N "$RR"
			measure "$label" "TCP_CRR_${CRR}" skm-rr -c -n 1 -N "$CRR"
			idle_stop
			config_unload "$config"
		done
	done
	SKM_KO=
	rep=$((rep + 1))
done

# The hooked calls of each workload, per configuration and hook: one more
# run with instrument=Y (hook_times counts every call; the figures above
# are without it), for bench-report.py's instructions per hooked call.
if [ -z "${ICOUNT_AB:-}" ]; then
	for config in $CONFIGS; do
		case $config in none | off) continue ;; esac
		config_load "$config" "$cg"
		for w in "TCP_STREAM_${MIB}MiB:skm-tcp -b $MIB -c 1 -B $SBUF" \
			"TCP_RR_${RR}:skm-rr -n 1 -N $RR" "TCP_CRR_${CRR}:skm-rr -c -n 1 -N $CRR"; do
			echo 1 > $PAR/instrument || fail "instrument=1"
			# shellcheck disable=SC2086 # the workload's words
			in_cgroup "$cg" ${w#*:} > /dev/null || fail "$config: ${w#*:}"
			awk -v c="$config" -v w="${w%%:*}" 'NR > 1 && $2 > 0 {
				print "ICOUNT_CALLS config=" c " case=" w " hook=" $1 " calls=" $2 }' \
				$DBG/hook_times
			echo 0 > $PAR/instrument
		done
		config_unload "$config"
	done
fi
exit 0
