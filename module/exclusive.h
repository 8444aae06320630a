/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_EXCLUSIVE_H
#define _SKMEMCG_EXCLUSIVE_H

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/memcontrol.h>
#include <linux/preempt.h>
#include <linux/moduleparam.h>
#include <net/sock.h>

#include "cglist.h"
#include "memcg_state.h"
#include "sock_compat.h"
#include "sock_verdict.h"

struct cgroup;
struct seq_file;
struct skm_cglist;

#define SKM_EXCL_PROTOS		8	/* global counters we keep slots for */

/*
 * Pages exclusive charges of one protocol hold, keyed by its global counter
 * (exclusive.c): @pages plus every CPU's @delta, exact; @pages alone, off
 * by less than percpu_counter_batch per CPU, is what the backstop reads.
 */
struct skm_excl_proto {
	atomic_long_t *memory_allocated;
	atomic_long_t pages;
	long __percpu *delta;
	unsigned int idx;	/* in skm_excl_protos[] */
};

extern struct skm_excl_proto skm_excl_protos[SKM_EXCL_PROTOS];

/**
 * struct skm_excl_memcg - memcg-exclusive accounting's part of a memcg's
 *	state (memcg_state.h)
 * @key: the exclusive_cgroups generation and "exclusive" value
 *	(skm_excl_key()) @exclusive was decided for; 0 for none yet
 * @exclusive: the memcg's sockets charge it alone now, not the global
 *	counter
 * @active: counted in skm_excl_gate (decided exclusive once, or
 *	holding exclusive pages), until released
 * @pages: exclusive pages its sockets hold, per protocol (the index of
 *	skm_excl_protos); a reduce takes them before the global counter's
 */
struct skm_excl_memcg {
	unsigned long key;
	bool exclusive;
	bool active;
	atomic_long_t pages[SKM_EXCL_PROTOS];
};

/*
 * One socket's exclusive accounting for a call: its memcg's part of the
 * state, and its protocol's index in skm_excl_protos[] and the memcg's
 * pages. @xm NULL: the kernel's own accounting. Two words, passed in
 * registers.
 */
struct skm_excl_ref {
	struct skm_excl_memcg *xm;
	unsigned int idx;
};

static __always_inline atomic_long_t *skm_excl_ref_pages(struct skm_excl_ref x)
{
	return &x.xm->pages[x.idx];
}

static __always_inline struct skm_excl_proto *skm_excl_ref_proto(struct skm_excl_ref x)
{
	return &skm_excl_protos[x.idx];
}

/* The memcg's whole state, for sock_limits' count */
static __always_inline struct skm_memcg *skm_excl_ref_state(struct skm_excl_ref x)
{
	return skm_memcg_of_priv(x.xm, SKM_POLICY_EXCLUSIVE);
}

/*
 * May any memcg charge exclusively, or hold exclusive pages? One word, so
 * that a hook with nothing to do reads one load: the memcgs whose state is
 * active (struct skm_excl_memcg), counted in the low bits, and a bit each
 * for the "exclusive" default and for an exclusive_cgroups entry some
 * cgroup has, kept by their setters (and set anew when the policy comes
 * on).
 */
#define SKM_EXCL_GATE_DFLT	BIT(40)
#define SKM_EXCL_GATE_LISTED	BIT(41)
#define SKM_EXCL_GATE_ACTIVE	(SKM_EXCL_GATE_DFLT - 1)

extern atomic_long_t skm_excl_gate;
extern bool skm_exclusive;
extern struct skm_cglist skm_excl_cgroups;

/* The decision's key now: the list's generation and the default. */
static __always_inline unsigned long skm_excl_key(void)
{
	return (skm_cglist_gen(&skm_excl_cgroups) << 2) |
	       (READ_ONCE(skm_exclusive) << 1) | 1;
}

/*
 * May any memcg charge exclusively, or hold exclusive pages? One load; with
 * none, every hook of the policy passes the call on untouched.
 */
static __always_inline bool skm_excl_any(void)
{
	return atomic_long_read(&skm_excl_gate);
}

/*
 * @sk's protocol's index in skm_excl_protos[], or -1 if none was claimed
 * (no exclusive pages). The first slot first: TCP's, on most hosts. No
 * call: a call on any path makes the hooks save registers on all.
 */
static __always_inline int skm_excl_proto_idx(const struct sock *sk)
{
	atomic_long_t *ma = sk->sk_prot->memory_allocated;
	int i;

	if (likely(READ_ONCE(skm_excl_protos[0].memory_allocated) == ma))
		return 0;
	for (i = 1; i < SKM_EXCL_PROTOS; i++)
		if (READ_ONCE(skm_excl_protos[i].memory_allocated) == ma)
			return i;
	return -1;
}

/*
 * The memcg whose exclusive accounting concerns @sk, or NULL: none may
 * charge exclusively or hold exclusive pages (skm_excl_any()), or @sk is
 * not a socket charged to a memcg, of a protocol with a global counter
 * that the kernel does not keep it out of itself (7.x's
 * sk_bypass_prot_mem).
 */
static __always_inline struct mem_cgroup *skm_excl_memcg_of(const struct sock *sk)
{
	struct mem_cgroup *memcg;

	if (likely(!skm_excl_any()))
		return NULL;
	memcg = mem_cgroup_sockets_enabled ? sk->sk_memcg : NULL;
	if (!memcg || !sk->sk_prot->memory_allocated || skm_sk_bypasses_prot_mem(sk))
		return NULL;
	return memcg;
}

/*
 * The exclusive part of @memcg's state, or NULL. The walk of the hash is an
 * RCU reader by disabling preemption (states are freed with kfree_rcu());
 * the state found lives as long as @memcg, which the socket pins, or
 * until the policy's release, which first waits out every hook.
 */
static __always_inline struct skm_excl_memcg *skm_excl_memcg_find(struct mem_cgroup *memcg)
{
	struct skm_memcg *sm;

	preempt_disable_notrace();
	sm = __skm_memcg_find(memcg);
	preempt_enable_notrace();
	if (!sm)
		return NULL;
	return skm_memcg_priv(sm, SKM_POLICY_EXCLUSIVE);
}

struct skm_excl_ref skm_excl_decide_ref(struct sock *sk, struct mem_cgroup *memcg);

/**
 * skm_excl_charge_ref() - does a charge of @sk go to its memcg alone?
 * @sk: the socket
 *
 * Return: its exclusive accounting if its memcg charges exclusively now
 * (exclusive_cgroups lists its cgroup or an ancestor, or "exclusive" is
 * on), else xm NULL: the kernel's own charge. The decision is kept in the
 * memcg's state until the list or the default changes.
 */
static __always_inline struct skm_excl_ref skm_excl_charge_ref(struct sock *sk)
{
	struct skm_excl_ref x = { };
	struct skm_excl_memcg *xm;
	struct mem_cgroup *memcg = skm_excl_memcg_of(sk);
	int idx;

	if (!memcg)
		return x;
	xm = skm_excl_memcg_find(memcg);
	idx = skm_excl_proto_idx(sk);
	if (unlikely(!xm || READ_ONCE(xm->key) != skm_excl_key() || idx < 0))
		return skm_excl_decide_ref(sk, memcg);
	if (READ_ONCE(xm->exclusive)) {
		x.xm = xm;
		x.idx = idx;
	}
	return x;
}

/**
 * skm_excl_reduce_ref() - does a reduce of @sk go through exclusive
 *	accounting?
 * @sk: the socket
 *
 * Return: its exclusive accounting if its memcg has a part in the state
 * (it was charged while the policy was on) and its protocol a slot, else
 * xm NULL: the kernel's own reduce. skm_excl_reduce() takes the memcg's
 * exclusive pages first, if any, whether or not the memcg charges
 * exclusively now.
 */
static __always_inline struct skm_excl_ref skm_excl_reduce_ref(struct sock *sk)
{
	struct skm_excl_ref x = { };
	struct mem_cgroup *memcg = skm_excl_memcg_of(sk);
	int idx;

	if (!memcg)
		return x;
	idx = skm_excl_proto_idx(sk);
	if (idx < 0)
		return x;
	x.xm = skm_excl_memcg_find(memcg);
	x.idx = idx;
	return x;
}

int skm_excl_init(void);
void skm_excl_exit(void);
void skm_excl_release_all(void);

bool skm_excl_backstop(struct skm_excl_ref x, struct sock *sk, int amt);
void skm_excl_backstop_verdict(struct sock *sk, struct skm_suppress *v);
bool skm_excl_charge(struct skm_excl_ref x, struct sock *sk, int amt, gfp_t gfp);
void skm_excl_reduce(struct skm_excl_ref x, struct sock *sk, int amount);
int skm_excl_forced_account(struct skm_excl_ref x, struct sock *sk, int size);

bool skm_excl_cgroup_listed(struct mem_cgroup *memcg);

#endif /* _SKMEMCG_EXCLUSIVE_H */
