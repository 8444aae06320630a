/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernels skmemcg supports. A policy that replicates a kernel function
 * body is correct only for the kernel family whose source it was copied from,
 * so the module refuses to load anywhere else. Kbuild defines
 * SKM_KERNEL_FAMILY ("6.1") when the build tree is of a supported family.
 */
#ifndef _SKMEMCG_COMPAT_H
#define _SKMEMCG_COMPAT_H

#define SKM_KERNELS_SUPPORTED	"6.1.x"

#endif /* _SKMEMCG_COMPAT_H */
