/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What skmemcg keeps about one memcg (memcg_state.c): the policies'
 * private areas, each policy's own layout (struct skm_policy's memcg_size).
 */
#ifndef _SKMEMCG_MEMCG_STATE_H
#define _SKMEMCG_MEMCG_STATE_H

#include <linux/cache.h>
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

int skm_memcg_state_init(const struct skm_policy *const *policies,
			 unsigned int nr);
struct skm_memcg *skm_memcg_find(struct mem_cgroup *memcg);
struct skm_memcg *skm_memcg_get(struct mem_cgroup *memcg, gfp_t gfp);
void skm_memcg_forget(struct mem_cgroup *memcg);
void skm_memcg_free_all(void);
void skm_memcg_show(struct seq_file *m);

#endif /* _SKMEMCG_MEMCG_STATE_H */
