/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory pressure levels and their encoding.
 *
 * A memcg's socket pressure is one of three ordered levels. The state a policy
 * keeps per memcg is a level plus the jiffy at which it expires; both fit in
 * one unsigned long (level in the low SKM_LEVEL_BITS bits, expiry in the rest)
 * so that a reader on the allocation fast path sees a consistent pair with one
 * READ_ONCE and no lock. The expiry loses its low SKM_LEVEL_BITS bits: it is
 * rounded up to a multiple of 4 jiffies, at most 3 jiffies late.
 */
#ifndef _SKMEMCG_LEVEL_H
#define _SKMEMCG_LEVEL_H

#include <linux/types.h>

enum skm_level {
	SKM_LEVEL_NONE = 0,
	SKM_LEVEL_MEDIUM = 1,
	SKM_LEVEL_CRITICAL = 2,
	SKM_LEVEL_NR,
};

#define SKM_LEVEL_BITS	2
#define SKM_LEVEL_MASK	((1UL << SKM_LEVEL_BITS) - 1)

const char *skm_level_name(enum skm_level level);
int skm_level_parse(const char *buf, enum skm_level *level);

unsigned long skm_level_pack(enum skm_level level, unsigned long expires);
enum skm_level skm_level_unpack(unsigned long state, unsigned long now);
long skm_level_expires_in(unsigned long state, unsigned long now);

#endif /* _SKMEMCG_LEVEL_H */
