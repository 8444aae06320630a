// SPDX-License-Identifier: GPL-2.0
/*
 * Pressure level names, parsing and the packed (level, expiry) state word.
 * See level.h for the encoding.
 */
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "level.h"

static const char * const skm_level_names[SKM_LEVEL_NR] = {
	[SKM_LEVEL_NONE]	= "none",
	[SKM_LEVEL_MEDIUM]	= "medium",
	[SKM_LEVEL_CRITICAL]	= "critical",
};

/**
 * skm_level_name() - the level's name as knobs and debugfs spell it
 * @level: a level; anything out of range reads "invalid"
 */
const char *skm_level_name(enum skm_level level)
{
	if ((unsigned int)level >= SKM_LEVEL_NR)
		return "invalid";
	return skm_level_names[level];
}

/**
 * skm_level_parse() - parse a level name, as written to a knob
 * @buf: NUL-terminated input; one trailing newline is allowed
 * @level: the result, written only on success
 *
 * Return: 0, or -EINVAL if @buf is not exactly one of the names.
 */
int skm_level_parse(const char *buf, enum skm_level *level)
{
	int i = sysfs_match_string(skm_level_names, buf);

	if (i < 0)
		return -EINVAL;
	*level = i;
	return 0;
}

/**
 * skm_level_pack() - one state word from a level and the jiffy it expires at
 * @level: the level asserted
 * @expires: jiffies value at which it stops being asserted
 *
 * The expiry is rounded up to the next multiple of (1 << SKM_LEVEL_BITS).
 */
unsigned long skm_level_pack(enum skm_level level, unsigned long expires)
{
	BUILD_BUG_ON(SKM_LEVEL_NR > (1 << SKM_LEVEL_BITS));

	expires = (expires + SKM_LEVEL_MASK) & ~SKM_LEVEL_MASK;
	return expires | ((unsigned long)level & SKM_LEVEL_MASK);
}

/**
 * skm_level_expires_in() - jiffies until @state expires, <= 0 once it has
 * @state: a word from skm_level_pack()
 * @now: the current jiffies
 *
 * Wrap-safe like time_before(): valid while the expiry is within LONG_MAX
 * jiffies of @now.
 */
long skm_level_expires_in(unsigned long state, unsigned long now)
{
	return (long)((state & ~SKM_LEVEL_MASK) - now);
}

/**
 * skm_level_unpack() - the level @state asserts at @now
 * @state: a word from skm_level_pack(), or 0 for "never set"
 * @now: the current jiffies
 *
 * Return: the packed level while it has not expired, else SKM_LEVEL_NONE.
 */
enum skm_level skm_level_unpack(unsigned long state, unsigned long now)
{
	enum skm_level level = state & SKM_LEVEL_MASK;

	if (level == SKM_LEVEL_NONE || skm_level_expires_in(state, now) <= 0)
		return SKM_LEVEL_NONE;
	return level >= SKM_LEVEL_NR ? SKM_LEVEL_CRITICAL : level;
}
