// Kernels with many arguments of mixed kinds: global, constant and local
// pointers, scalars of every width, vectors (including 3- and 16-wide), a
// struct by value; interleaved so that sizes and alignments vary between
// neighbours.

typedef struct {
    int a;
    char b;
    float c[3];
    long d;
} mixed_t;

kernel void many_mixed(global float *out,              // 0
                       char c,                         // 1
                       global const int *in,           // 2
                       short s,                        // 3
                       local float *scratch,           // 4
                       int i32,                        // 5
                       constant float *coeff,          // 6
                       long i64,                       // 7
                       uchar uc,                       // 8
                       float f,                        // 9
                       ushort us,                      // 10
                       float2 f2,                      // 11
                       uint u32,                       // 12
                       int3 v3,                        // 13
                       ulong u64,                      // 14
                       float4 f4,                      // 15
                       mixed_t st,                     // 16
                       char16 c16,                     // 17
                       global uchar *bytes,            // 18
                       local int *counts,              // 19
                       global const void *raw,         // 20
                       float8 f8,                      // 21
                       ulong4 u4,                      // 22
                       int last)                       // 23
{
    size_t g = get_global_id(0);
    size_t l = get_local_id(0);
    scratch[l] = f * (float)in[g];
    counts[l] = (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = scratch[(l + 1) % get_local_size(0)] + (float)counts[0];
    acc += (float)c + (float)s + (float)i32 + (float)i64 + (float)uc + (float)us + (float)u32 + (float)u64;
    acc += f2.x + f2.y + (float)(v3.x + v3.y + v3.z) + f4.w + coeff[g & 3];
    acc += (float)st.a + (float)st.b + st.c[2] + (float)st.d;
    acc += (float)c16.sF + f8.s7 + (float)u4.w + (float)last;
    acc += (float)((global const uchar *)raw)[g];
    out[g] = acc;
    bytes[g] = (uchar)acc;
}

// The same kinds in a kernel that only forwards them to a helper.
__attribute__((noinline)) long fold(char a, short b, int c, long d, uchar e, ushort f, uint g, ulong h) {
    return a + b + c + d + e + f + g + (long)h;
}

kernel void forwarded(char a, short b, int c, long d, uchar e, ushort f, uint g, ulong h,
                      global long *out, local long *tmp, constant long *k) {
    size_t l = get_local_id(0);
    tmp[l] = fold(a, b, c, d, e, f, g, h) + k[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[0];
}
