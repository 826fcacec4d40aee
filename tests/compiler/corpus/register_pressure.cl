/* SPDX-License-Identifier: MIT */
/*
 * High register pressure: sixteen float4 values, then sixteen results that
 * each need values loaded far apart, all live until the end.
 */
#pragma OPENCL FP_CONTRACT OFF
#define LOAD(k) float4 a##k = in[16 * i + k]
#define MIX(k, p, q) float4 m##k = a##k * a##p - a##q
#define STORE(k, p) out[16 * i + k] = m##k + m##p

kernel void register_pressure(global const float4 *in, global float4 *out)
{
	size_t i = get_global_id(0);

	LOAD(0); LOAD(1); LOAD(2); LOAD(3); LOAD(4); LOAD(5); LOAD(6); LOAD(7);
	LOAD(8); LOAD(9); LOAD(10); LOAD(11); LOAD(12); LOAD(13); LOAD(14);
	LOAD(15);
	MIX(0, 5, 11); MIX(1, 6, 12); MIX(2, 7, 13); MIX(3, 8, 14);
	MIX(4, 9, 15); MIX(5, 10, 0); MIX(6, 11, 1); MIX(7, 12, 2);
	MIX(8, 13, 3); MIX(9, 14, 4); MIX(10, 15, 5); MIX(11, 0, 6);
	MIX(12, 1, 7); MIX(13, 2, 8); MIX(14, 3, 9); MIX(15, 4, 10);
	STORE(0, 15); STORE(1, 14); STORE(2, 13); STORE(3, 12);
	STORE(4, 11); STORE(5, 10); STORE(6, 9); STORE(7, 8);
	STORE(8, 7); STORE(9, 6); STORE(10, 5); STORE(11, 4);
	STORE(12, 3); STORE(13, 2); STORE(14, 1); STORE(15, 0);
}
