// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for btf_view.c: a hand-made BTF blob, as pahole would write
 * it, read back; a claim that holds and each way one does not; blobs that
 * are not BTF refused; a structure's size.
 *
 * The blob's types, by id:
 *   1 INT "int" (4 bytes)      5 FUNC_PROTO int (2, 7)
 *   2 PTR -> 3                 6 FUNC "evict" -> 5
 *   3 STRUCT "lruvec"          7 PTR -> 8
 *   4 STRUCT "scan_control"    8 TYPEDEF "bool" -> 9
 *     (kind_flag): a at 0,     9 INT "_Bool" (1 byte)
 *     b:2 at 32, c at 64      10 FUNC "dup" -> 5, 11 FUNC "dup" -> 5
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <uapi/linux/btf.h>

#include "btf_view.h"

#define STRS "\0int\0lruvec\0scan_control\0a\0b\0c\0evict\0bool\0_Bool\0dup\0"
enum {
	S_INT = 1, S_LRUVEC = 5, S_SC = 12, S_A = 25, S_B = 27, S_C = 29,
	S_EVICT = 31, S_BOOL = 37, S_UBOOL = 42, S_DUP = 48,
};

#define INFO(kind, kflag, vlen)	(((kflag) << 31) | ((kind) << 24) | (vlen))

static const u32 skm_types[] = {
	/* 1 */ S_INT, INFO(BTF_KIND_INT, 0, 0), 4, 32,
	/* 2 */ 0, INFO(BTF_KIND_PTR, 0, 0), 3,
	/* 3 */ S_LRUVEC, INFO(BTF_KIND_STRUCT, 0, 0), 8,
	/* 4 */ S_SC, INFO(BTF_KIND_STRUCT, 1, 3), 12,
		S_A, 1, 0,
		S_B, 1, (2 << 24) | 32,
		S_C, 1, 64,
	/* 5 */ 0, INFO(BTF_KIND_FUNC_PROTO, 0, 2), 1,
		0, 2,
		0, 7,
	/* 6 */ S_EVICT, INFO(BTF_KIND_FUNC, 0, 0), 5,
	/* 7 */ 0, INFO(BTF_KIND_PTR, 0, 0), 8,
	/* 8 */ S_BOOL, INFO(BTF_KIND_TYPEDEF, 0, 0), 9,
	/* 9 */ S_UBOOL, INFO(BTF_KIND_INT, 0, 0), 1, 8,
	/* 10 */ S_DUP, INFO(BTF_KIND_FUNC, 0, 0), 5,
	/* 11 */ S_DUP, INFO(BTF_KIND_FUNC, 0, 0), 5,
};

struct skm_blob {
	struct btf_header hdr;
	u32 types[ARRAY_SIZE(skm_types)];
	char strs[sizeof(STRS)];
};

static void skm_blob_make(struct skm_blob *b)
{
	memset(b, 0, sizeof(*b));
	b->hdr.magic = BTF_MAGIC;
	b->hdr.version = BTF_VERSION;
	b->hdr.hdr_len = sizeof(b->hdr);
	b->hdr.type_off = 0;
	b->hdr.type_len = sizeof(b->types);
	b->hdr.str_off = sizeof(b->types);
	b->hdr.str_len = sizeof(b->strs);
	memcpy(b->types, skm_types, sizeof(skm_types));
	memcpy(b->strs, STRS, sizeof(STRS));
}

/* The blob opened and indexed in @btf; @b and @index outlive it. */
static void skm_blob_open(struct kunit *test, struct skm_blob *b, u32 *index,
			  struct skm_btf *btf)
{
	skm_blob_make(b);
	KUNIT_ASSERT_EQ(test, skm_btf_open(b, sizeof(*b), btf), 0);
	KUNIT_ASSERT_EQ(test, btf->nr_types, 11U);
	KUNIT_ASSERT_EQ(test, skm_btf_index(btf, index, 16), 0);
}

struct skm_struct_case {
	const char *desc;
	const char *name;
	struct skm_btf_member_claim claim[4];
	unsigned int nr;
	int want;
	int size;		/* skm_btf_struct_size(): the size, or the error */
};

static const struct skm_struct_case struct_cases[] = {
	{ "holds", "scan_control", { { "a", 0, 0 }, { "b", 32, 2 }, { "c", 64, 0 } }, 3, 0, 12 },
	{ "offset moved", "scan_control",
	  { { "a", 0, 0 }, { "b", 32, 2 }, { "c", 72, 0 } }, 3, -EDOM, 12 },
	{ "bitfield width", "scan_control",
	  { { "a", 0, 0 }, { "b", 32, 1 }, { "c", 64, 0 } }, 3, -EDOM, 12 },
	{ "bitfield moved", "scan_control",
	  { { "a", 0, 0 }, { "b", 33, 2 }, { "c", 64, 0 } }, 3, -EDOM, 12 },
	{ "renamed", "scan_control",
	  { { "a", 0, 0 }, { "x", 32, 2 }, { "c", 64, 0 } }, 3, -EDOM, 12 },
	{ "kernel has more", "scan_control", { { "a", 0, 0 }, { "b", 32, 2 } }, 2, -EDOM, 12 },
	{ "copy has more", "scan_control",
	  { { "a", 0, 0 }, { "b", 32, 2 }, { "c", 64, 0 }, { "d", 96, 0 } }, 4, -EDOM, 12 },
	{ "no such struct", "nosuch", { { "a", 0, 0 } }, 1, -ENOENT, -ENOENT },
	{ "a typedef is no struct", "bool", { { "a", 0, 0 } }, 1, -ENOENT, -ENOENT },
};

static void skm_struct_desc(const struct skm_struct_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_struct, struct_cases, skm_struct_desc);

static void skm_btf_struct_check_test(struct kunit *test)
{
	const struct skm_struct_case *c = test->param_value;
	struct skm_blob b;
	struct skm_btf btf;
	u32 index[16];
	char why[96];

	skm_blob_open(test, &b, index, &btf);
	KUNIT_EXPECT_EQ(test, skm_btf_struct_check(&btf, c->name, c->claim, c->nr,
						   why, sizeof(why)), c->want);
}

/* struct_cases again: the size of each structure they name, or the error. */
static void skm_btf_struct_size_test(struct kunit *test)
{
	const struct skm_struct_case *c = test->param_value;
	struct skm_blob b;
	struct skm_btf btf;
	u32 index[16];

	skm_blob_open(test, &b, index, &btf);
	KUNIT_EXPECT_EQ(test, skm_btf_struct_size(&btf, c->name), c->size);
}

struct skm_proto_case {
	const char *desc;
	const char *func;
	int ret;		/* the length, or the error */
	const char *want;
};

static const struct skm_proto_case proto_cases[] = {
	{ "pointers and a typedef", "evict", 29, "int (struct lruvec *, bool *)" },
	{ "no such function", "nosuch", -ENOENT, "" },
	{ "a struct is no function", "lruvec", -ENOENT, "" },
	{ "two of one name", "dup", -ENOTUNIQ, "" },
};

static void skm_proto_desc(const struct skm_proto_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_proto, proto_cases, skm_proto_desc);

static void skm_btf_func_proto_str_test(struct kunit *test)
{
	const struct skm_proto_case *c = test->param_value;
	struct skm_blob b;
	struct skm_btf btf;
	u32 index[16];
	char got[64];
	int ret;

	skm_blob_open(test, &b, index, &btf);
	ret = skm_btf_func_proto_str(&btf, c->func, got, sizeof(got));
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_STREQ(test, got, c->want);
}

/* A buffer too small for the prototype: -ENOSPC, never an overrun. */
static void skm_btf_func_proto_str_small_test(struct kunit *test)
{
	struct skm_blob b;
	struct skm_btf btf;
	u32 index[16];
	char got[16];

	memset(got, '.', sizeof(got));
	skm_blob_open(test, &b, index, &btf);
	KUNIT_EXPECT_EQ(test, skm_btf_func_proto_str(&btf, "evict", got, 12), -ENOSPC);
	KUNIT_EXPECT_EQ(test, got[12], '.');
}

/* Each way of breaking the blob: (offset into it, value written, length). */
struct skm_open_case {
	const char *desc;
	size_t at;
	u32 val;
	size_t len_less;
};

static const struct skm_open_case open_cases[] = {
	{ "bad magic", 0, 0xbeef, 0 },
	{ "types past the end", offsetof(struct btf_header, type_len), 4096, 0 },
	{ "strings past the end", offsetof(struct btf_header, str_off), 4096, 0 },
	{ "an unknown kind", sizeof(struct btf_header) + 4, INFO(31, 0, 0), 0 },
	{ "a struct's members cut", sizeof(struct btf_header) + 11 * 4,
	  INFO(BTF_KIND_STRUCT, 1, 200), 0 },
	{ "the blob cut short", 0, BTF_MAGIC, 8 },
	{ "header longer than the blob", offsetof(struct btf_header, hdr_len), 4096, 0 },
};

static void skm_open_desc(const struct skm_open_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_open, open_cases, skm_open_desc);

static void skm_btf_open_refuses_test(struct kunit *test)
{
	const struct skm_open_case *c = test->param_value;
	struct skm_blob b;
	struct skm_btf btf;

	skm_blob_make(&b);
	if (c->at == 0)
		b.hdr.magic = c->val;
	else
		memcpy((u8 *)&b + c->at, &c->val, sizeof(c->val));
	KUNIT_EXPECT_EQ(test, skm_btf_open(&b, sizeof(b) - c->len_less, &btf), -EINVAL);
}

static struct kunit_case skm_btf_view_test_cases[] = {
	KUNIT_CASE_PARAM(skm_btf_struct_check_test, skm_struct_gen_params),
	KUNIT_CASE_PARAM(skm_btf_struct_size_test, skm_struct_gen_params),
	KUNIT_CASE_PARAM(skm_btf_func_proto_str_test, skm_proto_gen_params),
	KUNIT_CASE(skm_btf_func_proto_str_small_test),
	KUNIT_CASE_PARAM(skm_btf_open_refuses_test, skm_open_gen_params),
	{}
};

static struct kunit_suite skm_btf_view_test_suite = {
	.name = "skmemcg_btf_view",
	.test_cases = skm_btf_view_test_cases,
};

kunit_test_suite(skm_btf_view_test_suite);
