//! Peak throughput of a kernel: per work-item, four independent chains of
//! 256 multiply-adds (`a = a * b + c`), with plain `int` arithmetic,
//! `mad24`, `mul24` and `long` arithmetic (`peak_int`; and `shift_chain`,
//! `a = (a << (a & b)) + c`: a shift by a count per work-item and an add;
//! the `div_` chains, a division by a uniform divisor, a constant or one
//! per work-item, and an add; `long_div_chain`, the same of `long`s),
//! and with `half`, `float` and
//! `double` multiplies and adds, not contracted (`peak_fp`), over [`N`] work-items
//! and a clFinish. Criterion reports operations (a multiply or an add) per
//! second.

use std::ptr;

use clift_conformance::programs::source_program;
use clift_conformance::*;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const N: usize = 1 << 16;
const STEPS: u64 = 256;

/// The operations of one work-item of four chains of [`STEPS`]
/// multiply-adds.
const FOUR_CHAINS: u64 = STEPS * 4 * 2;

const SOURCE: &str = "#define CHAINS(step) \\\n\
    int i = (int)get_global_id(0); int a0 = i, a1 = i + 1, a2 = i + 2, a3 = i + 3; \\\n\
    for (int k = 0; k < 256; k++) { a0 = step(a0); a1 = step(a1); a2 = step(a2); a3 = step(a3); } \\\n\
    o[i] = a0 ^ a1 ^ a2 ^ a3;\n\
    #define PLAIN(x) ((x) * b + c)\n\
    #define MAD24(x) mad24((x), b, c)\n\
    #define MUL24(x) (mul24((x), b) + c)\n\
    kernel void plain(global int *o, int b, int c) { CHAINS(PLAIN) }\n\
    kernel void mad24_chain(global int *o, int b, int c) { CHAINS(MAD24) }\n\
    kernel void mul24_chain(global int *o, int b, int c) { CHAINS(MUL24) }\n\
    #define SHIFTS(x) (((x) << ((x) & b)) + c)\n\
    kernel void shift_chain(global int *o, int b, int c) { CHAINS(SHIFTS) }\n\
    #define DIV_UNIFORM(x) ((x) / b + c)\n\
    #define DIV_CONSTANT(x) ((x) / 7 + c)\n\
    #define DIV_LANES(x) ((x) / (((x) & 255) | 1) + c)\n\
    kernel void div_uniform_chain(global int *o, int b, int c) { CHAINS(DIV_UNIFORM) }\n\
    kernel void div_constant_chain(global int *o, int b, int c) { CHAINS(DIV_CONSTANT) }\n\
    kernel void div_lanes_chain(global int *o, int b, int c) { CHAINS(DIV_LANES) }\n\
    kernel void long_chain(global int *o, int b, int c) { \
    int i = (int)get_global_id(0); long lb = b, lc = c; long a0 = i, a1 = i + 1, a2 = i + 2, a3 = i + 3; \
    for (int k = 0; k < 256; k++) { a0 = a0 * lb + lc; a1 = a1 * lb + lc; a2 = a2 * lb + lc; a3 = a3 * lb + lc; } \
    o[i] = (int)(a0 ^ a1 ^ a2 ^ a3); }\n\
    kernel void long_div_chain(global int *o, int b, int c) { \
    int i = (int)get_global_id(0); long lb = b, lc = c; long a0 = i, a1 = i + 1, a2 = i + 2, a3 = i + 3; \
    for (int k = 0; k < 256; k++) { a0 = a0 / lb + lc; a1 = a1 / lb + lc; a2 = a2 / lb + lc; a3 = a3 / lb + lc; } \
    o[i] = (int)(a0 ^ a1 ^ a2 ^ a3); }\n";

const FP_SOURCE: &str = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
    #pragma OPENCL FP_CONTRACT OFF\n\
    #define CHAINS(T) \\\n\
    int i = (int)get_global_id(0); T b = (T)bf, c = (T)cf; \\\n\
    T a0 = (T)(i & 7), a1 = a0 + (T)1, a2 = a0 + (T)2, a3 = a0 + (T)3; \\\n\
    for (int k = 0; k < 256; k++) { \\\n\
    a0 = a0 * b + c; a1 = a1 * b + c; a2 = a2 * b + c; a3 = a3 * b + c; } \\\n\
    o[i] = (float)(a0 + a1 + a2 + a3);\n\
    kernel void half_chain(global float *o, float bf, float cf) { CHAINS(half) }\n\
    kernel void float_chain(global float *o, float bf, float cf) { CHAINS(float) }\n\
    kernel void double_chain(global float *o, float bf, float cf) { CHAINS(double) }\n";

/// One chain per work-item of OpenCL vector type `T<W>` (int4 to int16,
/// float4 to float16): its components are independent chains, each a
/// vector register per 4-lane part.
const VECTOR_SOURCE: &str = "#pragma OPENCL FP_CONTRACT OFF\n\
    #define VCHAIN(T, W, S) \\\n\
    int i = (int)get_global_id(0); T##W a = (T##W)((T)(i & 7)) + (T##W)(S); \\\n\
    for (int k = 0; k < 256; k++) a = a * (T##W)(b) + (T##W)(c); \\\n\
    T s = 0; for (int j = 0; j < W; j++) s += a[j]; o[i] = s;\n\
    #define S4 0, 1, 2, 3\n\
    #define S8 S4, 4, 5, 6, 7\n\
    #define S16 S8, 8, 9, 10, 11, 12, 13, 14, 15\n\
    kernel void int4_chain(global int *o, int b, int c) { VCHAIN(int, 4, S4) }\n\
    kernel void int8_chain(global int *o, int b, int c) { VCHAIN(int, 8, S8) }\n\
    kernel void int16_chain(global int *o, int b, int c) { VCHAIN(int, 16, S16) }\n\
    kernel void float4_chain(global float *o, int b, int c) { VCHAIN(float, 4, S4) }\n\
    kernel void float8_chain(global float *o, int b, int c) { VCHAIN(float, 8, S8) }\n\
    kernel void float16_chain(global float *o, int b, int c) { VCHAIN(float, 16, S16) }\n";

/// Benchmarks kernels `names` of `p` (arguments: `out`, then the two of
/// `bc`) as group `group`, each enqueued on `q` and finished; each name
/// with the operations one work-item does.
fn chains<T>(
    c: &mut Criterion,
    group: &str,
    q: cl_command_queue,
    p: cl_program,
    names: &[(&str, u64)],
    out: cl_mem,
    bc: (T, T),
) {
    let mut group = c.benchmark_group(group);
    for &(name, ops) in names {
        group.throughput(Throughput::Elements(N as u64 * ops));
        let k = kernel(p, name);
        check(set_arg(k, 0, &out));
        check(set_arg(k, 1, &bc.0));
        check(set_arg(k, 2, &bc.1));
        group.bench_function(name, |bch| {
            bch.iter(|| {
                // SAFETY: valid handles; one dimension of N work-items.
                check(unsafe {
                    clEnqueueNDRangeKernel(q, k, 1, ptr::null(), &N, ptr::null(), 0, ptr::null(), ptr::null_mut())
                });
                // SAFETY: a valid queue.
                check(unsafe { clFinish(q) });
            })
        });
        // SAFETY: a kernel created above.
        unsafe { check(clReleaseKernel(k)) };
    }
    group.finish();
}

fn peak(c: &mut Criterion) {
    let ctx = context();
    let q = queue(ctx, 0);
    let p = source_program(ctx, SOURCE);
    check(build(p, ""));
    let fp = source_program(ctx, FP_SOURCE);
    check(build(fp, ""));
    let out = buffer(ctx, CL_MEM_READ_WRITE, 4 * N);
    chains(
        c,
        "peak_int",
        q,
        p,
        &[
            ("plain", FOUR_CHAINS),
            ("mad24_chain", FOUR_CHAINS),
            ("mul24_chain", FOUR_CHAINS),
            ("long_chain", FOUR_CHAINS),
            ("shift_chain", FOUR_CHAINS),
            ("div_uniform_chain", FOUR_CHAINS),
            ("div_constant_chain", FOUR_CHAINS),
            ("div_lanes_chain", FOUR_CHAINS),
            ("long_div_chain", FOUR_CHAINS),
        ],
        out,
        (3i32, 7i32),
    );
    chains(
        c,
        "peak_fp",
        q,
        fp,
        &[
            ("half_chain", FOUR_CHAINS),
            ("float_chain", FOUR_CHAINS),
            ("double_chain", FOUR_CHAINS),
        ],
        out,
        (0.5f32, 0.25f32),
    );
    let vp = source_program(ctx, VECTOR_SOURCE);
    check(build(vp, ""));
    let width = |w: u64| STEPS * 2 * w;
    chains(
        c,
        "peak_vector",
        q,
        vp,
        &[
            ("int4_chain", width(4)),
            ("int8_chain", width(8)),
            ("int16_chain", width(16)),
            ("float4_chain", width(4)),
            ("float8_chain", width(8)),
            ("float16_chain", width(16)),
        ],
        out,
        (3i32, 7i32),
    );
    release_mem(out);
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseProgram(p));
        check(clReleaseProgram(fp));
        check(clReleaseProgram(vp));
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

criterion_group!(benches, peak);
criterion_main!(benches);
