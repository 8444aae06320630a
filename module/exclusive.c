// SPDX-License-Identifier: GPL-2.0
/*
 * memcg-exclusive socket accounting (seed 002): the glue. See
 * exclusive_policy.h for the model.
 *
 * State:
 * - one struct skm_excl_sk per exclusive socket, in an RCU hash keyed by
 *   the socket, that says it is exclusive. Lookups take no lock; adding
 *   and removing take the lock of the socket's bucket group (one of
 *   SKM_EXCL_LOCKS), so that sockets made and freed on different CPUs
 *   rarely wait for each other. The pages it held in the global counter
 *   when bound and kept there (it was bound by someone not owning it) are
 *   noted in it, and its reduces take those from the global counter first;
 * - per protocol (keyed by its global counter, which TCPv4 and TCPv6
 *   share), a per-CPU batched count of exclusive pages, for the backstop
 *   and for handing them back. Not per socket: a charge adds to it, a
 *   reduce beyond the socket's global pages subtracts from it, so the
 *   global counter plus it is what the stock kernel's global counter
 *   would read, whatever either alone reads; a socket's pages charged
 *   globally by a path we do not replace and reduced through ours move
 *   from the one to the other, and the sum stays right;
 * - the exclusive_cgroups list, by cgroup id.
 *
 * Handing back: on unload, and when the "enabled" knob goes off, the hooks
 * are waited out first, then every exclusive page is added to its global
 * counter and the sockets become ordinary: when the stock kernel later frees
 * their memory it subtracts exactly what was added.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/debugfs.h>
#include <linux/hash.h>
#include <linux/rculist.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/percpu_counter.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "cglist.h"
#include "exclusive.h"
#include "exclusive_policy.h"
#include "hooks.h"
#include "knobs.h"
#include "level.h"
#include "policies.h"
#include "sock_compat.h"
#include "sock_charge.h"

#define SKM_EXCL_LOCK_BITS	8	/* bucket groups with a lock each */
#define SKM_EXCL_PROTOS		8

/*
 * Entries freed are kept on their CPU for reuse, up to SKM_EXCL_SPARES a
 * CPU: each socket's entry is made and freed once, and the slab's
 * allocation and free of it cost about 170 instructions together on 6.1
 * (scripts/path-count.sh), taking and putting back a spare a tenth of
 * that. Spares stay objects of skm_excl_cache: a lookup still walking
 * inside one meets it as it would an entry the slab reused, so the rule
 * of __skm_excl_find() holds. Touched with interrupts off (a socket can be
 * freed in any context); handed back to the slab in skm_excl_exit(), once
 * no hook runs.
 */
#define SKM_EXCL_SPARES		32

struct skm_excl_spares {
	unsigned int nr;
	struct skm_excl_sk *es[SKM_EXCL_SPARES];
};

static DEFINE_PER_CPU(struct skm_excl_spares, skm_excl_spares);

atomic_long_t skm_excl_nr_sockets = ATOMIC_LONG_INIT(0);
static atomic_long_t skm_excl_backstopped = ATOMIC_LONG_INIT(0);

struct hlist_nulls_head skm_excl_socks[1 << SKM_EXCL_HASH_BITS];
static struct kmem_cache *skm_excl_cache;
static raw_spinlock_t skm_excl_socks_locks[1 << SKM_EXCL_LOCK_BITS];
static struct skm_excl_proto skm_excl_protos[SKM_EXCL_PROTOS];

/* exclusive_cgroups (cglist.h) */
struct skm_cglist skm_excl_cgroups =
	SKM_CGLIST_INIT("exclusive_cgroups", NULL, skm_policies_apply);

/*
 * memcg-exclusive socket accounting (seed 002; see exclusive_policy.h), the
 * global default: sockets whose memcg is bound while it is on are charged to
 * their memcg only. Per cgroup: exclusive_cgroups below. Default off.
 */
bool skm_exclusive __read_mostly;
static struct skm_bool_knob skm_exclusive_knob = {
	&skm_exclusive, NULL, NULL, true };
module_param_cb(exclusive, &skm_bool_ops, &skm_exclusive_knob, 0644);
MODULE_PARM_DESC(exclusive,
		 "New sockets of every memcg are charged to the memcg only, not tcp_mem (bool, default N)");

/*
 * The cgroups whose sockets (and their descendants') are memcg-exclusive
 * whatever "exclusive" says: each write is one update, "+<path>" adds,
 * "-<path>" removes; reading lists "+<path>" lines, " waiting" after those
 * whose cgroup does not exist (yet). Tenants' cgroups: readable by root
 * only (0600), unlike the other knobs. A path may name a cgroup not made yet:
 * the entry waits for it (cglist.h). Shared with the debugfs file of the
 * same name, which has its own file operations (no page limit on reads,
 * embedded NULs refused).
 */
module_param_cb(exclusive_cgroups, &skm_cglist_param_ops, &skm_excl_cgroups, 0600);
MODULE_PARM_DESC(exclusive_cgroups,
		 "Add (+<path>) or remove (-<path>) a memcg-exclusive cgroup, existing or not yet; repeat at load for several (default none)");

/*
 * The host's backstop for exclusive sockets: while the protocol's global
 * counter plus exclusive pages exceeds tcp_mem[2] x this / 100, exclusive
 * sockets are suppressed as if over the hard limit. 0 turns it off.
 */
unsigned int skm_exclusive_backstop_pct __read_mostly = 200;
static struct skm_uint_knob skm_exclusive_backstop_pct_knob = {
	&skm_exclusive_backstop_pct, 0, 10000 };
module_param_cb(exclusive_backstop_pct, &skm_uint_ops,
		&skm_exclusive_backstop_pct_knob, 0644);
MODULE_PARM_DESC(exclusive_backstop_pct,
		 "Cap on global + exclusive socket pages, in % of tcp_mem[2] (0..10000, 0 off, default 200)");

/* The lock of @bucket's group: the low bits of the bucket number. */
static raw_spinlock_t *skm_excl_bucket_lock(u32 bucket)
{
	BUILD_BUG_ON(SKM_EXCL_LOCK_BITS > SKM_EXCL_HASH_BITS);
	return &skm_excl_socks_locks[bucket & ((1 << SKM_EXCL_LOCK_BITS) - 1)];
}

int __init skm_excl_init(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(skm_excl_socks); i++)
		INIT_HLIST_NULLS_HEAD(&skm_excl_socks[i], i);
	skm_excl_cache = kmem_cache_create("skmemcg_excl", sizeof(struct skm_excl_sk),
					   0, SLAB_TYPESAFE_BY_RCU, NULL);
	if (!skm_excl_cache)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(skm_excl_socks_locks); i++)
		raw_spin_lock_init(&skm_excl_socks_locks[i]);
	for (i = 0; i < SKM_EXCL_PROTOS; i++) {
		skm_excl_protos[i].delta = alloc_percpu(long);
		if (!skm_excl_protos[i].delta) {
			while (i--)
				free_percpu(skm_excl_protos[i].delta);
			kmem_cache_destroy(skm_excl_cache);
			return -ENOMEM;
		}
	}
	return 0;
}

/* @p's exclusive pages, exact (every CPU summed): for the slow paths. */
static long skm_excl_pages_sum(struct skm_excl_proto *p)
{
	long pages = atomic_long_read(&p->pages);
	int cpu;

	for_each_possible_cpu(cpu)
		pages += READ_ONCE(*per_cpu_ptr(p->delta, cpu));
	return pages;
}

/* The slot of @prot's global counter, claimed on first use; NULL if full. */
static struct skm_excl_proto *skm_excl_proto(struct proto *prot)
{
	atomic_long_t *ma = prot->memory_allocated;
	int i;

	for (i = 0; ma && i < SKM_EXCL_PROTOS; i++) {
		struct skm_excl_proto *p = &skm_excl_protos[i];
		atomic_long_t *key = READ_ONCE(p->memory_allocated);

		if (key == ma)
			return p;
		if (!key && !cmpxchg(&p->memory_allocated, NULL, ma))
			return p;
		if (READ_ONCE(p->memory_allocated) == ma)
			return p;
	}
	return NULL;
}

/* A spare entry of this CPU, or NULL. Interrupts off. */
static struct skm_excl_sk *skm_excl_spare_take(void)
{
	struct skm_excl_spares *s = this_cpu_ptr(&skm_excl_spares);

	return s->nr ? s->es[--s->nr] : NULL;
}

/* Keep @es as a spare of this CPU; false if it has enough. Interrupts off. */
static bool skm_excl_spare_keep(struct skm_excl_sk *es)
{
	struct skm_excl_spares *s = this_cpu_ptr(&skm_excl_spares);

	if (s->nr == SKM_EXCL_SPARES)
		return false;
	s->es[s->nr++] = es;
	return true;
}

/* Every CPU's spares back to the slab. No hook runs. */
static void skm_excl_spares_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct skm_excl_spares *s = per_cpu_ptr(&skm_excl_spares, cpu);

		while (s->nr)
			kmem_cache_free(skm_excl_cache, s->es[--s->nr]);
	}
}

/*
 * @sk's entry, made and added to its bucket: a spare's if this CPU has
 * one, else the slab's. Interrupts stay off from taking the spare to
 * unlocking the bucket, so the bucket locks are raw: on PREEMPT_RT (Debian's
 * -rt flavours) a spinlock_t sleeps, which it must not with interrupts off.
 * What they guard is a list insertion or removal.
 */
static struct skm_excl_sk *skm_excl_add(struct sock *sk)
{
	struct skm_excl_proto *p = skm_excl_proto(sk->sk_prot);
	u32 bucket = skm_excl_bucket(sk);
	raw_spinlock_t *lock = skm_excl_bucket_lock(bucket);
	struct skm_excl_sk *es;
	unsigned long flags;

	if (!p)
		return NULL;
	local_irq_save(flags);
	es = skm_excl_spare_take();
	if (unlikely(!es)) {
		local_irq_restore(flags);
		es = kmem_cache_alloc(skm_excl_cache, GFP_ATOMIC | __GFP_NOWARN);
		if (!es)
			return NULL;
		local_irq_save(flags);
	}
	es->proto = p;
	atomic_long_set(&es->global_pages, 0);
	/*
	 * Last and with release: a walk still inside this memory from its
	 * previous owner that sees @sk here sees the fields above set for it.
	 */
	smp_store_release(&es->sk, sk);
	/* Counted before it can be found, uncounted after it cannot. */
	atomic_long_inc(&skm_excl_nr_sockets);
	raw_spin_lock(lock);
	hlist_nulls_add_head_rcu(&es->node, &skm_excl_socks[bucket]);
	raw_spin_unlock(lock);
	local_irq_restore(flags);
	return es;
}

/* @es out of its bucket, kept as a spare or freed. */
static void skm_excl_del(struct skm_excl_sk *es)
{
	raw_spinlock_t *lock = skm_excl_bucket_lock(skm_excl_bucket(es->sk));
	unsigned long flags;
	bool kept;

	local_irq_save(flags);
	raw_spin_lock(lock);
	hlist_nulls_del_rcu(&es->node);
	raw_spin_unlock(lock);
	atomic_long_dec(&skm_excl_nr_sockets);
	kept = skm_excl_spare_keep(es);
	local_irq_restore(flags);
	if (!kept)
		kmem_cache_free(skm_excl_cache, es);
}

/*
 * Is @memcg or an ancestor in exclusive_cgroups? Under rcu_read_lock() or
 * with preemption disabled.
 */
bool skm_excl_cgroup_listed(struct mem_cgroup *memcg)
{
	return skm_cglist_covering(&skm_excl_cgroups, memcg);
}

/**
 * skm_excl_cgroup_exclusive() - would a socket created in @cgrp be exclusive?
 * @cgrp: a cgroup the caller holds a reference on
 *
 * For the "cgroups" file. Call under rcu_read_lock().
 */
static bool skm_excl_cgroup_exclusive(struct cgroup *cgrp)
{
	bool listed = false;

	for (; cgrp && !listed && skm_cglist_any(&skm_excl_cgroups);
	     cgrp = cgroup_parent(cgrp))
		listed = skm_cglist_find(&skm_excl_cgroups, cgroup_id(cgrp));
	return skm_exclusive_decide(READ_ONCE(skm_exclusive), listed, false);
}

/**
 * skm_excl_bind() - decide exclusivity when a socket's memcg is bound
 * @sk: a socket mem_cgroup_sk_alloc() just ran for
 *
 * A socket made by socket(2) holds no memory yet. An accepted child does:
 * what it got before accept(), with no memcg, is in the global counter,
 * and the kernel charges it to the memcg right after this, under the
 * child's lock_sock() (inet_csk_accept(), 7.x's inet_accept()). An
 * exclusive child's pages move to the exclusive count here, under that
 * lock: nothing else changes them meanwhile. A socket bound by someone not
 * owning it keeps what it holds in the global counter, noted in its entry
 * (@global_pages) for its reduces to take back from there first.
 */
void notrace skm_excl_bind(struct sock *sk)
{
	struct mem_cgroup *memcg = mem_cgroup_sockets_enabled ? sk->sk_memcg : NULL;
	bool dflt = READ_ONCE(skm_exclusive), listed;
	struct skm_excl_sk *es;
	int pages;

	if (!memcg || !sk->sk_prot->memory_allocated ||
	    (!dflt && !skm_cglist_any_resolved(&skm_excl_cgroups)))
		return;
	/* an RCU reader as __skm_excl_find()'s: no calls, once per socket */
	preempt_disable_notrace();
	listed = skm_excl_cgroup_listed(memcg);
	preempt_enable_notrace();
	if (!skm_exclusive_decide(dflt, listed, skm_sk_bypasses_prot_mem(sk)) ||
	    __skm_excl_find(sk))
		return;
	es = skm_excl_add(sk);
	pages = sk_mem_pages(sk->sk_forward_alloc + atomic_read(&sk->sk_rmem_alloc));
	if (!es || pages <= 0)
		return;
	if (sock_owned_by_user_nocheck(sk)) {
		atomic_long_sub(pages, es->proto->memory_allocated);
		skm_excl_pages_add(es->proto, pages);
	} else {
		atomic_long_set(&es->global_pages, pages);
	}
}

/**
 * skm_excl_forget() - a socket is being freed
 * @sk: the socket
 */
void notrace skm_excl_forget(struct sock *sk)
{
	struct skm_excl_sk *es = skm_excl_find(sk);

	/*
	 * What it still holds is normally nothing by now. The kernel would
	 * leave it in its global counter: global pages stay there, exclusive
	 * ones in the exclusive count, until handed back to it.
	 */
	if (es)
		skm_excl_del(es);
}

/**
 * skm_excl_backstop_verdict() - the verdict of a raise skm_excl_backstop()
 *	refused
 * @sk: the socket
 * @v: the verdict, filled in
 *
 * A sender the backstop refuses is not parked: see docs/exclusive.md.
 */
void skm_excl_backstop_verdict(struct sock *sk, struct skm_suppress *v)
{
	*v = (struct skm_suppress){
		.reason = SKM_SUPPRESS_BACKSTOP,
		.level = SKM_LEVEL_NONE,
		.at = sk->sk_memcg,
		.count = &skm_excl_backstopped,
		.stat = SKM_STAT_NR,
	};
}

/*
 * skm_excl_reduce() of a socket that still holds pages in the global
 * counter: those leave it first, as the kernel's reduce takes them, its
 * protocol's pressure with them; the rest leave the exclusive count.
 */
static noinline void skm_excl_reduce_split(struct skm_excl_sk *es,
					   struct sock *sk, int amount)
{
	long have = atomic_long_read(&es->global_pages), global;

	do {
		global = min_t(long, have, amount);
	} while (!atomic_long_try_cmpxchg(&es->global_pages, &have, have - global));
	if (global) {
		atomic_long_sub(global, sk->sk_prot->memory_allocated);
		if (sk_under_global_memory_pressure(sk) &&
		    sk_memory_allocated(sk) < sk_prot_mem_limits(sk, 0))
			skm_sk_leave_memory_pressure(sk);
	}
	if (amount > global)
		skm_excl_pages_add(es->proto, global - amount);
	skm_sock_uncharge(sk, amount);
}

/**
 * skm_excl_reduce() - __sk_mem_reduce_allocated() for an exclusive socket
 * @sk: the socket
 * @amount: pages
 * @es: its state
 *
 * Pages it still holds in the global counter from before its binding
 * (normally none) leave the global counter first
 * (skm_excl_reduce_split()); the rest leave the exclusive count. The
 * arguments in the order of the kernel's function, then @es, as
 * skm_excl_forced()'s.
 */
void notrace skm_excl_reduce(struct sock *sk, int amount, struct skm_excl_sk *es)
{
	if (unlikely(atomic_long_read(&es->global_pages))) {
		skm_excl_reduce_split(es, sk, amount);
		return;
	}
	skm_excl_pages_add(es->proto, -amount);
	skm_sock_uncharge(sk, amount);
}

/*
 * __skm_excl_forced_account() - sk_forced_mem_schedule()'s accounting for an
 *	exclusive socket: the forward allocation and the exclusive count,
 *	without the global counter
 * @es: its state
 * @sk: the socket
 * @size: bytes the forward allocation must cover
 *
 * Return: the pages the caller must then charge to the memcg, as the kernel
 * does, with __GFP_NOFAIL (skm_sock_charge_nofail()); 0 for none.
 */
static __always_inline int __skm_excl_forced_account(struct skm_excl_sk *es,
						     struct sock *sk, int size)
{
	int delta = size - sk->sk_forward_alloc, amt;

	if (delta <= 0)
		return 0;
	amt = sk_mem_pages(delta);
	sk_forward_alloc_add(sk, amt << PAGE_SHIFT);
	skm_excl_pages_add(es->proto, amt);
	return amt;
}

/* The timed path's (sock_hooks.c), which charges in its frame. */
int notrace skm_excl_forced_account(struct skm_excl_sk *es, struct sock *sk,
				    int size)
{
	return __skm_excl_forced_account(es, sk, size);
}

/**
 * skm_excl_forced() - sk_forced_mem_schedule() for an exclusive socket
 * @sk: the socket
 * @size: bytes the forward allocation must cover
 * @es: its state
 *
 * skm_excl_forced_account(), then the memcg's charge as a tail call
 * (skm_sock_charge_nofail()): nothing of ours is on the stack while it
 * reclaims. Untimed ("instrument" off) only. The arguments in the order
 * of the kernel's function, then @es: the replacement passes them on as
 * they came.
 */
void notrace skm_excl_forced(struct sock *sk, int size, struct skm_excl_sk *es)
{
	int amt = __skm_excl_forced_account(es, sk, size);

	if (amt)
		skm_sock_charge_nofail(sk, amt);
}

/**
 * skm_excl_release_all() - make every exclusive socket ordinary again
 *
 * The caller has waited out every hook (unload, or "enabled" turned off),
 * so no exclusive accounting runs concurrently. Every exclusive page goes
 * back to its global counter.
 */
void skm_excl_release_all(void)
{
	struct hlist_nulls_node *n;
	struct skm_excl_sk *es;
	long handed = 0;
	int bkt, i;

	for (bkt = 0; bkt < ARRAY_SIZE(skm_excl_socks); bkt++)
		while (!hlist_nulls_empty(&skm_excl_socks[bkt])) {
			n = skm_excl_socks[bkt].first;
			es = hlist_nulls_entry(n, struct skm_excl_sk, node);
			skm_excl_del(es);
		}
	for (i = 0; i < SKM_EXCL_PROTOS; i++) {
		struct skm_excl_proto *p = &skm_excl_protos[i];
		long pages = skm_excl_pages_sum(p);
		int cpu;

		if (!p->memory_allocated || !pages)
			continue;
		atomic_long_add(pages, p->memory_allocated);
		atomic_long_set(&p->pages, 0);
		for_each_possible_cpu(cpu)
			WRITE_ONCE(*per_cpu_ptr(p->delta, cpu), 0);
		handed += pages;
	}
	if (handed)
		pr_info("handed %ld exclusive socket pages back to the global counters\n",
			handed);
}

void skm_excl_exit(void)
{
	int i;

	skm_excl_release_all();
	skm_cglist_clear(&skm_excl_cgroups);
	for (i = 0; i < SKM_EXCL_PROTOS; i++)
		free_percpu(skm_excl_protos[i].delta);
	skm_excl_spares_free();
	/*
	 * From 6.12 this waits for pending kfree_rcu() batches and an RCU
	 * barrier: grace periods, nothing of ours held. 6.1 defers the barrier
	 * to a worker that runs no code of ours.
	 */
	kmem_cache_destroy(skm_excl_cache);
}

static void skm_excl_show_stats(struct seq_file *m)
{
	long pages = 0;
	int i;

	for (i = 0; i < SKM_EXCL_PROTOS; i++)
		pages += skm_excl_pages_sum(&skm_excl_protos[i]);
	seq_printf(m, "exclusive_sockets %ld\n",
		   atomic_long_read(&skm_excl_nr_sockets));
	seq_printf(m, "exclusive_pages %ld\n", max(pages, 0L));
	seq_printf(m, "exclusive_backstopped %ld\n",
		   atomic_long_read(&skm_excl_backstopped));
}

/* Its column of "cgroups": would a socket created in the cgroup now be? */
static void skm_excl_show_cgroup(struct seq_file *m, struct cgroup *cgrp,
				 void *priv)
{
	seq_printf(m, " %s", skm_excl_cgroup_exclusive(cgrp) ? "yes" : "no");
}

static bool skm_excl_wanted(void)
{
	return READ_ONCE(skm_exclusive) || skm_cglist_any(&skm_excl_cgroups);
}

/*
 * Its hooks: a socket's charges and their reversal, its binding to a memcg
 * (an accepted child's too) and its free, and for exclusive_cgroups and the
 * per-memcg state a cgroup's coming and going. All of them or none: a
 * socket made exclusive must have its free seen (hooks.c).
 */
static const enum skm_hook_id skm_excl_hooks[] = {
	SKM_HOOK_RAISE,
	SKM_HOOK_REDUCE,
	SKM_HOOK_FORCED,
	SKM_HOOK_SK_ALLOC,
	SKM_HOOK_SK_FREE,
	SKM_HOOK_CSS_ONLINE,
	SKM_HOOK_CSS_FREE,
};

const struct skm_policy skm_policy_exclusive = {
	.name = "exclusive",
	.id = SKM_POLICY_EXCLUSIVE,
	.hooks = skm_excl_hooks,
	.nr_hooks = ARRAY_SIZE(skm_excl_hooks),
	.cglist = &skm_excl_cgroups,
	.wanted = skm_excl_wanted,
	/* its sockets become ordinary: their pages back in the global counter */
	.release = skm_excl_release_all,
	.show_stats = skm_excl_show_stats,
	.cgroup_header = " exclusive",
	.show_cgroup = skm_excl_show_cgroup,
};
