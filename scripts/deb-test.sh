#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian package in a fresh Debian 12 root, as a fleet host would get
# it. The root is made as scripts/fresh.sh makes its own (debootstrap
# --variant=minbase bookworm from this machine's mirror, kept as the same
# tarball in $SKM_CACHE/fresh/; the host's apt sources for bookworm; the
# host's downloaded packages hard-linked in and the root's new ones back),
# under /var/tmp, and removed afterwards. In it:
#
#  install  "apt-get install linux-headers-amd64 ./skmemcg-dkms_<v>_all.deb":
#           "dkms status" says installed for every kernel with headers, the
#           module is there with the package's version (and signed, when
#           DKMS made itself a MOK key), the modprobe.d file enables
#           nothing, the timer is not enabled, and skmemcg-exporter (no
#           module loaded in a chroot) prints skmemcg_loaded 0
#  purge    "apt-get purge skmemcg-dkms": nothing is left (/usr/src/skmemcg-*,
#           /var/lib/dkms/skmemcg, skmemcg.ko* under /lib/modules, the
#           modprobe.d file, the exporter, the units, the package)
#  later    the package first, headers after: DKMS's kernel hook builds it
#           for a kernel whose headers come later; then purge again
#
#   scripts/deb-test.sh [DEB]   needs root (chroot, mounts); DEB defaults to
#                               out/skmemcg-dkms_<version>_all.deb, made
#                               with scripts/deb.sh if missing
#   SKM_DEB_TEST_KEEP=1 ...     keep the root (its path is printed)
# (The scripts run in the root are single-quoted: their $ are the root's.)
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh disable=SC1091
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skm_die "deb-test.sh needs root (debootstrap, chroot, mounts)"
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$SKM_ROOT/dkms.conf")
deb=${1:-$SKM_OUT/skmemcg-dkms_${ver}_all.deb}
if [ ! -f "$deb" ]; then
	[ -z "${1:-}" ] || skm_die "no $deb"
	"$SKM_ROOT/scripts/deb.sh" > /dev/null
fi
"$SKM_ROOT/scripts/version-check.sh" "$deb"

root=$(mktemp -d /var/tmp/skmemcg-debtest.XXXXXX)
mounts=()

trap 'skm_root_cleanup deb-test "${SKM_DEB_TEST_KEEP:-}"' EXIT
trap 'exit 143' INT TERM

# The root, as scripts/fresh.sh makes it.
skm_bookworm_root "$root" deb-test

mount -t proc proc "$root/proc"
mounts+=("$root/proc")
mkdir -p "$root/dev"
mount --bind /dev "$root/dev"
mounts+=("$root/dev")
skm_debs_share /var/cache/apt/archives "$root/var/cache/apt/archives"
cp "$deb" "$root/root/"

# in_root PHASE SCRIPT: run SCRIPT with bash in the root, with the helpers
# below; a failure names the phase.
in_root() {
	local phase=$1
	skm_log "deb-test: $phase"
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		SKM_VER="$ver" SKM_DEB="/root/$(basename "$deb")" \
		bash -c 'set -euo pipefail
		die() { echo "deb-test: $*" >&2; exit 1; }
		# kernels: every kernel release whose headers are installed
		kernels() {
			for d in /lib/modules/*/build; do
				[ -e "$d/Makefile" ] && basename "$(dirname "$d")"
			done
		}
		expect_installed() {
			local k ks st ko n=0
			ks=$(kernels)
			[ -n "$ks" ] || die "no kernel headers in the root"
			for k in $ks; do
				st=$(dkms status -m skmemcg -v "$SKM_VER" -k "$k")
				echo "dkms status: $st"
				case $st in *": installed"*) ;; *) die "$k: dkms status says \"$st\", not installed" ;; esac
				ko=$(find "/lib/modules/$k" -name "skmemcg.ko*" | head -n 1)
				[ -n "$ko" ] || die "$k: no skmemcg.ko under /lib/modules/$k"
				[ "$(modinfo -F version "$ko")" = "$SKM_VER" ] ||
					die "$ko: version $(modinfo -F version "$ko"), want $SKM_VER"
				if [ -e /var/lib/dkms/mok.pub ]; then
					[ -n "$(modinfo -F signer "$ko")" ] || die "$ko: DKMS has a MOK key but the module is not signed"
					echo "$ko: signed by \"$(modinfo -F signer "$ko")\""
				fi
				n=$((n + 1))
			done
			echo "installed for $n kernel(s) with headers: $(tr "\n" " " <<< "$ks")"
		}
		expect_purged() {
			local left
			left=$(ls -d /usr/src/skmemcg-* /var/lib/dkms/skmemcg /etc/modprobe.d/skmemcg.conf \
				/usr/sbin/skmemcg-exporter /lib/systemd/system/skmemcg-exporter.* \
				/usr/share/doc/skmemcg-dkms 2>/dev/null || true)
			left="$left $(find /lib/modules -name "skmemcg.ko*" 2>/dev/null)"
			[ -z "${left// /}" ] || die "left after purge: $left"
			! dpkg-query -W -f="\${db:Status-Abbrev}" skmemcg-dkms 2>/dev/null | grep -q "^[a-z]i" ||
				die "skmemcg-dkms still installed"
			echo "purged: nothing left"
		}
		'"$2" || skm_die "deb-test: $phase failed"
}

in_root install '
	apt-get update -q > /dev/null
	apt-get install -y -q linux-headers-amd64 "$SKM_DEB"
	expect_installed
	dkms status
	[ -d "/usr/src/skmemcg-$SKM_VER" ] || die "no /usr/src/skmemcg-$SKM_VER"
	! grep -v "^[[:space:]]*\(#\|$\)" /etc/modprobe.d/skmemcg.conf || die "modprobe.d/skmemcg.conf enables something"
	[ ! -e /etc/systemd/system/timers.target.wants/skmemcg-exporter.timer ] || die "the timer was enabled"
	out=$(skmemcg-exporter) || die "skmemcg-exporter exited $? with no module loaded"
	[ "$(echo "$out" | grep -v "^#")" = "skmemcg_loaded 0" ] || die "exporter with no module: $out"
	echo "exporter, no module loaded: skmemcg_loaded 0"'

in_root purge '
	apt-get purge -y -q skmemcg-dkms
	expect_purged'

in_root later '
	mapfile -t hdrs < <(dpkg-query -W -f="\${db:Status-Abbrev} \${Package}\n" "linux-headers-*" |
		awk "/^ii/ { print \$2 }")
	apt-get purge -y -q "${hdrs[@]}" > /dev/null
	[ -z "$(kernels)" ] || die "headers left: $(kernels)"
	apt-get install -y -q "$SKM_DEB"
	dkms status
	apt-get install -y -q linux-headers-amd64
	expect_installed
	apt-get purge -y -q skmemcg-dkms
	expect_purged'

skm_debs_share "$root/var/cache/apt/archives" /var/cache/apt/archives
echo "deb-test: $(basename "$deb") installs, builds for every kernel with headers, and purges clean in a fresh Debian 12 root"
