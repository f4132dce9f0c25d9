// seed: 0
// fixed: the sign of a NaN through a negation feeding fma differed between clift's scalar and SIMD bodies (scalar 0xfff8000000000000, SIMD 0x7ff8000000000000 in every work-item): Cranelift folded the fneg into the fma (vfnmadd) in the scalar body, where the two met, and not in the 4-lane body, whose uniform -u was negated before its splat. Negation is now a sign-bit xor in every body (ARCHITECTURE.md, "Values that are only moved keep every bit"). Found by a review, not by the generator, whose hashes then made every NaN canonical; the raw hash (out[2 * gid + 1]) now compares NaN bits between the bodies of one module.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k_0(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    double u = sqrt(-(double)(in[0] | 1u));
    double r = fma(-u, (double)gid, 1.0);
    out[2u * gid] = isnan(r) ? 1UL : as_ulong(r);
    out[2u * gid + 1u] = as_ulong(r);
}
