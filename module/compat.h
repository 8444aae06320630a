/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernels skmemcg supports. A policy that replicates a kernel function
 * body is correct only for the kernel family whose source it was copied from,
 * so the module refuses to load anywhere else. Kbuild defines
 * SKM_KERNEL_FAMILY ("6.1", "6.12") when the build tree is of a supported
 * family, and SKM_HAVE_<api> for each API its probes find in the headers.
 */
#ifndef _SKMEMCG_COMPAT_H
#define _SKMEMCG_COMPAT_H

#include <linux/ftrace.h>

#define SKM_KERNELS_SUPPORTED	"6.1.x, 6.12.x"

#ifndef SKM_HAVE_FTRACE_REGS_SET_IP
#define ftrace_regs_set_instruction_pointer(fregs, ip) \
	ftrace_instruction_pointer_set(fregs, ip)
#endif

#endif /* _SKMEMCG_COMPAT_H */
