# SPDX-License-Identifier: GPL-2.0
# Coexistence with BPF trampolines (fentry/fexit programs, skm-bpf) on
# functions skmemcg replaces, both orders, and with each way in:
# - BPF first: skmemcg loads; the two functions a BPF trampoline holds are
#   entered through ftrace_ops (hooks_ops 2: an IPMODIFY ops shares a
#   function with a BPF trampoline, a second direct call could not), the
#   others directly; exclusive accounting works; both programs count the
#   kernel's calls while skmemcg is loaded and after it unloaded;
# - skmemcg first, entered directly: attaching a program to a function it
#   replaces fails (one direct call per function: EBUSY on 6.x, EINVAL on
#   7.3), nothing else changes, and the same program attaches once skmemcg
#   is gone;
# - skmemcg first with hook_entry=ops: the program attaches and counts.
# Every step checks what is hooked and that traffic flows.
. /tests/lib.sh
. /tests/lib_burst.sh

[ "$(cat /sys/kernel/btf/vmlinux 2> /dev/null | head -c 4 | od -An -tx1 | tr -d ' ')" = "9feb0100" ] ||
	skip "no kernel BTF"
ip link set lo up 2> /dev/null

F1=__sk_mem_reduce_allocated	# fentry
F2=sk_forced_mem_schedule	# fexit
cg=/sys/fs/cgroup/skm_bpf
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p $cg

# bpf_start FUNC fentry|fexit TAG: a program on FUNC; its pid in BPF_PID_<TAG>
bpf_start() {
	rm -f /tmp/bpf-$3
	skm-bpf "$1" "$2" /tmp/bpf-$3 &
	eval "BPF_PID_$3=$!"
	wait_for 100 "skm-bpf $1 $2: no answer" test -s /tmp/bpf-$3
}
# bpf_calls TAG: its count now
bpf_calls() {
	rm -f /tmp/bpf-$1
	eval "kill -USR1 \$BPF_PID_$1"
	wait_for 100 "skm-bpf $1: no count" test -s /tmp/bpf-$1
	awk '$1 == "calls" { print $2 }' /tmp/bpf-$1
}
bpf_stop() {
	eval "kill -TERM \$BPF_PID_$1; wait \$BPF_PID_$1" || fail "skm-bpf $1 exit status"
}
traffic() {
	in_cgroup $cg skm-tcp -b 8 -c 2 > /dev/null || fail "traffic: $1"
}
# grew TAG WHAT: its count went up since the last call
grew() {
	_c=$(bpf_calls "$1")
	eval "_was=\${BPF_LAST_$1:-0}"
	[ "$_c" -gt "$_was" ] || fail "$2: the program on $1 counted $_c calls, $_was before"
	eval "BPF_LAST_$1=$_c"
	note "$2: program $1 at $_c calls"
}

# 1. BPF first.
bpf_start $F1 fentry a
expect_eq "fentry on $F1 before skmemcg" "$(cat /tmp/bpf-a)" attached
bpf_start $F2 fexit b
expect_eq "fexit on $F2 before skmemcg" "$(cat /tmp/bpf-b)" attached
traffic "BPF alone"
grew a "BPF alone"
grew b "BPF alone"
load exclusive_cgroups=+/skm_bpf
n=$(echo $HOOKED_EXCLUSIVE | wc -w)
expect_eq "hooks in, BPF first" "$(skm_stat hooks_installed)" "$n"
if [ "$(skm_stat hook_entry_direct)" = 1 ]; then
	expect_eq "hooks through ftrace_ops beside BPF" "$(skm_stat hooks_ops)" 2
	expect_eq "hooks direct beside BPF" "$(skm_stat hooks_direct)" $((n - 2))
fi
pages0=$(skm_stat exclusive_pages)
in_cgroup $cg skm-hold -c 2 -k 256 > /tmp/bpf-hold &
hold=$!
wait_for 100 "skm-hold not ready" grep -q ready /tmp/bpf-hold
[ "$(skm_stat exclusive_sockets)" -gt 0 ] || fail "no exclusive socket with BPF on $F1 and $F2"
[ "$(skm_stat exclusive_pages)" -gt "$pages0" ] || fail "no exclusive pages with BPF on $F1 and $F2"
kill -TERM $hold
wait $hold
traffic "skmemcg and BPF"
grew a "skmemcg loaded"
grew b "skmemcg loaded"
unload
expect_eq "hooked after unload" "$(hooked_functions | wc -l)" 2
traffic "after unload"
grew a "after skmemcg's unload"
grew b "after skmemcg's unload"
bpf_stop a
bpf_stop b
expect_eq "hooked after both" "$(hooked_functions | wc -l)" 0

# 2. skmemcg first, entered directly (where it can be).
load exclusive=1
if [ "$(skm_stat hook_entry_direct)" = 1 ]; then
	skm-bpf $F1 fentry /tmp/bpf-c && fail "fentry attached on $F1 entered directly"
	# 6.x answers EBUSY (register_ftrace_direct()), 7.3 EINVAL
	case $(cat /tmp/bpf-c) in
	"attach EBUSY" | "attach Invalid argument") note "fentry on $F1 after skmemcg: $(cat /tmp/bpf-c)" ;;
	*) fail "fentry on $F1 after skmemcg: $(cat /tmp/bpf-c), not refused" ;;
	esac
	expect_eq "hooks direct after BPF's EBUSY" "$(skm_stat hooks_direct)" "$(echo $HOOKED_EXCLUSIVE | wc -w)"
	traffic "skmemcg after BPF's EBUSY"
	unload
	bpf_start $F1 fentry c
	expect_eq "fentry on $F1 once skmemcg is gone" "$(cat /tmp/bpf-c)" attached
	traffic "BPF after skmemcg"
	grew c "BPF after skmemcg"
	bpf_stop c
else
	unload
fi

# 3. skmemcg first, through ftrace_ops.
load exclusive=1 hook_entry=ops
expect_eq "hook_entry=ops" "$(skm_stat hook_entry_direct)" 0
bpf_start $F1 fentry d
expect_eq "fentry on $F1 after skmemcg (ops)" "$(cat /tmp/bpf-d)" attached
traffic "skmemcg (ops) and BPF"
grew d "skmemcg (ops) and BPF"
unload
traffic "BPF after skmemcg (ops)"
grew d "after skmemcg's (ops) unload"
bpf_stop d
expect_eq "hooked at the end" "$(hooked_functions | wc -l)" 0
exit 0
