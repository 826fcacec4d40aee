/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Sleipnir: the self-test firmware file (firmware/README.md) and the job
 * the driver builds from it. Plain C over <linux/types.h>, so that
 * sleipnir.ko and the host tests (tests/firmware) read the same file with
 * the same checks and build byte for byte the same job, which the host test
 * compares with the hardware library's packers and runs on the GPU model.
 *
 * The file, little-endian, SLEIPNIR_FW_HEADER_BYTES of header then the code:
 *
 *   0x00 magic "SLFW"          0x04 u16 version major, 0x06 u16 minor
 *   0x08 header size (64)      0x0c file size
 *   0x10 CRC-32 of the file, this field read as zero
 *   0x14 kind (1: self-test)   0x18 code offset   0x1c code size
 *   0x20 work registers        0x24 work-group size   0x28 work-groups
 *   0x2c seed                  0x30 multiplier    0x34-0x3f zero
 *
 * The code is Midgard shader code as sleipnir-as writes it (16 zero bytes
 * at the end); the first bundle's tag is the low nibble of its first byte.
 * Run as work-groups x work-group size threads, thread i must write
 * i * multiplier + seed (mod 2^32) to word i of the output buffer, whose
 * address, the seed and the multiplier it finds in uniform buffer 0.
 */
#ifndef __SLEIPNIR_SELFTEST_FW_H__
#define __SLEIPNIR_SELFTEST_FW_H__

#include <linux/errno.h>
#include <linux/types.h>
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#else
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif
#endif

/* The file sleipnir.ko asks for, under /lib/firmware. */
#define SLEIPNIR_SELFTEST_FW_NAME	"sleipnir/midgard-selftest.bin"

#define SLEIPNIR_FW_MAGIC		0x57464c53u	/* "SLFW" */
#define SLEIPNIR_FW_VERSION_MAJOR	1
#define SLEIPNIR_FW_HEADER_BYTES	64
#define SLEIPNIR_FW_KIND_SELFTEST	1

/* Header field offsets. */
#define SLEIPNIR_FW_MAGIC_OFF		0x00
#define SLEIPNIR_FW_VERSION_OFF		0x04
#define SLEIPNIR_FW_HEADER_SIZE_OFF	0x08
#define SLEIPNIR_FW_FILE_SIZE_OFF	0x0c
#define SLEIPNIR_FW_CRC_OFF		0x10
#define SLEIPNIR_FW_KIND_OFF		0x14
#define SLEIPNIR_FW_CODE_OFFSET_OFF	0x18
#define SLEIPNIR_FW_CODE_SIZE_OFF	0x1c
#define SLEIPNIR_FW_WORK_REGS_OFF	0x20
#define SLEIPNIR_FW_GROUP_SIZE_OFF	0x24
#define SLEIPNIR_FW_GROUP_COUNT_OFF	0x28
#define SLEIPNIR_FW_SEED_OFF		0x2c
#define SLEIPNIR_FW_MULTIPLIER_OFF	0x30
#define SLEIPNIR_FW_RESERVED_OFF	0x34

/* Limits of a self-test: the GPU memory below holds at most these. */
#define SLEIPNIR_SELFTEST_MIN_CODE	32
#define SLEIPNIR_SELFTEST_MAX_CODE	0x1000
#define SLEIPNIR_SELFTEST_MAX_GROUP	256
#define SLEIPNIR_SELFTEST_MAX_THREADS	4096
#define SLEIPNIR_SELFTEST_MAX_WORK_REGS	16

/*
 * The self-test's GPU memory, offsets from its base address (64-byte
 * aligned descriptors, code on its own page, then the output words).
 */
#define SLEIPNIR_SELFTEST_JOB		0x000	/* compute job, 184 bytes */
#define SLEIPNIR_SELFTEST_RSD		0x100	/* renderer state, 64 */
#define SLEIPNIR_SELFTEST_LS		0x140	/* local storage, 32 */
#define SLEIPNIR_SELFTEST_UBO		0x180	/* one UBO descriptor, 8 */
#define SLEIPNIR_SELFTEST_UNIFORMS	0x1c0	/* UBO 0's 16 bytes */
#define SLEIPNIR_SELFTEST_CODE		0x1000
#define SLEIPNIR_SELFTEST_OUT		0x2000
#define SLEIPNIR_SELFTEST_BYTES		(SLEIPNIR_SELFTEST_OUT + \
					 4 * SLEIPNIR_SELFTEST_MAX_THREADS)

/**
 * struct sleipnir_selftest_fw - A self-test file that passed every check.
 */
struct sleipnir_selftest_fw {
	/** @version_major: format version, SLEIPNIR_FW_VERSION_MAJOR. */
	__u16 version_major;
	/** @version_minor: minor version; later minors only add meaning. */
	__u16 version_minor;
	/** @code: the shader code, inside the file's data. */
	const __u8 *code;
	/** @code_size: its bytes, a multiple of 16. */
	__u32 code_size;
	/** @first_tag: the first bundle's tag, for the renderer state. */
	__u32 first_tag;
	/** @work_regs: work registers the shader uses (1-16). */
	__u32 work_regs;
	/** @group_size: threads per work-group. */
	__u32 group_size;
	/** @group_count: work-groups. */
	__u32 group_count;
	/** @seed: the pattern's seed. */
	__u32 seed;
	/** @multiplier: the pattern's multiplier. */
	__u32 multiplier;
};

static inline __u32 sleipnir_fw_le32(const __u8 *p)
{
	return (__u32)p[0] | (__u32)p[1] << 8 | (__u32)p[2] << 16 |
	       (__u32)p[3] << 24;
}

static inline __u16 sleipnir_fw_le16(const __u8 *p)
{
	return (__u16)(p[0] | p[1] << 8);
}

/* CRC-32 (IEEE 802.3, as zlib's crc32()) of @n bytes, continuing @crc. */
static inline __u32 sleipnir_fw_crc32(__u32 crc, const __u8 *p, size_t n)
{
	unsigned int bit;

	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

/* The CRC a file of @size bytes must carry: its own field read as zero. */
static inline __u32 sleipnir_fw_file_crc(const __u8 *data, size_t size)
{
	static const __u8 zero[4];
	__u32 crc;

	crc = sleipnir_fw_crc32(0, data, SLEIPNIR_FW_CRC_OFF);
	crc = sleipnir_fw_crc32(crc, zero, sizeof(zero));
	return sleipnir_fw_crc32(crc, data + SLEIPNIR_FW_CRC_OFF + 4,
				 size - SLEIPNIR_FW_CRC_OFF - 4);
}

/* A bundle tag a shader may start with (midgard/README.md, tags). */
static inline bool sleipnir_fw_tag_valid(__u32 tag)
{
	return tag >= 2 && tag <= 15 && tag != 6 && tag != 7;
}

/* Says why a file is rejected, in @why; returns -EINVAL. */
static inline __printf(3, 4)
int sleipnir_fw_reject(char *why, size_t why_len, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(why, why_len, fmt, args);
	va_end(args);
	return -EINVAL;
}

/**
 * sleipnir_selftest_fw_parse() - Checks a self-test file field by field.
 * @data: the file's bytes.
 * @size: how many.
 * @fw: filled in when every check passes.
 * @why: where the reason for a rejection goes, one line without newline.
 * @why_len: its size.
 *
 * Size, magic and version first, then the checksum, so that a damaged file
 * is reported as such; then every field against its range and the code
 * against the file's bounds. Nothing of a rejected file reaches the GPU.
 *
 * Return: 0, or -EINVAL with @why set.
 */
static inline int sleipnir_selftest_fw_parse(const __u8 *data, size_t size,
					     struct sleipnir_selftest_fw *fw,
					     char *why, size_t why_len)
{
	__u32 header_size, file_size, crc, kind, code_off, code_size, i;
	__u32 threads;

	if (size < SLEIPNIR_FW_HEADER_BYTES)
		return sleipnir_fw_reject(why, why_len,
					  "file is %zu bytes, less than the %u-byte header",
					  size, SLEIPNIR_FW_HEADER_BYTES);
	if (sleipnir_fw_le32(data + SLEIPNIR_FW_MAGIC_OFF) != SLEIPNIR_FW_MAGIC)
		return sleipnir_fw_reject(why, why_len,
					  "bad magic 0x%08x, expected 0x%08x (\"SLFW\")",
					  sleipnir_fw_le32(data), SLEIPNIR_FW_MAGIC);
	fw->version_major = sleipnir_fw_le16(data + SLEIPNIR_FW_VERSION_OFF);
	fw->version_minor = sleipnir_fw_le16(data + SLEIPNIR_FW_VERSION_OFF + 2);
	if (fw->version_major != SLEIPNIR_FW_VERSION_MAJOR)
		return sleipnir_fw_reject(why, why_len,
					  "format version %u.%u, this driver reads %u.x",
					  fw->version_major, fw->version_minor,
					  SLEIPNIR_FW_VERSION_MAJOR);
	header_size = sleipnir_fw_le32(data + SLEIPNIR_FW_HEADER_SIZE_OFF);
	if (header_size != SLEIPNIR_FW_HEADER_BYTES)
		return sleipnir_fw_reject(why, why_len,
					  "header size %u, expected %u",
					  header_size, SLEIPNIR_FW_HEADER_BYTES);
	file_size = sleipnir_fw_le32(data + SLEIPNIR_FW_FILE_SIZE_OFF);
	if (file_size != size)
		return sleipnir_fw_reject(why, why_len,
					  "file is %zu bytes, its header says %u (truncated or extended)",
					  size, file_size);
	crc = sleipnir_fw_le32(data + SLEIPNIR_FW_CRC_OFF);
	if (crc != sleipnir_fw_file_crc(data, size))
		return sleipnir_fw_reject(why, why_len,
					  "checksum 0x%08x does not match the contents (0x%08x): the file is damaged",
					  crc, sleipnir_fw_file_crc(data, size));

	kind = sleipnir_fw_le32(data + SLEIPNIR_FW_KIND_OFF);
	if (kind != SLEIPNIR_FW_KIND_SELFTEST)
		return sleipnir_fw_reject(why, why_len,
					  "kind %u is not a self-test (%u)",
					  kind, SLEIPNIR_FW_KIND_SELFTEST);
	for (i = SLEIPNIR_FW_RESERVED_OFF; i < SLEIPNIR_FW_HEADER_BYTES; i++) {
		if (data[i])
			return sleipnir_fw_reject(why, why_len,
						  "reserved header byte 0x%02x is not zero",
						  i);
	}

	code_off = sleipnir_fw_le32(data + SLEIPNIR_FW_CODE_OFFSET_OFF);
	code_size = sleipnir_fw_le32(data + SLEIPNIR_FW_CODE_SIZE_OFF);
	if (code_off < header_size || code_off % 16)
		return sleipnir_fw_reject(why, why_len,
					  "code offset %u is inside the header or not 16-byte aligned",
					  code_off);
	if (code_size < SLEIPNIR_SELFTEST_MIN_CODE ||
	    code_size > SLEIPNIR_SELFTEST_MAX_CODE || code_size % 16)
		return sleipnir_fw_reject(why, why_len,
					  "code size %u is not a multiple of 16 in [%u, %u]",
					  code_size, SLEIPNIR_SELFTEST_MIN_CODE,
					  SLEIPNIR_SELFTEST_MAX_CODE);
	if (code_off > file_size || code_size > file_size - code_off)
		return sleipnir_fw_reject(why, why_len,
					  "code [%u, +%u) ends past the file's %u bytes",
					  code_off, code_size, file_size);
	fw->code = data + code_off;
	fw->code_size = code_size;
	fw->first_tag = fw->code[0] & 0xf;
	if (!sleipnir_fw_tag_valid(fw->first_tag))
		return sleipnir_fw_reject(why, why_len,
					  "the code starts with bundle tag %u, which no shader starts with",
					  fw->first_tag);
	/* The hardware prefetches past the end: the last 16 bytes are zero. */
	for (i = code_size - 16; i < code_size; i++) {
		if (fw->code[i])
			return sleipnir_fw_reject(why, why_len,
						  "the code does not end in 16 zero bytes");
	}

	fw->work_regs = sleipnir_fw_le32(data + SLEIPNIR_FW_WORK_REGS_OFF);
	if (fw->work_regs < 1 || fw->work_regs > SLEIPNIR_SELFTEST_MAX_WORK_REGS)
		return sleipnir_fw_reject(why, why_len,
					  "%u work registers, expected 1-%u",
					  fw->work_regs,
					  SLEIPNIR_SELFTEST_MAX_WORK_REGS);
	fw->group_size = sleipnir_fw_le32(data + SLEIPNIR_FW_GROUP_SIZE_OFF);
	fw->group_count = sleipnir_fw_le32(data + SLEIPNIR_FW_GROUP_COUNT_OFF);
	if (fw->group_size < 1 || fw->group_size > SLEIPNIR_SELFTEST_MAX_GROUP ||
	    fw->group_count < 1 ||
	    fw->group_count > SLEIPNIR_SELFTEST_MAX_THREADS)
		return sleipnir_fw_reject(why, why_len,
					  "work-group size %u or count %u out of range",
					  fw->group_size, fw->group_count);
	threads = fw->group_size * fw->group_count;
	if (threads > SLEIPNIR_SELFTEST_MAX_THREADS)
		return sleipnir_fw_reject(why, why_len,
					  "%u threads, at most %u", threads,
					  SLEIPNIR_SELFTEST_MAX_THREADS);
	fw->seed = sleipnir_fw_le32(data + SLEIPNIR_FW_SEED_OFF);
	fw->multiplier = sleipnir_fw_le32(data + SLEIPNIR_FW_MULTIPLIER_OFF);
	return 0;
}

static inline __u32 sleipnir_selftest_threads(const struct sleipnir_selftest_fw *fw)
{
	return fw->group_size * fw->group_count;
}

/* What thread @i must have written: the CPU's reference. */
static inline __u32 sleipnir_selftest_expected(const struct sleipnir_selftest_fw *fw,
					       __u32 i)
{
	return i * fw->multiplier + fw->seed;
}

/* ceil(log2(@v)): the bits that hold @v - 1. */
static inline unsigned int sleipnir_fw_log2_ceil(__u32 v)
{
	unsigned int n = 0;

	while (n < 32 && ((__u64)1 << n) < v)
		n++;
	return n;
}

/* Sets bits [@lsb, @lsb + @bits) of the little-endian bytes at @p. */
static inline void sleipnir_fw_set(__u8 *p, unsigned int lsb,
				   unsigned int bits, __u64 value)
{
	unsigned int i;

	for (i = 0; i < bits; i++) {
		unsigned int at = lsb + i;

		if (value >> i & 1)
			p[at / 8] |= (__u8)(1u << (at % 8));
		else
			p[at / 8] &= (__u8)~(1u << (at % 8));
	}
}

/**
 * sleipnir_selftest_build() - Lays out the self-test job in GPU memory.
 * @mem: SLEIPNIR_SELFTEST_BYTES of CPU view of the memory.
 * @va: the GPU address of @mem, 4 KiB aligned.
 * @fw: a file that passed sleipnir_selftest_fw_parse().
 *
 * One compute job (job header, invocation, parameters, draw: the layouts
 * of docs/hardware.md §4.1-§4.6) with its renderer state, local storage
 * without thread or work-group memory, UBO 0 holding the output address,
 * the seed and the multiplier, the code, and the output words, each set
 * to the complement of its expected value so that a word the GPU did not
 * write cannot pass. The job chain starts at @va + SLEIPNIR_SELFTEST_JOB.
 */
static inline void sleipnir_selftest_build(__u8 *mem, __u64 va,
					   const struct sleipnir_selftest_fw *fw)
{
	__u8 *job = mem + SLEIPNIR_SELFTEST_JOB;
	__u8 *inv = job + 0x20, *params = job + 0x28, *draw = job + 0x40;
	__u8 *rsd = mem + SLEIPNIR_SELFTEST_RSD;
	__u8 *uniforms = mem + SLEIPNIR_SELFTEST_UNIFORMS;
	__u64 out_va = va + SLEIPNIR_SELFTEST_OUT;
	unsigned int gx = sleipnir_fw_log2_ceil(fw->group_size);
	unsigned int gy = gx + sleipnir_fw_log2_ceil(fw->group_count);
	__u32 i;

	memset(mem, 0, SLEIPNIR_SELFTEST_OUT);

	/* Job header: 64-bit, COMPUTE (4), index 1, end of chain. */
	sleipnir_fw_set(job + 0x10, 0, 1, 1);
	sleipnir_fw_set(job + 0x10, 1, 7, 4);
	sleipnir_fw_set(job + 0x10, 16, 16, 1);

	/* Invocation: (size, 1, 1) x (count, 1, 1), each minus one. */
	sleipnir_fw_set(inv, 0, 32, (fw->group_size - 1) |
			(__u64)(fw->group_count - 1) << gx);
	sleipnir_fw_set(inv + 4, 0, 5, gx);	/* size Y shift */
	sleipnir_fw_set(inv + 4, 5, 5, gx);	/* size Z shift */
	sleipnir_fw_set(inv + 4, 10, 6, gx);	/* work-groups X shift */
	sleipnir_fw_set(inv + 4, 16, 6, gy);	/* work-groups Y shift */
	sleipnir_fw_set(inv + 4, 22, 6, gy);	/* work-groups Z shift */
	sleipnir_fw_set(inv + 4, 28, 4, gx & 0xf);	/* thread group split */
	/* Job task split: the bits of each local size plus one. */
	sleipnir_fw_set(params, 26, 4,
			(sleipnir_fw_log2_ceil(fw->group_size + 1) + 2) & 0xf);

	/* Draw: 4 components per vertex, 64-bit descriptors; pointers. */
	sleipnir_fw_set(draw, 0, 3, 7);
	sleipnir_fw_set(draw + 0x18, 0, 64, va + SLEIPNIR_SELFTEST_UBO);
	sleipnir_fw_set(draw + 0x38, 0, 64, va + SLEIPNIR_SELFTEST_RSD);
	sleipnir_fw_set(draw + 0x70, 0, 64, va + SLEIPNIR_SELFTEST_LS);

	/* Renderer state: code and first tag, 1 UBO, side effects, CL mode. */
	sleipnir_fw_set(rsd, 0, 64, (va + SLEIPNIR_SELFTEST_CODE) |
			fw->first_tag);
	sleipnir_fw_set(rsd + 0x10, 0, 8, 1);
	sleipnir_fw_set(rsd + 0x10, 13, 1, 1);
	sleipnir_fw_set(rsd + 0x10, 16, 5, fw->work_regs);
	sleipnir_fw_set(rsd + 0x10, 29, 3, 2);

	/* Local storage: no thread storage; "no work-group memory" (2^31). */
	sleipnir_fw_set(mem + SLEIPNIR_SELFTEST_LS + 4, 0, 5, 0x1f);

	/* UBO 0: one 16-byte entry (stored minus one), address >> 4. */
	sleipnir_fw_set(mem + SLEIPNIR_SELFTEST_UBO, 0, 12, 0);
	sleipnir_fw_set(mem + SLEIPNIR_SELFTEST_UBO, 12, 52,
			(va + SLEIPNIR_SELFTEST_UNIFORMS) >> 4);
	sleipnir_fw_set(uniforms, 0, 64, out_va);
	sleipnir_fw_set(uniforms + 8, 0, 32, fw->seed);
	sleipnir_fw_set(uniforms + 12, 0, 32, fw->multiplier);

	memcpy(mem + SLEIPNIR_SELFTEST_CODE, fw->code, fw->code_size);
	for (i = 0; i < SLEIPNIR_SELFTEST_MAX_THREADS; i++)
		sleipnir_fw_set(mem + SLEIPNIR_SELFTEST_OUT + 4 * i, 0, 32,
				~sleipnir_selftest_expected(fw, i));
}

/*
 * Compares the output with the CPU's reference: every thread's word, and
 * the word after the last, which must still hold what the build put there.
 * Return: the index of the first wrong word, with what it holds in @got
 * and should hold in @want, or -1 when all are right.
 */
static inline int sleipnir_selftest_check(const __u8 *mem,
					  const struct sleipnir_selftest_fw *fw,
					  __u32 *got, __u32 *want)
{
	__u32 threads = sleipnir_selftest_threads(fw), i;

	for (i = 0; i <= threads && i < SLEIPNIR_SELFTEST_MAX_THREADS; i++) {
		*got = sleipnir_fw_le32(mem + SLEIPNIR_SELFTEST_OUT + 4 * i);
		*want = sleipnir_selftest_expected(fw, i);
		if (i == threads)
			*want = ~*want;
		if (*got != *want)
			return (int)i;
	}
	return -1;
}

#endif /* __SLEIPNIR_SELFTEST_FW_H__ */
