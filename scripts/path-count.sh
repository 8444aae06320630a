#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where a hooked call's instructions go, counted one by one: boots KVER
# (one vCPU under -icount, scripts/vm.sh -I) with QEMU's gdb server, runs
# the prof_path guest case (skmemcg loaded as lib_bench.sh's CONFIG has it,
# the bench workloads in a cgroup at depth 1), and single-steps calls of
# each hooked function from its first instruction to the first instruction
# of the kernel's own body (just past its ftrace site): what the call runs
# before the kernel's work begins, skmemcg's stub and replacement and what
# they call. A call that runs no more than the kernel's own ENDBR and ftrace
# NOP was not redirected and is not counted. Prints, per hooked function,
# the instruction counts of the calls sampled, then for the most frequent
# count one call's instructions per function (module symbols, and the
# kernel's that prof_path.sh lists). A path that returns into the
# replacement after the kernel's body (a frame kept) is counted up to the
# body only; a call whose replacement does the work without the kernel's
# body (an exclusive socket's reduce) is counted to its return ("r").
#
#   scripts/path-count.sh [-k KVER] [-c CONFIG] [-n CALLS] [-d DEPTH]
#
# CONFIG: none of lib_bench.sh's (default throttle); CALLS: calls sampled
# per function (default 40); DEPTH: the bench cgroup's (default 1; a
# systemd service is at 2, a Kubernetes container at 4 or 5). Writes
# out/path-count-KVER-CONFIG[-dDEPTH].txt.
# PC_SKIP="FN ..." leaves hooked functions out (one that sleeps for long
# idles the guest single-stepped, and it never wakes).
# PC_WHOLE=1 counts every call to its return, the kernel's body included
# (out/path-count-KVER-CONFIG-whole.txt), and PC_FNS=FN:FN... names the
# functions to sample instead of the module's hooked ones: with -c none,
# the stock kernel's whole calls, the baseline to compare a
# configuration's whole calls with.
# PC_TRACE=1 lists the sampled call's instructions too, as symbol+offset,
# to read against objdump -d of the module (out/modcache/KVER-*/).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kver=$(skm_kver_61) config=throttle calls=40 depth=1
while getopts k:c:n:d: o; do
	case $o in
	k) kver=$OPTARG ;;
	c) config=$OPTARG ;;
	n) calls=$OPTARG ;;
	d) depth=$OPTARG ;;
	*) skm_die "usage: $0 [-k KVER] [-c CONFIG] [-n CALLS] [-d DEPTH]" ;;
	esac
done
command -v gdb > /dev/null || skm_die "path-count wants gdb (apt-get install gdb)"
case $depth in [1-9]) ;; *) skm_die "-d: a depth of 1 to 9" ;; esac
tag=prof-$config
[ "$depth" = 1 ] || tag=$tag-d$depth
[ "${PC_WHOLE:-0}" != 1 ] || tag=$tag-whole
work=$SKM_OUT/vm-$kver-$tag
sock=$SKM_OUT/path-count-$kver-${tag#prof-}.sock
out=$SKM_OUT/path-count-$kver-${tag#prof-}.txt
rm -f "$sock" "$work/console.log"
SKM_QEMU_GDB=$sock setsid "$SKM_ROOT/scripts/vm.sh" -k "$kver" -c 1 -I -m 1024 -q -w "$tag" \
	-T 3600 -t prof_path -e "PROF_CONFIG=$config PROF_DEPTH=$depth PROF_FNS=${PC_FNS:-}" > "$SKM_OUT/path-count-$kver-${tag#prof-}.vm.log" 2>&1 &
vmpid=$!
# the guest's rounds go on until the boot is stopped: QEMU and all
trap 'kill -- -$vmpid 2> /dev/null || true' EXIT
while ! grep -q 'PROF READY' "$work/console.log" 2> /dev/null; do
	kill -0 $vmpid 2> /dev/null || { tail -n 20 "$SKM_OUT/path-count-$kver-${tag#prof-}.vm.log"; skm_die "the guest ended before PROF READY"; }
	sleep 1
done
PC_LOG=$work/console.log PC_SOCK=$sock PC_CALLS=$calls PC_OUT=$out PC_WHOLE=${PC_WHOLE:-0} \
	PC_HEAD="$kver, configuration $config, cgroup depth $depth" \
	gdb -nx -batch -x "$SKM_ROOT/scripts/path-count.py" > "$SKM_OUT/path-count-$kver-${tag#prof-}.gdb.log" 2>&1 ||
	{ tail -n 20 "$SKM_OUT/path-count-$kver-${tag#prof-}.gdb.log"; skm_die "gdb failed"; }
cat "$out"
