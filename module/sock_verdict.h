/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the policies say of a socket charge, and what every one of them
 * shares: the direction, why an allocation was suppressed, and the value
 * that lets the kernel's own accounting run.
 */
#ifndef _SKMEMCG_SOCK_VERDICT_H
#define _SKMEMCG_SOCK_VERDICT_H

/* A policy's raise check: the kernel's own function decides. */
#define SKM_RAISE_KERNEL	(-1)

/* The direction of a socket allocation: sending or receiving. */
enum skm_dir {
	SKM_DIR_TX,
	SKM_DIR_RX,
	SKM_DIR_NR,
};

/* Why skmemcg suppressed an allocation (the skmemcg:throttle tracepoint). */
enum skm_suppress_reason {
	SKM_SUPPRESS_PRESSURE,	/* throttle: the memcg's pressure level */
	SKM_SUPPRESS_LIMIT,	/* sock_limits */
	SKM_SUPPRESS_BACKSTOP,	/* exclusive sockets over the host's backstop */
};

#endif /* _SKMEMCG_SOCK_VERDICT_H */
