#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's demo command: install what is missing, build, boot the Debian
# kernel under QEMU and run the demo case, printing what it shows.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$SKM_ROOT/scripts/setup.sh"
kver=${KVER:-$(skm_kver_61)}
[ -n "$kver" ] || skm_die "no Debian 6.1 kernel in /boot after setup"
"$SKM_ROOT/scripts/vm.sh" -k "$kver" -t demo | grep -v '^vm\[' || true
grep -q "^@@SKM END demo PASS" "$SKM_OUT/vm-$kver/console.log" ||
	skm_die "the demo did not pass; its console log: $SKM_OUT/vm-$kver/console.log"
