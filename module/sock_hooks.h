/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_SOCK_HOOKS_H
#define _SKMEMCG_SOCK_HOOKS_H

#include <linux/memcontrol.h>
#include <net/sock.h>

#include "hooks.h"

int skm_sk_mem_raise_allocated(struct sock *sk, int size, int amt, int kind);
void skm_sk_mem_reduce_allocated(struct sock *sk, int amount);
bool skm_mem_cgroup_charge_skmem(struct mem_cgroup *memcg,
				 unsigned int nr_pages, gfp_t gfp_mask);

/* The kernel's own functions, called at their real entry (see hooks.c). */
extern const struct skm_orig skm_sk_mem_raise_allocated_orig;
extern const struct skm_orig skm_sk_mem_reduce_allocated_orig;
extern const struct skm_orig skm_mem_cgroup_charge_skmem_orig;

#endif /* _SKMEMCG_SOCK_HOOKS_H */
