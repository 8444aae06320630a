/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_THROTTLE_H
#define _SKMEMCG_THROTTLE_H

#include <linux/bits.h>
#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/memcontrol.h>
#include <linux/minmax.h>
#include <net/sock.h>

#include "cglist.h"
#include "level.h"
#include "sock_verdict.h"
#include "stats.h"
#include "throttle_policy.h"

extern struct skm_cglist skm_throttle_cgroups;

/* On while the "throttle" knob is (and its claims hold; drift.c). */
DECLARE_STATIC_KEY_FALSE(skm_throttle_key);

/*
 * Knobs and traces skm_throttle_begin() reads per raise, inline (defined
 * and documented in throttle.c; the quiet fast path in throttle_policy.h).
 */
extern unsigned int skm_pressure_sources;
extern unsigned int skm_pressure_hold_ms;
extern unsigned int skm_headroom_pct;
extern unsigned long skm_quiet_after_jiffies;

/**
 * struct skm_throttle_walk - the throttle policy's walk of one raise up the
 *	socket's memcg and its ancestors (skm_throttle_begin(), _step(), _end())
 * @sources: the pressure sources, a mask of BIT(SKM_SOURCE_*)
 * @hold: how long a level is held, jiffies; not set on a quiet walk
 * @now: jiffies
 * @headroom_pct: the headroom source's reserve, %
 * @quiet: no reclaim traces and no level held: headroom alone, no state
 * @walk: skm_throttle_step() is to be called for each memcg but the root
 * @level: the highest level stepped so far
 */
struct skm_throttle_walk {
	unsigned int sources;
	unsigned long hold;
	unsigned long now;
	unsigned int headroom_pct;
	bool quiet;
	bool walk;
	enum skm_level level;
};

/**
 * skm_throttle_snapshot() - begin a walk: the knobs, the time, and whether
 *	it is quiet
 * @w: the walk
 *
 * With no reclaim traces and no level held (the quiet fast path), only
 * headroom can speak, and it needs no state: skm_throttle_step() reads the
 * counters alone, and the walk needs no hold time; with the headroom source
 * off, there is nothing to step.
 */
static __always_inline void skm_throttle_snapshot(struct skm_throttle_walk *w)
{
	w->sources = READ_ONCE(skm_pressure_sources);
	w->now = jiffies;
	w->headroom_pct = READ_ONCE(skm_headroom_pct);
	w->quiet = skm_pressure_quiet(w->now, READ_ONCE(skm_quiet_after_jiffies));
	if (!w->quiet)
		w->hold = msecs_to_jiffies(READ_ONCE(skm_pressure_hold_ms));
	w->walk = !w->quiet || (w->sources & BIT(SKM_SOURCE_HEADROOM));
	w->level = SKM_LEVEL_NONE;
}

/**
 * skm_throttle_begin() - does throttling concern this raise?
 * @memcg: the socket's memcg
 * @w: its walk, begun (skm_throttle_snapshot())
 *
 * throttle_cgroups, when it lists any, scopes throttling. Call under
 * rcu_read_lock(). Inline, with the knobs it reads: it runs per raise.
 *
 * Return: false if throttling leaves the raise alone.
 */
static __always_inline bool skm_throttle_begin(struct mem_cgroup *memcg,
					       struct skm_throttle_walk *w)
{
	if (skm_cglist_any(&skm_throttle_cgroups) &&
	    !skm_cglist_covering(&skm_throttle_cgroups, memcg))
		return false;
	skm_throttle_snapshot(w);
	return true;
}

enum skm_level skm_throttle_memcg_step(struct mem_cgroup *memcg,
				       unsigned long charge,
				       unsigned int sources,
				       unsigned long now, unsigned long hold);
bool skm_throttle_end(const struct skm_raise *r, enum skm_level level,
		      bool quiet, struct skm_suppress *v);

/**
 * skm_throttle_step() - one memcg of the walk up from the socket's
 * @w: the walk
 * @memcg: the socket's memcg or an ancestor, not the root
 * @charge: pages
 *
 * Quiet: its headroom level alone, from its counters. Otherwise every
 * source's, held on its state; vmpressure's levels arrive there from
 * skm_throttle_vmpressure(). Inline: it runs per memcg of every raise.
 */
static __always_inline void skm_throttle_step(struct skm_throttle_walk *w,
					      struct mem_cgroup *memcg,
					      unsigned long charge)
{
	enum skm_level seen;

	if (!w->quiet)
		seen = skm_throttle_memcg_step(memcg, charge, w->sources,
					       w->now, w->hold);
	else
		seen = skm_headroom_level(page_counter_read(&memcg->memory), charge,
					  READ_ONCE(memcg->memory.high),
					  READ_ONCE(memcg->memory.max),
					  w->headroom_pct);
	w->level = max(w->level, seen);
}

/**
 * skm_throttle_settled() - did the walk settle the raise?
 * @w: the walk, every memcg up to the root stepped
 *
 * No level anywhere: nothing to throttle, no verdict to make (on the quiet
 * path, counted with "instrument" on). Otherwise skm_throttle_end()
 * decides: a quiet walk's headroom level is looked at again with every
 * source, and a level may still be below what throttles in this context.
 *
 * Return: true if throttling leaves the raise alone.
 */
static __always_inline bool skm_throttle_settled(const struct skm_throttle_walk *w)
{
	if (w->level != SKM_LEVEL_NONE)
		return false;
	if (w->quiet)
		skm_stat_inc_instrumented(SKM_STAT_QUIET_CHARGES);
	return true;
}

/**
 * skm_throttle_charge_gfp() - the gfp of a socket charge to a memcg
 * @gfp: what the kernel asks for
 *
 * A forced socket charge (__GFP_NOFAIL: under sndbuf, TCP's forced memory
 * schedule, accept) never invokes the memcg OOM killer: with
 * __GFP_RETRY_MAYFAIL, try_charge_memcg() reclaims, then forces the charge
 * past the limit instead of killing. Only pressure-aware protocols make
 * forced socket charges, so UDP is untouched. Inline: it runs per charge.
 */
static inline gfp_t skm_throttle_charge_gfp(gfp_t gfp)
{
	if (gfp & __GFP_NOFAIL)
		gfp |= __GFP_RETRY_MAYFAIL;
	return gfp;
}

void skm_throttle_wake(void);
void skm_throttle_vmpressure(gfp_t gfp, struct mem_cgroup *memcg, bool tree,
			     unsigned long scanned, unsigned long reclaimed);

#endif /* _SKMEMCG_THROTTLE_H */
