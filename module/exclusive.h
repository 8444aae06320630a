/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_EXCLUSIVE_H
#define _SKMEMCG_EXCLUSIVE_H

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/rculist_nulls.h>
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

extern atomic_long_t skm_excl_nr_sockets;

#define SKM_EXCL_HASH_BITS	12

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

/*
 * One exclusive socket: in skm_excl_socks, keyed by the socket. Every page
 * it is charged from its binding on is exclusive, counted in its
 * protocol's exclusive pages and not per socket; @global_pages are those it
 * held before, still in the global counter, which its next reduces take
 * first: normally 0 (skm_excl_bind()).
 */
struct skm_excl_sk {
	struct hlist_nulls_node node;
	struct sock *sk;
	struct skm_excl_proto *proto;
	atomic_long_t global_pages;
};

extern struct hlist_nulls_head skm_excl_socks[1 << SKM_EXCL_HASH_BITS];

static __always_inline u32 skm_excl_bucket(const struct sock *sk)
{
	return hash_ptr(sk, SKM_EXCL_HASH_BITS);
}

/*
 * The entry of @sk, or NULL. Inline: every raise, reduce and forced charge
 * of every socket asks, once any socket is exclusive. The walk of the
 * bucket is an RCU reader by disabling preemption (a grace period waits
 * for such sections since RCU's flavours were consolidated in 4.20): one
 * per-CPU increment and decrement, where rcu_read_lock() on Debian's
 * PREEMPT_RCU kernels is two calls. Entries come from a
 * SLAB_TYPESAFE_BY_RCU cache and are freed at once: within the walk an
 * entry's memory stays an entry, but may be another socket's by now, in
 * another bucket, so the walk checks the nulls value it ends on and walks
 * again if that is another bucket's (as TCP's established hash does). An
 * entry with @sk's address is @sk's: @sk's own is freed only with it.
 */
static __always_inline struct skm_excl_sk *__skm_excl_find(const struct sock *sk)
{
	u32 bucket = skm_excl_bucket(sk);
	struct skm_excl_sk *es, *found = NULL;
	struct hlist_nulls_node *n;

	preempt_disable_notrace();
again:
	hlist_nulls_for_each_entry_rcu(es, n, &skm_excl_socks[bucket], node) {
		/* pairs with skm_excl_add()'s release: a reused entry is set */
		if (smp_load_acquire(&es->sk) == sk) {
			found = es;
			goto out;
		}
	}
	/* an entry freed and reused meanwhile led into another bucket */
	if (get_nulls_value(n) != bucket)
		goto again;
out:
	preempt_enable_notrace();
	return found;
}

/*
 * The exclusive state of @sk, or NULL. One load when no socket is exclusive.
 * The entry lives as long as the socket (freed from mem_cgroup_sk_free) or
 * until skm_excl_release_all(), which first waits out every hook; so a hook
 * working on @sk may keep using it without RCU, across a sleeping charge.
 */
/* Is any socket exclusive? One load. */
static inline bool skm_excl_any(void)
{
	return atomic_long_read(&skm_excl_nr_sockets);
}

extern bool skm_exclusive;
extern unsigned int skm_exclusive_backstop_pct;
extern struct skm_cglist skm_excl_cgroups;

static inline struct skm_excl_sk *skm_excl_find(const struct sock *sk)
{
	if (likely(!skm_excl_any()))
		return NULL;
	return __skm_excl_find(sk);
}

/**
 * skm_excl_backstop() - is an exclusive socket's raise over the host's backstop?
 * @es: its state
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
static __always_inline bool skm_excl_backstop(struct skm_excl_sk *es,
					      struct sock *sk, int amt)
{
	return skm_backstop_exceeded(sk_memory_allocated(sk),
				     atomic_long_read(&es->proto->pages) + amt,
				     sk_prot_mem_limits(sk, 2),
				     READ_ONCE(skm_exclusive_backstop_pct));
}

/**
 * skm_excl_charge() - __sk_mem_raise_allocated()'s charge for an exclusive
 *	socket: the memcg alone, not the global counter
 * @es: its state
 * @sk: the socket
 * @amt: pages
 * @gfp: the charge's; with __GFP_NOFAIL, the kernel's forced charge
 *
 * Inline: in the raise, one call fewer to the memcg's charge.
 *
 * Return: true if charged (and counted as exclusive pages).
 */
static __always_inline bool skm_excl_charge(struct skm_excl_sk *es,
					    struct sock *sk, int amt, gfp_t gfp)
{
	if (!skm_sock_charge(sk, amt, gfp))
		return false;
	skm_excl_pages_add(es->proto, amt);
	return true;
}

int skm_excl_init(void);
void skm_excl_exit(void);
void skm_excl_release_all(void);

void skm_excl_bind(struct sock *sk);
void skm_excl_forget(struct sock *sk);

void skm_excl_backstop_verdict(struct sock *sk, struct skm_suppress *v);
void skm_excl_reduce(struct sock *sk, int amount, struct skm_excl_sk *es);
int skm_excl_forced_account(struct skm_excl_sk *es, struct sock *sk, int size);
void skm_excl_forced(struct sock *sk, int size, struct skm_excl_sk *es);

bool skm_excl_cgroup_listed(struct mem_cgroup *memcg);

#endif /* _SKMEMCG_EXCLUSIVE_H */
