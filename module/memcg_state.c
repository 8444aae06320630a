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

#include "memcg_state.h"
#include "stats.h"

#define SKM_MEMCG_HASH_BITS	10

static DEFINE_HASHTABLE(skm_memcgs, SKM_MEMCG_HASH_BITS);
static DEFINE_SPINLOCK(skm_memcgs_lock);

/* The policies, their areas' offsets and the size of them all, in bytes. */
static const struct skm_policy *const *skm_memcg_policies;
static unsigned int skm_memcg_nr_policies;
unsigned int skm_memcg_priv_offset[SKM_POLICY_NR] __read_mostly;
static unsigned int skm_memcg_priv_size __read_mostly;

/* A private area this large is a mistake of ours: refused at load. */
#define SKM_MEMCG_PRIV_MAX	256

/**
 * skm_memcg_state_init() - lay out the policies' private areas
 * @policies: the registered policies, which must outlive the state
 * @nr: how many
 *
 * Each area starts aligned to an unsigned long.
 *
 * Return: 0, or -EINVAL if they would not fit SKM_MEMCG_PRIV_MAX bytes.
 */
int skm_memcg_state_init(const struct skm_policy *const *policies,
			 unsigned int nr)
{
	unsigned int i, size = 0;

	for (i = 0; i < nr; i++) {
		skm_memcg_priv_offset[policies[i]->id] = size;
		size += ALIGN(policies[i]->memcg_size, sizeof(unsigned long));
	}
	if (WARN(size > SKM_MEMCG_PRIV_MAX, "per-memcg state of %u bytes\n", size))
		return -EINVAL;
	skm_memcg_policies = policies;
	skm_memcg_nr_policies = nr;
	skm_memcg_priv_size = size;
	return 0;
}

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
	unsigned int i;

	sm = skm_memcg_find(memcg);
	if (sm)
		return sm;

	sm = kzalloc(sizeof(*sm) + skm_memcg_priv_size, gfp | __GFP_NOWARN);
	if (!sm)
		return NULL;
	sm->memcg = memcg;
	sm->cgroup_id = cgroup_id(memcg->css.cgroup);
	for (i = 0; i < skm_memcg_nr_policies; i++) {
		const struct skm_policy *p = skm_memcg_policies[i];

		if (p->memcg_init)
			p->memcg_init(skm_memcg_priv(sm, p->id), memcg);
	}

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
 * skm_memcg_show() - the "cgroups" debugfs file
 * @m: the seq_file
 *
 * One line per memcg with state: the cgroup's path, then each registered
 * policy's columns (struct skm_policy's cgroup_header and show_cgroup).
 */
void skm_memcg_show(struct seq_file *m)
{
	struct skm_memcg *sm;
	unsigned int i;
	char *path;
	int bkt;

	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!path)
		return;
	seq_puts(m, "# cgroup");
	for (i = 0; i < skm_memcg_nr_policies; i++)
		if (skm_memcg_policies[i]->cgroup_header)
			seq_puts(m, skm_memcg_policies[i]->cgroup_header);
	seq_putc(m, '\n');
	rcu_read_lock();
	hash_for_each_rcu(skm_memcgs, bkt, sm, node) {
		struct cgroup *cgrp = cgroup_get_from_id(sm->cgroup_id);

		if (IS_ERR(cgrp))
			continue;	/* being removed */
		if (cgroup_path(cgrp, path, PATH_MAX) < 0)
			strscpy(path, "?", PATH_MAX);
		seq_puts(m, path);
		for (i = 0; i < skm_memcg_nr_policies; i++) {
			const struct skm_policy *p = skm_memcg_policies[i];

			if (p->show_cgroup)
				p->show_cgroup(m, cgrp, p->memcg_size ?
					       skm_memcg_priv(sm, p->id) : NULL);
		}
		cgroup_put(cgrp);
		seq_putc(m, '\n');
	}
	rcu_read_unlock();
	kfree(path);
}
