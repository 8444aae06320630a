/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What skmemcg keeps about one memcg (memcg_state.c): the policies'
 * private areas, each policy's own layout (struct skm_policy's memcg_size).
 */
#ifndef _SKMEMCG_MEMCG_STATE_H
#define _SKMEMCG_MEMCG_STATE_H

#include <linux/cache.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include "policy.h"

struct mem_cgroup;
struct seq_file;

/**
 * struct skm_memcg - what skmemcg keeps about one memcg
 * @node: in the hash table, keyed by @memcg
 * @memcg: identity only; dereferenced only where the caller pins the memcg
 * @cgroup_id: to find the cgroup again when printing
 * @rcu: freeing
 * @priv: the registered policies' private areas (skm_memcg_priv())
 *
 * Created on first need, freed when the memcg is (mem_cgroup_css_free) or
 * when the module unloads.
 */
struct skm_memcg {
	struct hlist_node node;
	struct mem_cgroup *memcg;
	u64 cgroup_id;
	struct rcu_head rcu;
	unsigned long priv[];
};

/* Where each policy's private area starts in priv[], in bytes. */
extern unsigned int skm_memcg_priv_offset[SKM_POLICY_NR];

/*
 * The private area of policy @id in @sm: memcg_size bytes, zeroed and
 * then filled by its memcg_init when @sm was made.
 */
static __always_inline void *skm_memcg_priv(struct skm_memcg *sm,
					    enum skm_policy_id id)
{
	return (char *)sm->priv + READ_ONCE(skm_memcg_priv_offset[id]);
}

#define SKM_MEMCG_HASH_BITS	10

extern struct hlist_head skm_memcgs[1 << SKM_MEMCG_HASH_BITS];

/*
 * skm_memcg_find(), inline, for the socket charges' paths. Under RCU, or
 * with preemption disabled (an RCU reader since RCU's flavours were
 * consolidated in 4.20: entries are freed with kfree_rcu()).
 */
static __always_inline struct skm_memcg *__skm_memcg_find(struct mem_cgroup *memcg)
{
	struct skm_memcg *sm;

	hash_for_each_possible_rcu(skm_memcgs, sm, node, (unsigned long)memcg) {
		if (sm->memcg == memcg)
			return sm;
	}
	return NULL;
}

/* The state whose private area of policy @id is @priv. */
static __always_inline struct skm_memcg *skm_memcg_of_priv(void *priv,
							   enum skm_policy_id id)
{
	return (struct skm_memcg *)((char *)priv - READ_ONCE(skm_memcg_priv_offset[id]) -
				    offsetof(struct skm_memcg, priv));
}

int skm_memcg_state_init(const struct skm_policy *const *policies,
			 unsigned int nr);
struct skm_memcg *skm_memcg_find(struct mem_cgroup *memcg);
struct skm_memcg *skm_memcg_get(struct mem_cgroup *memcg, gfp_t gfp);
void skm_memcg_forget(struct mem_cgroup *memcg);
/* What skm_memcg_apply_priv() does to each area */
typedef void skm_memcg_priv_fn_t(void *priv);
void skm_memcg_apply_priv(enum skm_policy_id id, skm_memcg_priv_fn_t *fn);
void skm_memcg_free_all(void);
void skm_memcg_show(struct seq_file *m);

#endif /* _SKMEMCG_MEMCG_STATE_H */
