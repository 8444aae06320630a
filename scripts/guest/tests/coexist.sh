# SPDX-License-Identifier: GPL-2.0
# Coexistence with other owners of a function: a plain ftrace IPMODIFY user
# (skm_ipmodify) or a livepatch (skm_klp, on vmpressure) on a function
# skmemcg hooks makes skmemcg's load fail with EBUSY and one line naming
# the function and the conflict, with nothing left hooked (also when the
# conflict is on the last hook, after all others went in); and loaded
# first, skmemcg makes theirs fail, itself unharmed.
. /tests/lib.sh

KO=$(find /lib/modules -name skmemcg.ko)

# ours_hooked: how many of skmemcg's functions have an ftrace user
ours_hooked() {
	hooked_functions | wc -l
}

# conflict FUNC: skmemcg, every policy on, fails to load while FUNC is
# owned by another.
conflict() {
	before=$(dmesg | grep -c 'skmemcg:')
	# shellcheck disable=SC2086
	expect_eq "insmod skmemcg with $1 owned" "$(skm-insmod "$KO" $ALL_POLICIES)" EBUSY
	lsmod | grep -q '^skmemcg ' && fail "skmemcg loaded with $1 owned"
	lines=$(dmesg | grep 'skmemcg:' | tail -n +$((before + 1)) |
		grep -v 'taints kernel\|verification failed\|drift guard: [0-9]* claims hold')
	note "$1 owned: $lines"
	expect_eq "lines logged" "$(echo "$lines" | wc -l)" 1
	echo "$lines" | grep -q "cannot hook $1: -16 (another ftrace IPMODIFY user, such as a livepatch, owns it); not loading" ||
		fail "no line naming $1 and the conflict"
	# Only the other owner's function is left with an ftrace user.
	expect_eq "functions hooked after the failed load" "$(ours_hooked)" 1
	return 0
}

# A plain IPMODIFY user, on the first and on the last function of the table.
for f in __sk_mem_raise_allocated mem_cgroup_css_free; do
	insmod /opt/skm_ipmodify.ko func=$f || fail "insmod skm_ipmodify func=$f"
	conflict $f
	rmmod skm_ipmodify || fail "rmmod skm_ipmodify"
	expect_eq "functions hooked after rmmod skm_ipmodify" "$(ours_hooked)" 0
done

# Loaded with every policy off, skmemcg hooks nothing and conflicts with
# nobody; turning on a policy that needs the owned function then fails
# with EBUSY and one line naming it, and the policy stays off.
insmod /opt/skm_ipmodify.ko func=vmpressure || fail "insmod skm_ipmodify func=vmpressure"
load
before=$(dmesg | grep -c 'skmemcg:')
expect_eq "throttle=1 with vmpressure owned" "$(printf 1 | skm-write $PAR/throttle)" EBUSY
expect_eq "throttle after EBUSY" "$(cat $PAR/throttle)" N
expect_eq "ours hooked after EBUSY" "$(ours_hooked)" 1
dmesg | grep 'skmemcg:' | tail -n +$((before + 1)) |
	grep -q "cannot hook vmpressure: -16 (another ftrace IPMODIFY user, such as a livepatch, owns it); left as it was" ||
	fail "no line naming vmpressure after throttle=1"
# A policy that does not need it goes on.
echo 1 > $PAR/exclusive || fail "exclusive=1 with vmpressure owned elsewhere"
unload
rmmod skm_ipmodify || fail "rmmod skm_ipmodify"

# The other way round.
load $ALL_POLICIES
insmod /opt/skm_ipmodify.ko func=mem_cgroup_sk_free 2> /dev/null &&
	fail "skm_ipmodify took mem_cgroup_sk_free from skmemcg"
expect_eq "skmemcg's hooks after the other's failed load" "$(ours_hooked)" "$NHOOKS"
unload

# A livepatch.
LP=/sys/kernel/livepatch/skm_klp
klp_idle() { [ "$(cat $LP/transition 2> /dev/null || echo 0)" = 0 ]; }
klp_settle() { wait_for 300 "livepatch transition did not finish" klp_idle; }
insmod /opt/skm_klp.ko || fail "insmod skm_klp"
klp_settle
expect_eq "livepatch enabled" "$(cat $LP/enabled)" 1
conflict vmpressure
echo 0 > $LP/enabled
klp_settle
n=0
while [ -d $LP ]; do
	n=$((n + 1))
	[ $n -lt 100 ] || fail "livepatch not released"
	sleep 0.1
done
rmmod skm_klp || fail "rmmod skm_klp"

load $ALL_POLICIES
insmod /opt/skm_klp.ko 2> /dev/null && fail "the livepatch took vmpressure from skmemcg"
[ -d $LP ] && fail "a livepatch that failed to enable is left in sysfs"
expect_eq "skmemcg's hooks after the livepatch failed" "$(ours_hooked)" "$NHOOKS"
unload
expect_eq "functions hooked at the end" "$(ours_hooked)" 0
exit 0
