// seed: 100153
// At -O0, the negation of as_float8 of a constant short16 became `fneg (extractelement (bitcast (<16 x i16> ...) to <8 x float>)))` per lane, and llvm-spirv 15 stopped on the assertion "Invalid SPIRV BB", so clift's -O0 builds failed. Fixed in runtime/src/compiler/workarounds.rs (constant bitcasts of literals folded to the constants they make).
__kernel void k_18739(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    float8 v = -as_float8((short16)((short)1));
    float8 w = vload8(gid & 15u, (__global const float *)in);
    out[gid] = (ulong)as_uint(dot(v.lo, v.hi)) ^ ((ulong)as_uint(w.s3 * v.s5) << 32);
}
