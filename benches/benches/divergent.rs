//! Loops whose trip counts differ between neighbouring work-items, in a
//! 4-lane body (`-cl-clift-max-lanes=4`) and an 8-lane one
//! (`-cl-clift-min-lanes=8`): the measurements behind the width the
//! build picks for such loops (ARCHITECTURE.md, "8-lane bodies"). One
//! launch over [`N`] work-items and a clFinish per iteration; criterion
//! reports work-items per second.
//! - `escape`: z = z^2 + c until |z| > 2 or 256 steps, c on a grid
//!   crossing the Mandelbrot set's boundary (a latency-bound float
//!   recurrence, clbench's mandelbrot);
//! - `collatz`: the Collatz steps of i + 1 (an integer recurrence; the
//!   counts of neighbours differ by up to a few hundred);
//! - `ragged`: a sum of `1 + (i * 37) % 64` loads per work-item (memory
//!   work, the chain is one add).

use std::ptr;

use clift_conformance::programs::source_program;
use clift_conformance::*;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const N: usize = 1 << 16;

const SOURCE: &str = "kernel void escape(global uint *o, global const float *x) {\n\
    uint i = get_global_id(0);\n\
    float cx = -2.0f + (float)(i % 256) * (2.5f / 256.0f), cy = -1.25f + (float)(i / 256) * (2.5f / 256.0f);\n\
    float zx = 0.0f, zy = 0.0f; uint it = 0;\n\
    while (it < 256) { float zx2 = zx * zx, zy2 = zy * zy; if (zx2 + zy2 > 4.0f) break;\n\
    zy = 2.0f * zx * zy + cy; zx = zx2 - zy2 + cx; it++; }\n\
    o[i] = it; }\n\
    kernel void collatz(global uint *o, global const float *x) {\n\
    uint i = get_global_id(0); ulong n = i + 1; uint steps = 0;\n\
    while (n != 1) { n = (n & 1) ? 3 * n + 1 : n >> 1; steps++; }\n\
    o[i] = steps; }\n\
    kernel void ragged(global uint *o, global const float *x) {\n\
    uint i = get_global_id(0); uint count = 1 + (i * 37) % 64; float s = 0.0f;\n\
    for (uint j = 0; j < count; j++) s += x[(i + j * 64) % 65536];\n\
    o[i] = as_uint(s); }\n";

fn divergent(c: &mut Criterion) {
    let ctx = context();
    let q = queue(ctx, 0);
    let out = buffer(ctx, CL_MEM_READ_WRITE, 4 * N);
    let x = buffer(ctx, CL_MEM_READ_WRITE, 4 * N);
    write_bytes(
        q,
        x,
        0,
        &(0..N)
            .flat_map(|i| (i as f32 * 0.25).to_ne_bytes())
            .collect::<Vec<u8>>(),
    );
    let mut group = c.benchmark_group("divergent");
    group.throughput(Throughput::Elements(N as u64));
    for (lanes, options) in [(4, "-cl-clift-max-lanes=4"), (8, "-cl-clift-min-lanes=8")] {
        let p = source_program(ctx, SOURCE);
        check(build(p, options));
        for name in ["escape", "collatz", "ragged"] {
            let k = kernel(p, name);
            check(set_arg(k, 0, &out));
            check(set_arg(k, 1, &x));
            group.bench_function(format!("{name}_{lanes}lanes"), |b| {
                b.iter(|| {
                    // SAFETY: valid queue and kernel with both arguments
                    // set; N work-items, NULL local size, no events.
                    check(unsafe {
                        clEnqueueNDRangeKernel(q, k, 1, ptr::null(), &N, ptr::null(), 0, ptr::null(), ptr::null_mut())
                    });
                    // SAFETY: valid queue.
                    check(unsafe { clFinish(q) });
                })
            });
            // SAFETY: a valid kernel, released once.
            unsafe { check(clReleaseKernel(k)) };
        }
        // SAFETY: a valid program, released once.
        unsafe { check(clReleaseProgram(p)) };
    }
    group.finish();
    release_mem(out);
    release_mem(x);
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

criterion_group!(benches, divergent);
criterion_main!(benches);
