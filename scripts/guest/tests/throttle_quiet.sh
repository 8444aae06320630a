# SPDX-License-Identifier: GPL-2.0
# The quiet fast path (throttle_policy.h): with no reclaim reported for a window
# and no level held, a charge consults only the headroom source, with no
# per-memcg lookup. Traffic without pressure must take it; and a socket
# burst that starts on it (seed 000's scenario, lib_burst.sh) must still be
# throttled with no OOM kill: headroom hands over to the full walk. psi is
# left out of the sources so that the window is pressure_hold_ms (200 ms)
# rather than 60 s more.
. /tests/lib.sh
. /tests/lib_burst.sh

load throttle=1 instrument=1 pressure_source=vmpressure,events,headroom pressure_hold_ms=200
sleep 1
cg=/sys/fs/cgroup/quiet
mkdir "$cg"
in_cgroup "$cg" skm-tcp -b 8 > /dev/null || fail "TCP traffic"
quiet=$(skm_stat throttle_quiet_charges)
raise=$(skm_stat raise_calls)
note "no pressure: $quiet of $raise charges took the quiet path"
[ "$quiet" -gt 0 ] || fail "no charge took the quiet path"
expect_eq "throttled without pressure" "$(( $(skm_stat throttled_tx) + $(skm_stat throttled_rx) ))" 0
rmdir "$cg"

# burst_run's modprobe finds the module loaded with these settings.
line=$(burst_run skmemcg)
note "$line"
case $line in *FAIL:*) fail "${line#*FAIL: }" ;; esac
case $line in *" oom_kills=0 "*) ;; *) fail "OOM kill with the burst starting on the quiet path" ;; esac
set -- $(echo "$line" | sed -n 's/.*throttled_tx=\([0-9]*\) throttled_rx=\([0-9]*\).*/\1 \2/p')
[ $(( ${1:-0} + ${2:-0} )) -gt 0 ] || fail "the burst was not throttled"
exit 0
