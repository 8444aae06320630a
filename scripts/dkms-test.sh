#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prove dkms.conf works: "dkms add" of a copy of this tree, then "dkms build"
# against a Debian kernel's headers, in private source and DKMS trees so the
# system's /usr/src and /var/lib/dkms are left alone; and prove the module
# DKMS builds is signed, as Secure Boot needs: modinfo must name the signer.
#
# Signing: Debian 12's dkms (3.0.x) signs every module it builds with
# mok_signing_key and mok_certificate (default /var/lib/dkms/mok.key and
# mok.pub, generated on first use), set in /etc/dkms/framework.conf. Those
# variables are read from the environment too when no framework.conf sets
# them, which is how this test points dkms at a throwaway key and
# certificate in a temporary folder: no system key, MOK or config is touched.
#
#   scripts/dkms-test.sh [KVER]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# DKMS builds as shipped: no -Werror (Kbuild).
unset SKM_WERROR
kver=${1:-${KVER:-$(skm_kver_61)}}
[ -n "$kver" ] || skm_die "no Debian kernel installed: run scripts/setup.sh"
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$SKM_ROOT/dkms.conf")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

src=$tmp/src/skmemcg-$ver
mkdir -p "$src" "$tmp/tree"
# The files git tracks, as they are in the working tree.
(cd "$SKM_ROOT" && git ls-files -z | xargs -0 cp --parents -t "$src")

# A throwaway signing key, as dkms would generate it, with a name to find.
signer="skmemcg dkms-test throwaway key"
openssl req -new -x509 -nodes -days 1 -subj "/CN=$signer" -newkey rsa:2048 \
	-keyout "$tmp/mok.key" -outform DER -out "$tmp/mok.der" > /dev/null 2>&1 ||
	skm_die "openssl could not make a signing key"
if grep -qs '^[[:space:]]*mok_\(signing_key\|certificate\)=' \
	/etc/dkms/framework.conf /etc/dkms/framework.conf.d/*.conf; then
	skm_die "/etc/dkms/framework.conf* sets a MOK key, which would override the test's"
fi

dkms=(env mok_signing_key="$tmp/mok.key" mok_certificate="$tmp/mok.der"
      dkms --sourcetree "$tmp/src" --dkmstree "$tmp/tree")
"${dkms[@]}" add "$src"
if ! "${dkms[@]}" build "skmemcg/$ver" -k "$kver"; then
	cat "$tmp/tree/skmemcg/$ver/build/make.log" 2>/dev/null | tail -n 30
	skm_die "dkms build skmemcg/$ver -k $kver failed"
fi
ko=$(find "$tmp/tree/skmemcg/$ver/$kver" -name 'skmemcg.ko*' | head -n 1)
[ -n "$ko" ] || skm_die "dkms build left no skmemcg.ko"
modinfo -F vermagic "$ko" | grep -q "^$kver " ||
	skm_die "$ko is not built for $kver: $(modinfo -F vermagic "$ko")"
got=$(modinfo -F signer "$ko")
[ "$got" = "$signer" ] ||
	skm_die "$ko: signer '$got', want '$signer' (dkms did not sign with the test key)"
echo "dkms: built $(basename "$ko") $ver for $kver, signed by '$got'" \
	"($(modinfo -F sig_hashalgo "$ko"))"
