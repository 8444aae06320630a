// SPDX-License-Identifier: GPL-2.0
/*
 * Replacements for the socket memory accounting functions.
 *
 * __sk_mem_raise_allocated() (net/core/sock.c) charges a socket's forward
 * allocation to its memcg and to the protocol's global counter, applying the
 * protocol's limits; __sk_mem_reduce_allocated() gives it back;
 * mem_cgroup_charge_skmem() (mm/memcontrol.c) is the memcg side of a charge.
 * mem_cgroup_sk_alloc()/mem_cgroup_sk_free() bind and unbind a socket's
 * memcg, inet_csk_accept() hands a child socket over, and
 * sk_forced_mem_schedule() is TCP's charge that cannot fail: memcg-exclusive
 * accounting (exclusive.c) acts in all of them. A policy that is off costs
 * one static branch or one load here; then the call goes straight to the
 * kernel's own function.
 */
#include <linux/sched/clock.h>
#include <linux/static_call.h>

#include "exclusive.h"
#include "hooks.h"
#include "knobs.h"
#include "sock_hooks.h"
#include "stats.h"
#include "throttle.h"

DEFINE_STATIC_CALL_NULL(skm_orig_sk_mem_raise_allocated,
			skm_sk_mem_raise_allocated);
const struct skm_orig skm_sk_mem_raise_allocated_orig = {
	&STATIC_CALL_KEY(skm_orig_sk_mem_raise_allocated),
	STATIC_CALL_TRAMP_ADDR(skm_orig_sk_mem_raise_allocated),
};

DEFINE_STATIC_CALL_NULL(skm_orig_sk_mem_reduce_allocated,
			skm_sk_mem_reduce_allocated);
const struct skm_orig skm_sk_mem_reduce_allocated_orig = {
	&STATIC_CALL_KEY(skm_orig_sk_mem_reduce_allocated),
	STATIC_CALL_TRAMP_ADDR(skm_orig_sk_mem_reduce_allocated),
};

DEFINE_STATIC_CALL_NULL(skm_orig_mem_cgroup_charge_skmem,
			skm_mem_cgroup_charge_skmem);
const struct skm_orig skm_mem_cgroup_charge_skmem_orig = {
	&STATIC_CALL_KEY(skm_orig_mem_cgroup_charge_skmem),
	STATIC_CALL_TRAMP_ADDR(skm_orig_mem_cgroup_charge_skmem),
};

DEFINE_STATIC_CALL_NULL(skm_orig_sk_forced_mem_schedule,
			skm_sk_forced_mem_schedule);
const struct skm_orig skm_sk_forced_mem_schedule_orig = {
	&STATIC_CALL_KEY(skm_orig_sk_forced_mem_schedule),
	STATIC_CALL_TRAMP_ADDR(skm_orig_sk_forced_mem_schedule),
};

DEFINE_STATIC_CALL_NULL(skm_orig_mem_cgroup_sk_alloc, skm_mem_cgroup_sk_alloc);
const struct skm_orig skm_mem_cgroup_sk_alloc_orig = {
	&STATIC_CALL_KEY(skm_orig_mem_cgroup_sk_alloc),
	STATIC_CALL_TRAMP_ADDR(skm_orig_mem_cgroup_sk_alloc),
};

DEFINE_STATIC_CALL_NULL(skm_orig_mem_cgroup_sk_free, skm_mem_cgroup_sk_free);
const struct skm_orig skm_mem_cgroup_sk_free_orig = {
	&STATIC_CALL_KEY(skm_orig_mem_cgroup_sk_free),
	STATIC_CALL_TRAMP_ADDR(skm_orig_mem_cgroup_sk_free),
};

DEFINE_STATIC_CALL_NULL(skm_orig_inet_csk_accept, skm_inet_csk_accept);
const struct skm_orig skm_inet_csk_accept_orig = {
	&STATIC_CALL_KEY(skm_orig_inet_csk_accept),
	STATIC_CALL_TRAMP_ADDR(skm_orig_inet_csk_accept),
};

DEFINE_STATIC_CALL_NULL(skm_orig_mem_cgroup_uncharge_skmem,
			skm_mem_cgroup_uncharge_skmem_t);
const struct skm_orig skm_mem_cgroup_uncharge_skmem_orig = {
	&STATIC_CALL_KEY(skm_orig_mem_cgroup_uncharge_skmem),
	STATIC_CALL_TRAMP_ADDR(skm_orig_mem_cgroup_uncharge_skmem),
};

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

int notrace skm_sk_mem_raise_allocated(struct sock *sk, int size, int amt,
				       int kind)
{
	int idx = skm_hook_enter();
	struct skm_excl_sk *es = skm_excl_find_timed(sk);
	int ret = SKM_THROTTLE_KERNEL;

	skm_stat_inc_instrumented(SKM_STAT_RAISE_CALLS);
	if (static_branch_unlikely(&skm_throttle_key))
		ret = skm_throttle_raise(sk, size, amt, kind, es);
	if (ret == SKM_THROTTLE_KERNEL)
		ret = es ? skm_excl_raise(es, sk, size, amt, kind) :
		      static_call(skm_orig_sk_mem_raise_allocated)(sk, size, amt, kind);
	skm_hook_exit(idx);
	return ret;
}

void notrace skm_sk_mem_reduce_allocated(struct sock *sk, int amount)
{
	int idx = skm_hook_enter();
	struct skm_excl_sk *es = skm_excl_find(sk);

	skm_stat_inc_instrumented(SKM_STAT_REDUCE_CALLS);
	if (es)
		skm_excl_reduce(es, sk, amount);
	else
		static_call(skm_orig_sk_mem_reduce_allocated)(sk, amount);
	skm_hook_exit(idx);
}

void notrace skm_sk_forced_mem_schedule(struct sock *sk, int size)
{
	int idx = skm_hook_enter();
	struct skm_excl_sk *es = skm_excl_find(sk);

	if (es)
		skm_excl_forced_schedule(es, sk, size);
	else
		static_call(skm_orig_sk_forced_mem_schedule)(sk, size);
	skm_hook_exit(idx);
}

void notrace skm_mem_cgroup_sk_alloc(struct sock *sk)
{
	int idx = skm_hook_enter();

	static_call(skm_orig_mem_cgroup_sk_alloc)(sk);
	skm_excl_bind(sk);
	skm_hook_exit(idx);
}

void notrace skm_mem_cgroup_sk_free(struct sock *sk)
{
	int idx = skm_hook_enter();

	skm_excl_forget(sk);
	static_call(skm_orig_mem_cgroup_sk_free)(sk);
	skm_hook_exit(idx);
}

#ifdef SKM_HAVE_PROTO_ACCEPT_ARG
struct sock * notrace skm_inet_csk_accept(struct sock *sk,
					  struct proto_accept_arg *arg)
{
	int idx = skm_hook_enter();
	struct sock *newsk = static_call(skm_orig_inet_csk_accept)(sk, arg);

	if (newsk)
		skm_excl_accept(sk, newsk);
	skm_hook_exit(idx);
	return newsk;
}
#else
struct sock * notrace skm_inet_csk_accept(struct sock *sk, int flags, int *err,
					  bool kern)
{
	int idx = skm_hook_enter();
	struct sock *newsk = static_call(skm_orig_inet_csk_accept)(sk, flags,
								   err, kern);

	if (newsk)
		skm_excl_accept(sk, newsk);
	skm_hook_exit(idx);
	return newsk;
}
#endif

bool notrace skm_mem_cgroup_charge_skmem(struct mem_cgroup *memcg,
					 unsigned int nr_pages, gfp_t gfp_mask)
{
	int idx = skm_hook_enter();
	bool ret;

	if (static_branch_unlikely(&skm_throttle_key))
		gfp_mask = skm_throttle_charge_gfp(gfp_mask);
	ret = static_call(skm_orig_mem_cgroup_charge_skmem)(memcg, nr_pages, gfp_mask);
	skm_hook_exit(idx);
	return ret;
}
