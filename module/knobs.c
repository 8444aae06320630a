// SPDX-License-Identifier: GPL-2.0
/*
 * skmemcg's knobs.
 *
 * Every knob is a module parameter with a validating setter: it can be given
 * to modprobe, written at /sys/module/skmemcg/parameters/<name> (which keeps
 * working when the kernel is locked down) and, through debugfs.c, at
 * /sys/kernel/debug/skmemcg/<name>. All three paths call the same setter under
 * kernel_param_lock(), so the parameter variable is the one source of truth.
 * A setter refuses bad input with -EINVAL and leaves the value as it was.
 *
 * Setters run before module init for values given at load; side effects that
 * need the module running (static keys) are applied by skm_knobs_go_live().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cache.h>
#include <linux/moduleparam.h>
#include <linux/cgroup.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "cglist.h"
#include "drift.h"
#include "exclusive.h"
#include "hook_time.h"
#include "hooks.h"
#include "knobs.h"
#include "limit.h"
#include "memcg_state.h"
#include "parse.h"
#include "pcpu.h"
#include "pcpu_policy.h"
#include "reclaim_policy.h"
#include "throttle.h"
#include "throttle_policy.h"

DEFINE_STATIC_KEY_FALSE(skm_instrument_key);
DEFINE_STATIC_KEY_FALSE(skm_throttle_key);
DEFINE_STATIC_KEY_FALSE(skm_reclaim_key);

static bool skm_live;

static void skm_key_set(struct static_key *key, bool on)
{
	if (on)
		static_key_enable(key);
	else
		static_key_disable(key);
}

/* The policies the knobs turn on (a mask of SKM_POLICY_BIT()s). */
static unsigned int skm_policies_wanted(void)
{
	unsigned int policies = 0;

	if (!READ_ONCE(skm_enabled))
		return 0;
	if (READ_ONCE(skm_throttle))
		policies |= SKM_POLICY_BIT(SKM_POLICY_THROTTLE);
	if (READ_ONCE(skm_exclusive) || skm_excl_cgroups_listed_any())
		policies |= SKM_POLICY_BIT(SKM_POLICY_EXCLUSIVE);
	if (READ_ONCE(skm_reclaim_policy) != SKM_RECLAIM_KERNEL)
		policies |= SKM_POLICY_BIT(SKM_POLICY_RECLAIM);
	if (skm_cglist_any(&skm_sock_limits))
		policies |= SKM_POLICY_BIT(SKM_POLICY_LIMIT);
	return policies;
}

/* The policies with a cgroup list: they hook mem_cgroup_css_online(). */
#define SKM_POLICIES_LISTED	(SKM_POLICY_BIT(SKM_POLICY_THROTTLE) |	\
				 SKM_POLICY_BIT(SKM_POLICY_EXCLUSIVE) |	\
				 SKM_POLICY_BIT(SKM_POLICY_LIMIT))

/* The cgroup lists (cglist.h), for what concerns them all. */
static struct skm_cglist *const skm_cglists[] = {
	&skm_excl_cgroups, &skm_throttle_cgroups, &skm_sock_limits,
};

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
	int i;

	for (i = 0; i < ARRAY_SIZE(skm_cglists); i++) {
		if (skm_cglist_any(skm_cglists[i]))
			break;
	}
	if (i == ARRAY_SIZE(skm_cglists))
		return;
	mutex_lock(&path_lock);
	if (skm_cgroup_path(cgrp, path, sizeof(path)) >= 0) {
		for (i = 0; i < ARRAY_SIZE(skm_cglists); i++)
			skm_cglist_online(skm_cglists[i], cgrp, path);
	}
	mutex_unlock(&path_lock);
}

/* Look every list's entries up again (skm_cglist_resolve()). */
static void skm_cglists_resolve(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(skm_cglists); i++)
		skm_cglist_resolve(skm_cglists[i]);
}

/**
 * skm_cglists_gone() - a cgroup's memcg is being freed
 * @cgrp: the cgroup
 *
 * Its entries wait for a cgroup of their path again.
 */
void skm_cglists_gone(struct cgroup *cgrp)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(skm_cglists); i++)
		skm_cglist_gone(skm_cglists[i], cgroup_id(cgrp));
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

/* The policies the knobs asked for at the last transition, refused or not. */
static unsigned int skm_wanted_last;

/*
 * @strict: a setter's transition, which fails with -EOPNOTSUPP when all it
 * would turn on is refused by the drift guard (drift.c); at load, such
 * policies stay off with a line in the log, and the load goes on.
 */
static int __skm_policies_apply(const char *context, bool strict)
{
	unsigned int old = READ_ONCE(skm_hooks_live), want, on, off, asked;
	unsigned int refused;
	int ret;

	lockdep_assert_held(&skm_apply_lock);
	if (!skm_live)
		return 0;
	asked = skm_policies_wanted();
	/* The bodies they rest on, read again (drift.c) */
	refused = skm_drift_recheck(asked & ~old);
	if (asked & refused & ~skm_wanted_last) {
		bool only_refused = !(asked & ~refused & ~skm_wanted_last);

		skm_drift_report(asked & refused & ~skm_wanted_last,
				 strict && only_refused ? context : "left off");
		if (strict && only_refused)
			return -EOPNOTSUPP;
	}
	want = asked & ~refused;
	on = want & ~old;
	/*
	 * While a policy with a list is on, its hooks keep the entries right
	 * (css_online, css_free); while none was, cgroups came and went
	 * unseen: look every entry up again, before the hooks go live and
	 * after (a cgroup made in between).
	 */
	if (on & SKM_POLICIES_LISTED)
		skm_cglists_resolve();
	/* Uncharges went uncounted while the limit was off: count anew. */
	if (on & SKM_POLICY_BIT(SKM_POLICY_LIMIT))
		skm_cglist_reset_usage(&skm_sock_limits);
	ret = skm_hooks_set(want, context);
	if (ret)
		return ret;
	skm_wanted_last = asked;
	if (on & SKM_POLICIES_LISTED)
		skm_cglists_resolve();
	off = old & ~want;
	if (!off || (!(off & SKM_POLICY_BIT(SKM_POLICY_EXCLUSIVE)) && want))
		return 0;
	skm_hooks_quiesce();
	if (off & SKM_POLICY_BIT(SKM_POLICY_EXCLUSIVE))
		skm_excl_release_all();
	if (!want)
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
 * off leaves no state behind: memcg-exclusive sockets become ordinary
 * (their pages back in the global counter) and, once nothing is on, every
 * memcg's state is freed, each after no task can still be in a replacement.
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

/*
 * A bool knob that switches a static key, so that code it turns off costs
 * one patched branch. The key follows the value once the module is live.
 */
struct skm_bool_knob {
	bool *val;
	struct static_key *key;
	void (*changed)(bool on);
	bool policy;		/* turns a policy on or off: skm_policies_apply() */
	unsigned int key_policies; /* the key stays off while the drift guard refuses these */
};

/*
 * The value @knob's key takes for @on: off while the drift guard refuses
 * the policy it gates, whose code shared replacements would otherwise run.
 */
static bool skm_key_value(const struct skm_bool_knob *knob, bool on)
{
	return on && !(skm_drift_refused() & knob->key_policies);
}

static int skm_param_set_bool(const char *val, const struct kernel_param *kp)
{
	const struct skm_bool_knob *knob = kp->arg;
	bool on;
	int ret = skm_parse_bool(val, &on);

	bool old;

	if (ret)
		return ret;
	old = READ_ONCE(*knob->val);
	WRITE_ONCE(*knob->val, on);
	if (skm_live && knob->key)
		skm_key_set(knob->key, skm_key_value(knob, on));
	if (knob->policy) {
		ret = skm_policies_apply("left as it was");
		if (ret && READ_ONCE(*knob->val) == on) {
			WRITE_ONCE(*knob->val, old);
			if (skm_live && knob->key)
				skm_key_set(knob->key, skm_key_value(knob, old));
		}
		if (ret)
			return ret;
	}
	if (skm_live && knob->changed)
		knob->changed(on);
	return 0;
}

static int skm_param_get_bool(char *buf, const struct kernel_param *kp)
{
	const struct skm_bool_knob *knob = kp->arg;

	return sprintf(buf, "%c\n", READ_ONCE(*knob->val) ? 'Y' : 'N');
}

static const struct kernel_param_ops skm_bool_ops = {
	.set = skm_param_set_bool,
	.get = skm_param_get_bool,
};

/* An unsigned int knob with an inclusive range, checked by its setter. */
struct skm_uint_knob {
	unsigned int *val;
	unsigned int min;
	unsigned int max;
	void (*changed)(void);
};

static int skm_param_set_uint(const char *val, const struct kernel_param *kp)
{
	const struct skm_uint_knob *knob = kp->arg;
	unsigned int v;
	int ret = skm_parse_uint_range(val, knob->min, knob->max, &v);

	if (ret)
		return ret;
	WRITE_ONCE(*knob->val, v);
	if (skm_live && knob->changed)
		knob->changed();
	return 0;
}

static int skm_param_get_uint(char *buf, const struct kernel_param *kp)
{
	const struct skm_uint_knob *knob = kp->arg;

	return sprintf(buf, "%u\n", READ_ONCE(*knob->val));
}

static const struct kernel_param_ops skm_uint_ops = {
	.set = skm_param_set_uint,
	.get = skm_param_get_uint,
};

/*
 * Master switch, default on. When off, nothing is hooked: every function
 * runs the kernel's own code at no cost, memcg-exclusive sockets become
 * ordinary ones (their pages back in the global counter) and the per-memcg
 * state is freed, as unloading does; the knobs keep their values.
 */
bool skm_enabled __read_mostly = true;

static void skm_enabled_changed(bool on)
{
	skm_pcpu_reconfigure();
	if (on)
		skm_throttle_wake();
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
bool skm_instrument __read_mostly;

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

/*
 * Test only: pretend these kernel symbols (comma-separated) cannot be
 * resolved, to prove that a missing symbol makes the load fail cleanly. Load
 * time only, no sysfs file.
 */
char *skm_test_missing_symbol;
module_param_named(test_missing_symbol, skm_test_missing_symbol, charp, 0);
MODULE_PARM_DESC(test_missing_symbol,
		 "Test only: treat these symbols as missing at load (comma-separated names)");

/*
 * Test only: make installing the hook of this symbol fail after the hooks
 * before it were installed, to prove the rollback. Load time only.
 */
char *skm_test_fail_install;
module_param_named(test_fail_install, skm_test_fail_install, charp, 0);
MODULE_PARM_DESC(test_fail_install,
		 "Test only: fail installing the hook of this symbol at load (string)");

/*
 * Throttle pressure-aware sockets (TCP, MPTCP, SCTP) while their memcg or an
 * ancestor is under pressure (seed 000; see throttle_policy.h). Default off.
 */
bool skm_throttle __read_mostly;

static void skm_throttle_changed(bool on)
{
	if (on)
		skm_throttle_wake();	/* reclaim it missed: no fast path yet */
}

static struct skm_bool_knob skm_throttle_knob = {
	&skm_throttle, &skm_throttle_key.key, skm_throttle_changed, true,
	SKM_POLICY_BIT(SKM_POLICY_THROTTLE) };
module_param_cb(throttle, &skm_bool_ops, &skm_throttle_knob, 0644);
MODULE_PARM_DESC(throttle,
		 "Throttle pressure-aware sockets of memcgs under pressure (bool, default N)");

/*
 * A knob whose value is written and read as text: a name, a list. Its
 * parse() must refuse anything it does not fully understand with -EINVAL
 * and write the value only on success; print() returns the length written.
 */
struct skm_fmt_knob {
	unsigned int *val;
	int (*parse)(const char *buf, unsigned int *val);
	int (*print)(unsigned int val, char *buf, size_t size);
	void (*changed)(void);
	bool policy;		/* turns a policy on or off: skm_policies_apply() */
};

static int skm_param_set_fmt(const char *val, const struct kernel_param *kp)
{
	const struct skm_fmt_knob *knob = kp->arg;
	unsigned int v, old;
	int ret = knob->parse(val, &v);

	if (ret)
		return ret;
	old = READ_ONCE(*knob->val);
	WRITE_ONCE(*knob->val, v);
	if (skm_live && knob->changed)
		knob->changed();
	if (knob->policy) {
		ret = skm_policies_apply("left as it was");
		if (ret && READ_ONCE(*knob->val) == v) {
			WRITE_ONCE(*knob->val, old);
			if (skm_live && knob->changed)
				knob->changed();
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int skm_param_get_fmt(char *buf, const struct kernel_param *kp)
{
	const struct skm_fmt_knob *knob = kp->arg;
	int len = knob->print(READ_ONCE(*knob->val), buf, PAGE_SIZE - 1);

	buf[len++] = '\n';
	buf[len] = '\0';
	return len;
}

static const struct kernel_param_ops skm_fmt_ops = {
	.set = skm_param_set_fmt,
	.get = skm_param_get_fmt,
};

/*
 * The pressure level (enum skm_level) from which process-context socket
 * allocations (TX) are throttled: medium or critical. RX in softirq is
 * throttled only at critical whatever this says.
 */
unsigned int skm_throttle_level __read_mostly = SKM_LEVEL_MEDIUM;

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
unsigned int skm_psi_some_pct __read_mostly = 10;
static struct skm_uint_knob skm_psi_some_pct_knob = { &skm_psi_some_pct, 0, 100 };
module_param_cb(psi_some_pct, &skm_uint_ops, &skm_psi_some_pct_knob, 0644);
MODULE_PARM_DESC(psi_some_pct,
		 "psi source: medium at this memory 'some' stall share, avg10 (%, 0..100, 0 off, default 10)");

/* psi source: critical when the "full" stall share reaches this many
 * percent; 0 turns it off.
 */
unsigned int skm_psi_full_pct __read_mostly = 5;
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
 * The three cgroup lists name tenants' cgroups, and so are readable by
 * root only (0600), unlike the other knobs.
 *
 * The cgroups throttling applies to: when this lists any, only they and
 * their descendants are throttled; empty, every cgroup (the default). Same
 * syntax as exclusive_cgroups, entries may wait for their cgroup.
 */
module_param_cb(throttle_cgroups, &skm_cglist_param_ops, &skm_throttle_cgroups, 0600);
MODULE_PARM_DESC(throttle_cgroups,
		 "Throttle only these cgroups and their descendants: +<path> adds, -<path> removes, existing or not yet (default none: every cgroup)");

/*
 * A socket memory limit per cgroup (limit_policy.h), as cgroup v1's
 * memory.kmem.tcp.limit_in_bytes: "+<path>=<size>" sets or changes one
 * (bytes, with K/M/G/T), "-<path>" removes it; reading lists
 * "+<path>=<bytes>" lines. The socket pages of the cgroup and its
 * descendants stay at the limit, plus one minimum buffer per socket. The
 * first limit hooks the socket charges (SKM_POLICY_LIMIT).
 */
module_param_cb(sock_limits, &skm_cglist_param_ops, &skm_sock_limits, 0600);
MODULE_PARM_DESC(sock_limits,
		 "Socket memory limit of a cgroup and its descendants: +<path>=<size>[KMGT] sets, -<path> removes, existing or not yet (default none)");

/*
 * memcg-exclusive socket accounting (seed 002; see exclusive_policy.h), the
 * global default: sockets whose memcg is bound while it is on are charged to
 * their memcg only. Per cgroup: exclusive_cgroups below. Default off.
 */
bool skm_exclusive __read_mostly;
static struct skm_bool_knob skm_exclusive_knob = {
	&skm_exclusive, NULL, NULL, true };
module_param_cb(exclusive, &skm_bool_ops, &skm_exclusive_knob, 0644);
MODULE_PARM_DESC(exclusive,
		 "New sockets of every memcg are charged to the memcg only, not tcp_mem (bool, default N)");

/*
 * The cgroups whose sockets (and their descendants') are memcg-exclusive
 * whatever "exclusive" says: each write is one update, "+<path>" adds,
 * "-<path>" removes; reading lists "+<path>" lines, " waiting" after those
 * whose cgroup does not exist (yet). A path may name a cgroup not made yet:
 * the entry waits for it (cglist.h). Shared with the debugfs file of the
 * same name, which has its own file operations (no page limit on reads,
 * embedded NULs refused).
 */
module_param_cb(exclusive_cgroups, &skm_cglist_param_ops, &skm_excl_cgroups, 0600);
MODULE_PARM_DESC(exclusive_cgroups,
		 "Add (+<path>) or remove (-<path>) a memcg-exclusive cgroup, existing or not yet; repeat at load for several (default none)");

/*
 * The host's backstop for exclusive sockets: while the protocol's global
 * counter plus exclusive pages exceeds tcp_mem[2] x this / 100, exclusive
 * sockets are suppressed as if over the hard limit. 0 turns it off.
 */
unsigned int skm_exclusive_backstop_pct __read_mostly = 200;
static struct skm_uint_knob skm_exclusive_backstop_pct_knob = {
	&skm_exclusive_backstop_pct, 0, 10000 };
module_param_cb(exclusive_backstop_pct, &skm_uint_ops,
		&skm_exclusive_backstop_pct_knob, 0644);
MODULE_PARM_DESC(exclusive_backstop_pct,
		 "Cap on global + exclusive socket pages, in % of tcp_mem[2] (0..10000, 0 off, default 200)");

/*
 * The per-CPU forward-alloc reserve (seed 001; see pcpu_policy.h), in pages:
 * "off" leaves net.core.mem_pcpu_rsv to the kernel and the admin; "auto" (or
 * 0) sizes it as max(1 MB, tcp_mem[2] / online CPUs / pcpu_rsv_divisor);
 * 1..2^20 sets it, below the sysctl's 1 MB floor if asked. Going back to
 * "off", or unloading, restores the sysctl's previous value.
 */
unsigned int skm_pcpu_rsv __read_mostly = SKM_PCPU_RSV_OFF;

static int skm_pcpu_rsv_knob_parse(const char *buf, unsigned int *val)
{
	u32 v;

	if (skm_pcpu_rsv_parse(buf, &v))
		return -EINVAL;
	if (skm_live && v != SKM_PCPU_RSV_OFF && !skm_pcpu_rsv_settable())
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
unsigned int skm_pcpu_rsv_divisor __read_mostly = 8;
static struct skm_uint_knob skm_pcpu_rsv_divisor_knob = {
	&skm_pcpu_rsv_divisor, 1, 1024, skm_pcpu_reconfigure };
module_param_cb(pcpu_rsv_divisor, &skm_uint_ops, &skm_pcpu_rsv_divisor_knob, 0644);
MODULE_PARM_DESC(pcpu_rsv_divisor,
		 "Auto reserve = max(1 MB, tcp_mem[2] / online CPUs / this) (1..1024, default 8)");

/*
 * A CPU whose TCP or UDP reserve has not moved for this long hands it back
 * to the global counter. In ms, 0 (off) .. 600000.
 */
unsigned int skm_pcpu_drain_ms __read_mostly;
static struct skm_uint_knob skm_pcpu_drain_ms_knob = {
	&skm_pcpu_drain_ms, 0, 600000, skm_pcpu_reconfigure };
module_param_cb(pcpu_drain_ms, &skm_uint_ops, &skm_pcpu_drain_ms_knob, 0644);
MODULE_PARM_DESC(pcpu_drain_ms,
		 "Drain a CPU's socket memory reserve after this idle time (ms, 0 off, 0..600000, default 0)");

/*
 * Bound the reserves a NUMA node's CPUs hold together to the node's CPU
 * share of tcp_mem[2] / pcpu_rsv_divisor (at least one reserve).
 */
bool skm_pcpu_numa __read_mostly;

static void skm_pcpu_numa_changed(bool on)
{
	skm_pcpu_reconfigure();
}

static struct skm_bool_knob skm_pcpu_numa_knob = {
	&skm_pcpu_numa, NULL, skm_pcpu_numa_changed };
module_param_cb(pcpu_numa, &skm_bool_ops, &skm_pcpu_numa_knob, 0644);
MODULE_PARM_DESC(pcpu_numa,
		 "Bound each NUMA node's summed socket memory reserves (bool, default N)");

/*
 * How reclaim treats memory.low / memory.min protection (seed 003; see
 * reclaim_policy.h): kernel (untouched), cliff, seed or linear, on the
 * classic LRU and on MGLRU.
 */
unsigned int skm_reclaim_policy __read_mostly = SKM_RECLAIM_KERNEL;

static void skm_reclaim_policy_changed(void)
{
	skm_key_set(&skm_reclaim_key.key,
		    READ_ONCE(skm_reclaim_policy) != SKM_RECLAIM_KERNEL);
}

static struct skm_fmt_knob skm_reclaim_policy_knob = {
	&skm_reclaim_policy, skm_reclaim_policy_parse, skm_reclaim_policy_print,
	skm_reclaim_policy_changed, true };
module_param_cb(reclaim_policy, &skm_fmt_ops, &skm_reclaim_policy_knob, 0644);
MODULE_PARM_DESC(reclaim_policy,
		 "memory.low/min reclaim curve: kernel|cliff|seed|linear (default kernel)");

/*
 * Scales the overage term of the seed and linear curves, in %: 100 is the
 * formula as written, 200 reclaims an overage twice as hard. 0..1000.
 */
unsigned int skm_reclaim_gain_pct __read_mostly = SKM_GAIN_PCT_ONE;
static struct skm_uint_knob skm_reclaim_gain_pct_knob = {
	&skm_reclaim_gain_pct, 0, SKM_GAIN_PCT_MAX };
module_param_cb(reclaim_gain_pct, &skm_uint_ops, &skm_reclaim_gain_pct_knob, 0644);
MODULE_PARM_DESC(reclaim_gain_pct,
		 "Scale of the overage term of the seed and linear curves (%, 0..1000, default 100)");

/*
 * Take each reclaim pass's fraction all or nothing, 1 with the policy's
 * probability (skm_reclaim_dither_ppm()), instead of the fraction itself,
 * which the kernel's shift by the reclaim priority rounds to 0 or to all
 * of a small memcg's list.
 */
bool skm_reclaim_dither __read_mostly = true;
static struct skm_bool_knob skm_reclaim_dither_knob = { &skm_reclaim_dither };
module_param_cb(reclaim_dither, &skm_bool_ops, &skm_reclaim_dither_knob, 0644);
MODULE_PARM_DESC(reclaim_dither,
		 "Draw each reclaim pass's scan fraction all or nothing (bool, default Y)");

/**
 * skm_knobs_go_live() - apply the side effects of the values set at load
 *
 * Called once from module init, after the hooks are resolved: switches the
 * keys and hooks the policies that are on. From then on every setter
 * applies its side effects itself.
 *
 * Return: 0, or the error of hooking, with nothing hooked.
 */
int skm_knobs_go_live(void)
{
	const struct skm_bool_knob *knobs[] = {
		&skm_instrument_knob, &skm_throttle_knob,
	};
	unsigned int i;
	int ret;

	skm_throttle_wake();
	kernel_param_lock(THIS_MODULE);
	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		skm_key_set(knobs[i]->key,	/* all keyed */
			    skm_key_value(knobs[i], READ_ONCE(*knobs[i]->val)));
	skm_reclaim_policy_changed();
	mutex_lock(&skm_apply_lock);
	skm_live = true;
	ret = __skm_policies_apply("not loading", false);
	if (ret)
		skm_live = false;
	mutex_unlock(&skm_apply_lock);
	kernel_param_unlock(THIS_MODULE);
	return ret;
}

/**
 * skm_knobs_go_dead() - unhook everything for unload
 *
 * From then on setters change values only. No hook calls a replacement
 * once it returns; the caller waits out those still in one with
 * skm_hooks_quiesce() before freeing what they use.
 */
void skm_knobs_go_dead(void)
{
	kernel_param_lock(THIS_MODULE);
	mutex_lock(&skm_apply_lock);
	skm_hooks_set(0, "");
	skm_live = false;
	mutex_unlock(&skm_apply_lock);
	kernel_param_unlock(THIS_MODULE);
}
