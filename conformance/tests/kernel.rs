//! Kernel objects (API spec 5.9) and the checks of kernel enqueues (5.10)
//! through the loader: creation, info, argument info with and without
//! names, work-group and sub-group queries, clSetKernelArg for every kind of
//! argument, SVM pointers and exec info, cloning, lifetimes, and every error
//! code of clEnqueueNDRangeKernel and clEnqueueTask. The `args` kernel takes
//! a struct by value, which code generation does not support yet, so a
//! correct enqueue of it answers CL_INVALID_PROGRAM_EXECUTABLE; the empty
//! `fixed` and `unnamed` kernels run (`ndrange.rs` checks kernels that compute).

#![allow(deprecated)] // clEnqueueTask and clSetProgramReleaseCallback are checked too

use std::ffi::{c_char, c_void};
use std::mem::size_of;
use std::ptr;
use std::sync::Mutex;

use clift_conformance::*;
use opencl_sys::cl_icd::cl_icd_dispatch;

/// A context, a queue and a built program of `conformance/spirv/<name>.spv`.
struct Setup {
    ctx: cl_context,
    queue: cl_command_queue,
    program: cl_program,
}

impl Setup {
    fn new(name: &str, options: &str) -> Setup {
        let ctx = context();
        let queue = default_queue(ctx);
        let program = built_program(ctx, name, options);
        Setup { ctx, queue, program }
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        // SAFETY: handles the test owns, released once.
        unsafe {
            clReleaseProgram(self.program);
            clReleaseCommandQueue(self.queue);
            clReleaseContext(self.ctx);
        }
    }
}

fn release_kernel(k: cl_kernel) {
    // SAFETY: a kernel the test owns.
    check(unsafe { clReleaseKernel(k) });
}

fn create_kernel(p: cl_program, name: *const c_char) -> Result<cl_kernel, cl_int> {
    let mut err = 0;
    // SAFETY: `name` is NULL or NUL-terminated.
    let k = unsafe { clCreateKernel(p, name, &mut err) };
    if err == CL_SUCCESS {
        Ok(k)
    } else {
        assert!(k.is_null());
        Err(err)
    }
}

fn arg_info_bytes(k: cl_kernel, index: cl_uint, param: cl_kernel_arg_info) -> Result<Vec<u8>, cl_int> {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_bytes(|s, v, r| unsafe { clGetKernelArgInfo(k, index, param, s, v, r) })
}

fn arg_info_value<T: Copy>(k: cl_kernel, index: cl_uint, param: cl_kernel_arg_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetKernelArgInfo(k, index, param, s, v, r) })
}

fn arg_info_string(k: cl_kernel, index: cl_uint, param: cl_kernel_arg_info) -> Result<String, cl_int> {
    arg_info_bytes(k, index, param).map(|b| String::from_utf8_lossy(&b[..b.len() - 1]).into_owned())
}

fn usizes(b: &[u8]) -> Vec<usize> {
    b.chunks_exact(size_of::<usize>())
        .map(|c| usize::from_ne_bytes(c.try_into().unwrap()))
        .collect()
}

/// clSetKernelArg with a raw size and value pointer.
fn set_raw(k: cl_kernel, index: cl_uint, size: usize, value: *const c_void) -> cl_int {
    // SAFETY: `value` is NULL or readable for `size` bytes (the tests pass
    // small values and sizes that fit them, or NULL).
    unsafe { clSetKernelArg(k, index, size, value) }
}

/// Sets every argument of the `args` kernel to a valid value.
fn set_all_args(k: cl_kernel, buf: cl_mem) {
    check(set_arg(k, 0, &buf));
    check(set_arg(k, 1, &buf));
    check(set_raw(k, 2, 64, ptr::null()));
    check(set_arg(k, 3, &7u32));
    check(set_arg(k, 4, &[1.0f32, 2.0, 3.0, 4.0]));
    check(set_arg(k, 5, &[5u32, 6u32]));
    check(set_arg(k, 6, &8u64));
}

/// clEnqueueNDRangeKernel with optional arrays; the returned code, and the
/// event slot checked to stay NULL on failure.
fn enqueue(
    q: cl_command_queue,
    k: cl_kernel,
    work_dim: cl_uint,
    offset: Option<&[usize]>,
    global: Option<&[usize]>,
    local: Option<&[usize]>,
) -> cl_int {
    let p = |a: Option<&[usize]>| a.map_or(ptr::null(), |a| a.as_ptr());
    let mut ev: cl_event = ptr::null_mut();
    // SAFETY: each array is NULL or holds at least work_dim entries (the
    // tests pass 3-entry arrays where work_dim is out of range).
    let rc = unsafe { clEnqueueNDRangeKernel(q, k, work_dim, p(offset), p(global), p(local), 0, ptr::null(), &mut ev) };
    if rc != CL_SUCCESS {
        assert!(ev.is_null(), "no event for a failed enqueue");
    } else {
        // SAFETY: the event the enqueue returned.
        check(unsafe { clReleaseEvent(ev) });
    }
    rc
}

/// What a correct enqueue of `args` (an empty body taking every kind of
/// argument, structs by value among them) answers: it runs.
const ARGS_RUN: cl_int = CL_SUCCESS;

/// What a correct enqueue of a kernel that compiles (`fixed`, `unnamed`)
/// answers.
const RUNS: cl_int = CL_SUCCESS;

#[test]
fn kernels_need_a_successfully_built_program() {
    let ctx = context();
    let p = il_program(ctx, &spirv("args"));
    // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
    // executable for program.
    expect_err(
        create_kernel(p, c"args".as_ptr()).unwrap_err(),
        CL_INVALID_PROGRAM_EXECUTABLE,
    );
    expect_err(
        create_kernel(p, ptr::null()).unwrap_err(),
        CL_INVALID_PROGRAM_EXECUTABLE,
    );
    let mut n = 0;
    // SAFETY: valid handles and slots.
    unsafe {
        expect_err(
            clCreateKernelsInProgram(p, 0, ptr::null_mut(), &mut n),
            CL_INVALID_PROGRAM_EXECUTABLE,
        );
        // CL_INVALID_PROGRAM if program is not a valid program object.
        expect_err(
            clCreateKernelsInProgram(forged_handle(), 0, ptr::null_mut(), &mut n),
            CL_INVALID_PROGRAM,
        );
    }
    expect_err(
        create_kernel(forged_handle(), c"args".as_ptr()).unwrap_err(),
        CL_INVALID_PROGRAM,
    );
    expect_err(create_kernel(ctx, c"args".as_ptr()).unwrap_err(), CL_INVALID_PROGRAM);
    // A failed build leaves no executable either.
    let bad = il_program(ctx, &spirv("not_kernel"));
    expect_err(build(bad, ""), CL_BUILD_PROGRAM_FAILURE);
    expect_err(
        create_kernel(bad, c"main".as_ptr()).unwrap_err(),
        CL_INVALID_PROGRAM_EXECUTABLE,
    );
    // SAFETY: handles the test owns.
    unsafe {
        check(clReleaseProgram(bad));
        check(clReleaseProgram(p));
        check(clReleaseContext(ctx));
    }
}

#[test]
fn kernels_are_created_by_name() {
    let s = Setup::new("args", "");
    for name in ["args", "unnamed", "fixed"] {
        let k = kernel(s.program, name);
        assert_eq!(kernel_string(k, CL_KERNEL_FUNCTION_NAME), name);
        release_kernel(k);
    }
    // CL_INVALID_KERNEL_NAME if kernel_name is not found in program.
    for bad in [c"nope", c"", c"Args", c"args "] {
        expect_err(
            create_kernel(s.program, bad.as_ptr()).unwrap_err(),
            CL_INVALID_KERNEL_NAME,
        );
    }
    // CL_INVALID_VALUE if kernel_name is NULL.
    expect_err(create_kernel(s.program, ptr::null()).unwrap_err(), CL_INVALID_VALUE);
}

#[test]
fn kernels_in_program_are_created_together() {
    let s = Setup::new("clbench/O2/histogram", "");
    let mut n = 0;
    // SAFETY: valid handles, slots and arrays of the sizes passed.
    unsafe {
        check(clCreateKernelsInProgram(s.program, 0, ptr::null_mut(), &mut n));
        assert_eq!(n, 2);
        let mut ks = [ptr::null_mut(); 3];
        // CL_INVALID_VALUE if kernels is not NULL and num_kernels is less
        // than the number of kernels in program.
        expect_err(
            clCreateKernelsInProgram(s.program, 1, ks.as_mut_ptr(), &mut n),
            CL_INVALID_VALUE,
        );
        assert!(ks[0].is_null(), "nothing is created by a refused call");
        check(clCreateKernelsInProgram(s.program, 3, ks.as_mut_ptr(), ptr::null_mut()));
        let names: Vec<String> = ks[..2]
            .iter()
            .map(|&k| kernel_string(k, CL_KERNEL_FUNCTION_NAME))
            .collect();
        assert_eq!(names, ["hist_global", "hist_local"]);
        assert!(ks[2].is_null());
        for &k in &ks[..2] {
            assert_eq!(kernel_value::<cl_uint>(k, CL_KERNEL_REFERENCE_COUNT), 1);
            assert_eq!(kernel_value::<cl_program>(k, CL_KERNEL_PROGRAM), s.program);
            release_kernel(k);
        }
    }
}

#[test]
fn kernel_info_answers_every_query() {
    let s = Setup::new("args", "");
    let k = kernel(s.program, "args");
    assert_eq!(kernel_string(k, CL_KERNEL_FUNCTION_NAME), "args");
    assert_eq!(kernel_value::<cl_uint>(k, CL_KERNEL_NUM_ARGS), 7);
    assert_eq!(kernel_value::<cl_uint>(k, CL_KERNEL_REFERENCE_COUNT), 1);
    assert_eq!(kernel_value::<cl_context>(k, CL_KERNEL_CONTEXT), s.ctx);
    assert_eq!(kernel_value::<cl_program>(k, CL_KERNEL_PROGRAM), s.program);
    // No execution modes, no attributes.
    assert_eq!(kernel_string(k, CL_KERNEL_ATTRIBUTES), "");
    // SAFETY: valid handles; a 64-byte buffer.
    unsafe {
        check(clRetainKernel(k));
        assert_eq!(kernel_value::<cl_uint>(k, CL_KERNEL_REFERENCE_COUNT), 2);
        check(clReleaseKernel(k));
        let mut buf = [0u8; 64];
        let o: *mut c_void = buf.as_mut_ptr().cast();
        // CL_INVALID_VALUE if param_name is not one of the supported values,
        // or if the size in bytes specified by param_value_size is less than
        // size of the return type and param_value is not NULL.
        expect_err(clGetKernelInfo(k, 0xdead, 64, o, ptr::null_mut()), CL_INVALID_VALUE);
        expect_err(
            clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, 2, o, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 4, o, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
        expect_err(
            clGetKernelInfo(forged_handle(), CL_KERNEL_NUM_ARGS, 64, o, ptr::null_mut()),
            CL_INVALID_KERNEL,
        );
        expect_err(
            clGetKernelInfo(s.program, CL_KERNEL_NUM_ARGS, 64, o, ptr::null_mut()),
            CL_INVALID_KERNEL,
        );
        expect_err(clRetainKernel(forged_handle()), CL_INVALID_KERNEL);
        expect_err(clReleaseKernel(forged_handle()), CL_INVALID_KERNEL);
    }
    release_kernel(k);
    // SAFETY: a released handle is rejected.
    expect_err(unsafe { clRetainKernel(k) }, CL_INVALID_KERNEL);
}

#[test]
fn argument_info_with_names() {
    let s = Setup::new("args", "-cl-kernel-arg-info");
    let k = kernel(s.program, "args");
    let expect: [(cl_uint, &str, &str); 7] = [
        (CL_KERNEL_ARG_ADDRESS_GLOBAL, "out", "float*"),
        (CL_KERNEL_ARG_ADDRESS_CONSTANT, "table", "uint*"),
        (CL_KERNEL_ARG_ADDRESS_LOCAL, "scratch", "float*"),
        (CL_KERNEL_ARG_ADDRESS_PRIVATE, "n", "uint"),
        (CL_KERNEL_ARG_ADDRESS_PRIVATE, "v", "float4"),
        (CL_KERNEL_ARG_ADDRESS_PRIVATE, "p", "struct pair"),
        (CL_KERNEL_ARG_ADDRESS_PRIVATE, "big", "ulong"),
    ];
    for (i, (addr, name, ty)) in expect.iter().enumerate() {
        let i = i as cl_uint;
        assert_eq!(
            arg_info_value::<cl_uint>(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
            *addr,
            "arg {i}"
        );
        // "If argument is not an image type and is not declared with the
        // pipe qualifier, CL_KERNEL_ARG_ACCESS_NONE is returned."
        assert_eq!(
            arg_info_value::<cl_uint>(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER),
            CL_KERNEL_ARG_ACCESS_NONE
        );
        assert_eq!(arg_info_string(k, i, CL_KERNEL_ARG_NAME).as_deref(), Ok(*name));
        // The module carries the OpenCL C type names (llvm-spirv's
        // "kernel_arg_type.args.float*,uint*,..." string).
        assert_eq!(
            arg_info_string(k, i, CL_KERNEL_ARG_TYPE_NAME).as_deref(),
            Ok(*ty),
            "arg {i}"
        );
        // cl_kernel_arg_type_qualifier is a cl_bitfield (CL/cl.h); opencl-sys
        // declares it as cl_uint.
        let tq: cl_bitfield = arg_info_value(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER);
        if i == 1 {
            // "CL_KERNEL_ARG_TYPE_CONST is returned if the kernel argument is
            // declared with the constant address space qualifier."
            assert_ne!(tq & cl_bitfield::from(CL_KERNEL_ARG_TYPE_CONST), 0);
        }
        if i >= 3 {
            // "CL_KERNEL_ARG_TYPE_NONE is returned for all kernel arguments
            // passed by value."
            assert_eq!(tq, cl_bitfield::from(CL_KERNEL_ARG_TYPE_NONE), "arg {i}");
        }
    }
    // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index.
    expect_err(
        arg_info_bytes(k, 7, CL_KERNEL_ARG_NAME).unwrap_err(),
        CL_INVALID_ARG_INDEX,
    );
    expect_err(
        arg_info_bytes(k, u32::MAX, CL_KERNEL_ARG_ADDRESS_QUALIFIER).unwrap_err(),
        CL_INVALID_ARG_INDEX,
    );
    // CL_INVALID_VALUE if param_name is not one of the supported values
    expect_err(arg_info_bytes(k, 0, 0xdead).unwrap_err(), CL_INVALID_VALUE);
    let mut small = [0u8; 2];
    // SAFETY: a 2-byte buffer, declared as such.
    expect_err(
        unsafe {
            clGetKernelArgInfo(
                k,
                0,
                CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                2,
                small.as_mut_ptr().cast(),
                ptr::null_mut(),
            )
        },
        CL_INVALID_VALUE,
    );
    release_kernel(k);
}

#[test]
fn argument_info_without_names() {
    for (module, kernel_name, args) in [("args", "unnamed", 2u32), ("clbench/O2/vadd", "vadd", 4)] {
        let s = Setup::new(module, "");
        let k = kernel(s.program, kernel_name);
        assert_eq!(kernel_value::<cl_uint>(k, CL_KERNEL_NUM_ARGS), args);
        // Address and access qualifiers are always known.
        assert_eq!(
            arg_info_value::<cl_uint>(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
            CL_KERNEL_ARG_ADDRESS_GLOBAL
        );
        assert_eq!(
            arg_info_value::<cl_uint>(k, args - 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
            CL_KERNEL_ARG_ADDRESS_PRIVATE
        );
        assert_eq!(
            arg_info_value::<cl_uint>(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER),
            CL_KERNEL_ARG_ACCESS_NONE
        );
        // CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not
        // available for kernel: the module names no parameter.
        for i in 0..args {
            let name = arg_info_bytes(k, i, CL_KERNEL_ARG_NAME);
            expect_err(name.unwrap_err(), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
            let type_name = arg_info_bytes(k, i, CL_KERNEL_ARG_TYPE_NAME);
            expect_err(type_name.unwrap_err(), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
            // The type qualifier comes from the parameters' decorations.
            let _: cl_bitfield = arg_info_value(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER);
        }
        let past = arg_info_bytes(k, args, CL_KERNEL_ARG_NAME);
        expect_err(past.unwrap_err(), CL_INVALID_ARG_INDEX);
        release_kernel(k);
    }
}

#[test]
fn work_group_info_answers_every_query() {
    let s = Setup::new("args", "");
    let d = device();
    let max: usize = device_value(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    let k = kernel(s.program, "args");
    let fixed = kernel(s.program, "fixed");
    assert_eq!(work_group_value::<usize>(k, CL_KERNEL_WORK_GROUP_SIZE), max);
    // "If the work-group size is not specified in the kernel source or IL,
    // (0, 0, 0) is returned."
    assert_eq!(
        usizes(&work_group_bytes(k, CL_KERNEL_COMPILE_WORK_GROUP_SIZE).unwrap()),
        [0, 0, 0]
    );
    assert_eq!(
        usizes(&work_group_bytes(fixed, CL_KERNEL_COMPILE_WORK_GROUP_SIZE).unwrap()),
        [4, 2, 1]
    );
    assert_eq!(work_group_value::<usize>(fixed, CL_KERNEL_WORK_GROUP_SIZE), 8);
    // Local memory: the kernel's own plus the __local arguments set so far.
    let base: cl_ulong = work_group_value(k, CL_KERNEL_LOCAL_MEM_SIZE);
    check(set_raw(k, 2, 100, ptr::null()));
    assert_eq!(work_group_value::<cl_ulong>(k, CL_KERNEL_LOCAL_MEM_SIZE), base + 100);
    check(set_raw(k, 2, 40, ptr::null()));
    assert_eq!(work_group_value::<cl_ulong>(k, CL_KERNEL_LOCAL_MEM_SIZE), base + 40);
    let multiple: usize = work_group_value(k, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
    assert!((1..=max).contains(&multiple));
    let fixed_multiple: usize = work_group_value(fixed, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
    assert!((1..=8).contains(&fixed_multiple));
    let _: cl_ulong = work_group_value(k, CL_KERNEL_PRIVATE_MEM_SIZE);
    // SAFETY: valid handles; a 64-byte buffer.
    unsafe {
        let mut buf = [0u8; 64];
        let o: *mut c_void = buf.as_mut_ptr().cast();
        // CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and
        // kernel is not a built-in kernel.
        expect_err(
            clGetKernelWorkGroupInfo(k, d, CL_KERNEL_GLOBAL_WORK_SIZE, 64, o, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clGetKernelWorkGroupInfo(k, d, 0xdead, 64, o, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clGetKernelWorkGroupInfo(k, d, CL_KERNEL_WORK_GROUP_SIZE, 4, o, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        // "If the list of devices associated with kernel is a single device,
        // device can be a NULL value."
        check(clGetKernelWorkGroupInfo(
            k,
            ptr::null_mut(),
            CL_KERNEL_WORK_GROUP_SIZE,
            64,
            o,
            ptr::null_mut(),
        ));
        // CL_INVALID_DEVICE if device is not in the list of devices associated with kernel
        expect_err(
            clGetKernelWorkGroupInfo(k, forged_handle(), CL_KERNEL_WORK_GROUP_SIZE, 64, o, ptr::null_mut()),
            CL_INVALID_DEVICE,
        );
        expect_err(
            clGetKernelWorkGroupInfo(forged_handle(), d, CL_KERNEL_WORK_GROUP_SIZE, 64, o, ptr::null_mut()),
            CL_INVALID_KERNEL,
        );
        let props = [CL_DEVICE_PARTITION_EQUALLY, 1, 0];
        let mut sub = ptr::null_mut();
        if clCreateSubDevices(d, props.as_ptr(), 1, &mut sub, ptr::null_mut()) == CL_SUCCESS {
            expect_err(
                clGetKernelWorkGroupInfo(k, sub, CL_KERNEL_WORK_GROUP_SIZE, 64, o, ptr::null_mut()),
                CL_INVALID_DEVICE,
            );
            check(clReleaseDevice(sub));
        }
    }
    release_kernel(fixed);
    release_kernel(k);

    // The clbench tiled SGEMM: reqd_work_group_size(16,16,1) and two 16x16
    // float tiles of __local memory.
    let t = Setup::new("clbench/O2/sgemm_tiled", "");
    let k = kernel(t.program, "sgemm_tiled");
    assert_eq!(
        usizes(&work_group_bytes(k, CL_KERNEL_COMPILE_WORK_GROUP_SIZE).unwrap()),
        [16, 16, 1]
    );
    assert_eq!(work_group_value::<usize>(k, CL_KERNEL_WORK_GROUP_SIZE), 256);
    assert!(work_group_value::<cl_ulong>(k, CL_KERNEL_LOCAL_MEM_SIZE) >= 2 * 16 * 16 * 4);
    // A kernel that came as SPIR-V: "For kernels not created from OpenCL C
    // source and the clCreateProgramWithSource API call the string
    // returned from this query will be empty."
    assert_eq!(kernel_string(k, CL_KERNEL_ATTRIBUTES), "");
    release_kernel(k);
    // reduce: a __local argument, no static __local memory of its own needed.
    let r = Setup::new("clbench/O0/reduce", "");
    let k = kernel(r.program, "reduce");
    let base: cl_ulong = work_group_value(k, CL_KERNEL_LOCAL_MEM_SIZE);
    check(set_raw(k, 2, 1024, ptr::null()));
    assert_eq!(work_group_value::<cl_ulong>(k, CL_KERNEL_LOCAL_MEM_SIZE), base + 1024);
    release_kernel(k);
}

#[test]
fn set_kernel_arg_checks_each_kind_of_argument() {
    let s = Setup::new("args", "");
    let k = kernel(s.program, "args");
    let buf = buffer(s.ctx, CL_MEM_READ_WRITE, 256);
    let other_ctx = context();
    let other_buf = buffer(other_ctx, CL_MEM_READ_WRITE, 256);
    let mut err = 0;
    // SAFETY: a valid context; no properties.
    let pipe = unsafe { clCreatePipe(s.ctx, 0, 4, 16, ptr::null(), &mut err) };
    check(err);
    let null_mem: cl_mem = ptr::null_mut();
    let forged: cl_mem = forged_handle();

    // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index
    expect_err(set_arg(k, 7, &7u32), CL_INVALID_ARG_INDEX);
    expect_err(set_arg(k, u32::MAX, &7u32), CL_INVALID_ARG_INDEX);

    // __global and __constant pointers: a buffer, or NULL.
    for i in [0, 1] {
        check(set_arg(k, i, &buf));
        // "If arg_value is NULL or points to NULL, then the kernel argument
        // will be set to NULL."
        check(set_arg(k, i, &null_mem));
        check(set_raw(k, i, size_of::<cl_mem>(), ptr::null()));
        // CL_INVALID_ARG_SIZE if arg_value points to a memory object and
        // arg_size is not equal to sizeof(cl_mem)
        expect_err(set_raw(k, i, 4, (&buf as *const cl_mem).cast()), CL_INVALID_ARG_SIZE);
        // CL_INVALID_MEM_OBJECT if arg_value is not NULL, and does not point
        // to NULL, and does not point to a valid memory object
        expect_err(set_arg(k, i, &forged), CL_INVALID_MEM_OBJECT);
        expect_err(set_arg(k, i, &s.queue), CL_INVALID_MEM_OBJECT);
        // ... or the memory object is not valid for the kernel argument
        expect_err(set_arg(k, i, &pipe), CL_INVALID_MEM_OBJECT);
        // CL_INVALID_CONTEXT if the context associated with kernel and an
        // OpenCL object pointed to by arg_value are not the same
        expect_err(set_arg(k, i, &other_buf), CL_INVALID_CONTEXT);
    }

    // __local: a size and no value.
    check(set_raw(k, 2, 64, ptr::null()));
    // CL_INVALID_ARG_SIZE if the kernel argument is a pointer to the local
    // address space and arg_size is zero.
    expect_err(set_raw(k, 2, 0, ptr::null()), CL_INVALID_ARG_SIZE);
    // "arg_value must be NULL"
    expect_err(set_arg(k, 2, &buf), CL_INVALID_ARG_VALUE);

    // By value: the size of the type. CL_INVALID_ARG_SIZE if arg_value
    // points to the data to be used as the kernel argument value and
    // arg_size does not match the size of the data type for the argument.
    check(set_arg(k, 3, &7u32));
    expect_err(set_arg(k, 3, &7u64), CL_INVALID_ARG_SIZE);
    expect_err(set_arg(k, 3, &7u16), CL_INVALID_ARG_SIZE);
    expect_err(set_raw(k, 3, 0, ptr::null()), CL_INVALID_ARG_SIZE);
    // A by-value argument needs a value.
    expect_err(set_raw(k, 3, 4, ptr::null()), CL_INVALID_ARG_VALUE);
    check(set_arg(k, 4, &[1.0f32; 4]));
    expect_err(set_arg(k, 4, &[1.0f32; 3]), CL_INVALID_ARG_SIZE);
    expect_err(set_arg(k, 4, &[1.0f32; 8]), CL_INVALID_ARG_SIZE);
    check(set_arg(k, 5, &[1u32, 2]));
    expect_err(set_arg(k, 5, &1u32), CL_INVALID_ARG_SIZE);
    check(set_arg(k, 6, &1u64));
    expect_err(set_arg(k, 6, &1u32), CL_INVALID_ARG_SIZE);

    // CL_INVALID_KERNEL if kernel is not a valid kernel
    expect_err(set_arg(forged_handle(), 0, &buf), CL_INVALID_KERNEL);

    // A pipe argument takes a pipe of the kernel's context, and nothing else.
    let pk_program = built_program(s.ctx, "pipe", "");
    let pk = kernel(pk_program, "pipe_arg");
    check(set_arg(pk, 0, &pipe));
    expect_err(set_arg(pk, 0, &buf), CL_INVALID_MEM_OBJECT);
    expect_err(set_arg(pk, 0, &null_mem), CL_INVALID_MEM_OBJECT);
    expect_err(set_raw(pk, 0, size_of::<cl_mem>(), ptr::null()), CL_INVALID_MEM_OBJECT);
    expect_err(set_raw(pk, 0, 4, (&pipe as *const cl_mem).cast()), CL_INVALID_ARG_SIZE);
    // SAFETY: a valid context; no properties.
    let other_pipe = unsafe { clCreatePipe(other_ctx, 0, 4, 16, ptr::null(), &mut err) };
    check(err);
    expect_err(set_arg(pk, 0, &other_pipe), CL_INVALID_CONTEXT);
    release_kernel(pk);

    // A device queue argument: "arg_value must point to a device queue
    // object" (valid ones: device_queue.rs).
    let dq_program = built_program(s.ctx, "device_queue", "");
    let dq = kernel(dq_program, "enqueuer");
    // CL_INVALID_DEVICE_QUEUE if the kernel argument is a device queue, but
    // arg_value does not point to a valid device queue object (a host queue
    // is not one).
    expect_err(set_arg(dq, 0, &s.queue), CL_INVALID_DEVICE_QUEUE);
    expect_err(
        set_raw(dq, 0, size_of::<cl_command_queue>(), ptr::null()),
        CL_INVALID_DEVICE_QUEUE,
    );
    // CL_INVALID_ARG_SIZE if arg_value points to a device queue object and
    // arg_size is not equal to sizeof(cl_command_queue)
    expect_err(set_arg(dq, 0, &1u32), CL_INVALID_ARG_SIZE);
    check(set_arg(dq, 1, &buf));
    release_kernel(dq);

    // Images and samplers: a buffer or NULL is no image, and NULL or a
    // buffer no sampler.
    let images = il_program(s.ctx, &spirv("images"));
    check(build(images, ""));
    let ik = kernel(images, "images");
    // CL_INVALID_MEM_OBJECT: not an image.
    expect_err(set_arg(ik, 0, &buf), CL_INVALID_MEM_OBJECT);
    expect_err(set_arg(ik, 0, &null_mem), CL_INVALID_MEM_OBJECT);
    // CL_INVALID_SAMPLER if the kernel argument is a sampler, but
    // arg_value does not point to a valid sampler object
    let no_sampler: cl_sampler = ptr::null_mut();
    expect_err(set_arg(ik, 1, &no_sampler), CL_INVALID_SAMPLER);
    expect_err(set_arg(ik, 1, &buf), CL_INVALID_SAMPLER);
    // CL_INVALID_ARG_SIZE if arg_value points to a sampler object and
    // arg_size is not equal to sizeof(cl_sampler)
    expect_err(set_arg(ik, 1, &1u32), CL_INVALID_ARG_SIZE);
    release_kernel(ik);
    // SAFETY: handles the test owns.
    unsafe {
        check(clReleaseProgram(images));
        check(clReleaseProgram(dq_program));
        check(clReleaseProgram(pk_program));
        release_mem(other_pipe);
        release_mem(pipe);
        release_mem(other_buf);
        release_mem(buf);
        check(clReleaseContext(other_ctx));
    }
    release_kernel(k);
}

#[test]
fn pipe_arguments_report_their_qualifiers() {
    let s = Setup::new("pipe", "");
    let k = kernel(s.program, "pipe_arg");
    assert_eq!(
        arg_info_value::<cl_uint>(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
        CL_KERNEL_ARG_ADDRESS_GLOBAL
    );
    // "CL_KERNEL_ARG_TYPE_PIPE" for an argument declared with the pipe qualifier.
    let tq: cl_bitfield = arg_info_value(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER);
    assert_ne!(tq & cl_bitfield::from(CL_KERNEL_ARG_TYPE_PIPE), 0);
    // "If argument is not an image type and is not declared with the pipe
    // qualifier, CL_KERNEL_ARG_ACCESS_NONE is returned": a `read_only pipe`
    // reports its access qualifier.
    assert_eq!(
        arg_info_value::<cl_uint>(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER),
        CL_KERNEL_ARG_ACCESS_READ_ONLY
    );
    assert_eq!(
        arg_info_value::<cl_uint>(k, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER),
        CL_KERNEL_ARG_ACCESS_NONE
    );
    release_kernel(k);
}

#[test]
fn svm_pointer_arguments_and_exec_info() {
    let s = Setup::new("args", "");
    let k = kernel(s.program, "args");
    let buf = buffer(s.ctx, CL_MEM_READ_WRITE, 256);
    set_all_args(k, buf);
    // SAFETY: a valid context; default flags and alignment.
    let svm = unsafe { clSVMAlloc(s.ctx, CL_MEM_READ_WRITE, 1024, 0) };
    assert!(!svm.is_null());
    let mut host = [0u32; 16];
    // SAFETY: pointers are values here; clift does not dereference them when
    // they are set.
    unsafe {
        // "The SVM pointer value specified as the argument value can be the
        // pointer returned by clSVMAlloc or can be a pointer offset into the
        // SVM region."
        check(clSetKernelArgSVMPointer(k, 0, svm));
        check(clSetKernelArgSVMPointer(k, 1, svm.cast::<u8>().add(64).cast()));
        expect_err(enqueue(s.queue, k, 1, None, Some(&[64]), None), ARGS_RUN);
        check(clSetKernelArgSVMPointer(k, 0, ptr::null()));
        // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index:
        // SVM pointers are only for __global and __constant pointers.
        expect_err(clSetKernelArgSVMPointer(k, 3, svm), CL_INVALID_ARG_INDEX);
        expect_err(clSetKernelArgSVMPointer(k, 2, svm), CL_INVALID_ARG_INDEX);
        expect_err(clSetKernelArgSVMPointer(k, 7, svm), CL_INVALID_ARG_INDEX);
        // CL_INVALID_KERNEL if kernel is not a valid kernel object.
        expect_err(clSetKernelArgSVMPointer(forged_handle(), 0, svm), CL_INVALID_KERNEL);
        // A system pointer runs: the device supports fine-grain system SVM
        // (otherwise CL_INVALID_OPERATION at the enqueue, "if system pointers
        // are set as arguments for kernel and the device associated with
        // command_queue does not support fine-grain system SVM").
        check(clSetKernelArgSVMPointer(k, 0, host.as_mut_ptr().cast()));
        expect_err(enqueue(s.queue, k, 1, None, Some(&[64]), None), ARGS_RUN);
        check(clFinish(s.queue));
        check(set_arg(k, 0, &buf));

        // CL_KERNEL_EXEC_INFO_SVM_PTRS
        let ptrs = [svm, svm.cast::<u8>().add(8).cast::<c_void>()];
        check(clSetKernelExecInfo(
            k,
            CL_KERNEL_EXEC_INFO_SVM_PTRS,
            2 * size_of::<*mut c_void>(),
            ptrs.as_ptr().cast(),
        ));
        // "specify an empty set by passing param_value_size equal to zero and
        // param_value equal to NULL."
        check(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, ptr::null()));
        // CL_INVALID_VALUE if param_value is NULL and param_value_size is
        // greater than zero, or if the size specified by param_value_size is
        // not valid.
        expect_err(
            clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 8, ptr::null()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 5, ptrs.as_ptr().cast()),
            CL_INVALID_VALUE,
        );
        // CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM
        let no: cl_bool = CL_FALSE;
        let yes: cl_bool = CL_TRUE;
        check(clSetKernelExecInfo(
            k,
            CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
            4,
            (&no as *const cl_bool).cast(),
        ));
        // CL_INVALID_OPERATION if ... CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM
        // and param_value is CL_TRUE and no devices in the context associated
        // with kernel support fine-grain system SVM allocations: this one does.
        check(clSetKernelExecInfo(
            k,
            CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
            4,
            (&yes as *const cl_bool).cast(),
        ));
        expect_err(
            clSetKernelExecInfo(
                k,
                CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                1,
                (&no as *const cl_bool).cast(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 0, ptr::null()),
            CL_INVALID_VALUE,
        );
        // CL_INVALID_VALUE if param_name is not valid
        expect_err(
            clSetKernelExecInfo(k, 0xdead, 4, (&no as *const cl_bool).cast()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clSetKernelExecInfo(forged_handle(), CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, ptr::null()),
            CL_INVALID_KERNEL,
        );
        clSVMFree(s.ctx, svm);
    }
    release_mem(buf);
    release_kernel(k);
}

#[test]
fn a_clone_copies_the_arguments_and_then_goes_its_own_way() {
    let s = Setup::new("args", "");
    let k = kernel(s.program, "args");
    let buf = buffer(s.ctx, CL_MEM_READ_WRITE, 256);
    check(set_raw(k, 2, 64, ptr::null()));
    let base: cl_ulong = work_group_value::<cl_ulong>(k, CL_KERNEL_LOCAL_MEM_SIZE) - 64;
    let mut err = 0;
    // SAFETY: a valid kernel and error slot.
    let c = unsafe { clCloneKernel(k, &mut err) };
    check(err);
    // "the reference count on the returned kernel object is set as if it had
    // been returned by clCreateKernel."
    assert_eq!(kernel_value::<cl_uint>(c, CL_KERNEL_REFERENCE_COUNT), 1);
    assert_eq!(kernel_string(c, CL_KERNEL_FUNCTION_NAME), "args");
    assert_eq!(kernel_value::<cl_program>(c, CL_KERNEL_PROGRAM), s.program);
    assert_eq!(work_group_value::<cl_ulong>(c, CL_KERNEL_LOCAL_MEM_SIZE), base + 64);
    // "Setting arguments on the new kernel object will not affect source_kernel"
    check(set_raw(c, 2, 128, ptr::null()));
    assert_eq!(work_group_value::<cl_ulong>(c, CL_KERNEL_LOCAL_MEM_SIZE), base + 128);
    assert_eq!(work_group_value::<cl_ulong>(k, CL_KERNEL_LOCAL_MEM_SIZE), base + 64);
    // "If the kernel object was ready to be enqueued before copying it, the
    // clone of the kernel object is ready to enqueue."
    set_all_args(k, buf);
    // SAFETY: as above.
    let ready = unsafe { clCloneKernel(k, &mut err) };
    check(err);
    expect_err(enqueue(s.queue, ready, 1, None, Some(&[64]), None), ARGS_RUN);
    // The first clone was made before the other arguments were set.
    expect_err(enqueue(s.queue, c, 1, None, Some(&[64]), None), CL_INVALID_KERNEL_ARGS);
    // CL_INVALID_KERNEL if kernel is not a valid kernel object.
    // SAFETY: a forged handle is the error under test.
    assert!(unsafe { clCloneKernel(forged_handle(), &mut err) }.is_null());
    expect_err(err, CL_INVALID_KERNEL);
    release_kernel(ready);
    release_kernel(c);
    release_kernel(k);
    release_mem(buf);
}

static RELEASED: Mutex<Vec<usize>> = Mutex::new(Vec::new());

extern "C" fn program_released(p: cl_program, _: *mut c_void) {
    RELEASED.lock().unwrap().push(p as usize);
}

#[test]
fn a_kernel_keeps_its_program_alive() {
    let ctx = context();
    let q = default_queue(ctx);
    let p = built_program(ctx, "args", "");
    // SAFETY: a valid program and callback.
    check(unsafe { clSetProgramReleaseCallback(p, Some(program_released), ptr::null_mut()) });
    let k = kernel(p, "args");
    // SAFETY: the application's last reference to the program.
    check(unsafe { clReleaseProgram(p) });
    // "The program object is deleted after all kernel objects associated with
    // program have been deleted and the program reference count becomes zero."
    assert!(!RELEASED.lock().unwrap().contains(&(p as usize)));
    assert_eq!(kernel_string(k, CL_KERNEL_FUNCTION_NAME), "args");
    assert_eq!(kernel_value::<cl_uint>(k, CL_KERNEL_NUM_ARGS), 7);
    let buf = buffer(ctx, CL_MEM_READ_WRITE, 64);
    set_all_args(k, buf);
    expect_err(enqueue(q, k, 1, None, Some(&[4]), None), ARGS_RUN);
    release_kernel(k);
    assert!(RELEASED.lock().unwrap().contains(&(p as usize)));
    release_mem(buf);
    // SAFETY: handles the test owns.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

#[test]
fn enqueue_checks_every_argument() {
    let s = Setup::new("args", "");
    let k = kernel(s.program, "args");
    let buf = buffer(s.ctx, CL_MEM_READ_WRITE, 256);
    let g = [64usize, 1, 1];

    // CL_INVALID_KERNEL_ARGS if any kernel arguments for kernel have not been set
    expect_err(enqueue(s.queue, k, 1, None, Some(&g), None), CL_INVALID_KERNEL_ARGS);
    check(set_arg(k, 0, &buf));
    expect_err(enqueue(s.queue, k, 1, None, Some(&g), None), CL_INVALID_KERNEL_ARGS);
    set_all_args(k, buf);
    // Every argument is valid: the kernel has no machine code yet.
    expect_err(enqueue(s.queue, k, 1, None, Some(&g), None), ARGS_RUN);
    expect_err(
        enqueue(s.queue, k, 3, Some(&[1, 2, 3]), Some(&[4, 4, 4]), Some(&[2, 2, 2])),
        ARGS_RUN,
    );
    // Non-uniform work-groups are supported (no -cl-uniform-work-group-size).
    expect_err(enqueue(s.queue, k, 1, None, Some(&[10]), Some(&[4])), ARGS_RUN);
    // "If global_work_size is NULL or the value in any passed dimension is
    // zero, then the kernel command will trivially succeed" (2.1 devices):
    // not an argument error.
    expect_err(enqueue(s.queue, k, 1, None, None, None), ARGS_RUN);
    expect_err(enqueue(s.queue, k, 2, None, Some(&[0, 4]), None), ARGS_RUN);

    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue
    expect_err(
        enqueue(forged_handle(), k, 1, None, Some(&g), None),
        CL_INVALID_COMMAND_QUEUE,
    );
    // CL_INVALID_KERNEL if kernel is not a valid kernel
    expect_err(
        enqueue(s.queue, forged_handle(), 1, None, Some(&g), None),
        CL_INVALID_KERNEL,
    );
    expect_err(enqueue(s.queue, s.program, 1, None, Some(&g), None), CL_INVALID_KERNEL);
    // CL_INVALID_CONTEXT if the context associated with command_queue and
    // kernel are not the same
    let other = context();
    let other_q = default_queue(other);
    expect_err(enqueue(other_q, k, 1, None, Some(&g), None), CL_INVALID_CONTEXT);
    // CL_INVALID_WORK_DIMENSION if work_dim is not valid for the device
    expect_err(enqueue(s.queue, k, 0, None, Some(&g), None), CL_INVALID_WORK_DIMENSION);
    expect_err(enqueue(s.queue, k, 4, None, Some(&g), None), CL_INVALID_WORK_DIMENSION);
    expect_err(
        enqueue(s.queue, k, u32::MAX, None, Some(&g), None),
        CL_INVALID_WORK_DIMENSION,
    );
    // CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size
    // plus the corresponding value in global_work_offset for any dimensions
    // is greater than the maximum value representable by size_t
    expect_err(
        enqueue(s.queue, k, 1, Some(&[usize::MAX]), Some(&[2]), None),
        CL_INVALID_GLOBAL_OFFSET,
    );
    expect_err(
        enqueue(s.queue, k, 2, Some(&[0, usize::MAX - 1]), Some(&[4, 4]), None),
        CL_INVALID_GLOBAL_OFFSET,
    );
    // CL_INVALID_WORK_GROUP_SIZE if local_work_size is not NULL and if the
    // total number of work-items in the work-group is zero
    expect_err(
        enqueue(s.queue, k, 1, None, Some(&g), Some(&[0])),
        CL_INVALID_WORK_GROUP_SIZE,
    );
    expect_err(
        enqueue(s.queue, k, 2, None, Some(&g), Some(&[4, 0])),
        CL_INVALID_WORK_GROUP_SIZE,
    );
    // ... or greater than CL_KERNEL_WORK_GROUP_SIZE
    let max: usize = work_group_value(k, CL_KERNEL_WORK_GROUP_SIZE);
    let half = max / 2;
    expect_err(
        enqueue(s.queue, k, 2, None, Some(&[max, 4]), Some(&[half, 4])),
        CL_INVALID_WORK_GROUP_SIZE,
    );
    expect_err(
        enqueue(s.queue, k, 2, None, Some(&[max, 1]), Some(&[half, 1])),
        ARGS_RUN,
    );
    // CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any
    // dimension of local_work_size is greater than the corresponding value
    // returned for CL_DEVICE_MAX_WORK_GROUP_SIZES
    let sizes: [usize; 3] = device_value(device(), CL_DEVICE_MAX_WORK_ITEM_SIZES);
    expect_err(
        enqueue(s.queue, k, 1, None, Some(&[sizes[0] + 1]), Some(&[sizes[0] + 1])),
        CL_INVALID_WORK_ITEM_SIZE,
    );
    expect_err(
        enqueue(
            s.queue,
            k,
            3,
            None,
            Some(&[1, 1, sizes[2] + 1]),
            Some(&[1, 1, sizes[2] + 1]),
        ),
        CL_INVALID_WORK_ITEM_SIZE,
    );
    // CL_OUT_OF_RESOURCES: more __local memory than the device has.
    let local: cl_ulong = device_value(device(), CL_DEVICE_LOCAL_MEM_SIZE);
    check(set_raw(k, 2, local as usize + 1, ptr::null()));
    expect_err(enqueue(s.queue, k, 1, None, Some(&g), None), CL_OUT_OF_RESOURCES);
    check(set_raw(k, 2, 64, ptr::null()));

    // CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
    // num_events_in_wait_list is greater than zero, or event_wait_list is not
    // NULL and num_events_in_wait_list is zero, or if event objects in
    // event_wait_list are not valid events.
    let user = new_user_event(s.ctx);
    let other_user = new_user_event(other);
    let forged_ev: cl_event = forged_handle();
    // SAFETY: the arrays hold the counts passed; NULL event slot.
    unsafe {
        let gp = g.as_ptr();
        let e = ptr::null_mut();
        expect_err(
            clEnqueueNDRangeKernel(s.queue, k, 1, ptr::null(), gp, ptr::null(), 1, ptr::null(), e),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        expect_err(
            clEnqueueNDRangeKernel(s.queue, k, 1, ptr::null(), gp, ptr::null(), 0, &user, e),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        expect_err(
            clEnqueueNDRangeKernel(s.queue, k, 1, ptr::null(), gp, ptr::null(), 1, &forged_ev, e),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        // CL_INVALID_CONTEXT if the context associated with command_queue and
        // events in event_wait_list are not the same
        expect_err(
            clEnqueueNDRangeKernel(s.queue, k, 1, ptr::null(), gp, ptr::null(), 1, &other_user, e),
            CL_INVALID_CONTEXT,
        );
        expect_err(
            clEnqueueNDRangeKernel(s.queue, k, 1, ptr::null(), gp, ptr::null(), 1, &user, e),
            ARGS_RUN,
        );
        check(clSetUserEventStatus(user, CL_COMPLETE));
        check(clSetUserEventStatus(other_user, CL_COMPLETE));
        check(clReleaseEvent(user));
        check(clReleaseEvent(other_user));
        check(clReleaseCommandQueue(other_q));
        check(clReleaseContext(other));
    }
    release_kernel(k);
    release_mem(buf);
}

#[test]
fn required_and_uniform_work_group_sizes_are_enforced() {
    let s = Setup::new("args", "");
    let fixed = kernel(s.program, "fixed");
    let buf = buffer(s.ctx, CL_MEM_READ_WRITE, 256);
    check(set_arg(fixed, 0, &buf));
    // "the size of work-group specified by local_work_size must match the
    // value specified in the program source."
    expect_err(enqueue(s.queue, fixed, 2, None, Some(&[8, 8]), Some(&[4, 2])), RUNS);
    expect_err(
        enqueue(s.queue, fixed, 3, None, Some(&[8, 8, 1]), Some(&[4, 2, 1])),
        RUNS,
    );
    expect_err(enqueue(s.queue, fixed, 2, None, Some(&[8, 8]), None), RUNS);
    for bad in [&[2usize, 4][..], &[8], &[4, 1], &[1, 1]] {
        let dims = bad.len() as cl_uint;
        expect_err(
            enqueue(s.queue, fixed, dims, None, Some(&[8, 8][..bad.len()]), Some(bad)),
            CL_INVALID_WORK_GROUP_SIZE,
        );
    }
    // clEnqueueTask: CL_INVALID_WORK_GROUP_SIZE if a work-group size is
    // specified for kernel in the program source and it is not (1, 1, 1).
    // SAFETY: valid handles; no wait list; NULL event slot.
    unsafe {
        expect_err(
            clEnqueueTask(s.queue, fixed, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_WORK_GROUP_SIZE,
        );
    }
    release_kernel(fixed);

    // -cl-uniform-work-group-size: "the global work-size be a multiple of
    // the work-group size".
    let u = Setup::new("args", "-cl-uniform-work-group-size");
    let k = kernel(u.program, "unnamed");
    let ubuf = buffer(u.ctx, CL_MEM_READ_WRITE, 256);
    check(set_arg(k, 0, &ubuf));
    check(set_arg(k, 1, &1u32));
    expect_err(
        enqueue(u.queue, k, 1, None, Some(&[10]), Some(&[4])),
        CL_INVALID_WORK_GROUP_SIZE,
    );
    expect_err(
        enqueue(u.queue, k, 2, None, Some(&[8, 6]), Some(&[4, 4])),
        CL_INVALID_WORK_GROUP_SIZE,
    );
    expect_err(enqueue(u.queue, k, 1, None, Some(&[12]), Some(&[4])), RUNS);
    expect_err(enqueue(u.queue, k, 1, None, Some(&[10]), None), RUNS);
    release_kernel(k);
    release_mem(ubuf);
    release_mem(buf);
}

#[test]
fn enqueue_task_checks_its_arguments() {
    let s = Setup::new("args", "");
    let k = kernel(s.program, "args");
    let buf = buffer(s.ctx, CL_MEM_READ_WRITE, 256);
    let mut ev: cl_event = ptr::null_mut();
    // SAFETY: valid handles except the one under test; an event slot.
    unsafe {
        // CL_INVALID_KERNEL_ARGS if the kernel argument values have not been specified.
        expect_err(
            clEnqueueTask(s.queue, k, 0, ptr::null(), &mut ev),
            CL_INVALID_KERNEL_ARGS,
        );
        set_all_args(k, buf);
        expect_err(clEnqueueTask(s.queue, k, 0, ptr::null(), &mut ev), ARGS_RUN);
        assert!(!ev.is_null());
        check(clWaitForEvents(1, &ev));
        check(clReleaseEvent(ev));
        ev = ptr::null_mut();
        expect_err(
            clEnqueueTask(forged_handle(), k, 0, ptr::null(), &mut ev),
            CL_INVALID_COMMAND_QUEUE,
        );
        expect_err(
            clEnqueueTask(s.queue, forged_handle(), 0, ptr::null(), &mut ev),
            CL_INVALID_KERNEL,
        );
        expect_err(
            clEnqueueTask(s.queue, k, 1, ptr::null(), &mut ev),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        let other = context();
        let other_q = default_queue(other);
        expect_err(clEnqueueTask(other_q, k, 0, ptr::null(), &mut ev), CL_INVALID_CONTEXT);
        check(clReleaseCommandQueue(other_q));
        check(clReleaseContext(other));
    }
    release_kernel(k);
    release_mem(buf);
}

/// clift's dispatch table, read through one of its handles.
fn dispatch(handle: *mut c_void) -> &'static cl_icd_dispatch {
    // SAFETY: a clift handle's first word is the address of its dispatch
    // table, which is static.
    unsafe { &**(handle as *const *const cl_icd_dispatch) }
}

type SuggestFn =
    unsafe extern "C" fn(cl_command_queue, cl_kernel, cl_uint, *const usize, *const usize, *mut usize) -> cl_int;

#[test]
fn suggested_local_work_sizes_divide_the_range() {
    let s = Setup::new("args", "");
    let k = kernel(s.program, "args");
    let fixed = kernel(s.program, "fixed");
    let buf = buffer(s.ctx, CL_MEM_READ_WRITE, 256);
    set_all_args(k, buf);
    check(set_arg(fixed, 0, &buf));
    // ocl-icd does not export clGetKernelSuggestedLocalWorkSizeKHR: call it
    // through clift's dispatch table.
    let suggest: SuggestFn = dispatch(s.queue)
        .clGetKernelSuggestedLocalWorkSize
        .expect("in the table");
    let max: usize = work_group_value(k, CL_KERNEL_WORK_GROUP_SIZE);
    let mut out = [0usize; 3];
    for global in [&[1024usize][..], &[1000], &[7], &[64, 48], &[10, 12, 14], &[1 << 20, 3]] {
        let dims = global.len() as cl_uint;
        // SAFETY: `global` and `out` hold `dims` entries.
        check(unsafe { suggest(s.queue, k, dims, ptr::null(), global.as_ptr(), out.as_mut_ptr()) });
        let total: usize = out[..global.len()].iter().product();
        assert!((1..=max).contains(&total), "{global:?} -> {out:?}");
        for (g, l) in global.iter().zip(out) {
            assert_eq!(g % l, 0, "{global:?} -> {out:?}: a uniform work-group size");
        }
    }
    // SAFETY: arrays of the sizes passed, or NULL for the errors under test.
    unsafe {
        // The required work-group size is the suggestion.
        check(suggest(
            s.queue,
            fixed,
            2,
            ptr::null(),
            [16usize, 16].as_ptr(),
            out.as_mut_ptr(),
        ));
        assert_eq!(out[..2], [4, 2]);
        // CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL or any of
        // the values specified in global_work_size are zero.
        expect_err(
            suggest(s.queue, k, 1, ptr::null(), ptr::null(), out.as_mut_ptr()),
            CL_INVALID_GLOBAL_WORK_SIZE,
        );
        expect_err(
            suggest(s.queue, k, 2, ptr::null(), [4usize, 0].as_ptr(), out.as_mut_ptr()),
            CL_INVALID_GLOBAL_WORK_SIZE,
        );
        // CL_INVALID_VALUE if suggested_local_work_size is NULL
        expect_err(
            suggest(s.queue, k, 1, ptr::null(), [4usize].as_ptr(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        // CL_INVALID_WORK_DIMENSION, CL_INVALID_GLOBAL_OFFSET, CL_INVALID_KERNEL_ARGS ...
        expect_err(
            suggest(s.queue, k, 4, ptr::null(), [4usize; 4].as_ptr(), out.as_mut_ptr()),
            CL_INVALID_WORK_DIMENSION,
        );
        expect_err(
            suggest(
                s.queue,
                k,
                1,
                [usize::MAX].as_ptr(),
                [4usize].as_ptr(),
                out.as_mut_ptr(),
            ),
            CL_INVALID_GLOBAL_OFFSET,
        );
        let fresh = kernel(s.program, "args");
        expect_err(
            suggest(s.queue, fresh, 1, ptr::null(), [4usize].as_ptr(), out.as_mut_ptr()),
            CL_INVALID_KERNEL_ARGS,
        );
        release_kernel(fresh);
        expect_err(
            suggest(
                s.queue,
                forged_handle(),
                1,
                ptr::null(),
                [4usize].as_ptr(),
                out.as_mut_ptr(),
            ),
            CL_INVALID_KERNEL,
        );
        expect_err(
            suggest(forged_handle(), k, 1, ptr::null(), [4usize].as_ptr(), out.as_mut_ptr()),
            CL_INVALID_COMMAND_QUEUE,
        );
        let other = context();
        let other_q = default_queue(other);
        expect_err(
            suggest(other_q, k, 1, ptr::null(), [4usize].as_ptr(), out.as_mut_ptr()),
            CL_INVALID_CONTEXT,
        );
        check(clReleaseCommandQueue(other_q));
        check(clReleaseContext(other));
    }
    release_kernel(fixed);
    release_kernel(k);
    release_mem(buf);
}

#[test]
fn sub_group_queries_answer_for_sub_groups_of_consecutive_work_items() {
    let s = Setup::new("args", "");
    let k = kernel(s.program, "args");
    let d = device();
    let max_sub_groups: cl_uint = device_value(d, CL_DEVICE_MAX_NUM_SUB_GROUPS);
    let query = |param: cl_kernel_sub_group_info, input: &[usize], out_words: usize| -> Result<Vec<usize>, cl_int> {
        let mut out = vec![0usize; out_words];
        let mut ret = 0usize;
        // SAFETY: `input` and `out` hold the sizes passed.
        let rc = unsafe {
            clGetKernelSubGroupInfo(
                k,
                d,
                param,
                size_of_val(input),
                if input.is_empty() {
                    ptr::null()
                } else {
                    input.as_ptr().cast()
                },
                out_words * size_of::<usize>(),
                out.as_mut_ptr().cast(),
                &mut ret,
            )
        };
        if rc != CL_SUCCESS {
            return Err(rc);
        }
        out.truncate(ret / size_of::<usize>());
        Ok(out)
    };
    assert_eq!(
        query(CL_KERNEL_MAX_NUM_SUB_GROUPS, &[], 1),
        Ok(vec![max_sub_groups as usize])
    );
    // Sub-groups of `size` consecutive work-items, the last holding the rest.
    let size = sub_group_size();
    let wgs = max_sub_groups as usize * size;
    for local in [&[64][..], &[8, 8, 2], &[3], &[5, 5], &[size + 1]] {
        let items: usize = local.iter().product();
        assert_eq!(
            query(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local, 1),
            Ok(vec![items.div_ceil(size)]),
            "{local:?}"
        );
        assert_eq!(
            query(CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local, 1),
            Ok(vec![items.min(size)]),
            "{local:?}"
        );
    }
    assert_eq!(query(CL_KERNEL_COMPILE_NUM_SUB_GROUPS, &[], 1), Ok(vec![0]));
    // The largest one-dimensional work-group of that many sub-groups.
    assert_eq!(
        query(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, &[1], 2),
        Ok(vec![size, 1])
    );
    assert_eq!(
        query(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, &[3], 1),
        Ok(vec![3 * size])
    );
    assert_eq!(
        query(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, &[max_sub_groups as usize], 1),
        Ok(vec![wgs])
    );
    // "If no work-group size can accommodate the requested number of
    // sub-groups, 0 will be returned in each element of the return array."
    assert_eq!(
        query(
            CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
            &[max_sub_groups as usize + 1],
            3
        ),
        Ok(vec![0, 0, 0])
    );
    // CL_INVALID_VALUE if param_name is ..._FOR_NDRANGE or
    // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT and the size in bytes
    // specified by input_value_size is not valid or if input_value is NULL.
    expect_err(
        query(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, &[], 1).unwrap_err(),
        CL_INVALID_VALUE,
    );
    expect_err(
        query(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, &[1, 1, 1, 1], 1).unwrap_err(),
        CL_INVALID_VALUE,
    );
    expect_err(
        query(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, &[1, 1], 1).unwrap_err(),
        CL_INVALID_VALUE,
    );
    expect_err(query(0xdead, &[1], 1).unwrap_err(), CL_INVALID_VALUE);
    let mut out = 0usize;
    // SAFETY: a one-word output; the device or kernel under test is the bad argument.
    unsafe {
        let o = (&mut out as *mut usize).cast();
        check(clGetKernelSubGroupInfo(
            k,
            ptr::null_mut(),
            CL_KERNEL_MAX_NUM_SUB_GROUPS,
            0,
            ptr::null(),
            8,
            o,
            ptr::null_mut(),
        ));
        expect_err(
            clGetKernelSubGroupInfo(
                k,
                forged_handle(),
                CL_KERNEL_MAX_NUM_SUB_GROUPS,
                0,
                ptr::null(),
                8,
                o,
                ptr::null_mut(),
            ),
            CL_INVALID_DEVICE,
        );
        expect_err(
            clGetKernelSubGroupInfo(
                forged_handle(),
                d,
                CL_KERNEL_MAX_NUM_SUB_GROUPS,
                0,
                ptr::null(),
                8,
                o,
                ptr::null_mut(),
            ),
            CL_INVALID_KERNEL,
        );
        // The KHR name (not exported by ocl-icd: through the dispatch table)
        // answers the same.
        let khr = dispatch(k).clGetKernelSubGroupInfoKHR.expect("in the table");
        check(khr(
            k,
            d,
            CL_KERNEL_MAX_NUM_SUB_GROUPS,
            0,
            ptr::null(),
            8,
            o,
            ptr::null_mut(),
        ));
    }
    assert_eq!(out, max_sub_groups as usize);
    release_kernel(k);
}

#[test]
fn kernels_are_used_from_many_threads() {
    let s = Setup::new("args", "");
    let program = s.program as usize;
    let ctx = s.ctx as usize;
    let shared = kernel(s.program, "args") as usize;
    let threads: Vec<_> = (0..8)
        .map(|i| {
            std::thread::spawn(move || {
                let (p, ctx, shared) = (program as cl_program, ctx as cl_context, shared as cl_kernel);
                let q = default_queue(ctx);
                let buf = buffer(ctx, CL_MEM_READ_WRITE, 64);
                for _ in 0..50 {
                    let k = kernel(p, if i % 2 == 0 { "args" } else { "fixed" });
                    if i % 2 == 0 {
                        set_all_args(k, buf);
                        expect_err(enqueue(q, k, 1, None, Some(&[16]), None), ARGS_RUN);
                    } else {
                        check(set_arg(k, 0, &buf));
                        expect_err(enqueue(q, k, 2, None, Some(&[8, 8]), Some(&[4, 2])), RUNS);
                    }
                    // Queries on a kernel another thread uses.
                    assert_eq!(kernel_value::<cl_uint>(shared, CL_KERNEL_NUM_ARGS), 7);
                    let mut err = 0;
                    // SAFETY: a valid kernel and error slot.
                    let c = unsafe { clCloneKernel(shared, &mut err) };
                    check(err);
                    release_kernel(c);
                    release_kernel(k);
                }
                release_mem(buf);
                // SAFETY: a queue the thread owns.
                check(unsafe { clReleaseCommandQueue(q) });
            })
        })
        .collect();
    for t in threads {
        t.join().expect("no thread failed");
    }
    release_kernel(shared as cl_kernel);
}
