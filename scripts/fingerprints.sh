#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fingerprints: record in module/fingerprints.h the fingerprints of the
# kernel functions whose bodies the policies copy or rely on (module/drift.c,
# skm_body_claims), as the drift_guard case reads them in a guest.
#
#   scripts/fingerprints.sh [KVER...]     boot drift_guard on each (default:
#                                         the kernels the test command boots)
#   scripts/fingerprints.sh --from LOG... record from console logs already
#                                         made (make matrix's, for instance)
#
# Recording a kernel vouches for it: the policies then run their copies on
# it. Record only a kernel whose source of those functions the copies were
# compared with (docs/design.md, "Drift guard"). Entries of other kernels
# stay; the module must be rebuilt to carry the new table.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

header=$SKM_ROOT/module/fingerprints.h
logs=()
if [ "${1:-}" = --from ]; then
	shift
	logs=("$@")
else
	kvers=${*:-$(skm_kvers)}
	for kver in $kvers; do
		skm_log "fingerprints: drift_guard on $kver"
		# The case fails on a kernel not recorded yet: its log is what we want.
		"$SKM_ROOT/scripts/vm.sh" -k "$kver" -q -w fingerprints -t drift_guard || true
		logs+=("$SKM_OUT/vm-$kver-fingerprints/console.log")
	done
fi
[ "${#logs[@]}" -gt 0 ] || skm_die "fingerprints: no kernel and no log"

python3 - "$header" "${logs[@]}" <<'PY'
import re, sys

header, logs = sys.argv[1], sys.argv[2:]
families = {"6_1": r"6\.1\.", "6_12": r"6\.12\.", "7_3": r"7\.3\."}
entry_re = re.compile(r'\{ "([^"]+)", (\d+), 0x([0-9a-f]+)ULL \}')
kernels_re = re.compile(r'^\t/\* read from: (.*) \*/$')
# (family, function, size, hash) -> set of kernels
table = {}
family, kernels = None, []
for line in open(header):
    m = re.match(r'#(?:el)?if defined\(SKM_FAMILY_(\w+)\)', line)
    if m:
        family = m.group(1)
    m = kernels_re.match(line.rstrip("\n"))
    if m:
        kernels = m.group(1).split()
    m = entry_re.search(line)
    if m and family:
        key = (family, m.group(1), int(m.group(2)), m.group(3))
        table.setdefault(key, set()).update(kernels)

seen = 0
line_re = re.compile(r'fingerprint: (\S+) (\S+) (\d+) ([0-9a-f]{16}) (recorded|differs)')
for log in logs:
    for line in open(log, errors="replace"):
        m = line_re.search(line)
        if not m:
            continue
        rel, fn, size, h = m.group(1), m.group(2), int(m.group(3)), m.group(4)
        fam = next((f for f, r in families.items() if re.match(r, rel)), None)
        if fam is None:
            sys.exit(f"fingerprints: {rel} is of no supported family")
        table.setdefault((fam, fn, size, h), set()).add(rel)
        seen += 1
if not seen:
    sys.exit("fingerprints: no 'fingerprint:' line in " + " ".join(logs))

out = ['/* SPDX-License-Identifier: GPL-2.0 */',
       '/*',
       ' * The fingerprints (text_fp.c) of the kernel functions whose bodies',
       " * skmemcg's policies copy or rely on (drift.c, skm_body_claims), as read",
       ' * from each kernel whose source of them the copies were checked against.',
       ' * Written by scripts/fingerprints.sh (make fingerprints) from the',
       " * drift_guard case's logs; do not edit by hand.",
       ' */',
       '#ifndef _SKMEMCG_FINGERPRINTS_H',
       '#define _SKMEMCG_FINGERPRINTS_H',
       '',
       'struct skm_fp_expect {',
       '\tconst char *func;',
       '\tu32 size;',
       '\tu64 hash;',
       '};',
       '',
       'static const struct skm_fp_expect skm_fp_expected[] = {']
first = True
for fam in families:
    rows = sorted(k for k in table if k[0] == fam)
    if not rows:
        continue
    out.append(('#if' if first else '#elif') + f' defined(SKM_FAMILY_{fam})')
    first = False
    for key in rows:
        out.append('\t/* read from: ' + " ".join(sorted(table[key])) + ' */')
        out.append(f'\t{{ "{key[1]}", {key[2]}, 0x{key[3]}ULL }},')
if not first:
    out.append('#endif')
out += ['\t{ NULL }', '};', '', '#endif /* _SKMEMCG_FINGERPRINTS_H */', '']
open(header, "w").write("\n".join(out))
print(f"fingerprints: {seen} read, {len(table)} entries in {header}")
PY
