// seed: 34
// At -O0, as_uchar2 of a constant ushort became `bitcast (<1 x i16> <i16 3271> to <2 x i8>)`, a constant expression with a one-component vector, and llvm-spirv 15 stopped on the assertion `CompCount == 2 || ... || CompCount == 16` (SPIRVTypeVector::validate), so clift's -O0 builds failed. Fixed in runtime/src/compiler/workarounds.rs (such constants folded to the vector constants they make).
__kernel void k_22(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    uchar2 v = as_uchar2((ushort)3271);
    out[gid] = (ulong)v.s0 | ((ulong)v.s1 << 8);
}
