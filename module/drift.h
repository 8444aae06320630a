/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_DRIFT_H
#define _SKMEMCG_DRIFT_H

#include <linux/seq_file.h>
#include <linux/types.h>

struct skm_hook;

int skm_drift_init(const struct skm_hook *hooks, unsigned int nr);
unsigned int skm_drift_refused(void);
unsigned int skm_drift_recheck(unsigned int policies);
void skm_drift_report(unsigned int policies, const char *context);
void skm_drift_show_stats(struct seq_file *m);
void skm_drift_show_fingerprints(struct seq_file *m);

#endif /* _SKMEMCG_DRIFT_H */
