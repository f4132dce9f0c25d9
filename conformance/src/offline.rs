//! OpenCL C compiled to SPIR-V outside clift, as the Khronos CTS's SPIR-V
//! mode does: `clang-15 -target spir64` and `llvm-spirv-15`, then the module
//! checked by `spirv-val --target-env opencl2.2` (SPIR-V's universal
//! limits, such as 255 function parameters, included). The tools are
//! required (`.ci/run` installs them): a missing one fails the test.
//! [`spirv_1_3_of`] makes SPIR-V 1.3 modules instead, the version
//! llvm-spirv-15 needs for the non-uniform sub-group instructions; `spirv-val`
//! refuses 1.3 modules in the OpenCL 2.2 environment, so they are checked
//! against SPIR-V 1.3's universal rules (`--target-env spv1.3`).

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// A private scratch folder, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "clift-offline-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `tool` with `args`; panics with its output unless it succeeds.
fn run(tool: &str, args: &[&str]) -> String {
    let out = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {tool} (install it: see .ci/run): {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{tool} {args:?} failed:\n{text}");
    text
}

/// `spirv-val --target-env opencl2.2` on `module`: `Err` holds its report.
pub fn validate(module: &[u8]) -> Result<(), String> {
    validate_in(module, "opencl2.2")
}

/// `spirv-val --target-env <env>` on `module`: `Err` holds its report.
fn validate_in(module: &[u8], env: &str) -> Result<(), String> {
    let dir = Scratch::new();
    let path = dir.0.join("module.spv");
    std::fs::write(&path, module).expect("write the module");
    let out = Command::new("spirv-val")
        .args(["--target-env", env])
        .arg(&path)
        .output()
        .unwrap_or_else(|e| panic!("cannot run spirv-val (install spirv-tools: see .ci/run): {e}"));
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// `source` compiled at -O2 with the clang `options` (e.g. `-cl-std=CL2.0`)
/// to a SPIR-V 1.0 module that `spirv-val` accepts (panics otherwise).
pub fn spirv_of(source: &str, options: &[&str]) -> Vec<u8> {
    compile(source, options, "1.0", "opencl2.2")
}

/// [`spirv_of`] at SPIR-V 1.3, where llvm-spirv-15 translates the
/// non-uniform sub-group built-ins (cl_khr_subgroup_ballot and the others;
/// at 1.0 it aborts on them), checked by `spirv-val --target-env spv1.3`.
pub fn spirv_1_3_of(source: &str, options: &[&str]) -> Vec<u8> {
    compile(source, options, "1.3", "spv1.3")
}

/// `source` compiled at -O2 with the clang `options` to a module of SPIR-V
/// version at most `max_version` (llvm-spirv's `--spirv-max-version`) that
/// `spirv-val --target-env <env>` accepts (panics otherwise).
fn compile(source: &str, options: &[&str], max_version: &str, env: &str) -> Vec<u8> {
    let dir = Scratch::new();
    let cl = dir.0.join("program.cl");
    let bc = dir.0.join("program.bc");
    let spv = dir.0.join("program.spv");
    std::fs::write(&cl, source).expect("write the source");
    let p = |f: &PathBuf| f.to_string_lossy().into_owned();
    let mut args = vec!["-target", "spir64", "-x", "cl", "-emit-llvm", "-c", "-O2"];
    args.extend_from_slice(options);
    let (cl, bc_s, spv_s) = (p(&cl), p(&bc), p(&spv));
    args.extend([cl.as_str(), "-o", bc_s.as_str()]);
    run("clang-15", &args);
    let max = format!("--spirv-max-version={max_version}");
    run("llvm-spirv-15", &[&max, &bc_s, "-o", &spv_s]);
    let module = std::fs::read(&spv).expect("llvm-spirv wrote the module");
    if let Err(report) = validate_in(&module, env) {
        panic!("spirv-val --target-env {env} rejects the module:\n{report}");
    }
    module
}
