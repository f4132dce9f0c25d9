// Alignment of variables in every address space (OpenCL C "Alignment of
// Types"; OpenCL SPIR-V environment: the compiler aligns objects allocated
// by OpVariable as their type requires): every scalar and vector type of
// every width (3-component vectors take the room, and the alignment, of
// 4), structs of vectors (aligned to their largest member, recursively),
// arrays of structs, packed structs, and `aligned` attributes (the
// Alignment decoration), as private variables (stack slots, the per-lane
// copies of 4-lane bodies, and the frames of kernels with barriers),
// __local variables and arguments, and program-scope __global and
// __constant variables.
//
// Each work-item writes a record of uints: for every variable the low 32
// bits of the addresses (as the kernel sees them) of some of its parts, and
// a value read back, then 0x600d (32-bit records, so that 4-lane bodies
// store them as vectors). tests/exec_alignment.rs knows the order and
// checks each address against the alignment OpenCL C requires.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define VT_1(T) T
#define VT_2(T) T##2
#define VT_3(T) T##3
#define VT_4(T) T##4
#define VT_8(T) T##8
#define VT_16(T) T##16
#define VT(T, N) VT_##N(T)
// Component 0 of a value of width N.
#define S0_1(x) (x)
#define S0_2(x) (x).s0
#define S0_3(x) (x).s0
#define S0_4(x) (x).s0
#define S0_8(x) (x).s0
#define S0_16(x) (x).s0
#define S0(N, x) S0_##N(x)

#define WIDTHS(F, T) F(T, 1) F(T, 2) F(T, 3) F(T, 4) F(T, 8) F(T, 16)
// Every type but half, in the order of tests/exec_alignment.rs.
#define EACH_TYPE(F)                                                                      \
    WIDTHS(F, char) WIDTHS(F, uchar) WIDTHS(F, short) WIDTHS(F, ushort) WIDTHS(F, int)    \
    WIDTHS(F, uint) WIDTHS(F, long) WIDTHS(F, ulong) WIDTHS(F, float) WIDTHS(F, double)

// Three elements of key * 3 + k; the record gets the addresses of elements
// 0 and 1 and element (id % 3) read back.
#define STORE(a, T, N, key)                                                               \
    for (int k = 0; k < 3; k++)                                                           \
        a[k] = (VT(T, N))((T)((key) * 3 + k));
#define RECORD(a, N)                                                                      \
    *r++ = (uint)(ulong)&a[0];                                                            \
    *r++ = (uint)(ulong)&a[1];                                                            \
    *r++ = (uint)S0(N, a[get_global_id(0) % 3]);

// Private arrays, each holding values of its work-item (so a 4-lane body
// keeps one copy per lane).
#define PRIVATE_ONE(T, N)                                                                 \
    {                                                                                     \
        VT(T, N) a[3];                                                                    \
        STORE(a, T, N, (int)get_global_id(0))                                             \
        RECORD(a, N)                                                                      \
    }

// One kernel per type, so that each gets a 4-lane body if clift finds it
// worth making.
#define PRIVATE_KERNEL(T)                                                                 \
    kernel void private_##T(global uint *out, uint rec)                                   \
    {                                                                                     \
        global uint *r = out + get_global_id(0) * rec;                                    \
        WIDTHS(PRIVATE_ONE, T)                                                            \
        *r = 0x600d;                                                                      \
    }
PRIVATE_KERNEL(char)
PRIVATE_KERNEL(uchar)
PRIVATE_KERNEL(short)
PRIVATE_KERNEL(ushort)
PRIVATE_KERNEL(int)
PRIVATE_KERNEL(uint)
PRIVATE_KERNEL(long)
PRIVATE_KERNEL(ulong)
PRIVATE_KERNEL(float)
PRIVATE_KERNEL(double)
PRIVATE_KERNEL(half)

// The same in a kernel with a barrier: the variables live in frames.
#define FRAME_ONE(T, N)                                                                   \
    {                                                                                     \
        VT(T, N) a[3];                                                                    \
        STORE(a, T, N, (int)get_global_id(0))                                             \
        barrier(CLK_LOCAL_MEM_FENCE);                                                     \
        RECORD(a, N)                                                                      \
    }

kernel void frame_vectors(global uint *out, uint rec)
{
    global uint *r = out + get_global_id(0) * rec;
    EACH_TYPE(FRAME_ONE)
    WIDTHS(FRAME_ONE, half)
    *r = 0x600d;
}

// __local arrays, filled by the group's first work-item from its group id.
#define LOCAL_DECLARE(T, N) local VT(T, N) l_##T##_##N[3];
#define LOCAL_STORE(T, N) STORE(l_##T##_##N, T, N, (int)get_group_id(0))
#define LOCAL_RECORD(T, N) RECORD(l_##T##_##N, N)

kernel void local_vectors(global uint *out, uint rec)
{
    EACH_TYPE(LOCAL_DECLARE)
    WIDTHS(LOCAL_DECLARE, half)
    global uint *r = out + get_global_id(0) * rec;
    if (get_local_id(0) == 0) {
        EACH_TYPE(LOCAL_STORE)
        WIDTHS(LOCAL_STORE, half)
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    EACH_TYPE(LOCAL_RECORD)
    WIDTHS(LOCAL_RECORD, half)
    *r = 0x600d;
}

// Program-scope __global and __constant arrays, initialized to k.
#define INIT(T, N) {(VT(T, N))((T)0), (VT(T, N))((T)1), (VT(T, N))((T)2)}
#define GLOBAL_DECLARE(T, N) global VT(T, N) g_##T##_##N[3] = INIT(T, N);
#define CONSTANT_DECLARE(T, N) constant VT(T, N) c_##T##_##N[3] = INIT(T, N);
#define GLOBAL_RECORD(T, N) RECORD(g_##T##_##N, N)
#define CONSTANT_RECORD(T, N) RECORD(c_##T##_##N, N)
EACH_TYPE(GLOBAL_DECLARE)
WIDTHS(GLOBAL_DECLARE, half)
EACH_TYPE(CONSTANT_DECLARE)
WIDTHS(CONSTANT_DECLARE, half)

kernel void global_vectors(global uint *out, uint rec)
{
    global uint *r = out + get_global_id(0) * rec;
    EACH_TYPE(GLOBAL_RECORD)
    WIDTHS(GLOBAL_RECORD, half)
    *r = 0x600d;
}

kernel void constant_vectors(global uint *out, uint rec)
{
    global uint *r = out + get_global_id(0) * rec;
    EACH_TYPE(CONSTANT_RECORD)
    WIDTHS(CONSTANT_RECORD, half)
    *r = 0x600d;
}

// Structs: aligned to their largest member, recursively; packed ones not
// at all; `aligned` attributes on a member, a struct and a variable.
typedef struct { char c; float8 v; } F8;                          // 64 bytes, align 32
typedef struct { char c; double16 v; } D16;                       // 256, align 128
typedef struct { char c; float3 v; short s; } F3;                 // 48, align 16
typedef struct __attribute__((packed)) { char c; float4 v; } Packed; // 17, align 1
typedef struct { char c; F8 a[2]; long3 l; } Nest;                // 192, align 32
typedef struct { char c; int x __attribute__((aligned(64))); } MemberAligned; // 128, align 64
typedef struct { char c; } __attribute__((aligned(32))) Aligned;  // 32, align 32
typedef struct { char c; short3 h; ulong16 u; } Mixed;            // 256, align 128

// One set of struct variables, their names prefixed with P: declared (in
// address space Q), stored from `key`, and recorded in the order
// struct_record in tests/exec_alignment.rs expects.
#define STRUCT_DECLARE(Q, P)                                                              \
    Q F8 P##f8;                                                                           \
    Q D16 P##d16;                                                                         \
    Q F3 P##f3[3];                                                                        \
    Q Packed P##pk[2];                                                                    \
    Q Nest P##n[2];                                                                       \
    Q MemberAligned P##ma;                                                                \
    Q Aligned P##al[3];                                                                   \
    Q Mixed P##mx;                                                                        \
    Q char P##ca __attribute__((aligned(64)));                                            \
    Q int P##ia __attribute__((aligned(32)));
#define STRUCT_STORE(P, key)                                                              \
    P##f8.v = (float8)(key);                                                              \
    P##d16.v = (double16)(key);                                                           \
    for (int k = 0; k < 3; k++) {                                                         \
        P##f3[k].v = (float3)(key);                                                       \
        P##f3[k].s = (short)(key);                                                        \
    }                                                                                     \
    P##pk[1].v = (float4)(key);                                                           \
    P##n[1].a[1].v = (float8)(key);                                                       \
    P##n[1].l = (long3)(key);                                                             \
    P##ma.x = (key);                                                                      \
    P##al[2].c = (char)(key);                                                             \
    P##mx.u = (ulong16)(key);                                                             \
    P##mx.h = (short3)(key);                                                              \
    P##ca = (char)(key);                                                                  \
    P##ia = (key);
#define STRUCT_RECORD(P)                                                                  \
    *r++ = (uint)(ulong)&P##f8;                                                           \
    *r++ = (uint)(ulong)&P##f8.v;                                                         \
    *r++ = (uint)P##f8.v.s7;                                                              \
    *r++ = (uint)(ulong)&P##d16;                                                          \
    *r++ = (uint)(ulong)&P##d16.v;                                                        \
    *r++ = (uint)P##d16.v.sf;                                                             \
    *r++ = (uint)(ulong)&P##f3[0];                                                        \
    *r++ = (uint)(ulong)&P##f3[1];                                                        \
    *r++ = (uint)(ulong)&P##f3[1].v;                                                      \
    *r++ = (uint)(ulong)&P##f3[2].s;                                                      \
    *r++ = (uint)(P##f3[2].v.z + P##f3[1].s);                                             \
    *r++ = (uint)((ulong)&P##pk[1].v - (ulong)&P##pk[0]);                                 \
    *r++ = (uint)P##pk[1].v.w;                                                            \
    *r++ = (uint)(ulong)&P##n[0];                                                         \
    *r++ = (uint)(ulong)&P##n[1];                                                         \
    *r++ = (uint)(ulong)&P##n[1].a[1];                                                    \
    *r++ = (uint)(ulong)&P##n[1].a[1].v;                                                  \
    *r++ = (uint)(ulong)&P##n[1].l;                                                       \
    *r++ = (uint)(P##n[1].a[1].v.s5 + P##n[1].l.z);                                       \
    *r++ = (uint)(ulong)&P##ma;                                                           \
    *r++ = (uint)(ulong)&P##ma.x;                                                         \
    *r++ = (uint)P##ma.x;                                                                 \
    *r++ = (uint)(ulong)&P##al[1];                                                        \
    *r++ = (uint)(ulong)&P##al[2];                                                        \
    *r++ = (uint)P##al[2].c;                                                              \
    *r++ = (uint)(ulong)&P##mx;                                                           \
    *r++ = (uint)(ulong)&P##mx.h;                                                         \
    *r++ = (uint)(ulong)&P##mx.u;                                                         \
    *r++ = (uint)(P##mx.u.sf + (ulong)P##mx.h.z);                                         \
    *r++ = (uint)(ulong)&P##ca;                                                           \
    *r++ = (uint)P##ca;                                                                   \
    *r++ = (uint)(ulong)&P##ia;                                                           \
    *r++ = (uint)P##ia;                                                                   \
    *r = 0x600d;

kernel void private_structs(global uint *out, uint rec)
{
    global uint *r = out + get_global_id(0) * rec;
    STRUCT_DECLARE(, )
    int key = (int)get_global_id(0);
    STRUCT_STORE(, key)
    STRUCT_RECORD()
}

kernel void frame_structs(global uint *out, uint rec)
{
    global uint *r = out + get_global_id(0) * rec;
    STRUCT_DECLARE(, )
    int key = (int)get_global_id(0);
    STRUCT_STORE(, key)
    barrier(CLK_LOCAL_MEM_FENCE);
    STRUCT_RECORD()
}

kernel void local_structs(global uint *out, uint rec)
{
    STRUCT_DECLARE(local, )
    global uint *r = out + get_global_id(0) * rec;
    int key = (int)get_group_id(0);
    if (get_local_id(0) == 0) {
        STRUCT_STORE(, key)
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    STRUCT_RECORD()
}

// Program-scope variables in address space Q, initialized with 7 where the
// record reads, and the kernel recording them.
#define PROGRAM_SCOPE_STRUCTS(Q)                                                          \
    Q F8 Q##_f8 = {0, (float8)(7)};                                                       \
    Q D16 Q##_d16 = {0, (double16)(7)};                                                   \
    Q F3 Q##_f3[3] = {{0, (float3)(7), 7}, {0, (float3)(7), 7}, {0, (float3)(7), 7}};     \
    Q Packed Q##_pk[2] = {{0, (float4)(7)}, {0, (float4)(7)}};                            \
    Q Nest Q##_n[2] = {{0}, {0, {{0}, {0, (float8)(7)}}, (long3)(7)}};                    \
    Q MemberAligned Q##_ma = {0, 7};                                                      \
    Q Aligned Q##_al[3] = {{0}, {0}, {7}};                                                \
    Q Mixed Q##_mx = {0, (short3)(7), (ulong16)(7)};                                      \
    Q char Q##_ca __attribute__((aligned(64))) = 7;                                       \
    Q int Q##_ia __attribute__((aligned(32))) = 7;                                        \
                                                                                          \
    kernel void Q##_structs(global uint *out, uint rec)                                   \
    {                                                                                     \
        global uint *r = out + get_global_id(0) * rec;                                    \
        STRUCT_RECORD(Q##_)                                                               \
    }
PROGRAM_SCOPE_STRUCTS(global)
PROGRAM_SCOPE_STRUCTS(constant)

// Structs passed by value that the kernel writes: copied into the
// work-item's private memory at their alignment.
kernel void byval_structs(global uint *out, uint rec, Mixed s, F8 t)
{
    global uint *r = out + get_global_id(0) * rec;
    s.u += (ulong16)(get_global_id(0));
    t.v += (float8)(get_global_id(0));
    *r++ = (uint)(ulong)&s;
    *r++ = (uint)(ulong)&s.u;
    *r++ = (uint)s.u.sf;
    *r++ = (uint)(ulong)&t;
    *r++ = (uint)(ulong)&t.v;
    *r++ = (uint)t.v.s7;
    *r = 0x600d;
}

// __local arguments of every size class, each given an odd size by the
// host so that a misplaced next one would show.
kernel void local_arguments(global ulong *out, local char *a, local double16 *b, local char3 *c,
                            local long16 *d, local float3 *e, local D16 *f, local half *h,
                            local ulong8 *u)
{
    global ulong *r = out + get_global_id(0) * 9;
    *r++ = (ulong)a;
    *r++ = (ulong)b;
    *r++ = (ulong)c;
    *r++ = (ulong)d;
    *r++ = (ulong)e;
    *r++ = (ulong)f;
    *r++ = (ulong)h;
    *r++ = (ulong)u;
    *r = 0x600d;
}
