//! `CLIFT_DUMP` for the tests that read clift's debug dumps
//! (`debug_dump.rs`, `exec_fp64_simd.rs`, `exec_simd_narrow_forms.rs`):
//! each clBuildProgram writes one
//! new folder under the dump root, which [`Dumps::build`] finds.
//!
//! The variable is read at each build, but set here before the first
//! OpenCL call, so a test using this must be the only test of its process.

use std::path::{Path, PathBuf};

use crate::*;

/// A dump root of this process and the folders already seen in it.
pub struct Dumps {
    root: PathBuf,
    seen: Vec<PathBuf>,
}

impl Dumps {
    /// A fresh root `<tmp>/<tag>-<pid>`, named by `CLIFT_DUMP` from now on.
    pub fn new(tag: &str) -> Dumps {
        let root = std::env::temp_dir().join(format!("{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::env::set_var("CLIFT_DUMP", &root);
        Dumps { root, seen: Vec::new() }
    }

    /// The dump root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Builds `il` in `ctx` with no options (panics on failure) and returns
    /// the program and the one folder the build added (panics, naming
    /// `what`, unless there is exactly one).
    pub fn build(&mut self, ctx: cl_context, il: &[u8], what: &str) -> (cl_program, PathBuf) {
        self.build_with(ctx, il, "", what)
    }

    /// [`Dumps::build`] with build options.
    pub fn build_with(&mut self, ctx: cl_context, il: &[u8], options: &str, what: &str) -> (cl_program, PathBuf) {
        let p = il_program(ctx, il);
        check(build(p, options));
        (p, self.newest(what))
    }

    /// The one folder added since the last call (or [`Dumps::build`]):
    /// that of a program the caller built itself (panics, naming `what`,
    /// unless there is exactly one).
    pub fn newest(&mut self, what: &str) -> PathBuf {
        let dirs = folders(&self.root);
        let new: Vec<&PathBuf> = dirs.iter().filter(|d| !self.seen.contains(*d)).collect();
        assert_eq!(new.len(), 1, "{what}: one new folder per module, got {dirs:?}");
        let dir = new[0].clone();
        self.seen = dirs;
        dir
    }
}

impl Drop for Dumps {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The dump file `name` in folder `dir`, or None.
pub fn file(dir: &Path, name: &str) -> Option<String> {
    std::fs::read_to_string(dir.join(name)).ok()
}

/// The optimized IR of kernel `kernel` in folder `dir`, after checking
/// that it got an 8-lane body: no dump says why it kept the scalar body,
/// scalars per lane or 4 lanes (panics naming `what` otherwise).
pub fn eight_lane_ir(dir: &Path, kernel: &str, what: &str) -> String {
    checked_ir(
        dir,
        kernel,
        what,
        &[
            ("scalar", "scalar"),
            ("scalars per lane", "lanes"),
            ("4 lanes", "narrow"),
        ],
    )
}

/// The optimized IR of kernel `kernel` in folder `dir`, after checking
/// that it got a 4- or 8-lane body holding its values as vectors: no dump
/// says why it kept the scalar body or scalars per lane (panics naming
/// `what` otherwise).
pub fn vector_ir(dir: &Path, kernel: &str, what: &str) -> String {
    checked_ir(
        dir,
        kernel,
        what,
        &[("scalar", "scalar"), ("scalars per lane", "lanes")],
    )
}

/// The optimized IR of kernel `kernel` in `dir`, after checking that none
/// of the dumps `<kernel>.<name>.txt` that say why it `kept` a narrower
/// body exists.
fn checked_ir(dir: &Path, kernel: &str, what: &str, not_kept: &[(&str, &str)]) -> String {
    for (kept, name) in not_kept {
        let why = file(dir, &format!("{kernel}.{name}.txt"));
        assert_eq!(why, None, "{what}: {kernel} kept {kept}");
    }
    file(dir, &format!("{kernel}.opt.clif")).expect("the optimized IR")
}

/// The folders under `root`, sorted.
fn folders(root: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}
