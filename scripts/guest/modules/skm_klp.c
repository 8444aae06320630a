// SPDX-License-Identifier: GPL-2.0
/*
 * skm_klp: a livepatch of vmpressure(), for the coexistence test.
 *
 * The replacement does nothing (memcg vmpressure events stop while it is
 * enabled, which the test does not need). A livepatch owns its functions
 * through an ftrace IPMODIFY ops, as skmemcg does, so the two exclude each
 * other on a function both want.
 */
#include <linux/livepatch.h>
#include <linux/memcontrol.h>
#include <linux/module.h>

static void skm_klp_vmpressure(gfp_t gfp, struct mem_cgroup *memcg, bool tree,
			       unsigned long scanned, unsigned long reclaimed)
{
}

static struct klp_func skm_klp_funcs[] = {
	{
		.old_name = "vmpressure",
		.new_func = skm_klp_vmpressure,
	}, { }
};

static struct klp_object skm_klp_objs[] = {
	{
		/* NULL name: vmlinux */
		.funcs = skm_klp_funcs,
	}, { }
};

static struct klp_patch skm_klp_patch = {
	.mod = THIS_MODULE,
	.objs = skm_klp_objs,
};

static int __init skm_klp_init(void)
{
	return klp_enable_patch(&skm_klp_patch);
}
module_init(skm_klp_init);

static void __exit skm_klp_exit(void)
{
}
module_exit(skm_klp_exit);

MODULE_DESCRIPTION("skmemcg test: a livepatch of vmpressure()");
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
