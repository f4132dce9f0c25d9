// Structs by value: as kernel arguments (a struct argument, a nested one),
// passed to and returned from noinline helpers, copied, assigned member-wise,
// and compared; unions by value.

typedef struct {
    float x, y;
} vec2f;

typedef struct {
    int id;
    vec2f pos;
    char tag;
    long big;      // 8-byte aligned after padding
    uchar4 color;
} particle;

typedef struct {
    particle p;
    int counts[4];
} nested;

typedef union {
    float f;
    uint u;
    uchar b[4];
} bits32;

__attribute__((noinline)) vec2f add2(vec2f a, vec2f b) {
    vec2f r = {a.x + b.x, a.y + b.y};
    return r;
}

__attribute__((noinline)) particle step(particle p, float dt) {
    p.pos = add2(p.pos, (vec2f){dt, -dt});
    p.big += p.id;
    p.color.w = (uchar)p.tag;
    return p;
}

// A struct kernel argument (passed by value: clSetKernelArg with sizeof(particle)).
kernel void struct_arg(particle p, global particle *out, float dt) {
    size_t i = get_global_id(0);
    particle q = step(p, dt * (float)i);
    out[i] = q;
}

kernel void nested_arg(nested n, global int *out) {
    size_t i = get_global_id(0);
    int s = n.p.id + n.p.tag;
    for (int k = 0; k < 4; k++)
        s += n.counts[k];
    out[i] = s + (int)n.p.pos.x + (int)n.p.big;
}

kernel void struct_copy(global const particle *in, global particle *out) {
    size_t i = get_global_id(0);
    particle a = in[i];
    particle b = a;
    b.id = a.id + 1;
    b.pos.x = a.pos.y;
    b.pos.y = a.pos.x;
    out[i] = (a.id == b.id - 1 && a.tag == b.tag) ? b : a;
}

kernel void union_pun(global float *f, global uint *u) {
    size_t i = get_global_id(0);
    bits32 v;
    v.f = f[i];
    u[i] = v.u ^ v.b[3];
    v.b[0] = 0x7f;
    f[i] = v.f;
}

// A small struct returned in registers and a large one returned through memory.
typedef struct { int q, r; } divmod_t;
typedef struct { float m[16]; } mat4;

__attribute__((noinline)) divmod_t divmod(int a, int b) {
    divmod_t d = {a / b, a % b};
    return d;
}

__attribute__((noinline)) mat4 transpose(mat4 a) {
    mat4 t;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            t.m[c * 4 + r] = a.m[r * 4 + c];
    return t;
}

kernel void struct_return(global const int *a, global int2 *out, global mat4 *mats) {
    size_t i = get_global_id(0);
    divmod_t d = divmod(a[i], (a[i + 1] & 15) + 1);
    out[i] = (int2)(d.q, d.r);
    mats[i] = transpose(mats[i]);
}
