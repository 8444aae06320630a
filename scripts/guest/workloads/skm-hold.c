// SPDX-License-Identifier: GPL-2.0
/*
 * skm-hold: keep loopback TCP connections open with data queued, so that
 * their memory stays charged to the cgroup this process started in, after
 * the process has left it and the cgroup was removed (a zombie memcg).
 *
 *   skm-hold [-c conns] [-k KiB]
 *
 * Opens -c connections (default 4, at most 32768; past 1024 its file limit
 * is raised) and sends -k KiB (default 256; 0: none, idle sockets) on each
 * that nobody reads; prints "ready". On SIGUSR1 it reads everything queued
 * and sends -k KiB again on each (charging the memcg anew), then prints
 * "pumped N". On SIGTERM it closes everything and exits.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_CONNS 32768

static volatile sig_atomic_t pump, done;
static int *tx, *rx;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		pump = 1;
	else
		done = 1;
}

static void send_kib(int fd, int kib)
{
	static char buf[1024];
	int i;

	for (i = 0; i < kib; i++)
		if (write(fd, buf, sizeof(buf)) < 0 && errno != EAGAIN)
			die("write");
}

static void drain(int fd)
{
	static char buf[65536];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

int main(int argc, char **argv)
{
	int conns = 4, kib = 256, opt, lfd, i, pumps = 0, big = 4 << 20;
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof(addr);

	while ((opt = getopt(argc, argv, "c:k:")) != -1) {
		switch (opt) {
		case 'c': conns = atoi(optarg); break;
		case 'k': kib = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: skm-hold [-c conns] [-k KiB]\n");
			return 2;
		}
	}
	if (conns < 1 || conns > MAX_CONNS)
		conns = 4;
	if (kib < 0)
		kib = 256;
	tx = calloc(conns, sizeof(*tx));
	rx = calloc(conns, sizeof(*rx));
	if (!tx || !rx)
		die("calloc");
	if (conns > 1000) {
		struct rlimit rl = { 2 * conns + 64, 2 * conns + 64 };

		if (setrlimit(RLIMIT_NOFILE, &rl))
			die("setrlimit");
	}
	signal(SIGUSR1, on_signal);
	signal(SIGTERM, on_signal);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(lfd, (struct sockaddr *)&addr, &len) || listen(lfd, 64))
		die("listen");
	for (i = 0; i < conns; i++) {
		tx[i] = socket(AF_INET, SOCK_STREAM, 0);
		if (tx[i] < 0)
			die("socket");
		setsockopt(tx[i], SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
		if (connect(tx[i], (struct sockaddr *)&addr, sizeof(addr)))
			die("connect");
		rx[i] = accept(lfd, NULL, NULL);
		if (rx[i] < 0)
			die("accept");
		setsockopt(rx[i], SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
		fcntl(tx[i], F_SETFL, O_NONBLOCK);
		fcntl(rx[i], F_SETFL, O_NONBLOCK);
		send_kib(tx[i], kib);
	}
	printf("ready\n");
	fflush(stdout);
	while (!done) {
		pause();
		if (pump) {
			pump = 0;
			for (i = 0; i < conns; i++) {
				drain(rx[i]);
				send_kib(tx[i], kib);
			}
			printf("pumped %d\n", ++pumps);
			fflush(stdout);
		}
	}
	for (i = 0; i < conns; i++) {
		close(tx[i]);
		close(rx[i]);
	}
	close(lfd);
	return 0;
}
