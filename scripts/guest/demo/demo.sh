# SPDX-License-Identifier: GPL-2.0
# The README's demo: seed 000's failure side by side. A cgroup (memory.max
# 96 MiB) runs a workload holding 64 MiB and doing its own work in 4 MiB
# rounds; then a socket burst starts in it (8 TCP connections whose
# receivers never read, plus UDP that is read). Three ways to live with it:
#   stock     no module                -> the OOM killer
#   high      memory.high 72 MiB       -> no kill, the workload crawls
#   skmemcg   modprobe skmemcg throttle=1 -> no kill, only sockets slow
. /tests/lib.sh
. /tests/lib_burst.sh

show() {
	echo "\$ $*"
	sh -c "$*" 2>&1 | sed 's/^/  /'
}

echo "== skmemcg loads with parameters, tunes live, unloads clean"
show modprobe skmemcg throttle=1 throttle_level=medium pressure_source=events,headroom
show 'grep . /sys/module/skmemcg/parameters/* | grep -v test_'
show 'echo critical > /sys/kernel/debug/skmemcg/throttle_level; cat /sys/kernel/debug/skmemcg/throttle_level'
show 'echo maybe > /sys/kernel/debug/skmemcg/throttle   # refused, value kept'
show rmmod skmemcg

echo
echo "== seed 000: a socket burst in a cgroup near its memory.max (one run each)"
for config in stock high skmemcg; do
	burst_run $config | tee -a /tmp/demo.results
done
echo
awk 'BEGIN {
	printf "%-8s %9s %22s %14s %14s %14s\n", "config", "OOM kills",
	       "workload speed (burst)", "TCP sent MiB", "UDP dgram/s", "throttled tx/rx"
}
{
	for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	printf "%-8s %9s %21s%% %14s %14s %14s\n", v["config"], v["oom_kills"],
	       v["hog_pct"], v["sent_mib"], v["udp_burst"], v["throttled_tx"] "/" v["throttled_rx"]
}' /tmp/demo.results
exit 0
