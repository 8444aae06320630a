// SPDX-License-Identifier: GPL-2.0
/*
 * skm-insmod MODULE.ko [param=value ...]: one finit_module(2) call, then print
 * "ok" or the errno name. busybox insmod and modprobe retry a failed load
 * with init_module(2), so the module's init runs, and logs, twice.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char params[4096] = "";
	size_t len = 0;
	int fd, i;

	if (argc < 2) {
		fprintf(stderr, "usage: skm-insmod MODULE.ko [param=value ...]\n");
		return 2;
	}
	for (i = 2; i < argc; i++)
		len += snprintf(params + len, sizeof(params) - len, "%s%s",
				i > 2 ? " " : "", argv[i]);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || syscall(SYS_finit_module, fd, params, 0)) {
		printf("%s\n", errno == ENOENT ? "ENOENT" : errno == EBUSY ? "EBUSY" :
		       errno == EINVAL ? "EINVAL" : errno == EIO ? "EIO" :
		       errno == EOPNOTSUPP ? "EOPNOTSUPP" : strerror(errno));
		return 1;
	}
	printf("ok\n");
	return 0;
}
