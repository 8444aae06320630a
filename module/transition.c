// SPDX-License-Identifier: GPL-2.0
/*
 * The plan of one transition of the policies (transition.h).
 */
#include "transition.h"

/**
 * skm_transition_plan() - what one transition does
 * @in: where it starts from
 *
 * A refused policy is reported once, when it is newly asked for (not at
 * every later transition while it stays asked). A setter's transition
 * that would turn on nothing but refused policies fails and changes
 * nothing; any other goes on without them. Turning policies off needs no
 * wait of its own: a policy that stops redirecting costs nothing more. A
 * wait for the tasks still in a replacement is needed only before freeing
 * what they may use: a released policy's state, or every memcg's state
 * once nothing is on.
 *
 * Return: the steps.
 */
struct skm_transition skm_transition_plan(struct skm_transition_in in)
{
	struct skm_transition t = { };
	unsigned int newly = in.asked & ~in.asked_last, on, off;

	t.report = newly & in.refused;
	if (in.strict && t.report && !(newly & ~in.refused)) {
		t.refuse = true;
		t.want = in.live;
		return t;
	}
	t.want = in.asked & ~in.refused;
	on = t.want & ~in.live;
	off = in.live & ~t.want;
	t.resolve = on & in.listed;
	t.prepare = on;
	t.release = off & in.releasing;
	t.free_state = off && !t.want;
	t.quiesce = t.release || t.free_state;
	return t;
}
