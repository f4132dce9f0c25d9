//! API spec 5.8 and 5.9 over a corpus of SPIR-V modules, through the ICD
//! loader: clCreateProgramWithIL, clBuildProgram, clGetProgramBuildInfo and
//! clCreateKernelsInProgram on
//!
//! - `corpus/spv/O0` and `O2`: the OpenCL C kernels of `corpus/cl`, compiled by
//!   clang-15 + llvm-spirv-15 (`corpus/regen.sh`); each builds and has exactly
//!   the kernels its source declares;
//! - clbench's modules (`shared/clbench/spv/O0`, `O2`, beside the checkout);
//! - `corpus/invalid/*.spv`: one broken module per validation rule; each fails
//!   to build with a log line naming the rule (`; expect:`) and, where the
//!   file gives it, the offending instruction's word offset (`; expect-word:`);
//! - `corpus/invalid/header/*.bin`: buffers that are not SPIR-V modules clift
//!   takes, refused by clCreateProgramWithIL with CL_INVALID_VALUE;
//! - `corpus/tricky`: valid modules that are easy to refuse by mistake
//!   (big-endian, SPIR-V 1.1 and 1.2, blocks out of dominance order).
//!
//! Each test checks every module and reports all failures at once.
//! `CLIFT_CORPUS_LOGS=1` prints the build log of every invalid module.

use std::collections::BTreeSet;
use std::ffi::{c_char, CString};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::ptr;

use clift_conformance::*;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// `shared/` sits beside the repository's checkout (`../shared` from its root).
/// The files of `dir` whose names end with `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(ext)))
        .collect();
    v.sort();
    v
}

fn file_stem(p: &Path) -> String {
    p.file_stem()
        .and_then(|s| s.to_str())
        .expect("UTF-8 file name")
        .to_string()
}

/// `dir/name` relative to the corpus (or shared) folder, for messages.
fn short(p: &Path) -> String {
    let parts: Vec<_> = p.iter().rev().take(2).collect();
    format!("{}/{}", parts[1].to_string_lossy(), parts[0].to_string_lossy())
}

/// Panics with every collected failure, one per line.
#[track_caller]
fn assert_none(what: &str, total: usize, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} of {total} {what} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The names of the kernels an OpenCL C source declares: the identifier after
/// `void` following each `kernel` / `__kernel` (attributes may sit between).
fn kernel_names_in_source(src: &str) -> BTreeSet<String> {
    // Strip comments.
    let mut code = String::with_capacity(src.len());
    let mut rest = src;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
            code.push(' ');
        } else if let Some(r) = rest.strip_prefix('"') {
            // Skip string literals (they may hold "kernel").
            let end = r.find('"').map_or(r.len(), |i| i + 1);
            rest = &r[end..];
            code.push_str("\"\"");
        } else {
            let c = rest.chars().next().expect("non-empty");
            code.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    let tokens: Vec<&str> = code
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .collect();
    let mut names = BTreeSet::new();
    for (i, t) in tokens.iter().enumerate() {
        if *t == "kernel" || *t == "__kernel" {
            if let Some(v) = tokens[i + 1..].iter().position(|t| *t == "void") {
                if let Some(name) = tokens.get(i + 1 + v + 1) {
                    names.insert(name.to_string());
                }
            }
        }
    }
    names
}

/// The `; key: value` header lines of a hand-written module.
fn header_value(spvasm: &str, key: &str) -> Option<String> {
    spvasm.lines().find_map(|l| {
        let l = l.trim_start().strip_prefix(';')?.trim_start();
        let v = l.strip_prefix(key)?.strip_prefix(':')?;
        Some(v.trim().to_string())
    })
}

/// A program of clift's device, released on drop.
struct Program(cl_program);

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: the handle came from a successful clCreateProgramWithIL and is released once.
        unsafe { clReleaseProgram(self.0) };
    }
}

/// clCreateProgramWithIL over `il`.
fn create_with_il(ctx: cl_context, il: &[u8]) -> Result<Program, cl_int> {
    let mut err = 1;
    // A non-NULL pointer even for an empty buffer: length 0 is what is tested then.
    let dummy = [0u8; 4];
    let p = if il.is_empty() { dummy.as_ptr() } else { il.as_ptr() };
    // SAFETY: `p` is readable for `il.len()` bytes during the call.
    let prog = unsafe { clCreateProgramWithIL(ctx, p.cast(), il.len(), &mut err) };
    if err == CL_SUCCESS && !prog.is_null() {
        Ok(Program(prog))
    } else {
        if !prog.is_null() {
            // SAFETY: a handle returned despite an error is still released once.
            unsafe { clReleaseProgram(prog) };
            return Err(if err == CL_SUCCESS { -9999 } else { err });
        }
        Err(err)
    }
}

/// clBuildProgram for clift's device with no options.
fn build_on_device(p: &Program) -> cl_int {
    let d = device();
    // SAFETY: one valid device; NULL options; no callback (a blocking build).
    unsafe { clBuildProgram(p.0, 1, &d, ptr::null(), None, ptr::null_mut()) }
}

fn log_of(p: &Program) -> String {
    let d = device();
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    match info_bytes(|s, v, r| unsafe { clGetProgramBuildInfo(p.0, d, CL_PROGRAM_BUILD_LOG, s, v, r) }) {
        Ok(b) => String::from_utf8_lossy(b.strip_suffix(&[0]).unwrap_or(&b)).into_owned(),
        Err(e) => format!(
            "(clGetProgramBuildInfo(CL_PROGRAM_BUILD_LOG) failed: {})",
            error_name(e)
        ),
    }
}

fn status_of(p: &Program) -> Result<cl_build_status, cl_int> {
    let d = device();
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    let b = info_bytes(|s, v, r| unsafe { clGetProgramBuildInfo(p.0, d, CL_PROGRAM_BUILD_STATUS, s, v, r) })?;
    if b.len() != std::mem::size_of::<cl_build_status>() {
        return Err(-9999);
    }
    Ok(cl_build_status::from_ne_bytes(b.try_into().expect("4 bytes")))
}

/// The first lines of a build log, for a failure message.
fn log_excerpt(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    let mut s = lines
        .iter()
        .take(6)
        .map(|l| format!("\n      | {l}"))
        .collect::<String>();
    if lines.len() > 6 {
        let _ = write!(s, "\n      | ... ({} more lines)", lines.len() - 6);
    }
    if lines.is_empty() {
        s.push_str(" (empty log)");
    }
    s
}

/// The kernels of a built program by clCreateKernelsInProgram, with
/// CL_PROGRAM_NUM_KERNELS, CL_PROGRAM_KERNEL_NAMES and clCreateKernel agreeing.
fn kernels_of(p: &Program) -> Result<BTreeSet<String>, String> {
    let mut n = 0;
    // SAFETY: NULL kernels with 0 entries asks for the count.
    let rc = unsafe { clCreateKernelsInProgram(p.0, 0, ptr::null_mut(), &mut n) };
    if rc != CL_SUCCESS {
        return Err(format!("clCreateKernelsInProgram (count): {}", error_name(rc)));
    }
    let mut ks = vec![ptr::null_mut(); n as usize];
    // SAFETY: `ks` has room for `n` kernels.
    let rc = unsafe { clCreateKernelsInProgram(p.0, n, ks.as_mut_ptr(), ptr::null_mut()) };
    if rc != CL_SUCCESS {
        return Err(format!("clCreateKernelsInProgram: {}", error_name(rc)));
    }
    let mut names = BTreeSet::new();
    let mut problems = Vec::new();
    for &k in &ks {
        // SAFETY: forwards the buffer protocol of `info_bytes`.
        match info_bytes(|s, v, r| unsafe { clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, s, v, r) }) {
            Ok(b) => {
                names.insert(String::from_utf8_lossy(b.strip_suffix(&[0]).unwrap_or(&b)).into_owned());
            }
            Err(e) => problems.push(format!("clGetKernelInfo(CL_KERNEL_FUNCTION_NAME): {}", error_name(e))),
        }
        // SAFETY: a kernel created above, released once.
        unsafe { clReleaseKernel(k) };
    }
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    match info_bytes(|s, v, r| unsafe { clGetProgramInfo(p.0, CL_PROGRAM_NUM_KERNELS, s, v, r) }) {
        Ok(b) if b.len() == 8 => {
            let count = usize::from_ne_bytes(b.try_into().expect("8 bytes"));
            if count != n as usize {
                problems.push(format!("CL_PROGRAM_NUM_KERNELS {count}, clCreateKernelsInProgram {n}"));
            }
        }
        Ok(b) => problems.push(format!("CL_PROGRAM_NUM_KERNELS has {} bytes", b.len())),
        Err(e) => problems.push(format!("CL_PROGRAM_NUM_KERNELS: {}", error_name(e))),
    }
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    match info_bytes(|s, v, r| unsafe { clGetProgramInfo(p.0, CL_PROGRAM_KERNEL_NAMES, s, v, r) }) {
        Ok(b) => {
            let listed = String::from_utf8_lossy(b.strip_suffix(&[0]).unwrap_or(&b)).into_owned();
            let listed: BTreeSet<String> = listed.split(';').filter(|s| !s.is_empty()).map(String::from).collect();
            if listed != names {
                problems.push(format!(
                    "CL_PROGRAM_KERNEL_NAMES {listed:?} but the kernels are {names:?}"
                ));
            }
        }
        Err(e) => problems.push(format!("CL_PROGRAM_KERNEL_NAMES: {}", error_name(e))),
    }
    for name in &names {
        let c = CString::new(name.as_str()).expect("no NUL in a kernel name");
        let mut err = 1;
        // SAFETY: a NUL-terminated name; valid program.
        let k = unsafe { clCreateKernel(p.0, c.as_ptr() as *const c_char, &mut err) };
        if err != CL_SUCCESS || k.is_null() {
            problems.push(format!("clCreateKernel({name}): {}", error_name(err)));
        } else {
            // SAFETY: created above, released once.
            unsafe { clReleaseKernel(k) };
        }
    }
    if problems.is_empty() {
        Ok(names)
    } else {
        Err(problems.join("; "))
    }
}

/// Creates and builds `il`; checks the build status and, when `expected` is
/// given, the kernel names. `Err` describes what went wrong.
fn check_builds(ctx: cl_context, il: &[u8], expected: Option<&BTreeSet<String>>) -> Result<(), String> {
    let p = create_with_il(ctx, il).map_err(|e| format!("clCreateProgramWithIL: {}", error_name(e)))?;
    let rc = build_on_device(&p);
    if rc != CL_SUCCESS {
        return Err(format!(
            "clBuildProgram: {}{}",
            error_name(rc),
            log_excerpt(&log_of(&p))
        ));
    }
    match status_of(&p) {
        Ok(CL_BUILD_SUCCESS) => {}
        Ok(s) => return Err(format!("CL_PROGRAM_BUILD_STATUS {s} after a successful build")),
        Err(e) => return Err(format!("CL_PROGRAM_BUILD_STATUS: {}", error_name(e))),
    }
    let names = kernels_of(&p)?;
    if names.is_empty() {
        return Err("no kernels".into());
    }
    if let Some(want) = expected {
        if &names != want {
            let missing: Vec<_> = want.difference(&names).collect();
            let extra: Vec<_> = names.difference(want).collect();
            return Err(format!(
                "kernels differ from the source: missing {missing:?}, unexpected {extra:?}"
            ));
        }
    }
    Ok(())
}

/// Every corpus module at one optimisation level builds, with its source's kernels.
fn corpus_level_builds(level: &str) {
    let dir = corpus_dir().join("spv").join(level);
    let modules = files(&dir, ".spv");
    let sources = files(&corpus_dir().join("cl"), ".cl");
    assert_eq!(
        modules.len(),
        sources.len(),
        "one module in spv/{level} per cl/*.cl (run corpus/regen.sh)"
    );
    let ctx = context();
    let mut failures = Vec::new();
    for m in &modules {
        let name = file_stem(m);
        let src = std::fs::read_to_string(corpus_dir().join("cl").join(format!("{name}.cl")))
            .unwrap_or_else(|e| panic!("cl/{name}.cl: {e}"));
        let want = kernel_names_in_source(&src);
        assert!(!want.is_empty(), "cl/{name}.cl declares no kernel");
        let il = std::fs::read(m).expect("read module");
        if let Err(e) = check_builds(ctx, &il, Some(&want)) {
            failures.push(format!("  {level}/{name}.spv: {e}"));
        }
    }
    // SAFETY: valid context, released once.
    check(unsafe { clReleaseContext(ctx) });
    assert_none(&format!("corpus modules at {level}"), modules.len(), &failures);
}

#[test]
fn corpus_o0_modules_build() {
    corpus_level_builds("O0");
}

#[test]
fn corpus_o2_modules_build() {
    corpus_level_builds("O2");
}

#[test]
fn clbench_modules_build() {
    let root = shared_dir().join("clbench").join("spv");
    assert!(
        root.is_dir(),
        "{} is missing: shared/ must sit beside the checkout",
        root.display()
    );
    let ctx = context();
    let mut failures = Vec::new();
    let mut total = 0;
    for level in ["O0", "O2"] {
        for m in files(&root.join(level), ".spv") {
            total += 1;
            let il = std::fs::read(&m).expect("read module");
            if let Err(e) = check_builds(ctx, &il, None) {
                failures.push(format!("  clbench {}: {e}", short(&m)));
            }
        }
    }
    // SAFETY: valid context, released once.
    check(unsafe { clReleaseContext(ctx) });
    assert!(total >= 20, "clbench has its O0 and O2 modules ({total} found)");
    assert_none("clbench modules", total, &failures);
}

#[test]
fn invalid_modules_fail_to_build_naming_their_rule() {
    let dir = corpus_dir().join("invalid");
    let sources = files(&dir, ".spvasm");
    assert!(
        sources.len() >= 30,
        "invalid/ holds its modules ({} found)",
        sources.len()
    );
    let ctx = context();
    let mut failures = Vec::new();
    for s in &sources {
        let name = file_stem(s);
        let text = std::fs::read_to_string(s).expect("read .spvasm");
        let rule = header_value(&text, "rule").unwrap_or_else(|| panic!("invalid/{name}.spvasm has no `; rule:`"));
        let expect =
            header_value(&text, "expect").unwrap_or_else(|| panic!("invalid/{name}.spvasm has no `; expect:`"));
        let word: Option<usize> = header_value(&text, "expect-word").map(|w| w.parse().expect("expect-word number"));
        let il = std::fs::read(dir.join(format!("{name}.spv")))
            .unwrap_or_else(|e| panic!("invalid/{name}.spv: {e} (run corpus/regen.sh)"));
        let fail = |what: String| format!("  invalid/{name}.spv ({rule}): {what}");
        let p = match create_with_il(ctx, &il) {
            Ok(p) => p,
            Err(e) => {
                failures.push(fail(format!(
                    "clCreateProgramWithIL: {} (the header is valid)",
                    error_name(e)
                )));
                continue;
            }
        };
        let rc = build_on_device(&p);
        if rc != CL_BUILD_PROGRAM_FAILURE {
            failures.push(fail(format!(
                "clBuildProgram returned {}, expected CL_BUILD_PROGRAM_FAILURE",
                error_name(rc)
            )));
            continue;
        }
        match status_of(&p) {
            Ok(CL_BUILD_ERROR) => {}
            Ok(st) => failures.push(fail(format!("CL_PROGRAM_BUILD_STATUS {st}, expected CL_BUILD_ERROR"))),
            Err(e) => failures.push(fail(format!("CL_PROGRAM_BUILD_STATUS: {}", error_name(e)))),
        }
        let log = log_of(&p);
        if env::flag("CLIFT_CORPUS_LOGS", false) {
            eprintln!("invalid/{name}.spv:\n{log}");
        }
        let found = match word {
            Some(w) => {
                let prefix = format!("word {w}:");
                log.lines().any(|l| l.starts_with(&prefix) && l.contains(&expect))
            }
            None => log.lines().any(|l| l.contains(&expect)),
        };
        if !found {
            let at = word
                .map(|w| format!(" on a line starting `word {w}:`"))
                .unwrap_or_default();
            failures.push(fail(format!(
                "no log line contains `{expect}`{at}; log:{}",
                log_excerpt(&log)
            )));
        }
    }
    // SAFETY: valid context, released once.
    check(unsafe { clReleaseContext(ctx) });
    assert_none("invalid modules", sources.len(), &failures);
}

#[test]
fn header_invalid_buffers_are_refused_by_create_program_with_il() {
    let bins = files(&corpus_dir().join("invalid").join("header"), ".bin");
    assert!(
        bins.len() >= 8,
        "invalid/header holds its buffers ({} found)",
        bins.len()
    );
    let ctx = context();
    let mut failures = Vec::new();
    for b in &bins {
        let il = std::fs::read(b).expect("read buffer");
        match create_with_il(ctx, &il) {
            Ok(_) => failures.push(format!("  {}: accepted", short(b))),
            Err(CL_INVALID_VALUE) => {}
            Err(e) => failures.push(format!("  {}: {}, expected CL_INVALID_VALUE", short(b), error_name(e))),
        }
    }
    // SAFETY: valid context, released once.
    check(unsafe { clReleaseContext(ctx) });
    assert_none("header-invalid buffers", bins.len(), &failures);
}

/// The kernels a tricky module must have: from its `.spvasm`'s `; kernels:`
/// line, or, for `<variant>.O<n>.<name>.spv` copies of corpus modules, from
/// `cl/<name>.cl`.
fn tricky_kernels(m: &Path) -> BTreeSet<String> {
    let asm = m.with_extension("spvasm");
    if asm.exists() {
        let text = std::fs::read_to_string(&asm).expect("read .spvasm");
        let k = header_value(&text, "kernels").unwrap_or_else(|| panic!("{} has no `; kernels:`", short(&asm)));
        return k.split_whitespace().map(String::from).collect();
    }
    let stem = file_stem(m);
    let name = stem.rsplit('.').next().expect("<variant>.O<n>.<name>");
    let src = std::fs::read_to_string(corpus_dir().join("cl").join(format!("{name}.cl")))
        .unwrap_or_else(|e| panic!("cl/{name}.cl for {}: {e}", short(m)));
    kernel_names_in_source(&src)
}

#[test]
fn tricky_valid_modules_build() {
    let modules = files(&corpus_dir().join("tricky"), ".spv");
    assert!(
        modules.len() >= 10,
        "tricky/ holds its modules ({} found)",
        modules.len()
    );
    let ctx = context();
    let mut failures = Vec::new();
    for m in &modules {
        let want = tricky_kernels(m);
        let il = std::fs::read(m).expect("read module");
        if let Err(e) = check_builds(ctx, &il, Some(&want)) {
            failures.push(format!("  {}: {e}", short(m)));
        }
    }
    // SAFETY: valid context, released once.
    check(unsafe { clReleaseContext(ctx) });
    assert_none("tricky valid modules", modules.len(), &failures);
}

/// The corpus is complete without the tools: every source has its modules and
/// disassembly, every hand-written module its binary and header lines.
#[test]
fn corpus_files_are_generated_and_annotated() {
    let c = corpus_dir();
    let mut failures = Vec::new();
    let sources = files(&c.join("cl"), ".cl");
    if !(25..=60).contains(&sources.len()) {
        failures.push(format!("  cl/ holds {} sources", sources.len()));
    }
    for s in &sources {
        let name = file_stem(s);
        for level in ["O0", "O2"] {
            for ext in ["spv", "spvasm"] {
                let f = c.join("spv").join(level).join(format!("{name}.{ext}"));
                if !f.exists() {
                    failures.push(format!("  missing spv/{level}/{name}.{ext}"));
                }
            }
        }
        let text = std::fs::read_to_string(s).expect("read source");
        if kernel_names_in_source(&text).is_empty() {
            failures.push(format!("  cl/{name}.cl: no kernels found"));
        }
    }
    for dir in ["invalid", "tricky"] {
        for s in files(&c.join(dir), ".spvasm") {
            if !s.with_extension("spv").exists() {
                failures.push(format!("  missing {}", short(&s.with_extension("spv"))));
            }
            let text = std::fs::read_to_string(&s).expect("read .spvasm");
            let keys: &[&str] = if dir == "invalid" {
                &["rule", "expect"]
            } else {
                &["kernels"]
            };
            for key in keys {
                if header_value(&text, key).is_none() {
                    failures.push(format!("  {}: no `; {key}:` line", short(&s)));
                }
            }
        }
    }
    for m in files(&c.join("spv").join("O0"), ".spv")
        .iter()
        .chain(files(&c.join("invalid"), ".spv").iter())
    {
        let b = std::fs::read(m).expect("read module");
        if b.len() < 20 || b.len() % 4 != 0 || b[..4] != 0x0723_0203u32.to_le_bytes() {
            failures.push(format!("  {}: not a little-endian SPIR-V module", short(m)));
        }
    }
    assert_none("corpus file checks", sources.len(), &failures);
}

#[test]
fn kernel_name_scanner() {
    let src = "// kernel void commented(void) {}\n/* __kernel void also(void) */\n\
               constant char s[] = \"kernel void str(\";\n\
               kernel __attribute__((reqd_work_group_size(1, 1, 1))) void a(global int *p) {}\n\
               __kernel void b(void) {}\nvoid helper_kernel(void) {}\n\
               kernel\nvoid\nc(int x) {}\n";
    let names: Vec<String> = kernel_names_in_source(src).into_iter().collect();
    assert_eq!(names, ["a", "b", "c"]);
}
