// SPDX-License-Identifier: GPL-2.0
/*
 * Per-hook call timing, for benchmarks: while the "instrument" knob is on,
 * each replacement reads local_clock() at entry, around its call of the
 * kernel's original and at exit, and adds the call to its own CPU's
 * counters: calls, total and original nanoseconds, and a histogram of the
 * total (time_hist.h). For a memcg-exclusive socket the "original" is
 * exclusive.c's accounting that stands in for it. The "hook_times" debugfs
 * file sums the CPUs. So the original's own time is measured the same way
 * as the whole call, and their difference is what the replacement adds
 * (the ftrace trampoline that enters it is outside both). Turning
 * "instrument" on clears the counters.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hook_time.h"

struct skm_hook_time {
	u64 calls;
	u64 total_ns;
	u64 orig_ns;
	u64 hist[SKM_TIME_BUCKETS];
};

/*
 * SKM_HOOK_NR entries per CPU, about 12 KiB: allocated, as a module's static
 * per-CPU data must fit the 8 KiB the kernel reserves for all modules.
 */
static struct skm_hook_time __percpu *skm_hook_times;

/**
 * skm_hook_time_init() - allocate the per-CPU timing counters
 *
 * Return: 0 or -ENOMEM.
 */
int skm_hook_time_init(void)
{
	skm_hook_times = __alloc_percpu(sizeof(struct skm_hook_time) * SKM_HOOK_NR,
					__alignof__(struct skm_hook_time));
	return skm_hook_times ? 0 : -ENOMEM;
}

void skm_hook_time_exit(void)
{
	free_percpu(skm_hook_times);
	skm_hook_times = NULL;
}

void skm_hook_time_record(enum skm_hook_id id, u64 total_ns, u64 orig_ns)
{
	this_cpu_inc(skm_hook_times[id].calls);
	this_cpu_add(skm_hook_times[id].total_ns, total_ns);
	this_cpu_add(skm_hook_times[id].orig_ns, orig_ns);
	this_cpu_inc(skm_hook_times[id].hist[skm_time_bucket(total_ns)]);
}

/* Called with "instrument" off, before it goes on: no call records then. */
void skm_hook_times_reset(void)
{
	int cpu;

	if (!skm_hook_times)
		return;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(skm_hook_times, cpu), 0,
		       sizeof(struct skm_hook_time) * SKM_HOOK_NR);
}

/*
 * One line per hook that was called:
 *   name calls mean_ns p50_ns p99_ns orig_mean_ns added_ns
 * added_ns = mean_ns - orig_mean_ns, what the replacement costs beyond the
 * original (each figure includes the cost of reading the clock).
 */
int skm_hook_times_show(struct seq_file *m, void *v)
{
	struct skm_hook_time *sum;
	unsigned int id, b;
	int cpu;

	sum = kzalloc(sizeof(*sum), GFP_KERNEL);
	if (!sum)
		return -ENOMEM;
	seq_puts(m, "hook calls mean_ns p50_ns p99_ns orig_mean_ns added_ns\n");
	for (id = 0; id < SKM_HOOK_NR; id++) {
		u64 mean, orig;

		memset(sum, 0, sizeof(*sum));
		for_each_possible_cpu(cpu) {
			const struct skm_hook_time *t = per_cpu_ptr(&skm_hook_times[id], cpu);

			sum->calls += t->calls;
			sum->total_ns += t->total_ns;
			sum->orig_ns += t->orig_ns;
			for (b = 0; b < SKM_TIME_BUCKETS; b++)
				sum->hist[b] += t->hist[b];
		}
		if (!sum->calls)
			continue;
		mean = div64_u64(sum->total_ns, sum->calls);
		orig = div64_u64(sum->orig_ns, sum->calls);
		seq_printf(m, "%s %llu %llu %llu %llu %llu %lld\n",
			   skm_hook_name(id), sum->calls, mean,
			   skm_time_percentile_ns(sum->hist, SKM_TIME_BUCKETS, 50),
			   skm_time_percentile_ns(sum->hist, SKM_TIME_BUCKETS, 99),
			   orig, (s64)(mean - orig));
	}
	kfree(sum);
	return 0;
}
