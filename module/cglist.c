// SPDX-License-Identifier: GPL-2.0
/*
 * Lists of cgroups by path, with entries that wait for their cgroup (see
 * cglist.h). The parameter and the debugfs file of a list share one parser
 * (skm_cglist_write()); the debugfs file also sees the byte count, so it
 * refuses an embedded NUL, where sysfs hands the setter a string that ends
 * at the first NUL. Reading the parameter is cut at a line boundary to fit
 * a page, and then ends with a "# N more" line.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/kernfs.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "cglist.h"
#include "cglist_parse.h"
#include "compat.h"

/* Serializes the writers of every list. */
DEFINE_MUTEX(skm_cglist_lock);

/**
 * skm_cgroup_path() - @cgrp's path in the whole hierarchy
 * @cgrp: a cgroup the caller holds
 * @buf: where to
 * @size: its size
 *
 * The path from the hierarchy's root (the initial cgroup namespace), not
 * from the caller's namespace as cgroup_path() gives it: the hook of
 * mem_cgroup_css_online() runs in the task that made the cgroup, maybe in
 * a container.
 *
 * Return: its length, or -ENAMETOOLONG, or another -errno.
 */
int skm_cgroup_path(struct cgroup *cgrp, char *buf, size_t size)
{
	int len = kernfs_path(cgrp->kn, buf, size);

	if (len >= 0 && len >= size)
		return -ENAMETOOLONG;
	return len;
}

/**
 * skm_cglist_covering() - the nearest entry covering @memcg, or NULL
 * @list: the list
 * @memcg: a memcg; it and its ancestors, the root included, are looked up
 *
 * Call under rcu_read_lock(), with @memcg pinned.
 */
struct skm_cglist_entry *skm_cglist_covering(struct skm_cglist *list,
					     struct mem_cgroup *memcg)
{
	struct skm_cglist_entry *e;

	if (!skm_cglist_any_resolved(list))
		return NULL;
	for (; memcg; memcg = parent_mem_cgroup(memcg)) {
		e = skm_cglist_find(list, cgroup_id(memcg->css.cgroup));
		if (e)
			return e;
	}
	return NULL;
}

/* The waiting entry of @path, or NULL. Under skm_cglist_lock. */
static struct skm_cglist_entry *skm_cglist_find_waiting(struct skm_cglist *list,
							const char *path)
{
	struct skm_cglist_entry *e;

	hlist_for_each_entry(e, &list->waiting, wait) {
		if (!strcmp(e->path, path))
			return e;
	}
	return NULL;
}

/* The entry of @path, waiting or not, or NULL. Under skm_cglist_lock. */
static struct skm_cglist_entry *skm_cglist_find_path(struct skm_cglist *list,
						     const char *path)
{
	struct skm_cglist_entry *e;
	int bkt;

	e = skm_cglist_find_waiting(list, path);
	if (e)
		return e;
	hash_for_each(list->by_id, bkt, e, node) {
		if (!strcmp(e->path, path))
			return e;
	}
	return NULL;
}

/*
 * @by_id changed: readers that keep entries they found (skm_cglist_gen())
 * look again. After the change, so that a reader that sees the new
 * generation sees the change; an entry taken out is freed only after a
 * grace period, which any reader still on the old generation is inside.
 * Under skm_cglist_lock.
 */
static void skm_cglist_changed(struct skm_cglist *list)
{
	/* pairs with skm_cglist_gen(): the change is seen with the number */
	smp_store_release(&list->gen, list->gen + 1);
}

/* A waiting entry's cgroup exists now: resolve it. Under skm_cglist_lock. */
static void skm_cglist_resolve_entry(struct skm_cglist *list,
				     struct skm_cglist_entry *e, u64 id)
{
	hlist_del_init(&e->wait);
	atomic_dec(&list->nr_waiting);
	e->id = id;
	atomic_inc(&list->nr_resolved);
	hash_add_rcu(list->by_id, &e->node, id);
	skm_cglist_changed(list);
}

/*
 * @e's cgroup is gone: a fresh copy of @e waits for a cgroup of its path
 * again, with nothing counted, and @e goes after a grace period. (An entry
 * is in the hash once in its life: an RCU reader still on @e never follows
 * it into another bucket.) Under skm_cglist_lock; process context.
 */
static struct skm_cglist_entry *
skm_cglist_unresolve_entry(struct skm_cglist *list, struct skm_cglist_entry *e)
{
	size_t len = strlen(e->path);
	struct skm_cglist_entry *w;

	w = kzalloc(struct_size(w, path, len + 1), GFP_KERNEL | __GFP_NOFAIL);
	memcpy(w->path, e->path, len + 1);
	w->bytes = e->bytes;
	w->pages = e->pages;
	hlist_add_head(&w->wait, &list->waiting);
	atomic_inc(&list->nr_waiting);
	hash_del_rcu(&e->node);
	atomic_dec(&list->nr_resolved);
	skm_cglist_changed(list);
	kfree_rcu(e, rcu);
	return w;
}

/* Take @e out of the list and free it after a grace period. */
static void skm_cglist_del(struct skm_cglist *list, struct skm_cglist_entry *e)
{
	if (e->id) {
		hash_del_rcu(&e->node);
		atomic_dec(&list->nr_resolved);
		skm_cglist_changed(list);
	} else {
		hlist_del(&e->wait);
		atomic_dec(&list->nr_waiting);
	}
	atomic_dec(&list->nr);
	kfree_rcu(e, rcu);
}

/*
 * cgroup_get_from_path() and cgroup_get_from_id() answer relative to the
 * caller's cgroup namespace, and a list holds paths in the whole hierarchy:
 * a writer or a reader inside a container would see other cgroups, or none.
 * So the lookups run in a kworker, which is in the initial namespace.
 */
struct skm_init_ns_call {
	struct work_struct work;
	void (*fn)(void *arg);
	void *arg;
};

static void skm_init_ns_work(struct work_struct *work)
{
	struct skm_init_ns_call *call = container_of(work, struct skm_init_ns_call, work);

	call->fn(call->arg);
}

/* Run @fn(@arg) in the initial cgroup namespace and wait for it. */
static void skm_in_init_ns(void (*fn)(void *arg), void *arg)
{
	struct skm_init_ns_call call = { .fn = fn, .arg = arg };

	INIT_WORK_ONSTACK(&call.work, skm_init_ns_work);
	queue_work(skm_system_percpu_wq, &call.work);
	flush_work(&call.work);
	destroy_work_on_stack(&call.work);
}

struct skm_id_lookup {
	const char *path;
	u64 id;
};

static void skm_cgroup_id_of_fn(void *arg)
{
	struct skm_id_lookup *l = arg;
	struct cgroup *cgrp = cgroup_get_from_path(l->path);

	if (IS_ERR(cgrp))
		return;
	l->id = cgroup_id(cgrp);
	cgroup_put(cgrp);
}

/* The id of the cgroup at @path, or 0 if there is none (yet). */
static u64 skm_cgroup_id_of(const char *path)
{
	struct skm_id_lookup l = { .path = path };

	skm_in_init_ns(skm_cgroup_id_of_fn, &l);
	return l.id;
}

/* @bytes as the list counts it, in pages; 0 for a list without sizes. */
static unsigned long skm_cglist_pages(const struct skm_cglist *list, u64 bytes)
{
	return list->pages_of ? list->pages_of(bytes) : 0;
}

/*
 * Apply @op; @path is op's path, NUL-terminated. Return 1 if it added an
 * entry (which the caller takes out again if hooking fails), 0 if it
 * changed or removed one or found nothing to remove, or -errno.
 */
static int skm_cglist_update(struct skm_cglist *list,
			     const struct skm_cglist_op *op, const char *path)
{
	u64 id = skm_cgroup_id_of(path);
	struct skm_cglist_entry *e;
	int ret = 0;

	mutex_lock(&skm_cglist_lock);
	e = skm_cglist_find_path(list, path);
	/*
	 * Made while we were not watching (no policy on), maybe anew; unless
	 * another entry holds the cgroup (listed under the path it had
	 * before a rename): one entry per cgroup.
	 */
	if (e && id && e->id != id && !skm_cglist_find(list, id)) {
		if (e->id)
			e = skm_cglist_unresolve_entry(list, e);
		skm_cglist_resolve_entry(list, e, id);
	}
	if (!op->add) {
		if (e)
			skm_cglist_del(list, e);
	} else if (e) {
		WRITE_ONCE(e->bytes, op->bytes);
		WRITE_ONCE(e->pages, skm_cglist_pages(list, op->bytes));
	} else if (atomic_read(&list->nr) >= SKM_CGLIST_MAX) {
		ret = -ENOSPC;
	} else {
		if (id && skm_cglist_find(list, id))
			id = 0;		/* held by an entry of its old path */
		e = kzalloc(struct_size(e, path, op->path_len + 1), GFP_KERNEL);
		if (!e) {
			ret = -ENOMEM;
			goto out;
		}
		memcpy(e->path, path, op->path_len + 1);
		e->bytes = op->bytes;
		e->pages = skm_cglist_pages(list, op->bytes);
		atomic_inc(&list->nr);
		if (id) {
			e->id = id;
			atomic_inc(&list->nr_resolved);
			hash_add_rcu(list->by_id, &e->node, id);
			skm_cglist_changed(list);
		} else {
			hlist_add_head(&e->wait, &list->waiting);
			atomic_inc(&list->nr_waiting);
		}
		ret = 1;
	}
out:
	mutex_unlock(&skm_cglist_lock);
	return ret;
}

/**
 * skm_cglist_write() - one update of a list, all or nothing
 * @list: the list
 * @buf: "+<path>", "+<path>=<size>" or "-<path>" (cglist_parse.h)
 * @len: its length; one trailing newline allowed
 *
 * Then commits it (the list's commit(): the first entry of a list turns
 * its policy on), and if that fails the entry is taken out again.
 * Call under kernel_param_lock().
 *
 * Return: 0, -EINVAL (malformed), -ENOSPC (list full), -ENOMEM, or the
 * error of hooking.
 */
int skm_cglist_write(struct skm_cglist *list, const char *buf, size_t len)
{
	struct skm_cglist_op op;
	char *path;
	int ret;

	ret = skm_cglist_op_parse(buf, len, !!list->pages_of, &op);
	if (ret)
		return ret;
	path = kmemdup_nul(op.path, op.path_len, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	ret = skm_cglist_update(list, &op, path);
	if (ret >= 0) {
		bool added = ret > 0;

		ret = list->commit("left as it was");
		/*
		 * Take the new entry out again, found anew: meanwhile it may
		 * have been resolved or copied (cgroups come and go).
		 */
		if (ret && added) {
			struct skm_cglist_entry *e;

			mutex_lock(&skm_cglist_lock);
			e = skm_cglist_find_path(list, path);
			if (e)
				skm_cglist_del(list, e);
			mutex_unlock(&skm_cglist_lock);
		}
	}
	kfree(path);
	return ret;
}

/**
 * skm_cglist_resolve() - look every entry's cgroup up again
 * @list: the list
 *
 * Before each decision what to hook: cgroups made while no policy was on
 * (css_online not hooked) resolve here, and entries whose cgroup was freed
 * then (css_free not hooked) wait again.
 */
static void skm_cglist_resolve_fn(void *arg)
{
	struct skm_cglist *list = arg;
	struct skm_cglist_entry *e;
	struct hlist_node *n;
	struct cgroup *cgrp;
	int bkt;
	u64 id;

	mutex_lock(&skm_cglist_lock);
	hash_for_each_safe(list->by_id, bkt, n, e, node) {
		cgrp = cgroup_get_from_id(e->id);
		if (!IS_ERR(cgrp)) {
			cgroup_put(cgrp);
			continue;
		}
		skm_cglist_unresolve_entry(list, e);
	}
	hlist_for_each_entry_safe(e, n, &list->waiting, wait) {
		cgrp = cgroup_get_from_path(e->path);
		if (IS_ERR(cgrp))
			continue;
		id = cgroup_id(cgrp);
		cgroup_put(cgrp);
		if (!skm_cglist_find(list, id))
			skm_cglist_resolve_entry(list, e, id);
	}
	mutex_unlock(&skm_cglist_lock);
}

void skm_cglist_resolve(struct skm_cglist *list)
{
	if (atomic_read(&list->nr))
		skm_in_init_ns(skm_cglist_resolve_fn, list);
}

/**
 * skm_cglist_online() - a cgroup's memcg came online: resolve its entry
 * @list: the list
 * @cgrp: the cgroup
 * @path: its path in the whole hierarchy (skm_cgroup_path())
 *
 * From the mem_cgroup_css_online() hook, before any task can be in @cgrp:
 * the entry of @path, waiting or still on a removed cgroup, covers @cgrp.
 */
void skm_cglist_online(struct skm_cglist *list, struct cgroup *cgrp,
		       const char *path)
{
	struct skm_cglist_entry *e, *found = NULL;
	int bkt;

	if (!atomic_read(&list->nr))
		return;
	mutex_lock(&skm_cglist_lock);
	found = skm_cglist_find_waiting(list, path);
	/*
	 * Made again while the memcg of the one removed lingers (a zombie,
	 * freed only when its last page goes): its entry has not waited yet.
	 */
	if (!found) {
		/* no two live cgroups have one path: e's is removed */
		hash_for_each(list->by_id, bkt, e, node) {
			if (!strcmp(e->path, path) && e->id != cgroup_id(cgrp)) {
				found = skm_cglist_unresolve_entry(list, e);
				break;
			}
		}
	}
	if (found && !skm_cglist_find(list, cgroup_id(cgrp)))
		skm_cglist_resolve_entry(list, found, cgroup_id(cgrp));
	mutex_unlock(&skm_cglist_lock);
}

/**
 * skm_cglist_gone() - cgroup @id is being freed: its entry waits again
 * @list: the list
 * @id: the cgroup's id
 *
 * An entry names a path, not one cgroup: a service whose cgroup systemd
 * makes anew at each restart keeps its entry. "-<path>" removes it.
 */
void skm_cglist_gone(struct skm_cglist *list, u64 id)
{
	struct skm_cglist_entry *e;

	if (!skm_cglist_any_resolved(list))
		return;
	mutex_lock(&skm_cglist_lock);
	e = skm_cglist_find(list, id);
	if (e)
		skm_cglist_unresolve_entry(list, e);
	mutex_unlock(&skm_cglist_lock);
}

/**
 * skm_cglist_reset_usage() - count every entry's usage from 0 again
 * @list: the list
 *
 * When the limit's hooks go on: nothing was counted while they were off,
 * and the state its owner marked (@has_state) may have been freed since.
 */
void skm_cglist_reset_usage(struct skm_cglist *list)
{
	struct skm_cglist_entry *e;
	int bkt;

	mutex_lock(&skm_cglist_lock);
	hash_for_each(list->by_id, bkt, e, node) {
		atomic_long_set(&e->usage_pages, 0);
		WRITE_ONCE(e->has_state, false);
	}
	mutex_unlock(&skm_cglist_lock);
}

/* Empty the list: unload, and a load that failed after modprobe filled it. */
void skm_cglist_clear(struct skm_cglist *list)
{
	struct skm_cglist_entry *e;
	struct hlist_node *n;
	int bkt;

	mutex_lock(&skm_cglist_lock);
	hash_for_each_safe(list->by_id, bkt, n, e, node)
		skm_cglist_del(list, e);
	hlist_for_each_entry_safe(e, n, &list->waiting, wait)
		skm_cglist_del(list, e);
	mutex_unlock(&skm_cglist_lock);
	/* No rcu_barrier(): kfree_rcu() of kmalloc memory runs none of our code. */
}

/* One line of the list: "+<path>[=<bytes>][ waiting]\n" into @buf. */
static int skm_cglist_line(struct skm_cglist *list, struct skm_cglist_entry *e,
			   char *buf, size_t size)
{
	char value[24] = "";

	if (list->pages_of)
		snprintf(value, sizeof(value), "=%llu", READ_ONCE(e->bytes));
	return snprintf(buf, size, "+%s%s%s\n", e->path, value,
			e->id ? "" : " waiting");
}

/*
 * Call @fn on each line, resolved entries first. Reading only renders: it
 * changes nothing and looks nothing up (any user may read a parameter).
 */
static int skm_cglist_each_line(struct skm_cglist *list,
				int (*fn)(void *arg, const char *line, int len),
				void *arg)
{
	const size_t size = SKM_CGPATH_MAX + 48;
	struct skm_cglist_entry *e;
	int bkt, len;
	char *line;

	line = kmalloc(size, GFP_KERNEL);
	if (!line)
		return -ENOMEM;
	mutex_lock(&skm_cglist_lock);
	hash_for_each(list->by_id, bkt, e, node) {
		len = skm_cglist_line(list, e, line, size);
		if (len > 0 && len < size)
			fn(arg, line, len);
	}
	hlist_for_each_entry(e, &list->waiting, wait) {
		len = skm_cglist_line(list, e, line, size);
		if (len > 0 && len < size)
			fn(arg, line, len);
	}
	mutex_unlock(&skm_cglist_lock);
	kfree(line);
	return 0;
}

static int skm_cglist_seq_line(void *arg, const char *line, int len)
{
	seq_write(arg, line, len);
	return 0;
}

/**
 * skm_cglist_show() - the list, one "+<path>[=<bytes>][ waiting]" a line
 * @list: the list
 * @m: where to
 */
void skm_cglist_show(struct skm_cglist *list, struct seq_file *m)
{
	skm_cglist_each_line(list, skm_cglist_seq_line, m);
}

struct skm_cglist_page {
	char *buf;
	size_t size;	/* room for lines; "# N more" goes after */
	size_t len;
	unsigned int more;
};

static int skm_cglist_page_line(void *arg, const char *line, int len)
{
	struct skm_cglist_page *pg = arg;

	if (pg->more || pg->len + len >= pg->size) {
		pg->more++;
		return 0;
	}
	memcpy(pg->buf + pg->len, line, len);
	pg->len += len;
	return 0;
}

/* The list as the debugfs file shows it, cut to fit the page sysfs gives. */
static int skm_cglist_param_get(char *buf, const struct kernel_param *kp)
{
	struct skm_cglist_page pg = { buf, PAGE_SIZE - 32, 0, 0 };
	int ret;

	ret = skm_cglist_each_line(kp->arg, skm_cglist_page_line, &pg);
	if (ret)
		return ret;
	if (pg.more)
		pg.len += scnprintf(buf + pg.len, PAGE_SIZE - pg.len, "# %u more\n",
				    pg.more);
	return pg.len;
}

static int skm_cglist_param_set(const char *val, const struct kernel_param *kp)
{
	return skm_cglist_write(kp->arg, val, strlen(val));
}

/*
 * The kernel frees parameters after it marked the module unformed, where
 * lockdep no longer sees our static mutex as static: taken there for the
 * first time (a load whose init failed before anything took it), it turned
 * lockdep off ("trying to register non-static key", seen on the debug
 * kernel in missing_symbol). An empty list needs nothing; a listed entry
 * was added under the lock, so its class is known by then.
 */
static void skm_cglist_param_free(void *arg)
{
	if (skm_cglist_any(arg))
		skm_cglist_clear(arg);
}

const struct kernel_param_ops skm_cglist_param_ops = {
	.set = skm_cglist_param_set,
	.get = skm_cglist_param_get,
	.free = skm_cglist_param_free,
};

/* debugfs: the file's private data is the list. */
static int skm_cglist_seq_show(struct seq_file *m, void *v)
{
	skm_cglist_show(m->private, m);
	return 0;
}

static int skm_cglist_open(struct inode *inode, struct file *file)
{
	return single_open(file, skm_cglist_seq_show, inode->i_private);
}

static ssize_t skm_cglist_file_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct skm_cglist *list = file_inode(file)->i_private;
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
		ret = skm_cglist_write(list, buf, count);
		kernel_param_unlock(THIS_MODULE);
	}
	kfree(buf);
	if (ret)
		return ret;
	*ppos = count;
	return count;
}

const struct file_operations skm_cglist_fops = {
	.owner = THIS_MODULE,
	.open = skm_cglist_open,
	.read = seq_read,
	.write = skm_cglist_file_write,
	.llseek = seq_lseek,
	.release = single_release,
};
