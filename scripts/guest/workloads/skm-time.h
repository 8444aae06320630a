/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the guest workloads: monotonic time in seconds, and the CPU
 * time of all the process's threads in ns.
 */
#ifndef SKM_TIME_H
#define SKM_TIME_H

#include <sys/resource.h>
#include <time.h>

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
