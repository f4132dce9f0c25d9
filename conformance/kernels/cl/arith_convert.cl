// Conversions: every integer type to every other (plain and saturating,
// scalar and 4-wide), float to every integer type under every rounding
// mode with and without saturation, every integer type to float under
// every rounding mode, each at every vector width for one pair, as_type
// reinterpretations between types of different component counts, and
// pointer <-> integer casts. One work-item converts one element.

#define CV(NAME, S, D, CONV)                                                   \
    kernel void NAME(global const S *a, global D *o) {                         \
        size_t i = get_global_id(0);                                           \
        o[i] = CONV(a[i]);                                                     \
    }

// Integer to integer, plain and _sat, scalar and 4-wide.
#define II(S, D)                                                               \
    CV(ii_##S##_##D, S, D, convert_##D)                                        \
    CV(ii_##S##_##D##_sat, S, D, convert_##D##_sat)                            \
    CV(ii_##S##4_##D, S##4, D##4, convert_##D##4)                              \
    CV(ii_##S##4_##D##_sat, S##4, D##4, convert_##D##4_sat)
#define II_ALL(S)                                                              \
    II(S, char) II(S, uchar) II(S, short) II(S, ushort)                        \
    II(S, int) II(S, uint) II(S, long) II(S, ulong)
II_ALL(char)
II_ALL(uchar)
II_ALL(short)
II_ALL(ushort)
II_ALL(int)
II_ALL(uint)
II_ALL(long)
II_ALL(ulong)

// Float to integer under every rounding mode, plain and saturating.
#define FI(D)                                                                  \
    CV(fi_##D, float, D, convert_##D)                                          \
    CV(fi_##D##_rte, float, D, convert_##D##_rte)                              \
    CV(fi_##D##_rtz, float, D, convert_##D##_rtz)                              \
    CV(fi_##D##_rtp, float, D, convert_##D##_rtp)                              \
    CV(fi_##D##_rtn, float, D, convert_##D##_rtn)                              \
    CV(fi_##D##_sat, float, D, convert_##D##_sat)                              \
    CV(fi_##D##_sat_rte, float, D, convert_##D##_sat_rte)                      \
    CV(fi_##D##_sat_rtz, float, D, convert_##D##_sat_rtz)                      \
    CV(fi_##D##_sat_rtp, float, D, convert_##D##_sat_rtp)                      \
    CV(fi_##D##_sat_rtn, float, D, convert_##D##_sat_rtn)
FI(char)
FI(uchar)
FI(short)
FI(ushort)
FI(int)
FI(uint)
FI(long)
FI(ulong)

// Integer to float under every rounding mode.
#define IF(S)                                                                  \
    CV(if_##S, S, float, convert_float)                                        \
    CV(if_##S##_rte, S, float, convert_float_rte)                              \
    CV(if_##S##_rtz, S, float, convert_float_rtz)                              \
    CV(if_##S##_rtp, S, float, convert_float_rtp)                              \
    CV(if_##S##_rtn, S, float, convert_float_rtn)
IF(char)
IF(uchar)
IF(short)
IF(ushort)
IF(int)
IF(uint)
IF(long)
IF(ulong)

// Every vector width of one conversion of each kind.
#define WIDTHS(N)                                                              \
    CV(w_fi_int##N##_sat_rtn, float##N, int##N, convert_int##N##_sat_rtn)     \
    CV(w_fi_uchar##N##_sat_rte, float##N, uchar##N, convert_uchar##N##_sat_rte) \
    CV(w_if_long##N##_rtz, long##N, float##N, convert_float##N##_rtz)         \
    CV(w_if_uint##N##_rtp, uint##N, float##N, convert_float##N##_rtp)         \
    CV(w_ii_int##N##_char##N##_sat, int##N, char##N, convert_char##N##_sat)   \
    CV(w_ii_short##N##_ulong##N, short##N, ulong##N, convert_ulong##N)
WIDTHS()
WIDTHS(2)
WIDTHS(3)
WIDTHS(4)
WIDTHS(8)
WIDTHS(16)

// Reinterpretations. The operand is computed (x ^ k) so the bitcast is of
// a value, not of a pointer.
#define AS(NAME, S, D)                                                         \
    kernel void NAME(global const S *a, global const S *k, global D *o) {      \
        size_t i = get_global_id(0);                                           \
        o[i] = as_##D(a[i] ^ k[0]);                                            \
    }
AS(as_long_int2, long, int2)
AS(as_int2_long, int2, long)
AS(as_uint_uchar4, uint, uchar4)
AS(as_uchar4_uint, uchar4, uint)
AS(as_int4_float4, int4, float4)
AS(as_long2_char16, long2, char16)
AS(as_char16_ulong2, char16, ulong2)
AS(as_short8_int4, short8, int4)
AS(as_int4_short8, int4, short8)
AS(as_ushort2_float, ushort2, float)
AS(as_uint_float, uint, float)
AS(as_long4_int8, long4, int8)
AS(as_short4_long, short4, long)
// 3-component vectors take the room of 4; the padding lane's bytes are
// undefined.
AS(as_int3_float4, int3, float4)
AS(as_int3_char16, int3, char16)
AS(as_short3_long, short3, long)
AS(as_char3_int, char3, int)

// Pointers to integers and back: byte offsets of elements, and loads
// through a pointer made from an integer.
kernel void ptr_int(global const int *a, global long *o) {
    size_t i = get_global_id(0);
    global const int *p = a + i;
    ulong u = (ulong)p;
    o[2 * i] = (long)(u - (ulong)a);
    o[2 * i + 1] = *(global const int *)(u + 4 * (ulong)(a[i] & 3) - 4 * (ulong)i);
}

// Pointers to half (a storage-only type): element steps of 2 bytes, and
// halves moved as their bits.
kernel void ptr_half(global const ushort *src, global long *o, global half *h) {
    size_t i = get_global_id(0);
    global half *p = h + i;
    o[i] = (long)((ulong)p - (ulong)h);
    *(global ushort *)(h + 2 * i + 1) = src[i];
}
