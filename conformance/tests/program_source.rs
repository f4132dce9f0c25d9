//! OpenCL C programs (clCreateProgramWithSource + clBuildProgram)
//! through the loader, compiled by the system's clang and llvm-spirv: every
//! build option with an observable effect, diagnostics in the build log,
//! kernel argument information, the compiler cache (in child processes with
//! a counting clang wrapper) and the missing-compiler path.

use std::path::{Path, PathBuf};
use std::ptr;

use clift_conformance::child::{in_child, run as child};
use clift_conformance::programs::*;
use clift_conformance::*;

/// Builds `src` with `options`: the program, clBuildProgram's code and the log.
fn build_source(ctx: cl_context, src: &str, options: &str) -> (cl_program, cl_int, String) {
    let p = source_program(ctx, src);
    let rc = build(p, options);
    let log = build_log(p, device());
    (p, rc, log)
}

/// Builds `src` with `options`, panicking with the log on failure.
fn built(ctx: cl_context, src: &str, options: &str) -> cl_program {
    let (p, rc, log) = build_source(ctx, src, options);
    assert_eq!(
        rc,
        CL_SUCCESS,
        "build with {options:?} failed ({}):\n{log}",
        error_name(rc)
    );
    p
}

/// A fresh private folder under the temporary directory.
fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("clift-src-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create a temporary folder");
    d
}

#[test]
fn device_reports_a_compiler_and_a_linker() {
    let d = device();
    assert_eq!(device_value::<cl_bool>(d, CL_DEVICE_COMPILER_AVAILABLE), CL_TRUE);
    assert_eq!(device_value::<cl_bool>(d, CL_DEVICE_LINKER_AVAILABLE), CL_TRUE);
}

#[test]
fn a_source_program_builds_and_runs() {
    let ctx = context();
    let src = "kernel void sq(global int* o) { int i = get_global_id(0); o[i] = i * i; }";
    let p = built(ctx, src, "");
    assert_eq!(build_status(p), CL_BUILD_SUCCESS);
    assert_eq!(binary_type(p), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    assert_eq!(program_string(p, CL_PROGRAM_KERNEL_NAMES), "sq");
    assert_eq!(program_string(p, CL_PROGRAM_SOURCE), src);
    // CL_PROGRAM_IL of a source program: "param_value_size_ret will be set to 0".
    assert_eq!(program_bytes(p, CL_PROGRAM_IL).unwrap().len(), 0);
    let out = run_ints(ctx, p, "sq", 64);
    assert!(out.iter().enumerate().all(|(i, &v)| v == (i * i) as i32), "{out:?}");

    // The executable's binary round-trips through clCreateProgramWithBinary.
    let bin = program_binary(p);
    let q = binary_program(ctx, &bin).expect("the binary loads");
    check(build(q, ""));
    assert_eq!(run_ints(ctx, q, "sq", 8), [0, 1, 4, 9, 16, 25, 36, 49]);
    // A corrupt binary gives CL_INVALID_BINARY.
    let mut bad = bin.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0xff;
    assert_eq!(binary_program(ctx, &bad).unwrap_err(), CL_INVALID_BINARY);
    release_program(q);
    release_program(p);
    release_context(ctx);
}

#[test]
fn defines_are_macros_in_order() {
    let ctx = context();
    let src = "kernel void k(global int* o) { o[0] = VALUE; o[1] = TWO;\n\
               #ifdef FLAG\n o[2] = FLAG;\n#else\n o[2] = -1;\n#endif\n }";
    let p = built(ctx, src, "-D VALUE=42 -DTWO=2 -D FLAG");
    let (rc, out) = run_ints_local(ctx, p, "k", 3, Some(1));
    check(rc);
    // `-D name` defines it as 1.
    assert_eq!(out, [42, 2, 1]);
    let q = built(ctx, src, "-D VALUE=(6*7+1) -D TWO=3");
    let out = {
        let (rc, v) = run_ints_local(ctx, q, "k", 3, Some(1));
        check(rc);
        v
    };
    // Only o[0..] of work-item 0..2 matter: every work-item writes the same.
    assert_eq!(out, [43, 3, -1]);
    // Without the macro the source does not compile: the log has clang's error.
    let (r, rc, log) = build_source(ctx, src, "");
    assert_eq!(rc, CL_BUILD_PROGRAM_FAILURE);
    assert_eq!(build_status(r), CL_BUILD_ERROR);
    assert!(log.contains("VALUE") && log.contains("error"), "{log}");
    for p in [p, q, r] {
        release_program(p);
    }
    release_context(ctx);
}

#[test]
fn include_dirs_are_searched() {
    let ctx = context();
    let dir = temp_dir("inc");
    let spaced = dir.join("a dir");
    std::fs::create_dir_all(&spaced).unwrap();
    std::fs::write(dir.join("one.h"), "#define ONE 1\n").unwrap();
    std::fs::write(spaced.join("two.h"), "#define TWO 2\n").unwrap();
    let src = "#include \"one.h\"\n#include <two.h>\nkernel void k(global int* o) { o[0] = ONE * 10 + TWO; }";
    let opts = format!("-I {} -I\"{}\"", dir.display(), spaced.display());
    let p = built(ctx, src, &opts);
    assert_eq!(run_ints(ctx, p, "k", 1), [12]);
    // The compile cache notices a changed header in a -I folder.
    std::fs::write(spaced.join("two.h"), "#define TWO 5\n").unwrap();
    let p2 = built(ctx, src, &opts);
    assert_eq!(run_ints(ctx, p2, "k", 1), [15]);
    release_program(p2);
    let (q, rc, log) = build_source(ctx, src, "");
    assert_eq!(rc, CL_BUILD_PROGRAM_FAILURE);
    assert!(log.contains("one.h"), "{log}");
    release_program(p);
    release_program(q);
    release_context(ctx);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn cl_std_selects_the_language_version() {
    let ctx = context();
    // __OPENCL_C_VERSION__ tells the version clang compiled for; CL1.2
    // when -cl-std is absent ("the highest OpenCL C 1.x language version
    // supported by each device").
    let src = "kernel void k(global int* o) { o[0] = __OPENCL_C_VERSION__; }";
    for (opts, v) in [
        ("", 120),
        ("-cl-std=CL1.1", 110),
        ("-cl-std=CL1.2", 120),
        ("-cl-std=CL2.0", 200),
    ] {
        let p = built(ctx, src, opts);
        assert_eq!(run_ints(ctx, p, "k", 1), [v], "{opts:?}");
        release_program(p);
    }
    // Program-scope global variables are OpenCL C 2.0.
    let g = "global int counter = 5; kernel void k(global int* o) { o[0] = counter; }";
    let p = built(ctx, g, "-cl-std=CL2.0");
    assert_eq!(run_ints(ctx, p, "k", 1), [5]);
    let (q, rc, log) = build_source(ctx, g, "-cl-std=CL1.2");
    assert_eq!(rc, CL_BUILD_PROGRAM_FAILURE);
    assert!(log.contains("error"), "{log}");
    // Above the device's OpenCL C version the build fails, saying why.
    let (r, rc, log) = build_source(ctx, src, "-cl-std=CL3.0");
    assert_eq!(rc, CL_BUILD_PROGRAM_FAILURE);
    assert!(log.contains("OpenCL C 2.0"), "{log}");
    for p in [p, q, r] {
        release_program(p);
    }
    release_context(ctx);
}

#[test]
fn warnings_w_and_werror() {
    let ctx = context();
    let src = "#warning clift-test-warning\nkernel void k(global int* o) { o[0] = 1; }";
    let (p, rc, log) = build_source(ctx, src, "");
    check(rc);
    assert!(log.contains("clift-test-warning"), "the warning is in the log:\n{log}");
    let (q, rc, log) = build_source(ctx, src, "-w");
    check(rc);
    assert!(!log.contains("clift-test-warning"), "-w silences it:\n{log}");
    let (r, rc, log) = build_source(ctx, src, "-Werror");
    assert_eq!(rc, CL_BUILD_PROGRAM_FAILURE);
    assert!(log.contains("clift-test-warning") && log.contains("error"), "{log}");
    for p in [p, q, r] {
        release_program(p);
    }
    release_context(ctx);
}

#[test]
fn opt_disable_keeps_private_variables() {
    let ctx = context();
    let src = "kernel void k(global int* o) { int i = get_global_id(0); int a = i * 3; int b = a & 7; \
               o[i] = a + b; }";
    // clift turns Function variables that are only loaded and stored into
    // values; -cl-clift-keep-variables keeps them as the module has them,
    // which shows what clang made.
    let fast = built(ctx, src, "-cl-clift-keep-variables");
    let slow = built(ctx, src, "-cl-opt-disable -cl-clift-keep-variables");
    let promoted = built(ctx, src, "-cl-opt-disable");
    let private = |p: cl_program| {
        let k = kernel(p, "k");
        let v: cl_ulong = work_group_value(k, CL_KERNEL_PRIVATE_MEM_SIZE);
        // SAFETY: a valid kernel, released once.
        check(unsafe { clReleaseKernel(k) });
        v
    };
    // -O2 keeps the variables in registers; -O0 keeps every one in memory.
    assert_eq!(private(fast), 0);
    assert!(private(slow) >= 12, "{}", private(slow));
    assert_eq!(run_ints(ctx, fast, "k", 8), run_ints(ctx, slow, "k", 8));
    assert_eq!(run_ints(ctx, slow, "k", 4), [0, 6, 12, 9 + 1]);
    assert_eq!(private(promoted), 0);
    assert_eq!(run_ints(ctx, promoted, "k", 8), run_ints(ctx, slow, "k", 8));
    release_program(fast);
    release_program(slow);
    release_program(promoted);
    release_context(ctx);
}

#[test]
fn math_options_reach_the_compiler() {
    let ctx = context();
    // clang defines __FAST_RELAXED_MATH__ for -cl-fast-relaxed-math (and
    // __FINITE_MATH_ONLY__ for the options that imply finite math).
    let src = "kernel void k(global int* o) {\n#ifdef __FAST_RELAXED_MATH__\n o[0] = 1;\n#else\n o[0] = 0;\n#endif\n\
               #if defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__\n o[1] = 1;\n#else\n o[1] = 0;\n#endif\n\
               o[2] = (int)(sqrt((float)o[3] + 16.0f)); }";
    let cases = [
        ("", [0, 0]),
        ("-cl-fast-relaxed-math", [1, 1]),
        ("-cl-finite-math-only", [0, 1]),
        ("-cl-mad-enable -cl-no-signed-zeros -cl-denorms-are-zero", [0, 0]),
        ("-cl-unsafe-math-optimizations -cl-single-precision-constant", [0, 0]),
        ("-cl-fp32-correctly-rounded-divide-sqrt -cl-no-subgroup-ifp -g", [0, 0]),
        (
            "-cl-std=CL2.0 -cl-uniform-work-group-size -cl-kernel-arg-info -cl-strict-aliasing",
            [0, 0],
        ),
    ];
    for (opts, want) in cases {
        let p = built(ctx, src, opts);
        let (rc, out) = run_ints_local(ctx, p, "k", 4, Some(4));
        check(rc);
        assert_eq!(out[..3], [want[0], want[1], 4], "{opts:?}");
        release_program(p);
    }
    release_context(ctx);
}

#[test]
fn uniform_work_group_size_is_enforced() {
    let ctx = context();
    let src = "kernel void k(global int* o) { o[get_global_id(0)] = get_local_size(0); }";
    let p = built(ctx, src, "-cl-std=CL2.0");
    let (rc, out) = run_ints_local(ctx, p, "k", 6, Some(4));
    check(rc);
    assert_eq!(out, [4, 4, 4, 4, 2, 2]);
    let q = built(ctx, src, "-cl-std=CL2.0 -cl-uniform-work-group-size");
    let (rc, _) = run_ints_local(ctx, q, "k", 6, Some(4));
    assert_eq!(rc, CL_INVALID_WORK_GROUP_SIZE);
    release_program(p);
    release_program(q);
    release_context(ctx);
}

#[test]
fn kernel_argument_information() {
    let ctx = context();
    let src = "typedef struct { int a; float b; } pair_t;\n\
               kernel void k(global const int* restrict src, global volatile uint4* dst, constant float* table, \
               local char* scratch, int n, pair_t p) { }";
    let with = built(ctx, src, "-cl-kernel-arg-info");
    let k = kernel(with, "k");
    let s = |i, param| arg_string(k, i, param);
    // Address and access qualifiers are cl_uint, type qualifiers cl_bitfield.
    let u32v = |i, param| arg_value::<cl_uint>(k, i, param);
    let u64v = |i, param| arg_value::<cl_bitfield>(k, i, param) as u32;
    let names: Vec<String> = (0..6).map(|i| s(i, CL_KERNEL_ARG_NAME)).collect();
    assert_eq!(names, ["src", "dst", "table", "scratch", "n", "p"]);
    let types: Vec<String> = (0..6).map(|i| s(i, CL_KERNEL_ARG_TYPE_NAME)).collect();
    assert_eq!(types, ["int*", "uint4*", "float*", "char*", "int", "pair_t"]);
    let addr: Vec<u32> = (0..6).map(|i| u32v(i, CL_KERNEL_ARG_ADDRESS_QUALIFIER)).collect();
    assert_eq!(
        addr,
        [
            CL_KERNEL_ARG_ADDRESS_GLOBAL,
            CL_KERNEL_ARG_ADDRESS_GLOBAL,
            CL_KERNEL_ARG_ADDRESS_CONSTANT,
            CL_KERNEL_ARG_ADDRESS_LOCAL,
            CL_KERNEL_ARG_ADDRESS_PRIVATE,
            CL_KERNEL_ARG_ADDRESS_PRIVATE
        ]
    );
    let quals: Vec<u32> = (0..6).map(|i| u64v(i, CL_KERNEL_ARG_TYPE_QUALIFIER)).collect();
    assert_eq!(
        quals,
        [
            CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT,
            CL_KERNEL_ARG_TYPE_VOLATILE,
            CL_KERNEL_ARG_TYPE_CONST,
            CL_KERNEL_ARG_TYPE_NONE,
            CL_KERNEL_ARG_TYPE_NONE,
            CL_KERNEL_ARG_TYPE_NONE
        ]
    );
    for i in 0..6 {
        assert_eq!(u32v(i, CL_KERNEL_ARG_ACCESS_QUALIFIER), CL_KERNEL_ARG_ACCESS_NONE);
    }
    // SAFETY: a valid kernel, released once.
    check(unsafe { clReleaseKernel(k) });

    // Pipes (OpenCL C 2.0): the pipe qualifier, access qualifiers, the
    // packet type as the type name.
    let pipes = built(
        ctx,
        "kernel void p(read_only pipe int in, write_only pipe float4 out, global int* restrict const g) { }",
        "-cl-std=CL2.0 -cl-kernel-arg-info",
    );
    let k = kernel(pipes, "p");
    let s = |i, param| arg_string(k, i, param);
    // Address and access qualifiers are cl_uint, type qualifiers cl_bitfield.
    let u32v = |i, param| arg_value::<cl_uint>(k, i, param);
    let u64v = |i, param| arg_value::<cl_bitfield>(k, i, param) as u32;
    assert_eq!(
        (0..3).map(|i| s(i, CL_KERNEL_ARG_NAME)).collect::<Vec<_>>(),
        ["in", "out", "g"]
    );
    assert_eq!(
        (0..3).map(|i| s(i, CL_KERNEL_ARG_TYPE_NAME)).collect::<Vec<_>>(),
        ["int", "float4", "int*"]
    );
    assert_eq!(
        (0..3)
            .map(|i| u32v(i, CL_KERNEL_ARG_ACCESS_QUALIFIER))
            .collect::<Vec<_>>(),
        [
            CL_KERNEL_ARG_ACCESS_READ_ONLY,
            CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
            CL_KERNEL_ARG_ACCESS_NONE
        ]
    );
    // A const pointer (not to const) is not CL_KERNEL_ARG_TYPE_CONST.
    assert_eq!(
        (0..3)
            .map(|i| u64v(i, CL_KERNEL_ARG_TYPE_QUALIFIER))
            .collect::<Vec<_>>(),
        [
            CL_KERNEL_ARG_TYPE_PIPE,
            CL_KERNEL_ARG_TYPE_PIPE,
            CL_KERNEL_ARG_TYPE_RESTRICT
        ]
    );
    // SAFETY: a valid kernel, released once.
    check(unsafe { clReleaseKernel(k) });
    release_program(pipes);

    // Without -cl-kernel-arg-info names and type names are not available.
    let without = built(ctx, src, "");
    let k = kernel(without, "k");
    for param in [CL_KERNEL_ARG_NAME, CL_KERNEL_ARG_TYPE_NAME] {
        let mut size = 0usize;
        // SAFETY: a size slot only.
        let rc = unsafe { clGetKernelArgInfo(k, 0, param, 0, ptr::null_mut(), &mut size) };
        assert_eq!(rc, CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    }
    let mut q = 0u32;
    // SAFETY: a 4-byte value slot.
    check(unsafe {
        clGetKernelArgInfo(
            k,
            2,
            CL_KERNEL_ARG_ADDRESS_QUALIFIER,
            4,
            (&mut q as *mut u32).cast(),
            ptr::null_mut(),
        )
    });
    assert_eq!(q, CL_KERNEL_ARG_ADDRESS_CONSTANT);
    // SAFETY: a valid kernel, released once.
    check(unsafe { clReleaseKernel(k) });
    release_program(with);
    release_program(without);
    release_context(ctx);
}

#[test]
fn unsupported_extensions_fail_in_the_compiler() {
    let ctx = context();
    // The device has no cl_khr_gl_msaa_sharing (its image types): clang is
    // told, so this fails to compile with clang's diagnostic instead of at
    // code generation.
    let src =
        "kernel void k(global int* o) {\n#ifdef cl_khr_gl_msaa_sharing\n o[0] = 1;\n#else\n#error no msaa\n#endif\n}";
    let (p, rc, log) = build_source(ctx, src, "");
    assert_eq!(rc, CL_BUILD_PROGRAM_FAILURE);
    assert!(log.contains("no msaa"), "{log}");
    // cl_khr_fp16 is supported: half arithmetic compiles and runs
    // (tests/exec_fp16*.rs check its results).
    let half =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\nkernel void k(global half* o) { half h = o[1]; o[0] = h + h; }";
    let h = built(ctx, half, "");
    // An extension the device has compiles: 64-bit atomics.
    let ok = "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n\
              kernel void k(global long* o) { atom_add(o, 5); }";
    let q = built(ctx, ok, "");
    release_program(p);
    release_program(q);
    release_program(h);
    release_context(ctx);
}

#[test]
fn division_and_remainder_of_the_same_operands() {
    // clang -O2 turns x / y and x % y of the same operands into a `freeze`
    // instruction llvm-spirv 15 cannot translate: clift rebuilds without
    // that pass and says so in the log.
    let ctx = context();
    let src = "kernel void k(global int* o) { int i = get_global_id(0) + 100; int d = 7 - (int)get_global_id(0) % 3; \
               o[get_global_id(0)] = (i / d) * 1000 + i % d; }";
    let (p, rc, log) = build_source(ctx, src, "");
    assert_eq!(rc, CL_SUCCESS, "{log}");
    let out = run_ints(ctx, p, "k", 9);
    let want: Vec<i32> = (0..9)
        .map(|g: i32| {
            let (i, d) = (g + 100, 7 - g % 3);
            (i / d) * 1000 + i % d
        })
        .collect();
    assert_eq!(out, want);
    assert!(log.contains("freeze"), "the fallback is logged:\n{log}");
    release_program(p);
    release_context(ctx);
}

#[test]
fn an_asynchronous_build_calls_back_once_done() {
    let ctx = context();
    let p = source_program(ctx, "kernel void k(global int* o) { o[0] = 3; }");
    let slot = StatusSlot::default();
    // SAFETY: valid program; the callback and its user data outlive the build.
    check(unsafe { clBuildProgram(p, 0, ptr::null(), ptr::null(), Some(record_status), slot.user_data()) });
    assert_eq!(slot.wait(), CL_BUILD_SUCCESS);
    assert_eq!(run_ints(ctx, p, "k", 1), [3]);
    release_program(p);
    release_context(ctx);
}

// ---------------------------------------------------------------------------
// Child processes: the cache and the missing compiler
// ---------------------------------------------------------------------------

/// The child of [`the_second_build_runs_no_compiler`]: builds and runs one
/// program.
#[test]
fn child_build_once() {
    if !in_child() {
        return;
    }
    let ctx = context();
    let p = built(
        ctx,
        "kernel void cached(global int* o) { o[get_global_id(0)] = 17 * (int)get_global_id(0); }",
        "-D UNUSED=1",
    );
    assert_eq!(run_ints(ctx, p, "cached", 3), [0, 17, 34]);
    println!("LOG<<{}>>", build_log(p, device()));
    release_program(p);
    release_context(ctx);
}

/// A clang wrapper that appends a line to `count` per run, then runs clang-15.
fn counting_clang(dir: &Path) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let real = ["clang-15", "clang"]
        .iter()
        .find_map(|n| {
            std::env::split_paths(&std::env::var_os("PATH")?)
                .map(|d| d.join(n))
                .find(|p| p.exists())
        })
        .expect("clang on PATH");
    let count = dir.join("count");
    let script = dir.join("clang-wrapper");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho run >> '{}'\nexec '{}' \"$@\"\n",
            count.display(),
            real.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    (script, count)
}

fn runs(count: &Path) -> usize {
    std::fs::read_to_string(count).map_or(0, |s| s.lines().count())
}

#[test]
fn the_second_build_runs_no_compiler() {
    if in_child() {
        return;
    }
    let dir = temp_dir("cache");
    let cache = dir.join("cache");
    let (clang, count) = counting_clang(&dir);
    let env = [
        ("CLIFT_CLANG", clang.to_str().unwrap()),
        ("CLIFT_CACHE_DIR", cache.to_str().unwrap()),
    ];
    child("child_build_once", &env, &["CLIFT_CACHE"]);
    let first = runs(&count);
    // --version, then the compile.
    assert!(first >= 2, "the first build compiles ({first} clang runs)");
    let spvc = |d: &Path| {
        std::fs::read_dir(d)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "spvc"))
            .count()
    };
    assert_eq!(spvc(&cache), 1, "one cache entry");
    // Another process, the same source and options: no clang run at all
    // (the tools' --version answers are remembered with their identity).
    child("child_build_once", &env, &["CLIFT_CACHE"]);
    assert_eq!(runs(&count), first, "the second build ran no compiler");

    // A damaged entry is ignored (and replaced).
    let entry = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "spvc"))
        .unwrap();
    let mut bytes = std::fs::read(&entry).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x5a;
    std::fs::write(&entry, &bytes).unwrap();
    let before = runs(&count);
    child("child_build_once", &env, &["CLIFT_CACHE"]);
    assert_eq!(runs(&count) - before, 1, "a damaged entry is not used");
    let before = runs(&count);
    child("child_build_once", &env, &["CLIFT_CACHE"]);
    assert_eq!(runs(&count), before, "the replaced entry is used");

    // A changed compiler (here: its wrapper rewritten) is asked its
    // version again, and the entry is still keyed by that version.
    let script = std::fs::read_to_string(&clang).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&clang, format!("{script}\n")).unwrap();
    let before = runs(&count);
    child("child_build_once", &env, &["CLIFT_CACHE"]);
    assert_eq!(runs(&count) - before, 1, "--version again, no compile");

    // CLIFT_CACHE=0 turns the cache off (version memos included).
    let off = [env[0], env[1], ("CLIFT_CACHE", "0")];
    let before = runs(&count);
    child("child_build_once", &off, &[]);
    assert_eq!(runs(&count) - before, 2, "CLIFT_CACHE=0: --version and a compile");
    let _ = std::fs::remove_dir_all(dir);
}

/// The child of [`a_missing_compiler_is_reported`].
#[test]
fn child_without_compiler() {
    if !in_child() {
        return;
    }
    let d = device();
    assert_eq!(device_value::<cl_bool>(d, CL_DEVICE_COMPILER_AVAILABLE), CL_FALSE);
    assert_eq!(device_value::<cl_bool>(d, CL_DEVICE_LINKER_AVAILABLE), CL_TRUE);
    let ctx = context();
    let p = source_program(ctx, "kernel void k(global int* o) { o[0] = 1; }");
    assert_eq!(build(p, ""), CL_COMPILER_NOT_AVAILABLE);
    let log = build_log(p, d);
    assert!(log.contains("apt-get install clang-15 llvm-spirv-15"), "{log}");
    // NULL options; no lists; no callback.
    let rc = compile(p, None, &[]);
    assert_eq!(rc, CL_COMPILER_NOT_AVAILABLE);
    // Bad options are still reported first.
    assert_eq!(build(p, "-cl-bogus"), CL_INVALID_BUILD_OPTIONS);
    release_program(p);
    release_context(ctx);
}

#[test]
fn a_missing_compiler_is_reported() {
    if in_child() {
        return;
    }
    // No compiler on PATH, none named.
    let empty = temp_dir("nopath");
    child(
        "child_without_compiler",
        &[("PATH", empty.to_str().unwrap())],
        &["CLIFT_CLANG", "CLIFT_LLVM_SPIRV"],
    );
    // A compiler named that does not exist.
    child(
        "child_without_compiler",
        &[("CLIFT_CLANG", "/nonexistent/clang")],
        &["CLIFT_LLVM_SPIRV"],
    );
    let _ = std::fs::remove_dir_all(empty);
}

/// The child of [`a_compiler_past_its_time_limit_is_killed`].
#[test]
fn child_slow_compiler() {
    if !in_child() {
        return;
    }
    let ctx = context();
    let start = std::time::Instant::now();
    let (p, rc, log) = build_source(ctx, "kernel void k(global int* o) { o[0] = 1; }", "");
    assert_eq!(rc, CL_BUILD_PROGRAM_FAILURE);
    assert!(
        log.contains("was killed") && log.contains("CLIFT_COMPILER_TIMEOUT"),
        "{log}"
    );
    assert!(
        start.elapsed().as_secs() < 20,
        "killed after the limit, not at the end of the run"
    );
    release_program(p);
    release_context(ctx);
}

#[test]
fn a_compiler_past_its_time_limit_is_killed() {
    use std::os::unix::fs::PermissionsExt;
    if in_child() {
        return;
    }
    let dir = temp_dir("slow");
    let (real, _) = counting_clang(&dir);
    // Answers --version at once (through the counting wrapper), hangs on a
    // compile in a child of its own (killed with the script's process group).
    let script = dir.join("slow-clang");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncase \"$*\" in *--version*) exec '{}' \"$@\";; esac\nsleep 60 &\necho $! > '{}'\nwait\n",
            real.display(),
            dir.join("sleep.pid").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    child(
        "child_slow_compiler",
        &[
            ("CLIFT_CLANG", script.to_str().unwrap()),
            ("CLIFT_COMPILER_TIMEOUT", "2"),
            ("CLIFT_CACHE", "0"),
        ],
        &[],
    );
    // The script's own child went with it.
    let pid = std::fs::read_to_string(dir.join("sleep.pid")).expect("the script ran");
    let proc = PathBuf::from(format!("/proc/{}", pid.trim()));
    let start = std::time::Instant::now();
    while proc.exists() && std::fs::read_to_string(proc.join("stat")).is_ok_and(|s| !s.contains(") Z ")) {
        assert!(
            start.elapsed().as_secs() < 10,
            "the compiler's child {} still runs",
            pid.trim()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The child of [`without_opt_the_freeze_fallback_is_o0`].
#[test]
fn child_freeze_without_opt() {
    if !in_child() {
        return;
    }
    let ctx = context();
    let src = "kernel void k(global int* o) { int i = get_global_id(0) + 50; int d = 3 + (int)get_global_id(0); \
               o[get_global_id(0)] = (i / d) * 100 + i % d; }";
    let (p, rc, log) = build_source(ctx, src, "");
    assert_eq!(rc, CL_SUCCESS, "{log}");
    assert!(log.contains("rebuilt at -O0"), "{log}");
    let want: Vec<i32> = (0..6)
        .map(|g: i32| ((g + 50) / (3 + g)) * 100 + (g + 50) % (3 + g))
        .collect();
    assert_eq!(run_ints(ctx, p, "k", 6), want);
    release_program(p);
    release_context(ctx);
}

#[test]
fn without_opt_the_freeze_fallback_is_o0() {
    if in_child() {
        return;
    }
    // A PATH holding clang-15 and llvm-spirv-15 but no opt.
    let dir = temp_dir("noopt");
    for tool in ["clang-15", "llvm-spirv-15"] {
        let real = std::env::split_paths(&std::env::var_os("PATH").unwrap())
            .map(|d| d.join(tool))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("{tool} on PATH"));
        std::os::unix::fs::symlink(real, dir.join(tool)).unwrap();
    }
    child(
        "child_freeze_without_opt",
        &[("PATH", dir.to_str().unwrap()), ("CLIFT_CACHE", "0")],
        &["CLIFT_CLANG", "CLIFT_LLVM_SPIRV"],
    );
    let _ = std::fs::remove_dir_all(dir);
}
