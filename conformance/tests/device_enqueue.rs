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
        let (out, status) = self.run_status(src, name, options, n, global, extra);
        assert_eq!(status, CL_COMPLETE as cl_int, "{name} {options}: the parent's event");
        out
    }

    /// [`Setup::run`], also returning the parent's event status.
    fn run_status(
        &self,
        src: &str,
        name: &str,
        options: &str,
        n: usize,
        global: usize,
        extra: &dyn Fn(cl_kernel),
    ) -> (Vec<i32>, cl_int) {
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
        // SAFETY: a valid event. (An error status of the command makes
        // the wait answer CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.)
        let waited = unsafe { clWaitForEvents(1, &ev) };
        let status = event_status(ev);
        assert!(
            waited == CL_SUCCESS || status < 0,
            "{name} {options}: clWaitForEvents {waited}"
        );
        let bytes = read_bytes(self.queue, out, 0, n * 4);
        // SAFETY: handles this function created.
        unsafe {
            check(clReleaseEvent(ev));
            check(clReleaseKernel(k));
            check(clReleaseProgram(p));
        }
        release_mem(out);
        let out = bytes
            .chunks_exact(4)
            .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
            .collect();
        (out, status)
    }
}

// SAFETY: OpenCL handles may be used from any thread ("All OpenCL API
// calls are thread-safe" except clSetKernelArg on one kernel, which each
// `run` does on a kernel of its own).
unsafe impl Sync for Setup {}

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

#[test]
fn ranges_of_every_dimension_with_and_without_local_sizes_and_offsets() {
    // Each child writes, per work-item, a code of its ids and sizes into
    // its linear slot; the host recomputes every slot.
    let src = "kernel void parent(global int *out) {\n\
               if (get_global_id(0) != 0) return;\n\
               size_t g2[2] = {6, 4}; size_t l2[2] = {3, 2}; size_t o2[2] = {1, 2};\n\
               size_t g3[3] = {4, 3, 2}; size_t l3[3] = {2, 3, 1}; size_t o3[3] = {0, 1, 1};\n\
               queue_t q = get_default_queue();\n\
               int r = 0;\n\
               r |= enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(3, 10, 5), ^{\n\
                 size_t i = get_global_id(0) - 3; out[i] = (int)(1000 + get_local_id(0) * 100 + get_group_id(0) * 10 + get_local_size(0)); });\n\
               r |= enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(o2, g2, l2), ^{\n\
                 size_t i = 16 + (get_global_id(1) - 2) * 6 + get_global_id(0) - 1;\n\
                 out[i] = (int)(2000 + get_local_id(0) * 100 + get_local_id(1) * 10 + get_num_groups(0) * get_num_groups(1)); });\n\
               r |= enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_3D(o3, g3, l3), ^{\n\
                 size_t i = 48 + ((get_global_id(2) - 1) * 3 + get_global_id(1) - 1) * 4 + get_global_id(0);\n\
                 out[i] = (int)(3000 + get_work_dim() * 100 + get_local_id(1) * 10 + get_group_id(2)); });\n\
               r |= enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(g2), ^{\n\
                 out[80 + get_global_id(1) * 6 + get_global_id(0)] = (int)(4000 + get_global_size(0) * 10 + get_global_size(1)); });\n\
               out[127] = r; }";
    let s = Setup::new(None);
    let mut want = vec![0i32; 128];
    for (g, w) in want.iter_mut().enumerate().take(10) {
        let (l, grp) = (g % 5, g / 5);
        *w = 1000 + l as i32 * 100 + grp as i32 * 10 + 5;
    }
    for y in 0..4 {
        for x in 0..6 {
            want[16 + y * 6 + x] = 2000 + (x % 3) as i32 * 100 + (y % 2) as i32 * 10 + 4;
        }
    }
    for z in 0..2 {
        for y in 0..3 {
            for x in 0..4 {
                want[48 + (z * 3 + y) * 4 + x] = 3000 + 300 + y as i32 * 10 + z as i32;
            }
        }
    }
    for y in 0..4 {
        for x in 0..6 {
            want[80 + y * 6 + x] = 4000 + 64;
        }
    }
    for level in LEVELS {
        let out = s.run(src, "parent", level, 128, 2, &|_| {});
        assert_eq!(out, want, "{level}");
    }
}

#[test]
fn blocks_capture_scalars_pointers_and_structs_and_take_local_memory() {
    // The block literal is copied at enqueue: the parent overwrites its
    // private struct after enqueuing, and the child still sees the old one.
    let src = "typedef struct { int a; long b; float4 c; char d; } S;\n\
               kernel void parent(global int *out, global const int *in) {\n\
               size_t i = get_global_id(0);\n\
               S s = { (int)i, 5000000000L + (long)i, (float4)(1.5f, 2.5f, 3.5f, (float)i), 'x' };\n\
               short h = (short)(-3 - (int)i); double dd = 0.25 * (double)i;\n\
               int r = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(4, 4),\n\
                 ^(local void *la, local void *lb) {\n\
                   local int *a = (local int *)la; local long *b = (local long *)lb;\n\
                   size_t j = get_local_id(0);\n\
                   a[j] = in[j] + s.a; b[j] = s.b;\n\
                   work_group_barrier(CLK_LOCAL_MEM_FENCE);\n\
                   int sum = a[0] + a[1] + a[2] + a[3];\n\
                   out[s.a * 8 + j] = sum + (int)(b[3 - j] - 5000000000L) + (int)s.c.w + h + (int)(dd * 4.0) + s.d; },\n\
                 16u, 32u);\n\
               s.a = 99; s.b = 0; h = 0;\n\
               out[64 + i] = r; }";
    let s = Setup::new(None);
    let input = [3i32, 5, 7, 11];
    for level in LEVELS {
        let ctx = s.ctx;
        let q = s.queue;
        let inbuf = buffer(ctx, CL_MEM_READ_ONLY, 16);
        write_bytes(
            q,
            inbuf,
            0,
            &input.iter().flat_map(|v| v.to_ne_bytes()).collect::<Vec<u8>>(),
        );
        let out = s.run(src, "parent", level, 72, 4, &|k| check(set_arg(k, 1, &inbuf)));
        release_mem(inbuf);
        for i in 0..4i32 {
            for j in 0..4 {
                let sum: i32 = input.iter().sum::<i32>() + 4 * i;
                let want = sum + i + i + (-3 - i) + i + b'x' as i32;
                assert_eq!(out[(i * 8 + j) as usize], want, "{level}: parent {i} item {j}");
            }
            assert_eq!(out[64 + i as usize], 0, "{level}: enqueue_kernel of parent {i}");
        }
    }
}

#[test]
fn nested_enqueues_go_twelve_levels_deep_and_a_kernel_enqueues_itself() {
    // Each level's block enqueues the next one (a block that enqueues a
    // block); a recursive helper function re-enqueues the same block kind
    // until a depth.
    let mut src = String::from("kernel void parent(global int *out) {\n  queue_t q = get_default_queue();\n");
    let depth = 12;
    for d in 0..depth {
        src.push_str(&format!(
            "{}enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(2), ^{{ atomic_add((volatile global int *)&out[{d}], 1 + (int)get_global_id(0));\n",
            "  ".repeat(d + 1)
        ));
    }
    src.push_str(&"  });\n".repeat(depth));
    src.push_str("}\n");
    // 2048 children of the last level but one are pending at once: more
    // than the preferred size holds.
    let s = Setup::new(Some(device_value(device(), CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE)));
    // Level d runs 2^(d+1) work-items in total (each item of the level
    // above enqueues two): each adds 1 + its id (0 or 1).
    let want: Vec<i32> = (0..depth).map(|d| (1 << d) * 3).collect();
    for level in LEVELS {
        let out = s.run(&src, "parent", level, depth, 1, &|_| {});
        assert_eq!(out, want, "{level}");
    }
    let recursive = "void go(global int *out, int n) {\n\
                     atomic_inc((volatile global int *)&out[n]);\n\
                     if (n + 1 < 20)\n\
                       enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ go(out, n + 1); }); }\n\
                     kernel void parent(global int *out) { go(out, 0); }";
    for level in LEVELS {
        let out = s.run(recursive, "parent", level, 20, 1, &|_| {});
        assert_eq!(out, vec![1; 20], "{level}");
    }
}

#[test]
fn wait_lists_markers_user_events_and_profiling_order_the_children() {
    // B waits for A's event, the marker for B's, C for the marker and a
    // user event set after C was enqueued; each child records the step at
    // which it ran, so the order shows. Profiling of the marker's event
    // and of A's is captured into `prof`.
    let src = "kernel void parent(global int *out, global ulong *prof) {\n\
               if (get_global_id(0) != 0) return;\n\
               queue_t q = get_default_queue();\n\
               clk_event_t a, b, m, u = create_user_event();\n\
               volatile global int *step = (volatile global int *)&out[15];\n\
               out[10] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64), 0, 0, &a,\n\
                 ^{ if (get_global_id(0) == 0) out[0] = atomic_inc(step) + 1; });\n\
               out[11] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &a, &b,\n\
                 ^{ out[1] = atomic_inc(step) + 1; });\n\
               out[12] = enqueue_marker(q, 1, &b, &m);\n\
               clk_event_t both[2] = { m, u };\n\
               out[13] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 2, both, 0,\n\
                 ^{ out[2] = atomic_inc(step) + 1; });\n\
               out[3] = is_valid_event(u) + 2 * is_valid_event(CLK_NULL_EVENT);\n\
               retain_event(a);\n\
               capture_event_profiling_info(a, CLK_PROFILING_COMMAND_EXEC_TIME, prof);\n\
               capture_event_profiling_info(m, CLK_PROFILING_COMMAND_EXEC_TIME, prof + 2);\n\
               set_user_event_status(u, CL_COMPLETE);\n\
               release_event(a); release_event(a); release_event(b); release_event(m); release_event(u); }";
    let s = Setup::new(None);
    for level in LEVELS {
        let prof = buffer(s.ctx, CL_MEM_READ_WRITE, 32);
        write_bytes(s.queue, prof, 0, &[0xff; 32]);
        let out = s.run(src, "parent", level, 16, 1, &|k| check(set_arg(k, 1, &prof)));
        let p: Vec<u64> = read_bytes(s.queue, prof, 0, 32)
            .chunks_exact(8)
            .map(|c| u64::from_ne_bytes(c.try_into().unwrap()))
            .collect();
        release_mem(prof);
        assert_eq!(&out[..3], &[1, 2, 3], "{level}: the order A, B, C");
        assert_eq!(
            out[3], 1,
            "{level}: is_valid_event of a user event and of CLK_NULL_EVENT"
        );
        assert_eq!(&out[10..14], &[0; 4], "{level}: every enqueue succeeded");
        assert_eq!(out[15], 3, "{level}: three children ran");
        // A ran a kernel: an execution time, the same to completion; the
        // marker ran nothing, so no time passes within it.
        assert!(p[0] < 10_000_000_000 && p[1] == p[0], "{level}: A's profile {p:?}");
        assert_eq!(&p[2..], &[p[2], p[2]], "{level}: the marker's profile {p:?}");
        assert!(p[2] < 1_000_000_000, "{level}: the marker's profile {p:?}");
    }
}

#[test]
fn a_child_waiting_for_a_failed_or_never_set_event_does_not_run_and_nothing_hangs() {
    let src = "kernel void parent(global int *out) {\n\
               queue_t q = get_default_queue();\n\
               clk_event_t bad = create_user_event(), never = create_user_event();\n\
               out[4] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &bad, 0, ^{ out[0] = 1; });\n\
               out[5] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &never, 0, ^{ out[1] = 1; });\n\
               out[6] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[2] = 1; });\n\
               set_user_event_status(bad, -1);\n\
               release_event(bad); release_event(never); }";
    let s = Setup::new(None);
    for level in LEVELS {
        let (out, status) = s.run_status(src, "parent", level, 8, 1, &|_| {});
        assert_eq!(&out[..3], &[0, 0, 1], "{level}: only the child without a wait list ran");
        assert_eq!(&out[4..7], &[0; 3], "{level}: every enqueue was accepted");
        // "The execution status of the kernel will be an error code ... if
        // it or any of its child kernels encounter an error."
        assert_eq!(
            status, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            "{level}: the parent's status"
        );
    }
}

#[test]
fn block_kernel_queries_answer_what_the_host_queries_answer() {
    let src = "kernel void parent(global int *out) {\n\
               void (^b)(void) = ^{ out[9] = 1; };\n\
               out[0] = (int)get_kernel_work_group_size(b);\n\
               out[1] = (int)get_kernel_preferred_work_group_size_multiple(b);\n\
               out[2] = (int)get_kernel_sub_group_count_for_ndrange(ndrange_1D(64, 16), b);\n\
               out[3] = (int)get_kernel_max_sub_group_size_for_ndrange(ndrange_1D(64, 16), b);\n\
               size_t g[2] = {8, 8}; size_t l[2] = {4, 2};\n\
               out[4] = (int)get_kernel_max_sub_group_size_for_ndrange(ndrange_2D(g, l), b);\n\
               out[5] = (int)get_kernel_sub_group_count_for_ndrange(ndrange_2D(g, l), b); }";
    let s = Setup::new(None);
    // The host's answers for a kernel without a required size.
    let p = s.program("kernel void k(global int *o) { o[0] = 1; }", "").unwrap();
    let k = kernel(p, "k");
    let wgs: usize = work_group_value(k, CL_KERNEL_WORK_GROUP_SIZE);
    let multiple: usize = work_group_value(k, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
    // SAFETY: handles created above.
    unsafe {
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    // Sub-groups of `sg` consecutive work-items, as the host reports.
    let sg = sub_group_size();
    let (count16, size16) = (16usize.div_ceil(sg) as i32, 16.min(sg) as i32);
    let (count8, size8) = (8usize.div_ceil(sg) as i32, 8.min(sg) as i32);
    for level in LEVELS {
        let out = s.run(src, "parent", level, 10, 1, &|_| {});
        assert_eq!(
            &out[..6],
            &[wgs as i32, multiple as i32, count16, size16, size8, count8],
            "{level}: work-group size, multiple, sub-group count and size"
        );
    }
}

#[test]
fn a_full_queue_answers_device_queue_full_and_g_gives_specific_errors() {
    // Each of 64 work-items enqueues until an enqueue fails; with -g the
    // failure is CLK_DEVICE_QUEUE_FULL (-161), without it
    // CLK_ENQUEUE_FAILURE (-101). The children that were accepted all run.
    // A range with a global size of 0 is CLK_INVALID_NDRANGE (-160).
    let src = "kernel void parent(global int *out) {\n\
               size_t i = get_global_id(0); int n = 0, r = 0;\n\
               while (n < 100000) {\n\
                 r = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),\n\
                   ^{ atomic_inc((volatile global int *)&out[128]); });\n\
                 if (r != CLK_SUCCESS) break;\n\
                 n++; }\n\
               out[i] = r; atomic_add((volatile global int *)&out[129], n);\n\
               size_t bad[2] = {4, 0};\n\
               out[64 + i] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(bad), ^{ out[130] = 2; }); }";
    let s = Setup::new(Some(16 << 10));
    for (options, full, bad_range) in [("-g", -161, -160), ("", -101, -101)] {
        for level in LEVELS {
            let out = s.run(src, "parent", &format!("{options} {level}"), 131, 64, &|_| {});
            assert!(
                out[..64].iter().all(|&r| r == full),
                "{options} {level}: {:?}",
                &out[..64]
            );
            let accepted = out[129];
            assert!(
                accepted > 16 && accepted < 1000,
                "{options} {level}: {accepted} children fitted 16 KiB"
            );
            assert_eq!(out[128], accepted, "{options} {level}: every accepted child ran");
            assert!(
                out[64..128].iter().all(|&r| r == bad_range),
                "{options} {level}: {:?}",
                &out[64..128]
            );
            assert_eq!(out[130], 0, "{options} {level}: no child of a refused enqueue ran");
        }
    }
}

#[test]
fn block_kernels_are_hidden_from_the_application() {
    let src = "kernel void parent(global int *out) {\n\
               enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[0] = 1; }); }";
    let s = Setup::new(None);
    let p = s.program(src, "").unwrap();
    assert_eq!(program_string(p, CL_PROGRAM_KERNEL_NAMES), "parent");
    assert_eq!(program_value::<usize>(p, CL_PROGRAM_NUM_KERNELS), 1);
    let mut err = 0;
    let name = std::ffi::CString::new("__parent_block_invoke_kernel").unwrap();
    // SAFETY: a valid program and name.
    let k = unsafe { clCreateKernel(p, name.as_ptr(), &mut err) };
    assert!(k.is_null());
    assert_eq!(err, CL_INVALID_KERNEL_NAME);
    let mut n = 0;
    // SAFETY: valid program; only the count asked.
    check(unsafe { clCreateKernelsInProgram(p, 0, ptr::null_mut(), &mut n) });
    assert_eq!(n, 1);
    // SAFETY: a handle created above.
    unsafe { clReleaseProgram(p) };
}

#[test]
fn a_thousand_parents_each_enqueue_a_child_from_many_host_threads() {
    let src = "kernel void parent(global int *out, int base) {\n\
               size_t i = get_global_id(0); int v = base + (int)i;\n\
               enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),\n\
                 ^{ out[i] = v * 2; }); }";
    let s = Setup::new(Some(device_value(device(), CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE)));
    let s = &s;
    std::thread::scope(|scope| {
        for t in 0..4 {
            scope.spawn(move || {
                for level in LEVELS {
                    let out = s.run(src, "parent", level, 1000, 1000, &|k| {
                        check(set_arg(k, 1, &(t * 10_000)))
                    });
                    let want: Vec<i32> = (0..1000).map(|i| (t * 10_000 + i) * 2).collect();
                    assert_eq!(out, want, "thread {t} {level}");
                }
            });
        }
    });
}

#[test]
fn the_spirv_specification_form_of_enqueue_kernel_runs_too() {
    // OpEnqueueKernel with the ND-range as a value and the local size as a
    // 32-bit value (llvm-spirv 15 passes pointers to both); a second
    // enqueue to a null queue fails with CLK_INVALID_QUEUE (-102) with -g,
    // CLK_ENQUEUE_FAILURE (-101) without.
    let s = Setup::new(None);
    for (options, null_queue) in [("", -101), ("-g", -102)] {
        let p = il_program(s.ctx, &exec::hand_spirv("enqueue_spec_form"));
        check(build(p, options));
        let k = kernel(p, "parent");
        let out = buffer(s.ctx, CL_MEM_READ_WRITE, 32 * 4);
        write_bytes(s.queue, out, 0, &[0u8; 128]);
        check(set_arg(k, 0, &out));
        let one = 1usize;
        // SAFETY: valid handles; one work-item.
        check(unsafe {
            clEnqueueNDRangeKernel(
                s.queue,
                k,
                1,
                ptr::null(),
                &one,
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        });
        // SAFETY: a valid queue.
        check(unsafe { clFinish(s.queue) });
        let got: Vec<i32> = read_bytes(s.queue, out, 0, 128)
            .chunks_exact(4)
            .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
            .collect();
        let mut want = vec![0i32; 32];
        for (g, w) in want.iter_mut().enumerate().take(10).skip(2) {
            let (group, lid) = ((g - 2) / 4, (g - 2) % 4);
            *w = (2 + 4 * group + 3 - lid) as i32 + 100;
        }
        want[30] = null_queue;
        assert_eq!(got, want, "{options:?}");
        release_mem(out);
        // SAFETY: handles created above.
        unsafe {
            clReleaseKernel(k);
            clReleaseProgram(p);
        }
    }
}

#[test]
fn an_exhausted_event_pool_answers_event_allocation_failure() {
    // User events until the pool (CL_DEVICE_MAX_ON_DEVICE_EVENTS) is
    // exhausted: the first one past it is not valid, and an enqueue asking
    // for an event then fails with CLK_EVENT_ALLOCATION_FAILURE (-100,
    // with -g) and its child does not run; once a few events are
    // released, both work again.
    let max: cl_uint = device_value(device(), CL_DEVICE_MAX_ON_DEVICE_EVENTS);
    let src = format!(
        "kernel void parent(global int *out) {{\n\
         clk_event_t last[8]; int valid = 0;\n\
         for (uint i = 0; i < {n}u; i++) {{\n\
           clk_event_t e = create_user_event();\n\
           if (!is_valid_event(e)) break;\n\
           last[valid % 8] = e; valid++; }}\n\
         clk_event_t r;\n\
         out[0] = valid;\n\
         out[1] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, 0, &r, ^{{ out[2] = 1; }});\n\
         for (int i = 0; i < 8; i++) release_event(last[i]);\n\
         out[3] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, 0, &r, ^{{ out[4] = 1; }});\n\
         out[5] = is_valid_event(create_user_event());\n\
         release_event(r); }}",
        n = max as u64 + 8
    );
    let s = Setup::new(None);
    for level in LEVELS {
        let out = s.run(&src, "parent", &format!("-g {level}"), 6, 1, &|_| {});
        assert_eq!(out, vec![max as i32, -100, 0, 0, 1, 1], "{level}");
    }
}

#[test]
fn a_child_event_completes_after_the_children_it_enqueued() {
    // B waits for A's event; A enqueues X, which enqueues Y: A is complete
    // only once X and Y are ("Kernel A is considered to have finished
    // execution ... only after A and the kernels A enqueued (and any
    // kernels these enqueued kernels enqueue and so on) have finished"),
    // so the order is A, X, Y, B. A's profiling shows the difference: its
    // time to completion is at least its execution time.
    let src = "kernel void parent(global int *out, global ulong *prof) {\n\
               queue_t q = get_default_queue(); clk_event_t a;\n\
               volatile global int *step = (volatile global int *)&out[15];\n\
               enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, 0, &a, ^{\n\
                 out[0] = atomic_inc(step) + 1;\n\
                 enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{\n\
                   out[1] = atomic_inc(step) + 1;\n\
                   enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{\n\
                     out[2] = atomic_inc(step) + 1; }); }); });\n\
               enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &a, 0, ^{ out[3] = atomic_inc(step) + 1; });\n\
               capture_event_profiling_info(a, CLK_PROFILING_COMMAND_EXEC_TIME, prof);\n\
               release_event(a); }";
    let s = Setup::new(None);
    for level in LEVELS {
        let prof = buffer(s.ctx, CL_MEM_READ_WRITE, 16);
        let out = s.run(src, "parent", level, 16, 1, &|k| check(set_arg(k, 1, &prof)));
        let p: Vec<u64> = read_bytes(s.queue, prof, 0, 16)
            .chunks_exact(8)
            .map(|c| u64::from_ne_bytes(c.try_into().unwrap()))
            .collect();
        release_mem(prof);
        assert_eq!(&out[..4], &[1, 2, 3, 4], "{level}: A, X, Y, then B");
        assert!(p[1] >= p[0] && p[1] < 10_000_000_000, "{level}: A's profile {p:?}");
    }
}

#[test]
fn a_null_queue_builds_and_is_refused() {
    // llvm-spirv 15 stops with an assertion on CLK_NULL_QUEUE (a null
    // constant of OpTypeQueue); clift's workaround loads it from a zeroed
    // private variable, and enqueue_kernel refuses it: CLK_INVALID_QUEUE
    // (-102) with -g, CLK_ENQUEUE_FAILURE (-101) without.
    let src = "kernel void parent(global int *out) {\n\
               queue_t q = CLK_NULL_QUEUE;\n\
               out[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[1] = 1; });\n\
               out[2] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[3] = 1; }); }";
    let s = Setup::new(None);
    for (options, want) in [("-g", -102), ("", -101)] {
        for level in LEVELS {
            let options = format!("{options} {level}");
            let p = s
                .program(src, &options)
                .unwrap_or_else(|log| panic!("{options}: {log}"));
            let log = build_log(p, device());
            assert!(log.contains("cannot translate a null queue_t"), "{options}: {log}");
            // SAFETY: a program created above.
            unsafe { clReleaseProgram(p) };
            let out = s.run(src, "parent", &options, 4, 1, &|_| {});
            assert_eq!(out, vec![want, 0, 0, 1], "{options}");
        }
    }
}
