/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_THROTTLE_H
#define _SKMEMCG_THROTTLE_H

#include <linux/gfp.h>
#include <net/sock.h>

/* skm_throttle_raise(): the kernel's own function decides */
#define SKM_THROTTLE_KERNEL	(-1)

/* Why skmemcg suppressed an allocation (the skmemcg:throttle tracepoint). */
enum skm_suppress_reason {
	SKM_SUPPRESS_PRESSURE,	/* throttle: the memcg's pressure level */
	SKM_SUPPRESS_LIMIT,	/* sock_limits */
	SKM_SUPPRESS_BACKSTOP,	/* exclusive sockets over the host's backstop */
};

struct skm_cglist;
extern struct skm_cglist skm_throttle_cgroups;

int skm_throttle_raise(struct sock *sk, int size, int amt, int kind,
		       bool exclusive);
gfp_t skm_throttle_charge_gfp(gfp_t gfp);
void skm_throttle_wake(void);
void skm_throttle_vmpressure(gfp_t gfp, struct mem_cgroup *memcg, bool tree,
			     unsigned long scanned, unsigned long reclaimed);

struct skm_policy_hooks;
/* The kernel functions this policy needs hooked (hooks.h) */
extern const struct skm_policy_hooks skm_throttle_hooks;

#endif /* _SKMEMCG_THROTTLE_H */
