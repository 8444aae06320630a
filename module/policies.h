/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core of the control plane: the registered policies (struct
 * skm_policy, policy.h), the master switch, and the transitions that hook
 * what the knobs turn on (policies.c).
 */
#ifndef _SKMEMCG_POLICIES_H
#define _SKMEMCG_POLICIES_H

#include <linux/types.h>

#include "policy.h"

struct cgroup;
struct seq_file;

/* Master switch (the "enabled" knob, main.c): off, nothing is hooked. */
extern bool skm_enabled;

void skm_policies_register(const struct skm_policy *const *policies,
			   unsigned int nr);
bool skm_policies_are_live(void);
int skm_policies_apply(const char *context);
int skm_policies_go_live(void);
void skm_policies_go_dead(void);
void skm_policies_enabled_changed(bool on);
void skm_policies_show_stats(struct seq_file *m);

void skm_cglists_online(struct cgroup *cgrp);
void skm_cglists_gone(struct cgroup *cgrp);

#endif /* _SKMEMCG_POLICIES_H */
