// seed: 25
// fixed: in 4-lane bodies vstore8 of a ulong8 wrote nothing: clift's SIMD modes (-O0 and -O2) left res as it was, its scalar modes and PoCL wrote it. Found by seed 25 (a10 stored through vstore8). The SIMD store class of issue 12 items 1 and 11: void extended instructions in 4-lane bodies were recorded with no effect (jit/src/lower/simd/ops.rs simd_op); they now run through the scalar lowering lane by lane.
__kernel void k_19(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    vstore8((ulong8)((ulong)gid), 0, res + gid * 8u);
}
