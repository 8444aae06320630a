/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Direct entry: how a hooked call reaches its replacement without ftrace's
 * ops trampoline.
 *
 * The ftrace site of a hooked function (the five-byte call at its entry,
 * after its ENDBR) is made to call a stub of ours directly, the way BPF
 * trampolines are entered (an ftrace direct call: register_ftrace_direct()
 * from 6.5, register_ftrace_direct_multi() on 6.1, one ops per stub). When
 * another ftrace user traces the same function, ftrace's own trampoline
 * calls it first and then returns into the stub with the same stack, so
 * the stub sees one shape. At its first instruction the stack holds the
 * return into the hooked function, just past its site, and above it the
 * return into the hooked function's caller; the arguments are in their
 * registers, untouched. The stub, per hook, on x86-64:
 *
 *	endbr64				(where the kernel is built with IBT)
 *	addq	$8, %rsp		drop the return into the hooked function
 *	cmpb	$0, skm_on_<repl>(%rip)	redirecting for a live policy?
 *	je	__SCT__skm_orig_<fn>	no: the original, past its site
 *	jmp	<repl>			yes: the replacement
 *
 * Both ways end in a tail call with the stack exactly as the hooked
 * function's caller left it, so the callee returns straight to that caller:
 * no return address of ours stays on the stack, and no return goes unpaired
 * with its call (the site's call into the stub is the one ftrace patched in,
 * which call-depth tracking does not count, and it is never returned to).
 * Nothing is called through a register: IBT wants nothing, retpolines
 * nothing. For the unwinder (ORC, and livepatch's reliable stack traces),
 * objtool is told the frame after the addq is a function's at entry again.
 * The flag makes a hook whose other hooks are not in yet pass every call
 * through (a policy acts with all its hooks or none, hooks.c); the static
 * call skm_orig_<fn> jumps just past the original's site, as a replacement
 * calls it.
 */
#ifndef _SKMEMCG_DIRECT_ENTRY_H
#define _SKMEMCG_DIRECT_ENTRY_H

#include <linux/compiler.h>
#include <linux/static_call.h>
#include <linux/stringify.h>
#include <linux/types.h>

#if defined(CONFIG_X86_64) && defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)
#define SKM_HAVE_DIRECT_ENTRY

#include <linux/objtool.h>
#include <asm/ibt.h>
#include <asm/orc_types.h>

/* The frame of a function at its entry: the return address at %rsp. */
#ifdef SKM_HAVE_UNWIND_HINT_TYPE_FIRST
#define SKM_UNWIND_HINT_FUNC	UNWIND_HINT(UNWIND_HINT_TYPE_FUNC, ORC_REG_SP, 8, 0)
#else
#define SKM_UNWIND_HINT_FUNC	UNWIND_HINT(ORC_REG_SP, 8, UNWIND_HINT_TYPE_FUNC, 0)
#endif

/*
 * SKM_DIRECT_STUB_ASM("fn", "repl"): the stub skm_direct_<fn> of the
 * replacement <repl> of <fn>, which reads the flag skm_on_<fn> and passes
 * the call on to the static call skm_orig_<fn>. SKM_DEFINE_ORIG() makes
 * them all; gas's .irp spells each name once.
 */
#define SKM_DIRECT_STUB_ASM(fn_str, repl_str)				\
	asm(".pushsection .text, \"ax\", @progbits\n"			\
	    ".irp fn, " fn_str "\n"					\
	    ".globl skm_direct_\\fn\n"					\
	    ".type skm_direct_\\fn, @function\n"			\
	    ".balign 16\n"						\
	    "skm_direct_\\fn:\n\t"					\
	    ASM_ENDBR							\
	    "addq $8, %rsp\n\t"						\
	    SKM_UNWIND_HINT_FUNC					\
	    "cmpb $0, skm_on_\\fn(%rip)\n\t"				\
	    "je " STATIC_CALL_TRAMP_PREFIX_STR "skm_orig_\\fn\n\t"	\
	    "jmp " repl_str "\n"						\
	    ".size skm_direct_\\fn, .-skm_direct_\\fn\n"			\
	    ".endr\n"							\
	    ".popsection\n")

/* Where the stub @stub_sym is, for struct skm_orig. */
#define SKM_DIRECT_ENTRY(stub_sym)	stub_sym

/* Is there a direct entry here? */
static inline bool skm_direct_entry_available(void)
{
	return true;
}

#else /* no direct calls here: ftrace_ops only */

#define SKM_DIRECT_STUB_ASM(fn_str, repl_str)
#define SKM_DIRECT_ENTRY(stub_sym)	NULL

static inline bool skm_direct_entry_available(void)
{
	return false;
}

#endif

#endif /* _SKMEMCG_DIRECT_ENTRY_H */
