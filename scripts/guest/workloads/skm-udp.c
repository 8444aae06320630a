// SPDX-License-Identifier: GPL-2.0
/*
 * skm-udp: loopback UDP that is read as fast as it is sent, for SECONDS.
 * UDP has no memory pressure of its own, so socket throttling must leave it
 * alone.
 *
 *   skm-udp -t SECONDS
 *
 * Prints "received=N errors=E seconds=S" (E: sends that failed other than
 * with EAGAIN).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "skm-time.h"

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	long received = 0, errors = 0;
	double seconds = 5, t0;
	char buf[1024] = { 0 };
	int rfd, sfd, opt;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt == 't')
			seconds = atof(optarg);
		else
			return 2;
	}
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rfd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	sfd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	if (bind(rfd, (void *)&addr, sizeof(addr)) ||
	    getsockname(rfd, (void *)&addr, &alen) ||
	    connect(sfd, (void *)&addr, sizeof(addr))) {
		perror("udp");
		return 1;
	}
	t0 = skm_now();
	while (skm_now() - t0 < seconds) {
		if (send(sfd, buf, sizeof(buf), 0) < 0 && errno != EAGAIN &&
		    errno != ENOBUFS)
			errors++;
		while (recv(rfd, buf, sizeof(buf), 0) > 0)
			received++;
	}
	printf("received=%ld errors=%ld seconds=%.2f\n", received, errors,
	       skm_now() - t0);
	return 0;
}
