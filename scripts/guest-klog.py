#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel log of a running QEMU guest, read from the guest's RAM.

    scripts/guest-klog.py QEMU_PID [LINES]

For a guest that hangs before its init prints anything (scripts/vm.sh boots
with loglevel=4, so the console shows nothing of the kernel's own progress):
finds the printk ring's text in QEMU's RAM mappings (anonymous read-write
mappings of 64 MiB and more) by the formatted "Command line: " record, and
prints the printable text from there to the ring's last record, one record
a line, the last LINES (default 40). Order holds until the ring wraps, which an early hang does
not reach. Needs ptrace access to QEMU (root, or the same user with
kernel.yama.ptrace_scope=0). Exit 1 when nothing was found.
"""
import re
import sys

CHUNK = 64 << 20
MARK = b"Command line: console=ttyS0"


def ram_mappings(pid):
    for line in open(f"/proc/{pid}/maps"):
        fields = line.split()
        start, end = (int(x, 16) for x in fields[0].split("-"))
        # anonymous (no path), read-write: guest RAM backends
        if len(fields) < 6 and fields[1].startswith("rw") and end - start >= CHUNK:
            yield start, end


def find_log(pid):
    with open(f"/proc/{pid}/mem", "rb") as mem:
        for start, end in ram_mappings(pid):
            for off in range(start, end, CHUNK):
                mem.seek(off)
                try:
                    data = mem.read(min(CHUNK + 4096, end - off))
                except OSError:
                    continue
                i = data.find(MARK)
                if i < 0:
                    continue
                mem.seek(off + i)
                return mem.read(min(2 << 20, end - off - i))
    return None


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: guest-klog.py QEMU_PID [LINES]")
    pid = int(sys.argv[1])
    lines = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    try:
        text = find_log(pid)
    except OSError as e:
        sys.exit(f"guest-klog: cannot read QEMU's memory: {e}")
    if text is None:
        print("guest-klog: no kernel log found in the guest's RAM")
        sys.exit(1)
    # The data ring holds each record's text after an 8-byte id, aligned
    # to 8 bytes: the text ends where the next string is further away.
    records, prev_end = [], 0
    for m in re.finditer(rb"[\x20-\x7e]{4,}", text):
        if records and m.start() - prev_end > 32:
            break
        records.append(m.group().decode())
        prev_end = m.end()
    print("\n".join(records[-lines:]))


if __name__ == "__main__":
    main()
