# SPDX-License-Identifier: GPL-2.0
# The reserve in force is what pcpu_rsv says: under a paced loopback sender
# whose receiver never reads, sockstat TCP "mem" moves in steps of one
# reserve (a CPU folds its delta once it reaches it). Stock 1 MB: steps of
# ~256 pages; pcpu_rsv=32 (below the sysctl's floor): ~32; 1024: ~1024.
# One CPU carries all of it (-C 0), so each step is one fold.
. /tests/lib.sh

echo 67108864 > /proc/sys/net/core/rmem_max
# pace: 2000 writes of 16 KiB, 1 ms apart, into a 64 MiB receive buffer
pace() { skm-pace -n 2000 -b 16384 -i 1000 -r 33554432 -C 0; }
field() { echo "$1" | sed -n "s/.*\<$2=\([0-9-]*\).*/\1/p"; }

# check NAME RESERVE OUTPUT: at least 4 steps, the median within
# [reserve, 1.5 x reserve + 16] (one fold carries the reserve plus the
# charge that crossed it)
check() {
	steps=$(field "$3" steps)
	median=$(field "$3" median)
	note "$1: reserve $2 pages: $3"
	[ "$steps" -ge 4 ] || fail "$1: only $steps steps"
	[ "$median" -ge "$2" ] || fail "$1: median step $median < reserve $2"
	[ "$median" -le $(( $2 * 3 / 2 + 16 )) ] ||
		fail "$1: median step $median > 1.5 x reserve $2"
}

check stock "$(cat /proc/sys/net/core/mem_pcpu_rsv)" "$(pace)"
for r in 32 1024; do
	load pcpu_rsv=$r
	expect_eq "mem_pcpu_rsv" "$(cat /proc/sys/net/core/mem_pcpu_rsv)" $r
	check "pcpu_rsv=$r" $r "$(pace)"
	unload
done
exit 0
