/* SPDX-License-Identifier: MIT */
/*
 * The back end's machine IR (MIR), shared by its stages: Midgard
 * instructions over virtual registers, in blocks of a CFG. See README.md.
 *
 * A virtual register (vreg) is 1-4 32-bit components that the allocator
 * places inside one 128-bit register (components packed: a scalar and a
 * vec3 may share one register). Operands name vregs with swizzles relative
 * to the vreg; fixed registers (r23 downwards for pushed uniforms, r26/r27
 * for load/store arguments, r31 for conditions) are named directly.
 */
#ifndef SLEIPNIR_MBE_INTERNAL_H
#define SLEIPNIR_MBE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "mbe_backend.h"
#include "midgard_isa.h"

#define MBE_MAX_VEC 4
#define MI_NONE UINT32_MAX

enum mi_opnd_kind {
	MO_NONE,
	MO_VREG,                     /* reg = vreg index */
	MO_PHYS,                     /* reg = physical register, comp offset */
	MO_CONST,                    /* embedded constant words cval[] */
	MO_IMM,                      /* 16-bit inline immediate (src2 only) */
};

/*
 * A source: lane j of the instruction's destination (relative to the
 * destination's first component) reads component swz[j] of the operand
 * (relative to the vreg's first component, or the physical register's
 * comp offset). For constants, lane j reads cval[j].
 */
struct mi_src {
	uint8_t kind;                /* enum mi_opnd_kind */
	uint8_t mod;                 /* float: bit0 abs, bit1 neg; integer
				      * with widen: 0 sign-, 1 zero-extend */
	bool widen;                  /* 64-bit op reading a 32-bit element:
				      * lanes 2k, 2k+1 both name it in swz */
	bool lane_splat;             /* narrow-lane op: every lane reads
				      * the low 16 bits of component swz[0]
				      * (constants: of word cval[0]); in
				      * 8-bit lanes the word holds its
				      * byte four times */
	uint8_t swz[MBE_MAX_VEC];
	uint32_t reg;
	uint32_t cval[MBE_MAX_VEC];
	uint16_t imm;
};

struct mi_dst {
	uint8_t kind;                /* MO_NONE, MO_VREG, MO_PHYS */
	uint8_t mask;                /* components written, relative */
	uint8_t off;                 /* MO_PHYS: first component */
	uint32_t reg;
};

enum mi_kind {
	MI_ALU,
	MI_LDST,
	MI_BARRIER,
	MI_TEX,                      /* a texture word: reads r28, writes
				      * dst (r29), alone in its bundle */
};

/*
 * Halves (fp16) sit in the low 16 bits of 32-bit components, the upper
 * bits undefined. Ops on them keep that layout; the destination mask and
 * swizzles stay in 32-bit components:
 *  - MH_OP: reg mode 16; both 16-bit lanes of a component read the low
 *    half of its source component, so a comparison's 0 / 0xFFFF fills
 *    the whole 32-bit lane. Operands are splats or identity views of
 *    align2 vregs (isel makes them so), which the 16-bit swizzle and
 *    expand modes can always express.
 *  - MH_FROM: a 32-bit op reading a half source widened (expand low or
 *    high), one component per instruction.
 *  - MH_TO: a 32-bit op whose result is shrunk to a half in the op's
 *    rounding mode and written to the low 16 bits of its component, one
 *    component per instruction.
 */
enum mi_half {
	MH_NONE,
	MH_OP,
	MH_FROM,
	MH_TO,
};

struct mi_instr {
	uint8_t kind;                /* enum mi_kind */
	/* ALU. */
	uint8_t op;
	uint8_t units;               /* units it may run on */
	uint8_t outmod;
	bool kills;                  /* writes the whole vreg (liveness) */
	bool glued;                  /* csel: the r31 write just before must
				      * share its bundle, in stage 1 */
	bool branch_cond;            /* writes r31.w for the block's branch */
	bool mode64;                 /* 64-bit lanes: component pairs */
	bool shrink;                 /* mode64 whose lane k is written as a
				      * 32-bit result to dst component k
				      * (an align2 vreg: the lower or upper
				      * half as it is placed) */
	uint8_t lane_bits;           /* 16 or 8: reg mode 16 / 8, 8 or 16
				      * lanes per register, whole-register
				      * operands with the identity swizzle
				      * or lane_splat; 0: 32- or 64-bit */
	uint8_t half;                /* enum mi_half */
	struct mi_dst dst;
	struct mi_src src[2];
	/*
	 * Load/store: w holds op and the address fields; the register
	 * operand is dst (loads, atomics: value written with lswz mapping
	 * loaded component lswz[j] to dst component j) or, for stores,
	 * r26/r27 through w.reg/w.swizzle as set by isel.
	 */
	struct mdg_ldst w;
	uint8_t lswz[MBE_MAX_VEC];
	bool mem_read, mem_write;    /* ordering of memory accesses */
	/* Load/store: components of r26 ([0]) and r27 ([1]) it reads. */
	uint8_t phys_reads[2];
	/* Texture: the word (its registers r28 in, r29 out). */
	struct mdg_tex t;
};

enum mi_term {
	MT_RET,
	MT_BR,
	MT_CBR,                      /* on r31.w written by the branch_cond mov */
};

struct mi_block {
	uint32_t num, cap;
	struct mi_instr *instrs;
	uint8_t term;                /* enum mi_term */
	uint32_t succ[2];            /* BR: succ[0]; CBR: true, false */
	uint32_t num_preds;
};

struct mi_vreg {
	uint8_t size;                /* components, 1-4 */
	bool no_spill;               /* spill temporaries */
	bool align2;                 /* 64-bit lanes: even first component */
	uint8_t reg, comp;           /* placement after allocation */
};

struct mi_func {
	uint32_t num_blocks, cap_blocks;
	struct mi_block *blocks;
	uint32_t num_vregs, cap_vregs;
	struct mi_vreg *vregs;
	uint32_t push_vec4;          /* pushed uniform rows */
	bool needs_ubo;
	bool barrier;
	uint32_t private_bytes;      /* TLS bytes before spills */
	uint32_t spills, fills;
	uint32_t work_regs;
};

/* One scheduled bundle. */
struct mbe_sbundle {
	uint8_t kind;                /* enum mdg_bundle_kind */
	struct mi_instr *alu[MDG_UNIT_COUNT];
	struct mi_instr *ldst[2];
	struct mi_instr *tex;        /* texture bundle (NULL: a barrier) */
	uint32_t consts[4];
	uint8_t num_consts;
	bool ends;                   /* the thread ends after it (RET) */
	bool branch;                 /* ends with the block's branch */
	uint8_t branch_cond;         /* MDG_COND_TRUE / ALWAYS */
	uint32_t target;             /* MIR block */
};

struct mbe_sblock {
	uint32_t num, cap;
	struct mbe_sbundle *b;
};

struct mbe_schedule {
	uint32_t num_blocks;
	struct mbe_sblock *blocks;
};

/* Growable arrays (sir_xrealloc: allocation failure ends the process). */
uint32_t mi_vreg_new(struct mi_func *mf, unsigned int size);
uint32_t mi_block_new(struct mi_func *mf);
/* The block's successors in out; returns how many (0-2). */
int mi_block_succs(const struct mi_block *blk, uint32_t out[2]);
struct mi_instr *mi_append(struct mi_func *mf, uint32_t b);
struct mi_instr *mi_insert(struct mi_func *mf, uint32_t b, uint32_t pos);
void mi_func_free(struct mi_func *mf);

/* Stages. */
bool mbe_isel(struct sir_function *f, struct mi_func *mf, char *err,
	      size_t errsz);
bool mbe_ra(struct mi_func *mf, unsigned int max_regs, char *err,
	    size_t errsz);
bool mbe_schedule(struct mi_func *mf, struct mbe_schedule *s, char *err,
		  size_t errsz);
void mbe_schedule_free(struct mbe_schedule *s);
bool mbe_emit(const struct mi_func *mf, const struct mbe_schedule *s,
	      struct mbe_code *out, uint32_t *first_tag, char *err,
	      size_t errsz);
void mbe_stats(const struct mi_func *mf, const struct mbe_schedule *s,
	       struct slb_stats *st);

/* Helpers shared by the stages. */
/* Physical register and first component of an operand after RA. */
void mi_src_place(const struct mi_func *mf, const struct mi_src *s,
		  unsigned int *reg, unsigned int *comp);
void mi_dst_place(const struct mi_func *mf, const struct mi_dst *d,
		  unsigned int *reg, unsigned int *comp);
bool mi_op_is_stage1(enum mdg_unit u);

#endif
