//! The C host program of the README (`conformance/c/demo.c`), compiled with
//! gcc against the system headers and `-lOpenCL`, runs on clift through the
//! loader and passes its own checks.

use std::path::PathBuf;
use std::process::Command;

use clift_conformance::lib_path;

#[test]
fn c_demo_runs_on_clift() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("clift-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("demo");
    let cc = Command::new("gcc")
        .arg("-O2")
        .arg("-o")
        .arg(&exe)
        .arg(root.join("c/demo.c"))
        .arg("-lOpenCL")
        .arg("-lm")
        .output()
        .expect("gcc must be installed");
    assert!(cc.status.success(), "gcc: {}", String::from_utf8_lossy(&cc.stderr));
    let icd = dir.join("clift.icd");
    std::fs::write(&icd, format!("{}\n", lib_path().display())).unwrap();
    let run = Command::new(&exe).env("OCL_ICD_VENDORS", &icd).output().unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "demo failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains("platform: clift"), "{stdout}");
    assert!(stdout.contains("read back intact"), "{stdout}");
    assert!(stdout.contains("every result matches the host"), "{stdout}");
    assert!(stdout.trim_end().ends_with("PASS"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
