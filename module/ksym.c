// SPDX-License-Identifier: GPL-2.0
/*
 * Resolving kernel symbols that are not exported.
 *
 * kallsyms_lookup_name() has not been exported since 5.7. A kprobe registered
 * by symbol name resolves it for us: register, read the address, unregister.
 * That is done once at load.
 *
 * We then call it through a static call, that is a direct call patched at
 * load, not through a function pointer: on kernels built with
 * CONFIG_X86_KERNEL_IBT it is sealed at boot (its ENDBR is overwritten, as
 * nothing in the kernel calls it indirectly) and an indirect call to it traps
 * on IBT hardware. The kprobe sits past the ENDBR (or its sealed form) on such
 * kernels; the function's entry is 4 bytes before it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/ibt.h>

#include "compat.h"
#include "ksym.h"
#include "parse.h"

/*
 * Test only: pretend these kernel symbols (comma-separated) cannot be
 * resolved, to prove that a missing symbol makes the load fail cleanly. Load
 * time only, no sysfs file.
 */
static char *skm_test_missing_symbol;
module_param_named(test_missing_symbol, skm_test_missing_symbol, charp, 0);
MODULE_PARM_DESC(test_missing_symbol,
		 "Test only: treat these symbols as missing at load (comma-separated names)");

typedef unsigned long skm_kallsyms_lookup_name_t(const char *name);
DEFINE_STATIC_CALL_NULL(skm_kallsyms_lookup_name, skm_kallsyms_lookup_name_t);

/* The entry of the function a kprobe registered at @name + 0 sits in. */
static unsigned long skm_kprobe_entry(const struct kprobe *kp)
{
	unsigned long addr = (unsigned long)kp->addr;
	u32 insn;

	/* is_endbr() also matches the sealed form, as the kprobe code does. */
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) &&
	    !get_kernel_nofault(insn, (u32 *)(addr - ENDBR_INSN_SIZE)) &&
	    skm_is_endbr_insn(insn))
		addr -= ENDBR_INSN_SIZE;
	return addr;
}

/**
 * skm_ksym_init() - find kallsyms_lookup_name() through a kprobe
 *
 * Return: 0, or the error of register_kprobe() (logged).
 */
int __init skm_ksym_init(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	int ret;

	ret = register_kprobe(&kp);
	if (ret < 0) {
		pr_err("cannot resolve kallsyms_lookup_name through a kprobe: %d; not loading\n",
		       ret);
		return ret;
	}
	unregister_kprobe(&kp);
	static_call_update(skm_kallsyms_lookup_name,
			   (skm_kallsyms_lookup_name_t *)skm_kprobe_entry(&kp));
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
	return static_call(skm_kallsyms_lookup_name)(name);
}
