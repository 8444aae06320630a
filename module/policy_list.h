/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policies, one line each, as include/linux/cgroup_subsys.h lists the
 * cgroup subsystems: SKM_POLICY(ID, name) is the policy whose
 * "const struct skm_policy skm_policy_<name>" its own file module/<name>.c
 * defines. policy.h makes of each line its id, SKM_POLICY_<ID>, and the
 * declaration; main.c its entry in the registry. The order is that of the
 * ids, of the "cgroups" columns and of "stats".
 *
 * No include guard: included once per use, with SKM_POLICY() defined.
 * pcpu_rsv hooks nothing and is not one of them.
 */
SKM_POLICY(THROTTLE, throttle)
SKM_POLICY(EXCLUSIVE, exclusive)
SKM_POLICY(RECLAIM, reclaim)
SKM_POLICY(LIMIT, limit)
