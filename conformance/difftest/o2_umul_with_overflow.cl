// seed: 326835
// At -O2, clang turns `a <= ULONG_MAX / y` into `!llvm.umul.with.overflow(y, a).overflow`, and llvm-spirv 15 translates that intrinsic into a function whose overflow bit is `y != (y * a) / y` (the wrong operand compared, and a division by zero when y is 0), so clift computed 0 where -O0 and PoCL give 1 (a wrong answer from the translator's SPIR-V; seeds 326835 and 326117). Fixed in runtime/src/compiler: a module holding that function counts as a failed translation, and the workaround rewrites the call as a multiply plus mul_hi before llvm-spirv.
static long neg_long(long a) { return (long)((ulong)0 - (ulong)a); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << ((ulong)b & 63u)); }
static ulong3 div_ulong3(ulong3 a, ulong3 b) { ulong3 c = as_ulong3(b == (ulong3)0); return a / ((b & ~c) | (c & (ulong3)1)); }
__kernel void k_4fcb3(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    ulong a = shl_ulong(((ulong)gid), ((__global const ulong *)in)[((uint)neg_long(((long)gid)) & 511u)]);
    ulong b = (div_ulong3(((ulong3)(((ulong)18446744073709551615UL))), vload3(((gid + 70u) & 127u), (__global const ulong *)in))).y;
    out[gid] = (a <= b) ? 1 : 0;
}
