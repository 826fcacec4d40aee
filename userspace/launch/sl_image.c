/* SPDX-License-Identifier: MIT */
/*
 * Images and samplers for the launch ABI (compiler/README.md, "Images and
 * samplers: the launch ABI"; docs/hardware.md §4.10): the pixel format of
 * an OpenCL image format, the image words, and the texture, sampler and
 * attribute descriptors sl_launch_emit() writes for image and sampler
 * arguments.
 */
#include <string.h>

#include "midgard_desc.h"
#include "sl_launch.h"

/* cl_channel_order and cl_channel_type values (OpenCL 1.2, cl.h). */
enum {
	CH_R = 0x10B0, CH_A, CH_RG, CH_RA, CH_RGB, CH_RGBA, CH_BGRA, CH_ARGB,
	CH_INTENSITY, CH_LUMINANCE,
};
enum {
	T_SNORM_INT8 = 0x10D0, T_SNORM_INT16, T_UNORM_INT8, T_UNORM_INT16,
	T_UNORM_SHORT_565, T_UNORM_SHORT_555, T_UNORM_INT_101010,
	T_SIGNED_INT8, T_SIGNED_INT16, T_SIGNED_INT32, T_UNSIGNED_INT8,
	T_UNSIGNED_INT16, T_UNSIGNED_INT32, T_HALF_FLOAT, T_FLOAT,
};

/* Format enum rows (docs/hardware.md §4.10): value = row × 32 +
 * (channels − 1) × 8 + size code. */
enum { ROW_SNORM = 3, ROW_UINT = 4, ROW_UNORM = 5, ROW_SINT = 6 };

/* The row and size code of a channel type, and its bytes; false when the
 * type is packed (no Midgard format the model reads). */
static bool channel_type(uint32_t type, unsigned int *row,
			 unsigned int *size, unsigned int *bytes)
{
	static const struct {
		uint8_t row, size, bytes;
	} t[] = {
		[T_SNORM_INT8 - T_SNORM_INT8] = { ROW_SNORM, 3, 1 },
		[T_SNORM_INT16 - T_SNORM_INT8] = { ROW_SNORM, 4, 2 },
		[T_UNORM_INT8 - T_SNORM_INT8] = { ROW_UNORM, 3, 1 },
		[T_UNORM_INT16 - T_SNORM_INT8] = { ROW_UNORM, 4, 2 },
		[T_SIGNED_INT8 - T_SNORM_INT8] = { ROW_SINT, 3, 1 },
		[T_SIGNED_INT16 - T_SNORM_INT8] = { ROW_SINT, 4, 2 },
		[T_SIGNED_INT32 - T_SNORM_INT8] = { ROW_SINT, 5, 4 },
		[T_UNSIGNED_INT8 - T_SNORM_INT8] = { ROW_UINT, 3, 1 },
		[T_UNSIGNED_INT16 - T_SNORM_INT8] = { ROW_UINT, 4, 2 },
		[T_UNSIGNED_INT32 - T_SNORM_INT8] = { ROW_UINT, 5, 4 },
		/* 16F sits in the SINT row, 32F in the UNORM row (size 7). */
		[T_HALF_FLOAT - T_SNORM_INT8] = { ROW_SINT, 7, 2 },
		[T_FLOAT - T_SNORM_INT8] = { ROW_UNORM, 7, 4 },
	};

	if (type < T_SNORM_INT8 || type > T_FLOAT ||
	    !t[type - T_SNORM_INT8].bytes)
		return false;
	*row = t[type - T_SNORM_INT8].row;
	*size = t[type - T_SNORM_INT8].size;
	*bytes = t[type - T_SNORM_INT8].bytes;
	return true;
}

/* Swizzle: 3 bits per output R, G, B, A; 0-3 stored channels, 4 zero, 5
 * one. */
#define SWZ(r, g, b, a) ((r) | (g) << 3 | (b) << 6 | (a) << 9)

bool sl_image_format(uint32_t order, uint32_t type, uint32_t *pixfmt,
		     uint32_t *texel_bytes)
{
	unsigned int row, size, bytes, channels, swizzle;
	bool eight_bit = type == T_UNORM_INT8 || type == T_SNORM_INT8 ||
			 type == T_SIGNED_INT8 || type == T_UNSIGNED_INT8;
	bool normalized_or_float = type == T_UNORM_INT8 ||
				   type == T_UNORM_INT16 ||
				   type == T_SNORM_INT8 ||
				   type == T_SNORM_INT16 ||
				   type == T_HALF_FLOAT || type == T_FLOAT;

	if (!channel_type(type, &row, &size, &bytes))
		return false;
	switch (order) {
	case CH_R: channels = 1; swizzle = SWZ(0, 4, 4, 5); break;
	case CH_A: channels = 1; swizzle = SWZ(4, 4, 4, 0); break;
	case CH_RG: channels = 2; swizzle = SWZ(0, 1, 4, 5); break;
	case CH_RA: channels = 2; swizzle = SWZ(0, 4, 4, 1); break;
	case CH_RGBA: channels = 4; swizzle = SWZ(0, 1, 2, 3); break;
	/* OpenCL 1.2 5.3.1.1: BGRA and ARGB only with 8-bit channels. */
	case CH_BGRA:
		if (!eight_bit)
			return false;
		channels = 4;
		swizzle = SWZ(2, 1, 0, 3);
		break;
	case CH_ARGB:
		if (!eight_bit)
			return false;
		channels = 4;
		swizzle = SWZ(1, 2, 3, 0);
		break;
	/* INTENSITY and LUMINANCE only with normalized and float types. */
	case CH_INTENSITY:
		if (!normalized_or_float)
			return false;
		channels = 1;
		swizzle = SWZ(0, 0, 0, 0);
		break;
	case CH_LUMINANCE:
		if (!normalized_or_float)
			return false;
		channels = 1;
		swizzle = SWZ(0, 0, 0, 5);
		break;
	default:
		/* CL_RGB needs packed formats, which the model lacks. */
		return false;
	}
	if (pixfmt)
		*pixfmt = (row * 32 + (channels - 1) * 8 + size) << 12 |
			  swizzle;
	if (texel_bytes)
		*texel_bytes = bytes * channels;
	return true;
}

/* The surfaces of an image's texture: one per layer of an array. */
static uint32_t surfaces(const struct sl_image *img)
{
	return img->type == SL_IMAGE_1D_ARRAY ||
	       img->type == SL_IMAGE_2D_ARRAY ? img->array_size : 1;
}

/* Width, height, depth and layers as the image words say them: 1 where
 * the type has no such dimension. */
static void dims(const struct sl_image *img, uint32_t d[4])
{
	enum sl_image_type t = img->type;

	d[0] = img->width;
	d[1] = t == SL_IMAGE_2D || t == SL_IMAGE_2D_ARRAY || t == SL_IMAGE_3D ?
	       img->height : 1;
	d[2] = t == SL_IMAGE_3D ? img->depth : 1;
	d[3] = t == SL_IMAGE_1D_ARRAY || t == SL_IMAGE_2D_ARRAY ?
	       img->array_size : 1;
}

uint64_t sl_image_bytes(const struct sl_image *img)
{
	uint32_t d[4];

	dims(img, d);
	return (uint64_t)img->slice_pitch * d[2] * d[3];
}

int sl_image_check(const struct sl_image *img)
{
	uint32_t d[4], texel;

	if (!img || img->type < SL_IMAGE_1D || img->type > SL_IMAGE_3D ||
	    !sl_image_format(img->channel_order, img->channel_type, NULL,
			     &texel))
		return SL_LAUNCH_E_ARG_VALUE;
	dims(img, d);
	/* The descriptors' size fields are 16 bits (minus one). */
	for (int i = 0; i < 4; i++)
		if (d[i] < 1 || d[i] > SL_IMAGE_MAX_DIM)
			return SL_LAUNCH_E_TOO_BIG;
	/* Rows hold their texels, slices (a 1D array's layers) their rows. */
	if (img->row_pitch < (uint64_t)d[0] * texel ||
	    img->slice_pitch < (uint64_t)img->row_pitch *
	    (img->type == SL_IMAGE_1D_ARRAY ? 1 : d[1]))
		return SL_LAUNCH_E_ARG_VALUE;
	/* Attribute buffer pointers drop the low 6 bits. */
	if (img->va % 64)
		return SL_LAUNCH_E_ALIGN;
	if (sl_image_bytes(img) > UINT32_MAX)
		return SL_LAUNCH_E_TOO_BIG;
	return SL_LAUNCH_OK;
}

void sl_image_words(const struct sl_image *img,
		    uint32_t words[SLB_IMAGE_WORDS])
{
	uint32_t d[4];

	dims(img, d);
	memset(words, 0, SLB_IMAGE_WORDS * 4);
	words[SLB_IMAGE_WIDTH] = d[0];
	words[SLB_IMAGE_HEIGHT] = d[1];
	words[SLB_IMAGE_DEPTH] = d[2];
	words[SLB_IMAGE_ARRAY_SIZE] = d[3];
	words[SLB_IMAGE_CHANNEL_TYPE] = img->channel_type;
	words[SLB_IMAGE_CHANNEL_ORDER] = img->channel_order;
}

size_t sl_texture_bytes(const struct sl_image *img)
{
	return MDG_TEXTURE_BYTES + 16u * surfaces(img);
}

void sl_texture_pack(const struct sl_image *img, uint8_t *out)
{
	enum sl_image_type t = img->type;
	uint32_t d[4], pixfmt = 0, n = surfaces(img);

	dims(img, d);
	sl_image_format(img->channel_order, img->channel_type, &pixfmt, NULL);
	memset(out, 0, MDG_TEXTURE_BYTES);
	mdg_set(out, MDG_TEXTURE_WIDTH, d[0]);
	mdg_set(out, MDG_TEXTURE_HEIGHT, d[1]);
	mdg_set(out, MDG_TEXTURE_DEPTH, d[2]);
	mdg_set(out, MDG_TEXTURE_ARRAY_SIZE, d[3]);
	mdg_set(out, MDG_TEXTURE_FORMAT, pixfmt);
	mdg_set(out, MDG_TEXTURE_DIMENSION,
		t == SL_IMAGE_3D ? MDG_TEXTURE_DIMENSION_3D :
		t == SL_IMAGE_2D || t == SL_IMAGE_2D_ARRAY ?
		MDG_TEXTURE_DIMENSION_2D : MDG_TEXTURE_DIMENSION_1D);
	mdg_set(out, MDG_TEXTURE_TEXEL_ORDERING, MDG_TEXTURE_LAYOUT_LINEAR);
	mdg_set(out, MDG_TEXTURE_SURFACE_POINTER_IS_64B, 1);
	mdg_set(out, MDG_TEXTURE_MANUAL_STRIDE, 1);
	mdg_set(out, MDG_TEXTURE_LEVELS, 1);
	/* The format's swizzle does the channel order; the view's is the
	 * identity. */
	mdg_set(out, MDG_TEXTURE_SWIZZLE, SWZ(0, 1, 2, 3));
	for (uint32_t l = 0; l < n; l++) {
		uint8_t *s = out + MDG_TEXTURE_BYTES + 16 * l;
		uint64_t va = img->va + (uint64_t)l * img->slice_pitch;
		uint32_t row = img->row_pitch, slice = img->slice_pitch;

		for (int i = 0; i < 8; i++)
			s[i] = (uint8_t)(va >> (8 * i));
		for (int i = 0; i < 4; i++) {
			s[8 + i] = (uint8_t)(row >> (8 * i));
			s[12 + i] = (uint8_t)(slice >> (8 * i));
		}
	}
}

void sl_sampler_pack(uint32_t clk, uint8_t out[32])
{
	/* docs/hardware.md §4.10: the CLK addressing mode's wrap mode (NONE
	 * reads in range only; clamp to edge is as good as any there). */
	static const uint8_t wrap[5] = {
		MDG_WRAP_MODE_CLAMP_TO_EDGE, MDG_WRAP_MODE_CLAMP_TO_EDGE,
		MDG_WRAP_MODE_CLAMP_TO_BORDER, MDG_WRAP_MODE_REPEAT,
		MDG_WRAP_MODE_MIRRORED_REPEAT,
	};
	bool nearest = clk & SLB_SAMPLER_FILTER_NEAREST;
	uint8_t w = wrap[((clk & SLB_SAMPLER_ADDRESS_MASK) >> 1) % 5];

	memset(out, 0, MDG_SAMPLER_BYTES);
	mdg_set(out, MDG_SAMPLER_MAGNIFY_NEAREST, nearest);
	mdg_set(out, MDG_SAMPLER_MINIFY_NEAREST, nearest);
	mdg_set(out, MDG_SAMPLER_NORMALIZED_COORDINATES,
		(clk & SLB_SAMPLER_NORMALIZED) != 0);
	/* No mipmaps: LOD clamped to [0, 1/256] (8.8 fixed point). */
	mdg_set(out, MDG_SAMPLER_MAXIMUM_LOD, 1);
	mdg_set(out, MDG_SAMPLER_WRAP_MODE_S, w);
	mdg_set(out, MDG_SAMPLER_WRAP_MODE_T, w);
	mdg_set(out, MDG_SAMPLER_WRAP_MODE_R, w);
}

void sl_attribute_pack(const struct sl_image *img, unsigned int k,
		       uint8_t attr[8], uint8_t bufs[32])
{
	uint8_t *cont = bufs + MDG_ATTRIBUTE_BUFFER_BYTES;
	uint32_t d[4], pixfmt = 0, texel = 0, t_dim, r_dim, row;

	dims(img, d);
	sl_image_format(img->channel_order, img->channel_type, &pixfmt,
			&texel);
	if (img->type == SL_IMAGE_1D_ARRAY) {
		/* Stored as 2D: the layer is T, a row each. */
		t_dim = d[3];
		r_dim = 1;
		row = img->slice_pitch;
	} else {
		t_dim = d[1];
		r_dim = d[2] > 1 ? d[2] : d[3];
		row = img->row_pitch;
	}
	memset(attr, 0, MDG_ATTRIBUTE_BYTES);
	memset(bufs, 0, 2 * MDG_ATTRIBUTE_BUFFER_BYTES);
	mdg_set(attr, MDG_ATTRIBUTE_BUFFER_INDEX, 2 * k);
	mdg_set(attr, MDG_ATTRIBUTE_FORMAT, pixfmt);
	mdg_set(bufs, MDG_ATTRIBUTE_BUFFER_TYPE, MDG_ATTRIBUTE_TYPE_3D_LINEAR);
	mdg_set(bufs, MDG_ATTRIBUTE_BUFFER_POINTER, img->va);
	mdg_set(bufs, MDG_ATTRIBUTE_BUFFER_STRIDE, texel);
	mdg_set(bufs, MDG_ATTRIBUTE_BUFFER_SIZE, sl_image_bytes(img));
	mdg_set(cont, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_TYPE,
		MDG_ATTRIBUTE_TYPE_CONTINUATION);
	mdg_set(cont, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_S_DIMENSION, d[0]);
	mdg_set(cont, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_T_DIMENSION, t_dim);
	mdg_set(cont, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_R_DIMENSION, r_dim);
	mdg_set(cont, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_ROW_STRIDE, row);
	mdg_set(cont, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_SLICE_STRIDE,
		img->slice_pitch);
}
