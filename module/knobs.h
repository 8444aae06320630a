/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Typed module parameters with validating setters (knobs.c). A policy
 * declares its own knobs in its own file: a struct of one of these types,
 * then module_param_cb() with the matching ops.
 */
#ifndef _SKMEMCG_KNOBS_H
#define _SKMEMCG_KNOBS_H

#include <linux/jump_label.h>
#include <linux/moduleparam.h>
#include <linux/types.h>

/**
 * struct skm_bool_knob - a bool knob (skm_bool_ops)
 * @val: the parameter
 * @key: a static key that follows the value once the module is live, so
 *	that code it turns off costs one patched branch; or NULL
 * @changed: called after a change, once the module is live; or NULL
 * @policy: turns a policy on or off: a write runs a transition
 *	(skm_policies_apply()) and is undone if that fails
 * @key_policies: the key stays off while the drift guard refuses these
 */
struct skm_bool_knob {
	bool *val;
	struct static_key *key;
	void (*changed)(bool on);
	bool policy;
	unsigned int key_policies;
};

/**
 * struct skm_uint_knob - an unsigned int knob with an inclusive range
 *	(skm_uint_ops)
 * @val: the parameter
 * @min: the smallest value accepted
 * @max: the largest
 * @changed: called after a change, once the module is live; or NULL
 */
struct skm_uint_knob {
	unsigned int *val;
	unsigned int min;
	unsigned int max;
	void (*changed)(void);
};

/**
 * struct skm_fmt_knob - a knob written and read as text: a name, a list
 *	(skm_fmt_ops)
 * @val: the parameter, as a number
 * @parse: refuses anything it does not fully understand with -EINVAL and
 *	writes *@val only on success
 * @print: the value as text; returns the length written
 * @changed: called after a change, once the module is live; or NULL
 * @policy: turns a policy on or off, as struct skm_bool_knob's
 * @key: a static key that follows @key_on(value) once the module is live
 * @key_on: when @key is on
 */
struct skm_fmt_knob {
	unsigned int *val;
	int (*parse)(const char *buf, unsigned int *val);
	int (*print)(unsigned int val, char *buf, size_t size);
	void (*changed)(void);
	bool policy;
	struct static_key *key;
	bool (*key_on)(unsigned int val);
};

extern const struct kernel_param_ops skm_bool_ops;
extern const struct kernel_param_ops skm_uint_ops;
extern const struct kernel_param_ops skm_fmt_ops;

int skm_knobs_go_live(void);
void skm_knobs_go_dead(void);

#endif /* _SKMEMCG_KNOBS_H */
