#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make host-test: skmemcg on a real Debian host, booted with systemd, as an
# operator runs it. For each image of scripts/host-image.sh (Debian 12 with
# 6.1, Debian 12 with 6.12, Debian 13 with 7.3), in a copy of the cached
# base image:
#
#  1. install: chrooted in the image (a loop mount), "apt-get install
#     ./skmemcg-dkms_*.deb" (DKMS builds for the installed kernel), the
#     operator's /etc/modprobe.d/skmemcg.conf (scripts/host/modprobe.conf)
#     and /etc/modules-load.d/skmemcg.conf, the exporter's timer enabled,
#     the test's services and workloads (scripts/host/);
#  2. boot the installed ("from") kernel: skmhost=check;
#  3. the kernel update: chrooted again, "apt-get install" of the newer
#     ABI's image and headers (downloaded when the base was made): its
#     postinst runs DKMS, which builds for it;
#  4. boot the new ("to") kernel: skmhost=full (scripts/host/scenario.sh);
#  5. boot it with module_blacklist=skmemcg: skmhost=stock.
# QEMU's -kernel/-initrd take the image's newest /boot files, as GRUB's
# default entry would. Every boot is single-threaded TCG, one vCPU.
#
#   scripts/host-test.sh [NAME...]   default: all three images
#   scripts/host-test.sh --short     deb12-6.1: install, and one boot
#                                    (skmhost=short: full without the
#                                    burst and Prometheus) of the installed
#                                    kernel; what the test command runs
# Needs root (loop mounts, chroot). Output in out/host-NAME/; ends with
# "N passed, N failed".
set -euo pipefail
. "$(dirname "$0")/lib.sh"

HOST_BOOT_LIMIT=${HOST_BOOT_LIMIT:-900}
passed=0 failed=0

result() {	# result PASS|FAIL NAME [WHY]
	if [ "$1" = PASS ]; then
		passed=$((passed + 1))
		echo "PASS $2"
	else
		failed=$((failed + 1))
		echo "FAIL $2${3:+: $3}"
	fi
}

# mount_img IMG DIR / umount_img DIR
mount_img() {
	mkdir -p "$2"
	mount -o loop "$1" "$2"
}
umount_img() {
	sync
	umount "$1"
}

# in_img DIR CMD...: CMD chrooted in the mounted image (lib.sh)
in_img() { skm_chroot "$@"; }

# workloads DIR: the static test programs, and the container's root file
# system (busybox and skm-hold) as a tar for "podman import".
workloads() {
	local dir=$1 w ctr
	mkdir -p "$dir"
	for w in skm-hog skm-burst skm-hold; do
		gcc -static -O2 -Wall -Wextra -Werror -pthread -o "$dir/$w" \
			"$SKM_ROOT/scripts/guest/workloads/$w.c"
	done
	ctr=$(mktemp -d)
	mkdir -p "$ctr/bin"
	cp /bin/busybox "$ctr/bin/busybox"
	ln -s busybox "$ctr/bin/sh"
	cp "$dir/skm-hold" "$ctr/skm-hold"
	tar -C "$ctr" --owner=0 --group=0 -cf "$dir/ctr-rootfs.tar" .
	rm -rf "$ctr"
}

# install_into DIR: step 1 in the mounted image DIR.
install_into() {
	local mnt=$1 deb lib=/usr/local/lib/skmemcg-host-test
	deb=$(ls "$SKM_OUT"/skmemcg-dkms_*_all.deb)
	cp "$deb" "$mnt/root/"
	in_img "$mnt" apt-get install -y -q "/root/${deb##*/}" \
		> "$work/install.log" 2>&1 ||
		{ tail -n 30 "$work/install.log"; return 1; }
	# the operator's files
	install -m 0644 "$SKM_ROOT/scripts/host/modprobe.conf" "$mnt/etc/modprobe.d/skmemcg.conf"
	echo skmemcg > "$mnt/etc/modules-load.d/skmemcg.conf"
	# the guest's own settings: no network but loopback, socket buffers as
	# large as the burst asks for, no timers but the exporter's
	echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" > "$mnt/etc/fstab"
	echo skmhost > "$mnt/etc/hostname"
	printf '127.0.0.1\tlocalhost\n127.0.1.1\tskmhost\n' > "$mnt/etc/hosts"
	printf 'net.core.rmem_max = 16777216\nnet.core.wmem_max = 16777216\n' \
		> "$mnt/etc/sysctl.d/60-skmemcg-host-test.conf"
	# (and no login prompt on the console, which the scenario writes to)
	for u in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer \
		fstrim.timer dpkg-db-backup.timer man-db.timer \
		serial-getty@ttyS0.service getty@tty1.service; do
		ln -sf /dev/null "$mnt/etc/systemd/system/$u"
	done
	cat > "$mnt/etc/prometheus/prometheus.yml" <<-'EOF'
	# skmemcg host test: node_exporter on this host, every 5 s
	global:
	  scrape_interval: 5s
	scrape_configs:
	  - job_name: node
	    static_configs:
	      - targets: ['localhost:9100']
	EOF
	mkdir -p "$mnt$lib"
	cp "$work/bin/"* "$mnt$lib/"
	install -m 0755 "$SKM_ROOT/scripts/host/scenario.sh" "$SKM_ROOT/scripts/host/burst.sh" "$mnt$lib/"
	install -m 0644 "$SKM_ROOT"/scripts/host/units/* "$mnt/etc/systemd/system/"
	in_img "$mnt" systemctl enable -q skmemcg-exporter.timer prometheus.service \
		prometheus-node-exporter.service skm-limited.service skm-excl.service \
		skmemcg-host-test.service >> "$work/install.log" 2>&1
}

# update_into DIR KVER: step 3, the ABI update in the mounted image DIR.
update_into() {
	local mnt=$1 kver=$2
	in_img "$mnt" apt-get install -y -q --no-download --no-install-recommends \
		"linux-image-$kver" "linux-headers-$kver" > "$work/update.log" 2>&1 ||
		{ tail -n 30 "$work/update.log"; return 1; }
	in_img "$mnt" dkms status >> "$work/update.log" 2>&1
}

# kernel_files DIR KVER: copy KVER's vmlinuz and initrd out of the image.
kernel_files() {
	cp "$1/boot/vmlinuz-$2" "$work/vmlinuz-$2"
	cp "$1/boot/initrd.img-$2" "$work/initrd.img-$2"
}

# boot KVER MODE [APPEND]: boot the image, parse the @@HOST lines.
boot() {
	local kver=$1 mode=$2 extra=${3:-} log t0 rc line
	log=$work/boot-$mode-$kver.log
	skm_log "host-test[$name]: boot $kver skmhost=$mode $extra"
	t0=$(date +%s)
	set +e
	timeout --foreground -k 10 "$HOST_BOOT_LIMIT" qemu-system-x86_64 \
		-accel tcg,thread=single -cpu max -m 2048 -smp 1 \
		-nographic -no-reboot -serial stdio -monitor none \
		-kernel "$work/vmlinuz-$kver" -initrd "$work/initrd.img-$kver" \
		-drive "file=$work/disk.img,format=raw,if=virtio" \
		-append "root=/dev/vda rw console=ttyS0 quiet loglevel=3 systemd.show_status=0 panic=-1 $SKM_GUEST_CLOCK skmhost=$mode $extra" \
		< /dev/null > "$log" 2>&1
	rc=$?
	set -e
	tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"
	skm_log "host-test[$name]: $kver $mode: $(( $(date +%s) - t0 )) s, qemu exit $rc"
	# the scenario's own copy of its lines, in the image: the console's
	# may be cut short or interleaved with the kernel's
	mount_img "$work/disk.img" "$work/mnt"
	cp "$work/mnt/var/log/skmemcg-host-test.log" "$work/$mode-$kver.scenario.log" 2> /dev/null ||
		grep '^@@HOST' "$log" > "$work/$mode-$kver.scenario.log" || true
	rm -f "$work/mnt/var/log/skmemcg-host-test.log"
	umount_img "$work/mnt"
	grep '^@@HOST' "$work/$mode-$kver.scenario.log" | sed 's/^@@HOST //' > "$work/$mode-$kver.results" || true
	while read -r line; do
		case $line in
		"PASS "*) result PASS "$name/$kver/$mode/${line#PASS }" ;;
		"FAIL "*) result FAIL "$name/$kver/$mode/${line#FAIL }" ;;
		esac
	done < "$work/$mode-$kver.results"
	if ! grep -q '^END' "$work/$mode-$kver.results"; then
		result FAIL "$name/$kver/$mode" "the scenario did not end (exit $rc; log $log): $(tail -n 5 "$log" | tr '\n' ' ')"
	fi
}

run_image() {
	local from to mnt base
	name=$1
	work=$SKM_OUT/host-$name
	# a mount left by a run that was stopped: never remove through it
	while mountpoint -q "$work/mnt" 2> /dev/null; do umount "$work/mnt"; done
	rm -rf --one-file-system "$work" && mkdir -p "$work"
	base=$("$SKM_ROOT/scripts/host-image.sh" "$name" | tail -n 1)
	read -r from to < "$base/kernels"
	skm_log "host-test[$name]: kernels $from -> $to; copying the base image"
	cp --sparse=always "$base/base.img" "$work/disk.img"
	workloads "$work/bin"
	mnt=$work/mnt

	mount_img "$work/disk.img" "$mnt"
	if install_into "$mnt"; then
		result PASS "$name/install"
		grep -E 'skmemcg|dkms|Building|installed' "$work/install.log" | tail -n 8
	else
		result FAIL "$name/install" "apt-get install of the .deb failed ($work/install.log)"
		umount_img "$mnt"
		return
	fi
	kernel_files "$mnt" "$from"
	umount_img "$mnt"
	if [ "$short" = 1 ]; then
		# Prometheus is the full scenario's: masked, it takes no CPU
		# from a guest that a loaded CI host already slows down
		boot "$from" short systemd.mask=prometheus.service
		return
	fi
	boot "$from" check

	mount_img "$work/disk.img" "$mnt"
	# (compressed, skmemcg.ko.xz, where the kernel compresses its modules)
	if update_into "$mnt" "$to" && ls "$mnt/lib/modules/$to/updates/dkms/skmemcg.ko"* > /dev/null 2>&1 &&
		grep -q "^skmemcg/.*, $to, .*: installed" "$work/update.log"; then
		result PASS "$name/update-dkms"
		grep -E '^skmemcg' "$work/update.log" || true
	else
		result FAIL "$name/update-dkms" "no skmemcg.ko for $to after the update ($work/update.log)"
		umount_img "$mnt"
		return
	fi
	kernel_files "$mnt" "$to"
	umount_img "$mnt"
	boot "$to" full
	boot "$to" stock module_blacklist=skmemcg
}

[ "$(id -u)" -eq 0 ] || skm_die "host-test.sh needs root (loop mounts, chroot)"
# --boot NAME KVER MODE: boot the last run's image of NAME again, with this
# tree's scenario (a developer's loop: no install, no update)
if [ "${1:-}" = --boot ]; then
	[ $# -eq 4 ] || skm_die "usage: host-test.sh --boot NAME KVER MODE"
	name=$2 work=$SKM_OUT/host-$2 passed=0 failed=0
	[ -f "$work/disk.img" ] || skm_die "no image of a run of $name in $work"
	mount_img "$work/disk.img" "$work/mnt"
	install -m 0755 "$SKM_ROOT/scripts/host/scenario.sh" "$SKM_ROOT/scripts/host/burst.sh" \
		"$work/mnt/usr/local/lib/skmemcg-host-test/"
	kernel_files "$work/mnt" "$3"
	umount_img "$work/mnt"
	boot "$3" "$4"
	echo "host-test: $passed passed, $failed failed"
	exit
fi
short=0
names=()
for a in "$@"; do
	case $a in
	--short) short=1 ;;
	*) names+=("$a") ;;
	esac
done
[ ${#names[@]} -gt 0 ] || names=(deb12-6.1 deb12-6.12 deb13-7.3)
[ "$short" = 0 ] || names=(deb12-6.1)
# the package of this tree, as it is
"$SKM_ROOT/scripts/deb.sh" > /dev/null
t_all=$(date +%s)
for n in "${names[@]}"; do
	t=$(date +%s)
	run_image "$n"
	skm_log "host-test[$n]: $(( $(date +%s) - t )) s"
done
skm_log "host-test: $(( $(date +%s) - t_all )) s"
echo "host-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
