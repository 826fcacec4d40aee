/* SPDX-License-Identifier: MIT */
/*
 * clGetDeviceInfo: every OpenCL 1.2 query (table 4.3). Values that depend
 * on the GPU or the machine come from the device's limits
 * (icd_device_limits.c); the rest are what this implementation and the
 * compiler do, each with the reason next to it.
 */
#include "cl_sleipnir.h"
#include "icd_image.h"
#include "icd_info.h"
#include "icd_mem.h"
#include "icd_platform.h"
#include "icd_printf.h"

/* Midgard's registers and load/store paths are 128 bits wide: a vector of
 * that width is both the native and the preferred one. */
#define VEC128(type_bytes) ((cl_uint)(16 / (type_bytes)))

/* The driver's version, "major.minor" (from the meson project). */
#ifndef ICD_DRIVER_VERSION
#define ICD_DRIVER_VERSION "0.1"
#endif

/* ARM's PCI-SIG vendor id: the GPU is ARM's Mali. */
#define ARM_VENDOR_ID 0x13B5

/* The model's and RK3399's nominal GPU clock (qemu/README.md); the driver
 * does not report one. */
#define CLOCK_MHZ 800

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device,
				   cl_device_info param_name,
				   size_t param_value_size, void *param_value,
				   size_t *param_value_size_ret)
{
	const struct icd_device_limits *l;
	union {
		cl_uint u;
		cl_ulong ul;
		cl_bool b;
		size_t sz;
		cl_device_type type;
		cl_bitfield bits;
		cl_platform_id platform;
		cl_device_id device;
		cl_device_partition_property partition[1];
		size_t sizes[3];
	} v;
	const void *value = &v;
	size_t size;
	const char *s = NULL;

	if (!icd_device_valid(device))
		return CL_INVALID_DEVICE;
	l = &device->limits;

#define UINT(x) (v.u = (x), size = sizeof(cl_uint))
#define ULONG(x) (v.ul = (x), size = sizeof(cl_ulong))
#define BOOL(x) (v.b = (x), size = sizeof(cl_bool))
#define SIZE(x) (v.sz = (x), size = sizeof(size_t))
#define BITS(x) (v.bits = (x), size = sizeof(cl_bitfield))

	switch (param_name) {
	case CL_DEVICE_TYPE:
		v.type = CL_DEVICE_TYPE_GPU;
		size = sizeof(cl_device_type);
		break;
	case CL_DEVICE_VENDOR_ID: UINT(ARM_VENDOR_ID); break;
	case CL_DEVICE_MAX_COMPUTE_UNITS: UINT(l->compute_units); break;
	case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: UINT(3); break;
	case CL_DEVICE_MAX_WORK_GROUP_SIZE: SIZE(l->max_work_group_size); break;
	case CL_DEVICE_MAX_WORK_ITEM_SIZES:
		value = l->max_work_item_sizes;
		size = sizeof(l->max_work_item_sizes);
		break;
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: UINT(VEC128(1)); break;
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: UINT(VEC128(2)); break;
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: UINT(VEC128(4)); break;
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG: UINT(VEC128(8)); break;
	/* OpenCL 1.2 requires 0 without cl_khr_fp64; doubles are two 64-bit
	 * lanes of a register. */
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
		UINT(SLC_DEVICE_FP64 ? VEC128(8) : 0);
		break;
	/* cl_khr_fp16: a half8 is one register of eight 16-bit lanes, its
	 * arithmetic one reg-mode-16 op (compiler/backend/README.md). */
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: UINT(VEC128(2)); break;
	case CL_DEVICE_MAX_CLOCK_FREQUENCY: UINT(CLOCK_MHZ); break;
	/* The compiler's pointers are 32 bits (compiler/README.md). */
	case CL_DEVICE_ADDRESS_BITS: UINT(32); break;
	case CL_DEVICE_MAX_MEM_ALLOC_SIZE: ULONG(l->max_mem_alloc_size); break;
	/* Images (icd_image.h): linear textures of the texture unit, sizes
	 * as the descriptors' 16-bit fields allow. */
	case CL_DEVICE_IMAGE_SUPPORT:
		BOOL(SLC_DEVICE_IMAGE_SUPPORT ? CL_TRUE : CL_FALSE);
		break;
	case CL_DEVICE_MAX_READ_IMAGE_ARGS:
		UINT(SLC_DEVICE_IMAGE_SUPPORT ? ICD_MAX_READ_IMAGE_ARGS : 0);
		break;
	case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
		UINT(SLC_DEVICE_IMAGE_SUPPORT ? ICD_MAX_WRITE_IMAGE_ARGS : 0);
		break;
	case CL_DEVICE_MAX_SAMPLERS:
		UINT(SLC_DEVICE_IMAGE_SUPPORT ? ICD_MAX_SAMPLERS : 0);
		break;
	case CL_DEVICE_IMAGE2D_MAX_WIDTH:
	case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
		SIZE(SLC_DEVICE_IMAGE_SUPPORT ? ICD_IMAGE2D_MAX : 0);
		break;
	case CL_DEVICE_IMAGE3D_MAX_WIDTH:
	case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
	case CL_DEVICE_IMAGE3D_MAX_DEPTH:
		SIZE(SLC_DEVICE_IMAGE_SUPPORT ? ICD_IMAGE3D_MAX : 0);
		break;
	case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
		SIZE(SLC_DEVICE_IMAGE_SUPPORT ? ICD_IMAGE_MAX_BUFFER_SIZE : 0);
		break;
	case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
		SIZE(SLC_DEVICE_IMAGE_SUPPORT ? ICD_IMAGE_MAX_ARRAY_SIZE : 0);
		break;
	/* The spec's minimum; the argument image has room for more. */
	case CL_DEVICE_MAX_PARAMETER_SIZE: SIZE(ICD_MAX_PARAMETER_SIZE); break;
	/* In bits: the largest type, long16 (128 bytes). */
	case CL_DEVICE_MEM_BASE_ADDR_ALIGN: UINT(128 * 8); break;
	case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: UINT(128); break;
	/* FULL_PROFILE's minimum; denormals and FMA are not promised. */
	case CL_DEVICE_SINGLE_FP_CONFIG:
		BITS(CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN);
		break;
	/*
	 * With cl_khr_fp64, OpenCL 1.2 §4.2's minimum, all of it true: fma
	 * and division/sqrt correctly rounded, denormals kept, IEEE's
	 * infinities and NaNs, and the three rounding modes of conversions.
	 */
	case CL_DEVICE_DOUBLE_FP_CONFIG:
		BITS(SLC_DEVICE_FP64 ? CL_FP_FMA | CL_FP_ROUND_TO_NEAREST |
				       CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
				       CL_FP_INF_NAN | CL_FP_DENORM : 0);
		break;
	/* cl_khr_fp16 (§9.5): its minimum, and denormals, which the 16-bit
	 * ALU ops keep (docs/hardware.md §5.3) as fp32 does for the rest. */
	case CL_DEVICE_HALF_FP_CONFIG:
		BITS(CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM);
		break;
	case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
		v.u = CL_READ_WRITE_CACHE;
		size = sizeof(cl_device_mem_cache_type);
		break;
	case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
		UINT(l->global_mem_cacheline_size);
		break;
	case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
		ULONG(l->global_mem_cache_size);
		break;
	case CL_DEVICE_GLOBAL_MEM_SIZE: ULONG(l->global_mem_size); break;
	/* Constant memory is global memory read through the same 32-bit
	 * pointers; the spec's minimums. */
	case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: ULONG(64 * 1024); break;
	case CL_DEVICE_MAX_CONSTANT_ARGS: UINT(8); break;
	/* Work-group memory lives in an ordinary buffer (Midgard's WLS). */
	case CL_DEVICE_LOCAL_MEM_TYPE:
		v.u = CL_GLOBAL;
		size = sizeof(cl_device_local_mem_type);
		break;
	case CL_DEVICE_LOCAL_MEM_SIZE: ULONG(l->local_mem_size); break;
	case CL_DEVICE_ERROR_CORRECTION_SUPPORT: BOOL(CL_FALSE); break;
	/* Midgard has no memory of its own: it shares the host's RAM. */
	case CL_DEVICE_HOST_UNIFIED_MEMORY: BOOL(CL_TRUE); break;
	case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
		SIZE(l->profiling_timer_resolution);
		break;
	case CL_DEVICE_ENDIAN_LITTLE: BOOL(CL_TRUE); break;
	case CL_DEVICE_AVAILABLE: BOOL(CL_TRUE); break;
	/* FULL_PROFILE requires both; the guest has clang-15. */
	case CL_DEVICE_COMPILER_AVAILABLE:
	case CL_DEVICE_LINKER_AVAILABLE: BOOL(CL_TRUE); break;
	case CL_DEVICE_EXECUTION_CAPABILITIES: BITS(CL_EXEC_KERNEL); break;
	/* In order, with profiling: the spec's minimum. */
	case CL_DEVICE_QUEUE_PROPERTIES:
		BITS(CL_QUEUE_PROFILING_ENABLE |
		     CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
		break;
	case CL_DEVICE_BUILT_IN_KERNELS: s = ""; break;
	case CL_DEVICE_PLATFORM:
		v.platform = icd_platform_get();
		size = sizeof(cl_platform_id);
		break;
	case CL_DEVICE_NAME: s = l->name; break;
	case CL_DEVICE_VENDOR: s = "ARM"; break;
	case CL_DRIVER_VERSION: s = ICD_DRIVER_VERSION; break;
	case CL_DEVICE_PROFILE: s = "FULL_PROFILE"; break;
	case CL_DEVICE_VERSION: s = "OpenCL 1.2 sleipnir"; break;
	case CL_DEVICE_OPENCL_C_VERSION: s = "OpenCL C 1.2 sleipnir"; break;
	case CL_DEVICE_EXTENSIONS: s = SLC_DEVICE_EXTENSIONS; break;
	/* cl_khr_il_program: the SPIR-V llvm-spirv-15 writes, which the
	 * compiler's reader is built and tested on. The reader takes the
	 * version words of 1.1 to 1.6 too, but not every instruction those
	 * versions added, so only 1.0 is promised. */
	case CL_DEVICE_IL_VERSION_KHR: s = "SPIR-V_1.0"; break;
	/* FULL_PROFILE's minimum, 1 MiB. */
	case CL_DEVICE_PRINTF_BUFFER_SIZE: SIZE(ICD_PRINTF_BUFFER_SIZE); break;
	/* No interop API is offered, so there is nothing to synchronise. */
	case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: BOOL(CL_TRUE); break;
	/* A root device that cannot be partitioned (see clCreateSubDevices):
	 * the lists hold the single 0 the spec asks for. */
	case CL_DEVICE_PARENT_DEVICE:
		v.device = NULL;
		size = sizeof(cl_device_id);
		break;
	case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: UINT(0); break;
	case CL_DEVICE_PARTITION_PROPERTIES:
	case CL_DEVICE_PARTITION_TYPE:
		v.partition[0] = 0;
		size = sizeof(v.partition);
		break;
	case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: BITS(0); break;
	/* Root devices are not counted (clRetainDevice is a no-op). */
	case CL_DEVICE_REFERENCE_COUNT: UINT(1); break;
	/* Vendor query (cl_sleipnir.h): what the zero-copy tests check. */
	case CL_DEVICE_SLEIPNIR_BYTES_COPIED: ULONG(icd_copied_total()); break;
	default:
		return CL_INVALID_VALUE;
	}
#undef UINT
#undef ULONG
#undef BOOL
#undef SIZE
#undef BITS

	if (s)
		return icd_info_string(s, param_value_size, param_value,
				       param_value_size_ret);
	return icd_info_copy(value, size, param_value_size, param_value,
			     param_value_size_ret);
}
