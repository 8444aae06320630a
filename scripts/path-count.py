# SPDX-License-Identifier: GPL-2.0
#
# gdb's half of scripts/path-count.sh (run by gdb -batch -x): single-step
# hooked calls in the guest and count their instructions per function.
# Reads PC_LOG (the guest's console: PROF FN and PROFSYM lines), PC_SOCK
# (QEMU's gdb socket), PC_CALLS (calls a function), PC_HEAD (a title).
# PC_WHOLE=1: every call to its return, the kernel's body included, so
# that a configuration's whole calls compare with no module's (none).
import bisect
import collections
import os
import re

import gdb

CALL_REL32 = 0xe8
NOP5 = b"\x0f\x1f\x44\x00\x00"
MCOUNT_INSN_SIZE = 5
MAX_STEPS = 20000
RETURNED = -1	# a path's mark: it returned to the caller, no kernel body

fns, syms = {}, []
for line in open(os.environ["PC_LOG"], errors="replace"):
    line = re.sub(r"^\[[a-z_]+\] ", "", line.strip())
    f = line.split()
    if len(f) == 4 and f[:2] == ["PROF", "FN"]:
        fns[int(f[2], 16)] = f[3]
    elif len(f) == 3 and f[0] == "PROFSYM":
        syms.append((int(f[1], 16), f[2]))
syms.sort()
starts = [a for a, _ in syms]


def sym_of(pc):
    i = bisect.bisect_right(starts, pc) - 1
    if i < 0 or pc - starts[i] > 0x4000:
        return "?"
    return syms[i][1]


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote " + os.environ["PC_SOCK"])
inf = gdb.selected_inferior()
body = {}
# A hooked function that sleeps for long (none today) would idle the
# guest single-stepped, its timers held, never to wake: PC_SKIP names such.
SKIP = set(os.environ.get("PC_SKIP", "").split())
fns = {a: n for a, n in fns.items() if n not in SKIP}
for addr, name in fns.items():
    # the ftrace site: a call (hooked) or NOP5 (not), at the entry or after
    # its first 4 bytes (ENDBR, or the NOP4 that seals it on IBT kernels)
    head = bytes(inf.read_memory(addr, 5))
    site = addr if head[0] == CALL_REL32 or head == NOP5 else addr + 4
    body[addr] = site + MCOUNT_INSN_SIZE
    gdb.execute("break *%#x" % addr, to_string=True)

# Sampled until every function has its calls, or has not been called in
# the last 20 calls a function wanted (vmpressure() with no reclaim, say).
want = int(os.environ.get("PC_CALLS", "40"))
WHOLE = os.environ.get("PC_WHOLE") == "1"
samples = collections.defaultdict(list)
unhooked = collections.Counter()
hits = 0
last_hit = {a: 0 for a in fns}


def done():
    return all(len(samples[a]) >= want or hits - last_hit[a] > 20 * want
               for a in fns)


while not done():
    try:
        gdb.execute("continue", to_string=True)
    except gdb.error:
        break
    pc = int(gdb.parse_and_eval("$pc")) & (2**64 - 1)
    if pc not in fns:
        continue
    hits += 1
    if len(samples[pc]) >= want:
        continue
    last_hit[pc] = hits
    # ends at the kernel's body, or back in the caller when the
    # replacement did the work itself (an exclusive socket's reduce)
    fn, end, path = pc, (None if WHOLE else body[pc]), []
    ret = int.from_bytes(bytes(inf.read_memory(int(gdb.parse_and_eval("$sp")) & (2**64 - 1), 8)), "little")
    while pc != end and pc != ret and len(path) < MAX_STEPS:
        path.append(pc)
        gdb.execute("stepi", to_string=True)
        pc = int(gdb.parse_and_eval("$pc")) & (2**64 - 1)
    if pc == ret:
        path.append(RETURNED)
    if len(path) <= 2 and not WHOLE:
        unhooked[fn] += 1
    else:
        samples[fn].append(path)
gdb.execute("delete")
gdb.execute("detach")

out = open(os.environ["PC_OUT"], "w")
if WHOLE:
    print("path-count: %s; instructions of whole calls of each hooked function,"
          " entry to return (PC_WHOLE=1)" % os.environ["PC_HEAD"], file=out)
else:
    print("path-count: %s; instructions from a hooked function's entry to its"
          " own body (the ENDBR and the ftrace site included; stock runs 2)" % os.environ["PC_HEAD"],
          file=out)
for fn in sorted(fns, key=lambda a: fns[a]):
    paths = samples[fn]
    if not paths:
        print("\n%s: no redirected call sampled (%d not redirected)" % (fns[fn], unhooked[fn]),
              file=out)
        continue
    def label(p):
        return "%d%s" % (len(p) - (p[-1] == RETURNED), "r" if p[-1] == RETURNED else "")

    counts = collections.Counter(label(p) for p in paths)
    print("\n%s: %d calls sampled, instructions: %s (r: returned to the caller"
          " without the kernel's body, every instruction of the call)" % (
              fns[fn], len(paths),
              ", ".join("%s x%d" % (n, c) for n, c in sorted(counts.items()))), file=out)
    common = counts.most_common(1)[0][0]
    path = [pc for pc in next(p for p in paths if label(p) == common) if pc != RETURNED]
    common = len(path)
    per = collections.OrderedDict()
    for pc in path:
        s = sym_of(pc) if pc not in fns else fns[pc]
        per[s] = per.get(s, 0) + 1
    print("  one call of %d, per function in order of entry:" % common, file=out)
    for s, n in per.items():
        print("    %5d  %s" % (n, s), file=out)
    if os.environ.get("PC_TRACE"):
        print("  its instructions:", file=out)
        for pc in path:
            i = bisect.bisect_right(starts, pc) - 1
            where = "%s+%#x" % (syms[i][1], pc - starts[i]) if i >= 0 else "?"
            print("    %#x %s" % (pc, where), file=out)
