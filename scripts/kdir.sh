#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel build tree to build against: the running kernel's, else the
# newest installed Debian linux-headers-*-amd64. Prints nothing if none.
d=/lib/modules/$(uname -r)/build
if [ -d "$d" ]; then
	echo "$d"
	exit 0
fi
ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1
