// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/skmemcg/: live tuning and statistics. Not ABI.
 *
 * Every writable module parameter gets a file of the same name that reads and
 * writes through the parameter's own get/set operations under
 * kernel_param_lock(), so debugfs and /sys/module/skmemcg/parameters can never
 * disagree. The stock debugfs helpers accept garbage silently; these files
 * return the setter's -EINVAL and keep the old value.
 *
 * Knob files are 0600, read-only files 0444: under lockdown (integrity, as
 * Secure Boot sets it) debugfs refuses to open any file that is writable or
 * not plain 0444, so the knobs are then tuned through the parameters only,
 * and stats, cgroups and hook_times stay readable. debugfs itself is
 * root-only by its mount mode.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cglist.h"
#include "debugfs.h"
#include "drift.h"
#include "hook_time.h"
#include "hooks.h"
#include "memcg_state.h"
#include "pcpu.h"
#include "policies.h"
#include "sndpark.h"
#include "stats.h"

/* Longer writes are not a value of any knob. */
#define SKM_KNOB_WRITE_MAX	256

static struct dentry *skm_debugfs_dir;

static ssize_t skm_knob_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	const struct kernel_param *kp = file->private_data;
	char *buf;
	ssize_t ret;
	int len;

	buf = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	kernel_param_lock(THIS_MODULE);
	len = kp->ops->get(buf, kp);
	kernel_param_unlock(THIS_MODULE);
	ret = len < 0 ? len : simple_read_from_buffer(ubuf, count, ppos, buf, len);
	kfree(buf);
	return ret;
}

static ssize_t skm_knob_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	const struct kernel_param *kp = file->private_data;
	char *buf;
	int ret;

	/* A value is written whole, in one write at offset 0. */
	if (*ppos || !count || count > SKM_KNOB_WRITE_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	kernel_param_lock(THIS_MODULE);
	ret = kp->ops->set(buf, kp);
	kernel_param_unlock(THIS_MODULE);
	kfree(buf);
	if (ret)
		return ret;
	*ppos = count;
	return count;
}

static const struct file_operations skm_knob_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = skm_knob_read,
	.write = skm_knob_write,
	.llseek = default_llseek,
};

static int skm_stats_show(struct seq_file *m, void *v)
{
	enum skm_stat stat;

	seq_printf(m, "hooks_installed %u\n", skm_hooks_installed());
	for (stat = 0; stat < SKM_STAT_NR; stat++)
		seq_printf(m, "%s %lu\n", skm_stat_name(stat), skm_stat_sum(stat));
	skm_policies_show_stats(m);
	skm_hooks_show_stats(m);
	skm_drift_show_stats(m);
	skm_pcpu_show_stats(m);
	skm_sndpark_show_stats(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(skm_stats);

static int skm_cgroups_show(struct seq_file *m, void *v)
{
	skm_memcg_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(skm_cgroups);

DEFINE_SHOW_ATTRIBUTE(skm_hook_times);

static int skm_fingerprints_show(struct seq_file *m, void *v)
{
	skm_drift_show_fingerprints(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(skm_fingerprints);

/**
 * skm_debugfs_init() - create /sys/kernel/debug/skmemcg and its files
 *
 * Like all debugfs users, a failure here is not fatal: tuning still works
 * through /sys/module/skmemcg/parameters.
 */
void skm_debugfs_init(void)
{
	const struct kernel_param *kp = THIS_MODULE->kp;
	unsigned int i;

	skm_debugfs_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);

	for (i = 0; i < THIS_MODULE->num_kp; i++) {
		if (!(kp[i].perm & 0200))
			continue;	/* load-time only */
		if (kp[i].ops == &skm_cglist_param_ops)	/* a list: its own fops */
			debugfs_create_file(kp[i].name, 0600, skm_debugfs_dir,
					    kp[i].arg, &skm_cglist_fops);
		else
			debugfs_create_file(kp[i].name, 0600, skm_debugfs_dir,
					    (void *)&kp[i], &skm_knob_fops);
	}
	debugfs_create_file("stats", 0444, skm_debugfs_dir, NULL,
			    &skm_stats_fops);
	debugfs_create_file("cgroups", 0444, skm_debugfs_dir, NULL,
			    &skm_cgroups_fops);
	debugfs_create_file("hook_times", 0444, skm_debugfs_dir, NULL,
			    &skm_hook_times_fops);
	debugfs_create_file("fingerprints", 0444, skm_debugfs_dir, NULL,
			    &skm_fingerprints_fops);
}

void skm_debugfs_exit(void)
{
	debugfs_remove(skm_debugfs_dir);
}
