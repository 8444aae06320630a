#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's test command: install what is missing, make the Debian 13
# root that builds for Debian 13's kernels (scripts/deb13.sh), then build
# (6.1, 6.12, 7.x, and Debian 13's own 6.12), sparse, checkpatch, the
# include graph (no cycle), the docs' check, the one version, the exporter on a fake tree, the Debian package
# (make deb), DKMS (with module signing), KUnit in UML, beside all of which
# the host chain runs from the start (the fresh-machine check,
# scripts/fresh.sh, then the package in a fresh root, scripts/deb-test.sh,
# then a Debian 12 host image booted with systemd, scripts/host-test.sh
# --short); and then the VM cases on every
# supported kernel (main, with the exporter's output checked by promtool;
# the per-CPU reserve in a NUMA guest; reclaim curves; the kernel's own
# protection tests, then lockdown, in one boot;
# load/unload under traffic; benchmark smoke; on 6.1 a cgroup v1 boot for
# the v1 vs v2 table, scripts/compare-table.sh); last, the measured tables
# of docs/measurements.md from this run's output (scripts/doc-tables.py).
# Every boot runs under single-threaded TCG (scripts/vm.sh), so a guest
# uses one host CPU: the boots of different kernels run in parallel, one
# chain per kernel, SKM_JOBS at a time (default: all of them). A chain's
# output is printed when it ends, and kept in out/chain-KVER.log.
# The test bed's own check (testbed_patching: can this QEMU mode patch
# kernel text under load?) is about QEMU, not skmemcg, and takes 400 s:
# "make check-testbed" runs it (scripts/test.sh testbed).
# Prints each stage's wall time and ends with "N passed, N failed", counting
# each KUnit case, each VM case, and each host stage (setup, build, sparse,
# checkpatch, dkms, fresh) as one test. Exit 0 only if none failed.
#
#   scripts/test.sh            everything, on every supported kernel
#   KVER=<release> ...         only that kernel (e.g. 6.12.117+deb12-amd64)
#   SKM_SKIP_SETUP=1 ...       do not look for missing packages
#   SKM_SKIP_FRESH=1 ...       leave out the fresh-machine and package checks
#   SKM_JOBS=N ...             kernels whose boots run at once
#   scripts/test.sh testbed    only the test bed's check (make check-testbed)
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

# build_for KVER: the module against KVER's headers, in a folder of its
# own; a Debian 13 kernel's in the Debian 13 root.
build_for() {
	local kver=$1 dir=$SKM_OUT/check-$1
	rm -rf "$dir" && mkdir -p "$dir"
	cp -r "$SKM_ROOT"/Kbuild "$SKM_ROOT"/Makefile "$SKM_ROOT"/dkms.conf "$SKM_ROOT"/module "$dir"/
	if skm_in_deb13 "$kver"; then
		"$SKM_ROOT/scripts/deb13.sh" run "$SKM_OUT" \
			make -C "/lib/modules/$kver/build" M="$dir" modules
	else
		make -C "/lib/modules/$kver/build" M="$dir" modules
	fi
}

# The test bed's check (testbed_patching: with skmemcg not loaded, can this
# QEMU mode patch kernel text under load, 4 vCPUs on this host's CPUs?);
# 392 to 439 s measured alone, 685 s beside the test command.
if [ "${1:-}" = testbed ]; then
	t_all=$(date +%s)
	skm_results_reset
	counted testbed "$SKM_ROOT/scripts/vm.sh" -q -c 4 -n 2 -T 1200 -w testbed \
		-t "$(skm_guest_cases testbed)"
	skm_results_report "$t_all"
	exit
fi

# The conformance stage's states and tests (conform_memcg; docs/testing.md).
SKM_CONFORM_ENV="CONFORM_STATES=stock+reclaim_cliff+reclaim_seed+reclaim_linear CONFORM_BINS=test_memcontrol CONFORM_TESTS=test_memcg_min+test_memcg_low+test_memcg_protection"

# kernel_chain KVER: every boot of one kernel, one after the other.
kernel_chain() {
	local kver=$1 vm=$SKM_ROOT/scripts/vm.sh numa_cases
	numa_cases=$(skm_guest_cases pcpu)
	counted "vm-$kver" "$vm" -k "$kver" -q
	stage "promcheck-$kver" "$SKM_ROOT/scripts/exporter-promcheck.sh" \
		"$SKM_OUT/vm-$kver/console.log"
	# cgroup v1's TCP limit beside sock_limits: 6.1 still has v1's
	# kmem.tcp files; the controller is moved to v1 in a boot of its own.
	case $kver in
	6.1.*)
		counted "vm-v1-$kver" "$vm" -k "$kver" -q -w v1 -t "$(skm_guest_cases v1)"
		stage "compare-$kver" "$SKM_ROOT/scripts/compare-table.sh" \
			"$SKM_OUT/vm-$kver/console.log" "$SKM_OUT/vm-$kver-v1/console.log" "$kver"
		;;
	esac
	counted "vm-numa-$kver" "$vm" -k "$kver" -q -c 4 -n 2 -T 600 -t "$numa_cases"
	# The drift guard on the same build rewritten otherwise at boot: one
	# CPU (LOCK patched to DS) and no mitigations (no retpolines, no
	# return thunks): its fingerprints must hold there too.
	counted "vm-textvar-$kver" "$vm" -k "$kver" -q -c 1 -a mitigations=off -w textvar \
		-t drift_guard
	counted "vm-reclaim-$kver" "$vm" -k "$kver" -q -w reclaim \
		-T 1500 -t "$(skm_guest_cases reclaim)"
	stage "plot-$kver" "$SKM_ROOT/scripts/reclaim-plot.sh" \
		"$SKM_OUT/vm-$kver-reclaim/console.log" "$SKM_OUT/reclaim-$kver.png" "$kver"
	# Conformance, then lockdown, in one boot: the kernel's own protection
	# tests (test_memcontrol's test_memcg_min and test_memcg_low, and
	# test_memcg_protection where a kernel names one so) on the stock kernel
	# and under each reclaim policy (make conformance runs every test in
	# every state); then the lockdown cases, last, since lockdown cannot be
	# lowered again and refuses unsigned modules until reboot.
	counted "vm-lockdown-$kver" "$vm" -k "$kver" -q -w lockdown -m 1536 -T 1200 \
		-t "conform_memcg,$(skm_guest_cases lockdown)" -e "$SKM_CONFORM_ENV"
	# 3 cycles and 10 flips (make reload and make check-debug: 6 and 20):
	# 10 cycles took 834 to 894 s with three guests and the fresh roots on
	# two cores (a run of 2026-12-01, 3651 s in all).
	counted "vm-reload-$kver" "$vm" -k "$kver" -q -w reload -T 1200 \
		-t "$(skm_guest_cases reload)" -e "SKM_CYCLES=3 SKM_FLIPS=10"
	counted "bench-smoke-$kver" "$SKM_ROOT/scripts/bench.sh" -k "$kver" -q
	stage "bench-table-$kver" grep -q '^worst cell of "all"' "$SKM_OUT/bench-smoke-$kver.txt"
	stage "bench-icount-table-$kver" grep -q '^off ' "$SKM_OUT/bench-smoke-icount-$kver.txt"
}

t_all=$(date +%s)
skm_results_reset
# The commit tested, for the tables scripts/doc-tables.py writes from out/.
git -C "$SKM_ROOT" rev-parse --short HEAD > "$SKM_OUT/commit" 2> /dev/null ||
	echo unknown > "$SKM_OUT/commit"
if [ -z "${SKM_SKIP_SETUP:-}" ]; then
	stage setup "$SKM_ROOT/scripts/setup.sh" ||
		{ skm_results_report "$t_all"; exit 1; }
fi

# Debian 13's kernels build in a Debian 13 root (debootstrap, cached).
if [ -z "${SKM_SKIP_SETUP:-}" ]; then
	stage deb13-root "$SKM_ROOT/scripts/deb13.sh" setup
fi

# host_chain: the fresh-machine check, then the package in a fresh root,
# then a Debian host image booted with systemd. Each makes or copies a
# Debian root (mostly unpacking and dpkg), so they run one after the other,
# beside the builds, KUnit and the kernels' boots, from the start.
host_chain() {
	stage fresh "$SKM_ROOT/scripts/fresh.sh"
	stage deb-install "$SKM_ROOT/scripts/deb-test.sh"
	# Debian 12 booted with systemd, the package from apt (the short form
	# of make host-test: one image, one boot)
	counted host-short "$SKM_ROOT/scripts/host-test.sh" --short
	# memory.min under MGLRU root reclaim on a 6.12 without Debian's fix
	# of it (bookworm-backports' 6.12, unpacked, not installed): the
	# reclaim policies compute the protection path themselves there.
	counted mglru-unfixed env MATRIX_KVERS=bpo MATRIX_CASES=reclaim_mglru_min \
		MATRIX_ENV="MGLRU_LRUS=mglru MGLRU_OPS=rootstale+rootreclaim MGLRU_PATH_BY_SKMEMCG=1" \
		"$SKM_ROOT/scripts/matrix.sh"
}
if [ -z "${SKM_SKIP_FRESH:-}" ]; then
	skm_log "chain host: started (out/chain-host.log)"
	host_chain > "$SKM_OUT/chain-host.log" 2>&1 &
	host_pid=$!
fi

kvers=${KVER:-$(skm_kvers)}
[ -n "$kvers" ] || skm_die "no supported Debian kernel installed"
kver_first=$(echo "$kvers" | head -n 1)

# Debian 13's own 6.12 is built for, not booted (the same source family as
# bookworm-backports' 6.12, which is).
builds=$kvers
[ -n "${KVER:-}" ] || builds="$builds $(skm_kver_612_deb13)"
for kver in $builds; do
	stage "build-$kver" build_for "$kver"
done
stage sparse sparse_check "/lib/modules/$kver_first/build"
stage checkpatch "$SKM_ROOT/scripts/checkpatch.sh"
# module/'s layering: no include cycle (docs/design.md, "Source layout")
counted include-graph python3 "$SKM_ROOT/scripts/include-graph.py"
stage doccheck "$SKM_ROOT/scripts/doccheck.sh"
stage version "$SKM_ROOT/scripts/version-check.sh"
counted exporter "$SKM_ROOT/scripts/exporter-test.sh"
counted oci-hook "$SKM_ROOT/scripts/oci-hook-test.sh"
stage deb "$SKM_ROOT/scripts/deb.sh"
for kver in $kvers; do
	skm_in_deb13 "$kver" && continue	# DKMS of the host builds for the host's kernels
	stage "dkms-$kver" "$SKM_ROOT/scripts/dkms-test.sh" "$kver"
done
counted kunit "$SKM_ROOT/scripts/kunit.sh"

jobs_max=${SKM_JOBS:-$(echo "$kvers" | wc -w)}
chains=()	# the kernel chains running (the host chain is not counted)
for kver in $kvers; do
	while [ "${#chains[@]}" -ge "$jobs_max" ]; do
		wait -n "${chains[@]}"
		for i in "${!chains[@]}"; do
			kill -0 "${chains[i]}" 2> /dev/null || unset 'chains[i]'
		done
		chains=("${chains[@]}")
	done
	skm_log "chain $kver: started (out/chain-$kver.log)"
	kernel_chain "$kver" > "$SKM_OUT/chain-$kver.log" 2>&1 &
	chains+=($!)
done
wait
for kver in ${host_pid:+host} $kvers; do
	echo
	echo "=== $kver"
	cat "$SKM_OUT/chain-$kver.log"
done

# The measured tables of docs/measurements.md, from this run's console logs
# (out/doc-tables.log): fails if one has no data.
[ -n "${KVER:-}" ] || stage doc-tables python3 "$SKM_ROOT/scripts/doc-tables.py" "$SKM_OUT"

skm_results_report "$t_all"
