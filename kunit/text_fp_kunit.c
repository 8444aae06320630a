// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for text_fp.c: the forms one build of a function takes in a
 * running kernel (ftrace site, static keys, return thunks, retpolines,
 * LOCK on a uniprocessor, KASLR, IBT sealing, tracepoint static calls)
 * fingerprint alike; a change to the source (another callee, field,
 * constant, condition, register, one instruction more) does not.
 * Instructions are written decoded, as insn_decode() would leave them.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "text_fp.h"

/* nopl 0x0(%rax,%rax,1): the 5-byte no-op */
#define NOP5		{ .opcode = { 0x0f, 0x1f }, .opcode_len = 2, .has_modrm = 1, \
			  .modrm = 0x44, .has_sib = 1, .disp_bytes = 1 }
#define FTRACE_NOP	{ .opcode = { 0x0f, 0x1f }, .opcode_len = 2, .has_modrm = 1, \
			  .modrm = 0x44, .has_sib = 1, .disp_bytes = 1, .at_ftrace_site = 1 }
#define FTRACE_CALL	{ .opcode = { 0xe8 }, .opcode_len = 1, .imm_bytes = 4, \
			  .imm = 0x3a0c1000, .callee = "", .at_ftrace_site = 1 }
#define ENDBR64		{ .prefixes = { 0xf3 }, .nr_prefixes = 1, .opcode = { 0x0f, 0x1e }, \
			  .opcode_len = 2, .has_modrm = 1, .modrm = 0xfa }
/* What IBT sealing writes over an ENDBR64: a 4-byte no-op */
#define ENDBR_SEALED	{ .prefixes = { 0x66 }, .nr_prefixes = 1, .opcode = { 0x0f, 0x1f }, \
			  .opcode_len = 2, .has_modrm = 1, .modrm = 0x00 }
#define JMP32(off)	{ .opcode = { 0xe9 }, .opcode_len = 1, .imm_bytes = 4, .imm = (off) }
#define RET		{ .opcode = { 0xc3 }, .opcode_len = 1 }
#define INT3		{ .opcode = { 0xcc }, .opcode_len = 1 }
#define CALL(name)	{ .opcode = { 0xe8 }, .opcode_len = 1, .imm_bytes = 4, \
			  .imm = 0x1234, .callee = (name) }
/* call *%rax, and the lfence some CPUs' retpolines put before it */
#define CALL_RAX	{ .opcode = { 0xff }, .opcode_len = 1, .has_modrm = 1, .modrm = 0xd0 }
#define LFENCE		{ .opcode = { 0x0f, 0xae }, .opcode_len = 2, .has_modrm = 1, .modrm = 0xe8 }
/* lock add %rax,(%rdi), or with DS for LOCK on a uniprocessor */
#define ADD_PFX(pfx)	{ .prefixes = { (pfx) }, .nr_prefixes = 1, .rex = 0x48, \
			  .opcode = { 0x01 }, .opcode_len = 1, .has_modrm = 1, .modrm = 0x07 }
/* mov disp32(%rip),%rax */
#define MOV_RIP(d)	{ .rex = 0x48, .opcode = { 0x8b }, .opcode_len = 1, .has_modrm = 1, \
			  .modrm = 0x05, .disp_bytes = 4, .disp = (d) }
/* mov %gs:disp32,%rax: a per-CPU variable */
#define MOV_GS(d)	{ .prefixes = { 0x65 }, .nr_prefixes = 1, .rex = 0x48, \
			  .opcode = { 0x8b }, .opcode_len = 1, .has_modrm = 1, .modrm = 0x04, \
			  .has_sib = 1, .sib = 0x25, .disp_bytes = 4, .disp = (d) }
/* mov disp8(%rdi),%rax: a structure member */
#define MOV_MEMBER(d)	{ .rex = 0x48, .opcode = { 0x8b }, .opcode_len = 1, .has_modrm = 1, \
			  .modrm = 0x47, .disp_bytes = 1, .disp = (d) }
/* mov disp8(%rsi),%rax */
#define MOV_MEMBER_RSI(d) { .rex = 0x48, .opcode = { 0x8b }, .opcode_len = 1, .has_modrm = 1, \
			  .modrm = 0x46, .disp_bytes = 1, .disp = (d) }
/* mov $imm32,%rdi: an address KASLR moves */
#define MOV_ADDR(a)	{ .rex = 0x48, .opcode = { 0xc7 }, .opcode_len = 1, .has_modrm = 1, \
			  .modrm = 0xc7, .imm_bytes = 4, .imm = (a) }
/* cmp $imm8,%edi */
#define CMP_IMM8(v)	{ .opcode = { 0x83 }, .opcode_len = 1, .has_modrm = 1, .modrm = 0xff, \
			  .imm_bytes = 1, .imm = (v) }
#define JCC8(op, off)	{ .opcode = { (op) }, .opcode_len = 1, .imm_bytes = 1, .imm = (off) }
/* xchg %r8,%rax: 0x90 that is no no-op */
#define XCHG_R8		{ .rex = 0x41, .opcode = { 0x90 }, .opcode_len = 1 }
#define PAUSE		{ .prefixes = { 0xf3 }, .nr_prefixes = 1, .opcode = { 0x90 }, \
			  .opcode_len = 1 }

#define SKM_FP_MAX_INSNS	4

struct skm_fp_case {
	const char *desc;
	struct skm_fp_insn a[SKM_FP_MAX_INSNS], b[SKM_FP_MAX_INSNS];
	unsigned int nr_a, nr_b;
	bool same;
};

#define SEQ(...)	{ __VA_ARGS__ }, .nr_a = ARRAY_SIZE(((struct skm_fp_insn[]){ __VA_ARGS__ }))
#define SEQ_B(...)	{ __VA_ARGS__ }, .nr_b = ARRAY_SIZE(((struct skm_fp_insn[]){ __VA_ARGS__ }))

static const struct skm_fp_case skm_fp_cases[] = {
	/* One build, as a running kernel rewrites it: alike */
	{ "ftrace site: no-op or hooked", .a = SEQ(FTRACE_NOP, MOV_MEMBER(8)),
	  .b = SEQ_B(FTRACE_CALL, MOV_MEMBER(8)), .same = true },
	{ "ENDBR64 or sealed", .a = SEQ(ENDBR64, FTRACE_NOP, MOV_MEMBER(8)),
	  .b = SEQ_B(ENDBR_SEALED, FTRACE_NOP, MOV_MEMBER(8)), .same = true },
	{ "static key: no-op or jump", .a = SEQ(MOV_MEMBER(8), NOP5, RET),
	  .b = SEQ_B(MOV_MEMBER(8), JMP32(0x40), RET), .same = true },
	{ "return: ret; int3 or the return thunk", .a = SEQ(MOV_MEMBER(8), RET, INT3),
	  .b = SEQ_B(MOV_MEMBER(8), JMP32(0x1000)), .same = true },
	{ "indirect call: retpoline or lfence; call *%rax",
	  .a = SEQ(CALL("__x86_indirect_thunk_rax")),
	  .b = SEQ_B(LFENCE, CALL_RAX, NOP5), .same = true },
	{ "indirect call: ITS thunk page or call *%rax", .a = SEQ(CALL("")),
	  .b = SEQ_B(CALL_RAX), .same = true },
	{ "LOCK or DS (uniprocessor)", .a = SEQ(ADD_PFX(0xf0)), .b = SEQ_B(ADD_PFX(0x3e)),
	  .same = true },
	{ "KASLR: RIP-relative", .a = SEQ(MOV_RIP(0x1000)), .b = SEQ_B(MOV_RIP(0x2000)),
	  .same = true },
	{ "KASLR: address in an immediate", .a = SEQ(MOV_ADDR(-0x7e000000)),
	  .b = SEQ_B(MOV_ADDR(-0x5e000000)), .same = true },
	{ "per-CPU offset", .a = SEQ(MOV_GS(0x1f000)), .b = SEQ_B(MOV_GS(0x2f000)),
	  .same = true },
	{ "tracepoint: iterator or its one probe",
	  .a = SEQ(CALL("__traceiter_sock_exceed_buf_limit")),
	  .b = SEQ_B(CALL("trace_event_raw_event_sock_exceed_buf_limit")), .same = true },
	{ "static call: trampoline or inline", .a = SEQ(CALL("__SCT__tp_func_x")),
	  .b = SEQ_B(CALL("__traceiter_x")), .same = true },
	{ "call-depth thunk in the callee's padding", .a = SEQ(CALL("mem_cgroup_charge_skmem")),
	  .b = SEQ_B(CALL("__pfx_mem_cgroup_charge_skmem")), .same = true },
	{ "retpoline named by its __pi_ alias (7.x) or call *%rax",
	  .a = SEQ(CALL("__pi___x86_indirect_thunk_rax")), .b = SEQ_B(CALL_RAX), .same = true },
	{ "branch offset", .a = SEQ(JCC8(0x74, 0x10)), .b = SEQ_B(JCC8(0x74, 0x20)),
	  .same = true },
	/* A changed source: not alike */
	{ "another callee", .a = SEQ(CALL("mem_cgroup_charge_skmem")),
	  .b = SEQ_B(CALL("mem_cgroup_sk_charge")), .same = false },
	{ "another member", .a = SEQ(MOV_MEMBER(8)), .b = SEQ_B(MOV_MEMBER(16)),
	  .same = false },
	{ "another constant", .a = SEQ(CMP_IMM8(1)), .b = SEQ_B(CMP_IMM8(2)), .same = false },
	{ "another condition", .a = SEQ(JCC8(0x74, 0x10)), .b = SEQ_B(JCC8(0x75, 0x10)),
	  .same = false },
	{ "another register", .a = SEQ(MOV_MEMBER(8)), .b = SEQ_B(MOV_MEMBER_RSI(8)),
	  .same = false },
	{ "one instruction more", .a = SEQ(MOV_MEMBER(8)),
	  .b = SEQ_B(MOV_MEMBER(8), CMP_IMM8(1)), .same = false },
	{ "xchg %r8,%rax is no no-op", .a = SEQ(MOV_MEMBER(8)),
	  .b = SEQ_B(MOV_MEMBER(8), XCHG_R8), .same = false },
	{ "pause is no no-op", .a = SEQ(MOV_MEMBER(8)), .b = SEQ_B(MOV_MEMBER(8), PAUSE),
	  .same = false },
	{ "a direct call is no indirect one", .a = SEQ(CALL("sk_memory_allocated")),
	  .b = SEQ_B(CALL_RAX), .same = false },
	{ "the calls' order", .a = SEQ(CALL("a"), CALL("b")), .b = SEQ_B(CALL("b"), CALL("a")),
	  .same = false },
};

static void skm_fp_case_desc(const struct skm_fp_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(skm_fp, skm_fp_cases, skm_fp_case_desc);

static u64 skm_fp_seq(const struct skm_fp_insn *insns, unsigned int nr)
{
	u64 hash = SKM_FP_HASH_INIT;
	unsigned int i;

	for (i = 0; i < nr; i++)
		hash = skm_fp_mix(hash, &insns[i]);
	return hash;
}

static void skm_fp_test_pair(struct kunit *test)
{
	const struct skm_fp_case *c = test->param_value;
	bool same = skm_fp_seq(c->a, c->nr_a) == skm_fp_seq(c->b, c->nr_b);

	KUNIT_EXPECT_EQ(test, same, c->same);
}

static struct kunit_case skm_text_fp_test_cases[] = {
	KUNIT_CASE_PARAM(skm_fp_test_pair, skm_fp_gen_params),
	{}
};

static struct kunit_suite skm_text_fp_test_suite = {
	.name = "skmemcg_text_fp",
	.test_cases = skm_text_fp_test_cases,
};

kunit_test_suites(&skm_text_fp_test_suite);

MODULE_LICENSE("GPL");
