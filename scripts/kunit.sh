#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run skmemcg's KUnit suites in UML with kunit.py from Debian's
# linux-source-6.1. The suites and copies of the module's pure sources they
# test are overlaid into the (cached) kernel tree as lib/skmemcg/; the UML
# build folder is cached too, keyed by the source package version, so a
# rerun rebuilds only what changed.
#
# Prints each suite's results, then "kunit: N passed, N failed" (one per
# parameterized case). Exit 0 only if all passed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$(skm_ksrc)
ver=${src##*/src-}
overlay=$src/lib/skmemcg
build=$SKM_CACHE/uml-$ver
json=$SKM_OUT/kunit.json

# copy_if_changed FILE DEST-DIR: keep mtimes of unchanged files, so make
# rebuilds only what changed.
copy_if_changed() {
	cmp -s "$1" "$2/$(basename "$1")" || cp "$1" "$2/"
}

mkdir -p "$overlay"
for f in "$SKM_ROOT"/kunit/Kconfig "$SKM_ROOT"/kunit/Kbuild "$SKM_ROOT"/kunit/*_kunit.c; do
	copy_if_changed "$f" "$overlay"
done
# The module's pure sources the suite links: the non-test objects in kunit/Kbuild.
for obj in $(sed -n '/skmemcg_kunit-y/,/^$/p' "$SKM_ROOT/kunit/Kbuild" |
	     tr ' \\' '\n\n' | grep '\.o$' | grep -v '_kunit\.o$'); do
	copy_if_changed "$SKM_ROOT/module/${obj%.o}.c" "$overlay"
	copy_if_changed "$SKM_ROOT/module/${obj%.o}.h" "$overlay"
done
grep -q 'lib/skmemcg/Kconfig' "$src/lib/Kconfig.debug" ||
	echo 'source "lib/skmemcg/Kconfig"' >> "$src/lib/Kconfig.debug"
grep -q '^obj-y += skmemcg/' "$src/lib/Makefile" ||
	echo 'obj-y += skmemcg/' >> "$src/lib/Makefile"

skm_log "kunit: UML build in $build"
rm -f "$json"
set +e
(cd "$src" && python3 tools/testing/kunit/kunit.py run --arch=um \
	--build_dir="$build" --kunitconfig="$SKM_ROOT/kunit/.kunitconfig" \
	--jobs="$(nproc)" --timeout=300 --json="$json") > "$SKM_OUT/kunit.log" 2>&1
rc=$?
set -e
if [ ! -s "$json" ]; then
	tail -n 40 "$SKM_OUT/kunit.log"
	echo "kunit: 0 passed, 1 failed (no results; kunit.py exit $rc, log in $SKM_OUT/kunit.log)"
	exit 1
fi
set +e
python3 - "$json" <<'PY'
import json, sys

def leaves(group, path):
    for case in group.get("test_cases", []):
        yield path + "." + case["name"], case["status"]
    for sub in group.get("sub_groups", []):
        yield from leaves(sub, path + "." + sub["name"] if path else sub["name"])

data = json.load(open(sys.argv[1]))
passed = failed = 0
for suite in data["sub_groups"]:
    p = f = 0
    for name, status in leaves(suite, suite["name"]):
        if status in ("PASS", "SKIP"):
            p += 1
        else:
            f += 1
            print(f"kunit: FAIL {name} ({status})")
    print(f"kunit: {suite['name']}: {p} passed, {f} failed")
    passed += p
    failed += f
if passed + failed == 0:
    failed = 1
    print("kunit: no test ran")
print(f"kunit: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
status=$?
set -e
if [ "$status" -eq 0 ] && [ "$rc" -ne 0 ]; then
	echo "kunit: kunit.py exit $rc with every case passed; log in $SKM_OUT/kunit.log"
	exit 1
fi
exit $status
