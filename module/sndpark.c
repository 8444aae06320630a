// SPDX-License-Identifier: GPL-2.0
/*
 * Parking of suppressed stream senders: a sender whose allocation skmemcg
 * suppressed (throttle, sock_limits) sleeps instead of spinning.
 *
 * When an allocation for a TCP send is suppressed, tcp_sendmsg() waits for
 * memory. A blocking sender sleeps in sk_stream_wait_memory() (a random 2
 * jiffies to 200 ms when its send buffer is not full). A nonblocking one gets
 * EAGAIN, and when its send buffer is not full (always so when SO_SNDBUF set
 * it large) poll() and epoll report it writable again at once: an
 * event-driven server spins on refused attempts. The kernel spins the same
 * way over tcp_mem's hard limit.
 *
 * A parked socket has sk_sndbuf clamped to what it has queued, so that it is
 * full: sk_stream_memory_free() is false, tcp_poll() holds EPOLLOUT back, and
 * both kinds of sender sleep. SKM_PARK_MS later a work item puts sk_sndbuf
 * back, unless something else changed it meanwhile (setsockopt(), or the
 * kernel's tcp_new_space() as ACKs free the queue), and calls
 * sk_write_space(), which wakes the sender. If memory is still short, its
 * next allocation parks it again: a sender of either kind makes about one
 * refused attempt per SKM_PARK_MS.
 *
 * Parked sockets sit in a fixed table of SKM_PARK_SLOTS, each slot holding a
 * reference on its socket. With the table full a sender is not parked (the
 * kernel's behaviour), counted in park_table_full. Only senders that own the
 * socket lock (process context) park; the work item takes the same lock, so
 * the two never race on a socket. On unload every parked socket is put back.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>
#include <net/sock.h>

#include "compat.h"
#include "sndpark.h"
#include "stats.h"

/* The mean of sk_stream_wait_memory()'s random wait for memory (HZ / 10). */
#define SKM_PARK_MS	100
#define SKM_PARK_SLOTS	256

struct skm_park_slot {
	struct sock *sk;	/* holds a reference; NULL when free */
	int sndbuf_orig;	/* sk_sndbuf when parked */
	int sndbuf_clamp;	/* what parking set it to */
	unsigned long until;	/* jiffies */
};

static struct skm_park_slot skm_park_slots[SKM_PARK_SLOTS];
static atomic_t skm_parked_now = ATOMIC_INIT(0);

static void skm_park_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(skm_park_work, skm_park_work_fn);

/* @sk's slot, if it is parked. Under @sk's lock. */
static struct skm_park_slot *skm_park_find(const struct sock *sk)
{
	int i;

	for (i = 0; i < SKM_PARK_SLOTS; i++)
		if (READ_ONCE(skm_park_slots[i].sk) == sk)
			return &skm_park_slots[i];
	return NULL;
}

static struct skm_park_slot *skm_park_claim(struct sock *sk)
{
	struct skm_park_slot *s;

	for (s = skm_park_slots; s < skm_park_slots + SKM_PARK_SLOTS; s++)
		if (!READ_ONCE(s->sk) && !cmpxchg(&s->sk, NULL, sk))
			return s;
	return NULL;
}

/**
 * skm_sndpark() - park a sender whose send allocation was suppressed
 * @sk: the socket, its lock owned by the caller
 *
 * Called where skmemcg suppressed an SK_MEM_SEND allocation. Takes a
 * reference on @sk until the work item unparks it.
 */
void skm_sndpark(struct sock *sk)
{
	int queued = READ_ONCE(sk->sk_wmem_queued);
	struct skm_park_slot *s;

	/* (_nocheck: no lockdep splat if some path raises without the lock.) */
	if (sk->sk_type != SOCK_STREAM || queued <= 0 || in_softirq() ||
	    !sock_owned_by_user_nocheck(sk))
		return;
	s = skm_park_find(sk);
	if (!s) {
		s = skm_park_claim(sk);
		if (!s) {
			skm_stat_inc(SKM_STAT_PARK_TABLE_FULL);
			return;
		}
		/*
		 * The work item sees the slot now, but reads it only once it
		 * owns the socket lock, which we hold: it cannot drop the
		 * reference before we have taken it.
		 */
		sock_hold(sk);
		s->sndbuf_orig = READ_ONCE(sk->sk_sndbuf);
		s->until = jiffies + msecs_to_jiffies(SKM_PARK_MS);
		atomic_inc(&skm_parked_now);
		skm_stat_inc(SKM_STAT_SENDERS_PARKED);
		queue_delayed_work(skm_system_percpu_wq, &skm_park_work,
				   msecs_to_jiffies(SKM_PARK_MS));
	}
	/* Parked again before the work came: keep the first sk_sndbuf. */
	s->sndbuf_clamp = queued;
	WRITE_ONCE(sk->sk_sndbuf, queued);
}

/* Put @sk's sk_sndbuf back, free its slot, wake the sender. Under its lock. */
static void skm_park_release(struct skm_park_slot *s, struct sock *sk)
{
	if (READ_ONCE(sk->sk_sndbuf) == s->sndbuf_clamp)
		WRITE_ONCE(sk->sk_sndbuf, s->sndbuf_orig);
	/* The slot's fields are read before a claimer may take it again. */
	smp_store_release(&s->sk, NULL);
	atomic_dec(&skm_parked_now);
	sk->sk_write_space(sk);
}

/*
 * Unpark the sockets whose time is up (all of them when @all); the time until
 * the next is due in *@next. Return: whether any is still parked.
 */
static bool skm_park_sweep(bool all, unsigned long *next)
{
	bool more = false;
	int i;

	for (i = 0; i < SKM_PARK_SLOTS; i++) {
		struct skm_park_slot *s = &skm_park_slots[i];
		struct sock *sk = READ_ONCE(s->sk);
		unsigned long now = jiffies;

		if (!sk)
			continue;
		lock_sock(sk);
		if (!all && time_before(now, s->until)) {
			if (!more || time_before(s->until - now, *next))
				*next = s->until - now;
			more = true;
			release_sock(sk);
			continue;
		}
		skm_park_release(s, sk);
		release_sock(sk);
		sock_put(sk);
	}
	return more;
}

static void skm_park_work_fn(struct work_struct *work)
{
	unsigned long next = 0;

	if (skm_park_sweep(false, &next))
		queue_delayed_work(skm_system_percpu_wq, &skm_park_work,
				   max(next, 1UL));
}

void skm_sndpark_show_stats(struct seq_file *m)
{
	seq_printf(m, "senders_parked_now %d\n", atomic_read(&skm_parked_now));
}

/**
 * skm_sndpark_exit() - unpark every socket
 *
 * After the hooks are gone, so that nothing parks any more.
 */
void skm_sndpark_exit(void)
{
	unsigned long next;

	cancel_delayed_work_sync(&skm_park_work);
	skm_park_sweep(true, &next);
}
