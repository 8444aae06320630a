/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A read-only view of raw BTF (the format of /sys/kernel/btf/vmlinux,
 * include/uapi/linux/btf.h): just enough to check a claim the module makes
 * about the kernel it runs in, the layout of a structure it replicates or
 * the prototype of a static function it hooks. Pure: the caller hands in
 * the blob and the memory for the index; nothing here allocates or keeps
 * state. Compiled into the module and into the KUnit suite.
 */
#ifndef _SKMEMCG_BTF_VIEW_H
#define _SKMEMCG_BTF_VIEW_H

#include <linux/types.h>

/**
 * struct skm_btf - a validated BTF blob
 * @types: its type section
 * @types_len: bytes
 * @strs: its string section
 * @strs_len: bytes
 * @nr_types: types in it, ids 1..@nr_types (0 is void)
 * @index: where each type starts in @types, by id - 1; filled by
 *	skm_btf_index(), NULL before
 */
struct skm_btf {
	const u8 *types;
	u32 types_len;
	const char *strs;
	u32 strs_len;
	u32 nr_types;
	const u32 *index;
};

/**
 * struct skm_btf_member_claim - where the module's copy has a member
 * @name: the member's name
 * @bit_off: its offset, in bits from the start of the structure
 * @bits: its width if it is a bitfield, else 0
 */
struct skm_btf_member_claim {
	const char *name;
	u32 bit_off;
	u32 bits;
};

int skm_btf_open(const void *data, size_t len, struct skm_btf *btf);
int skm_btf_index(struct skm_btf *btf, u32 *index, u32 nr);
u32 skm_btf_find(const struct skm_btf *btf, const char *name, unsigned int kind);
int skm_btf_type_str(const struct skm_btf *btf, u32 id, char *buf, size_t size);
int skm_btf_func_proto_str(const struct skm_btf *btf, const char *func,
			   char *buf, size_t size);
int skm_btf_struct_size(const struct skm_btf *btf, const char *name);
int skm_btf_struct_check(const struct skm_btf *btf, const char *name,
			 const struct skm_btf_member_claim *claim,
			 unsigned int nr, char *why, size_t size);

#endif /* _SKMEMCG_BTF_VIEW_H */
