/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lists of cgroups by path, each a knob of the policy that owns it.
 *
 * One update per write, in the syntax of cglist_parse.h. An entry names a
 * cgroup and covers its descendants. A path that names no cgroup yet is
 * kept as a waiting entry (an orchestrator may list a cgroup in modprobe.d
 * before systemd makes it) and takes effect when the cgroup's memcg comes
 * online: mem_cgroup_css_online() is hooked while a policy with a list is
 * on, and every waiting entry is looked up again whenever the policies are
 * applied. An entry names a path, not one cgroup: when its cgroup is freed
 * it waits again (what was counted for it is dropped), so that a cgroup
 * made anew, as systemd makes a service's at each restart, is covered
 * again. Only "-<path>" removes an entry.
 *
 * Readers (the charge paths) look resolved entries up by cgroup id, under
 * RCU, with no lock; writers of every list hold one mutex (writes are rare).
 */
#ifndef _SKMEMCG_CGLIST_H
#define _SKMEMCG_CGLIST_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include <linux/moduleparam.h>

struct cgroup;
struct mem_cgroup;
struct seq_file;

/* Entries a list holds at most, waiting ones included. */
#define SKM_CGLIST_MAX		1024

/**
 * struct skm_cglist_entry - one cgroup of a list
 * @node: in the list's hash, keyed by @id, once resolved
 * @wait: in the list's waiting entries until resolved
 * @id: the cgroup's id; 0 while waiting
 * @bytes: the size as written, for a list with sizes; bytes
 * @pages: @bytes in pages, as the list's pages_of() counts them
 * @usage_pages: the list owner's count of pages against @pages, dropped
 *	when the entry's cgroup goes (skm_cglist_reset_usage())
 * @suppressed: the list owner's count of refusals
 * @has_state: the list owner's mark: skmemcg state was made for the
 *	entry's cgroup (sock_limits); false again with @usage_pages' reset
 *	and in the entry a cgroup made anew resolves
 * @rcu: freeing
 * @path: as written, the mount prefix dropped, NUL-terminated
 */
struct skm_cglist_entry {
	struct hlist_node node;
	struct hlist_node wait;
	u64 id;
	u64 bytes;
	unsigned long pages;
	atomic_long_t usage_pages;
	atomic_long_t suppressed;
	bool has_state;
	struct rcu_head rcu;
	char path[];
};

/**
 * struct skm_cglist - a list of cgroups
 * @name: the knob's name, for messages
 * @pages_of: for a list whose entries carry a size ("+<path>=<size>"):
 *	the size in bytes as pages; NULL for a list of paths alone
 * @commit: after each update, under kernel_param_lock(): what the change
 *	turns on or off (skm_policies_apply()); if it fails, an entry the
 *	update added is taken out again
 * @by_id: resolved entries, by cgroup id
 * @waiting: entries whose cgroup does not exist yet
 * @nr: entries, waiting ones included
 * @nr_waiting: waiting entries
 * @nr_resolved: entries in @by_id; counted before an entry goes in and
 *	after it comes out, so that a reader that finds none need not look
 * @gen: bumped after each change of @by_id (release), so that a reader
 *	that keeps what it found (limit.c's chains) knows when to look again
 */
struct skm_cglist {
	const char *name;
	unsigned long (*pages_of)(u64 bytes);
	int (*commit)(const char *context);
	DECLARE_HASHTABLE(by_id, 6);
	struct hlist_head waiting;
	atomic_t nr;
	atomic_t nr_waiting;
	atomic_t nr_resolved;
	unsigned long gen;
};

/* A list's definition: every other member starts as zero (empty). */
#define SKM_CGLIST_INIT(knob, pages_fn, commit_fn)			\
	{ .name = (knob), .pages_of = (pages_fn), .commit = (commit_fn) }

/* Does the list hold any entry, waiting or not? */
static inline bool skm_cglist_any(const struct skm_cglist *list)
{
	return atomic_read(&list->nr) > 0;
}

/* Does the list hold an entry some cgroup has now? One load. */
static inline bool skm_cglist_any_resolved(const struct skm_cglist *list)
{
	return atomic_read(&list->nr_resolved) > 0;
}

/*
 * The generation of @list's resolved entries: a reader that keeps entries
 * it found may use them while this is unchanged, inside an RCU read side.
 */
static inline unsigned long skm_cglist_gen(const struct skm_cglist *list)
{
	/* pairs with skm_cglist_changed(): the number, then what it covers */
	return smp_load_acquire(&list->gen);
}

static inline bool skm_cglist_any_waiting(const struct skm_cglist *list)
{
	return atomic_read(&list->nr_waiting) > 0;
}

int skm_cgroup_path(struct cgroup *cgrp, char *buf, size_t size);

/* Held by every writer of every list (writes are rare). */
extern struct mutex skm_cglist_lock;

/**
 * skm_cglist_find() - the resolved entry of cgroup @id, or NULL
 * @list: the list
 * @id: a cgroup id
 *
 * Call under rcu_read_lock(), with preemption disabled (an RCU reader as
 * well) or under skm_cglist_lock. Inline: the charge paths
 * look up every memcg of a walk.
 */
static inline struct skm_cglist_entry *skm_cglist_find(struct skm_cglist *list,
						       u64 id)
{
	struct skm_cglist_entry *e;

	hash_for_each_possible_rcu(list->by_id, e, node, id,
				   lockdep_is_held(&skm_cglist_lock)) {
		if (e->id == id)
			return e;
	}
	return NULL;
}

struct skm_cglist_entry *skm_cglist_covering(struct skm_cglist *list,
					     struct mem_cgroup *memcg);
int skm_cglist_write(struct skm_cglist *list, const char *buf, size_t len);
void skm_cglist_resolve(struct skm_cglist *list);
void skm_cglist_online(struct skm_cglist *list, struct cgroup *cgrp,
		       const char *path);
void skm_cglist_gone(struct skm_cglist *list, u64 id);
void skm_cglist_reset_usage(struct skm_cglist *list);
void skm_cglist_clear(struct skm_cglist *list);
void skm_cglist_show(struct skm_cglist *list, struct seq_file *m);

extern const struct kernel_param_ops skm_cglist_param_ops;
extern const struct file_operations skm_cglist_fops;

#endif /* _SKMEMCG_CGLIST_H */
