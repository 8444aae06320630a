// SPDX-License-Identifier: GPL-2.0
/*
 * Replacements for memcg functions: vmpressure() (mm/vmpressure.c), to feed
 * the vmpressure pressure source; mem_cgroup_css_online() (mm/memcontrol.c),
 * so that list entries waiting for a cgroup take effect when it is made;
 * and mem_cgroup_css_free(), to free our state of a memcg before the memcg
 * goes. All run the kernel's own function unchanged.
 */
#include <linux/static_call.h>

#include "hooks.h"
#include "policies.h"
#include "memcg_hooks.h"
#include "memcg_state.h"
#include "throttle.h"

#include <linux/vmpressure.h>

SKM_DEFINE_ORIG(vmpressure, skm_vmpressure);
SKM_CHECK_PROTO(vmpressure, skm_vmpressure);

SKM_DEFINE_ORIG(mem_cgroup_css_free, skm_mem_cgroup_css_free);

SKM_DEFINE_ORIG(mem_cgroup_css_online, skm_mem_cgroup_css_online);

#ifdef SKM_HAVE_VMPRESSURE_ORDER
void notrace skm_vmpressure(gfp_t gfp, int order, struct mem_cgroup *memcg,
			    bool tree, unsigned long scanned,
			    unsigned long reclaimed)
#else
void notrace skm_vmpressure(gfp_t gfp, struct mem_cgroup *memcg, bool tree,
			    unsigned long scanned, unsigned long reclaimed)
#endif
{
	struct skm_hook_frame f;

	skm_hook_enter(&f);
	skm_hook_orig_in(&f);
#ifdef SKM_HAVE_VMPRESSURE_ORDER
	static_call(skm_orig_vmpressure)(gfp, order, memcg, tree, scanned, reclaimed);
#else
	static_call(skm_orig_vmpressure)(gfp, memcg, tree, scanned, reclaimed);
#endif
	skm_hook_orig_out(&f);
	if (static_branch_unlikely(&skm_throttle_key))
		skm_throttle_vmpressure(gfp, memcg, tree, scanned, reclaimed);
	skm_hook_exit(&f, SKM_HOOK_VMPRESSURE);
}

/* Installed while any policy is on: every policy makes per-memcg state. */
void notrace skm_mem_cgroup_css_free(struct cgroup_subsys_state *css)
{
	struct skm_hook_frame f;

	skm_hook_enter(&f);
	skm_hook_may_sleep(&f);		/* the original flushes work */
	skm_memcg_forget(mem_cgroup_from_css(css));
	skm_cglists_gone(css->cgroup);
	skm_hook_orig_in(&f);
	static_call(skm_orig_mem_cgroup_css_free)(css);
	skm_hook_orig_out(&f);
	skm_hook_exit(&f, SKM_HOOK_CSS_FREE);
}

/*
 * Installed while a policy with a cgroup list is on: a cgroup's memcg comes
 * online before any task can be moved into it, so a waiting entry for it
 * covers its first socket.
 */
int notrace skm_mem_cgroup_css_online(struct cgroup_subsys_state *css)
{
	struct skm_hook_frame f;
	int ret;

	skm_hook_enter(&f);
	skm_hook_may_sleep(&f);		/* both allocate with GFP_KERNEL */
	skm_hook_orig_in(&f);
	ret = static_call(skm_orig_mem_cgroup_css_online)(css);
	skm_hook_orig_out(&f);
	if (!ret)
		skm_cglists_online(css->cgroup);
	skm_hook_exit(&f, SKM_HOOK_CSS_ONLINE);
	return ret;
}
