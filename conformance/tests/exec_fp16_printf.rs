//! printf of half vectors (`kernels/cl/fp16_printf.cl`) through the
//! loader: `%v2hf`, `%v4hf`, `%v3ha`, `%v8hg` print the half components'
//! values, and a scalar half (promoted to double) prints as `%f`. printf
//! writes to stdout, so the kernel runs in a child process (this binary
//! again, running only `child` with `CLIFT_FP16_PRINTF` set) and the
//! parent checks the text between two markers.

use std::process::Command;

use clift_conformance::exec::{Arg, Kernel, Opt};
use clift_conformance::half::halves;

const BEGIN: &str = "<<<fp16 printf begin>>>\n";
const END: &str = "<<<fp16 printf end>>>\n";

/// Not a test of its own: the child process's entry.
#[test]
fn child() {
    let Some(opt) = clift_conformance::env::text("CLIFT_FP16_PRINTF") else {
        return;
    };
    let opt = if opt == "O0" { Opt::O0 } else { Opt::O2 };
    let a = halves(&[1.5, -0.25, 65504.0, 0.099975586, 3.0]);
    let mut ret = vec![i32::MIN; 3];
    print!("{BEGIN}");
    Kernel::new("fp16_printf", opt, "halves")
        .modes_may_differ("printf writes to stdout, which this test compares: a second run would print twice")
        .arg(Arg::input(&a))
        .arg(Arg::output(&mut ret))
        .run(&[1], Some(&[1]));
    print!("{END}");
    println!("ret {:?}", ret);
}

#[test]
fn half_vectors_print_their_values() {
    for opt in ["O0", "O2"] {
        let exe = std::env::current_exe().expect("the test binary");
        let out = Command::new(exe)
            .args(["--exact", "child", "--nocapture", "--test-threads=1"])
            .env("CLIFT_FP16_PRINTF", opt)
            .output()
            .expect("the child runs");
        let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
        assert!(
            out.status.success(),
            "{opt}: child failed\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let start = stdout.find(BEGIN).expect("begin marker") + BEGIN.len();
        let end = start + stdout[start..].find(END).expect("end marker");
        // glibc's text for the same values (0x1.998p-4 is the half nearest 0.1).
        let want = "v2=1.500000,-0.250000 v4=1.500000,-0.250000,65504.000000,0.099976\n\
                    v3=0x1.8p+0,-0x1p-2,0x1.ffcp+15 s=3.000000\n\
                    v8=1.5,-0.25,65504,0.0999756,3,-0.5,inf,0.199951\n";
        assert_eq!(&stdout[start..end], want, "{opt}");
        assert!(stdout[end..].contains("ret [0, 0, 0]"), "{opt}: {stdout}");
    }
}
