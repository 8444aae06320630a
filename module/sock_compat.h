/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Static helpers of net/core/sock.c that policies need, replicated. Each is
 * the same in 6.1.192 and 6.12.117 (compared with linux-source-6.1/6.12).
 */
#ifndef _SKMEMCG_SOCK_COMPAT_H
#define _SKMEMCG_SOCK_COMPAT_H

#include <net/sock.h>
#ifdef SKM_HAVE_PROTO_MEMORY_H
#include <net/proto_memory.h>
#endif

/* sk_enter_memory_pressure() */
static inline void skm_sk_enter_memory_pressure(struct sock *sk)
{
	if (sk->sk_prot->enter_memory_pressure)
		sk->sk_prot->enter_memory_pressure(sk);
}

/* sk_leave_memory_pressure() */
static inline void skm_sk_leave_memory_pressure(struct sock *sk)
{
	if (sk->sk_prot->leave_memory_pressure) {
		sk->sk_prot->leave_memory_pressure(sk);
	} else {
		unsigned long *memory_pressure = sk->sk_prot->memory_pressure;

		if (memory_pressure && READ_ONCE(*memory_pressure))
			WRITE_ONCE(*memory_pressure, 0);
	}
}

#endif /* _SKMEMCG_SOCK_COMPAT_H */
