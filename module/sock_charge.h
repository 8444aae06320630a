/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memcg side of a socket's charge and uncharge (sock_charge.c).
 */
#ifndef _SKMEMCG_SOCK_CHARGE_H
#define _SKMEMCG_SOCK_CHARGE_H

#include <linux/gfp.h>
#include <net/sock.h>

#include "hooks.h"
#include "sock_compat.h"

/*
 * The memcg side of a charge and an uncharge of @sk, for a caller already
 * inside a replacement (whose skm_hook_enter() covers them):
 * memcg-exclusive accounting.
 */
bool skm_sock_charge(struct sock *sk, unsigned int nr_pages, gfp_t gfp_mask);
void skm_sock_charge_nofail(struct sock *sk, unsigned int nr_pages);
void skm_sock_uncharge(struct sock *sk, unsigned int nr_pages);

/* The replacements: a charge (SKM_SK_CHARGE_SYM; see sock_compat.h) */
bool skm_mem_cgroup_charge_skmem(SKM_CHARGE_TARGET *target,
				 unsigned int nr_pages, gfp_t gfp_mask);
/* and an uncharge (SKM_SK_UNCHARGE_SYM) */
void skm_mem_cgroup_uncharge_skmem(SKM_CHARGE_TARGET *target,
				   unsigned int nr_pages);

/* The kernel's own functions, called at their real entry (see hooks.c). */
extern const struct skm_orig skm_mem_cgroup_charge_skmem_orig;
extern const struct skm_orig skm_mem_cgroup_uncharge_skmem_orig;

#endif /* _SKMEMCG_SOCK_CHARGE_H */
