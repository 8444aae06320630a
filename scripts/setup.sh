#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what building, testing and the demo need, from Debian's packages.
# Idempotent: installs only what is missing. Needs root (or sudo).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkgs=(
	build-essential libelf-dev bc bison flex kmod cpio xz-utils python3
	linux-image-amd64 linux-headers-amd64 linux-source-6.1
	qemu-system-x86 busybox-static dkms sparse gnuplot-nox iperf3
	libssl-dev openssl debootstrap dpkg-dev debhelper dh-dkms jq
)

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
backports=/etc/apt/sources.list.d/skmemcg-bookworm-backports.sources

installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}

missing=()
for p in "${pkgs[@]}"; do
	installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	skm_log "setup: installing ${missing[*]}"
	$sudo apt-get update -q
	$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The second supported kernel: Debian's 6.12 from bookworm-backports, served
# by the mirror this machine already uses for bookworm. Image and headers
# must both be there (an interrupted install may have left only one).
newest_612() {
	apt-cache search --names-only '^linux-image-6\.12\..*\+deb12-amd64$' |
		awk '{print $1}' | sed 's/^linux-image-//' | sort -V | tail -n 1
}
k612=$(skm_kver_612)
if [ -z "$k612" ] || [ ! -d "/lib/modules/$k612/build" ]; then
	if [ ! -f "$backports" ]; then
		skm_log "setup: adding bookworm-backports from the configured mirror"
		python3 "$SKM_ROOT/scripts/backports-source.py" | $sudo tee "$backports" >/dev/null
		$sudo apt-get update -q
	fi
	kver=$(newest_612)
	if [ -z "$kver" ]; then
		$sudo apt-get update -q
		kver=$(newest_612)
	fi
	[ -n "$kver" ] || skm_die "bookworm-backports offers no linux-image-6.12.*+deb12-amd64"
	skm_log "setup: installing the 6.12 kernel $kver"
	$sudo apt-get install -y -q --no-install-recommends \
		"linux-image-$kver" "linux-headers-$kver" linux-source-6.12
fi
# The memcg selftests of the test command's conformance stage are built
# from each kernel's Debian source (scripts/selftests-build.sh): 6.1's is in
# the list above, 6.12's comes with its kernel, or here if that was
# installed before (7.x's: scripts/deb13.sh setup).
if ! installed linux-source-6.12; then
	skm_log "setup: installing linux-source-6.12"
	$sudo apt-get install -y -q --no-install-recommends linux-source-6.12
fi
# promtool, which checks skmemcg-exporter's output (scripts/exporter-test.sh,
# scripts/exporter-promcheck.sh): unpacked from Debian's prometheus package
# into the cache, not installed, so that no Prometheus server starts here.
if [ -z "$(skm_promtool)" ]; then
	skm_log "setup: unpacking promtool from Debian's prometheus package into $SKM_CACHE/promtool"
	dl=$(mktemp -d)
	(cd "$dl" && apt-get download -q prometheus) ||
		{ $sudo apt-get update -q && (cd "$dl" && apt-get download -q prometheus); }
	rm -rf "$SKM_CACHE/promtool"
	dpkg-deb -x "$dl"/prometheus_*.deb "$SKM_CACHE/promtool"
	rm -rf "$dl"
	[ -x "$SKM_CACHE/promtool/usr/bin/promtool" ] || skm_die "no usr/bin/promtool in the prometheus package"
fi
skm_log "setup: done; kernels: $(skm_kvers | paste -sd' ' -)"
