//! Throughput of the common math built-ins in a kernel: one
//! launch of `y[i] = f(x[i])` over [`N`] floats (or doubles: the `_double`
//! functions) in (0.1, 10) (asin's argument a tenth of that, tanh's a
//! fifth; atan2 and hypot of x and 5 - x; `atan2pi_double`, `atan2pi(x,
//! 5 - x) + acospi(x / 10)`; `length_double`, the length of `(x, 5 - x,
//! 1.5)`; `logb`, `logb(x) +
//! ilogb(3 * x)`; `powr`, `powr(x, 2.5f)`; `rootn`, `rootn(x, 3)`; `convert_long`, a float to
//! `long` and back; `index_float`, `x[i] * 1e-6f + (float)i * 0.5f`;
//! `index_int`, `x[i] * 3.0f + 1.0f` with `int i = get_global_id(0)`;
//! `index_modulo`, `x[i] + (float)(i % 1000)`; `index_ring`, `x[(i + 7) % n] * 2.0f +
//! x[(i + n - 1) % n]`; `index_clamped`, `x[clamp(i - 1, 0, n - 1)] +
//! x[i] * 2.0f + x[min(i + 1, n - 1)]`; `index_selected`, the same with
//! `i > 0 ? i - 1 : i` and `i + 1 < n ? i + 1 : i`; `index_reversed`,
//! `x[n - 1 - i] * 2.0f + 1.0f`; `sincos`, the sine plus the cosine
//! stored through a pointer; `fract`, `fract(x * 3.7f, &f) + f`;
//! `vload_half`, the first half of the buffer's bytes as halves, times 2;
//! `vstore_half`, `x * 3` stored as halves; `fmod`, `fmod(x * 7.3f, 1.7f)`;
//! `points3`, the squared length of a struct of three floats, over a
//! third as many work-items; `vload3`, the same of `vload3(i, x)`;
//! `rotate_ushort`, `rotate(p[i], p[i] >> 4) + popcount(p[i])` of the
//! buffer's first half as `ushort`s; `mad_sat`, `mad_sat(v, v >> 7, v ^
//! 0x5a5a5a5a)` of the float's bits as an `int`; `rotate_ulong`, two
//! rotates by constants of a `ulong` made from them)
//! and a clFinish, per function
//! (`conformance/kernels/cl/bench_math.cl`, clang -O2). Criterion reports
//! elements per second.

use std::ptr;

use clift_conformance::exec::{corpus_spirv, Opt};
use clift_conformance::*;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const N: usize = 1 << 20;

const FUNCTIONS: [&str; 59] = [
    "sin",
    "cos",
    "exp",
    "log",
    "pow",
    "sqrt",
    "erf",
    "rsqrt",
    "atan",
    "tanh",
    "asinh",
    "atan2",
    "erfc",
    "cbrt",
    "hypot",
    "round",
    "smoothstep",
    "normalize",
    "convert_rte",
    "logb",
    "powr",
    "rootn",
    "convert_long",
    "index_float",
    "index_int",
    "index_modulo",
    "index_ring",
    "index_clamped",
    "index_selected",
    "index_reversed",
    "sincos",
    "fract",
    "vload_half",
    "vstore_half",
    "fmod",
    "points3",
    "vload3",
    "rotate_ushort",
    "mad_sat",
    "rotate_ulong",
    "exp_double",
    "log_double",
    "sin_double",
    "pow_double",
    "tan_double",
    "erf_double",
    "atan_double",
    "asin_double",
    "expm1_double",
    "tanh_double",
    "cosh_double",
    "log1p_double",
    "atan2_double",
    "asinh_double",
    "erfc_double",
    "cbrt_double",
    "hypot_double",
    "atan2pi_double",
    "length_double",
];

fn math(c: &mut Criterion) {
    let ctx = context();
    let q = queue(ctx, 0);
    let p = il_program(ctx, &corpus_spirv("bench_math", Opt::O2));
    check(build(p, ""));
    // The arguments' bytes in one buffer, room for the results in another.
    let buffers = |xs: Vec<u8>| {
        let x = buffer(ctx, CL_MEM_READ_WRITE, xs.len());
        let y = buffer(ctx, CL_MEM_READ_WRITE, xs.len());
        write_bytes(q, x, 0, &xs);
        (x, y)
    };
    let at = |i: usize| 0.1 + 9.9 * (i as f64 / N as f64);
    let (x, y) = buffers((0..N).flat_map(|i| (at(i) as f32).to_ne_bytes()).collect());
    let (x_double, y_double) = buffers((0..N).flat_map(|i| at(i).to_ne_bytes()).collect());
    let mut group = c.benchmark_group("math");
    group.throughput(Throughput::Elements(N as u64));
    for f in FUNCTIONS {
        let k = kernel(p, &format!("math_{f}"));
        let (x, y) = if f.ends_with("_double") {
            (x_double, y_double)
        } else {
            (x, y)
        };
        check(set_arg(k, 0, &x));
        check(set_arg(k, 1, &y));
        // `points3` and `vload3` read three floats per work-item: a third
        // of them.
        let global = if matches!(f, "points3" | "vload3") { N / 3 } else { N };
        group.throughput(Throughput::Elements(global as u64));
        group.bench_function(f, |b| {
            b.iter(|| {
                // SAFETY: valid queue and kernel with both arguments set;
                // `global` work-items, NULL local size, no events.
                check(unsafe {
                    clEnqueueNDRangeKernel(
                        q,
                        k,
                        1,
                        ptr::null(),
                        &global,
                        ptr::null(),
                        0,
                        ptr::null(),
                        ptr::null_mut(),
                    )
                });
                // SAFETY: valid queue.
                check(unsafe { clFinish(q) });
            })
        });
        // SAFETY: a valid kernel, released once.
        unsafe { check(clReleaseKernel(k)) };
    }
    group.finish();
    for m in [x, y, x_double, y_double] {
        release_mem(m);
    }
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseProgram(p));
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

criterion_group!(benches, math);
criterion_main!(benches);
