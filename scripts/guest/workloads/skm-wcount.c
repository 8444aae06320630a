// SPDX-License-Identifier: GPL-2.0
/*
 * skm-wcount: count the writes to one kernel variable while a command runs,
 * with a hardware data watchpoint on every CPU (perf, breakpoint events).
 *
 *   skm-wcount SYMBOL[+OFFSET] command [args...]
 *
 * SYMBOL is looked up in /proc/kallsyms (root, kptr_restrict < 2) and the
 * 8 bytes at OFFSET (decimal, default 0) from it are watched for writes,
 * e.g. tcp_memory_allocated (net_aligned_data+64 on 7.x), which the kernel
 * writes exactly when a CPU folds its forward-alloc delta into it. The
 * command's own output passes through; then "writes=N" on its own line.
 * Exits with the command's status, or 2 when the watchpoint cannot be set.
 */
#define _GNU_SOURCE
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CPUS 256

static unsigned long long kallsyms_addr(const char *name)
{
	char line[512], sym[256], type;
	unsigned long long addr;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 &&
		    !strcmp(sym, name)) {
			fclose(f);
			return addr;
		}
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	int fds[MAX_CPUS], ncpu, cpu, status;
	unsigned long long addr, offset = 0, total = 0, n;
	char *plus;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: skm-wcount SYMBOL command [args...]\n");
		return 2;
	}
	plus = strchr(argv[1], '+');
	if (plus) {
		*plus = '\0';
		offset = strtoull(plus + 1, NULL, 10);
	}
	addr = kallsyms_addr(argv[1]);
	if (!addr) {
		fprintf(stderr, "skm-wcount: %s: no address in /proc/kallsyms\n", argv[1]);
		return 2;
	}
	addr += offset;
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1 || ncpu > MAX_CPUS)
		return 2;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = addr;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.disabled = 1;
	for (cpu = 0; cpu < ncpu; cpu++) {
		fds[cpu] = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
		if (fds[cpu] < 0) {
			perror("skm-wcount: perf_event_open");
			return 2;
		}
	}
	for (cpu = 0; cpu < ncpu; cpu++)
		ioctl(fds[cpu], PERF_EVENT_IOC_ENABLE, 0);

	pid = fork();
	if (pid < 0)
		return 2;
	if (!pid) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 2;

	for (cpu = 0; cpu < ncpu; cpu++) {
		ioctl(fds[cpu], PERF_EVENT_IOC_DISABLE, 0);
		if (read(fds[cpu], &n, sizeof(n)) != sizeof(n))
			return 2;
		total += n;
		close(fds[cpu]);
	}
	printf("writes=%llu\n", total);
	fflush(stdout);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
