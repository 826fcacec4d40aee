/* SPDX-License-Identifier: MIT */
/*
 * The Midgard back end (compiler/backend) end to end: SIR kernels built by
 * hand, compiled with mbe_compile_kernel(), run on the model's shader
 * cores through the compute harness and compared with C references on
 * random inputs, for 32-, 64-, 16- and 8-bit integer lanes and the
 * conversions between them, and short8 / char16 in 16- / 8-bit reg mode.
 * Also: the code disassembles, and a float4 vector add needs at least 3.5x
 * fewer arithmetic cycles per element than the scalar one (the model's
 * cycle counters).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "xorshift.h"
#include "compute_harness.h"
#include "mbe_backend.h"
#include "midgard_isa.h"
#include "sir.h"
#include "sir_passes.h"

CHECK_MAIN_STATE("backend");

static struct fake_host fh;

#define BUF0 (CH_DATA_VA + 0x10000)
#define BUF1 (CH_DATA_VA + 0x90000)
#define BUF2 (CH_DATA_VA + 0x110000)
#define BUF3 (CH_DATA_VA + 0x190000)
#define IMAGE_VA CH_DATA_VA

static uint32_t rng = 0x1234567u;

static uint32_t rnd(void)
{
	return xorshift32(&rng);
}

static float rndf(void)
{
	return (float)((int32_t)rnd() % 20000) / 64.0f;
}

static uint32_t *words(uint64_t va)
{
	return (uint32_t *)ch_ptr(&fh, va);
}

/* ---- Building SIR ---- */

struct kb {
	struct sir_module *m;
	struct sir_function *f;
	uint32_t b;
};

static const struct sir_type T_I32 = { SIR_INT, 32, 1, 0 };
static const struct sir_type T_F32 = { SIR_FLOAT, 32, 1, 0 };
static const struct sir_type T_BOOL = { SIR_BOOL, 1, 1, 0 };
static const struct sir_type T_VOID = { SIR_VOID, 0, 0, 0 };

static struct sir_type vec(struct sir_type t, unsigned int n)
{
	t.comps = (uint8_t)n;
	return t;
}

static void kb_init(struct kb *k, const char *name)
{
	k->m = sir_module_create();
	k->f = sir_function_create(k->m, name);
	k->f->is_kernel = true;
	k->b = sir_block_add(k->f);
}

static sir_id op1(struct kb *k, enum sir_op op, struct sir_type t, sir_id a)
{
	return sir_emit(k->f, k->b, op, t, &a, 1);
}

static sir_id op2(struct kb *k, enum sir_op op, struct sir_type t, sir_id a,
		  sir_id b)
{
	sir_id s[2] = { a, b };

	return sir_emit(k->f, k->b, op, t, s, 2);
}

static sir_id op3(struct kb *k, enum sir_op op, struct sir_type t, sir_id a,
		  sir_id b, sir_id c)
{
	sir_id s[3] = { a, b, c };

	return sir_emit(k->f, k->b, op, t, s, 3);
}

static sir_id with_aux(struct kb *k, sir_id v, uint32_t aux)
{
	k->f->values[v].aux = aux;
	return v;
}

static void barrier(struct kb *k)
{
	sir_id v = sir_emit(k->f, k->b, SIR_OP_BARRIER, T_VOID, NULL, 0);

	k->f->values[v].aux = SIR_FENCE_LOCAL;
	k->f->values[v].aux2 = 1;
}

static sir_id ci(struct kb *k, uint32_t v)
{
	return sir_const_u64(k->f, T_I32, v);
}

static sir_id uniform(struct kb *k, struct sir_type t, uint32_t off)
{
	return with_aux(k, sir_emit(k->f, k->b, SIR_OP_UNIFORM, t, NULL, 0),
			off);
}

static sir_id gptr(struct kb *k, uint32_t off)
{
	return uniform(k, sir_type_ptr(SIR_SPACE_GLOBAL), off);
}

static sir_id sysval(struct kb *k, enum sir_sysval sv, unsigned int comp)
{
	sir_id s = with_aux(k, sir_emit(k->f, k->b, SIR_OP_SYSVAL,
					vec(T_I32, 3), NULL, 0), sv);

	return with_aux(k, op1(k, SIR_OP_EXTRACT, T_I32, s), comp);
}

/* p + i * size, as the front end writes array indexing. */
static sir_id elem(struct kb *k, sir_id p, sir_id i, unsigned int size)
{
	sir_id off = op2(k, SIR_OP_SHL, T_I32, i,
			 ci(k, (uint32_t)__builtin_ctz(size)));

	return op2(k, SIR_OP_PTR_ADD, k->f->values[p].type, p, off);
}

static sir_id load(struct kb *k, struct sir_type t, sir_id p)
{
	return with_aux(k, op1(k, SIR_OP_LOAD, t, p), 4);
}

static void store(struct kb *k, sir_id p, sir_id v)
{
	with_aux(k, op2(k, SIR_OP_STORE, T_VOID, p, v), 4);
}

static void ret(struct kb *k)
{
	sir_emit(k->f, k->b, SIR_OP_RET, T_VOID, NULL, 0);
}

static void br(struct kb *k, uint32_t target)
{
	sir_id v = sir_emit(k->f, k->b, SIR_OP_BR, T_VOID, NULL, 0);

	k->f->values[v].targets[0] = target;
}

static void cbr(struct kb *k, sir_id c, uint32_t t, uint32_t f)
{
	sir_id v = op1(k, SIR_OP_CBR, T_VOID, c);

	k->f->values[v].targets[0] = t;
	k->f->values[v].targets[1] = f;
}

static sir_id phi(struct kb *k, struct sir_type t, sir_id a, uint32_t ba,
		  sir_id b, uint32_t bb)
{
	static uint32_t pool[256][2];
	static unsigned int used;
	sir_id v = op2(k, SIR_OP_PHI, t, a, b);

	pool[used % 256][0] = ba;
	pool[used % 256][1] = bb;
	k->f->values[v].phi_blocks = pool[used++ % 256];
	return v;
}

/* ---- Compiling and running ---- */

struct compiled {
	struct slb_kernel k;
	struct mbe_code code;
	struct ch_result r;
};

static bool compile(struct kb *kb, unsigned int max_regs, uint32_t priv,
		    struct compiled *c)
{
	struct mbe_backend_options o = { max_regs };
	char err[256] = "";
	char verr[256] = "";

	memset(c, 0, sizeof(*c));
	c->k.private_bytes = priv;
	sir_compute_preds(kb->f);
	if (!sir_verify(kb->f, verr, sizeof(verr))) {
		printf("  sir_verify: %s\n", verr);
		return false;
	}
	if (!mbe_compile_kernel(kb->f, &o, &c->k, &c->code, err,
				sizeof(err))) {
		printf("  compile: %s\n", err);
		return false;
	}
	{
		/* Everything emitted must disassemble (it decodes strictly). */
		static char text[1 << 18];

		if (mdg_disassemble(c->code.code, c->code.size, c->k.first_tag,
				    text, sizeof(text), err, sizeof(err)) < 0) {
			printf("  disassembly: %s\n", err);
			return false;
		}
	}
	return true;
}

static void disasm(const struct compiled *c)
{
	static char text[1 << 18];
	char err[128];

	if (mdg_disassemble(c->code.code, c->code.size, c->k.first_tag, text,
			    sizeof(text), err, sizeof(err)) < 0)
		printf("  disassembly failed: %s\n", err);
	else
		printf("%s", text);
}

/* Runs with the argument image (uniform_bytes) at IMAGE_VA too. */
static bool run(struct compiled *c, const uint32_t *image, uint32_t bytes,
		uint32_t local, uint32_t groups, uint32_t wls)
{
	struct ch_kernel k;

	memset(&k, 0, sizeof(k));
	k.code = c->code.code;
	k.code_size = c->code.size;
	k.first_tag = c->k.first_tag;
	k.work_regs = c->k.work_regs ? c->k.work_regs : 1;
	k.uniforms = image;
	k.uniform_vec4 = c->k.push_vec4;
	if (c->k.needs_ubo) {
		memcpy(ch_ptr(&fh, IMAGE_VA), image, bytes);
		k.ubo_count = 1;
		k.ubo_va[0] = IMAGE_VA;
		k.ubo_size[0] = (bytes + 15) & ~15u;
	}
	k.tls_bytes = c->k.private_bytes;
	k.wls_bytes = wls;
	k.barrier = c->k.barrier;
	k.local_size[0] = local;
	k.local_size[1] = k.local_size[2] = 1;
	k.num_groups[0] = groups;
	k.num_groups[1] = k.num_groups[2] = 1;
	if (!ch_run(&fh, &k, &c->r))
		return false;
	if (c->r.js_status != 1) {
		printf("  job status 0x%x: %s (fault address 0x%" PRIx64 ")\n",
		       c->r.js_status, fh.last_error,
		       rd64(&fh, AS_REG(1, 0x20)));
		disasm(c);
	}
	return c->r.js_status == 1;
}

static uint64_t alu_cycles(const struct compiled *c)
{
	return c->r.after.shader_arith_cycles - c->r.before.shader_arith_cycles;
}

/* ---- Kernels ---- */

/* out[i] = a[i] + b[i] with n-component floats. */
static void build_vadd(struct kb *k, unsigned int n)
{
	struct sir_type t = vec(T_F32, n);
	sir_id gid = sysval(k, SIR_SYSVAL_GLOBAL_ID, 0);
	sir_id a = load(k, t, elem(k, gptr(k, 0), gid, 4 * n));
	sir_id b = load(k, t, elem(k, gptr(k, 4), gid, 4 * n));

	store(k, elem(k, gptr(k, 8), gid, 4 * n),
	      op2(k, SIR_OP_FADD, t, a, b));
	ret(k);
}

static bool vadd_run(unsigned int n, unsigned int elems, struct compiled *c)
{
	struct kb k;
	uint32_t image[4] = { BUF0, BUF1, BUF2, 0 };
	float *a = (float *)words(BUF0), *b = (float *)words(BUF1);
	float *o = (float *)words(BUF2);
	bool ok = true;

	kb_init(&k, "vadd");
	build_vadd(&k, n);
	if (!compile(&k, 16, 0, c)) {
		sir_module_destroy(k.m);
		return false;
	}
	sir_module_destroy(k.m);
	for (unsigned int i = 0; i < elems; i++) {
		a[i] = rndf();
		b[i] = rndf();
		o[i] = -1.0f;
	}
	if (!run(c, image, 16, 64, elems / n / 64, 0))
		return false;
	if (getenv("BACKEND_DISASM"))
		disasm(c);
	for (unsigned int i = 0; i < elems; i++)
		if (o[i] != a[i] + b[i]) {
			printf("  out[%u] = %g, want %g\n", i, o[i],
			       a[i] + b[i]);
			ok = false;
			break;
		}
	return ok;
}

TEST(vector_add_scalar_and_float4)
{
	struct compiled s, v;
	double per_s, per_v;

	REQUIRE(ch_setup(&fh));
	CHECK(vadd_run(1, 4096, &s));
	CHECK(vadd_run(4, 4096, &v));
	per_s = (double)alu_cycles(&s) / 4096;
	per_v = (double)alu_cycles(&v) / 4096;
	printf("  arithmetic cycles per element: scalar %.3f, float4 %.3f "
	       "(%.2fx); bundles %u/%u alu, %u/%u ldst; regs %u/%u\n",
	       per_s, per_v, per_s / per_v, s.k.stats.alu_bundles,
	       v.k.stats.alu_bundles, s.k.stats.ldst_bundles,
	       v.k.stats.ldst_bundles, s.k.work_regs, v.k.work_regs);
	CHECK(per_v > 0 && per_s / per_v >= 3.5);
	free(s.code.code);
	free(v.code.code);
	CHECK(fh_fini(&fh));
}

/*
 * A loop with phis, comparisons and select, integer ops:
 *   acc = 0; for (i = 0; i < n; i++) acc += x * i + (i ^ x);
 *   out[gid] = acc < 5000 ? acc * 3 : (acc >> 2) - 7
 *   out2[gid] = (x & 0xFF) | min(x, 300) << 8 ...
 */
TEST(loops_phis_select_int_ops)
{
	struct kb k;
	struct compiled c;
	uint32_t image[4] = { BUF0, BUF1, 0, 0 };
	uint32_t b1, b2, n = 13;
	sir_id gid, x, nn, i, acc, i1, acc1, cond, big, t, res, p0;
	int32_t *in, *out;

	REQUIRE(ch_setup(&fh));
	in = (int32_t *)words(BUF0);
	out = (int32_t *)words(BUF1);
	kb_init(&k, "loop");
	b1 = sir_block_add(k.f);
	b2 = sir_block_add(k.f);
	gid = sysval(&k, SIR_SYSVAL_GLOBAL_ID, 0);
	p0 = gptr(&k, 0);
	x = load(&k, T_I32, elem(&k, p0, gid, 4));
	nn = uniform(&k, T_I32, 8);
	br(&k, b1);
	k.b = b1;
	i = phi(&k, T_I32, ci(&k, 0), 0, 0, b1);
	acc = phi(&k, T_I32, ci(&k, 0), 0, 0, b1);
	t = op2(&k, SIR_OP_IADD, T_I32,
		op2(&k, SIR_OP_IMUL, T_I32, x, i),
		op2(&k, SIR_OP_XOR, T_I32, i, x));
	acc1 = op2(&k, SIR_OP_IADD, T_I32, acc, t);
	i1 = op2(&k, SIR_OP_IADD, T_I32, i, ci(&k, 1));
	k.f->values[i].srcs[1] = i1;
	k.f->values[acc].srcs[1] = acc1;
	cond = op2(&k, SIR_OP_SLT, T_BOOL, i1, nn);
	cbr(&k, cond, b1, b2);
	k.b = b2;
	big = op2(&k, SIR_OP_SLT, T_BOOL, acc1, ci(&k, 5000));
	res = op3(&k, SIR_OP_SELECT, T_I32, big,
		  op2(&k, SIR_OP_IMUL, T_I32, acc1, ci(&k, 3)),
		  op2(&k, SIR_OP_ISUB, T_I32,
		      op2(&k, SIR_OP_ASHR, T_I32, acc1, ci(&k, 2)),
		      ci(&k, 7)));
	res = op2(&k, SIR_OP_XOR, T_I32, res,
		  op2(&k, SIR_OP_SHL, T_I32,
		      op2(&k, SIR_OP_SMIN, T_I32, x, ci(&k, 300)),
		      ci(&k, 8)));
	store(&k, elem(&k, gptr(&k, 4), gid, 4), res);
	ret(&k);
	image[2] = n;
	REQUIRE(compile(&k, 16, 0, &c));
	sir_module_destroy(k.m);
	for (int j = 0; j < 256; j++) {
		in[j] = (int32_t)(rnd() % 2000) - 1000;
		out[j] = 0x5A5A5A5A;
	}
	CHECK(run(&c, image, 16, 64, 4, 0));
	for (int j = 0; j < 256; j++) {
		int32_t a = 0, r;

		for (uint32_t q = 0; q < n; q++)
			a += in[j] * (int32_t)q + ((int32_t)q ^ in[j]);
		r = a < 5000 ? a * 3 : (a >> 2) - 7;
		r ^= (int32_t)((uint32_t)(in[j] < 300 ? in[j] : 300) << 8);
		if (out[j] != r) {
			printf("  out[%d] = %d, want %d\n", j, out[j], r);
			CHECK(false);
			break;
		}
	}
	free(c.code.code);
	CHECK(fh_fini(&fh));
}

/*
 * Memory spaces: a private array, __local memory with a barrier, a global
 * atomic, and an argument beyond the pushed rows (read from UBO 0):
 *   priv[k] = x + k (k < 4); loc[lid] = x; barrier;
 *   out[gid] = loc[lid ^ 1] + priv[lid & 3]; atomic_add(counter, x)
 */
TEST(private_local_barrier_atomic_ubo)
{
	struct kb k;
	struct compiled c;
	uint32_t image[64] = { 0 };
	sir_id gid, lid, x, priv, loc, y, pv, out, old;
	int32_t *in, *res;
	uint32_t sum = 0;
	struct sir_type pp = sir_type_ptr(SIR_SPACE_PRIVATE);
	struct sir_type lp = sir_type_ptr(SIR_SPACE_LOCAL);

	REQUIRE(ch_setup(&fh));
	in = (int32_t *)words(BUF0);
	res = (int32_t *)words(BUF1);
	kb_init(&k, "mem");
	gid = sysval(&k, SIR_SYSVAL_GLOBAL_ID, 0);
	lid = sysval(&k, SIR_SYSVAL_LOCAL_ID, 0);
	x = load(&k, T_I32, elem(&k, gptr(&k, 0), gid, 4));
	priv = sir_const_u64(k.f, pp, 16);
	for (uint32_t q = 0; q < 4; q++)
		store(&k, elem(&k, priv, ci(&k, q), 4),
		      op2(&k, SIR_OP_IADD, T_I32, x, ci(&k, q)));
	loc = sir_const_u64(k.f, lp, 0);
	store(&k, elem(&k, loc, lid, 4), x);
	barrier(&k);
	y = load(&k, T_I32, elem(&k, loc,
				 op2(&k, SIR_OP_XOR, T_I32, lid, ci(&k, 1)),
				 4));
	pv = load(&k, T_I32, elem(&k, priv,
				  op2(&k, SIR_OP_AND, T_I32, lid, ci(&k, 3)),
				  4));
	out = gptr(&k, 200);             /* row 12: beyond the push limit */
	store(&k, elem(&k, out, gid, 4), op2(&k, SIR_OP_IADD, T_I32, y, pv));
	old = op2(&k, SIR_OP_ATOMIC, T_I32, gptr(&k, 4), x);
	k.f->values[old].aux2 = SIR_ATOMIC_ADD;
	ret(&k);
	image[0] = BUF0;
	image[1] = BUF2;
	image[50] = BUF1;
	REQUIRE(compile(&k, 16, 32, &c));
	sir_module_destroy(k.m);
	CHECK(c.k.needs_ubo);
	CHECK(c.k.barrier);
	CHECK_EQ(c.k.private_bytes, 32);
	for (int j = 0; j < 256; j++) {
		in[j] = (int32_t)rnd();
		res[j] = 0;
		sum += (uint32_t)in[j];
	}
	words(BUF2)[0] = 7;
	CHECK(run(&c, image, sizeof(image), 64, 4, 64 * 4));
	for (int j = 0; j < 256; j++) {
		int32_t want = (int32_t)((uint32_t)in[j ^ 1] +
					 (uint32_t)in[j] + (uint32_t)(j & 3));

		if (res[j] != want) {
			printf("  out[%d] = %d, want %d\n", j, res[j], want);
			CHECK(false);
			break;
		}
	}
	CHECK_EQ(words(BUF2)[0], sum + 7);
	free(c.code.code);
	CHECK(fh_fini(&fh));
}

/* Eight float4 values live at once, in at most 4 work registers. */
TEST(spills_under_register_limit)
{
	struct kb k;
	struct compiled c;
	uint32_t image[4] = { BUF0, BUF1, 0, 0 };
	struct sir_type t = vec(T_F32, 4);
	sir_id gid, base, v[8], sum = 0;
	float *in, *out;

	REQUIRE(ch_setup(&fh));
	in = (float *)words(BUF0);
	out = (float *)words(BUF1);
	kb_init(&k, "spill");
	gid = sysval(&k, SIR_SYSVAL_GLOBAL_ID, 0);
	base = op2(&k, SIR_OP_SHL, T_I32, gid, ci(&k, 3));
	for (int q = 0; q < 8; q++)
		v[q] = load(&k, t, elem(&k, gptr(&k, 0),
					op2(&k, SIR_OP_IADD, T_I32, base,
					    ci(&k, (uint32_t)q)), 16));
	for (int q = 0; q < 8; q++) {
		sir_id m = op2(&k, SIR_OP_FMUL, t, v[q],
			       sir_const_f64(k.f, t, q + 1.5));

		sum = q ? op2(&k, SIR_OP_FADD, t, sum, m) : m;
	}
	store(&k, elem(&k, gptr(&k, 4), gid, 16), sum);
	ret(&k);
	REQUIRE(compile(&k, 4, 0, &c));
	sir_module_destroy(k.m);
	printf("  work registers %u, spills %u, fills %u, private %u\n",
	       c.k.work_regs, c.k.stats.spills, c.k.stats.fills,
	       c.k.private_bytes);
	CHECK(c.k.work_regs <= 4);
	CHECK(c.k.stats.spills > 0);
	CHECK_EQ(c.k.threads_per_core, 256);
	for (int j = 0; j < 128 * 32; j++)
		in[j] = rndf();
	CHECK(run(&c, image, 16, 64, 2, 0));
	for (int j = 0; j < 128; j++) {
		for (int e = 0; e < 4; e++) {
			float s = 0;

			for (int q = 0; q < 8; q++) {
				float m = in[(j * 8 + q) * 4 + e] *
					  (float)(q + 1.5);

				s = q ? s + m : m;
			}
			if (out[j * 4 + e] != s) {
				printf("  out[%d] = %g, want %g\n", j * 4 + e,
				       out[j * 4 + e], s);
				CHECK(false);
				j = 128;
				break;
			}
		}
	}
	free(c.code.code);
	CHECK(fh_fini(&fh));
}


static const struct sir_type T_I64 = { SIR_INT, 64, 1, 0 };
static const struct sir_type T_I16 = { SIR_INT, 16, 1, 0 };
static const struct sir_type T_I8 = { SIR_INT, 8, 1, 0 };

static sir_id cw(struct kb *k, struct sir_type t, uint64_t v)
{
	return sir_const_u64(k->f, t, v);
}

/*
 * 64-bit lanes: mul, add, shifts, xor, sub, compare, select, zext/sext
 * from 32 bits, trunc, long2 vectors with extract and shuffle.
 */
TEST(long_lanes)
{
	struct kb k;
	struct compiled c;
	uint32_t image[4] = { BUF0, BUF1, BUF2, BUF3 };
	struct sir_type l2 = vec(T_I64, 2);
	sir_id gid, a, b, w, x, y, z, m, n, v2, sh;
	uint64_t *A, *B, *out;
	uint32_t *W;

	REQUIRE(ch_setup(&fh));
	A = (uint64_t *)words(BUF0);
	B = (uint64_t *)words(BUF1);
	W = words(BUF2);
	out = (uint64_t *)words(BUF3);
	kb_init(&k, "long_lanes");
	gid = sysval(&k, SIR_SYSVAL_GLOBAL_ID, 0);
	v2 = load(&k, l2, elem(&k, gptr(&k, 0), gid, 16));
	a = with_aux(&k, op1(&k, SIR_OP_EXTRACT, T_I64, v2), 0);
	b = load(&k, T_I64, elem(&k, gptr(&k, 4), gid, 8));
	w = load(&k, T_I32, elem(&k, gptr(&k, 8), gid, 4));
	x = op2(&k, SIR_OP_IADD, T_I64, op2(&k, SIR_OP_IMUL, T_I64, a, b),
		op2(&k, SIR_OP_LSHR, T_I64, a, cw(&k, T_I64, 7)));
	y = op1(&k, SIR_OP_ZEXT, T_I64, w);
	z = op1(&k, SIR_OP_SEXT, T_I64, w);
	m = op3(&k, SIR_OP_SELECT, T_I64, op2(&k, SIR_OP_SLT, T_BOOL, a, b),
		op2(&k, SIR_OP_XOR, T_I64, x, y),
		op2(&k, SIR_OP_ISUB, T_I64, z, b));
	n = op2(&k, SIR_OP_IADD, T_I64,
		op2(&k, SIR_OP_ASHR, T_I64, x, cw(&k, T_I64, 13)),
		op1(&k, SIR_OP_ZEXT, T_I64,
		    op1(&k, SIR_OP_TRUNC, T_I32, b)));
	sh = op2(&k, SIR_OP_SHL, T_I64, b, cw(&k, T_I64, 33));
	store(&k, elem(&k, gptr(&k, 12), gid, 32),
	      op2(&k, SIR_OP_IADD, l2, v2,
		  op3(&k, SIR_OP_SELECT, l2,
		      op2(&k, SIR_OP_ULT, vec(T_BOOL, 2), v2,
			  sir_const_u64(k.f, l2, 1ull << 63)),
		      op2(&k, SIR_OP_IADD, l2, v2, v2), v2)));
	store(&k, op2(&k, SIR_OP_PTR_ADD, sir_type_ptr(SIR_SPACE_GLOBAL),
		      elem(&k, gptr(&k, 12), gid, 32), ci(&k, 16)), m);
	store(&k, op2(&k, SIR_OP_PTR_ADD, sir_type_ptr(SIR_SPACE_GLOBAL),
		      elem(&k, gptr(&k, 12), gid, 32), ci(&k, 24)),
	      op2(&k, SIR_OP_XOR, T_I64, n, sh));
	ret(&k);
	REQUIRE(compile(&k, 16, 0, &c));
	sir_module_destroy(k.m);
	for (int j = 0; j < 256; j++) {
		A[2 * j] = (uint64_t)rnd() << 32 | rnd();
		A[2 * j + 1] = (uint64_t)rnd() << 32 | rnd();
		B[j] = (uint64_t)rnd() << 32 | rnd();
		W[j] = rnd();
	}
	CHECK(run(&c, image, sizeof(image), 64, 4, 0));
	for (int j = 0; j < 256; j++) {
		uint64_t a0 = A[2 * j], b0 = B[j];
		uint64_t x0 = a0 * b0 + (a0 >> 7);
		uint64_t m0 = (int64_t)a0 < (int64_t)b0 ?
			      x0 ^ W[j] :
			      (uint64_t)(int64_t)(int32_t)W[j] - b0;
		uint64_t n0 = (uint64_t)((int64_t)x0 >> 13) + (uint32_t)b0;
		uint64_t want[4];

		for (int e = 0; e < 2; e++) {
			uint64_t v = A[2 * j + e];

			want[e] = v < (1ull << 63) ? 2 * v : v;
			want[e] += v;
		}
		want[2] = m0;
		want[3] = n0 ^ (b0 << 33);
		for (int e = 0; e < 4; e++) {
			if (out[4 * j + e] != want[e]) {
				printf("  out[%d][%d] = %" PRIx64 ", want %"
				       PRIx64 "\n", j, e, out[4 * j + e],
				       want[e]);
				CHECK(false);
				j = 256;
				break;
			}
		}
	}
	free(c.code.code);
	CHECK(fh_fini(&fh));
}

/*
 * 8- and 16-bit lanes: narrow loads and stores, sign/zero extension,
 * signed and unsigned compares, saturating add, min, arithmetic shift,
 * truncation, and a char4 vector.
 */
TEST(narrow_lanes)
{
	struct kb k;
	struct compiled c;
	uint32_t image[4] = { BUF0, BUF1, BUF2, BUF3 };
	struct sir_type c4 = vec(T_I8, 4);
	sir_id gid, ch, sh, c2, v4, outp, r[6];
	uint8_t *C, *out8;
	uint16_t *S;
	int32_t *out;

	REQUIRE(ch_setup(&fh));
	C = (uint8_t *)words(BUF0);
	S = (uint16_t *)words(BUF1);
	out8 = (uint8_t *)words(BUF2);
	out = (int32_t *)words(BUF3);
	kb_init(&k, "narrow_lanes");
	gid = sysval(&k, SIR_SYSVAL_GLOBAL_ID, 0);
	ch = load(&k, T_I8, op2(&k, SIR_OP_PTR_ADD,
				sir_type_ptr(SIR_SPACE_GLOBAL), gptr(&k, 0),
				gid));
	sh = load(&k, T_I16, elem(&k, gptr(&k, 4), gid, 2));
	v4 = load(&k, c4, elem(&k, gptr(&k, 0), gid, 4));
	c2 = op1(&k, SIR_OP_TRUNC, T_I8, sh);
	r[0] = op1(&k, SIR_OP_SEXT, T_I32, ch);
	r[1] = op1(&k, SIR_OP_ZEXT, T_I32, sh);
	r[2] = op3(&k, SIR_OP_SELECT, T_I32,
		   op2(&k, SIR_OP_SLT, T_BOOL, ch, c2), r[0], r[1]);
	r[3] = op1(&k, SIR_OP_SEXT, T_I32,
		   op2(&k, SIR_OP_SADD_SAT, T_I8, ch, c2));
	r[4] = op1(&k, SIR_OP_ZEXT, T_I32,
		   op2(&k, SIR_OP_UMIN, T_I8, ch, c2));
	r[5] = op1(&k, SIR_OP_SEXT, T_I32,
		   op2(&k, SIR_OP_ASHR, T_I16, sh,
		       sir_const_u64(k.f, T_I16, 3)));
	outp = elem(&k, gptr(&k, 12), gid, 32);
	for (int q = 0; q < 6; q++)
		store(&k, q ? op2(&k, SIR_OP_PTR_ADD,
				  sir_type_ptr(SIR_SPACE_GLOBAL), outp,
				  ci(&k, 4u * (uint32_t)q)) : outp, r[q]);
	store(&k, elem(&k, gptr(&k, 8), gid, 4),
	      op3(&k, SIR_OP_SELECT, c4,
		  op2(&k, SIR_OP_ULT, vec(T_BOOL, 4), v4,
		      sir_const_u64(k.f, c4, 0x80)),
		  op2(&k, SIR_OP_IADD, c4, v4, v4),
		  op2(&k, SIR_OP_USUB_SAT, c4, v4,
		      sir_const_u64(k.f, c4, 0xC0))));
	ret(&k);
	REQUIRE(compile(&k, 16, 0, &c));
	sir_module_destroy(k.m);
	for (int j = 0; j < 1024; j++) {
		C[j] = (uint8_t)rnd();
		S[j] = (uint16_t)rnd();
	}
	CHECK(run(&c, image, sizeof(image), 64, 4, 0));
	for (int j = 0; j < 256; j++) {
		int8_t a = (int8_t)C[j], b = (int8_t)S[j];
		int sum = a + b;
		int32_t want[6] = {
			a, S[j], a < b ? a : S[j],
			sum > 127 ? 127 : sum < -128 ? -128 : sum,
			(uint8_t)a < (uint8_t)b ? (uint8_t)a : (uint8_t)b,
			(int16_t)S[j] >> 3,
		};
		bool bad = false;

		for (int q = 0; q < 6; q++)
			bad |= out[8 * j + q] != want[q];
		for (int e = 0; e < 4; e++) {
			uint8_t v = C[4 * j + e];
			uint8_t w = v < 0x80 ? (uint8_t)(2 * v) :
				    v > 0xC0 ? (uint8_t)(v - 0xC0) : 0;

			bad |= out8[4 * j + e] != w;
		}
		if (bad) {
			printf("  element %d wrong: %d %d %d %d %d %d\n", j,
			       out[8 * j], out[8 * j + 1], out[8 * j + 2],
			       out[8 * j + 3], out[8 * j + 4], out[8 * j + 5]);
			CHECK(false);
			break;
		}
	}
	free(c.code.code);
	CHECK(fh_fini(&fh));
}

/* ---- fp16 conversions and 64-bit bit counts ---- */

/* The value of fp16 bits h, from the encoding's definition. */
static double half_value(uint16_t h)
{
	int e = (h >> 10) & 0x1F, m = h & 0x3FF;
	double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);

	if (e == 31)
		v = m ? NAN : INFINITY;
	return (h & 0x8000) ? -v : v;
}

/* Reference fp32 -> fp16 in SIR rounding mode q, by search over halves. */
static uint16_t half_ref(float f, unsigned int q)
{
	uint16_t lo = 0, hi, sign = signbit(f) ? 0x8000 : 0;
	double a = fabs((double)f), dl, dh;

	if (isnan(f))
		return 0x7E00;
	if (isinf(f))
		return 0x7C00 | sign;
	/* lo: the largest finite magnitude <= a (0x7BFF at most). */
	while (lo < 0x7BFF && half_value((uint16_t)(lo + 1)) <= a)
		lo++;
	hi = half_value(lo) == a ? lo : (uint16_t)(lo + 1);
	if (lo == 0x7BFF && a > 65504.0)
		hi = 0x7C00;
	if (lo == hi)
		return lo | sign;
	dl = a - half_value(lo);
	/* Past the largest finite half, ties are decided at 2^16. */
	dh = (hi == 0x7C00 ? 65536.0 : half_value(hi)) - a;
	switch (q) {
	case SIR_CONV_RTE:
		if (dl < dh || (dl == dh && !(lo & 1)))
			return lo | sign;
		return hi | sign;
	case SIR_CONV_RTZ:
		return lo | sign;
	case SIR_CONV_RTP:
		return (sign ? lo : hi) | sign;
	default:
		return (sign ? hi : lo) | sign;
	}
}

static uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* Inputs that reach every path: specials, boundaries, ties, randoms. */
static float half_input(int j)
{
	static const uint32_t fixed[] = {
		0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00001,
		0x477FE000, 0x477FEFFF, 0x477FF000, 0x47800000, 0x7F7FFFFF,
		0x38800000, 0x387FFFFF, 0x33800000, 0x33000000, 0x33000001,
		0x00000001, 0x80000001, 0x3F801000, 0x3F803000, 0x3F802FFF,
		0xB3C00000, 0x34400000, 0x38FFF000, 0x38801000,
	};
	uint32_t u;
	float f;

	if (j < (int)(sizeof(fixed) / sizeof(fixed[0])))
		u = fixed[j];
	else if (j % 3 == 0)   /* ties and near-ties of halves */
		u = (rnd() & 0x8FFFE000u) | (uint32_t)(96 + rnd() % 48) << 23 |
		    (rnd() % 3 == 0 ? 0x1000u : rnd() & 0x1FFF);
	else
		u = (rnd() & 0x807FFFFFu) | (uint32_t)(96 + rnd() % 48) << 23;
	memcpy(&f, &u, 4);
	return f;
}

/*
 * FCONV float4 -> half4 in each rounding mode and half4 -> float4,
 * checked against an exact search over the fp16 values; CLZ and POPCOUNT
 * of 64-bit lanes against the C builtins.
 */
TEST(half_conversions_and_long_bitcounts)
{
	static const struct sir_type T_F16 = { SIR_FLOAT, 16, 1, 0 };
	struct kb k;
	struct compiled c;
	uint32_t image[4] = { BUF0, BUF1, BUF2, BUF3 };
	sir_id gid, x, h, l, o;
	float *X, *outf;
	uint16_t *H, *out16;
	uint64_t *L, *outl;

	REQUIRE(ch_setup(&fh));
	X = (float *)words(BUF0);
	H = (uint16_t *)words(BUF1);
	L = (uint64_t *)words(BUF1 + 0x8000);
	out16 = (uint16_t *)words(BUF2);
	outf = (float *)words(BUF3);
	outl = (uint64_t *)words(BUF3 + 0x8000);
	kb_init(&k, "half_conversions");
	gid = sysval(&k, SIR_SYSVAL_GLOBAL_ID, 0);
	x = load(&k, vec(T_F32, 4), elem(&k, gptr(&k, 0), gid, 16));
	for (unsigned int q = 0; q < 4; q++) {
		h = with_aux(&k, op1(&k, SIR_OP_FCONV, vec(T_F16, 4), x), q);
		o = elem(&k, gptr(&k, 8), gid, 32);
		if (q)
			o = op2(&k, SIR_OP_PTR_ADD,
				sir_type_ptr(SIR_SPACE_GLOBAL), o,
				ci(&k, 8 * q));
		store(&k, o, op1(&k, SIR_OP_BITCAST, vec(T_I16, 4), h));
	}
	h = op1(&k, SIR_OP_BITCAST, vec(T_F16, 4),
		load(&k, vec(T_I16, 4), elem(&k, gptr(&k, 4), gid, 8)));
	store(&k, elem(&k, gptr(&k, 12), gid, 16),
	      op1(&k, SIR_OP_FCONV, vec(T_F32, 4), h));
	l = load(&k, T_I64, op2(&k, SIR_OP_PTR_ADD,
				sir_type_ptr(SIR_SPACE_GLOBAL),
				elem(&k, gptr(&k, 4), gid, 8),
				ci(&k, 0x8000)));
	o = op2(&k, SIR_OP_PTR_ADD, sir_type_ptr(SIR_SPACE_GLOBAL),
		elem(&k, gptr(&k, 12), gid, 16), ci(&k, 0x8000));
	store(&k, o, op1(&k, SIR_OP_CLZ, T_I64, l));
	store(&k, op2(&k, SIR_OP_PTR_ADD, sir_type_ptr(SIR_SPACE_GLOBAL), o,
		      ci(&k, 8)), op1(&k, SIR_OP_POPCOUNT, T_I64, l));
	ret(&k);
	REQUIRE(compile(&k, 16, 0, &c));
	sir_module_destroy(k.m);
	for (int j = 0; j < 1024; j++) {
		X[j] = half_input(j);
		H[j] = (uint16_t)(j < 64 ? 0x7C00u | (j * 37u & 0x3FFu) |
				  (j & 1u) << 15 : rnd());
		if (j < 256) {
			int z = (int)(rnd() % 70);

			L[j] = z >= 64 ? 0 : ((uint64_t)rnd() << 32 | rnd() |
					     1ull << 63) >> z;
		}
	}
	H[64] = 0x0000;
	H[65] = 0x8001;
	H[66] = 0x03FF;
	H[67] = 0xFC00;
	CHECK(run(&c, image, sizeof(image), 64, 4, 0));
	for (int j = 0; j < 1024; j++) {
		double want = half_value(H[j]);
		float got = outf[j];
		bool bad = !signbit(got) != !(H[j] & 0x8000) ||
			   (isnan(want) ? !isnan(got) : (double)got != want);

		for (unsigned int q = 0; q < 4; q++) {
			uint16_t r = half_ref(X[j], q);
			uint16_t g = out16[16 * (j / 4) + 4 * q + j % 4];

			if (isnan(X[j]) ? (g & 0x7C00) != 0x7C00 ||
					  !(g & 0x3FF) : g != r) {
				printf("  fp32 0x%08x mode %u: got 0x%04x, "
				       "want 0x%04x\n", f32_bits(X[j]), q, g,
				       r);
				bad = true;
			}
		}
		if (bad) {
			printf("  half 0x%04x -> %a (0x%08x), want %a\n", H[j],
			       (double)got, f32_bits(got), want);
			CHECK(false);
			break;
		}
	}
	for (int j = 0; j < 256; j++) {
		uint64_t z = L[j] ? (uint64_t)__builtin_clzll(L[j]) : 64;
		uint64_t p = (uint64_t)__builtin_popcountll(L[j]);

		if (outl[2 * j] != z || outl[2 * j + 1] != p) {
			printf("  0x%016" PRIx64 ": clz %" PRIu64 " popcount %"
			       PRIu64 ", want %" PRIu64 " %" PRIu64 "\n", L[j],
			       outl[2 * j], outl[2 * j + 1], z, p);
			CHECK(false);
			break;
		}
	}
	free(c.code.code);
	CHECK(fh_fini(&fh));
}

/* A finite half as an integer count of 2^-24. */
static __int128 half_units(uint16_t h)
{
	int e = (h >> 10) & 0x1F;
	__int128 m = h & 0x3FF;

	if (e)
		m = (m | 0x400) << (e - 1);
	return (h & 0x8000) ? -m : m;
}

/* The correctly rounded half of an exact x * 2^-48 (ties to even). */
static uint16_t half_of_units48(__int128 x)
{
	__int128 a = x < 0 ? -x : x, best_d = -1;
	uint16_t sign = x < 0 ? 0x8000 : 0, best = 0;

	if (a >= (__int128)65520 << 48)
		return sign | 0x7C00;
	for (uint16_t c = 0; c <= 0x7BFF; c++) {
		__int128 d = a - half_units(c) * ((__int128)1 << 24);

		d = d < 0 ? -d : d;
		if (best_d >= 0 && d > best_d)
			break;               /* past the nearest */
		if (best_d < 0 || d < best_d || (d == best_d && !(c & 1))) {
			best_d = d;
			best = c;
		}
	}
	return sign | best;
}

/* Finite halves only: op's exact result rounded once. */
static uint16_t half_op_ref(enum sir_op op, uint16_t a, uint16_t b,
			    uint16_t c)
{
	__int128 x = half_units(a), y = half_units(b);
	__int128 s = op == SIR_OP_FADD ? (x + y) * ((__int128)1 << 24) :
		     op == SIR_OP_FMUL ? x * y :
		     x * y + half_units(c) * ((__int128)1 << 24);

	if (s == 0)                  /* the sign of an exact zero */
		return op == SIR_OP_FADD ? (a & b & 0x8000) :
		       op == SIR_OP_FMUL ? ((a ^ b) & 0x8000) :
		       (((a ^ b) & c) & 0x8000);
	return half_of_units48(s);
}

/* A finite half, often near 1 so that sums and products tie. */
static uint16_t finite_half(void)
{
	uint32_t r = rnd();

	if (r % 3 == 0)
		return (uint16_t)((r >> 8 & 0x83FF) | (13 + (r >> 20) % 5) << 10);
	r >>= 16;
	return (uint16_t)((r & 0x7C00) == 0x7C00 ? r & 0xBFFF : r);
}

static const enum sir_op half_ops[3] = { SIR_OP_FADD, SIR_OP_FMUL,
					  SIR_OP_FMA };

/* Runs the half_arithmetic kernel on fresh inputs; the wrong results. */
static unsigned int run_half_arithmetic(struct compiled *c,
					uint32_t *image, uint32_t image_size)
{
	uint16_t *in[3], *out = (uint16_t *)words(BUF3);
	unsigned int bad = 0;

	for (int q = 0; q < 3; q++)
		in[q] = (uint16_t *)words(image[q]);
	for (int j = 0; j < 4096; j++) {
		in[0][j] = finite_half();
		in[1][j] = finite_half();
		in[2][j] = finite_half();
		if (j % 2) {
			/* c near -a * b: the low bits of the sum decide. */
			double p = half_value(in[0][j]) * half_value(in[1][j]);

			in[2][j] = (uint16_t)(half_ref((float)-p, SIR_CONV_RTE) +
					      rnd() % 5 - 2);
			if ((in[2][j] & 0x7C00) == 0x7C00)
				in[2][j] = 0;
		}
	}
	if (!run(c, image, image_size, 64, 16, 0))
		return 1;
	for (int j = 0; j < 4096 && bad < 10; j++) {
		for (int q = 0; q < 3; q++) {
			uint16_t want = half_op_ref(half_ops[q], in[0][j],
						    in[1][j], in[2][j]);
			uint16_t got = out[16 * (j / 4) + 4 * q + j % 4];

			if (got != want) {
				printf("  %s(0x%04x, 0x%04x, 0x%04x) = 0x%04x, "
				       "want 0x%04x\n",
				       sir_op_name(half_ops[q]), in[0][j],
				       in[1][j], in[2][j], got, want);
				bad++;
			}
		}
	}
	return bad;
}

/*
 * half4 add, mul and fma on the model, as the pipeline lowers them (add
 * and mul in 16-bit lanes, fma in fp32 by sir_lower_half.c), against the
 * exact results rounded to fp16; fma's round-to-odd sum included. Also
 * with 3 work registers: spill temporaries keep the halves' even
 * placement.
 */
TEST(half_arithmetic)
{
	static const struct sir_type T_F16 = { SIR_FLOAT, 16, 1, 0 };
	struct kb k;
	struct compiled c;
	uint32_t image[4] = { BUF0, BUF1, BUF2, BUF3 };
	struct sir_type h4 = vec(T_F16, 4);
	sir_id gid, x[3], r, o;
	char err[256];

	REQUIRE(ch_setup(&fh));
	kb_init(&k, "half_arithmetic");
	gid = sysval(&k, SIR_SYSVAL_GLOBAL_ID, 0);
	for (int q = 0; q < 3; q++)
		x[q] = load(&k, h4, elem(&k, gptr(&k, 4 * q), gid, 8));
	for (int q = 0; q < 3; q++) {
		r = q == 2 ? op3(&k, half_ops[q], h4, x[0], x[1], x[2]) :
		    op2(&k, half_ops[q], h4, x[0], x[1]);
		o = op2(&k, SIR_OP_PTR_ADD, sir_type_ptr(SIR_SPACE_GLOBAL),
			elem(&k, gptr(&k, 12), gid, 32), ci(&k, 8 * q));
		store(&k, o, r);
	}
	ret(&k);
	if (!sir_lower_midgard(k.f, false, err, sizeof(err)))
		printf("  lower: %s\n", err);
	REQUIRE(compile(&k, 16, 0, &c));
	CHECK_EQ(run_half_arithmetic(&c, image, sizeof(image)), 0u);
	free(c.code.code);
	REQUIRE(compile(&k, 3, 0, &c));
	CHECK(c.k.stats.spills > 0 && c.k.work_regs <= 3);
	CHECK_EQ(run_half_arithmetic(&c, image, sizeof(image)), 0u);
	sir_module_destroy(k.m);
	free(c.code.code);
	CHECK(fh_fini(&fh));
}

/*
 * char16 and short8 values, split by sir_lower_midgard into pieces of
 * four lanes as in the pipeline: loads, multiply-add, a byte shuffle
 * across pieces, an insert, stores; bitcasts uint4 -> short8 -> uint4,
 * char4 -> int and int2 -> char8 (the pieces' repacking in the back end),
 * checked against C on the same bytes.
 */
TEST(wide_narrow_vectors_and_bitcasts)
{
	static const struct sir_type T_U8 = { SIR_INT, 8, 1, 0 };
	struct kb k;
	struct compiled c;
	uint32_t image[4] = { BUF0, BUF1, BUF2, BUF3 };
	struct sir_type c16 = vec(T_U8, 16), s8 = vec(T_I16, 8);
	sir_id gid, x, y, z, sh, w4, q, o, sel;
	uint8_t *A, *B, *out;
	char err[256];

	REQUIRE(ch_setup(&fh));
	A = (uint8_t *)words(BUF0);
	B = (uint8_t *)words(BUF1);
	out = (uint8_t *)words(BUF2);
	kb_init(&k, "wide_narrow");
	gid = sysval(&k, SIR_SYSVAL_GLOBAL_ID, 0);
	x = load(&k, c16, elem(&k, gptr(&k, 0), gid, 16));
	y = load(&k, c16, elem(&k, gptr(&k, 4), gid, 16));
	z = op2(&k, SIR_OP_IADD, c16, op2(&k, SIR_OP_IMUL, c16, x, y), x);
	/* Reversed bytes of z, its byte 5 replaced by y's byte 9. */
	sel = op2(&k, SIR_OP_SHUFFLE, c16, z, z);
	for (int j = 0; j < 16; j++)
		k.f->values[sel].imm.u64[j] = (uint64_t)(15 - j);
	sel = with_aux(&k, op2(&k, SIR_OP_INSERT, c16, sel,
			       with_aux(&k, op1(&k, SIR_OP_EXTRACT, T_U8, y),
					9)), 5);
	o = elem(&k, gptr(&k, 8), gid, 64);
	store(&k, o, sel);
	sh = op1(&k, SIR_OP_BITCAST, s8,
		 load(&k, vec(T_I32, 4), elem(&k, gptr(&k, 4), gid, 16)));
	sh = op2(&k, SIR_OP_ISUB, s8, sh,
		 sir_const_u64(k.f, s8, 0x1234));
	store(&k, op2(&k, SIR_OP_PTR_ADD, sir_type_ptr(SIR_SPACE_GLOBAL), o,
		      ci(&k, 16)), op1(&k, SIR_OP_BITCAST, vec(T_I32, 4), sh));
	w4 = op1(&k, SIR_OP_BITCAST, T_I32,
		 op2(&k, SIR_OP_XOR, vec(T_U8, 4),
		     load(&k, vec(T_U8, 4), elem(&k, gptr(&k, 0), gid, 4)),
		     sir_const_u64(k.f, vec(T_U8, 4), 0x5A)));
	store(&k, op2(&k, SIR_OP_PTR_ADD, sir_type_ptr(SIR_SPACE_GLOBAL), o,
		      ci(&k, 32)), w4);
	q = op1(&k, SIR_OP_BITCAST, vec(T_U8, 8),
		load(&k, vec(T_I32, 2), elem(&k, gptr(&k, 4), gid, 8)));
	store(&k, op2(&k, SIR_OP_PTR_ADD, sir_type_ptr(SIR_SPACE_GLOBAL), o,
		      ci(&k, 40)), op2(&k, SIR_OP_SHL, vec(T_U8, 8), q,
				      sir_const_u64(k.f, vec(T_U8, 8), 3)));
	ret(&k);
	sir_compute_preds(k.f);
	REQUIRE(sir_lower_midgard(k.f, false, err, sizeof(err)));
	REQUIRE(compile(&k, 16, 0, &c));
	sir_module_destroy(k.m);
	for (int j = 0; j < 4096; j++) {
		A[j] = (uint8_t)rnd();
		B[j] = (uint8_t)rnd();
	}
	CHECK(run(&c, image, sizeof(image), 64, 4, 0));
	for (int i = 0; i < 256; i++) {
		const uint8_t *a = A + 16 * i, *b = B + 16 * i;
		const uint8_t *o8 = out + 64 * i;
		uint8_t want[48];
		uint16_t h;
		bool bad = false;

		for (int j = 0; j < 16; j++)
			want[j] = (uint8_t)(a[15 - j] * b[15 - j] + a[15 - j]);
		want[5] = b[9];
		for (int j = 0; j < 8; j++) {
			memcpy(&h, b + 2 * j, 2);
			h = (uint16_t)(h - 0x1234);
			memcpy(want + 16 + 2 * j, &h, 2);
		}
		for (int j = 0; j < 4; j++)
			want[32 + j] = A[4 * i + j] ^ 0x5A;
		for (int j = 0; j < 8; j++)
			want[40 + j] = (uint8_t)(B[8 * i + j] << 3);
		for (int j = 0; j < 48; j++)
			bad |= j < 36 || j >= 40 ? o8[j] != want[j] : false;
		if (bad) {
			for (int j = 0; j < 48; j++) {
				if ((j >= 36 && j < 40) || o8[j] == want[j])
					continue;
				printf("  item %d byte %d: 0x%02x, want "
				       "0x%02x\n", i, j, o8[j], want[j]);
			}
			CHECK(false);
			break;
		}
	}
	free(c.code.code);
	CHECK(fh_fini(&fh));
}

/*
 * short8 in 16-bit lanes: a = x + y, m = x < y, b = m ? a : (x - y) ^ u
 * (u a short8 argument) on whole registers (sir_lower_packed.c keeps
 * them from the piece path). The disassembly must show the add, compare
 * and select in 16-bit reg mode and the loads and stores as one 128-bit
 * access each, so the packed layout cannot silently fall back to
 * four-lane pieces. Run again with 3 work registers: spilled short8
 * values move as 128-bit words.
 */
TEST(short8_in_16bit_lanes)
{
	static char text[1 << 16];
	struct kb k;
	struct compiled c;
	static const uint16_t uv[8] = {
		0x8001, 0x7FFF, 0x0000, 0xFFFF, 0x1234, 0xEDCB, 0x0F0F, 0x00FF,
	};
	uint32_t image[8] = { BUF0, BUF1, BUF2, 0 };
	struct sir_type s8 = vec(T_I16, 8);
	sir_id gid, x, y, a, m, b, o;
	uint16_t *X, *Y, *out;
	char err[256];
	int wrong = 0;

	REQUIRE(ch_setup(&fh));
	X = (uint16_t *)words(BUF0);
	Y = (uint16_t *)words(BUF1);
	out = (uint16_t *)words(BUF2);
	kb_init(&k, "short8_16bit");
	gid = sysval(&k, SIR_SYSVAL_GLOBAL_ID, 0);
	x = with_aux(&k, load(&k, s8, elem(&k, gptr(&k, 0), gid, 16)), 16);
	y = with_aux(&k, load(&k, s8, elem(&k, gptr(&k, 4), gid, 16)), 16);
	a = op2(&k, SIR_OP_IADD, s8, x, y);
	m = op2(&k, SIR_OP_SLT, vec(T_BOOL, 8), x, y);
	b = op3(&k, SIR_OP_SELECT, s8, m, a,
		op2(&k, SIR_OP_XOR, s8, op2(&k, SIR_OP_ISUB, s8, x, y),
		    uniform(&k, s8, 16)));
	o = elem(&k, gptr(&k, 8), gid, 32);
	with_aux(&k, op2(&k, SIR_OP_STORE, T_VOID, o, a), 16);
	with_aux(&k, op2(&k, SIR_OP_STORE, T_VOID,
			 op2(&k, SIR_OP_PTR_ADD, sir_type_ptr(SIR_SPACE_GLOBAL),
			     o, ci(&k, 16)), b), 16);
	ret(&k);
	sir_compute_preds(k.f);
	REQUIRE(sir_lower_midgard(k.f, false, err, sizeof(err)));
	REQUIRE(compile(&k, 16, 0, &c));
	REQUIRE(mdg_disassemble(c.code.code, c.code.size, c.k.first_tag, text,
				sizeof(text), err, sizeof(err)) >= 0);
	CHECK(strstr(text, ".iadd.i16 ") != NULL);
	CHECK(strstr(text, ".isub.i16 ") != NULL);
	CHECK(strstr(text, ".ilt.i16 ") != NULL);
	CHECK(strstr(text, ".icsel_v.i16 ") != NULL);
	CHECK(strstr(text, "ld.u16") == NULL && strstr(text, "st.u16") == NULL);
	CHECK(strstr(text, "ld.128") != NULL && strstr(text, "st.128") != NULL);
	/* One register per short8: x, y, a, b and a temporary at most. */
	CHECK(c.k.work_regs <= 5);
	if (getenv("BACKEND_DISASM"))
		printf("%s", text);
	memcpy(image + 4, uv, sizeof(uv));
	for (int budget = 0; budget < 2; budget++) {
		if (budget) {
			free(c.code.code);
			REQUIRE(compile(&k, 3, 0, &c));
			CHECK(c.k.stats.spills > 0 && c.k.work_regs <= 3);
		}
		for (int j = 0; j < 256 * 8; j++) {
			X[j] = (uint16_t)rnd();
			Y[j] = j % 3 ? (uint16_t)rnd() : X[j];
		}
		CHECK(run(&c, image, sizeof(image), 64, 4, 0));
		for (int j = 0; j < 256 * 8; j++) {
			int i = j / 8, l = j % 8;
			uint16_t sum = (uint16_t)(X[j] + Y[j]);
			uint16_t want = (int16_t)X[j] < (int16_t)Y[j] ? sum :
					(uint16_t)((X[j] - Y[j]) ^ uv[l]);

			if (out[16 * i + l] == sum &&
			    out[16 * i + 8 + l] == want)
				continue;
			if (wrong++ < 4)
				printf("  %u registers: item %d lane %d: "
				       "%04x %04x, want %04x %04x\n",
				       c.k.work_regs, i, l, out[16 * i + l],
				       out[16 * i + 8 + l], sum, want);
		}
	}
	CHECK_EQ(wrong, 0);
	sir_module_destroy(k.m);
	free(c.code.code);
	CHECK(fh_fini(&fh));
}

/*
 * char16 in 8-bit lanes: a = x + y, m = x < y unsigned, b = m ? a : x - y
 * on whole registers; the disassembly must show them in 8-bit reg mode and
 * the accesses as one 128-bit load or store each.
 */
TEST(char16_in_8bit_lanes)
{
	static char text[1 << 16];
	static const struct sir_type T_I8 = { SIR_INT, 8, 1, 0 };
	struct kb k;
	struct compiled c;
	uint32_t image[4] = { BUF0, BUF1, BUF2, 0 };
	struct sir_type c16 = vec(T_I8, 16);
	sir_id gid, x, y, a, m, b, o;
	uint8_t *X, *Y, *out;
	char err[256];
	int wrong = 0;

	REQUIRE(ch_setup(&fh));
	X = (uint8_t *)words(BUF0);
	Y = (uint8_t *)words(BUF1);
	out = (uint8_t *)words(BUF2);
	kb_init(&k, "char16_8bit");
	gid = sysval(&k, SIR_SYSVAL_GLOBAL_ID, 0);
	x = with_aux(&k, load(&k, c16, elem(&k, gptr(&k, 0), gid, 16)), 16);
	y = with_aux(&k, load(&k, c16, elem(&k, gptr(&k, 4), gid, 16)), 16);
	a = op2(&k, SIR_OP_IADD, c16, x, y);
	m = op2(&k, SIR_OP_ULT, vec(T_BOOL, 16), x, y);
	b = op3(&k, SIR_OP_SELECT, c16, m, a, op2(&k, SIR_OP_ISUB, c16, x, y));
	o = elem(&k, gptr(&k, 8), gid, 32);
	with_aux(&k, op2(&k, SIR_OP_STORE, T_VOID, o, a), 16);
	with_aux(&k, op2(&k, SIR_OP_STORE, T_VOID,
			 op2(&k, SIR_OP_PTR_ADD, sir_type_ptr(SIR_SPACE_GLOBAL),
			     o, ci(&k, 16)), b), 16);
	ret(&k);
	sir_compute_preds(k.f);
	REQUIRE(sir_lower_midgard(k.f, false, err, sizeof(err)));
	REQUIRE(compile(&k, 16, 0, &c));
	sir_module_destroy(k.m);
	REQUIRE(mdg_disassemble(c.code.code, c.code.size, c.k.first_tag, text,
				sizeof(text), err, sizeof(err)) >= 0);
	CHECK(strstr(text, ".iadd.i8 ") != NULL);
	CHECK(strstr(text, ".isub.i8 ") != NULL);
	CHECK(strstr(text, ".ult.i8 ") != NULL);
	CHECK(strstr(text, ".icsel_v.i8 ") != NULL);
	CHECK(strstr(text, "ld.u8") == NULL && strstr(text, "st.u8") == NULL);
	CHECK(strstr(text, "ld.128") != NULL && strstr(text, "st.128") != NULL);
	CHECK(c.k.work_regs <= 5);
	if (getenv("BACKEND_DISASM"))
		printf("%s", text);
	for (int j = 0; j < 256 * 16; j++) {
		X[j] = (uint8_t)rnd();
		Y[j] = j % 3 ? (uint8_t)rnd() : X[j];
	}
	CHECK(run(&c, image, sizeof(image), 64, 4, 0));
	for (int j = 0; j < 256 * 16; j++) {
		int i = j / 16, l = j % 16;
		uint8_t sum = (uint8_t)(X[j] + Y[j]);
		uint8_t want = X[j] < Y[j] ? sum : (uint8_t)(X[j] - Y[j]);

		if (out[32 * i + l] == sum && out[32 * i + 16 + l] == want)
			continue;
		if (wrong++ < 4)
			printf("  item %d lane %d: %02x %02x, want %02x %02x\n",
			       i, l, out[32 * i + l], out[32 * i + 16 + l], sum,
			       want);
	}
	CHECK_EQ(wrong, 0);
	free(c.code.code);
	CHECK(fh_fini(&fh));
}

/* Reference: u64 magnitude to float, rounded up (away from zero) when up,
 * to nearest even when nearest, else toward zero. */
static float u64_ref(uint64_t x, bool nearest, bool up)
{
	int p = x ? 63 - __builtin_clzll(x) : 0, d = p - 23;
	uint64_t keep, rem, half;

	if (d <= 0)
		return (float)x;
	keep = x >> d;
	rem = x & ((1ull << d) - 1);
	half = 1ull << (d - 1);
	if (nearest ? rem > half || (rem == half && (keep & 1)) :
		      up && rem)
		keep++;
	return ldexpf((float)keep, d);
}

static float i64_ref(uint64_t x, bool is_signed, unsigned int q)
{
	bool neg = is_signed && (int64_t)x < 0;
	uint64_t m = neg ? 0 - x : x;
	bool up = q == SIR_CONV_RTP ? !neg : q == SIR_CONV_RTN ? neg : false;
	float f = u64_ref(m, q == SIR_CONV_RTE, up);

	return neg ? -f : f;
}

/* S2F and U2F from long2 in every rounding mode against u64_ref. */
TEST(long_to_float_conversions)
{
	struct kb k;
	struct compiled c;
	uint32_t image[4] = { BUF0, BUF1, BUF2, BUF3 };
	struct sir_type l2 = vec(T_I64, 2);
	sir_id gid, x, o;
	uint64_t *X;
	float *out;

	REQUIRE(ch_setup(&fh));
	X = (uint64_t *)words(BUF0);
	out = (float *)words(BUF2);
	kb_init(&k, "long_to_float");
	gid = sysval(&k, SIR_SYSVAL_GLOBAL_ID, 0);
	x = load(&k, l2, elem(&k, gptr(&k, 0), gid, 16));
	for (unsigned int q = 0; q < 8; q++) {
		o = elem(&k, gptr(&k, 8), gid, 64);
		if (q)
			o = op2(&k, SIR_OP_PTR_ADD,
				sir_type_ptr(SIR_SPACE_GLOBAL), o,
				ci(&k, 8 * q));
		store(&k, o, with_aux(&k, op1(&k, q < 4 ? SIR_OP_S2F :
					      SIR_OP_U2F, vec(T_F32, 2), x),
				      q % 4));
	}
	ret(&k);
	REQUIRE(compile(&k, 16, 0, &c));
	sir_module_destroy(k.m);
	for (int j = 0; j < 512; j++) {
		uint64_t r = (uint64_t)rnd() << 32 | rnd();

		switch (j % 6) {
		case 0: X[j] = r >> (rnd() % 64); break;
		case 1: X[j] = 0 - (r >> (rnd() % 64)); break;
		case 2: X[j] = (r | 1) << (rnd() % 40); break;
		case 3: X[j] = (r >> (rnd() % 40)) & ~0xFFull; break;
		default: X[j] = r; break;
		}
	}
	X[0] = 0;
	X[1] = 1ull << 63;
	X[2] = UINT64_MAX;
	X[3] = 0x7FFFFFFFFFFFFFFFull;
	X[4] = 0x0000000100000000ull;
	X[5] = 0x00000000FFFFFFFFull;
	X[6] = 0x0000008000008000ull;  /* a tie */
	X[7] = 0x0000008000018000ull;
	CHECK(run(&c, image, sizeof(image), 64, 4, 0));
	for (int j = 0; j < 512; j++) {
		for (unsigned int q = 0; q < 8; q++) {
			float want = i64_ref(X[j], q < 4, q % 4);
			float got = out[16 * (j / 2) + 2 * q + j % 2];

			if (memcmp(&got, &want, 4)) {
				printf("  0x%016" PRIx64 " %s mode %u: %a, "
				       "want %a\n", X[j], q < 4 ? "s2f" :
				       "u2f", q % 4, (double)got,
				       (double)want);
				CHECK(false);
				j = 512;
				break;
			}
		}
	}
	free(c.code.code);
	CHECK(fh_fini(&fh));
}

/* Reference F2S / F2U to 64 bits (toward zero; sat clamps, NaN 0). */
static uint64_t f2i64_ref(float f, bool is_signed, bool sat, bool *defined)
{
	double t = trunc((double)f);

	*defined = true;
	if (isnan(f)) {
		*defined = sat;
		return 0;
	}
	if (is_signed) {
		if (t >= 0x1p63 || t < -0x1p63) {
			*defined = sat;
			return t > 0 ? (uint64_t)INT64_MAX :
				       (uint64_t)INT64_MIN;
		}
		return (uint64_t)(int64_t)t;
	}
	if (t >= 0x1p64 || t < 0) {
		*defined = sat;
		return t > 0 ? UINT64_MAX : 0;
	}
	return (uint64_t)t;
}

/* F2S and F2U from float2 to long2, plain and _sat. */
TEST(float_to_long_conversions)
{
	static const uint32_t fixed[] = {
		0x00000000, 0x80000000, 0x3F7FFFFF, 0xBF7FFFFF, 0x3F800000,
		0x5F000000, 0xDF000000, 0x5EFFFFFF, 0x5F800000, 0x5F7FFFFF,
		0x7F800000, 0xFF800000, 0x7FC00000, 0x4B000001, 0x4F800000,
		0x4F7FFFFF, 0xCF000000, 0x7F7FFFFF,
	};
	struct kb k;
	struct compiled c;
	uint32_t image[4] = { BUF0, BUF1, BUF2, BUF3 };
	sir_id gid, x, o;
	uint32_t *X;
	uint64_t *out;

	REQUIRE(ch_setup(&fh));
	X = words(BUF0);
	out = (uint64_t *)words(BUF2);
	kb_init(&k, "float_to_long");
	gid = sysval(&k, SIR_SYSVAL_GLOBAL_ID, 0);
	x = load(&k, vec(T_F32, 2), elem(&k, gptr(&k, 0), gid, 8));
	for (unsigned int q = 0; q < 4; q++) {
		o = elem(&k, gptr(&k, 8), gid, 64);
		if (q)
			o = op2(&k, SIR_OP_PTR_ADD,
				sir_type_ptr(SIR_SPACE_GLOBAL), o,
				ci(&k, 16 * q));
		store(&k, o, with_aux(&k, op1(&k, q & 1 ? SIR_OP_F2U :
					      SIR_OP_F2S, vec(T_I64, 2), x),
				      q & 2 ? SIR_CONV_SAT : 0));
	}
	ret(&k);
	REQUIRE(compile(&k, 16, 0, &c));
	sir_module_destroy(k.m);
	for (int j = 0; j < 512; j++)
		X[j] = j < (int)(sizeof(fixed) / 4) ? fixed[j] :
		       (rnd() & 0x807FFFFFu) |
		       (uint32_t)(120 + rnd() % 75) << 23;
	CHECK(run(&c, image, sizeof(image), 64, 4, 0));
	for (int j = 0; j < 512; j++) {
		float f;

		memcpy(&f, &X[j], 4);
		for (unsigned int q = 0; q < 4; q++) {
			bool def;
			uint64_t want = f2i64_ref(f, !(q & 1), q & 2, &def);
			uint64_t got = out[8 * (j / 2) + 2 * q + j % 2];

			if (def && got != want) {
				printf("  %a (0x%08x) %s%s: 0x%016" PRIx64
				       ", want 0x%016" PRIx64 "\n", (double)f,
				       X[j], q & 1 ? "f2u" : "f2s",
				       q & 2 ? "_sat" : "", got, want);
				CHECK(false);
				j = 512;
				break;
			}
		}
	}
	free(c.code.code);
	CHECK(fh_fini(&fh));
}

int main(void)
{
	RUN(vector_add_scalar_and_float4);
	RUN(loops_phis_select_int_ops);
	RUN(private_local_barrier_atomic_ubo);
	RUN(spills_under_register_limit);
	RUN(long_lanes);
	RUN(narrow_lanes);
	RUN(half_conversions_and_long_bitcounts);
	RUN(half_arithmetic);
	RUN(wide_narrow_vectors_and_bitcasts);
	RUN(short8_in_16bit_lanes);
	RUN(char16_in_8bit_lanes);
	RUN(long_to_float_conversions);
	RUN(float_to_long_conversions);
	return check_summary();
}
