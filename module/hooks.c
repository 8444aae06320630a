// SPDX-License-Identifier: GPL-2.0
/*
 * The hook framework: kernel functions replaced through ftrace, installed
 * per policy.
 *
 * Two ways in, chosen at load ("hook_entry"; "stats" says which):
 * - direct (x86-64 with ftrace direct calls, every supported Debian
 *   kernel): each hook's ftrace site calls a stub of ours, which drops the
 *   return into the hooked function and jumps to the replacement, or to the
 *   original when the hook is not redirecting (direct_entry.h). One ops per
 *   hook, as the direct-call API wants (one target per ops). A few
 *   instructions a call, against ftrace's trampoline saving registers and a
 *   callback searching the site;
 * - ops: IPMODIFY ftrace_ops whose filters hold the hooked functions, one
 *   registered by each transition that added functions, holding those.
 *   Their one callback finds the hook by the ftrace site it is called for
 *   and rewrites the return address of the ftrace trampoline so that the
 *   call lands in our replacement instead. It calls nothing and cannot
 *   recurse, so it goes without ftrace's recursion wrapper
 *   (FTRACE_OPS_FL_RECURSION would put ftrace_ops_assist_func in front of
 *   it), and, where the kernel has ftrace_regs
 *   (CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS, x86 since 5.11), it asks for the
 *   light trampoline rather than a full pt_regs save, as livepatch does.
 *   A hook entered directly whose function another direct-call user holds
 *   (a BPF trampoline: only one per function) goes this way instead, which
 *   shares the function with it (prepare_direct_functions_for_ipmodify()).
 * Either way the hook's flag (struct skm_orig's @on) says whether it
 * redirects. The replacement calls the original through a static call (a
 * direct call, patched at load) just past its ftrace site: the original
 * runs without a second pass through ftrace and needs no recursion check.
 * Never through a function pointer: on kernels built with
 * CONFIG_X86_KERNEL_IBT most of the functions we hook are sealed at boot
 * (their ENDBR is overwritten because nothing in the kernel calls them
 * indirectly), and an indirect call to them traps on IBT hardware; a direct
 * call needs no ENDBR. The site is where ftrace_location() says, and must
 * be at the entry or just past its ENDBR; the instructions before it (ENDBR
 * alone) do nothing to skip. Other tracers of a hooked function see the
 * kernel's calls of it, not ours; a livepatch, or any other IPMODIFY user,
 * and skmemcg exclude each other on a function, whoever comes second
 * refused with EBUSY.
 *
 * Lifecycle, as kernel/livepatch/patch.c does it:
 * - at load, resolve every symbol of every policy, whether on or not; if
 *   any is missing, log one line naming all of them and install nothing;
 * - a transition (a policy turned on or off, "enabled", load, unload)
 *   puts in the hooks it adds (directly one by one, the others with one
 *   ops registration: only registration lets a BPF trampoline already on a
 *   function share it, hence a new ops rather than a bigger filter), and
 *   takes out those it drops (an ops left with none is unregistered). If
 *   adding fails, nothing changed; dropping cannot fail (a function that
 *   would not come out stays, inert);
 * - a policy's hooks act together: a hook redirects only for the policies
 *   in skm_hooks_live, which a policy joins once all its hooks are in and
 *   leaves before any of them goes. Policies span several
 *   functions: a socket made memcg-exclusive by the mem_cgroup_sk_alloc
 *   hook must have its free seen by the mem_cgroup_sk_free hook, or it is
 *   counted for ever (and, with the hash of exclusive sockets of that
 *   time, its state outlived it and a later socket at the same address
 *   inherited it: found by the cycles test, a child socket with no memcg
 *   yet charged as exclusive, a NULL memcg). A replacement shared by
 *   policies asks skm_policy_live() before acting for one;
 * - whoever frees a policy's state after it went off (and unload) first
 *   waits until no task can be inside our code (skm_hooks_quiesce()):
 *   for code that does not sleep (the stub, the trampoline, most
 *   replacements whole), an RCU-tasks grace period, or a switch on every
 *   CPU where the running kernel does not preempt kernel code
 *   (skm_hooks_wait_switched()); SRCU for the tasks that may sleep in an
 *   original called from a replacement, which take its read side first
 *   (skm_hook_may_sleep(): a charge that may reclaim, boundedly); the
 *   first wait again for the last instructions after. No replacement
 *   calls an original that may sleep without bound (an accept() waiting
 *   for a client): a task there would hold every transition and unload.
 *
 * FTRACE_OPS_FL_PERMANENT makes "sysctl kernel.ftrace_enabled=0" fail while
 * hooks are in, instead of silently turning every policy off (set by hand
 * on the direct ops, whose API sets their flags).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate_wait.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <linux/workqueue.h>
#include <asm/ibt.h>

#include "compat.h"
#include "hooks.h"
#include "ksym.h"

#if SKM_SRCU_FAST
DEFINE_SRCU_FAST(skm_hook_srcu);	/* its readers: hooks.h */
#else
DEFINE_SRCU(skm_hook_srcu);
#endif

/*
 * Test only: make installing the hook of this symbol fail after the hooks
 * before it were installed, to prove the rollback. Load time only.
 */
static char *skm_test_fail_install;
module_param_named(test_fail_install, skm_test_fail_install, charp, 0);
MODULE_PARM_DESC(test_fail_install,
		 "Test only: fail installing the hook of this symbol at load (string)");

/*
 * How hooked calls enter their replacements: "direct", an ftrace direct
 * call into a stub per hook (direct_entry.h), the kernel's own way into
 * BPF trampolines; "ops", an IPMODIFY ftrace_ops whose callback finds the
 * hook and rewrites the return address, as livepatch does (and what a
 * hook falls back to when a BPF trampoline already holds its function:
 * only that shares with it); "auto", direct where the kernel and the
 * architecture have it (x86-64 with
 * CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS), else ops. Read at load; the
 * "stats" file says which. A hooked call costs about a hundred instructions
 * fewer directly (docs/measurements.md). Not in sysfs: it cannot change.
 */
static char *skm_hook_entry = "auto";
module_param_named(hook_entry, skm_hook_entry, charp, 0);
MODULE_PARM_DESC(hook_entry,
		 "How hooked calls enter: auto, direct or ops; load only (string, default auto)");

/* The hooks of a table, at most this many. */
#define SKM_HOOKS_MAX	16

/* Policies whose hooks are all in; see the lifecycle above. */
unsigned int skm_hooks_live __read_mostly;

static struct skm_hook *skm_hooks __read_mostly;
static unsigned int skm_hooks_nr __read_mostly;
/* The ftrace sites the callback compares, in the table's order. */
static unsigned long skm_hook_sites[SKM_HOOKS_MAX] __read_mostly;

static void notrace skm_hook_redirect(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *ops,
				      struct ftrace_regs *fregs)
{
	const struct skm_hook *hook;
	unsigned int i;

	for (i = 0; i < skm_hooks_nr; i++) {
		if (skm_hook_sites[i] != ip)
			continue;
		hook = &skm_hooks[i];
		if (READ_ONCE(*hook->orig->on))
			ftrace_regs_set_instruction_pointer(fregs,
							    (unsigned long)hook->replacement);
		return;
	}
}

/* As livepatch: with ftrace_regs, the light trampoline can change RIP. */
#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
#define SKM_OPS_FLAGS	(FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_PERMANENT)
#else
#define SKM_OPS_FLAGS	(FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_PERMANENT | \
			 FTRACE_OPS_FL_SAVE_REGS)
#endif

/*
 * The ops that hold the hooks: each transition that adds functions
 * registers one more with exactly those (only registration prepares a BPF
 * trampoline already on a function to share it with an IPMODIFY user, a
 * filter change does not); each keeps them until no policy needs them,
 * and is unregistered once it holds none. Every hook is in at most one,
 * so no more are ever registered than there are hooks. All share one
 * callback. Under skm_hooks_lock.
 */
static struct ftrace_ops skm_ops[SKM_HOOKS_MAX];
static unsigned int skm_ops_nr_in[SKM_HOOKS_MAX];	/* hooks each holds */
/* The ops of a hook, or one of these */
#define SKM_HOOK_OUT		(-1)	/* not in */
#define SKM_HOOK_DIRECT		(-2)	/* entered directly */
static int skm_hook_ops[SKM_HOOKS_MAX];
/*
 * Direct entry (direct_entry.h): one ops per hook, its filter that one
 * function, set at load; registered with the hook's stub while it is in.
 */
static struct ftrace_ops skm_direct_ops[SKM_HOOKS_MAX];
static bool skm_entry_direct __read_mostly;	/* chosen at load */
static unsigned int skm_hooks_nr_direct;	/* hooks entered directly */
static unsigned int skm_hooks_in;		/* policies, last transition */
static unsigned int skm_hooks_nr_in;		/* hooks installed */
static int *skm_ftrace_enabled;			/* the sysctl, for errors */
static struct ftrace_ops skm_probe_ops;		/* finds who owns what */
static DEFINE_MUTEX(skm_hooks_lock);

typedef unsigned long skm_ftrace_location_t(unsigned long ip);
DEFINE_STATIC_CALL_NULL(skm_ftrace_location, skm_ftrace_location_t);

/*
 * The ftrace site of @hook: at the entry or right after its ENDBR; 0 if
 * not there.
 */
static unsigned long skm_hook_site(const struct skm_hook *hook)
{
	unsigned long site = static_call(skm_ftrace_location)(hook->addr);

	if (!site || site < hook->addr ||
	    site - hook->addr > (IS_ENABLED(CONFIG_X86_KERNEL_IBT) ? ENDBR_INSN_SIZE : 0))
		return 0;
	return site;
}

#ifdef SKM_HAVE_DIRECT_ENTRY
#ifdef SKM_HAVE_FTRACE_DIRECT_MULTI
#define skm_register_direct(ops, addr)	register_ftrace_direct_multi(ops, addr)
#define skm_unregister_direct(ops, addr) unregister_ftrace_direct_multi(ops, addr)
#else
#define skm_register_direct(ops, addr)	register_ftrace_direct(ops, addr)
#define skm_unregister_direct(ops, addr) unregister_ftrace_direct(ops, addr, false)
#endif
#else
static int skm_register_direct(struct ftrace_ops *ops, unsigned long addr)
{
	return -EOPNOTSUPP;
}

static int skm_unregister_direct(struct ftrace_ops *ops, unsigned long addr)
{
	return -EOPNOTSUPP;
}
#endif

/* skm_hook_entry read: direct or not. Return: 0, or -EINVAL with a line. */
static int skm_hooks_choose_entry(void)
{
	bool can = skm_direct_entry_available();

	if (!strcmp(skm_hook_entry, "auto")) {
		skm_entry_direct = can;
	} else if (!strcmp(skm_hook_entry, "ops")) {
		skm_entry_direct = false;
	} else if (!strcmp(skm_hook_entry, "direct") && can) {
		skm_entry_direct = true;
	} else {
		pr_err("hook_entry=%s: not %s; not loading\n", skm_hook_entry,
		       can ? "auto, direct or ops" :
		       "auto or ops (no ftrace direct calls on this kernel)");
		return -EINVAL;
	}
	return 0;
}

static void skm_hooks_free_filters(void)
{
	unsigned int i;

	for (i = 0; i < SKM_HOOKS_MAX; i++) {
		ftrace_free_filter(&skm_ops[i]);
		ftrace_free_filter(&skm_direct_ops[i]);
	}
	ftrace_free_filter(&skm_probe_ops);
}

/*
 * The policies in @live redirect: each hook's flag (read by its stub and
 * by the ops callback) says whether one of its policies is in it.
 */
static void skm_hooks_publish(unsigned int live)
{
	unsigned int i;

	WRITE_ONCE(skm_hooks_live, live);
	for (i = 0; i < skm_hooks_nr; i++)
		if (skm_hooks[i].replacement)
			WRITE_ONCE(*skm_hooks[i].orig->on,
				   !!(skm_hooks[i].policies & live));
}

/*
 * Set each hook's mask of policies from the policies' lists. The table is
 * indexed by hook id: every id a list holds must be in it, and every hook
 * must be in a list; anything else is a bug of ours, refused at load.
 */
static int skm_hooks_assign(struct skm_hook *hooks, unsigned int nr,
			    const struct skm_policy *const *policies,
			    unsigned int nr_policies)
{
	unsigned int p, f, i;

	for (i = 0; i < nr; i++)
		hooks[i].policies = 0;
	for (p = 0; p < nr_policies; p++) {
		const struct skm_policy *pol = policies[p];

		for (f = 0; f < pol->nr_hooks; f++) {
			i = pol->hooks[f];
			if (WARN(i >= nr || !hooks[i].replacement,
				 "policy %s needs hook %u, not in the hook table\n",
				 pol->name, i))
				return -EINVAL;
			hooks[i].policies |= SKM_POLICY_BIT(pol->id);
		}
	}
	for (i = 0; i < nr; i++)
		if (WARN(hooks[i].replacement && !hooks[i].policies,
			 "hook %s: no policy needs it\n", hooks[i].name))
			return -EINVAL;
	return 0;
}

/**
 * skm_hook_name() - the kernel symbol of a hook
 * @id: the hook
 *
 * Return: its name in the table, "?" before skm_hooks_init().
 */
const char *skm_hook_name(enum skm_hook_id id)
{
	if (!skm_hooks || id >= skm_hooks_nr)
		return "?";
	return skm_hooks[id].name;
}

/**
 * skm_hooks_init() - resolve a table of hooks; install none
 * @hooks: the table, which must outlive every hook
 * @nr: its length, at most SKM_HOOKS_MAX
 * @policies: the policies, each with its list of the hooks it needs
 * @nr_policies: how many
 *
 * Every symbol is resolved and every static call to an original set, so
 * that turning a policy on later cannot fail for a missing function.
 *
 * Return: 0, or an error with one line in the log naming what is missing.
 */
int skm_hooks_init(struct skm_hook *hooks, unsigned int nr,
		   const struct skm_policy *const *policies,
		   unsigned int nr_policies)
{
	unsigned long ftrace_location_addr = skm_ksym_lookup("ftrace_location");
	char missing[256] = "";
	size_t len = 0;
	unsigned int i;
	int ret;

	if (WARN_ON(nr > SKM_HOOKS_MAX))
		return -E2BIG;
	ret = skm_hooks_assign(hooks, nr, policies, nr_policies);
	if (ret)
		return ret;
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
		hook->site = skm_hook_site(hook);
		if (!hook->site) {
			pr_err("%s has no ftrace site at its entry; not loading\n",
			       hook->name);
			return -EINVAL;
		}
		hook->orig_target = hook->site + MCOUNT_INSN_SIZE;
	}
	ret = skm_hooks_choose_entry();
	if (ret)
		return ret;
	for (i = 0; i < nr; i++) {
		__static_call_update(hooks[i].orig->key, hooks[i].orig->tramp,
				     (void *)hooks[i].orig_target);
		skm_hook_sites[i] = hooks[i].site;	/* 0 for SKM_CALL */
		skm_hook_ops[i] = SKM_HOOK_OUT;
		if (!skm_entry_direct || !hooks[i].replacement)
			continue;
		ret = ftrace_set_filter_ip(&skm_direct_ops[i], hooks[i].addr, 0, 0);
		if (ret) {
			pr_err("%s: no ftrace site for a direct call: %d; not loading\n",
			       hooks[i].name, ret);
			skm_hooks_free_filters();
			return ret;
		}
	}
	for (i = 0; i < SKM_HOOKS_MAX; i++) {
		skm_ops[i].func = skm_hook_redirect;
		skm_ops[i].flags = SKM_OPS_FLAGS;
	}
	skm_probe_ops.func = skm_hook_redirect;
	skm_probe_ops.flags = SKM_OPS_FLAGS & ~FTRACE_OPS_FL_PERMANENT;
	skm_ftrace_enabled = (int *)skm_ksym_lookup("ftrace_enabled");
	skm_hooks = hooks;
	WRITE_ONCE(skm_hooks_nr, nr);
	return 0;
}

/**
 * skm_hooks_exit() - free what the ops kept; every hook must be out
 */
void skm_hooks_exit(void)
{
	skm_hooks_free_filters();
}

/*
 * Why registering @ips (the functions being added) failed with -EBUSY, for
 * the log: the sysctl kernel.ftrace_enabled off refuses every permanent
 * ops; otherwise another IPMODIFY user owns one of them, found by trying
 * each alone with an ops of its own. The error path only.
 */
static const char *skm_hooks_busy_why(const unsigned long *ips, unsigned int n,
				      const char **name)
{
	struct ftrace_ops *probe = &skm_probe_ops;
	unsigned int i, j;
	int ret;

	if (skm_ftrace_enabled && !READ_ONCE(*skm_ftrace_enabled))
		return " (sysctl kernel.ftrace_enabled is 0)";
	for (i = 0; i < n; i++) {
		if (ftrace_set_filter_ip(probe, ips[i], 0, 1))
			continue;
		ret = register_ftrace_function(probe);
		if (!ret)
			unregister_ftrace_function(probe);
		ftrace_set_filter_ip(probe, ips[i], 1, 0);
		if (ret != -EBUSY)
			continue;
		for (j = 0; j < skm_hooks_nr; j++)
			if (skm_hooks[j].addr == ips[i])
				*name = skm_hooks[j].name;
		break;
	}
	return " (another ftrace IPMODIFY user, such as a livepatch, owns it)";
}

/*
 * Register a free ops with @ips. Return: its index, or an error with
 * nothing registered.
 */
static int skm_hooks_register(const unsigned long *ips, unsigned int n)
{
	struct ftrace_ops *ops = NULL;
	int i, ret;

	for (i = 0; i < SKM_HOOKS_MAX && !ops; i++)
		if (!skm_ops_nr_in[i])
			ops = &skm_ops[i];
	if (WARN_ON_ONCE(!ops))
		return -ENOSPC;
	i = ops - skm_ops;
	ret = ftrace_set_filter_ips(ops, (unsigned long *)ips, n, 0, 1);
	if (!ret) {
		ret = register_ftrace_function(ops);
		if (ret)
			ftrace_set_filter_ips(ops, (unsigned long *)ips, n, 1, 0);
	}
	return ret ?: i;
}

/*
 * Take @ips, all held by ops @i, out of it: the ops goes when it would
 * hold none (an empty filter would trace every function). Return: 0, or
 * the error of the filter change with the functions left in.
 */
static int skm_hooks_unregister(int i, const unsigned long *ips, unsigned int n)
{
	struct ftrace_ops *ops = &skm_ops[i];
	int ret;

	if (n < skm_ops_nr_in[i])
		return ftrace_set_filter_ips(ops, (unsigned long *)ips, n, 1, 0);
	ret = unregister_ftrace_function(ops);
	if (WARN_ON_ONCE(ret))
		return ret;
	ftrace_set_filter_ips(ops, (unsigned long *)ips, n, 1, 0);
	return 0;
}

/*
 * Enter hook @i directly. Return: 0; -EBUSY when another user of direct
 * calls (a BPF trampoline) or an IPMODIFY user (a livepatch) has the
 * function, or the sysctl kernel.ftrace_enabled is 0; or another error.
 * Nothing is left registered on error.
 */
static int skm_hook_register_direct(unsigned int i)
{
	unsigned long stub = (unsigned long)skm_hooks[i].orig->direct;
	struct ftrace_ops *ops = &skm_direct_ops[i];
	int ret;

	if (skm_ftrace_enabled && !READ_ONCE(*skm_ftrace_enabled))
		return -EBUSY;
	ret = skm_register_direct(ops, stub);
	if (ret)
		return ret;
	/*
	 * The direct-call API sets the flags itself. PERMANENT makes the
	 * sysctl refuse to turn ftrace off while the hook is in (as for our
	 * ftrace_ops) instead of turning it off unseen; the sysctl reads it
	 * under its lock, and is read again here in case it went off before.
	 */
	WRITE_ONCE(ops->flags, ops->flags | FTRACE_OPS_FL_PERMANENT);
	smp_mb();	/* the flag before the sysctl's read; pairs with its lock */
	if (skm_ftrace_enabled && !READ_ONCE(*skm_ftrace_enabled)) {
		WARN_ON_ONCE(skm_unregister_direct(ops, stub));
		return -EBUSY;
	}
	return 0;
}

/*
 * Take hook @i, entered directly, out (skm_hooks_quiesce() waits for the
 * calls in it). Return: 0, or the error with the hook left in.
 */
static int skm_hook_unregister_direct(unsigned int i)
{
	unsigned long stub = (unsigned long)skm_hooks[i].orig->direct;
	int ret;

	ret = skm_unregister_direct(&skm_direct_ops[i], stub);
	if (ret)
		return ret;
	skm_hook_ops[i] = SKM_HOOK_OUT;
	skm_hooks_nr_direct--;
	skm_hooks_nr_in--;
	return 0;
}

/*
 * Remove the hooks no policy in @policies needs: those entered directly
 * one by one, the others ops by ops. Never fails: a hook whose removal
 * fails stays in, not redirecting for a policy that is not live, and the
 * next transition tries again.
 */
static void skm_hooks_remove_unneeded(unsigned int policies)
{
	unsigned long ips[SKM_HOOKS_MAX];
	unsigned int n, i;
	int o;

	for (i = 0; i < skm_hooks_nr; i++)
		if (skm_hook_ops[i] == SKM_HOOK_DIRECT &&
		    !(skm_hooks[i].policies & policies))
			WARN_ON_ONCE(skm_hook_unregister_direct(i));
	for (o = 0; o < SKM_HOOKS_MAX; o++) {
		if (!skm_ops_nr_in[o])
			continue;
		n = 0;
		for (i = 0; i < skm_hooks_nr; i++)
			if (skm_hook_ops[i] == o && !(skm_hooks[i].policies & policies))
				ips[n++] = skm_hooks[i].addr;
		if (!n || WARN_ON_ONCE(skm_hooks_unregister(o, ips, n)))
			continue;
		for (i = 0; i < skm_hooks_nr; i++) {
			if (skm_hook_ops[i] != o || (skm_hooks[i].policies & policies))
				continue;
			skm_hook_ops[i] = SKM_HOOK_OUT;
			skm_ops_nr_in[o]--;
			skm_hooks_nr_in--;
		}
	}
}

/* Is hook @i needed by one of @policies and not in yet? */
static bool skm_hook_to_add(unsigned int i, unsigned int policies)
{
	return skm_hooks[i].replacement && (skm_hooks[i].policies & policies) &&
	       skm_hook_ops[i] == SKM_HOOK_OUT;
}

/*
 * Put in the hooks @policies need and that are not in: each directly where
 * the entry is direct, the others (all with entry "ops"; those whose
 * function a BPF trampoline holds) with one ops. All or none: on error
 * nothing added stays, and @failed and @why say what for the log.
 */
static int skm_hooks_add(unsigned int policies, const char **failed,
			 const char **why)
{
	unsigned int direct[SKM_HOOKS_MAX], via_ops[SKM_HOOKS_MAX];
	unsigned int ndirect = 0, nops = 0, i, k;
	unsigned long ips[SKM_HOOKS_MAX];
	int ret = 0, o;

	for (i = 0; i < skm_hooks_nr; i++) {
		if (!skm_hook_to_add(i, policies))
			continue;
		if (skm_entry_direct) {
			ret = skm_hook_register_direct(i);
			if (!ret) {
				skm_hook_ops[i] = SKM_HOOK_DIRECT;
				direct[ndirect++] = i;
				continue;
			}
			if (ret != -EBUSY) {
				*failed = skm_hooks[i].name;
				goto rollback;
			}
		}
		ips[nops] = skm_hooks[i].addr;
		via_ops[nops++] = i;
	}
	if (nops) {
		o = skm_hooks_register(ips, nops);
		if (o < 0) {
			ret = o;
			if (ret == -EBUSY)
				*why = skm_hooks_busy_why(ips, nops, failed);
			goto rollback;
		}
		for (k = 0; k < nops; k++)
			skm_hook_ops[via_ops[k]] = o;
		skm_ops_nr_in[o] += nops;
	}
	skm_hooks_nr_direct += ndirect;
	skm_hooks_nr_in += ndirect + nops;
	return 0;

rollback:
	/* Their flags are off: no call entered their replacements. */
	for (k = 0; k < ndirect; k++) {
		i = direct[k];
		WARN_ON_ONCE(skm_unregister_direct(&skm_direct_ops[i],
						   (unsigned long)skm_hooks[i].orig->direct));
		skm_hook_ops[i] = SKM_HOOK_OUT;
	}
	return ret;
}

/**
 * skm_hooks_set() - install exactly the hooks some policies need
 * @policies: mask of SKM_POLICY_BIT()s: the policies to be live after
 * @context: how the log line about a failure ends (e.g. "not loading")
 *
 * One transition: policies going off stop redirecting first; the hooks
 * newly needed go in (skm_hooks_add()), still passing every call through;
 * the policies coming on go live, and their hooks redirect; then the hooks
 * no longer needed come out. A caller that frees state of a policy that
 * went off must skm_hooks_quiesce() first.
 *
 * Return: 0, or an error with nothing changed and one line in the log
 * naming the function that could not be hooked. Turning policies off
 * cannot fail.
 */
int skm_hooks_set(unsigned int policies, const char *context)
{
	const char *failed = NULL, *why = "";
	unsigned int old, i;
	int ret = 0;

	mutex_lock(&skm_hooks_lock);
	old = skm_hooks_in;
	for (i = 0; i < skm_hooks_nr; i++)
		if (skm_hook_to_add(i, policies) && skm_test_fail_install &&
		    !strcmp(skm_hooks[i].name, skm_test_fail_install))
			failed = skm_hooks[i].name;
	if (failed) {
		ret = -EIO;
		goto fail;
	}

	skm_hooks_publish(old & policies);
	ret = skm_hooks_add(policies, &failed, &why);
	if (ret) {
		skm_hooks_publish(old);
		goto fail;
	}
	skm_hooks_in = policies;
	skm_hooks_publish(policies);
	skm_hooks_remove_unneeded(policies);
	goto out;

fail:
	pr_err("cannot hook %s: %d%s; %s\n", failed ?: "the functions", ret, why,
	       context);
out:
	mutex_unlock(&skm_hooks_lock);
	return ret;
}

/* How many kernel functions are hooked now. */
unsigned int skm_hooks_installed(void)
{
	unsigned int n;

	mutex_lock(&skm_hooks_lock);
	n = skm_hooks_nr_in;
	mutex_unlock(&skm_hooks_lock);
	return n;
}

static void skm_hooks_switch_fn(struct work_struct *work)
{
}

/*
 * skm_hooks_switch_each_cpu() - wait until every online CPU has switched
 * tasks since the call: each runs a work item of its own, as
 * schedule_on_each_cpu() does (not exported). synchronize_rcu_tasks_rude()
 * did the same up to 6.12, but waits for nothing on x86 in 7.x
 * (CONFIG_ARCH_WANTS_NO_INSTR).
 */
static void skm_hooks_switch_each_cpu(void)
{
	struct work_struct __percpu *works;
	unsigned int cpu;

	works = alloc_percpu(struct work_struct);
	if (!works) {
		synchronize_rcu_tasks();	/* covers it too, slower */
		return;
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		INIT_WORK(per_cpu_ptr(works, cpu), skm_hooks_switch_fn);
		schedule_work_on(cpu, per_cpu_ptr(works, cpu));
	}
	for_each_online_cpu(cpu)
		flush_work(per_cpu_ptr(works, cpu));
	cpus_read_unlock();
	free_percpu(works);
}

/*
 * skm_hooks_wait_switched() - wait until no task runs code it was running
 * when called, where that code cannot sleep: the trampoline, a
 * replacement's first instructions before its SRCU section, its last after.
 * On a kernel that preempts kernel code (preempt=full, lazy, RT), a task
 * can be switched out there, and only an RCU-tasks grace period sees it
 * leave (voluntary switch or user mode: 0.1 s idle, seconds under load).
 * With preempt=none or voluntary it cannot (no preemption point in such
 * code, and an interrupt returns to it), so a switch on every CPU is
 * enough, as ftrace_shutdown() relies on for a kernel without
 * CONFIG_PREEMPTION. The model is read at the time: a switch of
 * /sys/kernel/debug/sched/preempt during an unload is not covered.
 */
static void skm_hooks_wait_switched(void)
{
	if (preempt_model_preemptible())
		synchronize_rcu_tasks();
	else
		skm_hooks_switch_each_cpu();
}

/*
 * skm_hooks_wait_srcu() - synchronize_srcu(), saying so once if a task
 * stays inside a replacement for 10 s. Every sleep a replacement's read
 * side covers is a memcg charge's reclaim, which ends.
 */
static void skm_hooks_wait_srcu(void)
{
	unsigned long cookie = start_poll_synchronize_srcu(&skm_hook_srcu);
	unsigned long warn_at = jiffies + 10 * HZ;

	while (!poll_state_synchronize_srcu(&skm_hook_srcu, cookie)) {
		if (time_after_eq(jiffies, warn_at)) {
			pr_warn_once("a task has been inside a replacement for 10 s; still waiting\n");
			warn_at = jiffies + 10 * HZ;
		}
		schedule_timeout_uninterruptible(1);
	}
}

/* For the stats file. */
void skm_hooks_show_stats(struct seq_file *m)
{
	unsigned int in, direct;

	mutex_lock(&skm_hooks_lock);
	in = skm_hooks_nr_in;
	direct = skm_hooks_nr_direct;
	mutex_unlock(&skm_hooks_lock);
	seq_printf(m, "hook_entry_direct %d\n", skm_entry_direct);
	seq_printf(m, "hooks_direct %u\n", direct);
	seq_printf(m, "hooks_ops %u\n", in - direct);
}

/**
 * skm_hooks_quiesce() - wait until no task runs a replacement
 *
 * For calls that began before: skm_hooks_wait_switched() sees every task
 * that was in a replacement either leave it or reach a sleep, which it
 * does only with the SRCU read side (skm_hook_may_sleep()); SRCU then
 * waits for those asleep in an original called from a replacement, and
 * skm_hooks_wait_switched() again for the last instructions after. The
 * first wait is needed whenever a policy went off, its hooks in or out:
 * a replacement that saw the policy live takes the read side only later,
 * on its way to a sleep. Callers stop new calls first (skm_hooks_set()).
 */
void skm_hooks_quiesce(void)
{
	skm_hooks_wait_switched();
	skm_hooks_wait_srcu();
	skm_hooks_wait_switched();
}
