#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build skmemcg.ko for a Debian kernel, pack it with busybox, the guest test
# cases and workloads into an initramfs, boot that kernel under QEMU TCG, run
# the named guest test cases and report each as PASS or FAIL.
#
#   scripts/vm.sh [-k KVER] [-t case,case...] [-T seconds-per-case]
#                 [-c cpus] [-n numa-nodes] [-m MiB] [-a "extra kernel args"]
#                 [-e "VAR=value ..."] [-w tag] [-I] [-q]
#
# -n splits the vCPUs and the memory evenly over that many NUMA nodes.
# The initramfs also gets the kernel modules in SKM_GUEST_MODULES (default
# "brd ext4 crc32c_generic") and the host programs in SKM_GUEST_BINS (none
# by default; the benchmark wants iperf3), with their shared libraries.
# -w keeps this boot's files in out/vm-KVER-TAG (NUMA boots: -numaN).
# SKM_BASE_KO: another skmemcg.ko built for KVER, packed as
# /opt/skmemcg-base.ko, which the guest's load() takes instead when
# SKM_KO=/opt/skmemcg-base.ko (scripts/bench-ab.sh).
# -e exports variables to the guest cases (e.g. BURST_ROUNDS=1).
# -I runs the guest under "-icount shift=0,sleep=off": its clock advances by
# executed instructions (one per ns), so what a case times in the guest does
# not depend on the host's load (bench_icount). Wants -c 1: a 2-vCPU guest
# did not boot in 300 s under it (KERNEL-NOTES). Nothing of the host's
# enters the guest's decisions then: its random instructions (RDRAND,
# RDSEED) draw from a generator seeded alike in every boot ("-seed 1"), and
# its real-time clock starts at the same date and runs on guest time.
# The initramfs is reproducible: the same commit and arguments give the same
# bytes, in any checkout and at any time (every file dated 1970, in sorted
# order, inode numbers from 1; the modules and workloads built with their
# source paths mapped off: scripts/initrd-repro.sh checks it). Under -I the
# same initramfs and arguments are the same run.
# SKM_INITRD: boot that initramfs (an earlier boot's out/vm-*/initrd.gz)
# instead of the one just built.
# SKM_INITRD_ONLY=1: build the initramfs (out/vm-*/initrd.gz), print its
# SHA-256 and stop.
# SKM_ICOUNT_SHIFT: 2^shift ns a guest instruction (default 0: 1 ns); a
# larger shift makes a guest second fewer instructions, and so a long case
# shorter on the host (reclaim_curves' deterministic mode).
#
# SKM_TCG_THREAD: QEMU's TCG threading, "single" (the default: all vCPUs in
# one host thread, one at a time) or "multi" (a host thread per vCPU).
# Every boot here patches kernel text while other vCPUs run (the module's
# load and unload, policy flips, tracepoints), and under multi-threaded TCG
# that stalls or hangs even the stock kernel with no skmemcg: the
# testbed_patching case measures it ("make check-testbed", i.e.
# scripts/test.sh testbed). "multi" stays only to reproduce that.
# KVER defaults to the newest installed 6.1 kernel (env KVER works too);
# cases default to every file in scripts/guest/tests/ except the lib*.sh
# helpers, the pcpu_* cases, which need a NUMA guest, the reclaim_*
# cases, which take minutes, and the lockdown_* cases, which lock the kernel
# down for the rest of the boot; scripts/test.sh boots those apart
# (-t "$(skm_guest_cases pcpu)" -c 4 -n 2, -t "$(skm_guest_cases reclaim)").
# The demo cases in scripts/guest/demo/ run only when named.
# Besides the cases, five checks of the whole boot count as tests:
# guest-booted (the first case began within SKM_BOOT_DEADLINE seconds,
# default 600; else the boot stops there, with the kernel's log read from
# the guest's RAM in out/vm-KVER/boot-hang.log),
# guest-completed (no hang or panic before the last case ended),
# guest-clock (the guest's uptime at the end no more than the seconds QEMU
# ran, +1; not under -I),
# kernel-log-clean (no BUG, WARNING, Oops, lockup, stall, hung task or
# sleep in atomic context) and taint (no
# taint but out-of-tree and unsigned module). The console log of every run is
# kept in out/vm-KVER/console.log; each failed case's output and guest dmesg
# are also in out/vm-KVER/CASE.log.
#
# A kernel other than an installed Debian one (scripts/debug-kernel.sh prints
# these for the debug kernel): SKM_VMLINUZ, the image to boot; SKM_KDIR, its
# build tree, which the module builds against; SKM_MODDIR, its modules
# directory, laid out as <root>/lib/modules/<release> with modules.dep (from
# "make modules_install INSTALL_MOD_PATH=<root>"). KVER then defaults to the
# release SKM_KDIR names. Unset, vm.sh boots /boot/vmlinuz-KVER with
# /lib/modules/KVER/build and /lib/modules/KVER; a Debian 13 kernel
# (*+deb13-*) from the Debian 13 root of scripts/deb13.sh, where the
# modules are built too (its kbuild tools need Debian 13's glibc and gcc).
#
# -q leaves out the guest notes of passing cases; a failed case still shows
# its own lines (not its dmesg).
#
# Last line: "vm[KVER]: N passed, N failed". Exit 0 only if none failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kver=${KVER:-}
cases=
case_timeout=300
cpus=2
nodes=1
mem=1024
append_extra=
guest_env=
quiet=
tag=
icount=()
while getopts "k:t:T:c:n:m:a:e:w:Iq" opt; do
	case $opt in
	k) kver=$OPTARG ;;
	t) cases=$OPTARG ;;
	T) case_timeout=$OPTARG ;;
	c) cpus=$OPTARG ;;
	n) nodes=$OPTARG ;;
	m) mem=$OPTARG ;;
	a) append_extra=$OPTARG ;;
	e) guest_env=$(echo "$OPTARG" | tr ' ' ',') ;;
	w) tag=$OPTARG ;;
	I) icount=(-icount "shift=${SKM_ICOUNT_SHIFT:-0},sleep=off" -seed 1
		   -rtc base=2026-01-01T00:00:00,clock=vm) ;;
	q) quiet=1 ;;
	*) skm_die "usage: see the header of $0" ;;
	esac
done
if [ -z "$kver" ] && [ -n "${SKM_KDIR:-}" ]; then
	kver=$(cat "$SKM_KDIR/include/config/kernel.release") ||
		skm_die "$SKM_KDIR is not a configured kernel build tree"
fi
[ -n "$kver" ] || kver=$(skm_kver_61)
[ -n "$kver" ] || skm_die "no Debian kernel installed: run scripts/setup.sh"
# kmake ARGS...: make for this kernel, in the Debian 13 root where it
# builds (with $SKM_OUT, where the module folders are, bound in).
kroot=
kmake() { make "$@"; }
if skm_in_deb13 "$kver" && [ -z "${SKM_VMLINUZ:-}" ]; then
	kroot=$(skm_deb13_root)
	[ -f "$kroot/boot/vmlinuz-$kver" ] || skm_die "$kver is not in the Debian 13 root: run scripts/deb13.sh setup"
	SKM_VMLINUZ=$kroot/boot/vmlinuz-$kver
	SKM_MODDIR=$kroot/lib/modules/$kver
	kmake() { "$SKM_ROOT/scripts/deb13.sh" run "$SKM_OUT" make "$@"; }
fi
vmlinuz=${SKM_VMLINUZ:-/boot/vmlinuz-$kver}
kdir=${SKM_KDIR:-/lib/modules/$kver/build}
moddir=${SKM_MODDIR:-/lib/modules/$kver}
[ "$moddir" != "${moddir%/lib/modules/$kver}" ] ||
	skm_die "SKM_MODDIR=$moddir: want <root>/lib/modules/$kver"
modroot=${moddir%/lib/modules/$kver}
[ -r "$vmlinuz" ] || skm_die "$vmlinuz not found"
[ -d "$kroot$kdir" ] || skm_die "$kroot$kdir not found: install linux-headers-$kver"
[ -n "$cases" ] || cases=$(skm_guest_cases main)
tcg_thread=${SKM_TCG_THREAD:-single}
case $tcg_thread in
single|multi) ;;
*) skm_die "SKM_TCG_THREAD=$tcg_thread: want single or multi" ;;
esac
guest_clock=$SKM_GUEST_CLOCK
if [ ${#icount[@]} -gt 0 ]; then
	[ "$tcg_thread" = single ] || skm_die "-I wants single-threaded TCG"
	[ "$cpus" -eq 1 ] || skm_die "-I wants -c 1"
	guest_clock=
fi

work=$SKM_OUT/vm-$kver
if [ -n "$tag" ]; then work=$work-$tag; elif [ "$nodes" -gt 1 ]; then work=$work-numa$nodes; fi
rm -rf "$work"
mkdir -p "$work"

# The modules: skmemcg, the same built as if no kernel family were
# supported (for the case that proves such a module refuses to load), and
# the test-only modules (scripts/guest/modules: another ftrace IPMODIFY
# user, a livepatch) for the coexistence case. Each is built in a folder of
# this boot's own, so that boots running at once share no objects.
build=$work/module
unsupported=$work/module-unsupported
testmods=$work/testmods
# prefix_map DIR: compiler flags that write paths under DIR relative to it
# (__FILE__ in WARN_ON and the like), so the bytes do not name the checkout.
prefix_map() { echo "-ffile-prefix-map=$1=."; }
build_modules() {
	rm -rf "$build" "$unsupported" "$testmods"
	mkdir -p "$build" "$unsupported" "$testmods"
	cp -r "$SKM_ROOT"/Kbuild "$SKM_ROOT"/Makefile "$SKM_ROOT"/dkms.conf "$SKM_ROOT"/module "$build"/
	cp -r "$build"/. "$unsupported"/
	cp "$SKM_ROOT"/scripts/guest/modules/* "$testmods"/
	kmake -s -C "$kdir" M="$build" KCFLAGS="$(prefix_map "$build")" modules > "$work/build.log" 2>&1 ||
		{ cat "$work/build.log" >&2; skm_die "module build against $kver failed"; }
	kmake -s -C "$kdir" M="$unsupported" KCFLAGS="$(prefix_map "$unsupported")" SKM_FAMILIES=none \
		modules >> "$work/build.log" 2>&1 ||
		{ cat "$work/build.log" >&2; skm_die "unsupported-variant build against $kver failed"; }
	kmake -s -C "$kdir" M="$testmods" KCFLAGS="$(prefix_map "$testmods")" modules >> "$work/build.log" 2>&1 ||
		{ cat "$work/build.log" >&2; skm_die "test modules build against $kver failed"; }
}
# Built once per kernel and sources, and kept in $SKM_OUT/modcache/: every
# boot of a test run but the first of each kernel copies them (a build took
# 6 to 7 minutes beside the test command's other guests, three builds a
# boot). The key hashes the sources (names and contents), how they are
# built (build_modules itself, SKM_WERROR), the kernel's build tree (its
# release, version, .config and Module.symvers) and the toolchain (the
# host's packages, or the Debian 13 root's); the builds are reproducible.
# srchash DIR PATH...: the names and contents of the files under PATHs
srchash() { (cd "$1" && shift && find "$@" -type f | LC_ALL=C sort | xargs sha256sum); }
modkey=$({
	echo "$kver $kdir ${SKM_WERROR:-}"
	declare -f build_modules prefix_map
	cat "$kroot$kdir/include/config/kernel.release" "$kroot$kdir/.config" \
		"$kroot$kdir/include/generated/utsversion.h" \
		"$kroot$kdir/include/generated/compile.h" "$kroot$kdir/Module.symvers" 2> /dev/null || :
	if [ -n "$kroot" ]; then
		sha256sum "$kroot/var/lib/dpkg/status"
	else
		dpkg-query -W gcc binutils libc6-dev 2> /dev/null || gcc --version
	fi
	srchash "$SKM_ROOT" Kbuild Makefile dkms.conf module scripts/guest/modules
} | sha256sum | cut -c1-16)
modcache=$SKM_OUT/modcache/$kver-$modkey
if [ -f "$modcache/done" ]; then
	rm -rf "$build" "$unsupported" "$testmods"
	mkdir -p "$build" "$unsupported" "$testmods"
	cp "$modcache/skmemcg.ko" "$build/"
	cp "$modcache/unsupported/skmemcg.ko" "$unsupported/"
	cp "$modcache"/testmods/*.ko "$testmods/"
	echo "modules from $modcache" > "$work/build.log"
else
	build_modules
	mkdir -p "$SKM_OUT/modcache"
	tmpcache=$(mktemp -d "$SKM_OUT/modcache/.new.XXXXXX")
	mkdir -p "$tmpcache/unsupported" "$tmpcache/testmods"
	cp "$build/skmemcg.ko" "$tmpcache/"
	cp "$unsupported/skmemcg.ko" "$tmpcache/unsupported/"
	cp "$testmods"/*.ko "$tmpcache/testmods/"
	touch "$tmpcache/done"
	# another boot of this kernel may have put the same there meanwhile
	mv -T "$tmpcache" "$modcache" 2> /dev/null || rm -rf "$tmpcache"
fi

# The initramfs.
root=$work/root
mkdir -p "$root"/{bin,tests,proc,sys,dev,tmp,etc,opt} "$root/lib/modules/$kver/extra"
cp /bin/busybox "$root/bin/busybox"
install -m 0755 "$SKM_ROOT/scripts/guest/init" "$root/init"
cp "$SKM_ROOT"/scripts/guest/tests/*.sh "$SKM_ROOT"/scripts/guest/demo/*.sh "$root/tests/"
# The Prometheus exporter, for the exporter case: busybox runs it as is.
install -m 0755 "$SKM_ROOT/scripts/skmemcg-exporter" "$root/bin/skmemcg-exporter"
# The static workloads, cached as the modules are (keyed by their sources,
# flags, compiler and C library).
wlflags="-static -O2 -Wall -Wextra -Werror -pthread $(prefix_map "$SKM_ROOT")"
wlkey=$({
	echo "$wlflags"
	gcc --version | head -n 1
	dpkg-query -W libc6-dev 2> /dev/null || :
	srchash "$SKM_ROOT" scripts/guest/workloads
} | sha256sum | cut -c1-16)
wlcache=$SKM_OUT/modcache/workloads-$wlkey
if [ ! -f "$wlcache/done" ]; then
	mkdir -p "$SKM_OUT/modcache"
	tmpcache=$(mktemp -d "$SKM_OUT/modcache/.new.XXXXXX")
	for src in "$SKM_ROOT"/scripts/guest/workloads/*.c; do
		# shellcheck disable=SC2086 # the flags are words
		gcc $wlflags -o "$tmpcache/$(basename "$src" .c)" "$src" ||
			{ rm -rf "$tmpcache"; skm_die "building $src"; }
	done
	touch "$tmpcache/done"
	mv -T "$tmpcache" "$wlcache" 2> /dev/null || rm -rf "$tmpcache"
fi
for bin in "$wlcache"/*; do
	[ "$bin" = "$wlcache/done" ] || cp "$bin" "$root/bin/"
done
strip --strip-debug -o "$root/lib/modules/$kver/extra/skmemcg.ko" "$build/skmemcg.ko"
mkdir -p "$root/opt"
strip --strip-debug -o "$root/opt/skmemcg-unsupported.ko" "$unsupported/skmemcg.ko"
# Another build of skmemcg to compare with (scripts/bench-ab.sh): /opt/skmemcg-base.ko
if [ -n "${SKM_BASE_KO:-}" ]; then
	strip --strip-debug -o "$root/opt/skmemcg-base.ko" "$SKM_BASE_KO" ||
		skm_die "SKM_BASE_KO=$SKM_BASE_KO"
fi
for ko in "$testmods"/*.ko; do
	strip --strip-debug -o "$root/opt/$(basename "$ko")" "$ko"
done
# Kernel modules the cases need, with their dependencies, uncompressed.
# (crc32c_generic, which ext4 asks the crypto API for on 6.x, is gone in 7.x,
# where ext4 depends on what it needs: a module the kernel lacks is skipped.)
for m in ${SKM_GUEST_MODULES:-brd ext4 crc32c_generic}; do
	if ! modprobe ${modroot:+-d "$modroot"} -S "$kver" --show-depends "$m" > /dev/null 2>&1; then
		skm_log "vm[$kver]: no module $m in this kernel; not packed"
		continue
	fi
	modprobe ${modroot:+-d "$modroot"} -S "$kver" --show-depends "$m" |
	awk '$1 == "insmod" { print $2 }' |
	while read -r ko; do
		rel=${ko#"$moddir"/}
		mkdir -p "$root/lib/modules/$kver/$(dirname "$rel")"
		case $ko in
		*.xz) xz -dc "$ko" > "$root/lib/modules/$kver/${rel%.xz}" ;;
		*.zst) zstd -qdc "$ko" > "$root/lib/modules/$kver/${rel%.zst}" ;;
		*) cp "$ko" "$root/lib/modules/$kver/$rel" ;;
		esac
	done
done
# Host programs the cases need (SKM_GUEST_BINS, e.g. iperf3), with their
# shared libraries at the same paths.
for b in ${SKM_GUEST_BINS:-}; do
	bin=$(command -v "$b") || skm_die "$b not installed: run scripts/setup.sh"
	cp "$bin" "$root/bin/"
	for lib in $(ldd "$bin" | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done
# The kernel's own memcg tests, built from this kernel's source, for the
# conform_memcg case.
case ,$cases, in
*,conform_memcg,*)
	"$SKM_ROOT/scripts/selftests-build.sh" "$kver" "$work/selftests"
	mkdir -p "$root/opt/selftests"
	cp "$work/selftests"/{test_memcontrol,test_kmem,source} "$root/opt/selftests/" ;;
esac
cp "$moddir"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$kver/"
depmod -b "$root" "$kver"
# modes as a umask of 022 leaves them, owner root, dated 1970
find "$root" -type d -exec chmod 755 {} +
find "$root" -type f -perm -u+x -exec chmod 755 {} +
find "$root" -type f ! -perm -u+x -exec chmod 644 {} +
find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . | LC_ALL=C sort |
	cpio -o -H newc --quiet --reproducible --owner=+0:+0) |
	gzip -n -1 > "$work/initrd.gz"
if [ -n "${SKM_INITRD_ONLY:-}" ]; then
	sha256sum "$work/initrd.gz"
	exit 0
fi

# NUMA: node i is socket i (-n must divide -c and -m).
skm_qemu_topology "$cpus" "$nodes" "$mem"
smp=$skm_smp
numa=("${skm_numa[@]}")

# Boot.
ncases=$(echo "$cases" | tr ',' '\n' | grep -c .)
limit=$((ncases * case_timeout + 120))
log=$work/console.log
skm_log "vm[$kver]: booting with $ncases cases ($cpus vCPUs, $nodes node(s), $mem MiB, $tcg_thread-threaded TCG${icount:+, icount}, limit ${limit}s)"
# SKM_QEMU_MONITOR=PATH: QEMU's monitor on that unix socket, to look at a
# hung guest ("info registers -a"; boot with -a nokaslr to read RIPs
# against /boot/System.map-KVER).
monitor=(-monitor none)
[ -n "${SKM_QEMU_MONITOR:-}" ] && monitor=(-monitor "unix:$SKM_QEMU_MONITOR,server,nowait")
# SKM_QEMU_GDB=PATH: QEMU's gdb server on that unix socket
# (scripts/path-count.sh single-steps hooked calls through it).
[ -n "${SKM_QEMU_GDB:-}" ] && monitor+=(-gdb "unix:$SKM_QEMU_GDB,server,nowait")
# SKM_BOOT_DEADLINE (s, default 600): the first case must have begun by
# then, or the boot fails at once (guest-booted) with the kernel's last log
# lines read from the guest's RAM (scripts/guest-klog.py) in
# $work/boot-hang.log. At loglevel=4 a kernel that hangs before init prints
# nothing, and would hold its slot until the whole limit ran out (5.9 h for
# make check-debug's NUMA boot).
boot_deadline=${SKM_BOOT_DEADLINE:-600}
# SKM_QEMU_ARGS: more words for QEMU, split on blanks: what a diagnosis
# wants of it ("-d exec,nochain -dfilter ADDR+1,... -D FILE" logs every
# entry to kernel functions of a -a nokaslr boot without a change in the
# guest, docs/measurements.md).
read -r -a qemu_extra <<< "${SKM_QEMU_ARGS:-}"

t0=$(date +%s)
set +e
timeout --foreground -k 10 "$limit" qemu-system-x86_64 \
	-accel tcg,thread=$tcg_thread "${icount[@]}" -cpu max -m "$mem" -smp "$smp" "${numa[@]}" \
	-nographic -no-reboot "${monitor[@]}" ${qemu_extra[@]+"${qemu_extra[@]}"} -serial stdio \
	-kernel "$vmlinuz" -initrd "${SKM_INITRD:-$work/initrd.gz}" \
	-append "console=ttyS0 panic=-1 oops=panic softlockup_panic=1 loglevel=4 skmtests=$cases skmtimeout=$case_timeout ${guest_env:+skmenv=$guest_env} $guest_clock $append_extra" \
	< /dev/null > "$log" 2>&1 &
tpid=$!
boot_secs="" hang=""
while kill -0 "$tpid" 2> /dev/null; do
	if grep -q '@@SKM BEGIN' "$log"; then
		boot_secs=$(( $(date +%s) - t0 ))
		break
	fi
	if [ $(( $(date +%s) - t0 )) -ge "$boot_deadline" ]; then
		hang=$work/boot-hang.log
		# QEMU is timeout's one child (no pgrep: minbase roots lack procps)
		qpid=$(awk '{ print $1 }' "/proc/$tpid/task/$tpid/children" 2> /dev/null)
		{
			echo "no case began within ${boot_deadline}s; the kernel's log, read from the guest's RAM:"
			[ -n "$qpid" ] && python3 "$SKM_ROOT/scripts/guest-klog.py" "$qpid" 60 2>&1
		} > "$hang"
		kill "$tpid"
		break
	fi
	sleep 2
done
wait "$tpid"
qemu_rc=$?
host_secs=$(( $(date +%s) - t0 ))
set -e
tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"
skm_log "vm[$kver]: guest ran ${host_secs}s, qemu exit $qemu_rc${hang:+ (stopped at the boot deadline)}"

# Results.
passed=0
failed=0
report() { # name verdict detail
	if [ "$2" = PASS ] || [ "$2" = SKIP ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
	printf 'vm[%s] %-24s %s %s\n' "$kver" "$1" "$2" "$3"
}
for c in $(echo "$cases" | tr ',' ' '); do
	end=$(grep -m1 "^@@SKM END $c " "$log" || true)
	verdict=$(echo "$end" | awk '{print $4}')
	secs=$(echo "$end" | awk '{print $5}')
	detail="(${secs}s)"
	[ -n "$verdict" ] || { verdict=FAIL; detail="(did not finish)"; }
	if [ "$verdict" = FAIL ]; then
		# (BEGIN of the first case shares its line with the firmware's output)
		sed -n "/@@SKM BEGIN $c\$/,/^@@SKM END $c /p" "$log" > "$work/$c.log"
		[ -s "$work/$c.log" ] || sed -n "/@@SKM BEGIN $c\$/,\$p" "$log" > "$work/$c.log"
		if [ -n "$quiet" ]; then
			# Quiet still says why: the case's own lines, no dmesg.
			grep "^\[$c\] " "$work/$c.log" | grep -v "\] dmesg: " |
				sed 's/^/    /' | tail -n 20 || true
		else
			sed 's/^/    /' "$work/$c.log" | tail -n 60
		fi
	fi
	report "$c" "$verdict" "$detail"
done
[ -z "$quiet" ] && grep "^\[[a-z0-9_]*\] " "$log" | grep -v "dmesg:" | sed 's/^/    /' | head -n 80 || true

if [ -n "$hang" ]; then
	report guest-booted FAIL "(no case began within ${boot_deadline}s; see $hang)"
	tail -n 8 "$hang" | sed 's/^/    /'
else
	report guest-booted PASS "(${boot_secs:-?}s to the first case)"
fi
if grep -q '^@@SKM DONE' "$log"; then
	report guest-completed PASS ""
else
	report guest-completed FAIL "(no DONE marker; see $log)"
fi
# The guest's clock kept to the host's: its uptime at the end is no more
# than the seconds QEMU ran (the firmware's come first). A guest clock that
# jumped ahead makes RCU and the lockup detectors see stalls that were not,
# and every time a case took wrong (SKM_GUEST_CLOCK in scripts/lib.sh).
# Not under icount, where guest time counts instructions and skips idle.
guest_up=$(sed -n 's/^@@SKM UPTIME \([0-9.]*\)$/\1/p' "$log")
if [ ${#icount[@]} -gt 0 ]; then
	:
elif [ -z "$guest_up" ]; then
	report guest-clock SKIP "(no UPTIME marker: the guest did not finish)"
elif awk -v g="$guest_up" -v h="$host_secs" 'BEGIN { exit !(g <= h + 1) }'; then
	report guest-clock PASS "(guest ${guest_up%.*} s, host $host_secs s)"
else
	report guest-clock FAIL "(the guest's clock ran ahead: ${guest_up%.*} s of guest time in $host_secs s of the host's)"
fi
# (Not "Call Trace:" alone: OOM-killer reports, which cases provoke, have one.)
# The debug kernel's reports: KASAN and KCSAN say "BUG:", lockdep's and
# DEBUG_OBJECTS' (ODEBUG) and RCU's "WARNING:", UBSAN only "UBSAN:"; the rest
# are named too in case a kernel words them otherwise. kmemleak's leak
# reports are the debug_kmemleak case's to judge (it ignores those of boot);
# here only kmemleak turning itself off counts. Lockdep turning itself off
# counts too: its INFO reports ("trying to register non-static key", then
# "turning off the locking correctness validator") say neither BUG nor
# WARNING, and the rest of the boot would run without it.
bad=$(grep -E 'BUG:|WARNING:|Oops|soft lockup|hard LOCKUP|Kernel panic|rcu_.*detected stall|general protection fault|blocked for more than|sleeping function called|UBSAN:|KASAN|KCSAN|ODEBUG:|possible circular locking|inconsistent lock state|suspicious RCU usage|list_(add|del) corruption|turning off the locking correctness validator|kmemleak: .*(disabled|[Ee]rror|[Cc]annot|pool empty)' "$log" | head -n 5 || true)
if [ -z "$bad" ]; then
	report kernel-log-clean PASS ""
else
	report kernel-log-clean FAIL "($(echo "$bad" | head -n 1))"
	echo "$bad" | sed 's/^/    /'
fi
taint=$(sed -n 's/^@@SKM TAINT //p' "$log")
# Allowed: O (out-of-tree, bit 12), E (unsigned, bit 13) and K (livepatched,
# bit 15: a coexistence case loads a livepatch). Nothing more on the debug
# kernel: lockdep and UBSAN do not taint, a KASAN report taints B (bit 5) and
# a WARN W (bit 9), and both are failures already.
# T (bit 6) only with the kernel's own line for it: the drift_guard case
# loads with allow_untested, an unsafe parameter, to show the taint.
allowed=$((4096 | 8192 | 32768))
grep -q 'Setting dangerous option allow_untested - tainting kernel' "$log" &&
	allowed=$((allowed | 64))
if [ -n "$taint" ] && [ $((taint & ~allowed)) -eq 0 ]; then
	report taint PASS "($taint)"
else
	report taint FAIL "(tainted=${taint:-unknown})"
fi
echo "vm[$kver]: $passed passed, $failed failed"
[ "$failed" -eq 0 ] || exit 1
