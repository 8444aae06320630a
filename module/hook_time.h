/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_HOOK_TIME_H
#define _SKMEMCG_HOOK_TIME_H

#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>

#include "hook_id.h"
#include "stats.h"
#include "time_hist.h"

/**
 * struct skm_hook_clock - one call's timing, on the replacement's stack
 * @t0_ns: local_clock() at entry; 0 while "instrument" is off
 * @orig_t0_ns: local_clock() before the call of the original
 * @orig_ns: time spent in the original
 */
struct skm_hook_clock {
	u64 t0_ns;
	u64 orig_t0_ns;
	u64 orig_ns;
};

/* The clock at a call's entry while "instrument" is on, else 0. */
static __always_inline u64 skm_hook_clock_now(void)
{
	return static_branch_unlikely(&skm_instrument_key) ? local_clock() : 0;
}

/* Time a call that entered at @t0_ns (skm_hook_clock_now()). */
static __always_inline void skm_hook_clock_start_at(struct skm_hook_clock *c,
						    u64 t0_ns)
{
	c->t0_ns = t0_ns;
	c->orig_ns = 0;
}

static __always_inline void skm_hook_clock_start(struct skm_hook_clock *c)
{
	skm_hook_clock_start_at(c, skm_hook_clock_now());
}

/* Bracket the call of the kernel's original with these two. */
static __always_inline void skm_hook_clock_orig_in(struct skm_hook_clock *c)
{
	if (unlikely(c->t0_ns))
		c->orig_t0_ns = local_clock();
}

static __always_inline void skm_hook_clock_orig_out(struct skm_hook_clock *c)
{
	if (unlikely(c->t0_ns))
		c->orig_ns += local_clock() - c->orig_t0_ns;
}

void skm_hook_time_record(enum skm_hook_id id, u64 total_ns, u64 orig_ns);

static __always_inline void skm_hook_clock_stop(struct skm_hook_clock *c,
						enum skm_hook_id id)
{
	if (unlikely(c->t0_ns))
		skm_hook_time_record(id, local_clock() - c->t0_ns, c->orig_ns);
}

int skm_hook_time_init(void);
void skm_hook_time_exit(void);
void skm_hook_times_reset(void);
int skm_hook_times_show(struct seq_file *m, void *v);

#endif /* _SKMEMCG_HOOK_TIME_H */
