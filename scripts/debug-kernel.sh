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
# The kernel is built from a copy of that tree (hard links; a file a patch
# touches is copied first) with scripts/debug-kernel-patches/*.patch applied
# in name order: upstream fixes the debug configuration needs and Debian's
# 6.1 lacks. Today one: upstream 9d0cce2bc387 (RCU Tasks: release
# ->tasks_gp_mutex while waiting for callbacks), without which
# PROVE_RCU's boot self-test deadlocks before smp_init() in some boots
# (the patch's header says how it was found). A change to a patch rebuilds
# the copy and the kernel.
#
# Figures (2 cores shared with other engineers' QEMU runs, so upper bounds):
# first build 522 s (8 min 42 s wall for the script: tinyconfig + fragment,
# bzImage and 6 modules, -j2); with the fragment unchanged it returns at once;
# after a one-line fragment change (MODULE_SIG_ALL) the rebuild took 15 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

frag=$SKM_ROOT/scripts/debug-kernel.config
shopt -s nullglob
patches=("$SKM_ROOT"/scripts/debug-kernel-patches/*.patch)
shopt -u nullglob
base=$(skm_ksrc)
ver=$(basename "$base"); ver=${ver#src-}
top=$SKM_CACHE/debug-$ver
src=$top/src
build=$top/build
mod=$top/mod
stamp=$top/.skmemcg-built
mkdir -p "$build"
# Build stamps: the patches' hash (the source copy), and that with the
# fragment's (the build).
src_want=$(cat /dev/null "${patches[@]}" | sha256sum | cut -d' ' -f1)
want=$(cat "$frag" "${patches[@]}" | sha256sum | cut -d' ' -f1)

if [ "$(cat "$src/.skmemcg-patched" 2>/dev/null)" != "$src_want" ]; then
	skm_log "debug kernel: patched source copy in $src (${#patches[@]} patch(es))"
	rm -rf "$src"
	cp -al "$base" "$src"
	for p in "${patches[@]}"; do
		# Unshare each file the patch changes from the extracted tree.
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p" | while read -r f; do
			cp "$src/$f" "$src/$f.skm-tmp" && mv "$src/$f.skm-tmp" "$src/$f"
		done
		patch -s -p1 -d "$src" --forward --no-backup-if-mismatch < "$p" ||
			skm_die "debug kernel: $(basename "$p") does not apply to linux-source-6.1 $ver"
	done
	echo "$src_want" > "$src/.skmemcg-patched"
fi

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
