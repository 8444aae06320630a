// SPDX-License-Identifier: GPL-2.0
/*
 * Per-memcg state: a hash table of struct skm_memcg keyed by the memcg.
 *
 * Readers (the socket allocation path, softirq included) look up under RCU
 * with no lock. Entries are added on first need with a non-sleeping
 * allocation, under a BH-safe spinlock, and removed by the mem_cgroup_css_free
 * hook just before the memcg itself is freed, or all at once at unload once
 * the hooks are gone. A memcg's address can be reused by a later memcg only
 * after css_free, so a lookup by address never finds a dead memcg's state.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/hashtable.h>
#include <linux/jiffies.h>
#include <linux/memcontrol.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "exclusive.h"
#include "limit.h"
#include "memcg_state.h"
#include "stats.h"

#define SKM_MEMCG_HASH_BITS	10

static DEFINE_HASHTABLE(skm_memcgs, SKM_MEMCG_HASH_BITS);
static DEFINE_SPINLOCK(skm_memcgs_lock);

/**
 * skm_memcg_find() - the state of @memcg, or NULL
 * @memcg: a memcg the caller keeps alive
 *
 * Call under rcu_read_lock(); the entry stays valid until it is unlocked.
 */
struct skm_memcg *skm_memcg_find(struct mem_cgroup *memcg)
{
	struct skm_memcg *sm;

	hash_for_each_possible_rcu(skm_memcgs, sm, node, (unsigned long)memcg) {
		if (sm->memcg == memcg)
			return sm;
	}
	return NULL;
}

static void skm_memcg_sample_events(struct skm_memcg *sm,
				    struct mem_cgroup *memcg)
{
	sm->events[0] = atomic_long_read(&memcg->memory_events[MEMCG_HIGH]);
	sm->events[1] = atomic_long_read(&memcg->memory_events[MEMCG_MAX]);
	sm->events[2] = atomic_long_read(&memcg->memory_events[MEMCG_OOM]);
	sm->events[3] = atomic_long_read(&memcg->memory_events[MEMCG_OOM_KILL]);
}

/**
 * skm_memcg_get() - the state of @memcg, created if it has none
 * @memcg: a memcg the caller keeps alive
 * @gfp: for the allocation; must not sleep
 *
 * Call under rcu_read_lock(). Return: the entry, or NULL if out of memory.
 */
struct skm_memcg *skm_memcg_get(struct mem_cgroup *memcg, gfp_t gfp)
{
	struct skm_memcg *sm, *old;
	unsigned long flags;

	sm = skm_memcg_find(memcg);
	if (sm)
		return sm;

	sm = kzalloc(sizeof(*sm), gfp | __GFP_NOWARN);
	if (!sm)
		return NULL;
	sm->memcg = memcg;
	sm->cgroup_id = cgroup_id(memcg->css.cgroup);
	spin_lock_init(&sm->vmpr_lock);
	skm_memcg_sample_events(sm, memcg);

	spin_lock_irqsave(&skm_memcgs_lock, flags);
	old = skm_memcg_find(memcg);
	if (!old)
		hash_add_rcu(skm_memcgs, &sm->node, (unsigned long)memcg);
	spin_unlock_irqrestore(&skm_memcgs_lock, flags);
	if (old) {
		kfree(sm);
		return old;
	}
	skm_stat_inc(SKM_STAT_MEMCGS_TRACKED);
	return sm;
}

/**
 * skm_memcg_forget() - drop the state of a memcg about to be freed
 * @memcg: the memcg
 */
void skm_memcg_forget(struct mem_cgroup *memcg)
{
	struct skm_memcg *sm;
	unsigned long flags;

	spin_lock_irqsave(&skm_memcgs_lock, flags);
	sm = skm_memcg_find(memcg);
	if (sm)
		hash_del_rcu(&sm->node);
	spin_unlock_irqrestore(&skm_memcgs_lock, flags);
	if (sm) {
		kfree_rcu(sm, rcu);
		skm_stat_inc(SKM_STAT_MEMCGS_FREED);
	}
}

/**
 * skm_memcg_free_all() - free every entry; the hooks must be gone
 */
void skm_memcg_free_all(void)
{
	struct hlist_node *tmp;
	struct skm_memcg *sm;
	unsigned long flags;
	int bkt;

	spin_lock_irqsave(&skm_memcgs_lock, flags);
	hash_for_each_safe(skm_memcgs, bkt, tmp, sm, node) {
		hash_del_rcu(&sm->node);
		kfree_rcu(sm, rcu);
	}
	spin_unlock_irqrestore(&skm_memcgs_lock, flags);
	/* No rcu_barrier(): kfree_rcu() of kmalloc memory runs none of our code. */
}

/**
 * skm_memcg_hold() - assert @level on @sm until @now + @hold
 * @sm: the entry
 * @level: the level a source reports now
 * @now: jiffies
 * @hold: how long a level is held, in jiffies
 *
 * A higher level replaces a lower one; the same level is extended. Counts
 * transitions into medium and critical.
 *
 * Return: the level @sm holds at @now afterwards.
 */
enum skm_level skm_memcg_hold(struct skm_memcg *sm, enum skm_level level,
			      unsigned long now, unsigned long hold)
{
	unsigned long old = READ_ONCE(sm->state), new;
	enum skm_level held;

	do {
		held = skm_level_unpack(old, now);
		if (level == SKM_LEVEL_NONE || level < held)
			return held;
		new = skm_level_pack(level, now + hold);
		if (new == old)
			return level;
	} while (!try_cmpxchg(&sm->state, &old, new));

	if (level > held)
		skm_stat_inc(level == SKM_LEVEL_CRITICAL ?
			     SKM_STAT_PRESSURE_CRITICAL : SKM_STAT_PRESSURE_MEDIUM);
	return level;
}

/**
 * skm_memcg_show() - the "cgroups" debugfs file
 * @m: the seq_file
 *
 * One line per memcg with state: cgroup path, level held, ms until it
 * expires, allocations throttled (TX, RX), whether sockets created in it
 * now are memcg-exclusive, and from the last reclaim the reclaim policy
 * shaped: the protection honoured and the usage (KiB), and the share of
 * its lists scanned (%, "-" if never shaped); then, if sock_limits limits
 * it, the limit and the socket memory counted against it (KiB) and the
 * allocations the limit suppressed ("-" each if not limited).
 */
void skm_memcg_show(struct seq_file *m)
{
	unsigned long now = jiffies;
	struct skm_memcg *sm;
	char *path;
	int bkt;

	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!path)
		return;
	seq_puts(m, "# cgroup level expires_ms throttled_tx throttled_rx exclusive protection_kib usage_kib scan_pct sock_limit_kib sock_kib limited\n");
	rcu_read_lock();
	hash_for_each_rcu(skm_memcgs, bkt, sm, node) {
		unsigned long state = READ_ONCE(sm->state);
		struct cgroup *cgrp = cgroup_get_from_id(sm->cgroup_id);
		long left = skm_level_expires_in(state, now);

		unsigned int ppm = READ_ONCE(sm->reclaim_ppm);
		unsigned long usage = READ_ONCE(sm->reclaim_usage);
		char scan[16] = "-";
		bool exclusive;

		if (usage)
			snprintf(scan, sizeof(scan), "%u.%u", ppm / 10000,
				 ppm / 1000 % 10);
		if (IS_ERR(cgrp))
			continue;	/* being removed */
		if (cgroup_path(cgrp, path, PATH_MAX) < 0)
			strscpy(path, "?", PATH_MAX);
		exclusive = skm_excl_cgroup_exclusive(cgrp);
		cgroup_put(cgrp);
		seq_printf(m, "%s %s %u %ld %ld %s %lu %lu %s", path,
			   skm_level_name(skm_level_unpack(state, now)),
			   left > 0 ? jiffies_to_msecs(left) : 0,
			   atomic_long_read(&sm->throttled[SKM_DIR_TX]),
			   atomic_long_read(&sm->throttled[SKM_DIR_RX]),
			   exclusive ? "yes" : "no",
			   READ_ONCE(sm->reclaim_protection) << (PAGE_SHIFT - 10),
			   usage << (PAGE_SHIFT - 10), scan);
		skm_limit_show_cgroup(m, sm->cgroup_id);
		seq_putc(m, '\n');
	}
	rcu_read_unlock();
	kfree(path);
}
