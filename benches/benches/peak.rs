//! Peak throughput of a kernel: per work-item, four independent chains of
//! 256 multiply-adds (`a = a * b + c`), with plain `int` arithmetic,
//! `mad24`, `mul24` and `long` arithmetic (`peak_int`), and with `half`, `float` and
//! `double` multiplies and adds, not contracted (`peak_fp`), over [`N`] work-items
//! and a clFinish. Criterion reports operations (a multiply or an add) per
//! second.

use std::ptr;

use clift_conformance::programs::source_program;
use clift_conformance::*;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const N: usize = 1 << 16;
const STEPS: u64 = 256;

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
    kernel void long_chain(global int *o, int b, int c) { \
    int i = (int)get_global_id(0); long lb = b, lc = c; long a0 = i, a1 = i + 1, a2 = i + 2, a3 = i + 3; \
    for (int k = 0; k < 256; k++) { a0 = a0 * lb + lc; a1 = a1 * lb + lc; a2 = a2 * lb + lc; a3 = a3 * lb + lc; } \
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

/// Benchmarks kernels `names` of `p` (arguments: `out`, then the two of
/// `bc`) as group `group`, each enqueued on `q` and finished.
fn chains<T>(
    c: &mut Criterion,
    group: &str,
    q: cl_command_queue,
    p: cl_program,
    names: &[&str],
    out: cl_mem,
    bc: (T, T),
) {
    let mut group = c.benchmark_group(group);
    group.throughput(Throughput::Elements(N as u64 * STEPS * 4 * 2));
    for &name in names {
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
        &["plain", "mad24_chain", "mul24_chain", "long_chain"],
        out,
        (3i32, 7i32),
    );
    chains(
        c,
        "peak_fp",
        q,
        fp,
        &["half_chain", "float_chain", "double_chain"],
        out,
        (0.5f32, 0.25f32),
    );
    release_mem(out);
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseProgram(p));
        check(clReleaseProgram(fp));
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

criterion_group!(benches, peak);
criterion_main!(benches);
