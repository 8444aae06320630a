// SPDX-License-Identifier: GPL-2.0
/*
 * skmemcg's knobs.
 *
 * Every knob is a module parameter with a validating setter: it can be given
 * to modprobe, written at /sys/module/skmemcg/parameters/<name> (which keeps
 * working when the kernel is locked down) and, through debugfs.c, at
 * /sys/kernel/debug/skmemcg/<name>. All three paths call the same setter under
 * kernel_param_lock(), so the parameter variable is the one source of truth.
 * A setter refuses bad input with -EINVAL and leaves the value as it was.
 *
 * Setters run before module init for values given at load; side effects that
 * need the module running (static keys) are applied by skm_knobs_go_live().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cache.h>
#include <linux/moduleparam.h>

#include "knobs.h"
#include "parse.h"

DEFINE_STATIC_KEY_TRUE(skm_enabled_key);
DEFINE_STATIC_KEY_FALSE(skm_instrument_key);

static bool skm_live;

static void skm_key_set(struct static_key *key, bool on)
{
	if (on)
		static_key_enable(key);
	else
		static_key_disable(key);
}

static int skm_param_get_bool(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%c\n", READ_ONCE(*(bool *)kp->arg) ? 'Y' : 'N');
}

/*
 * Master switch, default on. When off, no call is redirected: every hooked
 * function runs the kernel's own code at the cost of the ftrace site alone.
 */
bool skm_enabled __read_mostly = true;

static int skm_enabled_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = skm_parse_bool(val, &on);

	if (ret)
		return ret;
	WRITE_ONCE(skm_enabled, on);
	if (skm_live)
		skm_key_set(&skm_enabled_key.key, on);
	return 0;
}

static const struct kernel_param_ops skm_enabled_ops = {
	.set = skm_enabled_set,
	.get = skm_param_get_bool,
};
module_param_cb(enabled, &skm_enabled_ops, &skm_enabled, 0644);
MODULE_PARM_DESC(enabled,
		 "Master switch: N passes every hooked call to the kernel's own function (bool, default Y)");

/*
 * Count calls of each hooked function in the "stats" file, default off.
 * Costs one per-CPU increment per call while on.
 */
bool skm_instrument __read_mostly;

static int skm_instrument_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = skm_parse_bool(val, &on);

	if (ret)
		return ret;
	WRITE_ONCE(skm_instrument, on);
	if (skm_live)
		skm_key_set(&skm_instrument_key.key, on);
	return 0;
}

static const struct kernel_param_ops skm_instrument_ops = {
	.set = skm_instrument_set,
	.get = skm_param_get_bool,
};
module_param_cb(instrument, &skm_instrument_ops, &skm_instrument, 0644);
MODULE_PARM_DESC(instrument,
		 "Count calls of each hooked function in debugfs stats (bool, default N)");

/*
 * Test only: pretend these kernel symbols (comma-separated) cannot be
 * resolved, to prove that a missing symbol makes the load fail cleanly. Load
 * time only, no sysfs file.
 */
char *skm_test_missing_symbol;
module_param_named(test_missing_symbol, skm_test_missing_symbol, charp, 0);
MODULE_PARM_DESC(test_missing_symbol,
		 "Test only: treat these symbols as missing at load (comma-separated names)");

/*
 * Test only: make installing the hook of this symbol fail after the hooks
 * before it were installed, to prove the rollback. Load time only.
 */
char *skm_test_fail_install;
module_param_named(test_fail_install, skm_test_fail_install, charp, 0);
MODULE_PARM_DESC(test_fail_install,
		 "Test only: fail installing the hook of this symbol at load (string)");

/**
 * skm_knobs_go_live() - apply the side effects of the values set at load
 *
 * Called once from module init, before the hooks go in. From then on every
 * setter applies its side effects itself.
 */
void skm_knobs_go_live(void)
{
	kernel_param_lock(THIS_MODULE);
	skm_key_set(&skm_enabled_key.key, READ_ONCE(skm_enabled));
	skm_key_set(&skm_instrument_key.key, READ_ONCE(skm_instrument));
	skm_live = true;
	kernel_param_unlock(THIS_MODULE);
}
