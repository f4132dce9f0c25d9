__kernel void producer(__write_only pipe int p, __global int *src) { int v = src[get_global_id(0)]; write_pipe(p, &v); }
__kernel void consumer(__read_only pipe int p, __global int *dst) { int v; if (read_pipe(p, &v) == 0) dst[get_global_id(0)] = v; }
