// Structs and arrays in memory: arrays of structs in global memory, a
// struct of arrays, member pointers, packed and aligned structs, pointers to
// struct members passed around, sizeof/offsetof-style arithmetic.

typedef struct {
    float3 pos;
    float mass;
    int neighbours[3];
} body;

typedef struct __attribute__((packed)) {
    char c;
    int i;
    short s;
} packed_t;

typedef struct __attribute__((aligned(32))) {
    int a;
    float b;
} aligned_t;

typedef struct {
    float x[64];
    float y[64];
} soa;

kernel void aos_update(global body *bodies, int n) {
    size_t i = get_global_id(0);
    global body *b = &bodies[i];
    float3 acc = (float3)(0.0f);
    for (int k = 0; k < 3; k++) {
        int j = b->neighbours[k];
        if (j >= 0 && j < n)
            acc += bodies[j].pos * bodies[j].mass;
    }
    b->pos += acc * 0.01f;
}

kernel void soa_update(global soa *s, float dt) {
    size_t i = get_global_id(0) & 63;
    s->x[i] += dt * s->y[i];
    global float *py = &s->y[i];
    *py *= 0.5f;
}

kernel void packed_access(global packed_t *p, global int *out) {
    size_t i = get_global_id(0);
    out[i] = p[i].c + p[i].i + p[i].s + (int)sizeof(packed_t);
    p[i].i = out[i];
}

kernel void aligned_access(global aligned_t *p, global int *out) {
    size_t i = get_global_id(0);
    out[i] = p[i].a + (int)p[i].b + (int)sizeof(aligned_t) + (int)__alignof__(aligned_t);
}

__attribute__((noinline)) void bump(global int *member, private float *f) {
    *member += 1;
    *f *= 2.0f;
}

kernel void member_pointers(global body *b, global float *out) {
    size_t i = get_global_id(0);
    float local_copy = b[i].mass;
    bump(&b[i].neighbours[1], &local_copy);
    global char *base = (global char *)&b[i];
    global char *field = (global char *)&b[i].mass;
    out[i] = local_copy + (float)(field - base);
}

// A private array of structs, indexed dynamically.
kernel void private_struct_array(global const int *idx, global float *out) {
    size_t i = get_global_id(0);
    struct { int key; float val; } table[8];
    for (int k = 0; k < 8; k++) {
        table[k].key = k * 3;
        table[k].val = (float)k * 0.5f;
    }
    int j = idx[i] & 7;
    table[j].val += 1.0f;
    out[i] = table[j].val + (float)table[7 - j].key;
}
