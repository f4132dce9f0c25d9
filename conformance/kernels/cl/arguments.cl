// Kernel arguments (tests/exec_args.rs): every scalar type, vectors of odd
// sizes, a struct by value, buffers and __local pointers interleaved, so
// each lands at its own alignment in the argument block; and a small kernel
// for checking that arguments are captured at enqueue time.

struct Mixed {
    char a;   // 0
    short b;  // 2
    int c;    // 4
    long d;   // 8
    float e;  // 16
    float4 f; // 32
    char g;   // 48, size 64
};

kernel void many_args(char a, uchar b, short c, ushort d, int e, uint f, long g, ulong h, float i,
                      global long *out, char2 j, short3 k, int4 l, float3 m, long2 n, local int *scratch,
                      struct Mixed s, global const int *in, uchar3 o, float16 p, local long *scratch2, ulong q)
{
    size_t t = get_global_id(0), lid = get_local_id(0);
    scratch[lid] = in[t];
    scratch2[lid] = (long)q;
    long r[24];
    r[0] = a;
    r[1] = b;
    r[2] = c;
    r[3] = d;
    r[4] = e;
    r[5] = f;
    r[6] = g;
    r[7] = (long)h;
    r[8] = (long)(i * 4.0f);
    r[9] = j.x * 1000 + j.y;
    r[10] = k.x + k.y * 100 + k.z * 10000;
    r[11] = l.x + l.y + l.z + l.w;
    r[12] = (long)(m.x + m.y * 2 + m.z * 4);
    r[13] = n.x - n.y;
    r[14] = s.a;
    r[15] = s.b;
    r[16] = s.c;
    r[17] = s.d;
    r[18] = (long)(s.e * 2);
    r[19] = (long)(s.f.x + s.f.y + s.f.z + s.f.w);
    r[20] = s.g;
    r[21] = o.x + o.y * 256 + o.z * 65536;
    r[22] = (long)(p.s0 + p.s5 + p.sa + p.sf);
    r[23] = scratch[lid] + scratch2[lid];
    for (int x = 0; x < 24; x++)
        out[t * 24 + x] = r[x] + (long)t;
}

kernel void add_k(global int *out, int k)
{
    out[get_global_id(0)] += k;
}
