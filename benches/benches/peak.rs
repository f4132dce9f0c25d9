//! Peak integer throughput of a kernel: per work-item, four independent
//! chains of 256 multiply-adds (`a = a * b + c`), with plain `int`
//! arithmetic, `mad24` and `mul24`, over [`N`] work-items and a clFinish.
//! Criterion reports operations (a multiply or an add) per second.

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
    kernel void mul24_chain(global int *o, int b, int c) { CHAINS(MUL24) }\n";

fn peak(c: &mut Criterion) {
    let ctx = context();
    let q = queue(ctx, 0);
    let p = source_program(ctx, SOURCE);
    check(build(p, ""));
    let out = buffer(ctx, CL_MEM_READ_WRITE, 4 * N);
    let mut group = c.benchmark_group("peak_int");
    group.throughput(Throughput::Elements(N as u64 * STEPS * 4 * 2));
    for name in ["plain", "mad24_chain", "mul24_chain"] {
        let k = kernel(p, name);
        check(set_arg(k, 0, &out));
        check(set_arg(k, 1, &3i32));
        check(set_arg(k, 2, &7i32));
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
    release_mem(out);
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseProgram(p));
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

criterion_group!(benches, peak);
criterion_main!(benches);
