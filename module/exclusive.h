/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_EXCLUSIVE_H
#define _SKMEMCG_EXCLUSIVE_H

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/moduleparam.h>
#include <net/sock.h>

#include "sock_verdict.h"

struct cgroup;
struct mem_cgroup;
struct seq_file;
struct skm_excl_sk;
struct skm_cglist;

extern atomic_long_t skm_excl_nr_sockets;

struct skm_excl_sk *__skm_excl_find(const struct sock *sk);

/*
 * The exclusive state of @sk, or NULL. One load when no socket is exclusive.
 * The entry lives as long as the socket (freed from mem_cgroup_sk_free) or
 * until skm_excl_release_all(), which first waits out every hook; so a hook
 * working on @sk may keep using it without RCU, across a sleeping charge.
 */
/* Is any socket exclusive? One load. */
static inline bool skm_excl_any(void)
{
	return atomic_long_read(&skm_excl_nr_sockets);
}

static inline struct skm_excl_sk *skm_excl_find(const struct sock *sk)
{
	if (likely(!skm_excl_any()))
		return NULL;
	return __skm_excl_find(sk);
}

int skm_excl_init(void);
void skm_excl_exit(void);
void skm_excl_release_all(void);

void skm_excl_bind(struct sock *sk);
void skm_excl_accept(struct sock *listener, struct sock *newsk);
void skm_excl_accept_locked(struct sock *listener, struct sock *newsk);
void skm_excl_forget(struct sock *sk);

bool skm_excl_backstop(struct skm_excl_sk *es, struct sock *sk, int amt);
void skm_excl_backstop_verdict(struct sock *sk, struct skm_suppress *v);
bool skm_excl_charge(struct skm_excl_sk *es, struct sock *sk, int amt, gfp_t gfp);
void skm_excl_reduce(struct skm_excl_sk *es, struct sock *sk, int amount);
void skm_excl_forced_schedule(struct skm_excl_sk *es, struct sock *sk, int size);

bool skm_excl_cgroup_listed(struct mem_cgroup *memcg);
extern struct skm_cglist skm_excl_cgroups;

#endif /* _SKMEMCG_EXCLUSIVE_H */
