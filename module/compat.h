/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernels skmemcg supports. A policy that replicates a kernel function
 * body is correct only for the kernel family whose source it was copied from,
 * so the module refuses to load anywhere else.
 */
#ifndef _SKMEMCG_COMPAT_H
#define _SKMEMCG_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0) && \
	LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define SKM_KERNEL_FAMILY	"6.1"
#endif

#define SKM_KERNELS_SUPPORTED	"6.1.x"

#endif /* _SKMEMCG_COMPAT_H */
