# SPDX-License-Identifier: GPL-2.0
# Parameters given to modprobe take effect and read back through both the
# parameter files and debugfs.
. /tests/lib.sh

load enabled=0 instrument=1 throttle=1
expect_eq "enabled (param)" "$(cat $PAR/enabled)" N
expect_eq "enabled (debugfs)" "$(cat $DBG/enabled)" N
expect_eq "instrument (param)" "$(cat $PAR/instrument)" Y
expect_eq "instrument (debugfs)" "$(cat $DBG/instrument)" Y
# enabled=0: a policy given at load stays set, and hooks nothing.
expect_eq "throttle (param)" "$(cat $PAR/throttle)" Y
expect_eq "hooks_installed" "$(skm_stat hooks_installed)" 0
dmesg | grep -q "skmemcg: loaded on .*: 0 hooks installed, enabled=0" ||
	fail "no load line in dmesg"
unload

# Every policy given at load: every hook, in the load line too.
load $ALL_POLICIES
expect_eq "hooks_installed, every policy on" "$(skm_stat hooks_installed)" "$NHOOKS"
dmesg | grep -q "skmemcg: loaded on .*: $NHOOKS hooks installed, enabled=1" ||
	fail "no load line with $NHOOKS hooks in dmesg"
# Every supported kernel here enters directly (x86-64, direct calls).
expect_eq "hook_entry_direct" "$(skm_stat hook_entry_direct)" 1
expect_eq "hooks_direct, every policy on" "$(skm_stat hooks_direct)" "$NHOOKS"
expect_eq "hooks_ops, every policy on" "$(skm_stat hooks_ops)" 0
unload
# hook_entry=ops: the same hooks, through ftrace_ops.
load $ALL_POLICIES hook_entry=ops
expect_eq "hook_entry=ops: hook_entry_direct" "$(skm_stat hook_entry_direct)" 0
expect_eq "hook_entry=ops: hooks_ops" "$(skm_stat hooks_ops)" "$NHOOKS"
expect_eq "hook_entry=ops: hooked functions" "$(hooked_functions | wc -l)" "$NHOOKS"
unload
before=$(dmesg | grep -c 'skmemcg:')
expect_eq "hook_entry=bogus" "$(skm-insmod "$(find /lib/modules -name skmemcg.ko)" hook_entry=bogus)" EINVAL
dmesg | grep 'skmemcg:' | tail -n +$((before + 1)) |
	grep -q "hook_entry=bogus: not auto, direct or ops; not loading" ||
	fail "no line naming hook_entry=bogus"

load
expect_eq "enabled default" "$(cat $PAR/enabled)" Y
expect_eq "instrument default" "$(cat $PAR/instrument)" N
unload

# A bad value on the command line fails the load.
modprobe skmemcg enabled=maybe 2>/dev/null && fail "enabled=maybe loaded"
lsmod | grep -q '^skmemcg ' && fail "module left loaded after a bad parameter"
exit 0
