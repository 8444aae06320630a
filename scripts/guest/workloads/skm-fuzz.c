// SPDX-License-Identifier: GPL-2.0
/*
 * skm-fuzz: hostile writes to knob files, checked one by one.
 *
 *   skm-fuzz [-n writes] [-p procs] [-s seed] [-e LIST-file] GROUP...
 *
 * A GROUP is a colon-separated list of files that show one value (a knob's
 * debugfs file and its /sys/module parameter). -p processes (default 4)
 * each write -n/-p times (default 10000 in all): in the first half each
 * process owns every p-th group, so that it can check every write exactly;
 * in the second half all of them write to random groups at once.
 *
 * A write is random bytes, a valid-looking token mutated (suffix, prefix,
 * byte flip, truncation, doubling), a huge or negative number, a long
 * string, an empty write, or a valid token written in two pieces. Checks,
 * in the owned half:
 *  - a refused write fails with EINVAL (or ENOSPC, for the cgroup lists
 *    named by -e: full)
 *    and leaves every file of its group reading as before;
 *  - an accepted write is whole (no short count), every file of the group
 *    then reads the same, and writing back what was read is accepted and
 *    changes nothing (the value is one the knob takes);
 * and in the shared half, only the errno. At the end, every group's files
 * agree, and no kernel message of level warning or worse was logged
 * (read from /dev/kmsg). Prints "writes=N accepted=N refused=N errors=N"
 * and exits 1 on any error, printing the first ones.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_GROUPS	64
#define MAX_FILES	4
#define VAL_MAX		8192
#define ERRORS_SHOWN	10

struct group {
	char *file[MAX_FILES];
	int nr;
	int is_list;
};

struct counts {
	long writes, accepted, refused, errors;
};

static struct group groups[MAX_GROUPS];
static int nr_groups;
static struct counts *shared;	/* one per process, in shared memory */
static int *owned_done;		/* processes through the owned half */
static unsigned long long rng;

static unsigned int rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng >> 11);
}

static const char *const tokens[] = {
	"0", "1", "Y", "N", "y", "n", "auto", "off", "critical", "medium",
	"psi", "events", "vmpressure", "headroom", "psi,events",
	"vmpressure,psi,events,headroom", "cliff", "seed", "linear", "kernel",
	"5", "10", "100", "250", "1000", "1048576", "60000", "600000",
	"+/fuzz_a", "-/fuzz_a", "+/fuzz_b", "-/fuzz_b", "+/nonexistent",
	"+/sys/fs/cgroup/fuzz_a", "-/", "+/", "+/fuzz_a=1M", "+/fuzz_b=4096",
	"-/nonexistent", "+/fuzz_a/later=64K",
};

static const char *const numbers[] = {
	"-1", "-0", "+1", "4294967295", "4294967296", "18446744073709551615",
	"18446744073709551616", "99999999999999999999999", "-2147483648",
	"0x10", "010", "1e3", "1.5", " 1", "1 ", "\t1", "1\n\n", "0b1",
	"9223372036854775807", "-9223372036854775808",
};

/* gen() - fill @buf with one hostile value; returns its length. */
static size_t gen(char *buf, int *split)
{
	const char *t = tokens[rnd() % (sizeof(tokens) / sizeof(*tokens))];
	size_t len, i;

	*split = 0;
	switch (rnd() % 10) {
	case 0:		/* random bytes, NULs and non-UTF-8 included */
		len = rnd() % 64;
		for (i = 0; i < len; i++)
			buf[i] = (char)rnd();
		return len;
	case 1:
		t = numbers[rnd() % (sizeof(numbers) / sizeof(*numbers))];
		return (size_t)sprintf(buf, "%s", t);
	case 2:		/* long */
		len = 200 + rnd() % (VAL_MAX - 200);
		memset(buf, "1aY/+"[rnd() % 5], len);
		return len;
	case 3:
		return 0;
	case 4:		/* a token and a trailing byte */
		len = (size_t)sprintf(buf, "%s", t);
		buf[len++] = "\n \0,x\377-"[rnd() % 7];
		return len;
	case 5:		/* a leading byte */
		buf[0] = " +-\n\0\377"[rnd() % 6];
		return 1 + (size_t)sprintf(buf + 1, "%s", t);
	case 6:		/* one byte of a token changed */
		len = (size_t)sprintf(buf, "%s", t);
		buf[rnd() % len] = (char)rnd();
		return len;
	case 7:		/* truncated */
		len = strlen(t);
		return (size_t)sprintf(buf, "%.*s", (int)(rnd() % len), t);
	case 8:		/* two tokens */
		return (size_t)sprintf(buf, "%s%s%s", t, rnd() % 2 ? "," : " ",
				       tokens[rnd() % (sizeof(tokens) / sizeof(*tokens))]);
	default:	/* a token, whole or in two writes */
		len = (size_t)sprintf(buf, "%s%s", t, rnd() % 2 ? "\n" : "");
		*split = len > 1 && rnd() % 2;
		return len;
	}
}

static void show(const char *what, const char *buf, size_t len)
{
	size_t i;

	fprintf(stderr, "%s '", what);
	for (i = 0; i < len && i < 40; i++) {
		unsigned char c = buf[i];

		if (c >= 0x20 && c < 0x7f && c != '\'')
			fputc(c, stderr);
		else
			fprintf(stderr, "\\%03o", c);
	}
	fprintf(stderr, "'%s (%zu bytes)", len > 40 ? "..." : "", len);
}

static void error(struct counts *c, const char *file, const char *buf,
		  size_t len, const char *fmt, const char *detail)
{
	if (c->errors++ < ERRORS_SHOWN) {
		fprintf(stderr, "error: %s: ", file);
		show("write", buf, len);
		fprintf(stderr, ": ");
		fprintf(stderr, fmt, detail);
		fputc('\n', stderr);
	}
}

/* read_file() - the file's content, NUL-terminated, or "<errno>" */
static void read_file(const char *file, char *buf, size_t size)
{
	int fd = open(file, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (n < 0)
		snprintf(buf, size, "<%s>", strerror(errno));
	else
		buf[n] = 0;
	if (fd >= 0)
		close(fd);
}

/*
 * do_write() - one write (or two, if @split) at offset 0 of a fresh open.
 * Returns 0 if all was accepted, else the errno (-1 for a short write).
 */
static int do_write(const char *file, const char *buf, size_t len, int split)
{
	size_t first = split ? len / 2 : len;
	ssize_t n;
	int fd = open(file, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return errno;
	n = write(fd, buf, first);
	if (n < 0)
		err = errno;
	else if ((size_t)n != first)
		err = -1;
	else if (split) {
		n = write(fd, buf + first, len - first);
		if (n < 0)
			err = errno;
		else if ((size_t)n != len - first)
			err = -1;
	}
	close(fd);
	return err;
}

static int refusal_ok(const struct group *g, int err)
{
	if (err == ENOSPC && g->is_list)
		return 1;	/* a cgroup list holds at most 1024 entries */
	return err == EINVAL;
}

static void fuzz_one(struct counts *c, const struct group *g, int checked)
{
	static char buf[VAL_MAX + 16], before[VAL_MAX], after[VAL_MAX],
		    other[VAL_MAX];
	const char *file = g->file[rnd() % g->nr];
	int split, err, i;
	size_t len = gen(buf, &split);

	if (checked)
		read_file(g->file[0], before, sizeof(before));
	err = do_write(file, buf, len, split);
	c->writes++;
	if (err) {
		c->refused++;
		if (err == -1)
			error(c, file, buf, len, "short write%s", "");
		else if (!refusal_ok(g, err))
			error(c, file, buf, len, "refused with %s", strerror(err));
		/*
		 * A value written in two pieces may be refused after its first
		 * piece was taken (sysfs passes each write to the setter).
		 */
		if (!checked || split)
			return;
		for (i = 0; i < g->nr; i++) {
			read_file(g->file[i], after, sizeof(after));
			if (strcmp(before, after))
				error(c, g->file[i], buf, len,
				      "refused, but the value changed from '%s'", before);
		}
		return;
	}
	c->accepted++;
	if (!checked)
		return;
	read_file(g->file[0], after, sizeof(after));
	for (i = 1; i < g->nr; i++) {
		read_file(g->file[i], other, sizeof(other));
		if (strcmp(after, other))
			error(c, g->file[i], buf, len, "twins disagree after '%s'", after);
	}
	if (g->is_list || !after[0])
		return;		/* a list, not a value */
	err = do_write(file, after, strlen(after), 0);
	read_file(g->file[0], other, sizeof(other));
	if (err)
		error(c, file, after, strlen(after), "read-back value refused: %s",
		      strerror(err > 0 ? err : EIO));
	else if (strcmp(after, other))
		error(c, file, after, strlen(after), "read-back value reads back as '%s'",
		      other);
}

static void child(int rank, int procs, long writes, unsigned long long seed)
{
	struct counts *c = &shared[rank];
	long i;

	rng = seed * 2654435761ULL + rank * 40503ULL + 1;
	for (i = 0; i < writes / 2; i++) {
		int gi = (int)(rnd() % nr_groups);

		/* owned half: groups gi with gi % procs == rank */
		gi -= gi % procs;
		gi += rank;
		if (gi >= nr_groups)
			gi = rank % nr_groups;
		fuzz_one(c, &groups[gi], procs <= nr_groups);
	}
	/* Nobody writes to another's groups before all are through. */
	__atomic_add_fetch(owned_done, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(owned_done, __ATOMIC_SEQ_CST) < procs)
		usleep(1000);
	for (; i < writes; i++)
		fuzz_one(c, &groups[rnd() % nr_groups], 0);
	exit(0);
}

/* kmsg_bad() - count records of level warning or worse after offset start */
static int kmsg_bad(int fd)
{
	char rec[2048];
	ssize_t n;
	int bad = 0;

	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = 0;
		if ((atoi(rec) & 7) <= 4) {
			if (bad++ < ERRORS_SHOWN)
				fprintf(stderr, "kernel logged: %s", strchr(rec, ';') ?
					strchr(rec, ';') + 1 : rec);
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	long writes = 10000;
	int procs = 4, opt, i, kmsg, bad;
	unsigned long long seed = 1;
	const char *list_files[MAX_GROUPS];
	int nr_lists = 0;
	struct counts total = { 0 };
	char a[VAL_MAX], b[VAL_MAX];

	while ((opt = getopt(argc, argv, "n:p:s:e:")) != -1) {
		switch (opt) {
		case 'n': writes = atol(optarg); break;
		case 'p': procs = atoi(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'e':
			if (nr_lists < MAX_GROUPS)
				list_files[nr_lists++] = optarg;
			break;
		default:
			fprintf(stderr, "usage: skm-fuzz [-n writes] [-p procs] [-s seed] [-e file] GROUP...\n");
			return 2;
		}
	}
	for (; optind < argc && nr_groups < MAX_GROUPS; optind++) {
		struct group *g = &groups[nr_groups++];
		char *f;

		for (f = strtok(argv[optind], ":"); f && g->nr < MAX_FILES; f = strtok(NULL, ":")) {
			g->file[g->nr++] = f;
			for (i = 0; i < nr_lists; i++)
				if (!strcmp(f, list_files[i]))
					g->is_list = 1;
		}
	}
	if (!nr_groups || procs < 1) {
		fprintf(stderr, "skm-fuzz: no files\n");
		return 2;
	}
	shared = mmap(NULL, sizeof(*shared) * procs + sizeof(int),
		      PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	owned_done = (int *)&shared[procs];
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg < 0 || lseek(kmsg, 0, SEEK_END) < 0) {
		perror("/dev/kmsg");
		return 2;
	}
	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 2;
		}
		if (!pid)
			child(i, procs, writes / procs, seed);
	}
	for (i = 0; i < procs; i++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "error: a fuzzing process died (status %d)\n", status);
			total.errors++;
		}
	}
	for (i = 0; i < procs; i++) {
		total.writes += shared[i].writes;
		total.accepted += shared[i].accepted;
		total.refused += shared[i].refused;
		total.errors += shared[i].errors;
	}
	for (i = 0; i < nr_groups; i++) {
		int j;

		read_file(groups[i].file[0], a, sizeof(a));
		for (j = 1; j < groups[i].nr; j++) {
			read_file(groups[i].file[j], b, sizeof(b));
			if (strcmp(a, b)) {
				fprintf(stderr, "error: %s and %s disagree at the end: '%s' '%s'\n",
					groups[i].file[0], groups[i].file[j], a, b);
				total.errors++;
			}
		}
	}
	bad = kmsg_bad(kmsg);
	total.errors += bad;
	printf("writes=%ld accepted=%ld refused=%ld errors=%ld kernel_warnings=%d\n",
	       total.writes, total.accepted, total.refused, total.errors, bad);
	return total.errors ? 1 : 0;
}
