//! The execution-corpus harness (`conformance::exec`) on the smallest
//! kernel: buffers in and out, a value argument, both optimisation levels.

use clift_conformance::exec::{Arg, Kernel, Opt};

#[test]
fn add_one_runs_at_both_levels() {
    for opt in Opt::BOTH {
        let input: Vec<i32> = (0..1000).collect();
        let mut out = vec![-1i32; 1000];
        Kernel::new("smoke", opt, "add_one")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .arg(Arg::value(7i32))
            .run(&[1000], None);
        let want: Vec<i32> = input.iter().map(|x| x + 7).collect();
        assert_eq!(out, want, "{opt:?}");
    }
}
