/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_KNOBS_H
#define _SKMEMCG_KNOBS_H

#include <linux/jump_label.h>
#include <linux/types.h>

#include "level.h"

extern bool skm_enabled;
extern bool skm_instrument;
extern char *skm_test_missing_symbol;
extern char *skm_test_fail_install;

extern bool skm_throttle;
extern unsigned int skm_throttle_level;	/* enum skm_level */
extern unsigned int skm_pressure_sources;
extern unsigned int skm_pressure_hold_ms;
extern unsigned int skm_psi_some_pct;
extern unsigned int skm_psi_full_pct;
extern unsigned int skm_headroom_pct;
extern bool skm_exclusive;
extern unsigned int skm_exclusive_backstop_pct;
extern unsigned int skm_reclaim_policy;	/* enum skm_reclaim_policy */
extern unsigned int skm_reclaim_gain_pct;
extern bool skm_reclaim_dither;

DECLARE_STATIC_KEY_FALSE(skm_instrument_key);
DECLARE_STATIC_KEY_FALSE(skm_throttle_key);
DECLARE_STATIC_KEY_FALSE(skm_reclaim_key);

struct cgroup;

int skm_knobs_go_live(void);
void skm_knobs_go_dead(void);
int skm_policies_apply(const char *context);
void skm_cglists_online(struct cgroup *cgrp);
void skm_cglists_gone(struct cgroup *cgrp);

#endif /* _SKMEMCG_KNOBS_H */
