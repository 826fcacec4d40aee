/* SPDX-License-Identifier: MIT */
/*
 * Kernel launches for Midgard: turns a compiled kernel (compiler/binary's
 * struct slb_kernel), the argument values a caller set and an NDRange into
 * the bytes the GPU reads: the argument image with its sysvals, and one
 * compute job with its renderer state, local storage descriptor, UBO table
 * and push uniforms, packed with midgard/midgard_desc.h.
 *
 * It is the one implementation of the launch ABI of slb_binary.h: the
 * OpenCL runtime, the host tests that run kernels on the model core and the
 * guest tests all launch through it. Pure C: no I/O, no allocation, no
 * printing; errors are returned as enum sl_launch_status (see
 * sl_launch_strerror()).
 *
 * Two steps, so that a runtime can allocate memory in between:
 *
 *   sl_launch_plan()  checks the arguments and the NDRange against the
 *                     kernel, and says how much memory the launch needs:
 *                     the descriptor block, thread-local storage (TLS) and
 *                     work-group-local storage (WLS);
 *   sl_launch_emit()  writes the descriptor block (argument image
 *                     included) into a CPU buffer the GPU sees at a given
 *                     address, as one job of a chain.
 *
 * sl_desc_pack() is the lower layer: a compute job from raw fields (shader
 * address, push uniforms, UBOs, storage), for hand-written shaders.
 *
 * The descriptor block (SL_DESC_* offsets, from its start):
 *
 *   0x000  compute job (184 bytes)      64-byte aligned (job header rule)
 *   0x0c0  renderer state (64 bytes)    64-byte aligned
 *   0x100  local storage (32 bytes)     64-byte aligned
 *   0x140  UBO table (8 bytes a UBO, up to SL_DESC_MAX_UBOS)
 *   0x180  push uniforms / argument image, 16-byte aligned
 *   then   image tables, when the kernel has image or sampler
 *          arguments (struct sl_launch_plan), 64-byte aligned
 *
 * Its GPU address must be 64-byte aligned and its size is rounded up to 64
 * bytes (sl_desc_size()), so blocks laid end to end in one command buffer
 * stay aligned. The GPU writes the job header back (status) and only reads
 * the rest; the block must not be reused until the job has finished. The
 * argument image doubles as the push uniforms (its first push_vec4 rows)
 * and as uniform buffer 0 when the kernel needs it, so it is written once.
 *
 * Chaining: each block is one job with an index (1..65535, unique in the
 * chain), up to two dependencies (indices of jobs earlier in the chain, 0
 * for none) and the GPU address of the next job header (0 ends the chain).
 * The chain is submitted by the address of its first block's job
 * (sl_launch_job_va()); sl_desc_link() sets the next pointer of a block
 * already written, for a queue that appends.
 */
#ifndef SLEIPNIR_SL_LAUNCH_H
#define SLEIPNIR_SL_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "slb_binary.h"

#define SL_DESC_JOB 0x000u
#define SL_DESC_RSD 0x0c0u
#define SL_DESC_LOCAL_STORAGE 0x100u
#define SL_DESC_UBO_TABLE 0x140u
#define SL_DESC_PUSH 0x180u
#define SL_DESC_MAX_UBOS 8u
/* The RSD's uniform count is 5 bits wide. */
#define SL_DESC_MAX_PUSH_VEC4 31u
#define SL_DESC_ALIGN 64u

/* Shader code may not cross or end on a 16 MiB boundary (24-bit PC). */
#define SL_CODE_REGION (16u << 20)

enum sl_launch_status {
	SL_LAUNCH_OK = 0,
	/* A NULL pointer or a kernel whose metadata breaks the ABI. */
	SL_LAUNCH_E_INVALID = -1,
	/* Not as many arguments as the kernel has. */
	SL_LAUNCH_E_ARG_COUNT = -2,
	/* An argument was never set (SL_ARG_UNSET). */
	SL_LAUNCH_E_ARG_UNSET = -3,
	/* Buffer for a by-value argument, value for a pointer, ... */
	SL_LAUNCH_E_ARG_KIND = -4,
	/* By-value bytes of the wrong size, or a __local size of 0. */
	SL_LAUNCH_E_ARG_SIZE = -5,
	/* A GPU address the ABI cannot carry (pointers are 32-bit). */
	SL_LAUNCH_E_ADDRESS = -6,
	/* work_dim not 1, 2 or 3. */
	SL_LAUNCH_E_WORK_DIM = -7,
	/* A global size of 0. */
	SL_LAUNCH_E_GLOBAL_SIZE = -8,
	/* Local size 0, above the kernel's limit or not its reqd size. */
	SL_LAUNCH_E_LOCAL_SIZE = -9,
	/* A global size that is not a multiple of the local size. */
	SL_LAUNCH_E_NOT_DIVISIBLE = -10,
	/* Global offset + size beyond 32 bits. */
	SL_LAUNCH_E_OFFSET = -11,
	/* Sizes that do not fit the descriptors' fields. */
	SL_LAUNCH_E_TOO_BIG = -12,
	/* A block or code address that breaks an alignment rule. */
	SL_LAUNCH_E_ALIGN = -13,
	/* The caller's buffer is smaller than the block. */
	SL_LAUNCH_E_SPACE = -14,
	/* Job index 0 or above 65535, or a dependency not before it. */
	SL_LAUNCH_E_JOB_INDEX = -15,
	/* Work-group memory (the kernel's __local variables and __local
	 * arguments) beyond what the descriptor can give. */
	SL_LAUNCH_E_LOCAL_MEMORY = -16,
	/* An image argument whose format or pitches are not valid, or a
	 * sampler whose CLK_* value is not. */
	SL_LAUNCH_E_ARG_VALUE = -17,
};

/* A short English description of status. */
const char *sl_launch_strerror(int status);

/* --- the lower layer: one compute job from raw fields -------------------- */

struct sl_job_link {
	unsigned int index;          /* 1..65535, unique in the chain */
	unsigned int dep[2];         /* earlier jobs' indices, 0 = none */
	uint64_t next;               /* next job's GPU address, 0 = end */
};

struct sl_desc {
	struct sl_job_link link;
	uint64_t shader_va;          /* 16-byte aligned */
	unsigned int first_tag;
	unsigned int work_regs;      /* 0-16 */
	bool barrier;                /* the shader uses barrier() */
	uint32_t local_size[3];
	uint32_t num_groups[3];
	/*
	 * push_vec4 rows of 16 bytes, copied to SL_DESC_PUSH (may already
	 * be there: the copy is a memmove).
	 */
	const void *push;
	unsigned int push_vec4;
	unsigned int ubo_count;
	uint64_t ubo_va[SL_DESC_MAX_UBOS];
	uint32_t ubo_size[SL_DESC_MAX_UBOS];
	uint64_t tls_va;             /* 0: no thread-local storage */
	uint32_t tls_bytes_per_thread;
	uint64_t wls_va;             /* 0: no work-group storage */
	uint32_t wls_bytes_per_group;
	uint32_t wls_instances;      /* rounded up to a power of two */
	/* Image tables (docs/hardware.md §4.10), 0 when none. */
	uint64_t textures_va, samplers_va, attributes_va;
	uint64_t attribute_buffers_va;
	unsigned int texture_count, sampler_count, attribute_count;
};

/* Bytes of a descriptor block with push_bytes of push uniforms / image. */
size_t sl_desc_size(size_t push_bytes);

/*
 * Writes the block for d into cpu (size bytes) that the GPU sees at va.
 * SL_LAUNCH_E_ALIGN when va is not 64-byte aligned or the shader not
 * 16-byte aligned, E_SPACE when size is short, E_TOO_BIG when push_vec4,
 * ubo_count or the sizes do not fit their fields, E_JOB_INDEX for a bad
 * link. Nothing is written on error.
 */
int sl_desc_pack(const struct sl_desc *d, uint8_t *cpu, size_t size,
		 uint64_t va);

/* Sets the next-job pointer of the block at cpu (already written). */
void sl_desc_link(uint8_t *cpu, uint64_t next_va);

/*
 * What the GPU wrote back into the job header at cpu once the chain ran
 * (docs/hardware.md §4.1, Exception Status): SL_JOB_DONE when the job
 * completed, 0 when it never ran, else the exception code of the fault that
 * ended it.
 */
#define SL_JOB_DONE 1u
uint32_t sl_desc_job_status(const uint8_t *cpu);

/*
 * A WRITE_VALUE job (docs/hardware.md §4.2) that stores the GPU's 64-bit system
 * timestamp at target (8-byte aligned) when it runs: a profiling mark in a
 * chain, SL_TIMESTAMP_JOB_BYTES at cpu / va (64-byte aligned). Errors as
 * sl_desc_pack(); nothing is written on error.
 */
#define SL_TIMESTAMP_JOB_BYTES 64u
int sl_timestamp_pack(const struct sl_job_link *link, uint64_t target,
		      uint8_t *cpu, size_t size, uint64_t va);

/* --- launching a compiled kernel ----------------------------------------- */

enum sl_arg_kind {
	SL_ARG_UNSET = 0,
	SL_ARG_BUFFER,               /* __global / __constant pointer */
	SL_ARG_VALUE,                /* by value: size bytes at value; also
				      * an image's 32 bytes of image words
				      * or a sampler's CLK_* value, for a
				      * caller that builds the texture,
				      * sampler and attribute tables itself
				      * (then no argument may be an
				      * SL_ARG_IMAGE or SL_ARG_SAMPLER) */
	SL_ARG_LOCAL,                /* __local pointer: size bytes of WLS */
	SL_ARG_IMAGE,                /* image*_t: the image; the launch
				      * writes its image words and builds
				      * its texture and attribute entries */
	SL_ARG_SAMPLER,              /* sampler_t: a CLK_* value; the launch
				      * builds its sampler entry */
};

/*
 * Images (compiler/README.md, "Images and samplers: the launch ABI"):
 * linear texels, rows at row_pitch, 2D slices and array layers (a 1D
 * array's rows) at slice_pitch.
 */
enum sl_image_type {
	SL_IMAGE_1D = 1,
	SL_IMAGE_1D_BUFFER,
	SL_IMAGE_1D_ARRAY,
	SL_IMAGE_2D,
	SL_IMAGE_2D_ARRAY,
	SL_IMAGE_3D,
};

/* The descriptors' size fields are 16 bits holding size - 1. */
#define SL_IMAGE_MAX_DIM 65536u

struct sl_image {
	enum sl_image_type type;
	/* Sizes the type has (others are ignored): width; height (2D, 2D
	 * array, 3D); depth (3D); array_size (arrays). */
	uint32_t width, height, depth, array_size;
	uint32_t channel_order;      /* cl_channel_order value */
	uint32_t channel_type;       /* cl_channel_type value */
	uint64_t va;                 /* texel 0, 64-byte aligned */
	/* Bytes between rows, and between slices / layers; for 1D and 2D
	 * images slice_pitch covers the image (row_pitch x height). */
	uint32_t row_pitch, slice_pitch;
};

/*
 * The Midgard pixel format (format << 12 | swizzle, 22 bits) and bytes
 * per texel of an OpenCL image format (cl_channel_order, cl_channel_type
 * values); false when the hardware has no format for it (CL_RGB, the
 * packed types, BGRA/ARGB beyond 8 bits, INTENSITY/LUMINANCE of integers).
 * Either output may be NULL.
 */
bool sl_image_format(uint32_t order, uint32_t type, uint32_t *pixfmt,
		     uint32_t *texel_bytes);

/* SL_LAUNCH_OK when @img can be described (E_ARG_VALUE: format or
 * pitches, E_TOO_BIG: sizes, E_ALIGN: address). */
int sl_image_check(const struct sl_image *img);

/* The bytes the image spans: slice_pitch x depth x layers. */
uint64_t sl_image_bytes(const struct sl_image *img);

/* The 8 image words of the argument image for @img. */
void sl_image_words(const struct sl_image *img,
		    uint32_t words[SLB_IMAGE_WORDS]);

/* The texture descriptor with its surfaces: its bytes, and its packing. */
size_t sl_texture_bytes(const struct sl_image *img);
void sl_texture_pack(const struct sl_image *img, uint8_t *out);

/* Sampler descriptor (32 bytes) from a CLK_* value (slb_sampler_valid). */
void sl_sampler_pack(uint32_t clk, uint8_t out[32]);

/* Attribute record k (8 bytes) and attribute buffers 2k, 2k + 1 (32
 * bytes) for @img. */
void sl_attribute_pack(const struct sl_image *img, unsigned int k,
		       uint8_t attr[8], uint8_t bufs[32]);

struct sl_arg {
	enum sl_arg_kind kind;
	uint64_t va;                 /* SL_ARG_BUFFER: GPU address, 0 = NULL */
	const void *value;           /* SL_ARG_VALUE */
	uint32_t size;               /* SL_ARG_VALUE, SL_ARG_LOCAL */
	const struct sl_image *image;  /* SL_ARG_IMAGE */
	uint32_t sampler;            /* SL_ARG_SAMPLER: CLK_* bits */
};

#define SL_ARG_BUF(addr) ((struct sl_arg){ .kind = SL_ARG_BUFFER, \
					   .va = (addr) })
#define SL_ARG_VAL(ptr) ((struct sl_arg){ .kind = SL_ARG_VALUE, \
					  .value = (ptr), \
					  .size = sizeof(*(ptr)) })
#define SL_ARG_LOC(bytes) ((struct sl_arg){ .kind = SL_ARG_LOCAL, \
					    .size = (bytes) })
#define SL_ARG_IMG(img) ((struct sl_arg){ .kind = SL_ARG_IMAGE, \
					  .image = (img) })
#define SL_ARG_SMP(clk) ((struct sl_arg){ .kind = SL_ARG_SAMPLER, \
					  .sampler = (clk) })

/*
 * The NDRange as clEnqueueNDRangeKernel gives it. Dimensions at and above
 * work_dim are ignored (taken as global 1, local 1, offset 0).
 */
struct sl_ndrange {
	uint32_t work_dim;           /* 1-3 */
	uint32_t offset[3];
	uint32_t global[3];          /* work-items, multiples of local */
	uint32_t local[3];
};

struct sl_launch_params {
	const struct slb_program *prog;
	const struct slb_kernel *kernel;   /* one of prog's kernels */
	const struct sl_arg *args;
	unsigned int num_args;
	struct sl_ndrange nd;
	/* GPU address of prog's __constant data (0 when it has none). */
	uint64_t constant_va;
	/*
	 * GPU address of the launch's printf buffer (slb_binary.h, "printf"),
	 * 8-aligned: sl_launch_emit() requires it when
	 * sl_launch_uses_printf(kernel) (E_ADDRESS / E_ALIGN), else it is
	 * ignored.
	 */
	uint64_t printf_va;
	/*
	 * Core id range of the GPU, sl_launch_cores(SHADER_PRESENT) (TLS is
	 * laid out per core id); 0 counts as 1.
	 */
	unsigned int cores;
};

/* Whether kernel k calls printf: its launches need a printf buffer. */
bool sl_launch_uses_printf(const struct slb_kernel *k);

/* The core id range of a GPU with @shader_present (GET_PARAM): the highest
 * present core's bit plus one, at least 1. */
unsigned int sl_launch_cores(uint64_t shader_present);

struct sl_launch_plan {
	const struct sl_launch_params *params;
	uint32_t local_size[3], num_groups[3];  /* all three dimensions */
	/* The argument image: args + sysvals; >= 16, 16-byte aligned. */
	uint32_t image_bytes;
	size_t desc_bytes;           /* the descriptor block, 64-aligned */
	/*
	 * The image tables (for SL_ARG_IMAGE / SL_ARG_SAMPLER arguments and
	 * the kernel's constant samplers), after the argument image in the
	 * block, each 64-byte aligned; offsets from the block's start, 0
	 * when there is none: the sampler descriptors (sampler arguments,
	 * then constant samplers), the texture pointers, the attribute
	 * records, the attribute buffers (two per image) and the texture
	 * descriptors with their surfaces.
	 */
	uint32_t num_images, num_samplers;
	uint32_t samplers_at, textures_at, attributes_at;
	uint32_t attribute_buffers_at, texture_descs_at;
	/*
	 * TLS: private bytes per thread and what the GPU addresses for them
	 * (0 when the kernel has none); the area is 16-byte aligned.
	 */
	uint32_t tls_bytes_per_thread;
	uint64_t tls_total_bytes;
	/*
	 * WLS: bytes per work-group (local_static_bytes, then each __local
	 * argument, each start 16-byte aligned), the instances the GPU
	 * rotates through and the whole area (0 when none). The area must
	 * be 4 KiB aligned and must not cross a 4 GiB boundary.
	 */
	uint32_t wls_bytes_per_group;
	uint32_t wls_instances;
	uint64_t wls_total_bytes;
	/* The argument the error is about (for E_ARG_*), else -1. */
	int error_arg;
};

/*
 * Checks p (arguments against the kernel's metadata, the NDRange) and fills
 * plan. Returns SL_LAUNCH_OK or a negative enum sl_launch_status, with
 * plan->error_arg naming the argument for SL_LAUNCH_E_ARG_*. p must stay
 * valid until sl_launch_emit() has used the plan.
 */
int sl_launch_plan(const struct sl_launch_params *p,
		   struct sl_launch_plan *plan);

/*
 * Writes the argument image (args at their offsets: by-value bytes as in
 * host memory, pointers as 32-bit GPU addresses, __local pointers as the
 * byte offset of their WLS allocation; sysvals) into image, which holds
 * plan->image_bytes. Unused bytes are zero. sl_launch_emit() calls it; it
 * is public for tests and tools.
 */
void sl_launch_write_image(const struct sl_launch_plan *plan, uint8_t *image);

struct sl_launch_memory {
	uint64_t code_va;            /* GPU address of prog->code, 64-aligned */
	uint64_t tls_va;             /* plan->tls_total_bytes there, or 0 */
	uint64_t wls_va;             /* plan->wls_total_bytes there, or 0 */
};

/*
 * Writes the descriptor block of the planned launch into cpu (size bytes,
 * at least plan->desc_bytes), which the GPU sees at va, as job link of a
 * chain. Returns SL_LAUNCH_OK or a negative enum sl_launch_status
 * (E_ADDRESS when TLS / WLS memory or the printf buffer is needed and
 * missing or code crosses a 16 MiB boundary); nothing is written on error.
 */
int sl_launch_emit(const struct sl_launch_plan *plan,
		   const struct sl_launch_memory *mem,
		   const struct sl_job_link *link, uint8_t *cpu, size_t size,
		   uint64_t va);

/*
 * What sl_launch_emit_cached() remembers of the block it last wrote at
 * one place: every descriptor field (the argument image aside) and the
 * job area as packed. Zero-initialise it; one per place a runtime writes
 * blocks again and again (a slot of a command buffer).
 */
struct sl_desc_cache {
	bool valid;
	uint64_t va;
	struct sl_desc d;            /* d.push is not kept */
	uint8_t job[SL_DESC_RSD];    /* the job header and descriptor */
};

/*
 * sl_launch_emit(), for a block the caller writes at the same cpu / va as
 * the last time it used @cache (or @cache invalid): when every field of
 * the block is what it was, only the argument image and the job area
 * (which the GPU wrote back) are written again, from @cache; the renderer
 * state, local storage and UBO table the GPU only read are as they were.
 * The caller must clear cache->valid when the memory at cpu may have
 * changed otherwise (a new buffer). Packing a block is most of a launch's
 * CPU time; repeated launches of a kernel skip it.
 */
int sl_launch_emit_cached(const struct sl_launch_plan *plan,
			  const struct sl_launch_memory *mem,
			  const struct sl_job_link *link, uint8_t *cpu,
			  size_t size, uint64_t va,
			  struct sl_desc_cache *cache);

/* The address to submit (or chain to) for the block at va. */
static inline uint64_t sl_launch_job_va(uint64_t va)
{
	return va + SL_DESC_JOB;
}

#endif
