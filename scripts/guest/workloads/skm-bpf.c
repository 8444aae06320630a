// SPDX-License-Identifier: GPL-2.0
/*
 * skm-bpf: a BPF fentry or fexit program on a kernel function, with no
 * libbpf: for the coexistence case (coexist_bpf).
 *
 *   skm-bpf FUNC fentry|fexit OUT
 *
 * Finds FUNC in the kernel's BTF (/sys/kernel/btf/vmlinux), loads a tracing
 * program that counts its calls in an array map, attaches it (a BPF
 * trampoline on FUNC: the kernel enters it through an ftrace direct call)
 * and writes "attached" to OUT; if the attach fails, writes "attach
 * <errno name>" to OUT and exits 3. On SIGUSR1 it writes "calls N" to OUT;
 * on SIGTERM it writes "calls N", detaches and exits 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t peek, done;
static const char *out;

static void die(const char *what)
{
	fprintf(stderr, "skm-bpf: %s: %s\n", what, strerror(errno));
	exit(2);
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* OUT holds @line, whole: a reader never sees half of it. */
static void put(const char *line)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	f = fopen(tmp, "w");
	if (!f)
		die(tmp);
	fprintf(f, "%s\n", line);
	if (fclose(f) || rename(tmp, out))
		die(out);
}

/* The BTF id of the function FUNC in the kernel's BTF, or 0. */
static uint32_t btf_func_id(const char *func)
{
	struct btf_header *h;
	const char *strs;
	uint8_t *p, *end;
	uint32_t id = 1;
	uint8_t *buf;
	ssize_t n;
	int fd;

	fd = open("/sys/kernel/btf/vmlinux", O_RDONLY);
	if (fd < 0)
		die("/sys/kernel/btf/vmlinux");
	/* read to the end: sysfs may say another size */
	buf = malloc(64 << 20);
	if (!buf)
		die("malloc");
	for (n = 0;;) {
		ssize_t r = read(fd, buf + n, (64 << 20) - n);

		if (r < 0)
			die("read btf");
		if (!r)
			break;
		n += r;
	}
	close(fd);
	h = (struct btf_header *)buf;
	if (h->magic != BTF_MAGIC)
		return 0;
	p = buf + h->hdr_len + h->type_off;
	end = p + h->type_len;
	strs = (const char *)buf + h->hdr_len + h->str_off;
	while (p < end) {
		struct btf_type *t = (struct btf_type *)p;
		unsigned int kind = BTF_INFO_KIND(t->info), vlen = BTF_INFO_VLEN(t->info);

		p += sizeof(*t);
		switch (kind) {
		case BTF_KIND_INT:
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
			p += 4;
			break;
		case BTF_KIND_ARRAY:
			p += sizeof(struct btf_array);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			p += vlen * sizeof(struct btf_member);
			break;
		case BTF_KIND_ENUM:
			p += vlen * sizeof(struct btf_enum);
			break;
		case BTF_KIND_FUNC_PROTO:
			p += vlen * sizeof(struct btf_param);
			break;
		case BTF_KIND_DATASEC:
			p += vlen * sizeof(struct btf_var_secinfo);
			break;
		case BTF_KIND_ENUM64:
			p += vlen * sizeof(struct btf_enum64);
			break;
		case BTF_KIND_FUNC:
			if (!strcmp(strs + t->name_off, func))
				return id;
			break;
		default:	/* PTR FWD TYPEDEF VOLATILE CONST RESTRICT FLOAT TYPE_TAG */
			break;
		}
		id++;
	}
	return 0;
}

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		peek = 1;
	else
		done = 1;
}

static unsigned long long map_count(int map_fd)
{
	unsigned long long v = 0;
	union bpf_attr a;
	uint32_t key = 0;

	memset(&a, 0, sizeof(a));
	a.map_fd = map_fd;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)&v;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a))
		die("map lookup");
	return v;
}

int main(int argc, char **argv)
{
	static char log[65536];
	struct bpf_insn prog[] = {
		/* *(u32 *)(fp - 4) = 0 */
		{ BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0 },
		/* r1 = the map (two instructions) */
		{ BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, 0 },
		{ 0, 0, 0, 0, 0 },
		/* r2 = fp - 4 */
		{ BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0 },
		{ BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4 },
		/* r0 = bpf_map_lookup_elem(r1, r2); if (!r0) goto out */
		{ BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem },
		{ BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 2, 0 },
		/* lock *(u64 *)r0 += 1 */
		{ BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1 },
		{ BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1, 0, BPF_ADD },
		/* out: return 0 */
		{ BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0 },
		{ BPF_JMP | BPF_EXIT, 0, 0, 0, 0 },
	};
	int map_fd, prog_fd, link_fd;
	uint32_t btf_id;
	union bpf_attr a;
	char line[64];
	int fexit;

	if (argc != 4 || (strcmp(argv[2], "fentry") && strcmp(argv[2], "fexit"))) {
		fprintf(stderr, "usage: skm-bpf FUNC fentry|fexit OUT\n");
		return 2;
	}
	fexit = !strcmp(argv[2], "fexit");
	out = argv[3];
	btf_id = btf_func_id(argv[1]);
	if (!btf_id) {
		fprintf(stderr, "skm-bpf: %s is not in the kernel's BTF\n", argv[1]);
		return 2;
	}

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = 8;
	a.max_entries = 1;
	map_fd = sys_bpf(BPF_MAP_CREATE, &a);
	if (map_fd < 0)
		die("map create");
	prog[1].imm = map_fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACING;
	a.expected_attach_type = fexit ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY;
	a.attach_btf_id = btf_id;
	a.insns = (uintptr_t)prog;
	a.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	prog_fd = sys_bpf(BPF_PROG_LOAD, &a);
	if (prog_fd < 0) {
		fprintf(stderr, "skm-bpf: verifier log:\n%s\n", log);
		die("prog load");
	}

	signal(SIGUSR1, on_signal);
	signal(SIGTERM, on_signal);
	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.prog_fd = prog_fd;
	link_fd = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &a);
	if (link_fd < 0) {
		snprintf(line, sizeof(line), "attach %s",
			 errno == EBUSY ? "EBUSY" : strerror(errno));
		put(line);
		return 3;
	}
	put("attached");
	while (!done) {
		pause();
		if (peek) {
			peek = 0;
			snprintf(line, sizeof(line), "calls %llu", map_count(map_fd));
			put(line);
		}
	}
	snprintf(line, sizeof(line), "calls %llu", map_count(map_fd));
	close(link_fd);
	put(line);
	return 0;
}
