//! Private memory limits: what does not fit is refused with a build log or
//! an error code, never a crash.

use clift_conformance::exec::{corpus_spirv, Arg, Kernel, Opt};
use clift_conformance::{CL_INVALID_PROGRAM_EXECUTABLE, CL_OUT_OF_RESOURCES, CL_SUCCESS};

#[test]
fn a_stack_too_big_is_refused_with_a_log() {
    for opt in Opt::BOTH {
        let mut out = vec![0i32; 4];
        let mut k = Kernel::with_il(&corpus_spirv("limits", opt), "big_stack", "")
            .expect("the program builds")
            .arg(Arg::output(&mut out))
            .arg(Arg::value(3i32));
        let log = k.build_log();
        assert!(
            log.contains("kernel \"big_stack\" cannot run yet: ") && log.contains("KiB of stack"),
            "{opt:?}: {log}"
        );
        assert_eq!(k.launch(None, &[4], None), CL_INVALID_PROGRAM_EXECUTABLE, "{opt:?}");
    }
}

#[test]
fn frames_run_within_the_limit_and_are_refused_past_it() {
    for opt in Opt::BOTH {
        // 4 MiB frames: 16 work-items per group are 64 MiB (runs), 256 are
        // 1 GiB (CL_OUT_OF_RESOURCES).
        let mut out = vec![0i32; 256];
        let mut k = Kernel::new("limits", opt, "big_frame")
            .arg(Arg::output(&mut out))
            .arg(Arg::value(8192i32));
        assert_eq!(k.launch(None, &[256], Some(&[256])), CL_OUT_OF_RESOURCES, "{opt:?}");
        assert_eq!(k.launch(None, &[32], Some(&[16])), CL_SUCCESS, "{opt:?}");
        drop(k);
        for (i, &v) in out[..32].iter().enumerate() {
            assert_eq!(v, 8192 + (i % 16) as i32, "{opt:?}: item {i}");
        }
    }
}

#[test]
fn large_private_arrays_are_private_end_to_end() {
    for opt in Opt::BOTH {
        let mut out = vec![-1i32; 4];
        Kernel::new("limits", opt, "big_private_is_private")
            .arg(Arg::output(&mut out))
            .arg(Arg::value(5i32))
            .run(&[1], None);
        assert_eq!(out, [1, 1, 0, 0], "{opt:?}");
    }
}
