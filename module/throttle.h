/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_THROTTLE_H
#define _SKMEMCG_THROTTLE_H

#include <linux/gfp.h>
#include <linux/jump_label.h>
#include <net/sock.h>

#include "sock_verdict.h"

struct skm_cglist;
extern struct skm_cglist skm_throttle_cgroups;

/* On while the "throttle" knob is (and its claims hold; drift.c). */
DECLARE_STATIC_KEY_FALSE(skm_throttle_key);

int skm_throttle_raise(struct sock *sk, int size, int amt, int kind,
		       bool exclusive);
gfp_t skm_throttle_charge_gfp(gfp_t gfp);
void skm_throttle_wake(void);
void skm_throttle_vmpressure(gfp_t gfp, struct mem_cgroup *memcg, bool tree,
			     unsigned long scanned, unsigned long reclaimed);

extern const struct skm_policy skm_policy_throttle;

#endif /* _SKMEMCG_THROTTLE_H */
