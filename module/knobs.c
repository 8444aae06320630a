// SPDX-License-Identifier: GPL-2.0
/*
 * skmemcg's typed knobs (knobs.h): the parameter operations every policy's
 * knobs use, and their rollback.
 *
 * Every knob is a module parameter with a validating setter: it can be given
 * to modprobe, written at /sys/module/skmemcg/parameters/<name> (which keeps
 * working when the kernel is locked down) and, through debugfs.c, at
 * /sys/kernel/debug/skmemcg/<name>. All three paths call the same setter under
 * kernel_param_lock(), so the parameter variable is the one source of truth.
 * A setter refuses bad input with -EINVAL and leaves the value as it was.
 *
 * Setters run before module init for values given at load; side effects that
 * need the module running (static keys, transitions) are applied by
 * skm_knobs_go_live().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/module.h>

#include "drift.h"
#include "knobs.h"
#include "parse.h"
#include "policies.h"

static void skm_key_set(struct static_key *key, bool on)
{
	if (on)
		static_key_enable(key);
	else
		static_key_disable(key);
}

/*
 * The value @knob's key takes for @on: off while the drift guard refuses
 * the policy it gates, whose code shared replacements would otherwise run.
 */
static bool skm_key_value(const struct skm_bool_knob *knob, bool on)
{
	return on && !(skm_drift_refused() & knob->key_policies);
}

static int skm_param_set_bool(const char *val, const struct kernel_param *kp)
{
	const struct skm_bool_knob *knob = kp->arg;
	bool live = skm_policies_are_live();
	bool on, old;
	int ret = skm_parse_bool(val, &on);

	if (ret)
		return ret;
	old = READ_ONCE(*knob->val);
	WRITE_ONCE(*knob->val, on);
	if (live && knob->key)
		skm_key_set(knob->key, skm_key_value(knob, on));
	if (knob->policy) {
		ret = skm_policies_apply("left as it was");
		if (ret && READ_ONCE(*knob->val) == on) {
			WRITE_ONCE(*knob->val, old);
			if (live && knob->key)
				skm_key_set(knob->key, skm_key_value(knob, old));
		}
		if (ret)
			return ret;
	}
	if (live && knob->changed)
		knob->changed(on);
	return 0;
}

static int skm_param_get_bool(char *buf, const struct kernel_param *kp)
{
	const struct skm_bool_knob *knob = kp->arg;

	return sprintf(buf, "%c\n", READ_ONCE(*knob->val) ? 'Y' : 'N');
}

const struct kernel_param_ops skm_bool_ops = {
	.set = skm_param_set_bool,
	.get = skm_param_get_bool,
};

static int skm_param_set_uint(const char *val, const struct kernel_param *kp)
{
	const struct skm_uint_knob *knob = kp->arg;
	unsigned int v;
	int ret = skm_parse_uint_range(val, knob->min, knob->max, &v);

	if (ret)
		return ret;
	WRITE_ONCE(*knob->val, v);
	if (skm_policies_are_live() && knob->changed)
		knob->changed();
	return 0;
}

static int skm_param_get_uint(char *buf, const struct kernel_param *kp)
{
	const struct skm_uint_knob *knob = kp->arg;

	return sprintf(buf, "%u\n", READ_ONCE(*knob->val));
}

const struct kernel_param_ops skm_uint_ops = {
	.set = skm_param_set_uint,
	.get = skm_param_get_uint,
};

/* Once live, @knob's key follows @v. */
static void skm_fmt_key_set(const struct skm_fmt_knob *knob, unsigned int v)
{
	if (knob->key)
		skm_key_set(knob->key, knob->key_on(v));
}

static int skm_param_set_fmt(const char *val, const struct kernel_param *kp)
{
	const struct skm_fmt_knob *knob = kp->arg;
	bool live = skm_policies_are_live();
	unsigned int v, old;
	int ret = knob->parse(val, &v);

	if (ret)
		return ret;
	old = READ_ONCE(*knob->val);
	WRITE_ONCE(*knob->val, v);
	if (live) {
		skm_fmt_key_set(knob, v);
		if (knob->changed)
			knob->changed();
	}
	if (knob->policy) {
		ret = skm_policies_apply("left as it was");
		if (ret && READ_ONCE(*knob->val) == v) {
			WRITE_ONCE(*knob->val, old);
			if (live) {
				skm_fmt_key_set(knob, old);
				if (knob->changed)
					knob->changed();
			}
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int skm_param_get_fmt(char *buf, const struct kernel_param *kp)
{
	const struct skm_fmt_knob *knob = kp->arg;
	int len = knob->print(READ_ONCE(*knob->val), buf, PAGE_SIZE - 1);

	buf[len++] = '\n';
	buf[len] = '\0';
	return len;
}

const struct kernel_param_ops skm_fmt_ops = {
	.set = skm_param_set_fmt,
	.get = skm_param_get_fmt,
};

/* Set the static key of every knob of this module that has one. */
static void skm_knobs_keys_set(void)
{
	const struct kernel_param *kp = THIS_MODULE->kp;
	unsigned int i;

	for (i = 0; i < THIS_MODULE->num_kp; i++) {
		if (kp[i].ops == &skm_bool_ops) {
			const struct skm_bool_knob *knob = kp[i].arg;

			if (knob->key)
				skm_key_set(knob->key,
					    skm_key_value(knob, READ_ONCE(*knob->val)));
		} else if (kp[i].ops == &skm_fmt_ops) {
			const struct skm_fmt_knob *knob = kp[i].arg;

			skm_fmt_key_set(knob, READ_ONCE(*knob->val));
		}
	}
}

/**
 * skm_knobs_go_live() - apply the side effects of the values set at load
 *
 * Called once from module init, after the hooks are resolved: switches the
 * keys and hooks the policies that are on. From then on every setter
 * applies its side effects itself.
 *
 * Return: 0, or the error of hooking, with nothing hooked.
 */
int skm_knobs_go_live(void)
{
	int ret;

	kernel_param_lock(THIS_MODULE);
	skm_knobs_keys_set();
	ret = skm_policies_go_live();
	kernel_param_unlock(THIS_MODULE);
	return ret;
}

/**
 * skm_knobs_go_dead() - unhook everything for unload
 *
 * From then on setters change values only (skm_policies_go_dead()).
 */
void skm_knobs_go_dead(void)
{
	skm_policies_go_dead();
}
