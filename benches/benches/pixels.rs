//! Image code on buffers: one RGBA pixel (`uchar4`) per work-item over
//! [`N`] pixels (16 MiB a buffer) and a clFinish; criterion reports pixels
//! per second.
//!
//! - `gain`: the pixel as `float4`, times a gain plus a bias, back with
//!   `convert_uchar4_sat`.
//! - `blend`: two pixels mixed by a weight in 16-bit integer arithmetic.
//! - `gray`: the luminance of a pixel (integer weights) as one `uchar`.
//! - `blur`: a 3x3 box filter over a 2048 x 2048 image (the same pixels)
//!   with clamped edges, `in[clamp(y + dy, 0, h - 1) * w + clamp(x + dx, 0,
//!   w - 1)]`, summed as `uint4` and divided by 9.
//!
//! What they measure: 8- and 16-bit integers in vector registers, the
//! four lanes' pixels loaded and stored as one 16-byte block, and (blur)
//! blocks through clamped indices.

use std::ptr;

use clift_conformance::programs::source_program;
use clift_conformance::*;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const N: usize = 1 << 22;

const SOURCE: &str = "kernel void gain(global const uchar4 *in, global uchar4 *out, float g, float b)\n\
    {\n\
        size_t i = get_global_id(0);\n\
        out[i] = convert_uchar4_sat(convert_float4(in[i]) * g + b);\n\
    }\n\
    kernel void blend(global const uchar4 *x, global const uchar4 *y, global uchar4 *out, float w)\n\
    {\n\
        size_t i = get_global_id(0);\n\
        ushort a = (ushort)(w * 256.0f), b = (ushort)256 - a;\n\
        ushort4 m = convert_ushort4(x[i]) * a + convert_ushort4(y[i]) * b;\n\
        out[i] = convert_uchar4(m >> (ushort)8);\n\
    }\n\
    kernel void gray(global const uchar4 *in, global uchar *out, float unused_g, float unused_b)\n\
    {\n\
        size_t i = get_global_id(0);\n\
        uchar4 p = in[i];\n\
        out[i] = (uchar)((77 * p.x + 150 * p.y + 29 * p.z) >> 8);\n\
    }\n\
    kernel void blur(global const uchar4 *in, global uchar4 *out)\n\
    {\n\
        int x = get_global_id(0), y = get_global_id(1);\n\
        int w = get_global_size(0), h = get_global_size(1);\n\
        uint4 s = 0;\n\
        for (int dy = -1; dy <= 1; dy++)\n\
            for (int dx = -1; dx <= 1; dx++)\n\
                s += convert_uint4(in[clamp(y + dy, 0, h - 1) * w + clamp(x + dx, 0, w - 1)]);\n\
        out[y * w + x] = convert_uchar4(s / 9);\n\
    }\n";

/// Runs kernel `name` of `p` over `global` (1 or 2 dimensions, [`N`]
/// work-items) with `args` (buffers, then floats) as benchmark `name` of
/// `group`.
fn bench(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    q: cl_command_queue,
    p: cl_program,
    name: &str,
    global: &[usize],
    buffers: &[cl_mem],
    floats: &[f32],
) {
    let k = kernel(p, name);
    for (i, b) in buffers.iter().enumerate() {
        check(set_arg(k, i as u32, b));
    }
    for (j, f) in floats.iter().enumerate() {
        check(set_arg(k, (buffers.len() + j) as u32, f));
    }
    group.bench_function(name, |bch| {
        bch.iter(|| {
            // SAFETY: a valid queue and kernel with every argument set; the
            // global size outlives the call.
            check(unsafe {
                clEnqueueNDRangeKernel(
                    q,
                    k,
                    global.len() as u32,
                    ptr::null(),
                    global.as_ptr(),
                    ptr::null(),
                    0,
                    ptr::null(),
                    ptr::null_mut(),
                )
            });
            // SAFETY: a valid queue.
            check(unsafe { clFinish(q) });
        })
    });
    // SAFETY: a valid kernel, released once.
    check(unsafe { clReleaseKernel(k) });
}

fn pixels(c: &mut Criterion) {
    let ctx = context();
    let q = queue(ctx, 0);
    let p = source_program(ctx, SOURCE);
    check(build(p, ""));
    let bytes: Vec<u8> = (0..4 * N).map(|i| (i * 37 + i / 7) as u8).collect();
    let x = buffer(ctx, CL_MEM_READ_WRITE, 4 * N);
    let y = buffer(ctx, CL_MEM_READ_WRITE, 4 * N);
    let out = buffer(ctx, CL_MEM_READ_WRITE, 4 * N);
    write_bytes(q, x, 0, &bytes);
    write_bytes(q, y, 0, &bytes[..].iter().rev().copied().collect::<Vec<u8>>());
    let mut group = c.benchmark_group("pixels");
    group.throughput(Throughput::Elements(N as u64));
    bench(&mut group, q, p, "gain", &[N], &[x, out], &[1.25, -8.0]);
    bench(&mut group, q, p, "blend", &[N], &[x, y, out], &[0.3]);
    bench(&mut group, q, p, "gray", &[N], &[x, out], &[0.0, 0.0]);
    bench(&mut group, q, p, "blur", &[2048, N / 2048], &[x, out], &[]);
    group.finish();
    for b in [x, y, out] {
        release_mem(b);
    }
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseProgram(p));
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

criterion_group!(benches, pixels);
criterion_main!(benches);
