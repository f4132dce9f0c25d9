// Structs and arrays as values and in memory: by-value kernel arguments,
// whole-struct copies, helper functions taking and returning structs,
// private arrays with initializers, nested access chains.
typedef struct {
    int a;
    float4 b;
    char c;
    long d;
    float3 e;
} S;

typedef struct {
    short s[3];
    int x;
    S inner[2];
} Outer;

kernel void struct_byval(S s, global float *out) {
    int i = get_global_id(0);
    out[i * 8 + 0] = s.a + i;
    out[i * 8 + 1] = s.b.x;
    out[i * 8 + 2] = s.b.y;
    out[i * 8 + 3] = s.b.z;
    out[i * 8 + 4] = s.b.w;
    out[i * 8 + 5] = s.c;
    out[i * 8 + 6] = (float)s.d;
    out[i * 8 + 7] = s.e.z;
}

kernel void struct_copy(global const S *in, global S *out) {
    int i = get_global_id(0);
    S t = in[i];
    t.a += 1;
    t.b.y *= 2.0f;
    t.e.x = t.c;
    out[i] = t;
}

__attribute__((noinline)) S bump(S s, int k) {
    s.a += k;
    s.d -= k;
    s.e = s.e * 2.0f;
    return s;
}

kernel void struct_call(global const S *in, global S *out) {
    int i = get_global_id(0);
    out[i] = bump(in[i], i);
}

kernel void nested(global Outer *io) {
    int i = get_global_id(0);
    Outer o = io[i];
    o.s[i % 3] += 7;
    o.inner[1].b.w = o.inner[0].a + o.x;
    o.inner[i & 1].d = o.s[0] * 3;
    io[i] = o;
}

kernel void private_array(global int *out, int n) {
    int tab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
    int acc[8];
    int i = get_global_id(0);
    for (int k = 0; k < 8; k++)
        acc[k] = tab[(k + n) & 7] * i;
    out[i] = acc[i & 7] + tab[i % 8];
}

kernel void big_private(global int *out) {
    int big[100] = {1, 2, 3};
    int i = get_global_id(0);
    for (int k = 3; k < 100; k++)
        big[k] = big[k - 1] + big[k - 3] + i;
    out[i] = big[99] + big[i % 100];
}

kernel void zero_private(global int *out, int k) {
    int z[2000] = {0};
    S s = {0};
    int i = get_global_id(0);
    z[(i * 7 + k) % 2000] = i + 1;
    s.b.z = z[k % 2000];
    out[i] = z[i % 2000] + z[(i + 1) % 2000] + (int)s.b.z + s.a + (int)s.d;
}
