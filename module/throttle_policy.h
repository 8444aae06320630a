/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Socket throttling under memcg pressure: the model (seed 000).
 *
 * A memcg is under pressure at a level (none < medium < critical), taken as
 * the highest level any enabled source reports for it or for any ancestor:
 *
 *   vmpressure  reclaim efficiency over a window of SKM_VMPRESSURE_WIN
 *               scanned pages, as mm/vmpressure.c computes it: medium when
 *               >= 60% of the scanned pages were not reclaimed, critical
 *               when >= 95%.
 *   psi         the cgroup's memory pressure stall, 10 s average: medium
 *               when "some" >= psi_some_pct, critical when "full" >=
 *               psi_full_pct.
 *   events      a memory.high breach since the memcg was last looked at is
 *               medium; a memory.max or OOM event is critical.
 *   headroom    the charge at hand, against the memcg's own counters. The
 *               last headroom_pct of memory.max is a reserve for the
 *               workload's own allocations, which cannot be throttled and
 *               would call the OOM killer: critical if usage + charge would
 *               reach into it, medium if it would come within one more
 *               reserve of it or pass memory.high. Unlike the others it
 *               needs no reclaim to have happened, which matters: with
 *               little reclaimable memory, reclaim scans too few pages to
 *               close a vmpressure window before the OOM killer runs.
 *
 * A level, once seen, is held for pressure_hold_ms (the kernel holds its
 * socket pressure for HZ).
 *
 * The quiet fast path: vmpressure, events and psi all follow reclaim.
 * Every memcg reclaim pass, and every memory.high/max/OOM event (each comes
 * with reclaim), goes through vmpressure(); a PSI memory stall is reclaim,
 * or a refault or throttle soon after it, and its 10 s average decays below
 * any useful threshold within SKM_PSI_SETTLE_MS. So while no reclaim was
 * reported for pressure_hold_ms (plus SKM_PSI_SETTLE_MS with psi on) and no
 * level is held anywhere, those three sources have nothing to say, and a
 * charge needs only the headroom source, which reads the memcg's counters
 * and no per-memcg state: no lookup, no allocation on the hot path.
 *
 * Pressure-aware sockets (the protocol has memory_pressure: TCP, MPTCP,
 * SCTP) are throttled from process context (TX, and RX charged from process
 * context) at level >= throttle_level, from softirq (RX) only at critical:
 * dropping out-of-order data hurts latency badly, and short of critical it
 * is better to receive. Throttled means suppressed as the kernel suppresses
 * an allocation over its hard limit, with everything else it does kept: the
 * global limits, the minimum rmem0/wmem0 guarantee, sndbuf moderation and
 * the forced charge when under sndbuf. The fair-share pass ("this socket
 * uses less than average") never lets a throttled socket through.
 *
 * Everything here is pure: inputs by value, no globals.
 */
#ifndef _SKMEMCG_THROTTLE_POLICY_H
#define _SKMEMCG_THROTTLE_POLICY_H

#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "level.h"

/* mm/vmpressure.c: vmpressure_win, vmpressure_level_med/critical */
#define SKM_VMPRESSURE_WIN		512
#define SKM_VMPRESSURE_MEDIUM_PCT	60
#define SKM_VMPRESSURE_CRITICAL_PCT	95

/* PSI averages are percentages in fixed point, FSHIFT (11) fraction bits. */
#define SKM_PSI_FSHIFT			11

/* After reclaim stops, time for avg10 to decay from 100% to under 1%. */
#define SKM_PSI_SETTLE_MS		60000U

enum skm_source {
	SKM_SOURCE_VMPRESSURE,
	SKM_SOURCE_PSI,
	SKM_SOURCE_EVENTS,
	SKM_SOURCE_HEADROOM,
	SKM_SOURCE_NR,
};

#define SKM_SOURCES_ALL		(BIT(SKM_SOURCE_NR) - 1)

enum skm_level skm_vmpressure_level(unsigned long scanned,
				    unsigned long reclaimed);
enum skm_level skm_psi_level(unsigned long some_avg10, unsigned long full_avg10,
			     unsigned int some_pct, unsigned int full_pct);
enum skm_level skm_events_level(bool high_event, bool max_or_oom_event);

/**
 * skm_headroom_level() - level of a charge against a memcg's own limits
 * @usage_pages: memory.current, in pages
 * @charge_pages: the charge about to be made
 * @high_pages: memory.high (PAGE_COUNTER_MAX when unset)
 * @max_pages: memory.max (PAGE_COUNTER_MAX when unset)
 * @headroom_pct: the reserve, as a share of memory.max, 0..50
 *
 * The last @headroom_pct of memory.max is kept for the workload's own
 * allocations, which cannot be throttled and would call the OOM killer:
 * critical when the charge would reach into that reserve, medium when it
 * would come within one more reserve of it, or pass memory.high. Sums
 * saturate, so unset limits never overflow into pressure.
 */
/* Pages up to which skm_headroom_clear() multiplies by 100 without overflow. */
#define SKM_HEADROOM_PRODUCT_MAX	(ULONG_MAX / 100)

/**
 * skm_headroom_clear() - is a charge surely clear of every headroom level?
 * @usage_pages: memory.current, in pages
 * @charge_pages: the charge about to be made
 * @high_pages: memory.high (PAGE_COUNTER_MAX when unset)
 * @max_pages: memory.max (PAGE_COUNTER_MAX when unset)
 * @headroom_pct: the reserve, as a share of memory.max, 0..50
 *
 * The common case of skm_headroom_level(), with no division: at most
 * memory.high and max * (100 - 2 * pct) / 100, which is at most
 * max - 2 * reserve (the reserve rounds down), no level speaks. The
 * products fit for any page counter (at most LONG_MAX / PAGE_SIZE pages);
 * past SKM_HEADROOM_PRODUCT_MAX the answer is "not surely".
 *
 * Return: true if skm_headroom_level() is surely SKM_LEVEL_NONE; false
 * says nothing.
 */
static inline bool skm_headroom_clear(unsigned long usage_pages,
				      unsigned long charge_pages,
				      unsigned long high_pages,
				      unsigned long max_pages,
				      unsigned int headroom_pct)
{
	unsigned long after = usage_pages + charge_pages;

	headroom_pct = min(headroom_pct, 50U);
	return after >= usage_pages && after <= high_pages &&
	       after <= SKM_HEADROOM_PRODUCT_MAX &&
	       max_pages <= SKM_HEADROOM_PRODUCT_MAX &&
	       after * 100 <= max_pages * (100 - 2 * headroom_pct);
}

static inline enum skm_level skm_headroom_level(unsigned long usage_pages,
						unsigned long charge_pages,
						unsigned long high_pages,
						unsigned long max_pages,
						unsigned int headroom_pct)
{
	unsigned long after = usage_pages + charge_pages;
	unsigned long reserve;

	if (skm_headroom_clear(usage_pages, charge_pages, high_pages, max_pages,
			       headroom_pct))
		return SKM_LEVEL_NONE;
	if (after < usage_pages)
		after = ULONG_MAX;

	/* max * pct / 100 without overflow for any max */
	headroom_pct = min(headroom_pct, 50U);
	reserve = max_pages / 100 * headroom_pct +
		  max_pages % 100 * headroom_pct / 100;

	if (after > max_pages - reserve)
		return SKM_LEVEL_CRITICAL;
	if (after > high_pages || after > max_pages - 2 * reserve)
		return SKM_LEVEL_MEDIUM;
	return SKM_LEVEL_NONE;
}

/**
 * skm_jiffies_later() - the later of two times
 * @a: jiffies
 * @b: jiffies
 *
 * Safe across a jiffies wrap for times under LONG_MAX jiffies apart.
 *
 * Return: @a if it is after @b, else @b.
 */
static inline unsigned long skm_jiffies_later(unsigned long a, unsigned long b)
{
	return (long)(a - b) > 0 ? a : b;
}

/**
 * skm_pressure_quiet() - may a charge skip the reclaim-driven sources?
 * @now: jiffies
 * @quiet_after: jiffies when the traces of the last reclaim reported (any
 *	memcg; its time plus pressure_hold_ms, plus SKM_PSI_SETTLE_MS with
 *	psi on) and the levels held end, whichever is later
 *	(skm_jiffies_later() of the two)
 *
 * Safe across a jiffies wrap for intervals under LONG_MAX jiffies.
 *
 * Return: true when @now is past @quiet_after.
 */
static inline bool skm_pressure_quiet(unsigned long now, unsigned long quiet_after)
{
	return (long)(now - quiet_after) > 0;
}

bool skm_throttle_applies(enum skm_level level, bool softirq,
			  enum skm_level throttle_level);

/**
 * struct skm_raise_in - what __sk_mem_raise_allocated() knows, for the policy
 * @pressure_aware: the protocol has memory_pressure (TCP, MPTCP, SCTP)
 * @softirq: charged from softirq (RX), not process context
 * @level: the memcg's pressure level, hierarchy included
 * @throttle_level: the throttle_level knob (medium or critical)
 * @allocated: the protocol's global pages, this charge included
 * @limits: the protocol's limits in pages (tcp_mem: min, pressure, max)
 * @below_min: under the rmem0/wmem0 guarantee for its direction
 * @below_fair_share: uses less than the average socket of its protocol
 */
struct skm_raise_in {
	bool pressure_aware;
	bool softirq;
	enum skm_level level;
	enum skm_level throttle_level;
	long allocated;
	long limits[3];
	bool below_min;
	bool below_fair_share;
};

/* skm_raise_decide() verdict bits; 0 means "leave it to the kernel" */
#define SKM_RAISE_THROTTLE		BIT(0)	/* suppress the allocation */
#define SKM_RAISE_LEAVE_PRESSURE	BIT(1)	/* first, as the kernel would */
#define SKM_RAISE_ENTER_PRESSURE	BIT(2)	/* first, as the kernel would */

unsigned int skm_raise_decide(struct skm_raise_in in);

int skm_sources_parse(const char *buf, unsigned int *sources);
int skm_sources_print(unsigned int sources, char *buf, size_t size);

#endif /* _SKMEMCG_THROTTLE_POLICY_H */
