// SPDX-License-Identifier: GPL-2.0
/*
 * The hook framework: a table of kernel functions replaced through ftrace.
 *
 * Each hook is an IPMODIFY ftrace_ops filtered on one function. Its callback
 * rewrites the return address of the ftrace trampoline so that the call lands
 * in our replacement instead. The replacement calls the original through a
 * static call (a direct call, patched at load) just past its ftrace site: the
 * original runs without a second pass through ftrace, so a hooked call costs
 * one trampoline, not two, and needs no recursion check. Never through a
 * function pointer: on kernels built with CONFIG_X86_KERNEL_IBT most of the
 * functions we hook are sealed at boot (their ENDBR is overwritten because
 * nothing in the kernel calls them indirectly), and an indirect call to them
 * traps on IBT hardware; a direct call needs no ENDBR. The site is where
 * ftrace_location() says, and must be at the entry or just past its ENDBR;
 * the instructions before it (ENDBR alone) do nothing to skip. Other tracers
 * of a hooked function see the kernel's calls of it, not ours.
 *
 * The callback only reads a static key and sets the return address: it
 * calls nothing and cannot recurse, so it goes without ftrace's recursion
 * wrapper (FTRACE_OPS_FL_RECURSION would put ftrace_ops_assist_func in
 * front of it), and, where the kernel has ftrace_regs
 * (CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS, x86 since 5.11), it asks for the
 * light trampoline rather than a full pt_regs save, as livepatch does.
 *
 * Lifecycle, as kernel/livepatch/patch.c does it:
 * - resolve every symbol first; if any is missing, log one line naming all
 *   of them and install nothing;
 * - register hooks one by one; if one fails, unregister those already done;
 * - only once all are in, let them act: until then (and again from the
 *   start of removal) every hook but the "always" ones passes its calls
 *   straight to the original. Policies span several functions: a socket
 *   made memcg-exclusive by the mem_cgroup_sk_alloc hook must have its free
 *   seen by the mem_cgroup_sk_free hook, or its state outlives it and a
 *   later socket at the same address inherits it (found by the cycles test:
 *   a child socket with no memcg yet charged as exclusive, a NULL memcg);
 * - on removal, unregister all, then wait until no task can be inside our
 *   code: RCU-tasks for the trampoline and the first instructions of a
 *   replacement, SRCU for tasks sleeping in an original called from a
 *   replacement, RCU-tasks again for the last instructions after it.
 *
 * FTRACE_OPS_FL_PERMANENT makes "sysctl kernel.ftrace_enabled=0" fail while
 * the hooks are in, instead of silently turning every policy off.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/rcupdate_wait.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <asm/ibt.h>

#include "compat.h"
#include "hooks.h"
#include "knobs.h"
#include "ksym.h"

DEFINE_SRCU(skm_hook_srcu);

/* On while the whole table is installed; see the lifecycle above. */
static DEFINE_STATIC_KEY_FALSE(skm_hooks_live_key);

static void notrace skm_hook_redirect(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *ops,
				      struct ftrace_regs *fregs)
{
	struct skm_hook *hook = container_of(ops, struct skm_hook, ops);

	if (!hook->always && (!static_branch_likely(&skm_hooks_live_key) ||
			      !static_branch_likely(&skm_enabled_key)))
		return;
	ftrace_regs_set_instruction_pointer(fregs, (unsigned long)hook->replacement);
}

typedef unsigned long skm_ftrace_location_t(unsigned long ip);
DEFINE_STATIC_CALL_NULL(skm_ftrace_location, skm_ftrace_location_t);

/*
 * Where a replacement calls the original of @hook: just past its ftrace
 * site, which must be at the entry or right after its ENDBR; 0 if not.
 */
static unsigned long skm_hook_orig_target(const struct skm_hook *hook)
{
	unsigned long site = static_call(skm_ftrace_location)(hook->addr);

	if (!site || site < hook->addr ||
	    site - hook->addr > (IS_ENABLED(CONFIG_X86_KERNEL_IBT) ? ENDBR_INSN_SIZE : 0))
		return 0;
	return site + MCOUNT_INSN_SIZE;
}

static int skm_hooks_resolve(struct skm_hook *hooks, unsigned int nr)
{
	unsigned long ftrace_location_addr = skm_ksym_lookup("ftrace_location");
	char missing[256] = "";
	size_t len = 0;
	unsigned int i;

	if (!ftrace_location_addr)
		len = scnprintf(missing, sizeof(missing), "ftrace_location");

	for (i = 0; i < nr; i++) {
		struct skm_hook *hook = &hooks[i];

		hook->addr = skm_ksym_lookup(hook->name);
		if (hook->addr)
			continue;
		len += scnprintf(missing + len, sizeof(missing) - len, "%s%s",
				 len ? ", " : "", hook->name);
	}
	if (len) {
		pr_err("kernel %s lacks functions skmemcg hooks: %s; not loading\n",
		       init_utsname()->release, missing);
		return -ENOENT;
	}

	static_call_update(skm_ftrace_location,
			   (skm_ftrace_location_t *)ftrace_location_addr);
	for (i = 0; i < nr; i++) {
		struct skm_hook *hook = &hooks[i];

		hook->orig_target = hook->addr;		/* SKM_CALL: its entry */
		if (!hook->replacement)
			continue;
		hook->orig_target = skm_hook_orig_target(hook);
		if (!hook->orig_target) {
			pr_err("%s has no ftrace site at its entry; not loading\n",
			       hook->name);
			return -EINVAL;
		}
	}
	for (i = 0; i < nr; i++)
		__static_call_update(hooks[i].orig->key, hooks[i].orig->tramp,
				     (void *)hooks[i].orig_target);
	return 0;
}

static int skm_hook_register(struct skm_hook *hook)
{
	int ret;

	if (!hook->replacement)
		return 0;	/* SKM_CALL: resolved only */
	hook->ops.func = skm_hook_redirect;
	hook->ops.flags = FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_PERMANENT;
	/* As livepatch: with ftrace_regs, the light trampoline can change RIP. */
	if (!IS_ENABLED(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS))
		hook->ops.flags |= FTRACE_OPS_FL_SAVE_REGS;

	if (skm_test_fail_install && !strcmp(hook->name, skm_test_fail_install))
		return -EIO;

	ret = ftrace_set_filter_ip(&hook->ops, hook->addr, 0, 0);
	if (ret)
		return ret;
	ret = register_ftrace_function(&hook->ops);
	if (ret) {
		ftrace_set_filter_ip(&hook->ops, hook->addr, 1, 0);
		return ret;
	}
	hook->installed = true;
	return 0;
}

/**
 * skm_hooks_install() - resolve and install a table of hooks, all or nothing
 * @hooks: the table
 * @nr: its length
 *
 * Return: 0 with every hook installed, or an error with none installed and
 * one line in the log naming what failed.
 */
int skm_hooks_install(struct skm_hook *hooks, unsigned int nr)
{
	unsigned int i;
	int ret;

	ret = skm_hooks_resolve(hooks, nr);
	if (ret)
		return ret;

	for (i = 0; i < nr; i++) {
		ret = skm_hook_register(&hooks[i]);
		if (ret) {
			pr_err("cannot hook %s: %d%s; not loading\n", hooks[i].name,
			       ret, ret == -EBUSY ?
			       " (another ftrace IPMODIFY user, such as a livepatch, owns it)" :
			       "");
			skm_hooks_remove(hooks, i);
			return ret;
		}
	}
	static_branch_enable(&skm_hooks_live_key);
	return 0;
}

/**
 * skm_hooks_remove() - uninstall hooks and wait until none can still run
 * @hooks: the table
 * @nr: how many entries, from the first, may be installed
 *
 * On return no task is inside a replacement, the trampoline, or an original
 * called from a replacement, so the module text may go away.
 */
void skm_hooks_remove(struct skm_hook *hooks, unsigned int nr)
{
	unsigned int i;

	static_branch_disable(&skm_hooks_live_key);
	for (i = 0; i < nr; i++) {
		struct skm_hook *hook = &hooks[i];

		if (!hook->installed)
			continue;
		WARN_ON_ONCE(unregister_ftrace_function(&hook->ops));
		ftrace_set_filter_ip(&hook->ops, hook->addr, 1, 0);
		hook->installed = false;
	}
	skm_hooks_quiesce();
}

/**
 * skm_hooks_quiesce() - wait until no task runs a replacement
 *
 * For calls that began before: RCU-tasks covers the trampoline and the
 * first instructions of a replacement, SRCU a task asleep in an original
 * called from a replacement, RCU-tasks again the last instructions after.
 * Callers stop new calls first (unregister, or the "enabled" key off).
 */
void skm_hooks_quiesce(void)
{
	synchronize_rcu_tasks();
	synchronize_srcu(&skm_hook_srcu);
	synchronize_rcu_tasks();
}
