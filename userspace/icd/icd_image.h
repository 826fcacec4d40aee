/* SPDX-License-Identifier: MIT */
/*
 * Images and samplers: the device's image limits, the formats it samples,
 * sampler objects, and what the launch takes from an image or sampler
 * kernel argument (compiler/README.md, "Images and samplers: the launch
 * ABI").
 *
 * An image is a memory object (struct _cl_mem, icd_mem.h) whose storage is
 * linear: texel (x, y, z) of a 2D or 3D image, or of layer z of an array,
 * at z * slice_pitch + y * row_pitch + x * elem_size, in a BO of its own
 * (or in its buffer, for a 1D buffer image), so the GPU samples it in
 * place and clEnqueueMapImage hands out a pointer into it.
 */
#ifndef ICD_IMAGE_H
#define ICD_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "icd_mem.h"
#include "icd_object.h"

/*
 * The device's image limits. The texture and attribute descriptors hold
 * sizes in 16 bits (docs/hardware.md §4.10) and the load/store unit takes
 * 16-bit coordinates: 65536 along any side. An array's layers are one
 * surface each in the launch's descriptor block, so arrays stay at the
 * OpenCL 1.2 minimum of 2048 layers. Argument counts: OpenCL 1.2's full
 * profile minimums (the argument image has room for more).
 */
#define ICD_IMAGE2D_MAX 65536u
#define ICD_IMAGE3D_MAX 65536u
#define ICD_IMAGE_MAX_BUFFER_SIZE 65536u
#define ICD_IMAGE_MAX_ARRAY_SIZE 2048u
#define ICD_MAX_READ_IMAGE_ARGS 128u
#define ICD_MAX_WRITE_IMAGE_ARGS 8u
#define ICD_MAX_SAMPLERS 16u

struct _cl_sampler {
	struct icd_object obj;
	cl_context context;          /* retained */
	cl_bool normalized_coords;
	cl_addressing_mode addressing_mode;
	cl_filter_mode filter_mode;
	uint32_t clk;                /* the OpenCL C CLK_* bits */
};

bool icd_sampler_valid(cl_sampler sampler);

/* The bytes of one texel of @format, 0 when the format is not valid. */
size_t icd_image_elem_size(const cl_image_format *format);

/*
 * Converts a fill colour (float4, int4 or uint4 as the image's channel
 * type wants, OpenCL 1.2 5.3.5) to the bytes of one texel of @image, into
 * @texel (at least 16 bytes).
 */
void icd_image_pack_color(cl_mem image, const void *color, uint8_t *texel);

#endif
