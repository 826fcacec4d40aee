/* SPDX-License-Identifier: MIT */
/* Early returns, one of which leaves the output untouched. */
kernel void early_return(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	int x = in[i];

	if (x < -1000) {
		out[i] = -1;
		return;
	}
	if ((x & 7) == 0)
		return;
	for (int k = 0; k < 8; k++) {
		if (x > 1000000 * k)
			continue;
		out[i] = k;
		return;
	}
	out[i] = 100;
}
