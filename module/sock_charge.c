// SPDX-License-Identifier: GPL-2.0
/*
 * The memcg side of a socket's charge and uncharge, as the policies want
 * it: mem_cgroup_charge_skmem() and mem_cgroup_uncharge_skmem()
 * (mm/memcontrol.c; mem_cgroup_sk_charge() and mem_cgroup_sk_uncharge() on
 * 7.x). Throttling sets the charge's gfp (throttle.c), sock_limits counts
 * both (limit.c). The replacements of the two kernel functions are here,
 * and so are the same two steps for memcg-exclusive accounting
 * (exclusive.c), which charges from inside its own replacements in
 * sock_hooks.c: this file is what both build on, so neither includes the
 * other.
 */
#include <linux/static_call.h>

#include "hooks.h"
#include "limit.h"
#include "sock_charge.h"
#include "throttle.h"

SKM_DEFINE_ORIG(mem_cgroup_charge_skmem, skm_mem_cgroup_charge_skmem);

SKM_DEFINE_ORIG(mem_cgroup_uncharge_skmem, skm_mem_cgroup_uncharge_skmem);

#ifdef SKM_HAVE_MEM_CGROUP_SK_CHARGE
SKM_CHECK_PROTO(mem_cgroup_sk_charge, skm_mem_cgroup_charge_skmem);
SKM_CHECK_PROTO(mem_cgroup_sk_uncharge, skm_mem_cgroup_uncharge_skmem);
#else
SKM_CHECK_PROTO(mem_cgroup_charge_skmem, skm_mem_cgroup_charge_skmem);
SKM_CHECK_PROTO(mem_cgroup_uncharge_skmem, skm_mem_cgroup_uncharge_skmem);
#endif

/*
 * The memcg side of a charge and an uncharge as the policies want them:
 * throttling's gfp, then the kernel's function, then sock_limits' count.
 * With a frame (@f), the kernel's part is timed as a hook's original; the
 * exclusive paths call them without one from inside their own replacement.
 */
static __always_inline bool skm_charge(SKM_CHARGE_TARGET *target,
				       unsigned int nr_pages, gfp_t gfp_mask,
				       struct skm_hook_frame *f)
{
	bool ret;

	if (static_branch_unlikely(&skm_throttle_key))
		gfp_mask = skm_throttle_charge_gfp(gfp_mask);
	if (f)
		skm_hook_orig_in(f);
	ret = static_call(skm_orig_mem_cgroup_charge_skmem)(target, nr_pages, gfp_mask);
	if (f)
		skm_hook_orig_out(f);
	if (ret && skm_policy_live(SKM_POLICY_LIMIT))
		skm_limit_charged(skm_charge_memcg(target), nr_pages);
	return ret;
}

static __always_inline void skm_uncharge(SKM_CHARGE_TARGET *target,
					 unsigned int nr_pages,
					 struct skm_hook_frame *f)
{
	if (f)
		skm_hook_orig_in(f);
	static_call(skm_orig_mem_cgroup_uncharge_skmem)(target, nr_pages);
	if (f)
		skm_hook_orig_out(f);
	if (skm_policy_live(SKM_POLICY_LIMIT))
		skm_limit_uncharged(skm_charge_memcg(target), nr_pages);
}

static noinline bool notrace skm_charge_framed(SKM_CHARGE_TARGET *target,
					       unsigned int nr_pages, gfp_t gfp_mask)
{
	struct skm_hook_frame f;
	bool ret;

	skm_hook_enter(&f);
	if (gfpflags_allow_blocking(gfp_mask))
		skm_hook_may_sleep(&f);		/* reclaim */
	ret = skm_charge(target, nr_pages, gfp_mask, &f);
	skm_hook_exit(&f, SKM_HOOK_CHARGE);
	return ret;
}

/*
 * A charge that cannot fail (__GFP_NOFAIL: TCP's forced charges, which
 * try_charge_memcg() forces past the limit rather than fail) while
 * sock_limits counts: counted before the kernel's charge, which is a tail
 * call. Out of line, so that the count's registers are not saved on the
 * path of a charge nothing counts.
 */
static noinline bool notrace skm_charge_counted_nofail(SKM_CHARGE_TARGET *target,
						       unsigned int nr_pages,
						       gfp_t gfp_mask)
{
	skm_limit_charged(skm_charge_memcg(target), nr_pages);
	if (static_branch_unlikely(&skm_throttle_key))
		gfp_mask = skm_throttle_charge_gfp(gfp_mask);
	return static_call(skm_orig_mem_cgroup_charge_skmem)(target, nr_pages,
							     gfp_mask);
}

/*
 * mem_cgroup_charge_skmem() on 6.x, mem_cgroup_sk_charge() on 7.x. With
 * nothing to count after, the kernel's charge as a tail call, its gfp made
 * by throttling: sock_limits off, or a charge that cannot fail, which
 * sock_limits counts before it, in the common case calling nothing
 * (skm_limit_charged_quick()), so that this function keeps no frame; else
 * in skm_charge_counted_nofail(). Only a charge that may fail is counted
 * after, in a frame, with the SRCU read side across its reclaim.
 */
bool notrace skm_mem_cgroup_charge_skmem(SKM_CHARGE_TARGET *target,
					 unsigned int nr_pages, gfp_t gfp_mask)
{
	if (unlikely(!skm_hook_untimed()))
		return skm_charge_framed(target, nr_pages, gfp_mask);
	if (skm_policy_live(SKM_POLICY_LIMIT)) {
		if (!(gfp_mask & __GFP_NOFAIL))
			return skm_charge_framed(target, nr_pages, gfp_mask);
		if (unlikely(!skm_limit_charged_quick(skm_charge_memcg(target),
						      nr_pages)))
			return skm_charge_counted_nofail(target, nr_pages, gfp_mask);
	}
	if (static_branch_unlikely(&skm_throttle_key))
		gfp_mask = skm_throttle_charge_gfp(gfp_mask);
	return static_call(skm_orig_mem_cgroup_charge_skmem)(target, nr_pages,
							     gfp_mask);
}

static noinline void notrace skm_uncharge_framed(SKM_CHARGE_TARGET *target,
						 unsigned int nr_pages)
{
	struct skm_hook_frame f;

	skm_hook_enter(&f);
	skm_uncharge(target, nr_pages, &f);
	skm_hook_exit(&f, SKM_HOOK_UNCHARGE);
}

/*
 * An uncharge sock_limits counts where its quick count did not
 * (skm_limit_uncharged_quick()): counted, then the kernel's uncharge as a
 * tail call. Out of line, so that its callers keep no frame.
 */
static noinline void notrace skm_uncharge_counted(SKM_CHARGE_TARGET *target,
						  unsigned int nr_pages)
{
	skm_limit_uncharged(skm_charge_memcg(target), nr_pages);
	static_call(skm_orig_mem_cgroup_uncharge_skmem)(target, nr_pages);
}

/*
 * mem_cgroup_uncharge_skmem() on 6.x, mem_cgroup_sk_uncharge() on 7.x:
 * hooked for sock_limits' count, taken before the kernel's uncharge (which
 * cannot fail), so that the kernel's is a tail call; in the common case
 * calling nothing before it, so that this function keeps no frame.
 */
void notrace skm_mem_cgroup_uncharge_skmem(SKM_CHARGE_TARGET *target,
					   unsigned int nr_pages)
{
	if (unlikely(!skm_hook_untimed())) {
		skm_uncharge_framed(target, nr_pages);
		return;
	}
	if (skm_policy_live(SKM_POLICY_LIMIT) &&
	    unlikely(!skm_limit_uncharged_quick(skm_charge_memcg(target), nr_pages))) {
		skm_uncharge_counted(target, nr_pages);
		return;
	}
	static_call(skm_orig_mem_cgroup_uncharge_skmem)(target, nr_pages);
}

/*
 * Called by memcg-exclusive accounting from inside the raise, reduce and
 * forced-schedule replacements: their frame holds the SRCU read side, so
 * the charge needs no second one.
 */
bool notrace skm_sock_charge(struct sock *sk, unsigned int nr_pages, gfp_t gfp_mask)
{
	return skm_charge(skm_charge_target(sk), nr_pages, gfp_mask, NULL);
}

/*
 * An exclusive socket's forced charge, as the kernel's sk_forced_mem_schedule()
 * makes it (__GFP_NOFAIL), which cannot fail: sock_limits counts it before,
 * as skm_mem_cgroup_charge_skmem() counts a forced charge, so that the
 * kernel's charge is a tail call, called as one
 * (skm_sk_forced_mem_schedule()), with no frame or read side across its
 * reclaim.
 */
void notrace skm_sock_charge_nofail(struct sock *sk, unsigned int nr_pages)
{
	SKM_CHARGE_TARGET *target = skm_charge_target(sk);
	gfp_t gfp_mask = gfp_memcg_charge() | __GFP_NOFAIL;

	/* one gfp: not one made on each side of the branch */
	OPTIMIZER_HIDE_VAR(gfp_mask);
	if (skm_policy_live(SKM_POLICY_LIMIT) &&
	    unlikely(!skm_limit_charged_quick(skm_charge_memcg(target), nr_pages))) {
		skm_charge_counted_nofail(target, nr_pages, gfp_mask);
		return;
	}
	if (static_branch_unlikely(&skm_throttle_key))
		gfp_mask = skm_throttle_charge_gfp(gfp_mask);
	static_call(skm_orig_mem_cgroup_charge_skmem)(target, nr_pages, gfp_mask);
}

/*
 * Counted before the kernel's uncharge, which cannot fail, so that the
 * kernel's is a tail call, as skm_mem_cgroup_uncharge_skmem() makes it,
 * with no frame.
 */
void notrace skm_sock_uncharge(struct sock *sk, unsigned int nr_pages)
{
	SKM_CHARGE_TARGET *target = skm_charge_target(sk);

	if (skm_policy_live(SKM_POLICY_LIMIT) &&
	    unlikely(!skm_limit_uncharged_quick(skm_charge_memcg(target), nr_pages))) {
		skm_uncharge_counted(target, nr_pages);
		return;
	}
	static_call(skm_orig_mem_cgroup_uncharge_skmem)(target, nr_pages);
}
