// SPDX-License-Identifier: GPL-2.0
/*
 * Socket memory limits per cgroup (sock_limits): the glue between the
 * decision in limit_policy.c and the kernel. See limit_policy.h for the
 * model.
 *
 * Usage is counted from the memcg side of socket charges (the replacements
 * of SKM_SK_CHARGE_SYM and SKM_SK_UNCHARGE_SYM, and memcg-exclusive
 * accounting, which shares their body: skm_sock_charge()) into every
 * limited ancestor's entry; skm_limit_walk() and skm_limit_end() decide in
 * __sk_mem_raise_allocated()'s walk (sock_hooks.c). All of it only while sock_limits lists a
 * cgroup (SKM_POLICY_LIMIT).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/memcontrol.h>
#include <linux/percpu.h>
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
void notrace skm_limit_get_states(struct mem_cgroup *memcg)
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

DEFINE_PER_CPU(struct skm_limit_chain[2], skm_limit_chains);

/**
 * skm_limit_chain_refill() - the chain of a memcg's line, found anew
 * @memcg: the memcg
 *
 * What skm_limit_chain() did not find valid: this CPU's chain for this
 * context, made @memcg's; or NULL, to walk the line instead: a hard IRQ,
 * or a line with more than SKM_LIMIT_CHAIN_MAX limited levels, for which
 * the chain is left invalid (serial 0), so that its every count walks
 * twice: a rare line pays, not every count a compare. With preemption
 * disabled.
 */
struct skm_limit_chain *notrace skm_limit_chain_refill(struct mem_cgroup *memcg)
{
	unsigned int pc = preempt_count();
	unsigned long gen = skm_cglist_gen(&skm_sock_limits);
	u64 serial = READ_ONCE(memcg->css.serial_nr);
	struct skm_limit_chain *c;
	struct skm_cglist_entry *e;

	if (pc & (NMI_MASK | HARDIRQ_MASK))
		return NULL;
	c = skm_limit_chain_of(pc);
	if (c->serial == serial && c->gen == gen)
		return c;
	c->nr = 0;
	for (; memcg && c->nr <= SKM_LIMIT_CHAIN_MAX;
	     memcg = parent_mem_cgroup(memcg)) {
		e = skm_cglist_find(&skm_sock_limits, cgroup_id(memcg->css.cgroup));
		if (e && c->nr < SKM_LIMIT_CHAIN_MAX)
			c->e[c->nr] = e;
		c->nr += !!e;
	}
	c->gen = gen;
	if (c->nr > SKM_LIMIT_CHAIN_MAX) {
		c->serial = 0;
		return NULL;
	}
	c->serial = serial;
	return c;
}

/*
 * The memcg of @memcg's line whose cgroup entry @e is of, or NULL: a walk
 * up, for a raise the limit refuses. (The chain holds entries by cgroup,
 * not memcgs: a cgroup whose memory controller is turned off and on again
 * gets a new memcg.)
 */
static noinline struct mem_cgroup *skm_limit_memcg_of(struct mem_cgroup *memcg,
						      const struct skm_cglist_entry *e)
{
	for (; memcg; memcg = parent_mem_cgroup(memcg))
		if (cgroup_id(memcg->css.cgroup) == e->id)
			return memcg;
	return NULL;
}

/**
 * skm_limit_walk() - sock_limits' check of one raise
 * @w: the walk, empty; filled in if a limit would be passed
 * @memcg: the socket's memcg
 * @amt: pages the raise asks for
 *
 * Notes the nearest entry of @memcg's line (itself and its ancestors, the
 * root included) whose limit @amt more pages would pass, and the memcg it
 * limits. Under rcu_read_lock(), which @w's entry needs until the raise's
 * ending has used it.
 */
void notrace skm_limit_walk(struct skm_limit_walk *w, struct mem_cgroup *memcg,
			    unsigned int amt)
{
	struct skm_limit_chain *c;
	struct skm_cglist_entry *e;
	struct mem_cgroup *pos;

	preempt_disable_notrace();
	if (!skm_limit_chain(memcg, &c))
		c = skm_limit_chain_refill(memcg);
	if (c)
		w->e = skm_limit_chain_over(c, amt);
	for (pos = memcg; !c && pos && !w->e; pos = parent_mem_cgroup(pos)) {
		e = skm_cglist_find(&skm_sock_limits, cgroup_id(pos->css.cgroup));
		if (e && skm_limit_entry_over(e, amt)) {
			w->e = e;
			w->at = pos;
		}
	}
	preempt_enable_notrace();
	if (unlikely(w->e && !w->at)) {
		w->at = skm_limit_memcg_of(memcg, w->e);
		if (!w->at)
			w->e = NULL;	/* not of this line: cannot be */
	}
}

/*
 * skm_limit_charged() and skm_limit_uncharged() when skm_limit_chain() did
 * not find the chain: with it found anew, or each level looked up. With
 * preemption disabled.
 */
bool notrace skm_limit_charged_slow(struct mem_cgroup *memcg,
				    unsigned int nr_pages)
{
	struct skm_limit_chain *c = skm_limit_chain_refill(memcg);
	struct skm_cglist_entry *e, **pos, **end;
	bool first = false;

	for (pos = c ? c->e : NULL, end = c ? skm_limit_chain_end(c) : NULL;
	     pos < end; pos++)
		first |= skm_limit_usage_count(*pos, nr_pages);
	for (; !c && memcg; memcg = parent_mem_cgroup(memcg)) {
		e = skm_cglist_find(&skm_sock_limits, cgroup_id(memcg->css.cgroup));
		if (e)
			first |= skm_limit_usage_count(e, nr_pages);
	}
	return first;
}

void notrace skm_limit_uncharged_slow(struct mem_cgroup *memcg,
				      unsigned int nr_pages)
{
	struct skm_limit_chain *c = skm_limit_chain_refill(memcg);
	struct skm_cglist_entry *e, **pos, **end;

	for (pos = c ? c->e : NULL, end = c ? skm_limit_chain_end(c) : NULL;
	     pos < end; pos++)
		if (skm_limit_usage_uncount(*pos, nr_pages))
			skm_limit_usage_floor(*pos);
	for (; !c && memcg; memcg = parent_mem_cgroup(memcg)) {
		e = skm_cglist_find(&skm_sock_limits, cgroup_id(memcg->css.cgroup));
		if (e && skm_limit_usage_uncount(e, nr_pages))
			skm_limit_usage_floor(e);
	}
}

/* skm_limit_usage_floor() for each entry of @c, after an uncount. */
void notrace skm_limit_chain_floor(struct skm_limit_chain *c)
{
	struct skm_cglist_entry **pos, **end;

	for (pos = c->e, end = skm_limit_chain_end(c); pos < end; pos++)
		skm_limit_usage_floor(*pos);
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
