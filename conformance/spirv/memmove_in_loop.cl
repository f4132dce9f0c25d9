// A struct copied from __global to __local memory through a temporary, in
// a loop (pyopencl's scan kernels do this): LLVM's memcpyopt turns the two
// copies into one llvm.memmove, which llvm-spirv 15 translates as a copy
// through a Function variable placed in the loop's block, not in the
// function's first block. Made into memmove_in_loop.spv by (see README.md)
//   clang-15 -target spir64 -x cl -cl-std=CL1.2 -O2 -Xclang -disable-llvm-passes -emit-llvm -c memmove_in_loop.cl -o raw.bc
//   opt-15 -passes="<opt-15's default<O2> pipeline without div-rem-pairs>" raw.bc -o opt.bc
//   llvm-spirv-15 --spirv-max-version=1.0 opt.bc -o memmove_in_loop.spv
// Each group of 8 work-items stages 128 quads in `tile` (element o at
// tile[o % 16][o / 16]) and writes element o back with a += o.
typedef struct { int a, b, c, d; } quad;
struct wrapped { quad value; };
#define K 16
#define WG 8
__kernel void stage(__global const quad *in, __global quad *out) {
    __local struct wrapped tile[K + 1][WG + 1];
    int l = get_local_id(0);
    int base = get_group_id(0) * K * WG;
    for (int k = 0; k < K; k++) {
        int o = k * WG + l;
        quad v = in[base + o];
        tile[o % K][o / K].value = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < K; k++) {
        int o = k * WG + l;
        quad q = tile[o % K][o / K].value;
        q.a += o;
        out[base + o] = q;
    }
}
