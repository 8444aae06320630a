# SPDX-License-Identifier: GPL-2.0
# The hooks are in while loaded, see every socket allocation, stop
# redirecting when disabled, and are all gone after rmmod.
. /tests/lib.sh

hooked_functions && fail "hooked before load"
load instrument=1
expect_eq "hooked functions" "$(hooked_functions | wc -l)" "$NHOOKS"

skm-tcp -b 16 >/dev/null || fail "TCP traffic with the module loaded"
raise=$(skm_stat raise_calls)
reduce=$(skm_stat reduce_calls)
note "after 16 MiB over loopback: raise_calls=$raise reduce_calls=$reduce"
[ "$raise" -gt 0 ] || fail "raise hook saw no calls"
[ "$reduce" -gt 0 ] || fail "reduce hook saw no calls"
# hook_times: each call timed whole and around the kernel's original.
ht() { awk -v h="$1" -v c="$2" '$1 == h { print $c }' $DBG/hook_times; }
note "hook_times: $(grep '^__sk_mem_raise_allocated ' $DBG/hook_times)"
[ "$(ht __sk_mem_raise_allocated 2)" -ge "$raise" ] || fail "hook_times missed raise calls"
[ "$(ht __sk_mem_raise_allocated 3)" -ge "$(ht __sk_mem_raise_allocated 6)" ] ||
	fail "a call took less than the original inside it"
echo Y > $PAR/instrument
[ "$(ht __sk_mem_raise_allocated 2)" = "" ] || fail "instrument=Y did not clear hook_times"

echo 0 > $PAR/enabled
skm-tcp -b 16 >/dev/null || fail "TCP traffic with the module disabled"
expect_eq "raise_calls while disabled" "$(skm_stat raise_calls)" "$raise"
echo 1 > $PAR/enabled
skm-tcp -b 16 >/dev/null || fail "TCP traffic re-enabled"
[ "$(skm_stat raise_calls)" -gt "$raise" ] || fail "no calls after re-enabling"

# Unload in the middle of traffic: the transfer completes, nothing stays.
skm-tcp -b 64 -c 2 > /tmp/tcp.out &
pid=$!
sleep 1
unload
wait $pid || fail "traffic across rmmod: $(cat /tmp/tcp.out)"
hooked_functions && fail "hooks left after rmmod"
grep -q '\[skmemcg\]' $TRACING/available_filter_functions &&
	fail "skmemcg functions left in available_filter_functions"
lsmod | grep -q '^skmemcg ' && fail "still loaded"
exit 0
