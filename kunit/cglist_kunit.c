// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for cglist_parse.c and limit_policy.c: the cgroup lists'
 * sizes, paths and updates, and the socket limit's decision. Each parse case
 * renders what the parser returned as one string, so that one expectation
 * checks the return value and every output at once; a refused input must
 * leave the outputs as they were (the sentinels).
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "cglist_parse.h"
#include "limit_policy.h"

struct skm_cgl_case {
	const char *in;
	const char *want;
};

static void skm_cgl_desc(const struct skm_cgl_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->in);
}

/* "<return> <bytes>"; bytes starts as the sentinel 7. */
static const struct skm_cgl_case size_cases[] = {
	{ "0",			"0 0" },
	{ "4096",		"0 4096" },
	{ "1K",			"0 1024" },
	{ "1k",			"0 1024" },
	{ "10M",		"0 10485760" },
	{ "1G",			"0 1073741824" },
	{ "2t",			"0 2199023255552" },
	{ "18446744073709551615", "0 18446744073709551615" },
	{ "18446744073709551616", "-22 7" },	/* u64 overflow */
	{ "99999999999999999999", "-22 7" },
	{ "16777216T",		"-22 7" },	/* 2^64: the suffix overflows */
	{ "16777215T",		"0 18446742974197923840" },
	{ "",			"-22 7" },
	{ "K",			"-22 7" },
	{ "1KB",		"-22 7" },
	{ "1P",			"-22 7" },
	{ "-1",			"-22 7" },
	{ "+1",			"-22 7" },
	{ " 1",			"-22 7" },
	{ "1 ",			"-22 7" },
	{ "1.5G",		"-22 7" },
	{ "0x10",		"-22 7" },
	{ "1\n",		"-22 7" },	/* the list strips the newline */
};

KUNIT_ARRAY_PARAM(skm_size, size_cases, skm_cgl_desc);

static void skm_size_parse_test(struct kunit *test)
{
	const struct skm_cgl_case *c = test->param_value;
	u64 bytes = 7;
	char got[48];
	int ret;

	ret = skm_size_parse_bytes(c->in, strlen(c->in), &bytes);
	snprintf(got, sizeof(got), "%d %llu", ret, bytes);
	KUNIT_EXPECT_STREQ(test, got, c->want);
}

/*
 * "<return> <add> <path> <bytes>" for a list with sizes (sock_limits);
 * the outputs start as "? <none> 7".
 */
static const struct skm_cgl_case op_size_cases[] = {
	{ "+/a=1G",			"0 + /a 1073741824" },
	{ "+/a=1G\n",			"0 + /a 1073741824" },
	{ "+/a/b.slice/c=4096",		"0 + /a/b.slice/c 4096" },
	{ "+/sys/fs/cgroup/a=1M",	"0 + /a 1048576" },
	{ "+/sys/fs/cgroup=0",		"0 + / 0" },
	{ "+/sys/fs/cgroup/=0",		"0 + / 0" },
	{ "+/=1K",			"0 + / 1024" },
	{ "+/sys/fs/cgroupX=1K",	"0 + /sys/fs/cgroupX 1024" },
	{ "-/a",			"0 - /a 0" },
	{ "-/sys/fs/cgroup/a\n",	"0 - /a 0" },
	{ "+/a",			"-22 ? <none> 7" },	/* no size */
	{ "+/a=",			"-22 ? <none> 7" },
	{ "+/a=1G=2G",			"-22 ? <none> 7" },
	{ "+/a=x",			"-22 ? <none> 7" },
	{ "-/a=1G",			"-22 ? <none> 7" },
	{ "+=1G",			"-22 ? <none> 7" },
	{ "+a=1G",			"-22 ? <none> 7" },	/* relative */
	{ "+/a/=1G",			"-22 ? <none> 7" },	/* trailing / */
	{ "+//a=1G",			"-22 ? <none> 7" },
	{ "+/a//b=1G",			"-22 ? <none> 7" },
	{ "+/./a=1G",			"-22 ? <none> 7" },
	{ "+/a/..=1G",			"-22 ? <none> 7" },
	{ "+/a b=1G",			"-22 ? <none> 7" },
	{ "+/a\tb=1G",			"-22 ? <none> 7" },
	{ "+/a\n=1G",			"-22 ? <none> 7" },
	{ "+/a=1G\n\n",			"-22 ? <none> 7" },
	{ "*/a=1G",			"-22 ? <none> 7" },
	{ "+",				"-22 ? <none> 7" },
	{ "",				"-22 ? <none> 7" },
	{ "\n",				"-22 ? <none> 7" },
};

KUNIT_ARRAY_PARAM(skm_op_size, op_size_cases, skm_cgl_desc);

/* The same for a list without sizes (exclusive_cgroups, throttle_cgroups). */
static const struct skm_cgl_case op_cases[] = {
	{ "+/a",			"0 + /a 0" },
	{ "+/a\n",			"0 + /a 0" },
	{ "-/kubepods.slice/pod-1",	"0 - /kubepods.slice/pod-1 0" },
	{ "+/sys/fs/cgroup",		"0 + / 0" },
	{ "+/",				"0 + / 0" },
	{ "+/\xc3\xa9t\xc3\xa9",	"0 + /\xc3\xa9t\xc3\xa9 0" },	/* UTF-8 */
	{ "+/a=1G",			"-22 ? <none> 7" },	/* no sizes here */
	{ "+/a=",			"-22 ? <none> 7" },
	{ "+/a\x7f",			"-22 ? <none> 7" },
	{ "+/..",			"-22 ? <none> 7" },
	{ "+/.",			"-22 ? <none> 7" },
	{ "+/...",			"0 + /... 0" },	/* a name, not ".." */
	{ "+ /a",			"-22 ? <none> 7" },
	{ "-",				"-22 ? <none> 7" },
};

KUNIT_ARRAY_PARAM(skm_op, op_cases, skm_cgl_desc);

static void skm_op_render(struct kunit *test, const char *in, bool with_size,
			  const char *want)
{
	struct skm_cglist_op op = { .path = NULL, .bytes = 7 };
	char got[96];
	int ret;

	ret = skm_cglist_op_parse(in, strlen(in), with_size, &op);
	if (op.path)
		snprintf(got, sizeof(got), "%d %c %.*s %llu", ret, op.add ? '+' : '-',
			 (int)op.path_len, op.path, op.bytes);
	else
		snprintf(got, sizeof(got), "%d ? <none> %llu", ret, op.bytes);
	KUNIT_EXPECT_STREQ(test, got, want);
}

static void skm_op_size_parse_test(struct kunit *test)
{
	const struct skm_cgl_case *c = test->param_value;

	skm_op_render(test, c->in, true, c->want);
}

static void skm_op_parse_test(struct kunit *test)
{
	const struct skm_cgl_case *c = test->param_value;

	skm_op_render(test, c->in, false, c->want);
}

/* Lengths at the bounds: a name of NAME_MAX bytes, a path of SKM_CGPATH_MAX. */
struct skm_len_case {
	const char *desc;
	size_t name_len;	/* bytes of each name */
	size_t names;		/* how many names */
	int want;
};

static const struct skm_len_case len_cases[] = {
	{ "name of NAME_MAX",		NAME_MAX,	1,	0 },
	{ "name of NAME_MAX + 1",	NAME_MAX + 1,	1,	-EINVAL },
	{ "path of 1020 bytes",		203,	5,	0 },
	{ "path of SKM_CGPATH_MAX",	255,	4,	0 },
	{ "path of SKM_CGPATH_MAX + 1",	204,	5,	-EINVAL },
};

static void skm_len_desc(const struct skm_len_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_len, len_cases, skm_len_desc);

static void skm_cgpath_len_test(struct kunit *test)
{
	const struct skm_len_case *c = test->param_value;
	size_t i, len = c->names * (c->name_len + 1);
	char *buf = kunit_kzalloc(test, len + 1, GFP_KERNEL);
	size_t skip = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, 'a', len);
	for (i = 0; i < c->names; i++)
		buf[i * (c->name_len + 1)] = '/';
	KUNIT_EXPECT_EQ(test, skm_cgpath_check(buf, len, &skip), c->want);
}

/* The limit's decision: usage + amt against the limit, the minimum kept. */
struct skm_limit_case {
	const char *desc;
	long usage;		/* pages counted */
	unsigned int amt;	/* pages asked for */
	unsigned long limit;	/* pages */
	bool below_min;
	bool want;		/* suppressed */
};

static const struct skm_limit_case limit_cases[] = {
	{ "well under",			10,	1,	256,	false,	false },
	{ "reaches the limit",		255,	1,	256,	false,	false },
	{ "one page over",		256,	1,	256,	false,	true },
	{ "a burst over",		200,	100,	256,	false,	true },
	{ "over, under its minimum",	256,	1,	256,	true,	false },
	{ "under, under its minimum",	10,	1,	256,	true,	false },
	{ "zero limit",			0,	1,	0,	false,	true },
	{ "zero limit, minimum",	0,	1,	0,	true,	false },
	{ "negative usage is 0",	-50,	10,	10,	false,	false },
	{ "negative usage, over",	-50,	11,	10,	false,	true },
	{ "largest limit",		LONG_MAX - 1, 1, LONG_MAX, false, false },
	{ "largest limit, over",	LONG_MAX, 1,	LONG_MAX, false, true },
};

static void skm_limit_desc(const struct skm_limit_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_limit, limit_cases, skm_limit_desc);

static void skm_limit_decide_test(struct kunit *test)
{
	const struct skm_limit_case *c = test->param_value;
	bool over = skm_limit_over(c->usage, c->amt, c->limit);

	KUNIT_EXPECT_EQ(test, skm_limit_suppress(over, c->below_min), c->want);
}

/* Bytes to pages: rounded down, capped at LONG_MAX. */
struct skm_pages_case {
	const char *desc;
	u64 bytes;
	unsigned long want;
};

static const struct skm_pages_case pages_cases[] = {
	{ "0",			0,			0 },
	{ "a page less 1",	PAGE_SIZE - 1,		0 },
	{ "a page",		PAGE_SIZE,		1 },
	{ "1G",			1ULL << 30,		(1UL << 30) / PAGE_SIZE },
	{ "u64 max",		U64_MAX,		U64_MAX >> PAGE_SHIFT },
};

static void skm_pages_desc(const struct skm_pages_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_pages, pages_cases, skm_pages_desc);

static void skm_limit_pages_test(struct kunit *test)
{
	const struct skm_pages_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_limit_pages_from_bytes(c->bytes), c->want);
}

static struct kunit_case skm_cglist_test_cases[] = {
	KUNIT_CASE_PARAM(skm_size_parse_test, skm_size_gen_params),
	KUNIT_CASE_PARAM(skm_op_size_parse_test, skm_op_size_gen_params),
	KUNIT_CASE_PARAM(skm_op_parse_test, skm_op_gen_params),
	KUNIT_CASE_PARAM(skm_cgpath_len_test, skm_len_gen_params),
	KUNIT_CASE_PARAM(skm_limit_decide_test, skm_limit_gen_params),
	KUNIT_CASE_PARAM(skm_limit_pages_test, skm_pages_gen_params),
	{}
};

static struct kunit_suite skm_cglist_test_suite = {
	.name = "skmemcg_cglist",
	.test_cases = skm_cglist_test_cases,
};

kunit_test_suite(skm_cglist_test_suite);
