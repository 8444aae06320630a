/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_RECLAIM_H
#define _SKMEMCG_RECLAIM_H

#include <linux/memcontrol.h>

#include "hooks.h"
#include "vmscan_compat.h"

#if defined(SKM_FAMILY_7_3)
unsigned long skm_apply_proportional_protection(struct mem_cgroup *memcg,
						struct skm_scan_control *sc,
						unsigned long scan);
#else
unsigned long skm_mem_cgroup_size(struct mem_cgroup *memcg);
#endif
#if defined(SKM_FAMILY_6_1)
int skm_evict_folios(struct lruvec *lruvec, struct skm_scan_control *sc,
		     int swappiness, bool *need_swapping);
#elif !defined(SKM_FAMILY_7_3)
int skm_evict_folios(struct lruvec *lruvec, struct skm_scan_control *sc,
		     int swappiness);
#endif

extern const struct skm_orig skm_apply_proportional_protection_orig;
extern const struct skm_orig skm_mem_cgroup_size_orig;
extern const struct skm_orig skm_evict_folios_orig;

void skm_reclaim_init(void);

/* On while reclaim_policy is not "kernel" (and its claims hold; drift.c). */
DECLARE_STATIC_KEY_FALSE(skm_reclaim_key);

#endif /* _SKMEMCG_RECLAIM_H */
