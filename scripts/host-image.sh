#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The base disk images of the host test (scripts/host-test.sh): a Debian
# system made from Debian's packages with debootstrap, booted by QEMU with
# systemd as PID 1. Kept in $SKM_CACHE/host/NAME/base.img (outside the
# clone): an ext4 file system (no partition table; QEMU's -kernel and
# -initrd stand in for the boot loader, taking the kernel and initramfs
# from the image's own /boot), made once and reused until its package list
# or HOST_IMG_VERSION changes (its stamp). What the test configures is
# written into a copy of it at each run (scripts/host-test.sh).
#
# NAME is one of
#   deb12-6.1    Debian 12 (bookworm), its 6.1 kernel
#   deb12-6.12   Debian 12 with the 6.12 kernels (bookworm-backports and
#                bookworm's own 6.12.*+deb12 updates)
#   deb13-7.3    Debian 13 (trixie) with trixie-backports' 7.x kernels
#
# Each image has two kernels of its family, as a host has before and after
# an ABI update: the older one installed with its headers ("from"), the
# newest one only downloaded into apt's archive ("to"), so that the test
# can install it offline later and DKMS rebuild for it. Debian 13's "from"
# is the newest 7.2 (its backports kernel before 7.3: skmemcg refuses 7.2).
# Also installed: dkms, podman with crun, prometheus,
# prometheus-node-exporter, jq, curl. Not installed: skmemcg (the test
# installs the .deb it is given, as an operator would).
#
#   scripts/host-image.sh NAME        make it if missing; print its folder
#   scripts/host-image.sh kernels NAME   print "FROM TO"
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# The packages every image gets besides its kernels. Changing this list, or
# this script, makes the images again.
HOST_PKGS="systemd-sysv udev kmod initramfs-tools zstd procps iproute2 \
ca-certificates curl jq dbus dkms podman crun prometheus prometheus-node-exporter"
HOST_IMG_MB=${HOST_IMG_MB:-6144}
# Raised when what goes into an image changes otherwise.
HOST_IMG_VERSION=1

# conf NAME: suite, apt suites, the security suite, and the patterns of the
# "from" and "to" kernels' header packages.
conf() {
	case $1 in
	deb12-6.1)
		suite=bookworm
		suites="bookworm bookworm-updates bookworm-backports"
		security=bookworm-security
		pat_to='^linux-headers-6\.1\.0-[0-9]+-amd64$'
		pat_from=$pat_to
		extra=
		;;
	deb12-6.12)
		suite=bookworm
		suites="bookworm bookworm-updates bookworm-backports"
		security=bookworm-security
		pat_to='^linux-headers-6\.12\.[0-9]+\+deb12-amd64$'
		pat_from=$pat_to
		extra=
		;;
	deb13-7.3)
		suite=trixie
		suites="trixie trixie-updates trixie-backports"
		security=trixie-security
		pat_to='^linux-headers-7\.3\.[0-9]+\+deb13-amd64$'
		pat_from='^linux-headers-7\.2\.[0-9]+\+deb13-amd64$'
		# the 7.x images pre-depend on linux-base >= 4.17, only there
		extra=linux-base/trixie-backports
		;;
	*) skm_die "unknown image '$1' (deb12-6.1, deb12-6.12, deb13-7.3)" ;;
	esac
}

in_root() { skm_chroot "$@"; }

write_sources() { skm_apt_sources "$1" "$suites" "$security"; }

# kernels ROOT: "FROM TO", the kernel releases of the image, from the
# header packages the root's apt offers: TO the newest matching pat_to,
# FROM the one before it (or the newest matching pat_from when that is
# another pattern).
kernels() {
	local root=$1 list from to
	list=$(in_root "$root" apt-cache search --names-only "$pat_to" |
		awk '{ print $1 }' | sed 's/^linux-headers-//' | sort -V)
	to=$(tail -n 1 <<< "$list")
	if [ "$pat_from" = "$pat_to" ]; then
		from=$(tail -n 2 <<< "$list" | head -n 1)
	else
		from=$(in_root "$root" apt-cache search --names-only "$pat_from" |
			awk '{ print $1 }' | sed 's/^linux-headers-//' | sort -V | tail -n 1)
	fi
	[ -n "$to" ] && [ -n "$from" ] && [ "$from" != "$to" ] ||
		skm_die "$name: the mirror offers no two kernels of the family (from '$from', to '$to')"
	echo "$from $to"
}

make_image() {
	local dir=$1 root mirror stamp from to
	root=$dir/root
	stamp=$(echo "$HOST_IMG_VERSION $HOST_PKGS $extra $pat_from $pat_to" | sha256sum | cut -c1-16)
	if [ -f "$dir/base.img" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	[ "$(id -u)" -eq 0 ] || skm_die "host-image.sh needs root (debootstrap, chroot, mkfs)"
	command -v debootstrap > /dev/null || skm_die "debootstrap not installed: run scripts/setup.sh"
	rm -rf --one-file-system "$dir"
	mkdir -p "$root"
	mirror=$(python3 "$SKM_ROOT/scripts/backports-source.py" --mirror)
	skm_log "host-image[$name]: debootstrap --variant=minbase $suite from $mirror"
	mkdir -p "$root/var/cache/apt/archives"
	skm_debs_share /var/cache/apt/archives "$root/var/cache/apt/archives"
	debootstrap --variant=minbase --include=ca-certificates "$suite" "$root" "$mirror" \
		> "$dir/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$dir/debootstrap.log"; skm_die "debootstrap $suite failed"; }
	write_sources "$root"
	in_root "$root" apt-get update -q > "$dir/apt.log" 2>&1 ||
		{ tail -n 20 "$dir/apt.log"; skm_die "apt-get update in the $name root failed"; }
	# An initramfs with what QEMU's disk needs, not every driver (MODULES=
	# most): made in seconds instead of minutes, at every kernel install.
	mkdir -p "$root/etc/initramfs-tools/conf.d"
	echo "MODULES=list" > "$root/etc/initramfs-tools/conf.d/skmemcg-host-test.conf"
	printf '%s\n' virtio_pci virtio_blk ext4 > "$root/etc/initramfs-tools/modules"
	read -r from to <<< "$(kernels "$root")"
	skm_log "host-image[$name]: kernels $from (installed) and $to (downloaded for the update)"
	# shellcheck disable=SC2086
	in_root "$root" apt-get install -y -q --no-install-recommends $HOST_PKGS $extra \
		"linux-image-$from" "linux-headers-$from" >> "$dir/apt.log" 2>&1 ||
		{ tail -n 30 "$dir/apt.log"; skm_die "installing the $name packages failed"; }
	# the archive keeps only the update's packages (the host's has the rest)
	skm_debs_share "$root/var/cache/apt/archives" /var/cache/apt/archives
	in_root "$root" apt-get clean
	in_root "$root" apt-get install -y -q --no-install-recommends --download-only \
		"linux-image-$to" "linux-headers-$to" >> "$dir/apt.log" 2>&1 ||
		{ tail -n 30 "$dir/apt.log"; skm_die "downloading linux-image-$to failed"; }
	skm_debs_share "$root/var/cache/apt/archives" /var/cache/apt/archives
	echo "$from $to" > "$dir/kernels"
	skm_log "host-image[$name]: mkfs.ext4 -d ($HOST_IMG_MB MiB, sparse)"
	mkfs.ext4 -q -F -L skmroot -d "$root" "$dir/base.img" "${HOST_IMG_MB}M"
	rm -rf --one-file-system "$root"
	echo "$stamp" > "$dir/stamp"
}

case ${1:-} in
kernels)
	name=${2:-}
	conf "$name"
	cat "$SKM_CACHE/host/$name/kernels"
	;;
deb12-6.1 | deb12-6.12 | deb13-7.3)
	name=$1
	conf "$name"
	make_image "$SKM_CACHE/host/$name"
	echo "$SKM_CACHE/host/$name"
	;;
*) skm_die "usage: host-image.sh deb12-6.1|deb12-6.12|deb13-7.3 | kernels NAME" ;;
esac
