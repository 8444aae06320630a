// SPDX-License-Identifier: GPL-2.0
/*
 * memcg-exclusive socket accounting: the pure part. See exclusive_policy.h.
 */
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/overflow.h>

#include "exclusive_policy.h"

/**
 * skm_exclusive_decide() - is a socket exclusive, once its memcg is bound?
 * @dflt: the global "exclusive" knob
 * @listed: its cgroup or an ancestor is in exclusive_cgroups
 * @is_child: the socket comes from accept()
 * @listener_exclusive: for a child, whether its listener is exclusive
 */
bool skm_exclusive_decide(bool dflt, bool listed, bool is_child,
			  bool listener_exclusive)
{
	if (is_child)
		return listener_exclusive;
	return dflt || listed;
}

/**
 * skm_backstop_exceeded() - is the host over the exclusive backstop?
 * @global_pages: the protocol's global counter (non-exclusive sockets)
 * @exclusive_pages: pages held by exclusive sockets, this charge included
 * @hard_limit_pages: tcp_mem[2] (the protocol's hard limit)
 * @pct: exclusive_backstop_pct; 0 turns the backstop off
 *
 * Return: true when @global_pages + @exclusive_pages exceeds
 * @hard_limit_pages * @pct / 100. Negative counts (per-CPU batching) count
 * as 0; nothing overflows.
 */
bool skm_backstop_exceeded(long global_pages, long exclusive_pages,
			   long hard_limit_pages, unsigned int pct)
{
	unsigned long total, cap, base;

	if (!pct)
		return false;
	global_pages = max(global_pages, 0L);
	exclusive_pages = max(exclusive_pages, 0L);
	hard_limit_pages = max(hard_limit_pages, 0L);

	total = (unsigned long)global_pages + exclusive_pages;
	/* hard * pct / 100, saturating */
	if (check_mul_overflow((unsigned long)hard_limit_pages / 100,
			       (unsigned long)pct, &base) ||
	    check_add_overflow(base, (unsigned long)hard_limit_pages % 100 * pct / 100,
			       &cap))
		cap = ULONG_MAX;
	return total > cap;
}
