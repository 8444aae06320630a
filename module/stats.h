/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_STATS_H
#define _SKMEMCG_STATS_H

#include <linux/jump_label.h>
#include <linux/percpu.h>

/* Event counters, summed over CPUs when the "stats" file is read. */
enum skm_stat {
	SKM_STAT_RAISE_CALLS,
	SKM_STAT_REDUCE_CALLS,
	SKM_STAT_THROTTLED_TX,
	SKM_STAT_THROTTLED_RX,
	SKM_STAT_PRESSURE_MEDIUM,
	SKM_STAT_PRESSURE_CRITICAL,
	SKM_STAT_MEMCGS_TRACKED,
	SKM_STAT_MEMCGS_FREED,
	SKM_STAT_EXCL_LOOKUPS,
	SKM_STAT_EXCL_LOOKUP_NS,
	SKM_STAT_PCPU_DRAINS,
	SKM_STAT_PCPU_DRAINED_PAGES,
	SKM_STAT_PCPU_NODE_OVER,
	SKM_STAT_RECLAIM_SHAPED,
	SKM_STAT_RECLAIM_BATCHES_HELD,
	SKM_STAT_RECLAIM_INSANE,
	SKM_STAT_RECLAIM_PATH_COMPUTED,
	SKM_STAT_QUIET_CHARGES,
	SKM_STAT_LIMITED_TX,
	SKM_STAT_LIMITED_RX,
	SKM_STAT_SENDERS_PARKED,
	SKM_STAT_PARK_TABLE_FULL,
	SKM_STAT_NR,
};

struct skm_stats {
	unsigned long count[SKM_STAT_NR];
};

DECLARE_PER_CPU(struct skm_stats, skm_stats);

/* On while the "instrument" knob is (knobs.c). */
DECLARE_STATIC_KEY_FALSE(skm_instrument_key);

static __always_inline void skm_stat_inc(enum skm_stat stat)
{
	this_cpu_inc(skm_stats.count[stat]);
}

static __always_inline void skm_stat_add(enum skm_stat stat, unsigned long n)
{
	this_cpu_add(skm_stats.count[stat], n);
}

/* Counted only while the "instrument" knob is on. */
static __always_inline void skm_stat_inc_instrumented(enum skm_stat stat)
{
	if (static_branch_unlikely(&skm_instrument_key))
		skm_stat_inc(stat);
}

const char *skm_stat_name(enum skm_stat stat);
unsigned long skm_stat_sum(enum skm_stat stat);

#endif /* _SKMEMCG_STATS_H */
