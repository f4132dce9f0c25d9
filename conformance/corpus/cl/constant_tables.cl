// __constant memory: program-scope __constant tables of scalars, vectors and
// structs, indexed statically and dynamically, __constant pointer kernel
// arguments, __constant pointers passed to helpers.

constant uint crc_table[16] = {
    0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
    0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

constant float4 palette[4] = {
    (float4)(0.0f, 0.0f, 0.0f, 1.0f),
    (float4)(1.0f, 0.0f, 0.0f, 1.0f),
    (float4)(0.0f, 1.0f, 0.0f, 1.0f),
    (float4)(0.0f, 0.0f, 1.0f, 1.0f),
};

typedef struct {
    char name[8];
    int value;
    float scale;
} entry;

constant entry entries[3] = {
    {"alpha", 1, 0.5f},
    {"beta", 2, 1.5f},
    {"gamma", 3, 2.5f},
};

constant short small_table[5] = {-1, 2, -3, 4, -5};
constant ulong wide_table[3] = {0xffffffffffffffffUL, 0x8000000000000000UL, 1};
constant char message[] = "clift";

kernel void crc32(global const uchar *data, global uint *out, uint len) {
    size_t i = get_global_id(0);
    uint crc = 0xffffffffu;
    for (uint k = 0; k < len; k++) {
        uchar b = data[i * len + k];
        crc = crc_table[(crc ^ b) & 15] ^ (crc >> 4);
        crc = crc_table[(crc ^ (b >> 4)) & 15] ^ (crc >> 4);
    }
    out[i] = ~crc;
}

kernel void lookup(global const int *idx, global float4 *color, global float *val) {
    size_t i = get_global_id(0);
    int k = idx[i];
    color[i] = palette[k & 3];
    constant entry *e = &entries[k % 3];
    val[i] = e->scale * (float)e->value + (float)e->name[0] + (float)small_table[k % 5] +
             (float)(wide_table[k % 3] >> 60) + (float)message[k % 5];
}

__attribute__((noinline)) float weighted(constant float *w, const global float *x, int n) {
    float s = 0.0f;
    for (int k = 0; k < n; k++)
        s += w[k] * x[k];
    return s;
}

kernel void constant_arg(constant float *weights, constant int4 *params, global const float *x,
                         global float *out, int n) {
    size_t i = get_global_id(0);
    out[i] = weighted(weights, x + i, n) + (float)params[0].y;
}
