//! Atomics contended by many work-items (conformance/kernels/cl/
//! mem_atomics.cl) at -O0 and -O2, against host references: OpenCL 1.2
//! atomic_* functions (which clang gives Workgroup scope, yet run on all
//! cores), 64-bit atom_*, OpenCL 2.0 C11 atomics and flags, local memory.

use clift_conformance::exec::{Arg, Kernel, Opt};

const N: usize = 4096;

#[test]
fn opencl12_atomics_on_global_memory() {
    for opt in Opt::BOTH {
        let mut g = vec![0i32; 11];
        g[6] = -1;
        g[9] = -1;
        let mut u = vec![u32::MAX, 0];
        let mut old = vec![0i32; N];
        let mut f = vec![-1.0f32];
        let order = "which work-item's exchange comes last depends on the order work-items ran in";
        Kernel::new("mem_atomics", opt, "atomics12")
            .bytes_may_differ(0, 11 * 4, &[(9 * 4, 4)], order)
            .arg_may_differ(2, order)
            .arg_may_differ(3, order)
            .arg(Arg::output(&mut g))
            .arg(Arg::output(&mut u))
            .arg(Arg::output(&mut old))
            .arg(Arg::output(&mut f))
            .run(&[N], Some(&[64]));
        let n = N as i32;
        let xor = (0..n).fold(0, |a, i| a ^ i);
        assert_eq!(&g[..9], &[n, -2 * n, n, -n, -500, n - 1 - 500, 0, -1, xor], "{opt:?}");
        assert_eq!(g[10], 3 * n, "{opt:?}");
        // Exchanges form one chain: the old values and the final value
        // are the initial -1 and every work-item's id, each once.
        let mut seen: Vec<i32> = old.clone();
        seen.push(g[9]);
        seen.sort_unstable();
        let want: Vec<i32> = (-1..n).collect();
        assert_eq!(seen, want, "{opt:?}");
        assert_eq!(u, vec![7, 3 * (N as u32 - 1)], "{opt:?}");
        assert!(
            f[0] >= 0.0 && f[0] < N as f32 && f[0].fract() == 0.0,
            "{opt:?} {}",
            f[0]
        );
    }
}

#[test]
fn sixty_four_bit_atomics() {
    for opt in Opt::BOTH {
        let mut l = vec![0i64; 4];
        let mut ul = vec![0u64; 2];
        Kernel::new("mem_atomics64", opt, "atomics64")
            .bytes_may_differ(
                0,
                4 * 8,
                &[(3 * 8, 8)],
                "which work-item's compare-exchange succeeds depends on the order work-items ran in",
            )
            .arg(Arg::output(&mut l))
            .arg(Arg::output(&mut ul))
            .run(&[N], Some(&[128]));
        let n = N as i64;
        let sum: i64 = (0..n).sum();
        assert_eq!(l[0], sum << 33, "{opt:?}");
        assert_eq!(l[1], -sum, "{opt:?}");
        assert_eq!(l[2], -(n - 1) * 1_000_000_000, "{opt:?}");
        assert!((1..=n).contains(&l[3]), "{opt:?} {}", l[3]);
        assert_eq!(ul[0], (N as u64 - 1) << 40, "{opt:?}");
        assert_eq!(ul[1], (0..N as u64).fold(0, |a, i| a ^ (i << 36)), "{opt:?}");
    }
}

#[test]
fn c11_atomics_and_flags() {
    for opt in Opt::BOTH {
        let mut a = vec![0i32; 5];
        let mut out = vec![0i32; N];
        let mut flag = vec![0i32];
        let mut won = vec![0i32];
        let mut k = Kernel::new("mem_atomics", opt, "atomics20")
            .arg(Arg::output(&mut a))
            .arg(Arg::output(&mut out))
            .arg(Arg::output(&mut flag))
            .arg(Arg::output(&mut won));
        assert_eq!(k.launch(None, &[N], Some(&[256])), 0);
        drop(k);
        let n = N as i32;
        assert_eq!(a, vec![2 * n, -n, 0xffff, n, 42], "{opt:?}");
        assert!(out.iter().all(|&x| x == 42), "{opt:?}");
        assert_eq!(won[0], 1, "{opt:?}: exactly one work-item sets the flag");
        assert_ne!(flag[0], 0, "{opt:?}");
        Kernel::new("mem_atomics", opt, "flag_clear")
            .arg(Arg::output(&mut flag))
            .run(&[1], None);
        assert_eq!(flag[0], 0, "{opt:?}");
    }
}

#[test]
fn atomics_on_local_memory() {
    for opt in Opt::BOTH {
        let groups = 32;
        let mut out = vec![0i32; groups];
        Kernel::new("mem_atomics", opt, "local_atomics")
            .arg(Arg::output(&mut out))
            .arg(Arg::Local(4))
            .run(&[groups * 64], Some(&[64]));
        assert!(out.iter().all(|&x| x == 64 * 65 / 2), "{opt:?} {out:?}");
    }
}
