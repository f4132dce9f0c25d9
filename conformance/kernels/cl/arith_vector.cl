// Vector instructions: element reads and writes at run-time indices of
// every index type (OpVectorExtractDynamic / OpVectorInsertDynamic), vector
// times scalar, dot products, and swizzles (OpVectorShuffle), on every
// vector width of int, float, char and long.

#define DYN(T, N, IDX)                                                         \
    kernel void dyn_##T##N##_##IDX(global const T##N *a, global const IDX *k,  \
                                   global const T *x, global T##N *o) {        \
        size_t i = get_global_id(0), n = get_global_size(0);                   \
        T##N v = a[i];                                                         \
        IDX j = k[i];                                                          \
        T##N e = (T##N)(v[j]);                                                 \
        o[i] = e;                                                              \
        v[(IDX)(j + 1) % N] = x[i];                                            \
        o[n + i] = v;                                                          \
    }

#define DYN_ALL(T)                                                             \
    DYN(T, 2, uchar) DYN(T, 3, ushort) DYN(T, 4, uint) DYN(T, 8, ulong)        \
    DYN(T, 16, int) DYN(T, 4, char) DYN(T, 16, long)
DYN_ALL(int)
DYN_ALL(float)
DYN_ALL(char)
DYN_ALL(long)

#define SCALE(N)                                                               \
    kernel void scale_float##N(global const float##N *a, global const float *s,\
                               global float##N *o) {                           \
        size_t i = get_global_id(0);                                           \
        o[i] = a[i] * s[i];                                                    \
    }
SCALE(2)
SCALE(3)
SCALE(4)
SCALE(8)
SCALE(16)

#define DOT(N)                                                                 \
    kernel void dot_float##N(global const float##N *a, global const float##N *b,\
                             global float *o) {                                \
        size_t i = get_global_id(0);                                           \
        o[i] = dot(a[i], b[i]);                                                \
    }
DOT()
DOT(2)
DOT(3)
DOT(4)

// (odd, even) reorders; the 3-wide one reverses.
#define SWZ(T, N, EXPR)                                                        \
    kernel void swz_##T##N(global const T##N *a, global T##N *o) {             \
        size_t i = get_global_id(0);                                           \
        T##N v = a[i];                                                         \
        o[i] = EXPR;                                                           \
    }
#define SWZ_ALL(T)                                                             \
    SWZ(T, 2, (T##2)(v.odd, v.even)) SWZ(T, 3, v.s201)                         \
    SWZ(T, 4, (T##4)(v.odd, v.even)) SWZ(T, 8, (T##8)(v.odd, v.even))          \
    SWZ(T, 16, (T##16)(v.odd, v.even))
SWZ_ALL(int)
SWZ_ALL(float)
SWZ_ALL(short)
SWZ_ALL(ulong)
