// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup lists' syntax (see cglist_parse.h): sizes, paths, updates.
 * Each function validates the whole input before it writes a result.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "cglist_parse.h"

#define SKM_CGROUP_MOUNT	"/sys/fs/cgroup"

/**
 * skm_size_parse_bytes() - parse "<digits>[KMGT]" into bytes
 * @buf: input, not NUL-terminated
 * @len: its length; no newline, sign or blank allowed
 * @bytes: the result, written only on success
 *
 * The suffix is binary (K = 1024) and either case, as memory.max takes it.
 *
 * Return: 0, or -EINVAL for anything else, overflow of u64 included.
 */
int skm_size_parse_bytes(const char *buf, size_t len, u64 *bytes)
{
	unsigned int shift = 0;
	u64 v = 0;
	size_t i;

	switch (len ? buf[len - 1] : 0) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	case 't':
	case 'T':
		shift = 40;
		break;
	}
	if (shift)
		len--;
	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		unsigned int d = buf[i] - '0';

		if (buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
		if (v > (U64_MAX - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	if (v > U64_MAX >> shift)
		return -EINVAL;
	*bytes = v << shift;
	return 0;
}

/**
 * skm_cgpath_check() - is @buf a cgroup path a list takes?
 * @buf: input, not NUL-terminated
 * @len: its length
 * @skip: written on success: how many leading bytes are the mount prefix
 *	"/sys/fs/cgroup" (0 if none); what follows is the path proper, or
 *	nothing for the root
 *
 * Return: 0, or -EINVAL (see cglist_parse.h for the rules).
 */
int skm_cgpath_check(const char *buf, size_t len, size_t *skip)
{
	const size_t mount_len = strlen(SKM_CGROUP_MOUNT);
	const char *name, *end = buf + len;
	size_t off = 0;

	if (!len)
		return -EINVAL;
	if (len >= mount_len && !memcmp(buf, SKM_CGROUP_MOUNT, mount_len) &&
	    (len == mount_len || buf[mount_len] == '/'))
		off = mount_len;
	if (off == len || (len - off == 1 && buf[off] == '/')) {
		*skip = off;	/* the root: the bare mount, or "/" */
		return 0;
	}
	if (buf[off] != '/' || len - off > SKM_CGPATH_MAX)
		return -EINVAL;
	for (name = buf + off + 1; ; name++) {
		const char *slash = memchr(name, '/', end - name) ?: end;
		size_t n = slash - name;

		if (!n || n > NAME_MAX || (n == 1 && name[0] == '.') ||
		    (n == 2 && name[0] == '.' && name[1] == '.'))
			return -EINVAL;
		for (; name < slash; name++) {
			unsigned char c = *name;

			if (c <= ' ' || c == '=' || c == 0x7f)
				return -EINVAL;
		}
		if (slash == end)
			break;
	}
	*skip = off;
	return 0;
}

/**
 * skm_cglist_op_parse() - parse one update of a cgroup list
 * @buf: input, not NUL-terminated; one trailing newline is allowed
 * @len: its length
 * @with_size: the list takes "+<path>=<size>" (and then "+" needs it)
 * @op: the update, written only on success; op->path points into @buf
 *	(or at a constant "/" for the root given as the bare mount)
 *
 * Return: 0, or -EINVAL.
 */
int skm_cglist_op_parse(const char *buf, size_t len, bool with_size,
			struct skm_cglist_op *op)
{
	size_t path_len, skip;
	const char *eq;
	u64 bytes = 0;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len < 2 || (buf[0] != '+' && buf[0] != '-'))
		return -EINVAL;
	path_len = len - 1;
	eq = memchr(buf + 1, '=', path_len);
	if (eq) {
		if (!with_size || buf[0] != '+' ||
		    skm_size_parse_bytes(eq + 1, buf + len - eq - 1, &bytes))
			return -EINVAL;
		path_len = eq - (buf + 1);
	} else if (with_size && buf[0] == '+') {
		return -EINVAL;
	}
	if (!path_len || skm_cgpath_check(buf + 1, path_len, &skip))
		return -EINVAL;

	op->add = buf[0] == '+';
	op->bytes = bytes;
	if (skip == path_len) {
		op->path = "/";
		op->path_len = 1;
	} else {
		op->path = buf + 1 + skip;
		op->path_len = path_len - skip;
	}
	return 0;
}
