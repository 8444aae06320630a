// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU forward-alloc reserve: sizing, idle drain and the per-node bound.
 * The model and the arithmetic are in pcpu_policy.h; this is the glue.
 *
 * Sizing drives the kernel's own net.core.mem_pcpu_rsv (6.1: the global
 * sysctl_mem_pcpu_rsv, found through kallsyms; 6.12: net_hotdata), which the
 * inline sk_memory_allocated_add()/_sub() read on every call. The value found
 * there is saved when skmemcg first writes it and put back when pcpu_rsv
 * returns to "off", "enabled" goes off or the module unloads, unless someone
 * wrote the sysctl since: a later write by the admin wins and stays.
 *
 * One delayed work, the monitor, runs while auto sizing, draining or the
 * node bound is on: every second, or every pcpu_drain_ms / 2 (at least
 * 10 ms) when draining. Each run recomputes the auto size (so a change of
 * tcp_mem is seen within one period), samples every online CPU's TCP and UDP
 * deltas with plain remote reads, and queues the drain work of a CPU that is
 * due on that CPU. No IPI is sent and the fast path is not touched: the
 * drain work runs on its own CPU with bottom halves off, so no softirq user
 * of the same per-CPU variable runs in between, and folds the delta exactly
 * as the kernel's proto_memory_pcpu_drain() does. CPU hotplug kicks the
 * monitor (the auto size depends on the CPU count), and a CPU going down
 * with draining on hands its deltas back first.
 *
 * Lock order: kernel_param_lock -> skm_pcpu_mutex -> cpus_read_lock. The
 * hotplug callbacks and the drain work take none of them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/topology.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <net/udp.h>
#ifdef SKM_HAVE_HOTDATA_PCPU_RSV
#include <net/hotdata.h>
#endif

#include "compat.h"
#include "knobs.h"
#include "ksym.h"
#include "pcpu.h"
#include "pcpu_policy.h"
#include "policies.h"
#include "stats.h"

/*
 * The per-CPU forward-alloc reserve (seed 001; see pcpu_policy.h), in pages:
 * "off" leaves net.core.mem_pcpu_rsv to the kernel and the admin; "auto" (or
 * 0) sizes it as max(1 MB, tcp_mem[2] / online CPUs / pcpu_rsv_divisor);
 * 1..2^20 sets it, below the sysctl's 1 MB floor if asked. Going back to
 * "off", or unloading, restores the sysctl's previous value.
 */
static unsigned int skm_pcpu_rsv __read_mostly = SKM_PCPU_RSV_OFF;

static int skm_pcpu_rsv_knob_parse(const char *buf, unsigned int *val)
{
	u32 v;

	if (skm_pcpu_rsv_parse(buf, &v))
		return -EINVAL;
	if (skm_policies_are_live() && v != SKM_PCPU_RSV_OFF && !skm_pcpu_rsv_settable())
		return -EOPNOTSUPP;
	*val = v;
	return 0;
}

static struct skm_fmt_knob skm_pcpu_rsv_knob = {
	&skm_pcpu_rsv, skm_pcpu_rsv_knob_parse, skm_pcpu_rsv_print,
	skm_pcpu_reconfigure };
module_param_cb(pcpu_rsv, &skm_fmt_ops, &skm_pcpu_rsv_knob, 0644);
MODULE_PARM_DESC(pcpu_rsv,
		 "Per-CPU socket memory reserve: off|auto|pages (0 = auto, 1..1048576; default off)");

/*
 * Auto sizing's divisor: the whole host's uncertainty stays near
 * tcp_mem[2] / divisor. 1..1024.
 */
static unsigned int skm_pcpu_rsv_divisor __read_mostly = 8;
static struct skm_uint_knob skm_pcpu_rsv_divisor_knob = {
	&skm_pcpu_rsv_divisor, 1, 1024, skm_pcpu_reconfigure };
module_param_cb(pcpu_rsv_divisor, &skm_uint_ops, &skm_pcpu_rsv_divisor_knob, 0644);
MODULE_PARM_DESC(pcpu_rsv_divisor,
		 "Auto reserve = max(1 MB, tcp_mem[2] / online CPUs / this) (1..1024, default 8)");

/*
 * A CPU whose TCP or UDP reserve has not moved for this long hands it back
 * to the global counter. In ms, 0 (off) .. 600000.
 */
static unsigned int skm_pcpu_drain_ms __read_mostly;
static struct skm_uint_knob skm_pcpu_drain_ms_knob = {
	&skm_pcpu_drain_ms, 0, 600000, skm_pcpu_reconfigure };
module_param_cb(pcpu_drain_ms, &skm_uint_ops, &skm_pcpu_drain_ms_knob, 0644);
MODULE_PARM_DESC(pcpu_drain_ms,
		 "Drain a CPU's socket memory reserve after this idle time (ms, 0 off, 0..600000, default 0)");

/*
 * Bound the reserves a NUMA node's CPUs hold together to the node's CPU
 * share of tcp_mem[2] / pcpu_rsv_divisor (at least one reserve).
 */
static bool skm_pcpu_numa __read_mostly;

static void skm_pcpu_numa_changed(bool on)
{
	skm_pcpu_reconfigure();
}

static struct skm_bool_knob skm_pcpu_numa_knob = {
	&skm_pcpu_numa, NULL, skm_pcpu_numa_changed };
module_param_cb(pcpu_numa, &skm_bool_ops, &skm_pcpu_numa_knob, 0644);
MODULE_PARM_DESC(pcpu_numa,
		 "Bound each NUMA node's summed socket memory reserves (bool, default N)");

/* tcp_prot's reserve is shared by TCPv6, udp_prot's by UDPv6 and UDP-Lite. */
enum skm_pcpu_proto { SKM_PCPU_TCP, SKM_PCPU_UDP, SKM_PCPU_NPROTO };

static struct proto *const skm_pcpu_protos[SKM_PCPU_NPROTO] = {
	[SKM_PCPU_TCP] = &tcp_prot,
	[SKM_PCPU_UDP] = &udp_prot,
};

/* Monitor period without draining, and its bounds with it. */
#define SKM_PCPU_POLL_MS	1000U
#define SKM_PCPU_POLL_MIN_MS	10U

struct skm_pcpu_cpu {
	struct work_struct drain_work;
	unsigned long idle_mask;	/* protos to drain if still unmoved */
	unsigned long force_mask;	/* protos to drain regardless */
	int seen[SKM_PCPU_NPROTO];	/* delta at the monitor's last sample */
	unsigned long moved_at[SKM_PCPU_NPROTO];	/* jiffies it last changed */
};

static DEFINE_PER_CPU(struct skm_pcpu_cpu, skm_pcpu_cpu);

static DEFINE_MUTEX(skm_pcpu_mutex);
static bool skm_pcpu_live;		/* under skm_pcpu_mutex */
static bool skm_pcpu_driving;		/* we wrote the sysctl last */
static int skm_pcpu_saved;		/* its value before we did */
static int skm_pcpu_applied;		/* what we wrote */
static int skm_pcpu_hp_state = -1;
static int *skm_pcpu_sysctl;		/* the kernel's mem_pcpu_rsv */

static void skm_pcpu_monitor_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(skm_pcpu_monitor, skm_pcpu_monitor_fn);

static int skm_pcpu_delta(unsigned int cpu, enum skm_pcpu_proto p)
{
	return READ_ONCE(*per_cpu_ptr(skm_pcpu_protos[p]->per_cpu_fw_alloc, cpu));
}

static u64 skm_pcpu_hard_limit_pages(enum skm_pcpu_proto p)
{
	return max(READ_ONCE(skm_pcpu_protos[p]->sysctl_mem[2]), 0L);
}

/* Fold this CPU's delta of @p into the global counter. BHs are off. */
static void skm_pcpu_drain_local(enum skm_pcpu_proto p)
{
	struct proto *prot = skm_pcpu_protos[p];
	int delta = this_cpu_xchg(*prot->per_cpu_fw_alloc, 0);

	if (!delta)
		return;
	atomic_long_add(delta, prot->memory_allocated);
	skm_stat_inc(SKM_STAT_PCPU_DRAINS);
	skm_stat_add(SKM_STAT_PCPU_DRAINED_PAGES, abs(delta));
}

static void skm_pcpu_drain_fn(struct work_struct *work)
{
	struct skm_pcpu_cpu *pc = container_of(work, struct skm_pcpu_cpu,
					       drain_work);
	enum skm_pcpu_proto p;

	local_bh_disable();
	/*
	 * A work item whose CPU went offline runs elsewhere; that CPU
	 * drained itself going down, and this one is not the one asked for.
	 */
	if (pc != this_cpu_ptr(&skm_pcpu_cpu)) {
		WRITE_ONCE(pc->idle_mask, 0);
		WRITE_ONCE(pc->force_mask, 0);
		local_bh_enable();
		return;
	}
	for (p = 0; p < SKM_PCPU_NPROTO; p++) {
		bool force = test_and_clear_bit(p, &pc->force_mask);
		bool idle = test_and_clear_bit(p, &pc->idle_mask);

		/* Moved since the monitor looked: not idle after all. */
		if (!force && (!idle ||
			       __this_cpu_read(*skm_pcpu_protos[p]->per_cpu_fw_alloc) !=
			       READ_ONCE(pc->seen[p])))
			continue;
		skm_pcpu_drain_local(p);
	}
	local_bh_enable();
}

static void skm_pcpu_queue_drain(unsigned int cpu, enum skm_pcpu_proto p,
				 bool force)
{
	struct skm_pcpu_cpu *pc = per_cpu_ptr(&skm_pcpu_cpu, cpu);

	set_bit(p, force ? &pc->force_mask : &pc->idle_mask);
	queue_work_on(cpu, skm_system_percpu_wq, &pc->drain_work);
}

/* Drain every online CPU, e.g. after the reserve shrank. Hotplug held off. */
static void skm_pcpu_drain_all(void)
{
	enum skm_pcpu_proto p;
	unsigned int cpu;

	for_each_online_cpu(cpu)
		for (p = 0; p < SKM_PCPU_NPROTO; p++)
			skm_pcpu_queue_drain(cpu, p, true);
}

/* Draining or the node bound is on: the monitor must sample. */
static bool skm_pcpu_sampling(void)
{
	return READ_ONCE(skm_enabled) &&
	       (READ_ONCE(skm_pcpu_drain_ms) || READ_ONCE(skm_pcpu_numa));
}

/* The reserve to apply now, in pages, or 0 for the saved one. Mutex held. */
static u32 skm_pcpu_target_pages(void)
{
	u32 knob = READ_ONCE(skm_pcpu_rsv);

	if (!skm_pcpu_live || !READ_ONCE(skm_enabled) || knob == SKM_PCPU_RSV_OFF)
		return 0;
	if (knob != SKM_PCPU_RSV_AUTO)
		return knob;
	return skm_pcpu_auto_rsv_pages(skm_pcpu_hard_limit_pages(SKM_PCPU_TCP),
				       num_online_cpus(),
				       READ_ONCE(skm_pcpu_rsv_divisor),
				       PAGE_SHIFT);
}

/* Make the sysctl what pcpu_rsv asks for. Mutex and cpus_read_lock held. */
static void skm_pcpu_apply(void)
{
	u32 target = skm_pcpu_target_pages();
	int cur;

	if (!skm_pcpu_sysctl)
		return;
	cur = READ_ONCE(*skm_pcpu_sysctl);
	if (!target) {
		if (!skm_pcpu_driving)
			return;
		skm_pcpu_driving = false;
		if (cur != skm_pcpu_applied) {
			pr_info("net.core.mem_pcpu_rsv left at %d, set outside skmemcg\n",
				cur);
			return;
		}
		WRITE_ONCE(*skm_pcpu_sysctl, skm_pcpu_saved);
		pr_info("net.core.mem_pcpu_rsv restored to %d pages\n",
			skm_pcpu_saved);
		if (skm_pcpu_saved < cur)
			skm_pcpu_drain_all();
		return;
	}
	if (skm_pcpu_driving && target == skm_pcpu_applied)
		return;		/* unchanged; an admin's write since stays */
	if (!skm_pcpu_driving) {
		skm_pcpu_saved = cur;
		skm_pcpu_driving = true;
	} else if (cur != skm_pcpu_applied) {
		skm_pcpu_saved = cur;	/* the admin's value is the one to restore */
	}
	WRITE_ONCE(*skm_pcpu_sysctl, target);
	skm_pcpu_applied = target;
	pr_info("net.core.mem_pcpu_rsv set to %u pages (was %d)\n", target, cur);
	if (target < cur)
		skm_pcpu_drain_all();
}

/* Queue the drain of CPUs whose deltas have been still for the idle period. */
static void skm_pcpu_scan_idle(unsigned long idle_period)
{
	unsigned long now = jiffies;
	enum skm_pcpu_proto p;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		struct skm_pcpu_cpu *pc = per_cpu_ptr(&skm_pcpu_cpu, cpu);

		for (p = 0; p < SKM_PCPU_NPROTO; p++) {
			int delta = skm_pcpu_delta(cpu, p);

			if (delta != pc->seen[p]) {
				WRITE_ONCE(pc->seen[p], delta);
				pc->moved_at[p] = now;
			} else if (skm_pcpu_drain_due(now, pc->moved_at[p],
						      idle_period, delta)) {
				skm_pcpu_queue_drain(cpu, p, false);
			}
		}
	}
}

/* Drain the CPUs of nodes whose summed deltas exceed the node's bound. */
static void skm_pcpu_scan_nodes(void)
{
	u32 rsv = max(READ_ONCE(*skm_pcpu_sysctl), 1);
	u32 divisor = READ_ONCE(skm_pcpu_rsv_divisor);
	u32 online = num_online_cpus();
	enum skm_pcpu_proto p;
	unsigned int cpu;
	int node;

	for_each_online_node(node) {
		const struct cpumask *mask = cpumask_of_node(node);
		u32 node_cpus = cpumask_weight_and(mask, cpu_online_mask);

		for (p = 0; p < SKM_PCPU_NPROTO; p++) {
			u64 sum = 0, bound;

			for_each_cpu_and(cpu, mask, cpu_online_mask)
				sum += abs(skm_pcpu_delta(cpu, p));
			bound = skm_pcpu_node_bound_pages(skm_pcpu_hard_limit_pages(p),
							  divisor, node_cpus,
							  online, rsv);
			for_each_cpu_and(cpu, mask, cpu_online_mask) {
				if (!skm_pcpu_node_drain_cpu(sum, bound, node_cpus,
							     skm_pcpu_delta(cpu, p)))
					continue;
				skm_pcpu_queue_drain(cpu, p, true);
				skm_stat_inc(SKM_STAT_PCPU_NODE_OVER);
			}
		}
	}
}

static unsigned long skm_pcpu_period(unsigned int drain_ms)
{
	unsigned int ms = SKM_PCPU_POLL_MS;

	if (drain_ms)
		ms = clamp(drain_ms / 2, SKM_PCPU_POLL_MIN_MS, SKM_PCPU_POLL_MS);
	return msecs_to_jiffies(ms);
}

/* Apply the size, sample, and requeue while there is anything to watch. */
static void skm_pcpu_update_locked(bool sample)
{
	unsigned int drain_ms = READ_ONCE(skm_pcpu_drain_ms);

	lockdep_assert_held(&skm_pcpu_mutex);
	cpus_read_lock();
	skm_pcpu_apply();
	if (sample && skm_pcpu_sampling()) {
		if (drain_ms)
			skm_pcpu_scan_idle(msecs_to_jiffies(drain_ms));
		if (READ_ONCE(skm_pcpu_numa) && skm_pcpu_sysctl)
			skm_pcpu_scan_nodes();
	}
	cpus_read_unlock();

	if (skm_pcpu_sampling() ||
	    (skm_pcpu_driving && READ_ONCE(skm_pcpu_rsv) == SKM_PCPU_RSV_AUTO))
		mod_delayed_work(skm_system_percpu_wq, &skm_pcpu_monitor,
				 skm_pcpu_period(drain_ms));
}

static void skm_pcpu_monitor_fn(struct work_struct *work)
{
	mutex_lock(&skm_pcpu_mutex);
	if (skm_pcpu_live)
		skm_pcpu_update_locked(true);
	mutex_unlock(&skm_pcpu_mutex);
}

/**
 * skm_pcpu_reconfigure() - apply a change of a pcpu knob or of "enabled"
 *
 * The size takes effect before the writer returns; sampling starts or
 * stops with the next monitor run.
 */
void skm_pcpu_reconfigure(void)
{
	mutex_lock(&skm_pcpu_mutex);
	if (skm_pcpu_live)
		skm_pcpu_update_locked(false);
	mutex_unlock(&skm_pcpu_mutex);
}

/* Whether pcpu_rsv may be set other than "off" on this kernel. */
bool skm_pcpu_rsv_settable(void)
{
	return READ_ONCE(skm_pcpu_sysctl);
}

static int skm_pcpu_cpu_online(unsigned int cpu)
{
	mod_delayed_work(skm_system_percpu_wq, &skm_pcpu_monitor, 0);
	return 0;
}

/* Runs on the CPU going down, in its hotplug thread. */
static int skm_pcpu_cpu_down_prep(unsigned int cpu)
{
	enum skm_pcpu_proto p;

	if (skm_pcpu_sampling()) {
		local_bh_disable();
		for (p = 0; p < SKM_PCPU_NPROTO; p++)
			skm_pcpu_drain_local(p);
		local_bh_enable();
	}
	mod_delayed_work(skm_system_percpu_wq, &skm_pcpu_monitor, 0);
	return 0;
}

static int *skm_pcpu_find_sysctl(void)
{
#ifdef SKM_HAVE_HOTDATA_PCPU_RSV
	return &net_hotdata.sysctl_mem_pcpu_rsv;
#else
	return (int *)skm_ksym_lookup("sysctl_mem_pcpu_rsv");
#endif
}

/**
 * skm_pcpu_init() - find the sysctl, watch CPU hotplug, apply the knobs
 *
 * Return: 0, or a negative errno with nothing left behind. A kernel without
 * net.core.mem_pcpu_rsv (6.1 before 6.1.90) loads, with pcpu_rsv stuck at
 * "off", unless pcpu_rsv was asked for at load.
 */
int skm_pcpu_init(void)
{
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu)
		INIT_WORK(per_cpu_ptr(&skm_pcpu_cpu.drain_work, cpu),
			  skm_pcpu_drain_fn);

	WRITE_ONCE(skm_pcpu_sysctl, skm_pcpu_find_sysctl());
	if (!skm_pcpu_sysctl && READ_ONCE(skm_pcpu_rsv) != SKM_PCPU_RSV_OFF) {
		pr_err("pcpu_rsv: this kernel has no net.core.mem_pcpu_rsv; not loading\n");
		return -EOPNOTSUPP;
	}

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "skmemcg/pcpu:online",
					skm_pcpu_cpu_online,
					skm_pcpu_cpu_down_prep);
	if (ret < 0) {
		pr_err("pcpu: cannot watch CPU hotplug: %d\n", ret);
		return ret;
	}
	skm_pcpu_hp_state = ret;

	mutex_lock(&skm_pcpu_mutex);
	skm_pcpu_live = true;
	skm_pcpu_update_locked(false);
	mutex_unlock(&skm_pcpu_mutex);
	return 0;
}

/**
 * skm_pcpu_exit() - stop sampling, restore the sysctl, wait for the drains
 */
void skm_pcpu_exit(void)
{
	unsigned int cpu;

	mutex_lock(&skm_pcpu_mutex);
	skm_pcpu_live = false;
	mutex_unlock(&skm_pcpu_mutex);

	cpuhp_remove_state_nocalls(skm_pcpu_hp_state);
	cancel_delayed_work_sync(&skm_pcpu_monitor);

	/* Not live: the saved value goes back, if it is still ours to restore. */
	mutex_lock(&skm_pcpu_mutex);
	cpus_read_lock();
	skm_pcpu_apply();
	cpus_read_unlock();
	mutex_unlock(&skm_pcpu_mutex);

	for_each_possible_cpu(cpu)
		flush_work(per_cpu_ptr(&skm_pcpu_cpu.drain_work, cpu));
}

/**
 * skm_pcpu_show_stats() - the reserve in force and what it costs in accuracy
 * @m: the debugfs "stats" file
 */
void skm_pcpu_show_stats(struct seq_file *m)
{
	int rsv = skm_pcpu_sysctl ? READ_ONCE(*skm_pcpu_sysctl) :
				    SKM_PCPU_RSV_FLOOR_BYTES >> PAGE_SHIFT;

	rsv = max(rsv, 0);
	seq_printf(m, "pcpu_rsv_pages %d\n", rsv);
	seq_printf(m, "pcpu_uncertainty_pages %llu\n",
		   skm_pcpu_uncertainty_pages(num_online_cpus(), rsv));
}
