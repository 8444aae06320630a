#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The v1 vs v2 table of docs/cgroup-lists.md from one run: the "COMPARE v1"
# line of the v1_tcpmem case (cgroup v1, memory.kmem.tcp.limit_in_bytes)
# and the "COMPARE v2" line of the sock_limits case (cgroup v2, skmemcg's
# sock_limits), the same workload under the same limit, from their boots'
# console logs. Prints a markdown table; fails if either line is missing.
#
#   scripts/compare-table.sh MAIN-CONSOLE V1-CONSOLE [KVER]
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh disable=SC1091
. "$(dirname "$0")/lib.sh"

main=${1:?usage: $0 MAIN-CONSOLE V1-CONSOLE [KVER]}
v1=${2:?usage: $0 MAIN-CONSOLE V1-CONSOLE [KVER]}
kver=${3:-}
l1=$(grep -a -m1 '^\[v1_tcpmem\] COMPARE v1 ' "$v1" || true)
l2=$(grep -a -m1 '^\[sock_limits\] COMPARE v2 ' "$main" || true)
[ -n "$l1" ] || skm_die "no COMPARE v1 line in $v1"
[ -n "$l2" ] || skm_die "no COMPARE v2 line in $main"

# field LINE KEY: the value of KEY=... in LINE
field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
row() { # NAME LINE
	printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$1" \
		"$(field "$2" limit_kib)" "$(field "$2" held_kib)" \
		"$(field "$2" bytes)" "$(field "$2" MiBps)" "$(field "$2" failcnt)" \
		"$(field "$2" oom_kills)"
}
echo "v1 vs v2 on ${kver:-this kernel}: 8 connections, 2 MiB queued unread each (held: v1 memory.kmem.tcp.usage_in_bytes, v2 memory.stat sock), then 16 MiB each read (bytes, MiB/s)"
echo
echo '| cgroup | limit KiB | TCP memory held KiB | bytes sent | MiB/s | limit hits (v1: failcnt; v2: allocations suppressed) | OOM kills |'
echo '|---|---|---|---|---|---|---|'
row "v1 memory.kmem.tcp.limit_in_bytes" "$l1"
row "v2 skmemcg sock_limits" "$l2"
