// SPDX-License-Identifier: GPL-2.0
/*
 * memcg-exclusive socket accounting: the pure part. See exclusive_policy.h.
 */
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/overflow.h>

#include "exclusive_policy.h"

/**
 * skm_exclusive_decide() - is a socket exclusive, once its memcg is bound?
 * @dflt: the global "exclusive" knob
 * @listed: its memcg's cgroup or an ancestor is in exclusive_cgroups
 * @kernel_bypasses: the kernel keeps it out of the global counter itself
 *	(7.x's sk_bypass_prot_mem): it stays the kernel's, so that nothing
 *	is subtracted twice
 */
bool skm_exclusive_decide(bool dflt, bool listed, bool kernel_bypasses)
{
	return !kernel_bypasses && (dflt || listed);
}

