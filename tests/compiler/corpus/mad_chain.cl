/* SPDX-License-Identifier: MIT */
/*
 * Bench: a dependent chain of mad() per work-item, the arithmetic clpeak's
 * compute-sp times. The values leave the float range within a few rounds,
 * so most lanes compute on infinities, and lanes whose signs mix reach
 * NaN (inf - inf): the special values must not be slower than the rest.
 */
kernel void mad_chain(global float4 *out, float a, uint rounds)
{
	float4 x = (float4)(a, -a, a + 1.0f, 0.5f - a);
	float4 y = (float4)((float)get_local_id(0) * 0.25f);

	for (uint i = 0; i < rounds; i++) {
		x = mad(y, x, y);
		y = mad(x, y, x);
		x = mad(y, x, y);
		y = mad(x, y, x);
		x = mad(y, x, y);
		y = mad(x, y, x);
		x = mad(y, x, y);
		y = mad(x, y, x);
	}
	out[get_global_id(0)] = y;
}
