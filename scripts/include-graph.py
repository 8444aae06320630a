#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The include graph of module/: a unit is a .c and its .h (throttle.c and
# throttle.h are "throttle"); an arrow runs from a unit to each unit whose
# header it includes. Prints the units, the arrows and every cycle (a
# strongly connected component of more than one unit), with the arrows
# inside it.
#
#   scripts/include-graph.py [DIR]   default: module
#
# Exit status 1 if there is a cycle. Last line: "include-graph: N passed,
# N failed" (one check: no cycle), for the test command.
import os
import re
import sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', 'module')
units = {}
for f in sorted(os.listdir(d)):
    if not f.endswith(('.c', '.h')):
        continue
    u = f[:-2]
    units.setdefault(u, set())
    with open(os.path.join(d, f)) as fh:
        for line in fh:
            m = re.match(r'#include "([^"/]+)\.h"', line)
            if m and m.group(1) != u:
                units[u].add(m.group(1))

# Tarjan's strongly connected components
index, low, stack, on_stack, sccs = {}, {}, [], set(), []
sys.setrecursionlimit(10000)


def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on_stack.add(v)
    for w in sorted(units[v]):
        if w not in units:
            continue
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on_stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on_stack.discard(w)
            comp.append(w)
            if w == v:
                break
        sccs.append(sorted(comp))


for v in sorted(units):
    if v not in index:
        visit(v)
cycles = [c for c in sccs if len(c) > 1]
arrows = sum(len(s & units.keys()) for s in units.values())
print(f"{len(units)} units, {arrows} include arrows, {len(cycles)} cycles")
for c in cycles:
    inside = [f"{a}->{b}" for a in c for b in sorted(units[a]) if b in c]
    print(f"cycle of {len(c)}: {' '.join(c)}")
    print(f"  arrows: {' '.join(inside)}")
print(f"include-graph: {0 if cycles else 1} passed, {1 if cycles else 0} failed")
sys.exit(1 if cycles else 0)
