#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's test command: install what is missing, then build, sparse,
# checkpatch, DKMS (with module signing), KUnit in UML, the fresh-machine
# check (setup and build in a fresh Debian 12 root, scripts/fresh.sh), and
# the VM cases on every supported kernel (main; the test bed's patching
# check and the per-CPU reserve in a NUMA guest; reclaim curves; lockdown;
# load/unload under traffic; benchmark smoke).
# Every boot runs under single-threaded TCG (scripts/vm.sh), so a guest
# uses one host CPU: the boots of different kernels run in parallel, one
# chain per kernel, SKM_JOBS at a time (default: the host's CPU count). A
# chain's output is printed when it ends, and kept in out/chain-KVER.log.
# Prints each stage's wall time and ends with "N passed, N failed", counting
# each KUnit case, each VM case, and each host stage (setup, build, sparse,
# checkpatch, dkms, fresh) as one test. Exit 0 only if none failed.
#
#   scripts/test.sh            everything, on every supported kernel
#   KVER=<release> ...         only that kernel (e.g. 6.12.117+deb12-amd64)
#   SKM_SKIP_SETUP=1 ...       do not look for missing packages
#   SKM_SKIP_FRESH=1 ...       leave out the fresh-machine check
#   SKM_JOBS=N ...             kernels whose boots run at once
set -uo pipefail
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/stages.sh"

sparse_check() {
	local kdir=$1 dir=$SKM_OUT/sparse
	rm -rf "$dir" && mkdir -p "$dir"
	cp -r "$SKM_ROOT"/Kbuild "$SKM_ROOT"/dkms.conf "$SKM_ROOT"/module "$dir"/
	make -C "$kdir" M="$dir" C=2 modules 2>&1 | tee "$dir/out.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || return 1
	grep -q 'CHECK' "$dir/out.log" || { echo "sparse did not run"; return 1; }
	! grep -E '(warning|error):' "$dir/out.log"
}

# kernel_chain KVER [testbed]: every boot of one kernel, one after the
# other. With "testbed", the NUMA boot first runs the test bed's own check
# (testbed_patching: with skmemcg not loaded, can this QEMU mode patch
# kernel text under load, 4 vCPUs on this host's CPUs?); it is about QEMU,
# not the kernel, so one chain runs it (392 to 439 s measured).
kernel_chain() {
	local kver=$1 vm=$SKM_ROOT/scripts/vm.sh numa_cases
	numa_cases=$(skm_guest_cases pcpu)
	[ "${2:-}" != testbed ] || numa_cases=$(skm_guest_cases testbed),$numa_cases
	counted "vm-$kver" "$vm" -k "$kver" -q
	counted "vm-numa-$kver" "$vm" -k "$kver" -q -c 4 -n 2 -T 600 -t "$numa_cases"
	counted "vm-reclaim-$kver" "$vm" -k "$kver" -q -w reclaim \
		-T 1500 -t "$(skm_guest_cases reclaim)"
	stage "plot-$kver" "$SKM_ROOT/scripts/reclaim-plot.sh" \
		"$SKM_OUT/vm-$kver-reclaim/console.log" "$SKM_OUT/reclaim-$kver.png" "$kver"
	# Lockdown cannot be lowered again and refuses unsigned modules: own boot.
	counted "vm-lockdown-$kver" "$vm" -k "$kver" -q -w lockdown \
		-t "$(skm_guest_cases lockdown)"
	counted "vm-reload-$kver" "$vm" -k "$kver" -q -w reload -T 600 \
		-t "$(skm_guest_cases reload)"
	counted "bench-smoke-$kver" "$SKM_ROOT/scripts/bench.sh" -k "$kver" -q
	stage "bench-table-$kver" grep -q '^worst cell of "all"' "$SKM_OUT/bench-smoke-$kver.txt"
}

t_all=$(date +%s)
skm_results_reset
if [ -z "${SKM_SKIP_SETUP:-}" ]; then
	stage setup "$SKM_ROOT/scripts/setup.sh" ||
		{ skm_results_report "$t_all"; exit 1; }
fi

kvers=${KVER:-$(skm_kvers)}
[ -n "$kvers" ] || skm_die "no supported Debian kernel installed"
kver_first=$(echo "$kvers" | head -n 1)

for kver in $kvers; do
	stage "build-$kver" make -C "$SKM_ROOT" KDIR="/lib/modules/$kver/build" modules
done
stage sparse sparse_check "/lib/modules/$kver_first/build"
stage checkpatch "$SKM_ROOT/scripts/checkpatch.sh"
for kver in $kvers; do
	stage "dkms-$kver" "$SKM_ROOT/scripts/dkms-test.sh" "$kver"
done
counted kunit "$SKM_ROOT/scripts/kunit.sh"
[ -n "${SKM_SKIP_FRESH:-}" ] || stage fresh "$SKM_ROOT/scripts/fresh.sh"

jobs_max=${SKM_JOBS:-$(nproc)}
running=0
for kver in $kvers; do
	if [ "$running" -ge "$jobs_max" ]; then
		wait -n
		running=$((running - 1))
	fi
	skm_log "chain $kver: started (out/chain-$kver.log)"
	testbed=
	[ "$kver" != "$kver_first" ] || testbed=testbed
	kernel_chain "$kver" $testbed > "$SKM_OUT/chain-$kver.log" 2>&1 &
	running=$((running + 1))
done
wait
for kver in $kvers; do
	echo
	echo "=== $kver"
	cat "$SKM_OUT/chain-$kver.log"
done

skm_results_report "$t_all"
