//! Half precision and the 4-lane vectorizer: a kernel computing with half
//! values gets no 4-lane body (`CLIFT_DUMP`'s `<kernel>.scalar.txt` says
//! so) and its results, at -O0 and -O2, are the rounded half results. Its
//! own test binary, since `CLIFT_DUMP` is process-wide.

use clift_conformance::exec::{Arg, Kernel, Opt};
use clift_conformance::half::{from_half, inputs, rte, same_half, to_half, Rounding};

#[test]
fn four_lane_kernels_keep_half_scalar_and_right() {
    const N: usize = 103;
    let (a, b) = (inputs(N, 29), inputs(N, 31));
    let dir = std::env::temp_dir().join(format!("clift-fp16-simd-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::env::set_var("CLIFT_DUMP", &dir);
    for opt in Opt::BOTH {
        let mut o = vec![0xffffu16; N];
        Kernel::new("fp16_core", opt, "simd")
            .arg(Arg::input(&a))
            .arg(Arg::input(&b))
            .arg(Arg::output(&mut o))
            .arg(Arg::value(100i32))
            .run(&[N], Some(&[N]));
        for i in 0..N {
            let (x, y) = (from_half(a[i]), from_half(b[i]));
            if i >= 100 {
                assert_eq!(o[i], 0xffff, "untouched");
                continue;
            }
            let two = to_half(rte(x * y) + x, Rounding::Rte);
            let fused = to_half(x.mul_add(y, x), Rounding::Rte);
            assert!(
                same_half(o[i], two) || same_half(o[i], fused),
                "{opt:?} [{i}] {x:e} {y:e}: {:#x} want {two:#x}",
                o[i]
            );
        }
    }
    // The dump says why the kernel got no 4-lane body.
    let mut found = false;
    for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        if let Ok(t) = std::fs::read_to_string(e.path().join("simd.scalar.txt")) {
            assert!(t.contains("half"), "{t}");
            found = true;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(found, "no simd.scalar.txt in {}", dir.display());
}
