# SPDX-License-Identifier: GPL-2.0
# Zombie memcgs: cgroups whose sockets hold memory, with skmemcg state
# (throttle pressure held, memcg-exclusive sockets), are removed while the
# sockets stay open; the sockets keep sending (charging the offline memcg
# through our hooks); then they close and the memcg is freed: skmemcg's
# state for it must be freed with it (memcgs_freed catches up with
# memcgs_tracked), and sockstat back at baseline. A second set of zombies
# outlives the module: rmmod with them alive, sockets closed after.
. /tests/lib.sh
. /tests/lib_burst.sh

CG=/sys/fs/cgroup
ncpu=$(grep -c ^processor /proc/cpuinfo)
sock_mem() { awk '$1 == "TCP:" { for (i = 2; i < NF; i++) if ($i == "mem") print $(i + 1) }' /proc/net/sockstat; }
# has_state PATH: whether skmemcg's "cgroups" file lists the cgroup
has_state() { awk -v p="$1" '$1 == p { f = 1 } END { exit !f }' $DBG/cgroups; }

# start_holder CG: a new cgroup CG with skm-hold in it; its pid in $pid
start_holder() {
	mkdir "$1" || fail "mkdir $1"
	hold_start "$1" "$(basename "$1")"
}
# zombify CG PID: move the holder out, remove the cgroup
zombify() {
	echo "$2" > $CG/cgroup.procs
	rmdir "$1" || fail "rmdir $1 with sockets open"
}

base=$(sock_mem)
mkdir $CG/lc_ex
echo +memory > $CG/lc_ex/cgroup.subtree_control
load throttle=1 pressure_source=vmpressure,psi,events,headroom exclusive=0
printf '+/lc_ex' | skm-write $DBG/exclusive_cgroups > /dev/null

# Set 1: freed while the module is loaded.
start_holder $CG/lc_a
p1=$pid
start_holder $CG/lc_ex/b
p2=$pid
start_holder $CG/lc_c
p3=$pid
# Reclaim in each (memory.high under what its sockets hold) gives it state.
squeeze() { # CG PID NAME
	echo $((1 << 20)) > "$1/memory.high"
	hold_pump "$2" "$3"
	echo max > "$1/memory.high"
}
squeeze $CG/lc_a $p1 lc_a
squeeze $CG/lc_ex/b $p2 b
squeeze $CG/lc_c $p3 lc_c
with_state=0
for c in /lc_a /lc_ex/b /lc_c; do
	has_state $c && with_state=$((with_state + 1))
done
[ $with_state -ge 2 ] || fail "fewer than 2 of the cgroups have state: $(cat $DBG/cgroups)"
excl=$(skm_stat exclusive_sockets)
[ "${excl:-0}" -gt 0 ] || fail "no exclusive sockets in lc_ex/b"
freed0=$(skm_stat memcgs_freed)
zombify $CG/lc_a $p1
zombify $CG/lc_ex/b $p2
zombify $CG/lc_c $p3
hold_pump $p1 lc_a
hold_pump $p2 b
hold_pump $p3 lc_c
# pressure on a zombie: reclaim in the parent of one
echo $((8 << 20)) > $CG/lc_ex/memory.high
hold_pump $p2 b
echo max > $CG/lc_ex/memory.high
note "set 1: 3 zombie memcgs ($with_state with state), $(skm_stat exclusive_sockets) exclusive sockets"
kill $p1 $p2 $p3
wait $p1 $p2 $p3
# (their output files on tmpfs were charged to the memcgs too)
rm -f /tmp/hold.lc_a /tmp/hold.b /tmp/hold.lc_c
flush_stocks
n=0
while [ $(( $(skm_stat memcgs_freed) - freed0 )) -lt $with_state ]; do
	n=$((n + 1))
	[ $((n % 50)) -eq 49 ] && flush_stocks
	[ $n -lt 300 ] || fail "state of $with_state freed memcgs: only $(( $(skm_stat memcgs_freed) - freed0 )) freed"
	sleep 0.1
done
note "set 1: sockets closed, $(( $(skm_stat memcgs_freed) - freed0 )) memcg states freed with their memcgs"
expect_eq "exclusive sockets after close" "$(skm_stat exclusive_sockets)" 0

# Set 2: the zombies outlive the module.
start_holder $CG/lc_d
p4=$pid
start_holder $CG/lc_ex/e
p5=$pid
squeeze $CG/lc_d $p4 lc_d
squeeze $CG/lc_ex/e $p5 e
zombify $CG/lc_d $p4
zombify $CG/lc_ex/e $p5
hold_pump $p4 lc_d
unload
hold_pump $p5 e
kill $p4 $p5
wait $p4 $p5
rm -f /tmp/hold.lc_d /tmp/hold.e
rmdir $CG/lc_ex || fail "rmdir lc_ex"
n=0
while [ $(( $(sock_mem) - base )) -gt $((256 * ncpu)) ]; do
	n=$((n + 1))
	[ $n -lt 200 ] || fail "sockstat TCP mem $(sock_mem), baseline $base"
	sleep 0.1
done
note "set 2: module unloaded with zombies, then closed; TCP mem $base -> $(sock_mem)"
exit 0
