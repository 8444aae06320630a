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

void skm_limit_walk(struct skm_limit_walk *w, struct mem_cgroup *memcg,
		    unsigned int amt);
void skm_limit_charged(struct mem_cgroup *memcg, unsigned int nr_pages);
void skm_limit_uncharged(struct mem_cgroup *memcg, unsigned int nr_pages);

#endif /* _SKMEMCG_LIMIT_H */
