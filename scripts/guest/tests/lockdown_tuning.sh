# SPDX-License-Identifier: GPL-2.0
# Under lockdown (integrity, what Secure Boot sets) debugfs refuses every
# knob file with EPERM, while stats, cgroups and hook_times stay readable and
# every knob is still tuned, and validated, at /sys/module/skmemcg/parameters.
# Lockdown cannot be lowered and refuses unsigned modules until reboot: this
# case runs in a boot of its own (skm_guest_cases lockdown) and loads the
# module before raising it.
. /tests/lib.sh

LOCKDOWN=/sys/kernel/security/lockdown
[ -e $LOCKDOWN ] || fail "$LOCKDOWN missing: no securityfs or no lockdown LSM"
expect_eq "lockdown at boot" "$(cat $LOCKDOWN)" "[none] integrity confidentiality"

load throttle=1
mkdir -p /sys/fs/cgroup/lockdown_ex
# Before lockdown a knob's debugfs file works (knobs.sh checks the rest).
expect_eq "debugfs write before lockdown" \
	"$(printf 'N' | skm-write $DBG/instrument)" ok

echo integrity > $LOCKDOWN || fail "raising lockdown to integrity"
expect_eq "lockdown raised" "$(cat $LOCKDOWN)" "none [integrity] confidentiality"

# The read-only files still read.
for f in stats cgroups hook_times; do
	cat $DBG/$f > /dev/null || fail "$f unreadable under lockdown"
done
expect_eq "stats hooks_installed" "$(skm_stat hooks_installed)" "$(names_of $HOOKED_THROTTLE | wc -w)"

# knob DEFAULT NEW BAD: debugfs refuses to open the knob's file, to write
# or to read, and the value stays; the parameter file takes NEW, refuses BAD
# with EINVAL keeping NEW, and takes DEFAULT back.
checked=""
knob() {
	k=$1
	checked="$checked $k"
	expect_eq "$k default" "$(cat $PAR/$k)" "$2"
	expect_eq "$DBG/$k <- $3" "$(printf '%s' "$3" | skm-write $DBG/$k)" EPERM
	cat $DBG/$k > /dev/null 2>&1 && fail "$DBG/$k readable under lockdown"
	expect_eq "$k after the refused debugfs write" "$(cat $PAR/$k)" "$2"
	expect_eq "$PAR/$k <- $3" "$(printf '%s' "$3" | skm-write $PAR/$k)" ok
	expect_eq "$k reads back" "$(cat $PAR/$k)" "$3"
	expect_eq "$PAR/$k <- $4" "$(printf '%s' "$4" | skm-write $PAR/$k)" EINVAL
	expect_eq "$k kept after '$4'" "$(cat $PAR/$k)" "$3"
	expect_eq "$PAR/$k <- $2" "$(printf '%s\n' "$2" | skm-write $PAR/$k)" ok
	expect_eq "$k back to default" "$(cat $PAR/$k)" "$2"
}

knob enabled Y N 2
knob instrument N Y maybe
knob throttle Y N 2
knob throttle_level medium critical high
knob pressure_source vmpressure,psi,events,headroom psi,events none
knob pressure_hold_ms 1000 250 0
knob psi_some_pct 10 20 101
knob psi_full_pct 5 7 101
knob headroom_pct 10 20 51
knob exclusive N Y 2
knob exclusive_backstop_pct 200 300 10001
knob pcpu_rsv off 100 1048577
knob pcpu_rsv_divisor 8 16 0
knob pcpu_drain_ms 0 10 600001
knob pcpu_numa N Y 2
knob reclaim_policy kernel linear none
knob reclaim_gain_pct 100 200 1001
knob reclaim_dither Y N 2

# The cgroup lists: the parameter is the lockdown-proof twin of the debugfs
# file: one update a write, the same errors, entries that wait.
for k in exclusive_cgroups throttle_cgroups sock_limits; do
	add= rd=
	[ $k = sock_limits ] && add='=64K' rd='=65536'
	checked="$checked $k"
	expect_eq "$DBG/$k <- +/lockdown_ex$add" \
		"$(printf "+/lockdown_ex$add" | skm-write $DBG/$k)" EPERM
	cat $DBG/$k > /dev/null 2>&1 && fail "$DBG/$k readable under lockdown"
	expect_eq "$k empty" "$(cat $PAR/$k)" ""
	expect_eq "$PAR/$k <- +/lockdown_ex$add" "$(printf "+/lockdown_ex$add\n" | skm-write $PAR/$k)" ok
	expect_eq "$k lists it" "$(cat $PAR/$k)" "+/lockdown_ex$rd"
	for bad in "+lockdown_ex$add" "/lockdown_ex$add" "+/lockdown_ex x$add" '+' "+/lockdown_ex$add\n\n"; do
		expect_eq "$PAR/$k <- '$bad'" "$(printf "$bad" | skm-write $PAR/$k)" EINVAL
	done
	expect_eq "$PAR/$k <- +/not_yet$add" "$(printf "+/not_yet$add" | skm-write $PAR/$k)" ok
	expect_eq "$k with a waiting entry" "$(sort $PAR/$k | tr '\n' ' ')" \
		"+/lockdown_ex$rd +/not_yet$rd waiting "
	for v in -/not_yet -/lockdown_ex; do
		expect_eq "$PAR/$k <- $v" "$(printf '%s' "$v" | skm-write $PAR/$k)" ok
	done
	expect_eq "$k empty again" "$(cat $PAR/$k)" ""
done

# Every writable parameter was tried above.
n=0
for k in $(knobs); do
	n=$((n + 1))
	echo " $checked " | grep -q " $k " || fail "knob $k not tried under lockdown"
done

# A write through the parameter takes effect: turning a policy on installs
# its hooks, which count calls (ftrace keeps working under integrity
# lockdown), and the per-CPU reserve reaches the sysctl.
echo Y > $PAR/exclusive || fail "exclusive=Y"
expect_eq "stats hooks_installed, exclusive on" "$(skm_stat hooks_installed)" \
	"$(names_of $HOOKED_THROTTLE $HOOKED_EXCLUSIVE | wc -w)"
echo N > $PAR/exclusive
echo Y > $PAR/instrument || fail "instrument=Y"
skm-tcp -b 1 > /dev/null || fail "TCP traffic under lockdown"
[ "$(skm_stat raise_calls)" -gt 0 ] || fail "instrument=Y via the parameter counted no calls"
echo N > $PAR/instrument
echo 100 > $PAR/pcpu_rsv || fail "pcpu_rsv=100"
expect_eq "stats pcpu_rsv_pages" "$(skm_stat pcpu_rsv_pages)" 100
echo off > $PAR/pcpu_rsv

# Leaving with the cgroup listed proves unload frees the list.
printf '+/lockdown_ex' | skm-write $PAR/exclusive_cgroups > /dev/null
unload
[ -e /sys/module/skmemcg ] && fail "/sys/module/skmemcg left after rmmod"
dmesg | tail -n 5 | grep -q 'skmemcg: unloaded' || fail "no unload line in dmesg"
rmdir /sys/fs/cgroup/lockdown_ex

# And lockdown is real: an unsigned module no longer loads.
expect_eq "unsigned module under lockdown" \
	"$(skm-insmod /lib/modules/$(uname -r)/extra/skmemcg.ko)" "Operation not permitted"
note "$n knobs tuned through $PAR under lockdown; debugfs refused each with EPERM"
exit 0
