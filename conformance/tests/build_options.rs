//! Build options as real applications write them, through the loader.
//!
//! Each row of [`cases`] is an option string taken from an application or
//! library (the file it is built in is named), with the macros it defines
//! checked inside a kernel: the kernel stringifies them (or a function-like
//! macro of the string does, as hashcat's `M2S` does) into a `constant char`
//! array, and the host compares those bytes with what the options define.
//! Every row is built with clBuildProgram, and with clCompileProgram then
//! clLinkProgram; for an IL program the same options are accepted and
//! ignored. Then the error path of each call: the code, and the line naming
//! the refused option (in the build log, or, for clLinkProgram, which
//! returns no program, through the context's notify callback).

use std::ffi::{c_char, c_void, CStr};
use std::path::{Path, PathBuf};
use std::ptr;
use std::sync::Mutex;

use clift_conformance::programs::*;
use clift_conformance::*;

/// A macro check: the kernel's expression and what it must produce.
enum Check {
    /// A string literal expression (`CLIFT_STR(NAME)`, `M2S(...)`) and its
    /// bytes.
    Text(&'static str, String),
    /// An integer expression and its value.
    Int(&'static str, i64),
}

/// One option string from an application.
struct Case {
    /// Where it comes from.
    from: &'static str,
    /// The options; `{dir}` is a folder whose name holds a space.
    options: String,
    /// Files written in `{dir}` first (relative name, text).
    files: Vec<(&'static str, &'static str)>,
    /// Source after the probe macros and before the checks (includes).
    prelude: &'static str,
    checks: Vec<Check>,
}

use Check::{Int, Text};

fn s(v: &str) -> String {
    v.to_string()
}

/// hashcat's build options (src/backend.c, `build_options_buf`: the
/// install path quoted because it holds a space, `XM2S`/`M2S` to turn a
/// path into an include name, the device's `-D` flags, `-w`; then a
/// module's `jit_build_options`).
fn hashcat() -> String {
    let mut o = s(
        "-D KERNEL_STATIC -D INCLUDE_PATH=\"{dir}/OpenCL\" -D XM2S(x)=#x -D M2S(x)=XM2S(x) \
                   -D MAX_THREADS_PER_BLOCK=1024 ",
    );
    o.push_str(
        "-D LOCAL_MEM_TYPE=2 -D VENDOR_ID=64 -D CUDA_ARCH=0 -D HAS_ADD=0 -D HAS_ADDC=0 -D HAS_SUB=0 -D HAS_SUBC=0 \
         -D HAS_VADD=0 -D HAS_VADDC=0 -D HAS_VADD_CO=0 -D HAS_VADDC_CO=0 -D HAS_VSUB=0 -D HAS_VSUBB=0 \
         -D HAS_VSUB_CO=0 -D HAS_VSUBB_CO=0 -D HAS_VPERM=0 -D HAS_VADD3=0 -D HAS_VBFE=0 -D HAS_BFE=0 -D HAS_LOP3=0 \
         -D HAS_MOV64=0 -D HAS_PRMT=0 -D HAS_SHFW=0 -D VECT_SIZE=4 -D DEVICE_TYPE=2 -D DGST_R0=0 -D DGST_R1=3 \
         -D DGST_R2=2 -D DGST_R3=1 -D DGST_ELEM=4 -D KERN_TYPE=0 -D ATTACK_EXEC=11 -D ATTACK_KERN=3 -D ATTACK_MODE=3 \
         -w  -D FIXED_LOCAL_SIZE=256 -D _unroll",
    );
    o
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            from: "hashcat src/backend.c (build_options_buf + module_jit_build_options)",
            options: hashcat(),
            files: vec![("OpenCL/inc_vendor.h", "#define HC_VENDOR_PROBE \"inc_vendor.h was included\"\n")],
            prelude: "#include M2S(INCLUDE_PATH/inc_vendor.h)\n",
            checks: vec![
                Text("M2S(INCLUDE_PATH/inc_vendor.h)", s("{dir}/OpenCL/inc_vendor.h")),
                Text("HC_VENDOR_PROBE", s("inc_vendor.h was included")),
                Text("XM2S(KERNEL_STATIC)", s("KERNEL_STATIC")),
                Text("M2S(KERNEL_STATIC)", s("1")),
                Text("M2S(VECT_SIZE)", s("4")),
                Int("DGST_R1 * 1000 + FIXED_LOCAL_SIZE", 3256),
                Int("ATTACK_EXEC + ATTACK_KERN + HAS_SHFW", 14),
                Text("M2S(_unroll)", s("1")),
            ],
        },
        Case {
            from: "John the Ripper src/opencl_common.c (get_build_opts) + a format's -D list",
            options: s("-I \"{dir}/opencl\" -cl-mad-enable -cl-std=CL1.2 -D__POCL__ -D__CPU__ -DDEVICE_INFO=8194 \
                        -D__SIZEOF_HOST_SIZE_T__=8 -DDEV_VER_MAJOR=6 -DDEV_VER_MINOR=0 -D_OPENCL_COMPILER \
                        -DHASH_LOOPS=0x3e8 -DPLAINTEXT_LENGTH=125 -DV_WIDTH=4"),
            files: vec![("opencl/opencl_misc.h", "#define JTR_MISC_PROBE (HASH_LOOPS + 1)\n")],
            prelude: "#include \"opencl_misc.h\"\n",
            checks: vec![
                Text("CLIFT_STR(HASH_LOOPS)", s("0x3e8")),
                Int("JTR_MISC_PROBE", 1001),
                Int("DEVICE_INFO + __SIZEOF_HOST_SIZE_T__ + PLAINTEXT_LENGTH", 8327),
                Text("CLIFT_STR(_OPENCL_COMPILER)", s("1")),
                Text("CLIFT_STR(__POCL__)", s("1")),
                Int("__OPENCL_C_VERSION__", 120),
            ],
        },
        Case {
            from: "clBLAS src/library/blas/gens/asum.cpp and functor_fill.cc",
            options: s("-DDOUBLE_PRECISION -DCOMPLEX -DINCX_NONUNITY -DTYPE=float4 -cl-std=CL2.0"),
            files: vec![],
            prelude: "",
            checks: vec![
                Text("CLIFT_STR(TYPE)", s("float4")),
                Int("(long)sizeof(TYPE)", 16),
                Int("DOUBLE_PRECISION + COMPLEX + INCX_NONUNITY", 3),
                Int("__OPENCL_C_VERSION__", 200),
            ],
        },
        Case {
            from: "OpenCL C 6.10, the predefined macros (the conformance suite's kernel_preprocessor_macros)",
            options: s("-cl-std=CL2.0"),
            files: vec![],
            prelude: "#ifdef __IMAGE_SUPPORT__\n#define CLIFT_IMAGES 1\n#else\n#define CLIFT_IMAGES 0\n#endif\n",
            checks: vec![
                Int("__OPENCL_VERSION__", 220),
                // __IMAGE_SUPPORT__: "an integer constant of 1 if images
                // are supported and is undefined otherwise".
                Int("CLIFT_IMAGES", 1),
                Int("__IMAGE_SUPPORT__", 1),
                Int("__ENDIAN_LITTLE__", 1),
            ],
        },
        Case {
            from: "clBLAS src/library/blas/generic/common.c (setupBuildOpts, debug build, NVIDIA trsm)",
            options: s("-g -cl-opt-disable"),
            files: vec![],
            prelude: "",
            checks: vec![Int("__OPENCL_C_VERSION__", 120)],
        },
        Case {
            from: "CLBlast src/utilities/utilities.cpp (SetOpenCLKernelStandard)",
            options: s("-cl-std=CL1.1"),
            files: vec![],
            prelude: "",
            checks: vec![Int("__OPENCL_C_VERSION__", 110)],
        },
        Case {
            from: "pyopencl pyopencl/__init__.py (_DEFAULT_INCLUDE_OPTIONS, quoted path with a space)",
            options: s("-I \"{dir}/pyopencl/cl\""),
            files: vec![("pyopencl/cl/pyopencl-complex.h", "#define PYOPENCL_PROBE 42\n")],
            prelude: "#include <pyopencl-complex.h>\n",
            checks: vec![Int("PYOPENCL_PROBE", 42)],
        },
        Case {
            from: "pyopencl pyopencl/characterize/__init__.py (get_fast_inaccurate_build_options)",
            options: s("-cl-mad-enable -cl-fast-relaxed-math -cl-no-signed-zeros -cl-strict-aliasing"),
            files: vec![],
            prelude: "",
            checks: vec![Text("CLIFT_STR(__FAST_RELAXED_MATH__)", s("1"))],
        },
        Case {
            from: "pyopencl pyopencl/__init__.py (enable_debugging; Oclgrind's platform options)",
            options: s("-g -O0 -D PYOPENCL_USING_OCLGRIND"),
            files: vec![],
            prelude: "",
            checks: vec![Text("CLIFT_STR(PYOPENCL_USING_OCLGRIND)", s("1"))],
        },
        Case {
            from: "OpenCV modules/core/src/arithm.cpp (convertScaleAbs)",
            options: s("-D OP_CONVERT_SCALE_ABS -D UNARY_OP -D dstT=uchar4 -D srcT1=float4 -D workT=float4 -D wdepth=5 \
                        -D convertToWT1=convert_float4 -D convertToDT=convert_uchar4_sat_rte -D workT1=float \
                        -D rowsPerWI=1 -D DOUBLE_SUPPORT"),
            files: vec![],
            prelude: "",
            checks: vec![
                Text("CLIFT_STR(convertToDT)", s("convert_uchar4_sat_rte")),
                Int("convertToDT(convertToWT1((srcT1)(300.0f, -2.5f, 7.5f, 254.5f))).s0", 255),
                Int("convertToDT((workT)(300.0f, -2.5f, 7.5f, 254.5f)).s2", 8),
                Int("wdepth * rowsPerWI", 5),
            ],
        },
        Case {
            from: "OpenCV modules/imgproc/src/filter.cpp (sepFilter2D, kernelToStr)",
            options: s("-D BLK_X=16 -D BLK_Y=16 -D RADIUS=1 \
                        -D KERNEL_MATRIX_X=DIG(0.25000000f)DIG(0.50000000f)DIG(0.25000000f) \
                        -D KERNEL_MATRIX_Y=DIG(0.25000000f)DIG(0.50000000f)DIG(0.25000000f) -D convertToWT=convert_float4 \
                        -D convertToDT=convert_uchar4_sat_rte -D BORDER_REFLECT_101 -D srcT1=uchar -D dstT1=uchar -D WT1=float \
                        -D srcT=uchar4 -D dstT=uchar4 -D WT=float4 -D CN=4 "),
            files: vec![],
            prelude: "#define DIG(a) a,\nconstant float mx[] = { KERNEL_MATRIX_X };\n",
            checks: vec![
                Text("CLIFT_STR(KERNEL_MATRIX_X)", s("0.25000000f,0.50000000f,0.25000000f,")),
                Text("CLIFT_STR(convertToWT)", s("convert_float4")),
                Int("(long)(sizeof(mx) / sizeof(mx[0]))", 3),
                Int("(long)((mx[0] + mx[1] * 2 + mx[2]) * 100)", 150),
                Int("BLK_X * BLK_Y + RADIUS + CN", 261),
            ],
        },
        Case {
            from: "darktable src/common/opencl.c (dt_opencl_device_init, quoted kernel folder)",
            options: s("-w -cl-fast-relaxed-math -DINTEL=1 -I\"{dir}/darktable/kernels\""),
            files: vec![("darktable/kernels/common.h", "#define DT_COMMON_PROBE 7\n")],
            prelude: "#include \"common.h\"\n",
            checks: vec![Int("DT_COMMON_PROBE * 10 + INTEL", 71)],
        },
        Case {
            from: "darktable src/common/opencl.c (macOS: spaces escaped with backslashes)",
            options: s("-w -cl-fast-relaxed-math -DAPPLE=1 -I{dir_escaped}/darktable/kernels"),
            files: vec![("darktable/kernels/common.h", "#define DT_COMMON_PROBE 7\n")],
            prelude: "#include \"common.h\"\n",
            checks: vec![Int("DT_COMMON_PROBE * 10 + APPLE", 71)],
        },
        Case {
            from: "Blender Cycles intern/cycles/device/opencl (kernel_build_options, AMD and Intel CPU platforms)",
            options: s(" -cl-fast-relaxed-math -D__KERNEL_OPENCL_AMD__ -D__KERNEL_OPENCL_INTEL_CPU__ \
                       -D__COMPUTE_CAPABILITY__=750 -D__KERNEL_OPENCL_DEBUG__ "),
            files: vec![],
            prelude: "",
            checks: vec![Int("__COMPUTE_CAPABILITY__ + __KERNEL_OPENCL_AMD__", 751)],
        },
        Case {
            from: "clang spellings: quotes, escapes, function-like macros with # and ##, -U, repeated names",
            options: s(r#"-D 'GREETING="hello, world"' -DPATH="\"a\\\\b\"" -D "CAT(a,b)=a ## b" -D 'STR(...)=#__VA_ARGS__' -D TWICE(x)=((x)+(x)) -D X=1 -D X=2 -U GONE -D GONE -U GONE -DEMPTY= -D SPACED='1 + 2'"#),
            files: vec![],
            prelude: "constant int CAT(ab, cd) = 5;\n",
            checks: vec![
                Text("GREETING", s("hello, world")),
                Text("PATH", s("a\\b")),
                Text("STR(x, y)", s("x, y")),
                Int("TWICE(21) + X * 100", 242),
                Int("abcd", 5),
                Text("CLIFT_STR(EMPTY)", s("")),
                Text("CLIFT_STR(SPACED)", s("1 + 2")),
                Int("(long)(SPACED)", 3),
                Text("STR(GONE)", s("GONE")),
            ],
        },
        Case {
            from: "clang spellings: -O levels, warnings, lowercase -cl-std, clift's own option",
            options: s("-O3 -Wall -Wno-unused-variable -cl-std=cl2.0 -cl-kernel-arg-info -cl-clift-max-lanes=1 -D N=3"),
            files: vec![],
            prelude: "",
            checks: vec![Int("__OPENCL_C_VERSION__ + N", 203)],
        },
    ]
}

/// A fresh folder for the test whose name holds a space.
fn case_dir(i: usize) -> PathBuf {
    let d = std::env::temp_dir()
        .join(format!("clift-options-{}", std::process::id()))
        .join(format!("case {i}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create a temporary folder");
    d
}

fn fill(text: &str, dir: &Path) -> String {
    let d = dir.to_str().expect("a UTF-8 temporary folder");
    text.replace("{dir_escaped}", &d.replace(' ', "\\ "))
        .replace("{dir}", d)
}

/// The probe kernel of a case: its texts, NUL-separated, into `out`, its
/// integers into `ints`.
fn probe_source(c: &Case) -> String {
    let mut src =
        String::from("#define CLIFT_STR_(...) #__VA_ARGS__\n#define CLIFT_STR(...) CLIFT_STR_(__VA_ARGS__)\n");
    src.push_str(c.prelude);
    src.push_str("constant char texts[] = \"\"");
    for ch in &c.checks {
        if let Text(e, _) = ch {
            src.push_str(&format!(" {e} \"\\0\""));
        }
    }
    src.push_str(";\nkernel void probe(global char *out, global long *ints) {\n");
    src.push_str("  for (int i = 0; i < (int)sizeof(texts); i++) out[i] = texts[i];\n");
    for (i, e) in c
        .checks
        .iter()
        .filter_map(|ch| if let Int(e, _) = ch { Some(e) } else { None })
        .enumerate()
    {
        src.push_str(&format!("  ints[{i}] = (long)({e});\n"));
    }
    src.push_str("}\n");
    src
}

/// Runs `probe` of the built program `p` and checks its output against
/// the case.
fn check_probe(ctx: cl_context, p: cl_program, c: &Case, dir: &Path, how: &str) {
    let want_text: Vec<u8> = c
        .checks
        .iter()
        .filter_map(|ch| if let Text(_, v) = ch { Some(fill(v, dir)) } else { None })
        .flat_map(|v| v.into_bytes().into_iter().chain([0]))
        .chain([0])
        .collect();
    let want_ints: Vec<i64> = c
        .checks
        .iter()
        .filter_map(|ch| if let Int(_, v) = ch { Some(*v) } else { None })
        .collect();
    let q = queue(ctx, 0);
    let k = kernel(p, "probe");
    let text_len = want_text.len() + 64;
    let out = buffer(ctx, CL_MEM_READ_WRITE, text_len);
    let ints = buffer(ctx, CL_MEM_READ_WRITE, 8 * want_ints.len().max(1));
    write_bytes(q, out, 0, &vec![0xEE; text_len]);
    check(set_arg(k, 0, &out));
    check(set_arg(k, 1, &ints));
    let one = [1usize];
    // SAFETY: valid handles; one dimension.
    check(unsafe {
        clEnqueueNDRangeKernel(
            q,
            k,
            1,
            ptr::null(),
            one.as_ptr(),
            ptr::null(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    });
    let got_text = read_bytes(q, out, 0, want_text.len());
    let got_ints: Vec<i64> = read_bytes(q, ints, 0, 8 * want_ints.len())
        .chunks_exact(8)
        .map(|b| i64::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(
        String::from_utf8_lossy(&got_text),
        String::from_utf8_lossy(&want_text),
        "{} ({how}): stringified macros",
        c.from
    );
    assert_eq!(got_ints, want_ints, "{} ({how}): macro values", c.from);
    release_mem(out);
    release_mem(ints);
    // SAFETY: handles this function created, released once.
    unsafe {
        check(clReleaseKernel(k));
        check(clReleaseCommandQueue(q));
    }
}

fn build_options_of(p: cl_program) -> String {
    // SAFETY: the two-call string protocol on a valid program and device.
    info_string(|n, v, r| unsafe { clGetProgramBuildInfo(p, device(), CL_PROGRAM_BUILD_OPTIONS, n, v, r) })
}

#[test]
fn real_option_strings_define_what_they_say_through_every_call() {
    let ctx = context();
    for (i, c) in cases().iter().enumerate() {
        let dir = case_dir(i);
        for (name, text) in &c.files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let options = fill(&c.options, &dir);
        let src = probe_source(c);
        // clBuildProgram.
        let p = source_program(ctx, &src);
        let rc = build(p, &options);
        let log = build_log(p, device());
        assert_eq!(rc, CL_SUCCESS, "{}: {options:?}\n{src}\n{log}", c.from);
        assert_eq!(build_options_of(p), options, "{}", c.from);
        check_probe(ctx, p, c, &dir, "clBuildProgram");
        release_program(p);
        // clCompileProgram, then clLinkProgram with no options.
        let obj = source_program(ctx, &src);
        let rc = compile(obj, Some(&options), &[]);
        assert_eq!(rc, CL_SUCCESS, "{} compile:\n{}", c.from, build_log(obj, device()));
        assert_eq!(build_options_of(obj), options, "{}", c.from);
        let (exe, rc) = link(ctx, &[obj], "");
        assert_eq!(rc, CL_SUCCESS, "{} link:\n{}", c.from, build_log(exe, device()));
        check_probe(ctx, exe, c, &dir, "clCompileProgram + clLinkProgram");
        release_program(exe);
        release_program(obj);
        // An IL program takes the same options and ignores what is for
        // OpenCL C ("ignored for programs created with IL").
        let il = il_program(ctx, &spirv("args"));
        assert_eq!(
            build(il, &options),
            CL_SUCCESS,
            "{} on IL:\n{}",
            c.from,
            build_log(il, device())
        );
        assert_eq!(build_options_of(il), options);
        assert_eq!(compile(il, Some(&options), &[]), CL_SUCCESS, "{} compiling IL", c.from);
        release_program(il);
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _ = std::fs::remove_dir_all(std::env::temp_dir().join(format!("clift-options-{}", std::process::id())));
    release_context(ctx);
}

#[test]
fn link_options_of_the_spec_and_clifts_own() {
    let ctx = context();
    let obj = source_program(
        ctx,
        "kernel void k(global int *o) { o[get_global_id(0)] = 3 * (int)get_global_id(0); }",
    );
    check(compile(obj, Some("-cl-clift-max-lanes=4"), &[]));
    for options in [
        "",
        "-cl-denorms-are-zero -cl-no-signed-zeros -cl-unsafe-math-optimizations -cl-finite-math-only",
        "-cl-fast-relaxed-math -cl-no-subgroup-ifp",
        "-cl-clift-max-lanes=1",
        "  '-cl-clift-max-lanes=2'  ",
    ] {
        let (exe, rc) = link(ctx, &[obj], options);
        assert_eq!(rc, CL_SUCCESS, "{options:?}: {}", build_log(exe, device()));
        assert_eq!(build_options_of(exe), options);
        assert_eq!(run_ints(ctx, exe, "k", 5), [0, 3, 6, 9, 12], "{options:?}");
        release_program(exe);
    }
    let (lib, rc) = link(ctx, &[obj], "-create-library -enable-link-options -cl-finite-math-only");
    check(rc);
    let (exe, rc) = link(ctx, &[lib], "-cl-fast-relaxed-math");
    check(rc);
    assert_eq!(run_ints(ctx, exe, "k", 2), [0, 3]);
    release_program(exe);
    release_program(lib);
    release_program(obj);
    release_context(ctx);
}

/// Messages the context's notify callback received.
static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());

extern "C" fn note(errinfo: *const c_char, _private: *const c_void, _cb: usize, _user: *mut c_void) {
    // SAFETY: clift passes a NUL-terminated string valid for the call.
    let text = unsafe { CStr::from_ptr(errinfo) }.to_string_lossy().into_owned();
    NOTES.lock().unwrap().push(text);
}

/// A context whose notify callback records into [`NOTES`].
fn noting_context() -> cl_context {
    let d = device();
    let mut err = 0;
    // SAFETY: one valid device; the callback is a plain function.
    let ctx = unsafe { clCreateContext(ptr::null(), 1, &d, Some(note), ptr::null_mut(), &mut err) };
    check(err);
    ctx
}

/// Whether the callback received a message naming `option` for `call`.
fn noted(call: &str, option: &str) -> bool {
    NOTES
        .lock()
        .unwrap()
        .iter()
        .any(|m| m.starts_with(call) && m.contains(&format!("{option:?}")))
}

#[test]
fn refused_options_are_named_for_each_call() {
    let ctx = noting_context();
    let src = "kernel void k(global int *o) { o[0] = 1; }";
    // Options of other platforms (Blender Cycles for NVIDIA and the Intel
    // CPU debugger), malformed -D and quotes: each refused, its option
    // named in the build log, the status an error.
    let refused = [
        (
            "-cl-fast-relaxed-math -D__KERNEL_OPENCL_NVIDIA__ -cl-nv-maxrregcount=32 -cl-nv-verbose",
            "-cl-nv-maxrregcount=32",
        ),
        ("-D__KERNEL_OPENCL_INTEL_CPU__ -g -s \"/tmp/kernel.cl\"", "-s"),
        ("-D 'A B=1'", "-D A B=1"),
        ("-D 'F(x=1'", "-D F(x=1"),
        ("-D", "-D"),
        ("-I \"/unterminated", "\"/unterminated"),
        ("-x spir -spir-std=1.2", "-x"),
        ("-cl-std=CLC++", "-cl-std=CLC++"),
        ("-create-library", "-create-library"),
        ("-cl-clift-max-lanes=3", "-cl-clift-max-lanes=3"),
        ("-Wl,--export-all", "-Wl,--export-all"),
    ];
    for (options, named) in refused {
        for (call, code) in [
            ("clBuildProgram", CL_INVALID_BUILD_OPTIONS),
            ("clCompileProgram", CL_INVALID_COMPILER_OPTIONS),
        ] {
            for il in [false, true] {
                let p = if il {
                    il_program(ctx, &spirv("args"))
                } else {
                    source_program(ctx, src)
                };
                let rc = if call == "clBuildProgram" {
                    build(p, options)
                } else {
                    compile(p, Some(options), &[])
                };
                assert_eq!(rc, code, "{call} {options:?} (IL: {il})");
                assert_eq!(build_status(p), CL_BUILD_ERROR, "{call} {options:?}");
                let log = build_log(p, device());
                assert!(
                    log.starts_with(call) && log.contains(&format!("invalid option {named:?}")),
                    "{call} {options:?}: the log names {named:?}:\n{log}"
                );
                assert_eq!(build_options_of(p), options);
                assert!(noted(call, named), "{call} {options:?}: notify callback");
                // The next build with good options succeeds.
                let rc = if call == "clBuildProgram" {
                    build(p, "-D OK=1")
                } else {
                    compile(p, Some("-D OK=1"), &[])
                };
                assert_eq!(rc, CL_SUCCESS, "{call} after {options:?}");
                assert_eq!(build_log(p, device()), "");
                release_program(p);
            }
        }
    }
    // clLinkProgram returns no program: the line goes to the notify
    // callback only.
    let obj = source_program(ctx, src);
    check(compile(obj, None, &[]));
    for (options, named) in [
        ("-D X", "-D"),
        ("-cl-mad-enable", "-cl-mad-enable"),
        ("-enable-link-options", "-enable-link-options"),
        ("-create-library -I /tmp", "-I"),
        ("'-create-library", "'-create-library"),
        ("-cl-clift-max-lanes=0", "-cl-clift-max-lanes=0"),
    ] {
        let (p, rc) = link(ctx, &[obj], options);
        assert_eq!(rc, CL_INVALID_LINKER_OPTIONS, "{options:?}");
        assert!(p.is_null());
        assert!(
            noted("clLinkProgram", named),
            "{options:?}: {:?}",
            NOTES.lock().unwrap()
        );
    }
    release_program(obj);
    release_context(ctx);
}

#[test]
fn options_missing_their_argument_at_the_end_or_before_another_option() {
    let ctx = context();
    let p = source_program(ctx, "kernel void k(global int *o) { o[0] = X; }");
    // `-D -w` would define a macro named -w: refused, not split differently.
    for bad in ["-D -w", "-I", "-D X=1 -U"] {
        assert_eq!(build(p, bad), CL_INVALID_BUILD_OPTIONS, "{bad:?}");
    }
    // A definition holding a newline stops there, as the spec says.
    check(build(p, "-D 'X=4\n+ 1000'"));
    assert_eq!(run_ints(ctx, p, "k", 1), [4]);
    release_program(p);
    release_context(ctx);
}
