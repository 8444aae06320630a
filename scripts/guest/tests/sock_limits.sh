# SPDX-License-Identifier: GPL-2.0
# sock_limits, cgroup v1's memory.kmem.tcp.limit_in_bytes for cgroup v2:
# cgroup A (limit SL_LIMIT_KIB, default 2048) and its sibling B (none) each
# open SL_CONNS (default 8) loopback connections and queue SL_KIB (default
# 2048) KiB on each, which nobody reads: 16 MiB each unlimited. A's socket
# memory (memory.stat "sock", the kernel's own count) stays within its
# limit plus the documented slack, SL_SLACK_KIB (default 256) per
# connection (the sender: its minimum buffer and the skb forced past its
# moderated sndbuf; the receiver: its minimum buffer; each up to a 64 KiB
# loopback skb); B takes at least 1 MiB more than A held. The "cgroups"
# line of A shows its limit, its socket memory and suppressed allocations;
# the tracepoint says reason=limit; nothing is OOM-killed. Then: raising
# A's limit live lets it grow (1 MiB past what it held); a limit given at
# load for a cgroup made later holds; a nested limit (A/n, under A's)
# holds; a limit set on a cgroup whose sockets charged before holds to
# new sockets there, at one limited level too; a line of five limited
# levels holds to the deepest; rmdir with a limit set frees the state and
# the entry waits again.
. /tests/lib.sh
. /tests/lib_burst.sh

CG=/sys/fs/cgroup
LIMIT_KIB=${SL_LIMIT_KIB:-2048}
CONNS=${SL_CONNS:-8}
KIB=${SL_KIB:-2048}
SLACK_KIB=${SL_SLACK_KIB:-256}
TRACING=/sys/kernel/tracing
bound_kib=$((LIMIT_KIB + CONNS * SLACK_KIB))

sock_kib() { awk '$1 == "sock" { print int($2 / 1024) }' "$1/memory.stat"; }
cg_col() { # CGROUP-PATH COLUMN: a column of that cgroup's "cgroups" line
	awk -v p="$1" -v c="$2" '$1 == p { print $c }' $DBG/cgroups
}
kills() { awk '$1 == "oom_kill" { print $2 }' "$1/memory.events"; }

# Holders still running when the case ends (a failure on the way) go with
# it: their sockets would otherwise hold memory into the next case.
# (Only a pid that is still a holder: one waited for may be reused.)
trap 'for _p in ${pa:-} ${pb:-} ${pn:-} ${pm:-} ${pc:-} ${pe:-} ${pd:-} ${pl:-}; do
	[ "$(cat /proc/$_p/comm 2> /dev/null)" != skm-hold ] || kill $_p
done' EXIT

# OOM kills of this case's own, not of a case before it (throttle_oom's
# stock phase kills on purpose)
killed_before=$(dmesg | grep -c 'Killed process')
mkdir $CG/sl_a $CG/sl_b
load sock_limits=+/sl_later=${LIMIT_KIB}K
expect_eq "sock_limits at load" "$(cat $PAR/sock_limits)" \
	"+/sl_later=$((LIMIT_KIB * 1024)) waiting"
expect_eq "set A's limit" "$(printf "+/sl_a=${LIMIT_KIB}K" | skm-write $DBG/sock_limits)" ok
echo 1 > $TRACING/events/skmemcg/throttle/enable || fail "no skmemcg:throttle tracepoint"
echo > $TRACING/trace

hold_start $CG/sl_a a "$CONNS" "$KIB"
pa=$pid
hold_start $CG/sl_b b "$CONNS" "$KIB"
pb=$pid
a=$(sock_kib $CG/sl_a)
b=$(sock_kib $CG/sl_b)
note "$CONNS connections x $KIB KiB unread: A (limit $LIMIT_KIB KiB) holds $a KiB, B (no limit) $b KiB; A's bound $bound_kib KiB"
[ "$a" -le "$bound_kib" ] || fail "A holds $a KiB, over its limit plus slack ($bound_kib KiB)"
# (TCP's windows decide how much an unlimited cgroup takes: 5.4 to 16.6 MiB
# seen, so "more" is 1 MiB over what A held, not over A's bound.)
[ "$b" -gt $((a + 1024)) ] || fail "B holds $b KiB, not 1 MiB more than A ($a KiB)"
note "cgroups: $(grep '^/sl_a ' $DBG/cgroups)"
expect_eq "A's limit in cgroups (KiB)" "$(cg_col /sl_a 10)" "$LIMIT_KIB"
counted=$(cg_col /sl_a 11)
limited=$(cg_col /sl_a 12)
[ "${limited:-0}" -gt 0 ] || fail "no allocation of A suppressed: $(grep '^/sl_a ' $DBG/cgroups)"
[ "${counted:-0}" -le "$bound_kib" ] || fail "A's counted socket memory $counted KiB over $bound_kib"
b_col=$(cg_col /sl_b 10)
[ -z "$b_col" ] || expect_eq "B's limit column (not limited)" "$b_col" -
[ $(( $(skm_stat limited_tx) + $(skm_stat limited_rx) )) -gt 0 ] || fail "stats limited_tx/rx are 0"
ev=$(grep -m1 'reason=limit' $TRACING/trace)
note "trace: $ev"
echo "$ev" | grep -q "cgroup_id=[0-9]* reason=limit level=none dir=\(tx\|rx\) size=" ||
	fail "no skmemcg:throttle event with reason=limit"
echo 0 > $TRACING/events/skmemcg/throttle/enable

# The same as v1_tcpmem measures under v1's TCP limit (a boot of its own on
# 6.1): throughput of a reading workload under the limit, for the table of
# scripts/compare-table.sh.
kill $pa
wait $pa
out=$(sh -c 'echo $$ > "$0/cgroup.procs" && exec skm-tcp -b "$1" -c "$2"' $CG/sl_a \
	"${CMP_MIB:-16}" "$CONNS") || fail "skm-tcp under the limit: $out"
note "COMPARE v2 limit_kib=$LIMIT_KIB held_kib=$a max_kib=- $out failcnt=$(cg_col /sl_a 12) oom_kills=$(kills $CG/sl_a)"

# A nested limit under A's, lower: holds too.
echo "+/sl_a/n=512K" > $PAR/sock_limits
echo +memory > $CG/sl_a/cgroup.subtree_control
hold_start $CG/sl_a/n n "$CONNS" "$KIB"
pn=$pid
n_kib=$(sock_kib $CG/sl_a/n)
note "nested A/n (limit 512 KiB): $n_kib KiB"
[ "$n_kib" -le $((512 + CONNS * SLACK_KIB)) ] || fail "A/n holds $n_kib KiB over 512 + slack"
kill $pn
wait $pn

# Raised live: A grows past its old bound.
hold_start $CG/sl_a/m m "$CONNS" "$KIB"
pm=$pid
echo "+/sl_a=64M" > $PAR/sock_limits
hold_pump $pm m
# Read where the holder is: A's own memory.stat may not show its child's
# yet. On 7.3.4 reading memory.stat flushes a memcg's statistics only once
# enough updates were counted to it, and a child's updates stop being
# counted to its ancestors while the child itself is due for a flush
# (memcg_rstat_updated()): A read 0 KiB, twice, with A/m at 16544 KiB and
# skmemcg's count of A at 16544 (2 boots of 10, 2026-12-06); the periodic
# flush every 2 s catches up.
grown=$(sock_kib $CG/sl_a/m)
note "A's limit raised to 64 MiB: A/m holds $grown KiB"
[ "$grown" -gt $((a + 1024)) ] ||
	fail "A/m holds $grown KiB once A's limit was raised: not 1 MiB more than the $a KiB A held under it (A $(sock_kib $CG/sl_a) KiB, B $(sock_kib $CG/sl_b) KiB; cgroups: $(grep '^/sl_a' $DBG/cgroups | tr '\n' ';'); sockstat: $(grep '^TCP:' /proc/net/sockstat); holder m: $(tr '\n' ' ' < /tmp/hold.m); its cgroup: $(cat /proc/$pm/cgroup))"
kill $pm $pb
wait $pm $pb

# A limit set on a cgroup whose sockets already charged: each CPU keeps the
# limited entries of the lines it counted (limit.c's chains), and must see
# the new one. C, under A (64 MiB now), holds first, unlimited; then C gets
# 512 KiB, the first holder goes, and a second one in C holds to the limit.
# (Sending again on the first holder's sockets proves nothing: their
# forward allocations take it without a charge.)
hold_start $CG/sl_a/c c "$CONNS" "$KIB"
pc=$pid
c_before=$(sock_kib $CG/sl_a/c)
echo "+/sl_a/c=512K" > $PAR/sock_limits
kill $pc
wait $pc
hold_start $CG/sl_a/c c2 "$CONNS" "$KIB"
pc=$pid
c_kib=$(sock_kib $CG/sl_a/c)
note "A/c held $c_before KiB unlimited; limited to 512 KiB, a new holder there holds $c_kib KiB"
[ "$c_kib" -le $((512 + CONNS * SLACK_KIB)) ] ||
	fail "A/c holds $c_kib KiB over 512 + slack: its new limit was not counted"
kill $pc
wait $pc

# The same with one limited level, E's own: its counts take the quick path
# (limit.h, skm_limit_uncharged_quick()), whose uncount sets a usage below
# 0 back to 0 inline. E's first holder's pages were never counted.
mkdir $CG/sl_e
hold_start $CG/sl_e e "$CONNS" "$KIB"
pe=$pid
e_before=$(sock_kib $CG/sl_e)
echo "+/sl_e=512K" > $PAR/sock_limits
kill $pe
wait $pe
e_gone=$(cg_col /sl_e 11)
hold_start $CG/sl_e e2 "$CONNS" "$KIB"
pe=$pid
e_kib=$(sock_kib $CG/sl_e)
note "E held $e_before KiB unlimited; limited to 512 KiB, counted $e_gone KiB once its holder was gone; a new holder holds $e_kib KiB"
# (no "cgroups" line until a charge after the limit gives E its state)
[ -z "$e_gone" ] || [ "$e_gone" -ge 0 ] || fail "E's count went below 0: $e_gone KiB"
[ "$e_kib" -le $((512 + CONNS * SLACK_KIB)) ] ||
	fail "E holds $e_kib KiB over 512 + slack: its count went below 0"
kill $pe
wait $pe

# A line with more limited levels than a chain holds (4): five, the
# deepest at 512 KiB, which holds; every level counts.
d=$CG
for l in sl_d l1 l2 l3 l4; do
	echo +memory > $d/cgroup.subtree_control || fail "subtree_control in $d"
	d=$d/$l
	mkdir -p $d
	lim=64M
	[ $l = l4 ] && lim=512K
	echo "+${d#$CG}=$lim" > $PAR/sock_limits || fail "sock_limits +${d#$CG}"
done
hold_start $d d "$CONNS" "$KIB"
pd=$pid
d_kib=$(sock_kib $d)
note "five limited levels, the deepest (512 KiB) holds $d_kib KiB; counted at /sl_d: $(cg_col /sl_d 11) KiB"
[ "$d_kib" -le $((512 + CONNS * SLACK_KIB)) ] || fail "/sl_d/l1/l2/l3/l4 holds $d_kib KiB over 512 + slack"
[ "$(cg_col /sl_d 11)" -gt 0 ] || fail "nothing counted at /sl_d: $(grep '^/sl_d ' $DBG/cgroups)"
kill $pd
wait $pd

# Given at load, made now: holds.
hold_start $CG/sl_later later "$CONNS" "$KIB"
pl=$pid
l=$(sock_kib $CG/sl_later)
note "sl_later, limited at load before it was made: $l KiB"
[ "$l" -le "$bound_kib" ] || fail "sl_later holds $l KiB over $bound_kib"
kill $pl
wait $pl

for c in sl_a sl_b sl_later; do
	expect_eq "OOM kills in $c" "$(kills $CG/$c)" 0
done
[ "$(dmesg | grep -c 'Killed process')" -le "$killed_before" ] ||
	fail "a process was OOM-killed"

# rmdir with a limit set: the entry waits again, the state goes with the
# memcg (freed once nothing is charged to it: the holders' output files on
# tmpfs were).
rm -f /tmp/hold.a /tmp/hold.b /tmp/hold.n /tmp/hold.m /tmp/hold.later /tmp/hold.c /tmp/hold.c2 /tmp/hold.e /tmp/hold.e2 /tmp/hold.d
rmdir $CG/sl_d/l1/l2/l3/l4 $CG/sl_d/l1/l2/l3 $CG/sl_d/l1/l2 $CG/sl_d/l1 $CG/sl_d || fail "rmdir /sl_d/..."
rmdir $CG/sl_a/n $CG/sl_a/m $CG/sl_a/c $CG/sl_a $CG/sl_later $CG/sl_b $CG/sl_e || fail "rmdir"
wait_list $PAR/sock_limits '^+/sl_a/n=' "+/sl_a/n=524288 waiting"
wait_list $PAR/sock_limits '^+/sl_a=' "+/sl_a=67108864 waiting"
wait_list $PAR/sock_limits '^+/sl_later=' "+/sl_later=$((LIMIT_KIB * 1024)) waiting"
n=0
while grep -q '^/sl_' $DBG/cgroups; do
	n=$((n + 1))
	[ $((n % 30)) -eq 29 ] && flush_stocks
	[ $n -lt 300 ] || fail "state of removed cgroups kept: $(grep '^/sl_' $DBG/cgroups)"
	sleep 0.1
done
for p in /sl_a/n /sl_a/c /sl_a /sl_later /sl_e /sl_d /sl_d/l1 /sl_d/l1/l2 /sl_d/l1/l2/l3 /sl_d/l1/l2/l3/l4; do
	echo "-$p" > $PAR/sock_limits
done
expect_eq "sock_limits emptied" "$(cat $PAR/sock_limits)" ""
unload
exit 0
