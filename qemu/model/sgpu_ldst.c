/* SPDX-License-Identifier: MIT */
/*
 * The load/store unit: one load/store bundle of a thread (docs/hardware.md
 * §5.8): address arithmetic over the argument registers r26/r27 and the
 * special read-selectors (compute ids, local storage pointers), memory
 * loads and stores, uniform-buffer loads, atomics, and the register moves
 * (LDST_MOV, LEA).
 *
 * The two words of a bundle run concurrently (the compiler never makes one
 * depend on the other): both read their registers before either writes.
 *
 * Model choices where the hardware is not documented (qemu/README.md):
 *  - alignment: accesses of 4 bytes or more need a 4-byte aligned address,
 *    16-bit ones 2 bytes, atomics their own size; else INSTR_ALIGN_FAULT;
 *  - thread- and workgroup-local storage: an access based on the TLS, stack
 *    or WLS pointer must stay inside this thread's TLS slot or this
 *    workgroup's WLS instance; else INSTR_TLS_FAULT;
 *  - uniform buffers: an index at or above the RSD's UBO count, or a read
 *    past the buffer's size, ends the job with DATA_INVALID_FAULT;
 *  - narrow loads (u8, s8, u16, s16) extend the value to 32 bits in
 *    component 0 before the swizzle.
 */
#include <string.h>

#include "sgpu_shader.h"

/* What kind of region a base read-selector points into. */
enum region {
	REGION_NONE,
	REGION_TLS,
	REGION_WLS,
};

/* This thread's TLS slot (sgpu_shader_core.c), 0 without TLS. */
static uint64_t thread_tls(const struct sgpu_exec *ex,
			   const struct sgpu_thread *th)
{
	return ex->tls_base ? ex->core_tls + th->linear_id * ex->tls_per_thread :
	       0;
}

/* Value of a read-selector for this thread. */
static union sgpu_reg selector_value(const struct sgpu_exec *ex,
				     const struct sgpu_thread *th,
				     unsigned int sel)
{
	union sgpu_reg v;
	uint64_t tls = thread_tls(ex, th);

	memset(&v, 0, sizeof(v));
	switch (sel) {
	case MDG_LDST_SEL_R26:
		return th->r[26];
	case MDG_LDST_SEL_R27:
		return th->r[27];
	case MDG_LDST_SEL_PC_SP:
		v.u64[0] = th->pc;
		v.u64[1] = tls ? tls + ex->tls_sp_offset : 0;
		break;
	case MDG_LDST_SEL_LOCAL_STORAGE:
		v.u64[0] = tls;
		v.u64[1] = ex->group_wls;
		break;
	case MDG_LDST_SEL_LOCAL_ID:
		memcpy(v.u32, th->local_id, sizeof(th->local_id));
		break;
	case MDG_LDST_SEL_GROUP_ID:
		memcpy(v.u32, ex->group_id, sizeof(ex->group_id));
		break;
	case MDG_LDST_SEL_GLOBAL_ID:
		for (int i = 0; i < 3; i++)
			v.u32[i] = ex->group_id[i] * ex->d->local_size[i] +
				   th->local_id[i];
		break;
	default:
		break;
	}
	return v;
}

/* A decoded memory operation, with its operands read. */
struct ldst_op {
	const struct mdg_ldst *w;
	const struct mdg_ldst_op_info *info;
	uint64_t ea;
	enum region region;
	union sgpu_reg data;          /* store data / atomic operand */
	uint64_t compare;             /* cmpxchg */
	union sgpu_reg result;        /* value for w->reg */
	bool writes_reg;
};

static uint64_t component64(const union sgpu_reg *v, unsigned int comp)
{
	return (uint64_t)v->u32[comp] | (uint64_t)v->u32[(comp + 1) & 3] << 32;
}

static uint32_t fail(struct sgpu_exec *ex, const struct sgpu_thread *th,
		     uint32_t code, const char *what)
{
	sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle 0x%llx: %s",
				(unsigned long long)th->pc, what);
	return code;
}

/* base + (index << shift) + offset, per docs/hardware.md §5.8. */
static uint32_t address(struct sgpu_exec *ex, const struct sgpu_thread *th,
			struct ldst_op *op, bool with_index)
{
	const struct mdg_ldst *w = op->w;
	union sgpu_reg base = selector_value(ex, th, w->arg_reg);
	uint64_t ea, index = 0;

	if (w->bitsize_toggle) {
		if (w->arg_comp & 1)
			return fail(ex, th, MDG_EXCEPTION_INSTR_INVALID_ENC,
				    "64-bit base on an odd component");
		ea = component64(&base, w->arg_comp);
	} else {
		ea = base.u32[w->arg_comp];
	}
	if (with_index) {
		union sgpu_reg iv = selector_value(ex, th, w->index_reg);

		switch (w->index_format) {
		case MDG_INDEX_U64:
			if (w->index_comp & 1)
				return fail(ex, th, MDG_EXCEPTION_INSTR_INVALID_ENC,
					    "64-bit index on an odd component");
			index = component64(&iv, w->index_comp);
			break;
		case MDG_INDEX_U32:
			index = iv.u32[w->index_comp];
			break;
		case MDG_INDEX_S32:
			index = (uint64_t)(int64_t)(int32_t)iv.u32[w->index_comp];
			break;
		default:
			/* Format 0 is reserved; with the zero selector it
			 * adds nothing, which Mesa relies on. */
			if (w->index_reg != MDG_LDST_SEL_ZERO)
				return fail(ex, th, MDG_EXCEPTION_INSTR_INVALID_ENC,
					    "reserved index format 0");
			break;
		}
	}
	ea += index << w->index_shift;
	ea += (uint64_t)(int64_t)w->offset;
	op->ea = ea;
	if (w->arg_reg == MDG_LDST_SEL_LOCAL_STORAGE)
		op->region = w->arg_comp < 2 ? REGION_TLS : REGION_WLS;
	else if (w->arg_reg == MDG_LDST_SEL_PC_SP && w->arg_comp >= 2)
		op->region = REGION_TLS;
	else
		op->region = REGION_NONE;
	return 0;
}

static uint32_t check_access(struct sgpu_exec *ex, const struct sgpu_thread *th,
			     const struct ldst_op *op, unsigned int bytes,
			     unsigned int align)
{
	uint64_t lo, size;

	if (op->ea % align)
		return fail(ex, th, MDG_EXCEPTION_INSTR_ALIGN_FAULT,
			    "misaligned memory access");
	if (op->region == REGION_NONE)
		return 0;
	if (op->region == REGION_TLS) {
		lo = thread_tls(ex, th);
		size = ex->tls_per_thread;
		if (!ex->tls_base)
			return fail(ex, th, MDG_EXCEPTION_INSTR_TLS_FAULT,
				    "thread-local storage access without a "
				    "TLS base pointer");
	} else {
		lo = ex->group_wls;
		size = ex->wls_instance_bytes;
		if (!ex->wls_base)
			return fail(ex, th, MDG_EXCEPTION_INSTR_TLS_FAULT,
				    "workgroup-local access without a WLS "
				    "base pointer");
	}
	if (op->ea < lo || op->ea - lo > size || size - (op->ea - lo) < bytes)
		return fail(ex, th, MDG_EXCEPTION_INSTR_TLS_FAULT,
			    op->region == REGION_TLS ?
			    "access outside the thread's local storage" :
			    "access outside the workgroup's local storage");
	return 0;
}

static unsigned int natural_align(unsigned int bytes)
{
	return bytes >= 4 ? 4 : bytes;
}

static void bswap_units(uint8_t *p, unsigned int len, unsigned int unit)
{
	for (unsigned int i = 0; i + unit <= len; i += unit) {
		for (unsigned int j = 0; j < unit / 2; j++) {
			uint8_t t = p[i + j];

			p[i + j] = p[i + unit - 1 - j];
			p[i + unit - 1 - j] = t;
		}
	}
}

/* Byte-swap unit of the bswap/.be variants of a load or store, 0 if none. */
static unsigned int swap_unit(uint8_t op)
{
	switch (op) {
	case MDG_LDST_LD_U16_BE: case MDG_LDST_LD_S16_BE:
	case MDG_LDST_LD_UBO_U16_BE: case MDG_LDST_LD_UBO_S16_BE:
	case MDG_LDST_ST_U16_BE: case MDG_LDST_ST_S16_BE:
	case MDG_LDST_LD_32_BSWAP2: case MDG_LDST_LD_64_BSWAP2:
	case MDG_LDST_LD_128_BSWAP2: case MDG_LDST_LD_UBO_32_BSWAP2:
	case MDG_LDST_LD_UBO_64_BSWAP2: case MDG_LDST_LD_UBO_128_BSWAP2:
	case MDG_LDST_ST_32_BSWAP2: case MDG_LDST_ST_64_BSWAP2:
	case MDG_LDST_ST_128_BSWAP2:
		return 2;
	case MDG_LDST_LD_32_BSWAP4: case MDG_LDST_LD_64_BSWAP4:
	case MDG_LDST_LD_128_BSWAP4: case MDG_LDST_LD_UBO_32_BSWAP4:
	case MDG_LDST_LD_UBO_64_BSWAP4: case MDG_LDST_LD_UBO_128_BSWAP4:
	case MDG_LDST_ST_32_BSWAP4: case MDG_LDST_ST_64_BSWAP4:
	case MDG_LDST_ST_128_BSWAP4:
		return 4;
	case MDG_LDST_LD_64_BSWAP8: case MDG_LDST_LD_128_BSWAP8:
	case MDG_LDST_LD_UBO_64_BSWAP8: case MDG_LDST_LD_UBO_128_BSWAP8:
	case MDG_LDST_ST_64_BSWAP8: case MDG_LDST_ST_128_BSWAP8:
		return 8;
	default:
		return 0;
	}
}

/* Applies the 2-bit-per-component swizzle of a load/store word. */
static union sgpu_reg swizzle32(const union sgpu_reg *v, uint8_t swizzle)
{
	union sgpu_reg out;

	for (int i = 0; i < 4; i++)
		out.u32[i] = v->u32[(swizzle >> (2 * i)) & 3];
	return out;
}

static void write_masked(union sgpu_reg *dst, const union sgpu_reg *v,
			 unsigned int mask)
{
	for (int i = 0; i < 4; i++) {
		if (mask & (1u << i))
			dst->u32[i] = v->u32[i];
	}
}

/*
 * The loaded bytes as the register sees them: byte-swapped for the .be
 * and bswap variants, narrow values extended, then swizzled.
 */
static void loaded(struct ldst_op *op, union sgpu_reg *raw)
{
	unsigned int bytes = op->info->bytes;
	bool is_signed = op->info->flags & MDG_LDST_SIGNED;

	if (swap_unit(op->w->op))
		bswap_units(raw->u8, bytes, swap_unit(op->w->op));
	if (bytes == 1 && is_signed)
		raw->u32[0] = (uint32_t)(int32_t)(int8_t)raw->u8[0];
	else if (bytes == 2 && is_signed)
		raw->u32[0] = (uint32_t)(int32_t)(int16_t)raw->u16[0];
	op->result = swizzle32(raw, op->w->swizzle);
	op->writes_reg = true;
}

static uint32_t load(struct sgpu_exec *ex, const struct sgpu_thread *th,
		     struct ldst_op *op)
{
	unsigned int bytes = op->info->bytes;
	union sgpu_reg raw;
	uint32_t code;

	code = address(ex, th, op, true);
	if (!code)
		code = check_access(ex, th, op, bytes, natural_align(bytes));
	if (code)
		return code;
	memset(&raw, 0, sizeof(raw));
	code = sgpu_mem_read(ex, op->ea, raw.u8, bytes);
	if (code)
		return code;
	loaded(op, &raw);
	return 0;
}

static uint32_t load_ubo(struct sgpu_exec *ex, const struct sgpu_thread *th,
			 struct ldst_op *op)
{
	const struct mdg_ldst *w = op->w;
	unsigned int bytes = op->info->bytes;
	/* The UBO index is an immediate spread over the base fields. */
	unsigned int index = w->arg_comp | w->arg_reg << 2 |
			     (unsigned int)w->bitsize_toggle << 5 |
			     (unsigned int)w->index_format << 6;
	union sgpu_reg iv = selector_value(ex, th, w->index_reg);
	uint64_t offset, size, ubo_va;
	union sgpu_reg raw;
	uint32_t code;

	offset = (uint64_t)iv.u32[w->index_comp] << w->index_shift;
	offset += (uint64_t)(int64_t)(w->offset >> 2);
	if (index >= ex->ubo_count)
		return fail(ex, th, MDG_EXCEPTION_DATA_INVALID_FAULT,
			    "uniform buffer index beyond the RSD's count");
	size = ex->ubo_bytes[index];
	ubo_va = ex->ubo_va[index];
	if (offset > size || size - offset < bytes)
		return fail(ex, th, MDG_EXCEPTION_DATA_INVALID_FAULT,
			    "uniform buffer read past its end");
	if (offset % natural_align(bytes))
		return fail(ex, th, MDG_EXCEPTION_INSTR_ALIGN_FAULT,
			    "misaligned uniform buffer read");
	memset(&raw, 0, sizeof(raw));
	code = sgpu_mem_read(ex, ubo_va + offset, raw.u8, bytes);
	if (code)
		return code;
	loaded(op, &raw);
	return 0;
}

/* Reads a store's data register: r26 or r27 by the reg field. */
static uint32_t store_operands(struct sgpu_exec *ex,
			       const struct sgpu_thread *th, struct ldst_op *op)
{
	if (op->w->reg > 1)
		return fail(ex, th, MDG_EXCEPTION_INSTR_INVALID_ENC,
			    "store data must come from r26 or r27");
	op->data = swizzle32(&th->r[26 + op->w->reg], op->w->swizzle);
	return address(ex, th, op, true);
}

static uint32_t store(struct sgpu_exec *ex, const struct sgpu_thread *th,
		      struct ldst_op *op)
{
	unsigned int bytes = op->info->bytes;
	/* Each mask bit enables a quarter of the width (a byte for 8/16). */
	unsigned int part = bytes >= 4 ? bytes / 4 : 1;
	uint8_t data[16];
	uint32_t code;

	code = check_access(ex, th, op, bytes, natural_align(bytes));
	if (code)
		return code;
	memcpy(data, op->data.u8, bytes);
	if (swap_unit(op->w->op))
		bswap_units(data, bytes, swap_unit(op->w->op));
	/* Write each run of enabled parts in one access. */
	for (unsigned int i = 0; i * part < bytes;) {
		unsigned int j = i;

		if (!(op->w->mask & (1u << i))) {
			i++;
			continue;
		}
		while (j * part < bytes && (op->w->mask & (1u << j)))
			j++;
		code = sgpu_mem_write(ex, op->ea + i * part, data + i * part,
				      (j - i) * part);
		if (code)
			return code;
		i = j;
	}
	return 0;
}

static uint64_t atomic_apply(uint8_t base_op, bool wide, uint64_t old,
			     uint64_t v)
{
	int64_t so = wide ? (int64_t)old : (int64_t)(int32_t)old;
	int64_t sv = wide ? (int64_t)v : (int64_t)(int32_t)v;

	switch (base_op) {
	case MDG_LDST_AADD_32: return old + v;
	case MDG_LDST_AAND_32: return old & v;
	case MDG_LDST_AOR_32: return old | v;
	case MDG_LDST_AXOR_32: return old ^ v;
	case MDG_LDST_AIMIN_32: return (uint64_t)(so < sv ? so : sv);
	case MDG_LDST_AUMIN_32: return old < v ? old : v;
	case MDG_LDST_AIMAX_32: return (uint64_t)(so > sv ? so : sv);
	case MDG_LDST_AUMAX_32: return old > v ? old : v;
	default:   return v; /* xchg; cmpxchg decided by the caller */
	}
}

static uint32_t atomic_operands(struct sgpu_exec *ex,
				const struct sgpu_thread *th, struct ldst_op *op)
{
	const struct mdg_ldst *w = op->w;
	bool wide = op->info->bytes == 8;
	union sgpu_reg v = selector_value(ex, th, (w->swizzle >> 2) & 7);
	unsigned int comp = w->swizzle & 3;
	bool cmpxchg = (w->op & ~3u) == MDG_LDST_ACMPXCHG_32;

	if (wide && (comp & 1))
		return fail(ex, th, MDG_EXCEPTION_INSTR_INVALID_ENC,
			    "64-bit atomic operand on an odd component");
	memset(&op->data, 0, sizeof(op->data));
	op->data.u64[0] = wide ? component64(&v, comp) : v.u32[comp];
	if (cmpxchg) {
		union sgpu_reg c = selector_value(ex, th, w->index_reg);

		/* A pair, as the operand: it was read from the even
		 * component below an odd one. */
		if (wide && (w->index_comp & 1))
			return fail(ex, th, MDG_EXCEPTION_INSTR_INVALID_ENC,
				    "64-bit comparison on an odd component");
		op->compare = wide ? component64(&c, w->index_comp) :
			      c.u32[w->index_comp];
	}
	return address(ex, th, op, !cmpxchg);
}

static uint32_t atomic(struct sgpu_exec *ex, const struct sgpu_thread *th,
		       struct ldst_op *op)
{
	unsigned int bytes = op->info->bytes;
	bool wide = bytes == 8;
	bool be = op->info->flags & MDG_LDST_BIG_ENDIAN;
	/* Atomics come in fours: .32, .64, .32.be, .64.be. */
	uint8_t base_op = op->w->op & ~3u;
	uint8_t buf[8];
	uint64_t old = 0, v = op->data.u64[0], nv;
	uint32_t code;

	code = check_access(ex, th, op, bytes, bytes);
	if (code)
		return code;
	/*
	 * No other GPU work runs meanwhile, and the host threads running
	 * this job's tasks take turns here, so this read-modify-write is
	 * atomic for the GPU.
	 */
	if (ex->atomics_lock)
		pthread_mutex_lock(ex->atomics_lock);
	code = sgpu_mem_read(ex, op->ea, buf, bytes);
	if (code)
		goto out;
	if (be)
		bswap_units(buf, bytes, bytes);
	memcpy(&old, buf, bytes);
	if (base_op == MDG_LDST_ACMPXCHG_32)
		nv = old == op->compare ? v : old;
	else
		nv = atomic_apply(base_op, wide, old, v);
	if (!wide)
		nv &= 0xFFFFFFFFull;
	memcpy(buf, &nv, bytes);
	if (be)
		bswap_units(buf, bytes, bytes);
	code = sgpu_mem_write(ex, op->ea, buf, bytes);
out:
	if (ex->atomics_lock)
		pthread_mutex_unlock(ex->atomics_lock);
	if (code)
		return code;
	memset(&op->result, 0, sizeof(op->result));
	op->result.u64[0] = old;
	if (!wide)
		op->result.u32[1] = 0;
	op->writes_reg = true;
	return 0;
}

static bool is_image_op(uint8_t op)
{
	return op == MDG_LDST_LEA_IMAGE ||
	       (op >= MDG_LDST_LD_IMAGE_F32 && op <= MDG_LDST_LD_IMAGE_S32) ||
	       (op >= MDG_LDST_ST_IMAGE_F32 && op <= MDG_LDST_ST_IMAGE_S32);
}

/*
 * An image op (docs/hardware.md §4.10): the image is attribute
 * signed_offset[17:9] plus the index register's value (zero selector:
 * none); the coordinates are 16-bit values in the base register, x and y
 * in its 32-bit component, x, y, z in its 64 bits with bitsize_toggle.
 */
static uint32_t image(struct sgpu_exec *ex, const struct sgpu_thread *th,
		      struct ldst_op *op)
{
	const struct mdg_ldst *w = op->w;
	union sgpu_reg base = selector_value(ex, th, w->arg_reg);
	uint32_t attr = ((uint32_t)w->offset & 0x3FFFF) >> 9, coord[3];
	unsigned int lane = 2 * w->arg_comp;
	uint32_t code;

	if (w->index_reg != MDG_LDST_SEL_ZERO)
		attr += selector_value(ex, th, w->index_reg).u32[w->index_comp];
	if (w->bitsize_toggle && (w->arg_comp & 1))
		return fail(ex, th, MDG_EXCEPTION_INSTR_INVALID_ENC,
			    "64-bit image coordinates on an odd component");
	coord[0] = base.u16[lane];
	coord[1] = base.u16[lane + 1];
	coord[2] = w->bitsize_toggle ? base.u16[lane + 2] : 0;
	code = sgpu_image_op(ex, w->op, attr, coord, &op->data, &op->result);
	if (code)
		return code;
	if (!(op->info->flags & MDG_LDST_STORE)) {
		op->result = swizzle32(&op->result, w->swizzle);
		op->writes_reg = true;
	}
	return 0;
}

/* Reads the operands of one word (phase 1). */
static uint32_t prepare(struct sgpu_exec *ex, const struct sgpu_thread *th,
			struct ldst_op *op)
{
	const struct mdg_ldst *w = op->w;
	uint32_t flags;

	op->info = mdg_ldst_op_info(w->op);
	op->writes_reg = false;
	if (w->op == MDG_LDST_NOP)
		return 0;
	if (!op->info)
		return fail(ex, th, MDG_EXCEPTION_INSTR_INVALID_ENC,
			    "unknown load/store op");
	flags = op->info->flags;
	if (is_image_op(w->op) && (flags & MDG_LDST_STORE)) {
		if (w->reg > 1)
			return fail(ex, th, MDG_EXCEPTION_INSTR_INVALID_ENC,
				    "store data must come from r26 or r27");
		op->data = swizzle32(&th->r[26 + w->reg], w->swizzle);
		return 0;
	}
	if (flags & MDG_LDST_STORE)
		return store_operands(ex, th, op);
	if (flags & MDG_LDST_ATOMIC)
		return atomic_operands(ex, th, op);
	return 0;
}

/* Performs one word (phase 2). */
static uint32_t perform(struct sgpu_exec *ex, const struct sgpu_thread *th,
			struct ldst_op *op)
{
	const struct mdg_ldst *w = op->w;
	uint32_t flags;
	union sgpu_reg v;

	if (w->op == MDG_LDST_NOP)
		return 0;
	flags = op->info->flags;
	if (is_image_op(w->op))
		return image(ex, th, op);
	if (flags & MDG_LDST_GRAPHICS)
		return fail(ex, th, MDG_EXCEPTION_INSTR_INVALID_ENC,
			    "graphics load/store op in a compute shader");
	if (flags & MDG_LDST_STORE)
		return store(ex, th, op);
	if (flags & MDG_LDST_ATOMIC)
		return atomic(ex, th, op);
	if (flags & MDG_LDST_UBO)
		return load_ubo(ex, th, op);
	if (flags & MDG_LDST_LOAD)
		return load(ex, th, op);
	switch (w->op) {
	case MDG_LDST_MOV: /* a read-selector into a register */
		v = selector_value(ex, th, w->arg_reg);
		op->result = swizzle32(&v, w->swizzle);
		op->writes_reg = true;
		return 0;
	case MDG_LDST_LEA: /* the effective address itself */
		if (address(ex, th, op, true))
			return MDG_EXCEPTION_INSTR_INVALID_ENC;
		memset(&v, 0, sizeof(v));
		v.u64[0] = op->ea;
		op->result = swizzle32(&v, w->swizzle);
		op->writes_reg = true;
		return 0;
	default:
		return fail(ex, th, MDG_EXCEPTION_INSTR_INVALID_ENC,
			    "load/store op not available to compute shaders");
	}
}

uint32_t sgpu_ldst_execute(struct sgpu_exec *ex, struct sgpu_thread *th,
			   const struct mdg_bundle *b)
{
	struct ldst_op ops[2];
	uint32_t code;

	for (int i = 0; i < 2; i++) {
		ops[i].w = &b->ldst[i];
		code = prepare(ex, th, &ops[i]);
		if (code)
			return code;
	}
	for (int i = 0; i < 2; i++) {
		code = perform(ex, th, &ops[i]);
		if (code)
			return code;
	}
	for (int i = 0; i < 2; i++) {
		if (ops[i].writes_reg)
			write_masked(&th->r[ops[i].w->reg], &ops[i].result,
				     ops[i].w->mask);
	}
	return 0;
}
