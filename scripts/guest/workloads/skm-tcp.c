// SPDX-License-Identifier: GPL-2.0
/*
 * skm-tcp: move bytes over loopback TCP between a sender and a receiver in
 * one process, and report the throughput.
 *
 *   skm-tcp [-b MiB] [-c conns] [-S cpu] [-R cpu] [-B bytes]
 *
 * Each connection sends MiB mebibytes (default 16) from a sender thread to a
 * receiver thread that reads everything. -S and -R pin the sender and the
 * receiver threads to one CPU each: then memory is charged on one CPU and
 * freed on another, as in the asymmetric loopback workload of seed 001.
 * -B fixes the receiver's SO_RCVBUF and the sender's SO_SNDBUF at that many
 * bytes (the kernel doubles them), which turns TCP's buffer autotuning off:
 * the receive window then no longer depends on how the last few reads fell.
 * Prints "bytes=N seconds=S MiBps=R ns=NS cpu_ns=C other_ns=O" (NS: the same time in
 * ns; C: the CPU time of all the threads meanwhile, ns), then what shapes a
 * run's instruction count: "reads=N writes=N" (the system calls, all
 * connections), "rcvbuf=B sndbuf=B" (the last connection's buffers at its
 * end, autotuned unless fixed) and "csw=N" (context switches of the
 * process, voluntary and not).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "skm-time.h"

static long long bytes_per_conn = 16LL << 20;
static long nr_reads, nr_writes;
static int last_rcvbuf, last_sndbuf;
static int fixed_buf_bytes;

/* -B: fix @fd's @opt (SO_RCVBUF or SO_SNDBUF), or leave it autotuned. */
static int fix_buf(int fd, int opt)
{
	if (!fixed_buf_bytes)
		return 0;
	return setsockopt(fd, SOL_SOCKET, opt, &fixed_buf_bytes,
			  sizeof(fixed_buf_bytes));
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void *receiver(void *arg)
{
	int fd = (int)(long)arg;
	static __thread char buf[65536];
	socklen_t len = sizeof(int);
	long reads = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		reads++;
	if (n < 0)
		die("read");
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &last_rcvbuf, &len))
		die("getsockopt");
	__atomic_add_fetch(&nr_reads, reads + 1, __ATOMIC_RELAXED);
	close(fd);
	return NULL;
}

static void *sender(void *arg)
{
	int fd = (int)(long)arg;
	static __thread char buf[65536];
	long long left = bytes_per_conn;
	socklen_t len = sizeof(int);
	long writes = 0;

	memset(buf, 'x', sizeof(buf));
	while (left > 0) {
		ssize_t n = write(fd, buf, left < (long long)sizeof(buf) ?
				  (size_t)left : sizeof(buf));
		if (n <= 0)
			die("write");
		left -= n;
		writes++;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &last_sndbuf, &len))
		die("getsockopt");
	__atomic_add_fetch(&nr_writes, writes, __ATOMIC_RELAXED);
	close(fd);
	return NULL;
}

/* Start fn(arg) in a thread, pinned to @cpu unless it is negative. */
static void start(pthread_t *t, void *(*fn)(void *), long arg, int cpu)
{
	pthread_attr_t attr;
	cpu_set_t set;

	pthread_attr_init(&attr);
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (pthread_attr_setaffinity_np(&attr, sizeof(set), &set))
			die("pthread_attr_setaffinity_np");
	}
	if (pthread_create(t, &attr, fn, (void *)arg))
		die("pthread_create");
	pthread_attr_destroy(&attr);
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	pthread_t *threads;
	struct timespec t0, t1;
	int conns = 1, opt, lfd, i, send_cpu = -1, recv_cpu = -1;
	long long cpu0, other0;
	struct rusage ru0, ru1;
	double secs;

	skm_maybe_fifo();

	while ((opt = getopt(argc, argv, "b:c:S:R:B:")) != -1) {
		if (opt == 'b')
			bytes_per_conn = atoll(optarg) << 20;
		else if (opt == 'c')
			conns = atoi(optarg);
		else if (opt == 'S')
			send_cpu = atoi(optarg);
		else if (opt == 'R')
			recv_cpu = atoi(optarg);
		else if (opt == 'B')
			fixed_buf_bytes = atoi(optarg);
		else
			return 2;
	}
	threads = calloc(2 * conns, sizeof(*threads));
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	/* the accepted sockets inherit the listener's receive buffer */
	if (lfd < 0 || fix_buf(lfd, SO_RCVBUF) ||
	    bind(lfd, (void *)&addr, sizeof(addr)) ||
	    getsockname(lfd, (void *)&addr, &alen) || listen(lfd, 128))
		die("listen");

	other0 = skm_other_ns();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	cpu0 = skm_cpu_ns();
	getrusage(RUSAGE_SELF, &ru0);
	for (i = 0; i < conns; i++) {
		int cfd = socket(AF_INET, SOCK_STREAM, 0);
		int afd;

		if (cfd < 0 || fix_buf(cfd, SO_SNDBUF) ||
		    connect(cfd, (void *)&addr, sizeof(addr)))
			die("connect");
		afd = accept(lfd, NULL, NULL);
		if (afd < 0)
			die("accept");
		start(&threads[2 * i], receiver, afd, recv_cpu);
		start(&threads[2 * i + 1], sender, cfd, send_cpu);
	}
	for (i = 0; i < 2 * conns; i++)
		pthread_join(threads[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &ru1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("bytes=%lld seconds=%.3f MiBps=%.1f ns=%lld cpu_ns=%lld other_ns=%lld reads=%ld writes=%ld rcvbuf=%d sndbuf=%d csw=%ld\n",
	       bytes_per_conn * conns, secs, bytes_per_conn * conns / secs / (1 << 20),
	       (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec),
	       skm_cpu_ns() - cpu0, skm_other_ns() - other0, nr_reads, nr_writes,
	       last_rcvbuf, last_sndbuf,
	       (ru1.ru_nvcsw - ru0.ru_nvcsw) + (ru1.ru_nivcsw - ru0.ru_nivcsw));
	return 0;
}
