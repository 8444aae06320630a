// SPDX-License-Identifier: GPL-2.0
/*
 * Proportional memory.low / memory.min reclaim: the pure part. See
 * reclaim_policy.h.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "reclaim_policy.h"

static const char * const skm_reclaim_policy_names[SKM_RECLAIM_NR] = {
	[SKM_RECLAIM_KERNEL]	= "kernel",
	[SKM_RECLAIM_CLIFF]	= "cliff",
	[SKM_RECLAIM_SEED]	= "seed",
	[SKM_RECLAIM_LINEAR]	= "linear",
};

/**
 * skm_reclaim_protection_pages() - the protection a reclaim pass honours
 * @emin: effective memory.min, pages
 * @elow: effective memory.low, pages
 * @low_reclaim: the low-reclaim pass (the first pass freed too little)
 *
 * As get_scan_count(): the larger of @elow and @emin in the first pass,
 * @emin in the low-reclaim pass.
 */
u64 skm_reclaim_protection_pages(u64 emin, u64 elow, bool low_reclaim)
{
	return (!low_reclaim && elow > emin) ? elow : emin;
}

/*
 * @num / @den x @gain_pct / 100, in ppm, at most one; 0 when @gain_pct is.
 * mul_u64_u64_div_u64() faults on x86 when the quotient does not fit 64
 * bits, so ratios of 100 and more (at least one at any gain >= 1%) return
 * early: after that the quotient stays below 10^9.
 */
static u32 skm_ppm_scaled(u64 num, u64 den, unsigned int gain_pct)
{
	u64 ppm;

	if (!gain_pct)
		return 0;
	if (!den || div64_u64(num, den) >= SKM_GAIN_PCT_ONE)
		return SKM_PPM_ONE;
	ppm = mul_u64_u64_div_u64(num, (u64)gain_pct * (SKM_PPM_ONE / SKM_GAIN_PCT_ONE),
				  den);
	return min_t(u64, ppm, SKM_PPM_ONE);
}

/**
 * skm_reclaim_scan_ppm() - the share of a memcg's LRU lists to scan
 * @policy: not SKM_RECLAIM_KERNEL, which has no formula here
 * @usage: the memcg's usage, pages
 * @emin: effective memory.min, pages
 * @elow: effective memory.low, pages
 * @low_reclaim: the low-reclaim pass
 * @gain_pct: reclaim_gain_pct, scaling the overage term of seed and linear
 *
 * Return: the fraction in ppm, 0..SKM_PPM_ONE. A pass without protection
 * (p = 0) scans everything, whatever the policy.
 */
u32 skm_reclaim_scan_ppm(enum skm_reclaim_policy policy, u64 usage, u64 emin,
			 u64 elow, bool low_reclaim, unsigned int gain_pct)
{
	u64 p = skm_reclaim_protection_pages(emin, elow, low_reclaim);
	u64 over, under, size;

	gain_pct = min(gain_pct, SKM_GAIN_PCT_MAX);
	if (!p)
		return SKM_PPM_ONE;
	over = usage > p ? usage - p : 0;
	under = usage < p ? p - usage : 0;

	switch (policy) {
	case SKM_RECLAIM_CLIFF:
		return over ? SKM_PPM_ONE : 0;
	case SKM_RECLAIM_SEED:
		if (!low_reclaim)	/* (u - p) / p, scaled */
			return skm_ppm_scaled(over, p, gain_pct);
		/* u / p = 1 + (u - p) / p, with the overage term scaled */
		if (over)
			return SKM_PPM_ONE;
		return SKM_PPM_ONE - skm_ppm_scaled(under, p, gain_pct);
	case SKM_RECLAIM_LINEAR:
		/* 1 - p / (max(u, p) + 1) = (max(u, p) + 1 - p) / (max(u, p) + 1) */
		size = max(usage, p);
		if (size == U64_MAX)	/* no room for the + 1 */
			size--;
		return skm_ppm_scaled(size + 1 - p, size + 1, gain_pct);
	default:
		return SKM_PPM_ONE;
	}
}

/**
 * skm_reclaim_min_cap_ppm() - the most of a memcg's LRU lists one reclaim
 *	pass may scan under its memory.min
 * @usage: the memcg's usage, pages
 * @emin: effective memory.min, pages
 *
 * memory.min is a hard floor, whatever the policy: the kernel skips a memcg
 * at or below emin only when it visits it, and one pass over a memcg a
 * page above emin scans its lists' target whole (cliff, seed's low-reclaim
 * pass, any pass drawn 1 by reclaim_dither), which at a low reclaim
 * priority is all of them. Capped at the share of the lists above emin,
 * 1 - emin / (max(u, emin) + 1) (the kernel's own linear curve with
 * p = emin), a pass cannot take the memcg far below it.
 *
 * Return: that share in ppm; SKM_PPM_ONE when @emin is 0.
 */
u32 skm_reclaim_min_cap_ppm(u64 usage, u64 emin)
{
	u64 size;

	if (!emin)
		return SKM_PPM_ONE;
	size = max(usage, emin);
	if (size == U64_MAX)	/* no room for the + 1 */
		size--;
	return skm_ppm_scaled(size + 1 - emin, size + 1, SKM_GAIN_PCT_ONE);
}

/**
 * skm_reclaim_batch_ppm() - the chance that one MGLRU eviction batch of a
 *	memcg goes through (6.x)
 * @scan_ppm: the policy's fraction, from skm_reclaim_scan_ppm()
 * @usage: the memcg's usage, pages
 * @emin: effective memory.min, pages
 *
 * The kernel skips a memcg at or below emin once per visit, and a visit
 * evicts batch after batch; each batch decides again. At or below emin
 * none goes through (mem_cgroup_below_min(), batch by batch); above, the
 * policy's fraction, capped at the share above emin as a pass of the
 * classic LRU is (skm_reclaim_min_cap_ppm()).
 *
 * Return: that chance in ppm, 0..SKM_PPM_ONE.
 */
u32 skm_reclaim_batch_ppm(u32 scan_ppm, u64 usage, u64 emin)
{
	if (emin >= usage)
		return 0;
	return min(scan_ppm, skm_reclaim_min_cap_ppm(usage, emin));
}

/**
 * skm_reclaim_scan_pages() - scan target of one LRU list
 * @lru_pages: the list's size
 * @scan_ppm: from skm_reclaim_scan_ppm()
 *
 * Return: @lru_pages x @scan_ppm, clamped to [SWAP_CLUSTER_MAX, @lru_pages]
 * (all of a list shorter than SWAP_CLUSTER_MAX).
 */
u64 skm_reclaim_scan_pages(u64 lru_pages, u32 scan_ppm)
{
	u64 scan = mul_u64_u64_div_u64(lru_pages, min(scan_ppm, SKM_PPM_ONE),
				       SKM_PPM_ONE);

	return clamp_t(u64, scan, min_t(u64, SKM_SCAN_MIN_PAGES, lru_pages),
		       lru_pages);
}

/**
 * skm_reclaim_dither_ppm() - one reclaim pass's fraction: all or nothing
 * @scan_ppm: the policy's fraction, from skm_reclaim_scan_ppm()
 * @draw_ppm: a uniform draw from [0, SKM_PPM_ONE)
 *
 * The kernel shifts a scan target right by the reclaim priority (12 down
 * to 0), so on a list of L pages a pass scans f x L / 2^priority pages,
 * rounded down: a few pages for a memcg of some hundred MiB at the
 * priorities memcg reclaim mostly ends at. Rounded, a fraction is lost
 * (0 when f x L < 2^priority) or taken whole, and the measured scan rate
 * jumps from about 0 to the unprotected rate instead of following f. Drawn
 * all or nothing per pass instead, the pass scans what an unprotected memcg
 * would with probability f and the protected minimum otherwise: over many
 * passes f of the unprotected scan, at any list size and priority.
 *
 * Return: SKM_PPM_ONE when @draw_ppm < @scan_ppm, else 0.
 */
u32 skm_reclaim_dither_ppm(u32 scan_ppm, u32 draw_ppm)
{
	return draw_ppm < scan_ppm ? SKM_PPM_ONE : 0;
}

/**
 * skm_reclaim_size_for_ppm() - the memcg size that makes get_scan_count()
 * scan @scan_ppm of each list
 * @protection: the protection get_scan_count() uses in this pass, > 0
 * @scan_ppm: the fraction wanted
 *
 * get_scan_count() scans size_lru - size_lru * p / (max(size, p) + 1) and
 * takes the memcg's size from mem_cgroup_size(), which has no other caller.
 * Returning p / (1 - f) - 1 there makes it scan f of each list, to within
 * a page; f = 1 returns ULONG_MAX - 1 (the kernel adds one; ULONG_MAX would
 * wrap to a division by zero).
 */
u64 skm_reclaim_size_for_ppm(u64 protection, u32 scan_ppm)
{
	u64 left, size;

	if (scan_ppm >= SKM_PPM_ONE)
		return ULONG_MAX - 1;
	left = SKM_PPM_ONE - scan_ppm;
	/* p x 10^6 / left must fit 64 bits for mul_u64_u64_div_u64() */
	if (div64_u64(protection, left) >= div64_u64(ULONG_MAX - 1, SKM_PPM_ONE))
		return ULONG_MAX - 1;
	size = mul_u64_u64_div_u64(protection, SKM_PPM_ONE, left);
	return size ? size - 1 : 0;
}

const char *skm_reclaim_policy_name(enum skm_reclaim_policy policy)
{
	return policy < SKM_RECLAIM_NR ? skm_reclaim_policy_names[policy] : "?";
}

/**
 * skm_reclaim_policy_parse() - parse a reclaim_policy value
 * @buf: one of the names; one trailing newline is allowed
 * @policy: the result, written only on success
 *
 * Return: 0 or -EINVAL.
 */
int skm_reclaim_policy_parse(const char *buf, unsigned int *policy)
{
	int i = sysfs_match_string(skm_reclaim_policy_names, buf);

	if (i < 0)
		return -EINVAL;
	*policy = i;
	return 0;
}

int skm_reclaim_policy_print(unsigned int policy, char *buf, size_t size)
{
	return scnprintf(buf, size, "%s", skm_reclaim_policy_name(policy));
}
