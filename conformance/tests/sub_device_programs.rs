//! Programs in contexts that hold a device and its sub-devices, through the
//! ICD loader: "A program binary built for a parent device can be used by
//! all its sub-devices. If a program binary has not been built for a
//! sub-device, the program binary associated with the parent device will be
//! used." A sub-device without a build of its own answers every program
//! query as its nearest built ancestor does, and runs that ancestor's
//! kernels on its queues.
//!
//! The tests need a device of two or more compute units; on a one-CPU
//! machine they say so on stderr and stop.

use std::ffi::{c_void, CString};
use std::ptr;

use clift_conformance::programs::{release_context, release_program, source_program};
use clift_conformance::*;

/// Two kernels that change every element of a `global int*` differently.
const SOURCE: &str = "
#ifdef BREAK
#error broken on purpose
#endif
kernel void triple(global int *dst) { dst[get_global_id(0)] *= 3; }
kernel void bump(global int *dst) { dst[get_global_id(0)] += 1; }
";

/// The root device and the devices below it for the tests: the root, its
/// one-CPU sub-devices `a` and `b`, `whole` (a sub-device of every CPU)
/// and `whole`'s one-CPU sub-devices `c` and `d` (sub-sub-devices of the
/// root). `None` on a one-CPU machine.
struct Family {
    root: cl_device_id,
    a: cl_device_id,
    b: cl_device_id,
    whole: cl_device_id,
    c: cl_device_id,
    d: cl_device_id,
    /// Every sub-device created (released on drop).
    created: Vec<cl_device_id>,
}

/// clCreateSubDevices with the two-call protocol (panics on error).
fn sub_devices(d: cl_device_id, props: &[isize]) -> Vec<cl_device_id> {
    let mut n = 0;
    // SAFETY: a terminated property list; count only.
    check(unsafe { clCreateSubDevices(d, props.as_ptr(), 0, ptr::null_mut(), &mut n) });
    let mut out = vec![ptr::null_mut(); n as usize];
    // SAFETY: `out` has room for `n` handles.
    check(unsafe { clCreateSubDevices(d, props.as_ptr(), n, out.as_mut_ptr(), ptr::null_mut()) });
    out
}

impl Family {
    fn new() -> Option<Family> {
        let root = device();
        let n: cl_uint = device_value(root, CL_DEVICE_MAX_COMPUTE_UNITS);
        if n < 2 {
            eprintln!("SKIPPED: programs on sub-devices need a device of two CPUs");
            return None;
        }
        let halves = sub_devices(root, &[CL_DEVICE_PARTITION_EQUALLY, 1, 0]);
        let whole = sub_devices(
            root,
            &[
                CL_DEVICE_PARTITION_BY_COUNTS,
                n as isize,
                CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
                0,
            ],
        );
        let grand = sub_devices(whole[0], &[CL_DEVICE_PARTITION_EQUALLY, 1, 0]);
        let created: Vec<cl_device_id> = halves.iter().chain(&whole).chain(&grand).copied().collect();
        Some(Family {
            root,
            a: halves[0],
            b: halves[1],
            whole: whole[0],
            c: grand[0],
            d: grand[1],
            created,
        })
    }

    /// Every device of the family, the root first.
    fn all(&self) -> Vec<cl_device_id> {
        vec![self.root, self.a, self.b, self.whole, self.c, self.d]
    }
}

impl Drop for Family {
    fn drop(&mut self) {
        for &d in self.created.iter().rev() {
            // SAFETY: each is a sub-device this test created and holds once.
            check(unsafe { clReleaseDevice(d) });
        }
    }
}

fn context_of(devices: &[cl_device_id]) -> cl_context {
    let mut err = 0;
    // SAFETY: `devices` holds valid device handles; no callback.
    let ctx = unsafe {
        clCreateContext(
            ptr::null(),
            devices.len() as cl_uint,
            devices.as_ptr(),
            None,
            ptr::null_mut(),
            &mut err,
        )
    };
    check(err);
    ctx
}

fn queue_on(ctx: cl_context, d: cl_device_id) -> cl_command_queue {
    let mut err = 0;
    // SAFETY: valid context and device; no properties.
    let q = unsafe { clCreateCommandQueueWithProperties(ctx, d, ptr::null(), &mut err) };
    check(err);
    q
}

/// clBuildProgram for `devices` alone with `options`: the returned code.
fn build_for(p: cl_program, devices: &[cl_device_id], options: &str) -> cl_int {
    let o = CString::new(options).expect("options without NUL");
    // SAFETY: `devices` holds valid handles; options NUL-terminated; no callback.
    unsafe {
        clBuildProgram(
            p,
            devices.len() as cl_uint,
            devices.as_ptr(),
            o.as_ptr(),
            None,
            ptr::null_mut(),
        )
    }
}

fn build_bytes(p: cl_program, d: cl_device_id, param: cl_program_build_info) -> Result<Vec<u8>, cl_int> {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_bytes(|s, v, r| unsafe { clGetProgramBuildInfo(p, d, param, s, v, r) })
}

fn build_string(p: cl_program, d: cl_device_id, param: cl_program_build_info) -> String {
    // SAFETY: forwards the buffer protocol of `info_string`.
    info_string(|s, v, r| unsafe { clGetProgramBuildInfo(p, d, param, s, v, r) })
}

/// Every clGetProgramBuildInfo answer for `d`, in a fixed order.
fn build_answers(p: cl_program, d: cl_device_id) -> Vec<Vec<u8>> {
    [
        CL_PROGRAM_BUILD_STATUS,
        CL_PROGRAM_BUILD_OPTIONS,
        CL_PROGRAM_BUILD_LOG,
        CL_PROGRAM_BINARY_TYPE,
        CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
    ]
    .iter()
    .map(|&param| build_bytes(p, d, param).expect("clGetProgramBuildInfo"))
    .collect()
}

/// CL_PROGRAM_BINARIES: one binary per device of the program, in
/// CL_PROGRAM_DEVICES order.
fn binaries(p: cl_program) -> Vec<Vec<u8>> {
    let sizes: Vec<usize> = program_bytes(p, CL_PROGRAM_BINARY_SIZES)
        .expect("CL_PROGRAM_BINARY_SIZES")
        .chunks_exact(8)
        .map(|c| usize::from_ne_bytes(c.try_into().expect("a size_t")))
        .collect();
    let mut bins: Vec<Vec<u8>> = sizes.iter().map(|&n| vec![0u8; n]).collect();
    let mut ptrs: Vec<*mut u8> = bins.iter_mut().map(|b| b.as_mut_ptr()).collect();
    // SAFETY: one pointer per device, each to as many bytes as its size.
    check(unsafe {
        clGetProgramInfo(
            p,
            CL_PROGRAM_BINARIES,
            std::mem::size_of_val(&ptrs[..]),
            ptrs.as_mut_ptr().cast::<c_void>(),
            ptr::null_mut(),
        )
    });
    bins
}

fn program_devices(p: cl_program) -> Vec<cl_device_id> {
    program_bytes(p, CL_PROGRAM_DEVICES)
        .expect("CL_PROGRAM_DEVICES")
        .chunks_exact(8)
        .map(|c| usize::from_ne_bytes(c.try_into().expect("a handle")) as cl_device_id)
        .collect()
}

fn work_group_size_on(k: cl_kernel, d: cl_device_id) -> Result<usize, cl_int> {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    let b = info_bytes(|s, v, r| unsafe { clGetKernelWorkGroupInfo(k, d, CL_KERNEL_WORK_GROUP_SIZE, s, v, r) })?;
    Ok(usize::from_ne_bytes(b[..].try_into().expect("a size_t")))
}

/// Runs `k` over a buffer of 0, 1, .., 63 on a queue of `d`: the enqueue's
/// code and the buffer afterwards.
fn run_on(ctx: cl_context, d: cl_device_id, k: cl_kernel) -> (cl_int, Vec<i32>) {
    let q = queue_on(ctx, d);
    let data: Vec<i32> = (0..64).collect();
    let mut err = 0;
    // SAFETY: `data` is readable for the 256 bytes copied at creation.
    let m = unsafe {
        clCreateBuffer(
            ctx,
            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
            256,
            data.as_ptr() as *mut c_void,
            &mut err,
        )
    };
    check(err);
    check(set_arg(k, 0, &m));
    let global = [64usize];
    // SAFETY: valid queue and kernel; one dimension; no events.
    let rc = unsafe {
        clEnqueueNDRangeKernel(
            q,
            k,
            1,
            ptr::null(),
            global.as_ptr(),
            ptr::null(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    let mut out = vec![0i32; 64];
    // SAFETY: a blocking read of 256 bytes into `out`.
    check(unsafe {
        clEnqueueReadBuffer(
            q,
            m,
            CL_TRUE,
            0,
            256,
            out.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    });
    release_mem(m);
    // SAFETY: the queue was created above and is released once.
    check(unsafe { clReleaseCommandQueue(q) });
    (rc, out)
}

fn release_kernel(k: cl_kernel) {
    // SAFETY: a kernel the test created, released once.
    check(unsafe { clReleaseKernel(k) });
}

#[test]
fn a_build_for_the_parent_serves_its_sub_devices_and_theirs() {
    let Some(f) = Family::new() else { return };
    let all = f.all();
    let ctx = context_of(&all);
    let p = source_program(ctx, SOURCE);
    assert_eq!(program_devices(p), all);
    check(build_for(p, &[f.root], "-cl-mad-enable"));

    // Every device answers as the root: built, with its options, log,
    // binary type and binary.
    let root_answers = build_answers(p, f.root);
    assert_eq!(
        build_value::<cl_build_status>(p, f.root, CL_PROGRAM_BUILD_STATUS),
        CL_BUILD_SUCCESS
    );
    for &d in &all {
        assert_eq!(build_answers(p, d), root_answers, "device {d:?}");
        assert_eq!(
            build_value::<cl_program_binary_type>(p, d, CL_PROGRAM_BINARY_TYPE),
            CL_PROGRAM_BINARY_TYPE_EXECUTABLE
        );
        assert_eq!(build_string(p, d, CL_PROGRAM_BUILD_OPTIONS), "-cl-mad-enable");
    }
    let bins = binaries(p);
    assert_eq!(bins.len(), all.len());
    assert!(!bins[0].is_empty(), "the root has a binary");
    for (i, b) in bins.iter().enumerate() {
        assert_eq!(b, &bins[0], "binary of device {i}");
    }
    assert_eq!(program_value::<usize>(p, CL_PROGRAM_NUM_KERNELS), 2);
    assert_eq!(program_string(p, CL_PROGRAM_KERNEL_NAMES), "triple;bump");

    // Kernels run on the queues of every device, sub-sub-devices included.
    let triple = kernel(p, "triple");
    let bump = kernel(p, "bump");
    for &d in &all {
        assert!(work_group_size_on(triple, d).expect("CL_KERNEL_WORK_GROUP_SIZE") >= 1);
        let (rc, out) = run_on(ctx, d, triple);
        check(rc);
        assert_eq!(out, (0..64).map(|i| 3 * i).collect::<Vec<_>>(), "triple on {d:?}");
        let (rc, out) = run_on(ctx, d, bump);
        check(rc);
        assert_eq!(out, (1..65).collect::<Vec<_>>(), "bump on {d:?}");
    }
    release_kernel(triple);
    release_kernel(bump);
    release_program(p);
    release_context(ctx);
}

#[test]
fn the_nearest_build_answers_and_a_failed_own_build_is_the_sub_devices() {
    let Some(f) = Family::new() else { return };
    let all = f.all();
    let ctx = context_of(&all);
    let p = source_program(ctx, SOURCE);
    // Root, then `whole` with other options: `whole`'s children use
    // `whole`'s build, `a` and `b` the root's.
    check(build_for(p, &[f.root], "-cl-mad-enable"));
    check(build_for(p, &[f.whole], "-cl-fast-relaxed-math"));
    for (d, want) in [
        (f.root, "-cl-mad-enable"),
        (f.a, "-cl-mad-enable"),
        (f.b, "-cl-mad-enable"),
        (f.whole, "-cl-fast-relaxed-math"),
        (f.c, "-cl-fast-relaxed-math"),
        (f.d, "-cl-fast-relaxed-math"),
    ] {
        assert_eq!(build_string(p, d, CL_PROGRAM_BUILD_OPTIONS), want, "device {d:?}");
        assert_eq!(
            build_value::<cl_build_status>(p, d, CL_PROGRAM_BUILD_STATUS),
            CL_BUILD_SUCCESS
        );
    }

    // A failed build of `c` itself is `c`'s answer, and `c` has no
    // executable to run; `d` still runs `whole`'s.
    expect_err(build_for(p, &[f.c], "-D BREAK"), CL_BUILD_PROGRAM_FAILURE);
    assert_eq!(
        build_value::<cl_build_status>(p, f.c, CL_PROGRAM_BUILD_STATUS),
        CL_BUILD_ERROR
    );
    assert!(build_log(p, f.c).contains("broken on purpose"), "{}", build_log(p, f.c));
    assert_eq!(
        build_value::<cl_build_status>(p, f.d, CL_PROGRAM_BUILD_STATUS),
        CL_BUILD_SUCCESS
    );
    let c_index = all.iter().position(|&d| d == f.c).expect("c is a program device");
    assert!(binaries(p)[c_index].is_empty(), "no binary for the failed build");
    let triple = kernel(p, "triple");
    expect_err(run_on(ctx, f.c, triple).0, CL_INVALID_PROGRAM_EXECUTABLE);
    let (rc, out) = run_on(ctx, f.d, triple);
    check(rc);
    assert_eq!(out[5], 15);
    release_kernel(triple);
    release_program(p);
    release_context(ctx);
}

#[test]
fn a_binary_for_the_parent_runs_on_its_sub_devices() {
    let Some(f) = Family::new() else { return };
    let ctx = context_of(&[f.root, f.a, f.whole, f.c]);
    // A binary built for the root, loaded for the root alone.
    let src = source_program(ctx, SOURCE);
    check(build_for(src, &[f.root], ""));
    let bin = binaries(src).swap_remove(0);
    release_program(src);
    let lens = [bin.len()];
    let bins = [bin.as_ptr()];
    let mut err = 0;
    // SAFETY: one device and one binary readable for its length.
    let p = unsafe {
        clCreateProgramWithBinary(
            ctx,
            1,
            &f.root,
            lens.as_ptr(),
            bins.as_ptr() as *mut _,
            ptr::null_mut(),
            &mut err,
        )
    };
    check(err);
    check(build_for(p, &[f.root], ""));
    // The sub-devices are not the program's devices ...
    expect_err(
        build_bytes(p, f.a, CL_PROGRAM_BUILD_STATUS).unwrap_err(),
        CL_INVALID_DEVICE,
    );
    // ... but its kernels run on them with the root's binary.
    let bump = kernel(p, "bump");
    for d in [f.a, f.whole, f.c] {
        let (rc, out) = run_on(ctx, d, bump);
        check(rc);
        assert_eq!(out[10], 11, "bump on {d:?}");
    }
    release_kernel(bump);
    release_program(p);

    // The binary loaded for the root and for `a`, built for the root
    // alone: `a`'s binary "has not been built", so `a` uses the root's.
    let lens = [bin.len(); 2];
    let bins = [bin.as_ptr(); 2];
    let both = [f.root, f.a];
    // SAFETY: two devices and two binaries readable for their lengths.
    let p = unsafe {
        clCreateProgramWithBinary(
            ctx,
            2,
            both.as_ptr(),
            lens.as_ptr(),
            bins.as_ptr() as *mut _,
            ptr::null_mut(),
            &mut err,
        )
    };
    check(err);
    assert_eq!(
        build_value::<cl_build_status>(p, f.a, CL_PROGRAM_BUILD_STATUS),
        CL_BUILD_NONE
    );
    check(build_for(p, &[f.root], ""));
    assert_eq!(build_answers(p, f.a), build_answers(p, f.root));
    assert_eq!(
        build_value::<cl_build_status>(p, f.a, CL_PROGRAM_BUILD_STATUS),
        CL_BUILD_SUCCESS
    );
    let bump = kernel(p, "bump");
    let (rc, out) = run_on(ctx, f.a, bump);
    check(rc);
    assert_eq!(out[3], 4);
    release_kernel(bump);
    release_program(p);
    release_context(ctx);
}

#[test]
fn an_object_compiled_for_the_parent_links_for_its_sub_devices() {
    let Some(f) = Family::new() else { return };
    let ctx = context_of(&[f.root, f.whole, f.c]);
    let p = source_program(ctx, SOURCE);
    let o = CString::new("").expect("no NUL");
    // SAFETY: one valid device; no headers, no callback.
    check(unsafe {
        clCompileProgram(
            p,
            1,
            &f.root,
            o.as_ptr(),
            0,
            ptr::null(),
            ptr::null_mut(),
            None,
            ptr::null_mut(),
        )
    });
    for d in [f.root, f.whole, f.c] {
        assert_eq!(
            build_value::<cl_program_binary_type>(p, d, CL_PROGRAM_BINARY_TYPE),
            CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
            "device {d:?}"
        );
    }
    // Linked for the sub-sub-device alone, from the root's object.
    let mut err = 0;
    let inputs = [p];
    // SAFETY: one device, one input program; no callback.
    let exe = unsafe {
        clLinkProgram(
            ctx,
            1,
            &f.c,
            o.as_ptr(),
            1,
            inputs.as_ptr(),
            None,
            ptr::null_mut(),
            &mut err,
        )
    };
    check(err);
    assert_eq!(program_devices(exe), [f.c]);
    let triple = kernel(exe, "triple");
    let (rc, out) = run_on(ctx, f.c, triple);
    check(rc);
    assert_eq!(out[7], 21);
    release_kernel(triple);
    release_program(exe);
    release_program(p);
    release_context(ctx);
}
