#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per bench_icount run, how often the kernel entered each function that
scripts/slab-paths.sh logged (QEMU's "-d exec,nochain -dfilter").

  slab-paths.py EXEC_LOG KSYMS_CONSOLE BENCH_CONSOLE [CASE]

EXEC_LOG: QEMU's log, a "Trace" line for each entry to a logged function;
KSYMS_CONSOLE: the console of the kern_syms boot ("KSYM <addr> <name>");
BENCH_CONSOLE: the bench_icount boot's, whose "ICOUNT" lines name the runs.
The workloads call getrusage() as they start their clock and as they stop
it, and nothing else in the guest does meanwhile, so the entries between
two calls of __x64_sys_getrusage are a run's own: the runs of CASE
(TCP_CRR by default) are told by their tcp_v4_connect entries, one a
connection, and matched in order with the ICOUNT lines of that case.
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
    for seg, line in zip(meas, runs):
        m = re.search(r'config=(\S+) .*rep=(\d+) ns=(\d+)', line)
        print('%-10s %3s %10s  %s' % (m.group(1), m.group(2), m.group(3),
                                      ' '.join('%14d' % seg[a] for a in shown)))


if __name__ == '__main__':
    main()
