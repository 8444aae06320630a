/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict parsers for knob values written through module parameters and
 * debugfs. The kernel's own helpers are lenient (kstrtobool() accepts
 * "yellow" as true); a knob must refuse anything that is not exactly a value.
 */
#ifndef _SKMEMCG_PARSE_H
#define _SKMEMCG_PARSE_H

#include <linux/types.h>

int skm_parse_bool(const char *buf, bool *val);
int skm_parse_uint_range(const char *buf, unsigned int min, unsigned int max,
			 unsigned int *val);
bool skm_list_has(const char *list, const char *name);

#endif /* _SKMEMCG_PARSE_H */
