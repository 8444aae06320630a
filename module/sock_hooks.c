// SPDX-License-Identifier: GPL-2.0
/*
 * Replacements for the socket memory accounting functions.
 *
 * __sk_mem_raise_allocated() (net/core/sock.c) charges a socket's forward
 * allocation to its memcg and to the protocol's global counter, applying the
 * protocol's limits; __sk_mem_reduce_allocated() gives it back;
 * mem_cgroup_charge_skmem() (mm/memcontrol.c; mem_cgroup_sk_charge() on 7.x)
 * is the memcg side of a charge.
 * mem_cgroup_sk_alloc()/mem_cgroup_sk_free() bind and unbind a socket's
 * memcg (an accepted child's too: inet_csk_accept(), __inet_accept() on
 * 7.x, binds it under its lock_sock()), and sk_forced_mem_schedule() is
 * TCP's charge that cannot fail: memcg-exclusive accounting (exclusive.c)
 * acts in all of them. A policy that is off costs
 * one static branch or one load here; then the call goes straight to the
 * kernel's own function.
 */
#include <linux/sched/clock.h>
#include <linux/static_call.h>
#include <net/tcp.h>

#include "exclusive.h"
#include "hooks.h"
#include "limit.h"
#include "sndpark.h"
#include "sock_charge.h"
#include "sock_compat.h"
#include "sock_hooks.h"
#include "sock_verdict.h"
#include "stats.h"
#include "throttle.h"
#include "trace.h"

SKM_DEFINE_ORIG(sk_mem_raise_allocated, skm_sk_mem_raise_allocated);

SKM_DEFINE_ORIG(sk_mem_reduce_allocated, skm_sk_mem_reduce_allocated);

SKM_DEFINE_ORIG(sk_forced_mem_schedule, skm_sk_forced_mem_schedule);

SKM_DEFINE_ORIG(mem_cgroup_sk_alloc, skm_mem_cgroup_sk_alloc);

SKM_DEFINE_ORIG(mem_cgroup_sk_free, skm_mem_cgroup_sk_free);

SKM_CHECK_PROTO(__sk_mem_raise_allocated, skm_sk_mem_raise_allocated);
SKM_CHECK_PROTO(__sk_mem_reduce_allocated, skm_sk_mem_reduce_allocated);
SKM_CHECK_PROTO(sk_forced_mem_schedule, skm_sk_forced_mem_schedule);
SKM_CHECK_PROTO(mem_cgroup_sk_alloc, skm_mem_cgroup_sk_alloc);
SKM_CHECK_PROTO(mem_cgroup_sk_free, skm_mem_cgroup_sk_free);

/*
 * Is @sk exclusive? With "instrument" on, the lookup is timed (local_clock()
 * before and after, so the figure includes one clock read) into
 * exclusive_lookups and exclusive_lookup_ns.
 */
static __always_inline struct skm_excl_tag *skm_excl_find_timed(struct sock *sk)
{
	struct skm_excl_tag *es;
	u64 t0;

	if (!static_branch_unlikely(&skm_instrument_key))
		return skm_excl_find(sk);
	t0 = local_clock();
	es = skm_excl_find(sk);
	skm_stat_add(SKM_STAT_EXCL_LOOKUP_NS, local_clock() - t0);
	skm_stat_inc(SKM_STAT_EXCL_LOOKUPS);
	return es;
}

/*
 * What skm_raise_walk() found that a check may refuse, for
 * skm_raise_verdict(): throttling's level and flags, in one word, so that
 * nothing of the raise's stack has its address taken on the common path
 * (no stack protector canary, no zeroing of locals there).
 */
#define SKM_FOUND_LEVEL		GENMASK(7, 0)	/* throttling's, so far */
#define SKM_FOUND_THROTTLE	BIT(8)	/* throttling has a verdict to make */
#define SKM_FOUND_QUIET		BIT(9)	/* the walk was quiet: headroom spoke */
#define SKM_FOUND_BACKSTOP	BIT(10)	/* over the exclusive backstop */

/* What the raise does after the checks: the rare part's return value. */
enum skm_raise_next {
	SKM_RAISE_CHARGE,	/* no check refused: charge */
	SKM_RAISE_FORCE,	/* refused, but a stream sender under its sndbuf */
	SKM_RAISE_REFUSED,	/* refused: return 0 */
	SKM_RAISE_MEMCG_REFUSED, /* an exclusive socket's memcg refused it */
};

/*
 * Throttling's, the limits' and the backstop's checks of one raise, inline:
 * throttling walks up from the socket's memcg (the root not included); the
 * limits look at the limited entries of the same line, root included, kept
 * per CPU (skm_limit_walk()). Under rcu_read_lock(), which @lw's entry
 * needs until the ending has used it.
 *
 * Return: SKM_FOUND_* bits; with them or an entry in @lw, some check may
 * refuse, and skm_raise_verdict() decides.
 */
static __always_inline u32 skm_raise_walk(struct sock *sk, int amt,
					  struct skm_excl_tag *es,
					  struct skm_limit_walk *lw)
{
	bool limit = skm_policy_live(SKM_POLICY_LIMIT), throttle, steps;
	/* (written by skm_throttle_begin() before it is read: not zeroed) */
	struct skm_throttle_walk tw __uninitialized;
	struct mem_cgroup *memcg;
	u32 found = 0;

	/* every level fits below the flags */
	BUILD_BUG_ON(SKM_LEVEL_NR - 1 > SKM_FOUND_LEVEL);
	if (mem_cgroup_sockets_enabled && sk_has_memory_pressure(sk) &&
	    sk->sk_memcg) {
		throttle = static_branch_unlikely(&skm_throttle_key) &&
			   skm_throttle_begin(sk->sk_memcg, &tw);
		steps = throttle && tw.walk;
		for (memcg = sk->sk_memcg; steps && memcg->css.parent;
		     memcg = parent_mem_cgroup(memcg))
			skm_throttle_step(&tw, memcg, amt);
		if (limit)
			skm_limit_walk(lw, sk->sk_memcg, amt);
		if (throttle && !skm_throttle_settled(&tw))
			found = SKM_FOUND_THROTTLE | tw.level |
				(tw.quiet ? SKM_FOUND_QUIET : 0);
	}
	if (es && skm_excl_backstop(es, sk, amt))
		found |= SKM_FOUND_BACKSTOP;
	return found;
}

/*
 * The one suppress ending, for every refusal, the kernel's own included
 * when an exclusive socket's memcg refuses (SKM_SUPPRESS_MEMCG): the
 * protocol's pressure as the verdict says, sndbuf moderation, the forced
 * charge of a stream sender under its sndbuf (as the kernel forces it);
 * and for a refusal of ours the counts, the trace, and, as the verdict
 * says, parking the sender (sndpark.c). Entered under rcu_read_lock(),
 * which it drops; out of line, off the common path.
 */
static noinline enum skm_raise_next
skm_raise_suppress(struct sock *sk, int size, int kind, struct skm_suppress v)
	__releases(RCU)
{
	bool forced = false;

	if (v.pressure & SKM_SUPPRESS_LEAVE_PRESSURE)
		skm_sk_leave_memory_pressure(sk);
	if (v.pressure & SKM_SUPPRESS_ENTER_PRESSURE)
		skm_sk_enter_memory_pressure(sk);
	if (v.pressure & SKM_SUPPRESS_MEMCG_PRESSURE)
		skm_memcg_set_socket_pressure(v.at);
	if (kind == SK_MEM_SEND && sk->sk_type == SOCK_STREAM) {
		sk_stream_moderate_sndbuf(sk);
		/* Under its sndbuf the kernel forces the charge through. */
		forced = sk->sk_wmem_queued + size >= sk->sk_sndbuf;
	}
	if (!forced && v.reason != SKM_SUPPRESS_MEMCG) {
		if (v.count)
			atomic_long_inc(v.count);
		if (v.stat != SKM_STAT_NR)
			skm_stat_inc(v.stat);
		trace_throttle(cgroup_id(v.at->css.cgroup), v.reason, v.level,
			       kind == SK_MEM_SEND ? SKM_DIR_TX : SKM_DIR_RX, size);
	}
	rcu_read_unlock();
	if (forced)
		return SKM_RAISE_FORCE;
	if (kind == SK_MEM_SEND && v.park)
		skm_sndpark(sk);	/* the sender sleeps rather than spins */
	return SKM_RAISE_REFUSED;
}

/*
 * The verdicts of the checks skm_raise_walk() did not settle, in order:
 * throttling, sock_limits (the entry @le would pass, for memcg @lat), the
 * backstop of exclusive sockets; the first that refuses has the ending.
 * Entered under the walk's rcu_read_lock(), which it drops; out of line,
 * off the common path.
 */
static noinline enum skm_raise_next
skm_raise_verdict(struct sock *sk, int size, int amt, int kind,
		  struct skm_excl_tag *es, u32 found, struct skm_cglist_entry *le,
		  struct mem_cgroup *lat)
	__releases(RCU)
{
	struct skm_limit_walk lw = { .e = le, .at = lat };
	struct skm_raise r = {
		.sk = sk,
		.size = size,
		.amt = amt,
		.kind = kind,
		.dir = kind == SK_MEM_SEND ? SKM_DIR_TX : SKM_DIR_RX,
		.memcg = sk->sk_memcg,
		.exclusive = es,
	};
	struct skm_suppress v;

	if (((found & SKM_FOUND_THROTTLE) &&
	     skm_throttle_end(&r, found & SKM_FOUND_LEVEL,
			      found & SKM_FOUND_QUIET, &v)) ||
	    (lw.e && skm_limit_end(&r, &lw, &v)))
		return skm_raise_suppress(sk, size, kind, v);
	if (found & SKM_FOUND_BACKSTOP) {
		skm_excl_backstop_verdict(sk, &v);
		return skm_raise_suppress(sk, size, kind, v);
	}
	rcu_read_unlock();
	return SKM_RAISE_CHARGE;
}

/* The charge: the kernel's own function, or an exclusive socket's memcg alone. */
static __always_inline int skm_raise_charge(struct skm_hook_frame *f,
					    struct sock *sk, int size, int amt,
					    int kind, struct skm_excl_tag *es,
					    gfp_t nofail)
{
	int ret;

	/* As the kernel's charge: it may reclaim, and sleep, in a task. */
	if (gfpflags_allow_blocking(gfp_memcg_charge()))
		skm_hook_may_sleep(f);
	skm_hook_orig_in(f);
	if (!es)
		ret = static_call(skm_orig_sk_mem_raise_allocated)(sk, size, amt, kind);
	else
		ret = skm_excl_charge(es, sk, amt, gfp_memcg_charge() | nofail);
	skm_hook_orig_out(f);
	return ret;
}

/*
 * An exclusive socket's charge no check refused, untimed: its memcg alone,
 * in the caller's frame, with the SRCU read side only across a charge that
 * may reclaim. Return: true if charged; if not, skm_raise() takes the
 * kernel's ending (SKM_RAISE_MEMCG_REFUSED).
 */
static __always_inline bool skm_raise_exclusive(struct sock *sk, int amt,
						struct skm_excl_tag *es)
{
	struct skm_hook_frame f;
	bool charged;

	skm_hook_enter(&f);
	if (gfpflags_allow_blocking(gfp_memcg_charge()))
		skm_hook_may_sleep(&f);
	charged = skm_excl_charge(es, sk, amt, gfp_memcg_charge());
	skm_hook_exit(&f, SKM_HOOK_RAISE);
	return charged;
}

/*
 * The rest of a raise the checks did not pass straight to the kernel: an
 * exclusive socket's memcg refusing, a refusal's ending, or any raise while
 * "instrument" times it (from @t0_ns on). Out of line, with the frame.
 */
static noinline int notrace skm_raise(struct sock *sk, int size, int amt,
				      int kind, struct skm_excl_tag *es,
				      enum skm_raise_next next, u64 t0_ns)
{
	struct skm_hook_frame f;
	int ret;

	skm_hook_enter_at(&f, t0_ns);
	skm_stat_inc_instrumented(SKM_STAT_RAISE_CALLS);
	if (next == SKM_RAISE_REFUSED) {
		ret = 0;
		goto out;
	}
	if (next != SKM_RAISE_MEMCG_REFUSED) {
		ret = skm_raise_charge(&f, sk, size, amt, kind, es,
				       next == SKM_RAISE_FORCE ? __GFP_NOFAIL : 0);
		if (ret || !es || next == SKM_RAISE_FORCE)
			goto out;
	}
	/* An exclusive socket's memcg refused: the kernel's own ending. */
	rcu_read_lock();
	next = skm_raise_suppress(sk, size, kind, (struct skm_suppress){
					  .reason = SKM_SUPPRESS_MEMCG,
					  .stat = SKM_STAT_NR });
	if (next == SKM_RAISE_FORCE)
		ret = skm_raise_charge(&f, sk, size, amt, kind, es, __GFP_NOFAIL);
out:
	skm_hook_exit(&f, SKM_HOOK_RAISE);
	return ret;
}

/*
 * The checks of a raise skm_raise_clear() did not pass, in one walk
 * (skm_raise_walk()) under rcu_read_lock(), whose rare verdict is out of
 * line (skm_raise_verdict()). Out of line itself: the walk's state has its
 * address taken, and the common raise keeps none.
 */
static noinline enum skm_raise_next notrace
skm_raise_checks(struct sock *sk, int size, int amt, int kind,
		 struct skm_excl_tag *es)
{
	struct skm_limit_walk lw = { };
	u32 found;

	if (static_branch_unlikely(&skm_throttle_key) ||
	    skm_policy_live(SKM_POLICY_LIMIT)) {
		rcu_read_lock();
		found = skm_raise_walk(sk, amt, es, &lw);
		if (found || lw.e)
			return skm_raise_verdict(sk, size, amt, kind, es, found,
						 lw.e, lw.at);
		rcu_read_unlock();
	} else if (es && skm_excl_backstop(es, sk, amt)) {
		/* the backstop alone: no walk, and no RCU until it refuses */
		rcu_read_lock();
		return skm_raise_verdict(sk, size, amt, kind, es,
					 SKM_FOUND_BACKSTOP, NULL, NULL);
	}
	return SKM_RAISE_CHARGE;
}

/**
 * skm_throttle_quiet_none() - does the quiet fast path leave a raise alone?
 * @sk: the socket
 * @amt: pages the raise asks for
 *
 * Throttling's walk of a raise, in the caller's frame: when quiet, and
 * throttle_cgroups lists nothing, headroom alone can speak
 * (skm_throttle_snapshot()), and it reads each memcg's counters and nothing
 * of ours. So no RCU read side: the socket pins its memcg, and a memcg its
 * parent. Inline: it runs per raise. Only untimed ("instrument" off), so
 * it counts no quiet charge: with "instrument" on, the checks do.
 *
 * Return: true if every memcg up from the socket's but the root is surely
 * clear of a headroom level (skm_headroom_clear(), no division): the
 * kernel's own function next; false if the full checks are to decide
 * (skm_raise_walk() walks again, exactly).
 */
static __always_inline bool skm_throttle_quiet_none(struct sock *sk, int amt)
{
	unsigned int pct = READ_ONCE(skm_headroom_pct);
	struct mem_cgroup *memcg = sk->sk_memcg;

	if (!mem_cgroup_sockets_enabled || !sk_has_memory_pressure(sk) || !memcg)
		return true;
	if (skm_cglist_any(&skm_throttle_cgroups) ||
	    !skm_pressure_quiet(jiffies, READ_ONCE(skm_quiet_after_jiffies)))
		return false;
	if (READ_ONCE(skm_pressure_sources) & BIT(SKM_SOURCE_HEADROOM)) {
		for (; memcg->css.parent; memcg = parent_mem_cgroup(memcg))
			if (!skm_headroom_clear(page_counter_read(&memcg->memory), amt,
						READ_ONCE(memcg->memory.high),
						READ_ONCE(memcg->memory.max), pct))
				return false;
	}
	return true;
}

/*
 * skm_raise_clear() - do the policies' checks surely pass a raise?
 * @sk: the socket
 * @amt: pages the raise asks for
 * @es: its exclusive state, or NULL
 *
 * The common raise, told without a read side or a walk: untimed,
 * throttling quiet with no level up the socket's memcg
 * (skm_throttle_quiet_none()), no limit of its line passed
 * (skm_limit_clear()), the exclusive backstop not passed. Inline: it runs
 * per raise.
 *
 * Return: true if no check refuses the raise; false if the full checks are
 * to decide (skm_raise_checks(), which asks each again, exactly).
 */
static __always_inline bool skm_raise_clear(struct sock *sk, int amt,
					    struct skm_excl_tag *es)
{
	if (!skm_hook_untimed())
		return false;
	if (static_branch_unlikely(&skm_throttle_key) &&
	    !skm_throttle_quiet_none(sk, amt))
		return false;
	if (skm_policy_live(SKM_POLICY_LIMIT) && mem_cgroup_sockets_enabled &&
	    sk_has_memory_pressure(sk) && sk->sk_memcg &&
	    !skm_limit_clear(sk->sk_memcg, amt))
		return false;
	return !es || !skm_excl_backstop(es, sk, amt);
}

/*
 * A raise some policy checks: the common one, whose checks surely pass
 * (skm_raise_clear()), without a read side; the rest through the full
 * checks (skm_raise_checks()). A raise no check refused, of a socket that
 * is not exclusive, goes on to the kernel's own function as a tail call: no
 * frame, no SRCU read side across its charge's reclaim. The rest is
 * skm_raise(): the charge or the one suppress ending
 * (skm_raise_suppress()), which an exclusive socket's memcg refusing the
 * charge also takes.
 */
static noinline int notrace skm_raise_checked(struct sock *sk, int size,
					      int amt, int kind)
{
	enum skm_raise_next next = SKM_RAISE_CHARGE;
	u64 t0_ns = skm_hook_clock_now();
	struct skm_excl_tag *es;

	/* Shared with throttling: exclusive accounting only while it is live. */
	es = skm_policy_live(SKM_POLICY_EXCLUSIVE) ? skm_excl_find_timed(sk) : NULL;
	if (unlikely(!skm_raise_clear(sk, amt, es)))
		next = skm_raise_checks(sk, size, amt, kind, es);
	if (likely(next == SKM_RAISE_CHARGE && !t0_ns)) {
		if (!es)
			return static_call(skm_orig_sk_mem_raise_allocated)(sk, size,
									    amt, kind);
		if (skm_raise_exclusive(sk, amt, es))
			return 1;
		next = SKM_RAISE_MEMCG_REFUSED;
	}
	return skm_raise(sk, size, amt, kind, es, next, t0_ns);
}

/*
 * __sk_mem_raise_allocated(): with no check on and no exclusive socket
 * anywhere, untimed, the kernel's own function straight away (loads and
 * tail calls only: no frame); with throttling the only check, quiet, and no
 * level anywhere up the socket's memcg (skm_throttle_quiet_none()), the
 * same; else the checks.
 */
int notrace skm_sk_mem_raise_allocated(struct sock *sk, int size, int amt,
				       int kind)
{
	if (likely(skm_hook_untimed() &&
		   !skm_policy_live(SKM_POLICY_LIMIT) &&
		   !(skm_policy_live(SKM_POLICY_EXCLUSIVE) && skm_excl_any())) &&
	    (!static_branch_unlikely(&skm_throttle_key) ||
	     skm_throttle_quiet_none(sk, amt)))
		return static_call(skm_orig_sk_mem_raise_allocated)(sk, size, amt,
								    kind);
	return skm_raise_checked(sk, size, amt, kind);
}

static noinline void notrace skm_reduce(struct sock *sk, int amount,
					struct skm_excl_tag *es)
{
	struct skm_hook_frame f;

	skm_hook_enter(&f);
	skm_stat_inc_instrumented(SKM_STAT_REDUCE_CALLS);
	skm_hook_orig_in(&f);
	if (es)
		skm_excl_reduce(sk, amount, es);
	else
		static_call(skm_orig_sk_mem_reduce_allocated)(sk, amount);
	skm_hook_orig_out(&f);
	skm_hook_exit(&f, SKM_HOOK_REDUCE);
}

/* It never sleeps: untimed, it needs no frame, exclusive or not. */
void notrace skm_sk_mem_reduce_allocated(struct sock *sk, int amount)
{
	struct skm_excl_tag *es = skm_excl_find(sk);

	if (!skm_hook_untimed())
		skm_reduce(sk, amount, es);
	else if (likely(!es))
		static_call(skm_orig_sk_mem_reduce_allocated)(sk, amount);
	else
		skm_excl_reduce(sk, amount, es);
}

static noinline void notrace skm_forced(struct sock *sk, int size,
					struct skm_excl_tag *es)
{
	struct skm_hook_frame f;
	int amt;

	skm_hook_enter(&f);
	if (gfpflags_allow_blocking(gfp_memcg_charge()))
		skm_hook_may_sleep(&f);
	skm_hook_orig_in(&f);
	amt = es ? skm_excl_forced_account(es, sk, size) : 0;
	if (!es)
		static_call(skm_orig_sk_forced_mem_schedule)(sk, size);
	else if (amt)
		skm_sock_charge(sk, amt, gfp_memcg_charge() | __GFP_NOFAIL);
	skm_hook_orig_out(&f);
	skm_hook_exit(&f, SKM_HOOK_FORCED);
}

/*
 * Untimed, an exclusive socket's forced charge is a tail call as well: it
 * cannot fail, so sock_limits counts it before (skm_sock_charge_nofail())
 * and nothing of ours waits for it, nor is on the stack while it reclaims
 * (no frame, no SRCU read side).
 */
void notrace skm_sk_forced_mem_schedule(struct sock *sk, int size)
{
	struct skm_excl_tag *es = skm_excl_find(sk);

	if (unlikely(!skm_hook_untimed()))
		skm_forced(sk, size, es);
	else if (likely(!es))
		static_call(skm_orig_sk_forced_mem_schedule)(sk, size);
	else
		skm_excl_forced(sk, size, es);
}

static noinline void notrace skm_sk_alloc_timed(struct sock *sk)
{
	struct skm_hook_frame f;

	skm_hook_enter(&f);
	skm_hook_orig_in(&f);
	static_call(skm_orig_mem_cgroup_sk_alloc)(sk);
	skm_hook_orig_out(&f);
	skm_excl_bind(sk);
	skm_hook_exit(&f, SKM_HOOK_SK_ALLOC);
}

/* Neither sleeps: untimed, no frame. */
void notrace skm_mem_cgroup_sk_alloc(struct sock *sk)
{
	if (!skm_hook_untimed()) {
		skm_sk_alloc_timed(sk);
		return;
	}
	static_call(skm_orig_mem_cgroup_sk_alloc)(sk);
	skm_excl_bind(sk);
}

static noinline void notrace skm_sk_free_timed(struct sock *sk)
{
	struct skm_hook_frame f;

	skm_hook_enter(&f);
	skm_hook_orig_in(&f);
	static_call(skm_orig_mem_cgroup_sk_free)(sk);
	skm_hook_orig_out(&f);
	skm_hook_exit(&f, SKM_HOOK_SK_FREE);
}

void notrace skm_mem_cgroup_sk_free(struct sock *sk)
{
	skm_excl_forget(sk);
	if (skm_hook_untimed())
		static_call(skm_orig_mem_cgroup_sk_free)(sk);
	else
		skm_sk_free_timed(sk);
}
