/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_KSYM_H
#define _SKMEMCG_KSYM_H

int skm_ksym_init(void);
unsigned long skm_ksym_lookup(const char *name);

#endif /* _SKMEMCG_KSYM_H */
