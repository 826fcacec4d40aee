/* SPDX-License-Identifier: MIT */
/*
 * The Midgard assembler: the worked example written by hand, labels and
 * branch offsets (forward, backward, compact and extended), constants and
 * immediates, and error messages that name the line and the problem.
 */
#include "check.h"
#include "midgard_isa.h"

CHECK_MAIN_STATE("isa-asm");

static uint8_t code[1 << 16];
static char text[1 << 17];

static long as(const char *src, unsigned int *first, char *err, size_t n)
{
	return mdg_assemble(src, code, sizeof(code), first, err, n);
}

/* Disassembles code[0..len) and re-assembles it: must be identical. */
static bool again(long len)
{
	static uint8_t copy[sizeof(code)];
	unsigned int first;
	char err[256];
	long n;

	memcpy(copy, code, (size_t)len);
	if (mdg_disassemble(copy, (size_t)len, copy[0] & 0xF, text,
			    sizeof(text), err, sizeof(err)) < 0) {
		printf("  %s\n", err);
		return false;
	}
	n = as(text, &first, err, sizeof(err));
	if (n != len || memcmp(copy, code, (size_t)len)) {
		printf("  %s\n%s", n < 0 ? err : "bytes differ", text);
		return false;
	}
	return true;
}

static const char example_src[] =
	"; buf[gid.x] = gid.x, pointer in UBO 0 (docs/hardware.md §5.13)\n"
	"ldst\n"
	"\tmov r0.xyz, global_id.xyzx\n"
	"\tld_ubo.64 r1.xy, ubo(0)[0]\n"
	"alu\n"
	"\tvmul.imov.i32 r27.x, r0.xxxx\n"
	"\tvadd.imov.i32 r26.xy, r1.xyzw\n"
	"ldst\n"
	"\tst.32 r27.xxxx, [r26.xy + r27.x.u32 << 2]\n";

static const uint32_t example[16] = {
	0x48e01095, 0x00003830, 0x1c861ac0, 0x00004380,
	0x00220059, 0x68386c18, 0x0072027b, 0x027b03a0,
	0x0fae4072, 0x00000000, 0x00000000, 0x00000000,
	0x01e1c815, 0x00008940, 0x00000030, 0x00000000,
};

TEST(worked_example)
{
	unsigned int first = 0, i;
	char err[256];
	long n = as(example_src, &first, err, sizeof(err));

	REQUIRE(n == 64 + 16);
	CHECK_EQ(first, 5);
	for (i = 0; i < 64; i++)
		CHECK_EQ(code[i], (uint8_t)(example[i / 4] >> (8 * (i % 4))));
	for (i = 64; i < 80; i++)
		CHECK_EQ(code[i], 0);
	/* And the disassembler prints exactly that text back. */
	REQUIRE(mdg_disassemble(code, 80, 5, text, sizeof(text), err,
				sizeof(err)) > 0);
	CHECK(!strcmp(text, strchr(example_src, '\n') + 1));
	if (strcmp(text, strchr(example_src, '\n') + 1))
		printf("%s", text);
}

TEST(loop_backward_branch)
{
	static const char src[] =
		"ldst\n"
		"\tmov r0.x, local_id.xxxx\n"
		"alu\n"
		"\tvmul.imov.i32 r1.x, #10\n"
		"loop:   ; decrement until zero\n"
		"alu\n"
		"\tsadd.isub.i32 r1.x, r1.x, #1\n"
		"\tsmul.ine.i32 r31.w, r1.x, #0\n"
		"\tbr.true loop\n"
		"ldst\n"
		"\tst.32 r27.xxxx, [r26.xy]\n";
	unsigned int first;
	char err[256];
	struct mdg_bundle b;
	long n = as(src, &first, err, sizeof(err));

	/* ldst 16, alu 16, alu with two scalars and a branch 32, ldst 16. */
	REQUIRE(n == 80 + 16);
	REQUIRE(mdg_decode_bundle(code + 32, 32, &b, err, sizeof(err)) == 32);
	CHECK(b.has_branch && !b.branch.extended);
	CHECK_EQ(b.branch.op, MDG_BRANCH_OP_COND);
	CHECK_EQ(b.branch.cond, MDG_COND_TRUE);
	CHECK_EQ(b.branch.offset, -2);     /* back to its own start */
	CHECK_EQ(b.branch.dest_tag, 9);
	CHECK_EQ(b.next_tag, 5);
	CHECK_EQ(code[16] >> 4, 9);        /* next tags follow the code */
	CHECK_EQ(code[64] >> 4, 1);        /* last one: break */
	CHECK(again(n));
}

/* A branch over n ALU4 bundles, forward, plus one back to the start. */
static long far_program(unsigned int n, const char *fwd, const char *back)
{
	static char src[1 << 16];
	size_t len = 0;
	unsigned int i, first;
	char err[256];
	long r;

	len += (size_t)snprintf(src + len, sizeof(src) - len,
				"top:\nalu\n\t%s out\n", fwd);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(src + len, sizeof(src) - len,
					"alu\n\tvadd.iadd.i32 r0, r0, #%u\n", i);
	len += (size_t)snprintf(src + len, sizeof(src) - len,
				"out:\nldst\n\tnop\nalu\n\t%s top\n", back);
	r = as(src, &first, err, sizeof(err));
	if (r < 0)
		printf("  %s\n", err);
	return r;
}

TEST(branch_ranges)
{
	struct mdg_bundle b;
	char err[128];
	long n;

	/* 63 bundles ahead fits a compact branch. */
	n = far_program(63, "br", "br");
	REQUIRE(n > 0);
	REQUIRE(mdg_decode_bundle(code, 64, &b, err, sizeof(err)));
	CHECK(!b.branch.extended);
	CHECK_EQ(b.branch.offset, 63);
	CHECK_EQ(b.branch.op, MDG_BRANCH_OP_UNCOND);
	CHECK_EQ(b.branch.dest_tag, MDG_TAG_LDST);
	CHECK(again(n));

	/* 64 does not: extended, as Mesa does, "conditional always". */
	n = far_program(64, "br", "br");
	REQUIRE(n > 0);
	REQUIRE(mdg_decode_bundle(code, 64, &b, err, sizeof(err)));
	CHECK(b.branch.extended);
	CHECK_EQ(b.branch.offset, 64);
	CHECK_EQ(b.branch.op, MDG_BRANCH_OP_COND);
	CHECK_EQ(b.branch.cond_lut, 0xFFFF);
	/* The backward one: -(64 + 1 + 1 + 1) bundles of one quadword
	 * (the first is an extended-branch ALU bundle, still 16 bytes). */
	REQUIRE(mdg_decode_bundle(code + n - 32, 32, &b, err, sizeof(err)));
	CHECK(b.branch.extended);
	CHECK_EQ(b.branch.offset, -(64 + 3));
	CHECK_EQ(b.branch.dest_tag, 8);
	CHECK(again(n));

	/* Forced forms. */
	n = far_program(2, "br.ext", "br.false.compact");
	REQUIRE(n > 0);
	REQUIRE(mdg_decode_bundle(code, 64, &b, err, sizeof(err)));
	CHECK(b.branch.extended);
	CHECK_EQ(b.branch.op, MDG_BRANCH_OP_UNCOND);
	CHECK_EQ(b.branch.offset, 2);
	CHECK(again(n));
	CHECK(far_program(70, "br.compact", "br") < 0);
}

TEST(constants_and_immediates)
{
	static const char src[] =
		"alu\n"
		"\tvadd.fadd.f32.sat r0.xy, -abs(r1.xyzw), r26.xxxx\n"
		"\tvmul.fmul.f32 r2, r2.yxwz, #-1.5\n"
		"\tsadd.iadd.i16 r3.h1, r3.h0.zext, #-7\n"
		"\tconst 1.0, -2, 0xdeadbeef\n";
	unsigned int first;
	char err[256];
	struct mdg_bundle b;
	const struct mdg_alu *a;
	long n = as(src, &first, err, sizeof(err));

	REQUIRE(n == 48 + 16);
	CHECK_EQ(first, 0xA);
	REQUIRE(mdg_decode_bundle(code, 48, &b, err, sizeof(err)) == 48);
	CHECK(b.has_constants);
	CHECK_EQ(b.constants[0], 0x3F800000);
	CHECK_EQ(b.constants[1], 0xFFFFFFFE);
	CHECK_EQ(b.constants[2], 0xDEADBEEF);
	a = &b.alu[MDG_UNIT_VADD];
	CHECK_EQ(a->outmod, MDG_OUTMOD_CLAMP_0_1);
	CHECK_EQ(a->mask, 0x0F);
	CHECK_EQ(MDG_VSRC_MOD(a->src1), 3);
	CHECK_EQ(a->src2_reg, MDG_REG_CONST);
	CHECK_EQ(mdg_alu_immediate(&b.alu[MDG_UNIT_VMUL], MDG_UNIT_VMUL),
		 0xBE00);
	CHECK_EQ(MDG_VSRC_SWIZZLE(b.alu[MDG_UNIT_VMUL].src1), 0xB1);
	a = &b.alu[MDG_UNIT_SADD];
	CHECK(!a->full);
	CHECK_EQ(a->comp, 1);
	CHECK_EQ(mdg_alu_immediate(a, MDG_UNIT_SADD), 0xFFF9);
	CHECK_EQ(MDG_SSRC_MOD(a->ssrc1), 1);
	CHECK(again(n));
}

TEST(ldst_forms)
{
	static const char src[] =
		"ldst\n"
		"\tld.32 r0.x, [r26.x]\n"
		"\tld.128 r1, [local_storage.zw + 32].wzyx\n"
		"ldst\n"
		"\taadd.32 r2.x, [r26.xy + r27.y.s32 << 3 - 8], r27.z\n"
		"\tacmpxchg.64 r3.xy, [r26.zw], r27.xy\n"
		"ldst\n"
		"\tld_ubo.128 r4, ubo(3)[r27.w << 4 + 64]\n"
		"\tst.u8 r26.xxxx, [zero.x + r26.x.u64] {mask=1}\n"
		"ldst\n"
		"\tmov r5.xyz, group_id.xyzw\n"
		"barrier\n"
		"tex.vtx fetch {format=2, sampler_type=1, mask=15, swizzle=0xE4}\n";
	unsigned int first;
	char err[256];
	long n = as(src, &first, err, sizeof(err));
	struct mdg_bundle b;

	if (n < 0)
		printf("  %s\n", err);
	/* cmpxchg takes base + offset, the operand and the comparison. */
	REQUIRE(n < 0);
	CHECK(strstr(err, "line 6:") != NULL);
	{
		static char fixed[sizeof(src) + 16];
		char *p;

		strcpy(fixed, src);
		p = strstr(fixed, "r27.xy\n");
		memcpy(p, "r27.x, r27.z\n", 13);
		strcpy(p + 13, strstr(src, "ldst\n\tld_ubo"));
		n = as(fixed, &first, err, sizeof(err));
		if (n < 0)
			printf("  %s\n", err);
	}
	REQUIRE(n == 6 * 16 + 16);
	REQUIRE(mdg_decode_bundle(code + 16, 16, &b, err, sizeof(err)));
	CHECK_EQ(b.ldst[0].op, 0x40);
	CHECK_EQ(b.ldst[0].index_format, MDG_INDEX_S32);
	CHECK_EQ(b.ldst[0].index_shift, 3);
	CHECK_EQ(b.ldst[0].offset, -8);
	CHECK_EQ(b.ldst[0].swizzle, 2 | 1 << 2);
	CHECK_EQ(b.ldst[1].op, 0x65);
	CHECK_EQ(b.ldst[1].index_reg, 1);
	CHECK_EQ(b.ldst[1].index_comp, 2);
	REQUIRE(mdg_decode_bundle(code + 32, 16, &b, err, sizeof(err)));
	CHECK_EQ(b.ldst[0].arg_comp, 3);
	CHECK_EQ(b.ldst[0].offset, 64 * 4 + 1);
	CHECK_EQ(b.ldst[0].index_shift, 4);
	CHECK_EQ(b.ldst[1].mask, 1);
	CHECK_EQ(b.ldst[1].index_format, MDG_INDEX_U64);
	REQUIRE(mdg_decode_bundle(code + 64, 16, &b, err, sizeof(err)));
	CHECK_EQ(code[64], 0x24);
	CHECK_EQ(code[65], 0x0B);
	CHECK_EQ(code[66], 0x03);
	CHECK(again(n));
}

TEST(errors)
{
	static const struct {
		const char *src, *msg;
	} cases[] = {
		{ "alu\n\tvmul.fadd.f32 r0, r1, r2\n", "line 2: fadd cannot run on vmul" },
		{ "alu\n\tvadd.fnord.f32 r0, r1, r2\n", "line 2: unknown ALU op 'fnord'" },
		{ "vadd.fadd.f32 r0, r1, r2\n", "line 1: 'vadd.fadd.f32' outside a bundle" },
		{ "alu\n\tvadd.fadd.f32 r0, r1, r40\n", "line 2: bad register" },
		{ "alu\n\tvadd.fadd.f32 r0, r1, #0.1\n", "not exact in fp16" },
		{ "alu\n\tvadd.fadd.f32 r0, r1, r2\n\tvadd.fadd.f32 r0, r1, r2\n", "line 3: unit vadd used twice" },
		{ "alu\n\tbr nowhere\n", "line 2: undefined label 'nowhere'" },
		{ "x:\nx:\nalu\n", "line 2: label 'x' defined twice" },
		{ "ldst\n\tld.33 r0, [r26.x]\n", "line 2: unknown load/store op 'ld.33'" },
		{ "ldst\n\tld.32 r0, [r26.x + r27.x]\n", "line 2: two base terms" },
		{ "ldst\n\tnop\n\tnop\n\tnop\n", "line 4: a load/store bundle holds two" },
		{ "alu\n\tvadd.iadd.i32 r0.xq, r1, r2\n", "line 2: bad write mask letter 'q'" },
		{ "alu\n\tvadd.iadd.i8 r0, r1.widen_lo, r2\n", "line 2: vadd: src1 expand mode 4 invalid in 8-bit mode" },
		{ "alu\n\tconst 1, 2, 3, 4, 5\n", "line 2: const takes 1 to 4 values" },
		{ "tex fnord\n", "line 1: unknown texture op 'fnord'" },
		{ "alu {next=6}\n", "line 1: next tag 6 is invalid" },
		{ "", "no bundles" },
		{ "ldst\n\tmov r0, global_id.xyzw {bogus=1}\n", "line 2: unknown annotation 'bogus'" },
	};
	unsigned int i, first;
	char err[256];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long n = as(cases[i].src, &first, err, sizeof(err));

		if (n >= 0 || !strstr(err, cases[i].msg))
			CHECK_FAIL_AT(__FILE__, __LINE__, "case %u: got %ld '%s', "
				      "want '%s'", i, n, n < 0 ? err : "",
				      cases[i].msg);
	}
}

TEST(disassemble_edges)
{
	char err[256];
	uint8_t z[32] = { 0 };
	unsigned int first;
	long n;

	/* A break-tagged bundle followed by a branch target. */
	n = as("alu\n\tsmul.ine.i32 r31.w, r0.x, #0\n\tbr.false skip\n"
	       "alu {next=break}\n\tvadd.iadd.i32 r0, r0, #1\n"
	       "skip:\nldst\n\tst.32 r26.xxxx, [r27.xy]\n",
	       &first, err, sizeof(err));
	REQUIRE(n == 48 + 16);
	CHECK_EQ(code[16] >> 4, 1);
	CHECK(again(n));
	CHECK(mdg_disassemble(z, sizeof(z), 5, text, sizeof(text), err,
			      sizeof(err)) < 0);
	CHECK(mdg_disassemble(code, (size_t)n, 5, text, sizeof(text), err,
			      sizeof(err)) < 0);
	/* Truncated output still reports the full length. */
	CHECK(mdg_disassemble(code, (size_t)n, 8, text, 10, err, sizeof(err)) >
	      10);
}

int main(void)
{
	RUN(worked_example);
	RUN(loop_backward_branch);
	RUN(branch_ranges);
	RUN(constants_and_immediates);
	RUN(ldst_forms);
	RUN(errors);
	RUN(disassemble_edges);
	return check_summary();
}
