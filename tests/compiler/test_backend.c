/* SPDX-License-Identifier: MIT */
/*
 * The Midgard back end (compiler/backend) end to end: SIR kernels built by
 * hand, compiled with mdg_compile_kernel(), run on the model's shader
 * cores through the compute harness and compared with C references on
 * random inputs, for 32-, 64-, 16- and 8-bit integer lanes and the
 * conversions between them. Also: the code disassembles, and a float4 vector add
 * needs at least 3.5x fewer arithmetic cycles per element than the scalar
 * one (the model's cycle counters).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compute_harness.h"
#include "mdg_backend.h"
#include "midgard_isa.h"
#include "sir.h"

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
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
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
	struct mdg_code code;
	struct ch_result r;
};

static bool compile(struct kb *kb, unsigned int max_regs, uint32_t priv,
		    struct compiled *c)
{
	struct mdg_backend_options o = { max_regs };
	char err[256] = "";
	char verr[256] = "";

	memset(c, 0, sizeof(*c));
	c->k.private_bytes = priv;
	sir_compute_preds(kb->f);
	if (!sir_verify(kb->f, verr, sizeof(verr))) {
		printf("  sir_verify: %s\n", verr);
		return false;
	}
	if (!mdg_compile_kernel(kb->f, &o, &c->k, &c->code, err,
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

int main(void)
{
	RUN(vector_add_scalar_and_float4);
	RUN(loops_phis_select_int_ops);
	RUN(private_local_barrier_atomic_ubo);
	RUN(spills_under_register_limit);
	RUN(long_lanes);
	RUN(narrow_lanes);
	return check_summary();
}
