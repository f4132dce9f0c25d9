typedef struct { int a; float b[2]; } R;
__constant char msg[] = "value %d\n";
__global int *gptr_table[2];
__global int garray[4] = {1, 2, 3, 4};
__global int *gp = &garray[2];
__constant int *cp = 0;

R make(int x) { R r; r.a = x; r.b[0] = x * 0.5f; r.b[1] = 2.0f; return r; }
int gen(__generic int *p) { return *p * 2; }
void fill(__local int *l, int n) { for (int i = 0; i < n; i++) l[i] = i; }

__kernel void k_more(__global int *out, __global char4 *c4, __global short8 *s8, __global float16 *f16, long sel, __local int *lp) {
  size_t g = get_global_id(0);
  __local int tile[64];
  fill(tile, 64);
  fill(lp, 4);
  work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device);
  int x = out[g];
  __global int *gx = to_global(&out[1]);
  if (gx) x += *gx;
  x += gen(&out[2]);
  x += gen(tile);
  R r = make(x);
  char4 a = c4[g];
  char4 b = a + (char4)(1);
  c4[g] = select(a, b, a > b);
  x += any(a > b) + all(a < b);
  short8 s = s8[g];
  s8[g] = rotate(s, (short8)(3)) + mad_sat(s, s, s);
  float16 f = f16[g];
  f16[g] = f * 2.0f + (float16)(r.b[0]);
  x += convert_int_rte(f.s3) + ctz(x) + clz(x) + popcount(x) + mul24(x, 3) + abs_diff(x, 7);
  x += *gp + garray[sel & 3] + (cp ? *cp : 0);
  switch (sel) { case 0: x++; break; case 1000000000000L: x--; break; case 7: x *= 2; break; }
  int priv[16];
  for (int i = 0; i < 16; i++) priv[i] = i * x;
  R copy = r;
  x += priv[sel & 15] + copy.a;
  x += sub_group_broadcast(x, 0) + sub_group_any(x > 3) + get_sub_group_size() + get_num_sub_groups();
  x += work_group_broadcast(x, 0) + work_group_all(x > 1) + work_group_scan_inclusive_max(x);
  x += (int)get_global_linear_id() + (int)get_local_linear_id() + get_work_dim() + (int)get_global_offset(0) + (int)get_enqueued_local_size(0) + (int)get_num_groups(1);
  atomic_int *ai = (atomic_int *)&out[3];
  x += atomic_load_explicit(ai, memory_order_acquire, memory_scope_work_group);
  atomic_store_explicit(ai, x, memory_order_release);
  int expected = 0;
  atomic_compare_exchange_strong(ai, &expected, 5);
  atomic_flag *fl = (atomic_flag *)&out[4];
  if (!atomic_flag_test_and_set(fl)) atomic_flag_clear(fl);
  x += atomic_fetch_min((atomic_int *)&out[5], 3) + atomic_fetch_max_explicit((atomic_uint *)&out[6], 4u, memory_order_seq_cst);
  atomic_float *af = (atomic_float *)&out[7];
  float fv = atomic_load(af) + atomic_exchange(af, 1.0f);
  x += (int)fv;
  prefetch(out, 4);
  if (g == 12345) printf(msg, x);
  if (g == 99999) { while (1) { x++; if (x == 3) break; } }
  out[g] = x;
}
__kernel void k_calls_kernel(__global int *out, __global char4 *c4, __global short8 *s8, __global float16 *f16, long sel, __local int *lp) {
  k_more(out, c4, s8, f16, sel, lp);
}
