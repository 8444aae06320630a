// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for exclusive_policy.c: the exclusivity decision (default x
 * per-cgroup override x the kernel's own bypass) and the backstop
 * arithmetic.
 */
#include <kunit/test.h>
#include <linux/limits.h>

#include "exclusive_policy.h"

struct skm_decide_case {
	const char *desc;
	bool dflt;
	bool listed;
	bool bypass;
	bool want;
};

static const struct skm_decide_case decide_cases[] = {
	/* desc					dflt   listed bypass want */
	{ "default off, not listed",		false, false, false, false },
	{ "default on, not listed",		true,  false, false, true },
	{ "default off, listed",		false, true,  false, true },
	{ "default on, listed",			true,  true,  false, true },
	{ "the kernel's bypass, listed",	false, true,  true,  false },
	{ "the kernel's bypass, default on",	true,  false, true,  false },
	{ "the kernel's bypass, neither",	false, false, true,  false },
};

static void skm_decide_desc(const struct skm_decide_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_decide, decide_cases, skm_decide_desc);

static void skm_exclusive_decide_test(struct kunit *test)
{
	const struct skm_decide_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_exclusive_decide(c->dflt, c->listed, c->bypass),
			c->want);
}

struct skm_backstop_case {
	const char *desc;
	long global;
	long exclusive;
	long hard;
	unsigned int pct;
	bool want;
};

static const struct skm_backstop_case backstop_cases[] = {
	{ "off",			LONG_MAX, LONG_MAX, 1000, 0,	false },
	{ "under 200%",			1000, 999,  1000, 200,	false },
	{ "at 200%",			1000, 1000, 1000, 200,	false },
	{ "over 200%",			1000, 1001, 1000, 200,	true },
	{ "exclusive alone over",	0,    2001, 1000, 200,	true },
	{ "100%: over hard limit",	500,  501,  1000, 100,	true },
	{ "50%",			100,  401,  1000, 50,	true },
	{ "fractional cap",		0,    15,   7,    200,	true },
	{ "fractional cap, at",		0,    14,   7,    200,	false },
	{ "negative per-CPU drift",	-300, 100,  1000, 10,	false },
	{ "huge limit, no overflow",	LONG_MAX, LONG_MAX, LONG_MAX, 10000, false },
	{ "huge counts, small cap",	LONG_MAX, LONG_MAX, 1,    1,	true },
	{ "small counts, huge cap",	1000, 1000, LONG_MAX, 200,	false },
	{ "huge counts, huge cap, over", LONG_MAX, LONG_MAX, LONG_MAX / 2, 300, true },
	{ "huge counts, huge cap, at",	LONG_MAX / 2, LONG_MAX / 2, LONG_MAX / 2, 200, false },
	{ "products at the edge",	0, 184467440737095516L, 1844674407370955161L, 10, false },
	{ "products at the edge, over",	0, 184467440737095517L, 1844674407370955161L, 10, true },
	{ "one test's largest products", 0, (1L << 57) - 1, U32_MAX, U32_MAX, false },
	{ "one test's edge, over",	0, (1L << 57) - 1, U32_MAX, 3355443200U, true },
	{ "one test's edge, under",	0, (1L << 57) - 1, U32_MAX, 3355443201U, false },
	{ "total at 2^57, checked",	0, 1L << 57, U32_MAX, U32_MAX, false },
	{ "hard at 2^32, checked, at",	0, 1L << 32, 1L << 32, 100,	false },
	{ "hard at 2^32, checked, over", 0, (1L << 32) + 1, 1L << 32, 100, true },
	{ "zero limit",			0,    1,    0,    200,	true },
	{ "zero limit, nothing",	0,    0,    0,    200,	false },
};

static void skm_backstop_desc(const struct skm_backstop_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_backstop, backstop_cases, skm_backstop_desc);

static void skm_backstop_exceeded_test(struct kunit *test)
{
	const struct skm_backstop_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_backstop_exceeded(c->global, c->exclusive,
						    c->hard, c->pct), c->want);
}

static struct kunit_case skm_exclusive_test_cases[] = {
	KUNIT_CASE_PARAM(skm_exclusive_decide_test, skm_decide_gen_params),
	KUNIT_CASE_PARAM(skm_backstop_exceeded_test, skm_backstop_gen_params),
	{}
};

static struct kunit_suite skm_exclusive_test_suite = {
	.name = "skmemcg_exclusive",
	.test_cases = skm_exclusive_test_cases,
};

kunit_test_suite(skm_exclusive_test_suite);
