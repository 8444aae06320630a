// SPDX-License-Identifier: GPL-2.0
/*
 * Proportional memory.low / memory.min reclaim: the glue. The model and the
 * curves are in reclaim_policy.h.
 *
 * Classic LRU. get_scan_count() scales a protected memcg's scan of each
 * list by protection / mem_cgroup_size(memcg), and mem_cgroup_size() has no
 * other caller. Its replacement returns the size that makes the kernel's
 * own arithmetic scan the policy's fraction (skm_reclaim_size_for_ppm()).
 * The kernel then shifts the scan by the reclaim priority, which rounds a
 * fraction of a small list to nothing or to all of it; under
 * reclaim_dither each pass takes the fraction all or nothing instead, 1
 * with probability f (skm_reclaim_pass_ppm()), so f holds over many passes.
 *
 * 7.x. apply_proportional_protection() computes the scan of a protected
 * memcg's list (classic LRU) or of all its evictable pages (MGLRU) from
 * their size, by the kernel's linear curve. Its replacement calls it (for
 * its side effect: it notes memcg_low_skipped) and returns instead the
 * policy's fraction of the size (skm_reclaim_scan_pages()); the kernel then
 * shifts it by the reclaim priority as it would have its own (drawn all or
 * nothing under reclaim_dither, as above). On 7.x the MGLRU hook below is
 * not installed.
 * emin and elow are read as the kernel computed them
 * (mem_cgroup_calculate_protection(), not hooked), so the hierarchical
 * distribution of protection is not touched; which pass it is comes from
 * the scan_control, found through current->reclaim_state.
 *
 * MGLRU. lru_gen_shrink_lruvec() (6.1) and try_to_shrink_lruvec() (6.12)
 * evict a memcg's oldest generation batch by batch through evict_folios(),
 * until nr_to_scan pages are counted, with no proportional protection at
 * all. The replacement lets a batch of a protected memcg through with
 * probability f, the policy's fraction; otherwise it scans nothing and
 * reports one batch (MIN_LRU_BATCH pages) done, so the caller's loop goes
 * on within its own budget: the memcg's scanned pages fall to f of what
 * the kernel would have scanned. (Reporting 0 instead would end the
 * memcg's turn at the first held batch: f / (1 - f) batches, not f.)
 * Memcgs the kernel skips as protected (below memory.min, or below
 * memory.low in the first pass) never get here, and the kernel checks
 * once per visit, not per batch: a batch of a memcg at or below emin is
 * held, and one above is let through at most with the share above emin.
 *
 * 6.12's MGLRU reclaims the root memcg by memcg (shrink_many()), not
 * top-down, so outside kswapd nothing computed emin and elow before it
 * read them, until "mm/mglru: fix ineffective memory protection for
 * non-kswapd reclaim" (Debian's 6.12.118) computed them along the path
 * from the root (mem_cgroup_calculate_protection_path()). On a 6.12
 * without it the values were whatever the last computation left: with a
 * parent's memory.min set after its last one, the child's read 0 and the
 * child was reclaimed to nothing. There the batch hook does the fix's
 * walk itself, with the kernel's own per-level function, before it
 * decides (skm_reclaim_protection_path()).
 *
 * Memcgs without protection (emin = elow = 0) see no change in either.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/memcontrol.h>
#include <linux/mmzone.h>
#include <linux/page_counter.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/static_call.h>
#include <linux/utsname.h>

#include "hooks.h"
#include "ksym.h"
#include "knobs.h"
#include "memcg_state.h"
#include "reclaim.h"
#include "reclaim_policy.h"
#include "stats.h"

#ifdef SKM_FAMILY_7_3
SKM_DEFINE_ORIG(apply_proportional_protection, skm_apply_proportional_protection);
#else
SKM_DEFINE_ORIG(mem_cgroup_size, skm_mem_cgroup_size);
#ifdef SKM_KERNEL_FAMILY	/* (a build for no family refuses to load) */
SKM_CHECK_PROTO(mem_cgroup_size, skm_mem_cgroup_size);
#endif
#endif

#ifndef SKM_FAMILY_7_3
SKM_DEFINE_ORIG(evict_folios, skm_evict_folios);
#endif

DEFINE_STATIC_KEY_FALSE(skm_reclaim_key);

/*
 * How reclaim treats memory.low / memory.min protection (seed 003; see
 * reclaim_policy.h): kernel (untouched), cliff, seed or linear, on the
 * classic LRU and on MGLRU.
 */
static unsigned int skm_reclaim_policy __read_mostly = SKM_RECLAIM_KERNEL;

static bool skm_reclaim_shaping(unsigned int policy)
{
	return policy != SKM_RECLAIM_KERNEL;
}

static struct skm_fmt_knob skm_reclaim_policy_knob = {
	.val = &skm_reclaim_policy,
	.parse = skm_reclaim_policy_parse,
	.print = skm_reclaim_policy_print,
	.policy = true,
	.key = &skm_reclaim_key.key,
	.key_on = skm_reclaim_shaping,
};
module_param_cb(reclaim_policy, &skm_fmt_ops, &skm_reclaim_policy_knob, 0644);
MODULE_PARM_DESC(reclaim_policy,
		 "memory.low/min reclaim curve: kernel|cliff|seed|linear (default kernel)");

/*
 * Scales the overage term of the seed and linear curves, in %: 100 is the
 * formula as written, 200 reclaims an overage twice as hard. 0..1000.
 */
static unsigned int skm_reclaim_gain_pct __read_mostly = SKM_GAIN_PCT_ONE;
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
static bool skm_reclaim_dither __read_mostly = true;
static struct skm_bool_knob skm_reclaim_dither_knob = { &skm_reclaim_dither };
module_param_cb(reclaim_dither, &skm_bool_ops, &skm_reclaim_dither_knob, 0644);
MODULE_PARM_DESC(reclaim_dither,
		 "Draw each reclaim pass's scan fraction all or nothing (bool, default Y)");

/**
 * struct skm_reclaim_memcg - the reclaim policy's private area of a memcg's
 *	state: what the last reclaim it shaped saw
 * @protection: the protection honoured, pages
 * @usage: the usage then, pages
 * @ppm: the scan fraction the policy gave, ppm
 */
struct skm_reclaim_memcg {
	unsigned long protection;
	unsigned long usage;
	unsigned int ppm;
};

/*
 * A scan_control whose fields are out of range is not one: the replicated
 * layout does not match this kernel, so leave the kernel alone.
 */
static bool skm_scan_control_sane(const struct skm_scan_control *sc)
{
	return sc->priority >= 0 && sc->priority <= DEF_PRIORITY &&
	       sc->reclaim_idx >= 0 && sc->reclaim_idx < MAX_NR_ZONES &&
	       sc->order >= 0 && sc->order < BITS_PER_LONG;
}

#ifndef SKM_FAMILY_7_3
/* The scan_control the current task reclaims under, or NULL (6.x). */
static const struct skm_scan_control *skm_current_scan_control(void)
{
	struct reclaim_state *rs = current->reclaim_state;
	const struct skm_scan_control *sc;

	if (!rs)
		return NULL;
	sc = container_of(rs, struct skm_scan_control, reclaim_state);
	if (!skm_scan_control_sane(sc)) {
		skm_stat_inc(SKM_STAT_RECLAIM_INSANE);
		return NULL;
	}
	return sc;
}
#endif

/*
 * The policy's fraction for @memcg in this pass, or SKM_PPM_ONE with
 * *@shaped false when the kernel's behaviour stands. Not drawn: see
 * skm_reclaim_pass_ppm().
 */
static u32 skm_reclaim_ppm(struct mem_cgroup *memcg, unsigned long usage,
			   bool low_reclaim, u64 *protection, bool *shaped)
{
	unsigned int policy = READ_ONCE(skm_reclaim_policy);
	u64 emin = READ_ONCE(memcg->memory.emin);
	u64 elow = READ_ONCE(memcg->memory.elow);
	struct skm_memcg *sm;
	u32 ppm;

	*shaped = false;
	*protection = skm_reclaim_protection_pages(emin, elow, low_reclaim);
	if (policy == SKM_RECLAIM_KERNEL || (!emin && !elow))
		return SKM_PPM_ONE;
	ppm = skm_reclaim_scan_ppm(policy, usage, emin, elow, low_reclaim,
				   READ_ONCE(skm_reclaim_gain_pct));
	*shaped = true;
	skm_stat_inc(SKM_STAT_RECLAIM_SHAPED);

	/* For the "cgroups" file; reclaim allocates nothing if it cannot. */
	rcu_read_lock();
	sm = skm_memcg_get(memcg, GFP_NOWAIT | __GFP_NOWARN | __GFP_NOMEMALLOC);
	if (sm) {
		struct skm_reclaim_memcg *rm = skm_memcg_priv(sm, SKM_POLICY_RECLAIM);

		WRITE_ONCE(rm->protection, *protection);
		WRITE_ONCE(rm->usage, usage);
		WRITE_ONCE(rm->ppm, ppm);
	}
	rcu_read_unlock();
	return ppm;
}

/*
 * The fraction one pass of the classic LRU (or of 7.x's MGLRU) scans: the
 * policy's, drawn all or nothing under reclaim_dither, because the kernel
 * shifts the target by the reclaim priority after this (reclaim_policy.c).
 * 6.x's MGLRU draws per batch already (skm_reclaim_let_batch()).
 */
static u32 skm_reclaim_pass_ppm(u32 ppm)
{
	if (!READ_ONCE(skm_reclaim_dither) || !ppm || ppm >= SKM_PPM_ONE)
		return ppm;
	return skm_reclaim_dither_ppm(ppm, get_random_u32_below(SKM_PPM_ONE));
}

/*
 * One pass's fraction, @ppm drawn by skm_reclaim_pass_ppm(), capped at the
 * share of the lists above emin (skm_reclaim_min_cap_ppm()): a pass over a
 * memcg just above its memory.min must not scan its whole target, which
 * at a low priority took it far below (issue 40: 43 to 49 MiB of a 64 MiB
 * memory.min on 6.1's classic LRU under memory.reclaim of the parent).
 */
static u32 skm_reclaim_floor_ppm(struct mem_cgroup *memcg, unsigned long usage,
				 u32 ppm)
{
	return min(skm_reclaim_pass_ppm(ppm),
		   skm_reclaim_min_cap_ppm(usage, READ_ONCE(memcg->memory.emin)));
}

#ifdef SKM_FAMILY_7_3
unsigned long notrace
skm_apply_proportional_protection(struct mem_cgroup *memcg,
				  struct skm_scan_control *sc, unsigned long scan)
{
	struct skm_hook_frame f;
	unsigned long ret, usage;
	u64 protection;
	bool shaped;
	u32 ppm;

	skm_hook_enter(&f);
	skm_hook_orig_in(&f);
	ret = static_call(skm_orig_apply_proportional_protection)(memcg, sc, scan);
	skm_hook_orig_out(&f);
	/* The kernel protects nothing in the memcg a reclaim targets. */
	if (!static_branch_unlikely(&skm_reclaim_key) || !memcg ||
	    memcg == sc->target_mem_cgroup)
		goto out;
	if (!skm_scan_control_sane(sc)) {
		skm_stat_inc(SKM_STAT_RECLAIM_INSANE);
		goto out;
	}
	usage = page_counter_read(&memcg->memory);
	ppm = skm_reclaim_ppm(memcg, usage, sc->memcg_low_reclaim, &protection,
			      &shaped);
	if (shaped)
		ret = skm_reclaim_scan_pages(scan,
					     skm_reclaim_floor_ppm(memcg, usage, ppm));
out:
	skm_hook_exit(&f, SKM_HOOK_MEMCG_SIZE);
	return ret;
}
#else
unsigned long notrace skm_mem_cgroup_size(struct mem_cgroup *memcg)
{
	const struct skm_scan_control *sc;
	struct skm_hook_frame f;
	unsigned long size;
	u64 protection;
	bool shaped;
	u32 ppm;

	skm_hook_enter(&f);
	skm_hook_orig_in(&f);
	size = static_call(skm_orig_mem_cgroup_size)(memcg);
	skm_hook_orig_out(&f);
	if (!static_branch_unlikely(&skm_reclaim_key))
		goto out;
	sc = skm_current_scan_control();
	if (!sc)
		goto out;
	ppm = skm_reclaim_ppm(memcg, size, sc->memcg_low_reclaim, &protection,
			      &shaped);
	if (shaped && protection)
		size = skm_reclaim_size_for_ppm(protection,
						skm_reclaim_floor_ppm(memcg, size, ppm));
out:
	skm_hook_exit(&f, SKM_HOOK_MEMCG_SIZE);
	return size;
}
#endif

#ifdef SKM_FAMILY_6_12
typedef void skm_calculate_protection_t(struct mem_cgroup *root,
					struct mem_cgroup *memcg);
static_assert(__same_type(&mem_cgroup_calculate_protection,
			  (skm_calculate_protection_t *)NULL));
DEFINE_STATIC_CALL_NULL(skm_calculate_protection, skm_calculate_protection_t);

/*
 * Does skmemcg compute emin and elow for non-kswapd MGLRU root reclaim
 * (skm_reclaim_protection_path())? Not if the kernel has the fix, nor if
 * it lacks the function to do it with. Set once at load.
 */
static bool skm_reclaim_path_by_skmemcg __read_mostly;

/**
 * skm_reclaim_init() - find how this kernel computes protection for MGLRU
 *	root reclaim outside kswapd
 *
 * A kernel with mem_cgroup_calculate_protection_path() computes it before
 * it reads it; one without leaves it to skm_reclaim_protection_path(),
 * which calls mem_cgroup_calculate_protection() (declared in the
 * kernel's headers, so the build checks its prototype; not exported).
 * Called once at load, before any hook is installed.
 */
void skm_reclaim_init(void)
{
	unsigned long calc;

	if (skm_ksym_lookup("mem_cgroup_calculate_protection_path"))
		return;
	calc = skm_ksym_lookup("mem_cgroup_calculate_protection");
	if (!calc) {
		pr_warn("kernel %s computes no memory protection for MGLRU root reclaim outside kswapd, and has no mem_cgroup_calculate_protection to do it with\n",
			init_utsname()->release);
		return;
	}
	static_call_update(skm_calculate_protection,
			   (skm_calculate_protection_t *)calc);
	skm_reclaim_path_by_skmemcg = true;
}

/*
 * Compute emin and elow of each memcg from the root's child down to
 * @memcg, parents first, as the upstream fix does: a level's effective
 * protection is computed from its parent's. @memcg is pinned by the
 * reclaim, and pins its ancestors.
 */
static void skm_reclaim_protection_path(struct mem_cgroup *memcg)
{
	struct cgroup *cgrp = memcg->css.cgroup;
	int level;

	rcu_read_lock();
	for (level = 1; level <= cgrp->level; level++) {
		struct cgroup *anc = cgroup_ancestor(cgrp, level);
		struct cgroup_subsys_state *css;
		struct mem_cgroup *cur;

		css = anc ? rcu_dereference(anc->subsys[memory_cgrp_id]) : NULL;
		cur = mem_cgroup_from_css(css);
		if (cur)
			static_call(skm_calculate_protection)(NULL, cur);
	}
	rcu_read_unlock();
	skm_stat_inc(SKM_STAT_RECLAIM_PATH_COMPUTED);
}

/* Is this MGLRU root reclaim outside kswapd, on a kernel without the fix? */
static bool skm_reclaim_path_stale(const struct skm_scan_control *sc)
{
	return skm_reclaim_path_by_skmemcg &&
	       (!sc->target_mem_cgroup ||
		!parent_mem_cgroup(sc->target_mem_cgroup)) &&	/* the root */
	       !current_is_kswapd();
}

static void skm_reclaim_show_stats(struct seq_file *m)
{
	seq_printf(m, "reclaim_protection_path_by_skmemcg %d\n",
		   skm_reclaim_path_by_skmemcg);
}
#else
void skm_reclaim_init(void)
{
}

static inline bool skm_reclaim_path_stale(const struct skm_scan_control *sc)
{
	return false;
}

static inline void skm_reclaim_protection_path(struct mem_cgroup *memcg)
{
}
#endif /* SKM_FAMILY_6_12 */

#ifndef SKM_FAMILY_7_3
/* Let this batch of a memcg's MGLRU eviction through? */
static bool skm_reclaim_let_batch(struct lruvec *lruvec,
				  const struct skm_scan_control *sc)
{
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);
	unsigned long usage;
	u64 protection;
	bool shaped;
	u32 ppm;

	if (!memcg || !skm_scan_control_sane(sc))
		return true;
	/*
	 * The kernel protects nothing in the memcg a reclaim targets
	 * (mem_cgroup_protection()): memory.reclaim, memory.high and
	 * memory.max of a protected memcg reclaim it whole. Found by the
	 * kernel's test_memcg_low/min (conform_memcg, 6.12).
	 */
	if (memcg == sc->target_mem_cgroup)
		return true;
	if (skm_reclaim_path_stale(sc))
		skm_reclaim_protection_path(memcg);
	usage = page_counter_read(&memcg->memory);
	ppm = skm_reclaim_ppm(memcg, usage, sc->memcg_low_reclaim, &protection,
			      &shaped);
	if (!shaped)
		return true;
	ppm = skm_reclaim_batch_ppm(ppm, usage, READ_ONCE(memcg->memory.emin));
	if (ppm >= SKM_PPM_ONE || get_random_u32_below(SKM_PPM_ONE) < ppm)
		return true;
	skm_stat_inc(SKM_STAT_RECLAIM_BATCHES_HELD);
	return false;
}

#ifdef SKM_FAMILY_6_1
int notrace skm_evict_folios(struct lruvec *lruvec, struct skm_scan_control *sc,
			     int swappiness, bool *need_swapping)
#else
int notrace skm_evict_folios(struct lruvec *lruvec, struct skm_scan_control *sc,
			     int swappiness)
#endif
{
	int scanned = MIN_LRU_BATCH;	/* held: as if one batch was done */
	struct skm_hook_frame f;

	skm_hook_enter(&f);
	skm_hook_may_sleep(&f);		/* reclaim: cond_resched(), I/O */
	if (!static_branch_unlikely(&skm_reclaim_key) ||
	    skm_reclaim_let_batch(lruvec, sc)) {
		skm_hook_orig_in(&f);
#ifdef SKM_FAMILY_6_1
		scanned = static_call(skm_orig_evict_folios)(lruvec, sc, swappiness,
							     need_swapping);
#else
		scanned = static_call(skm_orig_evict_folios)(lruvec, sc, swappiness);
#endif
		skm_hook_orig_out(&f);
	}
	skm_hook_exit(&f, SKM_HOOK_EVICT);
	return scanned;
}
#endif /* !SKM_FAMILY_7_3 */

/*
 * Its columns of "cgroups", from the last reclaim it shaped: the protection
 * honoured and the usage (KiB), and the share of the lists scanned (%, "-"
 * if never shaped).
 */
static void skm_reclaim_show_cgroup(struct seq_file *m, struct cgroup *cgrp,
				    void *priv)
{
	struct skm_reclaim_memcg *rm = priv;
	unsigned int ppm = READ_ONCE(rm->ppm);
	unsigned long usage = READ_ONCE(rm->usage);
	char scan[16] = "-";

	if (usage)
		snprintf(scan, sizeof(scan), "%u.%u", ppm / 10000, ppm / 1000 % 10);
	seq_printf(m, " %lu %lu %s",
		   READ_ONCE(rm->protection) << (PAGE_SHIFT - 10),
		   usage << (PAGE_SHIFT - 10), scan);
}

static bool skm_reclaim_wanted(void)
{
	return skm_reclaim_shaping(READ_ONCE(skm_reclaim_policy));
}

/*
 * Its hooks: where the kernel scales a protected memcg's scan (both LRUs
 * on 7.x; the classic LRU on 6.x, with MGLRU's batches), and the
 * per-memcg state's going.
 */
static const enum skm_hook_id skm_reclaim_hooks[] = {
	SKM_HOOK_MEMCG_SIZE,
#ifndef SKM_FAMILY_7_3
	SKM_HOOK_EVICT,
#endif
	SKM_HOOK_CSS_FREE,
};

const struct skm_policy skm_policy_reclaim = {
	.name = "reclaim",
	.id = SKM_POLICY_RECLAIM,
	.hooks = skm_reclaim_hooks,
	.nr_hooks = ARRAY_SIZE(skm_reclaim_hooks),
	.memcg_size = sizeof(struct skm_reclaim_memcg),
	.wanted = skm_reclaim_wanted,
#ifdef SKM_FAMILY_6_12
	.show_stats = skm_reclaim_show_stats,
#endif
	.cgroup_header = " protection_kib usage_kib scan_pct",
	.show_cgroup = skm_reclaim_show_cgroup,
};
