#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-debug: the VM suite on the debug kernel (scripts/debug-kernel.sh:
# lockdep, atomic-sleep checks, KASAN, UBSAN, DEBUG_LIST, DEBUG_OBJECTS,
# kmemleak, lockup detectors). Builds that kernel on first use (cached in
# $SKM_CACHE/debug-<version>), then boots it as scripts/test.sh boots a stock
# kernel: the main cases, the per-CPU reserve cases in a 4-vCPU, 2-node NUMA
# guest, the benchmark's smoke run, and the reclaim cases in a boot of their
# own, the lockdown case, and reload_cycles (SKM_CYCLES load/unload cycles,
# default 6 as in scripts/test.sh), all under single-threaded TCG, nproc
# boots at once (SKM_DEBUG_JOBS). Every boot but lockdown's starts
# with debug_kmemleak_clear and ends with debug_kmemleak (no object left
# unreferenced since boot, with skmemcg unloaded).
# A lockdep, KASAN, UBSAN or DEBUG_OBJECTS report, a WARN or a sleep in
# atomic context fails the boot's kernel-log-clean check (scripts/vm.sh).
#
# Every debug boot runs RCU's kthreads at SCHED_FIFO priority 1 and invokes
# RCU callbacks in them rather than in softirq (rcutree.kthread_prio=1
# rcutree.use_softirq=0). The debug kernel is built without preemption, and
# kmemleak frees each tracked object through call_rcu(): under the traffic of
# the cases, callbacks and grace-period work queue behind the load, and the
# kernel's own synchronize_rcu() calls (ftrace_release_mod(), free_module(),
# lockdep_free_key_range() in an rmmod) waited seconds to minutes. One rmmod
# with every policy on, under reload_cycles' TCP, UDP, pressure and accept
# traffic (2026-12-02, commit bfd231f): rmmod took 20 to 30 s ("unhooking"
# 8.4 and 11.1 s) without these parameters, and under 5 s (unhooking
# 0.74 s) with them; in reload_cycles, an rmmod without them was still
# blocked after 120 s (hung-task report). See docs/testing.md.
#
#   scripts/check-debug.sh [stage...]   stages: reload main reclaim bench
#                                       numa lockdown (default: all, in
#                                       that order: the longest first)
#   SKM_DEBUG_JOBS=N                    boots at once (default nproc; 1:
#                                       one after the other, their output
#                                       on stdout too)
#   SKM_CYCLES=N                        reload_cycles' load/unload cycles
#                                       (default 6, as scripts/test.sh runs
#                                       it; see docs/testing.md for what
#                                       a debug cycle costs)
#   SKM_DEBUG_SLOW=N                    per-case timeouts N times
#                                       scripts/test.sh's (default 10)
#
# Prints each stage's wall time (and the kernel build's) and ends with
# "N passed, N failed", each VM case and each boot-wide check counting as one
# test. Exit 0 only if none failed. Not part of scripts/test.sh (CI budget).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stages.sh"

stages=${*:-reload main reclaim bench numa lockdown}
cycles=${SKM_CYCLES:-6}
slow=${SKM_DEBUG_SLOW:-10}
# a debug boot reaches init more slowly: 120 s a unit of slowness
export SKM_BOOT_DEADLINE=${SKM_BOOT_DEADLINE:-$((slow * 120))}
t_all=$(date +%s)
skm_results_reset

t0=$(date +%s)
vars=$("$SKM_ROOT/scripts/debug-kernel.sh") || skm_die "debug kernel build failed"
skm_result debug-kernel 0 0 "$t0"
for v in SKM_VMLINUZ SKM_KDIR SKM_MODDIR; do
	val=$(echo "$vars" | sed -n "s/^$v=//p")
	[ -n "$val" ] || skm_die "scripts/debug-kernel.sh did not print $v"
	export "$v=$val"
done
kver=$(cat "$SKM_KDIR/include/config/kernel.release")

# around GROUP: the group's cases between the two kmemleak cases.
around() {
	echo "debug_kmemleak_clear,$(skm_guest_cases "$1"),debug_kmemleak"
}

vm=$SKM_ROOT/scripts/vm.sh
rcu_args="rcutree.kthread_prio=1 rcutree.use_softirq=0"
# run_stage STAGE: that stage's boot, counted.
run_stage() {
	local s=$1
	case $s in
	main)
		# throttle_oom compares skmemcg with memory.high only where
		# memory.high slows the hog more than the burst's CPU cost
		# does (throttle_oom.sh): here it did not (2026-12-03).
		counted debug-vm "$vm" -q -a "$rcu_args" -w debug -T $((300 * slow)) \
			-e "THROTTLE_PREMISE=soft" -t "$(around main)" ;;
	numa)
		counted debug-vm-numa "$vm" -q -a "$rcu_args" -w debug-numa2 -T $((300 * slow)) \
			-c 4 -n 2 -t "$(around pcpu)" ;;
	bench)
		# scripts/bench.sh -q's guest runs (their reports are not wanted
		# here), bench_icount's in this guest (not under -icount), with
		# bench.sh -q's sizes: its defaults took more than 28 minutes on
		# this kernel without finishing (2026-12-02). One warm-up round
		# and no wait for the quiet path: without -icount those cost
		# wall time, and no figure of this run is read.
		counted debug-bench-smoke env SKM_GUEST_BINS=iperf3 "$vm" -q -a "$rcu_args" \
			-w debug-bench-smoke -c "$(nproc)" -m 1024 -T $((2400 * slow)) \
			-e "BENCH_REPEATS=1 BENCH_THREADS=1 BENCH_SECS=1 BENCH_RR_N=500 ICOUNT_REPEATS=1 ICOUNT_MIB=16 ICOUNT_RR=2000 ICOUNT_CRR=200 ICOUNT_CONFIGS=none:off:all ICOUNT_WARMUP=1 ICOUNT_QUIET=0" \
			-t "$(around bench)" ;;
	reclaim)
		# The reclaim hooks under the sanitizers, every policy on both
		# LRUs; the curves' shapes only where A holds its working set
		# (reclaim_curves.sh: at a4668f3 A held 40-56 MiB of 64 at
		# full protection here, and one shape check failed by noise).
		counted debug-vm-reclaim "$vm" -q -a "$rcu_args" -w debug-reclaim -T $((1500 * slow)) \
			-e "RECLAIM_PREMISE=soft" -t "$(around reclaim)" ;;
	lockdown)
		# (debugfs, kmemleak's file included, is closed under lockdown)
		counted debug-vm-lockdown "$vm" -q -a "$rcu_args" -w debug-lockdown -T $((300 * slow)) \
			-t "$(skm_guest_cases lockdown)" ;;
	reload)
		counted debug-vm-reload "$vm" -q -a "$rcu_args" -w debug-reload \
			-T $((1200 * slow * cycles / 6)) -e "SKM_CYCLES=$cycles" -t "$(around reload)" ;;
	esac
}

for s in $stages; do
	case $s in
	reload|main|numa|bench|reclaim|lockdown) ;;
	*) skm_die "unknown stage $s (reload main numa bench reclaim lockdown)" ;;
	esac
done
# SKM_DEBUG_JOBS boots at once (each guest is single-threaded TCG: one host
# CPU), each stage's output in $SKM_OUT/<its result name>.log; a stage
# starts when a slot frees, in the order given.
jobs_max=${SKM_DEBUG_JOBS:-$(nproc)}
for s in $stages; do
	if [ "$jobs_max" -le 1 ]; then
		run_stage "$s"
		continue
	fi
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n
	done
	skm_log "debug stage $s: started"
	{ run_stage "$s" > /dev/null; skm_log "debug stage $s: done"; } &
done
wait

echo
echo "debug kernel $kver: $SKM_VMLINUZ"
skm_results_report "$t_all"
