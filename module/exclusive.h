/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_EXCLUSIVE_H
#define _SKMEMCG_EXCLUSIVE_H

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/preempt.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <net/sock.h>

#include "cglist.h"
#include "exclusive_policy.h"
#include "sock_charge.h"
#include "sock_compat.h"
#include "sock_verdict.h"

struct cgroup;
struct mem_cgroup;
struct seq_file;
struct skm_cglist;

/* Sockets tagged exclusive in this period and not freed yet. */
extern atomic_long_t skm_excl_nr_sockets;

/*
 * Pages exclusive sockets of one protocol hold, keyed by its global counter:
 * @pages plus every CPU's @delta, exact; @pages alone, off by less than
 * SKM_EXCL_BATCH_PAGES per CPU, is what the backstop reads. As a
 * percpu_counter, but its add is inline and takes no preemption toggle: each
 * step (a per-CPU add that returns the sum, the fold of it into @pages, the
 * per-CPU subtraction of what was folded) keeps the total exact whatever
 * runs between them or on which CPU, so none needs to be atomic with the
 * next (skm_excl_pages_add()).
 */
#define SKM_EXCL_BATCH_PAGES	64	/* 256 KiB a CPU with 4 KiB pages */

struct skm_excl_proto {
	atomic_long_t *memory_allocated;
	atomic_long_t pages;
	long __percpu *delta;
};

/* Add @pages (negative: subtract) to @p's exclusive pages. */
static __always_inline void skm_excl_pages_add(struct skm_excl_proto *p, long pages)
{
	long delta = this_cpu_add_return(*p->delta, pages);

	/* a constant, not percpu_counter_batch: an add and a compare */
	if (unlikely(abs(delta) >= SKM_EXCL_BATCH_PAGES)) {
		atomic_long_add(delta, &p->pages);
		this_cpu_sub(*p->delta, delta);
	}
}

/**
 * struct skm_excl_tag - what makes a socket exclusive: its creator
 * @prot: a copy of the protocol's struct proto, taken when the tag was
 *	claimed; an exclusive socket's sk_prot_creator points here instead of
 *	at @orig (skm_excl_bind()). First: the socket's creator is the tag.
 * @orig: the protocol's own struct proto, or NULL for a free slot
 * @counter: the exclusive pages of @orig's global counter
 *
 * The kernel reads a socket's sk_prot_creator to free it (the slab, the
 * owner), to make its TIME_WAIT minisock (whose tw_prot then keeps the
 * pointer), to name its file, and in tcp_bpf_clone() (a sockmap
 * listener's child takes its listener's creator as its sk_prot): the same
 * in 6.1, 6.12 and 7.3 (and chtls' children before 7.x take it as their
 * creator). Every field of @prot is @orig's, so each of those reads gets
 * what @orig would give; and since a minisock or such a child
 * may keep the pointer after the socket is gone, a tag in use is never
 * freed (skm_excl_tags_retire()). docs/exclusive.md has the whole list.
 */
struct skm_excl_tag {
	struct proto prot;
	struct proto *orig;
	struct skm_excl_proto *counter;
};

#define SKM_EXCL_TAGS		8	/* protocols made exclusive in one period */

/*
 * The tags of one enabled period of the policy, in one block, so that a
 * creator is told to be a tag by one subtraction and one comparison.
 * Claimed slot by slot as sockets of a new protocol are bound (@used: any
 * is, and the block can never be freed).
 */
struct skm_excl_tags {
	struct skm_excl_tag tag[SKM_EXCL_TAGS];
	bool used;
};

extern struct skm_excl_tags *skm_excl_tags_now;

/*
 * @sk's tag if its creator is one of this period's, or NULL. Inline: every
 * raise, reduce and forced charge asks, once any socket is exclusive. A
 * socket tagged in an earlier period (the policy went off and on since, or
 * the module was loaded again) has no tag of this one: it is ordinary, its
 * exclusive pages handed back when that period ended.
 */
static __always_inline struct skm_excl_tag *skm_excl_tag_of(const struct sock *sk)
{
	struct skm_excl_tags *tags = READ_ONCE(skm_excl_tags_now);
	unsigned long off;

	BUILD_BUG_ON(offsetof(struct skm_excl_tag, prot));
	if (!tags)
		return NULL;
	off = (unsigned long)READ_ONCE(sk->sk_prot_creator) - (unsigned long)tags->tag;
	return off < sizeof(tags->tag) ? (void *)tags->tag + off : NULL;
}

/* Is any socket exclusive? One load. */
static inline bool skm_excl_any(void)
{
	return atomic_long_read(&skm_excl_nr_sockets);
}

extern bool skm_exclusive;
extern unsigned int skm_exclusive_backstop_pct;
extern struct skm_cglist skm_excl_cgroups;

/* The tag of @sk if it is exclusive, or NULL. One load when no socket is. */
static __always_inline struct skm_excl_tag *skm_excl_find(const struct sock *sk)
{
	if (likely(!skm_excl_any()))
		return NULL;
	return skm_excl_tag_of(sk);
}

/**
 * skm_excl_backstop() - is an exclusive socket's raise over the host's backstop?
 * @es: its tag
 * @sk: the socket
 * @amt: pages the raise asks for
 *
 * While the protocol's global counter plus every exclusive page, with
 * this raise, is past tcp_mem[2] x exclusive_backstop_pct / 100, the
 * allocation is refused as the kernel refuses one over its hard limit
 * (skm_excl_backstop_verdict()).
 *
 * Inline: every raise of an exclusive socket asks.
 *
 * Return: true if the allocation is to be suppressed.
 */
static __always_inline bool skm_excl_backstop(struct skm_excl_tag *es,
					      struct sock *sk, int amt)
{
	return skm_backstop_exceeded(sk_memory_allocated(sk),
				     atomic_long_read(&es->counter->pages) + amt,
				     sk_prot_mem_limits(sk, 2),
				     READ_ONCE(skm_exclusive_backstop_pct));
}

/**
 * skm_excl_charge() - __sk_mem_raise_allocated()'s charge for an exclusive
 *	socket: the memcg alone, not the global counter
 * @es: its tag
 * @sk: the socket
 * @amt: pages
 * @gfp: the charge's; with __GFP_NOFAIL, the kernel's forced charge
 *
 * Inline: in the raise, one call fewer to the memcg's charge.
 *
 * Return: true if charged (and counted as exclusive pages).
 */
static __always_inline bool skm_excl_charge(struct skm_excl_tag *es,
					    struct sock *sk, int amt, gfp_t gfp)
{
	if (!skm_sock_charge(sk, amt, gfp))
		return false;
	skm_excl_pages_add(es->counter, amt);
	return true;
}

int skm_excl_init(void);
void skm_excl_exit(void);
void skm_excl_release_all(void);

void skm_excl_bind(struct sock *sk);
void skm_excl_forget(struct sock *sk);

void skm_excl_backstop_verdict(struct sock *sk, struct skm_suppress *v);
void skm_excl_reduce(struct sock *sk, int amount, struct skm_excl_tag *es);
int skm_excl_forced_account(struct skm_excl_tag *es, struct sock *sk, int size);
void skm_excl_forced(struct sock *sk, int size, struct skm_excl_tag *es);

bool skm_excl_cgroup_listed(struct mem_cgroup *memcg);

#endif /* _SKMEMCG_EXCLUSIVE_H */
