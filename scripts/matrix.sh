#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make matrix: the point-release matrix. Debian's mirror serves many ABIs of
# each supported family, each also as -cloud (what Debian's cloud images
# boot); the test command boots one per family. This boots the guest cases
# on the others that matter: the oldest and newest ABI of 6.1 and of 6.12,
# the 6.12 that bookworm-backports' linux-image-amd64 installs, and the
# newest -cloud of each, and prints what the drift guard decided on each.
#
# The kernels are not installed on this machine (a kernel in /boot would
# change what the test command boots): each is unpacked with its headers and
# kbuild tools from the .deb files into $SKM_CACHE/matrix/<release> and
# booted from there (vm.sh's SKM_VMLINUZ, SKM_KDIR, SKM_MODDIR). 7.x lives
# in the Debian 13 root: the one there is the test command's.
#
#   scripts/matrix.sh                   every kernel above, main cases
#   MATRIX_KVERS="6.1.0-47-amd64 ..."   only these releases
#   MATRIX_KVERS=bpo                    only the 6.12 of bookworm-backports
#   MATRIX_CASES=a,b                    only these cases
#   MATRIX_ENV="K=V ..."                the guest's environment (vm.sh -e)
#   SKM_JOBS=N                          boots at once (default 2)
#
# Ends with one line per kernel, "matrix <release>: <vm.sh's last line>;
# drift guard: <its load line>", and "N passed, N failed" over all boots.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
SKM_RESULTS=$SKM_OUT/matrix-results.tsv
. "$(dirname "$0")/stages.sh"

cases=${MATRIX_CASES:-$(skm_guest_cases main)}
jobs_max=${SKM_JOBS:-2}
mroot=$SKM_CACHE/matrix
mkdir -p "$mroot"

# The releases: the oldest and newest of a family, by version, among those
# whose headers the mirror serves too (it lists linux-image-6.12.43+deb12
# without its headers: nothing can be built for it).
images() { # PATTERN: release names of linux-image-* the mirror serves
	apt-cache search --names-only "^linux-image-$1\$" | awk '{print $1}' |
		sed 's/^linux-image-//' | sort -V | while read -r k; do
			apt-cache show "linux-headers-$k" > /dev/null 2>&1 && echo "$k"
		done
}
bpo=$(apt-cache depends -t bookworm-backports linux-image-amd64 2> /dev/null |
	sed -n 's/.*Depends: linux-image-\(6\.12\.[0-9]*+deb12-amd64\)$/\1/p' | head -n 1)
if [ "${MATRIX_KVERS:-}" = bpo ]; then
	kvers=$bpo
elif [ -n "${MATRIX_KVERS:-}" ]; then
	kvers=$MATRIX_KVERS
else
	k61=$(images '6\.1\.0-[0-9]+-amd64')
	k612=$(images '6\.12\.[0-9]+\+deb12-amd64')
	kvers=$(printf '%s\n' "$(echo "$k61" | head -n 1)" "$(echo "$k61" | tail -n 1)" \
		"$(echo "$k61" | tail -n 1 | sed 's/-amd64$/-cloud-amd64/')" \
		"$(echo "$k612" | head -n 1)" "$bpo" "$(echo "$k612" | tail -n 1)" \
		"$(echo "$k612" | tail -n 1 | sed 's/-amd64$/-cloud-amd64/')" | grep . | awk '!seen[$0]++')
fi
[ -n "$kvers" ] || skm_die "matrix: the mirror lists no 6.1 or 6.12 image (apt-get update?)"
skm_log "matrix: $(echo "$kvers" | tr "\n" " ")"

# unpack KVER: image, headers (both parts) and kbuild tools of KVER into
# $mroot/KVER, their absolute paths made to point inside it.
unpack() {
	local kver=$1 root=$mroot/$1 dl ver common kbuild
	[ -f "$root/.done" ] && return 0
	rm -rf "$root" && mkdir -p "$root"
	dl=$(mktemp -d)
	ver=$(apt-cache show "linux-image-$kver" | sed -n 's/^Version: //p' | sort -V | tail -n 1)
	common=$(apt-cache show "linux-headers-$kver=$ver" | sed -n 's/^Depends: //p' | head -n 1 |
		tr ',' '\n' | sed -n 's/^ *\(linux-headers-[^ ]*-common[^ ]*\).*/\1/p' | head -n 1)
	kbuild=$(apt-cache show "linux-headers-$kver=$ver" | sed -n 's/^Depends: //p' | head -n 1 |
		tr ',' '\n' | sed -n 's/^ *\(linux-kbuild-[^ ]*\).*/\1/p' | head -n 1)
	(cd "$dl" && apt-get download -q "linux-image-$kver=$ver" "linux-headers-$kver=$ver" \
		"$common=$ver") > "$root/download.log" 2>&1 ||
		{ cat "$root/download.log" >&2; rm -rf "$dl"; return 1; }
	# 6.1's tools are one package, linux-kbuild-6.1, of which the mirror
	# keeps the newest version only: the same family's tools then.
	(cd "$dl" && { apt-get download -q "$kbuild=$ver" || apt-get download -q "$kbuild"; }) \
		>> "$root/download.log" 2>&1 ||
		{ cat "$root/download.log" >&2; rm -rf "$dl"; return 1; }
	for f in "$dl"/*.deb; do dpkg-deb -x "$f" "$root"; done
	rm -rf "$dl"
	# The headers' Makefile includes the common part by its absolute path.
	sed -i "s|/usr/src/|$root/usr/src/|g" "$root/usr/src/linux-headers-$kver/Makefile"
	depmod -b "$root" "$kver"
	touch "$root/.done"
}

t_all=$(date +%s)
skm_results_reset
boot() { # KVER
	local kver=$1 root=$mroot/$1
	SKM_VMLINUZ=$root/boot/vmlinuz-$kver SKM_KDIR=$root/usr/src/linux-headers-$kver \
	SKM_MODDIR=$root/lib/modules/$kver \
		"$SKM_ROOT/scripts/vm.sh" -k "$kver" -q -w matrix -t "$cases" \
		${MATRIX_ENV:+-e "$MATRIX_ENV"} > "$SKM_OUT/matrix-$kver.log" 2>&1
}
for kver in $kvers; do
	skm_in_deb13 "$kver" && continue
	stage "matrix-unpack-$kver" unpack "$kver"
done
for kver in $kvers; do
	[ -f "$mroot/$kver/.done" ] || continue
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
	skm_log "matrix: booting $kver (out/matrix-$kver.log)"
	boot "$kver" &
done
wait
for kver in $kvers; do
	log=$SKM_OUT/matrix-$kver.log
	[ -f "$log" ] || continue
	grep -E '^vm\[' "$log" | grep -v ' PASS' || true
	guard=$(grep -a -o 'skmemcg: drift guard: [^;]*\(; refusing [a-z_, ]*\)\?' \
		"$SKM_OUT/vm-$kver-matrix/console.log" 2> /dev/null | sort -u | head -n 6 | tr '\n' '|')
	echo "matrix $kver: $(tail -n 1 "$log"); drift guard: ${guard:-no line}"
	p=$(tail -n 1 "$log" | sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
	[ -n "$p" ] || p="0 1"
	skm_result "matrix-$kver" "${p% *}" "${p#* }" "$t_all"
done
skm_results_report "$t_all"
