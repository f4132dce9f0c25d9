//! Enqueue cost: a marker through the queue and scheduler, asynchronously
//! (a batch of enqueues, then one clFinish) and synchronously (clFinish after
//! each). Kernel launches join this benchmark when kernels run.

use std::ptr;
use std::time::{Duration, Instant};

use clift_conformance::*;
use criterion::{criterion_group, criterion_main, Criterion};

const BATCH: u32 = 10_000;

fn enqueue(c: &mut Criterion) {
    let ctx = context();
    let q = queue(ctx, 0);
    let mut group = c.benchmark_group("enqueue");
    group.bench_function("marker_async_per_enqueue", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let batches = iters.div_ceil(BATCH as u64);
            for _ in 0..batches {
                let t = Instant::now();
                for _ in 0..BATCH {
                    // SAFETY: valid queue; no event returned.
                    check(unsafe { clEnqueueMarkerWithWaitList(q, 0, ptr::null(), ptr::null_mut()) });
                }
                // SAFETY: valid queue.
                check(unsafe { clFinish(q) });
                total += t.elapsed();
            }
            // The time criterion asked for: `iters` enqueues at the measured rate.
            total.mul_f64(iters as f64 / (batches * BATCH as u64) as f64)
        })
    });
    group.bench_function("marker_then_finish", |b| {
        b.iter(|| {
            // SAFETY: valid queue; no event returned.
            check(unsafe { clEnqueueMarkerWithWaitList(q, 0, ptr::null(), ptr::null_mut()) });
            // SAFETY: valid queue.
            check(unsafe { clFinish(q) });
        })
    });
    group.finish();
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

criterion_group!(benches, enqueue);
criterion_main!(benches);
