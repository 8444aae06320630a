/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_SNDPARK_H
#define _SKMEMCG_SNDPARK_H

struct seq_file;
struct sock;

void skm_sndpark(struct sock *sk);
void skm_sndpark_show_stats(struct seq_file *m);
void skm_sndpark_exit(void);

#endif /* _SKMEMCG_SNDPARK_H */
