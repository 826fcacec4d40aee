/* SPDX-License-Identifier: MIT */
/*
 * Every work-item function, for each dimension, stored at the work-item's
 * linear index within the NDRange (offsets taken away).
 */
kernel void work_items(global uint *out)
{
	size_t lin = 0, stride = 1;
	global uint *o;

	for (uint d = 0; d < 3; d++) {
		lin += (get_global_id(d) - get_global_offset(d)) * stride;
		stride *= get_global_size(d);
	}
	o = out + 24 * lin;
	for (uint d = 0; d < 3; d++) {
		o[d] = get_global_id(d);
		o[3 + d] = get_global_size(d);
		o[6 + d] = get_global_offset(d);
		o[9 + d] = get_local_id(d);
		o[12 + d] = get_local_size(d);
		o[15 + d] = get_group_id(d);
		o[18 + d] = get_num_groups(d);
	}
	o[21] = get_work_dim();
	o[22] = get_global_id(3) + 10 * get_local_size(5);
	o[23] = 0x600D;
}
