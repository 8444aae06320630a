#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host's half of the guest case "exporter" (scripts/guest/tests/
# exporter.sh): promtool is not in the guest, so the case prints each
# output of the exporter between "@@PROM BEGIN <name>" and "@@PROM END",
# which the guest's init prefixes with "[exporter] " on the console. This
# takes every such block from a boot's console log (kernel lines in between
# are skipped: only the case's own lines count) and runs
# "promtool check metrics" on each; it wants at least the blocks "loaded"
# and "notloaded", each with its skmemcg_loaded line.
#
#   scripts/exporter-promcheck.sh out/vm-KVER/console.log [CASE]
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh disable=SC1091
. "$(dirname "$0")/lib.sh"

log=${1:?usage: $0 CONSOLE_LOG [CASE]}
case=${2:-exporter}
[ -r "$log" ] || skm_die "no console log $log"
promtool=$(skm_promtool)
[ -n "$promtool" ] || skm_die "no promtool: run scripts/setup.sh (it unpacks Debian's prometheus package)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk -v p="[$case] " -v dir="$tmp" '
	index($0, p) != 1 { next }
	{ l = substr($0, length(p) + 1) }
	l ~ /^@@PROM BEGIN [a-z0-9_]+$/ {
		file = dir "/" substr(l, 14) ".prom"
		printf "" > file
		inblock = 1
		next
	}
	l == "@@PROM END" { close(file); inblock = 0; next }
	inblock { print l > file }
	END { if (inblock) { print "unterminated block " file > "/dev/stderr"; exit 1 } }' "$log"

failed=0
for want in loaded notloaded; do
	[ -s "$tmp/$want.prom" ] || { echo "FAIL no @@PROM block \"$want\" of [$case] in $log"; failed=1; }
done
n=0
for f in "$tmp"/*.prom; do
	[ -e "$f" ] || continue
	name=$(basename "$f" .prom)
	n=$((n + 1))
	if ! grep -q '^skmemcg_loaded [01]$' "$f"; then
		echo "FAIL $name: no skmemcg_loaded line"
		failed=1
	elif r=$("$promtool" check metrics < "$f" 2>&1); then
		echo "PASS $name: promtool check metrics ($(grep -vc '^#' "$f") samples)"
	else
		echo "FAIL $name: promtool check metrics: $r"
		failed=1
	fi
done
[ "$failed" -eq 0 ] || exit 1
echo "exporter-promcheck: $n outputs pass promtool check metrics"
