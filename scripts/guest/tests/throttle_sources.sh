# SPDX-License-Identifier: GPL-2.0
# Each pressure source alone defines pressure (the RFC review asked for PSI
# and memory.high events, not only vmpressure). A workload held over its
# memory.high produces memory.high events and memory stalls; a short socket
# burst in the same cgroup must then be throttled with only that source on.
# headroom alone is what throttle_oom exercises.
. /tests/lib.sh
. /tests/lib_burst.sh

echo 16777216 > /proc/sys/net/core/rmem_max
echo 16777216 > /proc/sys/net/core/wmem_max

# source_case SOURCE READY-CHECK: the burst runs once READY-CHECK succeeds.
source_case() {
	src=$1
	ready=$2
	load throttle=1 pressure_source="$src" psi_some_pct=5
	cg=/sys/fs/cgroup/src_$src
	mkdir "$cg"
	echo $((40 << 20)) > "$cg/memory.high"
	in_cgroup_bg "$cg" skm-hog -r 41 -w 2 -t 30 > /dev/null
	hog=$bg
	i=0
	until sh -c "$ready" || [ $i -ge 150 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sh -c "$ready" || fail "$src: the workload never produced the signal"
	in_cgroup "$cg" skm-burst -c 4 -b 1024 -t 2 > /dev/null
	line=$(grep "^/src_$src " $DBG/cgroups)
	note "$src: $(grep -E '^(high|max) ' $cg/memory.events | tr '\n' ' ')" \
	     "$(head -n 1 $cg/memory.pressure); cgroups: $line"
	set -- $line
	[ $(($4 + $5)) -gt 0 ] || fail "$src alone throttled nothing"
	kill $hog
	wait $hog
	unload
	while ! rmdir "$cg" 2>/dev/null; do sleep 0.1; done
}

source_case events "[ \$(awk '\$1 == \"high\" { print \$2 }' $(echo /sys/fs/cgroup/src_events)/memory.events) -gt 0 ]"
source_case psi "awk -F'[= ]' '/^some/ { exit !(\$3 >= 5) }' /sys/fs/cgroup/src_psi/memory.pressure"
exit 0
