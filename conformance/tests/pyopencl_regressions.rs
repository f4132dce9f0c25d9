//! Issue 6, item 4: what pyopencl's own test suite (`test_wrapper.py`,
//! `test_algorithm.py`) found wrong in clift, reproduced through the loader
//! with small modules that do what pyopencl's do (README.md, "pyopencl").

use clift_conformance::exec::{Arg, Kernel};
use clift_conformance::*;

/// pyopencl's `test_spirv` builds a module whose built-in variables are in
/// the UniformConstant storage class (as older SPIRV-LLVM-Translator
/// versions wrote them); clift refused it ("must be in the Input storage
/// class"). It must build and read the work-item's ids.
#[test]
fn builtins_in_uniform_constant_storage_run() {
    let n = 1000usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
    let mut res = vec![-1.0f32; n];
    Kernel::with_il(&spirv("builtin_uniform_constant"), "sum", "")
        .unwrap_or_else(|log| panic!("build failed: {log}"))
        .arg(Arg::input(&a))
        .arg(Arg::input(&b))
        .arg(Arg::output(&mut res))
        .run(&[n], None);
    let want: Vec<f32> = (0..n).map(|i| a[i] + b[i] * n as f32).collect();
    assert_eq!(res, want);
}
