/* SPDX-License-Identifier: MIT */
/*
 * OpenCL C's work-group copies (OpenCL 1.2 section 6.12.10): SPIR-V's
 * OpGroupAsyncCopy and OpGroupWaitEvents.
 *
 * Midgard has no DMA engine a kernel could start, so a copy is done at
 * once by the work-group's own work-items: work-item l of a group of L
 * copies elements l, l + L, l + 2L, ... (every work-item meets the call
 * with the same arguments, as the specification requires). The event is
 * then complete; the returned event is the one passed in (0 when none),
 * and waiting on events is a work-group barrier with local and global
 * fences, after which every element that other work-items copied is
 * visible to all.
 *
 * clang-15 declares wait_group_events() with a generic event pointer even
 * in OpenCL C 1.2, so its SPIR-V has OpPtrCastToGeneric (and the
 * GenericPointer capability): the reader lets the generic pointer stand
 * for its private source, which wait_group_events never dereferences.
 */
#include "spirv_internal.h"

#define FAIL(...) (spv_error(fc->c, __VA_ARGS__), (sir_id)0)

static const struct sir_type async_i32 = { SIR_INT, 32, 1, 0 };
static const struct sir_type async_bool = { SIR_BOOL, 1, 1, 0 };

static sir_id async_sysval(struct spv_fn *fc, enum sir_sysval sv,
			   unsigned int comp)
{
	sir_id v = sir_value_new(fc->f, SIR_OP_SYSVAL,
				 sir_type_make(SIR_INT, 32, 3), NULL, 0);

	fc->f->values[v].aux = sv;
	v = spv_emit(fc, SIR_OP_EXTRACT, async_i32, &v, 1);
	fc->f->values[v].aux = comp;
	return v;
}

static sir_id async_mul(struct spv_fn *fc, sir_id a, sir_id b)
{
	return spv_emit(fc, SIR_OP_IMUL, async_i32, (sir_id[]){ a, b }, 2);
}

static sir_id async_add(struct spv_fn *fc, sir_id a, sir_id b)
{
	return spv_emit(fc, SIR_OP_IADD, async_i32, (sir_id[]){ a, b }, 2);
}

/* Whether scope id is the constant Workgroup (the only one OpenCL has). */
static bool async_workgroup_scope(struct spv_fn *fc, uint32_t id)
{
	uint64_t lanes[16];
	unsigned int comps;

	return spv_const_lanes(fc->m, id, lanes, &comps) &&
	       lanes[0] == SpvScopeWorkgroup;
}

/* A 32-bit count or stride operand (size_t is 32-bit: Physical32). */
static sir_id async_count(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
			  uint32_t i)
{
	sir_id v = spv_operand(fc, w, wc, i);
	struct sir_type t;

	if (!v)
		return 0;
	t = fc->f->values[v].type;
	if (t.kind != SIR_INT || t.comps != 1)
		return FAIL("OpGroupAsyncCopy: operand %u is not an integer", i);
	if (t.bits == 32)
		return v;
	return spv_emit(fc, t.bits > 32 ? SIR_OP_TRUNC : SIR_OP_ZEXT,
			async_i32, &v, 1);
}

/* The pointee of pointer id in storage class Workgroup/CrossWorkgroup. */
static const struct spv_type *async_pointee(struct spv_fn *fc, uint32_t id,
					    uint32_t *storage,
					    uint32_t *elem_id)
{
	const struct spv_module *m = fc->m;
	const struct spv_type *pt;

	if (!id || id >= m->bound)
		return NULL;
	pt = spv_type_of_id(m, m->ids[id].type);
	if (!pt || pt->kind != SPV_T_PTR)
		return NULL;
	*storage = pt->storage;
	*elem_id = pt->elem;
	return spv_type_of_id(m, pt->elem);
}

/*
 * OpGroupAsyncCopy: Result Type, Result, Execution, Destination, Source,
 * Num Elements, Stride, Event. The stride (in elements) applies to the
 * side that is not in local memory.
 */
sir_id spv_group_async_copy(struct spv_fn *fc, const uint32_t *w,
			    uint32_t wc)
{
	/* Set by async_pointee() on success; zeroed for GCC -O3's flow
	 * analysis, which cannot see that. */
	uint32_t dst_storage = 0, src_storage = 0, dst_elem = 0, src_elem = 0;
	uint32_t size, align;
	const struct spv_type *dt, *st;
	struct sir_type et;
	char msg[128];
	sir_id dst, src, n, stride, event, lid, total, i, i_next, phi, cond;
	sir_id src_idx, dst_idx, val, ld, stv, br;
	uint32_t head, body, exit, entry;
	bool to_local;

	if (wc < 9)
		return FAIL("OpGroupAsyncCopy: too few words");
	if (!async_workgroup_scope(fc, w[3]))
		return FAIL("OpGroupAsyncCopy: the scope is not Workgroup");
	dt = async_pointee(fc, w[4], &dst_storage, &dst_elem);
	st = async_pointee(fc, w[5], &src_storage, &src_elem);
	if (!dt || !st || dst_elem != src_elem)
		return FAIL("OpGroupAsyncCopy: the pointers do not point to "
			    "one element type");
	to_local = dst_storage == SpvStorageClassWorkgroup;
	if (to_local ? src_storage != SpvStorageClassCrossWorkgroup
		     : dst_storage != SpvStorageClassCrossWorkgroup ||
		       src_storage != SpvStorageClassWorkgroup)
		return FAIL("OpGroupAsyncCopy: a copy must be from global to "
			    "local or from local to global memory");
	if (!spv_sir_type(fc->m, dst_elem, &et, msg, sizeof(msg)))
		return FAIL("%s", msg);
	if (et.kind == SIR_PTR || et.kind == SIR_VOID || !dt->size)
		return FAIL("OpGroupAsyncCopy of an unsupported element type");
	size = dt->size;
	align = dt->align ? dt->align : size;
	if (!(dst = spv_operand(fc, w, wc, 4)) ||
	    !(src = spv_operand(fc, w, wc, 5)) ||
	    !(n = async_count(fc, w, wc, 6)) ||
	    !(stride = async_count(fc, w, wc, 7)) ||
	    !(event = spv_operand(fc, w, wc, 8)))
		return 0;
	if (fc->f->values[dst].type.kind != SIR_PTR ||
	    fc->f->values[src].type.kind != SIR_PTR ||
	    !sir_type_eq(fc->f->values[event].type, async_i32))
		return FAIL("OpGroupAsyncCopy: bad operand types");

	/* The work-item's place in its group, and the group's size. */
	lid = async_add(fc, async_sysval(fc, SIR_SYSVAL_LOCAL_ID, 0),
			async_mul(fc, async_sysval(fc, SIR_SYSVAL_LOCAL_SIZE, 0),
				  async_add(fc,
					    async_sysval(fc,
							 SIR_SYSVAL_LOCAL_ID, 1),
					    async_mul(fc,
						      async_sysval(fc,
							SIR_SYSVAL_LOCAL_SIZE,
							1),
						      async_sysval(fc,
							SIR_SYSVAL_LOCAL_ID,
							2)))));
	total = async_mul(fc, async_sysval(fc, SIR_SYSVAL_LOCAL_SIZE, 0),
			  async_mul(fc,
				    async_sysval(fc, SIR_SYSVAL_LOCAL_SIZE, 1),
				    async_sysval(fc, SIR_SYSVAL_LOCAL_SIZE, 2)));

	/* for (i = lid; i < n; i += total) dst[i'] = src[i'']; */
	entry = fc->cur;
	head = sir_block_add(fc->f);
	body = sir_block_add(fc->f);
	exit = sir_block_add(fc->f);
	br = spv_emit(fc, SIR_OP_BR, (struct sir_type){ 0 }, NULL, 0);
	fc->f->values[br].targets[0] = head;

	fc->cur = head;
	phi = spv_emit(fc, SIR_OP_PHI, async_i32, NULL, 2);
	cond = spv_emit(fc, SIR_OP_ULT, async_bool, (sir_id[]){ phi, n }, 2);
	cond = spv_emit(fc, SIR_OP_CBR, (struct sir_type){ 0 }, &cond, 1);
	fc->f->values[cond].targets[0] = body;
	fc->f->values[cond].targets[1] = exit;

	fc->cur = body;
	i = phi;
	src_idx = to_local ? async_mul(fc, i, stride) : i;
	dst_idx = to_local ? i : async_mul(fc, i, stride);
	src_idx = async_mul(fc, src_idx, sir_const_u64(fc->f, async_i32, size));
	dst_idx = async_mul(fc, dst_idx, sir_const_u64(fc->f, async_i32, size));
	ld = spv_emit(fc, SIR_OP_PTR_ADD, fc->f->values[src].type,
		      (sir_id[]){ src, src_idx }, 2);
	val = spv_emit(fc, SIR_OP_LOAD, et, &ld, 1);
	fc->f->values[val].aux = align;
	stv = spv_emit(fc, SIR_OP_PTR_ADD, fc->f->values[dst].type,
		       (sir_id[]){ dst, dst_idx }, 2);
	stv = spv_emit(fc, SIR_OP_STORE, (struct sir_type){ 0 },
		       (sir_id[]){ stv, val }, 2);
	fc->f->values[stv].aux = align;
	i_next = async_add(fc, i, total);
	br = spv_emit(fc, SIR_OP_BR, (struct sir_type){ 0 }, NULL, 0);
	fc->f->values[br].targets[0] = head;

	fc->f->values[phi].srcs[0] = lid;
	fc->f->values[phi].phi_blocks[0] = entry;
	fc->f->values[phi].srcs[1] = i_next;
	fc->f->values[phi].phi_blocks[1] = body;

	/* The rest of the SPIR-V block goes on after the loop. */
	fc->cur = exit;
	return event;
}

/* OpGroupWaitEvents: Execution, Num Events, Events List. */
bool spv_group_wait_events(struct spv_fn *fc, const uint32_t *w,
			   uint32_t wc)
{
	sir_id v;

	if (wc < 4)
		return spv_error(fc->c, "OpGroupWaitEvents: too few words");
	if (!async_workgroup_scope(fc, w[1]))
		return spv_error(fc->c, "OpGroupWaitEvents: the scope is not "
				 "Workgroup");
	v = spv_emit(fc, SIR_OP_BARRIER, (struct sir_type){ 0 }, NULL, 0);
	fc->f->values[v].aux = SIR_FENCE_LOCAL | SIR_FENCE_GLOBAL;
	fc->f->values[v].aux2 = 1;
	return true;
}
