// SPDX-License-Identifier: GPL-2.0
/*
 * skm-write FILE: write all of stdin to FILE in a single write(2) at offset 0,
 * then print "ok" or the errno name (EINVAL, EPERM, ...) and exit 0 or 1.
 * Shell redirections cannot tell a refused write from a short one, and they
 * split or reshape bytes; knob tests need exactly one write of exact bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
	size_t len = 0;
	ssize_t n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: skm-write FILE < value\n");
		return 2;
	}
	while ((n = read(0, buf + len, sizeof(buf) - len)) > 0)
		len += n;
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("%s\n", errno_name(errno));
		return 1;
	}
	n = write(fd, buf, len);
	if (n < 0) {
		printf("%s\n", errno_name(errno));
		return 1;
	}
	if ((size_t)n != len) {
		printf("short %zd/%zu\n", n, len);
		return 1;
	}
	printf("ok\n");
	return 0;
}
