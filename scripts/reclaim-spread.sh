#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The repeatability of reclaim_curves: several runs of it on one kernel
# (console logs of boots alike, e.g. its deterministic mode, vm.sh -I with
# RECLAIM_SEED), each point's measure side by side and its spread, the
# largest minus the smallest. Per LRU, policy and memory.low step: A's
# pgscan rate in % of its rate at memory.low 0 (the RC lines' last field)
# and A's usage in MiB.
#
#   scripts/reclaim-spread.sh KERNEL_LABEL CONSOLE_LOG...
#
# Prints one line a point, then "widest spread: N points (lru policy low)";
# exits 1 if a point is missing from a run.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 KERNEL_LABEL CONSOLE_LOG CONSOLE_LOG..." >&2; exit 2; }
k=$1
shift
i=0
for log in "$@"; do
	i=$((i + 1))
	sed -n "s/^\[[a-z_]*\] RC /$i /p" "$log"
done | awk -v k="$k" -v runs=$# '
	# run lru policy low usage rate pct
	{
		key = $2 " " $3 " " $4
		if (!(key in seen)) { seen[key] = 1; order[n++] = key }
		pct[key, $1] = $7
		use[key, $1] = $5
	}
	END {
		if (n == 0) { print "no RC lines" > "/dev/stderr"; exit 1 }
		printf "%-9s %-7s %-7s %-5s", "kernel", "lru", "policy", "low"
		for (r = 1; r <= runs; r++)
			printf " %13s", "run " r
		printf " %8s %8s\n", "spread", "MiB"
		worst = -1
		for (j = 0; j < n; j++) {
			key = order[j]
			split(key, f, " ")
			lo = 1e9; hi = -1e9; ulo = 1e9; uhi = -1e9
			printf "%-9s %-7s %-7s %-5s", k, f[1], f[2], f[3]
			for (r = 1; r <= runs; r++) {
				if (!((key, r) in pct)) { missing = missing " " key " (run " r ")"; printf " %13s", "-"; continue }
				p = pct[key, r]; u = use[key, r]
				printf " %7d%% %3dM", p, u
				if (p < lo) lo = p
				if (p > hi) hi = p
				if (u < ulo) ulo = u
				if (u > uhi) uhi = u
			}
			printf " %7d %7d\n", hi - lo, uhi - ulo
			if (hi - lo > worst) { worst = hi - lo; wkey = key }
		}
		printf "widest spread: %d points (%s)\n", worst, wkey
		if (missing != "") { print "missing:" missing > "/dev/stderr"; exit 1 }
	}'
