// SPDX-License-Identifier: GPL-2.0
/*
 * memcg-exclusive socket accounting (seed 002): the glue. See
 * exclusive_policy.h for the model.
 *
 * State:
 * - per memcg (its state, memcg_state.h: struct skm_excl_memcg), whether
 *   its sockets charge exclusively now, decided from exclusive_cgroups and
 *   the "exclusive" default and kept until either changes, and the
 *   exclusive pages its sockets hold, per protocol. A charge of a socket
 *   whose memcg is exclusive goes to the memcg alone and counts there; any
 *   reduce takes the memcg's exclusive pages first, then the global
 *   counter's. So pages charged before a memcg became exclusive, or while
 *   it was not (a child before accept(), a cgroup listed later or removed
 *   from the list) return to the counter they came from in total, and the
 *   two counters can never drift: neither ever gives back more than all
 *   of the memcg's sockets hold. No state per socket, and no hook on a
 *   socket's birth or death;
 * - per protocol (keyed by its global counter, which TCPv4 and TCPv6
 *   share), a per-CPU batched count of exclusive pages, for the backstop
 *   and for handing them back;
 * - the exclusive_cgroups list, by cgroup id.
 *
 * Handing back: on unload, and when the "enabled" knob goes off, the hooks
 * are waited out first, then every exclusive page is added to its global
 * counter: when the stock kernel later frees that memory it subtracts
 * exactly what was added. A memcg freed while holding exclusive pages
 * (socket memory the kernel never gave back) hands them back the same way.
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

/*
 * skm_excl_protos[]' pages: as a percpu_counter, but its add is inline and
 * takes no preemption toggle: each step (a per-CPU add that returns the
 * sum, the fold of it into @pages, the per-CPU subtraction of what was
 * folded) keeps the total exact whatever runs between them or on which
 * CPU, so none needs to be atomic with the next (skm_excl_pages_add()).
 */
struct skm_excl_proto skm_excl_protos[SKM_EXCL_PROTOS];

atomic_long_t skm_excl_gate = ATOMIC_LONG_INIT(0);	/* exclusive.h */
static atomic_long_t skm_excl_backstopped = ATOMIC_LONG_INIT(0);

/* Handing pages back: a memcg's at its free, everyone's at release. */
static DEFINE_MUTEX(skm_excl_handback_lock);

/* A bit of skm_excl_gate, on or off */
static void skm_excl_gate_set(long bit, bool on)
{
	if (on)
		atomic_long_or(bit, &skm_excl_gate);
	else
		atomic_long_andnot(bit, &skm_excl_gate);
}

/* exclusive_cgroups' resolved entries changed: under skm_cglist_lock */
static void skm_excl_list_changed(const struct skm_cglist *list)
{
	skm_excl_gate_set(SKM_EXCL_GATE_LISTED, skm_cglist_any_resolved(list));
}

/* exclusive_cgroups (cglist.h) */
struct skm_cglist skm_excl_cgroups = {
	.name = "exclusive_cgroups",
	.commit = skm_policies_apply,
	.changed = skm_excl_list_changed,
};

/*
 * memcg-exclusive socket accounting (seed 002; see exclusive_policy.h), the
 * global default: while it is on, the sockets of every memcg charge their
 * memcg only. Per cgroup: exclusive_cgroups below. Default off.
 */
bool skm_exclusive __read_mostly;

static void skm_excl_dflt_changed(bool on)
{
	skm_excl_gate_set(SKM_EXCL_GATE_DFLT, on);
}

static struct skm_bool_knob skm_exclusive_knob = {
	&skm_exclusive, NULL, skm_excl_dflt_changed, true };
module_param_cb(exclusive, &skm_bool_ops, &skm_exclusive_knob, 0644);
MODULE_PARM_DESC(exclusive,
		 "Sockets of every memcg charge the memcg only, not tcp_mem, from now on (bool, default N)");

/*
 * The cgroups whose sockets (and their descendants') charge their memcg
 * only, whatever "exclusive" says: each write is one update, "+<path>" adds,
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
static unsigned int skm_exclusive_backstop_pct __read_mostly = 200;
static struct skm_uint_knob skm_exclusive_backstop_pct_knob = {
	&skm_exclusive_backstop_pct, 0, 10000 };
module_param_cb(exclusive_backstop_pct, &skm_uint_ops,
		&skm_exclusive_backstop_pct_knob, 0644);
MODULE_PARM_DESC(exclusive_backstop_pct,
		 "Cap on global + exclusive socket pages, in % of tcp_mem[2] (0..10000, 0 off, default 200)");

int __init skm_excl_init(void)
{
	int i;

	for (i = 0; i < SKM_EXCL_PROTOS; i++) {
		skm_excl_protos[i].idx = i;
		skm_excl_protos[i].delta = alloc_percpu(long);
		if (!skm_excl_protos[i].delta) {
			while (i--)
				free_percpu(skm_excl_protos[i].delta);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Add @pages (negative: subtract) to @p's exclusive pages. */
static __always_inline void skm_excl_pages_add(struct skm_excl_proto *p, long pages)
{
	long delta = this_cpu_add_return(*p->delta, pages);

	if (unlikely(abs(delta) >= READ_ONCE(percpu_counter_batch))) {
		atomic_long_add(delta, &p->pages);
		this_cpu_sub(*p->delta, delta);
	}
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

/* Is @memcg or an ancestor in exclusive_cgroups? Under rcu_read_lock(). */
bool skm_excl_cgroup_listed(struct mem_cgroup *memcg)
{
	return skm_cglist_covering(&skm_excl_cgroups, memcg);
}

/**
 * skm_excl_cgroup_exclusive() - do @cgrp's sockets charge exclusively now?
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

/* Mark @xm active: it may hold exclusive pages from now on. */
static void skm_excl_activate(struct skm_excl_memcg *xm)
{
	if (!READ_ONCE(xm->active) && !xchg(&xm->active, true))
		atomic_long_inc(&skm_excl_gate);
}

/**
 * skm_excl_decide_ref() - skm_excl_charge_ref() where @memcg's decision is
 *	not kept for the list and default of now
 * @sk: the socket
 * @memcg: its memcg (skm_excl_memcg_of())
 *
 * Decides whether the memcg charges exclusively, and keeps the decision in
 * its state, made here if it has none, for every memcg charged while the
 * policy is on (so that one that is not exclusive is not looked up in the
 * list on every charge either). Without memory for the state, the charge
 * is the kernel's own. Out of line: once per memcg and change of the list.
 *
 * Return: as skm_excl_charge_ref().
 */
noinline struct skm_excl_ref skm_excl_decide_ref(struct sock *sk,
						 struct mem_cgroup *memcg)
{
	unsigned long key = skm_excl_key();
	struct skm_excl_ref x = { };
	struct skm_excl_memcg *xm;
	struct skm_excl_proto *p;
	struct skm_memcg *sm;
	bool exclusive;

	rcu_read_lock();
	exclusive = skm_exclusive_decide(READ_ONCE(skm_exclusive),
					 skm_excl_cgroup_listed(memcg), false);
	sm = skm_memcg_get(memcg, GFP_NOWAIT);
	xm = sm ? skm_memcg_priv(sm, SKM_POLICY_EXCLUSIVE) : NULL;
	rcu_read_unlock();
	if (!xm)
		return x;
	WRITE_ONCE(xm->exclusive, exclusive);
	WRITE_ONCE(xm->key, key);
	if (!exclusive)
		return x;
	p = skm_excl_proto(sk->sk_prot);
	if (!p)
		return x;
	skm_excl_activate(xm);
	x.xm = xm;
	x.idx = p->idx;
	return x;
}

/**
 * skm_excl_backstop() - is an exclusive raise over the host's backstop?
 * @x: its exclusive accounting
 * @sk: the socket
 * @amt: pages the raise asks for
 *
 * While the protocol's global counter plus every exclusive page, with
 * this raise, is past tcp_mem[2] x exclusive_backstop_pct / 100, the
 * allocation is refused as the kernel refuses one over its hard limit
 * (skm_excl_backstop_verdict()).
 *
 * Return: true if the allocation is to be suppressed.
 */
bool skm_excl_backstop(struct skm_excl_ref x, struct sock *sk, int amt)
{
	return skm_backstop_exceeded(sk_memory_allocated(sk),
				     atomic_long_read(&skm_excl_ref_proto(x)->pages) + amt,
				     sk_prot_mem_limits(sk, 2),
				     READ_ONCE(skm_exclusive_backstop_pct));
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

/**
 * skm_excl_charge() - __sk_mem_raise_allocated()'s charge for a socket
 *	whose memcg is exclusive: the memcg alone, not the global counter
 * @x: its exclusive accounting
 * @sk: the socket
 * @amt: pages
 * @gfp: the charge's; with __GFP_NOFAIL, the kernel's forced charge
 *
 * Return: true if charged (and counted as exclusive pages).
 */
bool skm_excl_charge(struct skm_excl_ref x, struct sock *sk, int amt, gfp_t gfp)
{
	if (!skm_sock_charge(sk, skm_excl_ref_state(x), amt, gfp))
		return false;
	atomic_long_add(amt, skm_excl_ref_pages(x));
	skm_excl_pages_add(skm_excl_ref_proto(x), amt);
	return true;
}

/**
 * skm_excl_reduce() - __sk_mem_reduce_allocated() for a socket whose
 *	memcg holds exclusive pages
 * @x: its exclusive accounting
 * @sk: the socket
 * @amount: pages
 *
 * The memcg's exclusive pages go first; any beyond those were counted
 * globally and leave the global counter, as the kernel does. Neither ever
 * gives back more than the memcg's sockets hold in total.
 */
void skm_excl_reduce(struct skm_excl_ref x, struct sock *sk, int amount)
{
	atomic_long_t *pages = skm_excl_ref_pages(x);
	long have = atomic_long_read(pages), excl;

	do {
		excl = min_t(long, have, amount);
	} while (excl && !atomic_long_try_cmpxchg(pages, &have, have - excl));
	if (excl)
		skm_excl_pages_add(skm_excl_ref_proto(x), -excl);
	if (amount > excl) {
		atomic_long_sub(amount - excl, sk->sk_prot->memory_allocated);
		if (sk_under_global_memory_pressure(sk) &&
		    sk_memory_allocated(sk) < sk_prot_mem_limits(sk, 0))
			skm_sk_leave_memory_pressure(sk);
	}
	skm_sock_uncharge(sk, skm_excl_ref_state(x), amount);
}

/**
 * skm_excl_forced_account() - sk_forced_mem_schedule()'s accounting for a
 *	socket whose memcg is exclusive: the forward allocation and the
 *	exclusive count, without the global counter
 * @x: its exclusive accounting
 * @sk: the socket
 * @size: bytes the forward allocation must cover
 *
 * Return: the pages the caller must then charge to the memcg, as the kernel
 * does, with __GFP_NOFAIL (skm_sock_charge_nofail()); 0 for none.
 */
int skm_excl_forced_account(struct skm_excl_ref x, struct sock *sk, int size)
{
	int delta = size - sk->sk_forward_alloc, amt;

	if (delta <= 0)
		return 0;
	amt = sk_mem_pages(delta);
	sk_forward_alloc_add(sk, amt << PAGE_SHIFT);
	atomic_long_add(amt, skm_excl_ref_pages(x));
	skm_excl_pages_add(skm_excl_ref_proto(x), amt);
	return amt;
}

/* A memcg's exclusive pages, handed back or gone: it starts anew. */
static void skm_excl_memcg_reset(void *priv)
{
	struct skm_excl_memcg *xm = priv;

	memset(xm, 0, sizeof(*xm));
}

/*
 * A memcg about to be freed: its sockets are gone, and anything they left
 * (memory the kernel never gave back) goes back to the global counters,
 * where the kernel would have left it too.
 */
static void skm_excl_memcg_exit(void *priv, struct mem_cgroup *memcg)
{
	struct skm_excl_memcg *xm = priv;
	long pages;
	int i;

	mutex_lock(&skm_excl_handback_lock);
	for (i = 0; i < SKM_EXCL_PROTOS; i++) {
		pages = atomic_long_xchg(&xm->pages[i], 0);
		if (!pages)
			continue;
		skm_excl_pages_add(&skm_excl_protos[i], -pages);
		atomic_long_add(pages, skm_excl_protos[i].memory_allocated);
	}
	if (xchg(&xm->active, false))
		atomic_long_dec(&skm_excl_gate);
	mutex_unlock(&skm_excl_handback_lock);
}

/**
 * skm_excl_release_all() - every memcg's exclusive pages back to the
 *	global counters
 *
 * The caller has waited out every hook (unload, or "enabled" turned off),
 * so no exclusive accounting runs concurrently. Every exclusive page goes
 * back to its global counter, and every memcg's decision is forgotten.
 */
void skm_excl_release_all(void)
{
	long handed = 0;
	int i;

	mutex_lock(&skm_excl_handback_lock);
	skm_memcg_apply_priv(SKM_POLICY_EXCLUSIVE, skm_excl_memcg_reset);
	atomic_long_set(&skm_excl_gate, 0);	/* bits set anew at prepare */
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
	mutex_unlock(&skm_excl_handback_lock);
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
}

static void skm_excl_show_stats(struct seq_file *m)
{
	long pages = 0;
	int i;

	for (i = 0; i < SKM_EXCL_PROTOS; i++)
		pages += skm_excl_pages_sum(&skm_excl_protos[i]);
	seq_printf(m, "exclusive_memcgs %ld\n",
		   (long)(atomic_long_read(&skm_excl_gate) & SKM_EXCL_GATE_ACTIVE));
	seq_printf(m, "exclusive_pages %ld\n", max(pages, 0L));
	seq_printf(m, "exclusive_backstopped %ld\n",
		   atomic_long_read(&skm_excl_backstopped));
}

/* Its column of "cgroups": do the cgroup's sockets charge exclusively now? */
static void skm_excl_show_cgroup(struct seq_file *m, struct cgroup *cgrp,
				 void *priv)
{
	seq_printf(m, " %s", skm_excl_cgroup_exclusive(cgrp) ? "yes" : "no");
}

/* Before the hooks go live: the gate's bits from the knobs as they are. */
static void skm_excl_prepare(void)
{
	skm_excl_gate_set(SKM_EXCL_GATE_DFLT, READ_ONCE(skm_exclusive));
	skm_excl_gate_set(SKM_EXCL_GATE_LISTED,
			  skm_cglist_any_resolved(&skm_excl_cgroups));
}

static bool skm_excl_wanted(void)
{
	return READ_ONCE(skm_exclusive) || skm_cglist_any(&skm_excl_cgroups);
}

/*
 * Its hooks: a socket's charges and their reversal, and for
 * exclusive_cgroups and the per-memcg state a cgroup's coming and going.
 */
static const enum skm_hook_id skm_excl_hooks[] = {
	SKM_HOOK_RAISE,
	SKM_HOOK_REDUCE,
	SKM_HOOK_FORCED,
	SKM_HOOK_CSS_ONLINE,
	SKM_HOOK_CSS_FREE,
};

const struct skm_policy skm_policy_exclusive = {
	.name = "exclusive",
	.id = SKM_POLICY_EXCLUSIVE,
	.hooks = skm_excl_hooks,
	.nr_hooks = ARRAY_SIZE(skm_excl_hooks),
	.cglist = &skm_excl_cgroups,
	.memcg_size = sizeof(struct skm_excl_memcg),
	.memcg_exit = skm_excl_memcg_exit,
	.wanted = skm_excl_wanted,
	.prepare = skm_excl_prepare,
	/* every exclusive page back in the global counters */
	.release = skm_excl_release_all,
	.show_stats = skm_excl_show_stats,
	.cgroup_header = " exclusive",
	.show_cgroup = skm_excl_show_cgroup,
};
