/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the shader core's arithmetic (qemu/model/sgpu_alu.c and
 * sgpu_float.c). Every expected value comes from a reference written here
 * independently: plain C integer arithmetic (with __int128 for exact wide
 * results), the host FPU under fesetround() for fp32 rounding modes,
 * _Float16 for fp16 round-to-nearest, and libm in double for the LUT ops.
 */
#include <fenv.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "float_bits.h"
#include "sgpu_alu.h"
#include "sgpu_float.h"

CHECK_MAIN_STATE("sgpu_alu");

#define ID_SWZ 0xE4
#define V_ID MDG_VSRC(0, 0, ID_SWZ)

/* ---- Building and running instructions ---- */

static struct mdg_alu valu(uint8_t op, unsigned int mode, uint16_t s1,
			   uint16_t s2, uint8_t mask, uint8_t outmod)
{
	struct mdg_alu a;

	memset(&a, 0, sizeof(a));
	a.src1_reg = 0;
	a.src2_reg = 1;
	a.dst_reg = 2;
	a.op = op;
	a.outmod = outmod;
	a.reg_mode = (uint8_t)mode;
	a.src1 = s1;
	a.src2 = s2;
	a.shrink = MDG_SHRINK_NONE;
	a.mask = mask;
	return a;
}

/* A vector instruction on identity swizzles, all lanes. */
static struct mdg_alu vop(uint8_t op, unsigned int mode, uint8_t outmod)
{
	return valu(op, mode, V_ID, V_ID, 0xFF, outmod);
}

static struct sgpu_alu_operands ops;

static bool run(const struct mdg_alu *a, enum mdg_unit unit,
		union sgpu_reg *dst)
{
	return sgpu_alu_execute(a, unit, &ops, dst);
}

static void set_vector_imm(struct mdg_alu *a, uint16_t c)
{
	a->src2_imm = true;
	a->src2_reg = c >> 11;
	a->src2 = (uint16_t)(((c >> 8) & 7) << 2 | (c & 0xFF) << 5);
}

static void set_scalar_imm(struct mdg_alu *a, uint16_t c)
{
	a->src2_imm = true;
	a->src2_reg = c >> 11;
	a->ssrc2 = (uint16_t)(((c >> 9) & 3) | ((c >> 8) & 1) << 2 |
			      ((c >> 5) & 7) << 3 | (c & 0x1F) << 6);
}

static uint16_t hbits(_Float16 h)
{
	uint16_t u;

	memcpy(&u, &h, 2);
	return u;
}

static _Float16 bitsh(uint16_t u)
{
	_Float16 h;

	memcpy(&h, &u, 2);
	return h;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* ---- Integer reference ---- */

typedef __int128 i128;

static const uint8_t int_binops[] = {
	MDG_ALU_IADD, MDG_ALU_ISHLADD, MDG_ALU_ISUB, MDG_ALU_ISHLSUB,
	MDG_ALU_IADDSAT, MDG_ALU_UADDSAT, MDG_ALU_ISUBSAT, MDG_ALU_USUBSAT,
	MDG_ALU_IMUL, MDG_ALU_IMIN, MDG_ALU_UMIN, MDG_ALU_IMAX, MDG_ALU_UMAX,
	MDG_ALU_IAVG, MDG_ALU_UAVG, MDG_ALU_IRAVG, MDG_ALU_URAVG, MDG_ALU_IASR,
	MDG_ALU_ILSR, MDG_ALU_ISHLSAT, MDG_ALU_USHLSAT, MDG_ALU_ISHL,
	MDG_ALU_IAND, MDG_ALU_IOR, MDG_ALU_INAND, MDG_ALU_INOR, MDG_ALU_IANDNOT,
	MDG_ALU_IORNOT, MDG_ALU_IXOR, MDG_ALU_INXOR, MDG_ALU_IABSDIFF,
	MDG_ALU_UABSDIFF, MDG_ALU_IEQ, MDG_ALU_INE, MDG_ALU_ULT, MDG_ALU_ULE,
	MDG_ALU_ILT, MDG_ALU_ILE, MDG_ALU_IMOV,
};

static uint64_t wmask(unsigned int w)
{
	return w == 64 ? ~0ull : (1ull << w) - 1;
}

static i128 sval(uint64_t v, unsigned int w)
{
	v &= wmask(w);
	if (w < 64 && (v >> (w - 1)))
		return (i128)v - ((i128)1 << w);
	return w == 64 ? (i128)(int64_t)v : (i128)v;
}

static i128 floordiv2(i128 x)
{
	return (x - (x & 1)) / 2;       /* x & 1 is 1 for odd negatives too */
}

static i128 clampi(i128 x, i128 lo, i128 hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/* The op on w-bit operands, written from the ISA description. */
static uint64_t ref_int(uint8_t op, uint64_t a, uint64_t b, unsigned int w)
{
	i128 sa = sval(a, w), sb = sval(b, w);
	i128 ua = (i128)(a & wmask(w)), ub = (i128)(b & wmask(w));
	i128 smin = -((i128)1 << (w - 1)), smax = ((i128)1 << (w - 1)) - 1;
	i128 umax = ((i128)1 << w) - 1, r;
	unsigned int n = (unsigned int)(ub % w);
	uint64_t all = wmask(w);

	switch (op) {
	case MDG_ALU_IADD: r = sa + sb; break;
	case MDG_ALU_ISHLADD: r = 2 * sa + sb; break;
	case MDG_ALU_ISUB: r = sa - sb; break;
	case MDG_ALU_ISHLSUB: r = 2 * sa - sb; break;
	case MDG_ALU_IADDSAT: r = clampi(sa + sb, smin, smax); break;
	case MDG_ALU_UADDSAT: r = clampi(ua + ub, 0, umax); break;
	case MDG_ALU_ISUBSAT: r = clampi(sa - sb, smin, smax); break;
	case MDG_ALU_USUBSAT: r = clampi(ua - ub, 0, umax); break;
	case MDG_ALU_IMUL: r = sa * sb; break;
	case MDG_ALU_IMIN: r = sa < sb ? sa : sb; break;
	case MDG_ALU_UMIN: r = ua < ub ? ua : ub; break;
	case MDG_ALU_IMAX: r = sa > sb ? sa : sb; break;
	case MDG_ALU_UMAX: r = ua > ub ? ua : ub; break;
	case MDG_ALU_IAVG: r = floordiv2(sa + sb); break;
	case MDG_ALU_UAVG: r = (ua + ub) / 2; break;
	case MDG_ALU_IRAVG: r = floordiv2(sa + sb + 1); break;
	case MDG_ALU_URAVG: r = (ua + ub + 1) / 2; break;
	case MDG_ALU_IASR:
		r = sa;
		for (unsigned int i = 0; i < n; i++)
			r = floordiv2(r);
		break;
	case MDG_ALU_ILSR: r = ua >> n; break;
	case MDG_ALU_ISHLSAT:
		r = clampi(sa * ((i128)1 << n), smin, smax);
		break;
	case MDG_ALU_USHLSAT: r = clampi(ua * ((i128)1 << n), 0, umax); break;
	case MDG_ALU_ISHL: r = ua << n; break;
	case MDG_ALU_IAND: r = ua & ub; break;
	case MDG_ALU_IOR: r = ua | ub; break;
	case MDG_ALU_INAND: r = ~(ua & ub); break;
	case MDG_ALU_INOR: r = ~(ua | ub); break;
	case MDG_ALU_IANDNOT: r = ua & ~ub; break;
	case MDG_ALU_IORNOT: r = ua | ~ub; break;
	case MDG_ALU_IXOR: r = ua ^ ub; break;
	case MDG_ALU_INXOR: r = ~(ua ^ ub); break;
	case MDG_ALU_IABSDIFF: r = sa > sb ? sa - sb : sb - sa; break;
	case MDG_ALU_UABSDIFF: r = ua > ub ? ua - ub : ub - ua; break;
	case MDG_ALU_IEQ: return ua == ub ? all : 0;
	case MDG_ALU_INE: return ua != ub ? all : 0;
	case MDG_ALU_ULT: return ua < ub ? all : 0;
	case MDG_ALU_ULE: return ua <= ub ? all : 0;
	case MDG_ALU_ILT: return sa < sb ? all : 0;
	case MDG_ALU_ILE: return sa <= sb ? all : 0;
	case MDG_ALU_IMOV: r = ub; break;
	default: r = 0; break;
	}
	return (uint64_t)r & all;
}

/* Runs op in a lane width with every lane of src1/src2 given. */
static bool run_lanes(uint8_t op, unsigned int w, const uint64_t *a,
		      const uint64_t *b, uint64_t *out)
{
	struct mdg_alu alu = vop(op, w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : 3,
				 MDG_OUTMOD_KEEP_LOW);
	union sgpu_reg d;
	unsigned int n = 128 / w;

	memset(&d, 0, sizeof(d));
	for (unsigned int i = 0; i < n; i++) {
		memcpy(ops.src1.u8 + i * w / 8, &a[i], w / 8);
		memcpy(ops.src2.u8 + i * w / 8, &b[i], w / 8);
	}
	if (!run(&alu, MDG_UNIT_VADD, &d))
		return false;
	for (unsigned int i = 0; i < n; i++) {
		out[i] = 0;
		memcpy(&out[i], d.u8 + i * w / 8, w / 8);
	}
	return true;
}

/* ---- Integer tests ---- */

TEST(int8_exhaustive_binary)
{
	for (unsigned int k = 0; k < sizeof(int_binops); k++) {
		uint8_t op = int_binops[k];
		unsigned int bad = 0;

		for (unsigned int a = 0; a < 256; a++) {
			for (unsigned int b0 = 0; b0 < 256; b0 += 16) {
				uint64_t va[16], vb[16], out[16];

				for (unsigned int i = 0; i < 16; i++) {
					va[i] = a;
					vb[i] = b0 + i;
				}
				if (!run_lanes(op, 8, va, vb, out)) {
					bad++;
					continue;
				}
				for (unsigned int i = 0; i < 16; i++) {
					if (out[i] != ref_int(op, va[i], vb[i], 8)) {
						if (!bad)
							printf("  op %02x: %02x,%02x -> %02x want %02x\n",
							       op, (unsigned)va[i], (unsigned)vb[i],
							       (unsigned)out[i],
							       (unsigned)ref_int(op, va[i], vb[i], 8));
						bad++;
					}
				}
			}
		}
		CHECK_EQ(bad, 0);
	}
}

TEST(int8_unary_clz_popcnt)
{
	unsigned int bad = 0;

	for (unsigned int a0 = 0; a0 < 256; a0 += 16) {
		uint64_t va[16], vb[16] = { 0 }, clz[16], pop[16];

		for (unsigned int i = 0; i < 16; i++)
			va[i] = a0 + i;
		CHECK(run_lanes(MDG_ALU_ICLZ, 8, va, vb, clz));
		CHECK(run_lanes(MDG_ALU_IPOPCNT, 8, va, vb, pop));
		for (unsigned int i = 0; i < 16; i++) {
			unsigned int z = 8, p = 0;

			for (int bit = 7; bit >= 0; bit--) {
				if (va[i] >> bit & 1) {
					z = 7 - (unsigned)bit;
					break;
				}
			}
			for (unsigned int bit = 0; bit < 8; bit++)
				p += (va[i] >> bit) & 1;
			bad += clz[i] != z;
			bad += pop[i] != p;
		}
	}
	CHECK_EQ(bad, 0);
}

static uint64_t edge_value(unsigned int k, unsigned int w)
{
	static const uint64_t e[] = { 0, 1, 2, 3, 7, 0x7F, 0x80, 0xFF };

	switch (k % 12) {
	case 8: return wmask(w) >> 1;                  /* INT_MAX */
	case 9: return (wmask(w) >> 1) + 1;            /* INT_MIN */
	case 10: return wmask(w);                      /* -1 */
	case 11: return w;                             /* shift = width */
	default: return e[k % 12] & wmask(w);
	}
}

static void wide_int_check(unsigned int w)
{
	unsigned int n = 128 / w;

	for (unsigned int k = 0; k < sizeof(int_binops); k++) {
		uint8_t op = int_binops[k];
		unsigned int bad = 0;

		for (unsigned int iter = 0; iter < 400; iter++) {
			uint64_t va[16], vb[16], out[16];

			for (unsigned int i = 0; i < n; i++) {
				unsigned int sel = (unsigned int)rnd() % 4;

				va[i] = sel ? rnd() & wmask(w) :
					edge_value((unsigned int)rnd(), w);
				sel = (unsigned int)rnd() % 4;
				vb[i] = sel ? rnd() & wmask(w) :
					edge_value((unsigned int)rnd(), w);
				if (sel == 1)
					vb[i] &= 0x7F;  /* small shift counts */
			}
			if (!run_lanes(op, w, va, vb, out)) {
				bad++;
				continue;
			}
			for (unsigned int i = 0; i < n; i++) {
				uint64_t want = ref_int(op, va[i], vb[i], w);

				if (out[i] != want) {
					if (!bad)
						printf("  w%u op %02x: %llx,%llx -> %llx want %llx\n",
						       w, op, (unsigned long long)va[i],
						       (unsigned long long)vb[i],
						       (unsigned long long)out[i],
						       (unsigned long long)want);
					bad++;
				}
			}
		}
		CHECK_EQ(bad, 0);
	}
}

TEST(int16_random_edges) { wide_int_check(16); }
TEST(int32_random_edges) { wide_int_check(32); }
TEST(int64_random_edges) { wide_int_check(64); }

TEST(int_edge_cases_explicit)
{
	uint64_t a[4], b[4], o[4];

	/* INT_MIN + -1 wraps; iaddsat saturates; iabsdiff(INT_MIN, 0). */
	a[0] = 0x80000000; b[0] = 0xFFFFFFFF;
	a[1] = 0x7FFFFFFF; b[1] = 1;
	a[2] = 0x80000000; b[2] = 0;
	a[3] = 5; b[3] = 33;            /* shift count 33 -> 1 */
	CHECK(run_lanes(MDG_ALU_IADD, 32, a, b, o));
	CHECK_EQ(o[0], 0x7FFFFFFF);
	CHECK_EQ(o[1], 0x80000000);
	CHECK(run_lanes(MDG_ALU_IADDSAT, 32, a, b, o));
	CHECK_EQ(o[0], 0x80000000);
	CHECK_EQ(o[1], 0x7FFFFFFF);
	CHECK(run_lanes(MDG_ALU_IABSDIFF, 32, a, b, o));
	CHECK_EQ(o[2], 0x80000000);
	CHECK(run_lanes(MDG_ALU_ISHL, 32, a, b, o));
	CHECK_EQ(o[3], 10);
	CHECK(run_lanes(MDG_ALU_IASR, 32, a, b, o));
	CHECK_EQ(o[0], 0xFFFFFFFF);     /* INT_MIN >> 31 */
	CHECK(run_lanes(MDG_ALU_ILSR, 32, a, b, o));
	CHECK_EQ(o[0], 1);
	/* 64-bit: INT64_MIN - 1 wraps, imul low half. */
	a[0] = 1ull << 63; b[0] = 1;
	a[1] = 0x100000000ull; b[1] = 0x100000001ull;
	CHECK(run_lanes(MDG_ALU_ISUB, 64, a, b, o));
	CHECK_EQ(o[0], 0x7FFFFFFFFFFFFFFFull);
	CHECK(run_lanes(MDG_ALU_IMUL, 64, a, b, o));
	CHECK_EQ(o[1], 0x100000000ull);
	CHECK(run_lanes(MDG_ALU_ISUBSAT, 64, a, b, o));
	CHECK_EQ(o[0], 1ull << 63);
}

TEST(imul_keep_high)
{
	union sgpu_reg d;
	struct mdg_alu a;

	/* Mesa's umul_high: 64-bit mode, zero-extended 32-bit sources,
	 * keep-high, shrink to the lower half. */
	memset(&ops, 0, sizeof(ops));
	memset(&d, 0, sizeof(d));
	ops.src1.u32[0] = 0xFFFFFFFF; ops.src1.u32[1] = 0x80000000;
	ops.src2.u32[0] = 0xFFFFFFFF; ops.src2.u32[1] = 3;
	/* Selector pairs: lane 0 = (x,y) -> element 0, lane 1 = (z,w) -> 1. */
	a = valu(MDG_ALU_IMUL, MDG_REG_MODE_64, MDG_VSRC(1, 4, 0xE4),
		 MDG_VSRC(1, 4, 0xE4), 0xFF, MDG_OUTMOD_KEEP_HIGH);
	a.shrink = MDG_SHRINK_LOWER;
	CHECK(run(&a, MDG_UNIT_VMUL, &d));
	CHECK_EQ(d.u32[0], 0xFFFFFFFE);         /* (2^32-1)^2 >> 32 */
	CHECK_EQ(d.u32[1], 1);                  /* 0x80000000 * 3 >> 32 */
	CHECK_EQ(d.u64[1], 0);
	/* imul_high: sign-extended. */
	a.src1 = MDG_VSRC(0, 4, 0xE4);
	a.src2 = MDG_VSRC(0, 4, 0xE4);
	CHECK(run(&a, MDG_UNIT_VMUL, &d));
	CHECK_EQ(d.u32[0], 0);                  /* -1 * -1 = 1 */
	CHECK_EQ(d.u32[1], 0xFFFFFFFE);         /* -2^31 * 3 >> 32 = -2 */
	/* Full-width keep-high: the upper 32 bits of the signed product. */
	a = vop(MDG_ALU_IMUL, MDG_REG_MODE_32, MDG_OUTMOD_KEEP_HIGH);
	ops.src1.u32[0] = 0x7FFFFFFF; ops.src2.u32[0] = 0x7FFFFFFF;
	ops.src1.u32[1] = 0xFFFFFFFF; ops.src2.u32[1] = 0x7FFFFFFF;
	CHECK(run(&a, MDG_UNIT_VMUL, &d));
	CHECK_EQ(d.u32[0], 0x3FFFFFFF);
	CHECK_EQ(d.u32[1], 0xFFFFFFFF);
}

TEST(int_outmod_saturate_and_shrink)
{
	union sgpu_reg d;
	struct mdg_alu a =
		vop(MDG_ALU_IADD, MDG_REG_MODE_32, MDG_OUTMOD_SAT_SIGNED);

	memset(&ops, 0, sizeof(ops));
	memset(&d, 0, sizeof(d));
	ops.src1.u32[0] = 0x7FFFFFFF; ops.src2.u32[0] = 5;
	ops.src1.u32[1] = 0x80000000; ops.src2.u32[1] = 0xFFFFFFFF;
	ops.src1.u32[2] = 100; ops.src2.u32[2] = 0xFFFFFF00;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 0x7FFFFFFF);
	CHECK_EQ(d.u32[1], 0x80000000);
	CHECK_EQ(d.u32[2], (uint32_t)(100 - 256));
	a.outmod = MDG_OUTMOD_SAT_UNSIGNED;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[2], 0);                  /* negative -> 0 */
	/* Shrink 32 -> 16, upper half, keep-low / signed saturate. */
	memset(&d, 0xAA, sizeof(d));
	a.outmod = MDG_OUTMOD_KEEP_LOW;
	a.shrink = MDG_SHRINK_UPPER;
	ops.src1.u32[3] = 0x12345; ops.src2.u32[3] = 0;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u64[0], 0xAAAAAAAAAAAAAAAAull);      /* lower untouched */
	CHECK_EQ(d.u16[4], 0x0004);             /* 0x7FFFFFFF+5 wraps */
	CHECK_EQ(d.u16[7], 0x2345);
	a.outmod = MDG_OUTMOD_SAT_SIGNED;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u16[7], 0x7FFF);
	CHECK_EQ(d.u16[6], (uint16_t)-156);
	a.outmod = MDG_OUTMOD_KEEP_HIGH;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u16[7], 0x0001);
}

/* ---- Operand forms ---- */

TEST(swizzle_32)
{
	union sgpu_reg d;
	struct mdg_alu a = valu(MDG_ALU_IMOV, MDG_REG_MODE_32, V_ID,
				MDG_VSRC(0, 0, 0x1B), 0xFF, MDG_OUTMOD_KEEP_LOW);

	memset(&ops, 0, sizeof(ops));
	for (int i = 0; i < 4; i++)
		ops.src2.u32[i] = 0x1000 + (uint32_t)i;
	CHECK(run(&a, MDG_UNIT_VADD, &d));      /* wzyx */
	CHECK_EQ(d.u32[0], 0x1003);
	CHECK_EQ(d.u32[1], 0x1002);
	CHECK_EQ(d.u32[2], 0x1001);
	CHECK_EQ(d.u32[3], 0x1000);
	a.src2 = MDG_VSRC(0, 0, 0x55);          /* yyyy */
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	for (int i = 0; i < 4; i++)
		CHECK_EQ(d.u32[i], 0x1001);
	/* Swizzle on src1 of a binary op. */
	a = valu(MDG_ALU_ISUB, MDG_REG_MODE_32, MDG_VSRC(0, 0, 0xAA), V_ID,
		 0xFF, MDG_OUTMOD_KEEP_LOW);
	for (int i = 0; i < 4; i++)
		ops.src1.u32[i] = 100 * (uint32_t)(i + 1);
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], (uint32_t)(300 - 0x1000));
	CHECK_EQ(d.u32[3], (uint32_t)(300 - 0x1003));
}

TEST(swizzle_16_expand_modes)
{
	union sgpu_reg d;
	struct mdg_alu a = valu(MDG_ALU_IMOV, MDG_REG_MODE_16, V_ID,
				MDG_VSRC(0, 0, 0x1B), 0xFF, MDG_OUTMOD_KEEP_LOW);
	static const uint16_t want[4][8] = {
		/* passthrough: lanes 0-3 from 0-3, 4-7 from 4-7 */
		{ 3, 2, 1, 0, 7, 6, 5, 4 },
		/* rep_low */
		{ 3, 2, 1, 0, 3, 2, 1, 0 },
		/* rep_high */
		{ 7, 6, 5, 4, 7, 6, 5, 4 },
		/* swap */
		{ 7, 6, 5, 4, 3, 2, 1, 0 },
	};

	memset(&ops, 0, sizeof(ops));
	for (int i = 0; i < 8; i++)
		ops.src2.u16[i] = (uint16_t)i;
	for (unsigned int x = 0; x < 4; x++) {
		a.src2 = MDG_VSRC(0, x, 0x1B);
		CHECK(run(&a, MDG_UNIT_VADD, &d));
		for (int i = 0; i < 8; i++)
			CHECK_EQ(d.u16[i], want[x][i]);
	}
}

TEST(swizzle_8bit_pairs)
{
	union sgpu_reg d;
	struct mdg_alu a = valu(MDG_ALU_IMOV, MDG_REG_MODE_8, V_ID,
				MDG_VSRC(0, 0, 0x1B), 0xFF, MDG_OUTMOD_KEEP_LOW);
	static const uint8_t want[16] = { 6, 7, 4, 5, 2, 3, 0, 1,
					  14, 15, 12, 13, 10, 11, 8, 9 };

	memset(&ops, 0, sizeof(ops));
	for (int i = 0; i < 16; i++)
		ops.src2.u8[i] = (uint8_t)i;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	for (int i = 0; i < 16; i++)
		CHECK_EQ(d.u8[i], want[i]);
	/* Mask: one bit per byte pair. */
	memset(&d, 0xEE, sizeof(d));
	a.mask = 0x81;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u8[0], 6);
	CHECK_EQ(d.u8[1], 7);
	CHECK_EQ(d.u8[2], 0xEE);
	CHECK_EQ(d.u8[14], 8);
	CHECK_EQ(d.u8[15], 9);
	CHECK_EQ(d.u8[13], 0xEE);
}

TEST(expand_16_to_32_int_mods)
{
	union sgpu_reg d;
	struct mdg_alu a = valu(MDG_ALU_IADD, MDG_REG_MODE_32,
				MDG_VSRC(0, 4, ID_SWZ), MDG_VSRC(1, 5, ID_SWZ),
				0xFF, MDG_OUTMOD_KEEP_LOW);

	memset(&ops, 0, sizeof(ops));
	for (int i = 0; i < 8; i++) {
		ops.src1.u16[i] = (uint16_t)(0xFFF0 + i);
		ops.src2.u16[i] = (uint16_t)(0x8000 + i);
	}
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	/* sext(0xFFF0+i) + zext(0x8000+4+i) */
	for (int i = 0; i < 4; i++)
		CHECK_EQ(d.u32[i], (uint32_t)(-16 + i) + 0x8004u + (uint32_t)i);
	a.src1 = MDG_VSRC(2, 4, ID_SWZ);        /* replicate */
	a.src2 = MDG_VSRC(3, 4, ID_SWZ);        /* shift into upper half */
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	for (int i = 0; i < 4; i++) {
		uint32_t v = 0xFFF0u + (uint32_t)i;

		CHECK_EQ(d.u32[i], (v << 16 | v) + ((0x8000u + (uint32_t)i) << 16));
	}
	/* 16-bit mode reading 8-bit bytes: expand_low, zero-extend. */
	a = valu(MDG_ALU_IMOV, MDG_REG_MODE_16, V_ID, MDG_VSRC(1, 4, ID_SWZ),
		 0xFF, MDG_OUTMOD_KEEP_LOW);
	for (int i = 0; i < 16; i++)
		ops.src2.u8[i] = (uint8_t)(0xF0 + i);
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	for (int i = 0; i < 8; i++)
		CHECK_EQ(d.u16[i], 0xF0 + i);
	a.src2 = MDG_VSRC(0, 5, ID_SWZ);        /* high bytes, sign-extend */
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	for (int i = 0; i < 8; i++)
		CHECK_EQ(d.u16[i], (uint16_t)(0xFFF8 + i));
}

TEST(mode64_sources)
{
	union sgpu_reg d;
	struct mdg_alu a = valu(MDG_ALU_IMOV, MDG_REG_MODE_64, V_ID,
				MDG_VSRC(0, 0, 0x4E), 0xFF, MDG_OUTMOD_KEEP_LOW);

	memset(&ops, 0, sizeof(ops));
	ops.src2.u64[0] = 0x1111111122222222ull;
	ops.src2.u64[1] = 0x3333333344444444ull;
	CHECK(run(&a, MDG_UNIT_VADD, &d));      /* ZW, XY: swap */
	CHECK_EQ(d.u64[0], 0x3333333344444444ull);
	CHECK_EQ(d.u64[1], 0x1111111122222222ull);
	/* 32-bit sources expanded: low (x, y), sign- and zero-extended. */
	a.src2 = MDG_VSRC(0, 4, 0xE4);
	ops.src2.u32[0] = 0x80000000; ops.src2.u32[1] = 7;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u64[0], 0xFFFFFFFF80000000ull);
	CHECK_EQ(d.u64[1], 7);
	a.src2 = MDG_VSRC(1, 5, 0x4E);          /* high half, (w) then (z) */
	ops.src2.u32[2] = 0x90000000; ops.src2.u32[3] = 0xA0000000;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u64[0], 0xA0000000ull);
	CHECK_EQ(d.u64[1], 0x90000000ull);
	/* 64-bit iadd carries across the 32-bit boundary. */
	a = vop(MDG_ALU_IADD, MDG_REG_MODE_64, MDG_OUTMOD_KEEP_LOW);
	ops.src1.u64[0] = 0xFFFFFFFFull; ops.src2.u64[0] = 1;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u64[0], 0x100000000ull);
	/* Mask: 4 bits per 64-bit lane. */
	memset(&d, 0, sizeof(d));
	a.mask = 0xF0;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u64[0], 0);
}

TEST(write_mask_and_float_shrink)
{
	union sgpu_reg d;
	struct mdg_alu a = vop(MDG_ALU_FADD, MDG_REG_MODE_32, MDG_OUTMOD_NONE);

	memset(&ops, 0, sizeof(ops));
	for (int i = 0; i < 4; i++) {
		ops.src1.f32[i] = 1.5f * (float)(i + 1);
		ops.src2.f32[i] = 0.25f;
	}
	memset(&d, 0x5A, sizeof(d));
	a.mask = 0x0C | 0xC0;                   /* y and w */
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 0x5A5A5A5A);
	CHECK_EQ(d.u32[1], fbits(3.25f));
	CHECK_EQ(d.u32[2], 0x5A5A5A5A);
	CHECK_EQ(d.u32[3], fbits(6.25f));
	/* Shrink to fp16 in the upper half: lane i -> 16-bit component 4+i. */
	a.mask = 0xFF;
	a.shrink = MDG_SHRINK_UPPER;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u16[4], hbits((_Float16)1.75f));
	CHECK_EQ(d.u16[7], hbits((_Float16)6.25f));
	CHECK_EQ(d.u32[0], 0x5A5A5A5A);
}

TEST(immediates)
{
	union sgpu_reg d;
	struct mdg_alu a =
		vop(MDG_ALU_IADD, MDG_REG_MODE_32, MDG_OUTMOD_KEEP_LOW);

	memset(&ops, 0, sizeof(ops));
	for (int i = 0; i < 4; i++)
		ops.src1.u32[i] = 1000 + (uint32_t)i;
	memset(&ops.src2, 0x77, sizeof(ops.src2));     /* must be ignored */
	set_vector_imm(&a, (uint16_t)-3);
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	for (int i = 0; i < 4; i++)
		CHECK_EQ(d.u32[i], 997 + (uint32_t)i);  /* sign-extended */
	set_vector_imm(&a, 0x7ABC);
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 1000 + 0x7ABC);
	/* 16-bit mode: the raw 16 bits. */
	a.reg_mode = MDG_REG_MODE_16;
	set_vector_imm(&a, 0x8001);
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u16[0], (uint16_t)(1000 + 0x8001));
	/* Float op: fp16 constant 2.5 widened to fp32. */
	a = vop(MDG_ALU_FMUL, MDG_REG_MODE_32, MDG_OUTMOD_NONE);
	for (int i = 0; i < 4; i++)
		ops.src1.f32[i] = (float)i + 0.5f;
	set_vector_imm(&a, hbits((_Float16)2.5f));
	CHECK(run(&a, MDG_UNIT_VMUL, &d));
	for (int i = 0; i < 4; i++)
		CHECK_EQ(d.u32[i], fbits(((float)i + 0.5f) * 2.5f));
	/* Scalar immediate layout. */
	for (int i = 0; i < 4; i++)
		ops.src1.u32[i] = 1000 + (uint32_t)i;
	a = vop(MDG_ALU_IADD, MDG_REG_MODE_32, MDG_OUTMOD_KEEP_LOW);
	a.ssrc1 = (uint8_t)(1 << 2 | 4 << 3);          /* full, z */
	a.full = true;
	a.comp = 2;
	set_scalar_imm(&a, 0x4D2B);
	CHECK(run(&a, MDG_UNIT_SADD, &d));
	CHECK_EQ(d.u32[1], 1002 + 0x4D2B);
	set_scalar_imm(&a, 0xFFFE);
	CHECK(run(&a, MDG_UNIT_SADD, &d));
	CHECK_EQ(d.u32[1], 1000);
}

TEST(scalar_units)
{
	union sgpu_reg d;
	struct mdg_alu a;

	memset(&ops, 0, sizeof(ops));
	memset(&a, 0, sizeof(a));
	a.op = MDG_ALU_FADD;
	a.ssrc1 = (uint8_t)(1 << 2 | 6 << 3);          /* r.w, full */
	a.ssrc2 = (uint16_t)(1 << 2 | 2 << 3 | 2);     /* r.y, full, neg */
	a.full = true;
	a.comp = 0;
	ops.src1.f32[3] = 10.0f;
	ops.src2.f32[1] = 2.5f;
	memset(&d, 0x33, sizeof(d));
	CHECK(run(&a, MDG_UNIT_SADD, &d));
	CHECK_EQ(d.u32[0], fbits(7.5f));
	CHECK_EQ(d.u32[1], 0x33333333);
	/* Half sources (fp16 components 3 and 5) with a 32-bit result. */
	ops.src1.u16[3] = hbits((_Float16)1.25f);
	ops.src2.u16[5] = hbits((_Float16)-0.5f);
	a.ssrc1 = (uint8_t)(3 << 3 | 1);               /* abs */
	a.ssrc2 = (uint16_t)(5 << 3);
	a.comp = 4;
	CHECK(run(&a, MDG_UNIT_SADD, &d));
	CHECK_EQ(d.u32[2], fbits(0.75f));
	/* All-16-bit: fp16 result at 16-bit component 7. */
	a.full = false;
	a.comp = 7;
	CHECK(run(&a, MDG_UNIT_SMUL, &d));
	CHECK_EQ(d.u16[7], hbits((_Float16)0.75f));
	CHECK_EQ(d.u16[6], 0x3333);
	/* 16-bit integer scalar op computes at 16 bits (ilsr of 0x8000). */
	a.op = MDG_ALU_ILSR;
	a.outmod = MDG_OUTMOD_KEEP_LOW;
	a.ssrc1 = (uint8_t)(0 << 3);
	a.ssrc2 = (uint16_t)(1 << 3);
	ops.src1.u16[0] = 0x8000;
	ops.src2.u16[1] = 3;
	a.comp = 1;
	CHECK(run(&a, MDG_UNIT_SADD, &d));
	CHECK_EQ(d.u16[1], 0x1000);
	/* Bad forms: full result at an odd component. */
	a.full = true;
	CHECK(!run(&a, MDG_UNIT_SADD, &d));
}

/* ---- Float reference helpers ---- */

static const int fe_modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
				 FE_UPWARD };

static float host_fadd(float x, float y, int mode)
{
	volatile float a = x, b = y, r;

	fesetround(fe_modes[mode]);
	r = a + b;
	fesetround(FE_TONEAREST);
	return r;
}

static float host_fmul(float x, float y, int mode)
{
	volatile float a = x, b = y, r;

	fesetround(fe_modes[mode]);
	r = a * b;
	fesetround(FE_TONEAREST);
	return r;
}

static uint32_t run_f32(uint8_t op, float x, float y, unsigned int unit,
			uint8_t outmod)
{
	union sgpu_reg d;
	struct mdg_alu a = vop(op, MDG_REG_MODE_32, outmod);

	memset(&ops, 0, sizeof(ops));
	memset(&d, 0, sizeof(d));
	ops.src1.f32[0] = x;
	ops.src2.f32[0] = y;
	a.mask = 0x03;
	if (mdg_unit_is_scalar(unit)) {
		a.ssrc1 = 1 << 2;       /* full, component x */
		a.ssrc2 = 1 << 2;
		a.full = true;
		a.comp = 0;
	}
	if (!run(&a, unit, &d))
		return 0xDEADBEEF;
	return d.u32[0];
}

static uint32_t run_f32b(uint8_t op, uint32_t x, uint32_t y)
{
	return run_f32(op, bitsf(x), bitsf(y), MDG_UNIT_VADD, MDG_OUTMOD_NONE);
}

static float rnd_float(void)
{
	/* Mix of magnitudes, including denormals and near-overflow. */
	uint32_t u = (uint32_t)rnd();

	switch (rnd() % 4) {
	case 0:
		u &= 0x807FFFFF;        /* denormal */
		break;
	case 1:
		u = (u & 0x80FFFFFF) | 0x3F000000;      /* around 1 */
		break;
	default:
		break;
	}
	if ((u & 0x7F800000) == 0x7F800000)
		u &= 0xFF7FFFFF;
	return bitsf(u);
}

TEST(fadd_fmul_all_roundings_random)
{
	unsigned int bad = 0;

	for (int mode = 0; mode < 4; mode++) {
		for (int iter = 0; iter < 20000; iter++) {
			float x = rnd_float(), y = rnd_float();
			uint32_t got, want;

			if (iter & 1) {
				/* Close exponents make ties and cancellation. */
				y = bitsf((fbits(x) & 0xFF800000) |
					  ((uint32_t)rnd() & 0x807FFFFF));
			}
			got = run_f32(MDG_ALU_FADD + mode, x, y, MDG_UNIT_VADD,
				      0);
			want = fbits(host_fadd(x, y, mode));
			if (got != want && bad++ < 3)
				printf("  fadd mode %d %a %a -> %08x want %08x\n",
				       mode, (double)x, (double)y, got, want);
			got = run_f32(MDG_ALU_FMUL + mode, x, y, MDG_UNIT_VMUL,
				      0);
			want = fbits(host_fmul(x, y, mode));
			if (got != want && bad++ < 3)
				printf("  fmul mode %d %a %a -> %08x want %08x\n",
				       mode, (double)x, (double)y, got, want);
		}
	}
	CHECK_EQ(bad, 0);
}

TEST(fadd_halfway_cases)
{
	/* 1 + 2^-24 is exactly halfway between 1 and 1 + 2^-23. */
	float h = ldexpf(1.0f, -24);

	CHECK_EQ(run_f32(MDG_ALU_FADD + 0, 1.0f, h, MDG_UNIT_VADD, 0),
		 fbits(1.0f));
	CHECK_EQ(run_f32(MDG_ALU_FADD + 3, 1.0f, h, MDG_UNIT_VADD, 0),
		 fbits(1.0f + 2 * h));
	CHECK_EQ(run_f32(MDG_ALU_FADD + 0, 1.0f + 2 * h, h, MDG_UNIT_VADD, 0),
		 fbits(1.0f + 4 * h));          /* tie to even: up */
	CHECK_EQ(run_f32(MDG_ALU_FADD + 1, -1.0f, -h, MDG_UNIT_VADD, 0),
		 fbits(-1.0f));
	CHECK_EQ(run_f32(MDG_ALU_FADD + 2, -1.0f, -h, MDG_UNIT_VADD, 0),
		 fbits(-1.0f - 2 * h));
	/* Tiny addend far below the ulp still steers directed rounding. */
	CHECK_EQ(run_f32(MDG_ALU_FADD + 3, 1.0f, 1e-30f, MDG_UNIT_VADD, 0),
		 fbits(1.0f + 2 * h));
	CHECK_EQ(run_f32(MDG_ALU_FADD + 2, 1.0f, -1e-30f, MDG_UNIT_VADD, 0),
		 fbits(1.0f - h));
	CHECK_EQ(run_f32(MDG_ALU_FADD + 1, 1.0f, -1e-30f, MDG_UNIT_VADD, 0),
		 fbits(1.0f - h));
	CHECK_EQ(run_f32(MDG_ALU_FADD + 0, 1.0f, -1e-30f, MDG_UNIT_VADD, 0),
		 fbits(1.0f));
	/* Overflow: RTE -> inf, RTZ -> FLT_MAX. */
	CHECK_EQ(run_f32(MDG_ALU_FADD + 0, 3e38f, 3e38f, MDG_UNIT_VADD, 0),
		 0x7F800000);
	CHECK_EQ(run_f32(MDG_ALU_FADD + 1, 3e38f, 3e38f, MDG_UNIT_VADD, 0),
		 0x7F7FFFFF);
	CHECK_EQ(run_f32(MDG_ALU_FMUL + 2, 3e38f, -3e38f, MDG_UNIT_VMUL, 0),
		 0xFF800000);
	CHECK_EQ(run_f32(MDG_ALU_FMUL + 3, 3e38f, -3e38f, MDG_UNIT_VMUL, 0),
		 0xFF7FFFFF);
}

TEST(signed_zeros)
{
	CHECK_EQ(run_f32b(MDG_ALU_FADD, 0x80000000, 0x80000000), 0x80000000);
	CHECK_EQ(run_f32b(MDG_ALU_FADD, 0x80000000, 0x00000000), 0x00000000);
	CHECK_EQ(run_f32b(MDG_ALU_FADD + 2, 0x80000000, 0x00000000),
		 0x80000000);
	CHECK_EQ(run_f32(MDG_ALU_FADD, 1.0f, -1.0f, MDG_UNIT_VADD, 0), 0);
	CHECK_EQ(run_f32(MDG_ALU_FADD + 2, 1.0f, -1.0f, MDG_UNIT_VADD, 0),
		 0x80000000);
	CHECK_EQ(run_f32(MDG_ALU_FMUL, -0.0f, 5.0f, MDG_UNIT_VMUL, 0),
		 0x80000000);
	CHECK_EQ(run_f32(MDG_ALU_FMUL, -0.0f, -5.0f, MDG_UNIT_VMUL, 0), 0);
	/* Underflow to zero keeps the sign. */
	CHECK_EQ(run_f32(MDG_ALU_FMUL, -1e-30f, 1e-30f, MDG_UNIT_VMUL, 0),
		 0x80000000);
	CHECK_EQ(run_f32(MDG_ALU_FMUL + 2, 1e-30f, -1e-30f, MDG_UNIT_VMUL, 0),
		 0x80000001);
	CHECK_EQ(run_f32(MDG_ALU_FMUL + 3, 1e-30f, 1e-30f, MDG_UNIT_VMUL, 0),
		 0x00000001);
}

TEST(nan_rules)
{
	/* Input NaN propagates quieted (src1 first), payload kept. */
	CHECK_EQ(run_f32b(MDG_ALU_FADD, 0x7F800001, 0x3F800000), 0x7FC00001);
	CHECK_EQ(run_f32b(MDG_ALU_FADD, 0x3F800000, 0xFF812345), 0xFFC12345);
	CHECK_EQ(run_f32b(MDG_ALU_FADD, 0x7FC00002, 0x7FC00003), 0x7FC00002);
	CHECK_EQ(run_f32(MDG_ALU_FMUL, bitsf(0x7F900000), 2.0f, MDG_UNIT_VMUL,
			 0),
		 0x7FD00000);
	/* Generated NaNs are the default NaN. */
	CHECK_EQ(run_f32(MDG_ALU_FADD, INFINITY, -INFINITY, MDG_UNIT_VADD, 0),
		 SGPU_F32_DEFAULT_NAN);
	CHECK_EQ(run_f32(MDG_ALU_FMUL, 0.0f, -INFINITY, MDG_UNIT_VMUL, 0),
		 SGPU_F32_DEFAULT_NAN);
	CHECK_EQ(run_f32(MDG_ALU_FADD, INFINITY, 1e30f, MDG_UNIT_VADD, 0),
		 0x7F800000);
	CHECK_EQ(run_f32(MDG_ALU_FMUL, -INFINITY, 2.0f, MDG_UNIT_VMUL, 0),
		 0xFF800000);
	/* fmov moves a signalling NaN bit for bit (Mesa moves int
	 * constants with fmov). */
	CHECK_EQ(run_f32b(MDG_ALU_FMOV, 0, 0x7F800001), 0x7F800001);
	CHECK_EQ(run_f32b(MDG_ALU_FMOV, 0, 0xFFBFFFFF), 0xFFBFFFFF);
}

TEST(fmin_fmax)
{
	const uint32_t qn = 0x7FC00000, n1 = 0x7FA00000;

	CHECK_EQ(run_f32(MDG_ALU_FMIN, 1.0f, 2.0f, MDG_UNIT_VADD, 0),
		 fbits(1.0f));
	CHECK_EQ(run_f32(MDG_ALU_FMAX, 1.0f, -2.0f, MDG_UNIT_VMUL, 0),
		 fbits(1.0f));
	CHECK_EQ(run_f32b(MDG_ALU_FMIN, 0x80000000, 0), 0x80000000);
	CHECK_EQ(run_f32b(MDG_ALU_FMIN, 0, 0x80000000), 0x80000000);
	CHECK_EQ(run_f32b(MDG_ALU_FMAX, 0x80000000, 0), 0);
	CHECK_EQ(run_f32b(MDG_ALU_FMAX, 0, 0x80000000), 0);
	/* Plain: the number wins; .nan: NaN wins (quieted). */
	CHECK_EQ(run_f32b(MDG_ALU_FMIN, qn, fbits(3.0f)), fbits(3.0f));
	CHECK_EQ(run_f32b(MDG_ALU_FMAX, fbits(3.0f), n1), fbits(3.0f));
	CHECK_EQ(run_f32b(MDG_ALU_FMIN_NAN, fbits(3.0f), n1), 0x7FE00000);
	CHECK_EQ(run_f32b(MDG_ALU_FMAX_NAN, qn, fbits(3.0f)), qn);
	CHECK_EQ(run_f32b(MDG_ALU_FMIN, n1, qn), 0x7FE00000);
	CHECK_EQ(run_f32(MDG_ALU_FMIN, -INFINITY, 1.0f, MDG_UNIT_VADD, 0),
		 0xFF800000);
	/* Absolute-value variants return the absolute value. */
	CHECK_EQ(run_f32(MDG_ALU_FABSMIN, -1.0f, 2.0f, MDG_UNIT_VADD, 0),
		 fbits(1.0f));
	CHECK_EQ(run_f32(MDG_ALU_FABSMAX, -3.0f, 2.0f, MDG_UNIT_VADD, 0),
		 fbits(3.0f));
}

TEST(denormals_preserved)
{
	float dmin = bitsf(1), d2 = bitsf(0x00400000);

	CHECK_EQ(run_f32(MDG_ALU_FADD, dmin, dmin, MDG_UNIT_VADD, 0), 2);
	CHECK_EQ(run_f32(MDG_ALU_FADD, d2, d2, MDG_UNIT_VADD, 0), 0x00800000);
	CHECK_EQ(run_f32(MDG_ALU_FMUL, d2, 2.0f, MDG_UNIT_VMUL, 0), 0x00800000);
	CHECK_EQ(run_f32(MDG_ALU_FMUL, 0x1p-126f, 0.5f, MDG_UNIT_VMUL, 0),
		 0x00400000);
	CHECK_EQ(run_f32(MDG_ALU_FMUL, 0x1p-149f, 0.5f, MDG_UNIT_VMUL, 0), 0);
	CHECK_EQ(run_f32(MDG_ALU_FMUL, 0x1p-149f, 0.75f, MDG_UNIT_VMUL, 0), 1);
	CHECK_EQ(run_f32(MDG_ALU_FMUL + 1, 0x1p-149f, 0.75f, MDG_UNIT_VMUL, 0),
		 0);
	CHECK_EQ(run_f32(MDG_ALU_FLT, dmin, 0.0f, MDG_UNIT_VADD, 0), 0);
	CHECK_EQ(run_f32(MDG_ALU_FEQ, dmin, 0.0f, MDG_UNIT_VADD, 0), 0);
}

/* Reference fp16 rounding of an exact double, independent of sgpu_float:
 * _Float16's round-to-nearest plus a step to the neighbour for directed
 * modes. */
static uint16_t ref_f16(double x, int mode)
{
	uint16_t h = hbits((_Float16)x);
	double v = (double)bitsh(h);

	if (isnan(x))
		return 0x7E00;
	if (mode == 0 || v == x)
		return h;
	{
		bool want_up = mode == 3 || (mode == 1 && x < 0);
		bool is_up = v > x;

		if (want_up != is_up) {
			/* Step one ulp toward x's other side. */
			bool mag_up = (v < x) == (x > 0);

			if (isinf(v))
				h = (uint16_t)(h - 1);  /* inf -> max finite */
			else if (v == 0.0)
				h = (uint16_t)((x < 0 ? 0x8000 : 0) | 1);
			else
				h = (uint16_t)(mag_up ? h + 1 : h - 1);
		}
	}
	return h;
}

TEST(fp16_mode_arith)
{
	unsigned int bad = 0;

	for (int mode = 0; mode < 4; mode++) {
		for (int iter = 0; iter < 3000; iter++) {
			union sgpu_reg d;
			struct mdg_alu a =
				vop(MDG_ALU_FADD + mode, MDG_REG_MODE_16, 0);
			uint16_t x[8], y[8];

			memset(&ops, 0, sizeof(ops));
			for (int i = 0; i < 8; i++) {
				do {
					x[i] = (uint16_t)rnd();
					y[i] = (uint16_t)rnd();
					if (iter & 1)
						y[i] = (uint16_t)((x[i] & 0xFC00) | (y[i] & 0x83FF));
				} while ((x[i] & 0x7C00) == 0x7C00 ||
					 (y[i] & 0x7C00) == 0x7C00);
				ops.src1.u16[i] = x[i];
				ops.src2.u16[i] = y[i];
			}
			CHECK(run(&a, MDG_UNIT_VADD, &d));
			for (int i = 0; i < 8; i++) {
				double ex = (double)bitsh(x[i]) + (double)bitsh(y[i]);
				uint16_t want = ref_f16(ex, mode);

				if (ex == 0.0) {
					/* Exact zero: -0 + -0 = -0, else +0 (RTN: -0). */
					bool both_zero = !(x[i] & 0x7FFF) && !(y[i] & 0x7FFF);

					if (both_zero && !((x[i] ^ y[i]) & 0x8000))
						want = x[i] & 0x8000;
					else
						want = mode == 2 ? 0x8000 : 0;
				}
				if (d.u16[i] != want && bad++ < 3)
					printf("  f16 add m%d %04x %04x -> %04x want %04x\n",
					       mode, x[i], y[i], d.u16[i], want);
			}
			a.op = MDG_ALU_FMUL + mode;
			CHECK(run(&a, MDG_UNIT_VMUL, &d));
			for (int i = 0; i < 8; i++) {
				double ex = (double)bitsh(x[i]) * (double)bitsh(y[i]);
				uint16_t want = ref_f16(ex, mode);

				if (d.u16[i] != want && bad++ < 3)
					printf("  f16 mul m%d %04x %04x -> %04x want %04x\n",
					       mode, x[i], y[i], d.u16[i], want);
			}
		}
	}
	CHECK_EQ(bad, 0);
	/* fp16 denormals kept: smallest + smallest. */
	CHECK_EQ(sgpu_f32_to_f16(fbits(0x1p-24f), SGPU_RTE), 1);
	CHECK_EQ(sgpu_f32_to_f16(fbits(0x1p-25f), SGPU_RTE), 0);
	CHECK_EQ(sgpu_f32_to_f16(fbits(0x1.8p-25f), SGPU_RTE), 1);
	CHECK_EQ(sgpu_f32_to_f16(fbits(0x1p-25f), SGPU_RTP), 1);
}

TEST(fp16_conversions_exhaustive)
{
	unsigned int bad = 0;

	for (uint32_t h = 0; h < 0x10000; h++) {
		uint32_t f = sgpu_f16_to_f32((uint16_t)h);
		_Float16 hh = bitsh((uint16_t)h);

		if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF)) {
			/* NaN: payload moves to the top, round trip exact. */
			bad += (f >> 13 & 0x3FF) != (h & 0x3FF);
			bad += sgpu_f32_to_f16(f, SGPU_RTE) != h;
			continue;
		}
		bad += f != fbits((float)hh);
		bad += sgpu_f32_to_f16(f, SGPU_RTE) != h;
	}
	for (int iter = 0; iter < 100000; iter++) {
		uint32_t f = (uint32_t)rnd();

		if ((f & 0x7F800000) == 0x7F800000)
			continue;
		for (int m = 0; m < 4; m++)
			bad += sgpu_f32_to_f16(f, m) != ref_f16((double)bitsf(f), m);
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(sgpu_f32_to_f16(fbits(65520.0f), SGPU_RTE), 0x7C00);
	CHECK_EQ(sgpu_f32_to_f16(fbits(65519.0f), SGPU_RTE), 0x7BFF);
	CHECK_EQ(sgpu_f32_to_f16(fbits(1e9f), SGPU_RTZ), 0x7BFF);
	CHECK_EQ(sgpu_f32_to_f16(fbits(-1e9f), SGPU_RTP), 0xFBFF);
}

TEST(float_outmods)
{
	const uint8_t pos = MDG_OUTMOD_CLAMP_POS, m11 = MDG_OUTMOD_CLAMP_M1_1;
	const uint8_t s01 = MDG_OUTMOD_CLAMP_0_1;

	CHECK_EQ(run_f32(MDG_ALU_FADD, -3.0f, 1.0f, MDG_UNIT_VADD, pos), 0);
	CHECK_EQ(run_f32(MDG_ALU_FADD, 3.0f, 1.0f, MDG_UNIT_VADD, pos),
		 fbits(4.0f));
	CHECK_EQ(run_f32(MDG_ALU_FADD, NAN, 1.0f, MDG_UNIT_VADD, pos), 0);
	CHECK_EQ(run_f32(MDG_ALU_FADD, -3.0f, 1.0f, MDG_UNIT_VADD, m11),
		 fbits(-1.0f));
	CHECK_EQ(run_f32(MDG_ALU_FADD, 3.0f, 1.0f, MDG_UNIT_VADD, m11),
		 fbits(1.0f));
	CHECK_EQ(run_f32(MDG_ALU_FADD, NAN, 1.0f, MDG_UNIT_VADD, m11),
		 fbits(-1.0f));
	CHECK_EQ(run_f32(MDG_ALU_FADD, 0.25f, 0.0f, MDG_UNIT_VADD, m11),
		 fbits(0.25f));
	CHECK_EQ(run_f32(MDG_ALU_FADD, 3.0f, 1.0f, MDG_UNIT_VADD, s01),
		 fbits(1.0f));
	CHECK_EQ(run_f32(MDG_ALU_FADD, -3.0f, 1.0f, MDG_UNIT_VADD, s01), 0);
	CHECK_EQ(run_f32(MDG_ALU_FADD, NAN, 1.0f, MDG_UNIT_VADD, s01), 0);
	CHECK_EQ(run_f32(MDG_ALU_FMUL, -0.0f, 1.0f, MDG_UNIT_VMUL, s01), 0);
	CHECK_EQ(run_f32(MDG_ALU_FMUL, INFINITY, 1.0f, MDG_UNIT_VMUL, s01),
		 fbits(1.0f));
	CHECK_EQ(run_f32(MDG_ALU_FMOV, 0.0f, 0.5f, MDG_UNIT_VMUL, s01),
		 fbits(0.5f));
	/* Just above 1 with round-up: clamps to exactly 1. */
	CHECK_EQ(run_f32(MDG_ALU_FADD + 3, 1.0f, 1e-30f, MDG_UNIT_VADD, s01),
		 fbits(1.0f));
}

TEST(round_to_integral)
{
	static const float in[] = { 2.5f, -2.5f, 3.5f, -0.3f, 0.7f, -1.5f,
				    1e10f, 0.5f, -0.5f, 8388609.0f };

	for (unsigned int i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		float x = in[i];

		CHECK_EQ(run_f32(MDG_ALU_FROUNDEVEN, x, 0, MDG_UNIT_VADD, 0),
			 fbits(nearbyintf(x)));
		CHECK_EQ(run_f32(MDG_ALU_FTRUNC, x, 0, MDG_UNIT_VADD, 0),
			 fbits(truncf(x)));
		CHECK_EQ(run_f32(MDG_ALU_FFLOOR, x, 0, MDG_UNIT_SADD, 0),
			 fbits(floorf(x)));
		CHECK_EQ(run_f32(MDG_ALU_FCEIL, x, 0, MDG_UNIT_VADD, 0),
			 fbits(ceilf(x)));
		CHECK_EQ(run_f32(MDG_ALU_FROUNDAWAY, x, 0, MDG_UNIT_VADD, 0),
			 fbits(roundf(x)));
	}
	CHECK_EQ(run_f32(MDG_ALU_FTRUNC, -INFINITY, 0, MDG_UNIT_VADD, 0),
		 0xFF800000);
	CHECK_EQ(run_f32b(MDG_ALU_FFLOOR, 0x7F800001, 0), 0x7FC00001);
}

TEST(fmov_modifiers_and_conversions)
{
	union sgpu_reg d;
	struct mdg_alu a = valu(MDG_ALU_FMOV, MDG_REG_MODE_32, V_ID,
				MDG_VSRC(1, 0, ID_SWZ), 0xFF, 0);

	memset(&ops, 0, sizeof(ops));
	ops.src2.f32[0] = -2.0f;
	ops.src2.f32[1] = 3.0f;
	CHECK(run(&a, MDG_UNIT_VADD, &d));              /* abs */
	CHECK_EQ(d.u32[0], fbits(2.0f));
	a.src2 = MDG_VSRC(3, 0, ID_SWZ);                /* -abs */
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[1], fbits(-3.0f));
	/* fp16 -> fp32 through expansion (Mesa's f2f32). */
	a.src2 = MDG_VSRC(2, 5, ID_SWZ);                /* neg, high half */
	ops.src2.u16[4] = hbits((_Float16)0.1f);
	ops.src2.u16[5] = 0x0001;                       /* fp16 denormal */
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], fbits(-(float)(_Float16)0.1f));
	CHECK_EQ(d.u32[1], fbits(-0x1p-24f));
	/* fp32 -> fp16 through shrink, rounding variant applied. */
	a.src2 = V_ID;
	a.shrink = MDG_SHRINK_LOWER;
	ops.src2.f32[0] = 1.0f + 0x1p-12f;              /* halfway in fp16 */
	ops.src2.f32[1] = -(1.0f + 0x1p-12f);
	for (int m = 0; m < 4; m++) {
		a.op = (uint8_t)(MDG_ALU_FMOV + m);
		CHECK(run(&a, MDG_UNIT_VADD, &d));
		CHECK_EQ(d.u16[0], ref_f16(1.0 + 0x1p-12, m));
		CHECK_EQ(d.u16[1], ref_f16(-1.0 - 0x1p-12, m));
	}
}

TEST(f2i_f2u)
{
	static const float in[] = { 2.5f, -2.5f, 3.5f, -0.5f, 0.49999997f,
				    1.5f, -1.5f, 2147483520.0f, 3e9f, -3e9f,
				    5e9f, -1.0f };
	union sgpu_reg d;

	for (int m = 0; m < 4; m++) {
		for (unsigned int i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
			double r;
			int64_t si;
			uint64_t ui;

			fesetround(fe_modes[m]);
			r = nearbyint((double)in[i]);
			fesetround(FE_TONEAREST);
			si = r > 2147483647.0 ? 2147483647 :
			     r < -2147483648.0 ? INT32_MIN : (int64_t)r;
			ui = r > 4294967295.0 ? 4294967295u :
			     r < 0 ? 0 : (uint64_t)r;
			CHECK_EQ(run_f32(MDG_ALU_F2I_RTE + m, in[i], 0,
					 MDG_UNIT_VADD, MDG_OUTMOD_KEEP_LOW),
				 (uint32_t)si);
			CHECK_EQ(run_f32(MDG_ALU_F2U_RTE + m, in[i], 0,
					 MDG_UNIT_SADD, MDG_OUTMOD_KEEP_LOW),
				 (uint32_t)ui);
		}
	}
	CHECK_EQ(run_f32(MDG_ALU_F2I_RTE, NAN, 0, MDG_UNIT_VADD,
			 MDG_OUTMOD_KEEP_LOW),
		 0);
	CHECK_EQ(run_f32(MDG_ALU_F2U_RTE, NAN, 0, MDG_UNIT_VADD,
			 MDG_OUTMOD_KEEP_LOW),
		 0);
	CHECK_EQ(run_f32(MDG_ALU_F2I_RTE, INFINITY, 0, MDG_UNIT_VADD,
			 MDG_OUTMOD_KEEP_LOW), 0x7FFFFFFF);
	CHECK_EQ(run_f32(MDG_ALU_F2I_RTE, -INFINITY, 0, MDG_UNIT_VADD,
			 MDG_OUTMOD_KEEP_LOW), 0x80000000);
	/* f2i64 (Mesa): 64-bit mode, fp32 source expanded. */
	{
		struct mdg_alu a = valu(MDG_ALU_F2I_RTE + 1, MDG_REG_MODE_64,
					MDG_VSRC(0, 4, ID_SWZ), V_ID, 0xFF,
					MDG_OUTMOD_KEEP_LOW);

		memset(&ops, 0, sizeof(ops));
		ops.src1.f32[0] = -1e12f;
		ops.src1.f32[1] = 1e30f;
		CHECK(run(&a, MDG_UNIT_VADD, &d));
		CHECK_EQ(d.u64[0], (uint64_t)(int64_t)-1e12f);
		CHECK_EQ(d.u64[1], 0x7FFFFFFFFFFFFFFFull);
	}
	/* fp16 mode: f2i16 saturates at 16 bits. */
	{
		struct mdg_alu a = vop(MDG_ALU_F2I_RTE + 1, MDG_REG_MODE_16,
				       MDG_OUTMOD_KEEP_LOW);

		memset(&ops, 0, sizeof(ops));
		ops.src1.u16[0] = hbits((_Float16)60000.0f);
		ops.src1.u16[1] = hbits((_Float16)-7.75f);
		CHECK(run(&a, MDG_UNIT_VADD, &d));
		CHECK_EQ(d.u16[0], 0x7FFF);
		CHECK_EQ(d.u16[1], (uint16_t)-7);
	}
}

TEST(i2f_u2f)
{
	static const int32_t si[] = { 16777217, -16777217, 16777219,
				      2147483647, INT32_MIN, -1, 0, 33554435,
				      -33554434 };
	union sgpu_reg d;
	unsigned int bad = 0;

	for (int m = 0; m < 4; m++) {
		for (unsigned int i = 0; i < sizeof(si) / sizeof(si[0]) + 2000; i++) {
			int32_t v = i < sizeof(si) / sizeof(si[0]) ? si[i] :
				    (int32_t)(uint32_t)rnd();
			struct mdg_alu a =
				vop(MDG_ALU_I2F_RTE + m, MDG_REG_MODE_32, 0);
			volatile int32_t vv = v;
			volatile uint32_t uv = (uint32_t)v;
			float fs, fu;

			fesetround(fe_modes[m]);
			fs = (float)vv;
			fu = (float)uv;
			fesetround(FE_TONEAREST);
			memset(&ops, 0, sizeof(ops));
			ops.src1.u32[0] = (uint32_t)v;
			CHECK(run(&a, MDG_UNIT_VADD, &d));
			bad += d.u32[0] != fbits(fs);
			a.op = MDG_ALU_U2F_RTE + m;
			CHECK(run(&a, MDG_UNIT_VADD, &d));
			bad += d.u32[0] != fbits(fu);
		}
	}
	CHECK_EQ(bad, 0);
	/* i64 -> f32 with shrink (Mesa's i2f32 of an int64). */
	{
		struct mdg_alu a = vop(MDG_ALU_I2F_RTE, MDG_REG_MODE_64, 0);

		a.shrink = MDG_SHRINK_LOWER;
		memset(&ops, 0, sizeof(ops));
		ops.src1.u64[0] = (uint64_t)INT64_MIN;
		ops.src1.u64[1] = (1ull << 62) + 1;
		CHECK(run(&a, MDG_UNIT_VADD, &d));
		CHECK_EQ(d.u32[0], fbits(-0x1p63f));
		CHECK_EQ(d.u32[1], fbits(0x1p62f));
		a.op = MDG_ALU_I2F_RTP;
		CHECK(run(&a, MDG_UNIT_VADD, &d));
		CHECK_EQ(d.u32[1], fbits(0x1p62f) + 1);
		a.op = MDG_ALU_U2F_RTE;
		ops.src1.u64[0] = UINT64_MAX;
		CHECK(run(&a, MDG_UNIT_VADD, &d));
		CHECK_EQ(d.u32[0], fbits(0x1p64f));
	}
	/* i32 -> f16 via shrink saturates to inf in RTE. */
	{
		struct mdg_alu a = vop(MDG_ALU_I2F_RTE, MDG_REG_MODE_32, 0);

		a.shrink = MDG_SHRINK_LOWER;
		memset(&ops, 0, sizeof(ops));
		ops.src1.u32[0] = 70000;
		ops.src1.u32[1] = (uint32_t)-2049;
		CHECK(run(&a, MDG_UNIT_VADD, &d));
		CHECK_EQ(d.u16[0], 0x7C00);
		CHECK_EQ(d.u16[1], hbits((_Float16)-2048.0f));
	}
}

TEST(compares)
{
	float v[] = { 1.0f, 2.0f, NAN, -0.0f, 0.0f, -INFINITY };

	for (unsigned int i = 0; i < 6; i++) {
		for (unsigned int j = 0; j < 6; j++) {
			float x = v[i], y = v[j];

			CHECK_EQ(run_f32(MDG_ALU_FEQ, x, y, MDG_UNIT_VADD, 2),
				 x == y ? 0xFFFFFFFFu : 0);
			CHECK_EQ(run_f32(MDG_ALU_FNE, x, y, MDG_UNIT_VMUL, 2),
				 x != y ? 0xFFFFFFFFu : 0);
			CHECK_EQ(run_f32(MDG_ALU_FLT, x, y, MDG_UNIT_SADD, 2),
				 x < y ? 0xFFFFFFFFu : 0);
			CHECK_EQ(run_f32(MDG_ALU_FLE, x, y, MDG_UNIT_VADD, 2),
				 x <= y ? 0xFFFFFFFFu : 0);
		}
	}
	/* fp16 compares give 16-bit booleans. */
	{
		union sgpu_reg d;
		struct mdg_alu a = vop(MDG_ALU_FLT, MDG_REG_MODE_16,
				       MDG_OUTMOD_KEEP_LOW);

		memset(&ops, 0, sizeof(ops));
		ops.src1.u16[0] = hbits((_Float16)1.0f);
		ops.src2.u16[0] = hbits((_Float16)2.0f);
		ops.src1.u16[1] = hbits((_Float16)3.0f);
		CHECK(run(&a, MDG_UNIT_VADD, &d));
		CHECK_EQ(d.u16[0], 0xFFFF);
		CHECK_EQ(d.u16[1], 0);
	}
}

TEST(ball_bany)
{
	union sgpu_reg d;
	struct mdg_alu a = vop(MDG_ALU_FBALL_EQ, MDG_REG_MODE_32,
			       MDG_OUTMOD_KEEP_LOW);

	memset(&ops, 0, sizeof(ops));
	for (int i = 0; i < 4; i++) {
		ops.src1.f32[i] = (float)i;
		ops.src2.f32[i] = (float)i;
	}
	a.mask = 0x03;
	memset(&d, 0x11, sizeof(d));
	CHECK(run(&a, MDG_UNIT_VMUL, &d));
	CHECK_EQ(d.u32[0], 0xFFFFFFFF);
	CHECK_EQ(d.u32[1], 0x11111111);                 /* one component */
	a.op = MDG_ALU_FBANY_NEQ;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 0);
	ops.src2.f32[3] = NAN;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 0xFFFFFFFF);
	a.op = MDG_ALU_FBALL_EQ;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 0);
	a.op = MDG_ALU_FBANY_LT;
	ops.src2.f32[3] = 3.5f;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 0xFFFFFFFF);
	/* Integer forms; Mesa's vec2 all-equal broadcasts y into z, w. */
	a.op = MDG_ALU_IBALL_EQ;
	a.src1 = MDG_VSRC(0, 0, 0x54);                  /* xyyy */
	a.src2 = MDG_VSRC(0, 0, 0x54);
	ops.src1.u32[0] = 5; ops.src1.u32[1] = 6; ops.src1.u32[2] = 7;
	ops.src2.u32[0] = 5; ops.src2.u32[1] = 6; ops.src2.u32[2] = 8;
	a.mask = 0x0C;                                  /* written to y */
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[1], 0xFFFFFFFF);
	a.src1 = V_ID;
	a.src2 = V_ID;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[1], 0);
	a.op = MDG_ALU_IBANY_NEQ;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[1], 0xFFFFFFFF);
	a.op = MDG_ALU_UBALL_LT;
	ops.src1.u32[3] = 0; ops.src2.u32[3] = 0xFFFFFFFF;
	for (int i = 0; i < 3; i++) {
		ops.src1.u32[i] = 1;
		ops.src2.u32[i] = 2;
	}
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[1], 0xFFFFFFFF);
	a.op = MDG_ALU_IBANY_LT;                             /* -1 is not > 0 */
	ops.src1.u32[0] = ops.src1.u32[1] = ops.src1.u32[2] = 2;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[1], 0);
	/* Reductions cannot run on a scalar unit. */
	CHECK(!run(&a, MDG_UNIT_SADD, &d));
}

TEST(dot_products)
{
	union sgpu_reg d;
	struct mdg_alu a = vop(MDG_ALU_FDOT3, MDG_REG_MODE_32, 0);

	memset(&ops, 0, sizeof(ops));
	for (int i = 0; i < 4; i++) {
		ops.src1.f32[i] = (float)(i + 1);
		ops.src2.f32[i] = 0.5f * (float)(i + 1);
	}
	a.mask = 0x30;                                  /* z */
	memset(&d, 0, sizeof(d));
	CHECK(run(&a, MDG_UNIT_VMUL, &d));
	CHECK_EQ(d.u32[2], fbits(7.0f));                /* (1+4+9)/2 */
	CHECK_EQ(d.u32[0], 0);
	a.op = MDG_ALU_FDOT4;
	CHECK(run(&a, MDG_UNIT_VMUL, &d));
	CHECK_EQ(d.u32[2], fbits(15.0f));
	/* Modifiers apply per source; outmod clamps. */
	a.src1 = MDG_VSRC(2, 0, ID_SWZ);
	a.outmod = MDG_OUTMOD_CLAMP_M1_1;
	CHECK(run(&a, MDG_UNIT_VMUL, &d));
	CHECK_EQ(d.u32[2], fbits(-1.0f));
	/* Rounded once, not per step. */
	a = vop(MDG_ALU_FDOT3, MDG_REG_MODE_32, 0);
	a.mask = 0x03;
	ops.src1.f32[0] = 1.0f; ops.src2.f32[0] = 1.0f;
	ops.src1.f32[1] = 0x1p-24f; ops.src2.f32[1] = 1.0f;
	ops.src1.f32[2] = 0x1p-24f; ops.src2.f32[2] = 1.0f;
	CHECK(run(&a, MDG_UNIT_VMUL, &d));
	CHECK_EQ(d.u32[0], fbits(1.0f + 0x1p-23f));
	ops.src1.f32[1] = INFINITY; ops.src2.f32[1] = 0.0f;
	CHECK(run(&a, MDG_UNIT_VMUL, &d));
	CHECK_EQ(d.u32[0], SGPU_F32_DEFAULT_NAN);
}

TEST(csel)
{
	union sgpu_reg d;
	struct mdg_alu a =
		vop(MDG_ALU_ICSEL, MDG_REG_MODE_32, MDG_OUTMOD_KEEP_LOW);

	memset(&ops, 0, sizeof(ops));
	for (int i = 0; i < 4; i++) {
		ops.src1.u32[i] = 0x100 + (uint32_t)i;
		ops.src2.u32[i] = 0x200 + (uint32_t)i;
	}
	ops.cond.u32[3] = 0xFFFFFFFF;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 0x100);
	CHECK_EQ(d.u32[3], 0x103);
	ops.cond.u32[3] = 0;
	ops.cond.u32[0] = 0xFFFFFFFF;           /* only .w counts */
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 0x200);
	/* Vector select: a bit select against r31. */
	a.op = MDG_ALU_ICSEL_V;
	ops.cond.u32[0] = 0xFFFFFFFF;
	ops.cond.u32[1] = 0;
	ops.cond.u32[2] = 0x0000FFFF;
	ops.src1.u32[2] = 0xAAAAAAAA;
	ops.src2.u32[2] = 0x55555555;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 0x100);
	CHECK_EQ(d.u32[1], 0x201);
	CHECK_EQ(d.u32[2], 0x5555AAAA);
	/* fcsel with float modifiers, on the scalar multiply unit. */
	memset(&a, 0, sizeof(a));
	a.op = MDG_ALU_FCSEL;
	a.ssrc1 = (uint8_t)(1 << 2 | 0 << 3 | 2);       /* -x */
	a.ssrc2 = (uint16_t)(1 << 2 | 2 << 3 | 1);      /* |y| */
	a.full = true;
	a.comp = 6;
	ops.src1.f32[0] = 4.0f;
	ops.src2.f32[1] = -9.0f;
	ops.cond.u32[3] = 1;
	CHECK(run(&a, MDG_UNIT_SMUL, &d));
	CHECK_EQ(d.u32[3], fbits(-4.0f));
	ops.cond.u32[3] = 0;
	CHECK(run(&a, MDG_UNIT_SMUL, &d));
	CHECK_EQ(d.u32[3], fbits(9.0f));
	/* fcsel_v per lane; NaNs pass unchanged. */
	a = vop(MDG_ALU_FCSEL_V, MDG_REG_MODE_32, 0);
	ops.src1.u32[0] = 0x7F800001;
	ops.cond.u32[0] = 0xFFFFFFFF;
	ops.cond.u32[1] = 0;
	ops.src2.f32[1] = 2.0f;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 0x7F800001);
	CHECK_EQ(d.u32[1], fbits(2.0f));
}

/* ---- LUT ---- */

static uint32_t run_lut(uint8_t op, float x)
{
	union sgpu_reg d;
	struct mdg_alu a = vop(op, MDG_REG_MODE_32, 0);

	memset(&ops, 0, sizeof(ops));
	ops.src1.f32[0] = x;
	a.mask = 0x03;
	if (!run(&a, MDG_UNIT_VLUT, &d))
		return 0xDEADBEEF;
	return d.u32[0];
}

static double lut_ref(uint8_t op, double x)
{
	switch (op) {
	case MDG_ALU_FRCP: return 1.0 / x;
	case MDG_ALU_FRSQRT: return 1.0 / sqrt(x);
	case MDG_ALU_FSQRT: return sqrt(x);
	case MDG_ALU_FEXP2: return exp2(x);
	case MDG_ALU_FLOG2: return log2(x);
	case MDG_ALU_FSINPI: return sin(M_PI * x);
	default: return cos(M_PI * x);
	}
}

TEST(lut_precision_truncation)
{
	static const uint8_t lops[] = { MDG_ALU_FRCP,  MDG_ALU_FRSQRT,
					MDG_ALU_FSQRT, MDG_ALU_FEXP2,
					MDG_ALU_FLOG2, MDG_ALU_FSINPI,
					MDG_ALU_FCOSPI };
	unsigned int bad = 0, total = 0;

	for (unsigned int k = 0; k < sizeof(lops); k++) {
		for (int iter = 0; iter < 5000; iter++) {
			float x;
			double want, got, ulp;
			uint32_t r;

			switch (lops[k]) {
			case MDG_ALU_FEXP2:
				x = (float)((double)(rnd() % 200000) / 1000.0 - 100.0);
				break;
			case MDG_ALU_FSINPI:
			case MDG_ALU_FCOSPI:
				x = (float)((double)(rnd() % 1000000) / 250000.0 - 2.0);
				break;
			default:
				x = bitsf(((uint32_t)rnd() & 0x3FFFFFFF) + 0x00800000);
				break;
			}
			r = run_lut(lops[k], x);
			got = (double)bitsf(r);
			want = lut_ref(lops[k], (double)x);
			if (want == 0.0 || fabs(want) < 1e-6)
				continue;       /* sinpi/cospi near zeros: below */
			ulp = ldexp(1.0, ilogb((float)want) - 23);
			total++;
			/* Truncation: never above the exact value in magnitude
			 * (rounding would be, half of the time). */
			if (fabs(got) > fabs(want) * (1 + 1e-15) ||
			    fabs(want - got) >= ulp) {
				if (bad++ < 3)
					printf("  lut %02x(%a) = %a want %a\n",
					       lops[k], (double)x, got, want);
			}
		}
	}
	CHECK_EQ(bad, 0);
	CHECK(total > 25000);

	/* A value whose nearest float lies above: truncation goes down. */
	CHECK_EQ(run_lut(MDG_ALU_FRCP, 3.0f), 0x3EAAAAAA);
	CHECK_EQ(fbits(1.0f / 3.0f), 0x3EAAAAAB);
	CHECK_EQ(run_lut(MDG_ALU_FSQRT, 2.0f),
		 0x3FB504F3); /* rte is ...F3 too */
	CHECK_EQ(run_lut(MDG_ALU_FEXP2, 3.0f), fbits(8.0f));
	CHECK_EQ(run_lut(MDG_ALU_FLOG2, 1024.0f), fbits(10.0f));
	CHECK_EQ(run_lut(MDG_ALU_FSQRT, 16.0f), fbits(4.0f));
	CHECK_EQ(run_lut(MDG_ALU_FSINPI, 0.5f), fbits(1.0f));
	CHECK_EQ(run_lut(MDG_ALU_FSINPI, 1.0f), 0);
	CHECK_EQ(run_lut(MDG_ALU_FSINPI, -1.0f), 0x80000000);
	CHECK_EQ(run_lut(MDG_ALU_FCOSPI, 0.5f), 0);
	CHECK_EQ(run_lut(MDG_ALU_FCOSPI, 1.0f), fbits(-1.0f));
	CHECK_EQ(run_lut(MDG_ALU_FSINPI, 16777216.0f), 0);
	/* 1/6 rounded up: sin is just above 0.5 -> 0.5; rounded down:
	 * just below -> the float below 0.5. */
	CHECK_EQ(run_lut(MDG_ALU_FSINPI, 1.0f / 6.0f), fbits(0.5f));
	CHECK_EQ(run_lut(MDG_ALU_FSINPI, nextafterf(1.0f / 6.0f, 0.0f)),
		 0x3EFFFFFF);
}

TEST(lut_special_cases)
{
	CHECK_EQ(run_lut(MDG_ALU_FRCP, 0.0f), 0x7F800000);
	CHECK_EQ(run_lut(MDG_ALU_FRCP, -0.0f), 0xFF800000);
	CHECK_EQ(run_lut(MDG_ALU_FRCP, INFINITY), 0);
	CHECK_EQ(run_lut(MDG_ALU_FRCP, 0x1p-149f), 0x7F800000); /* overflow */
	CHECK_EQ(run_lut(MDG_ALU_FRSQRT, -1.0f), SGPU_F32_DEFAULT_NAN);
	CHECK_EQ(run_lut(MDG_ALU_FRSQRT, 0.0f), 0x7F800000);
	CHECK_EQ(run_lut(MDG_ALU_FRSQRT, -0.0f), 0xFF800000);
	CHECK_EQ(run_lut(MDG_ALU_FRSQRT, 4.0f), fbits(0.5f));
	CHECK_EQ(run_lut(MDG_ALU_FSQRT, -0.0f), 0x80000000);
	CHECK_EQ(run_lut(MDG_ALU_FSQRT, -4.0f), SGPU_F32_DEFAULT_NAN);
	CHECK_EQ(run_lut(MDG_ALU_FSQRT, INFINITY), 0x7F800000);
	CHECK_EQ(run_lut(MDG_ALU_FLOG2, 0.0f), 0xFF800000);
	CHECK_EQ(run_lut(MDG_ALU_FLOG2, -0.0f), 0xFF800000);
	CHECK_EQ(run_lut(MDG_ALU_FLOG2, -2.0f), SGPU_F32_DEFAULT_NAN);
	CHECK_EQ(run_lut(MDG_ALU_FLOG2, INFINITY), 0x7F800000);
	CHECK_EQ(run_lut(MDG_ALU_FEXP2, 200.0f), 0x7F800000);
	CHECK_EQ(run_lut(MDG_ALU_FEXP2, 128.0f), 0x7F800000);
	CHECK_EQ(run_lut(MDG_ALU_FEXP2, -INFINITY), 0);
	CHECK_EQ(run_lut(MDG_ALU_FEXP2, -149.0f), 1);
	CHECK_EQ(run_lut(MDG_ALU_FEXP2, -200.0f), 0);
	CHECK_EQ(run_lut(MDG_ALU_FSINPI, INFINITY), SGPU_F32_DEFAULT_NAN);
	CHECK_EQ(run_lut(MDG_ALU_FCOSPI, -INFINITY), SGPU_F32_DEFAULT_NAN);
	CHECK_EQ(run_lut(MDG_ALU_FEXP2, bitsf(0x7F800005)), 0x7FC00005);
}

TEST(lut_forms)
{
	union sgpu_reg d;
	struct mdg_alu a = valu(MDG_ALU_FRCP, MDG_REG_MODE_32,
				MDG_VSRC(0, 0, 0xAA), V_ID, 0xFF, 0);

	/* Mesa's split: all selectors equal, value to every masked lane. */
	memset(&ops, 0, sizeof(ops));
	ops.src1.f32[2] = 4.0f;
	memset(&d, 0, sizeof(d));
	a.mask = 0xCC;                          /* y, w */
	CHECK(run(&a, MDG_UNIT_VLUT, &d));
	CHECK_EQ(d.u32[1], fbits(0.25f));
	CHECK_EQ(d.u32[3], fbits(0.25f));
	CHECK_EQ(d.u32[0], 0);
	/* Mixed selectors: the first written lane's operand is used. */
	a.src1 = MDG_VSRC(0, 0, 0xE4);
	ops.src1.f32[1] = 2.0f;
	CHECK(run(&a, MDG_UNIT_VLUT, &d));
	CHECK_EQ(d.u32[3], fbits(0.5f));
	/* fp16 in/out: 32-bit op with expanded source and shrink. */
	a = valu(MDG_ALU_FSQRT, MDG_REG_MODE_32, MDG_VSRC(0, 4, 0x00), V_ID,
		 0x03, 0);
	a.shrink = MDG_SHRINK_LOWER;
	ops.src1.u16[0] = hbits((_Float16)2.0f);
	memset(&d, 0, sizeof(d));
	CHECK(run(&a, MDG_UNIT_VLUT, &d));
	CHECK_EQ(d.u16[0], 0x3DA8);             /* sqrt 2 = 0x3DA8 (trunc) */
	CHECK_EQ(d.u16[1], 0);
	/* No native fp16 LUT, no scalar-unit LUT. */
	a = vop(MDG_ALU_FSQRT, MDG_REG_MODE_16, 0);
	CHECK(!run(&a, MDG_UNIT_VLUT, &d));
	a = vop(MDG_ALU_FSQRT, MDG_REG_MODE_32, 0);
	CHECK(!run(&a, MDG_UNIT_SADD, &d));
	/* LUT output modifier. */
	a.outmod = MDG_OUTMOD_CLAMP_0_1;
	a.mask = 0x03;
	ops.src1.f32[0] = 9.0f;
	CHECK(run(&a, MDG_UNIT_VLUT, &d));
	CHECK_EQ(d.u32[0], fbits(1.0f));
}

TEST(invalid_forms)
{
	union sgpu_reg d;
	struct mdg_alu a;

	memset(&ops, 0, sizeof(ops));
	a = vop(MDG_ALU_FDOT4, MDG_REG_MODE_64, 0);
	a.mask = 0x0F;
	CHECK(!run(&a, MDG_UNIT_VMUL, &d));     /* no fp64 dot product */
	a = vop(MDG_ALU_FMUL, MDG_REG_MODE_8, 0);
	CHECK(!run(&a, MDG_UNIT_VMUL, &d));     /* no fp8 */
	a = vop(MDG_ALU_FADD, MDG_REG_MODE_16, 0);
	a.shrink = MDG_SHRINK_LOWER;
	CHECK(!run(&a, MDG_UNIT_VADD, &d));     /* fp16 -> fp8 */
	a = vop(MDG_ALU_IADD, MDG_REG_MODE_8, MDG_OUTMOD_KEEP_LOW);
	a.shrink = MDG_SHRINK_UPPER;
	CHECK(!run(&a, MDG_UNIT_VADD, &d));     /* 8-bit cannot shrink */
	a = vop(MDG_ALU_IADD, MDG_REG_MODE_32, MDG_OUTMOD_KEEP_LOW);
	a.src1 = MDG_VSRC(0, 1, ID_SWZ);        /* rep_low in 32-bit mode */
	CHECK(!run(&a, MDG_UNIT_VADD, &d));
	a.src1 = MDG_VSRC(0, 6, ID_SWZ);        /* low_swap in 32-bit mode */
	CHECK(!run(&a, MDG_UNIT_VADD, &d));
	a.src1 = V_ID;
	a.shrink = 3;
	CHECK(!run(&a, MDG_UNIT_VADD, &d));
	/* Unimplemented ops. */
	static const uint8_t unimpl[] = {
		MDG_ALU_FDOT3R, MDG_ALU_FREDUCE, MDG_ALU_FFMA, MDG_ALU_IWMUL,
		MDG_ALU_UWMUL, MDG_ALU_IUWMUL, MDG_ALU_ICHOOSE,
		MDG_ALU_FATAN2_PT2, MDG_ALU_FPOW_PT1, MDG_ALU_FATAN2_PT1,
		0x00, 0xFF,                     /* not opcodes at all */
	};
	for (unsigned int i = 0; i < sizeof(unimpl); i++) {
		a = vop(unimpl[i], MDG_REG_MODE_32, 0);
		CHECK(!run(&a, MDG_UNIT_VADD, &d));
	}
}

TEST(inot_iabs_b2f_idioms)
{
	union sgpu_reg d;
	struct mdg_alu a;

	memset(&ops, 0, sizeof(ops));
	/* inot = inor(x, #0). */
	a = vop(MDG_ALU_INOR, MDG_REG_MODE_32, MDG_OUTMOD_KEEP_LOW);
	set_vector_imm(&a, 0);
	ops.src1.u32[0] = 0x0F0F0F0F;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 0xF0F0F0F0);
	/* iabs = iabsdiff(x, 0) */
	a = vop(MDG_ALU_IABSDIFF, MDG_REG_MODE_32, MDG_OUTMOD_KEEP_LOW);
	set_vector_imm(&a, 0);
	ops.src1.u32[0] = (uint32_t)-77;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], 77);
	/* b2f32 = iand(bool, 1.0f) with 1.0f in the constants (r26). */
	a = valu(MDG_ALU_IAND, MDG_REG_MODE_32, V_ID, MDG_VSRC(0, 0, 0x00),
		 0xFF, MDG_OUTMOD_KEEP_LOW);
	ops.src1.u32[0] = 0xFFFFFFFF;
	ops.src1.u32[1] = 0;
	ops.src2.f32[0] = 1.0f;
	CHECK(run(&a, MDG_UNIT_VADD, &d));
	CHECK_EQ(d.u32[0], fbits(1.0f));
	CHECK_EQ(d.u32[1], 0);
	/* fp mode does not change results. */
	for (int m = 0; m < 4; m++) {
		ops.fp_mode = (enum sgpu_fp_mode)m;
		CHECK_EQ(run_f32(MDG_ALU_FADD, 1.0f, 2.0f, MDG_UNIT_VADD, 0),
			 fbits(3.0f));
	}
}

/* ---- The 32-bit fast path against independent references ---- */

/*
 * sgpu_alu.c computes 32-bit-lane forms (fp32 RTE add/mul, min/max,
 * moves, compares, csel, common integer ops) on a fast path with its own
 * rounding (sgpu_f32_round); these tests compare it, in every operand form
 * it accepts, with the host FPU and the documented NaN / clamp rules.
 */

/* fp32 bit patterns weighted toward the special classes. */
static uint32_t rnd_f32_bits(void)
{
	uint32_t u = (uint32_t)rnd(), s = u & 0x80000000u;
	uint32_t m = (uint32_t)(rnd() >> 20) & 0x7FFFFFu;

	switch (rnd() % 12) {
	case 0: return s;                                       /* ±0 */
	case 1: return s | (m ? m : 1);                         /* denormal */
	case 2: return s | 0x7F800000u;                         /* ±inf */
	case 3: return s | 0x7FC00000u | (m & 0x3FFFFFu);       /* qNaN */
	case 4: return s | 0x7F800000u | (m & 0x3FFFFFu) | 1;   /* sNaN */
	case 5: return s | (252u + (u & 1) + (u >> 1 & 1)) << 23 | m;
	case 6: return s | (1u + (u >> 8) % 30) << 23 | m;      /* tiny */
	case 7: return s | 0x3F800000u | (u & 3 ? 0 : m);       /* ±1 */
	case 8: return s | (126u + (u >> 8) % 3) << 23 | m;     /* near 1 */
	default: return u;
	}
}

/* A second operand: often a few binades from x (ties, the exactness
 * boundary of the fast add, cancellation). */
static uint32_t rnd_f32_partner(uint32_t x)
{
	uint32_t ex = (x >> 23) & 0xFF, m = (uint32_t)rnd() & 0x807FFFFFu;
	int d;

	if (rnd() % 2 || ex == 0xFF)
		return rnd_f32_bits();
	d = (int)(rnd() % 70) - 35;
	if ((int)ex + d < 0 || (int)ex + d > 254)
		return m & 0x807FFFFFu;
	if (rnd() % 4 == 0)
		m = (x & 0x007FFFFFu) ^ (uint32_t)(rnd() & 0x80000007u);
	return m | (uint32_t)((int)ex + d) << 23;
}

static bool f32_isnan_bits(uint32_t v)
{
	return (v & 0x7FFFFFFFu) > 0x7F800000u;
}

/* The documented fp32 result of a float op (before the output modifier). */
static uint32_t ref_f32_op(uint8_t op, uint32_t x, uint32_t y)
{
	float a = bitsf(x), b = bitsf(y);
	bool na = f32_isnan_bits(x), nb = f32_isnan_bits(y);
	/* The fmin/fmax family: bit 0 = .nan, 1 = abs, 2 = max. */
	bool minmax = op >= MDG_ALU_FMIN && op <= MDG_ALU_FABSMAX_NAN;
	bool is_max = minmax && (op & 4);

	if (minmax) {
		if (op & 2) {
			x &= 0x7FFFFFFFu;
			y &= 0x7FFFFFFFu;
			a = bitsf(x);
			b = bitsf(y);
		}
		if (na || nb) {
			if ((op & 1) || (na && nb))
				return (na ? x : y) | 0x00400000u;
			return na ? y : x;
		}
		if (a == b)     /* equal values, or zeros: -0 < +0 */
			return (signbit(a) != 0) == is_max ? y : x;
		return (a < b) == is_max ? y : x;
	}
	switch (op) {
	case MDG_ALU_FADD:
		if (na || nb)
			return (na ? x : y) | 0x00400000u;
		if (isinf(a) && isinf(b) && signbit(a) != signbit(b))
			return SGPU_F32_DEFAULT_NAN;
		return fbits(host_fadd(a, b, 0));
	case MDG_ALU_FMUL:
		if (na || nb)
			return (na ? x : y) | 0x00400000u;
		if ((isinf(a) && b == 0.0f) || (isinf(b) && a == 0.0f))
			return SGPU_F32_DEFAULT_NAN;
		return fbits(host_fmul(a, b, 0));
	default:                                /* fmov, fcsel */
		return y;
	}
}

static uint32_t ref_f32_outmod(uint32_t v, unsigned int outmod)
{
	float f = bitsf(v), lo = outmod == MDG_OUTMOD_CLAMP_M1_1 ? -1.0f : 0.0f;

	if (outmod == MDG_OUTMOD_NONE)
		return v;
	if (isnan(f))
		return fbits(lo);
	if (f < lo)
		f = lo;
	if (outmod != MDG_OUTMOD_CLAMP_POS && f > 1.0f)
		f = 1.0f;
	if (lo == 0.0f && f == 0.0f)
		f = 0.0f;                       /* -0 -> +0 */
	return fbits(f);
}

static bool ref_fcmp(uint8_t op, uint32_t x, uint32_t y)
{
	float a = bitsf(x), b = bitsf(y);

	if (f32_isnan_bits(x) || f32_isnan_bits(y))
		return op == MDG_ALU_FNE;
	switch (op) {
	case MDG_ALU_FEQ: return a == b;
	case MDG_ALU_FNE: return a != b;
	case MDG_ALU_FLT: return a < b;
	default: return a <= b;
	}
}

/* An integer output modifier on the exact result, w = 32. */
static uint32_t ref_int_outmod32(i128 x, unsigned int outmod)
{
	switch (outmod) {
	case MDG_OUTMOD_SAT_SIGNED:
		return (uint32_t)clampi(x, INT32_MIN, INT32_MAX);
	case MDG_OUTMOD_SAT_UNSIGNED:
		return (uint32_t)clampi(x, 0, UINT32_MAX);
	case MDG_OUTMOD_KEEP_HIGH:
		return (uint32_t)(x >> 32);
	default:
		return (uint32_t)x;
	}
}

/* The exact result of an integer op on 32-bit lanes. */
static i128 ref_int_exact32(uint8_t op, uint32_t x, uint32_t y)
{
	i128 sa = sval(x, 32), sb = sval(y, 32);
	uint64_t r = ref_int(op, x, y, 32);

	switch (op) {
	case MDG_ALU_IADD: return sa + sb;
	case MDG_ALU_ISHLADD: return 2 * sa + sb;
	case MDG_ALU_ISUB: return sa - sb;
	case MDG_ALU_ISHLSUB: return 2 * sa - sb;
	case MDG_ALU_IMUL: return sa * sb;
	case MDG_ALU_IMOV:
	case MDG_ALU_IMIN:
	case MDG_ALU_IMAX:
	case MDG_ALU_IASR:
	case MDG_ALU_IEQ:
	case MDG_ALU_INE:
	case MDG_ALU_ULT:
	case MDG_ALU_ULE:
	case MDG_ALU_ILT:
	case MDG_ALU_ILE:
		return sval(r, 32);
	default:
		return (i128)r;
	}
}

static uint32_t f16_imm_to_f32(uint16_t h)
{
	if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu))
		return (uint32_t)(h >> 15) << 31 | 0x7F800000u |
		       (uint32_t)(h & 0x3FFu) << 13;
	return fbits((float)bitsh(h));
}

static uint32_t apply_fmod(uint32_t v, unsigned int mod)
{
	if (mod & 1)
		v &= 0x7FFFFFFFu;
	if (mod & 2)
		v ^= 0x80000000u;
	return v;
}

static const uint8_t fast_fops[] = {
	MDG_ALU_FADD, MDG_ALU_FMUL, MDG_ALU_FMIN, MDG_ALU_FMIN_NAN,
	MDG_ALU_FABSMIN, MDG_ALU_FMAX, MDG_ALU_FMAX_NAN, MDG_ALU_FABSMAX,
	MDG_ALU_FMOV, MDG_ALU_FEQ, MDG_ALU_FNE, MDG_ALU_FLT, MDG_ALU_FLE,
	MDG_ALU_FCSEL, MDG_ALU_FCSEL_V, MDG_ALU_FMOV_RTZ, MDG_ALU_FABSMIN_NAN,
	MDG_ALU_FABSMAX_NAN,
};

static const uint8_t fast_iops[] = {
	MDG_ALU_IADD, MDG_ALU_ISHLADD, MDG_ALU_ISUB, MDG_ALU_ISHLSUB,
	MDG_ALU_IMUL, MDG_ALU_IMIN, MDG_ALU_UMIN, MDG_ALU_IMAX, MDG_ALU_UMAX,
	MDG_ALU_IASR, MDG_ALU_ILSR, MDG_ALU_ISHL, MDG_ALU_IAND, MDG_ALU_IOR,
	MDG_ALU_INAND, MDG_ALU_INOR, MDG_ALU_IANDNOT, MDG_ALU_IORNOT,
	MDG_ALU_IXOR, MDG_ALU_INXOR, MDG_ALU_IMOV, MDG_ALU_IEQ, MDG_ALU_INE,
	MDG_ALU_ULT, MDG_ALU_ULE, MDG_ALU_ILT, MDG_ALU_ILE, MDG_ALU_ICSEL,
	MDG_ALU_ICSEL_V,
};

/*
 * One random 32-bit-lane instruction (vector with swizzles, modifiers,
 * mask and immediates, or scalar with components) checked lane by lane.
 * Returns the number of wrong lanes.
 */
static unsigned int fast_form_check(uint8_t op, bool fop, bool scalar)
{
	union sgpu_reg d, before;
	struct mdg_alu a;
	uint32_t x[4], y[4], cond[4], want[4];
	unsigned int n = scalar ? 1 : 4, bad = 0, comp = 0, lanes = 0xF;
	unsigned int mod1 = (unsigned int)rnd() & 3;
	unsigned int mod2 = (unsigned int)rnd() & 3;
	unsigned int outmod = (unsigned int)rnd() & 3;
	bool imm = rnd() % 5 == 0,
	     is_cmp = op >= MDG_ALU_FEQ && op <= MDG_ALU_FLE;
	bool csel = op == MDG_ALU_FCSEL || op == MDG_ALU_FCSEL_V ||
		    op == MDG_ALU_ICSEL || op == MDG_ALU_ICSEL_V;
	uint16_t h = (uint16_t)rnd();

	memset(&ops, 0, sizeof(ops));
	for (unsigned int i = 0; i < 4; i++) {
		uint32_t v = fop ? rnd_f32_bits() : (uint32_t)rnd();

		ops.src1.u32[i] = v;
		ops.src2.u32[i] = fop ? rnd_f32_partner(v) :
				  rnd() % 3 ? (uint32_t)rnd() :
				  (uint32_t)edge_value((unsigned int)rnd(), 32);
		ops.cond.u32[i] = rnd() % 2 ? 0 : (uint32_t)rnd() | 1;
		d.u32[i] = (uint32_t)rnd();
	}
	if (!fop && rnd() % 2)
		h = (uint16_t)edge_value((unsigned int)rnd(), 16);
	before = d;
	if (scalar) {
		unsigned int c1 = 2 * ((unsigned int)rnd() % 4);
		unsigned int c2 = 2 * ((unsigned int)rnd() % 4);

		memset(&a, 0, sizeof(a));
		a.op = op;
		a.outmod = (uint8_t)outmod;
		a.full = true;
		a.comp = (uint8_t)(2 * (rnd() % 4));
		a.ssrc1 = (uint8_t)(mod1 | 1 << 2 | c1 << 3);
		a.ssrc2 = (uint16_t)(mod2 | 1 << 2 | c2 << 3);
		comp = a.comp;
		memcpy(&x[0], ops.src1.u8 + c1 * 2, 4);
		memcpy(&y[0], ops.src2.u8 + c2 * 2, 4);
		memcpy(&cond[0], ops.cond.u8 + comp * 2, 4);
		if (imm)
			set_scalar_imm(&a, h);
	} else {
		unsigned int sw1 = (unsigned int)rnd() & 0xFF;
		unsigned int sw2 = rnd() % 2 ? ID_SWZ :
				   (unsigned int)rnd() & 0xFF;
		uint8_t mask = (uint8_t)rnd();

		a = valu(op, MDG_REG_MODE_32, MDG_VSRC(mod1, 0, sw1),
			 MDG_VSRC(mod2, 0, sw2), mask, (uint8_t)outmod);
		lanes = 0;
		for (unsigned int i = 0; i < 4; i++) {
			x[i] = ops.src1.u32[(sw1 >> (2 * i)) & 3];
			y[i] = ops.src2.u32[(sw2 >> (2 * i)) & 3];
			cond[i] = ops.cond.u32[i];
			if (mask & (1u << (2 * i)))
				lanes |= 1u << i;
		}
		if (imm)
			set_vector_imm(&a, h);
	}
	for (unsigned int i = 0; i < n; i++) {
		bool c = (op == MDG_ALU_FCSEL || op == MDG_ALU_ICSEL) ?
			 ops.cond.u32[3] != 0 : cond[i] != 0;

		if (imm)
			y[i] = fop ? f16_imm_to_f32(h) : (uint32_t)(int16_t)h;
		else if (fop)
			y[i] = apply_fmod(y[i], mod2);
		if (fop)
			x[i] = apply_fmod(x[i], mod1);
		if (op == MDG_ALU_ICSEL_V)
			want[i] = ref_int_outmod32(
				(x[i] & cond[i]) | (y[i] & ~cond[i]), outmod);
		else if (op == MDG_ALU_ICSEL)
			want[i] = ref_int_outmod32(c ? x[i] : y[i], outmod);
		else if (csel)
			want[i] = ref_f32_outmod(c ? x[i] : y[i], outmod);
		else if (is_cmp)
			want[i] = ref_int_outmod32(ref_fcmp(op, x[i], y[i]) ?
						   -1 : 0, outmod);
		else if (fop)
			want[i] = ref_f32_outmod(ref_f32_op(op, x[i], y[i]),
						 outmod);
		else
			want[i] = ref_int_outmod32(
				ref_int_exact32(op, x[i], y[i]), outmod);
	}
	if (!run(&a, scalar ? (rnd() % 2 ? MDG_UNIT_SADD : MDG_UNIT_SMUL) :
		 (rnd() % 2 ? MDG_UNIT_VADD : MDG_UNIT_VMUL), &d)) {
		printf("  op %02x %s: did not run\n", op,
		       scalar ? "scalar" : "vector");
		return 1;
	}
	if (scalar) {
		uint32_t got;

		memcpy(&got, d.u8 + comp * 2, 4);
		memcpy(d.u8 + comp * 2, before.u8 + comp * 2, 4);
		if (got != want[0] || memcmp(&d, &before, sizeof(d))) {
			printf("  op %02x scalar outmod %u: %08x,%08x -> %08x "
			       "want %08x\n", op, outmod, x[0], y[0], got,
			       want[0]);
			bad++;
		}
		return bad;
	}
	for (unsigned int i = 0; i < 4; i++) {
		uint32_t w = lanes & (1u << i) ? want[i] : before.u32[i];

		if (d.u32[i] != w) {
			if (!bad)
				printf("  op %02x lane %u outmod %u: "
				       "%08x,%08x -> %08x want %08x\n", op, i,
				       outmod, x[i], y[i], d.u32[i], w);
			bad++;
		}
	}
	return bad;
}

TEST(fast_path_fp32_random)
{
	unsigned int bad = 0;

	for (unsigned int k = 0; k < sizeof(fast_fops); k++) {
		for (int iter = 0; iter < 6000; iter++) {
			unsigned int b = fast_form_check(fast_fops[k], true,
							 iter % 4 == 3);

			if (b && bad < 8)
				printf("  (iteration %d)\n", iter);
			bad += b;
		}
	}
	CHECK_EQ(bad, 0);
}

TEST(fast_path_int32_random)
{
	unsigned int bad = 0;

	for (unsigned int k = 0; k < sizeof(fast_iops); k++) {
		for (int iter = 0; iter < 3000; iter++) {
			unsigned int b = fast_form_check(fast_iops[k], false,
							 iter % 4 == 3);

			if (b && bad < 8)
				printf("  (iteration %d)\n", iter);
			bad += b;
		}
	}
	CHECK_EQ(bad, 0);
}

/* fp32 add/mul RTE over the exponent gaps around the fast add's exactness
 * boundary (28 binades), denormal results and overflow. */
TEST(fast_path_fadd_fmul_gaps)
{
	unsigned int bad = 0;

	for (int iter = 0; iter < 200000; iter++) {
		uint32_t ex = 1 + (uint32_t)(rnd() % 254);
		int gap = (int)(rnd() % 36);
		uint32_t x = (uint32_t)rnd() & 0x807FFFFFu, y, got, want;
		int ey = (int)ex - gap;

		if (iter % 3 == 0)
			x &= 0x80000000u | (uint32_t)rnd();   /* sparse bits */
		x |= ex << 23;
		y = ((uint32_t)rnd() & 0x807FFFFFu) |
		    (uint32_t)(ey > 0 ? ey : 0) << 23;
		if (iter % 2)
			y = x ^ 0x80000000u ^ ((uint32_t)rnd() & 0xF);
		if (iter % 5 == 0) {
			uint32_t t = x;

			x = y;
			y = t;
		}
		got = run_f32b(MDG_ALU_FADD, x, y);
		want = fbits(host_fadd(bitsf(x), bitsf(y), 0));
		if (got != want && bad++ < 4)
			printf("  fadd %08x %08x -> %08x want %08x\n", x, y, got,
			       want);
		got = run_f32(MDG_ALU_FMUL, bitsf(x), bitsf(y), MDG_UNIT_VMUL,
			      0);
		want = fbits(host_fmul(bitsf(x), bitsf(y), 0));
		if (got != want && bad++ < 4)
			printf("  fmul %08x %08x -> %08x want %08x\n", x, y, got,
			       want);
	}
	CHECK_EQ(bad, 0);
}

/* sgpu_float_encode's integer fp32 rounding (sgpu_f32_round) against the
 * host's double -> float conversion in every rounding mode. */
TEST(f32_round_vs_host)
{
	unsigned int bad = 0;

	/* The integer-built decodes against the host's conversions. */
	for (int iter = 0; iter < 100000; iter++) {
		uint32_t f = (uint32_t)rnd();
		uint16_t h = (uint16_t)rnd();

		if (iter % 3 == 0)
			f &= 0x807FFFFFu;               /* zero, denormal */
		if (f32_isnan_bits(f) || (h & 0x7C00u) == 0x7C00u)
			continue;
		if (sgpu_f32_decode(f) != (double)bitsf(f) ||
		    !signbit(sgpu_f32_decode(f)) != !signbit(bitsf(f)) ||
		    sgpu_f16_decode(h) != (double)bitsh(h) ||
		    !signbit(sgpu_f16_decode(h)) != !(h >> 15)) {
			if (bad++ < 4)
				printf("  decode %08x / %04x\n", f, h);
		}
	}

	for (int iter = 0; iter < 200000; iter++) {
		uint64_t u = rnd();
		/* Exponents from double denormals to beyond fp32's range. */
		uint64_t e = rnd() % 5 == 0 ? rnd() % 2048 :
			     1023 - 160 + rnd() % 300;
		double v;

		if (e >= 2047)
			e = 2046;
		if (iter % 4 == 0)      /* ties and near-ties */
			u = (u & ~0x3FFFFFFFull) | 0x10000000ull |
			    (rnd() % 3 == 0 ? rnd() & 1 : 0);
		u = (u & 0x800FFFFFFFFFFFFFull) | e << 52;
		memcpy(&v, &u, 8);
		for (int mode = 0; mode < 4; mode++) {
			volatile double vv = v;
			volatile float f;
			uint32_t got = sgpu_float_encode(v, 0.0,
							 (enum sgpu_round)mode,
							 SGPU_FMT_F32);

			fesetround(fe_modes[mode]);
			f = (float)vv;
			fesetround(FE_TONEAREST);
			if (got != fbits(f) && bad++ < 4)
				printf("  %a mode %d -> %08x want %08x\n", v,
				       mode, got, fbits(f));
		}
	}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	RUN(int8_exhaustive_binary);
	RUN(int8_unary_clz_popcnt);
	RUN(int16_random_edges);
	RUN(int32_random_edges);
	RUN(int64_random_edges);
	RUN(int_edge_cases_explicit);
	RUN(imul_keep_high);
	RUN(int_outmod_saturate_and_shrink);
	RUN(swizzle_32);
	RUN(swizzle_16_expand_modes);
	RUN(swizzle_8bit_pairs);
	RUN(expand_16_to_32_int_mods);
	RUN(mode64_sources);
	RUN(write_mask_and_float_shrink);
	RUN(immediates);
	RUN(scalar_units);
	RUN(fadd_fmul_all_roundings_random);
	RUN(fadd_halfway_cases);
	RUN(signed_zeros);
	RUN(nan_rules);
	RUN(fmin_fmax);
	RUN(denormals_preserved);
	RUN(fp16_mode_arith);
	RUN(fp16_conversions_exhaustive);
	RUN(float_outmods);
	RUN(round_to_integral);
	RUN(fmov_modifiers_and_conversions);
	RUN(f2i_f2u);
	RUN(i2f_u2f);
	RUN(compares);
	RUN(ball_bany);
	RUN(dot_products);
	RUN(csel);
	RUN(lut_precision_truncation);
	RUN(lut_special_cases);
	RUN(lut_forms);
	RUN(invalid_forms);
	RUN(inot_iabs_b2f_idioms);
	RUN(fast_path_fp32_random);
	RUN(fast_path_int32_random);
	RUN(fast_path_fadd_fmul_gaps);
	RUN(f32_round_vs_host);
	return check_summary();
}
