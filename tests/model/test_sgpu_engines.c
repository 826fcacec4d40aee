/* SPDX-License-Identifier: MIT */
/*
 * Differential test of the shader cores' two engines: random programs run
 * on the lockstep engine (sgpu_warp.c) and on the per-thread reference
 * interpreter (sgpu_thread.c) must leave every thread's registers, every
 * byte of memory, the job's status and the cycle model's counts the same.
 *
 * A program loads r0-r14 from the thread's slice of an input buffer of
 * random words (floats of all classes, integers), runs random ALU bundles
 * (every op and operand form, biased to the 32-bit forms the lockstep
 * engine vectorises), data-dependent forward branches and a loop whose
 * trip count differs between threads (so lanes diverge and meet again),
 * then stores r0-r15 to the thread's slice of the output. Workgroup sizes
 * vary from 1 to 256 threads, so tasks hold one or many workgroups and
 * partial lane blocks, and the lockstep engine runs its tasks on one to
 * four host threads.
 *
 * Environment: SGPU_ENGINES_CASES (default 300), ISA_SEED (the seed).
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "compute_harness.h"
#include "isa_gen.h"
#include "sgpu_alu.h"

CHECK_MAIN_STATE("sgpu_engines");

#define MAX_BUNDLES 64
#define THREAD_BYTES 256u            /* 16 registers of input / output */
#define MAX_THREADS 3072u

/* The ops the compiler emits most, which have lockstep loops. */
static const uint8_t common_ops[] = {
	MDG_ALU_FADD, MDG_ALU_FMUL, MDG_ALU_FMIN, MDG_ALU_FMAX,
	MDG_ALU_FMOV, MDG_ALU_FEQ, MDG_ALU_FNE, MDG_ALU_FLT, MDG_ALU_FLE,
	MDG_ALU_FCSEL, MDG_ALU_FCSEL_V, MDG_ALU_IADD, MDG_ALU_ISUB,
	MDG_ALU_IMUL, MDG_ALU_IMIN, MDG_ALU_UMAX, MDG_ALU_IASR, MDG_ALU_ILSR,
	MDG_ALU_ISHL, MDG_ALU_IAND, MDG_ALU_IOR, MDG_ALU_IXOR, MDG_ALU_IMOV,
	MDG_ALU_IEQ, MDG_ALU_ULT, MDG_ALU_ILE, MDG_ALU_ICSEL,
	MDG_ALU_ICSEL_V, MDG_ALU_I2F_RTE, MDG_ALU_U2F_RTE, MDG_ALU_FRCP,
};

struct program {
	struct mdg_bundle b[MAX_BUNDLES];
	unsigned int n;
	int branch_to[MAX_BUNDLES];      /* bundle index, -1: none */
	uint8_t code[MAX_BUNDLES * 64];
	size_t size;
};

static struct fake_host fh;

/* A bundle assembled from text (the first of it). */
static void assembled(const char *text, struct mdg_bundle *out)
{
	uint8_t code[256];
	unsigned int first;
	char err[200];
	long n = mdg_assemble(text, code, sizeof(code), &first, err,
			      sizeof(err));

	if (n < 0 || !mdg_decode_bundle(code, (size_t)n, out, err,
					sizeof(err))) {
		printf("  %s\n%s\n", err, text);
		abort();
	}
}

static void add(struct program *p, const char *text, int branch_to)
{
	assembled(text, &p->b[p->n]);
	p->branch_to[p->n++] = branch_to;
}

static uint8_t random_src(void)
{
	unsigned int r = rn(20);

	if (r == 0)
		return MDG_REG_CONST;
	if (r == 1)
		return MDG_REG_COND;
	return (uint8_t)rn(16);
}

static uint8_t random_dst(void)
{
	return rn(10) == 0 ? MDG_REG_COND : (uint8_t)rn(15);
}

static uint8_t random_op(enum mdg_unit unit)
{
	for (unsigned int tries = 0; tries < 64 && rn(4); tries++) {
		uint8_t op = common_ops[rn(sizeof(common_ops))];
		const struct mdg_alu_op_info *i = mdg_alu_op_info(op);

		if (i && (i->units & MDG_UNIT_MASK(unit)))
			return op;
	}
	return (uint8_t)gen_alu_op_for(unit);
}

static bool runs(const struct mdg_alu *a, enum mdg_unit unit)
{
	struct sgpu_alu_operands in;
	union sgpu_reg dst;

	memset(&in, 0, sizeof(in));
	memset(&dst, 0, sizeof(dst));
	return sgpu_alu_execute(a, unit, &in, &dst);
}

/* A random ALU bundle on r0-r14 and r31, reading constants sometimes. */
static void random_alu(struct mdg_bundle *b)
{
	uint8_t code[64];

	do {
		memset(b, 0, sizeof(*b));
		for (unsigned int u = 0; u < MDG_UNIT_COUNT; u++) {
			struct mdg_alu *a = &b->alu[u];

			if (rn(3))
				continue;
			gen_alu(a, random_op((enum mdg_unit)u),
				(enum mdg_unit)u);
			a->src1_reg = random_src();
			if (!a->src2_imm)
				a->src2_reg = random_src();
			a->dst_reg = random_dst();
			/*
			 * Mostly 32-bit vector forms without output
			 * modifier (float none, integer keep-low), as
			 * compilers emit.
			 */
			if (!mdg_unit_is_scalar((enum mdg_unit)u) && rn(3)) {
				const struct mdg_alu_op_info *i =
					mdg_alu_op_info(a->op);

				a->reg_mode = MDG_REG_MODE_32;
				a->shrink = MDG_SHRINK_NONE;
				a->src1 = MDG_VSRC(rn(4), 0, rn(256));
				if (!a->src2_imm)
					a->src2 = MDG_VSRC(rn(4), 0, rn(256));
				a->outmod = (i->flags & MDG_OP_INT_DST) ?
					    MDG_OUTMOD_KEEP_LOW :
					    MDG_OUTMOD_NONE;
			}
			/* Forms the model runs: faults are the fuzzers' job. */
			if (runs(a, (enum mdg_unit)u))
				b->units |= (uint8_t)MDG_UNIT_MASK(u);
		}
		if (!b->units)
			continue;
		b->has_constants = true;
		for (int i = 0; i < 4; i++)
			b->constants[i] = rn(2) ? rnd() :
					  0x3F800000u + (rnd() & 0x807FFFFFu);
		b->tag = MDG_TAG_ALU4;
		b->next_tag = MDG_TAG_ALU4;
	} while (!b->units || !mdg_encode_bundle(b, code, sizeof(code),
						 NULL, 0));
}

/* Lays the bundles out: next tags, branch offsets; false if unencodable. */
static bool link(struct program *p)
{
	uint64_t at[MAX_BUNDLES + 1];
	uint8_t tmp[64];

	at[0] = 0;
	for (unsigned int i = 0; i < p->n; i++) {
		unsigned int size = mdg_encode_bundle(&p->b[i], tmp,
						      sizeof(tmp), NULL, 0);

		if (!size)
			return false;
		p->b[i].tag = tmp[0] & 0xF;
		at[i + 1] = at[i] + size;
	}
	for (unsigned int i = 0; i < p->n; i++) {
		p->b[i].next_tag = i + 1 < p->n ? p->b[i + 1].tag :
				   MDG_TAG_BREAK;
		if (p->branch_to[i] >= 0) {
			unsigned int t = (unsigned int)p->branch_to[i];

			p->b[i].branch.offset = (int32_t)(((int64_t)at[t] -
							   (int64_t)at[i + 1]) /
							  MDG_QUADWORD);
			p->b[i].branch.dest_tag = p->b[t].tag;
		}
	}
	p->size = 0;
	for (unsigned int i = 0; i < p->n; i++) {
		unsigned int size = mdg_encode_bundle(&p->b[i],
						      p->code + p->size,
						      sizeof(p->code) - p->size,
						      NULL, 0);

		if (size != at[i + 1] - at[i])
			return false;
		p->size += size;
	}
	return true;
}

static void random_program(struct program *p)
{
	char text[256];
	unsigned int loop_start, body;

	do {
		p->n = 0;
		add(p, "ldst\n\tmov r27.xyz, global_id.xyzx\n"
		       "\tld_ubo.128 r26, ubo(0)[0]\n", -1);
		for (unsigned int k = 0; k < 15; k += 2) {
			snprintf(text, sizeof(text),
				 "ldst\n\tld.128 r%u, [r26.zw + r27.x.u32 << 8 "
				 "+ %u]\n\tld.128 r%u, [r26.zw + r27.x.u32 "
				 "<< 8 + %u]\n", k, 16 * k, k + 1 < 15 ? k + 1 : k,
				 16 * (k + 1 < 15 ? k + 1 : k));
			add(p, text, -1);
		}
		/* r15.x: 1-4 trips of the loop, by the thread. */
		add(p, "alu\n\tvmul.iand.i32 r15.x, r27.xxxx, #3\n", -1);
		add(p, "alu\n\tvmul.iadd.i32 r15.x, r15.xxxx, #1\n", -1);
		loop_start = p->n;
		body = 2 + rn(8);
		for (unsigned int i = 0; i < body; i++) {
			if (rn(4) == 0 && i + 2 < body) {
				/* Skip 1-2 bundles when a < b in this lane. */
				snprintf(text, sizeof(text),
					 "alu\n\tsmul.ilt.i32 r31.w, r%u.x, "
					 "r%u.x\n\tbr.%s next\nnext:\nalu\n"
					 "\tvmul.imov.i32 r0, r0.xyzw\n",
					 rn(15), rn(15), rn(2) ? "true" : "false");
				add(p, text, (int)(p->n + 2 + rn(2)));
				continue;
			}
			random_alu(&p->b[p->n]);
			p->branch_to[p->n++] = -1;
		}
		add(p, "alu\n\tsadd.isub.i32 r15.x, r15.x, #1\n"
		       "\tsmul.ine.i32 r31.w, r15.x, #0\n\tbr.true next\n"
		       "next:\nalu\n\tvmul.imov.i32 r0, r0.xyzw\n",
		    (int)loop_start);
		add(p, "ldst\n\tmov r27.xyz, global_id.xyzx\n"
		       "\tld_ubo.64 r26.xy, ubo(0)[0]\n", -1);
		add(p, "alu\n\tvmul.imov.i32 r26.z, r27.xxxx\n", -1);
		for (unsigned int k = 0; k < 16; k++) {
			snprintf(text, sizeof(text),
				 "alu\n\tvmul.imov.i32 r27, r%u.xyzw\n", k);
			add(p, text, -1);
			snprintf(text, sizeof(text),
				 "ldst\n\tst.128 r27, [r26.xy + r26.z.u32 << 8 "
				 "+ %u]\n", 16 * k);
			add(p, text, -1);
		}
	} while (!link(p));
}

/* A word of input: floats of every class, small and random integers. */
static uint32_t random_word(void)
{
	static const uint32_t special[] = {
		0, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
		0x7F800001u, 0x00000001u, 0x807FFFFFu, 0x3F800000u,
		0xBF800000u, 0x7F7FFFFFu, 0xFFFFFFFFu, 0x80000001u,
	};

	switch (rn(6)) {
	case 0:
		return special[rn(sizeof(special) / 4)];
	case 1:
		return rn(64) - 32;
	case 2:
		return rnd();
	default:
		/* A float of magnitude 2^-8 .. 2^8. */
		return (rnd() & 0x807FFFFFu) | (119u + rn(17)) << 23;
	}
}

struct outcome {
	struct ch_result res;
	uint8_t out[MAX_THREADS * THREAD_BYTES];
};

static void run_on(enum sgpu_engine engine, unsigned int shader_threads,
		   const struct program *p,
		   const uint32_t *input, uint32_t threads,
		   const struct ch_kernel *shape, struct outcome *o)
{
	struct ch_kernel k = *shape;
	uint64_t ubo_va = CH_DATA_VA, out_va = CH_DATA_VA + 256;
	uint64_t in_va = out_va + MAX_THREADS * THREAD_BYTES;
	uint64_t ptrs[2] = { out_va, in_va };

	REQUIRE(ch_setup_engine(&fh, engine, shader_threads));
	memcpy(ch_ptr(&fh, ubo_va), ptrs, sizeof(ptrs));
	memcpy(ch_ptr(&fh, in_va), input, threads * THREAD_BYTES);
	k.code = p->code;
	k.code_size = p->size;
	k.first_tag = p->code[0] & 0xF;
	k.work_regs = 16;
	k.ubo_count = 1;
	k.ubo_va[0] = ubo_va;
	k.ubo_size[0] = 16;
	REQUIRE(ch_run_timeout(&fh, &k, &o->res, 0));
	memcpy(o->out, ch_ptr(&fh, out_va), threads * THREAD_BYTES);
	fh_fini(&fh);
}

static bool same_counts(const struct sgpu_stats *a0, const struct sgpu_stats *a1,
			const struct sgpu_stats *b0, const struct sgpu_stats *b1)
{
#define SAME(f) (a1->f - a0->f == b1->f - b0->f)
	return SAME(shader_alu_bundles) && SAME(shader_ldst_bundles) &&
	       SAME(shader_alu_instructions) &&
	       SAME(shader_ldst_instructions) && SAME(shader_threads) &&
	       SAME(shader_cycles);
#undef SAME
}

TEST(random_programs)
{
	static const uint32_t sizes[] = { 1, 3, 7, 16, 33, 64, 100, 256 };
	static struct outcome lockstep, reference;
	static uint32_t input[MAX_THREADS * THREAD_BYTES / 4];
	const char *env = getenv("SGPU_ENGINES_CASES");
	unsigned int cases = env ? (unsigned int)atoi(env) : 300;
	unsigned int faulted = 0, differ = 0;
	static struct program prog;

	for (unsigned int c = 0; c < cases && differ < 3; c++) {
		struct ch_kernel shape = { 0 };
		uint32_t lx = sizes[rn(sizeof(sizes) / 4)], threads;
		bool done;

		random_program(&prog);
		shape.local_size[0] = lx;
		shape.local_size[1] = shape.local_size[2] = 1;
		shape.num_groups[0] = 1 + rn(12);
		shape.num_groups[1] = shape.num_groups[2] = 1;
		threads = lx * shape.num_groups[0];
		for (uint32_t i = 0; i < threads * THREAD_BYTES / 4; i++)
			input[i] = random_word();
		/* The lockstep engine on 1-4 host threads, the reference on 1. */
		run_on(SGPU_ENGINE_LOCKSTEP, 1 + rn(4), &prog, input, threads,
		       &shape, &lockstep);
		run_on(SGPU_ENGINE_REFERENCE, 1, &prog, input, threads, &shape,
		       &reference);
		/*
		 * A fault ends the job wherever each engine had got to: the
		 * lockstep engine runs every lane up to the faulting bundle,
		 * the reference thread after thread. Only the code must agree.
		 */
		done = lockstep.res.js_status == MDG_EXCEPTION_DONE;
		faulted += !done;
		if (lockstep.res.js_status != reference.res.js_status ||
		    (done && (memcmp(lockstep.out, reference.out,
				     threads * THREAD_BYTES) ||
			      !same_counts(&lockstep.res.before,
					   &lockstep.res.after,
					   &reference.res.before,
					   &reference.res.after)))) {
			char text[16384];
			char err[128];

			differ++;
			printf("  case %u (%u x %u threads): status 0x%x / "
			       "0x%x, output %s\n", c, lx,
			       shape.num_groups[0], lockstep.res.js_status,
			       reference.res.js_status,
			       memcmp(lockstep.out, reference.out,
				      threads * THREAD_BYTES) ?
			       "differs" : "same");
			for (uint32_t i = 0; i < threads * THREAD_BYTES; i++) {
				if (lockstep.out[i] != reference.out[i]) {
					printf("  first difference: thread %u "
					       "r%u byte %u\n",
					       i / THREAD_BYTES,
					       i % THREAD_BYTES / 16, i % 16);
					break;
				}
			}
			if (mdg_disassemble(prog.code, prog.size,
					    prog.code[0] & 0xF, text,
					    sizeof(text), err, sizeof(err)) >= 0)
				printf("%s\n", text);
		}
	}
	printf("  %u programs, %u ended in a fault on both engines\n", cases,
	       faulted);
	CHECK_EQ(differ, 0);
	/* The programs must mostly run to the end to test anything. */
	CHECK(faulted < cases / 4);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	gen_seed_from_env();
	RUN(random_programs);
	return check_summary();
}
