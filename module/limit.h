/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_LIMIT_H
#define _SKMEMCG_LIMIT_H

#include <linux/cgroup.h>
#include <linux/memcontrol.h>
#include <net/sock.h>

#include "cglist.h"
#include "limit_policy.h"
#include "sock_verdict.h"

struct mem_cgroup;
struct seq_file;
struct skm_cglist;
struct skm_cglist_entry;

extern struct skm_cglist skm_sock_limits;

/**
 * struct skm_limit_walk - sock_limits' walk of one raise up the socket's
 *	memcg and its ancestors
 * @e: the nearest entry the raise would pass, or NULL
 * @at: the memcg it limits
 */
struct skm_limit_walk {
	struct skm_cglist_entry *e;
	struct mem_cgroup *at;
};

bool skm_limit_end(const struct skm_raise *r, const struct skm_limit_walk *w,
		   struct skm_suppress *v);

/**
 * skm_limit_step() - one memcg of the walk up from the socket's
 * @w: the walk; stops looking once it found an entry passed
 * @memcg: the socket's memcg or an ancestor, the root included
 * @amt: pages the raise asks for
 *
 * Notes the nearest entry whose limit @amt more pages would pass, and the
 * memcg it limits. Under rcu_read_lock(). Inline: it runs per memcg of
 * every raise.
 */
static __always_inline void skm_limit_step(struct skm_limit_walk *w,
					   struct mem_cgroup *memcg,
					   unsigned int amt)
{
	struct skm_cglist_entry *e;

	if (w->e)
		return;
	e = skm_cglist_find(&skm_sock_limits, cgroup_id(memcg->css.cgroup));
	if (e && skm_limit_over(atomic_long_read(&e->usage_pages), amt,
				READ_ONCE(e->pages))) {
		w->e = e;
		w->at = memcg;
	}
}

void skm_limit_charged(struct mem_cgroup *memcg, unsigned int nr_pages);
void skm_limit_uncharged(struct mem_cgroup *memcg, unsigned int nr_pages);

#endif /* _SKMEMCG_LIMIT_H */
