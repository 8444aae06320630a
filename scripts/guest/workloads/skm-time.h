/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the guest workloads: monotonic time in seconds. */
#ifndef SKM_TIME_H
#define SKM_TIME_H

#include <time.h>

static inline double skm_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* SKM_TIME_H */
