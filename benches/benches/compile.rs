//! Compile latency: SPIR-V bytes to runnable kernels, per clbench module.
//!
//! - `compile/<level>/<module>`: clCreateProgramWithIL + clBuildProgram
//!   (which runs code generation), for every module at -O0 and -O2;
//! - `to_kernel/O2/<module>`: the same plus clCreateKernelsInProgram, i.e.
//!   everything an application does before its first enqueue (the target:
//!   below 10 ms per program).

use std::ptr;

use clift_conformance::*;
use criterion::{criterion_group, criterion_main, Criterion};

/// The clbench modules at optimisation level `level` (`O0` or `O2`), by name.
fn modules(level: &str) -> Vec<(String, Vec<u8>)> {
    let dir = shared_dir().join("clbench/spv").join(level);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "spv"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let name = p.file_stem().and_then(|s| s.to_str()).unwrap_or("?").to_string();
            (name, std::fs::read(&p).expect("read module"))
        })
        .collect()
}

/// clCreateProgramWithIL + clBuildProgram on `dev`.
fn build_program(ctx: cl_context, dev: cl_device_id, il: &[u8]) -> cl_program {
    let p = il_program(ctx, il);
    // SAFETY: valid program and device; no options, no callback.
    check(unsafe { clBuildProgram(p, 1, &dev, ptr::null(), None, ptr::null_mut()) });
    p
}

fn compile(c: &mut Criterion) {
    let ctx = context();
    let dev = device();
    let mut group = c.benchmark_group("compile");
    for level in ["O0", "O2"] {
        for (name, il) in modules(level) {
            group.bench_function(format!("{level}/{name}"), |b| {
                b.iter(|| {
                    let p = build_program(ctx, dev, &il);
                    // SAFETY: valid program, released once.
                    check(unsafe { clReleaseProgram(p) });
                })
            });
        }
    }
    group.finish();

    let mut group = c.benchmark_group("to_kernel");
    for (name, il) in modules("O2") {
        group.bench_function(format!("O2/{name}"), |b| {
            b.iter(|| {
                let p = build_program(ctx, dev, &il);
                let mut n: cl_uint = 0;
                // SAFETY: valid program; asks for the count only.
                check(unsafe { clCreateKernelsInProgram(p, 0, ptr::null_mut(), &mut n) });
                let mut kernels: Vec<cl_kernel> = vec![ptr::null_mut(); n as usize];
                // SAFETY: `kernels` has room for the `n` kernels asked for.
                check(unsafe { clCreateKernelsInProgram(p, n, kernels.as_mut_ptr(), ptr::null_mut()) });
                for k in kernels {
                    // SAFETY: each kernel was just created, released once.
                    check(unsafe { clReleaseKernel(k) });
                }
                // SAFETY: valid program, released once.
                check(unsafe { clReleaseProgram(p) });
            })
        });
    }
    group.finish();
    // SAFETY: valid context, released once.
    check(unsafe { clReleaseContext(ctx) });
}

criterion_group!(benches, compile);
criterion_main!(benches);
