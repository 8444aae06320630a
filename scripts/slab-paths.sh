#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a bench_icount run did in the slab allocator, counted without a
# change in the guest: boots KVER with nokaslr to read where its functions
# are (the prof_kern_syms guest case), then boots bench_icount (vm.sh -I, one
# vCPU) with QEMU logging every entry to those functions ("-d
# exec,nochain -dfilter", SKM_QEMU_ARGS), and prints, for each of the
# bench's TCP_CRR runs, its guest time and how often each function was
# entered (scripts/slab-paths.py). QEMU's log leaves the guest's
# instructions as they are, so the runs are the bench's own; nokaslr makes
# the boot another one than the test command's, with runs of its own.
#
#   scripts/slab-paths.sh [-k KVER] [-e "BENCH ENV"]
#
# BENCH ENV: bench_icount's (default the short form: 9 configurations, 32
# MiB, 5000 round trips, 500 connections, 3 repeats). SP_FNS=FN:FN... the
# functions to count (default: SLUB's slow paths, 7.x's sheaf exchanges,
# the page allocator's entry, the memcg stock's; those KVER does not have
# are left out). Writes out/slab-paths-KVER.{exec.log,txt}; the exec log
# is a few hundred MB.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kver=$(skm_kver_61)
benv="ICOUNT_REPEATS=3 ICOUNT_MIB=32 ICOUNT_RR=5000 ICOUNT_CRR=500 ICOUNT_CONFIGS=none:off:hooked:throttle:pcpu:exclusive:reclaim:limit:all"
while getopts k:e: o; do
	case $o in
	k) kver=$OPTARG ;;
	e) benv=$OPTARG ;;
	*) skm_die "usage: $0 [-k KVER] [-e \"BENCH ENV\"]" ;;
	esac
done
fns=${SP_FNS:-__x64_sys_getrusage:tcp_v4_connect:___slab_alloc:__slab_free:put_cpu_partial:__pcs_replace_empty_main:__pcs_replace_full_main:refill_sheaf:allocate_slab:get_page_from_freelist:drain_obj_stock:refill_stock:drain_stock}
for fn in __x64_sys_getrusage tcp_v4_connect; do
	case ":$fns:" in
	*":$fn:"*) ;;
	*) skm_die "SP_FNS must name __x64_sys_getrusage and tcp_v4_connect (the runs' marks)" ;;
	esac
done
"$SKM_ROOT/scripts/vm.sh" -k "$kver" -c 1 -I -m 1024 -q -w slabsyms -T 600 -t prof_kern_syms \
	-a nokaslr -e "KSYM_FNS=$fns" > /dev/null 2>&1 || skm_die "the prof_kern_syms boot failed: $SKM_OUT/vm-$kver-slabsyms/console.log"
syms=$SKM_OUT/vm-$kver-slabsyms/console.log
filter=$(awk '/KSYM [0-9a-f]+ / { sub(/.*KSYM /, ""); printf "%s0x%s+1", n++ ? "," : "", $1 }' "$syms")
for fn in __x64_sys_getrusage tcp_v4_connect; do
	grep -q "KSYM [0-9a-f]* $fn\$" "$syms" || skm_die "$kver has no $fn: $syms"
done
missing=$(sed -n 's/.*KSYM_MISSING //p' "$syms" | tr '\n' ' ')
[ -z "$missing" ] || skm_log "slab-paths: $kver has none of: $missing"
log=$SKM_OUT/slab-paths-$kver.exec.log
rm -f "$log"
SKM_QEMU_ARGS="-d exec,nochain -dfilter $filter -D $log" \
	"$SKM_ROOT/scripts/vm.sh" -k "$kver" -c 1 -I -m 1024 -q -w slabpaths -T 7200 -t bench_icount \
	-a nokaslr -e "$benv" > /dev/null 2>&1 || skm_die "the bench boot failed: $SKM_OUT/vm-$kver-slabpaths/console.log"
python3 "$SKM_ROOT/scripts/slab-paths.py" "$log" "$syms" "$SKM_OUT/vm-$kver-slabpaths/console.log" |
	tee "$SKM_OUT/slab-paths-$kver.txt"
