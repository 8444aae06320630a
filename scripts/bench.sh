#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmarks, in the VM (make bench).
#
#   scripts/bench.sh [-k KVER] [-m MiB-per-connection]
#
# pcpu: writes to the global TCP counter (tcp_memory_allocated, counted by a
# hardware watchpoint) per GiB moved over loopback, for 1 MB, auto and 16 MB
# per-CPU reserves; see scripts/guest/tests/pcpu_bench.sh. The guest gets as
# many vCPUs as this machine has CPUs, split over 2 NUMA nodes when even, so
# that the pinned layout charges on node 0 and frees on node 1. Default: 2
# connections of 512 MiB, 1 GiB per layout and reserve.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kver=${KVER:-}
mib=512
while getopts "k:m:" opt; do
	case $opt in
	k) kver=$OPTARG ;;
	m) mib=$OPTARG ;;
	*) skm_die "usage: see the header of $0" ;;
	esac
done
[ -n "$kver" ] || kver=$(skm_kver_61)
[ -n "$kver" ] || skm_die "no Debian kernel installed: run scripts/setup.sh"

cpus=$(nproc)
nodes=1
[ "$cpus" -ge 2 ] && [ $((cpus % 2)) -eq 0 ] && nodes=2
"$SKM_ROOT/scripts/vm.sh" -k "$kver" -c "$cpus" -n "$nodes" -m 1024 \
	-t pcpu_bench -T 900 -e "PCPU_BENCH_MIB=$mib"
