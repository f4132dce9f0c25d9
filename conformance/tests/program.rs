//! Program objects (API spec 5.8) through the loader: SPIR-V programs of
//! every version and byte order, builds with and without callbacks and
//! options, build info, program info, clift binaries, specialization
//! constants, source and built-in-kernel programs, and every error code.

#![allow(deprecated)] // clUnloadCompiler and clSetProgramReleaseCallback are checked too

use std::ffi::{c_char, c_void, CString};
use std::ptr;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use clift_conformance::programs::{binary_type, build_status, compile};
use clift_conformance::*;

/// The clbench workloads and their kernels, as CL_PROGRAM_KERNEL_NAMES lists them.
const CLBENCH: [(&str, &str); 11] = [
    ("blackscholes", "blackscholes"),
    ("empty", "empty"),
    ("hash", "hash"),
    ("histogram", "hist_global;hist_local"),
    ("mandelbrot", "mandelbrot"),
    ("nbody", "nbody"),
    ("reduce", "reduce"),
    ("saxpy", "saxpy"),
    ("sgemm_naive", "sgemm_naive"),
    ("sgemm_tiled", "sgemm_tiled"),
    ("vadd", "vadd"),
];

fn create_il(ctx: cl_context, il: &[u8]) -> Result<cl_program, cl_int> {
    let mut err = 0;
    // SAFETY: `il` is readable for its length during the call.
    let p = unsafe { clCreateProgramWithIL(ctx, il.as_ptr().cast(), il.len(), &mut err) };
    if err == CL_SUCCESS {
        assert!(!p.is_null());
        Ok(p)
    } else {
        assert!(p.is_null());
        Err(err)
    }
}

fn release(p: cl_program) {
    // SAFETY: a program handle the test owns.
    check(unsafe { clReleaseProgram(p) });
}

fn build_string(p: cl_program, param: cl_program_build_info) -> String {
    let d = device();
    // SAFETY: forwards the buffer protocol of `info_string`.
    info_string(|s, v, r| unsafe { clGetProgramBuildInfo(p, d, param, s, v, r) })
}

fn program_err(p: cl_program, param: cl_program_info) -> cl_int {
    program_bytes(p, param).expect_err("the query fails")
}

/// A clift program binary, made by the documented layout (see
/// `runtime/src/program.rs`): a test of the format, independent of clift's
/// own writer.
fn clift_binary(binary_type: u32, options: &str, spec: &[(u32, &[u8])], spirv: &[u8]) -> Vec<u8> {
    let mut v = b"CLIFTBIN".to_vec();
    for w in [
        1,
        binary_type,
        options.len() as u32,
        spec.len() as u32,
        spirv.len() as u32,
        0,
    ] {
        v.extend_from_slice(&w.to_le_bytes());
    }
    v.extend_from_slice(options.as_bytes());
    while !v.len().is_multiple_of(4) {
        v.push(0);
    }
    for (id, value) in spec {
        v.extend_from_slice(&id.to_le_bytes());
        v.extend_from_slice(&(value.len() as u32).to_le_bytes());
        let mut slot = [0u8; 8];
        slot[..value.len()].copy_from_slice(value);
        v.extend_from_slice(&slot);
    }
    v.extend_from_slice(spirv);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in &v {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    v.extend_from_slice(&h.to_le_bytes());
    v
}

/// clCreateProgramWithBinary for clift's device: the program or the error,
/// and the binary status.
fn create_binary(ctx: cl_context, bin: &[u8]) -> (Result<cl_program, cl_int>, cl_int) {
    let d = device();
    let len = bin.len();
    let ptr_ = bin.as_ptr();
    let mut status = 1;
    let mut err = 0;
    // SAFETY: one device, one length, one binary pointer readable for `len`
    // bytes, one status slot.
    let p = unsafe {
        clCreateProgramWithBinary(
            ctx,
            1,
            &d,
            &len,
            &ptr_ as *const *const u8 as *mut _,
            &mut status,
            &mut err,
        )
    };
    if err == CL_SUCCESS {
        (Ok(p), status)
    } else {
        assert!(p.is_null());
        (Err(err), status)
    }
}

/// The binaries of `p` (one per device) through CL_PROGRAM_BINARY_SIZES and
/// CL_PROGRAM_BINARIES.
fn binaries(p: cl_program) -> Vec<Vec<u8>> {
    let sizes: Vec<usize> = program_bytes(p, CL_PROGRAM_BINARY_SIZES)
        .unwrap()
        .chunks_exact(8)
        .map(|c| usize::from_ne_bytes(c.try_into().unwrap()))
        .collect();
    let mut bufs: Vec<Vec<u8>> = sizes.iter().map(|&n| vec![0u8; n]).collect();
    let mut ptrs: Vec<*mut u8> = bufs.iter_mut().map(|b| b.as_mut_ptr()).collect();
    let mut ret = 0;
    // SAFETY: one pointer per device, each to a buffer of the size the
    // program reported.
    check(unsafe {
        clGetProgramInfo(
            p,
            CL_PROGRAM_BINARIES,
            ptrs.len() * std::mem::size_of::<*mut u8>(),
            ptrs.as_mut_ptr().cast(),
            &mut ret,
        )
    });
    assert_eq!(ret, ptrs.len() * std::mem::size_of::<*mut u8>());
    bufs
}

#[test]
fn il_of_every_supported_version_and_byte_order_is_accepted() {
    let ctx = context();
    let d = device();
    let mut modules = vec![
        spirv("minimal-1.0"),
        spirv("minimal-1.1"),
        spirv("minimal-1.2"),
        swap_words(&spirv("minimal-1.0")),
        swap_words(&spirv("minimal-1.2")),
        spirv("args"),
    ];
    for (name, _) in CLBENCH {
        modules.push(spirv(&format!("clbench/O0/{name}")));
        modules.push(spirv(&format!("clbench/O2/{name}")));
    }
    for il in &modules {
        let p = create_il(ctx, il).expect("a SPIR-V module clift takes");
        // "Returns the program IL for programs created with clCreateProgramWithIL."
        assert_eq!(&program_bytes(p, CL_PROGRAM_IL).unwrap(), il);
        assert_eq!(program_string(p, CL_PROGRAM_SOURCE), "");
        assert_eq!(program_value::<cl_uint>(p, CL_PROGRAM_REFERENCE_COUNT), 1);
        assert_eq!(program_value::<cl_context>(p, CL_PROGRAM_CONTEXT), ctx);
        assert_eq!(program_value::<cl_uint>(p, CL_PROGRAM_NUM_DEVICES), 1);
        assert_eq!(program_value::<cl_device_id>(p, CL_PROGRAM_DEVICES), d);
        // No binary before a build: "a size of zero is returned".
        assert_eq!(program_value::<usize>(p, CL_PROGRAM_BINARY_SIZES), 0);
        assert_eq!(build_status(p), CL_BUILD_NONE);
        assert_eq!(build_string(p, CL_PROGRAM_BUILD_OPTIONS), "");
        assert_eq!(build_string(p, CL_PROGRAM_BUILD_LOG), "");
        assert_eq!(binary_type(p), CL_PROGRAM_BINARY_TYPE_NONE);
        // CL_INVALID_PROGRAM_EXECUTABLE ... and a successful program
        // executable has not been built for at least one device.
        for param in [
            CL_PROGRAM_NUM_KERNELS,
            CL_PROGRAM_KERNEL_NAMES,
            CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
            CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT,
        ] {
            expect_err(program_err(p, param), CL_INVALID_PROGRAM_EXECUTABLE);
        }
        release(p);
    }
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn il_that_is_not_a_spirv_module_is_refused() {
    let ctx = context();
    let good = spirv("minimal-1.0");
    let with_word = |at: usize, w: u32| {
        let mut v = good.clone();
        v[at * 4..at * 4 + 4].copy_from_slice(&w.to_le_bytes());
        v
    };
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        ("wrong magic", with_word(0, 0x0723_0204)),
        ("truncated header", good[..16].to_vec()),
        // The module ends with OpLabel (2 words), OpReturn, OpFunctionEnd:
        // 12 bytes fewer cut OpLabel in half.
        ("truncated instruction", good[..good.len() - 12].to_vec()),
        ("length not a multiple of 4", good[..good.len() - 1].to_vec()),
        ("version 1.4", with_word(1, 0x0001_0400)),
        ("version 2.0", with_word(1, 0x0002_0000)),
        ("version 0.9", with_word(1, 0x0000_0900)),
        ("text", b"this is not SPIR-V at all".to_vec()),
    ];
    // A word count of 0 in the first instruction (word 5).
    let first = u32::from_le_bytes(good[20..24].try_into().unwrap());
    cases.push(("word count 0", with_word(5, first & 0xffff)));
    for (what, il) in &cases {
        // CL_INVALID_VALUE if the length-byte block of memory pointed to by
        // il does not contain well-formed intermediate language input.
        assert_eq!(create_il(ctx, il).err(), Some(CL_INVALID_VALUE), "{what}");
    }
    let mut err = 0;
    // SAFETY: NULL il / zero length are the errors under test; errcode_ret
    // may be NULL.
    unsafe {
        // CL_INVALID_VALUE if il is NULL or if length is zero.
        assert!(clCreateProgramWithIL(ctx, ptr::null(), 20, &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        assert!(clCreateProgramWithIL(ctx, good.as_ptr().cast(), 0, &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        assert!(clCreateProgramWithIL(ctx, good.as_ptr().cast(), 0, ptr::null_mut()).is_null());
        // CL_INVALID_CONTEXT if context is not a valid context.
        assert!(clCreateProgramWithIL(forged_handle(), good.as_ptr().cast(), good.len(), &mut err).is_null());
        expect_err(err, CL_INVALID_CONTEXT);
        check(clReleaseContext(ctx));
    }
}

type CreateWithIlKhr = unsafe extern "C" fn(cl_context, *const c_void, usize, *mut cl_int) -> cl_program;

#[test]
fn il_program_extension_is_offered_and_works() {
    let d = device();
    let ext = device_string(d, CL_DEVICE_EXTENSIONS);
    assert!(ext.split(' ').any(|e| e == "cl_khr_il_program"), "{ext}");
    assert!(device_string(d, CL_DEVICE_IL_VERSION_KHR).contains("SPIR-V_1.0"));
    let name = CString::new("clCreateProgramWithILKHR").unwrap();
    // SAFETY: a valid platform and a NUL-terminated name.
    let f = unsafe { clGetExtensionFunctionAddressForPlatform(platform(), name.as_ptr()) };
    assert!(!f.is_null(), "clCreateProgramWithILKHR is found");
    // SAFETY: cl_khr_il_program defines the function with this signature.
    let create: CreateWithIlKhr = unsafe { std::mem::transmute::<*mut c_void, CreateWithIlKhr>(f) };
    let ctx = context();
    let il = spirv("minimal-1.1");
    let mut err = 0;
    // SAFETY: `il` is readable for its length.
    let p = unsafe { create(ctx, il.as_ptr().cast(), il.len(), &mut err) };
    check(err);
    assert_eq!(program_bytes(p, CL_PROGRAM_IL_KHR).unwrap(), il);
    // A SPIR-V 2.0 header.
    let mut v2 = il.clone();
    v2[4..8].copy_from_slice(&0x0002_0000u32.to_le_bytes());
    // SAFETY: `v2` is readable for its length.
    let bad = unsafe { create(ctx, v2.as_ptr().cast(), v2.len(), &mut err) };
    assert!(bad.is_null());
    expect_err(err, CL_INVALID_VALUE);
    release(p);
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn every_clbench_module_builds_with_its_kernels() {
    let ctx = context();
    let d = device();
    for level in ["O0", "O2"] {
        for (name, kernels) in CLBENCH {
            let p = built_program(ctx, &format!("clbench/{level}/{name}"), "");
            assert_eq!(build_status(p), CL_BUILD_SUCCESS, "{level}/{name}");
            assert_eq!(program_string(p, CL_PROGRAM_KERNEL_NAMES), kernels, "{level}/{name}");
            assert_eq!(
                program_value::<usize>(p, CL_PROGRAM_NUM_KERNELS),
                kernels.split(';').count()
            );
            assert_eq!(binary_type(p), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
            assert!(program_value::<usize>(p, CL_PROGRAM_BINARY_SIZES) > 0);
            assert_eq!(
                build_value::<usize>(p, d, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE),
                0
            );
            // "Querying CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT may
            // unconditionally return CL_FALSE".
            assert_eq!(
                program_value::<cl_bool>(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT),
                CL_FALSE
            );
            assert_eq!(
                program_value::<cl_bool>(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT),
                CL_FALSE
            );
            release(p);
        }
    }
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn build_options_of_the_spec_are_accepted_and_recorded() {
    let ctx = context();
    for opts in [
        "",
        "-cl-opt-disable",
        "-cl-mad-enable -cl-no-signed-zeros",
        "-cl-fast-relaxed-math",
        "-cl-denorms-are-zero -cl-finite-math-only",
        "-cl-unsafe-math-optimizations -cl-single-precision-constant",
        "-cl-std=CL2.0 -cl-kernel-arg-info",
        "-w -Werror",
        "-D FOO -DBAR=1 -I /tmp -I/usr/include",
        "-cl-uniform-work-group-size",
    ] {
        let p = built_program(ctx, "args", opts);
        assert_eq!(build_string(p, CL_PROGRAM_BUILD_OPTIONS), opts);
        release(p);
    }
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn build_checks_its_arguments() {
    let ctx = context();
    let d = device();
    let p = il_program(ctx, &spirv("minimal-1.0"));
    // SAFETY: every call passes valid pointers except the argument under test.
    unsafe {
        // CL_INVALID_PROGRAM if program is not a valid program object.
        expect_err(
            clBuildProgram(forged_handle(), 0, ptr::null(), ptr::null(), None, ptr::null_mut()),
            CL_INVALID_PROGRAM,
        );
        expect_err(
            clBuildProgram(ctx, 0, ptr::null(), ptr::null(), None, ptr::null_mut()),
            CL_INVALID_PROGRAM,
        );
        // CL_INVALID_VALUE if device_list is NULL and num_devices is greater
        // than zero, or if device_list is not NULL and num_devices is zero.
        expect_err(
            clBuildProgram(p, 1, ptr::null(), ptr::null(), None, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clBuildProgram(p, 0, &d, ptr::null(), None, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
        let mut x = 0u8;
        expect_err(
            clBuildProgram(p, 0, ptr::null(), ptr::null(), None, (&mut x as *mut u8).cast()),
            CL_INVALID_VALUE,
        );
        // CL_INVALID_DEVICE if any device in device_list is not in the list
        // of devices associated with program.
        let fake = forged_handle();
        expect_err(
            clBuildProgram(p, 1, &fake, ptr::null(), None, ptr::null_mut()),
            CL_INVALID_DEVICE,
        );
    }
    // CL_INVALID_BUILD_OPTIONS if the build options specified by options are invalid.
    for bad in [
        "-cl-no-such-option",
        "-D",
        "-I",
        "-cl-std=CL7.0",
        "-cl-std=",
        "-D 9X",
        "-Ofast",
        "--help",
    ] {
        expect_err(build(p, bad), CL_INVALID_BUILD_OPTIONS);
        // The refused call is the last one: its status is an error and
        // the log names the option.
        assert_eq!(build_status(p), CL_BUILD_ERROR);
        let log = build_log(p, device());
        assert!(
            log.contains("invalid option") && log.contains(bad.split(' ').next().unwrap()),
            "{bad:?}: {log}"
        );
        assert_eq!(build_string(p, CL_PROGRAM_BUILD_OPTIONS), bad);
    }
    // A sub-device is not one of the program's devices.
    let props = [CL_DEVICE_PARTITION_EQUALLY, 1, 0];
    let mut sub = ptr::null_mut();
    // SAFETY: room for one sub-device.
    if unsafe { clCreateSubDevices(d, props.as_ptr(), 1, &mut sub, ptr::null_mut()) } == CL_SUCCESS {
        // SAFETY: valid handles; one device in the list.
        unsafe {
            expect_err(
                clBuildProgram(p, 1, &sub, ptr::null(), None, ptr::null_mut()),
                CL_INVALID_DEVICE,
            );
            let mut v = 0u32;
            expect_err(
                clGetProgramBuildInfo(
                    p,
                    sub,
                    CL_PROGRAM_BUILD_STATUS,
                    4,
                    (&mut v as *mut u32).cast(),
                    ptr::null_mut(),
                ),
                CL_INVALID_DEVICE,
            );
            check(clReleaseDevice(sub));
        }
    }
    release(p);
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn a_failed_build_reports_its_log_and_leaves_no_executable() {
    let ctx = context();
    let d = device();
    let p = il_program(ctx, &spirv("not_kernel"));
    // CL_BUILD_PROGRAM_FAILURE if there is a failure to build the program executable.
    expect_err(build(p, ""), CL_BUILD_PROGRAM_FAILURE);
    assert_eq!(build_status(p), CL_BUILD_ERROR);
    assert!(!build_log(p, d).trim().is_empty(), "the jit says why");
    assert_eq!(binary_type(p), CL_PROGRAM_BINARY_TYPE_NONE);
    assert_eq!(program_value::<usize>(p, CL_PROGRAM_BINARY_SIZES), 0);
    expect_err(program_err(p, CL_PROGRAM_NUM_KERNELS), CL_INVALID_PROGRAM_EXECUTABLE);
    let mut err = 0;
    // SAFETY: a NUL-terminated name and an error slot.
    let k = unsafe { clCreateKernel(p, c"main".as_ptr(), &mut err) };
    assert!(k.is_null());
    expect_err(err, CL_INVALID_PROGRAM_EXECUTABLE);
    release(p);
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

/// What a build callback saw.
struct Seen {
    calls: Mutex<Vec<(usize, cl_build_status)>>,
    cv: Condvar,
}

extern "C" fn on_built(program: cl_program, user_data: *mut c_void) {
    // SAFETY: the test passes a `Seen` that outlives the build.
    let seen = unsafe { &*(user_data as *const Seen) };
    // "Any state changes of the program object that result from calling
    // clBuildProgram (e.g. build status or log) will be observable from
    // this callback function."
    let status = build_status(program);
    seen.calls.lock().unwrap().push((program as usize, status));
    seen.cv.notify_all();
}

fn wait_for_callback(seen: &Seen) -> (usize, cl_build_status) {
    let calls = seen.calls.lock().unwrap();
    let (calls, _) = seen
        .cv
        .wait_timeout_while(calls, Duration::from_secs(60), |c| c.is_empty())
        .unwrap();
    assert_eq!(calls.len(), 1, "the callback runs once");
    calls[0]
}

#[test]
fn build_with_a_callback_reports_success_and_failure() {
    let ctx = context();
    for (module, expect) in [
        ("clbench/O2/sgemm_tiled", CL_BUILD_SUCCESS),
        ("not_kernel", CL_BUILD_ERROR),
    ] {
        let p = il_program(ctx, &spirv(module));
        let seen = Seen {
            calls: Mutex::new(Vec::new()),
            cv: Condvar::new(),
        };
        // SAFETY: `seen` outlives the build: the test waits for the callback.
        let rc = unsafe {
            clBuildProgram(
                p,
                0,
                ptr::null(),
                c"-cl-mad-enable".as_ptr(),
                Some(on_built),
                (&seen as *const Seen as *mut Seen).cast(),
            )
        };
        // With a callback the call returns once the build can begin.
        check(rc);
        let (handle, status) = wait_for_callback(&seen);
        assert_eq!(handle, p as usize, "the callback gets its program");
        assert_eq!(status, expect, "{module}");
        assert_eq!(build_status(p), expect);
        assert_eq!(build_string(p, CL_PROGRAM_BUILD_OPTIONS), "-cl-mad-enable");
        release(p);
    }
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn a_program_with_kernels_attached_cannot_be_rebuilt() {
    let ctx = context();
    let p = built_program(ctx, "clbench/O2/vadd", "");
    let k = kernel(p, "vadd");
    // CL_INVALID_OPERATION if there are kernel objects attached to program.
    expect_err(build(p, ""), CL_INVALID_OPERATION);
    // A clone is attached too.
    let mut err = 0;
    // SAFETY: a valid kernel and error slot.
    let clone = unsafe { clCloneKernel(k, &mut err) };
    check(err);
    // SAFETY: kernels the test owns.
    check(unsafe { clReleaseKernel(k) });
    expect_err(build(p, ""), CL_INVALID_OPERATION);
    // SAFETY: as above.
    check(unsafe { clReleaseKernel(clone) });
    check(build(p, "-cl-opt-disable"));
    assert_eq!(build_string(p, CL_PROGRAM_BUILD_OPTIONS), "-cl-opt-disable");
    release(p);
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn binaries_round_trip_through_create_with_binary() {
    let ctx = context();
    let p = built_program(ctx, "args", "-cl-mad-enable -D N=4");
    let bins = binaries(p);
    assert_eq!(bins.len(), 1);
    assert_eq!(&bins[0][..8], b"CLIFTBIN");
    let (q, status) = create_binary(ctx, &bins[0]);
    let q = q.expect("clift takes its own binary");
    assert_eq!(status, CL_SUCCESS);
    // A loaded executable still needs clBuildProgram.
    assert_eq!(build_status(q), CL_BUILD_NONE);
    assert_eq!(binary_type(q), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    assert_eq!(binaries(q), bins, "the loaded binary is returned as given");
    assert_eq!(program_bytes(q, CL_PROGRAM_IL).unwrap(), Vec::<u8>::new());
    assert_eq!(program_string(q, CL_PROGRAM_SOURCE), "");
    let mut err = 0;
    // SAFETY: a NUL-terminated name and error slot.
    assert!(unsafe { clCreateKernel(q, c"args".as_ptr(), &mut err) }.is_null());
    expect_err(err, CL_INVALID_PROGRAM_EXECUTABLE);
    // "If the program was created using clCreateProgramWithBinary and
    // options is a NULL pointer, the program will be built as if options
    // were the same as when the program binary was originally built."
    // SAFETY: NULL options and device list; no callback.
    check(unsafe { clBuildProgram(q, 0, ptr::null(), ptr::null(), None, ptr::null_mut()) });
    assert_eq!(build_string(q, CL_PROGRAM_BUILD_OPTIONS), "-cl-mad-enable -D N=4");
    assert_eq!(
        program_string(q, CL_PROGRAM_KERNEL_NAMES),
        program_string(p, CL_PROGRAM_KERNEL_NAMES)
    );
    assert_eq!(binaries(q), bins);
    // A NULL entry in the pointer array skips that device.
    let mut ptrs = [ptr::null_mut::<u8>()];
    // SAFETY: one pointer slot, NULL.
    check(unsafe { clGetProgramInfo(q, CL_PROGRAM_BINARIES, 8, ptrs.as_mut_ptr().cast(), ptr::null_mut()) });
    // CL_INVALID_VALUE if the size in bytes specified by param_value_size is
    // less than size of the return type.
    // SAFETY: as above, with a size that is too small.
    expect_err(
        unsafe { clGetProgramInfo(q, CL_PROGRAM_BINARIES, 4, ptrs.as_mut_ptr().cast(), ptr::null_mut()) },
        CL_INVALID_VALUE,
    );
    release(q);
    release(p);
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn binaries_are_loaded_by_type_and_rebuilt_with_their_options() {
    let ctx = context();
    let il = spirv("minimal-1.0");
    // A binary of each type loads and builds: "the program binary must be
    // an executable binary" binds the application; clift links a compiled
    // object or library on its own into an executable (its imports must
    // resolve within it), as other implementations do.
    for (typ, build_rc) in [
        (CL_PROGRAM_BINARY_TYPE_EXECUTABLE, CL_SUCCESS),
        (CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, CL_SUCCESS),
        (CL_PROGRAM_BINARY_TYPE_LIBRARY, CL_SUCCESS),
    ] {
        let bin = clift_binary(typ, "-cl-fast-relaxed-math", &[], &il);
        let (p, status) = create_binary(ctx, &bin);
        let p = p.expect("a well-formed binary");
        assert_eq!(status, CL_SUCCESS);
        assert_eq!(binary_type(p), typ);
        assert_eq!(program_value::<cl_uint>(p, CL_PROGRAM_NUM_DEVICES), 1);
        assert_eq!(program_value::<usize>(p, CL_PROGRAM_BINARY_SIZES), bin.len());
        // CL_INVALID_BINARY if program is created with
        // clCreateProgramWithBinary and devices listed in device_list do not
        // have a valid program binary loaded ("the program binary must be an
        // executable binary").
        // SAFETY: NULL options and device list; no callback.
        let rc = unsafe { clBuildProgram(p, 0, ptr::null(), ptr::null(), None, ptr::null_mut()) };
        expect_err(rc, build_rc);
        if rc == CL_SUCCESS {
            assert_eq!(build_string(p, CL_PROGRAM_BUILD_OPTIONS), "-cl-fast-relaxed-math");
            assert_eq!(program_string(p, CL_PROGRAM_KERNEL_NAMES), "minimal");
        }
        // clCompileProgram: "CL_INVALID_OPERATION if program has no source or
        // IL available".
        // NULL options; no lists; no callback.
        expect_err(compile(p, None, &[]), CL_INVALID_OPERATION);
        release(p);
    }
    // Explicit options replace the binary's.
    let bin = clift_binary(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "-cl-fast-relaxed-math", &[], &il);
    let p = create_binary(ctx, &bin).0.unwrap();
    check(build(p, "-cl-opt-disable"));
    assert_eq!(build_string(p, CL_PROGRAM_BUILD_OPTIONS), "-cl-opt-disable");
    // The binary's options are checked like any other.
    let bad = create_binary(
        ctx,
        &clift_binary(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "-bogus", &[], &il),
    )
    .0
    .unwrap();
    // SAFETY: NULL options and device list; no callback.
    expect_err(
        unsafe { clBuildProgram(bad, 0, ptr::null(), ptr::null(), None, ptr::null_mut()) },
        CL_INVALID_BUILD_OPTIONS,
    );
    release(bad);
    release(p);
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn corrupt_binaries_are_refused_with_their_status() {
    let ctx = context();
    let d = device();
    let good = clift_binary(
        CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
        "-w",
        &[(3, &[1, 2, 3, 4])],
        &spirv("minimal-1.0"),
    );
    assert!(create_binary(ctx, &good).0.is_ok());
    let mut cases: Vec<Vec<u8>> = vec![
        good[..good.len() - 1].to_vec(),
        good[..40].to_vec(),
        good[..8].to_vec(),
        b"CLIFTBIN".to_vec(),
        b"\x7fELF and the rest of some other binary".to_vec(),
        [good.clone(), vec![0; 8]].concat(),
        spirv("minimal-1.0"),
        clift_binary(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "", &[], b"not SPIR-V at all..."),
        clift_binary(CL_PROGRAM_BINARY_TYPE_NONE, "", &[], &spirv("minimal-1.0")),
        clift_binary(
            CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
            "",
            &[(1, &[1, 2, 3])],
            &spirv("minimal-1.0"),
        ),
    ];
    for i in [0, 8, 12, 16, 20, 24, 28, 33, 50, good.len() - 20, good.len() - 3] {
        let mut v = good.clone();
        v[i] ^= 0x5a;
        cases.push(v);
    }
    for (i, bin) in cases.iter().enumerate() {
        let (p, status) = create_binary(ctx, bin);
        // CL_INVALID_BINARY if an invalid program binary was encountered for
        // any device. binary_status will return specific status for each device.
        assert_eq!(p, Err(CL_INVALID_BINARY), "case {i}");
        assert_eq!(status, CL_INVALID_BINARY, "case {i}");
    }
    let len = good.len();
    let bin_ptr = good.as_ptr();
    let zero = 0usize;
    let null_bin: *const u8 = ptr::null();
    let mut status = 1;
    let mut err = 0;
    // SAFETY: every pointer is valid except the argument under test.
    unsafe {
        let bins = &bin_ptr as *const *const u8 as *mut *const u8;
        // CL_INVALID_VALUE if ... any entry in lengths[i] is zero or binaries[i] is NULL.
        assert!(clCreateProgramWithBinary(ctx, 1, &d, &zero, bins, &mut status, &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        expect_err(status, CL_INVALID_VALUE);
        let nulls = &null_bin as *const *const u8 as *mut *const u8;
        assert!(clCreateProgramWithBinary(ctx, 1, &d, &len, nulls, &mut status, &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        expect_err(status, CL_INVALID_VALUE);
        // CL_INVALID_VALUE if lengths or binaries is NULL
        assert!(clCreateProgramWithBinary(ctx, 1, &d, ptr::null(), bins, ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        assert!(clCreateProgramWithBinary(ctx, 1, &d, &len, ptr::null_mut(), ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        // CL_INVALID_VALUE if device_list is NULL or num_devices is zero.
        assert!(clCreateProgramWithBinary(ctx, 0, &d, &len, bins, ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        assert!(clCreateProgramWithBinary(ctx, 1, ptr::null(), &len, bins, ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        // CL_INVALID_DEVICE if any device in device_list is not in the list
        // of devices associated with context.
        let fake = forged_handle();
        assert!(clCreateProgramWithBinary(ctx, 1, &fake, &len, bins, ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_DEVICE);
        // CL_INVALID_CONTEXT if context is not a valid context.
        assert!(clCreateProgramWithBinary(forged_handle(), 1, &d, &len, bins, ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_CONTEXT);
        check(clReleaseContext(ctx));
    }
}

#[test]
fn specialization_constants_of_every_scalar_type() {
    let ctx = context();
    let p = il_program(ctx, &spirv("spec"));
    let set = |id: u32, bytes: &[u8]| -> cl_int {
        // SAFETY: `bytes` is readable for its length.
        unsafe { clSetProgramSpecializationConstant(p, id, bytes.len(), bytes.as_ptr().cast()) }
    };
    // "This should be 1 for boolean constants. For all other constant types
    // this should match the size of the specialization constant in the module."
    check(set(0, &[0]));
    check(set(1, &[9]));
    check(set(2, &500u16.to_ne_bytes()));
    check(set(3, &123_456u32.to_ne_bytes()));
    check(set(4, &(1u64 << 40).to_ne_bytes()));
    check(set(5, &2.5f32.to_ne_bytes()));
    // "the last provided value to override any previously specified value."
    check(set(3, &7u32.to_ne_bytes()));
    // CL_INVALID_VALUE if spec_size does not match the size of the
    // specialization constant in the module
    for (id, size) in [(0u32, 4usize), (1, 2), (2, 4), (3, 8), (3, 2), (4, 4), (5, 8), (3, 0)] {
        expect_err(set(id, &vec![0; size]), CL_INVALID_VALUE);
    }
    // ... or if spec_value is NULL.
    // SAFETY: a NULL value is the error under test.
    expect_err(
        unsafe { clSetProgramSpecializationConstant(p, 3, 4, ptr::null()) },
        CL_INVALID_VALUE,
    );
    // CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant identifier.
    for id in [6u32, 11, 100, u32::MAX] {
        expect_err(set(id, &[0; 4]), CL_INVALID_SPEC_ID);
    }
    // CL_INVALID_PROGRAM if program is not a valid program object
    // SAFETY: a forged handle is the error under test.
    expect_err(
        unsafe { clSetProgramSpecializationConstant(forged_handle(), 3, 4, [0u8; 4].as_ptr().cast()) },
        CL_INVALID_PROGRAM,
    );
    // The values are used by the next build.
    check(build(p, ""));
    // And recorded in its binary: a program rebuilt from it keeps them.
    let bins = binaries(p);
    let q = create_binary(ctx, &bins[0]).0.unwrap();
    check(build(q, ""));
    release(q);
    release(p);

    // double: 8 bytes.
    let wide = il_program(ctx, &spirv("spec_wide"));
    // SAFETY: the values are readable for the sizes passed.
    unsafe {
        check(clSetProgramSpecializationConstant(
            wide,
            11,
            8,
            1.0f64.to_ne_bytes().as_ptr().cast(),
        ));
        expect_err(
            clSetProgramSpecializationConstant(wide, 11, 4, 1.0f32.to_ne_bytes().as_ptr().cast()),
            CL_INVALID_VALUE,
        );
    }
    release(wide);
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn specialization_constants_need_an_il_program() {
    let ctx = context();
    let src = c"kernel void k(void) {}";
    let strings = [src.as_ptr()];
    let mut err = 0;
    // SAFETY: one NUL-terminated string.
    let p = unsafe { clCreateProgramWithSource(ctx, 1, strings.as_ptr() as *mut *const c_char, ptr::null(), &mut err) };
    check(err);
    let b = create_binary(
        ctx,
        &clift_binary(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, "", &[], &spirv("spec")),
    )
    .0
    .unwrap();
    for q in [p, b] {
        // CL_INVALID_PROGRAM if program is not a valid program object created
        // from an intermediate language (e.g. SPIR-V).
        // SAFETY: the value is readable for 4 bytes.
        expect_err(
            unsafe { clSetProgramSpecializationConstant(q, 3, 4, 1u32.to_ne_bytes().as_ptr().cast()) },
            CL_INVALID_PROGRAM,
        );
        release(q);
    }
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn source_programs_are_kept_but_need_an_opencl_c_compiler() {
    let ctx = context();
    let d = device();
    let parts = [
        c"kernel void ".as_ptr(),
        c"k(void) {} // tail".as_ptr(),
        c"/* x */".as_ptr(),
    ];
    // Lengths: the first whole (0 means NUL-terminated), the second cut at 10, the third whole.
    let lengths = [0usize, 10, 0];
    let mut err = 0;
    // SAFETY: three strings, each readable for its length or NUL-terminated.
    let p =
        unsafe { clCreateProgramWithSource(ctx, 3, parts.as_ptr() as *mut *const c_char, lengths.as_ptr(), &mut err) };
    check(err);
    assert_eq!(program_string(p, CL_PROGRAM_SOURCE), "kernel void k(void) {}/* x */");
    // "the memory pointed to by param_value will be unchanged and
    // param_value_size_ret will be set to 0."
    let mut buf = [0xaau8; 4];
    let mut ret = 99usize;
    // SAFETY: a 4-byte buffer and a size slot.
    check(unsafe { clGetProgramInfo(p, CL_PROGRAM_IL, 4, buf.as_mut_ptr().cast(), &mut ret) });
    assert_eq!((buf, ret), ([0xaa; 4], 0));
    assert_eq!(program_value::<cl_uint>(p, CL_PROGRAM_NUM_DEVICES), 1);
    assert_eq!(build_status(p), CL_BUILD_NONE);
    // OpenCL C compiles with the system's clang (program_source.rs tests it
    // in depth; the missing-compiler path too).
    check(build(p, ""));
    assert_eq!(build_status(p), CL_BUILD_SUCCESS);
    // Bad options are reported first.
    expect_err(build(p, "-cl-bogus"), CL_INVALID_BUILD_OPTIONS);
    // SAFETY: valid program; no lists; no callback.
    unsafe {
        expect_err(
            clCompileProgram(
                p,
                0,
                ptr::null(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
                None,
                ptr::null_mut(),
            ),
            CL_SUCCESS,
        );
        // CL_INVALID_COMPILER_OPTIONS if the compiler options specified by
        // options are invalid.
        expect_err(
            clCompileProgram(
                p,
                0,
                ptr::null(),
                c"-nope".as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
                None,
                ptr::null_mut(),
            ),
            CL_INVALID_COMPILER_OPTIONS,
        );
        // CL_INVALID_VALUE if num_input_headers is zero and
        // header_include_names or input_headers are not NULL or if
        // num_input_headers is not zero and header_include_names or
        // input_headers are NULL.
        let headers = [p];
        let names = [c"h.h".as_ptr()];
        expect_err(
            clCompileProgram(
                p,
                0,
                ptr::null(),
                ptr::null(),
                0,
                headers.as_ptr(),
                ptr::null_mut(),
                None,
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clCompileProgram(
                p,
                0,
                ptr::null(),
                ptr::null(),
                1,
                headers.as_ptr(),
                ptr::null_mut(),
                None,
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clCompileProgram(
                p,
                0,
                ptr::null(),
                ptr::null(),
                1,
                ptr::null(),
                names.as_ptr() as *mut *const c_char,
                None,
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clCompileProgram(
                p,
                1,
                ptr::null(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
                None,
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        let mut x = 0u8;
        expect_err(
            clCompileProgram(
                p,
                0,
                ptr::null(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
                None,
                (&mut x as *mut u8).cast(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clCompileProgram(
                forged_handle(),
                0,
                ptr::null(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
                None,
                ptr::null_mut(),
            ),
            CL_INVALID_PROGRAM,
        );

        // clLinkProgram
        let inputs = [p];
        let link = |ctx: cl_context, n: cl_uint, list: *const cl_program, opts: *const c_char| {
            let mut e = 0;
            let out = clLinkProgram(ctx, 0, ptr::null(), opts, n, list, None, ptr::null_mut(), &mut e);
            assert_eq!(out.is_null(), e != CL_SUCCESS);
            if !out.is_null() {
                check(clReleaseProgram(out));
            }
            e
        };
        // The compiled object links (program_link.rs tests linking in depth).
        expect_err(link(ctx, 1, inputs.as_ptr(), ptr::null()), CL_SUCCESS);
        expect_err(link(ctx, 0, inputs.as_ptr(), ptr::null()), CL_INVALID_VALUE);
        expect_err(link(ctx, 1, ptr::null(), ptr::null()), CL_INVALID_VALUE);
        expect_err(link(ctx, 0, ptr::null(), ptr::null()), CL_INVALID_VALUE);
        let bad = [forged_handle()];
        expect_err(link(ctx, 1, bad.as_ptr(), ptr::null()), CL_INVALID_PROGRAM);
        expect_err(
            link(ctx, 1, inputs.as_ptr(), c"-create-library -bogus".as_ptr()),
            CL_INVALID_LINKER_OPTIONS,
        );
        expect_err(link(ctx, 1, inputs.as_ptr(), c"-create-library".as_ptr()), CL_SUCCESS);
        // "This option must be specified with the create-library option."
        expect_err(
            link(ctx, 1, inputs.as_ptr(), c"-enable-link-options".as_ptr()),
            CL_INVALID_LINKER_OPTIONS,
        );
        expect_err(
            link(forged_handle(), 1, inputs.as_ptr(), ptr::null()),
            CL_INVALID_CONTEXT,
        );
        let other = context();
        expect_err(link(other, 1, inputs.as_ptr(), ptr::null()), CL_INVALID_CONTEXT);
        check(clReleaseContext(other));
    }
    release(p);

    // CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL.
    let with_null = [c"a".as_ptr(), ptr::null()];
    // SAFETY: the arrays are readable for the counts passed.
    unsafe {
        assert!(clCreateProgramWithSource(ctx, 0, parts.as_ptr() as *mut _, ptr::null(), &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        assert!(clCreateProgramWithSource(ctx, 1, ptr::null_mut(), ptr::null(), &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        assert!(clCreateProgramWithSource(ctx, 2, with_null.as_ptr() as *mut _, ptr::null(), &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        // CL_INVALID_CONTEXT if context is not a valid context.
        assert!(
            clCreateProgramWithSource(forged_handle(), 1, parts.as_ptr() as *mut _, ptr::null(), &mut err).is_null()
        );
        expect_err(err, CL_INVALID_CONTEXT);
    }
    let _ = d;
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn there_are_no_built_in_kernels() {
    let ctx = context();
    let d = device();
    let mut err = 0;
    // SAFETY: every pointer is valid except the argument under test.
    unsafe {
        // CL_INVALID_VALUE if kernel_names ... contains a kernel name that is
        // not supported by any of the devices in device_list.
        assert!(clCreateProgramWithBuiltInKernels(ctx, 1, &d, c"anything".as_ptr(), &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        // CL_INVALID_VALUE if kernel_names is NULL.
        assert!(clCreateProgramWithBuiltInKernels(ctx, 1, &d, ptr::null(), &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        // CL_INVALID_VALUE if device_list is NULL or num_devices is zero.
        assert!(clCreateProgramWithBuiltInKernels(ctx, 0, &d, c"a".as_ptr(), &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        assert!(clCreateProgramWithBuiltInKernels(ctx, 1, ptr::null(), c"a".as_ptr(), &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        // CL_INVALID_DEVICE if any device in device_list is not in the list
        // of devices associated with context.
        let fake = forged_handle();
        assert!(clCreateProgramWithBuiltInKernels(ctx, 1, &fake, c"a".as_ptr(), &mut err).is_null());
        expect_err(err, CL_INVALID_DEVICE);
        // CL_INVALID_CONTEXT if context is not a valid context.
        assert!(clCreateProgramWithBuiltInKernels(forged_handle(), 1, &d, c"a".as_ptr(), &mut err).is_null());
        expect_err(err, CL_INVALID_CONTEXT);
        check(clReleaseContext(ctx));
    }
}

/// Release callbacks record their order here.
struct Order(Mutex<Vec<u32>>);

extern "C" fn first_cb(_: cl_program, user_data: *mut c_void) {
    // SAFETY: the test passes an `Order` that outlives the program.
    unsafe { &*(user_data as *const Order) }.0.lock().unwrap().push(1);
}

extern "C" fn second_cb(_: cl_program, user_data: *mut c_void) {
    // SAFETY: as above.
    unsafe { &*(user_data as *const Order) }.0.lock().unwrap().push(2);
}

#[test]
fn retain_release_and_release_callbacks() {
    let ctx = context();
    let p = il_program(ctx, &spirv("minimal-1.0"));
    let order = Order(Mutex::new(Vec::new()));
    let user = (&order as *const Order as *mut Order).cast();
    // SAFETY: valid handles; `order` outlives the program.
    unsafe {
        check(clRetainProgram(p));
        assert_eq!(program_value::<cl_uint>(p, CL_PROGRAM_REFERENCE_COUNT), 2);
        check(clSetProgramReleaseCallback(p, Some(first_cb), user));
        check(clSetProgramReleaseCallback(p, Some(second_cb), user));
        // CL_INVALID_VALUE if pfn_notify is NULL.
        expect_err(clSetProgramReleaseCallback(p, None, user), CL_INVALID_VALUE);
        // CL_INVALID_PROGRAM if program is not a valid program object.
        expect_err(
            clSetProgramReleaseCallback(forged_handle(), Some(first_cb), user),
            CL_INVALID_PROGRAM,
        );
        expect_err(clRetainProgram(forged_handle()), CL_INVALID_PROGRAM);
        expect_err(clReleaseProgram(forged_handle()), CL_INVALID_PROGRAM);
        expect_err(clRetainProgram(ctx), CL_INVALID_PROGRAM);
        check(clReleaseProgram(p));
        assert!(order.0.lock().unwrap().is_empty(), "one reference is left");
        assert_eq!(program_value::<cl_uint>(p, CL_PROGRAM_REFERENCE_COUNT), 1);
        check(clReleaseProgram(p));
        // "The registered callback functions are called in the reverse order
        // in which they were registered."
        assert_eq!(*order.0.lock().unwrap(), [2, 1]);
        // The handle is no longer valid.
        expect_err(clRetainProgram(p), CL_INVALID_PROGRAM);
        check(clReleaseContext(ctx));
    }
}

#[test]
fn unload_compiler_is_a_hint() {
    // SAFETY: plain calls with handles or NULL.
    unsafe {
        check(clUnloadPlatformCompiler(platform()));
        // CL_INVALID_PLATFORM if platform is not a valid platform.
        expect_err(clUnloadPlatformCompiler(forged_handle().cast()), CL_INVALID_PLATFORM);
        // "clUnloadCompiler will always return CL_SUCCESS."
        check(clUnloadCompiler());
    }
    // Builds work after an unload.
    let ctx = context();
    let p = built_program(ctx, "minimal-1.2", "");
    release(p);
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn info_queries_check_their_arguments() {
    let ctx = context();
    let d = device();
    let p = il_program(ctx, &spirv("minimal-1.0"));
    let mut v = [0u8; 64];
    let o: *mut c_void = v.as_mut_ptr().cast();
    // SAFETY: a 64-byte buffer; the handles or params under test are the only bad arguments.
    unsafe {
        // CL_INVALID_VALUE if param_name is not one of the supported values
        expect_err(clGetProgramInfo(p, 0xdead, 64, o, ptr::null_mut()), CL_INVALID_VALUE);
        expect_err(
            clGetProgramBuildInfo(p, d, 0xdead, 64, o, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        // ... or if the size in bytes specified by param_value_size is less
        // than size of the return type and param_value is not NULL.
        expect_err(
            clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, 2, o, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clGetProgramInfo(p, CL_PROGRAM_IL, 3, o, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_STATUS, 2, o, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        // CL_INVALID_PROGRAM if program is a not a valid program object.
        expect_err(
            clGetProgramInfo(forged_handle(), CL_PROGRAM_REFERENCE_COUNT, 64, o, ptr::null_mut()),
            CL_INVALID_PROGRAM,
        );
        expect_err(
            clGetProgramBuildInfo(ctx, d, CL_PROGRAM_BUILD_STATUS, 64, o, ptr::null_mut()),
            CL_INVALID_PROGRAM,
        );
        // CL_INVALID_DEVICE if device is not in the list of devices
        // associated with program.
        expect_err(
            clGetProgramBuildInfo(p, forged_handle(), CL_PROGRAM_BUILD_STATUS, 64, o, ptr::null_mut()),
            CL_INVALID_DEVICE,
        );
        expect_err(
            clGetProgramBuildInfo(p, ptr::null_mut(), CL_PROGRAM_BUILD_STATUS, 64, o, ptr::null_mut()),
            CL_INVALID_DEVICE,
        );
    }
    release(p);
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx) });
}

#[test]
fn programs_build_concurrently_from_many_threads() {
    let ctx = context() as usize;
    let threads: Vec<_> = (0..8)
        .map(|i| {
            std::thread::spawn(move || {
                let ctx = ctx as cl_context;
                let (name, _) = CLBENCH[i % CLBENCH.len()];
                for _ in 0..4 {
                    let p = built_program(ctx, &format!("clbench/O2/{name}"), "-cl-mad-enable");
                    assert_eq!(build_status(p), CL_BUILD_SUCCESS);
                    let names = program_string(p, CL_PROGRAM_KERNEL_NAMES);
                    for n in names.split(';') {
                        let k = kernel(p, n);
                        // SAFETY: a kernel the thread owns.
                        check(unsafe { clReleaseKernel(k) });
                    }
                    release(p);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("no thread failed");
    }
    // SAFETY: a context the test owns.
    check(unsafe { clReleaseContext(ctx as cl_context) });
}
