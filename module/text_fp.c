// SPDX-License-Identifier: GPL-2.0
/*
 * The fingerprint of a kernel function's machine code.
 *
 * The drift guard (drift.c) ties the policies that copy a kernel function's
 * body, or rely on what happens inside one, to the build of that function
 * they were checked against: its size and a hash of its instructions must
 * be ones recorded from a tested kernel (fingerprints.h). Comparing raw
 * bytes would not do. A running x86-64 kernel rewrites its own text, and
 * the same build reads differently from host to host and from minute to
 * minute:
 * - the ftrace call site at the entry is a 5-byte no-op or a call to a
 *   trampoline (skmemcg's own hooks, a tracer, a livepatch);
 * - ENDBR64 is sealed to a no-op on IBT hardware;
 * - a static key's site is a jump or a no-op (2 or 5 bytes), and so is
 *   static_cpu_has();
 * - a return is "jmp __x86_return_thunk", or "ret; int3", or a jump to
 *   another thunk, by the CPU's mitigations;
 * - an indirect call is "call __x86_indirect_thunk_<reg>", or
 *   "call *%reg" (after an lfence, on some CPUs), or a call to an ITS
 *   thunk; a static call's or tracepoint's site calls whichever function
 *   is current;
 * - alternatives replace instructions and pad with no-ops of any length;
 *   a uniprocessor boot turns LOCK prefixes into DS;
 * - KASLR moves the image: absolute addresses in immediates and absolute
 *   or per-CPU displacements change; RIP-relative ones and call offsets
 *   within the image do not, but are not worth the exceptions.
 * So the hash skips no-ops of every form, unconditional jumps, returns,
 * int3 and lfence; counts a call whose target is chosen at run time as
 * "vcall" and a direct call as "call <name of its target>"; drops the
 * LOCK, DS and CS prefixes; and masks displacements that are addresses
 * and immediates wider than 16 bits and branch offsets, keeping their
 * sizes. What is left is the instruction stream the compiler emitted for
 * the source: the operations, registers, structure offsets and small
 * constants, and the functions called. Source that changed almost always
 * changes it; a changed layout of a structure the function touches also
 * does (and calls for a look at the copy).
 *
 * The hash is FNV-1a over 64 bits, fed one record per instruction: a tag
 * byte ('P' plain, 'C' call, 'V' vcall) and the bytes kept.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "text_fp.h"

#define SKM_FNV_PRIME_64	0x100000001b3ULL

#define SKM_X86_PFX_LOCK	0xf0
#define SKM_X86_PFX_CS		0x2e
#define SKM_X86_PFX_DS		0x3e
#define SKM_X86_PFX_FS		0x64
#define SKM_X86_PFX_GS		0x65
#define SKM_X86_PFX_REP		0xf3

static u64 skm_fnv_byte(u64 hash, u8 byte)
{
	return (hash ^ byte) * SKM_FNV_PRIME_64;
}

static u64 skm_fnv_bytes(u64 hash, const void *buf, size_t len)
{
	const u8 *p = buf;

	while (len--)
		hash = skm_fnv_byte(hash, *p++);
	return hash;
}

static bool skm_fp_has_prefix(const struct skm_fp_insn *insn, u8 prefix)
{
	return memchr(insn->prefixes, prefix, insn->nr_prefixes);
}

static unsigned int skm_modrm_mod(u8 modrm)
{
	return modrm >> 6;
}

static unsigned int skm_modrm_reg(u8 modrm)
{
	return (modrm >> 3) & 7;
}

static unsigned int skm_modrm_rm(u8 modrm)
{
	return modrm & 7;
}

/*
 * A callee's name without the prefixes of its aliases: a call-depth thunk
 * sits in the callee's __pfx_ padding, and kallsyms may name a function
 * by its position-independent alias (__pi_, as 7.x names the retpoline
 * thunks and memcpy).
 */
static const char *skm_fp_callee_base(const char *name)
{
	static const char *const prefixes[] = { "__pfx_", "__pi_" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return name + strlen(prefixes[i]);
	return name;
}

/**
 * skm_fp_callee_is_variable() - is a call to @name one the kernel retargets?
 * @name: the target's kallsyms name, "" if it is in none of the image's
 *
 * Return: true for what a site's target becomes at run time (an alias's
 * prefix, __pi_ or __pfx_, ignored): a retpoline,
 * call-depth or ITS thunk (__x86_indirect_*), a static call's trampoline
 * (__SCT__*), a tracepoint's iterator or probes, or code outside the image
 * (modules, trampolines, ITS thunk pages).
 */
bool skm_fp_callee_is_variable(const char *name)
{
	static const char *const variable[] = {
		"__x86_indirect_", "__SCT__", "__traceiter_",
		"trace_event_raw_event_", "perf_trace_", "__bpf_trace_",
	};
	unsigned int i;

	if (!name[0])
		return true;
	name = skm_fp_callee_base(name);
	for (i = 0; i < ARRAY_SIZE(variable); i++)
		if (!strncmp(name, variable[i], strlen(variable[i])))
			return true;
	return false;
}

/**
 * skm_fp_classify() - what @insn adds to the fingerprint
 * @insn: the instruction
 *
 * Return: its enum skm_fp_kind.
 */
enum skm_fp_kind skm_fp_classify(const struct skm_fp_insn *insn)
{
	u8 op0 = insn->opcode[0], op1 = insn->opcode[1];
	u8 reg = skm_modrm_reg(insn->modrm);

	if (insn->at_ftrace_site)
		return SKM_FP_SKIP;
	if (insn->opcode_len == 1) {
		switch (op0) {
		case 0x90:	/* nop, unless xchg %r8,%rax or pause */
			if (!(insn->rex & 1) &&
			    !skm_fp_has_prefix(insn, SKM_X86_PFX_REP))
				return SKM_FP_SKIP;
			break;
		case 0xc2:	/* ret imm16 */
		case 0xc3:	/* ret */
		case 0xcc:	/* int3 */
		case 0xe9:	/* jmp rel32 */
		case 0xeb:	/* jmp rel8 */
			return SKM_FP_SKIP;
		case 0xe8:	/* call rel32 */
			return skm_fp_callee_is_variable(insn->callee) ?
			       SKM_FP_VCALL : SKM_FP_CALL;
		case 0xff:	/* group 5: /2 /3 call, /4 /5 jmp */
			if (!insn->has_modrm)
				break;
			if (reg == 2 || reg == 3)
				return SKM_FP_VCALL;
			if (reg == 4 || reg == 5)
				return SKM_FP_SKIP;
			break;
		}
		return SKM_FP_PLAIN;
	}
	if (op0 == 0x0f) {
		/* nopw/nopl, hint no-ops, ENDBR64 and its sealed form */
		if (op1 == 0x1e || op1 == 0x1f)
			return SKM_FP_SKIP;
		/* lfence */
		if (op1 == 0xae && insn->has_modrm && insn->modrm == 0xe8)
			return SKM_FP_SKIP;
	}
	return SKM_FP_PLAIN;
}

/* Is @insn's displacement an address (RIP-relative, absolute, per-CPU)? */
static bool skm_fp_disp_is_address(const struct skm_fp_insn *insn)
{
	if (skm_fp_has_prefix(insn, SKM_X86_PFX_FS) ||
	    skm_fp_has_prefix(insn, SKM_X86_PFX_GS))
		return true;
	if (!insn->has_modrm || skm_modrm_mod(insn->modrm) != 0)
		return false;
	if (skm_modrm_rm(insn->modrm) == 5)	/* RIP-relative */
		return true;
	/* A SIB with no base register: disp32 alone is the base */
	return insn->has_sib && (insn->sib & 7) == 5;
}

/* Is @insn's immediate a branch offset (Jcc, loop, jrcxz)? */
static bool skm_fp_imm_is_branch(const struct skm_fp_insn *insn)
{
	u8 op0 = insn->opcode[0];

	if (insn->opcode_len == 1)
		return (op0 >= 0x70 && op0 <= 0x7f) || (op0 >= 0xe0 && op0 <= 0xe3);
	return op0 == 0x0f && insn->opcode[1] >= 0x80 && insn->opcode[1] <= 0x8f;
}

static u64 skm_fp_mix_plain(u64 hash, const struct skm_fp_insn *insn)
{
	unsigned int i;

	hash = skm_fnv_byte(hash, 'P');
	for (i = 0; i < insn->nr_prefixes; i++) {
		u8 p = insn->prefixes[i];

		if (p != SKM_X86_PFX_LOCK && p != SKM_X86_PFX_DS &&
		    p != SKM_X86_PFX_CS)
			hash = skm_fnv_byte(hash, p);
	}
	hash = skm_fnv_byte(hash, insn->rex);
	hash = skm_fnv_bytes(hash, insn->opcode, insn->opcode_len);
	if (insn->has_modrm)
		hash = skm_fnv_byte(hash, insn->modrm);
	if (insn->has_sib)
		hash = skm_fnv_byte(hash, insn->sib);
	hash = skm_fnv_byte(hash, insn->disp_bytes);
	if (insn->disp_bytes && !skm_fp_disp_is_address(insn))
		hash = skm_fnv_bytes(hash, &insn->disp, sizeof(insn->disp));
	hash = skm_fnv_byte(hash, insn->imm_bytes);
	if (insn->imm_bytes && insn->imm_bytes <= 2 && !skm_fp_imm_is_branch(insn))
		hash = skm_fnv_bytes(hash, &insn->imm, sizeof(insn->imm));
	return hash;
}

/**
 * skm_fp_mix() - the fingerprint @hash with @insn added
 * @hash: the fingerprint so far, SKM_FP_HASH_INIT for none
 * @insn: the next instruction
 *
 * Return: the new fingerprint.
 */
u64 skm_fp_mix(u64 hash, const struct skm_fp_insn *insn)
{
	const char *name = insn->callee;

	switch (skm_fp_classify(insn)) {
	case SKM_FP_SKIP:
		return hash;
	case SKM_FP_VCALL:
		return skm_fnv_byte(hash, 'V');
	case SKM_FP_CALL:
		name = skm_fp_callee_base(name);
		hash = skm_fnv_byte(hash, 'C');
		return skm_fnv_bytes(hash, name, strlen(name) + 1);
	case SKM_FP_PLAIN:
		break;
	}
	return skm_fp_mix_plain(hash, insn);
}
