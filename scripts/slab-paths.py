#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per bench_icount run, how often the kernel entered each function that
scripts/slab-paths.sh logged (QEMU's "-d exec,nochain -dfilter").

  slab-paths.py EXEC_LOG KSYMS_CONSOLE BENCH_CONSOLE [CASE]

EXEC_LOG: QEMU's log, a "Trace" line for each entry to a logged function;
KSYMS_CONSOLE: the console of the prof_kern_syms boot ("KSYM <addr> <name>");
BENCH_CONSOLE: the bench_icount boot's, whose "ICOUNT" lines name the runs.
The workloads call getrusage() as they start their clock and as they stop
it, and nothing else in the guest does meanwhile, so the entries between
two calls of __x64_sys_getrusage are a run's own: the runs of CASE
(TCP_CRR by default) are told by their tcp_v4_connect entries, one a
connection, and matched in order with the ICOUNT lines of that case.
Then, if ___slab_alloc is among them, each configuration against none at
as many traps ("traps:runs" of each, the cost at the fewest both have).
"""
import collections
import re
import sys


def main():
    exec_log, ksyms, bench = sys.argv[1:4]
    case = sys.argv[4] if len(sys.argv) > 4 else 'TCP_CRR'
    names = {}
    for line in open(ksyms, errors='replace'):
        m = re.search(r'KSYM ([0-9a-f]+) (?:[tT] )?(\S+)', line)
        if m:
            names[int(m.group(1), 16)] = m.group(2)
    byname = {n: a for a, n in names.items()}
    marker, connect = byname['__x64_sys_getrusage'], byname['tcp_v4_connect']
    segs, cur = [], collections.Counter()
    with open(exec_log, 'rb') as f:
        for line in f:
            i = line.find(b'/')
            if not line.startswith(b'Trace') or i < 0:
                continue
            pc = int(line[i + 1:i + 17], 16)
            if pc == marker:
                segs.append(cur)
                cur = collections.Counter()
            else:
                cur[pc] += 1
    console = open(bench, errors='replace').read().splitlines()
    runs = [l for l in console if 'ICOUNT config=' in l and 'case=' + case in l]
    if not runs:
        sys.exit('slab-paths: no ICOUNT line of %s in %s' % (case, bench))
    want = int(re.search(r'case=\S+?_(\d+)', runs[0]).group(1))
    # the warm-up rounds run the same connections first
    nwarm = sum(1 for l in console if 'warm-up round' in l)
    cand = [s for s in segs if want <= s[connect] <= want + 2]
    meas = cand[nwarm:nwarm + len(runs)]
    if len(meas) != len(runs):
        sys.exit('slab-paths: %d runs of %d connections in the log, %d ICOUNT lines'
                 % (len(cand) - nwarm, want, len(runs)))
    shown = [a for a in sorted(names, key=names.get) if a not in (marker, connect)]
    print('%-10s %3s %10s  %s' % ('config', 'rep', 'ns',
                                  ' '.join('%14s' % names[a][:14] for a in shown)))
    slow = byname.get('___slab_alloc')
    floor = min(seg[slow] for seg in meas) if slow else 0
    by = collections.defaultdict(list)	# (config, traps): [ns]
    for seg, line in zip(meas, runs):
        m = re.search(r'config=(\S+) .*rep=(\d+) ns=(\d+)', line)
        traps = round((seg[slow] - floor) / want) if slow else 0
        by[(m.group(1), traps)].append(int(m.group(3)))
        print('%-10s %3s %10s  %s  traps=%d' % (m.group(1), m.group(2), m.group(3),
                                               ' '.join('%14d' % seg[a] for a in shown),
                                               traps))
    if slow:
        traps_table(by)


def median(v):
    v = sorted(v)
    return (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2


def traps_table(by):
    """Each configuration against none at as many traps: a trap is a slab
    cache caught so that every connection takes ___slab_alloc() once more
    than the run with the fewest (docs/measurements.md)."""
    print()
    print('%-10s %-12s %9s %s' % ('config', 'traps', 'vs none', 'spread at equal traps'))
    configs = sorted({c for c, _ in by}, key=lambda c: (c != 'none', c))
    for c in configs:
        ks = sorted(k for cc, k in by if cc == c)
        spread = max((max(v) - min(v)) / min(v) * 100
                     for (cc, k), v in by.items() if cc == c)
        common = [k for k in ks if ('none', k) in by]
        if c == 'none' or not common:
            cost = '-'
        else:
            k = common[0]
            cost = '%+.2f %%' % ((median(by[(c, k)]) / median(by[('none', k)]) - 1) * 100)
        runs = ','.join('%d:%d' % (k, len(by[(c, k)])) for k in ks)
        print('%-10s %-12s %9s %.3f %%' % (c, runs, cost, spread))


if __name__ == '__main__':
    main()
