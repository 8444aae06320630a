/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_MEMCG_STATE_H
#define _SKMEMCG_MEMCG_STATE_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "level.h"

struct mem_cgroup;
struct seq_file;

enum skm_dir {
	SKM_DIR_TX,
	SKM_DIR_RX,
	SKM_DIR_NR,
};

/**
 * struct skm_memcg - what skmemcg keeps about one memcg
 * @node: in the hash table, keyed by @memcg
 * @memcg: identity only; dereferenced only where the caller pins the memcg
 * @cgroup_id: to find the cgroup again when printing
 * @state: skm_level_pack() of the level held and its expiry
 * @events: memory.events high, max, oom, oom_kill at the last look
 * @vmpr_lock: protects the vmpressure window
 * @vmpr_scanned: pages scanned in the open window
 * @vmpr_reclaimed: pages reclaimed in the open window
 * @throttled: allocations suppressed, per direction
 * @reclaim_protection: protection the last shaped reclaim honoured, pages
 * @reclaim_usage: usage then, pages
 * @reclaim_ppm: the scan fraction the reclaim policy gave then, ppm
 * @rcu: freeing
 *
 * Created on first need, freed when the memcg is (mem_cgroup_css_free) or
 * when the module unloads.
 */
struct skm_memcg {
	struct hlist_node node;
	struct mem_cgroup *memcg;
	u64 cgroup_id;
	unsigned long state;
	unsigned long events[4];
	spinlock_t vmpr_lock;	/* protects the vmpressure window */
	unsigned long vmpr_scanned;
	unsigned long vmpr_reclaimed;
	atomic_long_t throttled[SKM_DIR_NR];
	unsigned long reclaim_protection;
	unsigned long reclaim_usage;
	unsigned int reclaim_ppm;
	struct rcu_head rcu;
};

struct skm_memcg *skm_memcg_find(struct mem_cgroup *memcg);
struct skm_memcg *skm_memcg_get(struct mem_cgroup *memcg, gfp_t gfp);
void skm_memcg_forget(struct mem_cgroup *memcg);
void skm_memcg_free_all(void);
enum skm_level skm_memcg_hold(struct skm_memcg *sm, enum skm_level level,
			      unsigned long now, unsigned long hold);
void skm_memcg_show(struct seq_file *m);

#endif /* _SKMEMCG_MEMCG_STATE_H */
