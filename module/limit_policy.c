// SPDX-License-Identifier: GPL-2.0
/*
 * Socket memory limits per cgroup: the decision (see limit_policy.h).
 */
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/mm.h>

#include "limit_policy.h"

/**
 * skm_limit_pages_from_bytes() - a limit in bytes as whole pages
 * @bytes: the limit as written
 *
 * Rounded down (a limit never lets more through than written), and capped
 * at LONG_MAX so that usage, a long, compares with it without overflow.
 */
unsigned long skm_limit_pages_from_bytes(u64 bytes)
{
	return min_t(u64, bytes >> PAGE_SHIFT, LONG_MAX);
}

/**
 * skm_limit_suppress() - the verdict for an allocation
 * @over: skm_limit_over() for the cgroup or some limited ancestor
 * @below_min: the socket is under its minimum buffer for this direction
 *
 * Return: true to suppress the allocation as over the kernel's hard limit.
 * (The forced send over sndbuf is the caller's, as in the kernel.)
 */
bool skm_limit_suppress(bool over, bool below_min)
{
	return over && !below_min;
}
