// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU event counters. Writers increment their own CPU's slot with no
 * atomic shared across CPUs; readers sum, which is enough for statistics.
 */
#include <linux/build_bug.h>
#include <linux/kernel.h>

#include "stats.h"

DEFINE_PER_CPU(struct skm_stats, skm_stats);
DEFINE_STATIC_KEY_FALSE(skm_instrument_key);

static const char * const skm_stat_names[] = {
	[SKM_STAT_RAISE_CALLS]	= "raise_calls",
	[SKM_STAT_REDUCE_CALLS]	= "reduce_calls",
	[SKM_STAT_THROTTLED_TX]	= "throttled_tx",
	[SKM_STAT_THROTTLED_RX]	= "throttled_rx",
	[SKM_STAT_PRESSURE_MEDIUM] = "pressure_medium",
	[SKM_STAT_PRESSURE_CRITICAL] = "pressure_critical",
	[SKM_STAT_MEMCGS_TRACKED] = "memcgs_tracked",
	[SKM_STAT_MEMCGS_FREED]	= "memcgs_freed",
	[SKM_STAT_EXCL_LOOKUPS]	= "exclusive_lookups",
	[SKM_STAT_EXCL_LOOKUP_NS] = "exclusive_lookup_ns",
	[SKM_STAT_PCPU_DRAINS]	= "pcpu_drains",
	[SKM_STAT_PCPU_DRAINED_PAGES] = "pcpu_drained_pages",
	[SKM_STAT_PCPU_NODE_OVER] = "pcpu_node_over_bound",
	[SKM_STAT_RECLAIM_SHAPED] = "reclaim_shaped",
	[SKM_STAT_RECLAIM_BATCHES_HELD] = "reclaim_batches_held",
	[SKM_STAT_RECLAIM_INSANE] = "reclaim_layout_mismatch",
	[SKM_STAT_RECLAIM_PATH_COMPUTED] = "reclaim_protection_paths",
	[SKM_STAT_QUIET_CHARGES] = "throttle_quiet_charges",
	[SKM_STAT_LIMITED_TX] = "limited_tx",
	[SKM_STAT_LIMITED_RX] = "limited_rx",
	[SKM_STAT_SENDERS_PARKED] = "senders_parked",
	[SKM_STAT_PARK_TABLE_FULL] = "park_table_full",
};

const char *skm_stat_name(enum skm_stat stat)
{
	BUILD_BUG_ON(ARRAY_SIZE(skm_stat_names) != SKM_STAT_NR);
	return skm_stat_names[stat];
}

unsigned long skm_stat_sum(enum skm_stat stat)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(skm_stats.count[stat], cpu);
	return sum;
}
