/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcg-exclusive socket accounting (seed 002): the model.
 *
 * A socket charged to a memcg also pays in its protocol's global counter
 * (tcp_mem, sockstat "mem") and is throttled by a host-wide limit other
 * tenants filled. An exclusive socket is charged to its memcg only: it never
 * adds to or subtracts from the global counter, never checks tcp_mem and
 * never moves the protocol in or out of global memory pressure.
 *
 * Which sockets: decided once, when the socket's memcg is bound. A socket
 * is exclusive if its memcg's cgroup or an ancestor is in the
 * exclusive_cgroups list, or if the global "exclusive" default is on,
 * unless the kernel keeps it out of the global counter itself (7.x's
 * sk_bypass_prot_mem). A child socket returned by accept() is bound there,
 * to the memcg of the task that accepts it, and decided like any other:
 * what it holds from before (counted globally, having had no memcg) moves
 * to the exclusive count then. Nothing changes the decision afterwards.
 *
 * The maintainers' objection: global limits are the host's backstop. So
 * there is one of our own. All pages of exclusive sockets are counted per
 * protocol, and while the global counter plus them exceeds
 * tcp_mem[2] x exclusive_backstop_pct / 100, exclusive sockets are
 * suppressed as if over the hard limit. Non-exclusive sockets never see
 * exclusive pages. Pure functions: inputs by value, no globals.
 */
#ifndef _SKMEMCG_EXCLUSIVE_POLICY_H
#define _SKMEMCG_EXCLUSIVE_POLICY_H

#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/types.h>

bool skm_exclusive_decide(bool dflt, bool listed, bool kernel_bypasses);

/**
 * skm_backstop_cap_pages() - tcp_mem[2] x exclusive_backstop_pct / 100
 * @hard_limit_pages: tcp_mem[2], not negative
 * @pct: exclusive_backstop_pct
 *
 * Return: the cap in pages, rounded down; ULONG_MAX where it does not fit.
 */
static inline unsigned long skm_backstop_cap_pages(unsigned long hard_limit_pages,
						   unsigned int pct)
{
	unsigned long base, cap;

	if (check_mul_overflow(hard_limit_pages / 100, (unsigned long)pct, &base) ||
	    check_add_overflow(base, hard_limit_pages % 100 * pct / 100, &cap))
		return ULONG_MAX;
	return cap;
}

/**
 * skm_backstop_exceeded() - is the host over the exclusive backstop?
 * @global_pages: the protocol's global counter (non-exclusive sockets)
 * @exclusive_pages: pages held by exclusive sockets, this charge included
 * @hard_limit_pages: tcp_mem[2] (the protocol's hard limit)
 * @pct: exclusive_backstop_pct; 0 turns the backstop off
 *
 * Every raise of an exclusive socket asks, so no division: in integers,
 * total > floor(hard x pct / 100) is total x 100 > hard x pct. Both
 * products fit in 64 bits on any real host, surely so below 2^57 pages
 * in all and 2^32 (16 TiB) of tcp_mem[2], which one test tells; past
 * that, each product is checked: where only one does not fit, the other
 * side is the smaller; where neither does, skm_backstop_cap_pages()
 * decides.
 *
 * Return: true when @global_pages + @exclusive_pages exceeds
 * @hard_limit_pages * @pct / 100. Negative counts (per-CPU batching) count
 * as 0; nothing overflows.
 */
static inline bool skm_backstop_exceeded(long global_pages, long exclusive_pages,
					 long hard_limit_pages, unsigned int pct)
{
	unsigned long total, hard, total_x100, cap_x100;
	bool total_huge, cap_huge;

	if (!pct)
		return false;
	/* two longs at most LONG_MAX each: their sum fits */
	total = (unsigned long)max(global_pages, 0L) + max(exclusive_pages, 0L);
	hard = max(hard_limit_pages, 0L);
	/* total below 2^57 and hard below 2^32 (pct is 32 bits): neither overflows */
	if (likely(!((total >> 25 | hard) >> 32)))
		return total * 100 > hard * pct;
	total_huge = check_mul_overflow(total, 100UL, &total_x100);
	cap_huge = check_mul_overflow(hard, (unsigned long)pct, &cap_x100);
	if (likely(!total_huge && !cap_huge))
		return total_x100 > cap_x100;
	if (!total_huge || !cap_huge)
		return total_huge;
	return total > skm_backstop_cap_pages(hard, pct);
}

#endif /* _SKMEMCG_EXCLUSIVE_POLICY_H */
