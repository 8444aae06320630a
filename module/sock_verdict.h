/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the policies say of a socket charge, and what every one of them
 * shares: the raise's arguments, the direction, and the verdict of a check
 * that refuses it, which the raise's one suppress ending (sock_hooks.c)
 * carries out.
 */
#ifndef _SKMEMCG_SOCK_VERDICT_H
#define _SKMEMCG_SOCK_VERDICT_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/types.h>

#include "level.h"
#include "stats.h"

struct mem_cgroup;
struct sock;

/* The direction of a socket allocation: sending or receiving. */
enum skm_dir {
	SKM_DIR_TX,
	SKM_DIR_RX,
	SKM_DIR_NR,
};

/* Why skmemcg suppressed an allocation (the skmemcg:throttle tracepoint). */
enum skm_suppress_reason {
	SKM_SUPPRESS_PRESSURE,	/* throttle: the memcg's pressure level */
	SKM_SUPPRESS_LIMIT,	/* sock_limits */
	SKM_SUPPRESS_BACKSTOP,	/* exclusive sockets over the host's backstop */
	/* an exclusive socket's memcg refused the charge: the kernel's own
	 * ending, not ours (no count, no trace, no parking)
	 */
	SKM_SUPPRESS_MEMCG,
};

/**
 * struct skm_raise - one call of __sk_mem_raise_allocated(), as the
 *	policies' checks see it
 * @sk: the socket
 * @size: bytes asked for
 * @amt: pages to charge
 * @kind: SK_MEM_SEND or SK_MEM_RECV
 * @dir: @kind as a direction
 * @memcg: the socket's memcg if the policies concern it (sockets accounted
 *	to memcgs, a pressure-aware protocol), else NULL
 * @exclusive: a memcg-exclusive socket, which tcp_mem does not concern
 */
struct skm_raise {
	struct sock *sk;
	int size;
	int amt;
	int kind;
	enum skm_dir dir;
	struct mem_cgroup *memcg;
	bool exclusive;
};

/* What the one suppress ending does first (struct skm_suppress's pressure) */
#define SKM_SUPPRESS_LEAVE_PRESSURE	BIT(0)	/* the protocol's, as the kernel */
#define SKM_SUPPRESS_ENTER_PRESSURE	BIT(1)	/* the protocol's, as the kernel */
#define SKM_SUPPRESS_MEMCG_PRESSURE	BIT(2)	/* @at's sockets, as v1's tcpmem */

/**
 * struct skm_suppress - a check's verdict that the allocation is refused
 * @reason: why
 * @level: the pressure level (throttle), SKM_LEVEL_NONE otherwise
 * @at: the memcg refused for (its cgroup is traced)
 * @pressure: SKM_SUPPRESS_*_PRESSURE: what goes under pressure first
 * @count: the policy's own counter of refusals, or NULL; valid under the
 *	RCU read side the check ran in
 * @stat: the counter of "stats", or SKM_STAT_NR for none
 * @park: a stream sender refused sleeps rather than spins (sndpark.c)
 */
struct skm_suppress {
	enum skm_suppress_reason reason;
	enum skm_level level;
	struct mem_cgroup *at;
	unsigned int pressure;
	atomic_long_t *count;
	enum skm_stat stat;
	bool park;
};

#endif /* _SKMEMCG_SOCK_VERDICT_H */
