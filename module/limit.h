/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_LIMIT_H
#define _SKMEMCG_LIMIT_H

#include <linux/cgroup.h>
#include <linux/memcontrol.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <net/sock.h>

#include "cglist.h"
#include "limit_policy.h"
#include "sock_verdict.h"

struct mem_cgroup;
struct seq_file;
struct skm_cglist;
struct skm_cglist_entry;

extern struct skm_cglist skm_sock_limits;

/**
 * struct skm_limit_walk - sock_limits' walk of one raise up the socket's
 *	memcg and its ancestors
 * @e: the nearest entry the raise would pass, or NULL
 * @at: the memcg it limits
 */
struct skm_limit_walk {
	struct skm_cglist_entry *e;
	struct mem_cgroup *at;
};

bool skm_limit_end(const struct skm_raise *r, const struct skm_limit_walk *w,
		   struct skm_suppress *v);

void skm_limit_walk(struct skm_limit_walk *w, struct mem_cgroup *memcg,
		    unsigned int amt);

/*
 * The limited entries of one memcg's line (itself and its ancestors,
 * nearest first), kept per CPU for the charge and uncharge counts: a round
 * trip's charges are of the same memcg over and over, and looking each
 * level up costs its cgroup id's loads, a hash and a bucket's walk. Valid
 * while sock_limits' generation is the one it was found in
 * (skm_cglist_gen(): any entry in or out bumps it), for the memcg it was
 * found for, known by its css serial number: one load from the memcg, and
 * never reused (a memcg freed and another made at its address has a new
 * one), where its cgroup id is three loads away. A memcg's cgroup never
 * moves, so its line is fixed. One chain per CPU for task context and one
 * for softirq, each used with preemption disabled: neither can be entered
 * again on its CPU while in use (a softirq does not interrupt a softirq;
 * on PREEMPT_RT softirqs run in tasks, which cannot preempt the user); a
 * hard interrupt, which charges no socket memory in practice, walks
 * without one. A line with more limited levels than a chain holds is
 * walked each time. A cache line each, so that which of the two is one
 * shift of the preempt count's softirq bit.
 */
#define SKM_LIMIT_CHAIN_MAX	4	/* limited levels a chain holds */

/**
 * struct skm_limit_chain - one CPU's limited entries of one memcg's line
 * @serial: the memcg's css serial number; 0, which no css has, for a
 *	line with more limited levels than it holds: never valid, walk
 * @gen: sock_limits' generation they were found in
 * @nr: how many
 * @e: the entries, nearest first
 */
struct skm_limit_chain {
	u64 serial;
	unsigned long gen;
	unsigned long nr;
	struct skm_cglist_entry *e[SKM_LIMIT_CHAIN_MAX];
} ____cacheline_aligned;

DECLARE_PER_CPU(struct skm_limit_chain[2], skm_limit_chains);

/*
 * The entries of chain @c, from @e up to (not including) the return value:
 * loops over them go by pointer, not by index, because a kernel built with
 * UBSAN_BOUNDS (7.x's) checks each index against the array's bound, a call
 * that keeps the loop's registers saved. A valid chain holds at most
 * SKM_LIMIT_CHAIN_MAX.
 */
static __always_inline struct skm_cglist_entry **
skm_limit_chain_end(struct skm_limit_chain *c)
{
	return c->e + c->nr;
}

/*
 * Does valid chain @c hold one entry? The common line, one limited level:
 * its loops' set-up and their exit cost more than the count itself, so
 * the counts and the raise's check take that entry straight.
 */
static __always_inline bool skm_limit_chain_one(const struct skm_limit_chain *c)
{
	return c->nr == 1;
}

struct skm_limit_chain *skm_limit_chain_refill(struct mem_cgroup *memcg);
bool skm_limit_charged_slow(struct mem_cgroup *memcg, unsigned int nr_pages);
void skm_limit_uncharged_slow(struct mem_cgroup *memcg, unsigned int nr_pages);
void skm_limit_get_states(struct mem_cgroup *memcg);
void skm_limit_chain_floor(struct skm_limit_chain *c);

/*
 * This CPU's chain for this context (pc: preempt_count()), but in a hard
 * IRQ: the softirq bit, masked and shifted, is the offset of the second
 * chain (two instructions, where an index made of it takes three).
 */
static __always_inline struct skm_limit_chain *skm_limit_chain_of(unsigned int pc)
{
	BUILD_BUG_ON(SOFTIRQ_OFFSET % sizeof(struct skm_limit_chain));
	return (void *)this_cpu_ptr(&skm_limit_chains[0]) +
	       (pc & SOFTIRQ_OFFSET) / (SOFTIRQ_OFFSET / sizeof(struct skm_limit_chain));
}

/*
 * Is this CPU's chain for this context @memcg's line, and valid? If so,
 * in @c; if not, skm_limit_chain_refill() finds it anew, or says to walk.
 * With preemption disabled (an RCU reader since 4.20's consolidation): the
 * entries stay while it is.
 */
static __always_inline bool skm_limit_chain(struct mem_cgroup *memcg,
					    struct skm_limit_chain **c)
{
	unsigned int pc = preempt_count();
	unsigned long gen = skm_cglist_gen(&skm_sock_limits);
	u64 serial = READ_ONCE(memcg->css.serial_nr);

	if (unlikely(pc & (NMI_MASK | HARDIRQ_MASK)))
		return false;
	*c = skm_limit_chain_of(pc);
	return (*c)->serial == serial && (*c)->gen == gen;
}

/* Count @nr_pages into @e. Return: true if its usage left 0 unmarked. */
static __always_inline bool skm_limit_usage_count(struct skm_cglist_entry *e,
						  unsigned int nr_pages)
{
	return atomic_long_add_return(nr_pages, &e->usage_pages) == nr_pages &&
	       !READ_ONCE(e->has_state);
}

/*
 * Uncount @nr_pages from @e's usage. Return: true if that took it below 0,
 * for skm_limit_chain_floor() to set back (after the loop over a line's
 * entries: a call in it would keep the loop's registers saved).
 */
static __always_inline bool skm_limit_usage_uncount(struct skm_cglist_entry *e,
						    unsigned int nr_pages)
{
	return atomic_long_sub_return(nr_pages, &e->usage_pages) < 0;
}

/*
 * skm_limit_usage_floor() - set usage an uncharge took below 0 back to 0
 * @e: the entry
 *
 * Pages charged before the limit was set are uncharged too, and were never
 * counted: usage stops at 0. A charge counted meanwhile keeps what it
 * added above the uncharge's deficit, as if it came first. Inline: the
 * quick uncount (skm_limit_uncharged_quick()) calls nothing.
 */
static __always_inline void skm_limit_usage_floor(struct skm_cglist_entry *e)
{
	long old = atomic_long_read(&e->usage_pages);

	while (old < 0 && !atomic_long_try_cmpxchg(&e->usage_pages, &old, 0))
		;
}

/**
 * skm_limit_charged_quick() - skm_limit_charged()'s common case, calling nothing
 * @memcg: the memcg charged
 * @nr_pages: pages
 *
 * This CPU's chain valid for @memcg's line, of one entry that has its
 * state: one count. Nothing on its path calls a function, so that a
 * caller that goes on to the kernel's charge as a tail call keeps nothing
 * of its own across a call: no frame (skm_sock_charge_nofail()). Any
 * other case is skm_limit_charged()'s, before anything was counted.
 *
 * Return: true if counted; false if skm_limit_charged() is to count.
 */
static __always_inline bool skm_limit_charged_quick(struct mem_cgroup *memcg,
						    unsigned int nr_pages)
{
	struct skm_limit_chain *c;
	bool counted;

	preempt_disable_notrace();
	counted = skm_limit_chain(memcg, &c) && skm_limit_chain_one(c) &&
		  READ_ONCE(c->e[0]->has_state);
	if (likely(counted))
		atomic_long_add(nr_pages, &c->e[0]->usage_pages);
	preempt_enable_notrace();
	return counted;
}

/**
 * skm_limit_uncharged_quick() - skm_limit_uncharged()'s common case,
 *	calling nothing
 * @memcg: the memcg uncharged
 * @nr_pages: pages
 *
 * This CPU's chain valid for @memcg's line, of one entry: one uncount, set
 * back to 0 if it went below, inline. As skm_limit_charged_quick(), for a
 * caller with no frame (skm_sock_uncharge()).
 *
 * Return: true if counted; false if skm_limit_uncharged() is to count.
 */
static __always_inline bool skm_limit_uncharged_quick(struct mem_cgroup *memcg,
						      unsigned int nr_pages)
{
	struct skm_limit_chain *c;
	bool counted;

	preempt_disable_notrace();
	counted = skm_limit_chain(memcg, &c) && skm_limit_chain_one(c);
	if (likely(counted) && unlikely(skm_limit_usage_uncount(c->e[0], nr_pages)))
		skm_limit_usage_floor(c->e[0]);
	preempt_enable_notrace();
	return counted;
}

/**
 * skm_limit_charged() - count pages charged to @memcg's sockets
 * @memcg: the memcg charged
 * @nr_pages: pages
 *
 * Into every limited ancestor (and @memcg itself). A limited memcg gets
 * skmemcg state, so that "cgroups" lists it, when its usage leaves 0 and
 * its entry has no state marked (@has_state): on its first charge once
 * limited, and again after its cgroup was made anew or the limit's hooks
 * came back (skm_cglist_reset_usage()); not looked up on every charge, nor
 * each time a socket's usage falls to 0 and rises again (a round trip's
 * forced charge: it looked the state up on every round trip). Inline:
 * every charge while sock_limits lists a cgroup.
 */
static __always_inline void skm_limit_charged(struct mem_cgroup *memcg,
					      unsigned int nr_pages)
{
	struct skm_cglist_entry **pos, **end;
	struct skm_limit_chain *c;
	bool first = false;

	preempt_disable_notrace();
	if (likely(skm_limit_chain(memcg, &c))) {
		if (likely(skm_limit_chain_one(c)))
			first = skm_limit_usage_count(c->e[0], nr_pages);
		else
			for (pos = c->e, end = skm_limit_chain_end(c); pos < end; pos++)
				first |= skm_limit_usage_count(*pos, nr_pages);
	} else {
		first = skm_limit_charged_slow(memcg, nr_pages);
	}
	preempt_enable_notrace();
	if (unlikely(first))
		skm_limit_get_states(memcg);
}

/**
 * skm_limit_uncharged() - count pages uncharged from @memcg's sockets
 * @memcg: the memcg uncharged
 * @nr_pages: pages
 *
 * Pages charged before a limit was set are uncharged too: usage stops at 0
 * (skm_limit_chain_floor()).
 */
static __always_inline void skm_limit_uncharged(struct mem_cgroup *memcg,
						unsigned int nr_pages)
{
	struct skm_cglist_entry **pos, **end;
	struct skm_limit_chain *c;
	bool below = false;

	preempt_disable_notrace();
	if (likely(skm_limit_chain(memcg, &c))) {
		if (likely(skm_limit_chain_one(c)))
			below = skm_limit_usage_uncount(c->e[0], nr_pages);
		else
			for (pos = c->e, end = skm_limit_chain_end(c); pos < end; pos++)
				below |= skm_limit_usage_uncount(*pos, nr_pages);
		if (unlikely(below))
			skm_limit_chain_floor(c);
	} else {
		skm_limit_uncharged_slow(memcg, nr_pages);
	}
	preempt_enable_notrace();
}

/* Would @amt more pages pass @e's limit? */
static __always_inline bool skm_limit_entry_over(struct skm_cglist_entry *e,
						 unsigned int amt)
{
	return skm_limit_over(atomic_long_read(&e->usage_pages), amt,
			      READ_ONCE(e->pages));
}

/*
 * The nearest entry of @c whose limit @amt more pages would pass, or NULL:
 * the raise's check of a valid chain, in skm_limit_clear() and
 * skm_limit_walk(). With preemption disabled.
 */
static __always_inline struct skm_cglist_entry *
skm_limit_chain_over(struct skm_limit_chain *c, unsigned int amt)
{
	struct skm_cglist_entry **pos, **end;

	if (likely(skm_limit_chain_one(c)))
		return skm_limit_entry_over(c->e[0], amt) ? c->e[0] : NULL;
	for (pos = c->e, end = skm_limit_chain_end(c); pos < end; pos++)
		if (skm_limit_entry_over(*pos, amt))
			return *pos;
	return NULL;
}

/**
 * skm_limit_clear() - would no limit of @memcg's line be passed?
 * @memcg: the socket's memcg
 * @amt: pages the raise asks for
 *
 * The common raise's question, asked of this CPU's chain with preemption
 * disabled for the entries' sake and nothing kept after: no read side
 * around the raise, no walk state. A chain not found valid answers false,
 * and the full walk (skm_limit_walk()) finds the line anew and decides.
 *
 * Return: true if @amt more pages pass no limit of the line.
 */
static __always_inline bool skm_limit_clear(struct mem_cgroup *memcg,
					    unsigned int amt)
{
	struct skm_limit_chain *c;
	bool clear;

	preempt_disable_notrace();
	clear = skm_limit_chain(memcg, &c) && !skm_limit_chain_over(c, amt);
	preempt_enable_notrace();
	return clear;
}

#endif /* _SKMEMCG_LIMIT_H */
