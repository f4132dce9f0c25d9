// Kernels of benches/benches/math.rs: the throughput of the common math
// built-ins, one call per work-item (exec_builtins_* check their results).
kernel void math_sin(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = sin(x[i]); }
kernel void math_cos(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = cos(x[i]); }
kernel void math_exp(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = exp(x[i]); }
kernel void math_log(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = log(x[i]); }
kernel void math_pow(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = pow(x[i], 1.37f); }
kernel void math_sqrt(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = sqrt(x[i]); }
kernel void math_erf(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = erf(x[i]); }
kernel void math_rsqrt(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = rsqrt(x[i]); }
kernel void math_atan(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = atan(x[i]); }
kernel void math_tanh(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = tanh(x[i] * 0.2f); }
kernel void math_asinh(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = asinh(x[i]); }
kernel void math_atan2(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = atan2(x[i], 5.0f - x[i]); }
kernel void math_erfc(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = erfc(x[i]); }
kernel void math_cbrt(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = cbrt(x[i]); }
kernel void math_hypot(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = hypot(x[i], 5.0f - x[i]); }
kernel void math_round(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = round(x[i] * 3.3f); }
kernel void math_smoothstep(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = smoothstep(0.5f, 9.0f, x[i]); }
kernel void math_normalize(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = normalize((float2)(x[i], 1.0f)).x; }
kernel void math_convert_rte(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = (float)convert_int_rte(x[i] * 1000.0f); }
kernel void math_convert_long(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = (float)(long)(x[i] * 1000.0f); }
kernel void math_powr(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = powr(x[i], 2.5f); }
kernel void math_rootn(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = rootn(x[i], 3); }
kernel void math_logb(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = logb(x[i]) + (float)ilogb(x[i] * 3.0f); }
kernel void math_index_modulo(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = x[i] + (float)(i % 1000); }
kernel void math_index_int(global const float *x, global float *y) { int i = get_global_id(0); y[i] = x[i] * 3.0f + 1.0f; }
kernel void math_sincos(global const float *x, global float *y) { size_t i = get_global_id(0); float c; float s = sincos(x[i], &c); y[i] = s + c; }
kernel void math_fract(global const float *x, global float *y) { size_t i = get_global_id(0); float f; float r = fract(x[i] * 3.7f, &f); y[i] = r + f; }
kernel void math_vload_half(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = vload_half(i, (global const half *)x) * 2.0f; }
kernel void math_vstore_half(global const float *x, global float *y) { size_t i = get_global_id(0); vstore_half(x[i] * 3.0f, i, (global half *)y); }
kernel void math_fmod(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = fmod(x[i] * 7.3f, 1.7f); }
typedef struct { float x, y, z; } point3;
kernel void math_points3(global const float *x, global float *y) { size_t i = get_global_id(0); global const point3 *p = (global const point3 *)x; y[i] = p[i].x * p[i].x + p[i].y * p[i].y + p[i].z * p[i].z; }
kernel void math_vload3(global const float *x, global float *y) { size_t i = get_global_id(0); float3 v = vload3(i, x); y[i] = v.x * v.x + v.y * v.y + v.z * v.z; }
kernel void math_rotate_ushort(global const float *x, global float *y) { size_t i = get_global_id(0); global const ushort *p = (global const ushort *)x; ((global ushort *)y)[i] = rotate(p[i], (ushort)(p[i] >> 4)) + popcount(p[i]); }
kernel void math_mad_sat(global const float *x, global float *y) { size_t i = get_global_id(0); int v = as_int(x[i]); ((global int *)y)[i] = mad_sat(v, v >> 7, v ^ 0x5a5a5a5a); }
kernel void math_rotate_ulong(global const float *x, global float *y) { size_t i = get_global_id(0); ulong v = (ulong)as_uint(x[i]) * 0x9E3779B97F4A7C15UL; v = rotate(v, 13UL) ^ rotate(v, 40UL); ((global uint *)y)[i] = (uint)v ^ (uint)(v >> 32); }
kernel void math_index_reversed(global const float *x, global float *y) { int i = get_global_id(0), n = get_global_size(0); y[i] = x[n - 1 - i] * 2.0f + 1.0f; }
kernel void math_index_selected(global const float *x, global float *y) { int i = get_global_id(0), n = get_global_size(0); y[i] = x[i > 0 ? i - 1 : i] + x[i] * 2.0f + x[i + 1 < n ? i + 1 : i]; }
kernel void math_index_ring(global const float *x, global float *y) { int i = get_global_id(0), n = get_global_size(0); y[i] = x[(i + 7) % n] * 2.0f + x[(i + n - 1) % n]; }
kernel void math_index_clamped(global const float *x, global float *y) { int i = get_global_id(0), n = get_global_size(0); y[i] = x[clamp(i - 1, 0, n - 1)] + x[i] * 2.0f + x[min(i + 1, n - 1)]; }
kernel void math_index_float(global const float *x, global float *y) { size_t i = get_global_id(0); y[i] = x[i] * 1e-6f + (float)i * 0.5f; }
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void math_atan2pi_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = atan2pi(x[i], 5.0 - x[i]) + acospi(x[i] * 0.1); }
kernel void math_length_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = length((double3)(x[i], 5.0 - x[i], 1.5)); }
kernel void math_exp_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = exp(x[i]); }
kernel void math_log_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = log(x[i]); }
kernel void math_sin_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = sin(x[i]); }
kernel void math_pow_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = pow(x[i], 1.37); }
kernel void math_erf_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = erf(x[i]); }
kernel void math_tan_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = tan(x[i]); }
kernel void math_atan_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = atan(x[i]); }
kernel void math_asin_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = asin(x[i] * 0.1); }
kernel void math_expm1_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = expm1(x[i]); }
kernel void math_tanh_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = tanh(x[i] * 0.2); }
kernel void math_cosh_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = cosh(x[i]); }
kernel void math_log1p_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = log1p(x[i]); }
kernel void math_atan2_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = atan2(x[i], 5.0 - x[i]); }
kernel void math_asinh_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = asinh(x[i]); }
kernel void math_erfc_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = erfc(x[i]); }
kernel void math_cbrt_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = cbrt(x[i]); }
kernel void math_hypot_double(global const double *x, global double *y) { size_t i = get_global_id(0); y[i] = hypot(x[i], 5.0 - x[i]); }
