# SPDX-License-Identifier: GPL-2.0
# The guest half of scripts/slab-paths.sh: the addresses of the kernel's
# functions named in KSYM_FNS (colon-separated), "KSYM <addr> <name>" each,
# from /proc/kallsyms, or "KSYM_MISSING <name>" for one this kernel does
# not have (7.x's SLUB has no put_cpu_partial). Booted with nokaslr, they are where every later
# nokaslr boot of the same kernel has them too. Not in any boot of the
# test command: it asserts nothing.
. /tests/lib.sh

[ -n "${KSYM_FNS:-}" ] || fail "KSYM_FNS names no function"
for fn in $(echo "$KSYM_FNS" | tr ':' ' '); do
	a=$(awk -v f="$fn" '$3 == f && $4 == "" && ($2 == "t" || $2 == "T") { print $1; exit }' /proc/kallsyms)
	if [ -n "$a" ]; then
		echo "KSYM $a $fn"
	else
		echo "KSYM_MISSING $fn"
	fi
done
exit 0
