#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian 13 (trixie) root that builds for Debian 13's kernels. Their
# kbuild tools need glibc >= 2.38 and gcc-14, which a Debian 12 host lacks,
# so the module is built in a chroot; the kernels themselves boot under QEMU
# from the root's /boot and /lib/modules like the host's own.
#
# The root is made once with "debootstrap --variant=minbase trixie" from the
# Debian mirror this machine's apt sources use, with trixie-updates,
# trixie-security and trixie-backports from the same hosts, and kept in
# $SKM_CACHE/deb13 (outside the clone). "setup" installs, when missing, the
# newest linux-image and linux-headers of the 7.x line that trixie-backports
# offers (the third tested kernel) with its linux-source-7.x (the memcg
# selftests of the conformance stage), and the headers of Debian 13's own
# 6.12 (+deb13, a build target). Packages are shared with the host's apt archive
# through hard links (skm_debs_share, lib.sh), so a package is downloaded
# once.
#
#   scripts/deb13.sh setup             make or update the root (needs root)
#   scripts/deb13.sh root              print the root's path
#   scripts/deb13.sh install PKG...    install packages in the root (from
#                                      trixie-backports where newer there)
#   scripts/deb13.sh run DIR CMD...    run CMD in the root with DIR bound at
#                                      the same path (a private mount
#                                      namespace: nothing is left mounted)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

root=$(skm_deb13_root)

# in_root DIR CMD...: CMD in the root, DIR (may be empty) bound at its own
# path, /proc and /dev and the apt archive cache bound, in a mount namespace
# of its own.
in_root_sh='
	root=$1 dir=$2
	shift 2
	mount -t proc proc "$root/proc"
	mount --bind /dev "$root/dev"
	if [ -n "$dir" ]; then
		mkdir -p "$root$dir"
		mount --bind "$dir" "$root$dir"
	fi
	exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		DEBIAN_FRONTEND=noninteractive SKM_WERROR="${SKM_WERROR:-}" \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"'
in_root() {
	local dir=$1
	shift
	unshare --mount --propagation private /bin/bash -euc "$in_root_sh" \
		in_root "$root" "$dir" "$@"
}

# The host's deb822 or one-line sources name the Debian mirror (and the
# security mirror) for bookworm; the root gets the same hosts for trixie.
write_sources() {
	skm_apt_sources "$root" "trixie trixie-updates trixie-backports" trixie-security
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
}

# newest PATTERN SUITE-OPTION...: the newest version string of a package
# name matching the regex, as apt in the root sees it.
newest() {
	in_root "" apt-cache search --names-only "$1" |
		awk '{print $1}' | sed "s/^$2//" | sort -V | tail -n 1
}

installed() {
	in_root "" dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}

# install PKG...: packages in the root, trixie-backports first (the 7.x
# line's linux-source-7.X is only there).
install() {
	[ -f "$root/.skmemcg-root" ] || skm_die "no Debian 13 root: run scripts/deb13.sh setup"
	skm_log "deb13: installing $*"
	skm_debs_share /var/cache/apt/archives "$root/var/cache/apt/archives"
	in_root "" apt-get install -y -q --no-install-recommends -t trixie-backports "$@" \
		> "$SKM_OUT/deb13-install.log" 2>&1 ||
		{ tail -n 20 "$SKM_OUT/deb13-install.log"; skm_die "installing $* in the Debian 13 root failed"; }
	skm_debs_share "$root/var/cache/apt/archives" /var/cache/apt/archives
}

setup() {
	local mirror k7 k612 want=()

	[ "$(id -u)" -eq 0 ] || skm_die "deb13.sh setup needs root (debootstrap, chroot)"
	command -v debootstrap > /dev/null || skm_die "debootstrap not installed: run scripts/setup.sh"
	if [ ! -f "$root/.skmemcg-root" ]; then
		mirror=$(python3 "$SKM_ROOT/scripts/backports-source.py" --mirror)
		skm_log "deb13: debootstrap --variant=minbase trixie from $mirror into $root (once)"
		rm -rf --one-file-system "$root"
		mkdir -p "$root"
		debootstrap --variant=minbase \
			--include=gcc-14,make,libelf1t64,libssl3t64,libssl-dev,pahole,kmod,bc,xz-utils \
			trixie "$root" "$mirror" > "$SKM_OUT/deb13-debootstrap.log" 2>&1 ||
			{ tail -n 20 "$SKM_OUT/deb13-debootstrap.log"; skm_die "debootstrap trixie failed"; }
		write_sources
		in_root "" apt-get update -q > /dev/null
		touch "$root/.skmemcg-root"
	fi
	write_sources
	# A day-old package list is fresh enough; versions move, so refresh then.
	if [ -z "$(find "$root/var/lib/apt/lists" -maxdepth 1 -name '*_Packages' -mmin -1440 2>/dev/null | head -n 1)" ]; then
		in_root "" apt-get update -q > /dev/null
	fi

	k7=$(newest '^linux-image-7\.[0-9.]*\+deb13-amd64$' linux-image-)
	k612=$(newest '^linux-headers-6\.12\.[0-9.]*\+deb13-amd64$' linux-headers-)
	[ -n "$k7" ] || skm_die "trixie-backports offers no linux-image-7.*+deb13-amd64"
	[ -n "$k612" ] || skm_die "trixie offers no linux-headers-6.12.*+deb13-amd64"
	installed "linux-image-$k7" || want+=("linux-image-$k7")
	installed "linux-headers-$k7" || want+=("linux-headers-$k7")
	installed "linux-headers-$k612" || want+=("linux-headers-$k612")
	# Its source: the test command builds the kernel's memcg selftests from
	# it (scripts/selftests-build.sh, the conformance stage).
	src7=linux-source-$(echo "$k7" | cut -d. -f1-2)
	installed "$src7" || want+=("$src7")
	# The 7.x image needs linux-base >= 4.17, only in trixie-backports.
	[ ${#want[@]} -eq 0 ] || install linux-base "${want[@]}"
	skm_log "deb13: root $root; kernels: $k7 (boot), $k612 (build)"
}

case ${1:-} in
setup) setup ;;
root) echo "$root" ;;
install)
	[ $# -ge 2 ] || skm_die "usage: deb13.sh install PKG..."
	shift
	install "$@"
	;;
run)
	[ $# -ge 3 ] || skm_die "usage: deb13.sh run DIR CMD..."
	[ -f "$root/.skmemcg-root" ] || skm_die "no Debian 13 root: run scripts/deb13.sh setup"
	shift
	in_root "$@"
	;;
*) skm_die "usage: deb13.sh setup | root | run DIR CMD..." ;;
esac
