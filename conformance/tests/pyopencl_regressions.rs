//! What pyopencl's own test suite (`test_wrapper.py`,
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

/// The input of `stage` and what it must write (see memmove_in_loop.cl).
fn stage_data(groups: usize) -> (Vec<i32>, Vec<i32>) {
    let n = groups * 128;
    let input: Vec<i32> = (0..n as i32 * 4).map(|x| x * 3 - 7).collect();
    let mut want = input.clone();
    for (q, w) in want.chunks_exact_mut(4).enumerate() {
        w[0] += (q % 128) as i32;
    }
    (input, want)
}

/// pyopencl's radix sort and key-value sorter (scan kernels) copy structs
/// from `__global` to `__local` memory in a loop; llvm-spirv 15 translates
/// the resulting llvm.memmove as a copy through a Function variable in the
/// loop's block, and clift refused such a module ("an OpVariable in a
/// function must be in the function's first block"). The checked-in module
/// has the variable outside the first block; it must build and copy right
/// at every iteration, in scalar and 4-lane code alike (8 work-items per
/// group).
#[test]
fn a_function_variable_outside_the_first_block_runs() {
    let il = spirv("memmove_in_loop");
    let groups = 5;
    let (input, want) = stage_data(groups);
    let mut out = vec![0i32; input.len()];
    Kernel::with_il(&il, "stage", "")
        .unwrap_or_else(|log| panic!("build failed: {log}"))
        .arg(Arg::input(&input))
        .arg(Arg::output(&mut out))
        .run(&[groups * 8], Some(&[8]));
    assert_eq!(out, want);
}

/// The same kernel from OpenCL C source, as pyopencl hands it to clift
/// (clang-15 -O2 and llvm-spirv-15 make the same memmove).
#[test]
fn the_memmove_kernel_builds_from_source() {
    let groups = 3;
    let (input, want) = stage_data(groups);
    let mut out = vec![0i32; input.len()];
    Kernel::with_source(include_str!("../spirv/memmove_in_loop.cl"), "stage", "")
        .unwrap_or_else(|log| panic!("build failed:\n{log}"))
        .arg(Arg::input(&input))
        .arg(Arg::output(&mut out))
        .run(&[groups * 8], Some(&[8]));
    assert_eq!(out, want);
}
