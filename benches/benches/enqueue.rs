//! Enqueue and launch cost through the queue and scheduler, asynchronously
//! (batches of [`BATCH`] enqueues, then one clFinish: the time per enqueue)
//! and synchronously (clFinish after each):
//! - `marker_*`: clEnqueueMarkerWithWaitList, the scheduler alone;
//! - `launch_*`: clEnqueueNDRangeKernel of clbench's empty kernel with a
//!   global size of 1 (clbench's launch_async and launch_sync workloads; the
//!   targets: 1.5 us per enqueue asynchronously, 2.6 us with a finish after
//!   each).

use std::ptr;
use std::time::{Duration, Instant};

use clift_conformance::*;
use criterion::{criterion_group, criterion_main, Criterion};

const BATCH: u64 = 10_000;

/// Criterion's `iters` as whole batches of `enqueue` then one clFinish: the
/// time of `iters` enqueues at the measured rate.
fn batched(q: cl_command_queue, iters: u64, enqueue: &dyn Fn()) -> Duration {
    let mut total = Duration::ZERO;
    let batches = iters.div_ceil(BATCH);
    for _ in 0..batches {
        let t = Instant::now();
        for _ in 0..BATCH {
            enqueue();
        }
        // SAFETY: valid queue.
        check(unsafe { clFinish(q) });
        total += t.elapsed();
    }
    total.mul_f64(iters as f64 / (batches * BATCH) as f64)
}

fn enqueue(c: &mut Criterion) {
    let ctx = context();
    let q = queue(ctx, 0);
    let marker = || {
        // SAFETY: valid queue; no event returned.
        check(unsafe { clEnqueueMarkerWithWaitList(q, 0, ptr::null(), ptr::null_mut()) });
    };
    let p = il_program(ctx, &spirv("clbench/O2/empty"));
    check(build(p, ""));
    let k = kernel(p, "empty");
    let buf = buffer(ctx, CL_MEM_READ_WRITE, 4);
    check(set_arg(k, 0, &buf));
    let global = 1usize;
    let launch = || {
        // SAFETY: valid queue and kernel with its argument set; one
        // dimension of global size 1, NULL local size; no event returned.
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
    };
    let finish = || {
        // SAFETY: valid queue.
        check(unsafe { clFinish(q) });
    };

    let mut group = c.benchmark_group("enqueue");
    group.bench_function("marker_async_per_enqueue", |b| {
        b.iter_custom(|n| batched(q, n, &marker))
    });
    group.bench_function("marker_then_finish", |b| {
        b.iter(|| {
            marker();
            finish();
        })
    });
    group.bench_function("launch_async_per_enqueue", |b| {
        b.iter_custom(|n| batched(q, n, &launch))
    });
    group.bench_function("launch_then_finish", |b| {
        b.iter(|| {
            launch();
            finish();
        })
    });
    group.finish();
    release_mem(buf);
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseKernel(k));
        check(clReleaseProgram(p));
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

criterion_group!(benches, enqueue);
criterion_main!(benches);
