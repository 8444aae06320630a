// SPDX-License-Identifier: GPL-2.0
/*
 * Unit conversions shared by the policies (see units.h).
 *
 * The page size is an argument, not PAGE_SHIFT, so the tests can cover 4 KiB
 * and 64 KiB pages on any build. Valid page shifts are 9..20.
 */
#include <linux/limits.h>
#include <linux/math.h>

#include "units.h"

/**
 * skm_bytes_to_pages_up() - pages needed to hold @bytes
 * @bytes: size in bytes
 * @page_shift: log2 of the page size
 *
 * Rounds up, like sk_mem_pages(). Saturates at ULONG_MAX pages.
 */
unsigned long skm_bytes_to_pages_up(u64 bytes, unsigned int page_shift)
{
	u64 pages = (bytes >> page_shift) + !!(bytes & ((1ULL << page_shift) - 1));

	return pages > ULONG_MAX ? ULONG_MAX : (unsigned long)pages;
}

/**
 * skm_pages_to_bytes_sat() - bytes held by @pages, saturating at U64_MAX
 * @pages: number of pages
 * @page_shift: log2 of the page size
 */
u64 skm_pages_to_bytes_sat(unsigned long pages, unsigned int page_shift)
{
	if ((u64)pages > (U64_MAX >> page_shift))
		return U64_MAX;
	return (u64)pages << page_shift;
}

/**
 * skm_pages_to_kib() - @pages expressed in KiB, as /proc and sysctls print them
 * @pages: number of pages
 * @page_shift: log2 of the page size, at least 10
 *
 * Saturates at ULONG_MAX.
 */
unsigned long skm_pages_to_kib(unsigned long pages, unsigned int page_shift)
{
	unsigned int shift = page_shift - 10;

	if (pages > (ULONG_MAX >> shift))
		return ULONG_MAX;
	return pages << shift;
}
