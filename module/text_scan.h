/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKMEMCG_TEXT_SCAN_H
#define _SKMEMCG_TEXT_SCAN_H

#include <linux/types.h>

/**
 * struct skm_text_fp - a kernel function's fingerprint
 * @size: its size in bytes, as kallsyms has it
 * @hash: the hash of its instructions (text_fp.c)
 */
struct skm_text_fp {
	u32 size;
	u64 hash;
};

int skm_text_scan_init(void);
int skm_text_fingerprint(const char *name, struct skm_text_fp *fp,
			 char *why, size_t why_len);

#endif /* _SKMEMCG_TEXT_SCAN_H */
