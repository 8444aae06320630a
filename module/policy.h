/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policies, as the rest of the module names them: an id each, and
 * masks of ids. What a policy is (its hooks, its knobs, its transitions)
 * is struct skm_policy, registered with the core.
 */
#ifndef _SKMEMCG_POLICY_H
#define _SKMEMCG_POLICY_H

#include <linux/types.h>

#include "hook_id.h"

/*
 * The policies that own hooks (policy_list.h). A hook serves the policies
 * whose lists name it and is installed while any of them is on.
 */
#define SKM_POLICY(ID, name)	SKM_POLICY_##ID,
enum skm_policy_id {
#include "policy_list.h"
	SKM_POLICY_NR,
};

#undef SKM_POLICY

#define SKM_POLICY_BIT(p)	(1U << (p))
#define SKM_POLICIES_ALL	(SKM_POLICY_BIT(SKM_POLICY_NR) - 1)

struct cgroup;
struct mem_cgroup;
struct seq_file;
struct skm_cglist;

/**
 * struct skm_policy - a policy, as the core (policies.c) drives it
 * @name: as the log and the drift guard name it
 * @id: its bit in the masks of policies
 * @hooks: the hooks it needs (hook_id.h); a hook shared by policies is in
 *	each one's list, and is installed while any of them is on
 * @nr_hooks: how many
 * @cglist: its cgroup list (cglist.h), or NULL: while it is on, its hooks
 *	include mem_cgroup_css_online() and css_free(), which keep the
 *	list's entries right
 * @memcg_size: bytes of its private area in each memcg's state
 *	(memcg_state.h), 0 for none
 * @memcg_init: fills a new private area (zeroed before), or NULL
 * @wanted: do its knobs turn it on (the master switch aside)?
 * @prepare: before its hooks go live, or NULL
 * @release: once it went off and no task is left in a replacement: drop
 *	what it holds (NULL: nothing)
 * @enabled_changed: the master switch was flipped, or NULL
 * @show_stats: its lines of the "stats" file, or NULL
 * @cgroup_header: its columns of the "cgroups" file, each with a leading
 *	space, or NULL
 * @show_cgroup: its columns of one "cgroups" line, for the cgroup @cgrp
 *	(pinned): @priv is its private area of the memcg's state (NULL if it
 *	has none)
 *
 * Each policy defines its own in its glue file, next to its knobs, static
 * keys and hooks; main.c registers them in the order of their ids, which
 * is the order of the "cgroups" columns. The core names none.
 */
struct skm_policy {
	const char *name;
	enum skm_policy_id id;
	const enum skm_hook_id *hooks;
	unsigned int nr_hooks;
	struct skm_cglist *cglist;
	unsigned int memcg_size;
	void (*memcg_init)(void *priv, struct mem_cgroup *memcg);
	bool (*wanted)(void);
	void (*prepare)(void);
	void (*release)(void);
	void (*enabled_changed)(bool on);
	void (*show_stats)(struct seq_file *m);
	const char *cgroup_header;
	void (*show_cgroup)(struct seq_file *m, struct cgroup *cgrp, void *priv);
};

/*
 * Each policy's, defined in its own file, and the registry of them all in
 * the order of their ids (main.c), in one declaration: "extern const
 * struct skm_policy skm_policy_throttle, ..., *const skm_policy_table[]".
 */
#define SKM_POLICY(ID, name)	skm_policy_##name,
extern const struct skm_policy
#include "policy_list.h"
	*const skm_policy_table[SKM_POLICY_NR];
#undef SKM_POLICY

#endif /* _SKMEMCG_POLICY_H */
