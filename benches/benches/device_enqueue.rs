//! The cost of a child kernel enqueued from a kernel (`enqueue_kernel`),
//! per child: one work-item of a parent enqueues [`CHILDREN`] children of
//! one empty work-item each, and the host command (the parent and every
//! child) is timed to its completion:
//! - `child_enqueued_and_run`: each child runs;
//! - `child_enqueued_only`: each child waits for a user event nobody sets,
//!   so it is recorded and then dropped without running: what an enqueue
//!   costs the launching work-item, plus the clean-up.

use std::ptr;
use std::time::{Duration, Instant};

use clift_conformance::programs::source_program;
use clift_conformance::*;
use criterion::{criterion_group, criterion_main, Criterion};

const CHILDREN: u64 = 1000;

const SOURCE: &str = "kernel void run(global int *out) {\n\
    for (int i = 0; i < 1000; i++)\n\
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[1] = 1; }); }\n\
    kernel void only(global int *out) {\n\
    clk_event_t never = create_user_event();\n\
    for (int i = 0; i < 1000; i++)\n\
      enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &never, 0, ^{ out[1] = 1; });\n\
    release_event(never); }";

fn device_enqueue(c: &mut Criterion) {
    let ctx = context();
    let q = queue(ctx, 0);
    let props = [
        CL_QUEUE_PROPERTIES as cl_queue_properties,
        (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
            as cl_queue_properties,
        0,
    ];
    let mut err = 0;
    // SAFETY: a zero-terminated property list; valid handles.
    let dq = unsafe { clCreateCommandQueueWithProperties(ctx, device(), props.as_ptr(), &mut err) };
    check(err);
    let p = source_program(ctx, SOURCE);
    check(build(p, "-cl-std=CL2.0"));
    let buf = buffer(ctx, CL_MEM_READ_WRITE, 8);
    let one = 1usize;
    let mut group = c.benchmark_group("device_enqueue");
    for (name, kernel_name) in [("child_enqueued_and_run", "run"), ("child_enqueued_only", "only")] {
        let k = kernel(p, kernel_name);
        check(set_arg(k, 0, &buf));
        group.bench_function(name, |b| {
            b.iter_custom(|n| {
                let commands = n.div_ceil(CHILDREN);
                let t = Instant::now();
                for _ in 0..commands {
                    // SAFETY: valid handles; one work-item.
                    check(unsafe {
                        clEnqueueNDRangeKernel(q, k, 1, ptr::null(), &one, ptr::null(), 0, ptr::null(), ptr::null_mut())
                    });
                    // SAFETY: a valid queue.
                    check(unsafe { clFinish(q) });
                }
                let d: Duration = t.elapsed();
                d.mul_f64(n as f64 / (commands * CHILDREN) as f64)
            })
        });
        // SAFETY: a kernel created above.
        unsafe { check(clReleaseKernel(k)) };
    }
    group.finish();
    release_mem(buf);
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseProgram(p));
        check(clReleaseCommandQueue(dq));
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

criterion_group!(benches, device_enqueue);
criterion_main!(benches);
