# SPDX-License-Identifier: GPL-2.0
# Shared by the host scripts: paths, the cache, kernel versions.

SKM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Outside the clone: extracted kernel sources, UML builds, initramfs pieces.
SKM_CACHE=${SKM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/skmemcg}
SKM_OUT=${SKM_OUT:-$SKM_ROOT/out}
mkdir -p "$SKM_CACHE" "$SKM_OUT"

skm_log() {
	printf '==> %s\n' "$*" >&2
}

skm_die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# The Debian 6.1 kernel release installed for the VM, e.g. 6.1.0-57-amd64.
skm_kver_61() {
	ls /boot/vmlinuz-6.1.*-amd64 2>/dev/null | sed 's|/boot/vmlinuz-||' |
		sort -V | tail -n 1
}

# The newest installed Debian 6.12 backports kernel, e.g. 6.12.117+deb12-amd64.
skm_kver_612() {
	ls /boot/vmlinuz-6.12.*+deb12-amd64 2>/dev/null | sed 's|/boot/vmlinuz-||' |
		sort -V | tail -n 1
}

# Every kernel the tests run on: the newest of each supported family.
skm_kvers() {
	skm_kver_61
	skm_kver_612
}

# skm_ksrc: print the extracted Debian linux-source-6.1 tree, extracting it
# into the cache on first use (keyed by the package version).
skm_ksrc() {
	local ver dir
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
		skm_die "linux-source-6.1 is not installed (scripts/setup.sh)"
	dir=$SKM_CACHE/src-$ver
	if [ ! -f "$dir/.skmemcg-extracted" ]; then
		skm_log "extracting linux-source-6.1 $ver into $dir"
		rm -rf "$dir"
		mkdir -p "$dir"
		tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$dir" --strip-components=1 ||
			skm_die "extracting linux-source-6.1"
		touch "$dir/.skmemcg-extracted"
	fi
	echo "$dir"
}

# skm_guest_cases main|pcpu|reclaim|bench|lockdown|reload|debug: guest test
# cases, comma-separated.
# "pcpu" are the per-CPU reserve cases (pcpu_*.sh), which want a NUMA
# guest; "reclaim" the reclaim-policy cases (reclaim_*.sh), long, in a boot
# of their own; "bench" the overhead benchmark (bench_*.sh), which wants
# iperf3 in the guest; "main" every other case.
# "lockdown" (lockdown_*.sh) raise the kernel's lockdown, which lasts until
# reboot and refuses unsigned modules from then on: a boot of their own.
# "reload" (reload_*.sh) load and unload the module over and over under
# traffic: a boot of their own, under single-threaded TCG (scripts/test.sh).
# "debug" the debug kernel's checks (debug_*.sh), which
# scripts/check-debug.sh places first and last in its boots.
skm_guest_cases() {
	(cd "$SKM_ROOT/scripts/guest/tests" && ls ./*.sh | sed 's|^\./||; s|\.sh$||' |
		grep -v '^lib' | case $1 in
			main) grep -Ev '^(pcpu|reclaim|bench|lockdown|reload|debug)_' ;;
			*) grep "^$1_" ;;
		esac | paste -sd, -)
}
