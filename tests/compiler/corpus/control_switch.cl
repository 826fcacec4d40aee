/* SPDX-License-Identifier: MIT */
/* switch with fall-through, break and default. */
kernel void control_switch(global const uint *in, global uint *out)
{
	size_t i = get_global_id(0);
	uint x = in[i], r = 1;

	switch (x % 7) {
	case 0:
		r = x;
		break;
	case 1:
		r += 10;
		/* fall through */
	case 2:
		r *= 3;
		break;
	case 4:
		r = x >> 4;
		break;
	default:
		r = ~x;
	}
	out[i] = r;
}
