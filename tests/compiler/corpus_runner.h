/* SPDX-License-Identifier: MIT */
/*
 * Compiles OpenCL C corpus kernels with slc_compile_source() and runs them
 * on the GPU model's shader cores (tests/model/compute_harness.h) through
 * the launch library (userspace/launch/sl_launch.h), which plays the
 * runtime's side of the launch ABI of compiler/binary/slb_binary.h; this
 * places code, __constant data, TLS and WLS in the harness's areas.
 *
 * Buffers live in the harness's DATA area, handed out by a bump allocator
 * that cr_reset() empties; tests fill and read them through host pointers.
 * Also the float comparison by ULP distance the corpus references use.
 */
#ifndef SLEIPNIR_CORPUS_RUNNER_H
#define SLEIPNIR_CORPUS_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compute_harness.h"
#include "slb_binary.h"

/* What the launches since the last cr_reset() cost on the model. */
struct cr_figures {
	uint32_t launches;
	uint64_t threads;
	uint64_t alu_bundles, ldst_bundles;
	uint64_t alu_instructions, ldst_instructions;
	uint64_t arith_cycles, ls_cycles, cycles;
	uint32_t work_regs, threads_per_core;
};

struct cr_session {
	struct fake_host fh;
	uint32_t next_va;            /* the bump allocator's next free VA */
	struct cr_figures figures;
	bool quiet;                  /* no failure details (the benchmark) */
	/* GPU address of the printf buffer kernels that call printf get
	 * (slb_binary.h, "printf"); the test allocates and reads it. */
	uint32_t printf_va;
	/* Image tables the next launches bind (compiler/README.md, "Images
	 * and samplers"): attribute records and attribute buffers for
	 * `images` images, built with cr_describe_image(); 0: none. */
	uint32_t attr_va, abuf_va, images;
	/* Texture and sampler tables (cr_describe_texture/_sampler). */
	uint32_t tex_table_va, smp_table_va, textures, samplers;
};

/* An image as the runtime describes it: a linear layout of bytes_per_texel
 * texels, `row` and `slice` pitches, at va. */
struct cr_image {
	uint32_t va;
	uint32_t pixfmt;             /* format << 12 | swizzle (22 bits) */
	uint32_t bytes_per_texel;
	uint32_t dim[3];             /* width, height, depth or layers */
	uint32_t row, slice;
};

/*
 * Allocates (on the first call after cr_reset) the tables for up to 16
 * images and writes image k's attribute record k and attribute buffers
 * 2k, 2k + 1 (3D linear and its continuation); later launches bind
 * images 0..max(k) + 1. False when memory runs out.
 */
bool cr_describe_image(struct cr_session *s, unsigned int k,
		       const struct cr_image *img);

/*
 * Texture k of the texture table for the image: dimension 1, 2 or 3; an
 * array's layers are dim[2] (array_size > 1), one manual-stride surface
 * each. Later launches bind textures 0..max(k) + 1.
 */
bool cr_describe_texture(struct cr_session *s, unsigned int k,
			 const struct cr_image *img, unsigned int dimension,
			 bool array);

/* Sampler j of the sampler table from an OpenCL C CLK_* value. */
bool cr_describe_sampler(struct cr_session *s, unsigned int j,
			 uint32_t clk);

bool cr_init(struct cr_session *s);
/* The same with the model's engine and shader threads chosen. */
bool cr_init_engine(struct cr_session *s, enum sgpu_engine engine,
		    unsigned int shader_threads);
/* Tears the model down; false when it saw a guest error or leaked. */
bool cr_fini(struct cr_session *s);
/* Frees every buffer, clears the DATA area and the figures. */
void cr_reset(struct cr_session *s);
/*
 * A zeroed buffer of size bytes, 256-aligned, its GPU address in *va; NULL
 * (with a message) when DATA is full.
 */
void *cr_alloc(struct cr_session *s, size_t size, uint32_t *va);

/* The whole file, malloc'ed and NUL-terminated, or NULL with a message. */
char *cr_read_file(const char *path);

/*
 * Compiles source with options and parses the binary with slb_read(). On
 * failure returns false and, when log is not NULL, hands back the build
 * log (or the parse error) in *log (malloc'ed; the caller frees it).
 */
bool cr_compile(const char *source, const char *options,
		struct slb_program *prog, char **log);

/*
 * cr_compile() of the file at path; on failure prints the build log,
 * naming the file and the options, and returns false.
 */
bool cr_compile_file(const char *path, const char *options,
		     struct slb_program *prog);

enum cr_arg_kind {
	CR_ARG_BUFFER,               /* __global / __constant pointer */
	CR_ARG_VALUE,                /* by value, `size` bytes at `value` */
	CR_ARG_LOCAL,                /* __local pointer, `size` bytes */
};

struct cr_arg {
	enum cr_arg_kind kind;
	uint32_t va;                 /* CR_ARG_BUFFER */
	const void *value;           /* CR_ARG_VALUE */
	uint32_t size;               /* CR_ARG_VALUE, CR_ARG_LOCAL */
};

#define CR_BUF(addr) ((struct cr_arg){ .kind = CR_ARG_BUFFER, .va = (addr) })
#define CR_VAL(ptr) ((struct cr_arg){ .kind = CR_ARG_VALUE, .value = (ptr), \
				       .size = sizeof(*(ptr)) })
#define CR_LOCAL(bytes) ((struct cr_arg){ .kind = CR_ARG_LOCAL, \
					  .size = (bytes) })

struct cr_ndrange {
	uint32_t dim;                /* 1-3 */
	uint32_t global[3];          /* work-items, multiples of local */
	uint32_t local[3];
	uint32_t offset[3];          /* global work offset */
};

#define CR_1D(g, l) ((struct cr_ndrange){ .dim = 1, .global = { (g), 1, 1 }, \
					   .local = { (l), 1, 1 } })
#define CR_2D(gx, gy, lx, ly) ((struct cr_ndrange){ .dim = 2, \
	.global = { (gx), (gy), 1 }, .local = { (lx), (ly), 1 } })

/*
 * Launches kernel of prog over nd with args (checked against the kernel's
 * metadata) and runs it to completion; false with a message when the
 * arguments do not match, a buffer does not fit or the job did not end
 * DONE. Adds the launch's cost to s->figures.
 */
bool cr_launch(struct cr_session *s, const struct slb_program *prog,
	       const char *kernel, const struct cr_arg *args,
	       unsigned int num_args, const struct cr_ndrange *nd);

/*
 * Distance in units in the last place of a float between got and the exact
 * (double) reference want: 0 when equal, NaN matching NaN and infinities
 * exact (else INFINITY). A reference beyond FLT_MAX expects the infinity
 * of its sign.
 */
double cr_ulp_distance(float got, double want);

/* x, or a zero of its sign when x is denormal (a flushing device's view). */
float cr_flush_denormal(float x);

#endif
