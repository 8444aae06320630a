// SPDX-License-Identifier: GPL-2.0
/*
 * Replacements for the socket memory accounting functions of net/core/sock.c.
 *
 * __sk_mem_raise_allocated() charges a socket's forward allocation to its
 * memcg and to the protocol's global counter, applying the protocol's limits;
 * __sk_mem_reduce_allocated() gives it back. The socket policies of skmemcg
 * decide here. Without a policy on, both pass straight to the kernel's own
 * function.
 */
#include <linux/static_call.h>

#include "hooks.h"
#include "sock_hooks.h"
#include "stats.h"

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

int notrace skm_sk_mem_raise_allocated(struct sock *sk, int size, int amt,
				       int kind)
{
	int idx = skm_hook_enter();
	int ret;

	skm_stat_inc_instrumented(SKM_STAT_RAISE_CALLS);
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
