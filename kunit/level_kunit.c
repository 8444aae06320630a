// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for level.c: names, parsing, and the packed (level, expiry)
 * word across expiry, rounding and jiffies wrap-around.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/limits.h>

#include "level.h"

struct skm_name_case {
	enum skm_level level;
	const char *want;
};

static const struct skm_name_case name_cases[] = {
	{ SKM_LEVEL_NONE,	"none" },
	{ SKM_LEVEL_MEDIUM,	"medium" },
	{ SKM_LEVEL_CRITICAL,	"critical" },
	{ SKM_LEVEL_NR,		"invalid" },
	{ (enum skm_level)-1,	"invalid" },
};

static void skm_name_desc(const struct skm_name_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "level %d", (int)c->level);
}

KUNIT_ARRAY_PARAM(skm_name, name_cases, skm_name_desc);

static void skm_level_name_test(struct kunit *test)
{
	const struct skm_name_case *c = test->param_value;

	KUNIT_EXPECT_STREQ(test, skm_level_name(c->level), c->want);
}

/*
 * Each parse case expects "<return> <level>"; the level starts as a sentinel
 * (critical), which a refused input must leave alone.
 */
struct skm_parse_case {
	const char *in;
	const char *want;
};

static const struct skm_parse_case parse_cases[] = {
	{ "none",	"0 none" },
	{ "medium",	"0 medium" },
	{ "critical",	"0 critical" },
	{ "medium\n",	"0 medium" },
	{ "Medium",	"-22 critical" },
	{ "med",	"-22 critical" },
	{ "",		"-22 critical" },
	{ "critical ",	"-22 critical" },
	{ "1",		"-22 critical" },
	{ "medium\n\n",	"-22 critical" },
};

static void skm_parse_desc(const struct skm_parse_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->in);
}

KUNIT_ARRAY_PARAM(skm_parse, parse_cases, skm_parse_desc);

static void skm_level_parse_test(struct kunit *test)
{
	const struct skm_parse_case *c = test->param_value;
	enum skm_level level = SKM_LEVEL_CRITICAL;
	char got[32];
	int ret;

	ret = skm_level_parse(c->in, &level);
	snprintf(got, sizeof(got), "%d %s", ret, skm_level_name(level));
	KUNIT_EXPECT_STREQ(test, got, c->want);
}

struct skm_state_case {
	const char *desc;
	enum skm_level level;
	unsigned long expires;
	unsigned long now;
	enum skm_level want;
};

#define NEAR_WRAP	(ULONG_MAX - 10)
#define WRAPPED		(NEAR_WRAP + 100)

static const struct skm_state_case state_cases[] = {
	{ "never set",		SKM_LEVEL_NONE,	    0,		1000,	SKM_LEVEL_NONE },
	{ "medium, 100 left",	SKM_LEVEL_MEDIUM,   1100,	1000,	SKM_LEVEL_MEDIUM },
	{ "critical, 1 left",	SKM_LEVEL_CRITICAL, 1004,	1003,	SKM_LEVEL_CRITICAL },
	{ "at expiry",		SKM_LEVEL_MEDIUM,   1100,	1100,	SKM_LEVEL_NONE },
	{ "after expiry",	SKM_LEVEL_MEDIUM,   1100,	5000,	SKM_LEVEL_NONE },
	{ "rounded up 3",	SKM_LEVEL_MEDIUM,   1101,	1103,	SKM_LEVEL_MEDIUM },
	{ "rounded, then over",	SKM_LEVEL_MEDIUM,   1101,	1104,	SKM_LEVEL_NONE },
	{ "expiry wraps",	SKM_LEVEL_CRITICAL, WRAPPED, NEAR_WRAP, SKM_LEVEL_CRITICAL },
	{ "now wrapped too",	SKM_LEVEL_CRITICAL, WRAPPED, 50,	SKM_LEVEL_CRITICAL },
	{ "wrapped, expired",	SKM_LEVEL_CRITICAL, WRAPPED, 200,	SKM_LEVEL_NONE },
	{ "half range later",	SKM_LEVEL_MEDIUM,   1000, 1000 + LONG_MAX, SKM_LEVEL_NONE },
};

static void skm_state_desc(const struct skm_state_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_state, state_cases, skm_state_desc);

static void skm_level_state_test(struct kunit *test)
{
	const struct skm_state_case *c = test->param_value;
	unsigned long state = c->level == SKM_LEVEL_NONE && !c->expires ? 0 :
			      skm_level_pack(c->level, c->expires);

	KUNIT_EXPECT_EQ(test, skm_level_unpack(state, c->now), c->want);
}

struct skm_expires_case {
	unsigned long expires;
	unsigned long now;
	long want;
};

static const struct skm_expires_case expires_cases[] = {
	{ 1100,			1000,		100 },
	{ 1101,			1000,		104 },	/* rounded up to 1104 */
	{ 1000,			1100,		-100 },
	{ WRAPPED,		NEAR_WRAP,	103 },	/* 89, rounded to 92 */
};

static void skm_expires_desc(const struct skm_expires_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "expires %lu at %lu", c->expires,
		 c->now);
}

KUNIT_ARRAY_PARAM(skm_expires, expires_cases, skm_expires_desc);

static void skm_level_expires_in_test(struct kunit *test)
{
	const struct skm_expires_case *c = test->param_value;
	unsigned long state = skm_level_pack(SKM_LEVEL_MEDIUM, c->expires);

	KUNIT_EXPECT_EQ(test, skm_level_expires_in(state, c->now), c->want);
}

static struct kunit_case skm_level_test_cases[] = {
	KUNIT_CASE_PARAM(skm_level_name_test, skm_name_gen_params),
	KUNIT_CASE_PARAM(skm_level_parse_test, skm_parse_gen_params),
	KUNIT_CASE_PARAM(skm_level_state_test, skm_state_gen_params),
	KUNIT_CASE_PARAM(skm_level_expires_in_test, skm_expires_gen_params),
	{}
};

static struct kunit_suite skm_level_test_suite = {
	.name = "skmemcg_level",
	.test_cases = skm_level_test_cases,
};

kunit_test_suite(skm_level_test_suite);
