#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The measured tables of the docs, from one test run's out/.

Every table in README.md and docs/*.md that a run of the test command
(scripts/test.sh) measures is written by this script from that run's
console logs, never typed in: each sits between the lines

    <!-- doc-tables NAME -->
    <!-- /doc-tables NAME -->

and starts with a line naming the run (date, commit) and the files it was
read from.

    scripts/doc-tables.py OUT                 print every table (a check:
                                              exit 1 if one has no data)
    scripts/doc-tables.py OUT --write FILE    replace the blocks in FILE
                                              (repeatable)
    scripts/doc-tables.py --list              the tables' names

OUT is the run's output folder (out/ of the clone that ran it); the commit
is read from OUT/commit (written by scripts/test.sh) unless --commit says.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KVER_RE = re.compile(r'^vm-(\d+\.\d+\.\d+(?:-\d+)?(?:\+deb\d+)?-amd64)$')


def label(kver):
    """6.12.117+deb12-amd64 -> 6.12.117 (the docs' kernel column)."""
    return re.sub(r'\+deb\d+', '', kver[:-len('-amd64')])


def sort_key(kver):
    return [int(x) for x in re.findall(r'\d+', label(kver))]


def kernels(out):
    found = [m.group(1) for m in map(KVER_RE.match, os.listdir(out)) if m]
    return sorted(found, key=sort_key)


def lines(path, case):
    """The lines case printed to a console log, its "[case] " cut off."""
    try:
        with open(path, errors='replace') as f:
            text = f.read()
    except FileNotFoundError:
        return []
    pre = '[%s] ' % case
    return [l[len(pre):].rstrip() for l in text.splitlines()
            if l.startswith(pre)]


def fields(line):
    """KEY=VALUE pairs of a line, as a dict."""
    return dict(re.findall(r'(\w+)=(-?[\d.]+)', line))


def per_config(line):
    """'...: stock 3 in 3/3 runs, memory.high 0, skmemcg 0' -> dict."""
    body = line.split(': ', 1)[1]
    out = {}
    for part in body.split(', '):
        name, rest = part.split(' ', 1)
        out[name] = rest
    return out


class Missing(Exception):
    pass


def need(value, what):
    if not value:
        raise Missing(what)
    return value


def mb(n):
    return '%.1f MB' % (int(n) / 1e6)


# Each table: (kernels, out) -> (sources, markdown lines).

def t_throttle_oom(ks, out):
    rows, supp = [], []
    for k in ks:
        src = 'vm-%s/console.log' % k
        ls = lines(os.path.join(out, src), 'throttle_oom')
        get = {key: need([l for l in ls if l.startswith(key)], '%s: %s' % (src, key))[-1]
               for key in ('oom kills', 'hog speed', 'TCP sent', 'UDP datagrams', 'throttled')}
        kills = per_config(get['oom kills'])
        hog = per_config(get['hog speed'])
        sent = per_config(get['TCP sent'])
        udp = per_config(get['UDP datagrams'])
        thr = need(re.search(r'tx (\d+), rx (\d+);.*: (\d+) kills', get['throttled']),
                   src + ': throttled')
        for cfg, name in (('stock', 'stock'), ('memory.high', '`memory.high`'),
                          ('skmemcg', 'skmemcg `throttle=1`')):
            speed = hog[cfg] + (' (killed)' if cfg == 'stock' and hog[cfg] == '0' else '')
            rows.append('| %s | %s | %s | %s | %s | %s |' % (
                label(k), name, kills[cfg], speed, sent[cfg], udp[cfg]))
        supp.append('%s TX %s, RX %s (%s)' % (label(k), thr.group(1), thr.group(2), thr.group(3)))
    return ['vm-<kver>/console.log'], [
        '| kernel | config | OOM kills (3 runs) | workload speed during the burst, % of quiet | TCP sent, MiB | UDP datagrams/s |',
        '|---|---|---|---|---|---|'] + rows + [
        '', 'Allocations skmemcg suppressed over the 3 runs (and OOM kills with the module '
        'loaded but `throttle=0`): ' + '; '.join(supp) + '.']


def verbatim(case, sub='', pick=None):
    def table(ks, out):
        body = []
        for k in ks:
            src = 'vm-%s%s/console.log' % (k, sub)
            ls = [l for l in lines(os.path.join(out, src), case)
                  if pick is None or pick(l)]
            need(ls, '%s: no [%s] lines' % (src, case))
            body.append('# out/' + src)
            body += ['[%s] %s' % (case, l) for l in ls]
        return ['vm-<kver>%s/console.log' % sub], ['```'] + body + ['```']
    return table


def t_senders_sleep(ks, out):
    return verbatim('senders_sleep', pick=lambda l: ': ' in l and 'cpu_ms=' in l)(ks, out)


def t_pcpu_cases(ks, out):
    body = []
    for k in ks:
        src = 'vm-%s-numa2/console.log' % k
        body.append('# out/' + src)
        for case in ('pcpu_size', 'pcpu_granularity', 'pcpu_drain', 'pcpu_numa'):
            ls = need(lines(os.path.join(out, src), case), '%s: [%s]' % (src, case))
            body += ['[%s] %s' % (case, l) for l in ls if not l.startswith(('PASS', 'ok'))]
    return ['vm-<kver>-numa2/console.log'], ['```'] + body + ['```']


def t_pcpu_bench(ks, out):
    rows = []
    names = {'256': '1 MB', 'auto': '`auto`', '4096': '16 MB'}
    for k in ks:
        src = 'vm-%s-numa2/console.log' % k
        got = 0
        for l in lines(os.path.join(out, src), 'pcpu_bench'):
            f = l.split()
            if len(f) == 4 and f[0] in names and f[1].isdigit():
                rows.append('| %s | %s | %s | %s | %s |' % (label(k), names[f[0]], *f[1:]))
                got += 1
        need(got == 3, '%s: pcpu_bench table' % src)
    return ['vm-<kver>-numa2/console.log'], [
        '| kernel | reserve | pages | updates/GiB, spread | updates/GiB, pinned |',
        '|---|---|---|---|---|'] + rows


def t_exclusive(ks, out):
    rows, rows2 = [], []
    for k in ks:
        src = 'vm-%s/console.log' % k
        ls = lines(os.path.join(out, src), 'exclusive')
        for kind, name in (('global ', 'ordinary'), ('exclusive ', 'exclusive')):
            f = fields(need([l for l in ls if l.startswith(kind)], '%s: %s' % (src, kind))[-1])
            rows.append('| %s | %s | %s | %s | +%s | %s |' % (
                label(k), name, f['sockstat_mem'], mb(f['memcg_sock']),
                f['pressures'], mb(f['rxq'])))
        rm = re.search(r'rmmod with (\d+) exclusive pages live',
                       need([l for l in ls if l.startswith('rmmod with')], src + ': rmmod')[-1])
        en = re.search(r'enabled=0 with (\d+)',
                       need([l for l in ls if l.startswith('enabled=0 with')], src + ': enabled=0')[-1])
        ns = re.findall(r'exclusive_sockets=(\d+) lookups=\d+ mean_ns=(\d+)',
                        need([l for l in ls if l.startswith('lookup cost')], src + ': lookup')[-1])
        bs = fields(need([l for l in ls if l.startswith('backstop')], src + ': backstop')[-1])
        after = [fields(l) for l in ls if l.startswith('after') and 'memcg_sock=' in l]
        rows2.append('| %s | %s | %s | %s | %s | %s, %s | %s |' % (
            label(k), rm.group(1), en.group(1), ' / '.join(
                '%s' % f['sockstat_mem'] for f in after),
            ' / '.join(f['memcg_sock'] for f in after),
            ns[0][1] + ' ns (0 sockets)', ns[1][1] + ' ns (%s sockets)' % ns[1][0],
            '%s suppressed, %s pages' % (bs['backstopped'], bs['exclusive_pages'])))
    return ['vm-<kver>/console.log'], [
        '| kernel | cgroup | sockstat TCP `mem`, pages | memory.stat `sock` | TCPMemoryPressures | bytes queued at receivers |',
        '|---|---|---|---|---|---|'] + rows + [
        '',
        '| kernel | `rmmod` with exclusive pages live | `enabled=0` with pages live | sockstat `mem` after close (loaded / after `rmmod` / after `enabled=0`) | memory.stat `sock` after close | exclusiveness lookup per allocation (TCG, one clock read included) | backstop 50% |',
        '|---|---|---|---|---|---|---|'] + rows2


def t_exclusive_bypass(ks, out):
    ks = [k for k in ks if not any(l.startswith('SKIP') for l in lines(
        os.path.join(out, 'vm-%s/console.log' % k), 'exclusive_bypass'))]
    need(ks, 'exclusive_bypass ran on no kernel')
    return verbatim('exclusive_bypass')(ks, out)


def t_reclaim(ks, out):
    rows = []
    for k in ks:
        log = os.path.join(out, 'vm-%s-reclaim/console.log' % k)
        r = subprocess.run([os.path.join(ROOT, 'scripts/reclaim-table.sh'), log, label(k)],
                           capture_output=True, text=True)
        need(r.returncode == 0 and r.stdout, '%s: %s' % (log, r.stderr.strip()))
        rows += r.stdout.splitlines()
    return ['vm-<kver>-reclaim/console.log, rows by scripts/reclaim-table.sh'], [
        '| kernel | LRU | policy | low 72 | 60 | 42 | 28 | 14 | 0 |',
        '|---|---|---|---|---|---|---|---|---|'] + rows


def t_reload(ks, out):
    rows = []
    for k in ks:
        src = 'vm-%s-reload/console.log' % k
        ls = lines(os.path.join(out, src), 'reload_cycles')
        idle = re.search(r'modprobe ([\d.]+)s, exclusive=0 ([\d.]+)s, rmmod ([\d.]+)s',
                         need([l for l in ls if l.startswith('idle:')], src + ': idle')[-1])
        cyc = [float(m.group(1)) for m in (re.search(r'unloaded in ([\d.]+)s', l)
                                           for l in ls if l.startswith('cycle ')) if m]
        flips = [(float(m.group(2)), m.group(1)) for m in (
            re.search(r'^flip \d+: (\S+) in ([\d.]+)s', l) for l in ls) if m]
        need(cyc and flips, src + ': cycles and flips')
        slow = max(flips)
        # The syscalls alone (skm-rmmod, skm-write -t; lines from before
        # them read "-").
        sys_line = [l for l in ls if l.startswith('the syscalls alone:')]
        sys_m = sys_line and re.search(
            r'delete_module\(2\) under traffic ([\d.]+)s \(idle ([\d.]+)s\); '
            r"slowest flip's write\(2\) ([\d.]+)s \(exclusive=0 idle ([\d.]+)s\)", sys_line[-1])
        sys_cells = ('%s s (idle %s s) | %s s (idle %s s)' % sys_m.groups()) if sys_m else '- | -'
        rows.append('| %s | %s s | %s s | %.2f-%.2f s (%d cycles), median %.2f s | %s s | %.2f s (`%s`) | %s |' % (
            label(k), idle.group(1), idle.group(3), min(cyc), max(cyc), len(cyc),
            statistics.median(cyc), idle.group(2), slow[0], slow[1], sys_cells))
    return ['vm-<kver>-reload/console.log, lines idle:, cycle N: unloaded in, flip N:, the syscalls alone:'], [
        '| kernel | idle `modprobe` | idle `rmmod` | `rmmod` under traffic | idle `exclusive=0` | slowest policy flip under traffic | slowest `delete_module(2)` alone | slowest flip\'s `write(2)` alone |',
        '|---|---|---|---|---|---|---|---|'] + rows


def t_compare(ks, out):
    body = []
    for k in ks:
        p = os.path.join(out, 'compare-%s.log' % k)
        if os.path.exists(p):
            with open(p) as f:
                body += [l.rstrip() for l in f if l.startswith('|')]
            if body:
                return ['compare-%s.log (scripts/compare-table.sh)' % k], body
    raise Missing('no compare-<kver>.log')


def t_bench_smoke(ks, out):
    body = []
    for k in ks:
        for name in ('bench-smoke-%s.txt', 'bench-smoke-icount-%s.txt'):
            p = os.path.join(out, name % k)
            with open(need(os.path.exists(p) and p, p)) as f:
                body += ['# out/' + name % k] + [l.rstrip() for l in f]
    return ['bench-smoke-<kver>.txt, bench-smoke-icount-<kver>.txt'], ['```'] + body + ['```']


TABLES = {
    'throttle_oom': t_throttle_oom,
    'senders_sleep': t_senders_sleep,
    'pcpu_cases': t_pcpu_cases,
    'pcpu_bench': t_pcpu_bench,
    'exclusive': t_exclusive,
    'exclusive_bypass': t_exclusive_bypass,
    'reclaim': t_reclaim,
    'reload': t_reload,
    'compare': t_compare,
    'bench_smoke': t_bench_smoke,
}


def render(name, out, commit, date):
    ks = kernels(out)
    need(ks, '%s: no vm-<kver> folder' % out)
    sources, body = TABLES[name](ks, out)
    head = ('Written by `scripts/doc-tables.py` from the test run of %s at commit %s '
            '(its kernels: %s; read from `out/%s`).' % (
                date, commit, ', '.join(label(k) for k in ks), '`, `out/'.join(sources)))
    return [head, ''] + body


def write(path, blocks):
    """Replace each block of @blocks found in the file @path."""
    with open(path) as f:
        text = f.read()
    for name, body in blocks.items():
        begin, end = '<!-- doc-tables %s -->\n' % name, '<!-- /doc-tables %s -->' % name
        pat = re.compile(re.escape(begin) + '.*?' + re.escape(end), re.S)
        if not pat.search(text):
            continue
        text = pat.sub(lambda _m: begin + '\n'.join(body) + '\n' + end, text)
    with open(path, 'w') as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('out', nargs='?')
    ap.add_argument('--list', action='store_true', help='the tables\' names')
    ap.add_argument('--write', metavar='FILE', action='append',
                    help='a file whose blocks to replace (repeatable)')
    ap.add_argument('--commit')
    ap.add_argument('--date')
    ap.add_argument('--only', help='comma-separated table names')
    a = ap.parse_args()
    if a.list:
        print('\n'.join(TABLES))
        return 0
    if not a.out:
        ap.error('OUT is needed')
    commit = a.commit
    if not commit:
        try:
            with open(os.path.join(a.out, 'commit')) as f:
                commit = f.read().strip()
        except FileNotFoundError:
            sys.exit('%s/commit missing: give --commit' % a.out)
    date = a.date or time.strftime('%Y-%m-%d', time.gmtime(
        os.path.getmtime(os.path.join(a.out, 'results.tsv'))))
    blocks, failed = {}, 0
    for name in (a.only.split(',') if a.only else TABLES):
        try:
            blocks[name] = render(name, a.out, commit, date)
        except (Missing, OSError, AttributeError, KeyError, IndexError) as e:
            print('doc-tables: %s: no table: %s' % (name, e), file=sys.stderr)
            failed += 1
    if a.write:
        for path in a.write:
            write(path, blocks)
    else:
        for name, body in blocks.items():
            print('<!-- doc-tables %s -->' % name)
            print('\n'.join(body))
            print('<!-- /doc-tables %s -->\n' % name)
    print('doc-tables: %d tables, %d without data' % (len(blocks), failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
