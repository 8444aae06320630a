// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for time_hist.c: the bucket of a duration at every edge of
 * the scheme, bucket bounds that contain what they hold, and percentiles
 * (empty, one bucket, a split, clamped pct, counts near 2^64).
 */
#include <kunit/test.h>
#include <linux/limits.h>

#include "time_hist.h"

/* One number in, one out. */
struct skm_io_case {
	const char *desc;
	u64 in;
	u64 want;
};

static void skm_io_desc(const struct skm_io_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

/* skm_time_bucket(): nanoseconds in, bucket out */
static const struct skm_io_case bucket_cases[] = {
	{ "0 ns",			0,		0 },
	{ "3 ns, last exact",		3,		3 },
	{ "4 ns, first log2",		4,		4 },
	{ "7 ns",			7,		7 },
	{ "8 ns, sub 0",		8,		8 },
	{ "9 ns, same sub",		9,		8 },
	{ "10 ns, sub 1",		10,		9 },
	{ "15 ns, sub 3",		15,		11 },
	{ "16 ns",			16,		12 },
	{ "1000 ns",			1000,		35 },
	{ "2^36 - 1, last",		(1ULL << 36) - 1, SKM_TIME_BUCKETS - 1 },
	{ "2^36, clamped",		1ULL << 36,	SKM_TIME_BUCKETS - 1 },
	{ "U64_MAX, clamped",		U64_MAX,	SKM_TIME_BUCKETS - 1 },
};

KUNIT_ARRAY_PARAM(skm_bucket, bucket_cases, skm_io_desc);

static void skm_bucket_test(struct kunit *test)
{
	const struct skm_io_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, (u64)skm_time_bucket(c->in), c->want);
}

/* skm_time_bucket_high_ns(): bucket in, nanoseconds out */
static const struct skm_io_case high_cases[] = {
	{ "bucket 0",			0,	0 },
	{ "bucket 3",			3,	3 },
	{ "bucket 4 holds 4",		4,	4 },
	{ "bucket 8 holds 8..9",	8,	9 },
	{ "bucket 11 holds 14..15",	11,	15 },
	{ "bucket 35 holds 896..1023",	35,	1023 },
	{ "last bucket is open",	SKM_TIME_BUCKETS - 1, U64_MAX },
	{ "past the end",		SKM_TIME_BUCKETS, U64_MAX },
};

KUNIT_ARRAY_PARAM(skm_high, high_cases, skm_io_desc);

static void skm_high_test(struct kunit *test)
{
	const struct skm_io_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_time_bucket_high_ns(c->in), c->want);
}

/* Every duration lies within its bucket and above the bucket before. */
static const u64 contain_ns[] = {
	0, 1, 4, 5, 12, 13, 100, 127, 128, 999, 4096, 65535, 1000000,
	123456789, (1ULL << 35) + 1,
};

static void skm_contain_desc(const u64 *ns, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%llu ns", *ns);
}

KUNIT_ARRAY_PARAM(skm_contain, contain_ns, skm_contain_desc);

static void skm_contain_test(struct kunit *test)
{
	u64 ns = *(const u64 *)test->param_value;
	unsigned int b = skm_time_bucket(ns);
	bool above_previous = b == 0 || skm_time_bucket_high_ns(b - 1) < ns;

	KUNIT_EXPECT_TRUE(test, skm_time_bucket_high_ns(b) >= ns && above_previous);
}

struct skm_pct_case {
	const char *desc;
	u64 hist[40];
	unsigned int pct;
	u64 want;
};

static const struct skm_pct_case pct_cases[] = {
	{ "empty",		{ 0 },				50, 0 },
	{ "all in bucket 5",	{ [5] = 7 },			50, 5 },
	{ "p10 of 10/90",	{ [4] = 10, [35] = 90 },	10, 4 },
	{ "p11 of 10/90",	{ [4] = 10, [35] = 90 },	11, 1023 },
	{ "p99 of 10/90",	{ [4] = 10, [35] = 90 },	99, 1023 },
	{ "pct 0 reads as 1",	{ [4] = 10, [35] = 90 },	0, 4 },
	{ "pct 200 reads as 100", { [4] = 10, [35] = 90 },	200, 1023 },
	{ "counts near 2^64",	{ [4] = U64_MAX / 4, [8] = U64_MAX / 4 }, 50, 4 },
	{ "p51 near 2^64",	{ [4] = U64_MAX / 4, [8] = U64_MAX / 4 }, 51, 9 },
};

static void skm_pct_desc(const struct skm_pct_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_pct, pct_cases, skm_pct_desc);

static void skm_pct_test(struct kunit *test)
{
	const struct skm_pct_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_time_percentile_ns(c->hist, ARRAY_SIZE(c->hist),
						     c->pct), c->want);
}

static struct kunit_case skm_time_hist_test_cases[] = {
	KUNIT_CASE_PARAM(skm_bucket_test, skm_bucket_gen_params),
	KUNIT_CASE_PARAM(skm_high_test, skm_high_gen_params),
	KUNIT_CASE_PARAM(skm_contain_test, skm_contain_gen_params),
	KUNIT_CASE_PARAM(skm_pct_test, skm_pct_gen_params),
	{}
};

static struct kunit_suite skm_time_hist_test_suite = {
	.name = "skmemcg_time_hist",
	.test_cases = skm_time_hist_test_cases,
};

kunit_test_suite(skm_time_hist_test_suite);
