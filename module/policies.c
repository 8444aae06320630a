// SPDX-License-Identifier: GPL-2.0
/*
 * The registered policies and their transitions.
 *
 * Each policy (struct skm_policy) says which hooks it needs, whether its
 * knobs turn it on, and what to do as it comes on and goes off; main.c
 * registers them. A transition, run whenever a knob that can turn a policy
 * on or off is written, hooks exactly the policies that are wanted and not
 * refused by the drift guard, all or nothing; its steps and their order
 * are skm_transition_plan()'s (transition.c). This file names no policy.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/limits.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>

#include "cglist.h"
#include "drift.h"
#include "hooks.h"
#include "memcg_state.h"
#include "policies.h"
#include "transition.h"

bool skm_enabled __read_mostly = true;

static const struct skm_policy *const *skm_policies;
static unsigned int skm_policies_nr;

/**
 * skm_policies_register() - the policies the core drives
 * @policies: in the order of their ids; must outlive the module's use
 * @nr: how many
 *
 * Called once at load, before anything else uses the core.
 */
void skm_policies_register(const struct skm_policy *const *policies,
			   unsigned int nr)
{
	skm_policies = policies;
	skm_policies_nr = nr;
}

/* The policies the knobs turn on (a mask of SKM_POLICY_BIT()s). */
static unsigned int skm_policies_wanted(void)
{
	unsigned int i, mask = 0;

	if (!READ_ONCE(skm_enabled))
		return 0;
	for (i = 0; i < skm_policies_nr; i++)
		if (skm_policies[i]->wanted())
			mask |= SKM_POLICY_BIT(skm_policies[i]->id);
	return mask;
}

/**
 * skm_cglists_online() - a cgroup's memcg came online
 * @cgrp: the cgroup
 *
 * From the mem_cgroup_css_online() hook: the lists' entries for its path
 * take effect.
 */
void skm_cglists_online(struct cgroup *cgrp)
{
	/*
	 * No allocation here: one that failed would leave a listed cgroup
	 * without its entry (a service without its limit) until the next
	 * transition. One buffer, taken in turn: cgroups are made one at a
	 * time under cgroup_mutex anyway.
	 */
	static char path[PATH_MAX];
	static DEFINE_MUTEX(path_lock);
	struct skm_cglist *list;
	unsigned int i;

	for (i = 0; i < skm_policies_nr; i++) {
		list = skm_policies[i]->cglist;
		if (list && skm_cglist_any(list))
			break;
	}
	if (i == skm_policies_nr)
		return;
	mutex_lock(&path_lock);
	if (skm_cgroup_path(cgrp, path, sizeof(path)) >= 0) {
		for (i = 0; i < skm_policies_nr; i++) {
			list = skm_policies[i]->cglist;
			if (list)
				skm_cglist_online(list, cgrp, path);
		}
	}
	mutex_unlock(&path_lock);
}

/**
 * skm_cglists_gone() - a cgroup's memcg is being freed
 * @cgrp: the cgroup
 *
 * Its entries wait for a cgroup of their path again.
 */
void skm_cglists_gone(struct cgroup *cgrp)
{
	unsigned int i;

	for (i = 0; i < skm_policies_nr; i++)
		if (skm_policies[i]->cglist)
			skm_cglist_gone(skm_policies[i]->cglist, cgroup_id(cgrp));
}

/* Look every list's entries up again (skm_cglist_resolve()). */
static void skm_cglists_resolve(void)
{
	unsigned int i;

	for (i = 0; i < skm_policies_nr; i++)
		if (skm_policies[i]->cglist)
			skm_cglist_resolve(skm_policies[i]->cglist);
}

/*
 * Transitions: hooking and unhooking wait for text patching and grace
 * periods, and quiescing for tasks to leave replacements. They run under
 * skm_apply_lock, never under kernel_param_lock(), which every read of a
 * parameter takes: reading a knob never waits for a transition. Lock
 * order: kernel_param_lock, then skm_apply_lock; a setter drops the first
 * before it takes the second. skm_live changes under both.
 */
static DEFINE_MUTEX(skm_apply_lock);
static bool skm_live;

/* The policies the knobs asked for at the last transition, refused or not. */
static unsigned int skm_asked_last;

/**
 * skm_policies_are_live() - do setters apply side effects yet?
 *
 * Setters run before module init for values given at load; what needs the
 * module running (static keys, transitions) waits for skm_policies_go_live().
 */
bool skm_policies_are_live(void)
{
	return READ_ONCE(skm_live);
}

/* The policies @pick selects, as a mask. */
static unsigned int skm_policies_mask(bool (*pick)(const struct skm_policy *p))
{
	unsigned int i, mask = 0;

	for (i = 0; i < skm_policies_nr; i++)
		if (pick(skm_policies[i]))
			mask |= SKM_POLICY_BIT(skm_policies[i]->id);
	return mask;
}

static bool skm_policy_listed(const struct skm_policy *p)
{
	return p->cglist;
}

static bool skm_policy_releasing(const struct skm_policy *p)
{
	return p->release;
}

/*
 * The policies in @mask come on (@release false: their prepare, before
 * their hooks go live) or went off (true: their release, once no task is
 * in a replacement).
 */
static void skm_policies_tell(unsigned int mask, bool release)
{
	const struct skm_policy *p;
	void (*op)(void);
	unsigned int i;

	for (i = 0; i < skm_policies_nr; i++) {
		p = skm_policies[i];
		op = release ? p->release : p->prepare;
		if ((mask & SKM_POLICY_BIT(p->id)) && op)
			op();
	}
}

static int __skm_policies_apply(const char *context, bool strict)
{
	struct skm_transition_in in = {
		.live = READ_ONCE(skm_hooks_live),
		.asked_last = skm_asked_last,
		.listed = skm_policies_mask(skm_policy_listed),
		.releasing = skm_policies_mask(skm_policy_releasing),
		.strict = strict,
	};
	struct skm_transition t;
	int ret;

	lockdep_assert_held(&skm_apply_lock);
	if (!skm_live)
		return 0;
	in.asked = skm_policies_wanted();
	/* The bodies they rest on, read again (drift.c) */
	in.refused = skm_drift_recheck(in.asked & ~in.live);
	t = skm_transition_plan(in);
	if (t.report)
		skm_drift_report(t.report, t.refuse ? context : "left off");
	if (t.refuse)
		return -EOPNOTSUPP;
	/*
	 * While a policy with a list is on, its hooks keep the entries right
	 * (css_online, css_free); while none was, cgroups came and went
	 * unseen: look every entry up again, before the hooks go live and
	 * after (a cgroup made in between).
	 */
	if (t.resolve)
		skm_cglists_resolve();
	skm_policies_tell(t.prepare, false);
	ret = skm_hooks_set(t.want, context);
	if (ret)
		return ret;
	skm_asked_last = in.asked;
	if (t.resolve)
		skm_cglists_resolve();
	if (t.quiesce)
		skm_hooks_quiesce();
	skm_policies_tell(t.release, true);
	if (t.free_state)
		skm_memcg_free_all();
	return 0;
}

/**
 * skm_policies_apply() - hook what the knobs turn on, unhook the rest
 * @context: how the log line ends if hooking fails
 *
 * Called under kernel_param_lock() by every setter that can turn a policy
 * on or off, once the module is live; it drops that lock while it works
 * (skm_apply_lock above) and holds it again when it returns. Another
 * setter may run meanwhile: a setter that rolls back on failure restores
 * its knob only if it still holds the value it wrote. A policy that went
 * off leaves no state behind: it releases what it holds (memcg-exclusive
 * sockets become ordinary) and, once nothing is on, every memcg's state is
 * freed, each after no task can still be in a replacement.
 *
 * Return: 0, or the error of hooking, with nothing changed.
 */
int skm_policies_apply(const char *context)
{
	int ret;

	kernel_param_unlock(THIS_MODULE);
	mutex_lock(&skm_apply_lock);
	ret = __skm_policies_apply(context, true);
	mutex_unlock(&skm_apply_lock);
	kernel_param_lock(THIS_MODULE);
	return ret;
}

/**
 * skm_policies_go_live() - hook the policies the values set at load turn on
 *
 * Called once from module init under kernel_param_lock(), once the hooks
 * are resolved and the knobs' keys set. From then on every setter applies
 * its side effects itself.
 *
 * Return: 0, or the error of hooking, with nothing hooked.
 */
int skm_policies_go_live(void)
{
	int ret;

	mutex_lock(&skm_apply_lock);
	WRITE_ONCE(skm_live, true);
	ret = __skm_policies_apply("not loading", false);
	if (ret)
		WRITE_ONCE(skm_live, false);
	mutex_unlock(&skm_apply_lock);
	return ret;
}

/**
 * skm_policies_go_dead() - unhook everything for unload
 *
 * From then on setters change values only. No hook calls a replacement
 * once it returns; the caller waits out those still in one with
 * skm_hooks_quiesce() before freeing what they use.
 */
void skm_policies_go_dead(void)
{
	kernel_param_lock(THIS_MODULE);
	mutex_lock(&skm_apply_lock);
	skm_hooks_set(0, "");
	WRITE_ONCE(skm_live, false);
	mutex_unlock(&skm_apply_lock);
	kernel_param_unlock(THIS_MODULE);
}

/**
 * skm_policies_enabled_changed() - the master switch was flipped
 * @on: its value
 *
 * After the transition it made: each policy that asks is told.
 */
void skm_policies_enabled_changed(bool on)
{
	unsigned int i;

	for (i = 0; i < skm_policies_nr; i++)
		if (skm_policies[i]->enabled_changed)
			skm_policies[i]->enabled_changed(on);
}

/**
 * skm_policies_show_stats() - each policy's lines of the "stats" file
 * @m: the seq_file
 */
void skm_policies_show_stats(struct seq_file *m)
{
	unsigned int i;

	for (i = 0; i < skm_policies_nr; i++)
		if (skm_policies[i]->show_stats)
			skm_policies[i]->show_stats(m);
}
