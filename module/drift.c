// SPDX-License-Identifier: GPL-2.0
/*
 * The drift guard: the claims skmemcg makes about the kernel it is loaded
 * into, checked against that kernel at load, and the policies that rest on
 * a claim that does not hold refused.
 *
 * Debian ships a new ABI of each kernel family every few weeks, and DKMS
 * rebuilds the module for it without a word. What the kernel's headers
 * declare, the build itself checks (SKM_CHECK_PROTO, against the headers of
 * that very kernel). What they do not declare is a claim:
 * - the layout of struct scan_control, private to mm/vmscan.c, replicated
 *   in vmscan_compat.h: every member's name, bit offset and bitfield width,
 *   in order, against the running kernel's BTF (CONFIG_DEBUG_INFO_BTF=y on
 *   every Debian kernel; read from __start_BTF, what
 *   /sys/kernel/btf/vmlinux serves);
 * - the prototypes of the static functions replaced, against BTF;
 * - the size of struct proto, against BTF: exclusive copies it whole
 *   (exclusive.c, the tag);
 * - that each hooked name is one function: kallsyms_lookup_name() returns
 *   the first of several static functions of one name, so a name kallsyms
 *   holds more than once is refused, not guessed.
 * - that each kernel function whose body a policy copies, or whose inside
 *   it relies on, is the build of it the copy was checked against: its size
 *   and the fingerprint of its instructions (text_fp.c) are ones recorded
 *   from a tested kernel (fingerprints.h), checked at load and again each
 *   time a policy resting on it is turned on.
 * A claim that does not hold, or cannot be checked (no BTF, a function BTF
 * does not describe), refuses every policy that needs it: those policies
 * cannot be turned on, with one dmesg line naming the claim and the
 * kernel, and stats shows them (drift_refused_<policy>). The rest load and
 * work. allow_untested=1 (an unsafe parameter: it taints the kernel) lets
 * them on anyway and says so.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/utsname.h>

#include "btf_view.h"
#include "drift.h"
#include "fingerprints.h"
#include "hooks.h"
#include "ksym.h"
#include "parse.h"
#include "policy.h"
#include "sock_compat.h"
#include "text_scan.h"
#include "vmscan_compat.h"

/*
 * Load policies whose claims do not hold anyway. The kernel taints itself
 * when this is given (an unsafe parameter), and skmemcg logs each claim it
 * let through. Load time only, no sysfs file (stats: drift_allowed_untested).
 */
static bool skm_allow_untested;
module_param_named_unsafe(allow_untested, skm_allow_untested, bool, 0);
MODULE_PARM_DESC(allow_untested,
		 "Let policies on whose claims about this kernel do not hold (taints the kernel; bool, default N)");

/*
 * Test only: treat these claims (comma-separated: "scan_control", the
 * name of a function whose prototype or uniqueness is claimed, or
 * "<function>.body" for its fingerprint) as not holding, to show the
 * refusal. Load time only, no sysfs file.
 */
static char *skm_test_drift;
module_param_named(test_drift, skm_test_drift, charp, 0);
MODULE_PARM_DESC(test_drift,
		 "Test only: treat these claims about the kernel as not holding (comma-separated)");

static unsigned int skm_drift_refused_mask __read_mostly;
static unsigned int skm_drift_allowed_mask;
static unsigned int skm_drift_nr_checks;
static unsigned int skm_drift_nr_mismatches;

/* "throttle, exclusive" for a mask of policies. */
static void skm_policies_str(unsigned int policies, char *buf, size_t size)
{
	size_t len = 0;
	int p;

	buf[0] = '\0';
	for (p = 0; p < SKM_POLICY_NR; p++)
		if (policies & SKM_POLICY_BIT(p))
			len += scnprintf(buf + len, size - len, "%s%s",
					 len ? ", " : "", skm_policy_table[p]->name);
}

/* A claim that does not hold: refuse @policies, or let them be. */
static void skm_drift_mismatch(const char *what, const char *why,
			       unsigned int policies)
{
	char names[64];

	skm_drift_nr_mismatches++;
	skm_policies_str(policies, names, sizeof(names));
	if (skm_allow_untested) {
		WRITE_ONCE(skm_drift_allowed_mask, skm_drift_allowed_mask | policies);
		pr_warn("drift guard: %s does not match kernel %s %s (%s); allow_untested=1: %s left on offer\n",
			what, init_utsname()->release, init_utsname()->version,
			why, names);
		return;
	}
	WRITE_ONCE(skm_drift_refused_mask, skm_drift_refused_mask | policies);
	pr_err("drift guard: %s does not match kernel %s %s (%s); refusing %s\n",
	       what, init_utsname()->release, init_utsname()->version, why,
	       names);
}

/* The policies of hook @name in @hooks, 0 if it is not one. */
static unsigned int skm_hook_policies(const struct skm_hook *hooks,
				      unsigned int nr, const char *name)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(hooks[i].name, name))
			return hooks[i].policies;
	return 0;
}

/*
 * struct skm_scan_control's members as the claim lists them: a member's
 * bit offset is offsetof() for a plain one; for a bitfield, the bits one
 * decrement of it from 0 sets in an instance (the compiler's own layout).
 */
static void skm_bitfield_pos(const void *obj, size_t size, u32 *bit_off,
			     u32 *bits)
{
	const u8 *p = obj;
	u32 i, first = U32_MAX, n = 0;

	for (i = 0; i < size * BITS_PER_BYTE; i++) {
		if (!(p[i / BITS_PER_BYTE] & BIT(i % BITS_PER_BYTE)))
			continue;
		if (first == U32_MAX)
			first = i;
		n++;
	}
	*bit_off = first;
	*bits = n;
}

#define SKM_SC_MEMBER(m)						\
	do {								\
		c[n].name = #m;						\
		c[n].bit_off = offsetof(struct skm_scan_control, m) *	\
			       BITS_PER_BYTE;				\
		c[n++].bits = 0;					\
	} while (0)

/* Claim the bitfield set to all ones in @sc, then clear @sc for the next. */
static void skm_claim_bits(struct skm_btf_member_claim *c, const char *name,
			   struct skm_scan_control *sc)
{
	c->name = name;
	skm_bitfield_pos(sc, sizeof(*sc), &c->bit_off, &c->bits);
	memset(sc, 0, sizeof(*sc));
}

/* Fill @c (room for 40) with the claim; return how many members. */
static unsigned int skm_scan_control_claim(struct skm_btf_member_claim *c,
					   struct skm_scan_control *sc)
{
	unsigned int n = 0;

	memset(sc, 0, sizeof(*sc));
	SKM_SC_MEMBER(nr_to_reclaim);
	SKM_SC_MEMBER(nodemask);
	SKM_SC_MEMBER(target_mem_cgroup);
	SKM_SC_MEMBER(anon_cost);
	SKM_SC_MEMBER(file_cost);
#ifndef SKM_FAMILY_6_1
	SKM_SC_MEMBER(proactive_swappiness);
#endif
	sc->may_deactivate--;
	skm_claim_bits(&c[n++], "may_deactivate", sc);
	sc->force_deactivate--;
	skm_claim_bits(&c[n++], "force_deactivate", sc);
	sc->skipped_deactivate--;
	skm_claim_bits(&c[n++], "skipped_deactivate", sc);
	sc->may_writepage--;
	skm_claim_bits(&c[n++], "may_writepage", sc);
	sc->may_unmap--;
	skm_claim_bits(&c[n++], "may_unmap", sc);
	sc->may_swap--;
	skm_claim_bits(&c[n++], "may_swap", sc);
#ifndef SKM_FAMILY_6_1
	sc->no_cache_trim_mode--;
	skm_claim_bits(&c[n++], "no_cache_trim_mode", sc);
	sc->cache_trim_mode_failed--;
	skm_claim_bits(&c[n++], "cache_trim_mode_failed", sc);
#endif
	sc->proactive--;
	skm_claim_bits(&c[n++], "proactive", sc);
	sc->memcg_low_reclaim--;
	skm_claim_bits(&c[n++], "memcg_low_reclaim", sc);
	sc->memcg_low_skipped--;
	skm_claim_bits(&c[n++], "memcg_low_skipped", sc);
#ifndef SKM_FAMILY_6_1
	sc->memcg_full_walk--;
	skm_claim_bits(&c[n++], "memcg_full_walk", sc);
#endif
	sc->hibernation_mode--;
	skm_claim_bits(&c[n++], "hibernation_mode", sc);
	sc->compaction_ready--;
	skm_claim_bits(&c[n++], "compaction_ready", sc);
	sc->cache_trim_mode--;
	skm_claim_bits(&c[n++], "cache_trim_mode", sc);
	sc->file_is_tiny--;
	skm_claim_bits(&c[n++], "file_is_tiny", sc);
	sc->no_demotion--;
	skm_claim_bits(&c[n++], "no_demotion", sc);
#ifdef SKM_FAMILY_6_1
	sc->memcgs_need_aging--;
	skm_claim_bits(&c[n++], "memcgs_need_aging", sc);
	SKM_SC_MEMBER(last_reclaimed);
#endif
	SKM_SC_MEMBER(order);
	SKM_SC_MEMBER(priority);
	SKM_SC_MEMBER(reclaim_idx);
	SKM_SC_MEMBER(gfp_mask);
	SKM_SC_MEMBER(nr_scanned);
	SKM_SC_MEMBER(nr_reclaimed);
	SKM_SC_MEMBER(nr);
	SKM_SC_MEMBER(reclaim_state);
	/* The list ends where the copy does. */
	BUILD_BUG_ON(offsetofend(struct skm_scan_control, reclaim_state) !=
		     sizeof(struct skm_scan_control));
	return n;
}

/*
 * The prototypes of the static functions skmemcg replaces, as BTF spells
 * them (base types as the compiler names them, "long unsigned int"; a
 * typedef by its name, a pointer with " *"; no parameter names).
 * Those the headers declare are checked by the build (SKM_CHECK_PROTO).
 */
static const struct {
	const char *func;
	const char *proto;
} skm_proto_claims[] = {
#if defined(SKM_FAMILY_6_1)
	{ "evict_folios", "int (struct lruvec *, struct scan_control *, int, bool *)" },
#elif defined(SKM_FAMILY_7_3)
	{ "apply_proportional_protection",
	  "long unsigned int (struct mem_cgroup *, struct scan_control *, long unsigned int)" },
#else
	{ "evict_folios", "int (struct lruvec *, struct scan_control *, int)" },
#endif
	{ "mem_cgroup_css_online", "int (struct cgroup_subsys_state *)" },
	{ "mem_cgroup_css_free", "void (struct cgroup_subsys_state *)" },
};

/* The vmlinux BTF checks; @btf is NULL if there is none to read. */
static void skm_drift_check_btf(struct skm_btf *btf, const struct skm_hook *hooks,
				unsigned int nr)
{
	unsigned int reclaim = SKM_POLICY_BIT(SKM_POLICY_RECLAIM), n, i;
	struct skm_btf_member_claim *claim;
	struct skm_scan_control *sc;
	char why[128], got[160];
	int ret;

	claim = kcalloc(40, sizeof(*claim), GFP_KERNEL);
	sc = kmalloc(sizeof(*sc), GFP_KERNEL);
	skm_drift_nr_checks++;
	if (!btf || !claim || !sc) {
		skm_drift_mismatch("struct scan_control",
				   btf ? "out of memory to check it" : "no BTF to check it",
				   reclaim);
	} else {
		n = skm_scan_control_claim(claim, sc);
		if (skm_list_has(skm_test_drift, "scan_control"))
			claim[n - 1].bit_off += BITS_PER_BYTE;
		ret = skm_btf_struct_check(btf, "scan_control", claim, n, why, sizeof(why));
		if (ret == -ENOENT)
			skm_drift_mismatch("struct scan_control", "not in BTF", reclaim);
		else if (ret == -ENOTUNIQ)
			skm_drift_mismatch("struct scan_control", "several in BTF", reclaim);
		else if (ret)
			skm_drift_mismatch("struct scan_control", why, reclaim);
	}
	kfree(sc);
	kfree(claim);

	/*
	 * exclusive tags a socket with a copy of its struct proto, of the size
	 * this module was built with (exclusive.h): the kernel's own must be
	 * that size, or the copy is cut short or overruns its slot.
	 */
	skm_drift_nr_checks++;
	ret = btf ? skm_btf_struct_size(btf, "proto") : -ENODATA;
	if (ret >= 0 && skm_list_has(skm_test_drift, "proto"))
		ret += sizeof(long);
	if (ret != sizeof(struct proto)) {
		if (ret >= 0)
			scnprintf(why, sizeof(why), "BTF has %d bytes, the module %zu",
				  ret, sizeof(struct proto));
		else
			scnprintf(why, sizeof(why), "%s",
				  ret == -ENODATA ? "no BTF to check it" :
				  ret == -ENOENT ? "not in BTF" : "several in BTF");
		skm_drift_mismatch("the size of struct proto", why,
				   SKM_POLICY_BIT(SKM_POLICY_EXCLUSIVE));
	}

	for (i = 0; i < ARRAY_SIZE(skm_proto_claims); i++) {
		const char *func = skm_proto_claims[i].func;
		unsigned int policies = skm_hook_policies(hooks, nr, func);

		skm_drift_nr_checks++;
		ret = btf ? skm_btf_func_proto_str(btf, func, got, sizeof(got)) : -ENODATA;
		if (ret >= 0 && skm_list_has(skm_test_drift, func))
			strscpy(got, "(perturbed by test_drift)", sizeof(got));
		if (ret >= 0 && !strcmp(got, skm_proto_claims[i].proto))
			continue;
		if (ret >= 0)
			scnprintf(why, sizeof(why), "BTF has %s", got);
		else
			scnprintf(why, sizeof(why), "%s",
				  ret == -ENODATA ? "no BTF to check it" :
				  ret == -ENOENT ? "not in BTF" :
				  ret == -ENOTUNIQ ? "several in BTF" : "unreadable BTF");
		scnprintf(got, sizeof(got), "the prototype of %s", func);
		skm_drift_mismatch(got, why, policies);
	}
}

typedef int skm_each_match_t(int (*fn)(void *, unsigned long), const char *name,
			     void *data);
DEFINE_STATIC_CALL_NULL(skm_kallsyms_each_match, skm_each_match_t);
static_assert(__same_type(&kallsyms_on_each_match_symbol, (skm_each_match_t *)NULL));

static int skm_count_symbol(void *data, unsigned long addr)
{
	(*(unsigned int *)data)++;
	return 0;
}

/* Each hooked name must be one symbol of vmlinux. */
static void skm_drift_check_unique(const struct skm_hook *hooks, unsigned int nr)
{
	unsigned long each = skm_ksym_lookup("kallsyms_on_each_match_symbol");
	char what[64], why[48];
	unsigned int i, count;

	if (each)
		static_call_update(skm_kallsyms_each_match, (skm_each_match_t *)each);
	for (i = 0; i < nr; i++) {
		if (!hooks[i].policies)
			continue;
		skm_drift_nr_checks++;
		count = 0;
		if (each)
			static_call(skm_kallsyms_each_match)(skm_count_symbol,
							     hooks[i].name, &count);
		if (skm_list_has(skm_test_drift, hooks[i].name))
			count++;
		if (count == 1)
			continue;
		if (each)
			scnprintf(why, sizeof(why), "kallsyms holds it %u times", count);
		else
			strscpy(why, "no kallsyms_on_each_match_symbol", sizeof(why));
		scnprintf(what, sizeof(what), "the name %s", hooks[i].name);
		skm_drift_mismatch(what, why, hooks[i].policies);
	}
}

/*
 * The kernel functions whose bodies policies copy, or whose insides they
 * rely on; 0 policies: those of the hook of that name.
 */
static const struct {
	const char *func;
	unsigned int policies;
} skm_body_claims[] = {
	/* exclusive's and throttle's copies; sock_limits' count */
	{ "__sk_mem_raise_allocated", 0 },
	{ "__sk_mem_reduce_allocated", 0 },
	{ "sk_forced_mem_schedule", 0 },
	/* where an accepted child's memcg is bound, under its lock_sock() */
	{ SKM_ACCEPT_SYM, SKM_POLICY_BIT(SKM_POLICY_EXCLUSIVE) },
	{ "mem_cgroup_sk_free", 0 },
#ifdef SKM_FAMILY_7_3
	{ "apply_proportional_protection", 0 },
#else
	/* MGLRU's batches; the classic LRU's scan, mem_cgroup_size's caller */
	{ "evict_folios", 0 },
	{ "shrink_lruvec", SKM_POLICY_BIT(SKM_POLICY_RECLAIM) },
#endif
};

/* What the last check of each body claim read, for the fingerprints file */
static struct skm_body_seen {
	struct skm_text_fp fp;
	int err;
	bool holds;
} skm_body_seen[ARRAY_SIZE(skm_body_claims)];

/* The policies each body claim refuses, the hook table's where not given */
static unsigned int skm_body_policies[ARRAY_SIZE(skm_body_claims)];

/* Is @fp of @func one recorded from a tested kernel? */
static bool skm_body_recorded(const char *func, const struct skm_text_fp *fp)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(skm_fp_expected); i++)
		if (skm_fp_expected[i].func &&
		    !strcmp(skm_fp_expected[i].func, func) &&
		    skm_fp_expected[i].size == fp->size &&
		    skm_fp_expected[i].hash == fp->hash)
			return true;
	return false;
}

/* Read body claim @i; true if it holds. */
static bool skm_body_check(unsigned int i, char *why, size_t len)
{
	const char *func = skm_body_claims[i].func;
	struct skm_body_seen *seen = &skm_body_seen[i];
	char perturbed[64];
	int tries;

	scnprintf(perturbed, sizeof(perturbed), "%s.body", func);
	/* A text poke under way can tear one read: a second settles it. */
	for (tries = 0; tries < 2; tries++) {
		seen->err = skm_text_fingerprint(func, &seen->fp, why, len);
		if (!seen->err && skm_list_has(skm_test_drift, perturbed))
			seen->fp.hash ^= 1;
		seen->holds = !seen->err && skm_body_recorded(func, &seen->fp);
		if (seen->holds || seen->err)
			break;
	}
	if (!seen->err && !seen->holds)
		scnprintf(why, len, "size %u fingerprint %016llx, recorded from no tested kernel",
			  seen->fp.size, seen->fp.hash);
	return seen->holds;
}

/* Check the body claims of @policies; refuse those that do not hold. */
static void skm_drift_check_bodies(unsigned int policies)
{
	char what[80], why[96];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(skm_body_claims); i++) {
		unsigned int p = skm_body_policies[i] & ~skm_drift_refused_mask &
				 ~skm_drift_allowed_mask;

		if (!(skm_body_policies[i] & policies))
			continue;
		skm_drift_nr_checks++;
		/* Read even for refused policies: the fingerprints file shows all. */
		if (skm_body_check(i, why, sizeof(why)) || !p)
			continue;
		scnprintf(what, sizeof(what), "the body of %s", skm_body_claims[i].func);
		skm_drift_mismatch(what, why, p);
	}
}

/**
 * skm_drift_recheck() - read the bodies again before policies go on
 * @policies: those about to be turned on
 *
 * Under the transitions' lock. A body the kernel's text no longer matches
 * (a livepatch, a kprobe inside it) refuses its policies from now on.
 *
 * Return: the policies refused, as skm_drift_refused().
 */
unsigned int skm_drift_recheck(unsigned int policies)
{
	skm_drift_check_bodies(policies);
	return skm_drift_refused();
}

/* The fingerprints debugfs file: "<function> <size> <fingerprint> <verdict>" */
void skm_drift_show_fingerprints(struct seq_file *m)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(skm_body_claims); i++) {
		const struct skm_body_seen *seen = &skm_body_seen[i];

		seq_printf(m, "%s %u %016llx %s\n", skm_body_claims[i].func,
			   seen->fp.size, seen->fp.hash,
			   seen->err ? "unreadable" : seen->holds ? "recorded" : "differs");
	}
}

/**
 * skm_drift_init() - check every claim against the running kernel
 * @hooks: the hook table, its policies assigned (skm_hooks_init())
 * @nr: its size
 *
 * Return: 0. A claim that does not hold, or cannot be checked, is no
 * error: its policies are refused (skm_drift_refused()).
 */
int skm_drift_init(const struct skm_hook *hooks, unsigned int nr)
{
	unsigned long start = skm_ksym_lookup("__start_BTF");
	unsigned long stop = skm_ksym_lookup("__stop_BTF");
	struct skm_btf btf, *view = NULL;
	u32 *index = NULL;
	unsigned int i;

	if (!start || stop <= start) {
		pr_err("drift guard: kernel %s has no __start_BTF/__stop_BTF in kallsyms\n",
		       init_utsname()->release);
	} else if (skm_btf_open((const void *)start, stop - start, &btf)) {
		pr_err("drift guard: kernel %s's BTF is not in a format this module reads\n",
		       init_utsname()->release);
	} else {
		index = kvmalloc_array(btf.nr_types, sizeof(*index), GFP_KERNEL);
		if (index && !skm_btf_index(&btf, index, btf.nr_types))
			view = &btf;
		else
			pr_err("drift guard: no memory to index kernel %s's BTF\n",
			       init_utsname()->release);
	}
	skm_drift_check_btf(view, hooks, nr);
	kvfree(index);
	skm_drift_check_unique(hooks, nr);
	for (i = 0; i < ARRAY_SIZE(skm_body_claims); i++)
		skm_body_policies[i] = skm_body_claims[i].policies ?:
			skm_hook_policies(hooks, nr, skm_body_claims[i].func);
	if (skm_text_scan_init())
		pr_err("drift guard: kernel %s has no insn_decode in kallsyms\n",
		       init_utsname()->release);
	skm_drift_check_bodies(SKM_POLICIES_ALL);
	if (!skm_drift_nr_mismatches)
		pr_info("drift guard: %u claims hold on %s %s\n", skm_drift_nr_checks,
			init_utsname()->release, init_utsname()->version);
	return 0;
}

/* The policies refused: they cannot be turned on. */
unsigned int skm_drift_refused(void)
{
	return READ_ONCE(skm_drift_refused_mask);
}

/**
 * skm_drift_report() - the knobs asked for refused policies
 * @policies: those refused
 * @context: how the line ends
 */
void skm_drift_report(unsigned int policies, const char *context)
{
	char names[64];

	skm_policies_str(policies, names, sizeof(names));
	pr_warn("drift guard: %s refused on kernel %s (see the drift guard's line at load); %s\n",
		names, init_utsname()->release, context);
}

void skm_drift_show_stats(struct seq_file *m)
{
	int p;

	seq_printf(m, "drift_checks %u\n", skm_drift_nr_checks);
	seq_printf(m, "drift_mismatches %u\n", skm_drift_nr_mismatches);
	for (p = 0; p < SKM_POLICY_NR; p++)
		seq_printf(m, "drift_refused_%s %d\n", skm_policy_table[p]->name,
			   !!(skm_drift_refused_mask & SKM_POLICY_BIT(p)));
	seq_printf(m, "drift_allowed_untested %d\n", !!skm_drift_allowed_mask);
}
