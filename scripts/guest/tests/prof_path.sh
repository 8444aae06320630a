# SPDX-License-Identifier: GPL-2.0
# The guest half of scripts/path-count.sh: where a hooked call's
# instructions go. Prints the entry addresses of the hooked functions
# ("PROF FN <addr> <name>"), loads skmemcg as lib_bench.sh's PROF_CONFIG
# (throttle) has it for a cgroup at depth PROF_DEPTH (1), waits out throttling's reclaim
# window as bench_icount does (the quiet path), prints the module's symbols
# and the kernel's it may call ("PROFSYM" lines, /proc/kallsyms), then
# "PROF READY", and runs the bench workloads in the cgroup, small, round
# after round until the host, whose debugger single-steps calls of the
# hooked functions meanwhile, stops the boot (or PROF_ROUNDS rounds). Not
# in any boot of the test command: it asserts nothing.
. /tests/lib.sh
. /tests/lib_burst.sh
. /tests/lib_bench.sh

config=${PROF_CONFIG:-throttle}
ip link set lo up 2> /dev/null
cg=$(cgroup_at "${PROF_DEPTH:-1}")
config_load "$config" "$cg"
case $config in throttle | all) sleep $(( $(cat $PAR/pressure_hold_ms) / 1000 + 62 )) ;; esac
# to the console at once: the guest's init shows a case's output only
# after it ends, and this one ends when the host stops it
exec 3> /dev/console
# PROF_FNS (colon-separated) names them instead: with no module (none),
# whole calls of the kernel's own functions are the baseline
if [ -n "${PROF_FNS:-}" ]; then echo "$PROF_FNS" | tr ':' ' '; else hooked_names; fi |
	tr ' ' '\n' | while read -r fn; do
	[ -n "$fn" ] || continue
	awk -v f="$fn" '$3 == f && $4 == "" { print "PROF FN " $1 " " f }' /proc/kallsyms
done >&3
awk '$4 == "[skmemcg]" && ($2 == "t" || $2 == "T") { print "PROFSYM " $1 " " $3 }' /proc/kallsyms >&3
awk '$4 == "" && ($2 == "t" || $2 == "T") && $3 ~ /^(__rcu_read|rcu_read|__msecs_to_jiffies|preempt_schedule|__x86_return_thunk|__x86_indirect|page_counter|mem_cgroup|__mem_cgroup|__sk_mem|sk_|__sk_|tcp_|cgroup_|__cgroup|srcu|__srcu|ftrace|__local_bh|local_clock|sched_clock|__percpu|_raw_spin|refill_stock|consume_stock|try_charge|obj_cgroup|memcg|__count_memcg|__mod_memcg|mod_memcg|__mod_lruvec)/ { print "PROFSYM " $1 " " $3 }' /proc/kallsyms >&3
echo "PROF READY" >&3
i=0
while [ $i -lt "${PROF_ROUNDS:-1000000}" ]; do
	in_cgroup "$cg" skm-tcp -b 1 -c 1 > /dev/null || fail "skm-tcp"
	in_cgroup "$cg" skm-rr -n 1 -N 50 > /dev/null || fail "skm-rr"
	in_cgroup "$cg" skm-rr -c -n 1 -N 5 > /dev/null || fail "skm-rr -c"
	i=$((i + 1))
done
config_unload "$config"
exit 0
