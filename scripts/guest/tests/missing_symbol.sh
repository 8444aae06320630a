# SPDX-License-Identifier: GPL-2.0
# A symbol the kernel lacks makes the load fail with one line naming it, and
# nothing stays hooked; so does a hook that fails to install after others
# went in (rollback). skm-insmod loads with one finit_module() call: busybox
# insmod and modprobe retry a failed load, which would log every line twice.
. /tests/lib.sh

KO=$(find /lib/modules -name skmemcg.ko)

# try_load ERRNO EXPECTED-LINE PARAM...: the load fails with ERRNO and logs
# exactly one line.
try_load() {
	errno=$1
	want=$2
	shift 2
	before=$(dmesg | grep -c 'skmemcg:')
	expect_eq "insmod $*" "$(skm-insmod "$KO" "$@")" "$errno"
	lsmod | grep -q '^skmemcg ' && fail "left loaded after $*"
	lines=$(dmesg | grep 'skmemcg:' | tail -n +$((before + 1)) |
		grep -v 'taints kernel\|verification failed\|drift guard: [0-9]* claims hold')
	note "insmod $*: $lines"
	expect_eq "lines logged by a failed load" "$(echo "$lines" | wc -l)" 1
	echo "$lines" | grep -q "$want" || fail "want a line with '$want'"
	hooked_functions && fail "a hook stayed after insmod $*"
	return 0
}

try_load ENOENT "lacks functions skmemcg hooks: __sk_mem_reduce_allocated; not loading" \
	test_missing_symbol=__sk_mem_reduce_allocated
try_load ENOENT "lacks functions skmemcg hooks: __sk_mem_raise_allocated, __sk_mem_reduce_allocated; not loading" \
	test_missing_symbol=__sk_mem_raise_allocated,__sk_mem_reduce_allocated
try_load EIO "cannot hook __sk_mem_reduce_allocated: -5; not loading" \
	test_fail_install=__sk_mem_reduce_allocated $ALL_POLICIES

# The same failure when the policy is turned on later: the write fails
# with EIO, the knob keeps its value, nothing is hooked, one line logged.
load test_fail_install=__sk_mem_reduce_allocated throttle=1
before=$(dmesg | grep -c 'skmemcg:')
expect_eq "exclusive=1 with its hook failing" "$(printf 1 | skm-write $PAR/exclusive)" EIO
expect_eq "exclusive after the failed write" "$(cat $PAR/exclusive)" N
expect_eq "hooked after the failed write" "$(hooked_names)" "$(names_of $HOOKED_THROTTLE)"
lines=$(dmesg | grep 'skmemcg:' | tail -n +$((before + 1)))
note "exclusive=1: $lines"
expect_eq "lines logged by the failed write" "$(echo "$lines" | wc -l)" 1
echo "$lines" | grep -q "cannot hook __sk_mem_reduce_allocated: -5; left as it was" ||
	fail "want a line naming the hook"
# Listing a cgroup turns the same policy on: refused alike, list left empty.
mkdir -p /sys/fs/cgroup/ms_ex
expect_eq "exclusive_cgroups +/ms_ex with its hook failing" \
	"$(printf +/ms_ex | skm-write $PAR/exclusive_cgroups)" EIO
expect_eq "exclusive_cgroups after the failed write" "$(cat $PAR/exclusive_cgroups)" ""
rmdir /sys/fs/cgroup/ms_ex
unload

# And a normal load still works afterwards.
load $ALL_POLICIES
expect_eq "hooked functions" "$(hooked_functions | wc -l)" "$NHOOKS"
unload
exit 0
