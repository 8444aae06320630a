/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hooked kernel functions, as the rest of the module names them: one
 * id each, which indexes the hook table (main.c, where each name is spelled
 * once), the policies' lists of the hooks they need (struct skm_policy) and
 * the "hook_times" file.
 */
#ifndef _SKMEMCG_HOOK_ID_H
#define _SKMEMCG_HOOK_ID_H

enum skm_hook_id {
	SKM_HOOK_RAISE,
	SKM_HOOK_REDUCE,
	SKM_HOOK_CHARGE,
	SKM_HOOK_FORCED,
	SKM_HOOK_SK_ALLOC,
	SKM_HOOK_SK_FREE,
	SKM_HOOK_VMPRESSURE,
	SKM_HOOK_CSS_FREE,
	SKM_HOOK_CSS_ONLINE,
	SKM_HOOK_UNCHARGE,
	SKM_HOOK_MEMCG_SIZE,
#ifndef SKM_FAMILY_7_3
	SKM_HOOK_EVICT,		/* MGLRU's; 7.3 shapes both LRUs in one */
#endif
	SKM_HOOK_NR,
};

/* The kernel symbol of @id, as the hook table (hooks.c) has it. */
const char *skm_hook_name(enum skm_hook_id id);

#endif /* _SKMEMCG_HOOK_ID_H */
