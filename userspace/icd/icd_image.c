/* SPDX-License-Identifier: MIT */
/*
 * Image memory objects (icd_image.h): clCreateImage, the OpenCL 1.1
 * clCreateImage2D/3D, clGetImageInfo, clGetSupportedImageFormats, and the
 * fill colour's conversion to a texel.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "icd_context.h"
#include "icd_device.h"
#include "icd_image.h"
#include "icd_info.h"
#include "sleipnir_compiler.h"

#define HOST_PTR_FLAGS                                                       \
	(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)

static void *fail_with(cl_int err, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

/* --- formats ----------------------------------------------------------- */

/* Channels of a channel order; 0 when OpenCL 1.2 has no such order. */
static unsigned int order_channels(cl_channel_order order)
{
	switch (order) {
	case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE:
	case CL_Rx:
		return 1;
	case CL_RG: case CL_RA: case CL_RGx:
		return 2;
	case CL_RGB: case CL_RGBx:
		return 3;
	case CL_RGBA: case CL_BGRA: case CL_ARGB:
		return 4;
	default:
		return 0;
	}
}

/* Bytes of a channel; 0 for a packed type (the texel is the unit). */
static unsigned int type_bytes(cl_channel_type type)
{
	switch (type) {
	case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8:
	case CL_UNSIGNED_INT8:
		return 1;
	case CL_SNORM_INT16: case CL_UNORM_INT16: case CL_SIGNED_INT16:
	case CL_UNSIGNED_INT16: case CL_HALF_FLOAT:
		return 2;
	case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT:
		return 4;
	default:
		return 0;
	}
}

static bool packed_type(cl_channel_type type)
{
	return type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 ||
	       type == CL_UNORM_INT_101010;
}

size_t icd_image_elem_size(const cl_image_format *f)
{
	cl_channel_order o = f->image_channel_order;
	cl_channel_type t = f->image_channel_data_type;
	unsigned int n = order_channels(o);
	bool eight = type_bytes(t) == 1;
	bool norm_or_float = t == CL_UNORM_INT8 || t == CL_UNORM_INT16 ||
			     t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ||
			     t == CL_HALF_FLOAT || t == CL_FLOAT;

	if (!n || (!type_bytes(t) && !packed_type(t)))
		return 0;
	/* OpenCL 1.2 5.3.1.1's combinations: the packed types are whole
	 * RGB(x) texels and only those; BGRA and ARGB take 8-bit channels;
	 * INTENSITY and LUMINANCE normalized or float ones. */
	if ((o == CL_RGB || o == CL_RGBx) != packed_type(t))
		return 0;
	if ((o == CL_BGRA || o == CL_ARGB) && !eight)
		return 0;
	if ((o == CL_INTENSITY || o == CL_LUMINANCE) && !norm_or_float)
		return 0;
	if (packed_type(t))
		return t == CL_UNORM_INT_101010 ? 4 : 2;
	return (size_t)n * type_bytes(t);
}

/* A valid format the hardware samples (compiler/README.md's table). */
static bool format_supported(const cl_image_format *f)
{
	return sl_image_format(f->image_channel_order,
			       f->image_channel_data_type, NULL, NULL);
}

static bool image_type_known(cl_mem_object_type type)
{
	return type == CL_MEM_OBJECT_IMAGE1D ||
	       type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
	       type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
	       type == CL_MEM_OBJECT_IMAGE2D ||
	       type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
	       type == CL_MEM_OBJECT_IMAGE3D;
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context,
					      cl_mem_flags flags,
					      cl_mem_object_type image_type,
					      cl_uint num_entries,
					      cl_image_format *image_formats,
					      cl_uint *num_image_formats)
{
	static const cl_channel_order orders[] = {
		CL_R, CL_A, CL_RG, CL_RA, CL_RGBA, CL_BGRA, CL_ARGB,
		CL_INTENSITY, CL_LUMINANCE,
	};
	static const cl_channel_type types[] = {
		CL_SNORM_INT8, CL_SNORM_INT16, CL_UNORM_INT8, CL_UNORM_INT16,
		CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32,
		CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32,
		CL_HALF_FLOAT, CL_FLOAT,
	};
	cl_uint n = 0;

	if (!icd_context_valid(context))
		return CL_INVALID_CONTEXT;
	if (!icd_mem_flags_valid(flags) || !image_type_known(image_type))
		return CL_INVALID_VALUE;
	if (num_entries == 0 && image_formats)
		return CL_INVALID_VALUE;
	/* Every format serves every type and access: linear texels. */
	for (size_t o = 0; o < sizeof(orders) / sizeof(orders[0]); o++) {
		for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
			cl_image_format f = { orders[o], types[t] };

			if (!format_supported(&f))
				continue;
			if (image_formats && n < num_entries)
				image_formats[n] = f;
			n++;
		}
	}
	if (num_image_formats)
		*num_image_formats = n;
	return CL_SUCCESS;
}

/* --- creation ---------------------------------------------------------- */

/* What the image's description says, checked (clCreateImage's rules). */
struct image_shape {
	cl_mem_object_type type;
	size_t width, height, depth, layers;
	size_t row_pitch, slice_pitch;       /* of host_ptr's data */
	size_t elem;
};

/*
 * OpenCL 1.2 5.3.1's image_desc rules: sizes the type uses (at least 1),
 * no mipmaps or samples, a buffer only for a 1D buffer image, pitches 0
 * without host_ptr and otherwise at least a row's (slice's) bytes and a
 * multiple of the texel (row) size. Fills @s, sizes the type lacks as 1.
 */
static bool shape_valid(const cl_image_desc *d, size_t elem, bool host,
			struct image_shape *s)
{
	cl_mem_object_type t = d->image_type;
	bool has_h = t == CL_MEM_OBJECT_IMAGE2D ||
		     t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
		     t == CL_MEM_OBJECT_IMAGE3D;
	bool array = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
		     t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
	bool has_slices = array || t == CL_MEM_OBJECT_IMAGE3D;
	size_t row, slice;

	if (!image_type_known(t) || d->num_mip_levels || d->num_samples)
		return false;
	if ((t == CL_MEM_OBJECT_IMAGE1D_BUFFER) != (d->buffer != NULL))
		return false;
	s->type = t;
	s->elem = elem;
	s->width = d->image_width;
	s->height = has_h ? d->image_height : 1;
	s->depth = t == CL_MEM_OBJECT_IMAGE3D ? d->image_depth : 1;
	s->layers = array ? d->image_array_size : 1;
	if (!s->width || !s->height || !s->depth || !s->layers)
		return false;
	if (__builtin_mul_overflow(s->width, elem, &row))
		return false;
	if (!host) {
		if (d->image_row_pitch || d->image_slice_pitch)
			return false;
		s->row_pitch = row;
	} else {
		s->row_pitch = d->image_row_pitch ? d->image_row_pitch : row;
		if (s->row_pitch < row || s->row_pitch % elem)
			return false;
	}
	/* A slice: a 2D image's rows, a 1D array's one row. */
	if (__builtin_mul_overflow(s->row_pitch,
				   t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 :
				   s->height, &slice))
		return false;
	if (host && has_slices && d->image_slice_pitch) {
		if (d->image_slice_pitch < slice ||
		    d->image_slice_pitch % s->row_pitch)
			return false;
		slice = d->image_slice_pitch;
	}
	s->slice_pitch = slice;
	return true;
}

/* The device's limits for the shape (CL_INVALID_IMAGE_SIZE beyond). */
static bool shape_fits(const struct image_shape *s, cl_context ctx)
{
	size_t bytes;

	switch (s->type) {
	case CL_MEM_OBJECT_IMAGE1D_BUFFER:
		if (s->width > ICD_IMAGE_MAX_BUFFER_SIZE)
			return false;
		break;
	case CL_MEM_OBJECT_IMAGE3D:
		if (s->width > ICD_IMAGE3D_MAX || s->height > ICD_IMAGE3D_MAX ||
		    s->depth > ICD_IMAGE3D_MAX)
			return false;
		break;
	default:
		if (s->width > ICD_IMAGE2D_MAX || s->height > ICD_IMAGE2D_MAX ||
		    s->layers > ICD_IMAGE_MAX_ARRAY_SIZE)
			return false;
		break;
	}
	/* The attribute buffer's size field is 32 bits. */
	if (__builtin_mul_overflow(s->slice_pitch, s->depth * s->layers,
				   &bytes))
		return false;
	return bytes <= ctx->device->limits.max_mem_alloc_size &&
	       bytes <= UINT32_MAX;
}

static enum sl_image_type sl_type(cl_mem_object_type t)
{
	switch (t) {
	case CL_MEM_OBJECT_IMAGE1D: return SL_IMAGE_1D;
	case CL_MEM_OBJECT_IMAGE1D_BUFFER: return SL_IMAGE_1D_BUFFER;
	case CL_MEM_OBJECT_IMAGE1D_ARRAY: return SL_IMAGE_1D_ARRAY;
	case CL_MEM_OBJECT_IMAGE2D: return SL_IMAGE_2D;
	case CL_MEM_OBJECT_IMAGE2D_ARRAY: return SL_IMAGE_2D_ARRAY;
	default: return SL_IMAGE_3D;
	}
}

/* Copies the image's texels from host memory laid out as @s says into
 * its storage, whose pitches may differ (COPY_HOST_PTR). */
static void copy_in(cl_mem img, const uint8_t *src,
		    const struct image_shape *s)
{
	size_t row = img->width * img->elem_size;
	size_t rows = s->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : s->height;
	size_t slices = s->depth * s->layers;

	for (size_t z = 0; z < slices; z++)
		for (size_t y = 0; y < rows; y++)
			memcpy(img->cpu + z * img->slice_pitch +
			       y * img->row_pitch,
			       src + z * s->slice_pitch + y * s->row_pitch,
			       row);
	icd_copied_add((uint64_t)row * rows * slices);
	icd_mem_cpu_end(img, 0, img->size);
}

/* Sets the image fields of @img from the checked shape and format. */
static void set_image(cl_mem img, const cl_image_format *f,
		      const struct image_shape *s)
{
	img->format = *f;
	img->elem_size = s->elem;
	img->width = s->width;
	/* As created: OpenCL's queries say 0 where the type has none. */
	img->height = s->type == CL_MEM_OBJECT_IMAGE2D ||
		      s->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
		      s->type == CL_MEM_OBJECT_IMAGE3D ? s->height : 0;
	img->depth = s->type == CL_MEM_OBJECT_IMAGE3D ? s->depth : 0;
	img->array_size = s->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
			  s->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ?
			  s->layers : 0;
	img->row_pitch = s->row_pitch;
	img->slice_pitch = s->slice_pitch;
	img->sl = (struct sl_image){
		.type = sl_type(s->type),
		.width = (uint32_t)s->width,
		.height = (uint32_t)s->height,
		.depth = (uint32_t)s->depth,
		.array_size = (uint32_t)s->layers,
		.channel_order = f->image_channel_order,
		.channel_type = f->image_channel_data_type,
		.va = img->va,
		.row_pitch = (uint32_t)s->row_pitch,
		.slice_pitch = (uint32_t)s->slice_pitch,
	};
}

/* A 1D buffer image: a window on its buffer (OpenCL 1.2 5.3.1). */
static cl_mem create_buffer_image(cl_context ctx, cl_mem_flags flags,
				  const cl_image_format *f,
				  const struct image_shape *s,
				  const cl_image_desc *d, cl_int *err)
{
	cl_mem buffer = d->buffer, img;
	cl_mem_flags derived;
	size_t bytes = s->width * s->elem;

	if (!icd_buffer_valid(buffer) || buffer->context != ctx) {
		*err = CL_INVALID_IMAGE_DESCRIPTOR;
		return NULL;
	}
	if (!icd_mem_derived_flags(buffer->flags, flags, &derived)) {
		*err = CL_INVALID_VALUE;
		return NULL;
	}
	/* The image's texels lie in the buffer (its size is the limit). */
	if (bytes > buffer->size) {
		*err = CL_INVALID_IMAGE_SIZE;
		return NULL;
	}
	img = icd_mem_window(buffer, CL_MEM_OBJECT_IMAGE1D_BUFFER,
			     derived & ~HOST_PTR_FLAGS, 0, bytes);
	if (!img) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	/* The flags of the image are its own. It keeps the window's host
	 * pointer, which its maps hand out when the buffer's storage is a
	 * copy of the application's memory, but CL_MEM_HOST_PTR is NULL:
	 * the image was not made with one (icd_mem.c). */
	img->flags = flags ? derived & ~HOST_PTR_FLAGS :
		     buffer->flags & ~HOST_PTR_FLAGS;
	icd_mem_retain(buffer);
	img->image_buffer = buffer;
	set_image(img, f, s);
	return img;
}

static cl_mem create_image(cl_context context, cl_mem_flags flags,
			   const cl_image_format *format,
			   const cl_image_desc *desc, void *host_ptr,
			   cl_int bad_desc, cl_int *errcode_ret)
{
	bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
	struct image_shape s;
	size_t elem;
	cl_mem img;
	cl_int err;

	if (!icd_context_valid(context))
		return fail_with(CL_INVALID_CONTEXT, errcode_ret);
	/* "no devices in context that support images": nothing else to
	 * check. */
	if (!SLC_DEVICE_IMAGE_SUPPORT)
		return fail_with(CL_INVALID_OPERATION, errcode_ret);
	if (!icd_mem_flags_valid(flags))
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	elem = format ? icd_image_elem_size(format) : 0;
	if (!elem)
		return fail_with(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
				 errcode_ret);
	if (!desc || !shape_valid(desc, elem, host_ptr != NULL, &s))
		return fail_with(bad_desc, errcode_ret);
	if (!shape_fits(&s, context))
		return fail_with(CL_INVALID_IMAGE_SIZE, errcode_ret);
	/* A 1D buffer image's storage is its buffer's (OpenCL 1.2 5.3.1). */
	if (s.type == CL_MEM_OBJECT_IMAGE1D_BUFFER && (flags & HOST_PTR_FLAGS))
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	if (s.type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? host_ptr != NULL :
	    wants_ptr != (host_ptr != NULL))
		return fail_with(CL_INVALID_HOST_PTR, errcode_ret);
	if (!format_supported(format))
		return fail_with(CL_IMAGE_FORMAT_NOT_SUPPORTED, errcode_ret);

	if (s.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
		img = create_buffer_image(context, flags, format, &s, desc,
					  &err);
		if (!img)
			return fail_with(err, errcode_ret);
		if (errcode_ret)
			*errcode_ret = CL_SUCCESS;
		return img;
	}
	/*
	 * The storage: USE_HOST_PTR keeps host_ptr's layout (the GPU uses
	 * those pages, or map and unmap copy the whole span), anything else
	 * tight rows.
	 */
	if (!(flags & CL_MEM_USE_HOST_PTR)) {
		struct image_shape tight = s;

		tight.row_pitch = s.width * elem;
		tight.slice_pitch = tight.row_pitch *
				    (s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ?
				     1 : s.height);
		img = icd_mem_create(context, s.type, flags,
				     tight.slice_pitch * s.depth * s.layers,
				     NULL, &err);
		if (!img)
			return fail_with(err, errcode_ret);
		set_image(img, format, &tight);
		if (flags & CL_MEM_COPY_HOST_PTR)
			copy_in(img, host_ptr, &s);
	} else {
		/* The last row ends where its texels do. */
		size_t span = s.slice_pitch * (s.depth * s.layers - 1) +
			      s.row_pitch * ((s.type ==
					      CL_MEM_OBJECT_IMAGE1D_ARRAY ?
					      1 : s.height) - 1) +
			      s.width * elem;

		img = icd_mem_create(context, s.type, flags, span, host_ptr,
				     &err);
		if (!img)
			return fail_with(err, errcode_ret);
		set_image(img, format, &s);
		if (img->shadowed) {
			memcpy(img->cpu, host_ptr, span);
			icd_copied_add(span);
			icd_mem_cpu_end(img, 0, span);
		}
	}
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return img;
}

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
				 const cl_image_format *image_format,
				 const cl_image_desc *image_desc,
				 void *host_ptr, cl_int *errcode_ret)
{
	return create_image(context, flags, image_format, image_desc,
			    host_ptr, CL_INVALID_IMAGE_DESCRIPTOR,
			    errcode_ret);
}

/* The OpenCL 1.1 forms: their size and pitch errors are
 * CL_INVALID_IMAGE_SIZE (OpenCL 1.1 5.3.1). */
cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
				   const cl_image_format *image_format,
				   size_t image_width, size_t image_height,
				   size_t image_row_pitch, void *host_ptr,
				   cl_int *errcode_ret)
{
	cl_image_desc d = {
		.image_type = CL_MEM_OBJECT_IMAGE2D,
		.image_width = image_width,
		.image_height = image_height,
		.image_row_pitch = image_row_pitch,
	};

	return create_image(context, flags, image_format, &d, host_ptr,
			    CL_INVALID_IMAGE_SIZE, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
				   const cl_image_format *image_format,
				   size_t image_width, size_t image_height,
				   size_t image_depth, size_t image_row_pitch,
				   size_t image_slice_pitch, void *host_ptr,
				   cl_int *errcode_ret)
{
	cl_image_desc d = {
		.image_type = CL_MEM_OBJECT_IMAGE3D,
		.image_width = image_width,
		.image_height = image_height,
		.image_depth = image_depth,
		.image_row_pitch = image_row_pitch,
		.image_slice_pitch = image_slice_pitch,
	};

	/* "image_depth ... must be > 1" for clCreateImage3D. */
	if (image_depth == 1 && SLC_DEVICE_IMAGE_SUPPORT)
		return fail_with(icd_context_valid(context) ?
				 CL_INVALID_IMAGE_SIZE : CL_INVALID_CONTEXT,
				 errcode_ret);
	return create_image(context, flags, image_format, &d, host_ptr,
			    CL_INVALID_IMAGE_SIZE, errcode_ret);
}

/* --- queries ----------------------------------------------------------- */

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name,
				  size_t param_value_size, void *param_value,
				  size_t *param_value_size_ret)
{
	union {
		cl_image_format f;
		size_t sz;
		cl_mem mem;
		cl_uint u;
	} v;
	size_t size = sizeof(size_t);

	if (!icd_image_valid(image))
		return CL_INVALID_MEM_OBJECT;
	switch (param_name) {
	case CL_IMAGE_FORMAT:
		v.f = image->format;
		size = sizeof(v.f);
		break;
	case CL_IMAGE_ELEMENT_SIZE: v.sz = image->elem_size; break;
	case CL_IMAGE_ROW_PITCH: v.sz = image->row_pitch; break;
	/* 0 for images without slices (OpenCL 1.2 5.3.7). */
	case CL_IMAGE_SLICE_PITCH:
		v.sz = image->type == CL_MEM_OBJECT_IMAGE3D ||
		       image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
		       image->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ?
		       image->slice_pitch : 0;
		break;
	case CL_IMAGE_WIDTH: v.sz = image->width; break;
	case CL_IMAGE_HEIGHT: v.sz = image->height; break;
	case CL_IMAGE_DEPTH: v.sz = image->depth; break;
	case CL_IMAGE_ARRAY_SIZE: v.sz = image->array_size; break;
	case CL_IMAGE_BUFFER:
		v.mem = image->image_buffer;
		size = sizeof(v.mem);
		break;
	case CL_IMAGE_NUM_MIP_LEVELS:
	case CL_IMAGE_NUM_SAMPLES:
		v.u = 0;
		size = sizeof(v.u);
		break;
	default:
		return CL_INVALID_VALUE;
	}
	return icd_info_copy(&v, size, param_value_size, param_value,
			     param_value_size_ret);
}

/* --- fill colours ------------------------------------------------------ */

/* fp32 to fp16 bits, round to nearest even (OpenCL's default). */
static uint16_t to_half(float f)
{
	uint32_t x, sign, mant;
	int exp;

	memcpy(&x, &f, 4);
	sign = (x >> 16) & 0x8000;
	exp = (int)((x >> 23) & 0xFF) - 127 + 15;
	mant = x & 0x7FFFFF;
	if (((x >> 23) & 0xFF) == 0xFF)
		return (uint16_t)(sign | 0x7C00 | (mant ? 0x200 : 0));
	if (exp >= 31)
		return (uint16_t)(sign | 0x7C00);
	if (exp <= 0) {
		/* A subnormal half, or zero. */
		uint32_t m = mant | 0x800000, shift = (uint32_t)(14 - exp);
		uint32_t h, rem, half;

		if (shift > 24)
			return (uint16_t)sign;
		h = m >> shift;
		rem = m & ((1u << shift) - 1);
		half = 1u << (shift - 1);
		if (rem > half || (rem == half && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
	{
		uint32_t h = (uint32_t)exp << 10 | mant >> 13;
		uint32_t rem = mant & 0x1FFF;

		if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
}

/* A float to a normalized integer: scale, round to nearest even,
 * saturate (OpenCL 1.2 8.3.1). */
static long norm(float f, float scale, long lo, long hi)
{
	float v;

	if (isnan(f))
		return 0;
	v = nearbyintf(f * scale);
	return v < (float)lo ? lo : v > (float)hi ? hi : (long)v;
}

static long clamp_long(long v, long lo, long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Stores channel value @rgba[c] (in the colour's type) at @p. */
static void put_channel(cl_channel_type t, const void *color, unsigned int c,
			uint8_t *p)
{
	const float *f = color;
	const int32_t *i = color;
	const uint32_t *u = color;
	long v;

	switch (t) {
	case CL_UNORM_INT8: *p = (uint8_t)norm(f[c], 255, 0, 255); return;
	case CL_SNORM_INT8:
		*p = (uint8_t)(int8_t)norm(f[c], 127, -127, 127);
		return;
	case CL_UNORM_INT16:
		v = norm(f[c], 65535, 0, 65535);
		break;
	case CL_SNORM_INT16:
		v = (uint16_t)(int16_t)norm(f[c], 32767, -32767, 32767);
		break;
	case CL_HALF_FLOAT: v = to_half(f[c]); break;
	case CL_FLOAT: memcpy(p, &f[c], 4); return;
	case CL_SIGNED_INT8: *p = (uint8_t)clamp_long(i[c], -128, 127); return;
	case CL_SIGNED_INT16:
		v = (uint16_t)(int16_t)clamp_long(i[c], -32768, 32767);
		break;
	case CL_SIGNED_INT32: memcpy(p, &i[c], 4); return;
	case CL_UNSIGNED_INT8: *p = (uint8_t)(u[c] > 255 ? 255 : u[c]); return;
	case CL_UNSIGNED_INT16: v = u[c] > 65535 ? 65535 : u[c]; break;
	case CL_UNSIGNED_INT32: memcpy(p, &u[c], 4); return;
	default: return;
	}
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

void icd_image_pack_color(cl_mem image, const void *color, uint8_t *texel)
{
	/* The colour's channel (R 0, G 1, B 2, A 3) each stored channel
	 * holds, in storage order. */
	static const struct {
		cl_channel_order order;
		uint8_t n, ch[4];
	} map[] = {
		{ CL_R, 1, { 0 } }, { CL_A, 1, { 3 } },
		{ CL_INTENSITY, 1, { 0 } }, { CL_LUMINANCE, 1, { 0 } },
		{ CL_RG, 2, { 0, 1 } }, { CL_RA, 2, { 0, 3 } },
		{ CL_RGBA, 4, { 0, 1, 2, 3 } }, { CL_BGRA, 4, { 2, 1, 0, 3 } },
		{ CL_ARGB, 4, { 3, 0, 1, 2 } },
	};
	cl_channel_type t = image->format.image_channel_data_type;
	unsigned int bytes = type_bytes(t);

	memset(texel, 0, 16);
	for (size_t m = 0; m < sizeof(map) / sizeof(map[0]); m++) {
		if (map[m].order != image->format.image_channel_order)
			continue;
		for (unsigned int c = 0; c < map[m].n; c++)
			put_channel(t, color, map[m].ch[c], texel + c * bytes);
		return;
	}
}
