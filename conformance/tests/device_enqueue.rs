//! Device-side enqueue through the loader (OpenCL C 6.13.17, API 5.1):
//! kernels built from OpenCL C at -O0 and -O2 that enqueue blocks
//! (`enqueue_kernel` with each flag, 1D/2D/3D ND-ranges with and without
//! local sizes and offsets, captured scalars, pointers and structs,
//! `__local` block arguments), nested enqueues, markers, user events and
//! wait lists, profiling capture, the block kernel queries, a queue filled
//! until `CLK_DEVICE_QUEUE_FULL`, and the host side (block kernels hidden,
//! the parent's event completing after its children). Every result is
//! checked against what the host computes.

use std::ptr;

use clift_conformance::programs::source_program;
use clift_conformance::*;

/// The optimisation levels every program is built at.
const LEVELS: [&str; 2] = ["-cl-opt-disable", ""];

/// A context, a host queue and a default device queue of `size` bytes
/// (None: the preferred size).
struct Setup {
    ctx: cl_context,
    queue: cl_command_queue,
    device_queue: cl_command_queue,
}

impl Setup {
    fn new(size: Option<u32>) -> Setup {
        let ctx = context();
        let queue = queue(ctx, 0);
        let mut props: Vec<cl_queue_properties> = vec![
            CL_QUEUE_PROPERTIES as cl_queue_properties,
            (CL_QUEUE_ON_DEVICE
                | CL_QUEUE_ON_DEVICE_DEFAULT
                | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
                | CL_QUEUE_PROFILING_ENABLE) as cl_queue_properties,
        ];
        if let Some(s) = size {
            props.extend([CL_QUEUE_SIZE as cl_queue_properties, s as cl_queue_properties]);
        }
        props.push(0);
        let mut err = 0;
        // SAFETY: a zero-terminated property list; valid handles.
        let device_queue = unsafe { clCreateCommandQueueWithProperties(ctx, device(), props.as_ptr(), &mut err) };
        check(err);
        Setup {
            ctx,
            queue,
            device_queue,
        }
    }

    /// Builds `src` with `options` (plus -cl-std=CL2.0): the program, or
    /// the build log.
    fn program(&self, src: &str, options: &str) -> Result<cl_program, String> {
        let p = source_program(self.ctx, src);
        let rc = build(p, &format!("-cl-std=CL2.0 {options}"));
        if rc != CL_SUCCESS {
            return Err(format!("build: {}\n{}", error_name(rc), build_log(p, device())));
        }
        Ok(p)
    }

    /// Runs kernel `name` of `src` over `global` work-items with one
    /// `int` output buffer of `n` elements (first argument, zeroed) and
    /// `extra` further arguments set by the caller: the buffer's contents.
    fn run(
        &self,
        src: &str,
        name: &str,
        options: &str,
        n: usize,
        global: usize,
        extra: &dyn Fn(cl_kernel),
    ) -> Vec<i32> {
        let p = self
            .program(src, options)
            .unwrap_or_else(|log| panic!("{name} {options}: {log}"));
        let k = kernel(p, name);
        let out = buffer(self.ctx, CL_MEM_READ_WRITE, n * 4);
        write_bytes(self.queue, out, 0, &vec![0u8; n * 4]);
        check(set_arg(k, 0, &out));
        extra(k);
        let mut ev = ptr::null_mut();
        // SAFETY: valid handles; a 1-dimensional range.
        check(unsafe {
            clEnqueueNDRangeKernel(
                self.queue,
                k,
                1,
                ptr::null(),
                &global,
                ptr::null(),
                0,
                ptr::null(),
                &mut ev,
            )
        });
        // SAFETY: a valid event.
        check(unsafe { clWaitForEvents(1, &ev) });
        assert_eq!(
            event_status(ev),
            CL_COMPLETE as cl_int,
            "{name} {options}: the parent's event"
        );
        let bytes = read_bytes(self.queue, out, 0, n * 4);
        // SAFETY: handles this function created.
        unsafe {
            check(clReleaseEvent(ev));
            check(clReleaseKernel(k));
            check(clReleaseProgram(p));
        }
        release_mem(out);
        bytes
            .chunks_exact(4)
            .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
            .collect()
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        // SAFETY: handles `new` created.
        unsafe {
            clReleaseCommandQueue(self.device_queue);
            clReleaseCommandQueue(self.queue);
            clReleaseContext(self.ctx);
        }
    }
}

#[test]
fn a_parent_enqueues_a_child_with_each_flag() {
    let s = Setup::new(None);
    for flag in [
        "CLK_ENQUEUE_FLAGS_NO_WAIT",
        "CLK_ENQUEUE_FLAGS_WAIT_KERNEL",
        "CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP",
    ] {
        let src = format!(
            "kernel void parent(global int *out, int v) {{\n\
             size_t i = get_global_id(0); int x = v + (int)i;\n\
             if (i == 1) {{\n\
             int r = enqueue_kernel(get_default_queue(), {flag}, ndrange_1D(16),\n\
             ^{{ out[get_global_id(0)] = x * 10 + (int)get_global_id(0); }});\n\
             out[16] = r + 100; }} }}"
        );
        for level in LEVELS {
            let out = s.run(&src, "parent", level, 17, 4, &|k| check(set_arg(k, 1, &7i32)));
            let want: Vec<i32> = (0..16).map(|i| 80 + i).collect();
            assert_eq!(&out[..16], &want[..], "{flag} {level}");
            assert_eq!(
                out[16],
                100,
                "{flag} {level}: enqueue_kernel returned {}",
                out[16] - 100
            );
        }
    }
}
