#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# skm-burst.service's work (seed 000): skm-hog keeps 64 MiB resident and
# works; after 3 s a socket burst of BURST_S seconds starts beside it. The
# service's cgroup has MemoryMax=96M. Prints the hog's rounds before and
# during the burst, what the burst sent, the cgroup's oom_kill count and,
# with skmemcg loaded, its "cgroups" row.
set -u
bin=/usr/local/lib/skmemcg-host-test
S=${BURST_S:-45}
cg=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)
"$bin/skm-hog" -r 64 -w 4 -t $((S + 3)) > /run/skm-hog.out &
hog=$!
while ! grep -q "tick=3 " /run/skm-hog.out && kill -0 $hog 2> /dev/null; do
	sleep 0.2
done
quiet=$(grep -o 'rounds=[0-9.]*' /run/skm-hog.out | tail -n 1)
"$bin/skm-burst" -c 8 -b 4096 -t "$S" > /run/skm-burst.out
row=$(awk -v p="${cg#/sys/fs/cgroup}" '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i - ($1 == "#"); next }
	$1 == p { print "throttled_tx=" $h["throttled_tx"], "throttled_rx=" $h["throttled_rx"] }' \
	/sys/kernel/debug/skmemcg/cgroups 2> /dev/null)
wait $hog
echo "burst: hog before: $quiet; hog at the end: $(tail -n 1 /run/skm-hog.out); burst: $(cat /run/skm-burst.out)"
echo "burst: cgroup $cg oom_kill $(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events")"
[ -z "$row" ] || echo "burst: skmemcg $row"
