// SPDX-License-Identifier: GPL-2.0
/*
 * skm-block: a socket call blocked with no peer, then traffic once told.
 *
 *   skm-block accept PORT    listen on 127.0.0.1:PORT and block in accept();
 *                            then read what the client sends, to its end
 *   skm-block accept-timeo PORT
 *                            the same with SO_RCVTIMEO of 600 s on the
 *                            listener: a signal then ends accept() in EINTR
 *                            (counted in RESTARTS), not in a restart
 *   skm-block recv PORT      connect to itself on PORT and block in recv()
 *                            on the accepted side; its client thread sends
 *                            64 KiB once /tmp/skm-block-go-PORT exists
 *   skm-block connect PORT   listen with a full queue that is never
 *                            accepted, and block in connect() to it; once
 *                            /tmp/skm-block-go-PORT exists a thread
 *                            accepts, the connect completes, and it sends
 *                            64 KiB
 *   skm-block client PORT    connect to PORT, send 64 KiB, close
 *
 * Prints "MODE blocked" once the call is about to block (the call itself
 * cannot tell), then "MODE ok BYTES RESTARTS" and exits 0 once its traffic
 * went through, where RESTARTS counts calls that ended with EINTR and were
 * made again (0 when the kernel restarted them itself, as it does for
 * -ERESTARTSYS with no handler); anything else exits 1 with the error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#define SKM_BLOCK_BYTES	(64 * 1024)

static struct sockaddr_in addr;
static char go_path[64];
static int listen_fd;
static long restarts;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void wait_go(void)
{
	struct stat st;

	while (stat(go_path, &st))
		usleep(100 * 1000);
}

static int listen_on(int backlog)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) || listen(fd, backlog))
		die("bind/listen");
	return fd;
}

static int connect_to(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		die("socket");
	while (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		if (errno != EINTR)
			die("connect");
		restarts++;
	}
	return fd;
}

static void send_all(int fd)
{
	static char buf[SKM_BLOCK_BYTES];
	size_t off = 0;

	while (off < sizeof(buf)) {
		ssize_t n = write(fd, buf + off, sizeof(buf) - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("write");
		off += n;
	}
}

/* Read @fd to its end: the bytes. */
static long recv_all(int fd)
{
	char buf[4096];
	long total = 0;
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR) {
			restarts++;
			continue;
		}
		if (n < 0)
			die("recv");
		if (!n)
			return total;
		total += n;
	}
}

static void *recv_client(void *arg)
{
	int fd = (int)(long)arg;

	wait_go();
	send_all(fd);
	close(fd);
	return NULL;
}

static void *connect_acceptor(void *arg)
{
	int fd;

	(void)arg;
	wait_go();
	/* Empty the queue, so that the next SYN of the blocked connect is taken. */
	for (;;) {
		fd = accept(listen_fd, NULL, NULL);
		if (fd < 0)
			die("accept (connect mode)");
		/* Keep them: the blocked one's peer must not be closed. */
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode;
	pthread_t t;
	long got = 0;
	int fd, cfd;

	if (argc != 3) {
		fprintf(stderr, "usage: skm-block accept|accept-timeo|recv|connect|client PORT\n");
		return 2;
	}
	mode = argv[1];
	addr.sin_family = AF_INET;
	addr.sin_port = htons(atoi(argv[2]));
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	snprintf(go_path, sizeof(go_path), "/tmp/skm-block-go-%s", argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (!strcmp(mode, "client")) {
		fd = connect_to();
		send_all(fd);
		close(fd);
		printf("client ok %d %ld\n", SKM_BLOCK_BYTES, restarts);
		return 0;
	}
	if (!strcmp(mode, "accept") || !strcmp(mode, "accept-timeo")) {
		struct timeval tv = { .tv_sec = 600 };

		listen_fd = listen_on(16);
		if (!strcmp(mode, "accept-timeo") &&
		    setsockopt(listen_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
			die("SO_RCVTIMEO");
		printf("%s blocked\n", mode);
		while ((fd = accept(listen_fd, NULL, NULL)) < 0) {
			if (errno != EINTR)
				die("accept");
			restarts++;
		}
		got = recv_all(fd);
	} else if (!strcmp(mode, "recv")) {
		listen_fd = listen_on(16);
		cfd = connect_to();
		fd = accept(listen_fd, NULL, NULL);
		if (fd < 0)
			die("accept (recv mode)");
		if (pthread_create(&t, NULL, recv_client, (void *)(long)cfd))
			die("pthread_create");
		printf("recv blocked\n");
		got = recv_all(fd);
	} else if (!strcmp(mode, "connect")) {
		/* Backlog 0: one connection fills the queue; later SYNs are dropped. */
		listen_fd = listen_on(0);
		connect_to();
		if (pthread_create(&t, NULL, connect_acceptor, NULL))
			die("pthread_create");
		printf("connect blocked\n");
		fd = connect_to();
		send_all(fd);
		got = SKM_BLOCK_BYTES;
	} else {
		fprintf(stderr, "skm-block: unknown mode %s\n", mode);
		return 2;
	}
	printf("%s ok %ld %ld\n", mode, got, restarts);
	return 0;
}
