typedef struct { float x; int y; char z; } S;
typedef struct __attribute__((packed)) { char c; int i; } P;
typedef struct node { __global struct node *next; int v; } node;
__kernel __attribute__((reqd_work_group_size(8,4,1))) __attribute__((vec_type_hint(float4)))
void k1(__global const float* restrict a, __local int* l, __constant float* c, volatile __global int* v, float3 f3, S s, int n, __global float4* g4) {
  l[0] = n; v[0] = 1; g4[0] = (float4)(a[0] + c[0] + f3.x + s.x);
}
__kernel __attribute__((work_group_size_hint(2,3,4))) void k2(__global int* p, P packed, __global node *list, char ch, ulong8 wide) {
  atomic_inc(p);
  p[1] = packed.i + list->next->v + ch + (int)wide.s7;
}
