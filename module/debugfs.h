/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_DEBUGFS_H
#define _SKMEMCG_DEBUGFS_H

void skm_debugfs_init(void);
void skm_debugfs_exit(void);

#endif /* _SKMEMCG_DEBUGFS_H */
