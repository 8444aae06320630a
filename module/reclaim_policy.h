/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Proportional memory.low / memory.min reclaim (seed 003): the model.
 *
 * Reclaim visits each memcg's LRU lists and decides how much of them to
 * scan. With binary protection a memcg a page over its memory.low is
 * scanned as if it had none, so people set memory.low far too high; the
 * seed scales the scan with the overage instead. skmemcg makes the curve a
 * policy, as the fraction of an LRU list to scan, in parts per million:
 *
 *   kernel  the kernel decides; skmemcg changes nothing
 *   cliff   1 above protection, 0 within it (the pre-seed behaviour)
 *   seed    first pass (u - p) / p, the low-reclaim pass u / p with p = emin:
 *           the seed's formula with its review's correction (the second
 *           pass must depend on memory.min, not memory.low)
 *   linear  1 - p / (max(u, p) + 1): the kernel's get_scan_count() since
 *           5.15, which skmemcg also applies on MGLRU
 *
 * where u is the memcg's usage and p the protection the pass honours: in
 * the first pass the larger of the effective low and min (elow, emin), in
 * the low-reclaim pass (when the first freed too little) emin, as in the
 * kernel. reclaim_gain_pct scales the overage term (u - p) of seed and
 * linear; 100 is the formula as written. The scan target is then the LRU
 * list's size times the fraction, clamped to [SWAP_CLUSTER_MAX, size].
 * With reclaim_dither (the default) each pass takes the fraction all or
 * nothing, 1 with probability f, so that the kernel's shift of the target
 * by the reclaim priority does not round a small memcg's fraction to 0 or
 * to all of it (skm_reclaim_dither_ppm()). Whatever the policy and the
 * draw, a pass scans at most the share of the lists above emin
 * (skm_reclaim_min_cap_ppm()): memory.min stays a hard floor.
 *
 * Only memcgs with protection are shaped: emin = elow = 0 is never changed.
 * Sizes are pages (u64 so that huge memcgs cannot overflow), fractions ppm.
 * Pure functions: inputs by value, no globals.
 */
#ifndef _SKMEMCG_RECLAIM_POLICY_H
#define _SKMEMCG_RECLAIM_POLICY_H

#include <linux/types.h>

/* A fraction of one, in parts per million. */
#define SKM_PPM_ONE		1000000U

/* The kernel's SWAP_CLUSTER_MAX: reclaim always targets at least this. */
#define SKM_SCAN_MIN_PAGES	32U

/* reclaim_gain_pct: 100 is the formula as written. */
#define SKM_GAIN_PCT_ONE	100U
#define SKM_GAIN_PCT_MAX	1000U

enum skm_reclaim_policy {
	SKM_RECLAIM_KERNEL,
	SKM_RECLAIM_CLIFF,
	SKM_RECLAIM_SEED,
	SKM_RECLAIM_LINEAR,
	SKM_RECLAIM_NR,
};

u64 skm_reclaim_protection_pages(u64 emin, u64 elow, bool low_reclaim);
u32 skm_reclaim_scan_ppm(enum skm_reclaim_policy policy, u64 usage, u64 emin,
			 u64 elow, bool low_reclaim, unsigned int gain_pct);
u32 skm_reclaim_min_cap_ppm(u64 usage, u64 emin);
u32 skm_reclaim_batch_ppm(u32 scan_ppm, u64 usage, u64 emin);
u64 skm_reclaim_scan_pages(u64 lru_pages, u32 scan_ppm);
u32 skm_reclaim_dither_ppm(u32 scan_ppm, u32 draw_ppm);
u64 skm_reclaim_size_for_ppm(u64 protection, u32 scan_ppm);
const char *skm_reclaim_policy_name(enum skm_reclaim_policy policy);
int skm_reclaim_policy_parse(const char *buf, unsigned int *policy);
int skm_reclaim_policy_print(unsigned int policy, char *buf, size_t size);

#endif /* _SKMEMCG_RECLAIM_POLICY_H */
