/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Static helpers of net/core/sock.c that policies need, replicated. Each is
 * the same in 6.1.192, 6.12.117 and 7.3.4 (compared with linux-source-*).
 * And the seams of socket memory accounting between kernel families.
 */
#ifndef _SKMEMCG_SOCK_COMPAT_H
#define _SKMEMCG_SOCK_COMPAT_H

#include <net/sock.h>
#ifdef SKM_HAVE_PROTO_MEMORY_H
#include <net/proto_memory.h>
#endif

/*
 * The memcg side of a socket's charge: 6.x charges the memcg
 * (mem_cgroup_charge_skmem(memcg, ...)), 7.x the socket
 * (mem_cgroup_sk_charge(sk, ...)). skm_charge_target(sk) is what the
 * kernel's function takes, a SKM_CHARGE_TARGET *; SKM_SK_CHARGE_SYM and
 * SKM_SK_UNCHARGE_SYM name it. The replacement's prototype follows
 * (sock_charge.h).
 */
#ifdef SKM_HAVE_MEM_CGROUP_SK_CHARGE
#define SKM_SK_CHARGE_SYM	"mem_cgroup_sk_charge"
#define SKM_SK_UNCHARGE_SYM	"mem_cgroup_sk_uncharge"
#define SKM_CHARGE_TARGET	const struct sock
#define skm_charge_target(sk)	((const struct sock *)(sk))
#else
#define SKM_SK_CHARGE_SYM	"mem_cgroup_charge_skmem"
#define SKM_SK_UNCHARGE_SYM	"mem_cgroup_uncharge_skmem"
#define SKM_CHARGE_TARGET	struct mem_cgroup
#define skm_charge_target(sk)	((sk)->sk_memcg)
#endif

/*
 * Where an accepted child gets its memcg: inet_csk_accept() on 6.x,
 * __inet_accept() on 7.x (once inet_csk_accept() has returned the child);
 * both call mem_cgroup_sk_alloc() under the child's lock_sock(), where
 * memcg-exclusive accounting moves its pre-accept pages (skm_excl_bind()),
 * then charge those pages to the memcg. Not hooked: drift.c checks its
 * body against the kernels this was read from.
 */
#ifdef SKM_HAVE_SK_CHARGE
#define SKM_ACCEPT_SYM		"__inet_accept"
#else
#define SKM_ACCEPT_SYM		"inet_csk_accept"
#endif

/*
 * 7.x's per-socket bypass of protocol accounting (net.core.bypass_prot_mem
 * at socket creation, or BPF): the kernel keeps such a socket out of the
 * global counter itself, so memcg-exclusive accounting leaves it alone.
 */
static inline bool skm_sk_bypasses_prot_mem(const struct sock *sk)
{
#ifdef SKM_HAVE_SK_BYPASS_PROT_MEM
	return sk->sk_bypass_prot_mem;
#else
	return false;
#endif
}

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

/* The rmem0/wmem0 guarantee of __sk_mem_raise_allocated(), every kernel. */
static inline bool skm_sk_below_min(struct sock *sk, int kind)
{
	int wmem0;

	if (kind == SK_MEM_RECV)
		return atomic_read(&sk->sk_rmem_alloc) < sk_get_rmem0(sk, sk->sk_prot);
	wmem0 = sk_get_wmem0(sk, sk->sk_prot);
	if (sk->sk_type == SOCK_STREAM)
		return sk->sk_wmem_queued < wmem0;
	return refcount_read(&sk->sk_wmem_alloc) < wmem0;
}

/*
 * The memcg a charge goes to, from what SKM_SK_CHARGE_SYM takes; and
 * vmpressure's socket pressure for @memcg and its descendants, one second
 * (mem_cgroup_set_socket_pressure() since 6.12; the field itself on 6.1).
 */
#ifdef SKM_HAVE_MEM_CGROUP_SK_CHARGE
#define skm_charge_memcg(target)	((target)->sk_memcg)
#else
#define skm_charge_memcg(target)	(target)
#endif

static inline void skm_memcg_set_socket_pressure(struct mem_cgroup *memcg)
{
#ifdef SKM_HAVE_SET_SOCKET_PRESSURE
	mem_cgroup_set_socket_pressure(memcg);
#else
	WRITE_ONCE(memcg->socket_pressure, jiffies + HZ);
#endif
}

#endif /* _SKMEMCG_SOCK_COMPAT_H */
