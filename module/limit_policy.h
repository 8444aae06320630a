/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Socket memory limits per cgroup (sock_limits): the model.
 *
 * cgroup v1 had memory.kmem.tcp.limit_in_bytes: a cgroup's TCP memory
 * was held at a limit, and a charge over it failed; the socket was then
 * suppressed as over tcp_mem[2] and its memcg marked under socket pressure,
 * so TCP shrank its windows instead of anything being killed. cgroup v2
 * has no such limit. sock_limits brings it back, for every pressure-aware
 * (TCP-like) protocol:
 *
 * - Usage: the socket pages charged to the cgroup and its descendants,
 *   counted from the memcg socket charges and uncharges skmemcg sees while
 *   the limit is set (pages charged before it was set are not counted:
 *   usage never goes below 0).
 * - Decision: an allocation of amt pages is over when usage + amt would
 *   pass the limit of the cgroup or of any limited ancestor (nested limits
 *   all apply). It is then suppressed exactly as the kernel suppresses one
 *   over its hard limit: the socket enters memory pressure (its memcg's
 *   socket_pressure, as vmpressure sets it), a send is moderated (sndbuf),
 *   and two guarantees are kept as the throttle keeps them: a socket under
 *   its minimum buffer (tcp_rmem[0], tcp_wmem[0]) still allocates, and a
 *   stream send over its moderated sndbuf is forced through. So usage can
 *   pass the limit by about one minimum buffer per socket, the documented
 *   slack.
 *
 * Pure functions: inputs by value, no globals.
 */
#ifndef _SKMEMCG_LIMIT_POLICY_H
#define _SKMEMCG_LIMIT_POLICY_H

#include <linux/types.h>

unsigned long skm_limit_pages_from_bytes(u64 bytes);

/**
 * skm_limit_over() - would @amt_pages more pass the limit?
 * @usage_pages: the cgroup's counted socket pages (never below 0)
 * @amt_pages: pages about to be allocated
 * @limit_pages: the limit, at most LONG_MAX
 */
static inline bool skm_limit_over(long usage_pages, unsigned int amt_pages,
				  unsigned long limit_pages)
{
	if (usage_pages < 0)
		usage_pages = 0;
	return (unsigned long)usage_pages + amt_pages > limit_pages;
}

bool skm_limit_suppress(bool over, bool below_min);

#endif /* _SKMEMCG_LIMIT_POLICY_H */
