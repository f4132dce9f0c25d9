// seed: 205456
// At -O2, clang turns `(float)(short3 != 0).x` into `sitofp i1 %c to float` (true is -1.0), and llvm-spirv 15 translates that as OpSelect of 1 and 0 then OpConvertSToF, so clift computed +1.0 (a wrong answer from the translator's SPIR-V; -O0 and PoCL give -1.0). Found by seed 205456; fixed in runtime/src/compiler (a module that may hold that translation is checked against the IR, whose `sitofp i1` is rewritten as `sext` to i32 then `sitofp`).
__kernel void k_32290(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    float v8 = ((float)((as_short3(vload3(((gid + 212u) & 511u), (__global const ushort *)in)) != ((short3)(((short)0))))).x);
    res[gid * 8] = as_uint(v8);
    out[gid] = (ulong)as_uint(v8) * 0x100000001b3UL;
}
