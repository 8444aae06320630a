/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fingerprint of a kernel function's machine code, blind to what the
 * running kernel rewrites in its text (text_fp.c says what and why).
 * Pure: the caller decodes each instruction (the kernel's insn_decode())
 * and names each direct call's target; these functions only classify and
 * hash, so the KUnit suite runs them on any architecture.
 */
#ifndef _SKMEMCG_TEXT_FP_H
#define _SKMEMCG_TEXT_FP_H

#include <linux/types.h>

/* FNV-1a, 64 bits: the hash of no instruction */
#define SKM_FP_HASH_INIT	0xcbf29ce484222325ULL

/**
 * struct skm_fp_insn - one decoded x86-64 instruction, as the hash sees it
 * @prefixes: the legacy prefix bytes, in order
 * @nr_prefixes: how many
 * @rex: the REX prefix, or 0
 * @opcode: the opcode bytes (0x0f escapes included)
 * @opcode_len: how many, 1 to 3
 * @has_modrm: a ModRM byte follows the opcode
 * @modrm: it
 * @has_sib: a SIB byte follows the ModRM
 * @sib: it
 * @disp_bytes: the displacement's size in bytes (0, 1, 2 or 4)
 * @disp: its value, sign-extended
 * @imm_bytes: the immediate's size in bytes, all immediates together
 * @imm: the first immediate's value (sign-extended)
 * @at_ftrace_site: the instruction is the function's ftrace call site
 * @callee: for a direct call (0xe8), its target's kallsyms name; "" if
 *          the target is in no symbol of the kernel image (a module, a
 *          trampoline)
 */
struct skm_fp_insn {
	u8 prefixes[4];
	u8 nr_prefixes;
	u8 rex;
	u8 opcode[3];
	u8 opcode_len;
	bool has_modrm;
	u8 modrm;
	bool has_sib;
	u8 sib;
	u8 disp_bytes;
	s32 disp;
	u8 imm_bytes;
	s64 imm;
	bool at_ftrace_site;
	const char *callee;
};

/**
 * enum skm_fp_kind - what an instruction adds to the fingerprint
 * @SKM_FP_SKIP: nothing: a no-op, an unconditional jump or a return, all
 *               of which the kernel rewrites into each other
 * @SKM_FP_CALL: a direct call: "call" and its target's name
 * @SKM_FP_VCALL: a call whose target the kernel chooses at run time
 *                (indirect, retpoline, static call, tracepoint): "vcall"
 * @SKM_FP_PLAIN: anything else: its bytes, addresses masked
 */
enum skm_fp_kind {
	SKM_FP_SKIP,
	SKM_FP_CALL,
	SKM_FP_VCALL,
	SKM_FP_PLAIN,
};

bool skm_fp_callee_is_variable(const char *name);
enum skm_fp_kind skm_fp_classify(const struct skm_fp_insn *insn);
u64 skm_fp_mix(u64 hash, const struct skm_fp_insn *insn);

#endif /* _SKMEMCG_TEXT_FP_H */
