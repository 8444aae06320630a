// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for parse.c: the strict knob parsers must take exactly the
 * valid spellings, refuse everything else with -EINVAL, and leave the output
 * alone when they refuse. Each case expects "<return> <value>".
 */
#include <kunit/test.h>
#include <linux/errno.h>

#include "parse.h"

struct skm_str_case {
	const char *in;
	const char *want;
};

static void skm_str_desc(const struct skm_str_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->in);
}

/* The output starts as a sentinel "false". */
static const struct skm_str_case bool_cases[] = {
	{ "1",		"0 1" },
	{ "y",		"0 1" },
	{ "Y",		"0 1" },
	{ "Y\n",	"0 1" },
	{ "0",		"0 0" },
	{ "n",		"0 0" },
	{ "N\n",	"0 0" },
	{ "",		"-22 0" },
	{ "\n",		"-22 0" },
	{ "yes",	"-22 0" },
	{ "yellow",	"-22 0" },
	{ "on",		"-22 0" },
	{ "2",		"-22 0" },
	{ "-1",		"-22 0" },
	{ "11",		"-22 0" },
	{ " 1",		"-22 0" },
	{ "1\n\n",	"-22 0" },
	{ "\xff",	"-22 0" },
};

static void skm_bool_desc(const struct skm_str_case *c, char *d)
{
	skm_str_desc(c, d);
}

KUNIT_ARRAY_PARAM(skm_bool, bool_cases, skm_bool_desc);

static void skm_parse_bool_test(struct kunit *test)
{
	const struct skm_str_case *c = test->param_value;
	bool val = false;
	char got[32];
	int ret;

	ret = skm_parse_bool(c->in, &val);
	snprintf(got, sizeof(got), "%d %d", ret, val);
	KUNIT_EXPECT_STREQ(test, got, c->want);
}

/* Range [10, 4000000000]; the output starts as a sentinel 7. */
static const struct skm_str_case uint_cases[] = {
	{ "10",			"0 10" },
	{ "4000000000",		"0 4000000000" },
	{ "1000\n",		"0 1000" },
	{ "0010",		"0 10" },
	{ "9",			"-22 7" },
	{ "4000000001",		"-22 7" },
	{ "4294967296",		"-22 7" },
	{ "99999999999",	"-22 7" },
	{ "-10",		"-22 7" },
	{ "+10",		"-22 7" },
	{ "10 ",		"-22 7" },
	{ "1e3",		"-22 7" },
	{ "0x10",		"-22 7" },
	{ "",			"-22 7" },
	{ "\n",			"-22 7" },
};

static void skm_uint_desc(const struct skm_str_case *c, char *d)
{
	skm_str_desc(c, d);
}

KUNIT_ARRAY_PARAM(skm_uint, uint_cases, skm_uint_desc);

static void skm_parse_uint_range_test(struct kunit *test)
{
	const struct skm_str_case *c = test->param_value;
	unsigned int val = 7;
	char got[32];
	int ret;

	ret = skm_parse_uint_range(c->in, 10, 4000000000U, &val);
	snprintf(got, sizeof(got), "%d %u", ret, val);
	KUNIT_EXPECT_STREQ(test, got, c->want);
}

struct skm_list_case {
	const char *list;
	const char *name;
	bool want;
};

static const struct skm_list_case list_cases[] = {
	{ NULL,		"a",	false },
	{ "",		"a",	false },
	{ "a",		"a",	true },
	{ "abc",	"a",	false },
	{ "a,b,c",	"b",	true },
	{ "a,b,c",	"c",	true },
	{ "ab,c",	"a",	false },
	{ "a,,c",	"",	true },
	{ "foo_bar",	"foo",	false },
};

static void skm_list_desc(const struct skm_list_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\" in \"%s\"", c->name,
		 c->list ?: "(null)");
}

KUNIT_ARRAY_PARAM(skm_list, list_cases, skm_list_desc);

static void skm_list_has_test(struct kunit *test)
{
	const struct skm_list_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_list_has(c->list, c->name), c->want);
}

static struct kunit_case skm_parse_test_cases[] = {
	KUNIT_CASE_PARAM(skm_parse_bool_test, skm_bool_gen_params),
	KUNIT_CASE_PARAM(skm_parse_uint_range_test, skm_uint_gen_params),
	KUNIT_CASE_PARAM(skm_list_has_test, skm_list_gen_params),
	{}
};

static struct kunit_suite skm_parse_test_suite = {
	.name = "skmemcg_parse",
	.test_cases = skm_parse_test_cases,
};

kunit_test_suite(skm_parse_test_suite);
