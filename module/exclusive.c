// SPDX-License-Identifier: GPL-2.0
/*
 * memcg-exclusive socket accounting (seed 002): the glue. See
 * exclusive_policy.h for the model.
 *
 * State:
 * - one struct skm_excl_sk per exclusive socket, in an RCU hash keyed by
 *   the socket, with the pages it holds exclusively. Pages it held in the
 *   global counter before (an accepted child) or that reached it through a
 *   path we do not replace go back to the global counter when freed, so the
 *   two counters can never drift;
 * - per protocol (keyed by its global counter, which TCPv4 and TCPv6
 *   share), a per-CPU batched count of exclusive pages, for the backstop
 *   and for handing them back;
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
#include <linux/hashtable.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu_counter.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "exclusive.h"
#include "exclusive_policy.h"
#include "knobs.h"
#include "sock_compat.h"
#include "sock_hooks.h"

#define SKM_EXCL_HASH_BITS	12
#define SKM_EXCL_PROTOS		8

/* Pages exclusive sockets of one protocol hold, keyed by its global counter. */
struct skm_excl_proto {
	atomic_long_t *memory_allocated;
	struct percpu_counter pages;
};

struct skm_excl_sk {
	struct hlist_node node;
	struct sock *sk;
	struct skm_excl_proto *proto;
	atomic_long_t pages;
	struct rcu_head rcu;
};

struct skm_excl_cg {
	struct hlist_node node;
	u64 id;
	struct rcu_head rcu;
};

atomic_long_t skm_excl_nr_sockets = ATOMIC_LONG_INIT(0);
static atomic_long_t skm_excl_backstopped = ATOMIC_LONG_INIT(0);

static DEFINE_HASHTABLE(skm_excl_socks, SKM_EXCL_HASH_BITS);
static DEFINE_SPINLOCK(skm_excl_socks_lock);
static struct skm_excl_proto skm_excl_protos[SKM_EXCL_PROTOS];

static DEFINE_HASHTABLE(skm_excl_cgs, 6);
static DEFINE_MUTEX(skm_excl_cgs_lock);
static atomic_t skm_excl_nr_cgs = ATOMIC_INIT(0);

int __init skm_excl_init(void)
{
	int i, ret;

	for (i = 0; i < SKM_EXCL_PROTOS; i++) {
		ret = percpu_counter_init(&skm_excl_protos[i].pages, 0, GFP_KERNEL);
		if (ret) {
			while (i--)
				percpu_counter_destroy(&skm_excl_protos[i].pages);
			return ret;
		}
	}
	return 0;
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

struct skm_excl_sk *__skm_excl_find(const struct sock *sk)
{
	struct skm_excl_sk *es, *found = NULL;

	rcu_read_lock();
	hash_for_each_possible_rcu(skm_excl_socks, es, node, (unsigned long)sk) {
		if (es->sk == sk) {
			found = es;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

static struct skm_excl_sk *skm_excl_add(struct sock *sk)
{
	struct skm_excl_proto *p = skm_excl_proto(sk->sk_prot);
	struct skm_excl_sk *es;
	unsigned long flags;

	if (!p)
		return NULL;
	es = kzalloc(sizeof(*es), GFP_ATOMIC | __GFP_NOWARN);
	if (!es)
		return NULL;
	es->sk = sk;
	es->proto = p;
	spin_lock_irqsave(&skm_excl_socks_lock, flags);
	hash_add_rcu(skm_excl_socks, &es->node, (unsigned long)sk);
	atomic_long_inc(&skm_excl_nr_sockets);
	spin_unlock_irqrestore(&skm_excl_socks_lock, flags);
	return es;
}

static void skm_excl_del(struct skm_excl_sk *es)
{
	unsigned long flags;

	spin_lock_irqsave(&skm_excl_socks_lock, flags);
	hash_del_rcu(&es->node);
	atomic_long_dec(&skm_excl_nr_sockets);
	spin_unlock_irqrestore(&skm_excl_socks_lock, flags);
	kfree_rcu(es, rcu);
}

/* Move @pages of @es between the exclusive count and the global counter. */
static void skm_excl_to_global(struct skm_excl_sk *es, long pages)
{
	atomic_long_sub(pages, &es->pages);
	percpu_counter_sub(&es->proto->pages, pages);
	atomic_long_add(pages, es->proto->memory_allocated);
}

static void skm_excl_from_global(struct skm_excl_sk *es, long pages)
{
	atomic_long_sub(pages, es->proto->memory_allocated);
	percpu_counter_add(&es->proto->pages, pages);
	atomic_long_add(pages, &es->pages);
}

/* Does exclusive_cgroups list any cgroup? */
bool skm_excl_cgroups_listed_any(void)
{
	return atomic_read(&skm_excl_nr_cgs) > 0;
}

/* Is @memcg or an ancestor in exclusive_cgroups? Under rcu_read_lock(). */
bool skm_excl_cgroup_listed(struct mem_cgroup *memcg)
{
	if (!atomic_read(&skm_excl_nr_cgs))
		return false;
	for (; memcg && memcg->css.parent; memcg = parent_mem_cgroup(memcg)) {
		u64 id = cgroup_id(memcg->css.cgroup);
		struct skm_excl_cg *cg;

		hash_for_each_possible_rcu(skm_excl_cgs, cg, node, id) {
			if (cg->id == id)
				return true;
		}
	}
	return false;
}

/**
 * skm_excl_cgroup_exclusive() - would a socket created in @cgrp be exclusive?
 * @cgrp: a cgroup the caller holds a reference on
 *
 * For the "cgroups" file. Call under rcu_read_lock().
 */
bool skm_excl_cgroup_exclusive(struct cgroup *cgrp)
{
	bool listed = false;

	for (; cgrp && !listed && atomic_read(&skm_excl_nr_cgs);
	     cgrp = cgroup_parent(cgrp)) {
		u64 id = cgroup_id(cgrp);
		struct skm_excl_cg *cg;

		hash_for_each_possible_rcu(skm_excl_cgs, cg, node, id)
			listed |= cg->id == id;
	}
	return skm_exclusive_decide(READ_ONCE(skm_exclusive), listed, false, false);
}

/**
 * skm_excl_bind() - decide exclusivity when a socket's memcg is bound
 * @sk: a socket mem_cgroup_sk_alloc() just ran for
 *
 * For a child in accept(), skm_excl_accept() reconciles with the listener
 * right after.
 */
void skm_excl_bind(struct sock *sk)
{
	struct mem_cgroup *memcg = mem_cgroup_sockets_enabled ? sk->sk_memcg : NULL;
	bool dflt = READ_ONCE(skm_exclusive), listed;

	if (!memcg || !sk->sk_prot->memory_allocated ||
	    skm_sk_bypasses_prot_mem(sk) ||
	    (!dflt && !atomic_read(&skm_excl_nr_cgs)))
		return;
	rcu_read_lock();
	listed = skm_excl_cgroup_listed(memcg);
	rcu_read_unlock();
	if (skm_exclusive_decide(dflt, listed, false, false) &&
	    !__skm_excl_find(sk))
		skm_excl_add(sk);
}

/**
 * skm_excl_accept_locked() - a child socket takes its listener's decision
 * @listener: the listening socket
 * @newsk: the child accept() returns, its memcg bound and charged, locked
 *	by the caller
 *
 * The child's memory so far (forward allocation and receive queue) was
 * counted in the global counter before accept(), unless it became exclusive
 * on binding: move whatever is not where the decision wants it. A child
 * the kernel keeps out of the global counter itself (7.x's
 * sk_bypass_prot_mem) stays the kernel's.
 */
void skm_excl_accept_locked(struct sock *listener, struct sock *newsk)
{
	struct skm_excl_sk *es;
	bool want;
	long total;

	if (!mem_cgroup_sockets_enabled || !newsk->sk_memcg)
		return;
	want = !skm_sk_bypasses_prot_mem(newsk) &&
	       skm_exclusive_decide(false, false, true, __skm_excl_find(listener));
	es = __skm_excl_find(newsk);
	if (want && !es)
		es = skm_excl_add(newsk);
	if (want && es) {
		total = sk_mem_pages(newsk->sk_forward_alloc +
				     atomic_read(&newsk->sk_rmem_alloc));
		total -= atomic_long_read(&es->pages);
		if (total > 0)
			skm_excl_from_global(es, total);
	} else if (!want && es) {
		skm_excl_to_global(es, atomic_long_read(&es->pages));
		skm_excl_del(es);
	}
}

/**
 * skm_excl_accept() - skm_excl_accept_locked(), taking the child's lock
 * @listener: the listening socket
 * @newsk: the child accept() returns, its memcg bound and charged
 */
void skm_excl_accept(struct sock *listener, struct sock *newsk)
{
	if (!mem_cgroup_sockets_enabled || !newsk->sk_memcg)
		return;
	lock_sock(newsk);
	skm_excl_accept_locked(listener, newsk);
	release_sock(newsk);
}

/**
 * skm_excl_forget() - a socket is being freed
 * @sk: the socket
 */
void skm_excl_forget(struct sock *sk)
{
	struct skm_excl_sk *es = skm_excl_find(sk);

	if (!es)
		return;
	/* Normally 0 by now; the kernel would have left them in its counter. */
	skm_excl_to_global(es, atomic_long_read(&es->pages));
	skm_excl_del(es);
}

/**
 * skm_excl_raise() - __sk_mem_raise_allocated() for an exclusive socket
 * @es: its state
 * @sk: the socket
 * @size: bytes asked for
 * @amt: pages
 * @kind: SK_MEM_SEND or SK_MEM_RECV
 *
 * The kernel's function without the global counter: charge the memcg; on
 * failure, or over the backstop, suppress as the kernel does (sndbuf
 * moderation, forced charge when under sndbuf).
 *
 * Return: 1 if allocated, 0 if suppressed.
 */
int skm_excl_raise(struct skm_excl_sk *es, struct sock *sk, int size, int amt,
		   int kind)
{
	struct skm_excl_proto *p = es->proto;
	bool charged = false;

	if (skm_backstop_exceeded(sk_memory_allocated(sk),
				  percpu_counter_read(&p->pages) + amt,
				  sk_prot_mem_limits(sk, 2),
				  READ_ONCE(skm_exclusive_backstop_pct))) {
		atomic_long_inc(&skm_excl_backstopped);
		goto suppress;
	}
	charged = skm_mem_cgroup_charge_skmem(skm_charge_target(sk), amt,
					      gfp_memcg_charge());
	if (charged)
		goto account;
suppress:
	if (kind == SK_MEM_SEND && sk->sk_type == SOCK_STREAM) {
		sk_stream_moderate_sndbuf(sk);
		if (sk->sk_wmem_queued + size >= sk->sk_sndbuf) {
			skm_mem_cgroup_charge_skmem(skm_charge_target(sk), amt,
						    gfp_memcg_charge() | __GFP_NOFAIL);
			goto account;
		}
	}
	return 0;
account:
	atomic_long_add(amt, &es->pages);
	percpu_counter_add(&p->pages, amt);
	return 1;
}

/**
 * skm_excl_reduce() - __sk_mem_reduce_allocated() for an exclusive socket
 * @es: its state
 * @sk: the socket
 * @amount: pages
 *
 * Pages it holds exclusively leave the exclusive count; any beyond those
 * were counted globally and leave the global counter, as the kernel does.
 */
void skm_excl_reduce(struct skm_excl_sk *es, struct sock *sk, int amount)
{
	long have = atomic_long_read(&es->pages), excl;

	do {
		excl = min_t(long, have, amount);
	} while (!atomic_long_try_cmpxchg(&es->pages, &have, have - excl));
	if (excl)
		percpu_counter_sub(&es->proto->pages, excl);
	if (amount > excl) {
		atomic_long_sub(amount - excl, sk->sk_prot->memory_allocated);
		if (sk_under_global_memory_pressure(sk) &&
		    sk_memory_allocated(sk) < sk_prot_mem_limits(sk, 0))
			skm_sk_leave_memory_pressure(sk);
	}
	static_call(skm_orig_mem_cgroup_uncharge_skmem)(skm_charge_target(sk), amount);
}

/**
 * skm_excl_forced_schedule() - sk_forced_mem_schedule() for an exclusive
 * socket: the same forced charge, without the global counter
 * @es: its state
 * @sk: the socket
 * @size: bytes the forward allocation must cover
 */
void skm_excl_forced_schedule(struct skm_excl_sk *es, struct sock *sk, int size)
{
	int delta = size - sk->sk_forward_alloc, amt;

	if (delta <= 0)
		return;
	amt = sk_mem_pages(delta);
	sk_forward_alloc_add(sk, amt << PAGE_SHIFT);
	atomic_long_add(amt, &es->pages);
	percpu_counter_add(&es->proto->pages, amt);
	skm_mem_cgroup_charge_skmem(skm_charge_target(sk), amt,
				    gfp_memcg_charge() | __GFP_NOFAIL);
}

/**
 * skm_excl_release_all() - make every exclusive socket ordinary again
 *
 * The caller has waited out every hook (unload, or "enabled" turned off),
 * so no exclusive accounting runs concurrently. Every exclusive page goes
 * back to its global counter.
 */
void skm_excl_release_all(void)
{
	struct hlist_node *tmp;
	struct skm_excl_sk *es;
	long handed = 0;
	int bkt, i;

	hash_for_each_safe(skm_excl_socks, bkt, tmp, es, node)
		skm_excl_del(es);
	for (i = 0; i < SKM_EXCL_PROTOS; i++) {
		struct skm_excl_proto *p = &skm_excl_protos[i];
		s64 pages = percpu_counter_sum(&p->pages);

		if (!p->memory_allocated || !pages)
			continue;
		atomic_long_add(pages, p->memory_allocated);
		percpu_counter_set(&p->pages, 0);
		handed += pages;
	}
	if (handed)
		pr_info("handed %ld exclusive socket pages back to the global counters\n",
			handed);
}

/* Empty the list: unload, and a load that failed after modprobe filled it. */
static void skm_excl_cgroups_clear(void)
{
	struct hlist_node *tmp;
	struct skm_excl_cg *cg;
	int bkt;

	mutex_lock(&skm_excl_cgs_lock);
	hash_for_each_safe(skm_excl_cgs, bkt, tmp, cg, node) {
		hash_del_rcu(&cg->node);
		kfree_rcu(cg, rcu);
	}
	atomic_set(&skm_excl_nr_cgs, 0);
	mutex_unlock(&skm_excl_cgs_lock);
	rcu_barrier();
}

void skm_excl_exit(void)
{
	int i;

	skm_excl_release_all();
	skm_excl_cgroups_clear();
	for (i = 0; i < SKM_EXCL_PROTOS; i++)
		percpu_counter_destroy(&skm_excl_protos[i].pages);
}

/**
 * skm_excl_forget_cgroup() - drop a freed memcg's cgroup from the list
 * @memcg: the memcg being freed
 */
void skm_excl_forget_cgroup(struct mem_cgroup *memcg)
{
	u64 id = cgroup_id(memcg->css.cgroup);
	struct skm_excl_cg *cg;

	if (!atomic_read(&skm_excl_nr_cgs))
		return;
	mutex_lock(&skm_excl_cgs_lock);
	hash_for_each_possible(skm_excl_cgs, cg, node, id) {
		if (cg->id == id) {
			hash_del_rcu(&cg->node);
			/* The last one: the policy may go off, not from here. */
			if (atomic_dec_and_test(&skm_excl_nr_cgs))
				skm_policies_apply_async();
			kfree_rcu(cg, rcu);
			break;
		}
	}
	mutex_unlock(&skm_excl_cgs_lock);
}

void skm_excl_show_stats(struct seq_file *m)
{
	long pages = 0;
	int i;

	for (i = 0; i < SKM_EXCL_PROTOS; i++)
		pages += percpu_counter_sum(&skm_excl_protos[i].pages);
	seq_printf(m, "exclusive_sockets %ld\n",
		   atomic_long_read(&skm_excl_nr_sockets));
	seq_printf(m, "exclusive_pages %ld\n", max(pages, 0L));
	seq_printf(m, "exclusive_backstopped %ld\n",
		   atomic_long_read(&skm_excl_backstopped));
}

/*
 * exclusive_cgroups: "+<path>" adds a cgroup (and its descendants) to the
 * list, "-<path>" removes it; paths as under /sys/fs/cgroup, with or without
 * that prefix. Reading lists the cgroups, one "+<path>" a line.
 *
 * Two interfaces, one list and one parser (skm_excl_cgroups_set()): the
 * debugfs file, and the module parameter exclusive_cgroups, which keeps
 * working when the kernel is locked down and can be given to modprobe
 * (repeated, once per cgroup). The debugfs file also sees the byte count, so
 * it refuses an embedded NUL; sysfs hands the setter a string, which ends at
 * the first NUL. Reading the parameter is cut at a line boundary to fit a
 * page, and then ends with a "# N more" line.
 */
#define SKM_CGROUP_FS	"/sys/fs/cgroup"

/* Call under rcu_read_lock(); return false if @id names no live cgroup. */
static bool skm_excl_cg_path(u64 id, char *path, size_t size)
{
	struct cgroup *cgrp = cgroup_get_from_id(id);
	bool ok;

	if (IS_ERR(cgrp))
		return false;
	ok = cgroup_path(cgrp, path, size) >= 0;
	cgroup_put(cgrp);
	return ok;
}

static int skm_excl_cgroups_show(struct seq_file *m, void *v)
{
	struct skm_excl_cg *cg;
	char *path;
	int bkt;

	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	rcu_read_lock();
	hash_for_each_rcu(skm_excl_cgs, bkt, cg, node) {
		if (skm_excl_cg_path(cg->id, path, PATH_MAX))
			seq_printf(m, "+%s\n", path);
	}
	rcu_read_unlock();
	kfree(path);
	return 0;
}

static int skm_excl_cgroups_open(struct inode *inode, struct file *file)
{
	return single_open(file, skm_excl_cgroups_show, NULL);
}

static int skm_excl_cgroups_update(bool add, const char *path)
{
	struct skm_excl_cg *cg, *found = NULL;
	struct cgroup *cgrp;
	u64 id;

	if (!strncmp(path, SKM_CGROUP_FS, strlen(SKM_CGROUP_FS)))
		path += strlen(SKM_CGROUP_FS);
	if (!*path)
		path = "/";
	if (*path != '/')
		return -EINVAL;
	cgrp = cgroup_get_from_path(path);
	if (IS_ERR(cgrp))
		return -ENOENT;
	id = cgroup_id(cgrp);
	cgroup_put(cgrp);

	mutex_lock(&skm_excl_cgs_lock);
	hash_for_each_possible(skm_excl_cgs, cg, node, id) {
		if (cg->id == id)
			found = cg;
	}
	if (add && !found) {
		cg = kzalloc(sizeof(*cg), GFP_KERNEL);
		if (!cg) {
			mutex_unlock(&skm_excl_cgs_lock);
			return -ENOMEM;
		}
		cg->id = id;
		hash_add_rcu(skm_excl_cgs, &cg->node, id);
		atomic_inc(&skm_excl_nr_cgs);
		mutex_unlock(&skm_excl_cgs_lock);
		return 1;	/* new: the caller may have to take it out again */
	} else if (!add && found) {
		hash_del_rcu(&found->node);
		atomic_dec(&skm_excl_nr_cgs);
		kfree_rcu(found, rcu);
	}
	mutex_unlock(&skm_excl_cgs_lock);
	return 0;
}

/**
 * skm_excl_cgroups_prune() - drop listed cgroups that no longer exist
 *
 * The mem_cgroup_css_free hook drops them while a policy is on; with none
 * on, they stay until this runs (before each decision what to hook).
 */
void skm_excl_cgroups_prune(void)
{
	struct hlist_node *tmp;
	struct skm_excl_cg *cg;
	struct cgroup *cgrp;
	int bkt;

	if (!atomic_read(&skm_excl_nr_cgs))
		return;
	mutex_lock(&skm_excl_cgs_lock);
	hash_for_each_safe(skm_excl_cgs, bkt, tmp, cg, node) {
		cgrp = cgroup_get_from_id(cg->id);
		if (!IS_ERR(cgrp)) {
			cgroup_put(cgrp);
			continue;
		}
		hash_del_rcu(&cg->node);
		atomic_dec(&skm_excl_nr_cgs);
		kfree_rcu(cg, rcu);
	}
	mutex_unlock(&skm_excl_cgs_lock);
}

/*
 * One update: "+<path>" or "-<path>", at most one trailing newline, no
 * blanks. -EINVAL for anything else, -ENOENT for an unknown cgroup.
 */
static int skm_excl_cgroups_set(const char *val)
{
	size_t len = strlen(val);
	char *buf, *path;
	int ret;

	if (len < 2 || len > PATH_MAX)
		return -EINVAL;
	buf = kstrdup(val, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (buf[len - 1] == '\n')
		buf[--len] = '\0';
	path = buf + 1;
	if ((buf[0] != '+' && buf[0] != '-') || !*path || strpbrk(path, " \t\n"))
		ret = -EINVAL;
	else
		ret = skm_excl_cgroups_update(buf[0] == '+', path);
	/*
	 * Hooking fails only when the list went from empty to one entry:
	 * then take the new entry out again, so that nothing is half-applied.
	 */
	if (ret >= 0) {
		bool added = ret > 0;

		ret = skm_policies_apply("exclusive_cgroups left as it was");
		if (ret && added)
			skm_excl_cgroups_update(false, path);
	}
	kfree(buf);
	return ret;
}

static ssize_t skm_excl_cgroups_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	char *buf;
	int ret;

	if (*ppos || count < 2 || count > PATH_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (strlen(buf) != count) {
		ret = -EINVAL;	/* an embedded NUL */
	} else {
		kernel_param_lock(THIS_MODULE);	/* as the parameter's setter */
		ret = skm_excl_cgroups_set(buf);
		kernel_param_unlock(THIS_MODULE);
	}
	kfree(buf);
	if (ret)
		return ret;
	*ppos = count;
	return count;
}

const struct file_operations skm_excl_cgroups_fops = {
	.owner = THIS_MODULE,
	.open = skm_excl_cgroups_open,
	.read = seq_read,
	.write = skm_excl_cgroups_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int skm_excl_cgroups_param_set(const char *val,
				      const struct kernel_param *kp)
{
	int ret = skm_excl_cgroups_set(val);

	/* At load the kernel reports -ENOENT as an unknown parameter. */
	if (ret == -ENOENT && THIS_MODULE->state != MODULE_STATE_LIVE)
		pr_err("exclusive_cgroups=%s: no such cgroup\n", val);
	return ret;
}

/* The list as the debugfs file shows it, cut to fit the page sysfs gives. */
static int skm_excl_cgroups_param_get(char *buf, const struct kernel_param *kp)
{
	/* Room kept for the "# N more" line. */
	const size_t size = PAGE_SIZE - 32;
	unsigned int more = 0;
	struct skm_excl_cg *cg;
	size_t len = 0, n;
	char *path;
	int bkt;

	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	rcu_read_lock();
	hash_for_each_rcu(skm_excl_cgs, bkt, cg, node) {
		if (!skm_excl_cg_path(cg->id, path, PATH_MAX))
			continue;
		n = strlen(path) + 2;	/* '+' and '\n' */
		if (more || len + n >= size) {
			more++;
			continue;
		}
		len += scnprintf(buf + len, size - len, "+%s\n", path);
	}
	rcu_read_unlock();
	kfree(path);
	if (more)
		len += scnprintf(buf + len, PAGE_SIZE - len, "# %u more\n", more);
	return len;
}

static void skm_excl_cgroups_param_free(void *arg)
{
	skm_excl_cgroups_clear();
}

const struct kernel_param_ops skm_excl_cgroups_param_ops = {
	.set = skm_excl_cgroups_param_set,
	.get = skm_excl_cgroups_param_get,
	.free = skm_excl_cgroups_param_free,
};
