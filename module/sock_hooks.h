/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_SOCK_HOOKS_H
#define _SKMEMCG_SOCK_HOOKS_H

#include <net/sock.h>

extern int (*skm_orig_sk_mem_raise_allocated)(struct sock *sk, int size,
					      int amt, int kind);
extern void (*skm_orig_sk_mem_reduce_allocated)(struct sock *sk, int amount);

int skm_sk_mem_raise_allocated(struct sock *sk, int size, int amt, int kind);
void skm_sk_mem_reduce_allocated(struct sock *sk, int amount);

#endif /* _SKMEMCG_SOCK_HOOKS_H */
