# SPDX-License-Identifier: GPL-2.0
# Helpers sourced by every guest test case.
set -u

DBG=/sys/kernel/debug/skmemcg
PAR=/sys/module/skmemcg/parameters
TRACING=/sys/kernel/tracing

# To stderr, which goes to the case's log too: a fail inside a function
# whose output is redirected (reclaim_curves' "sweep > file") must not be
# lost with it.
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

note() {
	echo "$*"
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# The knobs a loaded module mirrors in debugfs: every writable parameter.
knobs() {
	for f in "$PAR"/*; do
		[ -w "$f" ] && basename "$f"
	done
}

# stat NAME: a value from debugfs stats.
skm_stat() {
	awk -v k="$1" '$1 == k { print $2 }' "$DBG/stats"
}

# The kernel functions skmemcg hooks (module/main.c; 7.x renamed the memcg
# charge and has no mem_cgroup_size(): module/sock_compat.h,
# module/vmscan_compat.h). ACCEPT_FN, where an accepted child's memcg is
# bound, is not hooked (blocked_waits checks it).
# Reclaim: 7.x's apply_proportional_protection() serves both LRUs, 6.x has
# mem_cgroup_size() for the classic LRU and evict_folios() for MGLRU.
case $(uname -r) in
7.*)
	SK_CHARGE_FN=mem_cgroup_sk_charge SK_UNCHARGE_FN=mem_cgroup_sk_uncharge
	ACCEPT_FN=__inet_accept
	RECLAIM_SIZE_FN=apply_proportional_protection EVICT_FN= ;;
*)
	SK_CHARGE_FN=mem_cgroup_charge_skmem SK_UNCHARGE_FN=mem_cgroup_uncharge_skmem
	ACCEPT_FN=inet_csk_accept
	RECLAIM_SIZE_FN=mem_cgroup_size EVICT_FN=evict_folios ;;
esac
# Per policy (module/main.c): each is hooked only while a policy that needs
# it is on; mem_cgroup_css_free while any is, mem_cgroup_css_online while a
# policy with a cgroup list (throttle, exclusive, limit) is.
HOOKED_THROTTLE="__sk_mem_raise_allocated $SK_CHARGE_FN vmpressure mem_cgroup_css_online mem_cgroup_css_free"
HOOKED_EXCLUSIVE="__sk_mem_raise_allocated __sk_mem_reduce_allocated sk_forced_mem_schedule mem_cgroup_sk_alloc mem_cgroup_sk_free mem_cgroup_css_online mem_cgroup_css_free"
HOOKED_RECLAIM="$RECLAIM_SIZE_FN $EVICT_FN mem_cgroup_css_free"
HOOKED_LIMIT="__sk_mem_raise_allocated $SK_CHARGE_FN $SK_UNCHARGE_FN mem_cgroup_css_online mem_cgroup_css_free"
HOOKED="__sk_mem_raise_allocated __sk_mem_reduce_allocated $SK_CHARGE_FN $SK_UNCHARGE_FN sk_forced_mem_schedule mem_cgroup_sk_alloc mem_cgroup_sk_free vmpressure $RECLAIM_SIZE_FN $EVICT_FN mem_cgroup_css_online mem_cgroup_css_free"
NHOOKS=$(echo $HOOKED | wc -w)
# The knobs that turn every policy on (all NHOOKS functions hooked): the
# limit's needs a cgroup listed (a waiting entry will do).
ALL_POLICIES="throttle=1 exclusive=1 reclaim_policy=linear sock_limits=+/skm_all_policies=1G"

# hooked_functions: those of them in ftrace's enabled_functions.
hooked_functions() {
	grep -E "^($(echo $HOOKED | tr ' ' '|')) " "$TRACING/enabled_functions"
}
# hooked_names: the same, names only, sorted, on one line
hooked_names() {
	hooked_functions | awk '{ print $1 }' | sort | tr '\n' ' ' | sed 's/ $//'
}
# names_of LIST...: the functions of these lists, sorted, each once, on one line
names_of() {
	echo "$@" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# load PARAM...: skmemcg with these parameters; with SKM_KO set, that file
# (another build, scripts/bench-ab.sh) instead of the installed module
load() {
	if [ -n "${SKM_KO:-}" ]; then
		insmod "$SKM_KO" "$@" || fail "insmod $SKM_KO $*"
	else
		modprobe skmemcg "$@" || fail "modprobe skmemcg $*"
	fi
}

unload() {
	rmmod skmemcg || fail "rmmod skmemcg"
}

# cgroup_stop CG: kill every process in cgroup CG (the loops and what they
# run, not just the subshell $! names) and wait until it is empty.
cgroup_stop() {
	echo 1 > "$1/cgroup.kill"
	_n=0
	while [ -n "$(cat "$1/cgroup.procs")" ]; do
		_n=$((_n + 1))
		[ $_n -lt 100 ] || fail "processes left in $1: $(cat "$1/cgroup.procs" | tr '\n' ' ')"
		sleep 0.1
	done
}

# flush_stocks: the kernel caches a memcg's uncharged pages per CPU, with a
# reference to it, until that CPU charges another memcg; an idle guest would
# keep a removed memcg (a zombie) forever. Charge from a scratch cgroup on
# every CPU (in_cgroup is in lib_burst.sh).
flush_stocks() {
	mkdir -p /sys/fs/cgroup/skm_flush
	for _cpu in $(seq 0 $(($(grep -c ^processor /proc/cpuinfo) - 1))); do
		in_cgroup /sys/fs/cgroup/skm_flush taskset -c "$_cpu" skm-hog -r 1 -w 1 -t 1 > /dev/null
	done
	rmdir /sys/fs/cgroup/skm_flush
}

# wait_list LIST-FILE PATTERN WANT: until the line of LIST-FILE matching
# PATTERN reads WANT. An entry waits again once its cgroup's memcg is
# freed, which a removed cgroup's last cached charge can delay: flush them.
wait_list() {
	_n=0
	while [ "$(grep -e "$2" "$1")" != "$3" ]; do
		_n=$((_n + 1))
		[ $((_n % 30)) -eq 29 ] && flush_stocks
		[ $_n -lt 200 ] || fail "$1: '$(grep -e "$2" "$1")', not '$3', after 20 s"
		sleep 0.1
	done
}

# wait_for TENTHS WHAT CMD...: run CMD every 0.1 s until it succeeds; fail
# with "WHAT" after TENTHS tries.
wait_for() {
	_tries=$1 _what=$2
	shift 2
	_n=0
	until "$@"; do
		_n=$((_n + 1))
		[ $_n -lt "$_tries" ] || fail "$_what"
		sleep 0.1
	done
}

# modprobe_ext4: ext4, with crc32c_generic first where the kernel has it
# (6.x's ext4 asks the crypto API for crc32c by name; 7.x's depends on what
# it needs, and has no crc32c_generic).
modprobe_ext4() {
	if [ -n "$(find /lib/modules/"$(uname -r)" -name 'crc32c_generic.ko*')" ]; then
		modprobe crc32c_generic || return 1
	fi
	modprobe ext4
}
