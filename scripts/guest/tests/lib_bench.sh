# SPDX-License-Identifier: GPL-2.0
# The benchmarks' configurations (bench_overhead, bench_icount):
#   none       no module
#   off        module loaded, every policy off
#   throttle   throttle=1
#   pcpu       pcpu_rsv=auto
#   exclusive  the bench cgroup memcg-exclusive
#   hooked     exclusive's hooks in, no socket exclusive (exclusive_cgroups
#              lists a cgroup that does not exist): what hooking costs
#              with no policy work (bench_icount only)
#   reclaim    reclaim_policy=linear
#   limit      the bench cgroup in sock_limits, 1G (never reached)
#   all        all of the above

# cgroup_at DEPTH: the bench cgroup at that depth, memory controller on.
cgroup_at() {
	d=/sys/fs/cgroup
	i=1
	while [ $i -le "$1" ]; do
		echo +memory > "$d/cgroup.subtree_control" || fail "subtree_control in $d"
		d=$d/bench$1_$i
		mkdir -p "$d"
		i=$((i + 1))
	done
	echo "$d"
}

config_load() { # CONFIG CGROUP
	rel=${2#/sys/fs/cgroup}
	case $1 in
	none) return 0 ;;
	off) load ;;
	throttle) load throttle=1 ;;
	pcpu) load pcpu_rsv=auto ;;
	exclusive|hooked) load ;;
	reclaim) load reclaim_policy=linear ;;
	limit) load "sock_limits=+$rel=1G" ;;
	all) load throttle=1 pcpu_rsv=auto reclaim_policy=linear "sock_limits=+$rel=1G" ;;
	*) fail "unknown configuration $1" ;;
	esac
	case $1 in exclusive|all)
		printf '+%s' "$rel" | skm-write $DBG/exclusive_cgroups > /dev/null ||
			fail "exclusive_cgroups +$rel" ;;
	hooked)
		printf '+/skm_bench_nowhere' | skm-write $DBG/exclusive_cgroups > /dev/null ||
			fail "exclusive_cgroups +/skm_bench_nowhere" ;;
	esac
}

config_unload() {
	[ "$1" = none ] || unload
}

