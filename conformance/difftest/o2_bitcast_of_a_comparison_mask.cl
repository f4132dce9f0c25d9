// seed: 315439
// At -O2, InstCombine turns `as_long(char8 comparison) != 0` into `bitcast <8 x i1> %c to i8` then a compare with 0, which llvm-spirv 15 writes as an OpBitcast of a boolean vector (not allowed), so clift refused the module at -O2. Reduced by hand from seed 315439; fixed in runtime/src/compiler (the mask computed with integer vectors before translation).
__kernel void k_4d02f(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    uint v = 7u;
    if (as_long((((char8)(((char)14), ((char)-128), ((char)1), ((char)0), ((char)7), ((char)98), ((char)127), ((char)-90))) >= as_char8(vload8(((gid + 3u) & 511u), (__global const uchar *)in))))) {
        v = in[(gid + 5u) & 1023u];
    }
    res[gid * 8] = (ulong)v;
    out[gid] = (ulong)v * 0x100000001b3UL;
}
