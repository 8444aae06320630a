// SPDX-License-Identifier: GPL-2.0
/*
 * A read-only view of raw BTF: see btf_view.h.
 *
 * The blob is a header, a type section and a string section. Types follow
 * one another, each a struct btf_type (12 bytes) and then data whose size
 * depends on its kind (members, parameters, enumerators...); type ids count
 * them from 1. Every offset read is bounded by the section it points into,
 * so a blob that is not what it claims yields -EINVAL, never a read past it.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>

#include <uapi/linux/btf.h>

#include "btf_view.h"

static u32 skm_btf_kind(const struct btf_type *t)
{
	return BTF_INFO_KIND(t->info);
}

static u32 skm_btf_vlen(const struct btf_type *t)
{
	return BTF_INFO_VLEN(t->info);
}

static bool skm_btf_kflag(const struct btf_type *t)
{
	return BTF_INFO_KFLAG(t->info);
}

/* The header up to the string section's length: what every version has. */
#define SKM_BTF_HDR_MIN	offsetofend(struct btf_header, str_len)

/* Nested qualifiers and pointers a type string follows, at most. */
#define SKM_BTF_DEPTH_MAX	8

/* The name at @off of the string section, or NULL if it is not one. */
static const char *skm_btf_str(const struct skm_btf *btf, u32 off)
{
	if (off >= btf->strs_len || !memchr(btf->strs + off, 0, btf->strs_len - off))
		return NULL;
	return btf->strs + off;
}

/* Bytes of kind-specific data after a struct btf_type, or -EINVAL. */
static int skm_btf_extra(const struct btf_type *t)
{
	u32 vlen = skm_btf_vlen(t);

	switch (skm_btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	default:
		return -EINVAL;
	}
}

/**
 * skm_btf_open() - validate a BTF blob's header and count its types
 * @data: the blob
 * @len: its bytes
 * @btf: filled on success, with no index yet
 *
 * Return: 0, or -EINVAL if it is not BTF this code reads.
 */
int skm_btf_open(const void *data, size_t len, struct skm_btf *btf)
{
	const struct btf_header *hdr = data;
	const u8 *base;
	u32 off = 0, nr = 0;
	int extra;

	memset(btf, 0, sizeof(*btf));
	/*
	 * Only the fields up to str_len are read: 7.x's header grew a layout
	 * section after them, which BTF made by an older pahole has not.
	 */
	if (len < SKM_BTF_HDR_MIN || hdr->magic != BTF_MAGIC ||
	    hdr->version != BTF_VERSION || hdr->hdr_len < SKM_BTF_HDR_MIN ||
	    hdr->hdr_len > len)
		return -EINVAL;
	base = (const u8 *)data + hdr->hdr_len;
	len -= hdr->hdr_len;
	if (hdr->type_off > len || hdr->type_len > len - hdr->type_off ||
	    hdr->str_off > len || hdr->str_len > len - hdr->str_off || !hdr->str_len)
		return -EINVAL;
	btf->types = base + hdr->type_off;
	btf->types_len = hdr->type_len;
	btf->strs = (const char *)base + hdr->str_off;
	btf->strs_len = hdr->str_len;
	while (off < btf->types_len) {
		const struct btf_type *t = (const void *)(btf->types + off);

		if (btf->types_len - off < sizeof(*t))
			return -EINVAL;
		extra = skm_btf_extra(t);
		if (extra < 0 || btf->types_len - off - sizeof(*t) < extra)
			return -EINVAL;
		off += sizeof(*t) + extra;
		nr++;
	}
	btf->nr_types = nr;
	return 0;
}

/**
 * skm_btf_index() - note where each type starts
 * @btf: an opened view
 * @index: room for @nr offsets
 * @nr: at least @btf->nr_types
 *
 * Return: 0, or -ENOSPC.
 */
int skm_btf_index(struct skm_btf *btf, u32 *index, u32 nr)
{
	u32 off = 0, id;

	if (nr < btf->nr_types)
		return -ENOSPC;
	for (id = 0; id < btf->nr_types; id++) {
		const struct btf_type *t = (const void *)(btf->types + off);

		index[id] = off;
		off += sizeof(*t) + skm_btf_extra(t);	/* checked by open */
	}
	btf->index = index;
	return 0;
}

/* Type @id, or NULL for void and ids out of range. */
static const struct btf_type *skm_btf_type(const struct skm_btf *btf, u32 id)
{
	if (!id || id > btf->nr_types)
		return NULL;
	return (const void *)(btf->types + btf->index[id - 1]);
}

/**
 * skm_btf_find() - the id of the type of @kind named @name
 * @btf: an indexed view
 * @name: the name
 * @kind: BTF_KIND_*
 *
 * Return: its id; 0 if there is none, U32_MAX if there are several.
 */
u32 skm_btf_find(const struct skm_btf *btf, const char *name, unsigned int kind)
{
	u32 id, found = 0;

	for (id = 1; id <= btf->nr_types; id++) {
		const struct btf_type *t = skm_btf_type(btf, id);
		const char *n;

		if (skm_btf_kind(t) != kind)
			continue;
		n = skm_btf_str(btf, t->name_off);
		if (!n || strcmp(n, name))
			continue;
		if (found)
			return U32_MAX;
		found = id;
	}
	return found;
}

/* Append to a string being built; false once it no longer fits. */
struct skm_btf_buf {
	char *buf;
	size_t size;
	size_t len;
};

static bool skm_btf_put(struct skm_btf_buf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len + n >= b->size)
		return false;
	memcpy(b->buf + b->len, s, n + 1);
	b->len += n;
	return true;
}

static bool skm_btf_put_type(const struct skm_btf *btf, u32 id,
			     struct skm_btf_buf *b, unsigned int depth)
{
	const struct btf_type *t = skm_btf_type(btf, id);
	const char *name;

	if (!id)
		return skm_btf_put(b, "void");
	if (!t || depth > SKM_BTF_DEPTH_MAX)
		return false;
	name = skm_btf_str(btf, t->name_off);
	if (!name)
		return false;
	switch (skm_btf_kind(t)) {
	case BTF_KIND_PTR:
		return skm_btf_put_type(btf, t->type, b, depth + 1) &&
		       skm_btf_put(b, " *");
	case BTF_KIND_CONST:
		return skm_btf_put(b, "const ") &&
		       skm_btf_put_type(btf, t->type, b, depth + 1);
	case BTF_KIND_VOLATILE:
		return skm_btf_put(b, "volatile ") &&
		       skm_btf_put_type(btf, t->type, b, depth + 1);
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return skm_btf_put_type(btf, t->type, b, depth + 1);
	case BTF_KIND_STRUCT:
		return skm_btf_put(b, "struct ") && skm_btf_put(b, name);
	case BTF_KIND_UNION:
		return skm_btf_put(b, "union ") && skm_btf_put(b, name);
	case BTF_KIND_FWD:
		return skm_btf_put(b, skm_btf_kflag(t) ? "union " : "struct ") &&
		       skm_btf_put(b, name);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return skm_btf_put(b, "enum ") && skm_btf_put(b, name);
	case BTF_KIND_FUNC_PROTO:
		return skm_btf_put(b, "fn");
	case BTF_KIND_ARRAY:
		return skm_btf_put_type(btf, ((const struct btf_array *)(t + 1))->type,
					b, depth + 1) && skm_btf_put(b, "[]");
	default:	/* INT, FLOAT, TYPEDEF: by name */
		return skm_btf_put(b, name);
	}
}

/**
 * skm_btf_type_str() - a type as C spells it, roughly: "struct lruvec *",
 * "const struct cgroup_subsys_state *", "bool *" (a typedef by its name)
 * @btf: an indexed view
 * @id: the type
 * @buf: where to
 * @size: its size
 *
 * Return: the length, or -EINVAL (no such type) or -ENOSPC.
 */
int skm_btf_type_str(const struct skm_btf *btf, u32 id, char *buf, size_t size)
{
	struct skm_btf_buf b = { buf, size, 0 };

	if (!size)
		return -ENOSPC;
	buf[0] = '\0';
	if (id > btf->nr_types)
		return -EINVAL;
	return skm_btf_put_type(btf, id, &b, 0) ? b.len : -ENOSPC;
}

/**
 * skm_btf_func_proto_str() - a function's prototype, without names:
 * "int (struct lruvec *, struct scan_control *, int)"
 * @btf: an indexed view
 * @func: the function's name
 * @buf: where to
 * @size: its size
 *
 * Return: the length; -ENOENT if BTF has no function of that name,
 * -ENOTUNIQ if it has several, -EINVAL or -ENOSPC.
 */
int skm_btf_func_proto_str(const struct skm_btf *btf, const char *func,
			   char *buf, size_t size)
{
	u32 id = skm_btf_find(btf, func, BTF_KIND_FUNC);
	struct skm_btf_buf b = { buf, size, 0 };
	const struct btf_param *p;
	const struct btf_type *t;
	u32 i;

	if (!size)
		return -ENOSPC;
	buf[0] = '\0';
	if (!id)
		return -ENOENT;
	if (id == U32_MAX)
		return -ENOTUNIQ;
	t = skm_btf_type(btf, skm_btf_type(btf, id)->type);
	if (!t || skm_btf_kind(t) != BTF_KIND_FUNC_PROTO)
		return -EINVAL;
	if (!skm_btf_put_type(btf, t->type, &b, 0) || !skm_btf_put(&b, " ("))
		return -ENOSPC;
	p = (const struct btf_param *)(t + 1);
	for (i = 0; i < skm_btf_vlen(t); i++) {
		if (i && !skm_btf_put(&b, ", "))
			return -ENOSPC;
		if (!p[i].type && i == skm_btf_vlen(t) - 1) {
			if (!skm_btf_put(&b, "..."))
				return -ENOSPC;
		} else if (!skm_btf_put_type(btf, p[i].type, &b, 0)) {
			return -ENOSPC;
		}
	}
	return skm_btf_put(&b, ")") ? b.len : -ENOSPC;
}

/*
 * Where member @m of @st is: bit offset and bitfield width (0 if not a
 * bitfield). Without kind_flag, a bitfield is an INT member narrower than
 * its type.
 */
static void skm_btf_member_pos(const struct skm_btf *btf,
			       const struct btf_type *st,
			       const struct btf_member *m, u32 *bit_off, u32 *bits)
{
	const struct btf_type *mt;
	u32 enc;

	if (skm_btf_kflag(st)) {
		*bit_off = BTF_MEMBER_BIT_OFFSET(m->offset);
		*bits = BTF_MEMBER_BITFIELD_SIZE(m->offset);
		return;
	}
	*bit_off = m->offset;
	*bits = 0;
	mt = skm_btf_type(btf, m->type);
	if (mt && skm_btf_kind(mt) == BTF_KIND_INT) {
		enc = *(const u32 *)(mt + 1);
		if (BTF_INT_BITS(enc) != mt->size * 8) {
			*bit_off += BTF_INT_OFFSET(enc);
			*bits = BTF_INT_BITS(enc);
		}
	}
}

/**
 * skm_btf_struct_size() - how many bytes struct @name has in @btf
 * @btf: an indexed view
 * @name: the structure's name
 *
 * Return: the size, or -ENOENT (no such structure) or -ENOTUNIQ (several).
 */
int skm_btf_struct_size(const struct skm_btf *btf, const char *name)
{
	u32 id = skm_btf_find(btf, name, BTF_KIND_STRUCT);

	if (!id)
		return -ENOENT;
	if (id == U32_MAX)
		return -ENOTUNIQ;
	return min_t(u32, skm_btf_type(btf, id)->size, INT_MAX);
}

/**
 * skm_btf_struct_check() - is struct @name laid out as @claim says?
 * @btf: an indexed view
 * @name: the structure's name
 * @claim: every member, in order, where the module's copy has it
 * @nr: how many
 * @why: what differs first, on a mismatch
 * @size: room in @why
 *
 * Return: 0 if every member has the claimed name, offset and width and
 * there are no others; -ENOENT (no such structure in BTF), -ENOTUNIQ
 * (several), or -EDOM (a mismatch, said in @why).
 */
int skm_btf_struct_check(const struct skm_btf *btf, const char *name,
			 const struct skm_btf_member_claim *claim,
			 unsigned int nr, char *why, size_t size)
{
	u32 id = skm_btf_find(btf, name, BTF_KIND_STRUCT), i, off, bits;
	const struct btf_member *m;
	const struct btf_type *st;
	const char *mname;

	if (size)
		why[0] = '\0';
	if (!id)
		return -ENOENT;
	if (id == U32_MAX)
		return -ENOTUNIQ;
	st = skm_btf_type(btf, id);
	m = (const struct btf_member *)(st + 1);
	for (i = 0; i < nr && i < skm_btf_vlen(st); i++) {
		mname = skm_btf_str(btf, m[i].name_off);
		skm_btf_member_pos(btf, st, &m[i], &off, &bits);
		if (!mname || strcmp(mname, claim[i].name)) {
			scnprintf(why, size, "member %u is %s, the copy has %s",
				  i, mname ?: "?", claim[i].name);
			return -EDOM;
		}
		if (off != claim[i].bit_off || bits != claim[i].bits) {
			scnprintf(why, size, "%s at bit %u width %u, the copy has bit %u width %u",
				  mname, off, bits, claim[i].bit_off, claim[i].bits);
			return -EDOM;
		}
	}
	if (skm_btf_vlen(st) != nr) {
		scnprintf(why, size, "%u members, the copy has %u",
			  skm_btf_vlen(st), nr);
		return -EDOM;
	}
	return 0;
}
