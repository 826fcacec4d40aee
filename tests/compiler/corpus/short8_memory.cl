/* SPDX-License-Identifier: MIT */
/*
 * short8 and ushort8 moved as whole 128-bit accesses: vload8/vstore8 on
 * short pointers (the index proves 16-byte alignment), short8 pointers,
 * a private array with a variable index and a __local tile. One vload8 at
 * an odd element offset is only 2-byte aligned: its value and what it
 * flows into take the four-lane pieces, next to the whole ones.
 */
kernel void short8_memory(global const short *a, global const ushort8 *b,
			  global short *out, local short8 *tile)
{
	size_t i = get_global_id(0), l = get_local_id(0);
	short8 x = vload8(i, a);
	ushort8 u = b[i];
	short8 arr[4];
	short8 odd = vload8(0, a + 8 * i + 1);

	for (int k = 0; k < 4; k++)
		arr[k] = x + (short8)((short)k);
	tile[l] = x ^ as_short8(u);
	barrier(CLK_LOCAL_MEM_FENCE);
	vstore8(arr[(i >> 2) & 3] - tile[l ^ 1], 4 * i, out);
	vstore8(as_short8(u * (ushort)5), 4 * i + 1, out);
	vstore8(odd * (short)3, 4 * i + 2, out);
	((global short8 *)out)[4 * i + 3] = min(x, as_short8(u)) & tile[(l + 5) & 63];
}
