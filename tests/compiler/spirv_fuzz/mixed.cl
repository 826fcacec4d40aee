/* SPDX-License-Identifier: MIT */
/* Structs, __constant tables, __local, switch, libclc math, atomics. */
struct S { int a; float b; char c; };
__constant float tab[4] = {1,2,3,4};
__kernel void k(__global float4 *out, __global const float *in, __local int *l, int n, __constant struct S *s, float4 v) {
  int i = get_global_id(0);
  __local float tile[16];
  float priv[8];
  for (int j = 0; j < 8; j++) priv[j] = in[j+i];
  tile[get_local_id(0)] = exp(in[i]) + tab[i&3] + priv[n&7];
  barrier(CLK_LOCAL_MEM_FENCE);
  float4 x = vload4(i, in);
  atomic_add(l, 1);
  switch (n) { case 1: x.x = 2; break; case 7: x.y = pow(x.z, 3.0f); break; default: break; }
  out[i] = x + tile[i & 15] + s->b + (float4)(sqrt(v.x)) + exp(v) + pow(v, x);
}
