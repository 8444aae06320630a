/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU forward-alloc reserve (seed 001 and its review): the model.
 *
 * Each protocol keeps a global page counter (tcp_memory_allocated, sockstat
 * "mem") and, per CPU, a signed forward-alloc delta. The kernel's inline
 * sk_memory_allocated_add()/_sub() move a CPU's delta and fold it into the
 * global counter only once it reaches +/- net.core.mem_pcpu_rsv pages. A
 * bigger reserve means fewer atomic updates of one shared cache line; the
 * price is that the global counter may be off by up to online CPUs x
 * reserve pages (the "uncertainty"), and a CPU that stopped networking keeps
 * its delta indefinitely.
 *
 * skmemcg adds what the review asked for:
 *
 *  - auto size: reserve = max(1 MB, tcp_mem[2] / online CPUs / divisor), so
 *    the whole uncertainty stays near tcp_mem[2] / divisor however many CPUs
 *    the machine has (Jakub Kicinski: key on memory, let the knob be the
 *    divisor). Explicit sizes may go below the sysctl's 1 MB floor, down to
 *    one page.
 *
 *  - idle drain: a CPU whose delta has not moved for pcpu_drain_ms hands it
 *    back to the global counter, from a work item on that CPU.
 *
 *  - per-node bound (pcpu_numa): the reserves a NUMA node's CPUs hold
 *    together may not exceed the node's CPU share of tcp_mem[2] / divisor
 *    (never less than one reserve). Over it, the node's CPUs holding more
 *    than their fair share (bound / CPUs of the node) are drained. A real
 *    per-node tier is out of reach of a module: see docs/pcpu-reserve.md.
 *
 * All sizes here are in pages; time is in jiffies or ms as named. Pure
 * functions: inputs by value, no globals.
 */
#ifndef _SKMEMCG_PCPU_POLICY_H
#define _SKMEMCG_PCPU_POLICY_H

#include <linux/bits.h>
#include <linux/types.h>

/* The kernel's SK_MEMORY_PCPU_RESERVE and the sysctl's floor: 1 MB. */
#define SKM_PCPU_RSV_FLOOR_BYTES	BIT(20)

/*
 * Largest reserve skmemcg sets: 2^20 pages (4 GiB of 4 KiB pages) per CPU.
 * The kernel keeps a CPU's delta in an int that may reach reserve + one
 * charge before it is folded, so the reserve must stay far below INT_MAX.
 */
#define SKM_PCPU_RSV_MAX_PAGES		BIT(20)

/* pcpu_rsv knob values besides a size in pages. */
#define SKM_PCPU_RSV_AUTO		0U
#define SKM_PCPU_RSV_OFF		U32_MAX

u32 skm_pcpu_auto_rsv_pages(u64 tcp_mem_max_pages, u32 online_cpus,
			    u32 divisor, unsigned int page_shift);
u64 skm_pcpu_uncertainty_pages(u32 online_cpus, u32 rsv_pages);
bool skm_pcpu_drain_due(unsigned long now, unsigned long moved_at,
			unsigned long idle_period, int delta_pages);
u64 skm_pcpu_node_bound_pages(u64 tcp_mem_max_pages, u32 divisor,
			      u32 node_cpus, u32 online_cpus, u32 rsv_pages);
bool skm_pcpu_node_drain_cpu(u64 node_sum_pages, u64 node_bound_pages,
			     u32 node_cpus, int delta_pages);
int skm_pcpu_rsv_parse(const char *buf, u32 *val);
int skm_pcpu_rsv_print(u32 val, char *buf, size_t size);

#endif /* _SKMEMCG_PCPU_POLICY_H */
