#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prove dkms.conf works: "dkms add" of a copy of this tree, then "dkms build"
# against a Debian kernel's headers, in private source and DKMS trees so the
# system's /usr/src and /var/lib/dkms are left alone.
#
#   scripts/dkms-test.sh [KVER]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kver=${1:-${KVER:-$(skm_kver_61)}}
[ -n "$kver" ] || skm_die "no Debian kernel installed: run scripts/setup.sh"
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$SKM_ROOT/dkms.conf")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

src=$tmp/src/skmemcg-$ver
mkdir -p "$src" "$tmp/tree"
# The files git tracks, as they are in the working tree.
(cd "$SKM_ROOT" && git ls-files -z | xargs -0 cp --parents -t "$src")

dkms=(dkms --sourcetree "$tmp/src" --dkmstree "$tmp/tree")
"${dkms[@]}" add "$src"
if ! "${dkms[@]}" build "skmemcg/$ver" -k "$kver"; then
	cat "$tmp/tree/skmemcg/$ver/build/make.log" 2>/dev/null | tail -n 30
	skm_die "dkms build skmemcg/$ver -k $kver failed"
fi
ko=$(find "$tmp/tree/skmemcg/$ver/$kver" -name 'skmemcg.ko*' | head -n 1)
[ -n "$ko" ] || skm_die "dkms build left no skmemcg.ko"
modinfo -F vermagic "$ko" | grep -q "^$kver " ||
	skm_die "$ko is not built for $kver: $(modinfo -F vermagic "$ko")"
echo "dkms: built $(basename "$ko") $ver for $kver"
