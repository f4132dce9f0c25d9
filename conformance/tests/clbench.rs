//! The whole shared/clbench suite on clift through the loader, in
//! SPIR-V mode, with the modules clang-15 made at -O0 and at -O2, and
//! in source mode, clift compiling clbench's OpenCL C. clbench
//! checks every workload against its host reference (ref.c) and prints one
//! TSV line per workload; every line must say PASS.
//!
//! Every workload is required, blackscholes (OpenCL.std log, exp, sqrt,
//! erf and friends) included.
//!
//! clbench is built from a copy of shared/clbench in a temporary folder with
//! its Makefile (gcc, -lOpenCL), and run with a small scale and one timed
//! run per workload, so the suite takes seconds. The child process gets
//! `OCL_ICD_VENDORS` naming an `.icd` file that holds the libclift.so under
//! test (`conformance::lib_path()`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clift_conformance::{lib_path, shared_dir};

/// The workloads clbench runs (README.md, "Workloads").
const WORKLOADS: [&str; 13] = [
    "vadd",
    "saxpy",
    "sgemm_naive",
    "sgemm_tiled",
    "reduce",
    "mandelbrot",
    "nbody",
    "blackscholes",
    "hist_global",
    "hist_local",
    "launch_async",
    "launch_sync",
    "hash",
];

/// A private copy of shared/clbench, removed when dropped.
struct Bench {
    dir: PathBuf,
}

impl Drop for Bench {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())) {
        let entry = entry.expect("directory entry");
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let ty = entry.file_type().expect("file type");
        if ty.is_dir() {
            copy_dir(&src, &dst);
        } else if ty.is_file() {
            std::fs::copy(&src, &dst).unwrap_or_else(|e| panic!("{} -> {}: {e}", src.display(), dst.display()));
        }
    }
}

/// Copies shared/clbench to a fresh temporary folder and runs `make` there.
fn build_clbench(tag: &str) -> Bench {
    let src = shared_dir().join("clbench");
    let dir = std::env::temp_dir().join(format!("clift-clbench-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let bench = Bench { dir };
    copy_dir(&src, &bench.dir);
    // A stale binary or objects copied from the shared folder would hide a
    // failed build.
    for f in ["clbench", "clbench.o", "ref.o", "native.o"] {
        let _ = std::fs::remove_file(bench.dir.join(f));
    }
    let out = Command::new("make")
        .arg("clbench")
        .current_dir(&bench.dir)
        .output()
        .expect("run make (clbench needs make, gcc and -lOpenCL)");
    assert!(
        out.status.success() && bench.dir.join("clbench").exists(),
        "building clbench failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    bench
}

/// Runs the suite on clift with `<clbench>/spv/<opt>`, or with the OpenCL C
/// of `<clbench>/kernels` when `opt` is "src"; returns (stdout, stderr).
/// Kills clbench after `limit`.
fn run_clbench(bench: &Bench, opt: &str, limit: Duration) -> (String, String) {
    let icd = bench.dir.join("clift.icd");
    std::fs::write(&icd, format!("{}\n", lib_path().display())).expect("write the .icd file");
    let out_path = bench.dir.join(format!("out-{opt}.tsv"));
    let err_path = bench.dir.join(format!("err-{opt}.txt"));
    let mut cmd = Command::new(bench.dir.join("clbench"));
    if opt == "src" {
        cmd.args(["-p", "clift", "-m", "src", "-k"])
            .arg(bench.dir.join("kernels"));
    } else {
        cmd.args(["-p", "clift", "-m", "spv", "-d"])
            .arg(bench.dir.join("spv").join(opt));
    }
    let mut child = cmd
        .args(["-s", "0.01", "-n", "1", "-b", "1", "-vv"])
        .env("OCL_ICD_VENDORS", &icd)
        .env_remove("CLBENCH_PLATFORM")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"))
        .spawn()
        .expect("start clbench");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait for clbench") {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{opt}: clbench did not finish within {limit:?}; output so far:\n{}\n{}",
                std::fs::read_to_string(&out_path).unwrap_or_default(),
                std::fs::read_to_string(&err_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = std::fs::read_to_string(&out_path).expect("clbench output");
    let stderr = std::fs::read_to_string(&err_path).expect("clbench errors");
    assert!(
        status.success(),
        "{opt}: clbench exited with {status}:\n{stdout}\n{stderr}"
    );
    (stdout, stderr)
}

/// The build logs clbench printed (with -vv) for `<file>.spv` (or `.cl`),
/// joined, without blank or repeated lines.
fn build_log(stderr: &str, file: &str) -> String {
    let heads = [format!("/{file}.spv ----"), format!("/{file}.cl ----")];
    let mut logs = String::new();
    let mut inside = false;
    for line in stderr.lines() {
        if line.starts_with("---- build log for ") && heads.iter().any(|h| line.ends_with(h.as_str())) {
            inside = true;
        } else if line == "---- end build log ----" {
            inside = false;
        } else if inside && !line.is_empty() && !logs.lines().any(|l| l == line) {
            // One copy of each line: clbench builds histogram.spv twice.
            logs.push_str(line);
            logs.push('\n');
        }
    }
    logs
}

fn check_suite(opt: &str) {
    let bench = build_clbench(opt);
    let (stdout, stderr) = run_clbench(&bench, opt, Duration::from_secs(300));
    let mut lines = stdout.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("{opt}: no column {name:?} in clbench's header {header:?}"))
    };
    let (c_platform, c_workload, c_status, c_err) = (col("platform"), col("workload"), col("status"), col("max_err"));
    let mut seen = Vec::new();
    let mut failures = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(f.len() == header.len(), "{opt}: malformed clbench line {line:?}");
        assert_eq!(f[c_platform], "clift", "{opt}: {line}");
        let (wl, status) = (f[c_workload], f[c_status]);
        seen.push(wl.to_string());
        if status == "PASS" {
            continue;
        }
        let file = match wl {
            "hist_global" | "hist_local" => "histogram",
            "launch_async" | "launch_sync" => "empty",
            w => w,
        };
        failures.push(format!(
            "{wl}: {status} (max_err {}); build log:\n{}",
            f[c_err],
            build_log(&stderr, file)
        ));
    }
    for w in WORKLOADS {
        assert!(
            seen.iter().any(|s| s == w),
            "{opt}: clbench printed no line for {w}:\n{stdout}\n{stderr}"
        );
    }
    assert!(
        failures.is_empty(),
        "{opt}: {} clbench workload(s) failed on clift:\n{}\n\nclbench output:\n{stdout}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn clbench_passes_with_o0_spirv() {
    check_suite("O0");
}

#[test]
fn clbench_passes_with_o2_spirv() {
    check_suite("O2");
}

#[test]
fn clbench_passes_from_opencl_c_source() {
    check_suite("src");
}
