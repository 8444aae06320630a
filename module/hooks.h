/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_HOOKS_H
#define _SKMEMCG_HOOKS_H

#include <linux/ftrace.h>
#include <linux/list.h>
#include <linux/seq_file.h>
#include <linux/srcu.h>
#include <linux/static_call.h>

#include "direct_entry.h"
#include "hook_time.h"
#include "policy.h"

/**
 * struct skm_orig - how a hooked call reaches its replacement, and the
 * replacement the kernel's original
 * @key: &STATIC_CALL_KEY(name) of the static call to the original
 * @tramp: STATIC_CALL_TRAMP_ADDR(name)
 * @direct: the stub an ftrace direct call enters (direct_entry.h), NULL
 *	where the kernel or architecture has none
 * @on: the hook redirects (for a policy in skm_hooks_live): the stub and
 *	the ftrace_ops callback read it, hooks.c writes it
 */
struct skm_orig {
	struct static_call_key *key;
	void *tramp;
	void (*direct)(void);
	u8 *on;
};

/*
 * SKM_DEFINE_ORIG(fn, repl): the static call skm_orig_<fn>, with the
 * prototype of the replacement @repl, the direct entry's stub of <fn>
 * (SKM_DIRECT_STUB_ASM()), and the struct skm_orig skm_<fn>_orig through which
 * the hook table finds them. Replacements call the original as
 * static_call(skm_orig_<fn>)(...).
 */
#define SKM_DEFINE_ORIG(fn, repl)					\
	DEFINE_STATIC_CALL_NULL(skm_orig_##fn, repl);			\
	static u8 skm_on_##fn __used __read_mostly;			\
	void skm_direct_##fn(void);					\
	SKM_DIRECT_STUB_ASM(#fn, #repl);				\
	const struct skm_orig skm_##fn##_orig = {			\
		&STATIC_CALL_KEY(skm_orig_##fn),			\
		STATIC_CALL_TRAMP_ADDR(skm_orig_##fn),			\
		SKM_DIRECT_ENTRY(skm_direct_##fn),			\
		&skm_on_##fn,						\
	}

/*
 * SKM_CHECK_PROTO(fn, replacement): fail the build when a replacement's
 * prototype is not that of the kernel function it stands in for, as the
 * kernel's headers declare it (a kernel that adds a parameter, as 7.x did
 * to vmpressure(), would otherwise see its arguments shifted). For
 * functions the headers declare; static ones are checked by hand.
 */
#define SKM_CHECK_PROTO(fn, replacement)				\
	static_assert(__same_type(&(fn), &(replacement)),		\
		      #replacement " does not have the prototype of " #fn)

/**
 * struct skm_hook - one kernel function replaced through ftrace
 * @name: the kernel symbol
 * @replacement: our function, with the same prototype, marked notrace;
 *	NULL for a function we only call (SKM_CALL)
 * @orig: static call the replacement calls the original through, as
 *	static_call(name)(...)
 * @policies: mask of the policies (SKM_POLICY_BIT()) that need the hook,
 *	from their lists (struct skm_policy) at skm_hooks_init()
 * @addr: the resolved entry of @name
 * @site: its ftrace site, the ip the ftrace callback is given
 * @orig_target: where @orig calls: just past @site when we hook @name,
 *	its entry when we only call it
 */
struct skm_hook {
	const char *name;
	void *replacement;
	const struct skm_orig *orig;
	unsigned int policies;
	unsigned long addr;
	unsigned long site;
	unsigned long orig_target;
};

#define SKM_HOOK(_name, _replacement, _orig)			\
	{							\
		.name = (_name),				\
		.replacement = (_replacement),			\
		.orig = (_orig),				\
	}

/* A kernel function we only call: resolved, its static call set, no hook. */
#define SKM_CALL(_name, _orig)					\
	{							\
		.name = (_name),				\
		.orig = (_orig),				\
	}

int skm_hooks_init(struct skm_hook *hooks, unsigned int nr,
		   const struct skm_policy *const *policies,
		   unsigned int nr_policies);
void skm_hooks_exit(void);
int skm_hooks_set(unsigned int policies, const char *context);
unsigned int skm_hooks_installed(void);
void skm_hooks_quiesce(void);

/* Policies whose hooks are all in (only these redirect); see hooks.c. */
extern unsigned int skm_hooks_live;

/*
 * Is @policy live: every hook it needs installed and redirecting? A
 * replacement shared by several policies asks before acting for one.
 */
static __always_inline bool skm_policy_live(enum skm_policy_id policy)
{
	return READ_ONCE(skm_hooks_live) & SKM_POLICY_BIT(policy);
}

extern struct srcu_struct skm_hook_srcu;

/*
 * The read side of skm_hook_srcu, held (struct skm_srcu_held) or not.
 * Where the kernel has SRCU-fast (7.x: DEFINE_SRCU_FAST()), its readers:
 * an inline per-CPU increment each way, no call and no full barrier, the
 * grace period paying instead (synchronize_rcu() inside it, which only
 * unload and a policy's flip wait for); the struct is defined as such
 * (hooks.c). Elsewhere srcu_read_lock(): a call with a full barrier each
 * way.
 */
#ifdef DEFINE_SRCU_FAST
#define SKM_SRCU_FAST		1

/* @ctr: srcu_read_lock_fast()'s, NULL when none is held */
struct skm_srcu_held {
	struct srcu_ctr __percpu *ctr;
};

static __always_inline void skm_srcu_clear(struct skm_srcu_held *h)
{
	h->ctr = NULL;
}

static __always_inline bool skm_srcu_is_held(const struct skm_srcu_held *h)
{
	return h->ctr;
}

static __always_inline void skm_srcu_read_lock(struct skm_srcu_held *h)
{
	h->ctr = srcu_read_lock_fast(&skm_hook_srcu);
}

static __always_inline void skm_srcu_read_unlock(const struct skm_srcu_held *h)
{
	srcu_read_unlock_fast(&skm_hook_srcu, h->ctr);
}
#else
#define SKM_SRCU_FAST		0

/* @idx: srcu_read_lock()'s, -1 when none is held */
struct skm_srcu_held {
	int idx;
};

static __always_inline void skm_srcu_clear(struct skm_srcu_held *h)
{
	h->idx = -1;
}

static __always_inline bool skm_srcu_is_held(const struct skm_srcu_held *h)
{
	return h->idx >= 0;
}

static __always_inline void skm_srcu_read_lock(struct skm_srcu_held *h)
{
	h->idx = srcu_read_lock(&skm_hook_srcu);
}

static __always_inline void skm_srcu_read_unlock(const struct skm_srcu_held *h)
{
	srcu_read_unlock(&skm_hook_srcu, h->idx);
}
#endif

/**
 * struct skm_hook_frame - what a replacement keeps from entry to exit
 * @srcu: its skm_hook_srcu read side, from skm_hook_may_sleep() on;
 *	none before
 * @clock: its timing while "instrument" is on (hook_time.h)
 */
struct skm_hook_frame {
	struct skm_srcu_held srcu;
	struct skm_hook_clock clock;
};

/*
 * Every replacement brackets its body with skm_hook_enter() and
 * skm_hook_exit(), and its call of the original with skm_hook_orig_in() /
 * skm_hook_orig_out(), which time it. What unload waits for
 * (skm_hooks_quiesce()): a task that runs a replacement without sleeping
 * is waited for by the switch of every task (RCU-tasks, or a switch on
 * every CPU where kernel code is not preempted), before and after SRCU; only
 * a task that may sleep in there, where a switch proves nothing, holds the
 * SRCU read side. A replacement calls skm_hook_may_sleep() before the first
 * call that may sleep (a memcg charge that may reclaim),
 * and holds it until its exit: no read side at all for those that never
 * sleep, nor in softirq. The wait before SRCU sees every task that was in
 * a replacement reach its sleep, and so its read side, first.
 */
static __always_inline void skm_hook_enter(struct skm_hook_frame *f)
{
	skm_srcu_clear(&f->srcu);
	skm_hook_clock_start(&f->clock);
}

/* The same, for a call whose entry read the clock (skm_hook_clock_now()). */
static __always_inline void skm_hook_enter_at(struct skm_hook_frame *f, u64 t0_ns)
{
	skm_srcu_clear(&f->srcu);
	skm_hook_clock_start_at(&f->clock, t0_ns);
}

/*
 * The caller may sleep from now on, until its skm_hook_exit(). (The read
 * side is taken on some paths only: hidden from sparse's lock contexts.)
 */
static __always_inline void skm_hook_may_sleep(struct skm_hook_frame *f)
{
	if (!skm_srcu_is_held(&f->srcu)) {
		skm_srcu_read_lock(&f->srcu);
		__release(&skm_hook_srcu);
	}
}

/*
 * May a replacement with nothing to do for a call pass it on as a tail
 * call (return static_call(skm_orig_<fn>)(...) before skm_hook_enter())?
 * Yes unless "instrument" times every call. The original then returns
 * straight to the hooked function's caller: nothing of ours is on the
 * stack while it runs or sleeps, no frame, no read side.
 */
static __always_inline bool skm_hook_untimed(void)
{
	return !static_branch_unlikely(&skm_instrument_key);
}

static __always_inline void skm_hook_orig_in(struct skm_hook_frame *f)
{
	skm_hook_clock_orig_in(&f->clock);
}

static __always_inline void skm_hook_orig_out(struct skm_hook_frame *f)
{
	skm_hook_clock_orig_out(&f->clock);
}

static __always_inline void skm_hook_exit(struct skm_hook_frame *f,
					  enum skm_hook_id id)
{
	skm_hook_clock_stop(&f->clock, id);
	if (skm_srcu_is_held(&f->srcu)) {
		__acquire(&skm_hook_srcu);
		skm_srcu_read_unlock(&f->srcu);
	}
}

void skm_hooks_show_stats(struct seq_file *m);

#endif /* _SKMEMCG_HOOKS_H */
