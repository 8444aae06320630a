/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The syntax of skmemcg's cgroup lists (exclusive_cgroups, throttle_cgroups,
 * sock_limits): one update per write,
 *
 *	+<path>			add <path> (lists without a value)
 *	+<path>=<size>		add <path>, or change its value (sock_limits)
 *	-<path>			remove <path>
 *
 * with at most one trailing newline. <path> is the cgroup's path under the
 * cgroup v2 mount, "/" first, with or without a leading "/sys/fs/cgroup":
 * "/kubepods.slice/pod1" and "/sys/fs/cgroup/kubepods.slice/pod1" are one
 * cgroup. A path is taken as written, not normalized: no empty, "." or
 * ".." component, no trailing "/" (but for the root, "/"), no blank, "="
 * or control character, each name at most NAME_MAX bytes and the whole at
 * most SKM_CGPATH_MAX. <size> is a byte count in decimal with an optional
 * binary suffix K, M, G or T (either case), as memory.max takes it.
 *
 * Pure functions: no globals, inputs by value, compiled into the module and
 * into the KUnit suite.
 */
#ifndef _SKMEMCG_CGLIST_PARSE_H
#define _SKMEMCG_CGLIST_PARSE_H

#include <linux/types.h>

/* The longest <path>, without the mount prefix, in bytes. */
#define SKM_CGPATH_MAX		1024

/**
 * struct skm_cglist_op - one parsed update
 * @add: true for "+", false for "-"
 * @path: the cgroup's path in the input, the mount prefix skipped; not
 *	NUL-terminated
 * @path_len: its length in bytes
 * @bytes: the value of "+<path>=<size>", in bytes; 0 otherwise
 */
struct skm_cglist_op {
	bool add;
	const char *path;
	size_t path_len;
	u64 bytes;
};

int skm_size_parse_bytes(const char *buf, size_t len, u64 *bytes);
int skm_cgpath_check(const char *buf, size_t len, size_t *skip);
int skm_cglist_op_parse(const char *buf, size_t len, bool with_size,
			struct skm_cglist_op *op);

#endif /* _SKMEMCG_CGLIST_PARSE_H */
