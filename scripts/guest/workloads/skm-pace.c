// SPDX-License-Identifier: GPL-2.0
/*
 * skm-pace: a paced loopback TCP sender whose receiver never reads, and the
 * steps in which the global TCP counter (sockstat "mem") moves meanwhile.
 *
 *   skm-pace [-n writes] [-b bytes] [-i usecs] [-r rcvbuf] [-C cpu] [-H secs] [-v]
 *
 * Writes n times b bytes (default 200 x 16384), sleeping i microseconds
 * (default 2000) after each, and reads /proc/net/sockstat after every write.
 * Every change of TCP "mem" between two reads is one step. -r sets the
 * receiver's SO_RCVBUF (raise net.core.rmem_max first); -C pins the process,
 * and with it the loopback softirq work it raises, to one CPU. Prints
 * "writes=N steps=N min=N median=N max=N first=N last=N", plus each step
 * with -v. Stops early, without failing, when the receiver is full. -H holds
 * the connection, and the memory it has queued, that many seconds before
 * closing; the summary line is printed before the hold.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define MAX_STEPS 100000

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static long sockstat_tcp_mem(void)
{
	char line[512];
	long mem = -1;
	FILE *f = fopen("/proc/net/sockstat", "r");

	if (!f)
		die("/proc/net/sockstat");
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, " mem ");

		if (!strncmp(line, "TCP:", 4) && p)
			mem = atol(p + 5);
	}
	fclose(f);
	return mem;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	struct timeval tmo = { .tv_sec = 2 };
	long writes = 200, bytes = 16384, usecs = 2000, rcvbuf = 0;
	static long steps[MAX_STEPS], sorted[MAX_STEPS];
	long i, n = 0, done = 0, prev, first, cur;
	socklen_t len = sizeof(addr);
	int opt, lfd, cfd, afd, verbose = 0, cpu = -1, hold = 0;
	char *buf;

	while ((opt = getopt(argc, argv, "n:b:i:r:C:H:v")) != -1) {
		if (opt == 'n')
			writes = atol(optarg);
		else if (opt == 'b')
			bytes = atol(optarg);
		else if (opt == 'i')
			usecs = atol(optarg);
		else if (opt == 'r')
			rcvbuf = atol(optarg);
		else if (opt == 'C')
			cpu = atoi(optarg);
		else if (opt == 'H')
			hold = atoi(optarg);
		else if (opt == 'v')
			verbose = 1;
		else
			return 2;
	}
	if (writes < 1 || bytes < 1)
		return 2;
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			die("sched_setaffinity");
	}
	buf = calloc(1, bytes);
	if (!buf)
		die("calloc");

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket");
	if (rcvbuf && setsockopt(lfd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)))
		die("SO_RCVBUF");
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(lfd, 1) || getsockname(lfd, (struct sockaddr *)&addr, &len))
		die("listen");
	cfd = socket(AF_INET, SOCK_STREAM, 0);
	if (cfd < 0 || connect(cfd, (struct sockaddr *)&addr, sizeof(addr)))
		die("connect");
	afd = accept(lfd, NULL, NULL);
	if (afd < 0)
		die("accept");
	if (setsockopt(cfd, SOL_SOCKET, SO_SNDTIMEO, &tmo, sizeof(tmo)))
		die("SO_SNDTIMEO");

	first = prev = sockstat_tcp_mem();
	for (i = 0; i < writes; i++) {
		ssize_t w = write(cfd, buf, bytes);

		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;		/* the receiver is full */
		if (w < 0)
			die("write");
		done++;
		usleep(usecs);
		cur = sockstat_tcp_mem();
		if (cur != prev && n < MAX_STEPS)
			steps[n++] = labs(cur - prev);
		prev = cur;
	}
	memcpy(sorted, steps, n * sizeof(*steps));
	qsort(sorted, n, sizeof(*sorted), cmp_long);
	printf("writes=%ld steps=%ld min=%ld median=%ld max=%ld first=%ld last=%ld\n",
	       done, n, n ? sorted[0] : 0, n ? sorted[n / 2] : 0,
	       n ? sorted[n - 1] : 0, first, prev);
	for (i = 0; verbose && i < n; i++)
		printf("step %ld\n", steps[i]);
	fflush(stdout);
	sleep(hold);
	close(cfd);
	close(afd);
	close(lfd);
	return 0;
}
