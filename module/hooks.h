/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_HOOKS_H
#define _SKMEMCG_HOOKS_H

#include <linux/ftrace.h>
#include <linux/srcu.h>

/**
 * struct skm_hook - one kernel function replaced through ftrace
 * @name: the kernel symbol
 * @replacement: our function, with the same prototype, marked notrace
 * @orig: where to store the original's entry, so @replacement can call it
 * @addr: the resolved entry of @name
 * @ops: the ftrace_ops that redirects calls of @name to @replacement
 * @installed: @ops is registered
 */
struct skm_hook {
	const char *name;
	void *replacement;
	void *orig;
	unsigned long addr;
	struct ftrace_ops ops;
	bool installed;
};

#define SKM_HOOK(_name, _replacement, _orig)			\
	{							\
		.name = (_name),				\
		.replacement = (_replacement),			\
		.orig = (_orig),				\
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
