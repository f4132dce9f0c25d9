//! CL_KERNEL_ATTRIBUTES through the loader: "any attributes specified using
//! the __attribute__ OpenCL C qualifier ... with the kernel function
//! declaration in the program source ... returned as a single, space
//! delimited string. For kernels not created from OpenCL C source and the
//! clCreateProgramWithSource API call the string returned from this query
//! will be empty." Kernels of source programs (built, or compiled and
//! linked) report their attributes in OpenCL C spelling, integer vector
//! types with their signedness (the CTS's api/kernel_attributes compares
//! `vec_type_hint(uchar2)` and the like with spaces removed); kernels of
//! programs created from IL, or from a binary, report an empty string.

use std::ffi::CString;
use std::ptr;

use clift_conformance::offline;
use clift_conformance::programs::{
    binary_program, compile, link, program_binary, release_context, release_program, source_program,
};
use clift_conformance::*;

/// The kernels of the test program and the attribute string each must
/// report when built from source: every vec_type_hint type of the CTS (and
/// signed ones), the work-group size attributes alone and together, in any
/// order and spacing, and a macro argument.
fn cases() -> Vec<(String, String, String)> {
    let mut v = Vec::new();
    let mut n = 0;
    let mut add = |decl: String, want: String| {
        v.push((format!("k{n}"), decl, want));
        n += 1;
    };
    for base in [
        "uchar", "ushort", "uint", "ulong", "char", "short", "int", "long", "float", "double", "half",
    ] {
        for size in ["", "2", "3", "4", "8", "16"] {
            let t = format!("{base}{size}");
            add(
                format!("__attribute__((vec_type_hint({t})))"),
                format!("vec_type_hint({t})"),
            );
        }
    }
    add(
        "__attribute__((reqd_work_group_size( 2, 3, 4 )))".into(),
        "reqd_work_group_size(2,3,4)".into(),
    );
    add(
        "__attribute__((work_group_size_hint(8,1,1)))".into(),
        "work_group_size_hint(8,1,1)".into(),
    );
    add(
        "__attribute__((reqd_work_group_size(1,1,1))) __attribute__((vec_type_hint(uint4)))\n\
         __attribute__((work_group_size_hint(1,1,1)))"
            .into(),
        "vec_type_hint(uint4) work_group_size_hint(1,1,1) reqd_work_group_size(1,1,1)".into(),
    );
    add(
        "__attribute__((reqd_work_group_size(WG, 1, 1)))".into(),
        "reqd_work_group_size(16,1,1)".into(),
    );
    add(String::new(), String::new());
    v
}

fn source_of(cases: &[(String, String, String)]) -> String {
    let mut s = String::from("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#define WG 16\n");
    for (name, decl, _) in cases {
        s.push_str(&format!("{decl}\nkernel void {name}(global int *p) {{ p[0] = 1; }}\n"));
    }
    s
}

fn attributes(p: cl_program, name: &str) -> String {
    let k = kernel(p, name);
    let a = kernel_string(k, CL_KERNEL_ATTRIBUTES);
    // SAFETY: a kernel this function created, released once.
    check(unsafe { clReleaseKernel(k) });
    a
}

fn built(p: cl_program) -> cl_program {
    let rc = build(p, "");
    assert_eq!(rc, CL_SUCCESS, "{}", build_log(p, device()));
    p
}

fn binary_of(ctx: cl_context, p: cl_program) -> cl_program {
    let bin = program_binary(p);
    built(binary_program(ctx, &bin).expect("clCreateProgramWithBinary"))
}

#[test]
fn source_kernels_report_their_attributes_in_opencl_c_spelling() {
    let ctx = context();
    let cases = cases();
    let p = built(source_program(ctx, &source_of(&cases)));
    for (name, _, want) in &cases {
        assert_eq!(&attributes(p, name), want, "kernel {name}");
    }
    release_program(p);
    release_context(ctx);
}

#[test]
fn kernels_from_il_or_a_binary_report_none() {
    let ctx = context();
    let cases = cases();
    let source = source_of(&cases);
    // The same kernels as SPIR-V compiled offline (what the CTS's SPIR-V
    // mode feeds), and binaries of the source and of the IL program.
    let il = built(il_program(ctx, &offline::spirv_of(&source, &[])));
    let src = built(source_program(ctx, &source));
    let from_src_binary = binary_of(ctx, src);
    let from_il_binary = binary_of(ctx, il);
    for (name, _, _) in &cases {
        for (what, p) in [
            ("IL", il),
            ("binary of a source program", from_src_binary),
            ("binary of an IL program", from_il_binary),
        ] {
            assert_eq!(attributes(p, name), "", "{what}: kernel {name}");
        }
    }
    for p in [il, src, from_src_binary, from_il_binary] {
        release_program(p);
    }
    release_context(ctx);
}

#[test]
fn linked_kernels_report_what_their_source_declared() {
    let ctx = context();
    let a = source_program(
        ctx,
        "__attribute__((vec_type_hint(ushort8))) __attribute__((reqd_work_group_size(4,2,1)))\n\
         kernel void from_source(global int *p) { p[0] = 1; }\n",
    );
    check(compile(a, None, &[]));
    let b = source_program(ctx, "kernel void plain(global int *p) { p[0] = 2; }\n");
    check(compile(b, None, &[]));
    // An IL program is an object as it is: its kernel reports nothing.
    let il = il_program(
        ctx,
        &offline::spirv_of(
            "__attribute__((vec_type_hint(uchar4)))\nkernel void from_il(global int *p) { p[0] = 3; }\n",
            &[],
        ),
    );
    let (exe, rc) = link(ctx, &[a, b, il], "");
    check(rc);
    assert_eq!(
        attributes(exe, "from_source"),
        "vec_type_hint(ushort8) reqd_work_group_size(4,2,1)"
    );
    assert_eq!(attributes(exe, "plain"), "");
    assert_eq!(attributes(exe, "from_il"), "");
    // A library linked into an executable keeps them too.
    let (lib, rc) = link(ctx, &[a], "-create-library");
    check(rc);
    let (exe2, rc) = link(ctx, &[lib, b], "");
    check(rc);
    assert_eq!(
        attributes(exe2, "from_source"),
        "vec_type_hint(ushort8) reqd_work_group_size(4,2,1)"
    );
    for p in [a, b, il, exe, lib, exe2] {
        release_program(p);
    }
    release_context(ctx);
}

#[test]
fn attributes_survive_the_compile_cache_and_arg_info() {
    // The same source built twice (the second from clift's compile cache)
    // and with -cl-kernel-arg-info reports the same attributes.
    let ctx = context();
    let src = "__attribute__((vec_type_hint(ulong2)))\nkernel void k(global int *p) { p[0] = 1; }\n";
    for options in ["", "", "-cl-kernel-arg-info"] {
        let p = source_program(ctx, src);
        let o = CString::new(options).expect("no NUL");
        // SAFETY: valid program and options; no device list, no callback.
        check(unsafe { clBuildProgram(p, 0, ptr::null(), o.as_ptr(), None, ptr::null_mut()) });
        assert_eq!(attributes(p, "k"), "vec_type_hint(ulong2)", "options {options:?}");
        release_program(p);
    }
    release_context(ctx);
}
