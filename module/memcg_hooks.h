/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_MEMCG_HOOKS_H
#define _SKMEMCG_MEMCG_HOOKS_H

#include <linux/cgroup.h>
#include <linux/memcontrol.h>

#include "hooks.h"

/* 7.x passes the reclaim order too (SKM_HAVE_VMPRESSURE_ORDER). */
#ifdef SKM_HAVE_VMPRESSURE_ORDER
void skm_vmpressure(gfp_t gfp, int order, struct mem_cgroup *memcg, bool tree,
		    unsigned long scanned, unsigned long reclaimed);
#else
void skm_vmpressure(gfp_t gfp, struct mem_cgroup *memcg, bool tree,
		    unsigned long scanned, unsigned long reclaimed);
#endif
void skm_mem_cgroup_css_free(struct cgroup_subsys_state *css);
int skm_mem_cgroup_css_online(struct cgroup_subsys_state *css);

extern const struct skm_orig skm_vmpressure_orig;
extern const struct skm_orig skm_mem_cgroup_css_free_orig;
extern const struct skm_orig skm_mem_cgroup_css_online_orig;

#endif /* _SKMEMCG_MEMCG_HOOKS_H */
