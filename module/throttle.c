// SPDX-License-Identifier: GPL-2.0
/*
 * Socket throttling under memcg pressure (seed 000): the glue between the
 * pure policy in throttle_policy.c and the kernel. See throttle_policy.h for
 * the model.
 *
 * Called from the replacements in sock_hooks.c and memcg_hooks.c, only
 * while the "throttle" knob is on (a static branch there).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/memcontrol.h>
#include <linux/minmax.h>
#include <linux/psi_types.h>
#include <linux/sched/loadavg.h>
#include <net/sock.h>

#include "cglist.h"
#include "hooks.h"
#include "knobs.h"
#include "memcg_state.h"
#include "policies.h"
#include "sock_compat.h"
#include "stats.h"
#include "throttle.h"
#include "throttle_policy.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/*
 * throttle_cgroups (cglist.h): when it lists cgroups, throttling applies to
 * them and their descendants only; empty, to every cgroup.
 */
struct skm_cglist skm_throttle_cgroups =
	SKM_CGLIST_INIT("throttle_cgroups", NULL, skm_policies_apply);

DEFINE_STATIC_KEY_FALSE(skm_throttle_key);

/*
 * Throttle pressure-aware sockets (TCP, MPTCP, SCTP) while their memcg or an
 * ancestor is under pressure (seed 000; see throttle_policy.h). Default off.
 */
static bool skm_throttle __read_mostly;

static struct skm_bool_knob skm_throttle_knob = {
	&skm_throttle, &skm_throttle_key.key, NULL, true,
	SKM_POLICY_BIT(SKM_POLICY_THROTTLE) };
module_param_cb(throttle, &skm_bool_ops, &skm_throttle_knob, 0644);
MODULE_PARM_DESC(throttle,
		 "Throttle pressure-aware sockets of memcgs under pressure (bool, default N)");

/*
 * The pressure level (enum skm_level) from which process-context socket
 * allocations (TX) are throttled: medium or critical. RX in softirq is
 * throttled only at critical whatever this says.
 */
static unsigned int skm_throttle_level __read_mostly = SKM_LEVEL_MEDIUM;

static int skm_throttle_level_parse(const char *buf, unsigned int *val)
{
	enum skm_level level;

	if (skm_level_parse(buf, &level) || level == SKM_LEVEL_NONE)
		return -EINVAL;
	*val = level;
	return 0;
}

static int skm_throttle_level_print(unsigned int val, char *buf, size_t size)
{
	return scnprintf(buf, size, "%s", skm_level_name(val));
}

static struct skm_fmt_knob skm_throttle_level_knob = {
	&skm_throttle_level, skm_throttle_level_parse, skm_throttle_level_print };
module_param_cb(throttle_level, &skm_fmt_ops, &skm_throttle_level_knob, 0644);
MODULE_PARM_DESC(throttle_level,
		 "Level from which process-context socket allocations are throttled: medium|critical (default medium)");

/*
 * Which sources define a memcg's pressure level; the highest level any of
 * them reports wins. Comma-separated: vmpressure, psi, events, headroom.
 */
unsigned int skm_pressure_sources __read_mostly = SKM_SOURCES_ALL;
static struct skm_fmt_knob skm_pressure_sources_knob = {
	&skm_pressure_sources, skm_sources_parse, skm_sources_print };
module_param_cb(pressure_source, &skm_fmt_ops, &skm_pressure_sources_knob, 0644);
MODULE_PARM_DESC(pressure_source,
		 "Pressure sources, comma-separated: vmpressure,psi,events,headroom (default all)");

/* How long a pressure level, once seen, is held: the kernel holds its
 * socket pressure for one second (HZ). In ms, 1..60000.
 */
unsigned int skm_pressure_hold_ms __read_mostly = 1000;
static struct skm_uint_knob skm_pressure_hold_ms_knob = {
	&skm_pressure_hold_ms, 1, 60000 };
module_param_cb(pressure_hold_ms, &skm_uint_ops, &skm_pressure_hold_ms_knob, 0644);
MODULE_PARM_DESC(pressure_hold_ms,
		 "How long a pressure level is held once seen (ms, 1..60000, default 1000)");

/* psi source: medium when the memcg's memory "some" stall share (10 s
 * average) reaches this many percent; 0 turns it off.
 */
static unsigned int skm_psi_some_pct __read_mostly = 10;
static struct skm_uint_knob skm_psi_some_pct_knob = { &skm_psi_some_pct, 0, 100 };
module_param_cb(psi_some_pct, &skm_uint_ops, &skm_psi_some_pct_knob, 0644);
MODULE_PARM_DESC(psi_some_pct,
		 "psi source: medium at this memory 'some' stall share, avg10 (%, 0..100, 0 off, default 10)");

/* psi source: critical when the "full" stall share reaches this many
 * percent; 0 turns it off.
 */
static unsigned int skm_psi_full_pct __read_mostly = 5;
static struct skm_uint_knob skm_psi_full_pct_knob = { &skm_psi_full_pct, 0, 100 };
module_param_cb(psi_full_pct, &skm_uint_ops, &skm_psi_full_pct_knob, 0644);
MODULE_PARM_DESC(psi_full_pct,
		 "psi source: critical at this memory 'full' stall share, avg10 (%, 0..100, 0 off, default 5)");

/* headroom source: the share of memory.max kept for the workload's own
 * allocations; a socket charge reaching into it is critical, one reaching
 * within twice it (or past memory.high) is medium. RX fills up to the
 * reserve, so it must hold the workload's largest transient allocation plus
 * the memcg's per-CPU charge batches: 5% did not, for a workload mapping
 * 4 MiB at a time under a 96 MiB memory.max (throttle_oom: one kill in three
 * runs), hence 10.
 */
unsigned int skm_headroom_pct __read_mostly = 10;
static struct skm_uint_knob skm_headroom_pct_knob = { &skm_headroom_pct, 0, 50 };
module_param_cb(headroom_pct, &skm_uint_ops, &skm_headroom_pct_knob, 0644);
MODULE_PARM_DESC(headroom_pct,
		 "headroom source: share of memory.max kept from sockets; critical inside it, medium within twice it (%, 0..50, default 10)");

/*
 * The cgroups throttling applies to (tenants' cgroups: readable by root
 * only, 0600, unlike the other knobs): when this lists any, only they and
 * their descendants are throttled; empty, every cgroup (the default). Same
 * syntax as exclusive_cgroups, entries may wait for their cgroup.
 */
module_param_cb(throttle_cgroups, &skm_cglist_param_ops, &skm_throttle_cgroups, 0600);
MODULE_PARM_DESC(throttle_cgroups,
		 "Throttle only these cgroups and their descendants: +<path> adds, -<path> removes, existing or not yet (default none: every cgroup)");

/**
 * struct skm_throttle_memcg - throttling's private area of a memcg's state
 * @state: skm_level_pack() of the level held and its expiry
 * @events: memory.events high, max, oom, oom_kill at the last look
 * @vmpr_lock: protects the vmpressure window
 * @vmpr_scanned: pages scanned in the open window
 * @vmpr_reclaimed: pages reclaimed in the open window
 * @throttled: allocations suppressed, per direction
 */
struct skm_throttle_memcg {
	unsigned long state;
	unsigned long events[4];
	spinlock_t vmpr_lock;	/* protects the vmpressure window */
	unsigned long vmpr_scanned;
	unsigned long vmpr_reclaimed;
	atomic_long_t throttled[SKM_DIR_NR];
};

static struct skm_throttle_memcg *skm_throttle_of(struct skm_memcg *sm)
{
	return skm_memcg_priv(sm, SKM_POLICY_THROTTLE);
}

/* A new memcg state: events counted from now on. */
static void skm_throttle_memcg_init(void *priv, struct mem_cgroup *memcg)
{
	struct skm_throttle_memcg *tm = priv;

	spin_lock_init(&tm->vmpr_lock);
	tm->events[0] = atomic_long_read(&memcg->memory_events[MEMCG_HIGH]);
	tm->events[1] = atomic_long_read(&memcg->memory_events[MEMCG_MAX]);
	tm->events[2] = atomic_long_read(&memcg->memory_events[MEMCG_OOM]);
	tm->events[3] = atomic_long_read(&memcg->memory_events[MEMCG_OOM_KILL]);
}

/**
 * skm_memcg_hold() - assert @level on @tm until @now + @hold
 * @tm: the memcg's throttle state
 * @level: the level a source reports now
 * @now: jiffies
 * @hold: how long a level is held, in jiffies
 *
 * A higher level replaces a lower one; the same level is extended. Counts
 * transitions into medium and critical.
 *
 * Return: the level @tm holds at @now afterwards.
 */
static enum skm_level skm_memcg_hold(struct skm_throttle_memcg *tm,
				     enum skm_level level, unsigned long now,
				     unsigned long hold)
{
	unsigned long old = READ_ONCE(tm->state), new;
	enum skm_level held;

	do {
		held = skm_level_unpack(old, now);
		if (level == SKM_LEVEL_NONE || level < held)
			return held;
		new = skm_level_pack(level, now + hold);
		if (new == old)
			return level;
	} while (!try_cmpxchg(&tm->state, &old, new));

	if (level > held)
		skm_stat_inc(level == SKM_LEVEL_CRITICAL ?
			     SKM_STAT_PRESSURE_CRITICAL : SKM_STAT_PRESSURE_MEDIUM);
	return level;
}

/*
 * The quiet fast path (throttle_policy.h): when the traces of the last
 * reclaim pass vmpressure() reported while throttling was on, and every
 * level some memcg holds, have ended, in jiffies. Written only under
 * reclaim or pressure, read per charge. A trace's end is set when it is
 * noted, with the knobs of that moment: pressure_hold_ms or
 * pressure_source changed later do not move it.
 */
unsigned long skm_quiet_after_jiffies;

/* Traces last until @until at least: only ever later, whoever writes. */
static void skm_quiet_extend(unsigned long until)
{
	unsigned long old = READ_ONCE(skm_quiet_after_jiffies);

	do {
		if (skm_jiffies_later(old, until) == old)
			return;
	} while (!try_cmpxchg(&skm_quiet_after_jiffies, &old, until));
}

/* How long a level is held, in jiffies (pressure_hold_ms). */
static unsigned long skm_hold_jiffies(void)
{
	return msecs_to_jiffies(READ_ONCE(skm_pressure_hold_ms));
}

/* Reclaim at @now: traces until the hold, plus psi's settling with psi on. */
static void skm_note_reclaim(unsigned long now)
{
	unsigned long window = skm_hold_jiffies();

	if (READ_ONCE(skm_pressure_sources) & BIT(SKM_SOURCE_PSI))
		window += msecs_to_jiffies(SKM_PSI_SETTLE_MS);
	skm_quiet_extend(now + window);
}

/**
 * skm_throttle_wake() - assume reclaim just happened
 *
 * For when throttling (or the module) comes on: reclaim it did not see may
 * have left traces, so the fast path waits one window.
 */
void skm_throttle_wake(void)
{
	skm_note_reclaim(jiffies);
}

static bool skm_event_new(unsigned long *seen, atomic_long_t *count)
{
	unsigned long now = atomic_long_read(count);

	if (now == READ_ONCE(*seen))
		return false;
	WRITE_ONCE(*seen, now);
	return true;
}

/* The level @memcg's own counters show now, for a charge of @charge pages. */
static enum skm_level skm_memcg_seen(struct mem_cgroup *memcg,
				     struct skm_throttle_memcg *tm,
				     unsigned long charge, unsigned int sources)
{
	enum skm_level level = SKM_LEVEL_NONE;

	if (sources & BIT(SKM_SOURCE_HEADROOM))
		level = skm_headroom_level(page_counter_read(&memcg->memory),
					   charge, READ_ONCE(memcg->memory.high),
					   READ_ONCE(memcg->memory.max),
					   READ_ONCE(skm_headroom_pct));

	if (sources & BIT(SKM_SOURCE_PSI)) {
		struct psi_group *psi = memcg->css.cgroup->psi;

		if (psi)
			level = max(level, skm_psi_level(READ_ONCE(psi->avg[PSI_MEM_SOME][0]),
							 READ_ONCE(psi->avg[PSI_MEM_FULL][0]),
							 READ_ONCE(skm_psi_some_pct),
							 READ_ONCE(skm_psi_full_pct)));
	}

	if ((sources & BIT(SKM_SOURCE_EVENTS)) && tm) {
		bool high = skm_event_new(&tm->events[0],
					  &memcg->memory_events[MEMCG_HIGH]);
		bool max = skm_event_new(&tm->events[1],
					 &memcg->memory_events[MEMCG_MAX]);

		max |= skm_event_new(&tm->events[2], &memcg->memory_events[MEMCG_OOM]);
		max |= skm_event_new(&tm->events[3],
				     &memcg->memory_events[MEMCG_OOM_KILL]);
		level = max(level, skm_events_level(high, max));
	}
	return level;
}

/**
 * skm_throttle_memcg_step() - the level @memcg holds now, seen and held
 *	on its state (skm_throttle_step() when not quiet)
 * @memcg: the socket's memcg or an ancestor, not the root
 * @charge: pages
 * @sources: the walk's pressure sources, a mask of BIT(SKM_SOURCE_*)
 * @now: the walk's jiffies
 * @hold: how long a level is held, jiffies
 *
 * The walk's fields by value: the raise keeps its walk in registers.
 *
 * Return: the level.
 */
enum skm_level skm_throttle_memcg_step(struct mem_cgroup *memcg,
				       unsigned long charge,
				       unsigned int sources,
				       unsigned long now, unsigned long hold)
{
	struct skm_memcg *sm;
	enum skm_level seen;

	/* events compares with the last look, so it needs state */
	if (sources & BIT(SKM_SOURCE_EVENTS))
		sm = skm_memcg_get(memcg, GFP_ATOMIC);
	else
		sm = skm_memcg_find(memcg);
	seen = skm_memcg_seen(memcg, sm ? skm_throttle_of(sm) : NULL, charge,
			      sources);
	if (!sm && seen != SKM_LEVEL_NONE)
		sm = skm_memcg_get(memcg, GFP_ATOMIC);
	if (sm)
		seen = skm_memcg_hold(skm_throttle_of(sm), seen, now, hold);
	if (seen != SKM_LEVEL_NONE)
		skm_quiet_extend(now + hold);
	return seen;
}

/*
 * The level of @memcg and its ancestors with state, for the rare quiet
 * raise that headroom alone found under pressure.
 */
static enum skm_level skm_memcg_level(const struct skm_throttle_walk *w,
				      struct mem_cgroup *memcg,
				      unsigned long charge)
{
	enum skm_level level = SKM_LEVEL_NONE, seen;

	for (; memcg && memcg->css.parent; memcg = parent_mem_cgroup(memcg)) {
		seen = skm_throttle_memcg_step(memcg, charge, w->sources,
					       w->now, w->hold);
		level = max(level, seen);
	}
	return level;
}

/**
 * skm_throttle_end() - the throttle policy's verdict on a raise the quiet
 *	fast path did not settle (skm_throttle_settled())
 * @r: the raise
 * @level: the highest level its walk stepped, every memcg up to the root
 * @quiet: the walk was quiet (headroom alone), and headroom spoke
 * @v: the verdict, filled in if refused
 *
 * The model is throttle_policy.h's skm_raise_decide(); a memcg-exclusive
 * socket is not concerned by the global tcp_mem limits and pressure.
 * Call under the rcu_read_lock() of the walk.
 *
 * Return: true if the allocation is to be suppressed.
 */
bool skm_throttle_end(const struct skm_raise *r, enum skm_level level,
		      bool quiet, struct skm_suppress *v)
{
	struct skm_raise_in in = {
		.pressure_aware = true,
		.softirq = in_softirq(),
		.throttle_level = READ_ONCE(skm_throttle_level),
	};
	struct sock *sk = r->sk;
	struct skm_throttle_walk w;
	struct skm_memcg *sm;
	unsigned int verdict;

	/* quiet, but headroom spoke: every source, with state */
	if (quiet) {
		skm_throttle_snapshot(&w);
		w.quiet = false;
		w.hold = skm_hold_jiffies();
		level = skm_memcg_level(&w, r->memcg, r->amt);
	}
	in.level = level;
	if (!skm_throttle_applies(in.level, in.softirq, in.throttle_level))
		return false;
	if (r->exclusive) {
		in.limits[0] = LONG_MAX;
		in.limits[1] = LONG_MAX;
		in.limits[2] = LONG_MAX;
	} else {
		in.allocated = sk_memory_allocated(sk) + r->amt;
		in.limits[0] = sk_prot_mem_limits(sk, 0);
		in.limits[1] = sk_prot_mem_limits(sk, 1);
		in.limits[2] = sk_prot_mem_limits(sk, 2);
	}
	in.below_min = skm_sk_below_min(sk, r->kind);
	verdict = skm_raise_decide(in);
	if (!(verdict & SKM_RAISE_THROTTLE))
		return false;

	sm = skm_memcg_find(r->memcg);
	*v = (struct skm_suppress){
		.reason = SKM_SUPPRESS_PRESSURE,
		.level = in.level,
		.at = r->memcg,
		.count = sm ? &skm_throttle_of(sm)->throttled[r->dir] : NULL,
		.stat = r->dir == SKM_DIR_TX ? SKM_STAT_THROTTLED_TX :
					       SKM_STAT_THROTTLED_RX,
		.park = true,
	};
	if (!r->exclusive) {
		if (verdict & SKM_RAISE_LEAVE_PRESSURE)
			v->pressure |= SKM_SUPPRESS_LEAVE_PRESSURE;
		if (verdict & SKM_RAISE_ENTER_PRESSURE)
			v->pressure |= SKM_SUPPRESS_ENTER_PRESSURE;
	}
	return true;
}

/**
 * skm_throttle_vmpressure() - feed a reclaim result to the vmpressure source
 * @gfp: reclaim context, as vmpressure() gets it
 * @memcg: the memcg reclaimed from
 * @tree: vmpressure()'s subtree accounting; only the memcg's own counts
 * @scanned: pages scanned
 * @reclaimed: pages reclaimed
 *
 * The same filter and window as vmpressure() for memcg->socket_pressure, on
 * our own counters: the kernel's are left as they are.
 */
void skm_throttle_vmpressure(gfp_t gfp, struct mem_cgroup *memcg, bool tree,
			     unsigned long scanned, unsigned long reclaimed)
{
	unsigned long hold = skm_hold_jiffies();
	enum skm_level level = SKM_LEVEL_NONE;
	unsigned long now = jiffies;
	struct skm_memcg *sm;

	skm_note_reclaim(now);		/* any pass, before any filter */
	if (tree || !scanned || !memcg || !memcg->css.parent ||
	    !(gfp & (__GFP_HIGHMEM | __GFP_MOVABLE | __GFP_IO | __GFP_FS)) ||
	    !(READ_ONCE(skm_pressure_sources) & BIT(SKM_SOURCE_VMPRESSURE)))
		return;

	rcu_read_lock();
	sm = skm_memcg_get(memcg, GFP_NOWAIT);
	if (sm) {
		struct skm_throttle_memcg *tm = skm_throttle_of(sm);

		spin_lock(&tm->vmpr_lock);
		tm->vmpr_scanned += scanned;
		tm->vmpr_reclaimed += reclaimed;
		if (tm->vmpr_scanned >= SKM_VMPRESSURE_WIN) {
			level = skm_vmpressure_level(tm->vmpr_scanned,
						     tm->vmpr_reclaimed);
			tm->vmpr_scanned = 0;
			tm->vmpr_reclaimed = 0;
		}
		spin_unlock(&tm->vmpr_lock);
		if (skm_memcg_hold(tm, level, now, hold) != SKM_LEVEL_NONE)
			skm_quiet_extend(now + hold);
	}
	rcu_read_unlock();
}

/* Its columns of "cgroups": the level held, ms until it expires, and the
 * allocations it suppressed, TX and RX.
 */
static void skm_throttle_show_cgroup(struct seq_file *m, struct cgroup *cgrp,
				     void *priv)
{
	struct skm_throttle_memcg *tm = priv;
	unsigned long state = READ_ONCE(tm->state), now = jiffies;
	long left = skm_level_expires_in(state, now);

	seq_printf(m, " %s %u %ld %ld",
		   skm_level_name(skm_level_unpack(state, now)),
		   left > 0 ? jiffies_to_msecs(left) : 0,
		   atomic_long_read(&tm->throttled[SKM_DIR_TX]),
		   atomic_long_read(&tm->throttled[SKM_DIR_RX]));
}

static bool skm_throttle_wanted(void)
{
	return READ_ONCE(skm_throttle);
}

/*
 * Its hooks: the charges it suppresses (sock_hooks.c, sock_charge.c),
 * vmpressure() as a pressure source, and for throttle_cgroups and the
 * per-memcg state a cgroup's coming (waiting entries) and going.
 */
static const enum skm_hook_id skm_throttle_hooks[] = {
	SKM_HOOK_RAISE,
	SKM_HOOK_CHARGE,
	SKM_HOOK_VMPRESSURE,
	SKM_HOOK_CSS_ONLINE,
	SKM_HOOK_CSS_FREE,
};

const struct skm_policy skm_policy_throttle = {
	.name = "throttle",
	.id = SKM_POLICY_THROTTLE,
	.hooks = skm_throttle_hooks,
	.nr_hooks = ARRAY_SIZE(skm_throttle_hooks),
	.cglist = &skm_throttle_cgroups,
	.memcg_size = sizeof(struct skm_throttle_memcg),
	.memcg_init = skm_throttle_memcg_init,
	.wanted = skm_throttle_wanted,
	/* reclaim it missed while off: no fast path yet */
	.prepare = skm_throttle_wake,
	.cgroup_header = " level expires_ms throttled_tx throttled_rx",
	.show_cgroup = skm_throttle_show_cgroup,
};
