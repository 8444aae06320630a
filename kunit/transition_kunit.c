// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for transition.c: the steps of one transition of the
 * policies, and their order's preconditions: who is reported, refused,
 * prepared, hooked, released, and when a wait and the freeing of every
 * memcg's state come.
 *
 * Policies as in policy.h: T throttle (1), E exclusive (2), R reclaim (4),
 * L sock_limits (8); T, E and L have a cgroup list, E releases.
 */
#include <kunit/test.h>

#include "transition.h"

#define T	0x1
#define E	0x2
#define R	0x4
#define L	0x8
#define LISTED		(T | E | L)
#define RELEASING	E

struct skm_transition_case {
	const char *desc;
	unsigned int live, asked, refused, asked_last;
	bool strict;
	const char *want;	/* skm_transition_str() of the plan */
};

/* The plan as one line, so that a case is one expectation. */
static void skm_transition_str(struct skm_transition t, char *buf, size_t size)
{
	snprintf(buf, size,
		 "report=%x refuse=%d resolve=%d prepare=%x want=%x quiesce=%d release=%x free=%d",
		 t.report, t.refuse, t.resolve, t.prepare, t.want, t.quiesce,
		 t.release, t.free_state);
}

static const struct skm_transition_case transition_cases[] = {
	{ "load, nothing asked", 0, 0, 0, 0, false,
	  "report=0 refuse=0 resolve=0 prepare=0 want=0 quiesce=0 release=0 free=0" },
	{ "throttle on: lists resolved, prepared", 0, T, 0, 0, true,
	  "report=0 refuse=0 resolve=1 prepare=1 want=1 quiesce=0 release=0 free=0" },
	{ "reclaim on: no list to resolve", 0, R, 0, 0, true,
	  "report=0 refuse=0 resolve=0 prepare=4 want=4 quiesce=0 release=0 free=0" },
	{ "a second policy on: only it prepared", T, T | L, 0, T, true,
	  "report=0 refuse=0 resolve=1 prepare=8 want=9 quiesce=0 release=0 free=0" },
	{ "throttle off, reclaim stays: no wait", T | R, R, 0, T | R, true,
	  "report=0 refuse=0 resolve=0 prepare=0 want=4 quiesce=0 release=0 free=0" },
	{ "exclusive off: wait, then release", T | E, T, 0, T | E, true,
	  "report=0 refuse=0 resolve=0 prepare=0 want=1 quiesce=1 release=2 free=0" },
	{ "last policy off: wait, free the state", R, 0, 0, R, true,
	  "report=0 refuse=0 resolve=0 prepare=0 want=0 quiesce=1 release=0 free=1" },
	{ "master switch off: all of it", T | E | R | L, 0, 0, T | E | R | L, true,
	  "report=0 refuse=0 resolve=0 prepare=0 want=0 quiesce=1 release=2 free=1" },
	{ "refused alone, by a setter: refused", 0, R, R, 0, true,
	  "report=4 refuse=1 resolve=0 prepare=0 want=0 quiesce=0 release=0 free=0" },
	{ "refused alone, at load: left off", 0, R, R, 0, false,
	  "report=4 refuse=0 resolve=0 prepare=0 want=0 quiesce=0 release=0 free=0" },
	{ "refused, live ones kept", T, T | R, R, T, true,
	  "report=4 refuse=1 resolve=0 prepare=0 want=1 quiesce=0 release=0 free=0" },
	{ "refused beside one that is not: goes on", 0, T | R, R, 0, true,
	  "report=4 refuse=0 resolve=1 prepare=1 want=1 quiesce=0 release=0 free=0" },
	{ "refused and asked before: not again", T, T | R, R, T | R, true,
	  "report=0 refuse=0 resolve=0 prepare=0 want=1 quiesce=0 release=0 free=0" },
};

static void skm_transition_desc(const struct skm_transition_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_transition, transition_cases, skm_transition_desc);

static void skm_transition_test(struct kunit *test)
{
	const struct skm_transition_case *c = test->param_value;
	struct skm_transition_in in = {
		.live = c->live,
		.asked = c->asked,
		.refused = c->refused,
		.asked_last = c->asked_last,
		.listed = LISTED,
		.releasing = RELEASING,
		.strict = c->strict,
	};
	char got[160];

	skm_transition_str(skm_transition_plan(in), got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got, c->want);
}

static struct kunit_case skm_transition_test_cases[] = {
	KUNIT_CASE_PARAM(skm_transition_test, skm_transition_gen_params),
	{}
};

static struct kunit_suite skm_transition_test_suite = {
	.name = "skmemcg_transition",
	.test_cases = skm_transition_test_cases,
};

kunit_test_suite(skm_transition_test_suite);
