/* SPDX-License-Identifier: MIT */
/* Nested if/else chains. */
kernel void control_branches(global const int *a, global const int *b,
			     global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i], y = b[i], r;

	if (x > 0) {
		if (y > 0)
			r = x + y;
		else if (y < -100)
			r = x - y;
		else
			r = x * 2;
	} else {
		if ((x & 3) == 0) {
			r = y;
			if (y & 8)
				r ^= 0x55;
		} else {
			r = -x;
		}
	}
	out[i] = r;
}
