/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unit conversions shared by the policies: bytes, pages and kilobytes.
 *
 * Pure functions: no globals, every input by value, so that the module and the
 * KUnit suite compile the same object. Page counts are unsigned long, as in the
 * kernel's own counters; conversions that could overflow saturate instead.
 */
#ifndef _SKMEMCG_UNITS_H
#define _SKMEMCG_UNITS_H

#include <linux/types.h>

unsigned long skm_bytes_to_pages_up(u64 bytes, unsigned int page_shift);
u64 skm_pages_to_bytes_sat(unsigned long pages, unsigned int page_shift);
unsigned long skm_pages_to_kib(unsigned long pages, unsigned int page_shift);

#endif /* _SKMEMCG_UNITS_H */
