//! Tests that need a process of their own (environment variables clift
//! reads once per process, output on stdout): the test binary runs itself
//! again, running one test whose body runs only in the child.

use std::process::Command;

/// Runs this test binary's test `name` in a child process with `env` set
/// and the variables `remove` unset (the child runs its body only when
/// [`in_child`]). Returns its stdout and stderr; panics unless the test ran
/// and passed.
pub fn run(name: &str, env: &[(&str, &str)], remove: &[&str]) -> String {
    let exe = std::env::current_exe().expect("test executable");
    let mut cmd = Command::new(exe);
    cmd.args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env("CLIFT_TEST_CHILD", "1")
        .env("CLIFT_LIB", crate::lib_path());
    for k in remove {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run the child test");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "child {name} failed:\n{text}");
    assert!(text.contains("1 passed"), "child {name} did not run:\n{text}");
    text
}

/// Whether this process is a child started by [`run`] (`CLIFT_TEST_CHILD`).
pub fn in_child() -> bool {
    crate::env::flag("CLIFT_TEST_CHILD", false)
}
