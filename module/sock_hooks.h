/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_SOCK_HOOKS_H
#define _SKMEMCG_SOCK_HOOKS_H

#include <linux/static_call.h>
#include <net/sock.h>

int skm_sk_mem_raise_allocated(struct sock *sk, int size, int amt, int kind);
void skm_sk_mem_reduce_allocated(struct sock *sk, int amount);

/* The kernel's own functions, called at their real entry (see hooks.c). */
DECLARE_STATIC_CALL(skm_orig_sk_mem_raise_allocated, skm_sk_mem_raise_allocated);
DECLARE_STATIC_CALL(skm_orig_sk_mem_reduce_allocated, skm_sk_mem_reduce_allocated);

#endif /* _SKMEMCG_SOCK_HOOKS_H */
