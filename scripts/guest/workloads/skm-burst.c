// SPDX-License-Identifier: GPL-2.0
/*
 * skm-burst: a socket memory burst. CONNS loopback TCP connections whose
 * receivers never read; one thread per connection writes as fast as the
 * kernel lets it for SECONDS, with blocking writes (SO_SNDTIMEO 100 ms, so
 * that a blocked writer still sees the deadline), as most servers do. Both
 * ends ask for BUF KiB of socket buffer (raise net.core.rmem_max/wmem_max
 * first for more than their defaults). With -e the writers are
 * event-driven instead, as nginx or envoy: nonblocking sockets, written
 * until EAGAIN, then epoll_wait() for EPOLLOUT (100 ms at most).
 *
 *   skm-burst [-e] -c CONNS -b BUF_KIB -t SECONDS
 *
 * Prints "sent=BYTES seconds=S refused=N cpu_ms=MS": refused counts the
 * writes that returned EAGAIN (a blocking write's timeout included), cpu_ms
 * the process's user and system time. The sockets close on exit.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "skm-time.h"

#define MAX_CONNS 256

static double seconds = 5, t0;
static int use_epoll;
static long long sent[MAX_CONNS], refused[MAX_CONNS];

static void *writer(void *arg)
{
	long i = (long)arg;
	static char data[65536];
	int fd = (int)(sent[i]), ep = -1;
	struct epoll_event ev = { .events = EPOLLOUT };

	sent[i] = 0;
	if (use_epoll) {
		ep = epoll_create1(0);
		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)) {
			perror("epoll");
			exit(1);
		}
	}
	while (skm_now() - t0 < seconds) {
		ssize_t n = write(fd, data, sizeof(data));

		if (n > 0) {
			sent[i] += n;
		} else if (n < 0 && errno == EAGAIN) {
			refused[i]++;
			if (use_epoll)
				epoll_wait(ep, &ev, 1, 100);
		}
	}
	if (ep >= 0)
		close(ep);
	return NULL;
}

static long long cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000LL +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	struct timeval timeout = { .tv_usec = 100000 };
	socklen_t alen = sizeof(addr);
	pthread_t threads[MAX_CONNS];
	int conns = 8, buf = 4096, opt, lfd;
	long long total = 0, nrefused = 0, cpu0;
	long i;

	while ((opt = getopt(argc, argv, "ec:b:t:")) != -1) {
		if (opt == 'e')
			use_epoll = 1;
		else if (opt == 'c')
			conns = atoi(optarg);
		else if (opt == 'b')
			buf = atoi(optarg);
		else if (opt == 't')
			seconds = atof(optarg);
		else
			return 2;
	}
	if (conns < 1 || conns > MAX_CONNS)
		return 2;
	buf <<= 10;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(lfd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	if (bind(lfd, (void *)&addr, sizeof(addr)) ||
	    getsockname(lfd, (void *)&addr, &alen) || listen(lfd, MAX_CONNS)) {
		perror("listen");
		return 1;
	}
	for (i = 0; i < conns; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
		if (connect(fd, (void *)&addr, sizeof(addr)) ||
		    accept(lfd, NULL, NULL) < 0) {	/* never read */
			perror("connect");
			return 1;
		}
		if (use_epoll)
			fcntl(fd, F_SETFL, O_NONBLOCK);
		sent[i] = fd;
	}
	cpu0 = cpu_ms();
	t0 = skm_now();
	for (i = 0; i < conns; i++)
		pthread_create(&threads[i], NULL, writer, (void *)i);
	for (i = 0; i < conns; i++) {
		pthread_join(threads[i], NULL);
		total += sent[i];
		nrefused += refused[i];
	}
	printf("sent=%lld seconds=%.2f refused=%lld cpu_ms=%lld\n", total,
	       skm_now() - t0, nrefused, cpu_ms() - cpu0);
	return 0;
}
