// SPDX-License-Identifier: GPL-2.0
/*
 * skm-accept: an accept() storm over loopback TCP.
 *
 *   skm-accept [-t seconds] [-c clients]
 *
 * A listener thread accepts, reads what the peer sent and closes; -c client
 * threads (default 4) connect, send 4 KiB, close, and start over, for -t
 * seconds (default 5). Every accepted socket is charged to the cgroup of
 * this process and freed again, so sockets are born and die under whatever
 * skmemcg is doing at that moment. Prints "accepted=N".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static struct sockaddr_in addr;
static volatile int stop;
static long accepted;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void *listener(void *arg)
{
	int lfd = (int)(long)arg;
	char buf[4096];

	while (!stop) {
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED || errno == EMFILE)
				continue;
			die("accept");
		}
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
		__atomic_add_fetch(&accepted, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void *client(void *arg)
{
	char buf[4096];

	(void)arg;
	memset(buf, 'a', sizeof(buf));
	while (!stop) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0)
			die("socket");
		if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0)
			(void)!write(fd, buf, sizeof(buf));
		close(fd);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int secs = 5, clients = 4, opt, lfd, i, one = 1;
	socklen_t len = sizeof(addr);
	pthread_t lt, ct[64];

	while ((opt = getopt(argc, argv, "t:c:")) != -1) {
		switch (opt) {
		case 't': secs = atoi(optarg); break;
		case 'c': clients = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: skm-accept [-t seconds] [-c clients]\n");
			return 2;
		}
	}
	if (clients < 1 || clients > 64)
		clients = 4;
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(lfd, (struct sockaddr *)&addr, &len) || listen(lfd, 128))
		die("listen");
	pthread_create(&lt, NULL, listener, (void *)(long)lfd);
	for (i = 0; i < clients; i++)
		pthread_create(&ct[i], NULL, client, NULL);
	sleep(secs);
	stop = 1;
	for (i = 0; i < clients; i++)
		pthread_join(ct[i], NULL);
	/* wake the listener with one last connection */
	i = socket(AF_INET, SOCK_STREAM, 0);
	connect(i, (struct sockaddr *)&addr, sizeof(addr));
	close(i);
	pthread_join(lt, NULL);
	printf("accepted=%ld\n", accepted);
	return 0;
}
