// SPDX-License-Identifier: GPL-2.0
/*
 * memcg-exclusive socket accounting (seed 002): the glue. See
 * exclusive_policy.h for the model.
 *
 * State:
 * - none per socket: a socket is exclusive when its sk_prot_creator is a
 *   tag of this period (struct skm_excl_tag), a copy of its protocol's
 *   struct proto that skmemcg made, set when its memcg is bound. Telling
 *   one is a subtraction and a comparison; binding one is a store. The
 *   tags of a period are one block, claimed a slot per protocol; a block
 *   any socket was tagged with is kept when the period ends (the policy
 *   goes off, the module unloads), never freed: the kernel may still read
 *   it through a socket, its TIME_WAIT minisock or a sockmap listener's
 *   child (skm_excl_tags_retire());
 * - per protocol (keyed by its global counter, which TCPv4 and TCPv6
 *   share), a per-CPU batched count of exclusive pages, for the backstop
 *   and for handing them back. Not per socket: a charge adds to it, a
 *   reduce subtracts from it, so the
 *   global counter plus it is what the stock kernel's global counter
 *   would read, whatever either alone reads; a socket's pages charged
 *   globally by a path we do not replace and reduced through ours move
 *   from the one to the other, and the sum stays right;
 * - the exclusive_cgroups list, by cgroup id.
 *
 * Handing back: on unload, and when the "enabled" knob goes off, the hooks
 * are waited out first, then every exclusive page is added to its global
 * counter and the sockets become ordinary: when the stock kernel later frees
 * their memory it subtracts exactly what was added.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/debugfs.h>
#include <linux/kmemleak.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/percpu_counter.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "cglist.h"
#include "exclusive.h"
#include "exclusive_policy.h"
#include "hooks.h"
#include "knobs.h"
#include "level.h"
#include "policies.h"
#include "sock_compat.h"
#include "sock_charge.h"

#define SKM_EXCL_PROTOS		8

atomic_long_t skm_excl_nr_sockets = ATOMIC_LONG_INIT(0);
static atomic_long_t skm_excl_backstopped = ATOMIC_LONG_INIT(0);
/* bytes of tags kept (skm_excl_tags_retire()), under skm_apply_lock or on unload */
static unsigned long skm_excl_tags_kept;

struct skm_excl_tags *skm_excl_tags_now;
/* claiming a slot of skm_excl_tags_now: once per protocol and period */
static DEFINE_SPINLOCK(skm_excl_tags_lock);
static struct skm_excl_proto skm_excl_protos[SKM_EXCL_PROTOS];

/* exclusive_cgroups (cglist.h) */
struct skm_cglist skm_excl_cgroups =
	SKM_CGLIST_INIT("exclusive_cgroups", NULL, skm_policies_apply);

/*
 * memcg-exclusive socket accounting (seed 002; see exclusive_policy.h), the
 * global default: sockets whose memcg is bound while it is on are charged to
 * their memcg only. Per cgroup: exclusive_cgroups below. Default off.
 */
bool skm_exclusive __read_mostly;
static struct skm_bool_knob skm_exclusive_knob = {
	&skm_exclusive, NULL, NULL, true };
module_param_cb(exclusive, &skm_bool_ops, &skm_exclusive_knob, 0644);
MODULE_PARM_DESC(exclusive,
		 "New sockets of every memcg are charged to the memcg only, not tcp_mem (bool, default N)");

/*
 * The cgroups whose sockets (and their descendants') are memcg-exclusive
 * whatever "exclusive" says: each write is one update, "+<path>" adds,
 * "-<path>" removes; reading lists "+<path>" lines, " waiting" after those
 * whose cgroup does not exist (yet). Tenants' cgroups: readable by root
 * only (0600), unlike the other knobs. A path may name a cgroup not made yet:
 * the entry waits for it (cglist.h). Shared with the debugfs file of the
 * same name, which has its own file operations (no page limit on reads,
 * embedded NULs refused).
 */
module_param_cb(exclusive_cgroups, &skm_cglist_param_ops, &skm_excl_cgroups, 0600);
MODULE_PARM_DESC(exclusive_cgroups,
		 "Add (+<path>) or remove (-<path>) a memcg-exclusive cgroup, existing or not yet; repeat at load for several (default none)");

/*
 * The host's backstop for exclusive sockets: while the protocol's global
 * counter plus exclusive pages exceeds tcp_mem[2] x this / 100, exclusive
 * sockets are suppressed as if over the hard limit. 0 turns it off.
 */
unsigned int skm_exclusive_backstop_pct __read_mostly = 200;
static struct skm_uint_knob skm_exclusive_backstop_pct_knob = {
	&skm_exclusive_backstop_pct, 0, 10000 };
module_param_cb(exclusive_backstop_pct, &skm_uint_ops,
		&skm_exclusive_backstop_pct_knob, 0644);
MODULE_PARM_DESC(exclusive_backstop_pct,
		 "Cap on global + exclusive socket pages, in % of tcp_mem[2] (0..10000, 0 off, default 200)");

/* The lock of @bucket's group: the low bits of the bucket number. */
int __init skm_excl_init(void)
{
	int i;

	for (i = 0; i < SKM_EXCL_PROTOS; i++) {
		skm_excl_protos[i].delta = alloc_percpu(long);
		if (!skm_excl_protos[i].delta) {
			while (i--)
				free_percpu(skm_excl_protos[i].delta);
			return -ENOMEM;
		}
	}
	return 0;
}

/* @p's exclusive pages, exact (every CPU summed): for the slow paths. */
static long skm_excl_pages_sum(struct skm_excl_proto *p)
{
	long pages = atomic_long_read(&p->pages);
	int cpu;

	for_each_possible_cpu(cpu)
		pages += READ_ONCE(*per_cpu_ptr(p->delta, cpu));
	return pages;
}

/* The slot of @prot's global counter, claimed on first use; NULL if full. */
static struct skm_excl_proto *skm_excl_proto(struct proto *prot)
{
	atomic_long_t *ma = prot->memory_allocated;
	int i;

	for (i = 0; ma && i < SKM_EXCL_PROTOS; i++) {
		struct skm_excl_proto *p = &skm_excl_protos[i];
		atomic_long_t *key = READ_ONCE(p->memory_allocated);

		if (key == ma)
			return p;
		if (!key && !cmpxchg(&p->memory_allocated, NULL, ma))
			return p;
		if (READ_ONCE(p->memory_allocated) == ma)
			return p;
	}
	return NULL;
}

/*
 * The policy comes on: the tags of a new period, claimed as sockets are
 * bound. Without them (no memory) no socket is made exclusive, and the
 * log says so.
 */
static void skm_excl_prepare(void)
{
	struct skm_excl_tags *tags;

	if (READ_ONCE(skm_excl_tags_now))
		return;
	tags = kzalloc(sizeof(*tags), GFP_KERNEL);
	if (!tags)
		pr_warn("no memory for the exclusive tags: no socket is made exclusive\n");
	WRITE_ONCE(skm_excl_tags_now, tags);
}

/*
 * skm_excl_tags_retire() - end the period: its tags are no longer exclusive
 *
 * No hook runs. A block no socket was tagged with is freed; one that any
 * was is kept, for ever: the sockets tagged with it, their TIME_WAIT
 * minisocks (tw_prot) and the children of a sockmap listener among them
 * (tcp_bpf_clone()) may read it until they are freed, after skmemcg is
 * gone too, and nothing counts them all. The log says how much is kept.
 */
static void skm_excl_tags_retire(void)
{
	struct skm_excl_tags *tags = skm_excl_tags_now;

	WRITE_ONCE(skm_excl_tags_now, NULL);
	atomic_long_set(&skm_excl_nr_sockets, 0);
	if (!tags || !tags->used) {
		kfree(tags);
		return;
	}
	kmemleak_not_leak(tags);
	skm_excl_tags_kept += sizeof(*tags);
	pr_info("kept %zu bytes of exclusive tags sockets may point at (%lu since loaded)\n",
		sizeof(*tags), skm_excl_tags_kept);
}

/*
 * The tag of protocol @orig in @tags, its slot claimed (the copy taken)
 * on first use; NULL if every slot is another protocol's, or @orig has no
 * global counter to keep exclusive pages apart from.
 */
static struct skm_excl_tag *skm_excl_tag_claim(struct skm_excl_tags *tags,
					       struct proto *orig)
{
	struct skm_excl_tag *t, *found = NULL;
	struct skm_excl_proto *counter;

	for (t = tags->tag; t < tags->tag + SKM_EXCL_TAGS; t++)
		/* pairs with the release below: a slot seen claimed is filled in */
		if (smp_load_acquire(&t->orig) == orig)
			return t;
	counter = skm_excl_proto(orig);
	if (!counter)
		return NULL;
	spin_lock(&skm_excl_tags_lock);
	for (t = tags->tag; !found && t < tags->tag + SKM_EXCL_TAGS; t++) {
		if (t->orig == orig) {
			found = t;
		} else if (!t->orig) {
			memcpy(&t->prot, orig, sizeof(t->prot));
			t->counter = counter;
			tags->used = true;
			/* last: the slot is filled in before it can be seen */
			smp_store_release(&t->orig, orig);
			found = t;
		}
	}
	spin_unlock(&skm_excl_tags_lock);
	return found;
}

/*
 * Is @memcg or an ancestor in exclusive_cgroups? Under rcu_read_lock() or
 * with preemption disabled.
 */
bool skm_excl_cgroup_listed(struct mem_cgroup *memcg)
{
	return skm_cglist_covering(&skm_excl_cgroups, memcg);
}

/**
 * skm_excl_cgroup_exclusive() - would a socket created in @cgrp be exclusive?
 * @cgrp: a cgroup the caller holds a reference on
 *
 * For the "cgroups" file. Call under rcu_read_lock().
 */
static bool skm_excl_cgroup_exclusive(struct cgroup *cgrp)
{
	bool listed = false;

	for (; cgrp && !listed && skm_cglist_any(&skm_excl_cgroups);
	     cgrp = cgroup_parent(cgrp))
		listed = skm_cglist_find(&skm_excl_cgroups, cgroup_id(cgrp));
	return skm_exclusive_decide(READ_ONCE(skm_exclusive), listed, false);
}

/**
 * skm_excl_bind() - decide exclusivity when a socket's memcg is bound
 * @sk: a socket mem_cgroup_sk_alloc() just ran for
 *
 * A socket made by socket(2) holds no memory yet. An accepted child does:
 * what it got before accept(), with no memcg, is in the global counter,
 * and the kernel charges it to the memcg right after this, under the
 * child's lock_sock() (inet_csk_accept(), 7.x's inet_accept()). An
 * exclusive child's pages move to the exclusive count here, under that
 * lock: nothing else changes them meanwhile. A socket that holds pages
 * and is bound by someone not owning it stays ordinary: they could change
 * under us.
 *
 * Only a socket whose creator is its protocol as it is (not one a ULP or
 * sockmap replaced on its listener), built in (a module's protocol may go
 * and come back elsewhere), is tagged.
 */
void notrace skm_excl_bind(struct sock *sk)
{
	struct mem_cgroup *memcg = mem_cgroup_sockets_enabled ? sk->sk_memcg : NULL;
	struct skm_excl_tags *tags = READ_ONCE(skm_excl_tags_now);
	bool dflt = READ_ONCE(skm_exclusive), listed;
	struct proto *creator = sk->sk_prot_creator;
	struct skm_excl_tag *tag;
	int pages;

	if (!memcg || !tags || creator != READ_ONCE(sk->sk_prot) ||
	    creator->owner || !creator->memory_allocated ||
	    (!dflt && !skm_cglist_any_resolved(&skm_excl_cgroups)))
		return;
	/* an RCU reader by disabling preemption: no calls, once per socket */
	preempt_disable_notrace();
	listed = skm_excl_cgroup_listed(memcg);
	preempt_enable_notrace();
	if (!skm_exclusive_decide(dflt, listed, skm_sk_bypasses_prot_mem(sk)))
		return;
	pages = sk_mem_pages(sk->sk_forward_alloc + atomic_read(&sk->sk_rmem_alloc));
	if (pages > 0 && !sock_owned_by_user_nocheck(sk))
		return;
	tag = skm_excl_tag_claim(tags, creator);
	if (!tag)
		return;
	/* counted before it can be told, as skm_excl_forget() uncounts it */
	atomic_long_inc(&skm_excl_nr_sockets);
	WRITE_ONCE(sk->sk_prot_creator, &tag->prot);
	if (pages > 0) {
		atomic_long_sub(pages, creator->memory_allocated);
		skm_excl_pages_add(tag->counter, pages);
	}
}

/**
 * skm_excl_forget() - a socket is being freed
 * @sk: the socket
 *
 * What it still holds is normally nothing by now. The kernel would leave
 * it in its global counter: exclusive pages stay in the exclusive count
 * until handed back to it. Its tag stays: the kernel frees the socket
 * through it next (sk_prot_free()), and it is a copy of the protocol.
 */
void notrace skm_excl_forget(struct sock *sk)
{
	if (skm_excl_find(sk))
		atomic_long_dec(&skm_excl_nr_sockets);
}

/**
 * skm_excl_backstop_verdict() - the verdict of a raise skm_excl_backstop()
 *	refused
 * @sk: the socket
 * @v: the verdict, filled in
 *
 * A sender the backstop refuses is not parked: see docs/exclusive.md.
 */
void skm_excl_backstop_verdict(struct sock *sk, struct skm_suppress *v)
{
	*v = (struct skm_suppress){
		.reason = SKM_SUPPRESS_BACKSTOP,
		.level = SKM_LEVEL_NONE,
		.at = sk->sk_memcg,
		.count = &skm_excl_backstopped,
		.stat = SKM_STAT_NR,
	};
}

/**
 * skm_excl_reduce() - __sk_mem_reduce_allocated() for an exclusive socket
 * @sk: the socket
 * @amount: pages
 * @es: its tag
 *
 * The pages leave the exclusive count and the memcg. The arguments in the
 * order of the kernel's function, then @es, as skm_excl_forced()'s.
 */
void notrace skm_excl_reduce(struct sock *sk, int amount, struct skm_excl_tag *es)
{
	skm_excl_pages_add(es->counter, -amount);
	skm_sock_uncharge(sk, amount);
}

/*
 * __skm_excl_forced_account() - sk_forced_mem_schedule()'s accounting for an
 *	exclusive socket: the forward allocation and the exclusive count,
 *	without the global counter
 * @es: its tag
 * @sk: the socket
 * @size: bytes the forward allocation must cover
 *
 * Return: the pages the caller must then charge to the memcg, as the kernel
 * does, with __GFP_NOFAIL (skm_sock_charge_nofail()); 0 for none.
 */
static __always_inline int __skm_excl_forced_account(struct skm_excl_tag *es,
						     struct sock *sk, int size)
{
	int delta = size - sk->sk_forward_alloc, amt;

	if (delta <= 0)
		return 0;
	amt = sk_mem_pages(delta);
	sk_forward_alloc_add(sk, amt << PAGE_SHIFT);
	skm_excl_pages_add(es->counter, amt);
	return amt;
}

/* The timed path's (sock_hooks.c), which charges in its frame. */
int notrace skm_excl_forced_account(struct skm_excl_tag *es, struct sock *sk,
				    int size)
{
	return __skm_excl_forced_account(es, sk, size);
}

/**
 * skm_excl_forced() - sk_forced_mem_schedule() for an exclusive socket
 * @sk: the socket
 * @size: bytes the forward allocation must cover
 * @es: its tag
 *
 * skm_excl_forced_account(), then the memcg's charge as a tail call
 * (skm_sock_charge_nofail()): nothing of ours is on the stack while it
 * reclaims. Untimed ("instrument" off) only. The arguments in the order
 * of the kernel's function, then @es: the replacement passes them on as
 * they came.
 */
void notrace skm_excl_forced(struct sock *sk, int size, struct skm_excl_tag *es)
{
	int amt = __skm_excl_forced_account(es, sk, size);

	if (amt)
		skm_sock_charge_nofail(sk, amt);
}

/**
 * skm_excl_release_all() - make every exclusive socket ordinary again
 *
 * The caller has waited out every hook (unload, or "enabled" turned off),
 * so no exclusive accounting runs concurrently. Every exclusive page goes
 * back to its global counter, and this period's tags end
 * (skm_excl_tags_retire()): sockets tagged in it are ordinary from now on.
 */
void skm_excl_release_all(void)
{
	long handed = 0;
	int i;

	for (i = 0; i < SKM_EXCL_PROTOS; i++) {
		struct skm_excl_proto *p = &skm_excl_protos[i];
		long pages = skm_excl_pages_sum(p);
		int cpu;

		if (!p->memory_allocated || !pages)
			continue;
		atomic_long_add(pages, p->memory_allocated);
		atomic_long_set(&p->pages, 0);
		for_each_possible_cpu(cpu)
			WRITE_ONCE(*per_cpu_ptr(p->delta, cpu), 0);
		handed += pages;
	}
	if (handed)
		pr_info("handed %ld exclusive socket pages back to the global counters\n",
			handed);
	skm_excl_tags_retire();
}

void skm_excl_exit(void)
{
	int i;

	skm_excl_release_all();
	skm_cglist_clear(&skm_excl_cgroups);
	for (i = 0; i < SKM_EXCL_PROTOS; i++)
		free_percpu(skm_excl_protos[i].delta);
}

static void skm_excl_show_stats(struct seq_file *m)
{
	long pages = 0;
	int i;

	for (i = 0; i < SKM_EXCL_PROTOS; i++)
		pages += skm_excl_pages_sum(&skm_excl_protos[i]);
	seq_printf(m, "exclusive_sockets %ld\n",
		   atomic_long_read(&skm_excl_nr_sockets));
	seq_printf(m, "exclusive_pages %ld\n", max(pages, 0L));
	seq_printf(m, "exclusive_backstopped %ld\n",
		   atomic_long_read(&skm_excl_backstopped));
}

/* Its column of "cgroups": would a socket created in the cgroup now be? */
static void skm_excl_show_cgroup(struct seq_file *m, struct cgroup *cgrp,
				 void *priv)
{
	seq_printf(m, " %s", skm_excl_cgroup_exclusive(cgrp) ? "yes" : "no");
}

static bool skm_excl_wanted(void)
{
	return READ_ONCE(skm_exclusive) || skm_cglist_any(&skm_excl_cgroups);
}

/*
 * Its hooks: a socket's charges and their reversal, its binding to a memcg
 * (an accepted child's too) and its free, and for exclusive_cgroups and the
 * per-memcg state a cgroup's coming and going. All of them or none: a
 * socket made exclusive must have its free seen, or exclusive_sockets
 * would count it for ever (hooks.c).
 */
static const enum skm_hook_id skm_excl_hooks[] = {
	SKM_HOOK_RAISE,
	SKM_HOOK_REDUCE,
	SKM_HOOK_FORCED,
	SKM_HOOK_SK_ALLOC,
	SKM_HOOK_SK_FREE,
	SKM_HOOK_CSS_ONLINE,
	SKM_HOOK_CSS_FREE,
};

const struct skm_policy skm_policy_exclusive = {
	.name = "exclusive",
	.id = SKM_POLICY_EXCLUSIVE,
	.hooks = skm_excl_hooks,
	.nr_hooks = ARRAY_SIZE(skm_excl_hooks),
	.cglist = &skm_excl_cgroups,
	.wanted = skm_excl_wanted,
	/* a new period's tags */
	.prepare = skm_excl_prepare,
	/* its sockets become ordinary: their pages back in the global counter */
	.release = skm_excl_release_all,
	.show_stats = skm_excl_show_stats,
	.cgroup_header = " exclusive",
	.show_cgroup = skm_excl_show_cgroup,
};
