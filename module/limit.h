/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_LIMIT_H
#define _SKMEMCG_LIMIT_H

#include <net/sock.h>

struct mem_cgroup;
struct seq_file;
struct skm_cglist;

extern struct skm_cglist skm_sock_limits;

int skm_limit_raise(struct sock *sk, int size, int amt, int kind);
void skm_limit_charged(struct mem_cgroup *memcg, unsigned int nr_pages);
void skm_limit_uncharged(struct mem_cgroup *memcg, unsigned int nr_pages);

extern const struct skm_policy skm_policy_limit;

#endif /* _SKMEMCG_LIMIT_H */
