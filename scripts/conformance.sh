#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own memcg tests against skmemcg (make conformance): the
# conform_memcg case on every supported kernel, one boot each, side by
# side. Not part of the test command (see docs/testing.md, "Conformance").
#
#   scripts/conformance.sh [VAR=value ...]
#
# Arguments go to the guest case (CONFORM_STATES, CONFORM_BINS,
# CONFORM_ALLOWED, CONFORM_TRIES, CONFORM_BIN_TIMEOUT; "+" separates list
# items). Each kernel's linux-source-X.Y must be installed: 6.1 and 6.12 on
# this host, 7.x in the Debian 13 root. Last line: "conformance: N passed,
# N failed" over the boots' checks.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

env=${*:-}
pids=()
kvers=$(skm_kvers)
[ -n "$kvers" ] || skm_die "no supported kernel installed: run scripts/setup.sh"
for k in $kvers; do
	"$SKM_ROOT/scripts/vm.sh" -k "$k" -w conform -T 2400 -m 1536 -t conform_memcg \
		${env:+-e "$env"} > "$SKM_OUT/conform-$k.log" 2>&1 &
	pids+=($!)
done
for p in "${pids[@]}"; do
	wait "$p" || true
done
for k in $kvers; do
	grep -E '^vm\[' "$SKM_OUT/conform-$k.log" || skm_log "conformance[$k]: no result (out/conform-$k.log)"
done
# shellcheck disable=SC2046 # one file per kernel
awk '/^vm\[.*\]: [0-9]+ passed, [0-9]+ failed$/ { p += $(NF - 3); f += $(NF - 1) }
	END { printf "conformance: %d passed, %d failed\n", p, f }' \
	$(for k in $kvers; do echo "$SKM_OUT/conform-$k.log"; done)
