/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the guest workloads: monotonic time in seconds, the CPU time
 * of all the process's threads in ns, and SKM_FIFO.
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
 */
static inline void skm_maybe_fifo(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	const char *on = getenv("SKM_FIFO");

	if (on && *on == '1' && sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("SKM_FIFO: sched_setscheduler");
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

#endif /* SKM_TIME_H */
