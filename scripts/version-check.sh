#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The version comes from one place, dkms.conf's PACKAGE_VERSION. Check that
# the others agree with it:
#   - Kbuild passes it to the compiler as SKMEMCG_VERSION (evaluated by make
#     from Kbuild itself) and module/main.c's MODULE_VERSION() uses that
#     define, which no source file sets otherwise;
#   - debian/changelog's newest entry has it as its version (a native
#     package: no Debian revision);
#   - for each FILE given: a module's "modinfo -F version", or a .deb's
#     Version and its /usr/src/skmemcg-<version>/dkms.conf.
# POSIX sh: debian/rules runs it before a package build.
#
#   scripts/version-check.sh [skmemcg.ko | skmemcg-dkms_*.deb ...]
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
bad=0

problem() {
	echo "version-check: $*" >&2
	bad=1
}

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$root/dkms.conf")
case $ver in
"" | *[!0-9A-Za-z.+~]* | [!0-9]*)
	echo "version-check: dkms.conf has no usable PACKAGE_VERSION ('$ver')" >&2
	exit 1 ;;
esac

# What Kbuild defines, as make computes it ($(...) is make's here).
# shellcheck disable=SC2016
kbuild=$(printf 'src := %s\ninclude %s/Kbuild\nskm-version:\n\t@echo $(SKMEMCG_VERSION)\n' \
	"$root" "$root" | make -s --no-print-directory -f - skm-version 2> /dev/null) ||
	kbuild="(make failed)"
[ "$kbuild" = "$ver" ] || problem "Kbuild's SKMEMCG_VERSION is '$kbuild', dkms.conf's '$ver'"
grep -q "ccflags-y.*-DSKMEMCG_VERSION='\"\$(SKMEMCG_VERSION)\"'" "$root/Kbuild" ||
	problem "Kbuild does not pass SKMEMCG_VERSION to the compiler"
grep -q '^MODULE_VERSION(SKMEMCG_VERSION);$' "$root/module/main.c" ||
	problem "module/main.c has no MODULE_VERSION(SKMEMCG_VERSION)"
if grep -n 'define[[:space:]]*SKMEMCG_VERSION' "$root"/module/*.[ch] > /dev/null; then
	problem "a source file defines SKMEMCG_VERSION: $(grep -ln 'define[[:space:]]*SKMEMCG_VERSION' "$root"/module/*.[ch] | tr '\n' ' ')"
fi

cl=$(sed -n '1s/^skmemcg (\([^)]*\)) .*/\1/p' "$root/debian/changelog")
[ "$cl" = "$ver" ] || problem "debian/changelog's version is '$cl', dkms.conf's '$ver'"

for f in "$@"; do
	case $f in
	*.deb)
		v=$(dpkg-deb -f "$f" Version)
		[ "$v" = "$ver" ] || problem "$f: Version $v, want $ver"
		c=$(dpkg-deb --fsys-tarfile "$f" | tar -xOf - "./usr/src/skmemcg-$ver/dkms.conf" 2> /dev/null |
			sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p') || c=
		[ "$c" = "$ver" ] || problem "$f: no /usr/src/skmemcg-$ver/dkms.conf with PACKAGE_VERSION=\"$ver\" ('$c')" ;;
	*)
		v=$(modinfo -F version "$f" 2> /dev/null) || v=
		[ "$v" = "$ver" ] || problem "$f: modinfo version '$v', want $ver" ;;
	esac
done

[ "$bad" -eq 0 ] || exit 1
echo "version-check: $ver everywhere (dkms.conf, Kbuild, MODULE_VERSION, debian/changelog${1:+, $*})"
