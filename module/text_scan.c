// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a function of the running kernel for its fingerprint: its size
 * from kallsyms, each instruction decoded by the kernel's own decoder
 * (insn_decode(), not exported: resolved through kallsyms and called
 * through a static call, a direct call that IBT lets through), each direct
 * call's target named by kallsyms. The hash itself is text_fp.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/insn.h>

#include "ksym.h"
#include "text_fp.h"
#include "text_scan.h"

typedef int skm_insn_decode_t(struct insn *insn, const void *kaddr, int buf_len,
			      enum insn_mode m);
DEFINE_STATIC_CALL_NULL(skm_insn_decode, skm_insn_decode_t);
/* The headers of the kernel built against declare it: the build checks. */
static_assert(__same_type(&insn_decode, (skm_insn_decode_t *)NULL));

static bool skm_text_scan_ready;

/* A function's size from kallsyms ("name+0x0/0x2a0"), 0 if @addr is not its start. */
static u32 skm_text_size(unsigned long addr, const char *name)
{
	char buf[KSYM_SYMBOL_LEN];
	size_t len = strlen(name);
	u32 size;
	char *slash;

	sprint_symbol(buf, addr);
	if (strncmp(buf, name, len) || strncmp(buf + len, "+0x0/", 5))
		return 0;
	slash = buf + len + 4;
	slash[strcspn(slash, " ")] = '\0';
	if (kstrtou32(slash + 1, 0, &size))
		return 0;
	return size;
}

/* The kallsyms name of a call's @target into @buf; "" outside the image. */
static const char *skm_text_callee(unsigned long target, char *buf)
{
	sprint_symbol_no_offset(buf, target);
	/* A module's symbol ("name [mod]"), or no symbol ("0xffff...") */
	if (strchr(buf, ' ') || !strncmp(buf, "0x", 2))
		buf[0] = '\0';
	return buf;
}

static void skm_text_fp_insn(const struct insn *insn, struct skm_fp_insn *fp)
{
	unsigned int i;

	memset(fp, 0, sizeof(*fp));
	for (i = 0; i < ARRAY_SIZE(fp->prefixes) && insn->prefixes.bytes[i]; i++)
		fp->prefixes[fp->nr_prefixes++] = insn->prefixes.bytes[i];
	fp->rex = insn->rex_prefix.nbytes ? insn->rex_prefix.bytes[0] : 0;
	fp->opcode_len = min_t(u8, insn->opcode.nbytes, ARRAY_SIZE(fp->opcode));
	memcpy(fp->opcode, insn->opcode.bytes, fp->opcode_len);
	fp->has_modrm = insn->modrm.nbytes;
	fp->modrm = insn->modrm.bytes[0];
	fp->has_sib = insn->sib.nbytes;
	fp->sib = insn->sib.bytes[0];
	fp->disp_bytes = insn->displacement.nbytes;
	fp->disp = insn->displacement.value;
	fp->imm_bytes = insn->immediate1.nbytes + insn->immediate2.nbytes;
	fp->imm = insn->immediate1.value;
	fp->callee = "";
}

/**
 * skm_text_scan_init() - find the kernel's instruction decoder
 *
 * Return: 0, or -ENOENT if kallsyms does not hold insn_decode (then every
 * fingerprint fails: skm_text_fingerprint() says so).
 */
int skm_text_scan_init(void)
{
	unsigned long decode = skm_ksym_lookup("insn_decode");

	if (!decode)
		return -ENOENT;
	static_call_update(skm_insn_decode, (skm_insn_decode_t *)decode);
	skm_text_scan_ready = true;
	return 0;
}

/**
 * skm_text_fingerprint() - the size and fingerprint of a kernel function
 * @name: its kallsyms name (a unique one: the drift guard checks)
 * @fp: the result
 * @why: what went wrong, on error
 * @why_len: room in @why
 *
 * Reads the function's text as it is now. The ftrace site is the first
 * instruction, or the second after an ENDBR64 (or its sealed form). A text
 * poke that lands during the read can make one read differ; the caller
 * may read again.
 *
 * Return: 0, or -ENOENT (no such function, or no decoder), -EINVAL (no
 * size, or an instruction the decoder refuses: @why says where).
 */
int skm_text_fingerprint(const char *name, struct skm_text_fp *fp,
			 char *why, size_t why_len)
{
	char callee[KSYM_SYMBOL_LEN];
	unsigned long start, addr, end, site;
	struct skm_fp_insn fi;
	struct insn insn;
	u64 hash = SKM_FP_HASH_INIT;

	if (!skm_text_scan_ready) {
		scnprintf(why, why_len, "no insn_decode in kallsyms to read it");
		return -ENOENT;
	}
	start = skm_ksym_lookup(name);
	if (!start) {
		scnprintf(why, why_len, "not in kallsyms");
		return -ENOENT;
	}
	fp->size = skm_text_size(start, name);
	if (!fp->size) {
		scnprintf(why, why_len, "no size in kallsyms");
		return -EINVAL;
	}
	end = start + fp->size;
	site = start;
	for (addr = start; addr < end; addr += insn.length) {
		int len = min_t(unsigned long, MAX_INSN_SIZE, end - addr);

		if (static_call(skm_insn_decode)(&insn, (void *)addr, len,
						 INSN_MODE_KERN) || !insn.length) {
			scnprintf(why, why_len, "undecodable at +0x%lx", addr - start);
			return -EINVAL;
		}
		skm_text_fp_insn(&insn, &fi);
		/* ENDBR64, or sealed (nopl 4 bytes): the site follows it */
		if (addr == start && insn.length == 4 && fi.opcode_len == 2 &&
		    fi.opcode[0] == 0x0f &&
		    (fi.opcode[1] == 0x1e || fi.opcode[1] == 0x1f))
			site = start + 4;
		fi.at_ftrace_site = addr == site && insn.length == 5;
		if (fi.opcode_len == 1 && fi.opcode[0] == 0xe8)
			fi.callee = skm_text_callee(addr + insn.length +
						    insn.immediate.value, callee);
		hash = skm_fp_mix(hash, &fi);
	}
	fp->hash = hash;
	return 0;
}
