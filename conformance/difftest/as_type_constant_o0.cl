// seed: 34
// open: at -O0, as_uchar2 of a constant ushort becomes `bitcast (<1 x i16> <i16 3271> to <2 x i8>)`, a constant expression with a one-component vector, and llvm-spirv 15 stops on the assertion `CompCount == 2 || ... || CompCount == 16` (SPIRVTypeVector::validate), so clift's -O0 builds fail; -O2 (folded) and PoCL build it. A translator limitation of the issue 12 item 8 kind, without a workaround yet.
__kernel void k_22(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    uchar2 v = as_uchar2((ushort)3271);
    out[gid] = (ulong)v.s0 | ((ulong)v.s1 << 8);
}
