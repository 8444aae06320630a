# SPDX-License-Identifier: GPL-2.0
# Load/unload under traffic (in a boot of its own, single-threaded TCG: see
# scripts/test.sh): SKM_CYCLES (default 6) cycles of modprobe
# with random valid parameters, random knob changes through both
# interfaces, and rmmod, then one load with SKM_FLIPS (default 20) random
# policy flips (each checked: exactly the functions the knobs call for are
# hooked), while TCP and UDP traffic, memory pressure with a
# socket burst, cgroup creation and removal, and an accept() storm run in
# cgroups. Every load and unload must succeed with the module holding no
# references. Afterwards, with the traffic stopped: TCP and UDP
# memory_allocated back to the baseline (within the per-CPU forward-alloc
# reserve), every cgroup's memory.stat sock at 0. (The kernel log is checked
# for oopses and warnings by vm.sh; kmemleak, on the debug kernel, by the
# debug_kmemleak case.)
#
# SKM_RCU_WATCH=N (off by default) notes every N seconds the state and CPU
# time of the RCU grace-period kthread, CPU pressure and the load average:
# for an unload that waits long in synchronize_rcu() (seen on the debug
# kernel).
. /tests/lib.sh
. /tests/lib_burst.sh

SKM_CYCLES=${SKM_CYCLES:-6}
CG=/sys/fs/cgroup
ncpu=$(grep -c ^processor /proc/cpuinfo)

# Random choices set R in this shell, with no process started: under the
# background traffic each fork and exec in the guest costs up to a second,
# and an od per choice made a cycle take 30 s before its modprobe. ($RANDOM
# is busybox ash's; it advances only in this shell, not in a $(...).)
# rnd N: R = a random number in [0, N)
rnd() {
	R=$((RANDOM % $1))
}
# pick WORD...: R = one of the words, at random
pick() {
	shift $((RANDOM % $#))
	R=$1
}
sock_mem() { # TCP|UDP
	awk -v p="$1:" '$1 == p { for (i = 2; i < NF; i++) if ($i == "mem") print $(i + 1) }' /proc/net/sockstat
}
memcg_sock() { awk '$1 == "sock" { print $2 }' "$1/memory.stat"; }
# Seconds since boot, to 10 ms.
now() { cut -d' ' -f1 /proc/uptime; }
# secs_since T0: seconds from T0 to now, to 10 ms
secs_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# value_for KNOB: R = a random value that KNOB takes.
value_for() {
	case $1 in
	enabled) pick 1 1 1 0 ;;
	instrument|throttle|exclusive|pcpu_numa|reclaim_dither) pick 0 1 ;;
	throttle_level) pick medium critical ;;
	pressure_source) pick psi events vmpressure,psi,events,headroom psi,events ;;
	pressure_hold_ms) pick 100 1000 250 ;;
	psi_some_pct|psi_full_pct) pick 1 5 10 ;;
	headroom_pct) pick 0 5 10 ;;
	exclusive_backstop_pct) pick 0 100 200 ;;
	pcpu_rsv) pick auto off 256 1024 ;;
	pcpu_rsv_divisor) pick 1 8 64 ;;
	pcpu_drain_ms) pick 0 10 1000 ;;
	reclaim_policy) pick kernel cliff seed linear ;;
	reclaim_gain_pct) pick 50 100 200 ;;
	exclusive_cgroups) pick +/cyc_tcp -/cyc_tcp +/cyc_acc -/cyc_acc +/cyc_later -/cyc_later ;;
	throttle_cgroups) pick +/cyc_press -/cyc_press +/cyc_later -/cyc_later ;;
	sock_limits) pick +/cyc_tcp=64M -/cyc_tcp +/cyc_acc=256K -/cyc_acc +/cyc_later=1M -/cyc_later ;;
	*) fail "no values for knob $1" ;;
	esac
}
LOAD_KNOBS="exclusive_cgroups throttle_cgroups sock_limits enabled instrument throttle exclusive pcpu_numa throttle_level pressure_source pressure_hold_ms pcpu_rsv pcpu_drain_ms reclaim_policy reclaim_gain_pct reclaim_dither"

tcp0=$(sock_mem TCP)
udp0=$(sock_mem UDP)
note "baseline: TCP mem $tcp0, UDP mem $udp0 pages"

# expected_hooks: the functions the knobs' values call for (lib.sh's lists)
expected_hooks() {
	[ "$(cat $PAR/enabled)" = Y ] || return 0
	_l=
	[ "$(cat $PAR/throttle)" = Y ] && _l="$_l $HOOKED_THROTTLE"
	if [ "$(cat $PAR/exclusive)" = Y ] || [ -n "$(cat $PAR/exclusive_cgroups)" ]; then
		_l="$_l $HOOKED_EXCLUSIVE"
	fi
	[ "$(cat $PAR/reclaim_policy)" != kernel ] && _l="$_l $HOOKED_RECLAIM"
	[ -n "$(cat $PAR/sock_limits)" ] && _l="$_l $HOOKED_LIMIT"
	# shellcheck disable=SC2086
	names_of $_l
}

# One load, a policy turned off and an unload with no traffic, to compare
# those under it with. (Turning exclusive off waits for every replacement
# to finish before handing the pages back, as an unload does.)
t=$(now)
# shellcheck disable=SC2086
modprobe skmemcg $ALL_POLICIES || fail "idle modprobe skmemcg"
t_load=$(secs_since "$t")
# Each write and unload is timed twice: by this shell, which counts the
# process starts around it (up to a second each under the traffic), and by
# skm-write -t and skm-rmmod, which time the write(2) or delete_module(2)
# alone: what skmemcg and the kernel take.
t=$(now)
r=$(printf 0 | skm-write -t $PAR/exclusive)
t_off_idle=$(secs_since "$t")
# shellcheck disable=SC2086 # the result, then seconds
set -- $r
[ "$1" = ok ] || fail "idle exclusive=0: $r"
s_off_idle=$2
t=$(now)
r=$(skm-rmmod skmemcg)
t_rmmod_idle=$(secs_since "$t")
# shellcheck disable=SC2086 # the result, then seconds
set -- $r
[ "$1" = ok ] || fail "idle rmmod skmemcg: $r"
s_rmmod_idle=$2
note "idle: modprobe ${t_load}s, exclusive=0 ${t_off_idle}s, rmmod ${t_rmmod_idle}s (write(2) ${s_off_idle}s, delete_module(2) ${s_rmmod_idle}s; $(dmesg | grep 'skmemcg: unloaded:' | tail -n 1 | sed 's/.*unloaded: //'))"

# The background: each loop in a cgroup of its own, stopped by cgroup.kill.
for c in cyc_tcp cyc_udp cyc_press cyc_acc cyc_churn; do
	mkdir "$CG/$c" || fail "mkdir $CG/$c"
done
echo $((128 << 20)) > "$CG/cyc_tcp/memory.max"
echo $((64 << 20)) > "$CG/cyc_press/memory.max"
echo $((48 << 20)) > "$CG/cyc_press/memory.high"
echo 8388608 > /proc/sys/net/core/rmem_max
echo 8388608 > /proc/sys/net/core/wmem_max
in_cgroup "$CG/cyc_tcp" sh -c 'while :; do skm-tcp -b 8 -c 4; done' > /dev/null 2>&1 &
in_cgroup "$CG/cyc_udp" sh -c 'while :; do skm-udp -t 2; done' > /dev/null 2>&1 &
in_cgroup "$CG/cyc_press" sh -c 'while :; do skm-hog -r 40 -w 4 -t 3 & skm-burst -c 4 -b 1024 -t 3; wait; done' > /dev/null 2>&1 &
in_cgroup "$CG/cyc_acc" sh -c 'while :; do skm-accept -t 3 -c 4; done' > /dev/null 2>&1 &
( i=0; while :; do
	i=$((i + 1))
	d=$CG/cyc_churn/c$i
	mkdir "$d" && in_cgroup "$d" skm-tcp -b 1 -c 2 > /dev/null 2>&1
	rmdir "$d" 2> /dev/null
done ) &
churn=$!
watch=
if [ "${SKM_RCU_WATCH:-0}" -gt 0 ]; then
	( gp=$(for d in /proc/[0-9]*; do
		case $(cat "$d/comm" 2> /dev/null) in rcu_sched|rcu_preempt) echo "${d#/proc/}";; esac
	done | head -n 1)
	while sleep "$SKM_RCU_WATCH"; do
		# fields 3, 14, 15: state, utime, stime (in clock ticks)
		note "watch: $(cut -d' ' -f2,3,14,15 "/proc/$gp/stat") cpu $(head -n 1 /proc/pressure/cpu) load $(cut -d' ' -f1-4 /proc/loadavg)"
	done ) &
	watch=$!
fi
sleep 2

cycle=0
while [ $cycle -lt "$SKM_CYCLES" ]; do
	cycle=$((cycle + 1))
	params=""
	for k in $LOAD_KNOBS; do
		rnd 2
		[ "$R" -eq 0 ] || continue
		value_for "$k"
		params="$params $k=$R"
	done
	# shellcheck disable=SC2086
	modprobe skmemcg $params || fail "cycle $cycle: modprobe skmemcg$params"
	changes=""
	for n in 1 2 3; do
		# shellcheck disable=SC2046
		pick $(knobs)
		k=$R
		value_for "$k"
		v=$R
		pick "$DBG" "$PAR"
		dir=$R
		r=$(printf '%s' "$v" | skm-write "$dir/$k")
		expect_eq "cycle $cycle: $dir/$k <- $v" "$r" ok
		changes="$changes $k=$v"
		rnd 10
		sleep "0.$R"
	done
	refs=$(cat /sys/module/skmemcg/refcnt)
	expect_eq "cycle $cycle: module references before rmmod" "$refs" 0
	# (said before the unload, so that a hung rmmod leaves its cycle's story)
	note "cycle $cycle: loaded with$params; changed$changes"
	t=$(now)
	r=$(skm-rmmod skmemcg)
	t_unload=$(secs_since "$t")
	# shellcheck disable=SC2086 # the result, then seconds
	set -- $r
	[ "$1" = ok ] || fail "cycle $cycle: rmmod: $r (refcnt $(cat /sys/module/skmemcg/refcnt))"
	[ -d /sys/module/skmemcg ] && fail "cycle $cycle: /sys/module/skmemcg still there after rmmod"
	note "cycle $cycle: unloaded in ${t_unload}s (delete_module(2) ${2}s; $(dmesg | grep 'skmemcg: unloaded:' | tail -n 1 | sed 's/.*unloaded: //'))"
	unload_max=$(awk -v a="$t_unload" -v m="${unload_max:-0}" 'BEGIN { print (a > m ? a : m) }')
	s_unload_max=$(awk -v a="$2" -v m="${s_unload_max:-0}" 'BEGIN { print (a > m ? a : m) }')
	rnd 10
	sleep "0.$R"
done

# Policy flips under the same traffic: one load with every policy on, then
# SKM_FLIPS (default 20) random writes that turn policies on and off, each
# timed, the hooked functions checked against the knobs after each.
SKM_FLIPS=${SKM_FLIPS:-20}
# shellcheck disable=SC2086
modprobe skmemcg $ALL_POLICIES || fail "flips: modprobe skmemcg"
flip=0
while [ $flip -lt "$SKM_FLIPS" ]; do
	flip=$((flip + 1))
	pick throttle exclusive reclaim_policy enabled exclusive_cgroups sock_limits
	k=$R
	case $k in
	reclaim_policy) pick kernel linear seed ;;
	exclusive_cgroups|sock_limits) value_for $k ;;
	*) pick 0 1 ;;
	esac
	v=$R
	pick "$DBG" "$PAR"
	dir=$R
	t=$(now)
	r=$(printf '%s' "$v" | skm-write -t "$dir/$k")
	t_flip=$(secs_since "$t")
	# shellcheck disable=SC2086 # the result, then seconds
	set -- $r
	expect_eq "flip $flip: $dir/$k <- $v" "$1" ok
	expect_eq "flip $flip: hooked after $k=$v" "$(hooked_names)" "$(expected_hooks)"
	note "flip $flip: $k=$v in ${t_flip}s (write(2) ${2}s), $(skm_stat hooks_installed) hooks"
	flip_max=$(awk -v a="$t_flip" -v m="${flip_max:-0}" 'BEGIN { print (a > m ? a : m) }')
	s_flip_max=$(awk -v a="$2" -v m="${s_flip_max:-0}" 'BEGIN { print (a > m ? a : m) }')
	rnd 10
	sleep "0.$R"
done
t=$(now)
r=$(skm-rmmod skmemcg)
t_unload=$(secs_since "$t")
# shellcheck disable=SC2086 # the result, then seconds
set -- $r
[ "$1" = ok ] || fail "flips: rmmod: $r"
note "flips: rmmod after them in ${t_unload}s (delete_module(2) ${2}s)"
unload_max=$(awk -v a="$t_unload" -v m="${unload_max:-0}" 'BEGIN { print (a > m ? a : m) }')
s_unload_max=$(awk -v a="$2" -v m="${s_unload_max:-0}" 'BEGIN { print (a > m ? a : m) }')

kill $churn $watch
wait $churn $watch 2> /dev/null
for c in cyc_tcp cyc_udp cyc_press cyc_acc cyc_churn; do
	cgroup_stop "$CG/$c"
done
wait

# Sockets close asynchronously (FIN exchange, deferred frees): give them
# 20 s to go back to the baseline, within the kernel's per-CPU reserve.
slack=$((256 * ncpu))
n=0
while :; do
	tcp=$(sock_mem TCP)
	udp=$(sock_mem UDP)
	dt=$((tcp - tcp0)) du=$((udp - udp0))
	[ ${dt#-} -le $slack ] && [ ${du#-} -le $slack ] && break
	n=$((n + 1))
	[ $n -lt 200 ] || fail "memory_allocated not back to baseline: TCP $tcp0 -> $tcp, UDP $udp0 -> $udp pages (slack $slack)"
	sleep 0.1
done
note "slowest rmmod under traffic: ${unload_max}s (idle ${t_rmmod_idle}s); slowest of $SKM_FLIPS policy flips: ${flip_max}s (exclusive=0 idle ${t_off_idle}s)"
note "the syscalls alone: slowest delete_module(2) under traffic ${s_unload_max}s (idle ${s_rmmod_idle}s); slowest flip's write(2) ${s_flip_max}s (exclusive=0 idle ${s_off_idle}s)"
note "after $SKM_CYCLES cycles: TCP mem $tcp0 -> $tcp, UDP mem $udp0 -> $udp pages (slack $slack)"
# memory.stat is flushed from per-CPU deltas every 2 s by a deferrable
# timer (which an idle CPU may never fire), or on a read once enough updates
# are pending: an idle guest can show a stale "sock". Since 6.8 "enough" is
# counted per subtree (memcg_vmstats_needs_flush()), so charges elsewhere do
# not help: memcg_stats_flush charges inside the cgroup read, on every CPU.
memcg_stats_flush() {
	for _cpu in $(seq 0 $((ncpu - 1))); do
		in_cgroup "$1" taskset -c "$_cpu" skm-hog -r 1 -w 1 -t 1 > /dev/null
	done
}
# An orphaned TCP socket (closed by its killed process, its FIN not yet
# answered) keeps its memory until it dies, for tcp_fin_timeout (60 s) at
# most: wait that long before calling it a leak, and say what is left.
orphans() { awk '$1 == "TCP:" { for (i = 2; i < NF; i++) if ($i == "orphan") print $(i + 1) }' /proc/net/sockstat; }
wait_max=$(( ($(cat /proc/sys/net/ipv4/tcp_fin_timeout) + 10) * 10 ))
# sock_residue CGROUP: after that wait, what its memory.stat sock still
# counts, told apart (for the failure line). The TCP sockets left in the
# guest by state (/proc/net/tcp and tcp6, hex: 01 established, 04 FIN_WAIT1,
# 05 FIN_WAIT2, 06 TIME_WAIT, 08 CLOSE_WAIT, 09 LAST_ACK, 0A listen); then
# the cgroup is removed and its memcg watched for 10 s through the root's
# nr_dying_descendants. A socket still alive holds its memcg (sk_memcg takes
# a css reference), which then stays dying; a charge whose uncharge was lost
# holds nothing, so the memcg is freed, and that is a leak. (Page cache
# charged to it would also keep it dying; another cgroup freed meanwhile
# could pass for this one: the traffic is over by then, so none should.)
sock_residue() {
	printf 'TCP sockets by state: %s; ' "$(awk 'FNR > 1 { n[$4]++ } END { for (s in n) printf "%s:%d ", s, n[s] }' /proc/net/tcp /proc/net/tcp6 2> /dev/null)"
	_d0=$(awk '$1 == "nr_dying_descendants" { print $2 }' "$CG/cgroup.stat")
	for _d in "$1"/c*; do
		[ -d "$_d" ] && rmdir "$_d"
	done
	rmdir "$1" 2> /dev/null || { echo "cgroup not removable (tasks left?)"; return 0; }
	_n=0
	while [ $_n -lt 100 ]; do
		if [ "$(awk '$1 == "nr_dying_descendants" { print $2 }' "$CG/cgroup.stat")" -le "$_d0" ]; then
			echo "its memcg was freed once removed: nothing held it, so a charge lost its uncharge (a leak)"
			return 0
		fi
		sleep 0.1
		_n=$((_n + 1))
	done
	echo "its memcg still dying 10 s after removal: something holds it (a live socket, or page cache), not a lost uncharge"
}
for c in cyc_tcp cyc_udp cyc_press cyc_acc cyc_churn; do
	n=0
	while [ "$(memcg_sock "$CG/$c")" != 0 ]; do
		n=$((n + 1))
		[ $n -lt $wait_max ] ||
			fail "$c: memory.stat sock $(memcg_sock "$CG/$c") $((n / 10)) s after all its sockets closed; $(grep TCP: /proc/net/sockstat); $(sock_residue "$CG/$c")"
		if [ $((n % 100)) -eq 29 ]; then
			note "$c: memory.stat sock $(memcg_sock "$CG/$c") after $((n / 10)) s, $(orphans) TCP orphans; charging in it to flush the stats"
			memcg_stats_flush "$CG/$c"
		fi
		sleep 0.1
	done
	[ $n -lt 30 ] || note "$c: memory.stat sock 0 after $((n / 10)) s"
	# (the churn loop may have been killed between its mkdir and rmdir)
	for d in "$CG/$c"/c*; do
		[ -d "$d" ] && rmdir "$d"
	done
	rmdir "$CG/$c" || fail "rmdir $CG/$c"
done
lsmod | grep -q '^skmemcg ' && fail "module loaded at the end"
exit 0
