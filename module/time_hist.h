/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-call time histograms for the hook instrumentation: the model.
 *
 * A call's duration in nanoseconds goes into one of SKM_TIME_BUCKETS
 * buckets: log2 buckets, each split into SKM_TIME_SUB equal sub-buckets,
 * so that any value is placed within 25% of its size (an HDR histogram
 * with two significant bits). Values below SKM_TIME_SUB ns get a bucket
 * each; values at or above 2^SKM_TIME_MAX_LOG2 ns share the last one.
 *
 *   bucket(v) = v                                  for v < 4
 *             = 4 + 4 * (e - 2) + ((v >> (e - 2)) & 3)  with e = ilog2(v)
 *
 * A percentile is read as the upper bound of the bucket holding the
 * requested rank, so it overstates by at most a quarter. Pure functions:
 * inputs by value, no globals.
 */
#ifndef _SKMEMCG_TIME_HIST_H
#define _SKMEMCG_TIME_HIST_H

#include <linux/bits.h>
#include <linux/types.h>

#define SKM_TIME_SUB_LOG2	2
#define SKM_TIME_SUB		BIT(SKM_TIME_SUB_LOG2)
/* 2^36 ns is 69 s: no hooked call lasts that long. */
#define SKM_TIME_MAX_LOG2	36
#define SKM_TIME_BUCKETS \
	(SKM_TIME_SUB + SKM_TIME_SUB * (SKM_TIME_MAX_LOG2 - SKM_TIME_SUB_LOG2))

unsigned int skm_time_bucket(u64 ns);
u64 skm_time_bucket_high_ns(unsigned int bucket);
u64 skm_time_percentile_ns(const u64 *hist, unsigned int nr_buckets,
			   unsigned int pct);

#endif /* _SKMEMCG_TIME_HIST_H */
