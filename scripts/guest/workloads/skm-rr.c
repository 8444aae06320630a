// SPDX-License-Identifier: GPL-2.0
/*
 * skm-rr: loopback request/response, netperf's TCP_RR, UDP_RR and TCP_CRR in
 * small. THREADS client threads each do TRANSACTIONS exchanges of SIZE bytes
 * with a server thread of their own, one request in flight at a time, so
 * every run of a cell does the same work. With -c (TCP_CRR) every exchange
 * has a connection of its own: connect, request, response, close, so each
 * transaction makes and frees three sockets (client, accepted child, and
 * the client's TIME_WAIT entry).
 *
 *   skm-rr [-u | -c] [-n THREADS] [-N TRANSACTIONS] [-s SIZE]
 *
 * Prints "transactions=N seconds=S rate=R ns=NS cpu_ns=C other_ns=O csw=W
 * icsw=I" (R: transactions per second, all threads together, between the
 * first request and the last response; NS: S in nanoseconds; C: the CPU
 * time of all the threads meanwhile, ns; W: their context switches, I of
 * them involuntary: preempted, not blocked).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "skm-time.h"

#define SKM_RR_MAX_THREADS	64
#define SKM_RR_MAX_SIZE		65536

static int udp;
static int crr;
static long transactions = 2000;
static int size = 64;

struct pair {
	int server_fd;		/* TCP: listening; UDP: bound */
	int client_fd;		/* TCP_CRR: none, one a transaction */
	struct sockaddr_in addr;	/* the server's */
	pthread_t server, client;
	int failed;
};

static int full_io(int fd, char *buf, int len, int writing)
{
	int done = 0;

	while (done < len) {
		ssize_t n = writing ? send(fd, buf + done, len - done, 0) :
				      recv(fd, buf + done, len - done, 0);
		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

/* One exchange: UDP datagrams are whole, TCP may split. */
static int xfer(int fd, char *buf, int writing)
{
	if (!udp)
		return full_io(fd, buf, size, writing);
	if (writing)
		return send(fd, buf, size, 0) == size ? 0 : -1;
	return recv(fd, buf, SKM_RR_MAX_SIZE, 0) == size ? 0 : -1;
}

static void *server(void *arg)
{
	struct pair *p = arg;
	char *buf = calloc(1, SKM_RR_MAX_SIZE);
	int fd = p->server_fd;
	long i;

	if (!udp && !crr) {
		fd = accept(p->server_fd, NULL, NULL);
		if (fd < 0)
			p->failed = 1;
	}
	for (i = 0; !p->failed && i < transactions; i++) {
		if (crr) {
			fd = accept(p->server_fd, NULL, NULL);
			if (fd < 0 || xfer(fd, buf, 0) || xfer(fd, buf, 1))
				p->failed = 1;
			if (fd >= 0)
				close(fd);
			fd = -1;
		} else if (udp) {
			struct sockaddr_in from;
			socklen_t flen = sizeof(from);

			if (recvfrom(fd, buf, SKM_RR_MAX_SIZE, 0, (void *)&from,
				     &flen) != size ||
			    sendto(fd, buf, size, 0, (void *)&from, flen) != size)
				p->failed = 1;
		} else if (xfer(fd, buf, 0) || xfer(fd, buf, 1)) {
			p->failed = 1;
		}
	}
	if (!udp && fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/*
 * TCP_CRR: one transaction on a connection of its own. With SKM_CRR_RST=1
 * in the environment (bench_icount) the client closes with a reset
 * (SO_LINGER 0): no TIME_WAIT socket is left behind, so the connection
 * table a run finds does not depend on how many ran before it.
 */
static int crr_once(struct pair *p, char *buf)
{
	const char *rst = getenv("SKM_CRR_RST");
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	int one = 1, ret;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	ret = setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	      connect(fd, (void *)&p->addr, sizeof(p->addr)) ||
	      xfer(fd, buf, 1) || xfer(fd, buf, 0) ? -1 : 0;
	if (!ret && rst && *rst == '1')
		ret = setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	close(fd);
	return ret;
}

static void *client(void *arg)
{
	struct pair *p = arg;
	char *buf = calloc(1, SKM_RR_MAX_SIZE);
	long i;

	for (i = 0; !p->failed && i < transactions; i++)
		if (crr ? crr_once(p, buf) :
		    xfer(p->client_fd, buf, 1) || xfer(p->client_fd, buf, 0))
			p->failed = 1;
	free(buf);
	return NULL;
}

static int pair_open(struct pair *p)
{
	struct sockaddr_in *addr = &p->addr;
	socklen_t alen = sizeof(*addr);
	int type = udp ? SOCK_DGRAM : SOCK_STREAM;
	struct timeval tmo = { .tv_sec = 5 };
	int one = 1;

	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	p->server_fd = socket(AF_INET, type, 0);
	if (p->server_fd < 0 ||
	    bind(p->server_fd, (void *)addr, sizeof(*addr)) ||
	    getsockname(p->server_fd, (void *)addr, &alen) ||
	    (!udp && listen(p->server_fd, 16)))
		return -1;
	if (crr)
		return 0;
	p->client_fd = socket(AF_INET, type, 0);
	if (p->client_fd < 0 ||
	    connect(p->client_fd, (void *)addr, sizeof(*addr)))
		return -1;
	if (!udp)
		return setsockopt(p->client_fd, IPPROTO_TCP, TCP_NODELAY, &one,
				  sizeof(one));
	/* A lost datagram ends the run as failed, not as a hang. */
	return setsockopt(p->client_fd, SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo)) ||
	       setsockopt(p->server_fd, SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo));
}

int main(int argc, char **argv)
{
	static struct pair pairs[SKM_RR_MAX_THREADS];
	int threads = 1, opt, i, failed = 0;
	long long cpu0, other0;
	struct rusage ru0, ru1;
	double t0, secs;

	skm_maybe_fifo();

	while ((opt = getopt(argc, argv, "ucn:N:s:")) != -1) {
		switch (opt) {
		case 'u': udp = 1; break;
		case 'c': crr = 1; break;
		case 'n': threads = atoi(optarg); break;
		case 'N': transactions = atol(optarg); break;
		case 's': size = atoi(optarg); break;
		default: return 2;
		}
	}
	if (threads < 1 || threads > SKM_RR_MAX_THREADS || transactions < 1 ||
	    size < 1 || size > SKM_RR_MAX_SIZE || (udp && size > 1400) ||
	    (udp && crr)) {
		fprintf(stderr, "skm-rr: bad arguments\n");
		return 2;
	}
	for (i = 0; i < threads; i++) {
		if (pair_open(&pairs[i])) {
			perror("skm-rr: socket setup");
			return 1;
		}
	}
	other0 = skm_other_ns();
	getrusage(RUSAGE_SELF, &ru0);
	t0 = skm_now();
	cpu0 = skm_cpu_ns();
	for (i = 0; i < threads; i++) {
		pthread_create(&pairs[i].server, NULL, server, &pairs[i]);
		pthread_create(&pairs[i].client, NULL, client, &pairs[i]);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(pairs[i].client, NULL);
		pthread_join(pairs[i].server, NULL);
		failed |= pairs[i].failed;
	}
	secs = skm_now() - t0;
	getrusage(RUSAGE_SELF, &ru1);
	if (failed) {
		fprintf(stderr, "skm-rr: an exchange failed\n");
		return 1;
	}
	printf("transactions=%ld seconds=%.3f rate=%.0f ns=%.0f cpu_ns=%lld other_ns=%lld csw=%ld icsw=%ld\n",
	       transactions * threads, secs, transactions * threads / secs,
	       secs * 1e9, skm_cpu_ns() - cpu0, skm_other_ns() - other0,
	       (ru1.ru_nvcsw - ru0.ru_nvcsw) + (ru1.ru_nivcsw - ru0.ru_nivcsw),
	       ru1.ru_nivcsw - ru0.ru_nivcsw);
	return 0;
}
