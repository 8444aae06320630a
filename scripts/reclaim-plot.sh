#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Plot the reclaim curves a VM run measured (scripts/guest/tests/
# reclaim_curves.sh), one line per policy, one column per LRU (classic,
# MGLRU): on top the protected cgroup's pgscan rate, in % of its
# unprotected rate, against memory.low; below, its usage (memory.low itself
# drawn dashed: a cgroup reclaimed down to it lost all protection above).
#
#   scripts/reclaim-plot.sh CONSOLE_LOG OUT.png [title]
#
# Reads the "RC <lru> <policy> <low_mib> <usage_mib> <rate> <pct>" lines of
# the guest console log. Needs gnuplot (gnuplot-nox; scripts/setup.sh).
set -euo pipefail

log=$1
png=$2
title=${3:-}
command -v gnuplot > /dev/null || { echo "gnuplot not installed" >&2; exit 1; }
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

sed -n 's/^\[[a-z_]*\] RC //p' "$log" > "$data/all"
[ -s "$data/all" ] || { echo "no RC lines in $log" >&2; exit 1; }
lrus=$(awk '{ print $1 }' "$data/all" | awk '!seen[$0]++')
policies=$(awk '{ print $2 }' "$data/all" | awk '!seen[$0]++')
for l in $lrus; do
	for p in $policies; do
		# The sweep measures low=0 first and last; plot the last.
		awk -v l="$l" -v p="$p" '$1 == l && $2 == p { v[$3] = $3 " " $6 " " $4 } END { for (k in v) print v[k] }' \
			"$data/all" | sort -n > "$data/$l-$p"
	done
done

nl=$(echo $lrus | wc -w)
{
	echo "set terminal pngcairo size $((560 * nl)),760 font 'sans,10'"
	echo "set output '$png'"
	echo "set multiplot layout 2,$nl title '$title'"
	echo "set xlabel 'memory.low of the protected cgroup, MiB'"
	echo "set key top right"
	echo "set grid"
	echo "set yrange [0:*]"
	for row in rate usage; do
		for l in $lrus; do
			name="classic LRU"
			[ "$l" = mglru ] && name=MGLRU
			plots=()
			if [ $row = rate ]; then
				echo "set title '$name: pgscan rate'"
				echo "set ylabel '% of the rate at memory.low = 0'"
				for p in $policies; do
					plots+=("'$data/$l-$p' using 1:2 with linespoints lw 2 title '$p'")
				done
			else
				echo "set title '$name: usage'"
				echo "set key bottom right"
				echo "set ylabel 'memory.current, MiB'"
				for p in $policies; do
					plots+=("'$data/$l-$p' using 1:3 with linespoints lw 2 title '$p'")
				done
				plots+=("x with lines dt 2 lc 'gray' title 'memory.low'")
			fi
			(IFS=,; echo "plot ${plots[*]}")
		done
	done
	echo "unset multiplot"
} > "$data/plot.gp"
gnuplot "$data/plot.gp"
echo "wrote $png"
