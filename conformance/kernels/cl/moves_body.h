// Kernels that only move floating-point values, shared by fp16_moves.cl
// (half) and fp_moves.cl (float and double): every output element is a
// copy of an input element (or, for bitselect, a bitwise mix of three), so
// tests/exec_fp_moves.rs compares the outputs with the inputs bit for bit
// (signaling NaNs with payloads included).
//
// Include with T (the floating-point type), S and U (the signed and
// unsigned integer types of its width) defined; kernel names end in _T.
// Each work-item handles the 16 elements [16 i, 16 i + 16); region r of an
// output is the elements [r N, (r + 1) N), N = 16 * get_global_size(0).

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define V(n) CAT(T, n)
#define SV(n) CAT(S, n)
#define UV(n) CAT(U, n)
#define K(name) CAT(name##_, T)
#define ST CAT(moves_struct_, T)

// as_type from the vectors of n components of FT at p to type OT at q
// (integers xored with the run-time zero k, so that -O2 keeps the
// reinterpretation), and back from OT at x to FT at q; each moves 16
// elements and steps q to the next region (`bytes` or `count` on).
#define AS_FROM(FT, n, OT, X)                                                    \
    for (int j = 0; j < 16 / n; j++)                                             \
        ((global OT *)q)[j] = CAT(as_, OT)(((global const CAT(FT, n) *)p)[j]) X; \
    q += bytes;
#define AS_TO(FT, n, OT, X)                                                      \
    for (int j = 0; j < 16 / n; j++)                                             \
        ((global CAT(FT, n) *)q)[j] = CAT(as_, CAT(FT, n))(((global const OT *)x)[j] X); \
    q += count;
#define XK ^ (k)
#define NONE

// The vloadn/vstoren (or bitselect) of width n over 16 elements; width 3
// covers 15, and element 15 goes alone.
#define EACH_N(n, BODY)                        \
    for (int k = 0; k < 16 / n; k++) {         \
        BODY(n, k)                             \
    }

// Loads and stores: r0 scalars, r1 vector pointers of 2, 2, 4 and 8
// components, r2 a 16-component vector pointer, r3..r7 vloadn/vstoren of
// 2, 3, 4, 8 and 16 components.
#define VLS(n, k) CAT(vstore, n)(CAT(vload, n)(k, p), k, q);
kernel void K(load_store)(global const T *a, global T *o) {
    size_t i = get_global_id(0), n = 16 * get_global_size(0);
    global const T *p = a + 16 * i;
    global T *q = o + 16 * i;
    for (int j = 0; j < 16; j++)
        q[j] = p[j];
    q += n;
    *(global V(2) *)q = *(global const V(2) *)p;
    *(global V(2) *)(q + 2) = *(global const V(2) *)(p + 2);
    *(global V(4) *)(q + 4) = *(global const V(4) *)(p + 4);
    *(global V(8) *)(q + 8) = *(global const V(8) *)(p + 8);
    q += n;
    *(global V(16) *)q = *(global const V(16) *)p;
    q += n;
    EACH_N(2, VLS)
    q += n;
    EACH_N(3, VLS)
    q[15] = p[15];
    q += n;
    EACH_N(4, VLS)
    q += n;
    EACH_N(8, VLS)
    q += n;
    EACH_N(16, VLS)
}

// Swizzles: r0 (hi, lo), r1 (odd, even), r2 reversed, r3 a mix of 2-, 3-,
// 4- and 1-component swizzles, r4 .hi/.lo/.odd/.even and swizzles of a
// 4-component vector, r5 components read at run-time indices
// ((5 j + k) & 15), r6 components written at run-time indices
// ((7 j + k) & 15).
kernel void K(swizzle)(global const T *a, global T *o, int k) {
    size_t i = get_global_id(0), n = 16 * get_global_size(0);
    V(16) w = ((global const V(16) *)a)[i];
    global V(16) *q = (global V(16) *)o + i;
    size_t r = n / 16;
    q[0 * r] = (V(16))(w.hi, w.lo);
    q[1 * r] = (V(16))(w.odd, w.even);
    q[2 * r] = w.sFEDCBA9876543210;
    q[3 * r] = (V(16))(w.s73, w.s2a5, w.lo.even, w.sf, w.s18, w.s6, w.sc9, w.sb);
    V(4) x = w.s4567;
    q[4 * r] = (V(16))(x.wzyx, x.hi, x.lo, x.odd, x.even, w.s89ab.zxyw);
    global T *e = o + 5 * n + 16 * i;
    for (int j = 0; j < 16; j++)
        e[j] = w[(5 * j + k) & 15];
    V(16) z = w;
    for (int j = 0; j < 16; j++)
        z[(7 * j + k) & 15] = w[j];
    q[6 * r] = z;
}

// shuffle and shuffle2 with masks m[0..16] read at run time: r0
// shuffle(w, m), r1 shuffle2(w.hi, w.lo, m), r2 three shuffles of 4- and
// 8-component results, r3 of 2-, 4-, 8- and 2-component results.
kernel void K(shuffles)(global const T *a, global const U *m, global T *o) {
    size_t i = get_global_id(0), n = 16 * get_global_size(0);
    V(16) w = ((global const V(16) *)a)[i];
    UV(16) mk = vload16(0, m);
    global V(16) *q = (global V(16) *)o + i;
    size_t r = n / 16;
    q[0 * r] = shuffle(w, mk);
    q[1 * r] = shuffle2(w.hi, w.lo, mk);
    q[2 * r] = (V(16))(shuffle(w.s0123, mk.s0123), shuffle(w.s4567, mk.s4567),
                       shuffle2(w.s89ab, w.scdef, mk.s89abcdef));
    q[3 * r] = (V(16))(shuffle(w, mk.s01), shuffle(w.lo, mk.s2345), shuffle2(w.s0123, w.sfedc, mk.s6789abcd),
                       shuffle(w.s01, mk.sef));
}

// Selects between a and b on c (an integer of T's width): r0 select()
// (c != 0: b), r1 c < 0 ? a : b, r2 select() on 4 components (c's top
// bit: b), r3 a 16-component ?: (c < 0: a), r4 if/else ((c & 3) == 1:
// a), r5 a loop swapping a and b (c & 3) times (odd: b), r6 select() on 8
// and 2 components, r7 on 3 components (and element 15 scalar).
#define SEL(n, k) CAT(vstore, n)(select(CAT(vload, n)(k, pa), CAT(vload, n)(k, pb), CAT(vload, n)(k, pc)), k, q);
kernel void K(selects)(global const T *a, global const T *b, global const S *c, global T *o) {
    size_t i = get_global_id(0), n = 16 * get_global_size(0);
    global const T *pa = a + 16 * i, *pb = b + 16 * i;
    global const S *pc = c + 16 * i;
    global T *q = o + 16 * i;
    _Pragma("unroll") for (int j = 0; j < 16; j++)
        q[j] = select(pa[j], pb[j], pc[j]);
    q += n;
    _Pragma("unroll") for (int j = 0; j < 16; j++)
        q[j] = pc[j] < 0 ? pa[j] : pb[j];
    q += n;
    EACH_N(4, SEL)
    q += n;
    vstore16(vload16(0, pc) < (SV(16))0 ? vload16(0, pa) : vload16(0, pb), 0, q);
    q += n;
    _Pragma("unroll") for (int j = 0; j < 16; j++) {
        T t;
        if ((pc[j] & 3) == 1)
            t = pa[j];
        else
            t = pb[j];
        q[j] = t;
    }
    q += n;
    _Pragma("unroll") for (int j = 0; j < 16; j++) {
        T x = pa[j], y = pb[j];
        for (int s = 0; s < (pc[j] & 3); s++) {
            T t = x;
            x = y;
            y = t;
        }
        q[j] = x;
    }
    q += n;
    vstore8(select(vload8(0, pa), vload8(0, pb), vload8(0, pc)), 0, q);
    for (int k = 4; k < 8; k++)
        SEL(2, k)
    q += n;
    EACH_N(3, SEL)
    q[15] = select(pa[15], pb[15], pc[15]);
}

// bitselect(a, b, c) of 1, 2, 3, 4, 8 and 16 components in r0..r5.
#define BSEL(n, k) CAT(vstore, n)(bitselect(CAT(vload, n)(k, pa), CAT(vload, n)(k, pb), CAT(vload, n)(k, pc)), k, q);
kernel void K(bitselects)(global const T *a, global const T *b, global const T *c, global T *o) {
    size_t i = get_global_id(0), n = 16 * get_global_size(0);
    global const T *pa = a + 16 * i, *pb = b + 16 * i, *pc = c + 16 * i;
    global T *q = o + 16 * i;
    for (int j = 0; j < 16; j++)
        q[j] = bitselect(pa[j], pb[j], pc[j]);
    q += n;
    EACH_N(2, BSEL)
    q += n;
    EACH_N(3, BSEL)
    q[15] = bitselect(pa[15], pb[15], pc[15]);
    q += n;
    EACH_N(4, BSEL)
    q += n;
    EACH_N(8, BSEL)
    q += n;
    EACH_N(16, BSEL)
}

// Memory spaces: r0 a private array written at run-time indices
// ((7 j + k) & 15) and read in order, r1 through a __constant pointer
// (c holds a's elements), r2 a __local argument read at the mirrored
// work-item after a barrier, r3 the same through a kernel-scope __local
// array (local size at most 64), r4 a generic pointer into the private
// array read at (j + k) & 15, r5 a vector kept live across the barrier.
kernel void K(spaces)(global const T *a, global T *o, constant T *c, local T *la, int k) {
    local T tile[16 * 64];
    size_t i = get_global_id(0), n = 16 * get_global_size(0);
    size_t l = get_local_id(0), ls = get_local_size(0);
    global const T *p = a + 16 * i;
    global T *q = o + 16 * i;
    T priv[16];
    for (int j = 0; j < 16; j++)
        priv[(7 * j + k) & 15] = p[j];
    for (int j = 0; j < 16; j++)
        q[j] = priv[j];
    q += n;
    for (int j = 0; j < 16; j++)
        q[j] = c[16 * i + j];
    V(16) keep = vload16(0, p);
    for (int j = 0; j < 16; j++) {
        la[16 * l + j] = p[j];
        tile[16 * l + j] = p[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    q += n;
    for (int j = 0; j < 16; j++)
        q[j] = la[16 * (ls - 1 - l) + j];
    q += n;
    for (int j = 0; j < 16; j++)
        q[j] = tile[16 * (ls - 1 - l) + j];
    q += n;
    generic T *g = priv;
    _Pragma("clang loop vectorize(disable)") for (int j = 0; j < 16; j++)
        q[j] = g[(j + k) & 15];
    q += n;
    vstore16(keep, 0, q);
}

// Structs: o1[i] = s[i] whole; o2[i] member by member through a private
// struct (arr at run-time indices); work-item 0 writes the by-value
// argument to ob[0] whole and to ob[1] member by member. Member offsets
// for a T of size z: c 0, h z, v 2z, arr 4z, w 8z; size 12z.
typedef struct {
    char c;
    T h;
    V(2) v;
    T arr[3];
    V(4) w;
} ST;

kernel void K(structs)(global const ST *s, global ST *o1, global ST *o2, ST by, global ST *ob, int k) {
    size_t i = get_global_id(0);
    o1[i] = s[i];
    ST t;
    t.c = s[i].c;
    t.h = s[i].h;
    t.v = s[i].v;
    for (int j = 0; j < 3; j++)
        t.arr[(j + k) % 3] = s[i].arr[(j + k) % 3];
    t.w = s[i].w;
    o2[i] = t;
    if (i == 0) {
        ob[0] = by;
        ob[1].c = by.c;
        ob[1].h = by.h;
        ob[1].v = by.v;
        for (int j = 0; j < 3; j++)
            ob[1].arr[j] = by.arr[j];
        ob[1].w = by.w;
    }
}

// Arguments by value: o[0] = x, o[1..3] = x2, o[3..7] = x4, o[7..23] = x16.
kernel void K(args)(T x, V(2) x2, V(4) x4, V(16) x16, global T *o) {
    o[0] = x;
    vstore2(x2, 0, o + 1);
    vstore4(x4, 0, o + 3);
    vstore16(x16, 0, o + 7);
}

// Async copies: a group's M = 16 * local size elements go strided into
// __local l1 (even elements to l1[0, M/2), odd to l1[M/2, M)), each
// work-item copies its 16 to l2, and l2 goes to o whole; r1 is a
// work_group_broadcast of element j from work-item j % local size.
kernel void K(async_copies)(global const T *a, global T *o, local T *l1, local T *l2) {
    size_t l = get_local_id(0), ls = get_local_size(0), g = get_group_id(0);
    size_t m = 16 * ls, base = g * m, n = 16 * get_global_size(0);
    event_t e = async_work_group_strided_copy(l1, a + base, m / 2, 2, 0);
    e = async_work_group_strided_copy(l1 + m / 2, a + base + 1, m / 2, 2, e);
    wait_group_events(1, &e);
    for (int j = 0; j < 16; j++)
        l2[16 * l + j] = l1[16 * l + j];
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(o + base, l2, m, 0);
    wait_group_events(1, &e);
    for (int j = 0; j < 16; j++)
        o[n + base + 16 * l + j] = work_group_broadcast(a[base + 16 * l + j], j % ls);
}

// One element per work-item, in shapes the 4-lane bodies vectorize (o's
// regions are get_global_size(0) elements here): r0 a copy, r1 select()
// (c != 0: b), r2 c < 0 ? a : b, r3 bitselect(a, b, as_T(c)), r4 as_S and
// back (k = 0), r5 the pair neighbour (element i ^ 1) from a 2-component
// vector, r6 a loop swapping a and b `swaps` times (a uniform count: the
// values go through phis), r7 -a, r8 fabs(a), r9 copysign(a, b) (sign-bit
// operations, exact as IEEE 754 defines them).
kernel void K(lanes)(global const T *a, global const T *b, global const S *c, global T *o, S k, int swaps) {
    size_t i = get_global_id(0), n = get_global_size(0);
    T x = a[i], y = b[i];
    S s = c[i];
    // Every value first, the stores last (at -O0 the ?: are branches,
    // which a 4-lane body may take only before it stores).
    T r1 = select(x, y, s);
    T r2 = s < 0 ? x : y;
    T r3 = bitselect(x, y, CAT(as_, T)(s));
    T r4 = CAT(as_, T)((S)(CAT(as_, S)(x) ^ k));
    V(2) v = ((global const V(2) *)a)[i >> 1];
    T r5 = v[(i & 1) ^ 1];
    T t = x, u = y;
    for (int j = 0; j < swaps; j++) {
        T w = t;
        t = u;
        u = w;
    }
    o[i] = x;
    o[n + i] = r1;
    o[2 * n + i] = r2;
    o[3 * n + i] = r3;
    o[4 * n + i] = r4;
    o[5 * n + i] = r5;
    o[6 * n + i] = t;
    o[7 * n + i] = -x;
    o[8 * n + i] = fabs(x);
    o[9 * n + i] = copysign(x, y);
}

// Across a barrier, one element per work-item: r0 read back from __local
// at the mirrored work-item, r1 the value kept live across the barrier.
kernel void K(lanes_local)(global const T *a, global T *o, local T *l) {
    size_t i = get_global_id(0), n = get_global_size(0);
    size_t li = get_local_id(0), ls = get_local_size(0);
    T x = a[i];
    l[li] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    o[i] = l[ls - 1 - li];
    o[n + i] = x;
}
