// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for pcpu_policy.c: the auto-sized per-CPU reserve (1 to 384
 * CPUs, tiny and huge tcp_mem, divisor 1 and 0, values that overflow 32
 * bits), the idle-drain decision, the per-node bound and the pcpu_rsv knob
 * syntax. Sizes are in pages of 4 KiB unless a case says otherwise.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/limits.h>

#include "pcpu_policy.h"

/*
 * tcp_mem[2] as the kernel sizes it at boot (3/32 of free buffer pages):
 * about 23000 pages on a 1 GiB guest, 50331648 on a 2 TiB host.
 */
#define GUEST_1G_TCP_MEM	23000ULL
#define HOST_2T_TCP_MEM		50331648ULL

struct skm_auto_case {
	const char *desc;
	u64 tcp_mem;
	u32 cpus;
	u32 divisor;
	unsigned int shift;
	u32 want;
};

static const struct skm_auto_case auto_cases[] = {
	{ "1 CPU, 1 GiB guest",		GUEST_1G_TCP_MEM, 1, 8, 12, 2875 },
	{ "2 CPUs, 1 GiB guest",	GUEST_1G_TCP_MEM, 2, 8, 12, 1437 },
	{ "384 CPUs, 2 TiB host",	HOST_2T_TCP_MEM, 384, 8, 12, 16384 },
	{ "384 CPUs, 1 GiB: 1 MB floor", GUEST_1G_TCP_MEM, 384, 8, 12, 256 },
	{ "tiny tcp_mem: 1 MB floor",	128, 1, 8, 12, 256 },
	{ "zero tcp_mem: 1 MB floor",	0, 2, 8, 12, 256 },
	{ "exactly the floor",		4096, 2, 8, 12, 256 },
	{ "one page over the floor",	4112, 2, 8, 12, 257 },
	{ "divisor 1",			GUEST_1G_TCP_MEM, 2, 1, 12, 11500 },
	{ "divisor 0 refused",		GUEST_1G_TCP_MEM, 2, 0, 12, 0 },
	{ "no CPUs refused",		GUEST_1G_TCP_MEM, 0, 8, 12, 0 },
	{ "huge tcp_mem: capped",	LONG_MAX, 1, 1, 12, SKM_PCPU_RSV_MAX_PAGES },
	{ "tcp_mem over 32 bits",	1ULL << 40, 384, 8, 12, SKM_PCPU_RSV_MAX_PAGES },
	{ "cpus x divisor over 32 bits", U64_MAX, U32_MAX, U32_MAX, 12, 256 },
	{ "64 KiB pages: 16-page floor", 100, 1, 8, 16, 16 },
	{ "64 KiB pages, 2 TiB host",	HOST_2T_TCP_MEM / 16, 384, 8, 16, 1024 },
};

static void skm_auto_desc(const struct skm_auto_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_auto, auto_cases, skm_auto_desc);

static void skm_pcpu_auto_rsv_test(struct kunit *test)
{
	const struct skm_auto_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_pcpu_auto_rsv_pages(c->tcp_mem, c->cpus,
						      c->divisor, c->shift),
			c->want);
}

struct skm_uncertainty_case {
	const char *desc;
	u32 cpus;
	u32 rsv;
	u64 want;
};

static const struct skm_uncertainty_case uncertainty_cases[] = {
	{ "2 CPUs x 1 MB",		2, 256, 512 },
	{ "384 threads x 16 MB = 6 GB",	384, 4096, 1572864 },
	{ "no 32-bit overflow",		U32_MAX, SKM_PCPU_RSV_MAX_PAGES,
					(u64)U32_MAX << 20 },
};

static void skm_uncertainty_desc(const struct skm_uncertainty_case *c,
				 char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_uncertainty, uncertainty_cases, skm_uncertainty_desc);

static void skm_pcpu_uncertainty_test(struct kunit *test)
{
	const struct skm_uncertainty_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_pcpu_uncertainty_pages(c->cpus, c->rsv), c->want);
}

struct skm_drain_case {
	const char *desc;
	unsigned long now;
	unsigned long moved_at;
	unsigned long period;
	int delta;
	bool want;
};

static const struct skm_drain_case drain_cases[] = {
	{ "draining off",		1000, 0, 0, 100, false },
	{ "nothing held",		1000, 0, 10, 0, false },
	{ "idle exactly the period",	1010, 1000, 10, 100, true },
	{ "idle one jiffy short",	1009, 1000, 10, 100, false },
	{ "moved just now",		1000, 1000, 10, 100, false },
	{ "negative delta, idle",	2000, 1000, 10, -100, true },
	{ "idle across jiffies wrap",	10, ULONG_MAX - 5, 16, 5, true },
	{ "short across jiffies wrap",	10, ULONG_MAX - 5, 17, 5, false },
};

static void skm_drain_desc(const struct skm_drain_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_drain, drain_cases, skm_drain_desc);

static void skm_pcpu_drain_due_test(struct kunit *test)
{
	const struct skm_drain_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_pcpu_drain_due(c->now, c->moved_at, c->period,
						 c->delta), c->want);
}

struct skm_node_bound_case {
	const char *desc;
	u64 tcp_mem;
	u32 divisor;
	u32 node_cpus;
	u32 online;
	u32 rsv;
	u64 want;
};

static const struct skm_node_bound_case node_bound_cases[] = {
	{ "one node, 1 GiB guest",	GUEST_1G_TCP_MEM, 8, 2, 2, 256, 2875 },
	{ "half the CPUs",		GUEST_1G_TCP_MEM, 8, 1, 2, 256, 1437 },
	{ "never below one reserve",	1000, 8, 1, 4, 256, 256 },
	{ "192 of 384 CPUs, 2 TiB",	HOST_2T_TCP_MEM, 8, 192, 384, 4096, 3145728 },
	{ "no u64 overflow",		U64_MAX, 1, 3, 7, 1, 7905747460161236406ULL },
	{ "divisor 0",			GUEST_1G_TCP_MEM, 0, 1, 2, 256, 0 },
	{ "node without CPUs",		GUEST_1G_TCP_MEM, 8, 0, 2, 256, 0 },
};

static void skm_node_bound_desc(const struct skm_node_bound_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_node_bound, node_bound_cases, skm_node_bound_desc);

static void skm_pcpu_node_bound_test(struct kunit *test)
{
	const struct skm_node_bound_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_pcpu_node_bound_pages(c->tcp_mem, c->divisor,
							c->node_cpus, c->online,
							c->rsv), c->want);
}

struct skm_node_drain_case {
	const char *desc;
	u64 sum;
	u64 bound;
	u32 node_cpus;
	int delta;
	bool want;
};

static const struct skm_node_drain_case node_drain_cases[] = {
	{ "node under bound",		1500, 2000, 2, 1500, false },
	{ "node at bound",		2000, 2000, 2, 1500, false },
	{ "over, above fair share",	3000, 2000, 2, 1500, true },
	{ "over, at fair share",	3000, 2000, 2, 1000, false },
	{ "over, negative above share",	3000, 2000, 2, -1500, true },
	{ "over, empty CPU",		3000, 2000, 2, 0, false },
	{ "no CPUs",			3000, 2000, 0, 1500, false },
};

static void skm_node_drain_desc(const struct skm_node_drain_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_node_drain, node_drain_cases, skm_node_drain_desc);

static void skm_pcpu_node_drain_test(struct kunit *test)
{
	const struct skm_node_drain_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_pcpu_node_drain_cpu(c->sum, c->bound,
						      c->node_cpus, c->delta),
			c->want);
}

/* "<return> <value>"; the value starts as a sentinel 7. */
struct skm_rsv_parse_case {
	const char *in;
	const char *want;
};

static const struct skm_rsv_parse_case rsv_parse_cases[] = {
	{ "off",	"0 4294967295" },
	{ "off\n",	"0 4294967295" },
	{ "auto",	"0 0" },
	{ "0",		"0 0" },
	{ "1",		"0 1" },
	{ "256\n",	"0 256" },
	{ "1048576",	"0 1048576" },
	{ "1048577",	"-22 7" },
	{ "-1",		"-22 7" },
	{ "Auto",	"-22 7" },
	{ "offf",	"-22 7" },
	{ "1 MB",	"-22 7" },
	{ "",		"-22 7" },
};

static void skm_rsv_parse_desc(const struct skm_rsv_parse_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->in);
}

KUNIT_ARRAY_PARAM(skm_rsv_parse, rsv_parse_cases, skm_rsv_parse_desc);

static void skm_pcpu_rsv_parse_test(struct kunit *test)
{
	const struct skm_rsv_parse_case *c = test->param_value;
	u32 val = 7;
	char got[32];
	int ret;

	ret = skm_pcpu_rsv_parse(c->in, &val);
	snprintf(got, sizeof(got), "%d %u", ret, val);
	KUNIT_EXPECT_STREQ(test, got, c->want);
}

struct skm_rsv_print_case {
	u32 val;
	const char *want;
};

static const struct skm_rsv_print_case rsv_print_cases[] = {
	{ SKM_PCPU_RSV_OFF,	"off" },
	{ SKM_PCPU_RSV_AUTO,	"auto" },
	{ 256,			"256" },
	{ SKM_PCPU_RSV_MAX_PAGES, "1048576" },
};

static void skm_rsv_print_desc(const struct skm_rsv_print_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u", c->val);
}

KUNIT_ARRAY_PARAM(skm_rsv_print, rsv_print_cases, skm_rsv_print_desc);

static void skm_pcpu_rsv_print_test(struct kunit *test)
{
	const struct skm_rsv_print_case *c = test->param_value;
	char buf[16];

	skm_pcpu_rsv_print(c->val, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, c->want);
}

static struct kunit_case skm_pcpu_test_cases[] = {
	KUNIT_CASE_PARAM(skm_pcpu_auto_rsv_test, skm_auto_gen_params),
	KUNIT_CASE_PARAM(skm_pcpu_uncertainty_test, skm_uncertainty_gen_params),
	KUNIT_CASE_PARAM(skm_pcpu_drain_due_test, skm_drain_gen_params),
	KUNIT_CASE_PARAM(skm_pcpu_node_bound_test, skm_node_bound_gen_params),
	KUNIT_CASE_PARAM(skm_pcpu_node_drain_test, skm_node_drain_gen_params),
	KUNIT_CASE_PARAM(skm_pcpu_rsv_parse_test, skm_rsv_parse_gen_params),
	KUNIT_CASE_PARAM(skm_pcpu_rsv_print_test, skm_rsv_print_gen_params),
	{}
};

static struct kunit_suite skm_pcpu_test_suite = {
	.name = "skmemcg_pcpu",
	.test_cases = skm_pcpu_test_cases,
};

kunit_test_suite(skm_pcpu_test_suite);
