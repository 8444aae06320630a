#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The README's reclaim table rows from a VM run's console log: one row per
# LRU and policy, "% of the rate at memory.low = 0 (usage MiB)" per step,
# from the "RC <lru> <policy> <low_mib> <usage_mib> <rate> <pct>" lines of
# scripts/guest/tests/reclaim_curves.sh.
#
#   scripts/reclaim-table.sh CONSOLE_LOG KERNEL_LABEL
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CONSOLE_LOG KERNEL_LABEL" >&2; exit 2; }
sed -n 's/^\[[a-z_]*\] RC //p' "$1" | awk -v k="$2" '
	{ key = $1 " " $2; if (!(key in seen)) { seen[key] = 1; order[n++] = key }
	  cell[key, $3] = $6 "% (" $4 ")" }
	END {
		if (n == 0) { print "no RC lines" > "/dev/stderr"; exit 1 }
		for (i = 0; i < n; i++) {
			split(order[i], f, " ")
			printf "| %s | %s | `%s` |", k, (f[1] == "mglru" ? "MGLRU" : f[1]), f[2]
			split("72 60 42 28 14 0", steps, " ")
			for (j = 1; j <= 6; j++) printf " %s |", cell[order[i], steps[j]]
			printf "\n"
		}
	}'
