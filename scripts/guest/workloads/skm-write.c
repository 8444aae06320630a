// SPDX-License-Identifier: GPL-2.0
/*
 * skm-write [-t] FILE: write all of stdin to FILE in a single write(2) at
 * offset 0, then print "ok" or the errno name (EINVAL, EPERM, ...) and exit
 * 0 or 1. Shell redirections cannot tell a refused write from a short one,
 * and they split or reshape bytes; knob tests need exactly one write of
 * exact bytes. With -t, the result is followed by the seconds the write(2)
 * took (CLOCK_MONOTONIC around the call): a knob's setter alone, without
 * the process starts that a shell's timing includes (up to a second each
 * under load in the guest).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "skm-time.h"

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EBUSY: return "EBUSY";
	case ENOMEM: return "ENOMEM";
	case EFAULT: return "EFAULT";
	case ENOSPC: return "ENOSPC";
	case E2BIG: return "E2BIG";
	case EIO: return "EIO";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return strerror(e);
	}
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	int timed = argc == 3 && !strcmp(argv[1], "-t");
	double t0, secs;
	size_t len = 0;
	ssize_t n;
	int fd;

	if (argc != 2 && !timed) {
		fprintf(stderr, "usage: skm-write [-t] FILE < value\n");
		return 2;
	}
	if (timed)
		argv++;
	while ((n = read(0, buf + len, sizeof(buf) - len)) > 0)
		len += n;
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("%s\n", errno_name(errno));
		return 1;
	}
	t0 = skm_now();
	n = write(fd, buf, len);
	secs = skm_now() - t0;
	if (n < 0)
		printf("%s", errno_name(errno));
	else if ((size_t)n != len)
		printf("short %zd/%zu", n, len);
	else
		printf("ok");
	if (timed)
		printf(" %.3f", secs);
	printf("\n");
	return n >= 0 && (size_t)n == len ? 0 : 1;
}
