// SPDX-License-Identifier: GPL-2.0
/*
 * Resolving kernel symbols that are not exported.
 *
 * kallsyms_lookup_name() has not been exported since 5.7. A kprobe registered
 * by symbol name resolves it for us: register, read the address, unregister.
 * That is done once at load; afterwards lookups are plain calls.
 *
 * Calling a resolved function through a pointer must land on its real entry.
 * On kernels built with CONFIG_X86_KERNEL_IBT that entry starts with ENDBR64,
 * unless objtool found no indirect caller and the kernel sealed it at boot
 * (the ENDBR is overwritten): an indirect call there traps on IBT hardware.
 * skm_ksym_callable() checks for the ENDBR so that such a function is refused
 * at load, not hit at run time.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/ibt.h>

#include "ksym.h"
#include "knobs.h"
#include "parse.h"

typedef unsigned long (*skm_kallsyms_lookup_name_t)(const char *name);
static skm_kallsyms_lookup_name_t skm_kallsyms_lookup_name __ro_after_init;

/**
 * skm_ksym_init() - find kallsyms_lookup_name() through a kprobe
 *
 * Return: 0, or the error of register_kprobe() (logged).
 */
int __init skm_ksym_init(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long addr;
	int ret;

	ret = register_kprobe(&kp);
	if (ret < 0) {
		pr_err("cannot resolve kallsyms_lookup_name through a kprobe: %d\n",
		       ret);
		return ret;
	}
	/* A kprobe sits past the ENDBR on IBT kernels; we want the entry. */
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) && !skm_ksym_callable(addr) &&
	    skm_ksym_callable(addr - ENDBR_INSN_SIZE))
		addr -= ENDBR_INSN_SIZE;
	if (!skm_ksym_callable(addr)) {
		pr_err("kallsyms_lookup_name has no ENDBR entry (sealed by IBT); cannot call it\n");
		return -ENOENT;
	}
	skm_kallsyms_lookup_name = (skm_kallsyms_lookup_name_t)addr;
	return 0;
}

/**
 * skm_ksym_lookup() - address of a kernel symbol, or 0
 * @name: symbol name
 *
 * The names in the test-only parameter test_missing_symbol do not resolve.
 */
unsigned long skm_ksym_lookup(const char *name)
{
	if (skm_list_has(skm_test_missing_symbol, name))
		return 0;
	return skm_kallsyms_lookup_name(name);
}

/**
 * skm_ksym_callable() - may @addr be the target of an indirect call?
 * @addr: a function's entry
 *
 * Always true without CONFIG_X86_KERNEL_IBT; with it, true only when the
 * entry starts with ENDBR64.
 */
bool skm_ksym_callable(unsigned long addr)
{
	u32 insn;

	if (!addr)
		return false;
	if (!IS_ENABLED(CONFIG_X86_KERNEL_IBT))
		return true;
	if (get_kernel_nofault(insn, (u32 *)addr))
		return false;
	return is_endbr(insn);
}
