// SPDX-License-Identifier: MIT
// Kernels that exercise sl_launch's side of the launch ABI: by-value and
// pointer arguments, sysvals (global id and offset, local and group ids,
// local size), a __local argument with barriers, and __constant data. The
// host test (tests/launch/test_launch.c) runs them on the model core and
// the guest test (tests/guest/sl_launch_guest.c) through sleipnir.ko; both
// check them against C references. Values stay small integers so float
// sums are exact whatever the order.

// c[i] = a[i] + b[i] * s
kernel void vadd(global const float *a, global const float *b,
		 global float *c, float s)
{
	size_t i = get_global_id(0);

	c[i] = a[i] + b[i] * s;
}

// Each work-group sums its part of in into out[group], in __local memory.
kernel void group_sum(global const float *in, global float *out,
		      local float *tmp)
{
	size_t l = get_local_id(0);

	tmp[l] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (l < s)
			tmp[l] += tmp[l + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (l == 0)
		out[get_group_id(0)] = tmp[0];
}

constant int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };

// x[i - offset] = table[i % 8] * k + i, over a range with a global offset
kernel void lookup(global int *x, int k)
{
	size_t i = get_global_id(0);

	x[i - get_global_offset(0)] = table[i % 8] * k + (int)i;
}

// Images through the launch's texture, sampler and attribute tables: a
// sampled read with a sampler argument, a write without one.
kernel void img_scale(read_only image2d_t src, sampler_t s,
		      write_only image2d_t dst)
{
	int2 p = (int2)(get_global_id(0), get_global_id(1));

	write_imagef(dst, p, read_imagef(src, s, p) * 0.5f);
}

// A constant sampler (clamp to edge) after a sampler argument, and the
// image words' size query.
constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE |
			  CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void img_shift(read_only image2d_t src, sampler_t unused,
		      global float4 *out)
{
	int2 p = (int2)(get_global_id(0), get_global_id(1));

	out[p.y * get_image_width(src) + p.x] =
		read_imagef(src, edge, p - (int2)(1, 1)) +
		(float4)(0.0f * read_imagef(src, unused, p).x);
}
