# SPDX-License-Identifier: GPL-2.0
# Each policy hooks only what it needs, while it is on: loaded with every
# policy off nothing of ours is in enabled_functions; turning a policy on
# adds its functions, turning it off removes those no other policy needs;
# "enabled" off removes every hook. The hooks see every socket allocation,
# and are all gone after rmmod, also one made in the middle of traffic.
. /tests/lib.sh
. /tests/lib_burst.sh

# hooks_are WHAT LIST...: the functions hooked now are exactly those of LISTs
hooks_are() {
	_what=$1
	shift
	expect_eq "hooked functions, $_what" "$(hooked_names)" "$(names_of "$@")"
	expect_eq "stats hooks_installed, $_what" "$(skm_stat hooks_installed)" \
		"$(names_of "$@" | wc -w)"
}

hooked_functions && fail "hooked before load"
load instrument=1
hooked_functions && fail "hooked with every policy off: $(hooked_names)"
expect_eq "stats hooks_installed, nothing on" "$(skm_stat hooks_installed)" 0

echo 1 > $PAR/throttle
hooks_are "throttle on" $HOOKED_THROTTLE
echo 1 > $PAR/exclusive
hooks_are "throttle and exclusive on" $HOOKED_THROTTLE $HOOKED_EXCLUSIVE
echo linear > $PAR/reclaim_policy
hooks_are "all three on" $HOOKED_THROTTLE $HOOKED_EXCLUSIVE $HOOKED_RECLAIM
echo 0 > $PAR/throttle
hooks_are "throttle off again" $HOOKED_EXCLUSIVE $HOOKED_RECLAIM
echo kernel > $PAR/reclaim_policy
hooks_are "exclusive alone" $HOOKED_EXCLUSIVE
echo 0 > $PAR/exclusive
hooks_are "nothing on" ""
# The per-cgroup list turns exclusive accounting on as the global knob does.
mkdir -p /sys/fs/cgroup/hooks_ex
echo +/hooks_ex > $PAR/exclusive_cgroups
hooks_are "a cgroup listed" $HOOKED_EXCLUSIVE
echo -/hooks_ex > $PAR/exclusive_cgroups
hooks_are "the list empty again" ""
# A listed cgroup that goes away: its entry waits for a cgroup of that path
# again, so exclusive accounting stays hooked until "-path".
echo +/hooks_ex > $PAR/exclusive_cgroups
rmdir /sys/fs/cgroup/hooks_ex
wait_list $PAR/exclusive_cgroups hooks_ex "+/hooks_ex waiting"
hooks_are "the listed cgroup removed, its entry waiting" $HOOKED_EXCLUSIVE
echo -/hooks_ex > $PAR/exclusive_cgroups
hooks_are "the waiting entry removed" ""
# Listed while nothing was hooked, made meanwhile: in effect when enabled.
echo 0 > $PAR/enabled
echo +/hooks_ex > $PAR/exclusive_cgroups
hooks_are "enabled off, a cgroup listed" ""
mkdir /sys/fs/cgroup/hooks_ex
echo 1 > $PAR/enabled
hooks_are "enabled again" $HOOKED_EXCLUSIVE
expect_eq "exclusive_cgroups, made while unhooked" "$(cat $PAR/exclusive_cgroups)" "+/hooks_ex"
echo -/hooks_ex > $PAR/exclusive_cgroups
rmdir /sys/fs/cgroup/hooks_ex
# sock_limits: the first limit (waiting or not) hooks the charges, the
# last one removed unhooks them; throttle_cgroups alone hooks nothing.
echo +/hooks_lim=1M > $PAR/sock_limits
hooks_are "a limit set" $HOOKED_LIMIT
echo 1 > $PAR/throttle
hooks_are "a limit and throttle" $HOOKED_LIMIT $HOOKED_THROTTLE
echo 0 > $PAR/throttle
echo -/hooks_lim > $PAR/sock_limits
hooks_are "no limit" ""
echo +/hooks_thr > $PAR/throttle_cgroups
hooks_are "throttle_cgroups listing, throttle off" ""
echo -/hooks_thr > $PAR/throttle_cgroups

echo 1 > $PAR/throttle
echo 1 > $PAR/exclusive
skm-tcp -b 16 >/dev/null || fail "TCP traffic with the module loaded"
raise=$(skm_stat raise_calls)
reduce=$(skm_stat reduce_calls)
note "after 16 MiB over loopback: raise_calls=$raise reduce_calls=$reduce"
[ "$raise" -gt 0 ] || fail "raise hook saw no calls"
[ "$reduce" -gt 0 ] || fail "reduce hook saw no calls"
# hook_times: each call timed whole and around the kernel's original.
ht() { awk -v h="$1" -v c="$2" '$1 == h { print $c }' $DBG/hook_times; }
note "hook_times: $(grep '^__sk_mem_raise_allocated ' $DBG/hook_times)"
[ "$(ht __sk_mem_raise_allocated 2)" -ge "$raise" ] || fail "hook_times missed raise calls"
[ "$(ht __sk_mem_raise_allocated 3)" -ge "$(ht __sk_mem_raise_allocated 6)" ] ||
	fail "a call took less than the original inside it"
echo Y > $PAR/instrument
[ "$(ht __sk_mem_raise_allocated 2)" = "" ] || fail "instrument=Y did not clear hook_times"

echo 0 > $PAR/enabled
hooks_are "enabled=0" ""
skm-tcp -b 16 >/dev/null || fail "TCP traffic with the module disabled"
expect_eq "raise_calls while disabled" "$(skm_stat raise_calls)" "$raise"
echo 1 > $PAR/enabled
hooks_are "enabled=1 again" $HOOKED_THROTTLE $HOOKED_EXCLUSIVE
skm-tcp -b 16 >/dev/null || fail "TCP traffic re-enabled"
[ "$(skm_stat raise_calls)" -gt "$raise" ] || fail "no calls after re-enabling"

# Unload in the middle of traffic: the transfer completes, nothing stays.
skm-tcp -b 64 -c 2 > /tmp/tcp.out &
pid=$!
sleep 1
unload
wait $pid || fail "traffic across rmmod: $(cat /tmp/tcp.out)"
hooked_functions && fail "hooks left after rmmod"
grep -q '\[skmemcg\]' $TRACING/available_filter_functions &&
	fail "skmemcg functions left in available_filter_functions"
lsmod | grep -q '^skmemcg ' && fail "still loaded"
exit 0
