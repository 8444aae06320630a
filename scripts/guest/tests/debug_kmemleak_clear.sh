# SPDX-License-Identifier: GPL-2.0
# The debug kernel's first case (scripts/check-debug.sh): forget what
# kmemleak suspects before any case ran, so that debug_kmemleak, the last
# case, reports only what leaked since (from skmemcg's loads and unloads).
# Two scans, as kmemleak wants (an object must be seen unreferenced twice,
# and be at least 5 s old), then "clear" marks every current suspect as
# never to be reported again.
. /tests/lib.sh

KML=/sys/kernel/debug/kmemleak
[ -e $KML ] || skip "no $KML (kernel without CONFIG_DEBUG_KMEMLEAK)"
echo scan > $KML || fail "kmemleak scan (is it disabled? see dmesg)"
sleep 6
echo scan > $KML || fail "kmemleak scan"
n=$(grep -c '^unreferenced object' $KML)
note "boot-time suspects cleared: $n"
[ "$n" -eq 0 ] || grep -A 12 -m 1 '^unreferenced object' $KML | sed 's/^/  boot: /'
echo clear > $KML || fail "kmemleak clear"
