// seed: 100415
// At -O0, as_ulong of a constant short4 inside a vector literal became a bitcast inside a vector constant, which llvm-spirv 15 wrote before the constant it is made of: an invalid module clift refused ("OpSpecConstantOp %N: %M is used before it is defined"). Fixed in runtime/src/compiler (an invalid module from llvm-spirv counts as a failed translation; constant bitcasts of literals are folded to the constants they make).
__kernel void k_1883f(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    ulong2 x = vload2(gid & 31u, (__global const ulong *)in);
    ulong8 v = (ulong8)(as_ulong((short4)((short)-1)), x, x, x, (ulong)gid);
    out[gid] = v.s0 ^ v.s1 ^ (v.s2 << 1) ^ (v.s7 * 3u);
}
