//! API spec 5.10: kernels running through clEnqueueNDRangeKernel and
//! clEnqueueTask, through the loader: clbench's vadd, saxpy and sgemm_naive
//! (clang-15 at -O0 and -O2) with explicit and NULL local sizes, a global
//! offset and a non-uniform global size, verified against the host; the
//! work-item functions of a 3D range with non-uniform groups and an offset
//! (the corpus's `workitem` module); clbench's reduce (barriers in a loop,
//! in a function the kernel wrapper calls); a kernel code generation does
//! not support yet; profiling of kernel commands.

#![allow(deprecated)] // clEnqueueTask

use std::ffi::c_void;
use std::ptr;

use clift_conformance::exec;
use clift_conformance::*;

const OPTS: [&str; 2] = ["O0", "O2"];

struct Setup {
    ctx: cl_context,
    queue: cl_command_queue,
    program: cl_program,
    kernel: cl_kernel,
}

impl Setup {
    fn new(module: &str, name: &str, props: cl_command_queue_properties) -> Setup {
        Setup::with_il(&spirv(module), name, props)
    }

    fn with_il(il: &[u8], name: &str, props: cl_command_queue_properties) -> Setup {
        let ctx = context();
        let q = queue(ctx, props);
        let program = il_program(ctx, il);
        check(build(program, ""));
        let kernel = kernel(program, name);
        Setup {
            ctx,
            queue: q,
            program,
            kernel,
        }
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        // SAFETY: handles the test owns.
        unsafe {
            clReleaseKernel(self.kernel);
            clReleaseProgram(self.program);
            clReleaseCommandQueue(self.queue);
            clReleaseContext(self.ctx);
        }
    }
}

fn floats_to_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_ne_bytes()).collect()
}

fn bytes_to_floats(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn float_buffer(s: &Setup, v: &[f32]) -> cl_mem {
    let m = buffer(s.ctx, CL_MEM_READ_WRITE, v.len() * 4);
    write_bytes(s.queue, m, 0, &floats_to_bytes(v));
    m
}

fn read_floats(s: &Setup, m: cl_mem, n: usize) -> Vec<f32> {
    bytes_to_floats(&read_bytes(s.queue, m, 0, n * 4))
}

/// clEnqueueNDRangeKernel with an event; waits for it and returns it.
fn run(s: &Setup, offset: Option<&[usize]>, global: &[usize], local: Option<&[usize]>) -> Result<cl_event, cl_int> {
    let p = |a: Option<&[usize]>| a.map_or(ptr::null(), |a| a.as_ptr());
    let mut ev: cl_event = ptr::null_mut();
    // SAFETY: the arrays hold `global.len()` entries.
    let rc = unsafe {
        clEnqueueNDRangeKernel(
            s.queue,
            s.kernel,
            global.len() as cl_uint,
            p(offset),
            global.as_ptr(),
            p(local),
            0,
            ptr::null(),
            &mut ev,
        )
    };
    if rc != CL_SUCCESS {
        return Err(rc);
    }
    // SAFETY: a valid event.
    check(unsafe { clWaitForEvents(1, &ev) });
    assert_eq!(event_status(ev), CL_COMPLETE);
    Ok(ev)
}

fn release_event(e: cl_event) {
    // SAFETY: an event the test owns.
    check(unsafe { clReleaseEvent(e) });
}

fn inputs(n: usize) -> (Vec<f32>, Vec<f32>) {
    let a = (0..n).map(|i| (i % 1000) as f32 * 0.5).collect();
    let b = (0..n).map(|i| (i % 777) as f32 - 100.0).collect();
    (a, b)
}

/// vadd over `n` elements with the given range; checks every element (the
/// ones outside the range, or past `n`, keep their sentinel).
fn vadd_case(opt: &str, n: usize, offset: usize, global: usize, local: Option<usize>) {
    let s = Setup::new(&format!("clbench/{opt}/vadd"), "vadd", 0);
    let (a, b) = inputs(n);
    let (ma, mb) = (float_buffer(&s, &a), float_buffer(&s, &b));
    let mc = float_buffer(&s, &vec![-1.0; n]);
    for (i, m) in [ma, mb, mc].iter().enumerate() {
        check(set_arg(s.kernel, i as cl_uint, m));
    }
    check(set_arg(s.kernel, 3, &(n as cl_uint)));
    let off = [offset];
    let loc = local.map(|l| [l]);
    let ev = run(&s, Some(&off), &[global], loc.as_ref().map(|l| &l[..])).expect("enqueue vadd");
    release_event(ev);
    let c = read_floats(&s, mc, n);
    for i in 0..n {
        let want = if i >= offset && i < offset + global {
            a[i] + b[i]
        } else {
            -1.0
        };
        assert_eq!(
            c[i], want,
            "{opt}: c[{i}] (offset {offset}, global {global}, local {local:?})"
        );
    }
    for m in [ma, mb, mc] {
        release_mem(m);
    }
}

const N: usize = 1 << 20;

#[test]
fn vadd_with_an_explicit_local_size() {
    for opt in OPTS {
        vadd_case(opt, N, 0, N, Some(256));
    }
}

#[test]
fn vadd_with_a_null_local_size() {
    for opt in OPTS {
        vadd_case(opt, N, 0, N, None);
    }
}

#[test]
fn vadd_with_a_global_offset() {
    for opt in OPTS {
        vadd_case(opt, N, 1000, N - 5000, Some(64));
    }
}

#[test]
fn vadd_with_a_non_uniform_global_size() {
    for opt in OPTS {
        // 1000003 = 3906 * 256 + 67: the last group has 67 work-items.
        vadd_case(opt, 1_000_003, 0, 1_000_003, Some(256));
        // A global size past n: the kernel's bound check keeps it in range.
        vadd_case(opt, 1000, 0, 1000, Some(3));
    }
}

#[test]
fn saxpy_updates_in_place() {
    for opt in OPTS {
        for local in [Some(128usize), None] {
            let s = Setup::new(&format!("clbench/{opt}/saxpy"), "saxpy", 0);
            let (x, y) = inputs(N);
            let (mx, my) = (float_buffer(&s, &x), float_buffer(&s, &y));
            let alpha = 2.5f32;
            check(set_arg(s.kernel, 0, &alpha));
            check(set_arg(s.kernel, 1, &mx));
            check(set_arg(s.kernel, 2, &my));
            check(set_arg(s.kernel, 3, &(N as cl_uint)));
            let loc = local.map(|l| [l]);
            release_event(run(&s, None, &[N], loc.as_ref().map(|l| &l[..])).expect("enqueue saxpy"));
            let out = read_floats(&s, my, N);
            for i in 0..N {
                assert_eq!(out[i], alpha * x[i] + y[i], "{opt}: y[{i}]");
            }
            release_mem(mx);
            release_mem(my);
        }
    }
}

#[test]
fn sgemm_naive_matches_the_host() {
    let (m, n, k) = (64usize, 64usize, 64usize);
    let a: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| ((i * 5) % 11) as f32 * 0.25).collect();
    let mut want = vec![0f32; m * n];
    for r in 0..m {
        for c in 0..n {
            let mut acc = 0f32;
            for x in 0..k {
                acc += a[r * k + x] * b[x * n + c];
            }
            want[r * n + c] = acc;
        }
    }
    for opt in OPTS {
        for local in [Some([8usize, 4]), None] {
            let s = Setup::new(&format!("clbench/{opt}/sgemm_naive"), "sgemm_naive", 0);
            let (ma, mb) = (float_buffer(&s, &a), float_buffer(&s, &b));
            let mc = float_buffer(&s, &vec![0.0; m * n]);
            for (i, mem) in [ma, mb, mc].iter().enumerate() {
                check(set_arg(s.kernel, i as cl_uint, mem));
            }
            for (i, v) in [m, n, k].iter().enumerate() {
                check(set_arg(s.kernel, 3 + i as cl_uint, &(*v as cl_uint)));
            }
            let loc = local.as_ref().map(|l| &l[..]);
            release_event(run(&s, None, &[n, m], loc).expect("enqueue sgemm_naive"));
            let c = read_floats(&s, mc, m * n);
            for i in 0..m * n {
                // Small integers and quarters: exact in any summation order.
                assert_eq!(c[i], want[i], "{opt}: C[{i}] (local {local:?})");
            }
            for mem in [ma, mb, mc] {
                release_mem(mem);
            }
        }
    }
}

#[test]
fn a_task_runs_one_work_item() {
    let s = Setup::new("clbench/O2/vadd", "vadd", 0);
    let (ma, mb) = (float_buffer(&s, &[1.0, 2.0]), float_buffer(&s, &[10.0, 20.0]));
    let mc = float_buffer(&s, &[0.0, 0.0]);
    for (i, m) in [ma, mb, mc].iter().enumerate() {
        check(set_arg(s.kernel, i as cl_uint, m));
    }
    check(set_arg(s.kernel, 3, &2u32));
    let mut ev: cl_event = ptr::null_mut();
    // SAFETY: valid handles and event slot.
    check(unsafe { clEnqueueTask(s.queue, s.kernel, 0, ptr::null(), &mut ev) });
    // SAFETY: a valid event.
    check(unsafe { clWaitForEvents(1, &ev) });
    let ty: cl_command_type =
        // SAFETY: forwards the buffer protocol of `info_value`.
        info_value(|sz, v, r| unsafe { clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sz, v, r) });
    assert_eq!(ty, CL_COMMAND_TASK);
    release_event(ev);
    assert_eq!(read_floats(&s, mc, 2), [11.0, 0.0]);
    for m in [ma, mb, mc] {
        release_mem(m);
    }
}

#[test]
fn clbench_reduce_runs_its_barriers() {
    // A grid-stride sum, then a __local tree with a barrier in a loop: one
    // partial sum per work-group. 4 groups of 16 over 1000 inputs.
    for opt in OPTS {
        let s = Setup::new(&format!("clbench/{opt}/reduce"), "reduce", 0);
        let input: Vec<f32> = (0..1000).map(|i| (i % 17) as f32).collect();
        let (inp, part) = (float_buffer(&s, &input), float_buffer(&s, &[0.0; 4]));
        check(set_arg(s.kernel, 0, &inp));
        check(set_arg(s.kernel, 1, &part));
        // SAFETY: a __local argument: a size and a NULL value.
        check(unsafe { clSetKernelArg(s.kernel, 2, 16 * 4, ptr::null::<c_void>()) });
        check(set_arg(s.kernel, 3, &1000u32));
        release_event(run(&s, None, &[64], Some(&[16])).expect("enqueue"));
        let got = read_floats(&s, part, 4);
        for (g, &v) in got.iter().enumerate() {
            // Group g sums the inputs whose index mod 64 is in [16g, 16g+16).
            let want: f32 = input
                .iter()
                .enumerate()
                .filter(|(i, _)| (i % 64) / 16 == g)
                .map(|(_, &x)| x)
                .sum();
            assert_eq!(v, want, "{opt}: group {g}");
        }
        release_mem(inp);
        release_mem(part);
    }
}

#[test]
fn a_kernel_code_generation_does_not_support_cannot_run() {
    // A private array larger than a work-item's stack: the validator takes
    // it, code generation refuses it; the build succeeds, the log names the
    // kernel and why, and its enqueue fails.
    for opt in [exec::Opt::O0, exec::Opt::O2] {
        let s = Setup::with_il(&exec::corpus_spirv("unsupported", opt), "too_much_private_memory", 0);
        let log = build_log(s.program, device());
        assert!(
            log.contains("kernel \"too_much_private_memory\" cannot run yet: "),
            "{opt:?}: log {log:?}"
        );
        assert!(log.contains("KiB of stack"), "{opt:?}: log {log:?}");
        let m = float_buffer(&s, &[0.0; 16]);
        check(set_arg(s.kernel, 0, &m));
        check(set_arg(s.kernel, 1, &4i32));
        expect_err(run(&s, None, &[16], None).unwrap_err(), CL_INVALID_PROGRAM_EXECUTABLE);
        release_mem(m);
    }
}

#[test]
fn kernel_commands_are_profiled() {
    let s = Setup::new("clbench/O2/vadd", "vadd", CL_QUEUE_PROFILING_ENABLE);
    let (a, b) = inputs(N);
    let (ma, mb) = (float_buffer(&s, &a), float_buffer(&s, &b));
    let mc = float_buffer(&s, &vec![0.0; N]);
    for (i, m) in [ma, mb, mc].iter().enumerate() {
        check(set_arg(s.kernel, i as cl_uint, m));
    }
    check(set_arg(s.kernel, 3, &(N as cl_uint)));
    let ev = run(&s, None, &[N], Some(&[1024])).expect("enqueue vadd");
    let ty: cl_command_type =
        // SAFETY: forwards the buffer protocol of `info_value`.
        info_value(|sz, v, r| unsafe { clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sz, v, r) });
    assert_eq!(ty, CL_COMMAND_NDRANGE_KERNEL);
    let t = |p: cl_profiling_info| -> cl_ulong {
        // SAFETY: forwards the buffer protocol of `info_value`.
        info_value(|sz, v, r| unsafe { clGetEventProfilingInfo(ev, p, sz, v, r) })
    };
    let (queued, submit, start, end) = (
        t(CL_PROFILING_COMMAND_QUEUED),
        t(CL_PROFILING_COMMAND_SUBMIT),
        t(CL_PROFILING_COMMAND_START),
        t(CL_PROFILING_COMMAND_END),
    );
    assert!(
        queued <= submit && submit <= start && start < end,
        "{queued} {submit} {start} {end}"
    );
    release_event(ev);
    let c = read_floats(&s, mc, N);
    assert!((0..N).all(|i| c[i] == a[i] + b[i]));
    for m in [ma, mb, mc] {
        release_mem(m);
    }
}

#[test]
fn work_item_functions_in_a_3d_range() {
    // kernel void ids_constant_dims(global uint *out): at the work-item's
    // global linear position (offset included), its local ids, group ids,
    // group count, offset and enqueued local size combined.
    let (offset, global, local) = ([1usize, 2, 3], [6usize, 5, 3], [4usize, 2, 2]);
    let len = (offset[2] + global[2]) * global[0] * global[1] + 64;
    for opt in OPTS {
        let path = format!("{}/corpus/spv/{opt}/workitem.spv", env!("CARGO_MANIFEST_DIR"));
        let il = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let s = Setup::with_il(&il, "ids_constant_dims", 0);
        let out = buffer(s.ctx, CL_MEM_READ_WRITE, len * 4);
        write_bytes(s.queue, out, 0, &vec![0xff; len * 4]);
        check(set_arg(s.kernel, 0, &out));
        release_event(run(&s, Some(&offset), &global, Some(&local)).expect("enqueue ids_constant_dims"));
        let got = read_bytes(s.queue, out, 0, len * 4);
        let got: Vec<u32> = got
            .chunks_exact(4)
            .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let groups: Vec<usize> = (0..3).map(|d| global[d].div_ceil(local[d])).collect();
        let mut want = vec![u32::MAX; len];
        for z in 0..global[2] {
            for y in 0..global[1] {
                for x in 0..global[0] {
                    let item = [x, y, z];
                    let gid: Vec<usize> = (0..3).map(|d| item[d] + offset[d]).collect();
                    let g = gid[0] + gid[1] * global[0] + gid[2] * global[0] * global[1];
                    let grp: Vec<usize> = (0..3).map(|d| item[d] / local[d]).collect();
                    let lid: Vec<usize> = (0..3).map(|d| item[d] % local[d]).collect();
                    want[g] = (lid[0] + lid[1] * 10 + lid[2] * 100) as u32
                        + (grp.iter().sum::<usize>() * 1000) as u32
                        + groups.iter().product::<usize>() as u32
                        + offset.iter().sum::<usize>() as u32
                        + local.iter().sum::<usize>() as u32;
                }
            }
        }
        assert_eq!(got, want, "{opt}");
        release_mem(out);
    }
}
