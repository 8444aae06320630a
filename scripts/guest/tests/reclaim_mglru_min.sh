# SPDX-License-Identifier: GPL-2.0
# memory.min under reclaim of the parent (issue 40), after the upstream
# report "mm/mglru: fix ineffective memory protection for non-kswapd
# reclaim" (memory.min 100M, proactive reclaim of the parent left the child
# 6M under MGLRU). Small scale: parent P holds A, with memory.min MIN_MIB
# (default 64) and AFILL_MIB (128) of page cache, and B, unprotected, with
# BFILL_MIB (96); files on ext4 on a brd RAM disk (real page cache, no
# swap: only page cache is reclaimable). Each op starts from dropped caches
# and A and B refilled, then reclaims P from outside, never through kswapd:
#   reclaim  "RECLAIM_MIB M" (default 512) written to P's memory.reclaim,
#            RECLAIM_ROUNDS times (default 3), A read after each round
#   max      P's memory.max set to LIMIT_MIB (default 96): the writer
#            reclaims P down to it
#   high     the same through memory.high
#   maxload  P's memory.max at LIMIT_MIB and B reading its files twice more:
#            B's charges reclaim P (limit reclaim from the allocation)
#   rootreclaim  "RECLAIM_MIB M" written to the root cgroup's memory.reclaim,
#            RECLAIM_ROUNDS times: root reclaim, not kswapd, which MGLRU
#            (6.3+) does memcg by memcg through shrink_many()/shrink_one(),
#            not top-down; the upstream fix (in Debian's 6.12.118) computes
#            the protection along the path there. P has memory.min MIN_MIB
#            too, so that A's effective min under root reclaim is MIN_MIB.
#   rootstale  (not in the default MGLRU_OPS) rootreclaim after a root
#            reclaim with P's memory.min at 0, so that P's effective min
#            the kernel last computed is 0 while memory.min is MIN_MIB: the
#            state in which the upstream report's kernels computed A's from it.
#            On a 6.12 without the fix (stats:
#            reclaim_protection_path_by_skmemcg 1) skmemcg computes the
#            protection path itself: checked that it did
#            (reclaim_protection_paths) under MGLRU with a root op.
#            MGLRU_PATH_BY_SKMEMCG=1 also fails the case on a kernel where
#            it does not (the test command's boot of an unfixed 6.12).
# with /sys/kernel/mm/lru_gen/enabled on (mglru) and off (classic), stock
# (module not loaded) and under each of MGLRU_POLICIES (default cliff seed
# linear, loaded as reclaim_policy=...). One line a measurement:
#   MGLRU_MIN kernel=K lru=L policy=P op=O round=N min_mib=M current_mib=C b_mib=B held=yes|no
# held: A at least HOLD_PCT (default 90) % of memory.min. Checked: under
# every skmemcg policy A holds after every op; stock is only printed.
. /tests/lib.sh
. /tests/lib_burst.sh

MIN_MIB=${MIN_MIB:-64}
AFILL_MIB=${AFILL_MIB:-128}
BFILL_MIB=${BFILL_MIB:-96}
RECLAIM_MIB=${RECLAIM_MIB:-512}
RECLAIM_ROUNDS=${RECLAIM_ROUNDS:-3}
LIMIT_MIB=${LIMIT_MIB:-96}
HOLD_PCT=${HOLD_PCT:-90}
POLICIES=$(echo "stock ${MGLRU_POLICIES:-cliff seed linear}" | tr + ' ')
OPS=$(echo "${MGLRU_OPS:-reclaim max high maxload rootreclaim}" | tr + ' ')
P=/sys/fs/cgroup/mm
KVER=$(uname -r)

if [ -e /sys/kernel/mm/lru_gen/enabled ]; then
	lru_gen_saved=$(cat /sys/kernel/mm/lru_gen/enabled)
	LRUS=$(echo "${MGLRU_LRUS:-mglru classic}" | tr + ' ')
	trap 'echo "$lru_gen_saved" > /sys/kernel/mm/lru_gen/enabled' EXIT
	note "lru_gen/enabled at boot: $lru_gen_saved"
else
	LRUS=classic
	note "no /sys/kernel/mm/lru_gen: classic LRU only"
fi

modprobe brd rd_nr=1 rd_size=262144 || fail "modprobe brd"
modprobe_ext4 || fail "modprobe ext4"
mke2fs -q -b 4096 /dev/ram0 > /dev/null 2>&1 || fail "mke2fs"
mkdir -p /mnt/mm && mount -t ext4 /dev/ram0 /mnt/mm || fail "mount"
mkdir /mnt/mm/a /mnt/mm/b
# files of 16 MiB
for i in $(seq $((AFILL_MIB / 16))); do dd if=/dev/zero of=/mnt/mm/a/f$i bs=1M count=16 2> /dev/null; done
for i in $(seq $((BFILL_MIB / 16))); do dd if=/dev/zero of=/mnt/mm/b/f$i bs=1M count=16 2> /dev/null; done
sync
mkdir "$P" && echo +memory > "$P/cgroup.subtree_control" || fail "cgroup $P"
mkdir "$P/A" "$P/B"

mib() { echo $(( $(cat "$1/memory.current") >> 20 )); }
readall() { in_cgroup "$P/$1" sh -c "cat /mnt/mm/$2/* > /dev/null"; }

# refill: from dropped caches, A's and B's files read into them, P unlimited
refill() {
	echo max > "$P/memory.max"
	echo max > "$P/memory.high"
	echo 3 > /proc/sys/vm/drop_caches
	readall A a
	readall B b
	readall A a
}

fails=""
# measure LRU POLICY OP ROUND
measure() {
	_a=$(mib "$P/A")
	_held=no
	[ $((_a * 100)) -ge $((MIN_MIB * HOLD_PCT)) ] && _held=yes
	echo "MGLRU_MIN kernel=$KVER lru=$1 policy=$2 op=$3 round=$4 min_mib=$MIN_MIB current_mib=$_a b_mib=$(mib "$P/B") held=$_held"
	[ "$2" = stock ] || [ $_held = yes ] || fails="$fails $1/$2/$3/$4:${_a}M"
}

# op LRU POLICY OP
op() {
	refill
	echo "MGLRU_FILL lru=$1 policy=$2 op=$3 a_mib=$(mib "$P/A") b_mib=$(mib "$P/B")"
	case $3 in
	reclaim)
		for r in $(seq "$RECLAIM_ROUNDS"); do
			# -EAGAIN when less than asked could be reclaimed
			echo "${RECLAIM_MIB}M" > "$P/memory.reclaim" 2> /dev/null
			measure "$@" "$r"
		done ;;
	max)
		echo $((LIMIT_MIB << 20)) > "$P/memory.max" 2> /dev/null
		measure "$@" 1 ;;
	high)
		echo $((LIMIT_MIB << 20)) > "$P/memory.high" 2> /dev/null
		measure "$@" 1 ;;
	rootreclaim)
		for r in $(seq "$RECLAIM_ROUNDS"); do
			echo "${RECLAIM_MIB}M" > /sys/fs/cgroup/memory.reclaim 2> /dev/null
			measure "$@" "$r"
		done ;;
	rootstale)
		echo 0 > "$P/memory.min"
		echo "${RECLAIM_MIB}M" > /sys/fs/cgroup/memory.reclaim 2> /dev/null
		echo $((MIN_MIB << 20)) > "$P/memory.min"
		refill
		for r in $(seq "$RECLAIM_ROUNDS"); do
			echo "${RECLAIM_MIB}M" > /sys/fs/cgroup/memory.reclaim 2> /dev/null
			measure "$@" "$r"
		done ;;
	maxload)
		echo $((LIMIT_MIB << 20)) > "$P/memory.max" 2> /dev/null
		measure "$@" 1
		readall B b
		readall B b
		measure "$@" 2 ;;
	esac
	echo max > "$P/memory.max"
	echo max > "$P/memory.high"
}

echo $((MIN_MIB << 20)) > "$P/memory.min"
echo $((MIN_MIB << 20)) > "$P/A/memory.min"
for lru in $LRUS; do
	case $lru in
	mglru) echo y > /sys/kernel/mm/lru_gen/enabled ;;
	classic) [ -e /sys/kernel/mm/lru_gen/enabled ] && echo n > /sys/kernel/mm/lru_gen/enabled ;;
	esac
	note "lru=$lru lru_gen/enabled=$(cat /sys/kernel/mm/lru_gen/enabled 2> /dev/null)"
	for pol in $POLICIES; do
		# P is empty between ops: nothing runs in it while text is patched
		[ "$pol" = stock ] || load reclaim_policy="$pol"
		for o in $OPS; do
			op "$lru" "$pol" "$o"
		done
		if [ "$pol" != stock ]; then
			path_by=$(skm_stat reclaim_protection_path_by_skmemcg)
			paths=$(skm_stat reclaim_protection_paths)
			note "stats $lru $pol: shaped $(skm_stat reclaim_shaped) batches_held $(skm_stat reclaim_batches_held) layout_mismatch $(skm_stat reclaim_layout_mismatch) path_by_skmemcg ${path_by:--} protection_paths $paths"
			# a 6.12 without the fix: skmemcg computed the path itself
			[ "${MGLRU_PATH_BY_SKMEMCG:-0}" = 0 ] || [ "$path_by" = 1 ] ||
				fails="$fails $lru/$pol:path_by_skmemcg=${path_by:-none}"
			case "$lru $path_by $OPS" in
			"mglru 1 "*root*)
				[ "${paths:-0}" -gt 0 ] ||
					fails="$fails $lru/$pol:no-protection-path" ;;
			esac
			note "cgroups: $(grep '^/mm/A ' $DBG/cgroups)"
			unload
		fi
	done
done
umount /mnt/mm
[ -z "$fails" ] || fail "A below ${HOLD_PCT}% of memory.min ${MIN_MIB} MiB under skmemcg:$fails"
exit 0
