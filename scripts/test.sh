#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's test command: install what is missing, then build, sparse,
# checkpatch, DKMS (with module signing), KUnit in UML, and the VM cases on
# every supported kernel (main, NUMA per-CPU reserve, reclaim curves,
# lockdown, load/unload under traffic, benchmark smoke).
# Prints each stage's wall time and ends with "N passed, N failed", counting
# each KUnit case, each VM case, and each host stage (build, sparse,
# checkpatch, dkms) as one test. Exit 0 only if none failed.
#
#   scripts/test.sh            everything, on every supported kernel
#   KVER=<release> ...         only that kernel (e.g. 6.12.117+deb12-amd64)
#   SKM_SKIP_SETUP=1 ...       do not look for missing packages
set -uo pipefail
. "$(dirname "$0")/lib.sh"

passed=0
failed=0
timings=()

# stage NAME COMMAND...: run a host stage that counts as one test.
stage() {
	local name=$1 t0 rc
	shift
	t0=$(date +%s)
	"$@" > "$SKM_OUT/$name.log" 2>&1
	rc=$?
	timings+=("$name $(( $(date +%s) - t0 ))s")
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
		echo "$name: PASS"
	else
		failed=$((failed + 1))
		echo "$name: FAIL (log: $SKM_OUT/$name.log)"
		tail -n 30 "$SKM_OUT/$name.log" | sed 's/^/    /'
	fi
	return $rc
}

# counted NAME COMMAND...: run a stage whose last line is "...: N passed, N failed".
counted() {
	local name=$1 t0 last p f
	shift
	t0=$(date +%s)
	"$@" 2>&1 | tee "$SKM_OUT/$name.log"
	timings+=("$name $(( $(date +%s) - t0 ))s")
	last=$(grep -E '[0-9]+ passed, [0-9]+ failed$' "$SKM_OUT/$name.log" | tail -n 1)
	p=$(echo "$last" | sed -n 's/.* \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(echo "$last" | sed -n 's/.* \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	if [ -z "$p" ]; then
		p=0 f=1
		echo "$name: no result line"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}

sparse_check() {
	local kdir=$1 dir=$SKM_OUT/sparse
	rm -rf "$dir" && mkdir -p "$dir"
	cp -r "$SKM_ROOT"/Kbuild "$SKM_ROOT"/dkms.conf "$SKM_ROOT"/module "$dir"/
	make -C "$kdir" M="$dir" C=2 modules 2>&1 | tee "$dir/out.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || return 1
	grep -q 'CHECK' "$dir/out.log" || { echo "sparse did not run"; return 1; }
	! grep -E '(warning|error):' "$dir/out.log"
}

t_all=$(date +%s)
if [ -z "${SKM_SKIP_SETUP:-}" ]; then
	t0=$(date +%s)
	"$SKM_ROOT/scripts/setup.sh" || skm_die "setup failed"
	timings+=("setup $(( $(date +%s) - t0 ))s")
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
for kver in $kvers; do
	counted "vm-$kver" "$SKM_ROOT/scripts/vm.sh" -k "$kver" -q
	counted "vm-numa-$kver" "$SKM_ROOT/scripts/vm.sh" -k "$kver" -q -c 4 -n 2 \
		-t "$(skm_guest_cases pcpu)"
	counted "vm-reclaim-$kver" "$SKM_ROOT/scripts/vm.sh" -k "$kver" -q -w reclaim \
		-T 1500 -t "$(skm_guest_cases reclaim)"
	stage "plot-$kver" "$SKM_ROOT/scripts/reclaim-plot.sh" \
		"$SKM_OUT/vm-$kver-reclaim/console.log" "$SKM_OUT/reclaim-$kver.png" "$kver"
	# Lockdown cannot be lowered again and refuses unsigned modules: own boot.
	counted "vm-lockdown-$kver" "$SKM_ROOT/scripts/vm.sh" -k "$kver" -q -w lockdown \
		-t "$(skm_guest_cases lockdown)"
	# Load/unload cycles patch kernel text dozens of times a second while
	# both vCPUs run it. Under multi-threaded TCG that crashed the guest
	# at ftrace and jump-label sites (int3 oopses, a vCPU stuck on a
	# patched NOP), also with skmemcg not loaded; single-threaded TCG runs
	# one vCPU at a time, so patched code is never mid-execution elsewhere.
	counted "vm-reload-$kver" env SKM_TCG_THREAD=single "$SKM_ROOT/scripts/vm.sh" \
		-k "$kver" -q -w reload -T 600 -t "$(skm_guest_cases reload)"
	counted "bench-smoke-$kver" "$SKM_ROOT/scripts/bench.sh" -k "$kver" -q
	stage "bench-table-$kver" grep -q '^worst cell of "all"' "$SKM_OUT/bench-smoke-$kver.txt"
done

echo
echo "wall time per stage:"
printf '  %s\n' "${timings[@]}" "total $(( $(date +%s) - t_all ))s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
