/* SPDX-License-Identifier: MIT */
/*
 * 200 one-byte arguments and a buffer: more than the 128 the binary once
 * allowed, well within CL_DEVICE_MAX_PARAMETER_SIZE (1024 bytes). An
 * order-sensitive hash of them shows each one arrived in its place.
 */
#define ARGS10(p) uchar p##0, uchar p##1, uchar p##2, uchar p##3, \
	uchar p##4, uchar p##5, uchar p##6, uchar p##7, uchar p##8, uchar p##9
#define H(x) s = s * 31u + (x);
#define HASH10(p) H(p##0) H(p##1) H(p##2) H(p##3) H(p##4) H(p##5) \
	H(p##6) H(p##7) H(p##8) H(p##9)

kernel void many_args(global uint *out,
		      ARGS10(a), ARGS10(b), ARGS10(c), ARGS10(d),
		      ARGS10(e), ARGS10(f), ARGS10(g), ARGS10(h),
		      ARGS10(i), ARGS10(j), ARGS10(k), ARGS10(l),
		      ARGS10(m), ARGS10(n), ARGS10(o), ARGS10(p),
		      ARGS10(q), ARGS10(r), ARGS10(s), ARGS10(t))
{
	uint s = 0;

	HASH10(a) HASH10(b) HASH10(c) HASH10(d) HASH10(e)
	HASH10(f) HASH10(g) HASH10(h) HASH10(i) HASH10(j)
	HASH10(k) HASH10(l) HASH10(m) HASH10(n) HASH10(o)
	HASH10(p) HASH10(q) HASH10(r) HASH10(s) HASH10(t)
	out[0] = s;
}
