// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for throttle_policy.c: each source's levels at their boundaries, and
 * the throttle decision of __sk_mem_raise_allocated() as a table, plus its
 * invariants over every combination of its inputs.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/limits.h>

#include "throttle_policy.h"

/* vmpressure: pressure = (scale - reclaimed * scale / scanned) * 100 / scale */
struct skm_vmpr_case {
	const char *desc;
	unsigned long scanned;
	unsigned long reclaimed;
	enum skm_level want;
};

static const struct skm_vmpr_case vmpr_cases[] = {
	{ "zero scanned",		0,	0,	SKM_LEVEL_NONE },
	{ "window not full",		511,	0,	SKM_LEVEL_NONE },
	{ "window full, none back",	512,	0,	SKM_LEVEL_CRITICAL },
	{ "59% not reclaimed",		1000,	401,	SKM_LEVEL_NONE },
	{ "60% not reclaimed",		1000,	400,	SKM_LEVEL_MEDIUM },
	{ "94% not reclaimed",		1000,	51,	SKM_LEVEL_MEDIUM },
	{ "95% not reclaimed",		1000,	50,	SKM_LEVEL_CRITICAL },
	{ "all reclaimed",		1000,	1000,	SKM_LEVEL_NONE },
	{ "more reclaimed (slab)",	600,	700,	SKM_LEVEL_NONE },
	{ "huge window",		ULONG_MAX / 200, 0, SKM_LEVEL_CRITICAL },
};

static void skm_vmpr_desc(const struct skm_vmpr_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_vmpr, vmpr_cases, skm_vmpr_desc);

static void skm_vmpressure_level_test(struct kunit *test)
{
	const struct skm_vmpr_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_vmpressure_level(c->scanned, c->reclaimed),
			c->want);
}

/* psi: averages are percent << 11 */
struct skm_psi_case {
	const char *desc;
	unsigned long some;
	unsigned long full;
	unsigned int some_pct;
	unsigned int full_pct;
	enum skm_level want;
};

#define PCT(x)	((unsigned long)(x) << SKM_PSI_FSHIFT)

static const struct skm_psi_case psi_cases[] = {
	{ "idle",			0,		0,		10, 5, SKM_LEVEL_NONE },
	{ "some just below",		PCT(10) - 1,	0,		10, 5, SKM_LEVEL_NONE },
	{ "some at threshold",		PCT(10),	0,		10, 5, SKM_LEVEL_MEDIUM },
	{ "full just below",		PCT(10),	PCT(5) - 1,	10, 5, SKM_LEVEL_MEDIUM },
	{ "full at threshold",		PCT(10),	PCT(5),		10, 5, SKM_LEVEL_CRITICAL },
	{ "full alone",			0,		PCT(50),	10, 5, SKM_LEVEL_CRITICAL },
	{ "some off",			PCT(100),	0,		0,  5, SKM_LEVEL_NONE },
	{ "full off",			PCT(100),	PCT(100),	10, 0, SKM_LEVEL_MEDIUM },
	{ "100% threshold",		PCT(100),	0,		100, 0, SKM_LEVEL_MEDIUM },
};

static void skm_psi_desc(const struct skm_psi_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_psi, psi_cases, skm_psi_desc);

static void skm_psi_level_test(struct kunit *test)
{
	const struct skm_psi_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_psi_level(c->some, c->full, c->some_pct,
					    c->full_pct), c->want);
}

struct skm_events_case {
	bool high;
	bool max_or_oom;
	enum skm_level want;
};

static const struct skm_events_case events_cases[] = {
	{ false, false,	SKM_LEVEL_NONE },
	{ true,  false,	SKM_LEVEL_MEDIUM },
	{ false, true,	SKM_LEVEL_CRITICAL },
	{ true,  true,	SKM_LEVEL_CRITICAL },
};

static void skm_events_desc(const struct skm_events_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "high=%d max/oom=%d", c->high,
		 c->max_or_oom);
}

KUNIT_ARRAY_PARAM(skm_events, events_cases, skm_events_desc);

static void skm_events_level_test(struct kunit *test)
{
	const struct skm_events_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_events_level(c->high, c->max_or_oom), c->want);
}

/* headroom: max 1000 pages, 5% reserve = 50: medium > 900, critical > 950 */
struct skm_headroom_case {
	const char *desc;
	unsigned long usage;
	unsigned long charge;
	unsigned long high;
	unsigned long max;
	unsigned int pct;
	enum skm_level want;
};

#define NOLIMIT	(LONG_MAX / 4096)	/* PAGE_COUNTER_MAX with 4K pages */

static const struct skm_headroom_case headroom_cases[] = {
	{ "far below",		100,  1,  NOLIMIT, 1000, 5, SKM_LEVEL_NONE },
	{ "at medium edge",	899,  1,  NOLIMIT, 1000, 5, SKM_LEVEL_NONE },
	{ "into medium",	900,  1,  NOLIMIT, 1000, 5, SKM_LEVEL_MEDIUM },
	{ "at critical edge",	949,  1,  NOLIMIT, 1000, 5, SKM_LEVEL_MEDIUM },
	{ "into the reserve",	950,  1,  NOLIMIT, 1000, 5, SKM_LEVEL_CRITICAL },
	{ "charge crosses max",	990,  20, NOLIMIT, 1000, 5, SKM_LEVEL_CRITICAL },
	{ "already over max",	1100, 1,  NOLIMIT, 1000, 5, SKM_LEVEL_CRITICAL },
	{ "past memory.high",	501,  0,  500,     1000, 5, SKM_LEVEL_MEDIUM },
	{ "at memory.high",	500,  0,  500,     1000, 5, SKM_LEVEL_NONE },
	{ "no limits",		1UL << 40, 1UL << 20, NOLIMIT, NOLIMIT, 5, SKM_LEVEL_NONE },
	{ "no reserve",		999,  1,  NOLIMIT, 1000, 0, SKM_LEVEL_NONE },
	{ "no reserve, over",	1000, 1,  NOLIMIT, 1000, 0, SKM_LEVEL_CRITICAL },
	{ "pct 90 clamped to 50", 500, 1,  NOLIMIT, 1000, 90, SKM_LEVEL_CRITICAL },
	{ "50: edge of reserve", 499, 1,  NOLIMIT, 1000, 90, SKM_LEVEL_MEDIUM },
	{ "sum overflows",	ULONG_MAX - 1, 10, NOLIMIT, NOLIMIT, 5, SKM_LEVEL_CRITICAL },
	{ "max 0",		0,    0,  NOLIMIT, 0,    5, SKM_LEVEL_NONE },
	{ "max 0, charge",	0,    1,  NOLIMIT, 0,    5, SKM_LEVEL_CRITICAL },
	{ "huge max, no wrap",	ULONG_MAX / 2, 0, ULONG_MAX, ULONG_MAX, 50, SKM_LEVEL_MEDIUM },
	/* max 1005, 10 %: reserve 100 (rounded down), medium past 805 pages */
	{ "past the product, below medium", 805, 0, NOLIMIT, 1005, 10, SKM_LEVEL_NONE },
	{ "one page into medium", 805, 1, NOLIMIT, 1005, 10, SKM_LEVEL_MEDIUM },
	{ "at the product bound", 804, 0, NOLIMIT, 1005, 10, SKM_LEVEL_NONE },
	{ "below high, over the product max", SKM_HEADROOM_PRODUCT_MAX, 1, ULONG_MAX,
	  ULONG_MAX, 10, SKM_LEVEL_NONE },
};

static void skm_headroom_desc(const struct skm_headroom_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_headroom, headroom_cases, skm_headroom_desc);

static void skm_headroom_level_test(struct kunit *test)
{
	const struct skm_headroom_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_headroom_level(c->usage, c->charge, c->high,
						 c->max, c->pct), c->want);
}

/*
 * skm_headroom_clear(), the quiet fast path's test with no division: where
 * it says clear, skm_headroom_level() says none, for every row above.
 */
static void skm_headroom_clear_implies_none_test(struct kunit *test)
{
	const struct skm_headroom_case *c = test->param_value;

	KUNIT_EXPECT_TRUE(test, !skm_headroom_clear(c->usage, c->charge, c->high,
						    c->max, c->pct) ||
			  skm_headroom_level(c->usage, c->charge, c->high, c->max,
					     c->pct) == SKM_LEVEL_NONE);
}

struct skm_clear_case {
	const char *desc;
	unsigned long usage, charge, high, max;
	unsigned int pct;
	bool want;
};

/* max 1005, 10 %: the product bound is 804 pages, the medium line 805 */
static const struct skm_clear_case clear_cases[] = {
	{ "no limits",			1UL << 40, 32, NOLIMIT, NOLIMIT, 10, true },
	{ "at the product bound",	804, 0, NOLIMIT, 1005, 10, true },
	{ "one page past it",		804, 1, NOLIMIT, 1005, 10, false },
	{ "past memory.high",		501, 0, 500, NOLIMIT, 10, false },
	{ "at memory.high",		500, 0, 500, NOLIMIT, 10, true },
	{ "sum overflows",		ULONG_MAX - 1, 10, ULONG_MAX, ULONG_MAX, 0, false },
	{ "usage past the product max",	SKM_HEADROOM_PRODUCT_MAX + 1, 0, ULONG_MAX,
	  ULONG_MAX, 0, false },
	{ "max past the product max",	1, 0, ULONG_MAX, SKM_HEADROOM_PRODUCT_MAX + 1, 0,
	  false },
	{ "pct 90 clamped to 50: none clear", 0, 1, NOLIMIT, 1000, 90, false },
	{ "pct 0: up to max",		999, 1, NOLIMIT, 1000, 0, true },
};

static void skm_clear_desc(const struct skm_clear_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_clear, clear_cases, skm_clear_desc);

static void skm_headroom_clear_test(struct kunit *test)
{
	const struct skm_clear_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, skm_headroom_clear(c->usage, c->charge, c->high,
						 c->max, c->pct), c->want);
}

/*
 * The decision table. Limits are tcp_mem 100 200 300 pages; "allocated" is
 * the global count with this charge. Verdict bits: T throttle, L leave and E
 * enter global pressure first; "-" leaves it to the kernel.
 */
struct skm_raise_case {
	const char *desc;
	bool aware;
	bool softirq;
	enum skm_level level;
	enum skm_level throttle_level;
	long allocated;
	bool below_min;
	bool fair;
	const char *want;
};

#define M	SKM_LEVEL_MEDIUM
#define C	SKM_LEVEL_CRITICAL
#define N	SKM_LEVEL_NONE

static const struct skm_raise_case raise_cases[] = {
	/* desc				aware  sirq  level thr  alloc min  fair  want */
	{ "no pressure",		true,  false, N,   M,   50,  false, false, "-" },
	{ "UDP under critical",		false, false, C,   M,   50,  false, false, "-" },
	{ "UDP in softirq",		false, true,  C,   M,   50,  false, false, "-" },
	{ "TX at medium",		true,  false, M,   M,   50,  false, false, "TL" },
	{ "TX at critical",		true,  false, C,   M,   50,  false, false, "TL" },
	{ "TX medium, thr critical",	true,  false, M,   C,   50,  false, false, "-" },
	{ "TX critical, thr critical",	true,  false, C,   C,   50,  false, false, "TL" },
	{ "RX softirq at medium",	true,  true,  M,   M,   50,  false, false, "-" },
	{ "RX softirq at critical",	true,  true,  C,   M,   50,  false, false, "TL" },
	{ "RX process ctx at medium",	true,  false, M,   M,   50,  false, false, "TL" },
	{ "min guarantee",		true,  false, M,   M,   50,  true,  false, "-" },
	{ "min guarantee, softirq",	true,  true,  C,   M,   150, true,  false, "-" },
	{ "between min and pressure",	true,  false, M,   M,   150, false, false, "T" },
	{ "fair share does not pass",	true,  false, M,   M,   150, false, true,  "T" },
	{ "fair share, critical RX",	true,  true,  C,   M,   250, false, true,  "TE" },
	{ "over pressure limit",	true,  false, M,   M,   250, false, false, "TE" },
	{ "min kept under pressure lim", true, false, M,   M,   250, true,  false, "-" },
	{ "over hard limit",		true,  false, M,   M,   350, false, false, "TE" },
	{ "over hard, min not kept",	true,  false, M,   M,   350, true,  false, "TE" },
	{ "over hard, fair share",	true,  true,  C,   M,   350, true,  true,  "TE" },
	{ "at min limit exactly",	true,  false, M,   M,   100, false, false, "TL" },
	{ "at pressure limit exactly",	true,  false, M,   M,   200, false, false, "T" },
	{ "at hard limit exactly",	true,  false, M,   M,   300, true,  false, "-" },
};

static void skm_raise_desc(const struct skm_raise_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_raise, raise_cases, skm_raise_desc);

static struct skm_raise_in skm_raise_in(const struct skm_raise_case *c)
{
	return (struct skm_raise_in) {
		.pressure_aware = c->aware,
		.softirq = c->softirq,
		.level = c->level,
		.throttle_level = c->throttle_level,
		.allocated = c->allocated,
		.limits = { 100, 200, 300 },
		.below_min = c->below_min,
		.below_fair_share = c->fair,
	};
}

static void skm_verdict_str(unsigned int v, char *buf)
{
	char *p = buf;

	if (v & SKM_RAISE_THROTTLE)
		*p++ = 'T';
	if (v & SKM_RAISE_LEAVE_PRESSURE)
		*p++ = 'L';
	if (v & SKM_RAISE_ENTER_PRESSURE)
		*p++ = 'E';
	if (p == buf)
		*p++ = '-';
	*p = '\0';
}

static void skm_raise_decide_test(struct kunit *test)
{
	const struct skm_raise_case *c = test->param_value;
	char got[8];

	skm_verdict_str(skm_raise_decide(skm_raise_in(c)), got);
	KUNIT_EXPECT_STREQ(test, got, c->want);
}

/*
 * Invariants over every combination: aware x softirq x level x
 * throttle_level x allocated (4 regions) x below_min x fair share.
 */
#define SKM_RAISE_COMBOS	(2 * 2 * 3 * 2 * 4 * 2 * 2)

static struct skm_raise_in skm_raise_combo(unsigned int i)
{
	static const long allocated[] = { 50, 150, 250, 350 };

	return (struct skm_raise_in) {
		.pressure_aware = i & 1,
		.softirq = (i >> 1) & 1,
		.level = (i >> 2) % 3,
		.throttle_level = (i / 12) % 2 ? SKM_LEVEL_CRITICAL : SKM_LEVEL_MEDIUM,
		.allocated = allocated[(i / 24) % 4],
		.limits = { 100, 200, 300 },
		.below_min = (i / 96) % 2,
		.below_fair_share = (i / 192) % 2,
	};
}

struct skm_invariant {
	const char *desc;
	bool (*holds)(struct skm_raise_in in, unsigned int verdict);
};

static bool skm_unaware_untouched(struct skm_raise_in in, unsigned int v)
{
	return in.pressure_aware || !v;
}

static bool skm_softirq_only_critical(struct skm_raise_in in, unsigned int v)
{
	return !in.softirq || in.level == SKM_LEVEL_CRITICAL || !v;
}

static bool skm_no_throttle_without_pressure(struct skm_raise_in in, unsigned int v)
{
	return in.level != SKM_LEVEL_NONE || !v;
}

static bool skm_threshold_respected(struct skm_raise_in in, unsigned int v)
{
	return in.level >= in.throttle_level || !v;
}

static bool skm_hard_limit_always_suppresses(struct skm_raise_in in, unsigned int v)
{
	return in.allocated <= in.limits[2] || !v || (v & SKM_RAISE_THROTTLE);
}

static bool skm_fair_share_irrelevant(struct skm_raise_in in, unsigned int v)
{
	in.below_fair_share = !in.below_fair_share;
	return skm_raise_decide(in) == v;
}

static bool skm_min_kept_below_hard(struct skm_raise_in in, unsigned int v)
{
	return !in.below_min || in.allocated > in.limits[2] || !v;
}

static bool skm_throttles_when_due(struct skm_raise_in in, unsigned int v)
{
	bool due = in.pressure_aware && !in.below_min &&
		   skm_throttle_applies(in.level, in.softirq, in.throttle_level);

	return !due || (v & SKM_RAISE_THROTTLE);
}

static const struct skm_invariant invariants[] = {
	{ "pressure-unaware sockets are left to the kernel", skm_unaware_untouched },
	{ "softirq (RX) is throttled only at critical", skm_softirq_only_critical },
	{ "no pressure, no throttle", skm_no_throttle_without_pressure },
	{ "process context respects throttle_level", skm_threshold_respected },
	{ "over the hard limit a verdict always throttles", skm_hard_limit_always_suppresses },
	{ "the fair-share pass never changes the verdict", skm_fair_share_irrelevant },
	{ "the min guarantee holds below the hard limit", skm_min_kept_below_hard },
	{ "throttles whenever pressure is due", skm_throttles_when_due },
};

static void skm_invariant_desc(const struct skm_invariant *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_invariant, invariants, skm_invariant_desc);

/* One expectation: the number of combinations that break the invariant. */
static void skm_raise_invariant_test(struct kunit *test)
{
	const struct skm_invariant *inv = test->param_value;
	unsigned int i, broken = 0;

	for (i = 0; i < SKM_RAISE_COMBOS; i++) {
		struct skm_raise_in in = skm_raise_combo(i);

		broken += !inv->holds(in, skm_raise_decide(in));
	}
	KUNIT_EXPECT_EQ(test, broken, 0U);
}

struct skm_sources_case {
	const char *in;
	const char *want;	/* "<ret> <printed mask>" */
};

static const struct skm_sources_case sources_cases[] = {
	{ "vmpressure",			"0 vmpressure" },
	{ "psi,events",			"0 psi,events" },
	{ "events,psi\n",		"0 psi,events" },
	{ "headroom,vmpressure,psi,events", "0 vmpressure,psi,events,headroom" },
	{ "psi,psi",			"0 psi" },
	{ "",				"-22 vmpressure" },
	{ "\n",				"-22 vmpressure" },
	{ ",",				"-22 vmpressure" },
	{ "psi,",			"-22 vmpressure" },
	{ ",psi",			"-22 vmpressure" },
	{ "psi,,events",		"-22 vmpressure" },
	{ "PSI",			"-22 vmpressure" },
	{ "psi events",			"-22 vmpressure" },
	{ "vmpressure2",		"-22 vmpressure" },
	{ "none",			"-22 vmpressure" },
};

static void skm_sources_desc(const struct skm_sources_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->in);
}

KUNIT_ARRAY_PARAM(skm_sources, sources_cases, skm_sources_desc);

/* The output starts as just "vmpressure", which a refused input keeps. */
static void skm_sources_parse_test(struct kunit *test)
{
	const struct skm_sources_case *c = test->param_value;
	unsigned int mask = BIT(SKM_SOURCE_VMPRESSURE);
	char got[64];
	int len, ret;

	ret = skm_sources_parse(c->in, &mask);
	len = snprintf(got, sizeof(got), "%d ", ret);
	skm_sources_print(mask, got + len, sizeof(got) - len);
	KUNIT_EXPECT_STREQ(test, got, c->want);
}

struct skm_quiet_case {
	const char *desc;
	unsigned long now, last_reclaim, hold_until, window;
	bool want;
};

static const struct skm_quiet_case quiet_cases[] = {
	{ "never any reclaim, window past",	5000, 0, 0, 1000, true },
	{ "reclaim inside the window",		5000, 4500, 0, 1000, false },
	{ "reclaim exactly a window ago",	5000, 4000, 0, 1000, false },
	{ "one jiffy past the window",		5001, 4000, 0, 1000, true },
	{ "quiet but a level is held",		5000, 0, 6000, 1000, false },
	{ "hold expired",			6001, 0, 6000, 1000, true },
	{ "wrap: reclaim just before it",	5, ULONG_MAX - 5, 0, 1000, false },
	{ "wrap: window past across it",	2000, ULONG_MAX - 5, 0, 1000, true },
	{ "wrap: hold across it",		5, 0, 100, 0, false },
	{ "zero window, same jiffy",		7, 7, 0, 0, false },
};

static void skm_quiet_desc(const struct skm_quiet_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_quiet, quiet_cases, skm_quiet_desc);

static void skm_pressure_quiet_test(struct kunit *test)
{
	const struct skm_quiet_case *c = test->param_value;

	unsigned long after = skm_jiffies_later(c->last_reclaim + c->window,
						c->hold_until);

	KUNIT_EXPECT_EQ(test, skm_pressure_quiet(c->now, after), c->want);
}

static struct kunit_case skm_pressure_test_cases[] = {
	KUNIT_CASE_PARAM(skm_pressure_quiet_test, skm_quiet_gen_params),
	KUNIT_CASE_PARAM(skm_vmpressure_level_test, skm_vmpr_gen_params),
	KUNIT_CASE_PARAM(skm_psi_level_test, skm_psi_gen_params),
	KUNIT_CASE_PARAM(skm_events_level_test, skm_events_gen_params),
	KUNIT_CASE_PARAM(skm_headroom_level_test, skm_headroom_gen_params),
	KUNIT_CASE_PARAM(skm_headroom_clear_implies_none_test, skm_headroom_gen_params),
	KUNIT_CASE_PARAM(skm_headroom_clear_test, skm_clear_gen_params),
	KUNIT_CASE_PARAM(skm_raise_decide_test, skm_raise_gen_params),
	KUNIT_CASE_PARAM(skm_raise_invariant_test, skm_invariant_gen_params),
	KUNIT_CASE_PARAM(skm_sources_parse_test, skm_sources_gen_params),
	{}
};

static struct kunit_suite skm_throttle_test_suite = {
	.name = "skmemcg_throttle",
	.test_cases = skm_pressure_test_cases,
};

kunit_test_suite(skm_throttle_test_suite);
