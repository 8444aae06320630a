// SPDX-License-Identifier: GPL-2.0
/*
 * skm-burst: a socket memory burst. CONNS loopback TCP connections whose
 * receivers never read; the senders write as fast as the kernel lets them
 * for SECONDS. Both ends ask for BUF KiB of socket buffer (raise
 * net.core.rmem_max/wmem_max first for more than their defaults).
 *
 *   skm-burst -c CONNS -b BUF_KIB -t SECONDS
 *
 * Prints "sent=BYTES seconds=S"; the sockets close on exit.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS 256

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	struct pollfd pfd[MAX_CONNS];
	int conns = 8, buf = 4096, opt, lfd, i;
	static char data[65536];
	double seconds = 5, t0;
	long long sent = 0;

	while ((opt = getopt(argc, argv, "c:b:t:")) != -1) {
		if (opt == 'c')
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
		if (connect(fd, (void *)&addr, sizeof(addr)) ||
		    accept(lfd, NULL, NULL) < 0) {	/* never read */
			perror("connect");
			return 1;
		}
		fcntl(fd, F_SETFL, O_NONBLOCK);
		pfd[i].fd = fd;
		pfd[i].events = POLLOUT;
	}

	t0 = now();
	while (now() - t0 < seconds) {
		if (poll(pfd, conns, 100) <= 0)
			continue;
		for (i = 0; i < conns; i++) {
			ssize_t n;

			if (!(pfd[i].revents & POLLOUT))
				continue;
			n = write(pfd[i].fd, data, sizeof(data));
			if (n > 0)
				sent += n;
		}
	}
	printf("sent=%lld seconds=%.2f\n", sent, now() - t0);
	return 0;
}
