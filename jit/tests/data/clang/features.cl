typedef struct { float4 a; int b[3]; char c; } T;
__constant float ctab[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__global int gcount = 5;
__global float garr[16];
int helper(__generic int *p, int x) { return *p + x; }
float fold3(float3 v) { return v.x + v.y * v.z; }
__kernel void feats(__global int *out, __global float *f, __local float *scratch, __constant float *cf, T t, uint3 u3, __global half *h, int sel) {
  __local int lbuf[32];
  size_t gid = get_global_id(0);
  size_t lid = get_local_id(0);
  lbuf[lid % 32] = (int)gid;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  atomic_fetch_add_explicit((volatile __global atomic_int*)out, 1, memory_order_relaxed, memory_scope_device);
  atomic_inc(out + 1);
  atomic_cmpxchg(out + 2, 0, 1);
  int priv[4] = {1,2,3,4};
  out[3] = helper(&priv[sel & 3], lbuf[(lid + 1) % 32]) + gcount;
  float4 v = vload4(0, f) + t.a;
  vstore4(v * 2.0f, 1, f);
  float hv = vload_half(0, h);
  vstore_half(hv + 1.0f, 1, h);
  switch (sel) { case 0: out[4] = 1; break; case 1: out[4] = 7; break; case 5: out[4] = 9; break; default: out[4] = -1; }
  float x = select(1.0f, 2.0f, sel > 3);
  out[5] = convert_int_sat(x * 1e10f) + t.b[sel & 1] + t.c;
  out[6] = work_group_reduce_add((int)lid);
  out[7] = sub_group_reduce_add((int)lid);
  garr[gid % 16] = fold3(convert_float3(u3)) + ctab[sel & 3] + cf[0] + scratch[0];
  if (gid == 0) printf("hello %d\n", sel);
  event_t e = async_work_group_copy(scratch, f, 8, 0);
  wait_group_events(1, &e);
  mem_fence(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < sel; i++) { if (out[i] == 3) continue; out[i] ^= i; }
}
