//! The generic address space (conformance/kernels/cl/mem_generic.cl) at -O0
//! and -O2: to_global / to_local / to_private answer NULL for addresses
//! outside their space, get_fence, loads through generic pointers, and
//! volatile accesses.

use clift_conformance::exec::{Arg, Kernel, Opt};

#[test]
fn explicit_casts_and_fences() {
    for opt in Opt::BOTH {
        let n = 256;
        let g: Vec<i32> = (0..n as i32).map(|i| 1000 + i).collect();
        let mut out = vec![-1i32; n * 5];
        Kernel::new("mem_generic", opt, "generic_cast")
            .arg(Arg::input(&g))
            .arg(Arg::Local(64 * 4))
            .arg(Arg::output(&mut out))
            .run(&[n], Some(&[64]));
        for i in 0..n {
            let got = &out[i * 5..i * 5 + 5];
            // classify: 1 global, 2 local, 4 private; get_fence: global 2,
            // local 1 (shifted left by 4).
            let load = if i & 1 == 1 { i as i32 } else { 1000 + i as i32 };
            assert_eq!(got, &[1, 2, 4, 2 | (1 << 4), load], "{opt:?} work-item {i}");
        }
    }
}

#[test]
fn volatile_accesses() {
    for opt in Opt::BOTH {
        let n = 100;
        let mut v = vec![0i32; n];
        let mut out = vec![0i32; n];
        Kernel::new("mem_generic", opt, "volatile_ops")
            .arg(Arg::output(&mut v))
            .arg(Arg::output(&mut out))
            .run(&[n], None);
        for i in 0..n {
            assert_eq!(v[i], i as i32 + 1, "{opt:?}");
            assert_eq!(out[i], 2 * (i as i32 + 1), "{opt:?}");
        }
    }
}
