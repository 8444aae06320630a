// SPDX-License-Identifier: GPL-2.0
/*
 * skmemcg: memory-pressure policies for cgroup v2 sockets and reclaim,
 * for stock distribution kernels, as a module.
 *
 * Load order: check the kernel, find kallsyms, resolve every hook, apply the
 * knobs given at load (installing the hooks of the policies they turn on,
 * all or nothing), size the per-CPU reserve, then publish debugfs. Unload
 * reverses it and returns only when no task can still run our code.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/security.h>
#include <linux/utsname.h>

#include "compat.h"
#include "debugfs.h"
#include "drift.h"
#include "exclusive.h"
#include "hook_time.h"
#include "hooks.h"
#include "knobs.h"
#include "ksym.h"
#include "limit.h"
#include "memcg_hooks.h"
#include "memcg_state.h"
#include "pcpu.h"
#include "policies.h"
#include "reclaim.h"
#include "sndpark.h"
#include "sock_charge.h"
#include "sock_hooks.h"
#include "stats.h"
#include "throttle.h"

/*
 * Each hooked kernel function with its replacement, indexed by its id
 * (hook_id.h): the one place a hooked symbol is spelled. Which policies
 * need which hook is in the policies' own lists (struct skm_policy, each
 * in its <policy>.c); hooks.c installs per policy.
 */
static struct skm_hook skm_hooks[] = {
	[SKM_HOOK_RAISE] = SKM_HOOK("__sk_mem_raise_allocated",
				    skm_sk_mem_raise_allocated,
				    &skm_sk_mem_raise_allocated_orig),
	[SKM_HOOK_REDUCE] = SKM_HOOK("__sk_mem_reduce_allocated",
				     skm_sk_mem_reduce_allocated,
				     &skm_sk_mem_reduce_allocated_orig),
	[SKM_HOOK_CHARGE] = SKM_HOOK(SKM_SK_CHARGE_SYM, skm_mem_cgroup_charge_skmem,
				     &skm_mem_cgroup_charge_skmem_orig),
	[SKM_HOOK_FORCED] = SKM_HOOK("sk_forced_mem_schedule",
				     skm_sk_forced_mem_schedule,
				     &skm_sk_forced_mem_schedule_orig),
	[SKM_HOOK_SK_ALLOC] = SKM_HOOK("mem_cgroup_sk_alloc", skm_mem_cgroup_sk_alloc,
				       &skm_mem_cgroup_sk_alloc_orig),
	[SKM_HOOK_SK_FREE] = SKM_HOOK("mem_cgroup_sk_free", skm_mem_cgroup_sk_free,
				      &skm_mem_cgroup_sk_free_orig),
	[SKM_HOOK_VMPRESSURE] = SKM_HOOK("vmpressure", skm_vmpressure,
					 &skm_vmpressure_orig),
	/* Frees our state of a memcg: whatever made it */
	[SKM_HOOK_CSS_FREE] = SKM_HOOK("mem_cgroup_css_free", skm_mem_cgroup_css_free,
				       &skm_mem_cgroup_css_free_orig),
	/* Waiting list entries take effect (cglist.h) */
	[SKM_HOOK_CSS_ONLINE] = SKM_HOOK("mem_cgroup_css_online",
					 skm_mem_cgroup_css_online,
					 &skm_mem_cgroup_css_online_orig),
	/* Also called by exclusive accounting, hooked or not */
	[SKM_HOOK_UNCHARGE] = SKM_HOOK(SKM_SK_UNCHARGE_SYM,
				       skm_mem_cgroup_uncharge_skmem,
				       &skm_mem_cgroup_uncharge_skmem_orig),
#ifdef SKM_FAMILY_7_3
	/* Both LRUs (module/vmscan_compat.h) */
	[SKM_HOOK_MEMCG_SIZE] = SKM_HOOK(SKM_RECLAIM_SIZE_SYM,
					 skm_apply_proportional_protection,
					 &skm_apply_proportional_protection_orig),
#else
	[SKM_HOOK_MEMCG_SIZE] = SKM_HOOK(SKM_RECLAIM_SIZE_SYM, skm_mem_cgroup_size,
					 &skm_mem_cgroup_size_orig),
	[SKM_HOOK_EVICT] = SKM_HOOK("evict_folios", skm_evict_folios,
				    &skm_evict_folios_orig),
#endif
};

/* The policies, in the order of their ids (policy_list.h). */
#define skm_policy_ref(name)	(&skm_policy_##name)
#define SKM_POLICY(ID, name)	skm_policy_ref(name),
const struct skm_policy *const skm_policy_table[SKM_POLICY_NR] = {
#include "policy_list.h"
};

#undef SKM_POLICY

/*
 * Master switch, default on. When off, nothing is hooked: every function
 * runs the kernel's own code at no cost, memcg-exclusive sockets become
 * ordinary ones (their pages back in the global counter) and the per-memcg
 * state is freed, as unloading does; the knobs keep their values.
 */
static void skm_enabled_changed(bool on)
{
	skm_pcpu_reconfigure();
	skm_policies_enabled_changed(on);
}

static struct skm_bool_knob skm_enabled_knob = {
	&skm_enabled, NULL, skm_enabled_changed, true };
module_param_cb(enabled, &skm_bool_ops, &skm_enabled_knob, 0644);
MODULE_PARM_DESC(enabled,
		 "Master switch: N passes every hooked call to the kernel's own function (bool, default Y)");

/*
 * Instrumentation for benchmarks, default off: count calls of
 * __sk_mem_raise_allocated() and __sk_mem_reduce_allocated() in "stats",
 * time the memcg-exclusive lookup, and time every replacement and the
 * kernel's original inside it into the "hook_times" file (hook_time.c).
 * Each write of Y clears hook_times. Costs a few clock reads and per-CPU
 * additions per hooked call while on, one static branch while off.
 */
static bool skm_instrument __read_mostly;

static void skm_instrument_changed(bool on)
{
	if (on)
		skm_hook_times_reset();
}

static struct skm_bool_knob skm_instrument_knob = {
	&skm_instrument, &skm_instrument_key.key, skm_instrument_changed };
module_param_cb(instrument, &skm_bool_ops, &skm_instrument_knob, 0644);
MODULE_PARM_DESC(instrument,
		 "Count and time hooked calls in debugfs stats and hook_times (bool, default N)");

static int __init skmemcg_init(void)
{
	int ret;

#ifndef SKM_KERNEL_FAMILY
	pr_err("kernel %s is not supported (supported: %s); not loading\n",
	       init_utsname()->release, SKM_KERNELS_SUPPORTED);
	return -EOPNOTSUPP;
#endif
	ret = skm_ksym_init();
	if (ret)
		return ret;
	/* Every hook id and every policy id has its entry. */
	BUILD_BUG_ON(ARRAY_SIZE(skm_hooks) != SKM_HOOK_NR);
	BUILD_BUG_ON(ARRAY_SIZE(skm_policy_table) != SKM_POLICY_NR);
	skm_policies_register(skm_policy_table, ARRAY_SIZE(skm_policy_table));
	ret = skm_memcg_state_init(skm_policy_table, ARRAY_SIZE(skm_policy_table));
	if (ret)
		return ret;
	ret = skm_hooks_init(skm_hooks, ARRAY_SIZE(skm_hooks), skm_policy_table,
			     ARRAY_SIZE(skm_policy_table));
	if (ret)
		return ret;
	/* What the policies claim about this kernel: refuses those it must. */
	ret = skm_drift_init(skm_hooks, ARRAY_SIZE(skm_hooks));
	if (ret)
		return ret;
	ret = skm_hook_time_init();
	if (ret)
		return ret;
	skm_reclaim_init();
	ret = skm_excl_init();
	if (ret)
		goto out_hook_time;
	/* Hooks what the knobs given at load turn on, all or nothing. */
	ret = skm_knobs_go_live();
	if (ret)
		goto out_hooks;
	ret = skm_pcpu_init();
	if (ret)
		goto out_live;

	skm_debugfs_init();
	pr_info("loaded on %s: %u hooks installed, enabled=%d\n",
		init_utsname()->release, skm_hooks_installed(),
		READ_ONCE(skm_enabled));
	/* Secure Boot's lockdown (integrity) refuses writable debugfs files. */
	if (security_locked_down(LOCKDOWN_DEBUGFS))
		pr_info("kernel is locked down: debugfs knobs are refused; tune through /sys/module/%s/parameters\n",
			KBUILD_MODNAME);
	return 0;

out_live:
	skm_knobs_go_dead();
	skm_hooks_quiesce();
	skm_memcg_free_all();
out_hooks:
	skm_hooks_exit();
	skm_sndpark_exit();
	skm_excl_exit();
out_hook_time:
	skm_hook_time_exit();
	return ret;
}
module_init(skmemcg_init);

static u64 skm_ms_since(u64 *t_ns)
{
	u64 then = *t_ns;

	*t_ns = ktime_get_ns();
	return div_u64(*t_ns - then, NSEC_PER_MSEC);
}

/*
 * The log line says where an unload waited: taking the hooks out (ftrace's
 * grace periods), waiting out the tasks still in a replacement, the rest.
 */
static void __exit skmemcg_exit(void)
{
	u64 t_ns = ktime_get_ns(), unhook_ms, quiesce_ms;

	skm_debugfs_exit();
	skm_knobs_go_dead();
	unhook_ms = skm_ms_since(&t_ns);
	skm_hooks_quiesce();
	quiesce_ms = skm_ms_since(&t_ns);
	skm_hooks_exit();
	skm_sndpark_exit();
	skm_pcpu_exit();
	skm_excl_exit();
	skm_memcg_free_all();
	skm_hook_time_exit();
	pr_info("unloaded: unhooking %llu ms, quiescing %llu ms, the rest %llu ms\n",
		unhook_ms, quiesce_ms, skm_ms_since(&t_ns));
}
module_exit(skmemcg_exit);

MODULE_AUTHOR("skmemcg developers");
MODULE_DESCRIPTION("Memory-pressure policies for cgroup v2 sockets and reclaim");
MODULE_LICENSE("GPL");
MODULE_VERSION(SKMEMCG_VERSION);
