#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: out/skmemcg-dkms_<version>_all.deb, built the Debian way
# (dpkg-buildpackage -b: debhelper, dh-dkms; debian/) without root
# (Rules-Requires-Root: no), from a copy of the files git tracks as they
# are in the working tree, so that the tree is left as it was. The
# .buildinfo and .changes go to out/ too; the build's log to
# out/deb-build.log. Checks the package's version against dkms.conf
# (scripts/version-check.sh) and lists its contents.
#
#   scripts/deb.sh        needs dpkg-dev, debhelper, dh-dkms
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh disable=SC1091
. "$(dirname "$0")/lib.sh"

command -v dpkg-buildpackage > /dev/null || skm_die "dpkg-buildpackage not installed (dpkg-dev)"
"$SKM_ROOT/scripts/version-check.sh"
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$SKM_ROOT/dkms.conf")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

src=$tmp/skmemcg-$ver
mkdir -p "$src"
if git -C "$SKM_ROOT" rev-parse --git-dir > /dev/null 2>&1; then
	(cd "$SKM_ROOT" && git ls-files -z | xargs -0 cp --parents -t "$src")
else	# an unpacked tarball: everything but the build output
	(cd "$SKM_ROOT" && tar --exclude=./out --exclude=./.git -cf - .) | tar -C "$src" -xf -
fi

log=$SKM_OUT/deb-build.log
skm_log "deb: dpkg-buildpackage -b --no-sign in a copy of the tree (log: $log)"
if ! (cd "$src" && dpkg-buildpackage -b --no-sign) > "$log" 2>&1; then
	tail -n 30 "$log" >&2
	skm_die "dpkg-buildpackage failed"
fi
deb=skmemcg-dkms_${ver}_all.deb
[ -f "$tmp/$deb" ] || skm_die "dpkg-buildpackage made no $deb: $(ls "$tmp")"
"$SKM_ROOT/scripts/version-check.sh" "$tmp/$deb"
for f in "$tmp"/*.deb "$tmp"/*.buildinfo "$tmp"/*.changes; do
	[ -e "$f" ] && mv -f "$f" "$SKM_OUT/"
done
dpkg-deb -c "$SKM_OUT/$deb"
echo "deb: $SKM_OUT/$deb"
