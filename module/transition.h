/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one transition of the policies does, and in which order: a pure
 * function of masks of policies (SKM_POLICY_BIT()), so that the order is
 * written once and tested in KUnit; policies.c carries it out.
 */
#ifndef _SKMEMCG_TRANSITION_H
#define _SKMEMCG_TRANSITION_H

#include <linux/types.h>

/**
 * struct skm_transition_in - what a transition starts from
 * @live: the policies live now (their hooks all in)
 * @asked: the policies the knobs turn on now
 * @refused: those the drift guard refuses on this kernel
 * @asked_last: what the knobs asked at the last transition, refused or not
 * @listed: the policies with a cgroup list
 * @releasing: the policies that hold something to release once off
 * @strict: a setter's transition, which fails when all it would turn on is
 *	refused; at load, refused policies stay off and the load goes on
 */
struct skm_transition_in {
	unsigned int live;
	unsigned int asked;
	unsigned int refused;
	unsigned int asked_last;
	unsigned int listed;
	unsigned int releasing;
	bool strict;
};

/**
 * struct skm_transition - what to do, each step in this order
 * @report: newly asked policies the drift guard refuses: one log line
 * @refuse: fail the transition (-EOPNOTSUPP) and change nothing
 * @resolve: look every cgroup list up again before the hooks go live and
 *	after: a policy with a list comes on, whose hooks were not watching
 * @prepare: the policies coming on, told before their hooks go live
 * @want: the policies to be live afterwards: hook exactly these
 * @quiesce: wait until no task is in a replacement, for what follows
 * @release: the policies gone off that hold something: release it
 * @free_state: nothing stays on: free every memcg's state
 */
struct skm_transition {
	unsigned int report;
	bool refuse;
	bool resolve;
	unsigned int prepare;
	unsigned int want;
	bool quiesce;
	unsigned int release;
	bool free_state;
};

struct skm_transition skm_transition_plan(struct skm_transition_in in);

#endif /* _SKMEMCG_TRANSITION_H */
