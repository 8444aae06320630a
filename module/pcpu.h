/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_PCPU_H
#define _SKMEMCG_PCPU_H

#include <linux/types.h>

struct seq_file;

int skm_pcpu_init(void);
void skm_pcpu_exit(void);
bool skm_pcpu_rsv_settable(void);
void skm_pcpu_reconfigure(void);
void skm_pcpu_show_stats(struct seq_file *m);

#endif /* _SKMEMCG_PCPU_H */
