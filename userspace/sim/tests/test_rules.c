/* SPDX-License-Identifier: MIT */
/*
 * The rules sleipnir.ko and the simulator share (kernel/sleipnir_*.h),
 * compiled as userspace C and checked against answers worked out by hand
 * from uapi/drm/sleipnir_drm.h (errnos, limits, GET_PARAM's definitions)
 * and the Midgard register layout (JS_STATUS codes, AS_FAULTSTATUS,
 * LOCKADDR, the interrupt bits). The uapi suite checks the same rules end
 * to end on both sides; this pins the arithmetic and the edge cases.
 */
#include <errno.h>
#include <string.h>

#include <drm/sleipnir_drm.h>

#include "sim_test.h"
#include "sleipnir_faults.h"
#include "sleipnir_features.h"
#include "sleipnir_hwcfg.h"
#include "sleipnir_rules.h"

/* A T604 r0p2 (odd product id) with two core groups, 4 + 4 cores. */
static void test_features(void)
{
	struct sleipnir_features f = {
		.gpu_id = 0x69560020,
		.product = 0x0600,
		.revision = 0x0020,
		.mmu_features = 0x2830,      /* 48 VA bits, 40 PA bits */
		.l2_features = 0x07120206,   /* log2 L2 size 0x12: 256 KiB */
		.thread_features = 0x0a040400,
		.shader_present = 0xf0f,
		.l2_present = 0x11,
		.js_present = 0x7,
		.as_present = 0xff,
		.js_features = { 0x20e, 0x1fe, 0x7e },
		.texture_features = { 1, 2, 3, 4 },
	};
	struct sleipnir_param_state s = {
		.core_mask = sleipnir_core_mask(f.l2_present),
		.js_count = sleipnir_present_count(f.js_present,
						   SLP_JS_COUNT_MAX),
		.as_count = sleipnir_present_count(f.as_present,
						   SLP_AS_COUNT_MAX),
		.timestamp_hz = 19200000,
		.max_job_timeout_ms = 0,
	};
	__u64 v = 0xdead;

	CHECK_EQ(sleipnir_gpu_product(f.gpu_id), 0x0600);
	CHECK_EQ(sleipnir_gpu_product(0x08601000), 0x0860);
	/* The second L2 is bit 4: the first group is cores 0-3. */
	CHECK(s.core_mask == 0xf);
	CHECK(sleipnir_core_mask(0x1) == ~0ull);
	CHECK_EQ(s.js_count, 3);
	CHECK_EQ(s.as_count, 8);
	CHECK_EQ(sleipnir_present_count(0x1ffff, 16), 16);

	CHECK_EQ(sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_GPU_ID, &v), 0);
	CHECK(v == 0x69560020);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_SHADER_CORE_MASK, &v);
	CHECK(v == 0xf);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_SHADER_CORE_COUNT, &v);
	CHECK(v == 4);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_CORE_GROUP_COUNT, &v);
	CHECK(v == 2);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_L2_SIZE, &v);
	CHECK(v == 256 * 1024);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_THREAD_MAX_REGISTERS, &v);
	CHECK(v == 0x0400);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_VA_START, &v);
	CHECK(v == 16 << 20);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_VA_END, &v);
	CHECK(v == 1ull << 48);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_JS_FEATURES0 + 1, &v);
	CHECK(v == 0x1fe);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_JS_FEATURES15, &v);
	CHECK(v == 0);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_TEXTURE_FEATURES3, &v);
	CHECK(v == 4);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_GPU_REVISION, &v);
	CHECK(v == 0x0020);
	/* A module parameter of 0 reads as 1, as SUBMIT applies it. */
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS, &v);
	CHECK(v == 1);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_JOB_TIMEOUT_DEFAULT_MS,
			     &v);
	CHECK(v == 500);
	sleipnir_param_value(&f, &s, SLEIPNIR_PARAM_TIMESTAMP_FREQUENCY, &v);
	CHECK(v == 19200000);

	/* Unknown parameters: -EINVAL, the value untouched. */
	v = 0xdead;
	CHECK_EQ(sleipnir_param_value(&f, &s,
				      SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS + 1,
				      &v), -EINVAL);
	CHECK_EQ(sleipnir_param_value(&f, &s, 0xffffffffu, &v), -EINVAL);
	CHECK(v == 0xdead);
}

static void test_vm_map(void)
{
	const __u64 end = 1ull << 33;
	struct drm_sleipnir_vm_map m = {
		.size = 0x2000, .va = 16 << 20,
	};

	CHECK_EQ(sleipnir_check_vm_map(&m, end), 0);
	m.flags = 1u << 3;                          /* unknown flag */
	CHECK_EQ(sleipnir_check_vm_map(&m, end), -EINVAL);
	m.flags = 0;
	m.va = (16 << 20) - 0x1000;                 /* below VA_START */
	CHECK_EQ(sleipnir_check_vm_map(&m, end), -EINVAL);
	m.va = end - 0x2000;                        /* ends at VA_END */
	CHECK_EQ(sleipnir_check_vm_map(&m, end), 0);
	m.va = end - 0x1000;                        /* past it */
	CHECK_EQ(sleipnir_check_vm_map(&m, end), -EINVAL);
	m.va = 16 << 20;
	m.bo_offset = 0x800;                        /* not page-aligned */
	CHECK_EQ(sleipnir_check_vm_map(&m, end), -EINVAL);
	m.bo_offset = 0;
	m.size = 0;
	CHECK_EQ(sleipnir_check_vm_map(&m, end), -EINVAL);
	m.size = 0x1000;
	m.flags = SLEIPNIR_VM_MAP_AUTO_VA;          /* va must be 0 */
	CHECK_EQ(sleipnir_check_vm_map(&m, end), -EINVAL);
	m.va = 0;
	CHECK_EQ(sleipnir_check_vm_map(&m, end), 0);

	CHECK(sleipnir_vm_map_align(0x1ff000) == 0x1000);
	CHECK(sleipnir_vm_map_align(0x200000) == 0x200000);
	CHECK(sleipnir_vm_map_writable(0, SLEIPNIR_VM_MAP_NOEXEC));
	CHECK(!sleipnir_vm_map_writable(SLEIPNIR_BO_GPU_READ_ONLY, 0));
	CHECK(!sleipnir_vm_map_writable(0, SLEIPNIR_VM_MAP_READ_ONLY));
	CHECK(!sleipnir_vm_map_executable(SLEIPNIR_BO_GPU_NOEXEC, 0));
	CHECK(sleipnir_vm_map_executable(SLEIPNIR_BO_GPU_READ_ONLY, 0));
	CHECK(sleipnir_range_inside(0x1000, 0x1000, 0x2000));
	CHECK(!sleipnir_range_inside(0x1001, 0x1000, 0x2000));
	CHECK(!sleipnir_range_inside(~0ull, 2, 0x2000));  /* no wrap */
}

static void test_bos(void)
{
	struct drm_sleipnir_bo_create c = { .size = 4096 };
	struct drm_sleipnir_bo_userptr u = {
		.user_ptr = 0x10000, .size = 0x2000,
	};
	struct drm_sleipnir_bo_wait w = { .timeout_ns = 0 };
	struct drm_sleipnir_bo_sync s = { .op = SLEIPNIR_BO_SYNC_CPU_END,
					  .size = 1 };

	CHECK_EQ(sleipnir_check_bo_create(&c, 1 << 30, 1ull << 32), 0);
	c.flags = SLEIPNIR_BO_USERPTR;              /* out-only */
	CHECK_EQ(sleipnir_check_bo_create(&c, 1 << 30, 1ull << 32), -EINVAL);
	c.flags = 0;
	c.size = (1 << 30) + 1;                     /* more than RAM */
	CHECK_EQ(sleipnir_check_bo_create(&c, 1 << 30, 1ull << 32), -EINVAL);
	c.size = 4096;
	c.handle = 1;
	CHECK_EQ(sleipnir_check_bo_create(&c, 1 << 30, 1ull << 32), -EINVAL);

	CHECK_EQ(sleipnir_check_bo_userptr(&u, 4096, 1ull << 32), 0);
	u.flags = SLEIPNIR_BO_CPU_CACHED;           /* not for userptr */
	CHECK_EQ(sleipnir_check_bo_userptr(&u, 4096, 1ull << 32), -EINVAL);
	u.flags = SLEIPNIR_BO_GPU_READ_ONLY | SLEIPNIR_BO_GPU_NOEXEC;
	CHECK_EQ(sleipnir_check_bo_userptr(&u, 4096, 1ull << 32), 0);
	u.user_ptr = ~0ull & ~0xfffull;             /* wraps */
	CHECK_EQ(sleipnir_check_bo_userptr(&u, 4096, 1ull << 32), -EINVAL);

	CHECK_EQ(sleipnir_check_bo_wait(&w), 0);
	w.timeout_ns = -1;
	CHECK_EQ(sleipnir_check_bo_wait(&w), -EINVAL);
	CHECK_EQ(sleipnir_check_bo_sync(&s), 0);
	s.op = 3;
	CHECK_EQ(sleipnir_check_bo_sync(&s), -EINVAL);
}

static void test_submit(void)
{
	const __u32 js_features[] = { 0x20e, 0x1fe, 0x7e };
	struct drm_sleipnir_submit sub = { .jc = 0x1000040 };
	struct drm_sleipnir_obj_array arr = { .stride = 16, .count = 4096 };
	struct drm_sleipnir_sync_op ops[2] = {
		{ .handle = 1 },
		{ .handle = 2, .flags = SLEIPNIR_SYNC_OP_TIMELINE, .point = 3 },
	};
	struct drm_sleipnir_bo_ref refs[1] = { { .flags = 2 } };

	CHECK_EQ(sleipnir_check_submit(&sub), 0);
	sub.jc = 0x1000020;                         /* not 64-byte aligned */
	CHECK_EQ(sleipnir_check_submit(&sub), -EINVAL);
	sub.jc = 0x1000040;
	sub.pad = 1;
	CHECK_EQ(sleipnir_check_submit(&sub), -EINVAL);

	CHECK_EQ(sleipnir_check_obj_array(&arr), 0);
	arr.count = 4097;
	CHECK_EQ(sleipnir_check_obj_array(&arr), -EINVAL);
	arr.count = 1;
	arr.stride = 0;
	CHECK_EQ(sleipnir_check_obj_array(&arr), -EINVAL);
	arr.count = 0;
	CHECK_EQ(sleipnir_check_obj_array(&arr), 0);

	CHECK_EQ(sleipnir_check_sync_ops(ops, 2), 0);
	ops[0].point = 1;                           /* binary with a point */
	CHECK_EQ(sleipnir_check_sync_ops(ops, 2), -EINVAL);
	ops[0].point = 0;
	ops[1].point = 0;                           /* timeline without */
	CHECK_EQ(sleipnir_check_sync_ops(ops, 2), -EINVAL);
	CHECK_EQ(sleipnir_check_bo_refs(refs, 1), -EINVAL);
	refs[0].flags = SLEIPNIR_BO_REF_WRITE;
	CHECK_EQ(sleipnir_check_bo_refs(refs, 1), 0);

	/* 0 is COMPUTE: slot 0 has no COMPUTE bit (4), slot 1 has. */
	CHECK_EQ(sleipnir_pick_slot(js_features, 3, 0), 1);
	CHECK_EQ(sleipnir_pick_slot(js_features, 3, SLEIPNIR_REQ_FRAGMENT), 0);
	CHECK_EQ(sleipnir_pick_slot(js_features, 3, SLEIPNIR_REQ_NULL |
				    SLEIPNIR_REQ_WRITE_VALUE), 0);
	CHECK_EQ(sleipnir_pick_slot(js_features, 3, 1u << 0), -EINVAL);
	CHECK_EQ(sleipnir_pick_slot(js_features, 3, 1u << 10), -EINVAL);
	CHECK_EQ(sleipnir_pick_slot(js_features, 1, SLEIPNIR_REQ_COMPUTE),
		 -EINVAL);

	CHECK_EQ(sleipnir_job_timeout_ms(0, 60000), 500);
	CHECK_EQ(sleipnir_job_timeout_ms(2000, 60000), 2000);
	CHECK_EQ(sleipnir_job_timeout_ms(100000, 60000), 60000);
	CHECK_EQ(sleipnir_job_timeout_ms(0, 0), 1);
}

static void test_job_end(void)
{
	/* DONE, STOPPED, TERMINATED, MMU 0xc0-0xef, anything else. */
	CHECK_EQ(sleipnir_job_fence_error(0x01, false), 0);
	CHECK_EQ(sleipnir_job_fence_error(0x03, true), -ETIMEDOUT);
	CHECK_EQ(sleipnir_job_fence_error(0x03, false), -ECANCELED);
	CHECK_EQ(sleipnir_job_fence_error(0x04, false), -ECANCELED);
	CHECK_EQ(sleipnir_job_fence_error(0xc0, false), -EFAULT);
	CHECK_EQ(sleipnir_job_fence_error(0xcb, true), -EFAULT);
	CHECK_EQ(sleipnir_job_fence_error(0xef, false), -EFAULT);
	CHECK_EQ(sleipnir_job_fence_error(0xf0, false), -EIO);
	CHECK_EQ(sleipnir_job_fence_error(0x40, false), -EIO);
	CHECK_EQ(sleipnir_job_fault_kind(0x01), SLEIPNIR_FAULT_NONE);
	CHECK_EQ(sleipnir_job_fault_kind(0x04), SLEIPNIR_FAULT_NONE);
	CHECK_EQ(sleipnir_job_fault_kind(0xc3), SLEIPNIR_FAULT_MMU);
	CHECK_EQ(sleipnir_job_fault_kind(0x58), SLEIPNIR_FAULT_JOB);
	CHECK_EQ(sleipnir_exception_code(0xabcd12c2), 0xc2);
	/* AS_FAULTSTATUS: a write (3) translation fault at level 3. */
	CHECK_EQ(sleipnir_as_fault_code(0x000003c3), 0xc3);
	CHECK_EQ(sleipnir_as_fault_access(0x000003c3), SLEIPNIR_ACCESS_WRITE);
	CHECK(!strcmp(sleipnir_fault_access_name(SLEIPNIR_ACCESS_EXECUTE),
		      "execute"));
	CHECK(!strcmp(sleipnir_fault_kind_name(SLEIPNIR_FAULT_TIMEOUT),
		      "timeout"));
}

/* The two halves of an MMU fault, in either order, make one record. */
static void test_fault_record(void)
{
	struct sleipnir_fault_info job = {
		.kind = SLEIPNIR_FAULT_MMU, .exception_code = 0xc3,
		.jc = 0x1000000, .has_jc = true,
	};
	struct sleipnir_fault_info mmu = {
		.kind = SLEIPNIR_FAULT_MMU, .exception_code = 0xc7,
		.address = 0x5000000, .access = SLEIPNIR_ACCESS_READ,
		.has_address = true,
	};
	struct sleipnir_fault_info other = {
		.kind = SLEIPNIR_FAULT_JOB, .exception_code = 0x58,
		.jc = 0x2000000, .has_jc = true,
	};
	struct sleipnir_fault_info first = job;
	struct drm_sleipnir_get_fault out;

	CHECK(!sleipnir_fault_address_known(1, &first));
	CHECK(sleipnir_fault_completes(&first, &mmu));
	CHECK(!sleipnir_fault_completes(&first, &other));
	CHECK(!sleipnir_fault_completes(&first, &job));
	sleipnir_fault_merge(&first, &mmu);
	CHECK(sleipnir_fault_address_known(1, &first));
	memset(&out, 0xff, sizeof(out));
	sleipnir_get_fault_report(&out, 1, &first);
	CHECK_EQ(out.count, 1);
	CHECK_EQ(out.kind, SLEIPNIR_FAULT_MMU);
	CHECK_EQ(out.exception_code, 0xc7);      /* the MMU's own code */
	CHECK(out.address == 0x5000000);
	CHECK_EQ(out.access, SLEIPNIR_ACCESS_READ);
	CHECK(out.jc == 0x1000000);

	first = mmu;                              /* the other order */
	sleipnir_fault_merge(&first, &job);
	CHECK(first.jc == 0x1000000 && first.address == 0x5000000);

	/* No fault: everything zero, whatever the record holds. */
	memset(&out, 0xff, sizeof(out));
	sleipnir_get_fault_report(&out, 0, &first);
	CHECK(!out.count && out.kind == SLEIPNIR_FAULT_NONE &&
	      !out.exception_code && !out.address && !out.access && !out.jc);
	CHECK_EQ(sleipnir_check_get_fault(&out), -EINVAL);  /* pad set */
}

static void test_hwcfg(void)
{
	/* T760: typed attributes, tiler clock gate override. */
	__u32 q = SLEIPNIR_QUIRK_LS_ALLOW_ATTR_TYPES |
		  SLEIPNIR_QUIRK_TILER_CLOCK_GATE_OVERRIDE;

	CHECK_EQ(sleipnir_quirk_shader_config(q), 1u << 16);
	CHECK_EQ(sleipnir_quirk_tiler_config(0x100, q), 0x101);
	CHECK_EQ(sleipnir_quirk_shader_config(0), 0);
	CHECK_EQ(SLP_JM_CONFIG_MAX_THROTTLE, 0x1f8);
	/* AS 2, clean+invalidate before, clean after, priority 8. */
	CHECK_EQ(sleipnir_js_config(2), 0x00083302);
	CHECK_EQ(sleipnir_js_config_quirks(2, 0), 0x00083302);
	/* The same with START_MMU (bit 10), as T60x/T62x/T72x need. */
	CHECK_EQ(sleipnir_js_config_quirks(2, SLEIPNIR_QUIRK_JS_START_MMU),
		 0x00083702);
	CHECK_EQ(sleipnir_js_config_quirks(2, SLEIPNIR_QUIRK_JM_MAX_THROTTLE),
		 0x00083302);
	CHECK_EQ(sleipnir_unit_irq_mask(3), 0x00070007);
	CHECK(sleipnir_unit_irq_mask(16) == 0xffffffffu);
	CHECK_EQ(sleipnir_irq_units(0x00040001, 3), 0x5);
	CHECK_EQ(sleipnir_irq_units(0x00080008, 3), 0);  /* slot 3 unused */
	/* One page: the 32 KiB minimum, log2 - 1 = 14. */
	CHECK(sleipnir_as_lockaddr(0x1000000, 0x1000) == 0x100000e);
	/* 2 MiB at 16 MiB: aligned already, 2^21. */
	CHECK(sleipnir_as_lockaddr(0x1000000, 0x200000) == 0x1000014);
	/* Crossing a 2 MiB boundary: the 4 MiB region around both. */
	CHECK(sleipnir_as_lockaddr(0x11ff000, 0x2000) == 0x1000015);
	/* A whole 48-bit VA space. */
	CHECK(sleipnir_as_lockaddr(0, 1ull << 48) == 47);
}

/*
 * The quirks table against panfrost 6.1's per-model issue lists, worked by
 * hand: which errata each board's GPU has and the register each sets.
 * T860 r2p0 (RK3399), T760 r0p0 (RK3288) and r1p0 (RK3288W), T628 r1p0
 * (Exynos 5422), and the revisions with errata of their own.
 */
static void test_quirks(void)
{
	const __u32 attr_types = SLEIPNIR_QUIRK_LS_ALLOW_ATTR_TYPES |
				 SLEIPNIR_QUIRK_TILER_CLOCK_GATE_OVERRIDE;
	const __u32 v4 = SLEIPNIR_QUIRK_LS_ATTR_CHECK_DISABLE |
			 SLEIPNIR_QUIRK_JS_START_MMU;
	const __u32 t620_r0p1 = SLEIPNIR_QUIRK_LS_PAUSEBUFFER_DISABLE |
				SLEIPNIR_QUIRK_SDC_DISABLE_OQ_DISCARD;

	CHECK_EQ(sleipnir_common_model_quirks(0x0860, 0x2000),
		 attr_types | SLEIPNIR_QUIRK_JM_MAX_THROTTLE);
	CHECK_EQ(sleipnir_common_model_quirks(0x0860, 0x1000), attr_types);
	CHECK_EQ(sleipnir_common_model_quirks(0x0750, 0x0000), attr_types);
	CHECK_EQ(sleipnir_common_model_quirks(0x0750, 0x0011), attr_types);
	CHECK_EQ(sleipnir_common_model_quirks(0x0750, 0x1000), attr_types);
	CHECK_EQ(sleipnir_common_model_quirks(0x0620, 0x1000), v4);
	CHECK_EQ(sleipnir_common_model_quirks(0x0620, 0x0000), v4);
	/* r0p1 whatever its status nibble (panfrost matches rev & ~0xf). */
	CHECK_EQ(sleipnir_common_model_quirks(0x0620, 0x0010), v4 | t620_r0p1);
	CHECK_EQ(sleipnir_common_model_quirks(0x0620, 0x0012), v4 | t620_r0p1);
	CHECK_EQ(sleipnir_common_model_quirks(0x0620, 0x0020), v4);
	CHECK_EQ(sleipnir_common_model_quirks(0x0720, 0x0000),
		 v4 | SLEIPNIR_QUIRK_TEXGRD_FLAGS);
	/* T604 r0p0-15dev0 (status 1) keeps its attribute checks. */
	CHECK_EQ(sleipnir_common_model_quirks(0x0600, 0x0001),
		 SLEIPNIR_QUIRK_LS_PAUSEBUFFER_DISABLE |
		 SLEIPNIR_QUIRK_JS_START_MMU);
	CHECK_EQ(sleipnir_common_model_quirks(0x0600, 0x0000),
		 SLEIPNIR_QUIRK_LS_PAUSEBUFFER_DISABLE | v4);
	CHECK_EQ(sleipnir_common_model_quirks(0x0999, 0x0000), 0);
	/* The registers: T628 r1p0 sets SHADER_CONFIG bit 18 only. */
	CHECK_EQ(sleipnir_quirk_shader_config(v4), 1u << 18);
	CHECK_EQ(sleipnir_quirk_tiler_config(0, v4), 0);
	CHECK_EQ(sleipnir_quirk_shader_config(v4 | t620_r0p1),
		 1u << 18 | 1u << 16 | 1u << 6);
}

int main(void)
{
	RUN(test_features);
	RUN(test_vm_map);
	RUN(test_bos);
	RUN(test_submit);
	RUN(test_job_end);
	RUN(test_fault_record);
	RUN(test_hwcfg);
	RUN(test_quirks);
	return sim_test_finish();
}
