/* SPDX-License-Identifier: MIT */
/*
 * The Midgard encoder and decoder: every ALU op on every unit it allows,
 * randomized bundles round-tripping field by field and through text, random
 * and mutated bytes (decode rejects or reproduces them exactly), and the
 * known answers of docs/hardware.md (§5.13 worked example, the barrier).
 */
#include <ctype.h>
#include <string.h>

#include "check.h"
#include "isa_gen.h"

CHECK_MAIN_STATE("isa-codec");

#define TEXT_SIZE 65536

static char text[TEXT_SIZE];

/* Bytes -> text -> bytes for a one-bundle program; true when identical. */
static bool text_round_trip(const uint8_t *code, unsigned int size)
{
	uint8_t prog[MDG_MAX_BUNDLE_BYTES + 16] = { 0 }, again[4096];
	unsigned int first = 0;
	char err[256];
	long n;

	memcpy(prog, code, size);
	if (mdg_disassemble(prog, size + 16, code[0] & 0xF, text, sizeof(text),
			    err, sizeof(err)) < 0) {
		printf("  disassemble: %s\n", err);
		return false;
	}
	n = mdg_assemble(text, again, sizeof(again), &first, err, sizeof(err));
	if (n != (long)size + 16 || memcmp(again, prog, size + 16) ||
	    first != (code[0] & 0xFu)) {
		printf("  text round trip failed (%s):\n%s", n < 0 ? err : "bytes",
		       text);
		return false;
	}
	return true;
}

/* encode -> decode -> field-equal -> encode same -> text same. */
static bool round_trip(const struct mdg_bundle *b)
{
	uint8_t code[MDG_MAX_BUNDLE_BYTES], again[MDG_MAX_BUNDLE_BYTES];
	struct mdg_bundle d;
	unsigned int n, m;
	char err[256];

	n = mdg_encode_bundle(b, code, sizeof(code), err, sizeof(err));
	if (!n) {
		printf("  encode: %s\n", err);
		return false;
	}
	if (mdg_decode_bundle(code, n, &d, err, sizeof(err)) != n) {
		printf("  decode: %s\n", err);
		return false;
	}
	if (!bundle_equal(b, &d)) {
		printf("  decoded bundle differs\n");
		return false;
	}
	m = mdg_encode_bundle(&d, again, sizeof(again), err, sizeof(err));
	if (m != n || memcmp(code, again, n)) {
		printf("  re-encoding differs\n");
		return false;
	}
	return text_round_trip(code, n);
}

TEST(tables)
{
	unsigned int op, n = 0;

	for (op = 0; op < 256; op++) {
		const struct mdg_alu_op_info *i = mdg_alu_op_info((uint8_t)op);

		if (!i)
			continue;
		n++;
		CHECK_EQ(mdg_alu_op_by_name(i->name), op);
		if (i->flags & MDG_OP_ROUND_MODES) {
			CHECK_EQ(mdg_alu_op_info((uint8_t)(op + 3))->rounding, 3);
			CHECK(mdg_alu_op_info((uint8_t)(op + 1))->units == i->units);
		}
		if (mdg_ldst_op_info((uint8_t)op))
			CHECK_EQ(mdg_ldst_op_by_name(
				mdg_ldst_op_info((uint8_t)op)->name), op);
	}
	CHECK(n > 120);
	CHECK_EQ(mdg_alu_op_by_name("fadd"), 0x10);
	CHECK_EQ(mdg_alu_op_by_name("imov"), 0x7B);
	CHECK_EQ(mdg_alu_op_by_name("f2i_rtz"), 0x99);
	CHECK_EQ(mdg_alu_op_info(0x99)->rounding, 1);
	CHECK(mdg_alu_op_info(0xC1)->flags & MDG_OP_CSEL);
	CHECK(mdg_alu_op_info(0x82)->flags & MDG_OP_INT_DST);
	CHECK(!(mdg_alu_op_info(0x82)->flags & MDG_OP_INT_SRC));
	CHECK(mdg_alu_op_info(0xBC)->flags & MDG_OP_UNSIGNED);
	CHECK_EQ(mdg_alu_op_info(0xF0)->units, MDG_UNIT_MASK(MDG_UNIT_VLUT));
	CHECK_EQ(mdg_ldst_op_by_name("ld.32"), 0x88);
	CHECK_EQ(mdg_ldst_op_by_name("aadd.64.be"), 0x43);
	CHECK_EQ(mdg_ldst_op_by_name("acmpxchg.64.be"), 0x67);
	CHECK_EQ(mdg_ldst_op_info(0x43)->bytes, 8);
	CHECK(mdg_ldst_op_info(0x43)->flags & MDG_LDST_BIG_ENDIAN);
	CHECK(mdg_ldst_op_info(0x94)->flags & MDG_LDST_GRAPHICS);
	CHECK_EQ(mdg_ldst_op_info(0xB0)->bytes, 16);
	CHECK(mdg_ldst_op_info(0xA1)->flags & MDG_LDST_SIGNED);
	CHECK(mdg_ldst_op_info(0x01) == NULL);
	CHECK(mdg_tex_op_name(11) && !mdg_tex_op_name(3));
	CHECK_EQ(mdg_tag_size(0xB), 64);
	CHECK_EQ(mdg_tag_size(0x6), 0);
	CHECK_EQ(mdg_tag_kind(0x1), MDG_KIND_INVALID);
}

/*
 * The opcode names and the tables come from one list (midgard_ops.def): every
 * name must be its mnemonic upper-cased with '.' as '_', name the entry the
 * tables hold under its number, and every table entry must have a name.
 */
struct named_op {
	const char *id;
	unsigned int code;
	const char *mnemonic;
	enum mdg_bundle_kind kind;
};

static const struct named_op named_ops[] = {
#define MDG_ALU_OP(id, code, mnemonic, units, flags, rounding)                 \
	{ #id, code, mnemonic, MDG_KIND_ALU },
#define MDG_LDST_OP(id, code, mnemonic, flags, bytes)                          \
	{ #id, code, mnemonic, MDG_KIND_LDST },
#define MDG_TEX_OP(id, code, mnemonic)                                         \
	{ #id, code, mnemonic, MDG_KIND_TEXTURE },
#include "midgard_ops.def"
#undef MDG_ALU_OP
#undef MDG_LDST_OP
#undef MDG_TEX_OP
};

TEST(op_names)
{
	unsigned int counts[4] = { 0 }, in_tables[4] = { 0 }, i, op;

	for (i = 0; i < sizeof(named_ops) / sizeof(named_ops[0]); i++) {
		const struct named_op *n = &named_ops[i];
		uint8_t code = (uint8_t)n->code;
		const char *name = NULL;
		char upper[64];
		size_t k;

		for (k = 0; n->mnemonic[k] && k + 1 < sizeof(upper); k++)
			upper[k] = n->mnemonic[k] == '.' ? '_' :
				   (char)toupper((unsigned char)n->mnemonic[k]);
		upper[k] = 0;
		if (strcmp(n->id, upper))
			CHECK_FAIL_AT(__FILE__, __LINE__, "%s is called %s",
				      n->mnemonic, n->id);
		if (n->kind == MDG_KIND_ALU && mdg_alu_op_info(code))
			name = mdg_alu_op_info(code)->name;
		if (n->kind == MDG_KIND_LDST && mdg_ldst_op_info(code))
			name = mdg_ldst_op_info(code)->name;
		if (n->kind == MDG_KIND_TEXTURE)
			name = mdg_tex_op_name(code);
		CHECK(name && !strcmp(name, n->mnemonic));
		counts[n->kind]++;
	}
	for (op = 0; op < 256; op++) {
		uint8_t code = (uint8_t)op;

		in_tables[MDG_KIND_ALU] += mdg_alu_op_info(code) != NULL;
		in_tables[MDG_KIND_LDST] += mdg_ldst_op_info(code) != NULL;
		in_tables[MDG_KIND_TEXTURE] += mdg_tex_op_name(code) != NULL;
	}
	CHECK_EQ(counts[MDG_KIND_ALU], in_tables[MDG_KIND_ALU]);
	CHECK_EQ(counts[MDG_KIND_LDST], in_tables[MDG_KIND_LDST]);
	CHECK_EQ(counts[MDG_KIND_TEXTURE], in_tables[MDG_KIND_TEXTURE]);
	/* The numbers Mesa's midgard.h gives these ops. */
	CHECK_EQ(MDG_ALU_FADD, 0x10);
	CHECK_EQ(MDG_ALU_IMOV, 0x7B);
	CHECK_EQ(MDG_ALU_F2U_RTZ, 0x9D);
	CHECK_EQ(MDG_ALU_FCSEL, 0xC5);
	CHECK_EQ(MDG_LDST_NOP, 0x03);
	CHECK_EQ(MDG_LDST_LD_32, 0x88);
	CHECK_EQ(MDG_LDST_ACMPXCHG_64_BE, 0x67);
	CHECK_EQ(MDG_LDST_ST_128, 0xD0);
	CHECK_EQ(MDG_TEX_OP_BARRIER, 11);
}

TEST(every_alu_op_on_every_unit)
{
	unsigned int op, u, k, cases = 0;

	gen_seed(1);
	for (op = 0; op < 256; op++) {
		const struct mdg_alu_op_info *i = mdg_alu_op_info((uint8_t)op);

		for (u = 0; i && u < MDG_UNIT_COUNT; u++) {
			struct mdg_bundle b;
			uint8_t code[64];
			char err[128];

			memset(&b, 0, sizeof(b));
			b.tag = MDG_TAG_ALU4;
			b.next_tag = MDG_TAG_BREAK;
			b.units = (uint8_t)MDG_UNIT_MASK(u);
			if (!(i->units & MDG_UNIT_MASK(u))) {
				/* Refused on a unit it cannot run on. */
				b.alu[u].op = (uint8_t)op;
				b.alu[u].shrink = 2;
				CHECK(!mdg_encode_bundle(&b, code, sizeof(code),
							 err, sizeof(err)));
				continue;
			}
			for (k = 0; k < 40; k++) {
				gen_alu(&b.alu[u], (uint8_t)op, (enum mdg_unit)u);
				b.has_constants = k & 1;
				b.constants[0] = 0x3F800000;
				if (!round_trip(&b)) {
					CHECK_FAIL_AT(__FILE__, __LINE__,
						      "op 0x%02X (%s) on %u", op,
						      i->name, u);
					return;
				}
				cases++;
			}
		}
	}
	printf("  %u cases\n", cases);
}

TEST(random_bundles)
{
	unsigned int k;

	gen_seed_from_env();
	for (k = 0; k < 20000; k++) {
		struct mdg_bundle b;

		gen_bundle(&b);
		if (!round_trip(&b)) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "bundle %u (tag %u)", k,
				      b.tag);
			return;
		}
	}
}

/* Random multi-bundle programs: labels, next tags, branches between them. */
TEST(random_programs)
{
	static uint8_t prog[64 * 16 + 16], again[4096];
	unsigned int k;

	gen_seed_from_env();
	for (k = 0; k < 2000; k++) {
		unsigned int nb = 1 + rn(12), i, pos = 0, first = 0;
		unsigned int starts[16];
		char err[256];
		long n;

		for (i = 0; i < nb; i++) {
			struct mdg_bundle b;
			unsigned int size;

			gen_bundle(&b);
			if (b.has_branch && rn(2)) {
				/* Aim at a bundle already placed. */
				b.branch.offset = -(int32_t)rn(pos / 16 + 1) - 4;
				b.branch.extended = rn(2);
			}
			size = mdg_encode_bundle(&b, prog + pos, 64, err,
						 sizeof(err));
			REQUIRE(size);
			starts[i] = pos;
			pos += size;
		}
		/* Chain the next tags like a real program, mostly. */
		for (i = 0; i + 1 < nb; i++)
			if (rn(4))
				prog[starts[i]] = (uint8_t)((prog[starts[i]] & 0xF) |
							    (prog[starts[i + 1]] & 0xF) << 4);
		memset(prog + pos, 0, 16);
		n = mdg_disassemble(prog, pos + 16, prog[0] & 0xF, text,
				    sizeof(text), err, sizeof(err));
		if (n < 0) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "program %u: %s", k, err);
			return;
		}
		n = mdg_assemble(text, again, sizeof(again), &first, err,
				 sizeof(err));
		if (n != (long)pos + 16 || memcmp(again, prog, pos + 16)) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "program %u: %s\n%s", k,
				      n < 0 ? err : "bytes differ", text);
			return;
		}
	}
}

/* Random and mutated bytes: rejected, or decoded and re-encoded exactly. */
TEST(random_bytes)
{
	unsigned int k, accepted = 0;

	gen_seed_from_env();
	for (k = 0; k < 200000; k++) {
		uint8_t code[64], again[64];
		struct mdg_bundle b;
		char err[160];
		unsigned int n, i, avail = 16 * (1 + rn(4));

		if (k & 1) {
			for (i = 0; i < 64; i++)
				code[i] = (uint8_t)rnd();
		} else {
			gen_bundle(&b);
			n = mdg_encode_bundle(&b, code, 64, err, sizeof(err));
			REQUIRE(n);
			for (i = n; i < 64; i++)
				code[i] = 0;
			for (i = rn(3); i > 0; i--)
				code[rn(64)] ^= (uint8_t)(1u << rn(8));
		}
		n = mdg_decode_bundle(code, avail, &b, err, sizeof(err));
		if (!n) {
			CHECK(err[0] != 0);
			continue;
		}
		accepted++;
		CHECK(n <= avail);
		CHECK_EQ(mdg_encode_bundle(&b, again, sizeof(again), err,
					   sizeof(err)), n);
		if (memcmp(again, code, n)) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "bundle %u re-encodes "
				      "differently", k);
			return;
		}
	}
	printf("  %u accepted\n", accepted);
	CHECK(accepted > 1000);
}

static const uint32_t example[16] = {
	0x48e01095, 0x00003830, 0x1c861ac0, 0x00004380,
	0x00220059, 0x68386c18, 0x0072027b, 0x027b03a0,
	0x0fae4072, 0x00000000, 0x00000000, 0x00000000,
	0x01e1c815, 0x00008940, 0x00000030, 0x00000000,
};

static void le_bytes(const uint32_t *w, unsigned int n, uint8_t *out)
{
	unsigned int i;

	for (i = 0; i < 4 * n; i++)
		out[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
}

TEST(worked_example)
{
	uint8_t code[64 + 16] = { 0 }, again[64];
	struct mdg_bundle b;
	char err[128];
	const struct mdg_alu *a;

	le_bytes(example, 16, code);
	/* Bundle 0: LDST_MOV r0.xyz <- global_id.xyzx, LD_UBO.64 r1.xy. */
	REQUIRE(mdg_decode_bundle(code, 64, &b, err, sizeof(err)) == 16);
	CHECK_EQ(b.tag, 5);
	CHECK_EQ(b.next_tag, 9);
	CHECK_EQ(b.ldst[0].op, 0x10);
	CHECK_EQ(b.ldst[0].reg, 0);
	CHECK_EQ(b.ldst[0].mask, 7);
	CHECK_EQ(b.ldst[0].swizzle, 0x24);
	CHECK_EQ(b.ldst[0].arg_reg, MDG_LDST_SEL_GLOBAL_ID);
	CHECK_EQ(b.ldst[0].index_reg, MDG_LDST_SEL_ZERO);
	CHECK_EQ(b.ldst[1].op, 0xAC);
	CHECK_EQ(b.ldst[1].reg, 1);
	CHECK_EQ(b.ldst[1].mask, 3);
	CHECK_EQ(b.ldst[1].offset, 1);
	CHECK_EQ(mdg_encode_bundle(&b, again, 64, err, sizeof(err)), 16);
	CHECK(!memcmp(again, code, 16));

	/* Bundle 1: vmul imov r27.x <- r0.x, vadd imov r26.xy <- r1. */
	REQUIRE(mdg_decode_bundle(code + 16, 48, &b, err, sizeof(err)) == 32);
	CHECK_EQ(b.tag, 9);
	CHECK_EQ(b.next_tag, 5);
	CHECK_EQ(b.control, 0x00220059);
	CHECK_EQ(b.units, MDG_UNIT_MASK(MDG_UNIT_VMUL) |
			  MDG_UNIT_MASK(MDG_UNIT_VADD));
	CHECK(!b.has_constants && !b.has_branch);
	a = &b.alu[MDG_UNIT_VMUL];
	CHECK_EQ(a->op, 0x7B);
	CHECK_EQ(a->src1_reg, 24);
	CHECK_EQ(a->src2_reg, 0);
	CHECK_EQ(a->dst_reg, 27);
	CHECK_EQ(a->reg_mode, MDG_REG_MODE_32);
	CHECK_EQ(a->outmod, MDG_OUTMOD_KEEP_LOW);
	CHECK_EQ(a->mask, 0x03);
	a = &b.alu[MDG_UNIT_VADD];
	CHECK_EQ(a->op, 0x7B);
	CHECK_EQ(a->src2_reg, 1);
	CHECK_EQ(a->dst_reg, 26);
	CHECK_EQ(a->mask, 0x0F);
	CHECK_EQ(mdg_encode_bundle(&b, again, 64, err, sizeof(err)), 32);
	CHECK(!memcmp(again, code + 16, 32));

	/* Bundle 2: ST.32 r27 -> [r26.xy + r27.x.u32 << 2], the end. */
	REQUIRE(mdg_decode_bundle(code + 48, 16, &b, err, sizeof(err)) == 16);
	CHECK_EQ(b.next_tag, MDG_TAG_BREAK);
	CHECK_EQ(b.ldst[0].op, 0xC8);
	CHECK_EQ(b.ldst[0].reg, 1);
	CHECK_EQ(b.ldst[0].arg_reg, MDG_LDST_SEL_R26);
	CHECK(b.ldst[0].bitsize_toggle);
	CHECK_EQ(b.ldst[0].index_reg, MDG_LDST_SEL_R27);
	CHECK_EQ(b.ldst[0].index_format, MDG_INDEX_U32);
	CHECK_EQ(b.ldst[0].index_shift, 2);
	CHECK_EQ(b.ldst[1].op, MDG_LDST_NOP);
	CHECK(text_round_trip(code, 16));
}

TEST(barrier)
{
	uint8_t code[16];
	struct mdg_bundle b;
	char err[128];
	unsigned int next;

	for (next = 1; next < 16; next++) {
		if (next == 6 || next == 7)
			continue;
		memset(code, 0, sizeof(code));
		le_bytes((const uint32_t[]){ 0x00030B04 | next << 4 }, 1, code);
		REQUIRE(mdg_decode_bundle(code, 16, &b, err, sizeof(err)) == 16);
		CHECK_EQ(b.tag, MDG_TAG_TEXTURE_BARRIER);
		CHECK_EQ(b.tex.op, MDG_TEX_OP_BARRIER);
		CHECK_EQ(b.tex.exec, 3);
		CHECK_EQ(b.next_tag, next);
	}
	/* A barrier op under a texture tag, or with other fields, is not. */
	code[0] = 0x13;
	CHECK(!mdg_decode_bundle(code, 16, &b, err, sizeof(err)));
	code[0] = 0x14;
	code[5] = 1;
	CHECK(!mdg_decode_bundle(code, 16, &b, err, sizeof(err)));
}

/* The rejections the README lists, one by one. */
TEST(rejections)
{
	uint8_t code[64], ok[64];
	struct mdg_bundle b;
	char err[160];

	le_bytes(example, 16, ok);
#define REJECT(what)                                                           \
	do {                                                                   \
		if (mdg_decode_bundle(code, 64, &b, err, sizeof(err)))         \
			CHECK_FAIL_AT(__FILE__, __LINE__, "accepted: %s", what); \
	} while (0)
#define FROM(off) memcpy(code, ok + (off), 64 - (off)), memset(code + 64 - (off), 0, (off))
	FROM(0);
	CHECK(mdg_decode_bundle(code, 64, &b, err, sizeof(err)) == 16);
	code[0] = 0x90; REJECT("tag 0");
	code[0] = 0x91; REJECT("tag 1");
	code[0] = 0x96; REJECT("tag 6");
	code[0] = 0x05; REJECT("next tag 0");
	code[0] = 0x65; REJECT("next tag 6");
	code[0] = 0x15;
	CHECK(mdg_decode_bundle(code, 64, &b, err, sizeof(err)) == 16);
	code[1] = 0x01; REJECT("unknown load/store op");

	FROM(16);
	code[2] |= 0x01; REJECT("control bit 16");
	FROM(16);
	code[1] |= 0x01; REJECT("control bit 8");
	FROM(16);
	code[3] |= 0x10; REJECT("control bit 28");
	FROM(16);
	code[26] = 1; REJECT("padding");
	FROM(16);
	code[0] = 0x58; REJECT("tag smaller than content");
	FROM(16);
	code[0] = 0x5B; REJECT("tag larger than content + constants");
	FROM(16);
	code[0] = 0x5A;
	CHECK(mdg_decode_bundle(code, 64, &b, err, sizeof(err)) == 48);
	CHECK(b.has_constants);
	FROM(16);
	code[8] = 0x10; REJECT("fadd on vmul");
	FROM(16);
	code[8] = 0x01; REJECT("unknown ALU op");
	FROM(16);
	code[8] = 0x3F; REJECT("freduce");
	FROM(16);
	code[9] |= 0x3 << 2 | 0x1 << 4; REJECT("src1 expand 1 in 32-bit mode");
	FROM(16);
	code[12] = (uint8_t)(code[12] | 0x30); REJECT("shrink 3");

	/* Scalar: reserved bit 25, and a branch op 0/3/5. */
	memset(&b, 0, sizeof(b));
	b.tag = MDG_TAG_ALU4;
	b.next_tag = 1;
	b.units = MDG_UNIT_MASK(MDG_UNIT_SADD);
	b.alu[MDG_UNIT_SADD].op = MDG_ALU_IADD;
	b.alu[MDG_UNIT_SADD].full = 1;
	b.has_branch = true;
	b.branch.op = 1;
	REQUIRE(mdg_encode_bundle(&b, code, 64, err, sizeof(err)) == 16);
	memcpy(ok, code, 16);
	code[6 + 3] |= 0x02; REJECT("scalar bit 25");
	memcpy(code, ok, 16);
	code[10] = (uint8_t)(code[10] & ~7); REJECT("branch op 0");
	memcpy(code, ok, 16);
	code[10] = (uint8_t)((code[10] & ~7) | 3); REJECT("branch op 3");
	memcpy(code, ok, 16);
	code[10] = (uint8_t)((code[10] & ~7) | 5); REJECT("branch op 5");
	b.branch.op = 3;
	CHECK(!mdg_encode_bundle(&b, code, 64, err, sizeof(err)));
	b.branch.op = 1;
	b.alu[MDG_UNIT_SADD].comp = 1;
	CHECK(!mdg_encode_bundle(&b, code, 64, err, sizeof(err)));
	/* Truncated input. */
	CHECK(!mdg_decode_bundle(ok, 15, &b, err, sizeof(err)));
	/* Mesa's LD_UBO with bit0 = 0 and an immediate index decodes. */
	le_bytes(example, 4, code);
	code[13] &= (uint8_t)~0x40;        /* signed_offset bit0: bit 110 */
	CHECK(mdg_decode_bundle(code, 16, &b, err, sizeof(err)) == 16);
	CHECK_EQ(b.ldst[1].offset, 0);
	CHECK(text_round_trip(code, 16));
}

TEST(immediates)
{
	struct mdg_alu a;
	unsigned int v;

	for (v = 0; v < 0x10000; v += 7) {
		memset(&a, 0, sizeof(a));
		mdg_alu_set_immediate(&a, MDG_UNIT_VADD, (uint16_t)v);
		CHECK_EQ(mdg_alu_immediate(&a, MDG_UNIT_VADD), v);
		CHECK_EQ(a.src2 & 3, 0);
		mdg_alu_set_immediate(&a, MDG_UNIT_SMUL, (uint16_t)v);
		CHECK_EQ(mdg_alu_immediate(&a, MDG_UNIT_SMUL), v);
		CHECK(a.ssrc2 <= 0x7FF);
	}
	/* docs/hardware.md §5.4 layout: c[10:9] in bits[1:0], c[8] bit2, c[7:5]
	 * [5:3], c[4:0] in [10:6]. */
	mdg_alu_set_immediate(&a, MDG_UNIT_SADD, 0x0601);
	CHECK_EQ(a.ssrc2, 0x3 | 1 << 6);
	mdg_alu_set_immediate(&a, MDG_UNIT_VMUL, 0x3C00);
	CHECK_EQ(a.src2_reg, 7);
	CHECK_EQ(a.src2, 4 << 2);
}

int main(void)
{
	RUN(tables);
	RUN(op_names);
	RUN(every_alu_op_on_every_unit);
	RUN(random_bundles);
	RUN(random_programs);
	RUN(random_bytes);
	RUN(worked_example);
	RUN(barrier);
	RUN(rejections);
	RUN(immediates);
	return check_summary();
}
