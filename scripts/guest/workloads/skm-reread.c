// SPDX-License-Identifier: GPL-2.0
/*
 * skm-reread: keep a set of files in use, reading them again and again,
 * so that their page cache is the working set of the cgroup it runs in.
 *
 *   skm-reread [-t seconds] [-r MiB/s] FILE...
 *
 * Reads every FILE from start to end, in order, then starts over, until
 * killed or for the given time; -r paces the reads (default: as fast as it
 * can), which keeps the pages colder. Prints "rounds=N MiB=M" at the end.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "skm-time.h"

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	double seconds = 0, rate = 0, t0;
	long long bytes = 0;
	long rounds = 0;
	int opt, i;

	while ((opt = getopt(argc, argv, "t:r:")) != -1) {
		if (opt == 't')
			seconds = atof(optarg);
		else if (opt == 'r')
			rate = atof(optarg);
		else
			return 2;
	}
	if (optind >= argc)
		return 2;
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	t0 = skm_now();
	while (!stop && (!seconds || skm_now() - t0 < seconds)) {
		for (i = optind; i < argc && !stop; i++) {
			int fd = open(argv[i], O_RDONLY);
			ssize_t n;

			if (fd < 0) {
				perror(argv[i]);
				return 1;
			}
			while (!stop && (n = read(fd, buf, sizeof(buf))) > 0) {
				double ahead;

				bytes += n;
				ahead = rate ? bytes / (rate * 1048576) - (skm_now() - t0) : 0;
				if (ahead > 0)
					usleep(ahead * 1e6);
			}
			close(fd);
		}
		rounds++;
	}
	printf("rounds=%ld MiB=%lld\n", rounds, bytes >> 20);
	return 0;
}
