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
 * @listed: its cgroup or an ancestor is in exclusive_cgroups
 * @is_child: the socket comes from accept()
 * @listener_exclusive: for a child, whether its listener is exclusive
 */
bool skm_exclusive_decide(bool dflt, bool listed, bool is_child,
			  bool listener_exclusive)
{
	if (is_child)
		return listener_exclusive;
	return dflt || listed;
}

