/* SPDX-License-Identifier: MIT */
/*
 * The program binary: an ELF64 file written and read with elfutils' libelf
 * (layout in README.md, record formats in slb_format.h). The reader takes
 * untrusted bytes from clCreateProgramWithBinary, so the ELF header is
 * checked by hand before libelf sees it, and every section, string, count,
 * offset and size after.
 */
#include "slb_binary.h"

#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "midgard_isa.h"
#include "slb_format.h"
#include "slb_printf_section.h"

#ifndef SLEIPNIR_VERSION
#define SLEIPNIR_VERSION "0"
#endif

const char *slb_compiler_version(void)
{
	return "sleipnir-compiler " SLEIPNIR_VERSION " (binary format 3)";
}

static pthread_once_t libelf_once = PTHREAD_ONCE_INIT;
static bool libelf_ok;

static void libelf_init(void)
{
	libelf_ok = elf_version(EV_CURRENT) != EV_NONE;
}

static bool libelf_ready(void)
{
	pthread_once(&libelf_once, libelf_init);
	return libelf_ok;
}

/* ---- Growable little-endian buffers ------------------------------- */

struct buf {
	uint8_t *data;
	size_t size, cap;
	bool failed;
};

static void buf_put(struct buf *b, const void *p, size_t n)
{
	if (b->failed)
		return;
	if (b->size + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *d;

		while (cap < b->size + n)
			cap *= 2;
		d = realloc(b->data, cap);
		if (!d) {
			b->failed = true;
			return;
		}
		b->data = d;
		b->cap = cap;
	}
	if (n)
		memcpy(b->data + b->size, p, n);
	b->size += n;
}

static void buf_u32(struct buf *b, uint32_t v)
{
	uint8_t le[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			  (uint8_t)(v >> 24) };

	buf_put(b, le, sizeof(le));
}

static void buf_words(struct buf *b, const uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_u32(b, w[i]);
}

/*
 * Appends a NUL-terminated string (NULL: "") to a string table; returns its
 * offset. A table past 4 GiB cannot be addressed by the records' words.
 */
static uint32_t strtab_add(struct buf *b, const char *s)
{
	uint32_t off = (uint32_t)b->size;

	if (!s)
		s = "";
	if (b->size + strlen(s) + 1 > UINT32_MAX)
		b->failed = true;
	buf_put(b, s, strlen(s) + 1);
	return off;
}

/* ---- Writer ------------------------------------------------------- */

/* Returns the kernel name's string table offset, for its symbol too. */
static uint32_t put_kernel_record(struct buf *kb, struct buf *strtab,
				  const struct slb_kernel *k)
{
	const struct slb_stats *s = &k->stats;
	uint32_t w[SLB_KW_WORDS] = { 0 };

	w[SLB_KW_NAME] = strtab_add(strtab, k->name);
	w[SLB_KW_CODE_OFFSET] = k->code_offset;
	w[SLB_KW_CODE_SIZE] = k->code_size;
	w[SLB_KW_FIRST_TAG] = k->first_tag;
	w[SLB_KW_WORK_REGS] = k->work_regs;
	w[SLB_KW_THREADS_PER_CORE] = k->threads_per_core;
	w[SLB_KW_MAX_WG_SIZE] = k->max_wg_size;
	for (int i = 0; i < 3; i++) {
		w[SLB_KW_REQD_WG_SIZE + i] = k->reqd_wg_size[i];
		w[SLB_KW_SHORTEST_CYCLES + i] = s->shortest_cycles[i];
		w[SLB_KW_LONGEST_CYCLES + i] = s->longest_cycles[i];
	}
	w[SLB_KW_UNIFORM_BYTES] = k->uniform_bytes;
	w[SLB_KW_PUSH_VEC4] = k->push_vec4;
	w[SLB_KW_FLAGS] = (k->needs_ubo ? SLB_KF_NEEDS_UBO : 0) |
			  (k->barrier ? SLB_KF_BARRIER : 0);
	w[SLB_KW_PRIVATE_BYTES] = k->private_bytes;
	w[SLB_KW_LOCAL_STATIC_BYTES] = k->local_static_bytes;
	w[SLB_KW_NUM_ARGS] = k->num_args;
	w[SLB_KW_NUM_SYSVALS] = k->num_sysvals;
	w[SLB_KW_ALU_BUNDLES] = s->alu_bundles;
	w[SLB_KW_LDST_BUNDLES] = s->ldst_bundles;
	w[SLB_KW_TEX_BUNDLES] = s->tex_bundles;
	for (int i = 0; i < 5; i++)
		w[SLB_KW_UNIT_INSTRS + i] = s->unit_instrs[i];
	w[SLB_KW_LDST_INSTRS] = s->ldst_instrs;
	w[SLB_KW_BRANCH_INSTRS] = s->branch_instrs;
	w[SLB_KW_SPILLS] = s->spills;
	w[SLB_KW_FILLS] = s->fills;
	w[SLB_KW_STATS_FLAGS] =
		s->longest_unbounded ? SLB_SF_LONGEST_UNBOUNDED : 0;
	w[SLB_KW_ATTRIBUTES] = strtab_add(strtab, k->attributes);
	w[SLB_KW_NUM_CONST_SAMPLERS] = k->num_const_samplers;
	buf_words(kb, w, SLB_KW_WORDS);

	for (uint32_t i = 0; i < k->num_args; i++) {
		const struct slb_arg *a = &k->args[i];
		uint32_t aw[SLB_AW_WORDS];

		aw[SLB_AW_NAME] = strtab_add(strtab, a->name);
		aw[SLB_AW_TYPE_NAME] = strtab_add(strtab, a->type_name);
		aw[SLB_AW_KIND] = a->kind;
		aw[SLB_AW_ACCESS] = a->access;
		aw[SLB_AW_QUALIFIERS] = a->qualifiers;
		aw[SLB_AW_OFFSET] = a->offset;
		aw[SLB_AW_SIZE] = a->size;
		buf_words(kb, aw, SLB_AW_WORDS);
	}
	for (uint32_t i = 0; i < k->num_sysvals; i++) {
		buf_u32(kb, k->sysvals[i].sysval);
		buf_u32(kb, k->sysvals[i].offset);
	}
	for (uint32_t i = 0; i < k->num_const_samplers; i++) {
		buf_u32(kb, k->const_samplers[i].index);
		buf_u32(kb, k->const_samplers[i].value);
	}
	return w[SLB_KW_NAME];
}

/* One section: a name, a type, flags, alignment and its bytes. */
struct out_section {
	const char *name;
	uint32_t type;
	uint64_t flags, align, entsize;
	const void *data;
	size_t size;
	Elf_Type dtype;
};

enum out_index {
	OUT_TEXT, OUT_CONSTANT, OUT_KERNELS, OUT_BUILD, OUT_SYMTAB, OUT_STRTAB,
	OUT_SHSTRTAB,
	OUT_PRINTF,                  /* last: only there when printf is used */
	OUT_COUNT
};

/* Section indices in the file: the null section is 0. */
#define OUT_SHNDX(i) ((size_t)(i) + 1)

static bool add_section(Elf *e, const struct out_section *s, uint32_t name)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = scn ? elf_newdata(scn) : NULL;
	GElf_Shdr sh;

	if (!d)
		return false;
	d->d_buf = (void *)s->data;
	d->d_size = s->size;
	d->d_align = s->align;
	d->d_type = s->dtype;
	d->d_version = EV_CURRENT;
	if (!gelf_getshdr(scn, &sh))
		return false;
	sh.sh_name = name;
	sh.sh_type = s->type;
	sh.sh_flags = s->flags;
	sh.sh_addralign = s->align;
	sh.sh_entsize = s->entsize;
	if (s->type == SHT_SYMTAB) {
		/* Linked to its strings; symbol 0 is the only local one. */
		sh.sh_link = (uint32_t)OUT_SHNDX(OUT_STRTAB);
		sh.sh_info = 1;
	}
	return gelf_update_shdr(scn, &sh) != 0;
}

/*
 * libelf writes to a file descriptor; an anonymous memory file gives it
 * one without touching the file system.
 */
static bool elf_to_memory(struct out_section *sec, int count, uint8_t **out,
			  size_t *size)
{
	struct buf shstrtab = { 0 };
	uint32_t names[OUT_COUNT];
	bool ok = false;
	Elf *e = NULL;
	GElf_Ehdr eh;
	off_t len;
	int fd;

	strtab_add(&shstrtab, "");
	for (int i = 0; i < count; i++)
		names[i] = strtab_add(&shstrtab, sec[i].name);
	if (shstrtab.failed)
		goto out_buf;
	sec[OUT_SHSTRTAB].data = shstrtab.data;
	sec[OUT_SHSTRTAB].size = shstrtab.size;

	fd = memfd_create("slb", MFD_CLOEXEC);
	if (fd < 0)
		goto out_buf;
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e || !gelf_newehdr(e, ELFCLASS64) || !gelf_getehdr(e, &eh))
		goto out;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_REL;
	eh.e_machine = EM_NONE;
	eh.e_version = EV_CURRENT;
	eh.e_flags = SLB_ELF_FLAGS;
	eh.e_shstrndx = (uint16_t)OUT_SHNDX(OUT_SHSTRTAB);
	if (!gelf_update_ehdr(e, &eh))
		goto out;
	for (int i = 0; i < count; i++)
		if (!add_section(e, &sec[i], names[i]))
			goto out;
	if (elf_update(e, ELF_C_WRITE) < 0)
		goto out;
	len = lseek(fd, 0, SEEK_END);
	if (len <= 0)
		goto out;
	*out = malloc((size_t)len);
	if (!*out)
		goto out;
	if (pread(fd, *out, (size_t)len, 0) != len) {
		free(*out);
		*out = NULL;
		goto out;
	}
	*size = (size_t)len;
	ok = true;
out:
	if (e)
		elf_end(e);
	close(fd);
out_buf:
	free(shstrtab.data);
	return ok;
}

bool slb_write(const struct slb_program *p, uint8_t **out, size_t *size)
{
	struct buf kernels = { 0 }, build = { 0 }, strtab = { 0 };
	struct buf syms = { 0 };
	uint32_t header[SLB_KH_WORDS], bw[SLB_BW_WORDS];
	uint8_t *printf_table = NULL;
	size_t printf_size = 0;
	Elf64_Sym sym;
	bool ok = false;

	*out = NULL;
	*size = 0;
	if (!libelf_ready() || p->num_kernels > SLB_MAX_KERNELS)
		return false;
	strtab_add(&strtab, "");
	header[SLB_KH_VERSION] = SLB_KERNELS_VERSION;
	header[SLB_KH_NUM_KERNELS] = p->num_kernels;
	header[SLB_KH_KERNEL_BYTES] = SLB_KW_WORDS * 4;
	header[SLB_KH_ARG_BYTES] = SLB_AW_WORDS * 4;
	buf_words(&kernels, header, SLB_KH_WORDS);

	memset(&sym, 0, sizeof(sym));
	buf_put(&syms, &sym, sizeof(sym));
	for (uint32_t i = 0; i < p->num_kernels; i++) {
		const struct slb_kernel *k = &p->kernels[i];

		if (k->num_args > SLB_MAX_ARGS ||
		    k->num_sysvals > SLB_SYSVAL_COUNT ||
		    k->num_const_samplers > SLB_MAX_CONST_SAMPLERS)
			goto out;
		memset(&sym, 0, sizeof(sym));
		sym.st_name = put_kernel_record(&kernels, &strtab, k);
		sym.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
		sym.st_shndx = (uint16_t)OUT_SHNDX(OUT_TEXT);
		sym.st_value = k->code_offset;
		sym.st_size = k->code_size;
		buf_put(&syms, &sym, sizeof(sym));
	}
	bw[SLB_BW_VERSION] = SLB_BUILD_VERSION;
	bw[SLB_BW_COMPILER_VERSION] = strtab_add(&strtab, p->compiler_version);
	bw[SLB_BW_OPTIONS] = strtab_add(&strtab, p->build_options);
	bw[SLB_BW_RESERVED] = 0;
	buf_words(&build, bw, SLB_BW_WORDS);

	if (!slb_printf_section_write(p, &printf_table, &printf_size))
		goto out;
	if (!kernels.failed && !build.failed && !strtab.failed &&
	    !syms.failed) {
		struct out_section sec[OUT_COUNT] = {
			[OUT_TEXT] = { SLB_SECTION_TEXT, SHT_PROGBITS,
				       SHF_ALLOC | SHF_EXECINSTR,
				       SLB_TEXT_ALIGN, 0, p->code,
				       p->code_size, ELF_T_BYTE },
			[OUT_CONSTANT] = { SLB_SECTION_CONSTANT, SHT_PROGBITS,
					   SHF_ALLOC, SLB_CONSTANT_ALIGN, 0,
					   p->constant_data, p->constant_size,
					   ELF_T_BYTE },
			[OUT_KERNELS] = { SLB_SECTION_KERNELS, SHT_PROGBITS,
					  0, 4, 0, kernels.data, kernels.size,
					  ELF_T_BYTE },
			[OUT_BUILD] = { SLB_SECTION_BUILD, SHT_PROGBITS, 0, 4,
					0, build.data, build.size, ELF_T_BYTE },
			[OUT_SYMTAB] = { ".symtab", SHT_SYMTAB, 0, 8,
					 sizeof(Elf64_Sym), syms.data,
					 syms.size, ELF_T_SYM },
			[OUT_STRTAB] = { ".strtab", SHT_STRTAB, 0, 1, 0,
					 strtab.data, strtab.size, ELF_T_BYTE },
			[OUT_SHSTRTAB] = { ".shstrtab", SHT_STRTAB, 0, 1, 0,
					   NULL, 0, ELF_T_BYTE },
			[OUT_PRINTF] = { SLB_SECTION_PRINTF, SHT_PROGBITS, 0,
					 4, 0, printf_table, printf_size,
					 ELF_T_BYTE },
		};

		ok = elf_to_memory(sec, printf_table ? OUT_COUNT : OUT_PRINTF,
				   out, size);
	}
out:
	free(kernels.data);
	free(build.data);
	free(strtab.data);
	free(syms.data);
	free(printf_table);
	return ok;
}

/* ---- Reader ------------------------------------------------------- */

struct in_section {
	const uint8_t *data;
	size_t size;
	size_t index;                /* 0: not present */
	GElf_Shdr sh;
};

struct reader {
	char *err;
	size_t errsz;
	struct in_section text, constant, kernels, build, symtab, strtab;
	struct in_section printf_table; /* optional */
	struct slb_program *p;
};

__attribute__((format(printf, 2, 3)))
static bool fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->errsz) {
		va_start(ap, fmt);
		vsnprintf(r->err, r->errsz, fmt, ap);
		va_end(ap);
	}
	return false;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The NUL-terminated string of .strtab at off, in place, or NULL. */
static const char *peek_string(struct reader *r, uint32_t off,
			       const char *what)
{
	const uint8_t *s;

	if (off >= r->strtab.size) {
		fail(r, "%s: string offset %u outside .strtab (%zu bytes)",
		     what, off, r->strtab.size);
		return NULL;
	}
	s = r->strtab.data + off;
	if (!memchr(s, 0, r->strtab.size - off)) {
		fail(r, "%s: string at %u not terminated", what, off);
		return NULL;
	}
	return (const char *)s;
}

/*
 * A copy of the string at off into *out. No length limit but the string
 * table's: names are as long as the source made them.
 */
static bool get_string(struct reader *r, uint32_t off, char **out,
		       const char *what)
{
	const char *s = peek_string(r, off, what);

	if (!s)
		return false;
	*out = strdup(s);
	return *out ? true : fail(r, "out of memory");
}

static bool is_identifier(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
	      *s == '_'))
		return false;
	for (s++; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/*
 * The ELF header, by hand: libelf only sees files whose section header
 * table lies inside the bytes and that carry our marker.
 */
static bool check_ehdr(struct reader *r, const uint8_t *data, size_t size)
{
	Elf64_Ehdr eh;

	if (size < sizeof(eh))
		return fail(r, "truncated: %zu bytes, an ELF header needs %zu",
			    size, sizeof(eh));
	memcpy(&eh, data, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG))
		return fail(r, "not an ELF file");
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_ident[EI_VERSION] != EV_CURRENT ||
	    eh.e_ident[EI_OSABI] != ELFOSABI_NONE)
		return fail(r, "not a little-endian ELF64 System V file");
	if (eh.e_type != ET_REL || eh.e_machine != EM_NONE ||
	    eh.e_version != EV_CURRENT)
		return fail(r, "ELF type %u machine %u version %u: not a "
			    "Sleipnir program binary", eh.e_type, eh.e_machine,
			    eh.e_version);
	if (eh.e_flags != SLB_ELF_FLAGS)
		return fail(r, "e_flags 0x%08x: not a Sleipnir program binary "
			    "of format 0x%08x", eh.e_flags, SLB_ELF_FLAGS);
	if (eh.e_ehsize != sizeof(Elf64_Ehdr) || eh.e_phnum != 0 ||
	    eh.e_shentsize != sizeof(Elf64_Shdr))
		return fail(r, "unexpected ELF header sizes or program "
			    "headers");
	if (eh.e_shnum < 2 || eh.e_shnum > SLB_MAX_SECTIONS)
		return fail(r, "%u sections (at most %u)", eh.e_shnum,
			    SLB_MAX_SECTIONS);
	if (eh.e_shoff < sizeof(eh) || eh.e_shoff % 8 ||
	    eh.e_shoff > size ||
	    (size - eh.e_shoff) / sizeof(Elf64_Shdr) < eh.e_shnum)
		return fail(r, "section header table at %llu outside the file",
			    (unsigned long long)eh.e_shoff);
	if (eh.e_shstrndx == SHN_UNDEF || eh.e_shstrndx >= eh.e_shnum)
		return fail(r, "bad section name table index %u",
			    eh.e_shstrndx);
	return true;
}

static bool section_bytes(struct reader *r, Elf_Scn *scn, const GElf_Shdr *sh,
			  size_t file_size, const uint8_t **data, size_t *size)
{
	Elf_Data *d;

	if (sh->sh_type == SHT_NOBITS || sh->sh_offset > file_size ||
	    sh->sh_size > file_size - sh->sh_offset)
		return fail(r, "section %zu: bytes outside the file",
			    elf_ndxscn(scn));
	d = elf_getdata(scn, NULL);
	if (!sh->sh_size) {
		*data = NULL;
		*size = 0;
		return true;
	}
	if (!d || d->d_size != sh->sh_size || !d->d_buf)
		return fail(r, "section %zu: unreadable: %s", elf_ndxscn(scn),
			    elf_errmsg(-1));
	*data = d->d_buf;
	*size = d->d_size;
	return true;
}

struct section_rule {
	const char *name;
	uint32_t type;
	uint64_t flags, align;
	size_t offset;               /* of the in_section in struct reader */
	bool optional;
};

static const struct section_rule section_rules[] = {
	{ SLB_SECTION_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
	  SLB_TEXT_ALIGN, offsetof(struct reader, text), false },
	{ SLB_SECTION_CONSTANT, SHT_PROGBITS, SHF_ALLOC, SLB_CONSTANT_ALIGN,
	  offsetof(struct reader, constant), false },
	{ SLB_SECTION_KERNELS, SHT_PROGBITS, 0, 4,
	  offsetof(struct reader, kernels), false },
	{ SLB_SECTION_BUILD, SHT_PROGBITS, 0, 4,
	  offsetof(struct reader, build), false },
	{ ".symtab", SHT_SYMTAB, 0, 8, offsetof(struct reader, symtab), false },
	{ ".strtab", SHT_STRTAB, 0, 1, offsetof(struct reader, strtab), false },
	{ SLB_SECTION_PRINTF, SHT_PROGBITS, 0, 4,
	  offsetof(struct reader, printf_table), true },
};

/* Finds every section, checks its header, and keeps its bytes. */
static bool read_sections(struct reader *r, Elf *e, size_t file_size)
{
	size_t shnum, shstrndx, names_size;
	const uint8_t *names;
	bool seen_shstrtab = false;

	if (elf_getshdrnum(e, &shnum) || elf_getshdrstrndx(e, &shstrndx))
		return fail(r, "unreadable section headers: %s",
			    elf_errmsg(-1));
	{
		Elf_Scn *scn = elf_getscn(e, shstrndx);
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh) ||
		    sh.sh_type != SHT_STRTAB)
			return fail(r, "bad section name table");
		if (!section_bytes(r, scn, &sh, file_size, &names,
				   &names_size))
			return false;
		if (!names_size || names[names_size - 1])
			return fail(r, "section name table not terminated");
	}
	for (size_t i = 1; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(e, i);
		const struct section_rule *rule = NULL;
		struct in_section *s;
		const char *name;
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh))
			return fail(r, "section %zu: unreadable header", i);
		if (sh.sh_name >= names_size)
			return fail(r, "section %zu: name outside the name "
				    "table", i);
		name = (const char *)names + sh.sh_name;
		if (i == shstrndx) {
			if (strcmp(name, ".shstrtab") || seen_shstrtab)
				return fail(r, "section %zu: bad name table "
					    "name", i);
			seen_shstrtab = true;
			continue;
		}
		for (size_t j = 0; j < sizeof(section_rules) /
				       sizeof(section_rules[0]); j++)
			if (!strcmp(name, section_rules[j].name))
				rule = &section_rules[j];
		if (!rule)
			return fail(r, "section %zu: unexpected section '%.64s'",
				    i, name);
		s = (struct in_section *)((char *)r + rule->offset);
		if (s->index)
			return fail(r, "duplicate section %s", rule->name);
		if (sh.sh_type != rule->type || sh.sh_flags != rule->flags ||
		    sh.sh_addralign != rule->align)
			return fail(r, "section %s: unexpected type, flags or "
				    "alignment", rule->name);
		s->index = i;
		s->sh = sh;
		if (!section_bytes(r, scn, &sh, file_size, &s->data, &s->size))
			return false;
	}
	for (size_t j = 0; j < sizeof(section_rules) / sizeof(section_rules[0]);
	     j++)
		if (!section_rules[j].optional &&
		    !((struct in_section *)((char *)r +
					    section_rules[j].offset))->index)
			return fail(r, "missing section %s",
				    section_rules[j].name);
	if (!r->strtab.size || r->strtab.data[0] ||
	    r->strtab.data[r->strtab.size - 1])
		return fail(r, ".strtab: must start and end with NUL");
	if (r->text.size > SLB_MAX_CODE_BYTES)
		return fail(r, ".text: %zu bytes (at most %u)", r->text.size,
			    SLB_MAX_CODE_BYTES);
	if (r->constant.size > SLB_MAX_CONSTANT_BYTES)
		return fail(r, "%s: %zu bytes (at most %u)",
			    SLB_SECTION_CONSTANT, r->constant.size,
			    SLB_MAX_CONSTANT_BYTES);
	return true;
}

static bool read_build(struct reader *r)
{
	const uint8_t *b = r->build.data;

	if (r->build.size != SLB_BW_WORDS * 4)
		return fail(r, "%s: %zu bytes, expected %u", SLB_SECTION_BUILD,
			    r->build.size, SLB_BW_WORDS * 4);
	if (le32(b + 4 * SLB_BW_VERSION) != SLB_BUILD_VERSION ||
	    le32(b + 4 * SLB_BW_RESERVED))
		return fail(r, "%s: unknown version %u", SLB_SECTION_BUILD,
			    le32(b + 4 * SLB_BW_VERSION));
	return get_string(r, le32(b + 4 * SLB_BW_COMPILER_VERSION),
			  &r->p->compiler_version, "compiler version") &&
	       get_string(r, le32(b + 4 * SLB_BW_OPTIONS),
			  &r->p->build_options, "build options");
}

/* A cursor over .sleipnir.kernels. */
struct cursor {
	const uint8_t *p;
	size_t left;
};

static bool take_words(struct cursor *c, uint32_t *w, size_t n)
{
	if (c->left / 4 < n)
		return false;
	for (size_t i = 0; i < n; i++)
		w[i] = le32(c->p + 4 * i);
	c->p += 4 * n;
	c->left -= 4 * n;
	return true;
}

/* Threads a core holds at a work-register count (docs/hardware.md §5.6). */
static uint32_t threads_for_regs(uint32_t work_regs)
{
	return work_regs <= 4 ? 256 : work_regs <= 8 ? 128 : 64;
}

static bool read_args(struct reader *r, struct cursor *c, struct slb_kernel *k)
{
	/* Counted before anything is allocated for them. */
	if (c->left / (SLB_AW_WORDS * 4) < k->num_args)
		return fail(r, "kernel %s: %u arguments truncated", k->name,
			    k->num_args);
	k->args = calloc(k->num_args ? k->num_args : 1, sizeof(*k->args));
	if (!k->args)
		return fail(r, "out of memory");
	for (uint32_t i = 0; i < k->num_args; i++) {
		struct slb_arg *a = &k->args[i];
		uint32_t w[SLB_AW_WORDS];

		if (!take_words(c, w, SLB_AW_WORDS))
			return fail(r, "kernel %s: argument %u truncated",
				    k->name, i);
		if (!get_string(r, w[SLB_AW_NAME], &a->name, "argument name") ||
		    !get_string(r, w[SLB_AW_TYPE_NAME], &a->type_name,
				"argument type name"))
			return false;
		a->kind = w[SLB_AW_KIND];
		a->access = w[SLB_AW_ACCESS];
		a->qualifiers = w[SLB_AW_QUALIFIERS];
		a->offset = w[SLB_AW_OFFSET];
		a->size = w[SLB_AW_SIZE];
		if (a->kind > SLB_ARG_IMAGE || a->access > SLB_ACCESS_NONE ||
		    a->qualifiers & ~(SLB_QUAL_CONST | SLB_QUAL_RESTRICT |
				      SLB_QUAL_VOLATILE))
			return fail(r, "kernel %s: argument %u: bad kind, "
				    "access or qualifiers", k->name, i);
		if (!a->size ||
		    (uint64_t)a->offset + a->size > k->uniform_bytes)
			return fail(r, "kernel %s: argument %u: bytes %u+%u "
				    "outside the %u-byte argument image",
				    k->name, i, a->offset, a->size,
				    k->uniform_bytes);
		if (a->kind == SLB_ARG_IMAGE) {
			/* OpenCL 1.2 has read_only and write_only images. */
			if (a->size != SLB_IMAGE_ARG_BYTES || a->offset % 16 ||
			    (a->access != SLB_ACCESS_READ_ONLY &&
			     a->access != SLB_ACCESS_WRITE_ONLY))
				return fail(r, "kernel %s: argument %u: an "
					    "image takes %u 16-aligned bytes "
					    "and is read_only or write_only",
					    k->name, i, SLB_IMAGE_ARG_BYTES);
		} else if (a->kind != SLB_ARG_VALUE &&
			   (a->size != 4 || a->offset % 4)) {
			return fail(r, "kernel %s: argument %u: a pointer "
				    "takes 4 aligned bytes", k->name, i);
		}
	}
	return true;
}

static bool read_sysvals(struct reader *r, struct cursor *c,
			 struct slb_kernel *k)
{
	uint32_t seen = 0;

	for (uint32_t i = 0; i < k->num_sysvals; i++) {
		struct slb_sysval_slot *s = &k->sysvals[i];
		uint32_t w[SLB_SW_WORDS];

		if (!take_words(c, w, SLB_SW_WORDS))
			return fail(r, "kernel %s: sysval %u truncated",
				    k->name, i);
		s->sysval = w[SLB_SW_SYSVAL];
		s->offset = w[SLB_SW_OFFSET];
		if (s->sysval >= SLB_SYSVAL_COUNT || seen & 1u << s->sysval)
			return fail(r, "kernel %s: sysval %u: bad or repeated "
				    "id %u", k->name, i, s->sysval);
		seen |= 1u << s->sysval;
		if (s->offset % 4 || (uint64_t)s->offset + 4 > k->uniform_bytes)
			return fail(r, "kernel %s: sysval %u: offset %u outside "
				    "the argument image or unaligned", k->name,
				    i, s->offset);
	}
	return true;
}

/* Constant samplers come after the sampler arguments, in index order. */
static bool read_const_samplers(struct reader *r, struct cursor *c,
				struct slb_kernel *k)
{
	uint32_t first = 0;

	for (uint32_t i = 0; i < k->num_args; i++)
		first += k->args[i].kind == SLB_ARG_SAMPLER;
	for (uint32_t i = 0; i < k->num_const_samplers; i++) {
		struct slb_const_sampler *s = &k->const_samplers[i];
		uint32_t w[SLB_CW_WORDS];

		if (!take_words(c, w, SLB_CW_WORDS))
			return fail(r, "kernel %s: constant sampler %u "
				    "truncated", k->name, i);
		s->index = w[SLB_CW_INDEX];
		s->value = w[SLB_CW_VALUE];
		if (s->index != first + i || !slb_sampler_valid(s->value))
			return fail(r, "kernel %s: constant sampler %u: index "
				    "%u (not %u) or bad value 0x%x", k->name,
				    i, s->index, first + i, s->value);
	}
	return true;
}

static bool check_kernel(struct reader *r, const struct slb_kernel *k)
{
	uint64_t end = (uint64_t)k->code_offset + k->code_size;
	uint64_t reqd = (uint64_t)k->reqd_wg_size[0] * k->reqd_wg_size[1] *
			k->reqd_wg_size[2];
	const char *n = k->name;

	if (k->code_offset % SLB_TEXT_ALIGN || !k->code_size ||
	    k->code_size % MDG_QUADWORD || end > r->text.size)
		return fail(r, "kernel %s: code %u+%u outside .text (%zu bytes) "
			    "or misaligned", n, k->code_offset, k->code_size,
			    r->text.size);
	if (mdg_tag_kind(k->first_tag) == MDG_KIND_INVALID ||
	    (r->text.data[k->code_offset] & 0xF) != k->first_tag)
		return fail(r, "kernel %s: first tag %u invalid or not the "
			    "code's", n, k->first_tag);
	if (k->work_regs > 16 ||
	    k->threads_per_core != threads_for_regs(k->work_regs))
		return fail(r, "kernel %s: %u work registers, %u threads per "
			    "core: inconsistent", n, k->work_regs,
			    k->threads_per_core);
	/* Only a group meeting at barriers must fit on a core at once. */
	if (!k->max_wg_size || k->max_wg_size > SLB_MAX_WG_SIZE ||
	    (k->barrier && k->max_wg_size > k->threads_per_core))
		return fail(r, "kernel %s: max work-group size %u (1 to %u)",
			    n, k->max_wg_size,
			    k->barrier ? k->threads_per_core : SLB_MAX_WG_SIZE);
	if (reqd ? reqd > k->max_wg_size :
		   (k->reqd_wg_size[0] | k->reqd_wg_size[1] |
		    k->reqd_wg_size[2]) != 0)
		return fail(r, "kernel %s: required work-group size %ux%ux%u "
			    "invalid or above %u", n, k->reqd_wg_size[0],
			    k->reqd_wg_size[1], k->reqd_wg_size[2],
			    k->max_wg_size);
	if (k->uniform_bytes % 16 || k->uniform_bytes > SLB_MAX_UNIFORM_BYTES)
		return fail(r, "kernel %s: argument image of %u bytes", n,
			    k->uniform_bytes);
	if (k->push_vec4 > 16 || k->push_vec4 * 16 > k->uniform_bytes ||
	    k->work_regs + k->push_vec4 > 24)
		return fail(r, "kernel %s: %u pushed uniform rows do not fit",
			    n, k->push_vec4);
	if (k->private_bytes > SLB_MAX_STORAGE_BYTES ||
	    k->local_static_bytes > SLB_MAX_STORAGE_BYTES)
		return fail(r, "kernel %s: private or local storage too large",
			    n);
	return true;
}

static bool read_kernel(struct reader *r, struct cursor *c,
			struct slb_kernel *k, uint32_t index)
{
	uint32_t w[SLB_KW_WORDS];

	if (!take_words(c, w, SLB_KW_WORDS))
		return fail(r, "kernel record %u truncated", index);
	if (!get_string(r, w[SLB_KW_NAME], &k->name, "kernel name"))
		return false;
	if (!is_identifier(k->name))
		return fail(r, "kernel record %u: name is not an identifier",
			    index);
	if (!get_string(r, w[SLB_KW_ATTRIBUTES], &k->attributes,
			"kernel attributes"))
		return false;
	k->code_offset = w[SLB_KW_CODE_OFFSET];
	k->code_size = w[SLB_KW_CODE_SIZE];
	k->first_tag = w[SLB_KW_FIRST_TAG];
	k->work_regs = w[SLB_KW_WORK_REGS];
	k->threads_per_core = w[SLB_KW_THREADS_PER_CORE];
	k->max_wg_size = w[SLB_KW_MAX_WG_SIZE];
	for (int i = 0; i < 3; i++) {
		k->reqd_wg_size[i] = w[SLB_KW_REQD_WG_SIZE + i];
		k->stats.shortest_cycles[i] = w[SLB_KW_SHORTEST_CYCLES + i];
		k->stats.longest_cycles[i] = w[SLB_KW_LONGEST_CYCLES + i];
	}
	k->uniform_bytes = w[SLB_KW_UNIFORM_BYTES];
	k->push_vec4 = w[SLB_KW_PUSH_VEC4];
	if (w[SLB_KW_FLAGS] & ~(SLB_KF_NEEDS_UBO | SLB_KF_BARRIER) ||
	    w[SLB_KW_STATS_FLAGS] & ~SLB_SF_LONGEST_UNBOUNDED)
		return fail(r, "kernel %s: unknown flags", k->name);
	k->needs_ubo = w[SLB_KW_FLAGS] & SLB_KF_NEEDS_UBO;
	k->barrier = w[SLB_KW_FLAGS] & SLB_KF_BARRIER;
	k->private_bytes = w[SLB_KW_PRIVATE_BYTES];
	k->local_static_bytes = w[SLB_KW_LOCAL_STATIC_BYTES];
	k->num_args = w[SLB_KW_NUM_ARGS];
	k->num_sysvals = w[SLB_KW_NUM_SYSVALS];
	k->num_const_samplers = w[SLB_KW_NUM_CONST_SAMPLERS];
	k->stats.alu_bundles = w[SLB_KW_ALU_BUNDLES];
	k->stats.ldst_bundles = w[SLB_KW_LDST_BUNDLES];
	k->stats.tex_bundles = w[SLB_KW_TEX_BUNDLES];
	for (int i = 0; i < 5; i++)
		k->stats.unit_instrs[i] = w[SLB_KW_UNIT_INSTRS + i];
	k->stats.ldst_instrs = w[SLB_KW_LDST_INSTRS];
	k->stats.branch_instrs = w[SLB_KW_BRANCH_INSTRS];
	k->stats.spills = w[SLB_KW_SPILLS];
	k->stats.fills = w[SLB_KW_FILLS];
	k->stats.longest_unbounded =
		w[SLB_KW_STATS_FLAGS] & SLB_SF_LONGEST_UNBOUNDED;
	if (k->num_args > SLB_MAX_ARGS)
		return fail(r, "kernel %s: %u arguments (at most %u)", k->name,
			    k->num_args, SLB_MAX_ARGS);
	if (k->num_sysvals > SLB_SYSVAL_COUNT)
		return fail(r, "kernel %s: %u sysvals (at most %u)", k->name,
			    k->num_sysvals, SLB_SYSVAL_COUNT);
	if (k->num_const_samplers > SLB_MAX_CONST_SAMPLERS)
		return fail(r, "kernel %s: %u constant samplers (at most %u)",
			    k->name, k->num_const_samplers,
			    SLB_MAX_CONST_SAMPLERS);
	return check_kernel(r, k) && read_args(r, c, k) &&
	       read_sysvals(r, c, k) && read_const_samplers(r, c, k);
}

static bool read_kernels(struct reader *r)
{
	struct cursor c = { r->kernels.data, r->kernels.size };
	uint32_t h[SLB_KH_WORDS];
	struct slb_program *p = r->p;

	if (!take_words(&c, h, SLB_KH_WORDS))
		return fail(r, "%s: truncated header", SLB_SECTION_KERNELS);
	if (h[SLB_KH_VERSION] != SLB_KERNELS_VERSION ||
	    h[SLB_KH_KERNEL_BYTES] != SLB_KW_WORDS * 4 ||
	    h[SLB_KH_ARG_BYTES] != SLB_AW_WORDS * 4)
		return fail(r, "%s: unknown version %u or record sizes",
			    SLB_SECTION_KERNELS, h[SLB_KH_VERSION]);
	if (h[SLB_KH_NUM_KERNELS] > SLB_MAX_KERNELS ||
	    h[SLB_KH_NUM_KERNELS] > c.left / (SLB_KW_WORDS * 4))
		return fail(r, "%s: %u kernels do not fit", SLB_SECTION_KERNELS,
			    h[SLB_KH_NUM_KERNELS]);
	p->num_kernels = h[SLB_KH_NUM_KERNELS];
	p->kernels = calloc(p->num_kernels ? p->num_kernels : 1,
			    sizeof(*p->kernels));
	if (!p->kernels)
		return fail(r, "out of memory");
	for (uint32_t i = 0; i < p->num_kernels; i++) {
		if (!read_kernel(r, &c, &p->kernels[i], i))
			return false;
		for (uint32_t j = 0; j < i; j++)
			if (!strcmp(p->kernels[i].name, p->kernels[j].name))
				return fail(r, "duplicate kernel name %s",
					    p->kernels[i].name);
	}
	if (c.left)
		return fail(r, "%s: %zu trailing bytes", SLB_SECTION_KERNELS,
			    c.left);
	return true;
}

/* One global function symbol per kernel, in kernel order, agreeing with it. */
static bool read_symbols(struct reader *r, Elf *e)
{
	const struct slb_program *p = r->p;
	Elf_Data *d = elf_getdata(elf_getscn(e, r->symtab.index), NULL);
	const char *name;
	GElf_Sym sym;

	if (r->symtab.sh.sh_entsize != sizeof(Elf64_Sym) ||
	    r->symtab.size != (p->num_kernels + 1) * sizeof(Elf64_Sym) ||
	    r->symtab.sh.sh_link != r->strtab.index ||
	    r->symtab.sh.sh_info != 1 || !d)
		return fail(r, ".symtab: expected %u symbols linked to .strtab",
			    p->num_kernels + 1);
	for (uint32_t i = 0; i <= p->num_kernels; i++) {
		const struct slb_kernel *k = i ? &p->kernels[i - 1] : NULL;

		if (!gelf_getsym(d, (int)i, &sym))
			return fail(r, ".symtab: symbol %u unreadable", i);
		if (!k) {
			if (sym.st_name || sym.st_info || sym.st_shndx ||
			    sym.st_value || sym.st_size)
				return fail(r, ".symtab: symbol 0 not null");
			continue;
		}
		name = peek_string(r, (uint32_t)sym.st_name, "symbol name");
		if (!name)
			return false;
		if (strcmp(name, k->name) ||
		    sym.st_info != ELF64_ST_INFO(STB_GLOBAL, STT_FUNC) ||
		    sym.st_shndx != r->text.index ||
		    sym.st_value != k->code_offset ||
		    sym.st_size != k->code_size)
			return fail(r, ".symtab: symbol %u does not match "
				    "kernel %s", i, k->name);
	}
	return true;
}

static void *copy_bytes(const uint8_t *data, size_t size)
{
	uint8_t *c = malloc(size ? size : 1);

	if (c && size)
		memcpy(c, data, size);
	return c;
}

bool slb_read(const uint8_t *data, size_t size, struct slb_program *p,
	      char *err, size_t errsz)
{
	struct reader r = { .err = err, .errsz = errsz, .p = p };
	char *image = NULL;
	bool ok = false;
	Elf *e = NULL;

	memset(p, 0, sizeof(*p));
	if (errsz)
		err[0] = '\0';
	if (!libelf_ready())
		return fail(&r, "libelf unavailable");
	if (!check_ehdr(&r, data, size))
		return false;
	/* libelf wants writable memory; it gets a private copy. */
	image = copy_bytes(data, size);
	if (!image)
		return fail(&r, "out of memory");
	e = elf_memory(image, size);
	if (!e) {
		fail(&r, "not readable as ELF: %s", elf_errmsg(-1));
		goto out;
	}
	if (!read_sections(&r, e, size) || !read_build(&r) ||
	    !read_kernels(&r) || !read_symbols(&r, e))
		goto out;
	if (r.printf_table.index &&
	    !slb_printf_section_read(r.printf_table.data, r.printf_table.size,
				     p, err, errsz))
		goto out;
	p->code = copy_bytes(r.text.data, r.text.size);
	p->constant_data = copy_bytes(r.constant.data, r.constant.size);
	if (!p->code || !p->constant_data) {
		fail(&r, "out of memory");
		goto out;
	}
	p->code_size = (uint32_t)r.text.size;
	p->constant_size = (uint32_t)r.constant.size;
	ok = true;
out:
	if (e)
		elf_end(e);
	free(image);
	if (!ok)
		slb_program_free(p);
	return ok;
}

void slb_kernel_fini(struct slb_kernel *k)
{
	if (k->args) {
		for (uint32_t i = 0; i < k->num_args; i++) {
			free(k->args[i].name);
			free(k->args[i].type_name);
		}
	}
	free(k->args);
	free(k->name);
	free(k->attributes);
	memset(k, 0, sizeof(*k));
}

void slb_program_free(struct slb_program *p)
{
	if (p->kernels)
		for (uint32_t i = 0; i < p->num_kernels; i++)
			slb_kernel_fini(&p->kernels[i]);
	free(p->kernels);
	free(p->compiler_version);
	free(p->build_options);
	free(p->code);
	free(p->constant_data);
	slb_printf_free(p);
	memset(p, 0, sizeof(*p));
}

const struct slb_kernel *slb_find_kernel(const struct slb_program *p,
					 const char *name)
{
	for (uint32_t i = 0; i < p->num_kernels; i++)
		if (p->kernels[i].name && !strcmp(p->kernels[i].name, name))
			return &p->kernels[i];
	return NULL;
}
