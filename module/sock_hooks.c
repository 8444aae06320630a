// SPDX-License-Identifier: GPL-2.0
/*
 * Replacements for the socket memory accounting functions.
 *
 * __sk_mem_raise_allocated() (net/core/sock.c) charges a socket's forward
 * allocation to its memcg and to the protocol's global counter, applying the
 * protocol's limits; __sk_mem_reduce_allocated() gives it back;
 * mem_cgroup_charge_skmem() (mm/memcontrol.c) is the memcg side of a charge.
 * A policy that is off costs one static branch here; then the call goes
 * straight to the kernel's own function.
 */
#include <linux/static_call.h>

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

int notrace skm_sk_mem_raise_allocated(struct sock *sk, int size, int amt,
				       int kind)
{
	int idx = skm_hook_enter();
	int ret = SKM_THROTTLE_KERNEL;

	skm_stat_inc_instrumented(SKM_STAT_RAISE_CALLS);
	if (static_branch_unlikely(&skm_throttle_key))
		ret = skm_throttle_raise(sk, size, amt, kind);
	if (ret == SKM_THROTTLE_KERNEL)
		ret = static_call(skm_orig_sk_mem_raise_allocated)(sk, size, amt, kind);
	skm_hook_exit(idx);
	return ret;
}

void notrace skm_sk_mem_reduce_allocated(struct sock *sk, int amount)
{
	int idx = skm_hook_enter();

	skm_stat_inc_instrumented(SKM_STAT_REDUCE_CALLS);
	static_call(skm_orig_sk_mem_reduce_allocated)(sk, amount);
	skm_hook_exit(idx);
}

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
