#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which of skmemcg's source files a path through the module runs.

  scripts/path-files.py KO --from FUNC [FUNC...] [--stop FUNC...]

Reads KO's disassembly with line numbers and relocations (objdump -dlr),
follows the direct calls from each --from function to the functions KO
defines (not those named by --stop: the rare branches, say, that the path
being counted does not take; nor the kernel's), and prints, per function
reached, the module/ files its instructions come from, inlined code
included, then the union: the .c files and the headers.
"""
import argparse
import collections
import re
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("ko")
ap.add_argument("--from", dest="roots", nargs="+", required=True)
ap.add_argument("--stop", nargs="*", default=[])
args = ap.parse_args()

dis = subprocess.run(["objdump", "-dlr", "--no-show-raw-insn", args.ko],
                     capture_output=True, text=True, check=True).stdout

def base(name):
    """A function's name without GCC's suffixes (.isra.0, .constprop.0, .cold)."""
    return re.sub(r"\.(isra|constprop|part|cold)(\.\d+)?", "", name)


files = collections.defaultdict(set)
calls = collections.defaultdict(set)
fn = None
for line in dis.splitlines():
    m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
    if m:
        fn = base(m.group(1))
        continue
    if fn is None:
        continue
    m = re.match(r"^/\S*?/(module/[^:/]+\.[ch]):\d+", line)
    if m:
        files[fn].add(m.group(1))
        continue
    # a call of a function elsewhere (relocated) or in the same section
    m = (re.search(r"R_X86_64_PLT32\s+([A-Za-z_][\w.]*)", line) or
         re.search(r"\scall\s+[0-9a-f]+ <([A-Za-z_][\w.]*)>", line))
    if m:
        calls[fn].add(base(m.group(1)))

seen, todo = [], list(args.roots)
for r in args.roots:
    if r not in files:
        sys.exit(f"path-files: {r} is not a function of {args.ko}")
while todo:
    f = todo.pop(0)
    if f in seen or f in args.stop or f not in files:
        continue
    seen.append(f)
    todo.extend(sorted(calls[f]))
union = set()
for f in seen:
    union |= files[f]
    print(f"{f}: {' '.join(sorted(files[f]))}")
c = sorted(x for x in union if x.endswith(".c"))
h = sorted(x for x in union if x.endswith(".h"))
print(f"{len(c)} .c files: {' '.join(c)}")
print(f"{len(h)} headers: {' '.join(h)}")
