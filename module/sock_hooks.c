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
 * memcg, inet_csk_accept() (__inet_accept() on 7.x) hands a child socket
 * over, and
 * sk_forced_mem_schedule() is TCP's charge that cannot fail: memcg-exclusive
 * accounting (exclusive.c) acts in all of them. A policy that is off costs
 * one static branch or one load here; then the call goes straight to the
 * kernel's own function.
 */
#include <linux/sched/clock.h>
#include <linux/static_call.h>
#include <net/inet_common.h>
#include <net/tcp.h>

#include "exclusive.h"
#include "hooks.h"
#include "limit.h"
#include "sndpark.h"
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

SKM_DEFINE_ORIG(inet_csk_accept, skm_inet_csk_accept);

SKM_CHECK_PROTO(__sk_mem_raise_allocated, skm_sk_mem_raise_allocated);
SKM_CHECK_PROTO(__sk_mem_reduce_allocated, skm_sk_mem_reduce_allocated);
SKM_CHECK_PROTO(sk_forced_mem_schedule, skm_sk_forced_mem_schedule);
SKM_CHECK_PROTO(mem_cgroup_sk_alloc, skm_mem_cgroup_sk_alloc);
SKM_CHECK_PROTO(mem_cgroup_sk_free, skm_mem_cgroup_sk_free);
#ifdef SKM_HAVE_SK_CHARGE
SKM_CHECK_PROTO(__inet_accept, skm_inet_csk_accept);
#else
SKM_CHECK_PROTO(inet_csk_accept, skm_inet_csk_accept);
#endif

/*
 * Is @sk exclusive? With "instrument" on, the lookup is timed (local_clock()
 * before and after, so the figure includes one clock read) into
 * exclusive_lookups and exclusive_lookup_ns.
 */
static __always_inline struct skm_excl_sk *skm_excl_find_timed(struct sock *sk)
{
	struct skm_excl_sk *es;
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
 * Throttling's and the limits' checks of one raise: both look at the
 * socket's memcg and each ancestor, and one walk up serves both; the
 * limits look at the root memcg too, throttling does not. Under
 * rcu_read_lock(), which the verdict in @v needs until the ending has
 * used it.
 */
static __always_inline bool skm_raise_refused(struct sock *sk, int size,
					      int amt, int kind,
					      struct skm_excl_sk *es,
					      struct skm_suppress *v)
{
	/* (written before they are read: no zeroing on every raise) */
	struct skm_throttle_walk tw __uninitialized;
	struct skm_raise r __uninitialized;
	struct skm_limit_walk lw = { };
	struct mem_cgroup *memcg;
	bool throttle, limit, steps;

	if (!mem_cgroup_sockets_enabled || !sk_has_memory_pressure(sk) ||
	    !sk->sk_memcg)
		return false;
	limit = skm_policy_live(SKM_POLICY_LIMIT);
	throttle = static_branch_unlikely(&skm_throttle_key) &&
		   skm_throttle_begin(sk->sk_memcg, &tw);
	steps = throttle && tw.walk;
	for (memcg = sk->sk_memcg; memcg && (steps || limit);
	     memcg = parent_mem_cgroup(memcg)) {
		if (!memcg->css.parent)
			steps = false;
		if (steps)
			skm_throttle_step(&tw, memcg, amt);
		if (limit)
			skm_limit_step(&lw, memcg, amt);
	}
	/* the common case: nothing to decide */
	throttle = throttle && !skm_throttle_settled(&tw);
	if (!throttle && !lw.e)
		return false;
	r.sk = sk;
	r.size = size;
	r.amt = amt;
	r.kind = kind;
	r.dir = kind == SK_MEM_SEND ? SKM_DIR_TX : SKM_DIR_RX;
	r.memcg = sk->sk_memcg;
	r.exclusive = es;
	if (throttle && skm_throttle_end(&r, &tw, v))
		return true;
	return lw.e && skm_limit_end(&r, &lw, v);
}

/*
 * __sk_mem_raise_allocated(): the socket's exclusivity looked up, the
 * policies' checks in order (throttling, sock_limits, the backstop of
 * exclusive sockets), then the charge (the kernel's own function, or for
 * an exclusive socket its memcg alone), or one suppress ending for every
 * refusal, the kernel's own included when an exclusive socket's memcg
 * refuses: the protocol's pressure as the verdict says, sndbuf moderation,
 * the forced charge of a stream sender under its sndbuf (as the kernel
 * forces it); and for a refusal of ours the counts, the trace, and, as the
 * verdict says, parking the sender (sndpark.c).
 */
int notrace skm_sk_mem_raise_allocated(struct sock *sk, int size, int amt,
				       int kind)
{
	/* (filled in by the check that refuses, read only then) */
	struct skm_suppress v __uninitialized;
	struct skm_hook_frame f;
	struct skm_excl_sk *es;
	int ret;

	skm_hook_enter(&f);
	/* Shared with throttling: exclusive accounting only while it is live. */
	es = skm_policy_live(SKM_POLICY_EXCLUSIVE) ? skm_excl_find_timed(sk) : NULL;
	skm_stat_inc_instrumented(SKM_STAT_RAISE_CALLS);
	if (static_branch_unlikely(&skm_throttle_key) ||
	    skm_policy_live(SKM_POLICY_LIMIT)) {
		rcu_read_lock();
		if (skm_raise_refused(sk, size, amt, kind, es, &v))
			goto suppress;
		rcu_read_unlock();
	}
	if (es && skm_excl_backstop(es, sk, amt, &v)) {
		rcu_read_lock();
		goto suppress;
	}
	skm_hook_orig_in(&f);
	if (!es)
		ret = static_call(skm_orig_sk_mem_raise_allocated)(sk, size, amt, kind);
	else
		ret = skm_excl_charge(es, sk, amt, gfp_memcg_charge());
	skm_hook_orig_out(&f);
	if (ret || !es)
		goto out;
	v = (struct skm_suppress){ .reason = SKM_SUPPRESS_MEMCG, .stat = SKM_STAT_NR };
	rcu_read_lock();

suppress:
	if (v.pressure & SKM_SUPPRESS_LEAVE_PRESSURE)
		skm_sk_leave_memory_pressure(sk);
	if (v.pressure & SKM_SUPPRESS_ENTER_PRESSURE)
		skm_sk_enter_memory_pressure(sk);
	if (v.pressure & SKM_SUPPRESS_MEMCG_PRESSURE)
		skm_memcg_set_socket_pressure(v.at);
	ret = 0;
	if (kind == SK_MEM_SEND && sk->sk_type == SOCK_STREAM) {
		sk_stream_moderate_sndbuf(sk);
		/* Under its sndbuf the kernel forces the charge through. */
		ret = sk->sk_wmem_queued + size >= sk->sk_sndbuf;
	}
	if (!ret && v.reason != SKM_SUPPRESS_MEMCG) {
		if (v.count)
			atomic_long_inc(v.count);
		if (v.stat != SKM_STAT_NR)
			skm_stat_inc(v.stat);
		trace_throttle(cgroup_id(v.at->css.cgroup), v.reason, v.level,
			       kind == SK_MEM_SEND ? SKM_DIR_TX : SKM_DIR_RX, size);
	}
	rcu_read_unlock();
	if (ret) {
		skm_hook_orig_in(&f);
		if (!es)
			ret = static_call(skm_orig_sk_mem_raise_allocated)(sk, size,
									   amt, kind);
		else
			ret = skm_excl_charge(es, sk, amt,
					      gfp_memcg_charge() | __GFP_NOFAIL);
		skm_hook_orig_out(&f);
	} else if (kind == SK_MEM_SEND && v.park) {
		/* the sender sleeps rather than spins (sndpark.c) */
		skm_sndpark(sk);
	}
out:
	skm_hook_exit(&f, SKM_HOOK_RAISE);
	return ret;
}

void notrace skm_sk_mem_reduce_allocated(struct sock *sk, int amount)
{
	struct skm_hook_frame f;
	struct skm_excl_sk *es;

	skm_hook_enter(&f);
	es = skm_excl_find(sk);
	skm_stat_inc_instrumented(SKM_STAT_REDUCE_CALLS);
	skm_hook_orig_in(&f);
	if (es)
		skm_excl_reduce(es, sk, amount);
	else
		static_call(skm_orig_sk_mem_reduce_allocated)(sk, amount);
	skm_hook_orig_out(&f);
	skm_hook_exit(&f, SKM_HOOK_REDUCE);
}

void notrace skm_sk_forced_mem_schedule(struct sock *sk, int size)
{
	struct skm_hook_frame f;
	struct skm_excl_sk *es;

	skm_hook_enter(&f);
	es = skm_excl_find(sk);
	skm_hook_orig_in(&f);
	if (es)
		skm_excl_forced_schedule(es, sk, size);
	else
		static_call(skm_orig_sk_forced_mem_schedule)(sk, size);
	skm_hook_orig_out(&f);
	skm_hook_exit(&f, SKM_HOOK_FORCED);
}

void notrace skm_mem_cgroup_sk_alloc(struct sock *sk)
{
	struct skm_hook_frame f;

	skm_hook_enter(&f);
	skm_hook_orig_in(&f);
	static_call(skm_orig_mem_cgroup_sk_alloc)(sk);
	skm_hook_orig_out(&f);
	skm_excl_bind(sk);
	skm_hook_exit(&f, SKM_HOOK_SK_ALLOC);
}

void notrace skm_mem_cgroup_sk_free(struct sock *sk)
{
	struct skm_hook_frame f;

	skm_hook_enter(&f);
	skm_excl_forget(sk);
	skm_hook_orig_in(&f);
	static_call(skm_orig_mem_cgroup_sk_free)(sk);
	skm_hook_orig_out(&f);
	skm_hook_exit(&f, SKM_HOOK_SK_FREE);
}

/*
 * The accept hook (SKM_ACCEPT_SYM): once the child has its memcg, it takes
 * its listener's exclusivity (skm_excl_accept()). On 6.x it is
 * inet_csk_accept(), which sleeps until a client comes: that sleep is
 * bracketed as a sleeper's (struct skm_hook_sleeper), so that no flip or
 * unload waits for a client. The policy may have gone off meanwhile: the
 * child is reconciled only if it is still live.
 */
#ifndef SKM_HAVE_SK_CHARGE
/*
 * How inet_csk_accept() sleeps (inet_csk_wait_for_connect()): not at all
 * with O_NONBLOCK; with no SO_RCVTIMEO, until a client comes, and a signal
 * makes accept() restart unseen; with one, until it expires, and a signal
 * ends accept() in EINTR (sock_intr_errno()).
 */
static enum skm_sleep skm_accept_sleep(const struct sock *sk, int flags)
{
	if (flags & O_NONBLOCK)
		return SKM_SLEEP_NONE;
	return sock_rcvtimeo(sk, false) == MAX_SCHEDULE_TIMEOUT ?
	       SKM_SLEEP_RESTARTS : SKM_SLEEP_BOUNDED_EINTR;
}
#endif

#if defined(SKM_HAVE_SK_CHARGE)
void notrace skm_inet_csk_accept(struct socket *sock, struct socket *newsock,
				 struct sock *newsk)
{
	struct skm_hook_frame f;

	skm_hook_enter(&f);
	skm_hook_orig_in(&f);
	static_call(skm_orig_inet_csk_accept)(sock, newsock, newsk);
	skm_hook_orig_out(&f);
	skm_excl_accept_locked(sock->sk, newsk);	/* inet_accept() holds it */
	skm_hook_exit(&f, SKM_HOOK_ACCEPT);
}
#elif defined(SKM_HAVE_PROTO_ACCEPT_ARG)
struct sock * notrace skm_inet_csk_accept(struct sock *sk,
					  struct proto_accept_arg *arg)
{
	struct skm_hook_sleeper sleeper;
	struct skm_hook_frame f;
	struct sock *newsk;

	skm_hook_enter(&f);
	skm_hook_sleep_begin(&f, &sleeper, skm_accept_sleep(sk, arg->flags));
	skm_hook_orig_in(&f);
	newsk = static_call(skm_orig_inet_csk_accept)(sk, arg);
	skm_hook_orig_out(&f);
	skm_hook_sleep_end(&f, &sleeper);
	if (newsk && skm_policy_live(SKM_POLICY_EXCLUSIVE))
		skm_excl_accept(sk, newsk);
	skm_hook_exit(&f, SKM_HOOK_ACCEPT);
	return newsk;
}
#else
struct sock * notrace skm_inet_csk_accept(struct sock *sk, int flags, int *err,
					  bool kern)
{
	struct skm_hook_sleeper sleeper;
	struct skm_hook_frame f;
	struct sock *newsk;

	skm_hook_enter(&f);
	skm_hook_sleep_begin(&f, &sleeper, skm_accept_sleep(sk, flags));
	skm_hook_orig_in(&f);
	newsk = static_call(skm_orig_inet_csk_accept)(sk, flags, err, kern);
	skm_hook_orig_out(&f);
	skm_hook_sleep_end(&f, &sleeper);
	if (newsk && skm_policy_live(SKM_POLICY_EXCLUSIVE))
		skm_excl_accept(sk, newsk);
	skm_hook_exit(&f, SKM_HOOK_ACCEPT);
	return newsk;
}
#endif

