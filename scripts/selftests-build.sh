#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the kernel's own memcg tests for one kernel, from that kernel's
# Debian source package: tools/testing/selftests/cgroup/test_memcontrol and
# test_kmem, linked statically so that the busybox guest runs them.
#
#   scripts/selftests-build.sh KVER OUTDIR
#
# The source is Debian's linux-source-X.Y for KVER's X.Y: on this host
# (/usr/src, 6.1 and bookworm-backports' 6.12) or, for a Debian 13 kernel,
# in the Debian 13 root (scripts/deb13.sh). Only the selftests' folders are
# unpacked, into the cache outside the clone, keyed by the package version.
# Writes OUTDIR/test_memcontrol, OUTDIR/test_kmem and OUTDIR/source (the
# package and version they were built from).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || skm_die "usage: $0 KVER OUTDIR"
kver=$1 out=$2
series=$(echo "$kver" | cut -d. -f1-2)
pkg=linux-source-$series
if skm_in_deb13 "$kver"; then
	root=$(skm_deb13_root)
	ver=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Version}' "$pkg" 2>/dev/null) ||
		skm_die "$pkg is not installed in the Debian 13 root (scripts/deb13.sh setup)"
else
	root=
	ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) ||
		skm_die "$pkg is not installed (scripts/setup.sh)"
fi
tarball=$root/usr/src/$pkg.tar.xz
[ -f "$tarball" ] || skm_die "$tarball missing though $pkg $ver is installed"

src=$SKM_CACHE/selftests-src/$pkg-$ver
if [ ! -f "$src/.skmemcg-extracted" ]; then
	skm_log "selftests: unpacking the cgroup selftests of $pkg $ver into $src"
	rm -rf "$src"
	mkdir -p "$src"
	tar -xJf "$tarball" -C "$src" --strip-components=1 --wildcards \
		'*/tools/testing/selftests/cgroup/*' \
		'*/tools/testing/selftests/kselftest.h' \
		'*/tools/testing/selftests/clone3/*' \
		'*/tools/testing/selftests/pidfd/*' ||
		skm_die "unpacking the selftests from $tarball"
	touch "$src/.skmemcg-extracted"
fi

st=$src/tools/testing/selftests
# 6.1 and 6.12 keep cgroup_util.c beside the tests; 7.x moved it to lib/.
util=$st/cgroup/cgroup_util.c
[ -f "$util" ] || util=$st/cgroup/lib/cgroup_util.c
[ -f "$util" ] || skm_die "no cgroup_util.c in $st/cgroup"
mkdir -p "$out"
# Their output goes to a file in the guest, so stdout would be fully
# buffered and each forked child would print the lines before the fork
# again when it exits: line-buffer it before main().
cat > "$out/linebuf.c" <<'EOC'
#include <stdio.h>
static void __attribute__((constructor)) skm_linebuf(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}
EOC
# A test that fails says only "not ok": each "goto cleanup..." also prints
# the line it left from to stderr, so the log of a failure shows which check
# failed (a pass may leave the same way). The tests are otherwise upstream's,
# unchanged, and built as their Makefile does, without optimisation: at -O2
# gcc drops alloc_anon()'s writes to a buffer it then frees, so the memory
# the OOM tests ask for is never touched and they fail.
for t in test_memcontrol test_kmem; do
	sed -E 's/\<goto (cleanup[a-z_]*);/{ fprintf(stderr, "%s: left for cleanup at line %d\\n", __func__, __LINE__); goto \1; }/' \
		"$st/cgroup/$t.c" > "$st/cgroup/$t.traced.c"
done
for t in test_memcontrol test_kmem; do
	# (-w: their warnings are upstream's; the linker's about getaddrinfo()
	# in a static program is fine: the guest's /etc/hosts answers it)
	gcc -static -pthread -w -I"$st" -I"$st/cgroup/lib/include" \
		-o "$out/$t" "$st/cgroup/$t.traced.c" "$util" "$out/linebuf.c" > "$out/$t.build.log" 2>&1 ||
		{ cat "$out/$t.build.log" >&2; skm_die "building $t from $pkg $ver"; }
done
echo "$pkg $ver" > "$out/source"
