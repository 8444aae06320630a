# SPDX-License-Identifier: GPL-2.0
# The debug kernel's last case (scripts/check-debug.sh): with skmemcg
# unloaded, every object it allocated must have been freed. kmemleak scans
# twice (an object must be seen unreferenced twice, and be at least 5 s old)
# and the case fails if it suspects any object not already suspected when
# debug_kmemleak_clear ran at boot; it prints the first reports. A leak
# allocated by the module shows module frames that kmemleak cannot name once
# the module is gone (bare 0xffffffffc... addresses) and comm "modprobe",
# "insmod" or a case's workload.
. /tests/lib.sh

KML=/sys/kernel/debug/kmemleak
[ -e $KML ] || skip "no $KML (kernel without CONFIG_DEBUG_KMEMLEAK)"
rmmod skmemcg 2> /dev/null
[ ! -e /sys/module/skmemcg ] || fail "skmemcg still loaded"
# Let RCU callbacks and deferred work of the last unload run.
sleep 2
echo scan > $KML || fail "kmemleak scan (is it disabled? see dmesg)"
sleep 6
echo scan > $KML || fail "kmemleak scan"
n=$(grep -c '^unreferenced object' $KML)
if [ "$n" -gt 0 ]; then
	mod=$(grep -c '\[<ffffffffc[0-9a-f]*>\] 0xffffffffc' $KML)
	note "$n unreferenced object(s); $mod frame(s) in unloaded module text; the first reports:"
	awk '/^unreferenced object/ { n++ } n <= 4' $KML | head -n 80
	fail "kmemleak: $n unreferenced object(s) since boot"
fi
note "kmemleak: no unreferenced object since boot"
