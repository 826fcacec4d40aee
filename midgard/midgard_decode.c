/* SPDX-License-Identifier: MIT */
/*
 * From bytes to struct mdg_bundle, strictly: a bundle decodes only if
 * mdg_encode_bundle() gives back exactly the same bytes, so that whatever a
 * tool, the compiler or the GPU model reads has one meaning and one
 * encoding. The checks with a specific message come first; the final
 * re-encoding catches the rest (README "Validation").
 */
#include <string.h>

#include "midgard_internal.h"

#define FAIL(...) mdg_fail(err, err_size, __VA_ARGS__)

/* Control word bits with a known meaning (docs/hardware.md §5.2). */
#define CONTROL_KNOWN                                                          \
	(0xFFu | MDG_CONTROL_UNIT_BIT(0) | MDG_CONTROL_UNIT_BIT(1) |           \
	 MDG_CONTROL_UNIT_BIT(2) | MDG_CONTROL_UNIT_BIT(3) |                   \
	 MDG_CONTROL_UNIT_BIT(4) | MDG_CONTROL_BRANCH_COMPACT |                \
	 MDG_CONTROL_BRANCH_EXTENDED)

static void decode_branch(const uint8_t *p, bool extended,
			  struct mdg_branch *br)
{
	uint64_t v = mdg_get_bits(p, 0, extended ? 48 : 16);

	br->extended = extended;
	br->op = v & 7;
	br->dest_tag = (v >> 3) & 0xF;
	if (extended) {
		br->call_mode = (v >> 7) & 3;
		br->offset = (int32_t)mdg_sext(v >> 9, 23);
		br->cond_lut = (uint16_t)(v >> 32);
	} else if (br->op == MDG_BRANCH_OP_UNCOND) {
		br->call_mode = (v >> 7) & 3;
		br->offset = (int32_t)mdg_sext(v >> 9, 7);
	} else {
		br->offset = (int32_t)mdg_sext(v >> 7, 7);
		br->cond = (v >> 14) & 3;
	}
}

static unsigned int decode_alu(const uint8_t *code, struct mdg_bundle *b,
			       char *err, size_t err_size)
{
	unsigned int u, content, needed, i;
	const uint8_t *reg, *body;
	bool extended;

	b->control = (uint32_t)mdg_get_bits(code, 0, 32);
	if (b->control & ~CONTROL_KNOWN)
		return FAIL("ALU control word has unknown bits 0x%08X set",
			    b->control & ~CONTROL_KNOWN);
	if ((b->control & MDG_CONTROL_BRANCH_COMPACT) &&
	    (b->control & MDG_CONTROL_BRANCH_EXTENDED))
		return FAIL("ALU bundle with both a compact and an extended "
			    "branch");
	for (u = 0; u < MDG_UNIT_COUNT; u++)
		if (b->control & MDG_CONTROL_UNIT_BIT(u))
			b->units |= (uint8_t)MDG_UNIT_MASK(u);
	b->has_branch = b->control & (MDG_CONTROL_BRANCH_COMPACT |
				      MDG_CONTROL_BRANCH_EXTENDED);
	extended = b->control & MDG_CONTROL_BRANCH_EXTENDED;
	content = mdg_alu_content_bytes(b->units, b->has_branch, extended);
	needed = (content + 15) / 16 * 16;
	/* Constants are implied by a bundle one quadword longer than its
	 * words need, as Mesa's disassembler decides. */
	if (b->size < needed)
		return FAIL("ALU tag 0x%X (%u bytes) too small for its %u bytes "
			    "of words", b->tag, b->size, content);
	if (b->size > needed + 16)
		return FAIL("ALU tag 0x%X (%u bytes) larger than its words and "
			    "constants need", b->tag, b->size);
	b->has_constants = b->size == needed + 16;
	for (i = content; i < needed; i++)
		if (code[i])
			return FAIL("non-zero padding at byte %u of an ALU bundle",
				    i);

	reg = code + 4;
	body = reg + 2 * (unsigned int)__builtin_popcount(b->units);
	for (u = 0; u < MDG_UNIT_COUNT; u++) {
		struct mdg_alu *a = &b->alu[u];
		unsigned int r;
		uint64_t v;

		if (!(b->units & MDG_UNIT_MASK(u)))
			continue;
		r = reg[0] | reg[1] << 8;
		reg += 2;
		a->src1_reg = r & 0x1F;
		a->src2_reg = (r >> 5) & 0x1F;
		a->dst_reg = (r >> 10) & 0x1F;
		a->src2_imm = r >> 15;
		if (mdg_unit_is_scalar((enum mdg_unit)u)) {
			v = mdg_get_bits(body, 0, 32);
			body += 4;
			if (v & (1u << 25))
				return FAIL("%s: reserved bit 25 set",
					    mdg_unit_names[u]);
			a->op = v & 0xFF;
			a->ssrc1 = (v >> 8) & 0x3F;
			a->ssrc2 = (v >> 14) & 0x7FF;
			a->outmod = (v >> 26) & 3;
			a->full = (v >> 28) & 1;
			a->comp = (v >> 29) & 7;
		} else {
			v = mdg_get_bits(body, 0, 48);
			body += 6;
			a->op = v & 0xFF;
			a->reg_mode = (v >> 8) & 3;
			a->src1 = (v >> 10) & 0x1FFF;
			a->src2 = (v >> 23) & 0x1FFF;
			a->shrink = (v >> 36) & 3;
			a->outmod = (v >> 38) & 3;
			a->mask = (v >> 40) & 0xFF;
		}
		if (!mdg_check_alu(a, (enum mdg_unit)u, err, err_size))
			return 0;
	}
	if (b->has_branch) {
		decode_branch(body, extended, &b->branch);
		if (b->branch.op == 0 || b->branch.op == 3 || b->branch.op == 5)
			return FAIL("unknown branch op %u", b->branch.op);
	}
	if (b->has_constants)
		for (i = 0; i < 4; i++)
			b->constants[i] = (uint32_t)mdg_get_bits(
				code + b->size - 16, 32 * i, 32);
	return b->size;
}

unsigned int mdg_decode_bundle(const uint8_t *code, size_t avail,
			       struct mdg_bundle *b, char *err,
			       size_t err_size)
{
	uint8_t again[MDG_MAX_BUNDLE_BYTES];
	enum mdg_bundle_kind kind;
	unsigned int size, i;

	memset(b, 0, sizeof(*b));
	if (avail < MDG_QUADWORD)
		return FAIL("truncated bundle (%zu bytes left)", avail);
	b->tag = code[0] & 0xF;
	b->next_tag = code[0] >> 4;
	kind = mdg_tag_kind(b->tag);
	if (kind == MDG_KIND_INVALID)
		return FAIL("tag %u cannot start a bundle", b->tag);
	if (b->next_tag != MDG_TAG_BREAK &&
	    mdg_tag_kind(b->next_tag) == MDG_KIND_INVALID)
		return FAIL("next tag %u is invalid", b->next_tag);
	size = mdg_tag_size(b->tag);
	b->size = (uint8_t)size;
	if (avail < size)
		return FAIL("truncated bundle: tag 0x%X needs %u bytes, %zu left",
			    b->tag, size, avail);

	if (kind == MDG_KIND_ALU) {
		if (!decode_alu(code, b, err, err_size))
			return 0;
	} else if (kind == MDG_KIND_LDST) {
		for (i = 0; i < 2; i++) {
			mdg_ldst_unpack(mdg_get_bits(code, 8 + 60 * i, 60),
					&b->ldst[i]);
			if (!mdg_check_ldst(&b->ldst[i], i, err, err_size))
				return 0;
		}
	} else {
		mdg_tex_unpack(code, &b->tex);
		if (!mdg_check_tex(&b->tex, b->tag, err, err_size))
			return 0;
	}

	/* The definition of validity: re-encoding gives the same bytes. */
	if (mdg_encode_bundle(b, again, sizeof(again), err, err_size) != size)
		return 0;
	for (i = 0; i < size; i++)
		if (again[i] != code[i])
			return FAIL("byte %u is not canonical (reserved bits set)",
				    i);
	return size;
}
