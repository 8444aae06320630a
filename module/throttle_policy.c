// SPDX-License-Identifier: GPL-2.0
/*
 * Socket throttling under memcg pressure: the pure part of the policy. See
 * throttle_policy.h for the model.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "throttle_policy.h"

/**
 * skm_vmpressure_level() - level of one closed vmpressure window
 * @scanned: pages scanned in the window
 * @reclaimed: pages reclaimed in the window
 *
 * The arithmetic of vmpressure_calc_level(): pressure is the share of
 * scanned pages that were not reclaimed, in percent, with the kernel's own
 * rounding. A window is closed once @scanned >= SKM_VMPRESSURE_WIN; before
 * that there is no verdict (none).
 */
enum skm_level skm_vmpressure_level(unsigned long scanned,
				    unsigned long reclaimed)
{
	unsigned long scale = scanned + reclaimed;
	unsigned long pressure;

	if (scanned < SKM_VMPRESSURE_WIN || reclaimed >= scanned)
		return SKM_LEVEL_NONE;

	pressure = scale - (reclaimed * scale / scanned);
	pressure = pressure * 100 / scale;

	if (pressure >= SKM_VMPRESSURE_CRITICAL_PCT)
		return SKM_LEVEL_CRITICAL;
	if (pressure >= SKM_VMPRESSURE_MEDIUM_PCT)
		return SKM_LEVEL_MEDIUM;
	return SKM_LEVEL_NONE;
}

/**
 * skm_psi_level() - level from a cgroup's memory PSI
 * @some_avg10: "some" stall share, 10 s average, percent << SKM_PSI_FSHIFT
 * @full_avg10: "full" stall share, likewise
 * @some_pct: medium at or above this many percent; 0 disables
 * @full_pct: critical at or above this many percent; 0 disables
 */
enum skm_level skm_psi_level(unsigned long some_avg10, unsigned long full_avg10,
			     unsigned int some_pct, unsigned int full_pct)
{
	if (full_pct && full_avg10 >= (unsigned long)full_pct << SKM_PSI_FSHIFT)
		return SKM_LEVEL_CRITICAL;
	if (some_pct && some_avg10 >= (unsigned long)some_pct << SKM_PSI_FSHIFT)
		return SKM_LEVEL_MEDIUM;
	return SKM_LEVEL_NONE;
}

/**
 * skm_events_level() - level from new memory.events
 * @high_event: memory.high was breached since the last look
 * @max_or_oom_event: memory.max was hit, or the OOM killer ran, since then
 */
enum skm_level skm_events_level(bool high_event, bool max_or_oom_event)
{
	if (max_or_oom_event)
		return SKM_LEVEL_CRITICAL;
	return high_event ? SKM_LEVEL_MEDIUM : SKM_LEVEL_NONE;
}

/**
 * skm_throttle_applies() - is @level enough to throttle in this context?
 * @level: the memcg's level
 * @softirq: RX in softirq, which only critical throttles
 * @throttle_level: the threshold for process context (medium or critical)
 */
bool skm_throttle_applies(enum skm_level level, bool softirq,
			  enum skm_level throttle_level)
{
	enum skm_level threshold = softirq ? SKM_LEVEL_CRITICAL : throttle_level;

	if (threshold == SKM_LEVEL_NONE)
		threshold = SKM_LEVEL_MEDIUM;
	return level >= threshold;
}

/**
 * skm_raise_decide() - the throttling policy of __sk_mem_raise_allocated()
 * @in: the socket's and its memcg's situation
 *
 * Return: 0 when the kernel's own function should decide (not throttled, or
 * inside the minimum buffer guarantee); otherwise SKM_RAISE_THROTTLE and the
 * global pressure transitions the kernel would have made on its way to the
 * same suppression (leave under the min limit, enter over the pressure
 * limit). The fair-share pass is deliberately not consulted: under memcg
 * pressure it must not let a socket through (upstream does the same since
 * 6.7, commit 66e6369e312d).
 */
unsigned int skm_raise_decide(struct skm_raise_in in)
{
	unsigned int verdict = SKM_RAISE_THROTTLE;

	if (!in.pressure_aware ||
	    !skm_throttle_applies(in.level, in.softirq, in.throttle_level))
		return 0;

	if (in.allocated <= in.limits[0])
		verdict |= SKM_RAISE_LEAVE_PRESSURE;
	if (in.allocated > in.limits[1])
		verdict |= SKM_RAISE_ENTER_PRESSURE;
	/* Over the hard limit the kernel suppresses too, guarantee or not. */
	if (in.allocated > in.limits[2])
		return verdict;
	if (in.below_min)
		return 0;
	return verdict;
}

static const char * const skm_source_names[SKM_SOURCE_NR] = {
	[SKM_SOURCE_VMPRESSURE]	= "vmpressure",
	[SKM_SOURCE_PSI]	= "psi",
	[SKM_SOURCE_EVENTS]	= "events",
	[SKM_SOURCE_HEADROOM]	= "headroom",
};

/**
 * skm_sources_parse() - parse a comma-separated list of pressure sources
 * @buf: NUL-terminated, e.g. "vmpressure,events"; one trailing newline is
 *	allowed; at least one source, each a known name
 * @sources: bit mask of enum skm_source, written only on success
 *
 * Return: 0 or -EINVAL.
 */
int skm_sources_parse(const char *buf, unsigned int *sources)
{
	size_t len = strlen(buf);
	unsigned int mask = 0;
	const char *p = buf;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len)
		return -EINVAL;

	while (p < buf + len) {
		const char *end = memchr(p, ',', buf + len - p) ?: buf + len;
		int i;

		for (i = 0; i < SKM_SOURCE_NR; i++) {
			if (strlen(skm_source_names[i]) == end - p &&
			    !strncmp(p, skm_source_names[i], end - p))
				break;
		}
		if (i == SKM_SOURCE_NR)
			return -EINVAL;
		mask |= BIT(i);
		if (end == buf + len)
			break;
		p = end + 1;
		if (p == buf + len)
			return -EINVAL;	/* trailing comma */
	}
	*sources = mask;
	return 0;
}

/**
 * skm_sources_print() - the names in @sources, comma-separated
 * @sources: bit mask of enum skm_source
 * @buf: output
 * @size: size of @buf
 *
 * Return: the length written, as scnprintf().
 */
int skm_sources_print(unsigned int sources, char *buf, size_t size)
{
	int i, len = 0;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < SKM_SOURCE_NR; i++) {
		if (sources & BIT(i))
			len += scnprintf(buf + len, size - len, "%s%s",
					 len ? "," : "", skm_source_names[i]);
	}
	return len;
}
