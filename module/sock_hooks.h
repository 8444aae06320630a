/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_SOCK_HOOKS_H
#define _SKMEMCG_SOCK_HOOKS_H

#include <linux/memcontrol.h>
#include <linux/static_call.h>
#include <net/inet_connection_sock.h>
#include <net/sock.h>

#include "hooks.h"
#include "sock_compat.h"

int skm_sk_mem_raise_allocated(struct sock *sk, int size, int amt, int kind);
void skm_sk_mem_reduce_allocated(struct sock *sk, int amount);
void skm_sk_forced_mem_schedule(struct sock *sk, int size);
void skm_mem_cgroup_sk_alloc(struct sock *sk);
void skm_mem_cgroup_sk_free(struct sock *sk);
/* The accept hook (SKM_ACCEPT_SYM) */
#if defined(SKM_HAVE_SK_CHARGE)
void skm_inet_csk_accept(struct socket *sock, struct socket *newsock,
			 struct sock *newsk);
#elif defined(SKM_HAVE_PROTO_ACCEPT_ARG)
struct sock *skm_inet_csk_accept(struct sock *sk, struct proto_accept_arg *arg);
#else
struct sock *skm_inet_csk_accept(struct sock *sk, int flags, int *err, bool kern);
#endif

/* The kernel's own functions, called at their real entry (see hooks.c). */
extern const struct skm_orig skm_sk_mem_raise_allocated_orig;
extern const struct skm_orig skm_sk_mem_reduce_allocated_orig;
extern const struct skm_orig skm_sk_forced_mem_schedule_orig;
extern const struct skm_orig skm_mem_cgroup_sk_alloc_orig;
extern const struct skm_orig skm_mem_cgroup_sk_free_orig;
extern const struct skm_orig skm_inet_csk_accept_orig;

#endif /* _SKMEMCG_SOCK_HOOKS_H */
