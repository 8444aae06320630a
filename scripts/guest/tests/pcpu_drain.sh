# SPDX-License-Identifier: GPL-2.0
# pcpu_drain_ms hands an idle CPU's reserve back: with a 16 MB reserve and
# connections that hold their queued memory (receivers that never read),
# sockstat TCP "mem" stays wherever the last fold left it without the
# drain, and converges to the true usage (the cgroup's memory.stat "sock",
# charged page for page with the global counter) with it; after the
# connections close it returns to 0.
. /tests/lib.sh
. /tests/lib_burst.sh

cg=/sys/fs/cgroup/pcpu_drain
mkdir -p "$cg"
sockstat_mem() { awk '$1 == "TCP:" { for (i = 2; i < NF; i++) if ($i == "mem") print $(i + 1) }' /proc/net/sockstat; }
true_pages() { awk '$1 == "sock" { print $2 / 4096 }' "$cg/memory.stat"; }

# hold SECONDS: 8 connections fill their buffers, then hold them
hold() { in_cgroup "$cg" skm-burst -c 8 -b 1024 -t "$1" > /dev/null; }

# Without the drain: note how far off sockstat is (not checked: it may land
# anywhere within the uncertainty, 0 included).
load pcpu_rsv=4096
hold 6 &
h=$!
sleep 4
note "drain off: sockstat mem $(sockstat_mem), true $(true_pages) pages (uncertainty $(skm_stat pcpu_uncertainty_pages))"
wait $h
unload

# With it: equal once the memcg statistics have been flushed (every 2 s).
load pcpu_rsv=4096 pcpu_drain_ms=300
hold 8 &
h=$!
sleep 2
ok=
for _ in $(seq 40); do
	s=$(sockstat_mem)
	t=$(true_pages)
	[ "$t" -gt 0 ] && [ "$s" = "$t" ] && { ok=1; break; }
	sleep 0.1
done
note "drain 300 ms: sockstat mem $s, true $t pages; drains $(skm_stat pcpu_drains), drained $(skm_stat pcpu_drained_pages) pages"
[ -n "$ok" ] || fail "sockstat mem $s did not converge to the true usage $t"
[ "$(skm_stat pcpu_drained_pages)" -gt 0 ] || fail "nothing drained"
wait $h

# Closed: nothing is in use, and sockstat says so.
ok=
for _ in $(seq 30); do
	[ "$(sockstat_mem)" = 0 ] && [ "$(true_pages)" = 0 ] && { ok=1; break; }
	sleep 0.1
done
[ -n "$ok" ] || fail "after close: sockstat mem $(sockstat_mem), true $(true_pages)"
unload
rmdir "$cg"
exit 0
