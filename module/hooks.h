/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_HOOKS_H
#define _SKMEMCG_HOOKS_H

#include <linux/ftrace.h>
#include <linux/srcu.h>
#include <linux/static_call.h>

/**
 * struct skm_hook - one kernel function replaced through ftrace
 * @name: the kernel symbol
 * @replacement: our function, with the same prototype, marked notrace
 * @orig_key: static call through which @replacement calls the original
 * @orig_tramp: that static call's trampoline
 * @addr: the resolved entry of @name
 * @ops: the ftrace_ops that redirects calls of @name to @replacement
 * @installed: @ops is registered
 */
struct skm_hook {
	const char *name;
	void *replacement;
	struct static_call_key *orig_key;
	void *orig_tramp;
	unsigned long addr;
	struct ftrace_ops ops;
	bool installed;
};

/*
 * SKM_HOOK("symbol", replacement, orig): @orig names a static call declared
 * with DECLARE_STATIC_CALL(orig, replacement) and defined with
 * DEFINE_STATIC_CALL_NULL(orig, replacement); the replacement calls the
 * original as static_call(orig)(...).
 */
#define SKM_HOOK(_name, _replacement, _orig)				\
	{								\
		.name = (_name),					\
		.replacement = (_replacement),				\
		.orig_key = &STATIC_CALL_KEY(_orig),			\
		.orig_tramp = STATIC_CALL_TRAMP_ADDR(_orig),		\
	}

int skm_hooks_install(struct skm_hook *hooks, unsigned int nr);
void skm_hooks_remove(struct skm_hook *hooks, unsigned int nr);

extern struct srcu_struct skm_hook_srcu;

/*
 * Every replacement brackets its body with these, so that unload can wait for
 * a task that sleeps inside the original (reclaim under a memcg charge) and
 * will return into our text.
 */
static __always_inline int skm_hook_enter(void)
{
	return srcu_read_lock(&skm_hook_srcu);
}

static __always_inline void skm_hook_exit(int idx)
{
	srcu_read_unlock(&skm_hook_srcu, idx);
}

#endif /* _SKMEMCG_HOOKS_H */
