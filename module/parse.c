// SPDX-License-Identifier: GPL-2.0
/*
 * Strict knob value parsers (see parse.h). Each takes a NUL-terminated string
 * that may end in one newline, as echo writes it, and writes the result only
 * when the whole input is valid.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "parse.h"

/* Length of @buf without one trailing newline. */
static size_t skm_value_len(const char *buf)
{
	size_t len = strlen(buf);

	if (len && buf[len - 1] == '\n')
		len--;
	return len;
}

/**
 * skm_parse_bool() - parse exactly one of 0 1 n y N Y
 * @buf: NUL-terminated input
 * @val: the result, written only on success
 *
 * Return: 0 or -EINVAL.
 */
int skm_parse_bool(const char *buf, bool *val)
{
	if (skm_value_len(buf) != 1)
		return -EINVAL;

	switch (buf[0]) {
	case '1':
	case 'y':
	case 'Y':
		*val = true;
		return 0;
	case '0':
	case 'n':
	case 'N':
		*val = false;
		return 0;
	}
	return -EINVAL;
}

/**
 * skm_parse_uint_range() - parse a decimal integer in [@min, @max]
 * @buf: NUL-terminated input: digits only, no sign, no spaces
 * @min: smallest accepted value
 * @max: largest accepted value
 * @val: the result, written only on success
 *
 * Return: 0, or -EINVAL for anything else (including overflow).
 */
int skm_parse_uint_range(const char *buf, unsigned int min, unsigned int max,
			 unsigned int *val)
{
	size_t i, len = skm_value_len(buf);
	u64 v = 0;

	if (!len || len > 10)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
		v = v * 10 + (buf[i] - '0');
	}
	if (v < min || v > max)
		return -EINVAL;
	*val = v;
	return 0;
}

/**
 * skm_list_has() - is @name one of the comma-separated words of @list?
 * @list: NUL-terminated, e.g. "a,b,c"; NULL is the empty list
 * @name: the word to find, compared whole and case-sensitively
 */
bool skm_list_has(const char *list, const char *name)
{
	size_t len = strlen(name);

	while (list && *list) {
		const char *end = strchrnul(list, ',');

		if (end - list == len && !strncmp(list, name, len))
			return true;
		list = *end ? end + 1 : NULL;
	}
	return false;
}
