// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for reclaim_policy.c: each policy's scan fraction at 0%, 40%,
 * 100%, 130%, 200% and 300% of protection in both passes; min above low,
 * low above min, both zero; the seed review's 3G/1G/2G case; the gain; the
 * clamps; 64-bit page counts; the memcg size that makes the kernel's
 * get_scan_count() scan a given fraction; and the per-pass draw that keeps
 * the fraction of a small list after the kernel's shift by the reclaim
 * priority. Sizes in pages, fractions in ppm.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/limits.h>

#include "reclaim_policy.h"

#define ONE	SKM_PPM_ONE
#define GIB	262144ULL	/* pages of 4 KiB */

struct skm_scan_case {
	const char *desc;
	enum skm_reclaim_policy policy;
	u64 usage;
	u64 emin;
	u64 elow;
	bool low_reclaim;
	unsigned int gain;
	u32 want;
};

#define CLIFF	SKM_RECLAIM_CLIFF
#define SEED	SKM_RECLAIM_SEED
#define LINEAR	SKM_RECLAIM_LINEAR

/* First pass: p = elow = 1000. Low-reclaim pass: p = emin = 1000, elow 3000. */
#define P1(pol, u, want) \
	{ #pol " pass 1, usage " #u, pol, u, 0, 1000, false, 100, want }
#define P2(pol, u, want) \
	{ #pol " pass 2, usage " #u, pol, u, 1000, 3000, true, 100, want }

static const struct skm_scan_case scan_cases[] = {
	P1(CLIFF, 0, 0), P1(CLIFF, 400, 0), P1(CLIFF, 1000, 0),
	P1(CLIFF, 1300, ONE), P1(CLIFF, 2000, ONE), P1(CLIFF, 3000, ONE),
	P1(SEED, 0, 0), P1(SEED, 400, 0), P1(SEED, 1000, 0),
	P1(SEED, 1300, 300000), P1(SEED, 2000, ONE), P1(SEED, 3000, ONE),
	P1(LINEAR, 0, 999), P1(LINEAR, 400, 999), P1(LINEAR, 1000, 999),
	P1(LINEAR, 1300, 231360), P1(LINEAR, 2000, 500249), P1(LINEAR, 3000, 666777),
	P2(CLIFF, 0, 0), P2(CLIFF, 400, 0), P2(CLIFF, 1000, 0),
	P2(CLIFF, 1300, ONE), P2(CLIFF, 2000, ONE), P2(CLIFF, 3000, ONE),
	P2(SEED, 0, 0), P2(SEED, 400, 400000), P2(SEED, 1000, ONE),
	P2(SEED, 1300, ONE), P2(SEED, 2000, ONE), P2(SEED, 3000, ONE),
	P2(LINEAR, 0, 999), P2(LINEAR, 400, 999), P2(LINEAR, 1000, 999),
	P2(LINEAR, 1300, 231360), P2(LINEAR, 2000, 500249), P2(LINEAR, 3000, 666777),
	/* desc, policy, usage, emin, elow, low-reclaim pass, gain %, want */
	{ "review 3G/1G/2G, pass 2", SEED, 2 * GIB, GIB, 3 * GIB, true, 100, ONE },
	{ "review 3G/1G/2G, pass 1", SEED, 2 * GIB, GIB, 3 * GIB, false, 100, 0 },
	{ "review, min 1.5G, pass 2", SEED, GIB, 3 * GIB / 2, 3 * GIB, true, 100, 666667 },
	{ "min above low, seed", SEED, 3000, 2000, 1000, false, 100, 500000 },
	{ "min above low, linear", LINEAR, 3000, 2000, 1000, false, 100, 333555 },
	{ "low above min, pass 1", LINEAR, 3000, 1000, 2000, false, 100, 333555 },
	{ "both zero, cliff", CLIFF, 10, 0, 0, false, 100, ONE },
	{ "both zero, seed", SEED, 10, 0, 0, true, 100, ONE },
	{ "both zero, linear", LINEAR, 0, 0, 0, false, 100, ONE },
	{ "pass 2, min 0: all", SEED, 500, 0, 1000, true, 100, ONE },
	{ "gain 200, seed 130%", SEED, 1300, 0, 1000, false, 200, 600000 },
	{ "gain 50, seed 200%", SEED, 2000, 0, 1000, false, 50, 500000 },
	{ "gain 200, linear 130%", LINEAR, 1300, 0, 1000, false, 200, 462720 },
	{ "gain 200, linear 200%", LINEAR, 2000, 0, 1000, false, 200, ONE },
	{ "gain 200, seed pass 2 40%", SEED, 400, 1000, 3000, true, 200, 0 },
	{ "gain 0, seed pass 1", SEED, 3000, 0, 1000, false, 0, 0 },
	{ "gain 0, seed pass 2", SEED, 400, 1000, 3000, true, 0, ONE },
	{ "gain 0, linear", LINEAR, 3000, 0, 1000, false, 0, 0 },
	{ "gain 5000% is 1000%", SEED, 1010, 0, 1000, false, 5000, 100000 },
	{ "64-bit usage, seed", SEED, U64_MAX, 0, 1, false, 1000, ONE },
	{ "64-bit usage, linear", LINEAR, U64_MAX, 0, 1, false, 100, 999999 },
	{ "2^62 over 2^61, linear", LINEAR, 1ULL << 62, 0, 1ULL << 61, false, 100, 500000 },
	{ "64-bit min, seed pass 2", SEED, 1ULL << 62, U64_MAX, U64_MAX, true, 100, 250001 },
	{ "a page over 1 TiB, seed", SEED, 1024 * GIB + 1, 0, 1024 * GIB, false, 100, 0 },
	{ "a page over 1 TiB, cliff", CLIFF, 1024 * GIB + 1, 0, 1024 * GIB, false, 100, ONE },
};

static void skm_scan_desc(const struct skm_scan_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_scan, scan_cases, skm_scan_desc);

static void skm_reclaim_scan_ppm_test(struct kunit *test)
{
	const struct skm_scan_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_reclaim_scan_ppm(c->policy, c->usage, c->emin,
						   c->elow, c->low_reclaim,
						   c->gain), c->want);
}

/* A page count and a fraction in, a page count out. */
struct skm_ppm_case {
	const char *desc;
	u64 pages;
	u32 ppm;
	u64 want;
};

static void skm_ppm_desc(const struct skm_ppm_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

/* skm_reclaim_scan_pages(): pages = the LRU list's size */
static const struct skm_ppm_case pages_cases[] = {
	{ "none: SWAP_CLUSTER_MAX",	1000, 0, 32 },
	{ "short list: all of it",	10, 0, 10 },
	{ "empty list",			0, ONE, 0 },
	{ "all",			1000, ONE, 1000 },
	{ "half",			1000, 500000, 500 },
	{ "above one: the list",	1000, 2 * ONE, 1000 },
	{ "64-bit list, half",		U64_MAX, 500000, U64_MAX / 2 },
};

KUNIT_ARRAY_PARAM(skm_pages, pages_cases, skm_ppm_desc);

static void skm_reclaim_scan_pages_test(struct kunit *test)
{
	const struct skm_ppm_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_reclaim_scan_pages(c->pages, c->ppm), c->want);
}

/* skm_reclaim_min_cap_ppm(usage, emin): the share above memory.min */
struct skm_cap_case {
	const char *desc;
	u64 usage;
	u64 emin;
	u32 want;
};

static const struct skm_cap_case cap_cases[] = {
	{ "no memory.min: all",			1000, 0, ONE },
	{ "twice emin: half",			1999, 1000, 500000 },
	{ "a page above emin: about nothing",	16384, 16383, 122 },
	{ "at emin: about nothing",		16383, 16383, 61 },
	{ "below emin: as at emin",		100, 16383, 61 },
	{ "64-bit usage, tiny emin: all but",	U64_MAX, 1, ONE - 1 },
};

static void skm_cap_desc(const struct skm_cap_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_cap, cap_cases, skm_cap_desc);

static void skm_reclaim_min_cap_ppm_test(struct kunit *test)
{
	const struct skm_cap_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_reclaim_min_cap_ppm(c->usage, c->emin), c->want);
}

/* skm_reclaim_batch_ppm(scan_ppm, usage, emin): one MGLRU batch's chance */
struct skm_batch_case {
	const char *desc;
	u32 scan_ppm;
	u64 usage;
	u64 emin;
	u32 want;
};

static const struct skm_batch_case batch_cases[] = {
	{ "no memory.min: the policy's",	500000, 1000, 0, 500000 },
	{ "no memory.min, all: all",		ONE, 1000, 0, ONE },
	{ "at emin: none",			ONE, 16383, 16383, 0 },
	{ "below emin: none",			ONE, 100, 16383, 0 },
	{ "a page above emin: the cap",		ONE, 16384, 16383, 122 },
	{ "twice emin, all: half",		ONE, 1999, 1000, 500000 },
	{ "twice emin, a tenth: a tenth",	100000, 1999, 1000, 100000 },
	{ "nothing used, no memory.min: none",	ONE, 0, 0, 0 },
};

static void skm_batch_desc(const struct skm_batch_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_batch, batch_cases, skm_batch_desc);

static void skm_reclaim_batch_ppm_test(struct kunit *test)
{
	const struct skm_batch_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_reclaim_batch_ppm(c->scan_ppm, c->usage, c->emin),
			c->want);
}

/* skm_reclaim_size_for_ppm(): pages = the protection */
static const struct skm_ppm_case size_cases[] = {
	{ "none: p - 1",		1000, 0, 999 },
	{ "half: 2p - 1",		1000, 500000, 1999 },
	{ "all: no division by zero",	1000, ONE, ULONG_MAX - 1 },
	{ "almost all",			1000, ONE - 1, 999999999 },
	{ "no protection",		0, 500000, 0 },
	{ "2^60 pages, half",		1ULL << 60, 500000, (1ULL << 61) - 1 },
	{ "2^60 pages, almost all: capped", 1ULL << 60, ONE - 1, ULONG_MAX - 1 },
};

KUNIT_ARRAY_PARAM(skm_size, size_cases, skm_ppm_desc);

static void skm_reclaim_size_for_ppm_test(struct kunit *test)
{
	const struct skm_ppm_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_reclaim_size_for_ppm(c->pages, c->ppm), c->want);
}

/*
 * get_scan_count(), as the kernel computes it, given the size returned in
 * place of mem_cgroup_size(): the fraction asked for, to within one step of
 * the size (a page of it moves the scan by about lru / p pages).
 */
static const u32 roundtrip_ppm[] = { 0, 999, 231360, 500000, 666777, 999999, ONE };

static void skm_roundtrip_desc(const u32 *ppm, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u ppm", *ppm);
}

KUNIT_ARRAY_PARAM(skm_roundtrip, roundtrip_ppm, skm_roundtrip_desc);

static void skm_reclaim_kernel_roundtrip_test(struct kunit *test)
{
	const u32 *ppm = test->param_value;
	unsigned long lru = 1000000, p = 4096, size, scan, want;

	size = skm_reclaim_size_for_ppm(p, *ppm);
	size = max(size, p);
	scan = lru - lru * p / (size + 1);
	want = skm_reclaim_scan_pages(lru, *ppm);
	KUNIT_EXPECT_LE(test, max(scan, want) - min(scan, want), lru / p + 1);
}

/* skm_reclaim_dither_ppm(): all or nothing, 1 with probability f */
struct skm_dither_case {
	const char *desc;
	u32 ppm;
	u32 draw;
	u32 want;
};

static const struct skm_dither_case dither_cases[] = {
	{ "f 0, draw 0: none",			0, 0, 0 },
	{ "f 1, last draw: all",		ONE, ONE - 1, ONE },
	{ "f 0.3, draw just below: all",	300000, 299999, ONE },
	{ "f 0.3, draw at f: none",		300000, 300000, 0 },
	{ "above one: all",			2 * ONE, ONE - 1, ONE },
};

static void skm_dither_desc(const struct skm_dither_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_dither, dither_cases, skm_dither_desc);

static void skm_reclaim_dither_ppm_test(struct kunit *test)
{
	const struct skm_dither_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_reclaim_dither_ppm(c->ppm, c->draw), c->want);
}

/*
 * A pass's scan target as the kernel takes it: the policy's pages, shifted
 * right by the reclaim priority. Over 1000 passes whose draws are spread
 * evenly over [0, 1), the drawn targets add up to f of the unprotected
 * target plus (1 - f) of the protected minimum's, exactly, where the
 * fraction itself would round to nothing or to all: a 16 MiB inactive list
 * at f 0.47, priority 11, targets 0 pages a pass (the unprotected 1).
 */
struct skm_passes_case {
	const char *desc;
	u64 lru;
	int priority;
	u32 ppm;
};

static const struct skm_passes_case passes_cases[] = {
	{ "16 MiB list, f 0.47, priority 11",	4096, 11, 470000 },
	{ "110 MiB list, f 0.1, priority 12",	28160, 12, 100000 },
	{ "64 MiB list, f 0.43, priority 9",	16384, 9, 430000 },
	{ "4 GiB list, f 0.23, priority 0",	1ULL << 20, 0, 230000 },
	{ "f 0",				16384, 9, 0 },
	{ "f 1",				16384, 9, ONE },
};

static void skm_passes_desc(const struct skm_passes_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_passes, passes_cases, skm_passes_desc);

static void skm_reclaim_dither_passes_test(struct kunit *test)
{
	const struct skm_passes_case *c = test->param_value;
	const u32 passes = 1000, step = ONE / passes;
	u64 full = c->lru >> c->priority;
	u64 least = skm_reclaim_scan_pages(c->lru, 0) >> c->priority;
	u64 sum = 0, want;
	u32 i, ppm;

	for (i = 0; i < passes; i++) {
		ppm = skm_reclaim_dither_ppm(c->ppm, i * step + step / 2);
		sum += skm_reclaim_scan_pages(c->lru, ppm) >> c->priority;
	}
	want = full * (c->ppm / step) + least * (passes - c->ppm / step);
	KUNIT_EXPECT_EQ(test, sum, want);
}

struct skm_policy_str_case {
	const char *in;
	const char *want;
};

static const struct skm_policy_str_case policy_cases[] = {
	{ "kernel", "0 0" }, { "cliff", "0 1" }, { "seed", "0 2" },
	{ "linear\n", "0 3" }, { "Linear", "-22 7" }, { "none", "-22 7" },
	{ "", "-22 7" }, { "seed linear", "-22 7" },
};

static void skm_policy_desc(const struct skm_policy_str_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->in);
}

KUNIT_ARRAY_PARAM(skm_policy, policy_cases, skm_policy_desc);

static void skm_reclaim_policy_parse_test(struct kunit *test)
{
	const struct skm_policy_str_case *c = test->param_value;
	unsigned int val = 7;
	char got[32];
	int ret;

	ret = skm_reclaim_policy_parse(c->in, &val);
	snprintf(got, sizeof(got), "%d %u", ret, val);
	KUNIT_EXPECT_STREQ(test, got, c->want);
}

static struct kunit_case skm_reclaim_test_cases[] = {
	KUNIT_CASE_PARAM(skm_reclaim_scan_ppm_test, skm_scan_gen_params),
	KUNIT_CASE_PARAM(skm_reclaim_scan_pages_test, skm_pages_gen_params),
	KUNIT_CASE_PARAM(skm_reclaim_min_cap_ppm_test, skm_cap_gen_params),
	KUNIT_CASE_PARAM(skm_reclaim_batch_ppm_test, skm_batch_gen_params),
	KUNIT_CASE_PARAM(skm_reclaim_size_for_ppm_test, skm_size_gen_params),
	KUNIT_CASE_PARAM(skm_reclaim_kernel_roundtrip_test, skm_roundtrip_gen_params),
	KUNIT_CASE_PARAM(skm_reclaim_dither_ppm_test, skm_dither_gen_params),
	KUNIT_CASE_PARAM(skm_reclaim_dither_passes_test, skm_passes_gen_params),
	KUNIT_CASE_PARAM(skm_reclaim_policy_parse_test, skm_policy_gen_params),
	{}
};

static struct kunit_suite skm_reclaim_test_suite = {
	.name = "skmemcg_reclaim",
	.test_cases = skm_reclaim_test_cases,
};

kunit_test_suite(skm_reclaim_test_suite);
