/* SPDX-License-Identifier: MIT */
/*
 * double as data (tests/compiler/test_fp64.c): arguments by value, loads
 * and stores of double..double16 in global, local, private and constant
 * memory (plain and vload/vstore), shuffles, as_type between double and
 * long, select and ?:. Every value is moved bit for bit.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

constant double table[5] = { 1.0, -2.5, 0x1p-1074, 1e308, -0.0 };

kernel void fp64_vectors(global const double *in, global double *out,
			 double k, double2 k2, double4 k4)
{
	size_t i = get_global_id(0);
	global const double *p = in + 31 * i;
	global double *q = out + 40 * i;
	double a = p[0];
	double2 b = vload2(0, p + 1);
	double3 c = vload3(0, p + 3);
	double4 d = ((global const double4 *)in)[i];       /* aligned */
	double8 e = vload8(0, p + 6);
	double16 f = vload16(0, p + 14);

	q[0] = a;
	vstore2(b.yx, 0, q + 1);
	vstore3(c.zxy, 0, q + 3);
	vstore4(d.wzyx, 0, q + 6);
	vstore8(e.s70615243, 0, q + 10);
	vstore16(f.sfedcba9876543210, 0, q + 18);
	q[34] = k;
	q[35] = k2.y;
	q[36] = k4.z;
	q[37] = table[i % 5];
	q[38] = as_double(as_long(a) ^ (long)i);
	q[39] = f.s3;
}

kernel void fp64_spaces(global const double4 *in, global double4 *out,
			constant double2 *c, local double *l)
{
	size_t i = get_global_id(0), lid = get_local_id(0);
	size_t n = get_local_size(0);
	double priv[8];
	double4 v = in[i];

	for (int j = 0; j < 8; j++)
		priv[j] = j < 4 ? v[j & 3] : c[j - 4].y;
	l[lid] = v.x;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[2 * i] = (double4)(priv[(i + 1) & 7], priv[(i + 5) & 7],
			       l[n - 1 - lid], c[i & 3].x);
	out[2 * i + 1] = vload4(lid >> 2, l);
}

kernel void fp64_select(global const double *a, global const double *b,
			global const long *m, global double *out,
			global long *bits)
{
	size_t i = get_global_id(0);
	double2 x = vload2(i, a), y = vload2(i, b);
	long2 mm = vload2(i, m);

	vstore2(select(x, y, mm), i, out);              /* msb of mm */
	out[2 * get_global_size(0) + i] = mm.x & 1 ? x.y : y.x;
	out[3 * get_global_size(0) + i] = shuffle2(x, y, (ulong2)(3, 0)).x;
	bits[i] = as_long(x.x);
	vstore2(as_double2(mm), get_global_size(0) * 2 + i, out);
}
