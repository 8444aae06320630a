# SPDX-License-Identifier: GPL-2.0
# A test of the test bed, not of skmemcg (which is never loaded here): can
# this QEMU mode patch kernel text while other vCPUs run it? Under loopback
# TCP traffic on every vCPU, TESTBED_ROUNDS (default 60) rounds of turning
# the function tracer on and off for five of the socket-memory functions
# skmemcg hooks, each followed by enabling and disabling a tracepoint
# (a static key flip). Under multi-threaded TCG with 4 vCPUs on 2 host cores
# this hung or stalled the stock kernel (RCU stalls, soft lockups; see
# scripts/test.sh); every boot that patches text must run in a mode where it
# passes. A stall shows as kernel-log-clean FAIL, a hang as this case not
# finishing. Prints rounds done, seconds, and TCP transfers completed.
# TESTBED_ALL=1 first turns the function tracer on and off once for every
# kernel function, a far bigger patch than skmemcg ever makes: on
# 2026-12-02 that stalled this mode 2 times in 2 (a soft lockup in
# text_poke_bp_batch 36 s after boot; an RCU stall, then a hang), where the
# rounds alone passed (docs/testing.md). Off by default since then.
. /tests/lib.sh

ROUNDS=${TESTBED_ROUNDS:-60}
FUNCS="__sk_mem_raise_allocated __sk_mem_reduce_allocated sk_forced_mem_schedule mem_cgroup_sk_alloc mem_cgroup_sk_free"
EVENT=$TRACING/events/sock/sock_exceed_buf_limit/enable
ncpu=$(grep -c ^processor /proc/cpuinfo)

lsmod | grep -q '^skmemcg ' && fail "skmemcg is loaded: this case tests the stock kernel"
[ -w "$EVENT" ] || fail "no tracepoint $EVENT"
for f in $FUNCS; do
	grep -q "^$f\$" "$TRACING/available_filter_functions" || fail "$f is not traceable"
done

# Traffic: one sender/receiver pair per vCPU, restarted until told to stop.
rm -f /tmp/testbed.stop /tmp/testbed.done
for cpu in $(seq 0 $((ncpu - 1))); do
	(while [ ! -e /tmp/testbed.stop ]; do
		skm-tcp -b 8 -S "$cpu" -R "$(( (cpu + 1) % ncpu ))" > /dev/null &&
			echo x >> /tmp/testbed.done
	done) &
done
sleep 1

t0=$(cut -d' ' -f1 /proc/uptime)
if [ "${TESTBED_ALL:-0}" = 1 ]; then
	echo function > "$TRACING/current_tracer" || fail "no function tracer"
	echo nop > "$TRACING/current_tracer"
fi
round=0
while [ $round -lt "$ROUNDS" ]; do
	echo "$FUNCS" | tr ' ' '\n' > "$TRACING/set_ftrace_filter" || fail "set_ftrace_filter"
	echo function > "$TRACING/current_tracer" || fail "round $round: tracer on"
	echo nop > "$TRACING/current_tracer" || fail "round $round: tracer off"
	echo 1 > "$EVENT" || fail "round $round: tracepoint on"
	echo 0 > "$EVENT" || fail "round $round: tracepoint off"
	round=$((round + 1))
	[ $((round % 10)) -ne 0 ] || note "round $round at $(cut -d' ' -f1 /proc/uptime)s"
done
echo > "$TRACING/set_ftrace_filter"
secs=$(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }')
touch /tmp/testbed.stop
wait
done_n=$(wc -l < /tmp/testbed.done 2>/dev/null || echo 0)
note "rounds=$round seconds=$secs vcpus=$ncpu tcp_transfers=$done_n"
[ "$done_n" -gt 0 ] || fail "no TCP transfer completed during the rounds"
grep -q . "$TRACING/enabled_functions" && fail "functions still traced: $(head -n 3 "$TRACING/enabled_functions")"
exit 0
