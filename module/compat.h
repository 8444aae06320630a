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
#include <linux/workqueue.h>

#define SKM_KERNELS_SUPPORTED	"6.1.x, 6.12.x, 7.3.x"

#ifndef SKM_HAVE_FTRACE_REGS_SET_IP
#define ftrace_regs_set_instruction_pointer(fregs, ip) \
	ftrace_instruction_pointer_set(fregs, ip)
#endif

/*
 * skm_is_endbr_insn(insn): is the instruction word an ENDBR or its sealed
 * form? 7.x's is_endbr() takes the address and reads it itself; the value
 * test is __is_endbr() there.
 */
#ifdef SKM_HAVE_IS_ENDBR_VALUE
#define skm_is_endbr_insn(insn)	__is_endbr(insn)
#else
#define skm_is_endbr_insn(insn)	is_endbr(insn)
#endif

/*
 * The per-CPU system workqueue: system_percpu_wq on 7.x, which warns when
 * work is queued on system_wq, its name before.
 */
#ifdef SKM_HAVE_SYSTEM_PERCPU_WQ
#define skm_system_percpu_wq	system_percpu_wq
#else
#define skm_system_percpu_wq	system_wq
#endif

#endif /* _SKMEMCG_COMPAT_H */
