//! Helpers shared by the conformance tests.
//!
//! The tests are applications: they link the system's `libOpenCL.so` (the
//! ocl-icd loader) and reach clift only through it. [`setup`] points the
//! loader at the `libclift.so` that `cargo build` just produced, through a
//! private `.icd` file named by `OCL_ICD_VENDORS`, so nothing has to be
//! installed system-wide to run them.

// The helpers take OpenCL handles, which are opaque pointers that clift itself
// validates; passing a bad one is what some tests are about.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

pub mod child;
pub mod difftest;
pub mod dump;
pub use clift_env as env;
pub mod exec;
pub mod fenced;
pub mod half;
pub mod images;
pub mod math;
pub mod offline;
pub mod programs;
pub mod rng;

use std::ffi::c_void;
use std::path::PathBuf;
use std::ptr;

pub use opencl_sys::*;

/// The libclift.so under test: `$CLIFT_LIB`, else the one in the target
/// directory that holds this test executable.
pub fn lib_path() -> PathBuf {
    if let Some(p) = env::value("CLIFT_LIB") {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().expect("test executable path");
    // A binary of this crate (target/<profile>/difftest) sits beside it.
    if let Some(lib) = exe.parent().map(|d| d.join("libclift.so")).filter(|l| l.exists()) {
        return lib;
    }
    // target/<profile>/deps/<test> -> target/<profile>/libclift.so
    let profile_dir = exe.parent().and_then(|d| d.parent()).expect("target/<profile>");
    let lib = profile_dir.join("libclift.so");
    assert!(
        lib.exists(),
        "{} is missing: run `cargo build` before the tests (the README's test command does)",
        lib.display()
    );
    lib
}

/// The vendor files the loader was given (set once per process).
static VENDORS: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();

/// Points the ICD loader at clift. Every helper that calls OpenCL calls this
/// first; it runs once per process, before the loader reads its environment.
pub fn setup() {
    VENDORS.get_or_init(|| {
        let lib = lib_path();
        let icd = std::env::temp_dir().join(format!("clift-conformance-{}.icd", std::process::id()));
        std::fs::write(&icd, format!("{}\n", lib.display())).expect("write .icd file");
        std::env::set_var("OCL_ICD_VENDORS", &icd);
        Vec::new()
    });
}

/// The folder of `.icd` files [`setup_with_vendors`] writes for process
/// `pid` (a parent removes its children's).
pub fn vendor_dir(pid: u32) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("clift-conformance-{pid}.d"))
}

/// Points the ICD loader at clift and at the other vendors' `.icd` files
/// `extra` (e.g. PoCL's, for differential tests), through a folder of
/// `.icd` files named by `OCL_ICD_VENDORS`. Must come before any other
/// OpenCL call of the process (the loader reads its environment once);
/// panics otherwise, or if a file is missing.
pub fn setup_with_vendors(extra: &[&std::path::Path]) {
    let got = VENDORS.get_or_init(|| {
        let dir = vendor_dir(std::process::id());
        std::fs::create_dir_all(&dir).expect("create the vendor folder");
        std::fs::write(dir.join("clift.icd"), format!("{}\n", lib_path().display())).expect("write .icd file");
        for (i, f) in extra.iter().enumerate() {
            let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            std::fs::write(dir.join(format!("vendor{i}.icd")), text).expect("write .icd file");
        }
        std::env::set_var("OCL_ICD_VENDORS", &dir);
        extra.iter().map(|p| p.to_path_buf()).collect()
    });
    assert!(
        extra.iter().all(|e| got.iter().any(|g| g == e)),
        "setup_with_vendors({extra:?}) after the loader was set up with {got:?}"
    );
}

/// Panics with the error's name unless `code` is CL_SUCCESS.
#[track_caller]
pub fn check(code: cl_int) {
    assert_eq!(
        code,
        CL_SUCCESS,
        "OpenCL call failed with {} ({code})",
        error_name(code)
    );
}

/// Asserts that `code` is `expected`, naming both on failure.
#[track_caller]
pub fn expect_err(code: cl_int, expected: cl_int) {
    assert_eq!(
        code,
        expected,
        "expected {} ({expected}), got {} ({code})",
        error_name(expected),
        error_name(code)
    );
}

/// The name of an OpenCL error code.
pub fn error_name(code: cl_int) -> &'static str {
    match code {
        0 => "CL_SUCCESS",
        -1 => "CL_DEVICE_NOT_FOUND",
        -2 => "CL_DEVICE_NOT_AVAILABLE",
        -3 => "CL_COMPILER_NOT_AVAILABLE",
        -4 => "CL_MEM_OBJECT_ALLOCATION_FAILURE",
        -5 => "CL_OUT_OF_RESOURCES",
        -6 => "CL_OUT_OF_HOST_MEMORY",
        -7 => "CL_PROFILING_INFO_NOT_AVAILABLE",
        -8 => "CL_MEM_COPY_OVERLAP",
        -9 => "CL_IMAGE_FORMAT_MISMATCH",
        -10 => "CL_IMAGE_FORMAT_NOT_SUPPORTED",
        -11 => "CL_BUILD_PROGRAM_FAILURE",
        -12 => "CL_MAP_FAILURE",
        -13 => "CL_MISALIGNED_SUB_BUFFER_OFFSET",
        -14 => "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
        -15 => "CL_COMPILE_PROGRAM_FAILURE",
        -16 => "CL_LINKER_NOT_AVAILABLE",
        -17 => "CL_LINK_PROGRAM_FAILURE",
        -18 => "CL_DEVICE_PARTITION_FAILED",
        -19 => "CL_KERNEL_ARG_INFO_NOT_AVAILABLE",
        -30 => "CL_INVALID_VALUE",
        -31 => "CL_INVALID_DEVICE_TYPE",
        -32 => "CL_INVALID_PLATFORM",
        -33 => "CL_INVALID_DEVICE",
        -34 => "CL_INVALID_CONTEXT",
        -35 => "CL_INVALID_QUEUE_PROPERTIES",
        -36 => "CL_INVALID_COMMAND_QUEUE",
        -37 => "CL_INVALID_HOST_PTR",
        -38 => "CL_INVALID_MEM_OBJECT",
        -39 => "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR",
        -40 => "CL_INVALID_IMAGE_SIZE",
        -41 => "CL_INVALID_SAMPLER",
        -42 => "CL_INVALID_BINARY",
        -43 => "CL_INVALID_BUILD_OPTIONS",
        -44 => "CL_INVALID_PROGRAM",
        -45 => "CL_INVALID_PROGRAM_EXECUTABLE",
        -46 => "CL_INVALID_KERNEL_NAME",
        -47 => "CL_INVALID_KERNEL_DEFINITION",
        -48 => "CL_INVALID_KERNEL",
        -49 => "CL_INVALID_ARG_INDEX",
        -50 => "CL_INVALID_ARG_VALUE",
        -51 => "CL_INVALID_ARG_SIZE",
        -52 => "CL_INVALID_KERNEL_ARGS",
        -53 => "CL_INVALID_WORK_DIMENSION",
        -54 => "CL_INVALID_WORK_GROUP_SIZE",
        -55 => "CL_INVALID_WORK_ITEM_SIZE",
        -56 => "CL_INVALID_GLOBAL_OFFSET",
        -57 => "CL_INVALID_EVENT_WAIT_LIST",
        -58 => "CL_INVALID_EVENT",
        -59 => "CL_INVALID_OPERATION",
        -60 => "CL_INVALID_GL_OBJECT",
        -61 => "CL_INVALID_BUFFER_SIZE",
        -62 => "CL_INVALID_MIP_LEVEL",
        -63 => "CL_INVALID_GLOBAL_WORK_SIZE",
        -64 => "CL_INVALID_PROPERTY",
        -65 => "CL_INVALID_IMAGE_DESCRIPTOR",
        -66 => "CL_INVALID_COMPILER_OPTIONS",
        -67 => "CL_INVALID_LINKER_OPTIONS",
        -68 => "CL_INVALID_DEVICE_PARTITION_COUNT",
        -69 => "CL_INVALID_PIPE_SIZE",
        -70 => "CL_INVALID_DEVICE_QUEUE",
        -71 => "CL_INVALID_SPEC_ID",
        -72 => "CL_MAX_SIZE_RESTRICTION_EXCEEDED",
        _ => "(unknown code)",
    }
}

/// clift's platform, found by name among the loader's platforms.
pub fn platform() -> cl_platform_id {
    setup();
    platform_named("clift").expect("the loader lists a platform named clift")
}

/// The loader's platforms.
pub fn platforms() -> Vec<cl_platform_id> {
    let mut n = 0;
    // SAFETY: valid out-pointer; NULL platforms with 0 entries asks the count.
    check(unsafe { clGetPlatformIDs(0, ptr::null_mut(), &mut n) });
    let mut ids = vec![ptr::null_mut(); n as usize];
    // SAFETY: `ids` has room for `n` handles.
    check(unsafe { clGetPlatformIDs(n, ids.as_mut_ptr(), ptr::null_mut()) });
    ids
}

/// The name (`CL_PLATFORM_NAME`) of platform `p`.
pub fn platform_name(p: cl_platform_id) -> String {
    info_string(|s, v, r| {
        // SAFETY: forwards the buffer protocol of `info_bytes` for a
        // platform the loader listed.
        unsafe { clGetPlatformInfo(p, CL_PLATFORM_NAME, s, v, r) }
    })
}

/// The loader's platform named `name` (`CL_PLATFORM_NAME`), if any.
pub fn platform_named(name: &str) -> Option<cl_platform_id> {
    platforms().into_iter().find(|&p| platform_name(p) == name)
}

/// clift's root CPU device.
pub fn device() -> cl_device_id {
    let mut d = ptr::null_mut();
    // SAFETY: room for one handle.
    check(unsafe { clGetDeviceIDs(platform(), CL_DEVICE_TYPE_ALL, 1, &mut d, ptr::null_mut()) });
    d
}

/// Runs an info query with the two-call protocol and returns the bytes.
pub fn info_bytes(f: impl Fn(usize, *mut c_void, *mut usize) -> cl_int) -> Result<Vec<u8>, cl_int> {
    let mut size = 0usize;
    let rc = f(0, ptr::null_mut(), &mut size);
    if rc != CL_SUCCESS {
        return Err(rc);
    }
    let mut buf = vec![0u8; size];
    let rc = f(size, buf.as_mut_ptr() as *mut c_void, ptr::null_mut());
    if rc != CL_SUCCESS {
        return Err(rc);
    }
    Ok(buf)
}

/// An info query answered with a string (panics on error).
pub fn info_string(f: impl Fn(usize, *mut c_void, *mut usize) -> cl_int) -> String {
    let b = info_bytes(f).unwrap_or_else(|e| panic!("info query failed: {}", error_name(e)));
    assert_eq!(b.last(), Some(&0), "info string is NUL-terminated");
    String::from_utf8_lossy(&b[..b.len() - 1]).into_owned()
}

/// An info query answered with a plain value of type `T` (panics on error or
/// on a size other than `size_of::<T>()`).
pub fn info_value<T: Copy>(f: impl Fn(usize, *mut c_void, *mut usize) -> cl_int) -> T {
    let b = info_bytes(f).unwrap_or_else(|e| panic!("info query failed: {}", error_name(e)));
    assert_eq!(b.len(), std::mem::size_of::<T>(), "info value size");
    // SAFETY: `b` holds exactly size_of::<T>() bytes; T is plain data.
    unsafe { (b.as_ptr() as *const T).read_unaligned() }
}

/// `clGetDeviceInfo` as a string.
pub fn device_string(d: cl_device_id, param: cl_device_info) -> String {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_string(|s, v, r| unsafe { clGetDeviceInfo(d, param, s, v, r) })
}

/// `clGetDeviceInfo` as a value of type `T`.
pub fn device_value<T: Copy>(d: cl_device_id, param: cl_device_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_value(|s, v, r| unsafe { clGetDeviceInfo(d, param, s, v, r) })
}

/// A context on clift's root device.
pub fn context() -> cl_context {
    let d = device();
    let mut err = 0;
    // SAFETY: one valid device handle; no callback.
    let ctx = unsafe { clCreateContext(ptr::null(), 1, &d, None, ptr::null_mut(), &mut err) };
    check(err);
    ctx
}

/// A command queue on clift's root device with `props` (a bitfield).
pub fn queue(ctx: cl_context, props: cl_command_queue_properties) -> cl_command_queue {
    let list = [CL_QUEUE_PROPERTIES as cl_queue_properties, props, 0];
    let mut err = 0;
    // SAFETY: valid handles and a zero-terminated property list.
    let q = unsafe { clCreateCommandQueueWithProperties(ctx, device(), list.as_ptr(), &mut err) };
    check(err);
    q
}

/// A buffer of `size` bytes with `flags` and no host pointer.
pub fn buffer(ctx: cl_context, flags: cl_mem_flags, size: usize) -> cl_mem {
    let mut err = 0;
    // SAFETY: valid context; no host pointer.
    let m = unsafe { clCreateBuffer(ctx, flags, size, ptr::null_mut(), &mut err) };
    check(err);
    m
}

/// The (count, pointer) pair of an event wait list argument: NULL for an
/// empty list.
pub fn wait_args(wait: &[cl_event]) -> (cl_uint, *const cl_event) {
    if wait.is_empty() {
        (0, ptr::null())
    } else {
        (wait.len() as cl_uint, wait.as_ptr())
    }
}

/// clCreateSubBuffer of the region `origin`, `size` of `parent`, or the
/// error code (the handle is NULL then).
pub fn sub_buffer(parent: cl_mem, flags: cl_mem_flags, origin: usize, size: usize) -> Result<cl_mem, cl_int> {
    let region = cl_buffer_region { origin, size };
    let mut err = 1;
    // SAFETY: `region` is a valid cl_buffer_region for the call.
    let m = unsafe {
        clCreateSubBuffer(
            parent,
            flags,
            CL_BUFFER_CREATE_TYPE_REGION,
            (&region as *const cl_buffer_region).cast(),
            &mut err,
        )
    };
    if err == CL_SUCCESS {
        Ok(m)
    } else {
        assert!(m.is_null());
        Err(err)
    }
}

/// `clGetMemObjectInfo` as a value of type `T`.
#[allow(clippy::not_unsafe_ptr_arg_deref)] // handles are checked by clift, never dereferenced here
pub fn mem_value<T: Copy>(m: cl_mem, param: cl_mem_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetMemObjectInfo(m, param, s, v, r) })
}

/// Releases a memory object (panics on error).
#[allow(clippy::not_unsafe_ptr_arg_deref)] // handles are checked by clift, never dereferenced here
pub fn release_mem(m: cl_mem) {
    // SAFETY: the caller passes a handle it owns.
    check(unsafe { clReleaseMemObject(m) });
}

/// Writes `data` into `m` at `offset` and waits for it.
#[allow(clippy::not_unsafe_ptr_arg_deref)] // handles are checked by clift, never dereferenced here
pub fn write_bytes(q: cl_command_queue, m: cl_mem, offset: usize, data: &[u8]) {
    // SAFETY: `data` is readable for its length during the blocking call.
    check(unsafe {
        clEnqueueWriteBuffer(
            q,
            m,
            CL_TRUE,
            offset,
            data.len(),
            data.as_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    });
}

/// Reads `len` bytes of `m` from `offset` and waits for them.
#[allow(clippy::not_unsafe_ptr_arg_deref)] // handles are checked by clift, never dereferenced here
pub fn read_bytes(q: cl_command_queue, m: cl_mem, offset: usize, len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    // SAFETY: `out` is writable for `len` bytes during the blocking call.
    check(unsafe {
        clEnqueueReadBuffer(
            q,
            m,
            CL_TRUE,
            offset,
            len,
            out.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    });
    out
}

/// `clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)`.
#[allow(clippy::not_unsafe_ptr_arg_deref)] // handles are checked by clift, never dereferenced here
pub fn event_status(e: cl_event) -> cl_int {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, s, v, r) })
}

/// A new user event of `ctx`.
#[allow(clippy::not_unsafe_ptr_arg_deref)] // handles are checked by clift, never dereferenced here
pub fn new_user_event(ctx: cl_context) -> cl_event {
    let mut err = 0;
    // SAFETY: valid context and out-pointer.
    let e = unsafe { clCreateUserEvent(ctx, &mut err) };
    check(err);
    e
}

/// A byte pattern that differs at every position of a buffer (modulo 251).
pub fn pattern_bytes(len: usize, seed: u8) -> Vec<u8> {
    (0..len).map(|i| ((i % 251) as u8).wrapping_add(seed)).collect()
}

/// An in-order command queue on clift's root device, created with a NULL
/// property list.
#[allow(clippy::not_unsafe_ptr_arg_deref)] // handles are checked by clift, never dereferenced here
pub fn default_queue(ctx: cl_context) -> cl_command_queue {
    let mut err = 0;
    // SAFETY: valid handles; NULL properties.
    let q = unsafe { clCreateCommandQueueWithProperties(ctx, device(), ptr::null(), &mut err) };
    check(err);
    q
}

/// A forged handle: readable memory whose first word is clift's dispatch
/// table, so the loader passes it on to clift, which must reject it. (A wild
/// pointer cannot be tested through ocl-icd: the loader itself reads the
/// first word behind every handle before calling the vendor.) One per process.
pub fn forged_handle() -> *mut c_void {
    static FORGED: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let cell = *FORGED.get_or_init(|| {
        let ctx = context();
        // SAFETY: a clift handle is readable and starts with the dispatch pointer.
        let dispatch = unsafe { *(ctx as *const usize) };
        // SAFETY: valid context, released once.
        check(unsafe { clReleaseContext(ctx) });
        Box::leak(Box::new([dispatch, 0x4141, 0x4242, 0x4343])).as_mut_ptr() as usize
    });
    cell as *mut c_void
}

/// The project's shared folder (`shared/`, beside the checkout), which holds
/// the clbench workloads.
pub fn shared_dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

/// The bytes of `conformance/spirv/<name>.spv` (a module checked in beside
/// its `.spvasm`), or, for `clbench/O2/vadd` and the like, of the clbench
/// workload in `shared/clbench/spv/O2/vadd.spv`.
pub fn spirv(name: &str) -> Vec<u8> {
    let path = match name.strip_prefix("clbench/") {
        Some(rest) => shared_dir().join("clbench/spv").join(format!("{rest}.spv")),
        None => std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("spirv")
            .join(format!("{name}.spv")),
    };
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `bytes` with every 32-bit word byte-swapped: the same SPIR-V module in
/// the other byte order.
pub fn swap_words(bytes: &[u8]) -> Vec<u8> {
    bytes.chunks_exact(4).flat_map(|w| [w[3], w[2], w[1], w[0]]).collect()
}

/// A program from the SPIR-V `il` in `ctx` (panics on error).
pub fn il_program(ctx: cl_context, il: &[u8]) -> cl_program {
    let mut err = 0;
    // SAFETY: `il` is readable for its length during the call.
    let p = unsafe { clCreateProgramWithIL(ctx, il.as_ptr().cast(), il.len(), &mut err) };
    check(err);
    p
}

/// clBuildProgram for every device of `p` with `options`, no callback:
/// the returned code.
pub fn build(p: cl_program, options: &str) -> cl_int {
    let opts = std::ffi::CString::new(options).expect("options without NUL");
    // SAFETY: valid NUL-terminated options; no device list, no callback.
    unsafe { clBuildProgram(p, 0, ptr::null(), opts.as_ptr(), None, ptr::null_mut()) }
}

/// A built program from `conformance/spirv/<name>.spv` (panics, with the
/// build log, if the build fails).
pub fn built_program(ctx: cl_context, name: &str, options: &str) -> cl_program {
    let p = il_program(ctx, &spirv(name));
    let rc = build(p, options);
    assert_eq!(
        rc,
        CL_SUCCESS,
        "building {name} failed with {}; log:\n{}",
        error_name(rc),
        build_log(p, device())
    );
    p
}

/// `clGetProgramInfo` as raw bytes (or the error).
pub fn program_bytes(p: cl_program, param: cl_program_info) -> Result<Vec<u8>, cl_int> {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_bytes(|s, v, r| unsafe { clGetProgramInfo(p, param, s, v, r) })
}

/// `clGetProgramInfo` as a value of type `T`.
pub fn program_value<T: Copy>(p: cl_program, param: cl_program_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetProgramInfo(p, param, s, v, r) })
}

/// `clGetProgramInfo` as a string.
pub fn program_string(p: cl_program, param: cl_program_info) -> String {
    // SAFETY: forwards the buffer protocol of `info_string`.
    info_string(|s, v, r| unsafe { clGetProgramInfo(p, param, s, v, r) })
}

/// `clGetProgramBuildInfo` as a value of type `T`.
pub fn build_value<T: Copy>(p: cl_program, d: cl_device_id, param: cl_program_build_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetProgramBuildInfo(p, d, param, s, v, r) })
}

/// `clGetProgramBuildInfo(CL_PROGRAM_BUILD_LOG)`.
pub fn build_log(p: cl_program, d: cl_device_id) -> String {
    // SAFETY: forwards the buffer protocol of `info_string`.
    info_string(|s, v, r| unsafe { clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, s, v, r) })
}

/// What clift's build log says when a module's 4-lane bodies failed to
/// compile and its kernels were compiled without them.
pub const WITHOUT_FOUR_LANES: &str = "run without 4-lane bodies";

/// Panics, naming `what`, if the build log of built program `p` says its
/// kernels run without 4-lane bodies because those failed to compile (a
/// code generator gap, never expected of the test corpus).
pub fn assert_four_lane_code_compiled(p: cl_program, what: &str) {
    let log = build_log(p, device());
    assert!(
        !log.contains(WITHOUT_FOUR_LANES),
        "{what}: the module compiled only without 4-lane bodies:\n{log}"
    );
}

/// clCreateKernel (panics on error).
pub fn kernel(p: cl_program, name: &str) -> cl_kernel {
    let n = std::ffi::CString::new(name).expect("name without NUL");
    let mut err = 0;
    // SAFETY: valid NUL-terminated name and error slot.
    let k = unsafe { clCreateKernel(p, n.as_ptr(), &mut err) };
    check(err);
    k
}

/// `clGetKernelInfo` as a value of type `T`.
pub fn kernel_value<T: Copy>(k: cl_kernel, param: cl_kernel_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetKernelInfo(k, param, s, v, r) })
}

/// `clGetKernelInfo` as a string.
pub fn kernel_string(k: cl_kernel, param: cl_kernel_info) -> String {
    // SAFETY: forwards the buffer protocol of `info_string`.
    info_string(|s, v, r| unsafe { clGetKernelInfo(k, param, s, v, r) })
}

/// `clGetKernelWorkGroupInfo` for clift's device as raw bytes (or the error).
pub fn work_group_bytes(k: cl_kernel, param: cl_kernel_work_group_info) -> Result<Vec<u8>, cl_int> {
    let d = device();
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_bytes(|s, v, r| unsafe { clGetKernelWorkGroupInfo(k, d, param, s, v, r) })
}

/// `clGetKernelWorkGroupInfo` for clift's device as a value of type `T`.
pub fn work_group_value<T: Copy>(k: cl_kernel, param: cl_kernel_work_group_info) -> T {
    let d = device();
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetKernelWorkGroupInfo(k, d, param, s, v, r) })
}

/// clSetKernelArg with the bytes of `value`.
pub fn set_arg<T>(k: cl_kernel, index: cl_uint, value: &T) -> cl_int {
    // SAFETY: `value` is readable for size_of::<T>() bytes during the call.
    unsafe { clSetKernelArg(k, index, std::mem::size_of::<T>(), (value as *const T).cast()) }
}

/// The size of clift's sub-groups (every one but a work-group's last):
/// CL_DEVICE_MAX_WORK_GROUP_SIZE / CL_DEVICE_MAX_NUM_SUB_GROUPS.
pub fn sub_group_size() -> usize {
    let d = device();
    let max: usize = device_value(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    let count: cl_uint = device_value(d, CL_DEVICE_MAX_NUM_SUB_GROUPS);
    max / count as usize
}

/// clift's sub-groups of a work-group of `items` work-items, as (first
/// local linear id, size): consecutive runs of [`sub_group_size`], the last
/// holding the rest.
pub fn sub_groups_of(items: usize) -> Vec<(usize, usize)> {
    let s = sub_group_size();
    (0..items).step_by(s).map(|f| (f, s.min(items - f))).collect()
}

/// Every OpenCL C scalar type with its size in bytes: the integer types,
/// float and double, then half.
pub const SCALAR_TYPES: [(&str, u32); 11] = [
    ("char", 1),
    ("uchar", 1),
    ("short", 2),
    ("ushort", 2),
    ("int", 4),
    ("uint", 4),
    ("long", 8),
    ("ulong", 8),
    ("float", 4),
    ("double", 8),
    ("half", 2),
];

/// Aborts the test process if it is still alive after two minutes unless
/// the returned guard was dropped first: a kernel that never ends (a
/// sub-group waiting forever for another) fails the run instead of hanging
/// it.
pub fn watchdog(what: String) -> impl Drop {
    struct Guard(std::sync::Arc<std::sync::atomic::AtomicBool>);
    impl Drop for Guard {
        fn drop(&mut self) {
            self.0.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = done.clone();
    std::thread::spawn(move || {
        for _ in 0..1200 {
            std::thread::sleep(std::time::Duration::from_millis(100));
            if seen.load(std::sync::atomic::Ordering::SeqCst) {
                return;
            }
        }
        eprintln!("{what} did not finish within two minutes");
        std::process::abort();
    });
    Guard(done)
}
