// Program-scope variables: __constant tables (scalars, structs, vectors,
// nested arrays), OpenCL 2.0 __global variables that persist across
// launches, pointer initializers.
typedef struct {
    float f;
    int i;
    short s[3];
} E;

constant int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
constant E table[3] = {{1.5f, 10, {1, 2, 3}}, {2.5f, 20, {4, 5, 6}}, {-1.0f, 30, {7, 8, 9}}};
constant float4 vtab[2] = {(float4)(1, 2, 3, 4), (float4)(5, 6, 7, 8)};
constant int grid[2][3] = {{1, 2, 3}, {4, 5, 6}};
constant int *constant cp = &primes[2];

global int counter = 5;
global int zeroed[16];
global int *global gp = &zeroed[3];
global long wide = 0x100000000L;

kernel void read_tables(global int *out) {
    int i = get_global_id(0);
    constant E *e = &table[i % 3];
    out[i] = primes[i % 8] + e->i + e->s[i % 3] + (int)(e->f * 2.0f) + (int)vtab[i & 1].w
           + grid[i & 1][i % 3] + cp[1];
}

kernel void bump(global int *out) {
    int i = get_global_id(0);
    zeroed[i] += i;
    if (i == 0) {
        counter += 1;
        *gp += 100;
        wide += 1;
    }
    out[i] = 0;
}

kernel void read_back(global int *out) {
    int i = get_global_id(0);
    out[i] = zeroed[i];
    if (i == 0) {
        out[16] = counter;
        out[17] = (int)(wide >> 32);
        out[18] = (int)wide;
    }
}

// Constant indices into program-scope and __local arrays (constant address
// expressions at -O2).
kernel void fixed_places(global int *out, local int *unused) {
    local int tile[4][4];
    int l = get_local_id(0);
    if (l == 0) {
        tile[2][3] = table[2].s[1] + zeroed[5];
        tile[1][1] = grid[1][2];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[2][3] * 100 + tile[1][1] + primes[7];
}
