#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a bench_overhead guest run into seed 000's tables and a chart.

    scripts/bench-report.py CONSOLE_LOG OUT_PREFIX [title]

Reads the "BENCH depth= config= case= threads= rep= value=" and "HOOK"
lines of the guest console log. Writes OUT_PREFIX.txt (the tables, also
printed) and OUT_PREFIX.png (gnuplot, if installed): per depth, each
configuration's median against the baseline's (no module) in %, with the
relative standard deviation of its repeats.

A bench_icount run ("ICOUNT config= case= rep= ns= cpu_ns=" lines, under
QEMU's -icount) gives the deterministic tables instead: each
configuration's median against the baseline's, with the spread of its
repeats ((max - min) / median); no chart. Guest time counts instructions
only while the vCPU does not idle (under sleep=off its clock skips an idle
wait): the guest-time table is titled a count of instructions only if no
run sat idle (neither the workload's CPU time, cpu_ns, nor the kernel
threads', other_ns) more than 0.3 % of its guest time, and says otherwise
that it is not a cost. With "ICOUNT_CALLS" lines
(each hook's calls per workload), the added instructions per hooked call.
"""
import math
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict

CASES = ["TCP_STREAM", "TCP_RR", "TCP_CRR", "UDP_STREAM", "UDP_RR"]
UNITS = {"TCP_STREAM": "Mbit/s", "UDP_STREAM": "Mbit/s",
         "TCP_RR": "trans/s", "TCP_CRR": "trans/s", "UDP_RR": "trans/s"}


def parse(path):
    runs = defaultdict(list)   # (depth, config, case, threads) -> [values]
    icount = defaultdict(list)  # (config, case) -> [ns]
    icount_cpu = defaultdict(list)  # (config, case) -> [CPU time of the workload, ns]
    calls = defaultdict(dict)  # (config, case) -> {hook: calls}
    icount_other = defaultdict(list)  # (config, case) -> [kernel threads' runtime, ns]
    hooks = []
    configs, depths = [], []
    with open(path, errors="replace") as f:
        for line in f:
            line = re.sub(r"^\[[a-z_]+\] ", "", line.rstrip("\n"))
            if line.startswith("BENCH "):
                kv = dict(p.split("=", 1) for p in line.split()[1:])
                key = (int(kv["depth"]), kv["config"], kv["case"], int(kv["threads"]))
                runs[key].append(float(kv["value"]))
                if kv["config"] not in configs:
                    configs.append(kv["config"])
                if int(kv["depth"]) not in depths:
                    depths.append(int(kv["depth"]))
            elif line.startswith("ICOUNT "):
                kv = dict(p.split("=", 1) for p in line.split()[1:])
                icount[(kv["config"], kv["case"])].append(int(kv["ns"]))
                if "cpu_ns" in kv:
                    icount_cpu[(kv["config"], kv["case"])].append(int(kv["cpu_ns"]))
                if "other_ns" in kv:
                    icount_other[(kv["config"], kv["case"])].append(int(kv["other_ns"]))
                if kv["config"] not in configs:
                    configs.append(kv["config"])
            elif line.startswith("ICOUNT_CALLS "):
                kv = dict(p.split("=", 1) for p in line.split()[1:])
                calls[(kv["config"], kv["case"])][kv["hook"]] = int(kv["calls"])
            elif line.startswith("HOOK ") and not line.startswith("HOOK hook "):
                hooks.append(line.split()[1:])
    return runs, (icount, icount_cpu, icount_other, calls), hooks, configs, depths


def spread_pct(values):
    med = statistics.median(values)
    return 100 * (max(values) - min(values)) / med if med else 0.0


def icount_table(icount, configs, title=None):
    """The deterministic table: guest ns under -icount, median of the repeats."""
    cases = []
    for _, case in icount:
        if case not in cases:
            cases.append(case)
    reps = max(len(v) for v in icount.values())
    title = title or ("guest time under -icount shift=0,sleep=off (instructions and"
                      " the time the vCPU sat idle)")
    out = [f"{title}, median of {reps}"
           " run(s); baseline = no module; others: change of the median, (spread:"
           " (max - min) / median)"]
    hdr = f"{'config':<10}"
    for case in cases:
        hdr += f" {case:>28}"
    out.append(hdr)
    for c in configs:
        row = f"{c:<10}"
        for case in cases:
            v, b = icount.get((c, case)), icount.get(("none", case))
            if not v or not b:
                row += f" {'-':>28}"
            elif c == "none":
                row += f" {'%d ns (%.2f%%)' % (statistics.median(v), spread_pct(v)):>28}"
            else:
                d = 100 * (statistics.median(v) / statistics.median(b) - 1)
                row += f" {'%+.2f%% (%.2f%%)' % (d, spread_pct(v)):>28}"
        out.append(row)
    return "\n".join(out) + "\n"


def cases_of(table):
    cases = []
    for _, case in table:
        if case not in cases:
            cases.append(case)
    return cases


def per_call_table(busy, calls, configs):
    """Added instructions per hooked call: (median - off's median) / calls."""
    cases = cases_of(busy)
    if not calls:
        return ""
    out = ["instructions added per hooked call: (median - off's median) / the"
           " workload's hooked calls (instrument=Y run); calls in brackets"]
    out.append(f"{'config':<10}" + "".join(f" {c:>28}" for c in cases))
    for c in configs:
        if c in ("none", "off"):
            continue
        row = f"{c:<10}"
        for case in cases:
            v, b, n = busy.get((c, case)), busy.get(("off", case)), calls.get((c, case))
            if not v or not b or not n:
                row += f" {'-':>28}"
                continue
            total = sum(n.values())
            d = statistics.median(v) - statistics.median(b)
            row += f" {'%.1f (%d)' % (d / total, total):>28}"
        out.append(row)
    hooks = sorted({h for n in calls.values() for h in n})
    if hooks:
        out.append("")
        out.append("hooked calls per workload, by hook (instrument=Y run):")
        out.append(f"{'config':<10} {'case':<18}" + "".join(f" {h[:26]:>26}" for h in hooks))
        for c in configs:
            for case in cases:
                n = calls.get((c, case))
                if n:
                    out.append(f"{c:<10} {case:<18}" +
                               "".join(f" {n.get(h, 0):>26}" for h in hooks))
    return "\n".join(out) + "\n"


# A guest-time table is a count of instructions only if no run sat idle
# (neither the workload's CPU time nor the kernel threads') more than this
# share of its guest time.
OUTSIDE_MAX_PCT = 0.3


def outside_pct(wall, cpu, other):
    """The largest share (%) of a run's guest time its vCPU sat idle."""
    worst = None
    for k, w in wall.items():
        c, o = cpu.get(k), other.get(k) or [0] * len(w)
        if not c or len(c) != len(w) or len(o) != len(w):
            return None
        for x, y, z in zip(w, c, o):
            share = 100 * (x - y - z) / x
            worst = share if worst is None else max(worst, share)
    return worst


def rsd_pct(values):
    if len(values) < 2:
        return 0.0
    mean = statistics.mean(values)
    return 100 * statistics.stdev(values) / mean if mean else 0.0


def main():
    log, prefix = sys.argv[1], sys.argv[2]
    title = sys.argv[3] if len(sys.argv) > 3 else ""
    runs, (icount, icount_cpu, icount_other, calls), hooks, configs, depths = parse(log)
    if icount and not runs:
        other = outside_pct(icount, icount_cpu, icount_other)
        if other is not None and other <= OUTSIDE_MAX_PCT:
            title = ("instructions: guest time under -icount shift=0,sleep=off (no run"
                     f" sat idle more than {max(other, 0):.2f}% of it)")
        elif other is not None:
            title = ("guest time under -icount, NOT a cost: up to"
                     f" {other:.2f}% of a run was the vCPU idle")
        else:
            title = None
        text = icount_table(icount, configs, title)
        if any(k[1].startswith("TCP_CRR") for k in icount):
            text += ("TCP_CRR: a run may carry 0 to 3 SLUB traps, each 0.2-0.3 % more, set by"
                     " the slab caches' state as it begins, not by its configuration\n"
                     "(docs/measurements.md, \"SLUB's slow path\"): scripts/slab-paths.sh"
                     " counts them and sets each configuration against none at as many.\n")
        if other is not None and other <= OUTSIDE_MAX_PCT:
            text += "\n" + per_call_table(icount, calls, configs)
        if icount_cpu:
            text += "\n" + icount_table(icount_cpu, configs, "CPU time of the workload's"
                                         " threads (getrusage; under -icount: instructions)")
        with open(prefix + ".txt", "w") as f:
            f.write(text)
        sys.stdout.write(text)
        return
    if not runs:
        sys.exit(f"no BENCH or ICOUNT lines in {log}")
    base = "none"
    others = [c for c in configs if c != base]
    threads = sorted({k[3] for k in runs})
    reps = max(len(v) for v in runs.values())
    out = []
    chart = []   # rows: depth, label, then one delta per other config
    worst = None
    for depth in sorted(depths):
        out.append(f"depth {depth}: median of {reps} run(s) per cell; baseline = no module;"
                   " others: change of the median, (relative std of their runs)")
        hdr = f"{'case':<11} {'load':>4} {'baseline':>10} {'':>8} {'1.00 (std%)':>12}"
        for c in others:
            hdr += f" {c:>15}"
        out.append(hdr)
        for case in CASES:
            for t in threads:
                b = runs.get((depth, base, case, t))
                if not b:
                    continue
                bmed = statistics.median(b)
                shown = bmed / 1e6 if "STREAM" in case else bmed
                row = (f"{case:<11} {t:>4} {shown:>10.1f} {UNITS[case]:>8}"
                       f" {'1.00 (%.1f%%)' % rsd_pct(b):>12}")
                deltas = []
                for c in others:
                    v = runs.get((depth, c, case, t))
                    if not v:
                        row += f" {'-':>15}"
                        deltas.append(math.nan)
                        continue
                    d = 100 * (statistics.median(v) / bmed - 1)
                    deltas.append(d)
                    row += f" {'%+.1f%% (%.1f%%)' % (d, rsd_pct(v)):>15}"
                    if c == "all" and (worst is None or d < worst[0]):
                        worst = (d, depth, case, t, rsd_pct(b), rsd_pct(v))
                out.append(row)
                chart.append((depth, f"{case} {t}", deltas))
        out.append("")
    if worst:
        out.append("worst cell of \"all\": %+.1f%% at depth %d, %s, %d thread(s)"
                   " (std %.1f%% baseline, %.1f%% all)" % worst)
        out.append("")
    if hooks:
        out.append("per hooked call, every policy on, instrument=Y (ns, local_clock();"
                   " 'original' is the kernel's function timed inside the replacement):")
        out.append(f"{'hook':<28} {'calls':>9} {'mean':>7} {'p50':>7} {'p99':>7}"
                   f" {'original':>9} {'added':>7} {'ratio':>6}")
        for h in sorted(hooks, key=lambda h: -int(h[6])):
            name, calls, mean, p50, p99, orig, added = h[:7]
            ratio = int(mean) / int(orig) if int(orig) else math.nan
            out.append(f"{name:<28} {calls:>9} {mean:>7} {p50:>7} {p99:>7} {orig:>9}"
                       f" {added:>7} {ratio:>6.2f}")
    text = "\n".join(out) + "\n"
    with open(prefix + ".txt", "w") as f:
        f.write(text)
    sys.stdout.write(text)

    if not shutil.which("gnuplot"):
        print("gnuplot not installed: no chart", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        gp = [f"set terminal pngcairo size 1200,{380 * len(depths)} font 'sans,9'",
              f"set output '{prefix}.png'",
              f"set multiplot layout {len(depths)},1 title '{title}'",
              "set termoption noenhanced", "set style data histogram", "set style histogram cluster gap 1",
              "set style fill solid 0.8 border -1", "set boxwidth 0.9",
              "set grid ytics", "set xtics rotate by -35 font ',8'",
              "set ylabel 'change vs no module, %'", "set key outside right top"]
        for depth in sorted(depths):
            dat = f"{tmp}/d{depth}"
            with open(dat, "w") as f:
                for d, label, deltas in chart:
                    if d == depth:
                        f.write('"%s" %s\n' % (label, " ".join(
                            "%.2f" % x if not math.isnan(x) else "?" for x in deltas)))
            gp.append(f"set title 'cgroup depth {depth}: median change per configuration'")
            gp.append("plot " + ", ".join(
                f"'{dat}' using {i + 2}:xtic(1) title '{c}'" for i, c in enumerate(others)))
        gp.append("unset multiplot")
        subprocess.run(["gnuplot"], input="\n".join(gp), text=True, check=True)
    print(f"chart: {prefix}.png")


if __name__ == "__main__":
    main()
