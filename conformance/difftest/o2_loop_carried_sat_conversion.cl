// seed: 47
// At -O2 a loop carried the result of convert_ulong_sat (the phi uses it before its definition): llvm-spirv 15 put the SaturatedConversion decoration on an id it never defined and left the conversion undecorated, so clift refused the module ("OpDecorate: %N is used but never defined"); seed 47 reached it after the odd-width integer workaround (its switch on `x & 3`). Fixed in runtime/src/compiler (such modules count as translation failures; the conversions are called through functions of the module).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k_2f(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    ulong h = 0xcbf29ce484222325UL;
    ulong c = 0;
    const int n = 3 + (int)(in[gid & 127u] & 7u);
    for (int i = 0; i < n; i++) {
        uint x = in[(gid + (uint)i) & 127u];
        switch (x & 3u) {
        case 0: h ^= x; break;
        case 1: h += 3u; break;
        case 2: h *= 0x100000001b3UL; break;
        default: h -= c; break;
        }
        h = h * 0x100000001b3UL + c;
        c = convert_ulong_sat(as_float(in[(gid * 3u + (uint)i) & 127u]) * 1.0e12f);
    }
    out[gid] = h ^ c;
}
