# SPDX-License-Identifier: GPL-2.0
# The drift guard (module/drift.c): on this tested kernel every claim holds
# (struct scan_control's layout and the static prototypes against BTF,
# each hooked name one symbol, each copied or relied-on function body's
# fingerprint one recorded in module/fingerprints.h) and every policy goes
# on. The fingerprints go to the log ("fingerprint: ..." lines, which
# scripts/fingerprints.sh records from). With a claim
# perturbed (test_drift), the module loads, the policies resting on it are
# refused (one dmesg line naming the claim and the kernel, stats, the
# exporter, a write that would turn one on fails with EOPNOTSUPP) and the
# others work; allow_untested=1 lets them on and taints the kernel (T: the
# boot's taint check accepts it only with the kernel's own line for it).
. /tests/lib.sh

dmesg_since() { dmesg | tail -n +$(($1 + 1)); }
lines() { dmesg | wc -l; }

# 1. Every claim holds.
d0=$(lines)
load $ALL_POLICIES
l=$(dmesg_since "$d0" | grep 'drift guard:' || true)
note "load: $l"
fps=$(cat /sys/kernel/debug/skmemcg/fingerprints)
while read -r fn size hash verdict; do
	note "fingerprint: $(uname -r) $fn $size $hash $verdict"
done <<EOF
$fps
EOF
while read -r fn size hash verdict; do
	expect_eq "the body of $fn" "$verdict" recorded
done <<EOF
$fps
EOF
echo "$l" | grep -q "drift guard: [0-9]* claims hold on $(uname -r)" ||
	fail "no 'claims hold' line: $l"
expect_eq "drift_mismatches" "$(skm_stat drift_mismatches)" 0
for p in throttle exclusive reclaim sock_limits; do
	expect_eq "drift_refused_$p" "$(skm_stat drift_refused_$p)" 0
done
note "claims checked: $(skm_stat drift_checks)"
expect_eq "hooked with every policy" "$(hooked_names)" "$(names_of $HOOKED)"
unload

# 2. scan_control perturbed: reclaim refused, the rest on.
d0=$(lines)
load test_drift=scan_control throttle=1 reclaim_policy=linear
l=$(dmesg_since "$d0" | grep 'drift guard:' || true)
note "perturbed scan_control: $(echo "$l" | tr '\n' '|')"
echo "$l" | grep -q "drift guard: struct scan_control does not match kernel $(uname -r) .*refusing reclaim$" ||
	fail "no refusal line naming scan_control and the kernel"
echo "$l" | grep -q "drift guard: reclaim refused on kernel $(uname -r) .*left off" ||
	fail "no line for reclaim_policy=linear given at load"
expect_eq "drift_refused_reclaim" "$(skm_stat drift_refused_reclaim)" 1
expect_eq "drift_refused_throttle" "$(skm_stat drift_refused_throttle)" 0
expect_eq "hooked: throttle's only" "$(hooked_names)" "$(names_of $HOOKED_THROTTLE)"
r=$(printf kernel | skm-write "$PAR/reclaim_policy")
expect_eq "reclaim_policy=kernel" "$r" ok
r=$(printf seed | skm-write "$PAR/reclaim_policy")
expect_eq "reclaim_policy=seed on a refused policy" "$r" EOPNOTSUPP
expect_eq "reclaim_policy after the refusal" "$(cat $PAR/reclaim_policy)" kernel
r=$(printf 1 | skm-write "$PAR/exclusive")
expect_eq "exclusive=1 beside a refused policy" "$r" ok
m=$(skmemcg-exporter | grep '^skmemcg_drift_refused_reclaim ' || true)
expect_eq "exporter" "$m" "skmemcg_drift_refused_reclaim 1"
unload

# 3. A static prototype every policy rests on: all four refused.
load test_drift=mem_cgroup_css_free
for p in throttle exclusive reclaim sock_limits; do
	expect_eq "drift_refused_$p" "$(skm_stat drift_refused_$p)" 1
done
r=$(printf 1 | skm-write "$PAR/throttle")
expect_eq "throttle=1 on a refused policy" "$r" EOPNOTSUPP
expect_eq "hooked" "$(hooked_names)" ""
unload

# 4. A name kallsyms holds twice: its policies refused.
load test_drift=vmpressure throttle=1
expect_eq "drift_refused_throttle (vmpressure twice)" "$(skm_stat drift_refused_throttle)" 1
expect_eq "hooked" "$(hooked_names)" ""
unload

# 4b. struct proto's size perturbed: exclusive (which copies it) refused.
d0=$(lines)
load test_drift=proto throttle=1
l=$(dmesg_since "$d0" | grep 'drift guard:' || true)
echo "$l" | grep -q "drift guard: the size of struct proto does not match kernel $(uname -r) .*(BTF has [0-9]* bytes, the module [0-9]*); refusing exclusive$" ||
	fail "no refusal line naming struct proto's size: $l"
expect_eq "drift_refused_exclusive (proto)" "$(skm_stat drift_refused_exclusive)" 1
expect_eq "drift_refused_throttle (proto)" "$(skm_stat drift_refused_throttle)" 0
r=$(printf 1 | skm-write "$PAR/exclusive")
expect_eq "exclusive=1 with struct proto's size refused" "$r" EOPNOTSUPP
unload

# 5. A copied body perturbed: the policies resting on it refused, reclaim on.
d0=$(lines)
load test_drift=__sk_mem_raise_allocated.body reclaim_policy=linear
l=$(dmesg_since "$d0" | grep 'drift guard:' || true)
note "perturbed body: $(echo "$l" | tr '\n' '|')"
echo "$l" | grep -q "drift guard: the body of __sk_mem_raise_allocated does not match kernel $(uname -r) .*recorded from no tested kernel); refusing throttle, exclusive, sock_limits$" ||
	fail "no refusal line naming __sk_mem_raise_allocated and the kernel"
for p in throttle exclusive sock_limits; do
	expect_eq "drift_refused_$p" "$(skm_stat drift_refused_$p)" 1
done
expect_eq "drift_refused_reclaim" "$(skm_stat drift_refused_reclaim)" 0
expect_eq "verdict" "$(awk '$1 == "__sk_mem_raise_allocated" { print $4 }' /sys/kernel/debug/skmemcg/fingerprints)" differs
r=$(printf 1 | skm-write "$PAR/exclusive")
expect_eq "exclusive=1 on a refused policy" "$r" EOPNOTSUPP
expect_eq "hooked: reclaim's" "$(hooked_names)" "$(names_of $HOOKED_RECLAIM)"
unload

# 6. allow_untested: on anyway, the kernel tainted (T, bit 6), said so.
t0=$(cat /proc/sys/kernel/tainted)
d0=$(lines)
load test_drift=scan_control allow_untested=1 reclaim_policy=linear
l=$(dmesg_since "$d0" | grep -E 'drift guard:|allow_untested' || true)
note "allow_untested: $(echo "$l" | tr '\n' '|')"
echo "$l" | grep -q "allow_untested=1: reclaim left on offer" || fail "no allow_untested line"
expect_eq "drift_refused_reclaim" "$(skm_stat drift_refused_reclaim)" 0
expect_eq "drift_allowed_untested" "$(skm_stat drift_allowed_untested)" 1
expect_eq "hooked: reclaim's" "$(hooked_names)" "$(names_of $HOOKED_RECLAIM)"
t1=$(cat /proc/sys/kernel/tainted)
[ $((t1 & 64)) -ne 0 ] || fail "kernel not tainted T: $t0 -> $t1"
note "tainted: $t0 -> $t1"
unload
