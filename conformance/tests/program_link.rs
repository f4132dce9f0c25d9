//! Separate compilation and linking through the loader:
//! clCompileProgram (with embedded headers) and clLinkProgram (objects,
//! libraries and IL into executables or libraries), link errors in the log,
//! binaries of every type through CL_PROGRAM_BINARIES and
//! clCreateProgramWithBinary, and the calls' error codes.

use std::ptr;

use clift_conformance::programs::*;
use clift_conformance::*;

/// A compiled object from `src` (panics with the log on failure).
fn object(ctx: cl_context, src: &str) -> cl_program {
    let p = source_program(ctx, src);
    let rc = compile(p, Some(""), &[]);
    assert_eq!(rc, CL_SUCCESS, "compile failed:\n{}", build_log(p, device()));
    assert_eq!(binary_type(p), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    p
}

fn linked(ctx: cl_context, inputs: &[cl_program], options: &str) -> cl_program {
    let (p, rc) = link(ctx, inputs, options);
    assert!(!p.is_null(), "link returned no program ({})", error_name(rc));
    assert_eq!(rc, CL_SUCCESS, "link failed:\n{}", build_log(p, device()));
    p
}

const MAIN: &str = "int add_one(int x); int twice(int x); int hundred(int x);\n\
                    kernel void calc(global int* o) { int i = get_global_id(0); \
                    o[i] = add_one(i) + twice(i) + hundred(i); }";
const ADD_ONE: &str = "int add_one(int x) { return x + 1; }";
const TWICE: &str = "int twice(int x) { return 2 * x; }";
const HUNDRED: &str = "int hundred(int x) { return 100 * x; }";

fn calc_expected(n: usize) -> Vec<i32> {
    (0..n as i32).map(|i| (i + 1) + 2 * i + 100 * i).collect()
}

#[test]
fn a_kernel_calls_functions_of_two_objects_and_a_library() {
    let ctx = context();
    let main = object(ctx, MAIN);
    let a = object(ctx, ADD_ONE);
    let b = object(ctx, TWICE);
    let h = object(ctx, HUNDRED);
    let lib = linked(ctx, &[h], "-create-library");
    assert_eq!(binary_type(lib), CL_PROGRAM_BINARY_TYPE_LIBRARY);
    // A library has no kernels to create.
    let mut n = 0usize;
    // SAFETY: a size slot only.
    let rc = unsafe {
        clGetProgramInfo(
            lib,
            CL_PROGRAM_NUM_KERNELS,
            8,
            (&mut n as *mut usize).cast(),
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_INVALID_PROGRAM_EXECUTABLE);

    let exe = linked(ctx, &[main, a, b, lib], "");
    assert_eq!(binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    assert_eq!(build_status(exe), CL_BUILD_SUCCESS);
    assert_eq!(program_string(exe, CL_PROGRAM_KERNEL_NAMES), "calc");
    // CL_INVALID_OPERATION if program was not created with
    // clCreateProgramWithSource, clCreateProgramWithIL or
    // clCreateProgramWithBinary; clCompileProgram: no source or IL.
    assert_eq!(build(exe, ""), CL_INVALID_OPERATION);
    assert_eq!(compile(lib, Some(""), &[]), CL_INVALID_OPERATION);
    assert_eq!(run_ints(ctx, exe, "calc", 16), calc_expected(16));
    // The input order does not matter; link options are taken.
    let exe2 = linked(ctx, &[lib, b, a, main], "-cl-fast-relaxed-math -cl-no-signed-zeros");
    assert_eq!(run_ints(ctx, exe2, "calc", 4), calc_expected(4));
    for p in [main, a, b, h, lib, exe, exe2] {
        release_program(p);
    }
    release_context(ctx);
}

#[test]
fn il_programs_link_with_compiled_objects() {
    let ctx = context();
    // An IL program is an object as it is: here, the SPIR-V of a compiled
    // object, loaded with clCreateProgramWithIL.
    let a = object(ctx, ADD_ONE);
    let bin = program_binary(a);
    // The SPIR-V of the object: recompile it through a binary-built
    // executable is not needed; the IL comes from clang via clift's binary.
    let spirv = spirv_of_binary(&bin);
    let il = il_program(ctx, &spirv);
    let main = object(
        ctx,
        "int add_one(int x);\nkernel void k(global int* o) { o[get_global_id(0)] = add_one(41); }",
    );
    let exe = linked(ctx, &[main, il], "");
    assert_eq!(run_ints(ctx, exe, "k", 2), [42, 42]);
    for p in [a, il, main, exe] {
        release_program(p);
    }
    release_context(ctx);
}

/// The SPIR-V module inside a clift binary (format in runtime/src/program.rs).
fn spirv_of_binary(bin: &[u8]) -> Vec<u8> {
    let word = |at: usize| u32::from_le_bytes(bin[at..at + 4].try_into().unwrap()) as usize;
    let (opt_len, n_spec, spirv_len) = (word(16), word(20), word(24));
    let start = 32 + opt_len.next_multiple_of(4) + 16 * n_spec;
    bin[start..start + spirv_len].to_vec()
}

#[test]
fn embedded_headers_are_included_by_name() {
    let ctx = context();
    let defs = source_program(ctx, "#define SCALE 7\n#include \"more.h\"\n");
    let more = source_program(ctx, "#define OFFSET 3\n");
    let sub = source_program(ctx, "int scaled(int x) { return x * SCALE + OFFSET; }\n");
    let main = source_program(
        ctx,
        "#include \"inc/defs.h\"\n#include \"lib/sub/scaled.h\"\nkernel void k(global int* o) { o[get_global_id(0)] = scaled(get_global_id(0)); }",
    );
    let rc = compile(
        main,
        Some(""),
        &[("inc/defs.h", defs), ("inc/more.h", more), ("lib/sub/scaled.h", sub)],
    );
    assert_eq!(rc, CL_SUCCESS, "{}", build_log(main, device()));
    let exe = linked(ctx, &[main], "");
    assert_eq!(run_ints(ctx, exe, "k", 3), [3, 10, 17]);
    // Without the headers the include fails, and the log says which.
    let lone = source_program(
        ctx,
        "#include \"inc/defs.h\"\nkernel void k(global int* o) { o[0] = SCALE; }",
    );
    assert_eq!(compile(lone, Some(""), &[]), CL_COMPILE_PROGRAM_FAILURE);
    assert_eq!(build_status(lone), CL_BUILD_ERROR);
    assert!(build_log(lone, device()).contains("inc/defs.h"));
    // Compile options apply: -D.
    let d = source_program(ctx, "kernel void k(global int* o) { o[0] = V; }");
    assert_eq!(compile(d, Some("-D V=9 -cl-kernel-arg-info"), &[]), CL_SUCCESS);
    let exe2 = linked(ctx, &[d], "");
    assert_eq!(run_ints(ctx, exe2, "k", 1), [9]);
    // Argument information compiled into an object survives the link.
    let k = kernel(exe2, "k");
    let name = arg_string(k, 0, CL_KERNEL_ARG_NAME);
    let ty = arg_string(k, 0, CL_KERNEL_ARG_TYPE_NAME);
    assert_eq!((name.as_str(), ty.as_str()), ("o", "int*"));
    // SAFETY: a valid kernel, released once.
    check(unsafe { clReleaseKernel(k) });
    for p in [defs, more, sub, main, exe, lone, d, exe2] {
        release_program(p);
    }
    release_context(ctx);
}

#[test]
fn link_errors_name_the_symbols() {
    let ctx = context();
    let main = object(ctx, MAIN);
    let a = object(ctx, ADD_ONE);
    let b = object(ctx, TWICE);
    // Unresolved: hundred is missing. The program comes back with its log.
    let (p, rc) = link(ctx, &[main, a, b], "");
    assert_eq!(rc, CL_LINK_PROGRAM_FAILURE);
    assert!(!p.is_null());
    assert_eq!(build_status(p), CL_BUILD_ERROR);
    let log = build_log(p, device());
    assert!(log.contains("hundred"), "{log}");
    assert_eq!(program_bytes(p, CL_PROGRAM_BINARY_SIZES).unwrap(), 0usize.to_ne_bytes());
    release_program(p);
    // Duplicate: two definitions of add_one.
    let a2 = object(ctx, ADD_ONE);
    let h = object(ctx, HUNDRED);
    let (p, rc) = link(ctx, &[main, a, a2, b, h], "");
    assert_eq!(rc, CL_LINK_PROGRAM_FAILURE);
    let log = build_log(p, device());
    assert!(log.contains("add_one"), "{log}");
    release_program(p);
    // A library may leave symbols unresolved; the executable may not.
    let lib = linked(ctx, &[main, a], "-create-library");
    let (p, rc) = link(ctx, &[lib], "");
    assert_eq!(rc, CL_LINK_PROGRAM_FAILURE);
    release_program(p);
    let exe = linked(ctx, &[lib, b, h], "");
    assert_eq!(run_ints(ctx, exe, "calc", 3), calc_expected(3));
    for p in [main, a, b, a2, h, lib, exe] {
        release_program(p);
    }
    release_context(ctx);
}

#[test]
fn binaries_of_every_type_round_trip() {
    let ctx = context();
    let d = device();
    let main = object(ctx, MAIN);
    let a = object(ctx, ADD_ONE);
    let b = object(ctx, TWICE);
    let h = object(ctx, HUNDRED);
    let lib = linked(ctx, &[h], "-create-library");
    let exe = linked(ctx, &[main, a, b, lib], "");
    let reload = |p: cl_program, typ: cl_program_binary_type| {
        let bin = program_binary(p);
        let q = binary_program(ctx, &bin).expect("the binary loads");
        assert_eq!(binary_type(q), typ);
        // The reloaded program's binary is the same bytes.
        assert_eq!(program_binary(q), bin);
        // A damaged copy is refused.
        for at in [0, 12, bin.len() / 2, bin.len() - 1] {
            let mut bad = bin.clone();
            bad[at] ^= 0x24;
            assert_eq!(binary_program(ctx, &bad).unwrap_err(), CL_INVALID_BINARY, "byte {at}");
        }
        assert_eq!(
            binary_program(ctx, &bin[..bin.len() - 4]).unwrap_err(),
            CL_INVALID_BINARY
        );
        q
    };
    let main2 = reload(main, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    let a2 = reload(a, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    let b2 = reload(b, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    let lib2 = reload(lib, CL_PROGRAM_BINARY_TYPE_LIBRARY);
    let exe2 = reload(exe, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    // Reloaded objects and libraries link again.
    let exe3 = linked(ctx, &[main2, a2, b2, lib2], "");
    assert_eq!(run_ints(ctx, exe3, "calc", 5), calc_expected(5));
    // A reloaded executable builds.
    check(build(exe2, ""));
    assert_eq!(run_ints(ctx, exe2, "calc", 5), calc_expected(5));
    // clBuildProgram on a compiled object binary links it on its own: it
    // works when nothing is imported, and fails with the link log otherwise.
    let whole = object(ctx, "kernel void w(global int* o) { o[get_global_id(0)] = 5; }");
    let whole2 = reload(whole, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    check(build(whole2, ""));
    assert_eq!(binary_type(whole2), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    assert_eq!(run_ints(ctx, whole2, "w", 2), [5, 5]);
    assert_eq!(build(main2, ""), CL_BUILD_PROGRAM_FAILURE);
    assert!(build_log(main2, d).contains("add_one"), "{}", build_log(main2, d));
    for p in [main, a, b, h, lib, exe, main2, a2, b2, lib2, exe2, exe3, whole, whole2] {
        release_program(p);
    }
    release_context(ctx);
}

#[test]
fn compile_and_link_error_codes() {
    let ctx = context();
    let main = object(ctx, MAIN);
    let none = source_program(ctx, ADD_ONE);
    // CL_INVALID_OPERATION if the rules for devices containing compiled
    // binaries or libraries as described in input_programs are not followed:
    // one input has an object, another nothing.
    let (p, rc) = link(ctx, &[main, none], "");
    assert!(p.is_null());
    assert_eq!(rc, CL_INVALID_OPERATION);
    // An executable is not an object or library either.
    let exe_src = source_program(ctx, "kernel void e(global int* o) { o[0] = 1; }");
    check(build(exe_src, ""));
    assert_eq!(link(ctx, &[exe_src, main], "").1, CL_INVALID_OPERATION);
    // "None of the programs contain a compiled binary or library for that
    // device. In this case, no link is performed": a program, no executable.
    let (p, rc) = link(ctx, &[none], "");
    check(rc);
    assert_eq!(build_status(p), CL_BUILD_NONE);
    release_program(p);
    // CL_INVALID_LINKER_OPTIONS.
    for bad in [
        "-bogus",
        "-enable-link-options",
        "-cl-mad-enable",
        "-D X",
        "-cl-opt-disable",
    ] {
        assert_eq!(link(ctx, &[main], bad).1, CL_INVALID_LINKER_OPTIONS, "{bad:?}");
    }
    assert_eq!(
        link(
            ctx,
            &[main],
            "-create-library -enable-link-options -cl-finite-math-only"
        )
        .1,
        CL_SUCCESS
    );
    // CL_INVALID_DEVICE: a device that is not the context's.
    let forged = [forged_handle() as cl_device_id];
    let mut err = 0;
    let inputs = [main];
    // SAFETY: a one-entry device list and input list.
    let p = unsafe {
        clLinkProgram(
            ctx,
            1,
            forged.as_ptr(),
            ptr::null(),
            1,
            inputs.as_ptr(),
            None,
            ptr::null_mut(),
            &mut err,
        )
    };
    assert!(p.is_null());
    assert_eq!(err, CL_INVALID_DEVICE);
    // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
    let mut x = 0u8;
    // SAFETY: a one-entry input list.
    let p = unsafe {
        clLinkProgram(
            ctx,
            0,
            ptr::null(),
            ptr::null(),
            1,
            inputs.as_ptr(),
            None,
            (&mut x as *mut u8).cast(),
            &mut err,
        )
    };
    assert!(p.is_null());
    assert_eq!(err, CL_INVALID_VALUE);
    // clCompileProgram: CL_COMPILE_PROGRAM_FAILURE with clang's diagnostic.
    let broken = source_program(ctx, "int f( { }");
    assert_eq!(compile(broken, Some(""), &[]), CL_COMPILE_PROGRAM_FAILURE);
    assert!(build_log(broken, device()).contains("error"));
    // CL_INVALID_COMPILER_OPTIONS.
    assert_eq!(compile(broken, Some("-cl-bogus"), &[]), CL_INVALID_COMPILER_OPTIONS);
    // CL_INVALID_OPERATION if there are kernel objects attached to program.
    let k = kernel(exe_src, "e");
    assert_eq!(compile(exe_src, Some(""), &[]), CL_INVALID_OPERATION);
    // SAFETY: a valid kernel, released once.
    check(unsafe { clReleaseKernel(k) });
    check(compile(exe_src, Some(""), &[]));
    assert_eq!(binary_type(exe_src), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    // CL_INVALID_OPERATION for a program made from a binary (no source or IL).
    let bin = binary_program(ctx, &program_binary(main)).unwrap();
    assert_eq!(compile(bin, Some(""), &[]), CL_INVALID_OPERATION);
    for p in [main, none, exe_src, broken, bin] {
        release_program(p);
    }
    release_context(ctx);
}

#[test]
fn compile_and_link_call_back_when_done() {
    let ctx = context();
    let main = source_program(ctx, MAIN);
    let slot = StatusSlot::default();
    let user = slot.user_data();
    // SAFETY: valid program; the callback and its data outlive the compile.
    check(unsafe {
        clCompileProgram(
            main,
            0,
            ptr::null(),
            ptr::null(),
            0,
            ptr::null(),
            ptr::null_mut(),
            Some(record_status),
            user,
        )
    });
    assert_eq!(slot.wait(), CL_BUILD_SUCCESS);
    let a = object(ctx, ADD_ONE);
    let b = object(ctx, TWICE);
    let h = object(ctx, HUNDRED);
    let inputs = [main, a, b, h];
    slot.reset();
    let mut err = -1;
    // SAFETY: four inputs; the callback and its data outlive the link.
    let exe = unsafe {
        clLinkProgram(
            ctx,
            0,
            ptr::null(),
            ptr::null(),
            4,
            inputs.as_ptr(),
            Some(record_status),
            user,
            &mut err,
        )
    };
    check(err);
    assert!(!exe.is_null());
    assert_eq!(slot.wait(), CL_BUILD_SUCCESS);
    assert_eq!(run_ints(ctx, exe, "calc", 3), calc_expected(3));
    // A failed link calls back too, with the error status; the call itself
    // returns CL_SUCCESS ("can return CL_SUCCESS ... if the linking
    // operation can begin").
    slot.reset();
    let short = [main, a];
    // SAFETY: two inputs; the callback and its data outlive the link.
    let bad = unsafe {
        clLinkProgram(
            ctx,
            0,
            ptr::null(),
            ptr::null(),
            2,
            short.as_ptr(),
            Some(record_status),
            user,
            &mut err,
        )
    };
    check(err);
    assert_eq!(slot.wait(), CL_BUILD_ERROR);
    for p in [main, a, b, h, exe, bad] {
        release_program(p);
    }
    release_context(ctx);
}
