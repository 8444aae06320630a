# SPDX-License-Identifier: GPL-2.0
# Seed 003's experiment at small scale, per reclaim_policy, on the classic
# LRU and on MGLRU. Parent P (memory.max 128 MiB) holds A, the protected
# workload, re-reading 64 MiB of files (its working set W) at 16 MiB/s, and
# B, re-reading 128 MiB as fast as it can. memory.low of A steps down
# 72, 60, 42, 28, 14, 0 MiB (the seed's 21G, 17G, 12G, 8G, 4G, 0 for W = 19G);
# each step waits 3 s, then A's pgscan rate (memory.stat) is taken over
# RECLAIM_WIN seconds (default 6) and given in % of its rate at low = 0,
# measured last. Files live on ext4 on a brd RAM disk: real page cache.
#
# Checked, per LRU: every policy protects A fully at low > W (<= 10%);
# cliff jumps: at some step just below W (60, 42 or 28 MiB) it scans A at
# least 20 points harder than seed and than linear; seed and linear ramp
# (14 MiB at least 20 points above 60 MiB) and keep more of A than cliff
# (usage at 42 and 28 summed at least 10 MiB above cliff's). Needs cliff,
# seed and linear in RECLAIM_POLICIES.
# Each measurement prints an "RC" line, which scripts/reclaim-plot.sh turns
# into a PNG.
. /tests/lib.sh
. /tests/lib_burst.sh

WIN=${RECLAIM_WIN:-6}
STEPS="72 60 42 28 14 0"
POLICIES=${RECLAIM_POLICIES:-kernel cliff seed linear}
P=/sys/fs/cgroup/rc
lru_gen_saved=$(cat /sys/kernel/mm/lru_gen/enabled)
trap 'echo "$lru_gen_saved" > /sys/kernel/mm/lru_gen/enabled' EXIT

modprobe brd rd_nr=1 rd_size=262144 || fail "modprobe brd"
modprobe crc32c_generic && modprobe ext4 || fail "modprobe ext4"
mke2fs -q -b 4096 /dev/ram0 > /dev/null 2>&1 || fail "mke2fs"
mkdir -p /mnt/rc && mount -t ext4 /dev/ram0 /mnt/rc || fail "mount"
mkdir /mnt/rc/a /mnt/rc/b
for i in 1 2 3 4; do dd if=/dev/zero of=/mnt/rc/a/f$i bs=1M count=16 2> /dev/null; done
for i in 1 2 3 4 5 6 7 8; do dd if=/dev/zero of=/mnt/rc/b/f$i bs=1M count=16 2> /dev/null; done
sync
mkdir "$P" && echo +memory > "$P/cgroup.subtree_control" || fail "cgroup $P"
echo $((128 << 20)) > "$P/memory.max"
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
usage_mib() { echo $(( $(cat "$P/A/memory.current") >> 20 )); }

start_readers() {
	in_cgroup "$P/A" skm-reread -r 16 /mnt/rc/a/f1 /mnt/rc/a/f2 /mnt/rc/a/f3 /mnt/rc/a/f4 > /dev/null &
	ra=$!
	in_cgroup "$P/B" skm-reread /mnt/rc/b/f1 /mnt/rc/b/f2 /mnt/rc/b/f3 /mnt/rc/b/f4 \
		/mnt/rc/b/f5 /mnt/rc/b/f6 /mnt/rc/b/f7 /mnt/rc/b/f8 > /dev/null &
	rb=$!
}
stop_readers() {
	kill "$ra" "$rb"
	wait "$ra" "$rb" 2> /dev/null
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
		echo $((low << 20)) > "$P/A/memory.low"
		sleep 3
		s0=$(pgscan)
		sleep "$WIN"
		s1=$(pgscan)
		echo "$low $(usage_mib) $(( (s1 - s0) / WIN ))" >> /tmp/rc
	done
	stop_readers
	base=$(awk '$1 == 0 { print $3 }' /tmp/rc)
	[ "$base" -gt 0 ] || fail "$1 $2: A not scanned at all at memory.low = 0"
	while read -r low use rate; do
		echo "RC $1 $2 $low $use $rate $(( rate * 100 / base ))"
	done < /tmp/rc
}

# pct LRU POLICY LOW: the measured %, from /tmp/curves
pct() { awk -v l="$1" -v p="$2" -v m="$3" '$2 == l && $3 == p && $4 == m { print $7 }' /tmp/curves; }

: > /tmp/curves
for lru in classic mglru; do
	freeze
	[ $lru = classic ] && echo n > /sys/kernel/mm/lru_gen/enabled
	[ $lru = mglru ] && echo y > /sys/kernel/mm/lru_gen/enabled
	thaw
	# Warm up: the first sweep after a switch starts from a cold LRU.
	echo 3 > /proc/sys/vm/drop_caches
	start_readers
	sleep 10
	stop_readers
	for pol in $POLICIES; do
		freeze
		load reclaim_policy=$pol
		thaw
		sweep $lru $pol > /tmp/sweep
		cat /tmp/sweep
		cat /tmp/sweep >> /tmp/curves
		if [ $pol != kernel ]; then
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

# The table: % of the unprotected rate (usage MiB in parentheses).
for lru in classic mglru; do
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

# use LRU POLICY LOW: A's usage then, MiB
use() { awk -v l="$1" -v p="$2" -v m="$3" '$2 == l && $3 == p && $4 == m { print $5 }' /tmp/curves; }
for lru in classic mglru; do
	for pol in $POLICIES; do
		[ "$(pct $lru $pol 72)" -le 10 ] || fail "$lru $pol: $(pct $lru $pol 72)% at low > W"
	done
	cliff_use=$(( $(use $lru cliff 42) + $(use $lru cliff 28) ))
	for pol in seed linear; do
		[ "$(pct $lru $pol 14)" -ge $(( $(pct $lru $pol 60) + 20 )) ] ||
			fail "$lru $pol: no ramp ($(pct $lru $pol 60)% at 60, $(pct $lru $pol 14)% at 14)"
		# the jump: just below W, cliff scans far harder at some step
		jump=0
		for low in 60 42 28; do
			[ "$(pct $lru cliff $low)" -ge $(( $(pct $lru $pol $low) + 20 )) ] && jump=1
		done
		[ $jump -eq 1 ] ||
			fail "$lru: cliff never scans 20 points above $pol at low 60, 42 or 28"
		# usage at low = 42 and 28 together: proportional keeps more
		u=$(( $(use $lru $pol 42) + $(use $lru $pol 28) ))
		[ "$u" -ge $(( cliff_use + 10 )) ] ||
			fail "$lru $pol: usage $u MiB at low 42 + 28, cliff $cliff_use"
	done
done
umount /mnt/rc
exit 0
