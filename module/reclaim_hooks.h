/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_RECLAIM_HOOKS_H
#define _SKMEMCG_RECLAIM_HOOKS_H

#include <linux/memcontrol.h>

#include "hooks.h"
#include "vmscan_compat.h"

/* The classic-LRU hook (SKM_RECLAIM_SIZE_SYM) */
#ifdef SKM_FAMILY_7_3
unsigned long skm_mem_cgroup_size(struct lruvec *lruvec, enum lru_list lru,
				  int zone_idx);
#else
unsigned long skm_mem_cgroup_size(struct mem_cgroup *memcg);
#endif
int skm_evict_folios(SKM_EVICT_PARAMS);

extern const struct skm_orig skm_mem_cgroup_size_orig;
extern const struct skm_orig skm_evict_folios_orig;

#endif /* _SKMEMCG_RECLAIM_HOOKS_H */
