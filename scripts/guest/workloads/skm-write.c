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
 *
 * skm-write -b FILE CHECK WANT: the bad values of stdin, one a line with
 * printf's escapes (\n, \\, \NNN octal), each written to FILE as above;
 * each must be refused with EINVAL and leave CHECK reading WANT (its
 * trailing newline dropped). Prints a line per value that was not, then
 * "N refused", and exits 0 only if every one was: the knobs case's bad
 * writes in one process, not three per value.
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

/* @src with printf's escapes undone into @dst; returns the length. */
static size_t unescape(const char *src, char *dst)
{
	size_t len = 0;
	int i, v;

	while (*src) {
		if (*src != '\\' || !src[1]) {
			dst[len++] = *src++;
			continue;
		}
		src++;
		if (*src >= '0' && *src <= '7') {
			for (i = 0, v = 0; i < 3 && *src >= '0' && *src <= '7'; i++)
				v = v * 8 + *src++ - '0';
			dst[len++] = (char)v;
			continue;
		}
		dst[len++] = *src == 'n' ? '\n' : *src == 't' ? '\t' : *src;
		src++;
	}
	return len;
}

/* CHECK's contents, the trailing newline dropped, into @buf. */
static const char *read_check(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return "(unreadable)";
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	return buf;
}

static int bad_writes(const char *file, const char *check, const char *want)
{
	static char line[4096], value[4096], now[4096];
	int refused = 0, failed = 0, fd;
	size_t len;
	ssize_t n;

	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = 0;
		len = unescape(line, value);
		fd = open(file, O_WRONLY);
		n = fd < 0 ? -1 : write(fd, value, len);
		if (n < 0 && errno == EINVAL) {
			refused++;
		} else {
			printf("'%s': %s\n", line, n < 0 ? errno_name(errno) : "taken");
			failed = 1;
		}
		if (fd >= 0)
			close(fd);
		if (strcmp(read_check(check, now, sizeof(now)), want)) {
			printf("'%s': %s reads '%s', not '%s'\n", line, check, now, want);
			failed = 1;
		}
	}
	printf("%d refused\n", refused);
	return failed;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	int timed = argc == 3 && !strcmp(argv[1], "-t");
	double t0, secs;
	size_t len = 0;
	ssize_t n;
	int fd;

	if (argc == 5 && !strcmp(argv[1], "-b"))
		return bad_writes(argv[2], argv[3], argv[4]);
	if (argc != 2 && !timed) {
		fprintf(stderr, "usage: skm-write [-t] FILE < value | -b FILE CHECK WANT < values\n");
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
