// SPDX-License-Identifier: GPL-2.0
/*
 * Per-call time histograms: bucket of a duration, bucket bounds, and
 * percentiles. See time_hist.h for the model.
 */
#include <linux/build_bug.h>
#include <linux/log2.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "time_hist.h"

/**
 * skm_time_bucket() - the histogram bucket of a duration
 * @ns: the duration, nanoseconds
 *
 * Return: 0 .. SKM_TIME_BUCKETS - 1; durations of 2^SKM_TIME_MAX_LOG2 ns
 * and more land in the last bucket.
 */
unsigned int skm_time_bucket(u64 ns)
{
	unsigned int e, b;

	BUILD_BUG_ON(SKM_TIME_MAX_LOG2 >= 63);
	if (ns < SKM_TIME_SUB)
		return ns;
	e = ilog2(ns);
	if (e >= SKM_TIME_MAX_LOG2)
		return SKM_TIME_BUCKETS - 1;
	b = SKM_TIME_SUB + SKM_TIME_SUB * (e - SKM_TIME_SUB_LOG2) +
	    ((ns >> (e - SKM_TIME_SUB_LOG2)) & (SKM_TIME_SUB - 1));
	return b;
}

/**
 * skm_time_bucket_high_ns() - the largest duration a bucket holds
 * @bucket: 0 .. SKM_TIME_BUCKETS - 1
 *
 * Return: nanoseconds; U64_MAX for the last bucket, which is open.
 */
u64 skm_time_bucket_high_ns(unsigned int bucket)
{
	unsigned int e, sub;

	if (bucket >= SKM_TIME_BUCKETS - 1)
		return U64_MAX;
	if (bucket < SKM_TIME_SUB)
		return bucket;
	e = (bucket - SKM_TIME_SUB) / SKM_TIME_SUB + SKM_TIME_SUB_LOG2;
	sub = (bucket - SKM_TIME_SUB) % SKM_TIME_SUB;
	/* [2^e + sub * 2^(e-2), 2^e + (sub + 1) * 2^(e-2)) */
	return (1ULL << e) + ((u64)(sub + 1) << (e - SKM_TIME_SUB_LOG2)) - 1;
}

/**
 * skm_time_percentile_ns() - a percentile of a histogram
 * @hist: counts per bucket
 * @nr_buckets: length of @hist
 * @pct: 1 .. 100
 *
 * Return: the upper bound of the bucket that holds the call of rank
 * ceil(total * pct / 100), or 0 for an empty histogram.
 */
u64 skm_time_percentile_ns(const u64 *hist, unsigned int nr_buckets,
			   unsigned int pct)
{
	u64 total = 0, rank, seen = 0;
	unsigned int i;
	u32 rem;

	for (i = 0; i < nr_buckets; i++)
		total += hist[i];
	if (!total)
		return 0;
	pct = clamp(pct, 1U, 100U);
	/* ceil(total * pct / 100) without forming total * pct */
	rank = div_u64_rem(total, 100, &rem) * pct + DIV_ROUND_UP(rem * pct, 100);
	for (i = 0; i < nr_buckets; i++) {
		seen += hist[i];
		if (seen >= rank)
			return skm_time_bucket_high_ns(i);
	}
	return skm_time_bucket_high_ns(nr_buckets - 1);
}
