#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the debug kernel the VM suite runs on in "make check-debug": Debian's
# linux-source-6.1 configured from "make tinyconfig" for x86_64 plus
# scripts/debug-kernel.config (what the guest cases need, lockdep, atomic
# sleep checks, KASAN, UBSAN, DEBUG_LIST, DEBUG_OBJECTS, kmemleak, lockup
# detectors). Out of tree, cached in $SKM_CACHE/debug-<source version>/:
#   build/     the O= build tree (the module builds against it)
#   mod/       modules_install root: mod/lib/modules/<release>/ with modules.dep
# It rebuilds only when the fragment changed (incrementally, in build/).
# After olddefconfig every line of the fragment must have survived; if one
# did not, the script fails naming it.
#
# Prints, on stdout, the variables scripts/vm.sh takes to boot it:
#   SKM_VMLINUZ=... SKM_KDIR=... SKM_MODDIR=...
#
# KASAN, not KFENCE: generic KASAN (outline) with everything else above costs
# the main VM boot 2.8 times the stock kernel's guest time (843 s against
# 298 s for the same 10 cases on Debian's 6.1.0-57), which fits a run; the
# cases that load and unload the module often are hit hardest (knobs 270 s
# against 15 s). KFENCE (sampling, nearly free) was not measured: it would
# only be worth it if KASAN did not fit. KCSAN cannot be built together with
# KASAN (lib/Kconfig.kcsan: depends on !KASAN); it would need a second
# kernel, not built here.
#
# Under TCG the perf NMI watchdog cannot start (no PMU), so of the lockup
# detectors only the soft one and hung-task run; the hard one is configured.
# The lockdown LSM selects MODULE_SIG: the build generates a signing key
# (openssl, libssl-dev for sign-file), but the fragment leaves the modules
# unsigned (signed, brd.ko did not load in the guest); they and skmemcg.ko
# taint E, as skmemcg.ko does on Debian.
#
# Seen in 3 of 10 boots while other QEMU guests shared the 2 cores: the
# guest hung silently before init's first line (console past the firmware
# empty at loglevel=4, QEMU idle at 8% CPU). Not diagnosed; vm.sh's time
# limit ends such a boot and its cases count as failed.
#
# Figures (2 cores shared with other engineers' QEMU runs, so upper bounds):
# first build 522 s (8 min 42 s wall for the script: tinyconfig + fragment,
# bzImage and 6 modules, -j2); with the fragment unchanged it returns at once;
# after a one-line fragment change (MODULE_SIG_ALL) the rebuild took 15 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

frag=$SKM_ROOT/scripts/debug-kernel.config
src=$(skm_ksrc)
ver=$(basename "$src"); ver=${ver#src-}
top=$SKM_CACHE/debug-$ver
build=$top/build
mod=$top/mod
stamp=$top/.skmemcg-built
mkdir -p "$build"
# A build stamp: the fragment's hash.
want=$(sha256sum < "$frag" | cut -d' ' -f1)

kmake() {
	make -C "$src" O="$build" ARCH=x86_64 "$@"
}

if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	[ ! -e "$src/.config" ] || skm_die "$src has a .config: the source tree must stay clean for O= builds"
	t0=$(date +%s)
	skm_log "debug kernel: configuring in $build"
	rm -f "$stamp"
	kmake -s tinyconfig > "$top/config.log" 2>&1 || { cat "$top/config.log" >&2; skm_die "tinyconfig"; }
	"$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "$frag" >> "$top/config.log" 2>&1 ||
		{ cat "$top/config.log" >&2; skm_die "merge_config"; }
	kmake -s olddefconfig >> "$top/config.log" 2>&1 || { cat "$top/config.log" >&2; skm_die "olddefconfig"; }
	lost=0
	while read -r line; do
		case $line in
		CONFIG_*=*|"# CONFIG_"*" is not set") ;;
		*) continue ;;
		esac
		if ! grep -qxF -- "$line" "$build/.config"; then
			opt=$(echo "$line" | grep -oE 'CONFIG_[A-Za-z0-9_]+')
			echo "error: $line did not survive olddefconfig; .config has: $(grep -E "(^|# )${opt}[= ]" "$build/.config" || echo nothing)" >&2
			lost=1
		fi
	done < "$frag"
	[ "$lost" -eq 0 ] || skm_die "debug kernel config: options of $frag missing (above)"

	skm_log "debug kernel: building (make -j$(nproc), log $top/build.log)"
	kmake -j"$(nproc)" bzImage modules > "$top/build.log" 2>&1 ||
		{ tail -n 40 "$top/build.log" >&2; skm_die "debug kernel build failed (log: $top/build.log)"; }
	rm -rf "$mod"
	kmake -s INSTALL_MOD_PATH="$mod" modules_install >> "$top/build.log" 2>&1 ||
		{ tail -n 20 "$top/build.log" >&2; skm_die "modules_install"; }
	echo "$want" > "$stamp"
	skm_log "debug kernel: built in $(( $(date +%s) - t0 ))s"
fi

rel=$(cat "$build/include/config/kernel.release")
[ -f "$mod/lib/modules/$rel/modules.dep" ] || skm_die "$mod/lib/modules/$rel/modules.dep missing"
echo "SKM_VMLINUZ=$build/arch/x86/boot/bzImage"
echo "SKM_KDIR=$build"
echo "SKM_MODDIR=$mod/lib/modules/$rel"
