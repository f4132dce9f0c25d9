// Conversions between double and every integer type, float and half, with
// every rounding mode and saturation. tests/exec_fp64_convert.rs checks
// them bit-exactly against references written there.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// double -> T: results 0..9 are convert_T, _rte, _rtz, _rtp, _rtn, then
// the same with _sat; written as long (ulong's bits for ulong).
#define TO_INT(T) \
    kernel void d_to_##T(global const double *a_, global long *o) { \
        size_t i = get_global_id(0), n = get_global_size(0); \
        double a = a_[i]; \
        o[0 * n + i] = (long)convert_##T(a); \
        o[1 * n + i] = (long)convert_##T##_rte(a); \
        o[2 * n + i] = (long)convert_##T##_rtz(a); \
        o[3 * n + i] = (long)convert_##T##_rtp(a); \
        o[4 * n + i] = (long)convert_##T##_rtn(a); \
        o[5 * n + i] = (long)convert_##T##_sat(a); \
        o[6 * n + i] = (long)convert_##T##_sat_rte(a); \
        o[7 * n + i] = (long)convert_##T##_sat_rtz(a); \
        o[8 * n + i] = (long)convert_##T##_sat_rtp(a); \
        o[9 * n + i] = (long)convert_##T##_sat_rtn(a); \
    }

// T -> double: the input's low bits as T, converted with the default mode,
// _rte, _rtz, _rtp, _rtn.
#define FROM_INT(T) \
    kernel void from_##T(global const long *a_, global double *o) { \
        size_t i = get_global_id(0), n = get_global_size(0); \
        T a = (T)a_[i]; \
        o[0 * n + i] = convert_double(a); \
        o[1 * n + i] = convert_double_rte(a); \
        o[2 * n + i] = convert_double_rtz(a); \
        o[3 * n + i] = convert_double_rtp(a); \
        o[4 * n + i] = convert_double_rtn(a); \
    }

TO_INT(char) TO_INT(uchar) TO_INT(short) TO_INT(ushort) TO_INT(int) TO_INT(uint) TO_INT(long) TO_INT(ulong)
FROM_INT(char) FROM_INT(uchar) FROM_INT(short) FROM_INT(ushort) FROM_INT(int) FROM_INT(uint) FROM_INT(long) FROM_INT(ulong)

// double -> float with every mode, float -> double, and double -> half
// (vstore_half and vstore_half_r with every mode, vstore_half4 on double4).
kernel void floats(global const double *a_, global float *of, global double *od, global half *oh) {
    size_t i = get_global_id(0), n = get_global_size(0);
    double a = a_[i];
    of[0 * n + i] = (float)a;
    of[1 * n + i] = convert_float_rte(a);
    of[2 * n + i] = convert_float_rtz(a);
    of[3 * n + i] = convert_float_rtp(a);
    of[4 * n + i] = convert_float_rtn(a);
    od[i] = (double)of[2 * n + i];
    vstore_half(a, 0 * n + i, oh);
    vstore_half_rte(a, 1 * n + i, oh);
    vstore_half_rtz(a, 2 * n + i, oh);
    vstore_half_rtp(a, 3 * n + i, oh);
    vstore_half_rtn(a, 4 * n + i, oh);
}

kernel void to_half4(global const double4 *a, global half *oh) {
    size_t i = get_global_id(0);
    vstore_half4(a[i], i, oh);
    vstore_half4_rtz(a[i], i + get_global_size(0), oh);
}

// Vector conversions: double4 <-> int4 / ulong4 / float4.
kernel void vectors(global const double4 *a, global int4 *oi, global ulong4 *ou, global float4 *of,
                    global double4 *od) {
    size_t i = get_global_id(0);
    oi[i] = convert_int4_sat_rte(a[i]);
    ou[i] = convert_ulong4_sat(a[i]);
    of[i] = convert_float4_rtp(a[i]);
    od[i] = convert_double4(oi[i]) + convert_double4(of[i]);
}
