//! Scaling with cores (issue 17, item 6): the same kernels on the whole
//! device and on a sub-device of one compute unit
//! (`CL_DEVICE_PARTITION_EQUALLY` 1, whose work runs only on its core), in
//! one run. Each launch is [`N`] work-items and a clFinish; criterion
//! reports work-items per second, and the ratio of a kernel's two rates
//! is its scaling (ideal: the number of cores).
//!
//! - `fma_chains`: compute-bound, four independent chains of 256 `fma`s
//!   per work-item.
//! - `options`: math-bound, the Black-Scholes formula of clbench (`log`,
//!   `sqrt`, `exp`, two `erf`) per work-item.
//! - `vadd`: memory-bound, `c[i] = a[i] + b[i]` over 3 x 16 MiB.

use std::ptr;

use clift_conformance::programs::source_program;
use clift_conformance::*;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const N: usize = 1 << 22;

const SOURCE: &str = "kernel void fma_chains(global float *o, float b, float c)\n\
    {\n\
        size_t i = get_global_id(0);\n\
        float a0 = (float)(i & 7), a1 = a0 + 1.0f, a2 = a0 + 2.0f, a3 = a0 + 3.0f;\n\
        for (int k = 0; k < 256; k++) {\n\
            a0 = fma(a0, b, c); a1 = fma(a1, b, c); a2 = fma(a2, b, c); a3 = fma(a3, b, c);\n\
        }\n\
        o[i] = a0 + a1 + a2 + a3;\n\
    }\n\
    kernel void options(global const float *s, global float *o, float r, float v)\n\
    {\n\
        size_t i = get_global_id(0);\n\
        float x = s[i], t = 0.25f + 0.5f * x / (1.0f + x);\n\
        float sqt = sqrt(t);\n\
        float d1 = (log(x / 10.0f) + (r + 0.5f * v * v) * t) / (v * sqt);\n\
        float d2 = d1 - v * sqt;\n\
        float n1 = 0.5f * (1.0f + erf(d1 * M_SQRT1_2_F));\n\
        float n2 = 0.5f * (1.0f + erf(d2 * M_SQRT1_2_F));\n\
        o[i] = x * n1 - 10.0f * exp(-r * t) * n2;\n\
    }\n\
    kernel void vadd(global const float *a, global const float *b, global float *c)\n\
    {\n\
        size_t i = get_global_id(0);\n\
        c[i] = a[i] + b[i];\n\
    }\n";

/// The first of the sub-devices of one compute unit each.
fn one_core(d: cl_device_id) -> cl_device_id {
    let props = [CL_DEVICE_PARTITION_EQUALLY, 1, 0];
    let mut n = 0;
    // SAFETY: a terminated property list; count only.
    check(unsafe { clCreateSubDevices(d, props.as_ptr(), 0, ptr::null_mut(), &mut n) });
    let mut subs = vec![ptr::null_mut(); n as usize];
    // SAFETY: `subs` has room for `n` handles.
    check(unsafe { clCreateSubDevices(d, props.as_ptr(), n, subs.as_mut_ptr(), ptr::null_mut()) });
    for &s in &subs[1..] {
        // SAFETY: sub-devices created above, released once.
        check(unsafe { clReleaseDevice(s) });
    }
    subs[0]
}

/// One device's context, queue, program and buffers.
struct Setup {
    ctx: cl_context,
    q: cl_command_queue,
    p: cl_program,
    bufs: [cl_mem; 3],
}

impl Setup {
    fn new(d: cl_device_id) -> Setup {
        let mut err = 0;
        // SAFETY: one valid device handle; no callback.
        let ctx = unsafe { clCreateContext(ptr::null(), 1, &d, None, ptr::null_mut(), &mut err) };
        check(err);
        // SAFETY: valid context and device; default properties.
        let q = unsafe { clCreateCommandQueueWithProperties(ctx, d, ptr::null(), &mut err) };
        check(err);
        let p = source_program(ctx, SOURCE);
        check(build(p, ""));
        let bufs = [(); 3].map(|_| buffer(ctx, CL_MEM_READ_WRITE, 4 * N));
        let xs: Vec<u8> = (0..N)
            .flat_map(|i| (1.0f32 + (i % 1000) as f32 * 0.03).to_ne_bytes())
            .collect();
        for &b in &bufs {
            write_bytes(q, b, 0, &xs);
        }
        Setup { ctx, q, p, bufs }
    }

    /// Kernel `name` with its arguments set.
    fn kernel(&self, name: &str) -> cl_kernel {
        let k = kernel(self.p, name);
        let [a, b, c] = self.bufs;
        match name {
            "fma_chains" => {
                check(set_arg(k, 0, &c));
                check(set_arg(k, 1, &0.5f32));
                check(set_arg(k, 2, &0.25f32));
            }
            "options" => {
                check(set_arg(k, 0, &a));
                check(set_arg(k, 1, &c));
                check(set_arg(k, 2, &0.02f32));
                check(set_arg(k, 3, &0.3f32));
            }
            _ => {
                check(set_arg(k, 0, &a));
                check(set_arg(k, 1, &b));
                check(set_arg(k, 2, &c));
            }
        }
        k
    }

    fn release(self) {
        for b in self.bufs {
            release_mem(b);
        }
        // SAFETY: valid handles, released once.
        unsafe {
            check(clReleaseProgram(self.p));
            check(clReleaseCommandQueue(self.q));
            check(clReleaseContext(self.ctx));
        }
    }
}

fn scaling(c: &mut Criterion) {
    let whole = device();
    let one = one_core(whole);
    let units: cl_uint = device_value(whole, CL_DEVICE_MAX_COMPUTE_UNITS);
    let setups = [("whole", Setup::new(whole)), ("one_core", Setup::new(one))];
    let mut group = c.benchmark_group(format!("scaling_{units}_units"));
    group.throughput(Throughput::Elements(N as u64));
    for name in ["fma_chains", "options", "vadd"] {
        for (which, s) in &setups {
            let k = s.kernel(name);
            group.bench_function(format!("{name}/{which}"), |b| {
                b.iter(|| {
                    // SAFETY: valid queue and kernel with its arguments set;
                    // N work-items, NULL local size, no events.
                    check(unsafe {
                        clEnqueueNDRangeKernel(s.q, k, 1, ptr::null(), &N, ptr::null(), 0, ptr::null(), ptr::null_mut())
                    });
                    // SAFETY: valid queue.
                    check(unsafe { clFinish(s.q) });
                })
            });
            // SAFETY: a valid kernel, released once.
            unsafe { check(clReleaseKernel(k)) };
        }
    }
    group.finish();
    for (_, s) in setups {
        s.release();
    }
    // SAFETY: the sub-device created above, released once.
    check(unsafe { clReleaseDevice(one) });
}

criterion_group!(benches, scaling);
criterion_main!(benches);
