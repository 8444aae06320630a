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
# in the Debian 13 root (scripts/deb13.sh); installed here when missing.
# Only the selftests' folders are unpacked, into the cache outside the
# clone, keyed by the package version.
# Writes OUTDIR/test_memcontrol, OUTDIR/test_kmem and OUTDIR/source (the
# package and version they were built from).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || skm_die "usage: $0 KVER OUTDIR"
kver=$1 out=$2
series=$(echo "$kver" | cut -d. -f1-2)
pkg=linux-source-$series
# installed_version ROOT: $pkg's version in the dpkg database under ROOT
installed_version() {
	dpkg-query --admindir="$1/var/lib/dpkg" -W -f='${Status} ${Version}' "$pkg" 2>/dev/null |
		awk '$3 == "installed" { print $4 }' || true
}
root=
skm_in_deb13 "$kver" && root=$(skm_deb13_root)
ver=$(installed_version "$root")
if [ -z "$ver" ]; then
	# setup installs it (setup.sh, deb13.sh); here for a tree set up before.
	if [ -n "$root" ]; then
		"$SKM_ROOT/scripts/deb13.sh" install "$pkg"
	else
		sudo=
		[ "$(id -u)" -eq 0 ] || sudo=sudo
		skm_log "selftests: installing $pkg"
		$sudo apt-get install -y -q --no-install-recommends "$pkg" > /dev/null ||
			{ $sudo apt-get update -q > /dev/null &&
			  $sudo apt-get install -y -q --no-install-recommends "$pkg" > /dev/null; } ||
			skm_die "installing $pkg failed"
	fi
	ver=$(installed_version "$root")
	[ -n "$ver" ] || skm_die "$pkg is not installed after installing it"
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
# SKM_TESTS in the environment (comma-separated test names, as the "ok"
# lines print them) runs only those; unset or empty, all: the test command
# runs the protection tests alone (conform_memcg's CONFORM_TESTS). A test
# left out prints nothing (the plan's count then differs from the tests
# run, which only the exit status says; conform_memcg reads the lines).
cat > "$out/choose.c" <<'EOC'
#include <stdlib.h>
#include <string.h>
int skm_test_wanted(const char *name)
{
	const char *list = getenv("SKM_TESTS"), *p;
	size_t n = strlen(name);

	if (!list || !*list)
		return 1;
	for (p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}
EOC
# A test that fails says only "not ok": each "goto cleanup..." also prints
# the line it left from to stderr, so the log of a failure shows which check
# failed (a pass may leave the same way). The tests are otherwise upstream's
# (but for the two backports below), and built as their Makefile does,
# without optimisation: at -O2 gcc drops alloc_anon()'s writes to a buffer
# it then frees, so the memory the OOM tests ask for is never touched and
# they fail.
for t in test_memcontrol test_kmem; do
	sed -E 's/\<goto (cleanup[a-z_]*);/{ fprintf(stderr, "%s: left for cleanup at line %d\\n", __func__, __LINE__); goto \1; }/' \
		"$st/cgroup/$t.c" > "$st/cgroup/$t.traced.c"
	sed -i 's/^\(\s*\)switch (tests\[i\]\.fn(root)) {/\1{ extern int skm_test_wanted(const char *); if (!skm_test_wanted(tests[i].name)) continue; }\n&/' \
		"$st/cgroup/$t.traced.c"
	grep -q 'skm_test_wanted(tests' "$st/cgroup/$t.traced.c" ||
		skm_die "$t.c of $pkg $ver: no test loop (\"switch (tests[i].fn(root))\") to choose tests in"
done
# Two backports of upstream's later test_kmem.c, applied only where the
# source still has the old check, so that the stock kernel passes:
# - test_kmem_memcg_deletion in 6.1 sums slab, anon, file, kernel_stack,
#   pagetables, percpu and sock, which misses other kernel memory (6.1's
#   stock kernel: memory.current 785 KB above that sum, 512 KB allowed, 3
#   tries of 3); 6.12's source and upstream's sum anon, file, "kernel" (all
#   kernel memory, since 5.18) and sock.
# - test_percpu_basic in 6.1 and 6.12 compares the memory.current of 1000
#   empty child cgroups with their "percpu" alone, while a kernel may also
#   charge some of a memcg's own structures as slab (6.12's stock kernel:
#   9.7 MB against 6.3 MB of percpu, 512 KB allowed, 3 tries of 3);
#   upstream's compares it with percpu + slab.
k=$st/cgroup/test_kmem.traced.c
old_sum='sum = slab + anon + file + kernel_stack + pagetables + percpu + sock;'
if grep -qF "$old_sum" "$k"; then
	sed -i "s/$old_sum/sum = anon + file + cg_read_key_long(parent, \"memory.stat\", \"kernel \") + sock;/" "$k"
	grep -qF '"kernel ") + sock;' "$k" || skm_die "backporting test_kmem_memcg_deletion's check to $pkg $ver"
fi
if grep -q 'labs(current - percpu)' "$k"; then
	sed -i -e 's/labs(current - percpu)/labs(current - (percpu + skm_slab))/' \
		-e 's/^\(\s*\)percpu = cg_read_key_long(parent, "memory.stat", "percpu ");/&\n\1long skm_slab = cg_read_key_long(parent, "memory.stat", "slab ");/' "$k"
	grep -q 'long skm_slab' "$k" || skm_die "backporting test_percpu_basic's check to $pkg $ver"
fi
for t in test_memcontrol test_kmem; do
	# (-w: their warnings are upstream's; the linker's about getaddrinfo()
	# in a static program is fine: the guest's /etc/hosts answers it)
	gcc -static -pthread -w -I"$st" -I"$st/cgroup/lib/include" \
		-o "$out/$t" "$st/cgroup/$t.traced.c" "$util" "$out/linebuf.c" "$out/choose.c" > "$out/$t.build.log" 2>&1 ||
		{ cat "$out/$t.build.log" >&2; skm_die "building $t from $pkg $ver"; }
done
echo "$pkg $ver" > "$out/source"
