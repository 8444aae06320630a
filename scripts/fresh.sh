#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fresh-machine check: the README's setup and a module build in a
# minimal Debian 12 root where nothing was installed by hand, so that a
# missing install step, or a setup that dies on a machine without the 6.12
# kernel yet, fails here and not on a user's machine.
#
# The root is made with "debootstrap --variant=minbase bookworm" from the
# Debian mirror this machine's apt sources use; the result is kept as a
# tarball in $SKM_CACHE/fresh/ (made once, then unpacked each run). The
# host's Debian apt sources for bookworm (bookworm-security serves the
# kernel) are copied in, and the packages in the host's apt archive are
# hard-linked in and the root's new ones back (skm_debs_share, lib.sh), so
# that packages are downloaded once for the host and the root alike.
# The tracked files of this tree, as they are in the working tree, are
# copied to /root/skmemcg in the root, where scripts/setup.sh runs (as root,
# without sudo), then "make" against every supported kernel setup installed.
# The root lives under /var/tmp and is removed afterwards.
#
#   scripts/fresh.sh        needs root (chroot, mounts)
#   SKM_FRESH_KEEP=1 ...    keep the root (its path is printed)
#   SKM_FRESH_DEMO=1 ...    then the README's demo command in the root too
#                           (scripts/demo.sh: a boot of the 6.1 kernel the
#                           root's setup installed; its table is printed)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skm_die "fresh.sh needs root (debootstrap, chroot, mounts)"
command -v debootstrap > /dev/null || skm_die "debootstrap not installed: run scripts/setup.sh"

root=$(mktemp -d /var/tmp/skmemcg-fresh.XXXXXX)
mounts=()

trap 'skm_root_cleanup fresh "${SKM_FRESH_KEEP:-}"' EXIT
trap 'exit 143' INT TERM	# so that EXIT runs cleanup: no mount left behind

# bind SRC DIR-IN-ROOT
bind() {
	mkdir -p "$root$2"
	mount --bind "$1" "$root$2"
	mounts+=("$root$2")
}

skm_bookworm_root "$root" fresh

mount -t proc proc "$root/proc"
mounts+=("$root/proc")
bind /dev /dev
skm_debs_share /var/cache/apt/archives "$root/var/cache/apt/archives"

# dpkg as in Debian's container images: no fsync per file
# (force-unsafe-io), no manual pages or docs unpacked. What setup installs
# and runs is unchanged. (The stage took 2205 s beside the test command's
# guests on 2026-12-05, most of it in apt and dpkg.)
mkdir -p "$root/etc/dpkg/dpkg.cfg.d"
printf '%s\n' force-unsafe-io > "$root/etc/dpkg/dpkg.cfg.d/skmemcg-unsafe-io"
printf '%s\n' 'path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/doc/*' \
	'path-include=/usr/share/doc/*/copyright' > "$root/etc/dpkg/dpkg.cfg.d/skmemcg-nodoc"

mkdir -p "$root/root/skmemcg"
(cd "$SKM_ROOT" && git ls-files -z | xargs -0 cp --parents -t "$root/root/skmemcg")

skm_log "fresh: scripts/setup.sh in the root"
t0=$(date +%s)
chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	bash -c 'cd /root/skmemcg && scripts/setup.sh' ||
	skm_die "scripts/setup.sh failed in a fresh Debian 12 root"
skm_debs_share "$root/var/cache/apt/archives" /var/cache/apt/archives
skm_log "fresh: setup took $(( $(date +%s) - t0 ))s"

# make against each supported kernel setup installed (skm_kvers, in the root).
t0=$(date +%s)
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	bash -c 'set -euo pipefail
		cd /root/skmemcg && . scripts/lib.sh
		kvers=$(skm_kvers)
		[ -n "$kvers" ] || skm_die "setup installed no supported kernel"
		for k in $kvers; do
			make -s clean KDIR=/lib/modules/$k/build
			make -s KDIR=/lib/modules/$k/build
			v=$(modinfo -F vermagic skmemcg.ko)
			case $v in "$k "*) ;; *) skm_die "skmemcg.ko for $k has vermagic $v" ;; esac
			echo "fresh: built skmemcg.ko for $k"
		done' ||
	skm_die "module build failed in a fresh Debian 12 root"
skm_log "fresh: builds took $(( $(date +%s) - t0 ))s"

if [ -n "${SKM_FRESH_DEMO:-}" ]; then
	mount -t sysfs sysfs "$root/sys"
	mounts+=("$root/sys")
	t0=$(date +%s)
	chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		bash -c 'cd /root/skmemcg && scripts/demo.sh' ||
		skm_die "scripts/demo.sh failed in a fresh Debian 12 root"
	skm_log "fresh: demo took $(( $(date +%s) - t0 ))s"
fi
echo "fresh: setup and build pass in a fresh Debian 12 root"
