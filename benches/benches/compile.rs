//! Compile latency: SPIR-V bytes to a built program, per clbench module.

use std::ptr;

use clift_conformance::*;
use criterion::{criterion_group, criterion_main, Criterion};

fn compile(c: &mut Criterion) {
    let ctx = context();
    let dev = device();
    let mut group = c.benchmark_group("compile");
    for level in ["O0", "O2"] {
        let dir = shared_dir().join("clbench/spv").join(level);
        let mut modules: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "spv"))
            .collect();
        modules.sort();
        for path in modules {
            let il = std::fs::read(&path).expect("read module");
            let name = format!("{level}/{}", path.file_stem().and_then(|s| s.to_str()).unwrap_or("?"));
            group.bench_function(name, |b| {
                b.iter(|| {
                    let p = il_program(ctx, &il);
                    // SAFETY: valid program and device; no callback.
                    check(unsafe { clBuildProgram(p, 1, &dev, ptr::null(), None, ptr::null_mut()) });
                    // SAFETY: valid program, released once.
                    check(unsafe { clReleaseProgram(p) });
                })
            });
        }
    }
    group.finish();
    // SAFETY: valid context, released once.
    check(unsafe { clReleaseContext(ctx) });
}

criterion_group!(benches, compile);
criterion_main!(benches);
