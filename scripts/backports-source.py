#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print a deb822 apt source for bookworm-backports that uses the same Debian
mirror, key and components as the source this machine already has for
bookworm (from /etc/apt/sources.list.d/*.sources or a sources.list line).
With --mirror, print only that mirror's URI (for debootstrap).
Never names a host of its own."""
import glob, re, sys
# Find the Debian mirror that serves "bookworm" in the existing apt sources.
entries = []
for path in sorted(glob.glob('/etc/apt/sources.list.d/*.sources')):
    for para in re.split(r'\n\s*\n', open(path).read()):
        fields = {}
        for line in para.splitlines():
            if line.startswith('#') or ':' not in line or line[0].isspace():
                continue
            k, v = line.split(':', 1)
            fields[k.strip().lower()] = v.strip()
        if fields.get('enabled', 'yes').lower() == 'no':
            continue
        if 'bookworm' in fields.get('suites', '').split() and 'deb' in fields.get('types', '').split():
            entries.append((fields['uris'].split()[0], fields.get('signed-by', ''), fields.get('components', 'main')))
for path in ['/etc/apt/sources.list'] + sorted(glob.glob('/etc/apt/sources.list.d/*.list')):
    try:
        lines = open(path).read().splitlines()
    except OSError:
        continue
    for line in lines:
        m = re.match(r'^deb\s+(\[[^\]]*\]\s+)?(\S+)\s+bookworm\s+(.*)$', line.strip())
        if m:
            opts = m.group(1) or ''
            sb = re.search(r'signed-by=(\S+?)[\s\]]', opts)
            entries.append((m.group(2), sb.group(1) if sb else '', m.group(3)))
if not entries:
    sys.exit('no apt source serves bookworm; cannot add bookworm-backports')
uri, signed_by, comps = entries[0]
if sys.argv[1:] == ['--mirror']:
    print(uri)
    sys.exit(0)
print('Types: deb')
print('URIs: ' + uri)
print('Suites: bookworm-backports')
print('Components: ' + comps)
if signed_by:
    print('Signed-By: ' + signed_by)
