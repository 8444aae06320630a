# SPDX-License-Identifier: GPL-2.0
# The comparison users make (docs/cgroup-lists.md): the workload of the
# sock_limits case under cgroup v1's memory.kmem.tcp.limit_in_bytes. A boot
# of its own (6.1 only: later kernels dropped v1's kmem.tcp files): the
# memory controller is taken off cgroup2's root and mounted as a v1
# hierarchy. Cgroup A gets a TCP limit of CMP_LIMIT_KIB (default 2048) and
# runs (1) CMP_CONNS (default 8) connections queueing CMP_KIB (default
# 2048) KiB each, unread: the TCP memory held (kmem.tcp usage and its
# max); (2) skm-tcp, CMP_MIB (default 16) MiB over each of CMP_CONNS
# connections, read: bytes and MiB/s; and the OOM kills. One line
# "COMPARE v1 ..." for scripts/compare-table.sh; the sock_limits case
# prints "COMPARE v2 ..." the same way. skmemcg is not loaded here.
. /tests/lib.sh
. /tests/lib_burst.sh

LIMIT_KIB=${CMP_LIMIT_KIB:-2048}
CONNS=${CMP_CONNS:-8}
KIB=${CMP_KIB:-2048}
MIB=${CMP_MIB:-16}
V1=/tmp/cgroup-v1	# (sysfs refuses mkdir: a directory of our own)

echo -memory > /sys/fs/cgroup/cgroup.subtree_control ||
	fail "cannot take memory off cgroup2's root: $(cat /sys/fs/cgroup/cgroup.subtree_control)"
mkdir -p $V1
n=0
until mount -t cgroup -o memory memory $V1 2> /tmp/v1.err; do
	# (the memcgs of cgroup2 must be gone first)
	n=$((n + 1))
	[ $n -lt 100 ] || fail "cannot mount the v1 memory controller: $(cat /tmp/v1.err)"
	sleep 0.1
done
[ -e $V1/memory.kmem.tcp.limit_in_bytes ] || fail "no memory.kmem.tcp.* in this kernel's v1"
mkdir $V1/a
echo $((LIMIT_KIB * 1024)) > $V1/a/memory.kmem.tcp.limit_in_bytes ||
	fail "cannot set memory.kmem.tcp.limit_in_bytes"

# (1) held
hold_start $V1/a v1 "$CONNS" "$KIB"
held=$(( $(cat $V1/a/memory.kmem.tcp.usage_in_bytes) / 1024 ))
kill $pid
wait $pid
# (2) throughput, read
echo 0 > $V1/a/memory.kmem.tcp.max_usage_in_bytes
out=$(sh -c 'echo $$ > "$0/cgroup.procs" && exec skm-tcp -b "$1" -c "$2"' $V1/a "$MIB" "$CONNS") ||
	fail "skm-tcp under the v1 limit: $out"
max=$(( $(cat $V1/a/memory.kmem.tcp.max_usage_in_bytes) / 1024 ))
failcnt=$(cat $V1/a/memory.kmem.tcp.failcnt)
kills=$(awk '$1 == "oom_kill" { print $2 }' $V1/a/memory.oom_control)
note "COMPARE v1 limit_kib=$LIMIT_KIB held_kib=$held max_kib=$max $out failcnt=$failcnt oom_kills=${kills:-0}"
[ "${kills:-0}" -eq 0 ] || fail "OOM kills under the v1 TCP limit"
rmdir $V1/a
umount $V1
exit 0
