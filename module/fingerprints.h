/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fingerprints (text_fp.c) of the kernel functions whose bodies
 * skmemcg's policies copy or rely on (drift.c, skm_body_claims), as read
 * from each kernel whose source of them the copies were checked against.
 * Written by scripts/fingerprints.sh (make fingerprints) from the
 * drift_guard case's logs; do not edit by hand.
 */
#ifndef _SKMEMCG_FINGERPRINTS_H
#define _SKMEMCG_FINGERPRINTS_H

struct skm_fp_expect {
	const char *func;
	u32 size;
	u64 hash;
};

static const struct skm_fp_expect skm_fp_expected[] = {
#if defined(SKM_FAMILY_6_1)
	/* read from: 6.1.0-47-amd64 6.1.0-57-amd64 */
	{ "__sk_mem_raise_allocated", 1072, 0x99f82ac2ab5203e2ULL },
	/* read from: 6.1.0-57-cloud-amd64 */
	{ "__sk_mem_raise_allocated", 1072, 0xb6e43ab8cdf15662ULL },
	/* read from: 6.1.0-47-amd64 6.1.0-57-amd64 6.1.0-57-cloud-amd64 */
	{ "__sk_mem_reduce_allocated", 176, 0x3e729d42fe4991a1ULL },
	/* read from: 6.1.0-57-amd64 6.1.0-57-cloud-amd64 */
	{ "evict_folios", 1392, 0x72888d2939d27730ULL },
	/* read from: 6.1.0-47-amd64 */
	{ "evict_folios", 1456, 0x52b12f7f217d0f63ULL },
	/* read from: 6.1.0-47-amd64 */
	{ "inet_csk_accept", 1056, 0x83561a03dc50e626ULL },
	/* read from: 6.1.0-57-amd64 6.1.0-57-cloud-amd64 */
	{ "inet_csk_accept", 1088, 0x6d6ea6c295b01f67ULL },
	/* read from: 6.1.0-47-amd64 6.1.0-57-amd64 6.1.0-57-cloud-amd64 */
	{ "mem_cgroup_sk_free", 96, 0x13ed997060ab7131ULL },
	/* read from: 6.1.0-47-amd64 */
	{ "shrink_lruvec", 4176, 0x5668fb5e8dc86aa8ULL },
	/* read from: 6.1.0-57-cloud-amd64 */
	{ "shrink_lruvec", 4288, 0x50686df466354bd4ULL },
	/* read from: 6.1.0-57-amd64 */
	{ "shrink_lruvec", 4288, 0xe4c9441ea667220cULL },
	/* read from: 6.1.0-47-amd64 6.1.0-57-amd64 6.1.0-57-cloud-amd64 */
	{ "sk_forced_mem_schedule", 192, 0x48e37f0217491227ULL },
#elif defined(SKM_FAMILY_6_12)
	/* read from: 6.12.95+deb12-amd64 */
	{ "__sk_mem_raise_allocated", 1024, 0x933ac017f1ae337aULL },
	/* read from: 6.12.118+deb12-amd64 6.12.118+deb12-cloud-amd64 */
	{ "__sk_mem_raise_allocated", 1056, 0xcc1f5c47270fe34aULL },
	/* read from: 6.12.118+deb12-amd64 6.12.118+deb12-cloud-amd64 6.12.95+deb12-amd64 */
	{ "__sk_mem_reduce_allocated", 208, 0x6304e10d0bbadf29ULL },
	/* read from: 6.12.118+deb12-amd64 6.12.118+deb12-cloud-amd64 */
	{ "evict_folios", 1552, 0xc0aa66b5e34996c1ULL },
	/* read from: 6.12.95+deb12-amd64 */
	{ "evict_folios", 1600, 0xc59793403b31b97aULL },
	/* read from: 6.12.95+deb12-amd64 */
	{ "inet_csk_accept", 1040, 0x9c806f45e046fd02ULL },
	/* read from: 6.12.118+deb12-amd64 6.12.118+deb12-cloud-amd64 */
	{ "inet_csk_accept", 1056, 0xdeaa04ddd2f6f012ULL },
	/* read from: 6.12.118+deb12-amd64 6.12.118+deb12-cloud-amd64 6.12.95+deb12-amd64 */
	{ "mem_cgroup_sk_free", 96, 0x7d04b73aa0b43226ULL },
	/* read from: 6.12.95+deb12-amd64 */
	{ "shrink_lruvec", 3664, 0xdb4e5c00bde874c7ULL },
	/* read from: 6.12.118+deb12-amd64 6.12.118+deb12-cloud-amd64 */
	{ "shrink_lruvec", 3760, 0xf793d13725b61e22ULL },
	/* read from: 6.12.118+deb12-amd64 6.12.118+deb12-cloud-amd64 6.12.95+deb12-amd64 */
	{ "sk_forced_mem_schedule", 208, 0xa68e8071bbf1633aULL },
#elif defined(SKM_FAMILY_7_3)
	/* read from: 7.3.4+deb13-amd64 */
	{ "__inet_accept", 368, 0x10a7b4d8ae90044bULL },
	/* read from: 7.3.4+deb13-amd64 */
	{ "__sk_mem_raise_allocated", 1104, 0x144e564ff2fbe338ULL },
	/* read from: 7.3.4+deb13-amd64 */
	{ "__sk_mem_reduce_allocated", 224, 0xf9a676300b972ab5ULL },
	/* read from: 7.3.4+deb13-amd64 */
	{ "apply_proportional_protection", 160, 0x18ac8aa0d18b254eULL },
	/* read from: 7.3.4+deb13-amd64 */
	{ "mem_cgroup_sk_free", 96, 0x13fe1c3f4abf5adeULL },
	/* read from: 7.3.4+deb13-amd64 */
	{ "sk_forced_mem_schedule", 224, 0xf698da3570fe0960ULL },
#endif
	{ NULL }
};

#endif /* _SKMEMCG_FINGERPRINTS_H */
