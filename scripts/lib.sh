# SPDX-License-Identifier: GPL-2.0
# Shared by the host scripts: paths, the cache, kernel versions.

SKM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Outside the clone: extracted kernel sources, UML builds, initramfs pieces.
SKM_CACHE=${SKM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/skmemcg}
SKM_OUT=${SKM_OUT:-$SKM_ROOT/out}
# The test command's own builds treat warnings as errors (Kbuild); DKMS's
# build does not (scripts/dkms-test.sh unsets it).
export SKM_WERROR=${SKM_WERROR-y}
mkdir -p "$SKM_CACHE" "$SKM_OUT"

skm_log() {
	printf '==> %s\n' "$*" >&2
}

skm_die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# No host script dies silently: under set -e, a failing command names
# itself, its status and where it was before the script exits. (set -E
# carries the trap into functions and command substitutions; scripts that
# run without -e, such as test.sh, handle their failures themselves.)
skm_on_err() {
	local rc=$? line=$1 cmd=$2
	case $- in *e*) ;; *) return 0 ;; esac
	printf 'error: %s: line %s: "%s" exited %s\n' \
		"$(basename "$0")" "$line" "$cmd" "$rc" >&2
}
set -E
trap 'skm_on_err "$LINENO" "$BASH_COMMAND"' ERR

# skm_newest_kver GLOB: the release of the newest /boot/vmlinuz-* matching
# GLOB, or nothing (status 0) when none does. Every "find X" helper here
# prints nothing and succeeds when X is not there, so that callers under
# set -e can test for an empty answer.
skm_newest_kver() {
	local f
	for f in $1; do
		if [ -e "$f" ]; then echo "${f##*/vmlinuz-}"; fi
	done | sort -V | tail -n 1
}

# The Debian 6.1 kernel release installed for the VM, e.g. 6.1.0-57-amd64.
skm_kver_61() {
	skm_newest_kver '/boot/vmlinuz-6.1.*-amd64'
}

# The newest installed Debian 6.12 backports kernel, e.g. 6.12.117+deb12-amd64.
skm_kver_612() {
	skm_newest_kver '/boot/vmlinuz-6.12.*+deb12-amd64'
}

# skm_debs_share FROM TO: the .deb files of apt archive folder FROM that TO
# lacks, hard-linked into TO (copied across file systems). A root made
# here gets the host's downloaded packages this way, and gives back what it
# downloaded, instead of sharing the host's /var/cache/apt/archives through
# a bind mount: a bind shares apt's lock on it too, and an apt running on
# the host at the same time (an upgrade, another test) then fails the
# root's with "Could not get lock /var/cache/apt/archives/lock".
skm_debs_share() {
	local f
	mkdir -p "$2"
	for f in "$1"/*.deb; do
		[ -e "$f" ] || continue
		[ -e "$2/${f##*/}" ] || ln "$f" "$2/" 2>/dev/null || cp "$f" "$2/"
	done
}

# skm_apt_sources ROOT SUITES SECURITY-SUITE: ROOT's apt sources, one
# deb822 file, from the same Debian mirror (and security mirror, if the
# host has one) as the host's own sources: SUITES from the mirror,
# SECURITY-SUITE from the security mirror.
skm_apt_sources() {
	local root=$1 suites=$2 security=$3 mirror security_uri
	mirror=$(python3 "$SKM_ROOT/scripts/backports-source.py" --mirror)
	security_uri=$(grep -hE '^(URIs:|deb\s)' /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list 2>/dev/null |
		grep -oE 'https?://[^ ]*debian-security/?' | head -n 1 || true)
	rm -f "$root/etc/apt/sources.list"
	{
		echo "Types: deb"
		echo "URIs: $mirror"
		echo "Suites: $suites"
		echo "Components: main"
		echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
		if [ -n "$security_uri" ]; then
			echo
			echo "Types: deb"
			echo "URIs: $security_uri"
			echo "Suites: $security"
			echo "Components: main"
			echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
		fi
	} > "$root/etc/apt/sources.list.d/debian.sources"
}

# skm_chroot ROOT CMD...: CMD chrooted in ROOT (a Debian root or a mounted
# image) with /proc, /sys and /dev (its submounts too), in a mount
# namespace of its own, so that nothing stays mounted; a clean
# environment, apt noninteractive.
skm_chroot() {
	local root=$1
	shift
	unshare --mount --propagation private /bin/bash -euc '
		root=$1
		shift
		mount -t proc proc "$root/proc"
		mount -t sysfs sysfs "$root/sys"
		mount --rbind /dev "$root/dev"
		exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
			DEBIAN_FRONTEND=noninteractive \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"' \
		skm_chroot "$root" "$@"
}

# The Debian 13 root that builds for Debian 13's kernels (scripts/deb13.sh).
skm_deb13_root() {
	echo "$SKM_CACHE/deb13"
}

# The newest 7.x kernel of trixie-backports in that root, e.g.
# 7.3.4+deb13-amd64 (booted from the root's /boot).
skm_kver_7() {
	skm_newest_kver "$(skm_deb13_root)/boot/vmlinuz-7.*+deb13-amd64"
}

# Debian 13's own 6.12 headers in that root (a build target, not booted).
skm_kver_612_deb13() {
	local d
	for d in "$(skm_deb13_root)"/usr/src/linux-headers-6.12.*+deb13-amd64; do
		if [ -d "$d" ]; then echo "${d##*/linux-headers-}"; fi
	done | sort -V | tail -n 1
}

# skm_in_deb13 KVER: is KVER a kernel of the Debian 13 root (built there)?
skm_in_deb13() {
	case $1 in *+deb13-*) return 0 ;; *) return 1 ;; esac
}

# Every kernel the tests run on: the newest of each supported family.
skm_kvers() {
	skm_kver_61
	skm_kver_612
	skm_kver_7
}

# The guest's clock, on every TCG boot but icount's: not the TSC. Under TCG
# without icount a guest's RDTSC reads the host's raw TSC (QEMU's
# cpu_get_host_ticks()), and this host's own kernel is booted with
# tsc=unstable: it does not trust its TSC as a clock. A CI boot of 6.12
# reported an RCU self-detected stall 27.4 s into its guest time before its
# first case, which the host had seen begin 11 s after QEMU started: the
# guest's TSC clock had run ahead of the host's by 16 s or more, and RCU took
# the jump for a stall. With tsc=unstable the guest keeps time by the HPET,
# which QEMU runs on the host's CLOCK_MONOTONIC, and its sched_clock stays
# within a tick of it. Under icount the TSC counts instructions, no host
# clock enters it, and the benchmarks' baselines stay as measured.
SKM_GUEST_CLOCK="tsc=unstable"

# skm_qemu_topology CPUS NODES MIB: set skm_smp (QEMU's -smp value) and
# skm_numa (its -object and -numa arguments) for CPUS vCPUs and MIB MiB in
# NODES nodes: node i is socket i, with vCPUs [i*CPUS/NODES,
# (i+1)*CPUS/NODES) and MIB/NODES MiB (a socket spanning nodes makes the
# guest kernel WARN). NODES must divide both.
skm_qemu_topology() {
	local cpus=$1 nodes=$2 mem=$3 per i
	skm_smp=$cpus
	skm_numa=()
	[ "$nodes" -gt 1 ] || return 0
	[ $((cpus % nodes)) -eq 0 ] && [ $((mem % nodes)) -eq 0 ] ||
		skm_die "$nodes nodes must divide $cpus vCPUs and $mem MiB"
	per=$((cpus / nodes))
	skm_smp="cpus=$cpus,sockets=$nodes,cores=$per,threads=1"
	for ((i = 0; i < nodes; i++)); do
		skm_numa+=(-object "memory-backend-ram,id=m$i,size=$((mem / nodes))M"
			   -numa "node,nodeid=$i,cpus=$((i * per))-$(((i + 1) * per - 1)),memdev=m$i")
	done
}

# skm_ksrc: print the extracted Debian linux-source-6.1 tree, extracting it
# into the cache on first use (keyed by the package version).
skm_ksrc() {
	local ver dir
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
		skm_die "linux-source-6.1 is not installed (scripts/setup.sh)"
	dir=$SKM_CACHE/src-$ver
	if [ ! -f "$dir/.skmemcg-extracted" ]; then
		skm_log "extracting linux-source-6.1 $ver into $dir"
		rm -rf "$dir"
		mkdir -p "$dir"
		tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$dir" --strip-components=1 ||
			skm_die "extracting linux-source-6.1"
		touch "$dir/.skmemcg-extracted"
	fi
	echo "$dir"
}

# skm_bookworm_root ROOT TAG: a minimal Debian 12 root in ROOT (an empty
# folder), as scripts/fresh.sh and scripts/deb-test.sh test in: made by
# "debootstrap --variant=minbase bookworm" from the mirror this machine's
# apt uses, once, and kept as a tarball in $SKM_CACHE/fresh/ (unpacked the
# next times); the host's apt sources for bookworm (bookworm-security serves
# the kernel) and resolv.conf copied in. TAG names the log and the lines.
skm_bookworm_root() {
	local root=$1 tag=$2 tarball=$SKM_CACHE/fresh/bookworm-minbase.tar.gz mirror f n=0

	if [ ! -s "$tarball" ]; then
		command -v debootstrap > /dev/null || skm_die "debootstrap not installed: run scripts/setup.sh"
		mirror=$(python3 "$SKM_ROOT/scripts/backports-source.py" --mirror)
		skm_log "$tag: debootstrap --variant=minbase bookworm from $mirror (once; cached in $tarball)"
		mkdir -p "$(dirname "$tarball")"
		debootstrap --variant=minbase bookworm "$root" "$mirror" > "$SKM_OUT/$tag-debootstrap.log" 2>&1 ||
			{ tail -n 20 "$SKM_OUT/$tag-debootstrap.log"; skm_die "debootstrap failed"; }
		rm -f "$root"/var/cache/apt/archives/*.deb
		tar -C "$root" -czf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
	else
		skm_log "$tag: unpacking $tarball into $root"
		tar -C "$root" -xzf "$tarball"
	fi
	rm -f "$root/etc/apt/sources.list"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		case $(basename "$f") in skmemcg-*) continue ;; esac
		if grep -qE '^Suites:.*\<bookworm\>' "$f"; then
			cp "$f" "$root/etc/apt/sources.list.d/"
			n=$((n + 1))
		fi
	done
	if grep -qsE '^deb\s.*\sbookworm(-security|-updates)?\s' /etc/apt/sources.list; then
		grep -E '^deb\s.*\sbookworm(-security|-updates)?\s' /etc/apt/sources.list > "$root/etc/apt/sources.list"
		n=$((n + 1))
	fi
	[ "$n" -gt 0 ] || skm_die "no apt source for bookworm on this host to copy into the root"
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
}

# skm_root_cleanup TAG KEEP: the EXIT trap of scripts that build in a root
# (fresh.sh, deb-test.sh): unmount what their array "mounts" holds, newest
# first, and remove their "$root", unless KEEP is set or a mount is left in
# it (then it says so).
skm_root_cleanup() {
	local tag=$1 keep=$2 i

	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount -l "${mounts[i]}" 2>/dev/null || true
	done
	if [ -n "$keep" ]; then
		skm_log "$tag: root kept in $root"
	elif findmnt -rno TARGET | grep -q "^$root"; then
		skm_log "$tag: $root still has mounts; not removing it"
	else
		rm -rf --one-file-system "$root"
	fi
}

# skm_promtool: the path of promtool (Debian's prometheus package), or
# nothing. scripts/setup.sh does not install prometheus, whose postinst
# would start a Prometheus server on the machine: it unpacks the package
# into $SKM_CACHE/promtool instead, and an installed promtool is used first.
skm_promtool() {
	if command -v promtool > /dev/null; then
		command -v promtool
	elif [ -x "$SKM_CACHE/promtool/usr/bin/promtool" ]; then
		echo "$SKM_CACHE/promtool/usr/bin/promtool"
	fi
	return 0
}

# skm_guest_cases main|pcpu|reclaim|bench|lockdown|reload|debug: guest test
# cases, comma-separated.
# "pcpu" are the per-CPU reserve cases (pcpu_*.sh), which want a NUMA
# guest; "reclaim" the reclaim-policy cases (reclaim_*.sh), long, in a boot
# of their own; "bench" the overhead benchmark (bench_*.sh), which wants
# iperf3 in the guest; "main" every other case.
# "lockdown" (lockdown_*.sh) raise the kernel's lockdown, which lasts until
# reboot and refuses unsigned modules from then on: a boot of their own.
# "reload" (reload_*.sh) load and unload the module over and over under
# traffic: a boot of their own.
# "v1" (v1_*.sh) take the memory controller off cgroup2 for a cgroup v1
# hierarchy, to compare with v1's own limits: a boot of their own, 6.1 only.
# "testbed" checks the test bed itself (testbed_*.sh: can this QEMU mode
# patch kernel text under load?), with skmemcg never loaded.
# "prof" (prof_*.sh) the guest halves of host tools (scripts/path-count.sh,
# scripts/slab-paths.sh),
# in no boot of the test command.
# "debug" the debug kernel's checks (debug_*.sh), which
# scripts/check-debug.sh places first and last in its boots.
skm_guest_cases() {
	(cd "$SKM_ROOT/scripts/guest/tests" && ls ./*.sh | sed 's|^\./||; s|\.sh$||' |
		grep -v '^lib' | case $1 in
			main) grep -Ev '^(pcpu|reclaim|bench|lockdown|reload|debug|testbed|v1|conform|prof)_' ;;
			*) grep "^$1_" ;;
		esac | paste -sd, -)
}
