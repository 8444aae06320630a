// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU forward-alloc reserve: the pure part. See pcpu_policy.h.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "parse.h"
#include "pcpu_policy.h"

/**
 * skm_pcpu_auto_rsv_pages() - the auto-sized per-CPU reserve
 * @tcp_mem_max_pages: tcp_mem[2], the protocol's hard limit
 * @online_cpus: CPUs online now
 * @divisor: pcpu_rsv_divisor, at least 1
 * @page_shift: log2 of the page size
 *
 * Return: max(1 MB, @tcp_mem_max_pages / @online_cpus / @divisor) in pages,
 * at most SKM_PCPU_RSV_MAX_PAGES; 0 when @divisor or @online_cpus is 0,
 * which have no size.
 */
u32 skm_pcpu_auto_rsv_pages(u64 tcp_mem_max_pages, u32 online_cpus,
			    u32 divisor, unsigned int page_shift)
{
	u32 floor_pages = SKM_PCPU_RSV_FLOOR_BYTES >> page_shift;
	u64 share;

	if (!online_cpus || !divisor)
		return 0;
	/* Two divisions, not one by cpus * divisor: that product may overflow u32. */
	share = div_u64(div_u64(tcp_mem_max_pages, online_cpus), divisor);
	share = clamp_t(u64, share, max(floor_pages, 1U), SKM_PCPU_RSV_MAX_PAGES);
	return (u32)share;
}

/**
 * skm_pcpu_uncertainty_pages() - how far sockstat "mem" may be from the truth
 * @online_cpus: CPUs online now
 * @rsv_pages: the reserve in force
 *
 * Each CPU folds its delta once it reaches the reserve, so it holds at most
 * @rsv_pages - 1 either way; this returns the round product.
 */
u64 skm_pcpu_uncertainty_pages(u32 online_cpus, u32 rsv_pages)
{
	return (u64)online_cpus * rsv_pages;
}

/**
 * skm_pcpu_drain_due() - should a CPU's delta go back to the global counter?
 * @now: jiffies now
 * @moved_at: jiffies when the delta was last seen to change
 * @idle_period: pcpu_drain_ms in jiffies; 0 turns draining off
 * @delta_pages: the CPU's delta now
 *
 * Return: true when there is something to drain and it has been still for
 * at least @idle_period. Safe across jiffies wrap-around.
 */
bool skm_pcpu_drain_due(unsigned long now, unsigned long moved_at,
			unsigned long idle_period, int delta_pages)
{
	if (!idle_period || !delta_pages)
		return false;
	return now - moved_at >= idle_period;
}

/**
 * skm_pcpu_node_bound_pages() - most a NUMA node's CPUs may hold together
 * @tcp_mem_max_pages: tcp_mem[2]
 * @divisor: pcpu_rsv_divisor, at least 1
 * @node_cpus: online CPUs of the node
 * @online_cpus: online CPUs in all
 * @rsv_pages: the per-CPU reserve in force
 *
 * Return: the node's CPU share of @tcp_mem_max_pages / @divisor, never less
 * than one reserve (a node can always hold one CPU's worth); 0 when the
 * inputs have no bound (no CPUs, divisor 0).
 */
u64 skm_pcpu_node_bound_pages(u64 tcp_mem_max_pages, u32 divisor,
			      u32 node_cpus, u32 online_cpus, u32 rsv_pages)
{
	u64 budget, share;

	if (!divisor || !node_cpus || !online_cpus)
		return 0;
	budget = div_u64(tcp_mem_max_pages, divisor);
	/* budget * node_cpus / online_cpus without overflowing u64 */
	share = div_u64(budget, online_cpus) * node_cpus +
		div_u64((budget % online_cpus) * node_cpus, online_cpus);
	return max_t(u64, share, rsv_pages);
}

/**
 * skm_pcpu_node_drain_cpu() - drain this CPU to bring its node under bound?
 * @node_sum_pages: sum of |delta| over the node's online CPUs
 * @node_bound_pages: from skm_pcpu_node_bound_pages()
 * @node_cpus: online CPUs of the node
 * @delta_pages: this CPU's delta
 *
 * When the node is over its bound, every CPU holding more than the fair
 * share (bound / CPUs) is drained; the others then hold at most the bound
 * together, in one pass and without sorting.
 */
bool skm_pcpu_node_drain_cpu(u64 node_sum_pages, u64 node_bound_pages,
			     u32 node_cpus, int delta_pages)
{
	u64 held = abs(delta_pages);

	if (!node_cpus || node_sum_pages <= node_bound_pages)
		return false;
	return held > div_u64(node_bound_pages, node_cpus);
}

/**
 * skm_pcpu_rsv_parse() - parse a pcpu_rsv value
 * @buf: "off", "auto", or pages 0..SKM_PCPU_RSV_MAX_PAGES (0 is auto)
 * @val: SKM_PCPU_RSV_OFF, SKM_PCPU_RSV_AUTO or the pages; written on success
 *
 * Return: 0, or -EINVAL leaving @val alone.
 */
int skm_pcpu_rsv_parse(const char *buf, u32 *val)
{
	unsigned int pages;

	if (sysfs_streq(buf, "off")) {
		*val = SKM_PCPU_RSV_OFF;
		return 0;
	}
	if (sysfs_streq(buf, "auto")) {
		*val = SKM_PCPU_RSV_AUTO;
		return 0;
	}
	if (skm_parse_uint_range(buf, 0, SKM_PCPU_RSV_MAX_PAGES, &pages))
		return -EINVAL;
	*val = pages;
	return 0;
}

/**
 * skm_pcpu_rsv_print() - print a pcpu_rsv value as skm_pcpu_rsv_parse() reads it
 * @val: the knob's value
 * @buf: output
 * @size: room in @buf
 *
 * Return: the length written.
 */
int skm_pcpu_rsv_print(u32 val, char *buf, size_t size)
{
	if (val == SKM_PCPU_RSV_OFF)
		return scnprintf(buf, size, "off");
	if (val == SKM_PCPU_RSV_AUTO)
		return scnprintf(buf, size, "auto");
	return scnprintf(buf, size, "%u", val);
}
