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
/* The MGLRU hook: evict_folios() */
#if defined(SKM_FAMILY_7_3)
int skm_evict_folios(unsigned long nr_to_scan, struct lruvec *lruvec,
		     struct skm_scan_control *sc, int swappiness);
#elif defined(SKM_FAMILY_6_1)
int skm_evict_folios(struct lruvec *lruvec, struct skm_scan_control *sc,
		     int swappiness, bool *need_swapping);
#else
int skm_evict_folios(struct lruvec *lruvec, struct skm_scan_control *sc,
		     int swappiness);
#endif

extern const struct skm_orig skm_mem_cgroup_size_orig;
extern const struct skm_orig skm_evict_folios_orig;

#endif /* _SKMEMCG_RECLAIM_HOOKS_H */
