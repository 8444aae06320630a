#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Is the guest's initramfs reproducible? Builds the initramfs of
# reclaim_curves' deterministic mode (scripts/vm.sh with SKM_INITRD_ONLY=1)
# twice, from two copies of this tree at different paths, one after the
# other, and compares the bytes. Under QEMU's icount mode the same initramfs
# and arguments are the same run (docs/testing.md, "Deterministic mode"), so
# this is what lets a rebuilt tree repeat a measurement.
#
#   scripts/initrd-repro.sh [KVER...]     default: the 6.1 kernel
#
# Last line: "initrd-repro: N passed, N failed", one test per kernel.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

kvers=${*:-$(skm_kver_61)}
[ -n "$kvers" ] || skm_die "no Debian kernel installed: run scripts/setup.sh"
tmp=$(mktemp -d "$SKM_OUT/initrd-repro.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# copy DIR: the tree's sources in DIR, with an out/ of its own
copy() {
	mkdir -p "$1/out"
	cp -a "$SKM_ROOT"/{Kbuild,Makefile,dkms.conf,module,scripts} "$1"/
}
copy "$tmp/a"
copy "$tmp/b/deeper"

passed=0 failed=0
for kver in $kvers; do
	sums=()
	for dir in "$tmp/a" "$tmp/b/deeper"; do
		sum=$(cd "$dir" && SKM_OUT=$dir/out SKM_INITRD_ONLY=1 scripts/vm.sh -k "$kver" -q -w repro \
			-t reclaim_curves,reclaim_mglru_min | tail -n 1 | cut -d' ' -f1)
		sums+=("$sum")
	done
	if [ -n "${sums[0]}" ] && [ "${sums[0]}" = "${sums[1]}" ]; then
		echo "initrd-repro[$kver]: PASS, both builds ${sums[0]}"
		passed=$((passed + 1))
	else
		echo "initrd-repro[$kver]: FAIL, ${sums[0]:-no build} vs ${sums[1]:-no build}"
		for x in a b/deeper; do
			mkdir -p "$tmp/x/$x"
			zcat "$tmp/$x/out/vm-$kver-repro/initrd.gz" | (cd "$tmp/x/$x" && cpio -id --quiet)
		done
		diff -rq "$tmp/x/a" "$tmp/x/b/deeper" | head -n 20
		failed=$((failed + 1))
	fi
done
echo "initrd-repro: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
