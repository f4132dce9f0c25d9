//! clift's environment variables (README, "Environment variables") as an
//! application sets them: flags follow one rule (`1`, `true`, `yes`, `on`
//! set them; `0`, `false`, `no`, `off` and an empty value do not; anything
//! else is ignored with a warning on stderr). `CLIFT_NO_SIMD` is read once
//! per process, so each value runs in a child process, which builds
//! clbench's vadd with `CLIFT_DUMP` set; its Cranelift IR shows whether the
//! kernel got a 4-lane body.

use std::path::PathBuf;

use clift_conformance::child::{in_child, run};
use clift_conformance::*;

/// The child: builds vadd (-O2, which gets a 4-lane body unless told not to).
#[test]
fn child_build_vadd() {
    if !in_child() {
        return;
    }
    let ctx = context();
    let p = il_program(ctx, &spirv("clbench/O2/vadd"));
    check(build(p, ""));
    // SAFETY: valid objects, released once.
    unsafe {
        check(clReleaseProgram(p));
        check(clReleaseContext(ctx));
    }
}

/// Builds vadd in a child with `CLIFT_NO_SIMD` set to `value` (unset for
/// `None`): whether its IR has 4-lane vectors, and the child's output.
fn vadd_with_no_simd(value: Option<&str>, tag: &str) -> (bool, String) {
    let root = std::env::temp_dir().join(format!("clift-env-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let root_text = root.to_string_lossy().into_owned();
    let mut env = vec![("CLIFT_DUMP", root_text.as_str())];
    if let Some(v) = value {
        env.push(("CLIFT_NO_SIMD", v));
    }
    let unset: &[&str] = if value.is_none() { &["CLIFT_NO_SIMD"] } else { &[] };
    let out = run("child_build_vadd", &env, unset);
    let dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    assert_eq!(dirs.len(), 1, "{tag}: one dump folder, got {dirs:?}\n{out}");
    let clif = std::fs::read_to_string(dirs[0].join("vadd.clif")).expect("vadd.clif");
    let _ = std::fs::remove_dir_all(&root);
    (clif.contains("f32x4"), out)
}

#[test]
fn no_simd_follows_the_flag_rule() {
    let cases: [(Option<&str>, &str, bool); 9] = [
        (None, "unset", true),
        (Some(""), "empty", true),
        (Some("0"), "zero", true),
        (Some("false"), "false", true),
        (Some("OFF"), "off", true),
        (Some("1"), "one", false),
        (Some("yes"), "yes", false),
        (Some(" On "), "on", false),
        (Some("maybe"), "maybe", true),
    ];
    for (value, tag, four_lanes) in cases {
        let (simd, out) = vadd_with_no_simd(value, tag);
        assert_eq!(simd, four_lanes, "CLIFT_NO_SIMD={value:?}: 4-lane body\n{out}");
        let warned = out.contains("clift: ignoring CLIFT_NO_SIMD=\"maybe\"");
        assert_eq!(warned, tag == "maybe", "CLIFT_NO_SIMD={value:?}: warning\n{out}");
    }
}
