// SPDX-License-Identifier: GPL-2.0
/*
 * skm-reread: keep a set of files in use, reading them again and again,
 * so that their page cache is the working set of the cgroup it runs in.
 *
 *   skm-reread [-t seconds] [-r MiB/s] [-R [-S seed]] FILE...
 *
 * Reads every FILE from start to end, in order, then starts over, until
 * killed or for the given time; -r paces the reads (default: as fast as it
 * can), which keeps the pages colder. Prints "rounds=N MiB=M" at the end.
 *
 * -R reads one page at a time at uniformly random pages of the files
 * instead (readahead off, POSIX_FADV_RANDOM), a round being as many pages
 * as the files hold. Why: a cyclic reader of W pages that holds u < W of
 * them misses on every read, as LRU evicts each page just before its next
 * use, so its page-in rate, and with it the scan rate reclaim needs to
 * keep it at u, is all (u < W) or nothing (u = W). A random reader that
 * holds u misses a (W - u) / W share of its reads: a page-in rate that
 * follows u, as a working set that is not a strict loop does. The pages
 * follow from -S's seed (default: the process id): with one, the same
 * sequence in every run (reclaim_curves' deterministic mode).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skm-time.h"

#define PAGE_BYTES 4096
#define MAX_FILES 64

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* xorshift64*: a uniform 64-bit draw, good enough to pick pages */
static uint64_t draw(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Sleep off what the reads are ahead of @rate MiB/s; no pacing at 0. */
static void pace(long long bytes, double rate, double t0)
{
	double ahead = rate ? bytes / (rate * 1048576) - (skm_now() - t0) : 0;

	if (ahead > 0)
		usleep(ahead * 1e6);
}

static int reread_random(char **files, int nr, double seconds, double rate,
			 uint64_t seed)
{
	static char buf[PAGE_BYTES];
	int fds[MAX_FILES];
	long long pages[MAX_FILES], total = 0, bytes = 0, n = 0;
	uint64_t state = seed * 0x9E3779B97F4A7C15ULL | 1;
	double t0 = skm_now();
	int i;

	if (nr > MAX_FILES) {
		fprintf(stderr, "skm-reread: at most %d files\n", MAX_FILES);
		return 2;
	}
	for (i = 0; i < nr; i++) {
		struct stat st;

		fds[i] = open(files[i], O_RDONLY);
		if (fds[i] < 0 || fstat(fds[i], &st)) {
			perror(files[i]);
			return 1;
		}
		posix_fadvise(fds[i], 0, 0, POSIX_FADV_RANDOM);
		pages[i] = st.st_size / PAGE_BYTES;
		total += pages[i];
	}
	if (!total) {
		fprintf(stderr, "skm-reread: no whole page to read\n");
		return 1;
	}
	while (!stop && (!seconds || skm_now() - t0 < seconds)) {
		long long pg = draw(&state) % total;

		for (i = 0; pg >= pages[i]; i++)
			pg -= pages[i];
		if (pread(fds[i], buf, PAGE_BYTES, pg * PAGE_BYTES) != PAGE_BYTES) {
			perror(files[i]);
			return 1;
		}
		bytes += PAGE_BYTES;
		n++;
		pace(bytes, rate, t0);
	}
	printf("rounds=%lld MiB=%lld\n", n / total, bytes >> 20);
	return 0;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	double seconds = 0, rate = 0, t0;
	long long bytes = 0;
	long rounds = 0;
	uint64_t seed = getpid();
	int opt, i, random = 0;

	while ((opt = getopt(argc, argv, "t:r:RS:")) != -1) {
		if (opt == 't')
			seconds = atof(optarg);
		else if (opt == 'r')
			rate = atof(optarg);
		else if (opt == 'R')
			random = 1;
		else if (opt == 'S')
			seed = strtoull(optarg, NULL, 0);
		else
			return 2;
	}
	if (optind >= argc)
		return 2;
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	if (random)
		return reread_random(argv + optind, argc - optind, seconds, rate,
				     seed);
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
				bytes += n;
				pace(bytes, rate, t0);
			}
			close(fd);
		}
		rounds++;
	}
	printf("rounds=%ld MiB=%lld\n", rounds, bytes >> 20);
	return 0;
}
