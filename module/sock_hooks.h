/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_SOCK_HOOKS_H
#define _SKMEMCG_SOCK_HOOKS_H

#include <linux/memcontrol.h>
#include <linux/static_call.h>
#include <net/sock.h>

#include "hooks.h"
#include "sock_compat.h"

int skm_sk_mem_raise_allocated(struct sock *sk, int size, int amt, int kind);
void skm_sk_mem_reduce_allocated(struct sock *sk, int amount);
void skm_sk_forced_mem_schedule(struct sock *sk, int size);
void skm_mem_cgroup_sk_alloc(struct sock *sk);
void skm_mem_cgroup_sk_free(struct sock *sk);
/* The kernel's own functions, called at their real entry (see hooks.c). */
extern const struct skm_orig skm_sk_mem_raise_allocated_orig;
extern const struct skm_orig skm_sk_mem_reduce_allocated_orig;
extern const struct skm_orig skm_sk_forced_mem_schedule_orig;
extern const struct skm_orig skm_mem_cgroup_sk_alloc_orig;
extern const struct skm_orig skm_mem_cgroup_sk_free_orig;

#endif /* _SKMEMCG_SOCK_HOOKS_H */
