/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the guest workloads: monotonic time in seconds, the CPU time
 * of all the process's threads in ns, SKM_FIFO and SKM_OTHER_PIDS.
 */
#ifndef SKM_TIME_H
#define SKM_TIME_H

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

/*
 * With SKM_FIFO=1 in the environment, the process and the threads it makes
 * from then on run SCHED_FIFO at priority 1 (bench_icount): a thread woken
 * by its peer then never preempts the one running, whatever their CFS
 * history, so on one CPU the order of their steps, and the count of
 * instructions a workload takes, no longer depends on the tick's phase.
 * The tasks SKM_FIFO_ABOVE lists (ksoftirqd) run above them: woken, they
 * run at once, as a softirq run inline would.
 */
static inline void skm_maybe_fifo(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	const char *on = getenv("SKM_FIFO");
	const char *pids = getenv("SKM_FIFO_ABOVE");
	int pid, n;

	if (!on || *on != '1')
		return;
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("SKM_FIFO: sched_setscheduler");
	/* SKM_FIFO_ABOVE: pids run at priority 2, above the workload's */
	sp.sched_priority = 2;
	while (pids && sscanf(pids, "%d%n", &pid, &n) == 1) {
		pids += n;
		if (sched_setscheduler(pid, SCHED_FIFO, &sp))
			perror("SKM_FIFO_ABOVE: sched_setscheduler");
	}
}

static inline double skm_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * User and system time of every thread of the process, in ns (the kernel
 * adds up each thread's runtime; getrusage() reports it in microseconds).
 * Beside a wall-clock figure it tells time on the CPU from time waited.
 */
static inline long long skm_cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
}

/*
 * The runtime in ns of the tasks SKM_OTHER_PIDS lists (space-separated
 * pids, bench_icount: the kernel threads), from /proc/PID/schedstat's
 * first field: work done meanwhile outside the workload's own CPU time
 * (softirqs left to ksoftirqd, say); 0 without the variable. A task gone
 * counts 0.
 */
static inline long long skm_other_ns(void)
{
	const char *pids = getenv("SKM_OTHER_PIDS");
	long long sum = 0, ns;
	char path[64];
	FILE *f;
	int pid, n;

	while (pids && sscanf(pids, "%d%n", &pid, &n) == 1) {
		pids += n;
		snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%lld", &ns) == 1)
			sum += ns;
		fclose(f);
	}
	return sum;
}

#endif /* SKM_TIME_H */
