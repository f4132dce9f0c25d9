// The object module with the kernel: every function and the counter are
// defined in other modules (extern declarations become Import).
typedef struct { int a; float b; } pair;

extern float scale(float x);
extern int offset_twice(int i);
extern float pair_sum(const pair *p);
extern global int counter;

kernel void k(global float *out, global const float *in) {
  int i = (int)get_global_id(0);
  pair p = { i, in[i] };
  out[i] = scale(in[i]) + (float)offset_twice(i) + pair_sum(&p) + (float)counter;
}
