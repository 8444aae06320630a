// SPDX-License-Identifier: GPL-2.0
/*
 * skm-readt [-d SECONDS] FILE...: read each FILE whole, timing each
 * open-to-close (CLOCK_MONOTONIC), and print "slowest SECONDS FILE ROUNDS"
 * for the slowest, or "error ERRNO FILE" and exit 1 at the first that
 * fails. With -d, read them all again and again until SECONDS have passed
 * (so that reads overlap something started meanwhile). Without the process
 * start a shell's timing of cat includes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "skm-time.h"

int main(int argc, char **argv)
{
	double slowest = -1, t0, secs, start = skm_now(), duration = 0;
	const char *which = "";
	int i, fd, first = 1;
	long rounds = 0;
	char buf[4096];
	ssize_t n;

	if (argc > 3 && !strcmp(argv[1], "-d")) {
		duration = atof(argv[2]);
		first = 3;
	}
	if (argc <= first) {
		fprintf(stderr, "usage: skm-readt [-d SECONDS] FILE...\n");
		return 2;
	}
again:
	for (i = first; i < argc; i++) {
		t0 = skm_now();
		fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			printf("error %s %s\n", strerror(errno), argv[i]);
			return 1;
		}
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		if (n < 0) {
			printf("error %s %s\n", strerror(errno), argv[i]);
			return 1;
		}
		close(fd);
		secs = skm_now() - t0;
		if (secs > slowest) {
			slowest = secs;
			which = argv[i];
		}
	}
	rounds++;
	if (skm_now() - start < duration)
		goto again;
	printf("slowest %.3f %s %ld\n", slowest, which, rounds);
	return 0;
}
