// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for units.c: bytes, pages and KiB, with 4 KiB and 64 KiB
 * pages, at the edges and where a conversion must saturate.
 */
#include <kunit/test.h>
#include <linux/limits.h>

#include "units.h"

struct skm_units_case {
	const char *desc;
	u64 in;
	unsigned int shift;
	u64 want;
};

static void skm_units_desc(const struct skm_units_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

static const struct skm_units_case bytes_to_pages_cases[] = {
	{ "0 B",		0,		12, 0 },
	{ "1 B",		1,		12, 1 },
	{ "one 4K page",	4096,		12, 1 },
	{ "4K + 1 B",		4097,		12, 2 },
	{ "1 MiB",		1 << 20,	12, 256 },
	{ "64K page, 1 B",	1,		16, 1 },
	{ "64K page, 64K + 1",	65537,		16, 2 },
	{ "U64_MAX bytes",	U64_MAX,	12, (U64_MAX >> 12) + 1 },
};

static void skm_bytes_to_pages_desc(const struct skm_units_case *c, char *d)
{
	skm_units_desc(c, d);
}

KUNIT_ARRAY_PARAM(skm_bytes_to_pages, bytes_to_pages_cases,
		  skm_bytes_to_pages_desc);

static void skm_bytes_to_pages_test(struct kunit *test)
{
	const struct skm_units_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, (u64)skm_bytes_to_pages_up(c->in, c->shift), c->want);
}

static const struct skm_units_case pages_to_bytes_cases[] = {
	{ "0 pages",			0,			12, 0 },
	{ "1 page",			1,			12, 4096 },
	{ "1 64K page",			1,			16, 65536 },
	{ "largest exact",		(1ULL << 52) - 1,	12, ((1ULL << 52) - 1) << 12 },
	{ "first to saturate",		1ULL << 52,		12, U64_MAX },
	{ "ULONG_MAX pages",		ULONG_MAX,		12, U64_MAX },
};

static void skm_pages_to_bytes_desc(const struct skm_units_case *c, char *d)
{
	skm_units_desc(c, d);
}

KUNIT_ARRAY_PARAM(skm_pages_to_bytes, pages_to_bytes_cases,
		  skm_pages_to_bytes_desc);

static void skm_pages_to_bytes_test(struct kunit *test)
{
	const struct skm_units_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_pages_to_bytes_sat(c->in, c->shift), c->want);
}

static const struct skm_units_case pages_to_kib_cases[] = {
	{ "0 pages",		0,		12, 0 },
	{ "1 4K page",		1,		12, 4 },
	{ "1 64K page",		1,		16, 64 },
	{ "256 pages = 1 MiB",	256,		12, 1024 },
	{ "saturates",		ULONG_MAX,	12, ULONG_MAX },
};

static void skm_pages_to_kib_desc(const struct skm_units_case *c, char *d)
{
	skm_units_desc(c, d);
}

KUNIT_ARRAY_PARAM(skm_pages_to_kib, pages_to_kib_cases, skm_pages_to_kib_desc);

static void skm_pages_to_kib_test(struct kunit *test)
{
	const struct skm_units_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, (u64)skm_pages_to_kib(c->in, c->shift), c->want);
}

static struct kunit_case skm_units_test_cases[] = {
	KUNIT_CASE_PARAM(skm_bytes_to_pages_test, skm_bytes_to_pages_gen_params),
	KUNIT_CASE_PARAM(skm_pages_to_bytes_test, skm_pages_to_bytes_gen_params),
	KUNIT_CASE_PARAM(skm_pages_to_kib_test, skm_pages_to_kib_gen_params),
	{}
};

static struct kunit_suite skm_units_test_suite = {
	.name = "skmemcg_units",
	.test_cases = skm_units_test_cases,
};

kunit_test_suite(skm_units_test_suite);
