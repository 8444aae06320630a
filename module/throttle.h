/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_THROTTLE_H
#define _SKMEMCG_THROTTLE_H

#include <linux/gfp.h>
#include <net/sock.h>

/* skm_throttle_raise(): the kernel's own function decides */
#define SKM_THROTTLE_KERNEL	(-1)

int skm_throttle_raise(struct sock *sk, int size, int amt, int kind,
		       bool exclusive);
gfp_t skm_throttle_charge_gfp(gfp_t gfp);
void skm_throttle_wake(void);
void skm_throttle_vmpressure(gfp_t gfp, struct mem_cgroup *memcg, bool tree,
			     unsigned long scanned, unsigned long reclaimed);

#endif /* _SKMEMCG_THROTTLE_H */
