#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict (from Debian's linux-source-6.1) on every kernel C
# file of the project. Exit 0 only if it reports nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$(skm_ksrc)
cd "$SKM_ROOT"
mapfile -t files < <(git ls-files --cached --others --exclude-standard 'module/*.[ch]' 'kunit/*.[ch]' 'scripts/guest/modules/*.c')
[ ${#files[@]} -gt 0 ] || skm_die "no files to check"
perl "$src/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
	--quiet -f "${files[@]}"
echo "checkpatch --strict: ${#files[@]} files clean"
