// SPDX-License-Identifier: GPL-2.0
/*
 * skm-hog: the workload's own, non-socket work. Keeps RESIDENT MiB of
 * anonymous memory touched, then for SECONDS maps WORK MiB, writes every
 * page, unmaps it, and counts the rounds.
 *
 *   skm-hog -r RESIDENT -w WORK -t SECONDS
 *
 * Once RESIDENT is touched it prints "ready", then "tick=T rounds=N" every
 * second, and "rounds=N seconds=S" at the end (all flushed at once, so a
 * reader sees progress). N counts rounds to a hundredth, in steps of one
 * MiB of a round, and the clock is read after each MiB: on a slow kernel
 * (the debug one: under a round a second) whole rounds were too coarse to
 * compare two configurations, and a tick came late by up to a round.
 * Killed by the OOM killer, it stops printing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "skm-time.h"

static char *touch(size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	for (i = 0; i < len; i += page)
		p[i] = 1;
	return p;
}

int main(int argc, char **argv)
{
	size_t resident = 0, work = 4;
	double seconds = 5, t0, done = 0;
	long page = sysconf(_SC_PAGESIZE);
	long rounds = 0;
	int opt;

	while ((opt = getopt(argc, argv, "r:w:t:")) != -1) {
		if (opt == 'r')
			resident = atol(optarg);
		else if (opt == 'w')
			work = atol(optarg);
		else if (opt == 't')
			seconds = atof(optarg);
		else
			return 2;
	}
	int tick = 0;

	if (resident)
		touch(resident << 20);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	t0 = skm_now();
	while (work && skm_now() - t0 < seconds) {
		size_t len = work << 20, mib;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		for (mib = 0; mib < work; mib++) {
			size_t i;

			for (i = mib << 20; i < (mib + 1) << 20; i += page)
				p[i] = 1;
			done = rounds + (double)(mib + 1) / work;
			if (skm_now() - t0 >= tick + 1)
				printf("tick=%d rounds=%.2f\n", ++tick, done);
			if (skm_now() - t0 >= seconds)
				break;
		}
		munmap(p, len);
		rounds++;
	}
	printf("rounds=%.2f seconds=%.2f\n", done, skm_now() - t0);
	return 0;
}
