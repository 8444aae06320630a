// SPDX-License-Identifier: GPL-2.0
/*
 * Socket memory limits per cgroup (sock_limits): the glue between the
 * decision in limit_policy.c and the kernel. See limit_policy.h for the
 * model.
 *
 * Usage is counted from the memcg side of socket charges (the replacements
 * of SKM_SK_CHARGE_SYM and SKM_SK_UNCHARGE_SYM, and memcg-exclusive
 * accounting, which shares their body: skm_sock_charge()) into every
 * limited ancestor's entry; skm_limit_step() and skm_limit_end() decide in
 * __sk_mem_raise_allocated()'s walk (sock_hooks.c). All of it only while sock_limits lists a
 * cgroup (SKM_POLICY_LIMIT).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/memcontrol.h>
#include <linux/seq_file.h>

#include "cglist.h"
#include "hooks.h"
#include "level.h"
#include "limit.h"
#include "limit_policy.h"
#include "memcg_state.h"
#include "policies.h"
#include "sock_compat.h"
#include "stats.h"

struct skm_cglist skm_sock_limits =
	SKM_CGLIST_INIT("sock_limits", skm_limit_pages_from_bytes, skm_policies_apply);

/*
 * A socket memory limit per cgroup (limit_policy.h), as cgroup v1's
 * memory.kmem.tcp.limit_in_bytes: "+<path>=<size>" sets or changes one
 * (bytes, with K/M/G/T), "-<path>" removes it; reading lists
 * "+<path>=<bytes>" lines (tenants' cgroups: root only, 0600). The
 * socket pages of the cgroup and its descendants stay at the limit, plus
 * one minimum buffer per socket. The first limit hooks the socket charges
 * (SKM_POLICY_LIMIT).
 */
module_param_cb(sock_limits, &skm_cglist_param_ops, &skm_sock_limits, 0600);
MODULE_PARM_DESC(sock_limits,
		 "Socket memory limit of a cgroup and its descendants: +<path>=<size>[KMGT] sets, -<path> removes, existing or not yet (default none)");

/**
 * skm_limit_end() - the limit's verdict on a raise that would pass one
 * @r: the raise
 * @w: its walk, every memcg up to the root stepped, an entry found
 * @v: the verdict, filled in if refused
 *
 * Past a limit, the memcg's sockets go under pressure, as v1's tcpmem
 * limit puts them (limit_policy.h). Under the rcu_read_lock() of the walk.
 *
 * Return: true if the allocation is to be suppressed.
 */
bool skm_limit_end(const struct skm_raise *r, const struct skm_limit_walk *w,
		   struct skm_suppress *v)
{
	if (!skm_limit_suppress(true, skm_sk_below_min(r->sk, r->kind)))
		return false;
	*v = (struct skm_suppress){
		.reason = SKM_SUPPRESS_LIMIT,
		.level = SKM_LEVEL_NONE,
		.at = w->at,
		.pressure = SKM_SUPPRESS_MEMCG_PRESSURE,
		.count = &w->e->suppressed,
		.stat = r->dir == SKM_DIR_TX ? SKM_STAT_LIMITED_TX :
					       SKM_STAT_LIMITED_RX,
		.park = true,
	};
	return true;
}

/*
 * Skmemcg state for every limited memcg from @memcg up (but the root),
 * after a charge that was the first of one of them. skm_memcg_get()
 * allocates, which an RT kernel does not allow with preemption disabled:
 * hence a walk of its own, under rcu_read_lock(). @memcg is pinned by the
 * charge's caller, its ancestors by it.
 */
static noinline void skm_limit_get_states(struct mem_cgroup *memcg)
{
	struct skm_cglist_entry *e;

	rcu_read_lock();
	for (; memcg && memcg->css.parent; memcg = parent_mem_cgroup(memcg)) {
		e = skm_cglist_find(&skm_sock_limits, cgroup_id(memcg->css.cgroup));
		if (e && !READ_ONCE(e->has_state) &&
		    skm_memcg_get(memcg, GFP_NOWAIT | __GFP_NOWARN))
			WRITE_ONCE(e->has_state, true);
	}
	rcu_read_unlock();
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
 * forced charge: it looked the state up on every round trip).
 */
void skm_limit_charged(struct mem_cgroup *memcg, unsigned int nr_pages)
{
	struct skm_cglist_entry *e;
	struct mem_cgroup *pos;
	bool first = false;

	/* an RCU reader as __skm_excl_find() is: nothing here sleeps */
	preempt_disable_notrace();
	for (pos = memcg; pos; pos = parent_mem_cgroup(pos)) {
		e = skm_cglist_find(&skm_sock_limits, cgroup_id(pos->css.cgroup));
		if (e && atomic_long_add_return(nr_pages, &e->usage_pages) == nr_pages &&
		    !READ_ONCE(e->has_state))
			first = true;
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
 * Pages charged before a limit was set are uncharged too: usage stops at 0.
 */
void skm_limit_uncharged(struct mem_cgroup *memcg, unsigned int nr_pages)
{
	struct skm_cglist_entry *e;
	long old;

	/* an RCU reader as __skm_excl_find() is: nothing here sleeps */
	preempt_disable_notrace();
	for (; memcg; memcg = parent_mem_cgroup(memcg)) {
		e = skm_cglist_find(&skm_sock_limits, cgroup_id(memcg->css.cgroup));
		if (!e)
			continue;
		old = atomic_long_read(&e->usage_pages);
		while (!atomic_long_try_cmpxchg(&e->usage_pages, &old,
						skm_limit_usage_sub(old, nr_pages)))
			;
	}
	preempt_enable_notrace();
}

/**
 * skm_limit_show_cgroup() - the sock_limits columns of a "cgroups" line
 * @m: the seq_file
 * @cgrp: the line's cgroup
 * @priv: none (no private area)
 *
 * " <limit KiB> <socket KiB> <suppressed>", or " - - -" if not limited.
 */
static void skm_limit_show_cgroup(struct seq_file *m, struct cgroup *cgrp,
				  void *priv)
{
	struct skm_cglist_entry *e;

	rcu_read_lock();
	e = skm_cglist_find(&skm_sock_limits, cgroup_id(cgrp));
	if (e)
		seq_printf(m, " %lu %lu %ld",
			   READ_ONCE(e->pages) << (PAGE_SHIFT - 10),
			   max(atomic_long_read(&e->usage_pages), 0L) << (PAGE_SHIFT - 10),
			   atomic_long_read(&e->suppressed));
	else
		seq_puts(m, " - - -");
	rcu_read_unlock();
}

static bool skm_limit_wanted(void)
{
	return skm_cglist_any(&skm_sock_limits);
}

/* Uncharges went uncounted while the limit was off: count anew. */
static void skm_limit_prepare(void)
{
	skm_cglist_reset_usage(&skm_sock_limits);
}

/*
 * Its hooks: the charge it refuses past a limit, the memcg side of every
 * charge and uncharge it counts, and for sock_limits and the per-memcg
 * state a cgroup's coming and going.
 */
static const enum skm_hook_id skm_limit_hooks[] = {
	SKM_HOOK_RAISE,
	SKM_HOOK_CHARGE,
	SKM_HOOK_UNCHARGE,
	SKM_HOOK_CSS_ONLINE,
	SKM_HOOK_CSS_FREE,
};

const struct skm_policy skm_policy_limit = {
	.name = "sock_limits",
	.id = SKM_POLICY_LIMIT,
	.hooks = skm_limit_hooks,
	.nr_hooks = ARRAY_SIZE(skm_limit_hooks),
	.cglist = &skm_sock_limits,
	.wanted = skm_limit_wanted,
	.prepare = skm_limit_prepare,
	.cgroup_header = " sock_limit_kib sock_kib limited",
	.show_cgroup = skm_limit_show_cgroup,
};
