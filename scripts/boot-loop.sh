#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel many times, no initramfs, and count the boots that reach a
# point: a way to measure how often a rare early-boot hang happens, and to
# show that a fix removed it. Each boot runs under single-threaded TCG as
# scripts/vm.sh boots (-cpu max); it is good once its console shows the
# pattern (-u, default "Bringing up secondary CPUs": past
# rcu_init_tasks_generic() and its self-tests), hung when -T seconds pass
# without it. A hung guest is left running with QEMU's monitor on a unix
# socket (printed) for a look ("gdbserver tcp::1234", then gdb on vmlinux),
# and its loop stops. A QEMU that exits before the pattern counts as hung
# too ("died" in the list).
#
#   scripts/boot-loop.sh [-n boots] [-j loops] [-c vcpus] [-N nodes]
#                        [-m MiB] [-T secs] [-u pattern] [-a append] VMLINUZ
#
# -j runs that many loops side by side (each -n boots); other guests beside
# a boot change its timing, which is what made the debug kernel's hang show.
# Last line: "N good, N hung".
set -euo pipefail
. "$(dirname "$0")/lib.sh"

boots=20 loops=1 cpus=4 nodes=2 mem=1024 secs=150
until_re="Bringing up secondary CPUs" append=""
while getopts n:j:c:N:m:T:u:a: o; do
	case $o in
	n) boots=$OPTARG ;;
	j) loops=$OPTARG ;;
	c) cpus=$OPTARG ;;
	N) nodes=$OPTARG ;;
	m) mem=$OPTARG ;;
	T) secs=$OPTARG ;;
	u) until_re=$OPTARG ;;
	a) append=$OPTARG ;;
	*) skm_die "usage: $0 [-n boots] [-j loops] [-c vcpus] [-N nodes] [-m MiB] [-T secs] [-u pattern] [-a append] VMLINUZ" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] && [ -f "$1" ] || skm_die "VMLINUZ: a kernel image"
vmlinuz=$1
skm_qemu_topology "$cpus" "$nodes" "$mem"
smp=$skm_smp
numa=("${skm_numa[@]}")

work=$SKM_ROOT/out/boot-loop
rm -rf "$work"
mkdir -p "$work"

# one_loop L: boots L.0 .. L.(boots-1); writes "good"/"hung" lines to L.res
one_loop() {
	local l=$1 i log mon q t0
	for ((i = 0; i < boots; i++)); do
		log=$work/$l.$i.log mon=$work/$l.$i.monitor
		qemu-system-x86_64 -accel tcg,thread=single -cpu max -m "$mem" -smp "$smp" "${numa[@]}" \
			-nographic -no-reboot -monitor "unix:$mon,server,nowait" -serial stdio \
			-kernel "$vmlinuz" -append "console=ttyS0 loglevel=7 panic=-1 nokaslr $SKM_GUEST_CLOCK $append" \
			< /dev/null > "$log" 2>&1 &
		q=$! t0=$(date +%s)
		until grep -q -- "$until_re" "$log"; do
			if ! kill -0 "$q" 2> /dev/null; then
				echo "died $l.$i (QEMU exited first, log $log)" >> "$work/$l.res"
				return 0
			fi
			if [ $(( $(date +%s) - t0 )) -ge "$secs" ]; then
				echo "hung $l.$i $mon (QEMU $q, log $log)" >> "$work/$l.res"
				return 0
			fi
			sleep 1
		done
		echo "good $l.$i $(( $(date +%s) - t0 ))s" >> "$work/$l.res"
		kill "$q"
		wait "$q" 2> /dev/null || true
		rm -f "$log" "$mon"
	done
}

skm_log "boot-loop: $loops x $boots boots of $vmlinuz ($cpus vCPUs, $nodes node(s), $mem MiB), good at \"$until_re\" within ${secs}s"
pids=()
for ((l = 0; l < loops; l++)); do
	one_loop "$l" &
	pids+=($!)
done
wait "${pids[@]}"
cat "$work"/*.res | grep -v '^good' || true
good=$(cat "$work"/*.res | grep -c '^good' || true)
bad=$(cat "$work"/*.res | grep -c -v '^good' || true)
echo "$good good, $bad hung"
