/* SPDX-License-Identifier: MIT */
/*
 * Images on the load/store unit (docs/hardware.md §4.10, "Images"):
 * LD_IMAGE, ST_IMAGE and LEA_IMAGE for one thread. The image is the
 * attribute the word names; its record gives a pixel format and a buffer,
 * whose 3D record and continuation give the pointer, the dimensions and
 * the strides. The texels are converted by the texture unit's format code
 * (sgpu_texture.c). The choices where the hardware is unknown are in
 * qemu/README.md ("Images").
 */
#include <stdarg.h>
#include <stdio.h>

#include "sgpu_float.h"
#include "sgpu_shader.h"

struct image {
	struct sgpu_tex_format fmt;
	bool tiled;
	uint64_t base, size;
	uint32_t stride, dim[3];
	uint64_t row_stride, slice_stride;
};

__attribute__((format(printf, 2, 3)))
static uint32_t refuse(struct sgpu_exec *ex, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sgpu_shader_guest_error(ex->ctx, "sgpu: image: %s", msg);
	return MDG_EXCEPTION_DATA_INVALID_FAULT;
}

/* Reads and checks attribute @attr's records. */
static uint32_t read_image(struct sgpu_exec *ex, uint32_t attr,
			   struct image *im)
{
	const struct sgpu_compute_dispatch *d = ex->d;
	uint8_t a[MDG_ATTRIBUTE_BYTES], b[2 * MDG_ATTRIBUTE_BUFFER_BYTES];
	const uint8_t *cont = b + MDG_ATTRIBUTE_BUFFER_BYTES;
	unsigned int type;
	uint32_t code, index;

	if (attr >= ex->attribute_count)
		return refuse(ex, "attribute %u of %u", attr,
			      ex->attribute_count);
	code = sgpu_mem_read(ex, d->attributes + (uint64_t)attr *
			     MDG_ATTRIBUTE_BYTES, a, sizeof(a));
	if (code)
		return code;
	index = (uint32_t)mdg_get(a, MDG_ATTRIBUTE_BUFFER_INDEX);
	code = sgpu_mem_read(ex, d->attribute_buffers + (uint64_t)index *
			     MDG_ATTRIBUTE_BUFFER_BYTES, b, sizeof(b));
	if (code)
		return code;
	type = (unsigned int)mdg_get(b, MDG_ATTRIBUTE_BUFFER_TYPE);
	if (type != MDG_ATTRIBUTE_TYPE_3D_LINEAR &&
	    type != MDG_ATTRIBUTE_TYPE_3D_INTERLEAVED)
		return refuse(ex, "attribute %u: buffer %u has type %u, not "
			      "an image", attr, index, type);
	if (mdg_get(cont, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_TYPE) !=
	    MDG_ATTRIBUTE_TYPE_CONTINUATION)
		return refuse(ex, "attribute %u: buffer %u has no 3D "
			      "continuation", attr, index);
	if (!sgpu_tex_format_decode((uint32_t)mdg_get(a, MDG_ATTRIBUTE_FORMAT),
				    &im->fmt))
		return refuse(ex, "attribute %u: format 0x%06x is not "
			      "modelled", attr,
			      (unsigned int)mdg_get(a, MDG_ATTRIBUTE_FORMAT));
	im->tiled = type == MDG_ATTRIBUTE_TYPE_3D_INTERLEAVED;
	im->base = mdg_get(b, MDG_ATTRIBUTE_BUFFER_POINTER);
	if (mdg_get(a, MDG_ATTRIBUTE_OFFSET_ENABLE))
		im->base += mdg_get(a, MDG_ATTRIBUTE_OFFSET);
	im->size = mdg_get(b, MDG_ATTRIBUTE_BUFFER_SIZE);
	im->stride = (uint32_t)mdg_get(b, MDG_ATTRIBUTE_BUFFER_STRIDE);
	im->dim[0] = (uint32_t)mdg_get(cont,
			MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_S_DIMENSION);
	im->dim[1] = (uint32_t)mdg_get(cont,
			MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_T_DIMENSION);
	im->dim[2] = (uint32_t)mdg_get(cont,
			MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_R_DIMENSION);
	im->row_stride = mdg_get(cont,
			MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_ROW_STRIDE);
	im->slice_stride = mdg_get(cont,
			MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_SLICE_STRIDE);
	if (!im->tiled && im->stride < im->fmt.bytes)
		return refuse(ex, "attribute %u: stride %u below the texel's "
			      "%u bytes", attr, im->stride, im->fmt.bytes);
	return 0;
}

/*
 * The texel's offset in the buffer; false when the coordinates or the
 * texel lie outside the image or the buffer's size (the offset is still
 * the layout's formula).
 */
static bool texel_offset(const struct image *im, const uint32_t c[3],
			 uint64_t *off)
{
	uint64_t o = (uint64_t)c[2] * im->slice_stride;

	if (im->tiled)
		o += (uint64_t)(c[1] >> 4) * im->row_stride +
		     ((uint64_t)(c[0] >> 4) * 256 +
		      sgpu_tex_uinterleave(c[0] & 15, c[1] & 15)) *
		     im->fmt.bytes;
	else
		o += (uint64_t)c[1] * im->row_stride +
		     (uint64_t)c[0] * im->stride;
	*off = o;
	for (unsigned int d = 0; d < 3; d++)
		if (c[d] >= im->dim[d])
			return false;
	return o < im->size && im->size - o >= im->fmt.bytes;
}

uint32_t sgpu_image_op(struct sgpu_exec *ex, uint8_t op, uint32_t attr,
		       const uint32_t coord[3], const union sgpu_reg *data,
		       union sgpu_reg *result)
{
	struct image im;
	uint32_t ch[4] = { 0, 0, 0, 0 }, code;
	uint8_t raw[16];
	uint64_t off = 0;
	bool inside;

	code = read_image(ex, attr, &im);
	if (code)
		return code;
	inside = texel_offset(&im, coord, &off);
	memset(result, 0, sizeof(*result));
	switch (op) {
	case MDG_LDST_LEA_IMAGE:
		/* Where the texel is, for an atomic to use; no bounds. */
		result->u64[0] = im.base + off;
		return 0;
	case MDG_LDST_ST_IMAGE_F32:
	case MDG_LDST_ST_IMAGE_U32:
	case MDG_LDST_ST_IMAGE_S32:
		if (!inside)
			return 0;            /* dropped, as robust stores */
		memcpy(ch, data->u32, sizeof(ch));
		break;
	case MDG_LDST_ST_IMAGE_F16:
		if (!inside)
			return 0;
		for (unsigned int c = 0; c < 4; c++)
			ch[c] = sgpu_f16_to_f32(data->u16[c]);
		break;
	default:                     /* the loads */
		memset(raw, 0, sizeof(raw));
		if (inside) {
			code = sgpu_mem_read(ex, im.base + off, raw,
					     im.fmt.bytes);
			if (code)
				return code;
		}
		sgpu_tex_unpack(&im.fmt, raw, ch);
		if (op == MDG_LDST_LD_IMAGE_F16) {
			for (unsigned int c = 0; c < 4; c++)
				result->u16[c] = sgpu_f32_to_f16(ch[c],
								 SGPU_RTE);
		} else {
			memcpy(result->u32, ch, sizeof(ch));
		}
		return 0;
	}
	sgpu_tex_pack(&im.fmt, ch, raw);
	return sgpu_mem_write(ex, im.base + off, raw, im.fmt.bytes);
}
