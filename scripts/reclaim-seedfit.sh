#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Seed 003's own measure from a reclaim_curves run at the seed's steps
# (RECLAIM_STEPS=72+57+40+27+13+0, usually RECLAIM_REPEAT > 1): per LRU and
# policy, its pgscan rate in % of cliff's at the same step ("% of control"),
# against the seed's 23, 34, 64 and 96 % at 0.89, 0.63, 0.42 and 0.21 of
# W (57, 40, 27 and 13 MiB of A's 64). Each rate is the median over the
# run's sweeps of that policy; min-max is the spread of the per-sweep
# ratios (sweep i of the policy against sweep i of cliff).
#
#   scripts/reclaim-seedfit.sh CONSOLE_LOG KERNEL_LABEL
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CONSOLE_LOG KERNEL_LABEL" >&2; exit 2; }
sed -n 's/^\[[a-z_]*\] RC //p' "$1" | awk -v k="$2" '
	function median(list,    v, n, i, j, t) {
		n = split(list, v, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	# RC lru policy low usage rate pct
	{
		key = $1 " " $2 " " $3
		rate[key] = rate[key] " " $5
		use[key] = use[key] " " $4
		if ($3 == 57) {
			nsweep[$1 " " $2]++
			if (!(($1 " " $2) in seen) && $2 != "cliff") {
				seen[$1 " " $2] = 1
				order[n++] = $1 " " $2
			}
		}
	}
	END {
		if (n == 0) { print "no RC lines at low 57" > "/dev/stderr"; exit 1 }
		split("57 40 27 13", st, " ")
		split("23 34 64 96", seed, " ")
		for (i = 0; i < n; i++) {
			split(order[i], f, " ")
			lru = f[1]; pol = f[2]
			pcts = ""; spread = ""; usage = ""; within = 0
			for (j = 1; j <= 4; j++) {
				c = median(rate[lru " cliff " st[j]])
				p = median(rate[lru " " pol " " st[j]])
				pc = c > 0 ? int(100 * p / c + 0.5) : -1
				d = pc - seed[j]
				if (d < 0) d = -d
				if (pc >= 0 && d <= 15) within++
				nc = split(rate[lru " cliff " st[j]], cv, " ")
				np = split(rate[lru " " pol " " st[j]], pv, " ")
				lo = 1e9; hi = -1
				for (r = 1; r <= np && r <= nc; r++) {
					if (cv[r] <= 0) continue
					x = int(100 * pv[r] / cv[r] + 0.5)
					if (x < lo) lo = x
					if (x > hi) hi = x
				}
				pcts = pcts (j > 1 ? " / " : "") pc
				spread = spread (j > 1 ? ", " : "") lo "-" hi
				usage = usage (j > 1 ? " / " : "") median(use[lru " " pol " " st[j]])
			}
			printf "| %s | %s | `%s` | %s | %s | 23 / 34 / 64 / 96 | %d of 4 | %s | %d |\n",
				k, (lru == "mglru" ? "MGLRU" : lru), pol, pcts, spread, within, usage,
				nsweep[lru " " pol]
		}
	}'
