# SPDX-License-Identifier: GPL-2.0
# A module built for a kernel family whose replicated functions skmemcg does
# not carry (here: built with no family supported) refuses to load with one
# line naming the running kernel, and hooks nothing.
. /tests/lib.sh

before=$(dmesg | grep -c 'skmemcg:')
r=$(skm-insmod /opt/skmemcg-unsupported.ko)
expect_eq "insmod of the unsupported build" "$r" EOPNOTSUPP
lines=$(dmesg | grep 'skmemcg:' | tail -n +$((before + 1)) |
	grep -v 'taints kernel\|verification failed')
note "insmod: $r; dmesg: $lines"
expect_eq "lines logged" "$(echo "$lines" | wc -l)" 1
echo "$lines" | grep -q "kernel $(uname -r) is not supported (supported: 6.1.x, 6.12.x, 7.3.x); not loading" ||
	fail "no line naming the kernel"
lsmod | grep -q '^skmemcg ' && fail "left loaded"
hooked_functions && fail "hooked after a refused load"
exit 0
