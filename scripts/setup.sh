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
	qemu-system-x86 busybox-static dkms sparse
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	skm_log "setup: all packages present"
	exit 0
fi

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
skm_log "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
