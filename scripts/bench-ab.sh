#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a change costs, counted in instructions: the bench_icount case in one
# boot (one vCPU under QEMU's -icount, scripts/vm.sh -I) with two builds of
# skmemcg, the tree's and REV's, loaded in turn for each configuration and
# each repeat (ICOUNT_AB=1: "CONFIG@base" is REV's, "CONFIG@new" this
# tree's; which goes first alternates repeat by repeat). Prints, per
# configuration and workload, the median guest time of each build (ns,
# one instruction each under -icount) and new against base in %; writes it
# to out/bench-ab-REV-KVER.txt.
#
#   scripts/bench-ab.sh REV [KVER]     default KVER: the newest 6.12
#
# Environment: AB_REPEATS (3), AB_MIB (32), AB_RR (5000), AB_CRR (500),
# AB_CONFIGS (off:hooked:throttle:exclusive:reclaim:limit:all), AB_DEPTH
# (1: the bench cgroup's depth), AB_IDLE_CONNS (0: idle connections kept
# open in the cgroup, bench_icount's ICOUNT_IDLE_CONNS).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rev=${1:?usage: scripts/bench-ab.sh REV [KVER]}
kver=${2:-$(skm_kver_612)}
[ -n "$kver" ] || skm_die "no 6.12 kernel: name one"
sha=$(git -C "$SKM_ROOT" rev-parse --short "$rev^{commit}")
src=$SKM_OUT/ab-$sha-$kver
rm -rf "$src" && mkdir -p "$src"
git -C "$SKM_ROOT" archive "$sha" Kbuild module | tar -x -C "$src"
skm_log "bench-ab: building $sha for $kver in $src"
if skm_in_deb13 "$kver"; then
	"$SKM_ROOT/scripts/deb13.sh" run "$SKM_OUT" make -C "/lib/modules/$kver/build" M="$src" modules > "$src/build.log" 2>&1
else
	make -C "/lib/modules/$kver/build" M="$src" modules > "$src/build.log" 2>&1
fi || { tail -n 20 "$src/build.log"; skm_die "building $sha failed"; }

tag=ab-$sha
SKM_BASE_KO=$src/skmemcg.ko "$SKM_ROOT/scripts/vm.sh" -k "$kver" -c 1 -I -m 1024 -w "$tag" \
	-t bench_icount -T 7200 -q \
	-e "ICOUNT_AB=1 ICOUNT_REPEATS=${AB_REPEATS:-3} ICOUNT_MIB=${AB_MIB:-32} ICOUNT_RR=${AB_RR:-5000} ICOUNT_CRR=${AB_CRR:-500} ICOUNT_CONFIGS=${AB_CONFIGS:-off:hooked:throttle:exclusive:reclaim:limit:all} ICOUNT_DEPTH=${AB_DEPTH:-1} ICOUNT_IDLE_CONNS=${AB_IDLE_CONNS:-0}"
python3 - "$SKM_OUT/vm-$kver-$tag/console.log" "$sha" "$(git -C "$SKM_ROOT" rev-parse --short HEAD)" "$kver" "${AB_DEPTH:-1}" <<'PY' | tee "$SKM_OUT/bench-ab-$sha-$kver.txt"
import re, statistics, sys
from collections import defaultdict
log, base, head, kver, depth = sys.argv[1:6]
ns = defaultdict(list)
for line in open(log, errors="replace"):
    line = re.sub(r"^\[[a-z_]+\] ", "", line.strip())
    if line.startswith("ICOUNT "):
        kv = dict(p.split("=", 1) for p in line.split()[1:])
        ns[(kv["config"], kv["case"])].append(int(kv["ns"]))
configs = []
for c, _ in ns:
    c = c.split("@")[0]
    if c not in configs:
        configs.append(c)
cases = sorted({k[1] for k in ns})
print(f"bench-ab: {kver}, cgroup depth {depth}, guest ns under -icount (one instruction each), median of {max(len(v) for v in ns.values())} repeats")
print(f"base = {base}, new = the tree at {head} (with its uncommitted changes, if any)")
print(f"{'config':<10} {'case':<20} {'base':>14} {'new':>14} {'new/base':>9}")
worse = 0
for c in configs:
    for case in cases:
        b, n = ns.get((c + "@base", case)), ns.get((c + "@new", case))
        if not b or not n:
            continue
        mb, mn = statistics.median(b), statistics.median(n)
        d = (mn / mb - 1) * 100
        print(f"{c:<10} {case:<20} {mb:>14.0f} {mn:>14.0f} {d:>+8.2f}%")
print("spread of a build's repeats, (max - min) / median, at most: "
      f"{max((max(v) - min(v)) / statistics.median(v) * 100 for v in ns.values()):.2f}%")
PY
