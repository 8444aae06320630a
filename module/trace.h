/* SPDX-License-Identifier: GPL-2.0 */
/*
 * skmemcg:throttle - a pressure-aware socket allocation skmemcg suppressed,
 * and why: its memcg (or an ancestor) under pressure (reason=pressure, with
 * the level), its cgroup's sock_limits limit (reason=limit, cgroup_id the
 * limited one), or exclusive sockets over the host's backstop
 * (reason=backstop). For perf and bpftrace:
 *   perf record -e skmemcg:throttle -a
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM skmemcg

#if !defined(_SKMEMCG_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SKMEMCG_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(throttle,
	    TP_PROTO(u64 cgroup_id, int reason, int level, int dir, int size),
	    TP_ARGS(cgroup_id, reason, level, dir, size),
	    TP_STRUCT__entry(__field(u64, cgroup_id)
			     __field(int, reason)
			     __field(int, level)
			     __field(int, dir)
			     __field(int, size)),
	    TP_fast_assign(__entry->cgroup_id = cgroup_id;
			   __entry->reason = reason;
			   __entry->level = level;
			   __entry->dir = dir;
			   __entry->size = size;),
	    TP_printk("cgroup_id=%llu reason=%s level=%s dir=%s size=%d",
		      __entry->cgroup_id,
		      __print_symbolic(__entry->reason,
				       { 0, "pressure" }, { 1, "limit" }, { 2, "backstop" }),
		      __print_symbolic(__entry->level,
				       { 0, "none" }, { 1, "medium" }, { 2, "critical" }),
		      __entry->dir ? "rx" : "tx", __entry->size)
);

#endif /* _SKMEMCG_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
