# SPDX-License-Identifier: GPL-2.0
# Seed 003's experiment at small scale, per reclaim_policy, on the classic
# LRU and on MGLRU. Parent P (memory.max 96 MiB) holds A, the protected
# workload, and B, its neighbour, each reading random pages of its 64 MiB
# of files (A's is its working set W) as fast as it can: together they need
# 128 MiB, so at memory.low = 0 both are reclaimed alike. Random, not in a
# loop: a loop over W pages that holds u < W misses every read, which made
# A on the classic LRU all active and unscanned or all inactive and scanned
# at the full rate, whatever the policy (RECLAIM_ACCESS=loop keeps that
# form; skm-reread.c says why). memory.low of A steps down
# 72, 60, 42, 28, 14, 0 MiB (the seed's 21G, 17G, 12G, 8G, 4G, 0 for W = 19G);
# each step drops the page cache and waits RECLAIM_SETTLE seconds (default
# 3) for A to refill, and longer while A still grows, then A's
# pgscan rate
# (memory.stat) is taken over
# RECLAIM_WIN seconds (default 6) and given in % of its rate at low = 0,
# measured last. Files live on ext4 on a brd RAM disk: real page cache.
# Each sweep starts its own two readers and stops them by their cgroups.
#
# Checked, per LRU: every policy protects A fully at low > W (<= 10%);
# seed and linear ramp (14 MiB at least 20 points above 60 MiB) and keep
# more of A than cliff where cliff jumps, just below W: at 42 MiB, A's
# usage at least 5 MiB above cliff's (usage is the mean
# of one sample a second over the window). cliff's jump in scan rate at
# 60, 42 and 28 MiB is printed, not judged: one window is too noisy to
# rank two policies by rate. Needs cliff,
# seed and linear in RECLAIM_POLICIES; a policy there may carry knobs after
# a colon ("seed:reclaim_dither=0" loads reclaim_policy=seed reclaim_dither=0).
# Each measurement prints an "RC" line, which scripts/reclaim-plot.sh turns
# into a PNG.
#
# The shapes presume A holds its working set under full protection: at
# low = 72 its usage at least RECLAIM_PREMISE_MIB (58) for every policy
# (stock kernels: 63-64 MiB in every run). RECLAIM_PREMISE=hard (default)
# fails when it does not; soft (make check-debug) notes it and judges no
# shape on that LRU, only full protection above W: on the debug kernel the
# readers, slowed by KASAN, kept A at 40-56 MiB at low = 72 (2026-12-03).
. /tests/lib.sh
. /tests/lib_burst.sh

WIN=${RECLAIM_WIN:-6}
# 3 s until 2026-12-03: A's mean usage under full protection then read 58
# to 64 MiB, the low end a refill still under way. 5 s until 2026-12-07,
# when every step began to wait on while A still grows (below): 3 s again,
# the growth decides the rest.
SETTLE=${RECLAIM_SETTLE:-3}
DEFAULT_STEPS="72 60 42 28 14 0"
# RECLAIM_STEPS: other memory.low steps in MiB, highest first, ending in 0
# (e.g. 72+57+40+27+13+0, the seed's 0.89, 0.63, 0.42, 0.21 of W); the
# shape checks below are written for the default steps and are left out
# with others: such a run only measures.
STEPS=$(echo "${RECLAIM_STEPS:-$DEFAULT_STEPS}" | tr + ' ')
# Lists separated by spaces or "+" (vm.sh -e cannot pass spaces).
POLICIES=$(echo "${RECLAIM_POLICIES:-kernel cliff seed linear}" | tr + ' ')
LRUS=$(echo "${RECLAIM_LRUS:-classic mglru}" | tr + ' ')
# RECLAIM_REPEAT: sweep the policies that many times in turn, per LRU
# (default 1). More than once only measures: each sweep prints its RC
# lines, and scripts/reclaim-seedfit.sh takes the median of each point.
REPEAT=${RECLAIM_REPEAT:-1}
P=/sys/fs/cgroup/rc
lru_gen_saved=$(cat /sys/kernel/mm/lru_gen/enabled)
# umount: a failed check must not leave /dev/ram0 mounted for the next
# case of the boot (reclaim_mglru_min formats it).
trap 'rm -f /tmp/rc.age; echo "$lru_gen_saved" > /sys/kernel/mm/lru_gen/enabled; umount /mnt/rc 2> /dev/null || true' EXIT

modprobe brd rd_nr=1 rd_size=262144 || fail "modprobe brd"
modprobe_ext4 || fail "modprobe ext4"
mke2fs -q -b 4096 /dev/ram0 > /dev/null 2>&1 || fail "mke2fs"
mkdir -p /mnt/rc && mount -t ext4 /dev/ram0 /mnt/rc || fail "mount"
mkdir /mnt/rc/a /mnt/rc/b
for i in 1 2 3 4; do dd if=/dev/zero of=/mnt/rc/a/f$i bs=1M count=16 2> /dev/null; done
for i in 1 2 3 4; do dd if=/dev/zero of=/mnt/rc/b/f$i bs=1M count=16 2> /dev/null; done
sync
mkdir "$P" && echo +memory > "$P/cgroup.subtree_control" || fail "cgroup $P"
echo $((96 << 20)) > "$P/memory.max"
mkdir "$P/A" "$P/B"

# freeze / thaw P around module load and unload and LRU switches: text is
# patched then (ftrace sites, static keys), and under QEMU TCG a vCPU that
# runs patched code meanwhile has died on a stale int3 (CI8, CI12).
freeze() {
	echo 1 > "$P/cgroup.freeze"
	n=0
	until grep -q '^frozen 1' "$P/cgroup.events" || [ $n -ge 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}
thaw() { echo 0 > "$P/cgroup.freeze"; }

pgscan() { awk '$1 == "pgscan" { print $2 }' "$P/A/memory.stat"; }
# A's pages moved off its active lists (pgrefill: scanned there, not counted
# in pgscan), and its inactive / active file pages now, MiB.
refill() { awk '$1 == "pgrefill" { print $2 }' "$P/A/memory.stat"; }
lists_mib() { awk '$1 == "inactive_file" { i = $2 } $1 == "active_file" { a = $2 } END { print i / 1048576, a / 1048576 }' "$P/A/memory.stat"; }
# stats CG: what tells where reclaim went
stats() {
	echo "current $(( $(cat "$1/memory.current") >> 20 ))M" \
		"$(awk '$1 ~ /^(pgscan|pgsteal|workingset_refault_file|workingset_activate_file|active_file|inactive_file)$/ { printf "%s %s ", $1, $2 }' "$1/memory.stat")"
}
usage_mib() { echo $(( $(cat "$P/A/memory.current") >> 20 )); }

# MGLRU evicts only from a memcg with at least three generations; with two
# it needs aging, which memcg reclaim skips at the default priority. With
# nothing else to press the node, nobody ages them: on 6.1 whichever of A
# and B was down to two generations kept all its pages, at any memory.low,
# while the other supplied every reclaim (seen in 3 of 8 sweeps). kswapd
# ages every memcg when a node is short of memory; age_memcgs does that
# here, once a second for A and B alike, through MGLRU's debugfs interface
# ("+ memcg_id node_id max_seq"). Returns when /tmp/rc.age goes away.
age_memcgs() {
	while [ -e /tmp/rc.age ]; do
		awk '$1 == "memcg" { path = $3; id = $2; next }
		     $1 == "node" { node = $2; next }
		     path == "/rc/A" || path == "/rc/B" { seq[id " " node] = $1 }
		     END { for (k in seq) print "+ " k " " seq[k] }' /sys/kernel/debug/lru_gen |
		while read -r cmd; do
			echo "$cmd" > /sys/kernel/debug/lru_gen 2> /dev/null
		done
		sleep 1
	done
}

# One reader in A and one in B, started afresh for each sweep.
# RECLAIM_RATE_A / RECLAIM_RATE_B: pace that reader, MiB/s (skm-reread -r;
# default 0, as fast as it can). RECLAIM_ACCESS: random (default, skm-reread
# -R) or loop (both read their files in order, again and again).
# RECLAIM_SEED: the random readers' seed (A's; B's is one more), the same
# pages in the same order in every run (deterministic mode, with vm.sh -I);
# default each reader's process id.
start_readers() {
	_mode=-R _sa= _sb=
	if [ -n "${RECLAIM_SEED:-}" ]; then
		_sa="-S $RECLAIM_SEED" _sb="-S $((RECLAIM_SEED + 1))"
	fi
	[ "${RECLAIM_ACCESS:-random}" = loop ] && _mode= _sa= _sb=
	# shellcheck disable=SC2086 # -S and its seed, or nothing
	in_cgroup "$P/A" skm-reread $_mode $_sa -r "${RECLAIM_RATE_A:-0}" /mnt/rc/a/f1 /mnt/rc/a/f2 /mnt/rc/a/f3 /mnt/rc/a/f4 > /dev/null &
	# shellcheck disable=SC2086
	in_cgroup "$P/B" skm-reread $_mode $_sb -r "${RECLAIM_RATE_B:-0}" /mnt/rc/b/f1 /mnt/rc/b/f2 /mnt/rc/b/f3 /mnt/rc/b/f4 > /dev/null &
	n=0
	while [ "$(cat "$P/A/cgroup.procs" "$P/B/cgroup.procs" | wc -l)" -lt 2 ]; do
		n=$((n + 1))
		[ $n -lt 100 ] || fail "readers did not start"
		sleep 0.1
	done
}
# Stopped by their cgroups: $! would name the subshell around in_cgroup, and
# killing that left the reader running into every later sweep.
stop_readers() {
	cgroup_stop "$P/A"
	cgroup_stop "$P/B"
	sleep 2		# let reclaim in P settle before the module may go
}

# sweep LRU POLICY: from dropped caches and 6 s at low = 0, every step;
# leaves "low usage rate" lines in /tmp/rc.
sweep() {
	echo 0 > "$P/A/memory.low"
	echo 3 > /proc/sys/vm/drop_caches
	start_readers
	sleep 6
	: > /tmp/rc
	for low in $STEPS; do
		[ "$(cat "$P/A/cgroup.procs" "$P/B/cgroup.procs" | wc -l)" -eq 2 ] ||
			fail "$1 $2: want one reader in A and one in B, have $(cat "$P/A/cgroup.procs" "$P/B/cgroup.procs" | wc -l)"
		echo $((low << 20)) > "$P/A/memory.low"
		# Every step from dropped caches: under MGLRU, pages A kept
		# while protected sit in young generations that reclaim in P
		# never ages once B's old ones supply it, so without this A
		# would keep what an earlier step protected.
		echo 3 > /proc/sys/vm/drop_caches
		sleep "$SETTLE"
		# Each step waits on while A still grows by 0.5 MiB a second
		# or more (over the last 2 s once there are 2), RECLAIM_REFILL_MAX (15) s at
		# most, counted in the RS line: the window measures where A
		# settles, not its refill from the dropped caches. The first
		# step, above W, is the premise checked below: on the host of
		# a test run of 2026-12-07 (AMD EPYC) 5 s was not enough there
		# (A read 57 MiB under seed on both LRUs and the stock
		# kernel's 60, where 63-64 had been the rule). Below W the
		# window opened on a refill too: in CI of 538d2a8 (passed),
		# at low 42 under seed and linear, A's lists at the window's
		# end held 1.2 to 6.8 MiB more than its mean usage over it on
		# every kernel and LRU (6.12 MGLRU linear: mean 53, 57.1 at
		# the end, cliff's mean 47; the usage check asks 5 more).
		more=0
		_b0=$(cat "$P/A/memory.current")
		_b1=$_b0
		while [ $more -lt "${RECLAIM_REFILL_MAX:-15}" ]; do
			sleep 1
			more=$((more + 1))
			_b2=$(cat "$P/A/memory.current")
			# 0.5 MiB over the first second, 1 MiB over 2 s after
			if [ $more -lt 2 ]; then
				[ $((_b2 - _b0)) -ge $((1 << 19)) ] || break
			else
				[ $((_b2 - _b0)) -ge $((1 << 20)) ] || break
			fi
			_b0=$_b1
			_b1=$_b2
		done
		s0=$(pgscan)
		r0=$(refill)
		# usage: the mean of one sample a second over the window
		sum=0
		for _s in $(seq "$WIN"); do
			sleep 1
			sum=$((sum + $(usage_mib)))
		done
		s1=$(pgscan)
		echo "RS $1 $2 $low refill/s $(( ($(refill) - r0) / WIN )) inactive/active MiB $(lists_mib) settled +${more}s" >&2
		echo "$low $((sum / WIN)) $(( (s1 - s0) / WIN ))" >> /tmp/rc
	done
	stop_readers
	base=$(awk '$1 == 0 { print $3 }' /tmp/rc)
	[ "$base" -gt 0 ] || fail "$1 $2: A not scanned at all at memory.low = 0 (A: $(stats "$P/A"); B: $(stats "$P/B"))"
	while read -r low use rate; do
		echo "RC $1 $2 $low $use $rate $(( rate * 100 / base ))"
	done < /tmp/rc
}

# pct LRU POLICY LOW: the measured %, from /tmp/curves
pct() { awk -v l="$1" -v p="$2" -v m="$3" '$2 == l && $3 == p && $4 == m { print $7 }' /tmp/curves; }

: > /tmp/curves
for lru in $LRUS; do
	freeze
	[ $lru = classic ] && echo n > /sys/kernel/mm/lru_gen/enabled
	[ $lru = mglru ] && echo y > /sys/kernel/mm/lru_gen/enabled
	thaw
	# Warm up: the first sweep after a switch starts from a cold LRU.
	echo 3 > /proc/sys/vm/drop_caches
	start_readers
	sleep 10
	stop_readers
	for pol in $(for _r in $(seq "$REPEAT"); do echo $POLICIES; done); do
		freeze
		# shellcheck disable=SC2046 # "seed:reclaim_dither=0": knobs after the name
		load reclaim_policy=${pol%%:*} $(echo "$pol" | sed -n 's/^[^:]*://p' | tr : ' ')
		thaw
		if [ $lru = mglru ]; then
			touch /tmp/rc.age
			age_memcgs &
			ager=$!
		fi
		sweep $lru $pol > /tmp/sweep
		if [ $lru = mglru ]; then
			rm -f /tmp/rc.age
			wait $ager
		fi
		cat /tmp/sweep
		cat /tmp/sweep >> /tmp/curves
		if [ "${pol%%:*}" != kernel ]; then
			[ "$(skm_stat reclaim_shaped)" -gt 0 ] || fail "$lru $pol: nothing shaped"
			note "cgroups: $(grep '^/rc/A ' $DBG/cgroups)"
			# B has no protection: never shaped.
			grep '^/rc/B ' $DBG/cgroups | awk '$NF != "-"' | grep -q . &&
				fail "$lru $pol: unprotected B was shaped: $(grep '^/rc/B ' $DBG/cgroups)"
		fi
		freeze
		unload
		thaw
	done
done

if [ "$REPEAT" -gt 1 ]; then
	note "$REPEAT sweeps a policy: no table, no shape checks (scripts/reclaim-seedfit.sh)"
	umount /mnt/rc
	exit 0
fi

# The table: % of the unprotected rate (usage MiB in parentheses).
for lru in $LRUS; do
	printf '%-8s %-7s' "$lru" policy
	for low in $STEPS; do printf ' %11s' "low=$low"; done
	echo
	for pol in $POLICIES; do
		printf '%-8s %-7s' "" "$pol"
		for low in $STEPS; do
			printf ' %11s' "$(awk -v l=$lru -v p=$pol -v m=$low \
				'$2 == l && $3 == p && $4 == m { printf "%d%% (%d)", $7, $5 }' /tmp/curves)"
		done
		echo
	done
done

if [ "$STEPS" != "$DEFAULT_STEPS" ]; then
	note "steps $STEPS: shape checks left out (written for $DEFAULT_STEPS)"
	umount /mnt/rc
	exit 0
fi

# use LRU POLICY LOW: A's usage then, MiB
use() { awk -v l="$1" -v p="$2" -v m="$3" '$2 == l && $3 == p && $4 == m { print $5 }' /tmp/curves; }
PREMISE_MIB=${RECLAIM_PREMISE_MIB:-58}
for lru in $LRUS; do
	for pol in $POLICIES; do
		[ "$(pct $lru $pol 72)" -le 10 ] || fail "$lru $pol: $(pct $lru $pol 72)% at low > W"
	done
	short=""
	for pol in $POLICIES; do
		[ "$(use $lru $pol 72)" -ge "$PREMISE_MIB" ] || short="$short $pol:$(use $lru $pol 72)"
	done
	if [ -n "$short" ]; then
		what="$lru: A below $PREMISE_MIB MiB under full protection (low 72; policy:MiB$short)"
		[ "${RECLAIM_PREMISE:-hard}" = soft ] || fail "$what"
		note "$what: no shape judged on $lru (RECLAIM_PREMISE=soft)"
		continue
	fi
	cliff_use=$(use $lru cliff 42)
	for pol in seed linear; do
		[ "$(pct $lru $pol 14)" -ge $(( $(pct $lru $pol 60) + 20 )) ] ||
			fail "$lru $pol: no ramp ($(pct $lru $pol 60)% at 60, $(pct $lru $pol 14)% at 14)"
		# The jump, in what A keeps: at 42, below A's ~60 MiB, cliff
		# gives A's protection up and A falls to its share of P (as
		# at low = 0), while proportional keeps part of it (seed
		# scans (60 - 42) / 42 = 0.43 of what cliff scans).
		u=$(use $lru $pol 42)
		[ "$u" -ge $(( cliff_use + 5 )) ] ||
			fail "$lru $pol: usage $u MiB at low 42, cliff $cliff_use"
		# The jump in scan rate, reported, not judged: with random
		# readers a step's 6 s window is too noisy to rank two
		# policies (7.3's MGLRU, the test run of edc004c: cliff 33, 83, 117% at
		# 60, 42, 28 against seed's 20, 98, 111%, while A held 47
		# MiB under cliff and 55 under seed at 42).
		d=""
		for low in 60 42 28; do
			d="$d $(( $(pct $lru cliff $low) - $(pct $lru $pol $low) ))"
		done
		note "$lru $pol: cliff's rate minus $pol's at low 60, 42, 28:$d points"
	done
done
umount /mnt/rc
exit 0
