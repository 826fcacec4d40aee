/* SPDX-License-Identifier: MIT */
/*
 * Sleipnir's vendor additions to the OpenCL API, for applications and
 * tests that want them, beside CL/cl.h. It includes nothing, so the
 * application's CL_TARGET_OPENCL_VERSION stays its own.
 *
 * The values lie in the enum range Khronos keeps for experimental,
 * unregistered use, 0x10000-0x10FFF (cl.xml, "enums.10000": Khronos never
 * assigns values there), so they cannot collide with any token of
 * CL/cl.h, CL/cl_ext.h or a future registry entry. Other ICDs answer
 * CL_INVALID_VALUE for them.
 */
#ifndef CL_SLEIPNIR_H
#define CL_SLEIPNIR_H

/*
 * clGetDeviceInfo: the bytes the runtime has copied on the process's
 * behalf so far (a cl_ulong): buffer reads, writes, copies and fills, the
 * copy into a COPY_HOST_PTR buffer, and the copies that keep a
 * USE_HOST_PTR buffer with an unaligned pointer in step. Zero-copy paths
 * (map/unmap of ALLOC_HOST_PTR and page-aligned USE_HOST_PTR buffers,
 * kernels on them) add nothing. Process-wide; it never goes down.
 * SLEIPNIR_CL_COPY_STATS=1 in the environment prints it at exit.
 */
#define CL_DEVICE_SLEIPNIR_BYTES_COPIED 0x10F00

#endif
