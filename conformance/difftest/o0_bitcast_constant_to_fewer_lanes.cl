// seed: 205440
// At -O0, `as_double((short4)15)` inside a vector literal is an OpSpecConstantOp Bitcast from four lanes to one in llvm-spirv 15's module; clift's constant folding refused bitcasts that change the lane count, so the kernel built but could not run (`OpStore: constant %N is not a pointer expression`). Reduced by hand from seed 205440 (function f3_32280); fixed in jit/src/spec.rs.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k_32280(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    double2 t4 = (double2)(((double)0x1.e848000000000p+19), as_double(((short4)(((short)15)))));
    t4.s1 = t4.s1 + as_double(((__global const ulong *)in)[gid & 511u] & 0x7fefffffffffffffUL) * 0.0;
    res[gid * 8] = as_ulong(t4.s0);
    out[gid] = as_ulong(t4.s1) * 0x100000001b3UL;
}
