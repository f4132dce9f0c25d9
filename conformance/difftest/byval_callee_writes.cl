// seed: 2019
// A struct passed by value to a function that writes its parameter: at -O0 (clang passes the caller's object by address, with FuncParamAttr ByVal) clift's inlined callee wrote into the caller's struct. Found by seed 2019; fixed in jit/src/lower/mod.rs (copy_byval_params for helper functions).
typedef struct {
    ulong8 f0;
    ushort2 f1;
    long4 f2;
    ushort f3;
} S;
static char2 f(ushort p0, S p1) {
    p1.f0 = (ulong8)(7UL);
    return (char2)((char)p0, (char)p1.f3);
}
__kernel void k_7e3(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    S s = { vload8(gid, (__global const ulong *)in), (ushort2)(1, 2), (long4)(3), 4 };
    char2 c = (char2)(0);
    if ((gid & 3u) == 0u)
        c = f((ushort)gid, s);
    out[gid] = s.f0.s0 ^ s.f0.s7 ^ (ulong)c.s0;
}
