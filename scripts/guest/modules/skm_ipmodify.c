// SPDX-License-Identifier: GPL-2.0
/*
 * skm_ipmodify: another ftrace IPMODIFY user, for the coexistence test.
 *
 * Registers one ftrace_ops with FTRACE_OPS_FL_IPMODIFY on the function named
 * by "func" and does nothing in its callback. Only one IPMODIFY ops may own a
 * function, so skmemcg must fail to load (cleanly, naming the function)
 * while this is loaded, and this must fail to load while skmemcg is.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>

static char *func = "__sk_mem_raise_allocated";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "the function to own");

static void notrace skm_ipmodify_nop(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_ops *ops,
				     struct ftrace_regs *fregs)
{
}

static struct ftrace_ops skm_ipmodify_ops = {
	.func = skm_ipmodify_nop,
	.flags = FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_SAVE_REGS,
};

static int __init skm_ipmodify_init(void)
{
	int ret;

	ret = ftrace_set_filter(&skm_ipmodify_ops, func, strlen(func), 0);
	if (ret) {
		pr_err("no ftrace site %s: %d\n", func, ret);
		return ret;
	}
	ret = register_ftrace_function(&skm_ipmodify_ops);
	if (ret) {
		pr_err("cannot own %s: %d\n", func, ret);
		ftrace_free_filter(&skm_ipmodify_ops);
		return ret;
	}
	pr_info("owns %s\n", func);
	return 0;
}
module_init(skm_ipmodify_init);

static void __exit skm_ipmodify_exit(void)
{
	unregister_ftrace_function(&skm_ipmodify_ops);
	ftrace_free_filter(&skm_ipmodify_ops);
}
module_exit(skm_ipmodify_exit);

MODULE_DESCRIPTION("skmemcg test: an ftrace IPMODIFY user");
MODULE_LICENSE("GPL");
