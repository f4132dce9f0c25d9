//! Program-scope variables (conformance/kernels/cl/mem_globals.cl) at -O0
//! and -O2: __constant tables of scalars, structs, vectors and nested
//! arrays with a pointer into one, and OpenCL 2.0 __global variables
//! (initialized, zeroed, a pointer initializer) that keep their values
//! across launches.

use clift_conformance::exec::{Arg, Kernel, Opt};

#[test]
fn constant_tables() {
    let primes = [2, 3, 5, 7, 11, 13, 17, 19];
    // (f, i, s[3]) of `table`.
    let table = [(1.5f32, 10, [1, 2, 3]), (2.5, 20, [4, 5, 6]), (-1.0, 30, [7, 8, 9])];
    let vtab_w = [4, 8];
    let grid = [[1, 2, 3], [4, 5, 6]];
    for opt in Opt::BOTH {
        let n = 48;
        let mut out = vec![0i32; n];
        Kernel::new("mem_globals", opt, "read_tables")
            .arg(Arg::output(&mut out))
            .run(&[n], None);
        for (i, &got) in out.iter().enumerate() {
            let e = table[i % 3];
            let want =
                primes[i % 8] + e.1 + e.2[i % 3] + (e.0 * 2.0) as i32 + vtab_w[i & 1] + grid[i & 1][i % 3] + primes[3];
            assert_eq!(got, want, "{opt:?} work-item {i}");
        }
    }
}

#[test]
fn global_variables_persist_across_launches() {
    for opt in Opt::BOTH {
        // Two launches of `bump` on one program, then `read_back` of the
        // same program through a second kernel object.
        let mut scratch = vec![0i32; 16];
        let mut k = Kernel::new("mem_globals", opt, "bump").arg(Arg::output(&mut scratch));
        assert_eq!(k.launch(None, &[16], None), 0);
        assert_eq!(k.launch(None, &[16], None), 0);
        let mut out = vec![-1i32; 19];
        let rc = k
            .sibling("read_back")
            .arg(Arg::output(&mut out))
            .launch(None, &[16], None);
        assert_eq!(rc, 0);
        let mut want: Vec<i32> = (0..16).map(|i| 2 * i).collect();
        want[3] += 200;
        want.extend([7, 1, 2]);
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn constant_indices_into_program_scope_and_local_arrays() {
    for opt in Opt::BOTH {
        let n = 128;
        let mut out = vec![0i32; n];
        Kernel::new("mem_globals", opt, "fixed_places")
            .arg(Arg::output(&mut out))
            .arg(Arg::Local(16))
            .run(&[n], Some(&[32]));
        // table[2].s[1] = 8, zeroed[5] = 0 in a fresh program, grid[1][2] = 6, primes[7] = 19.
        assert!(out.iter().all(|&x| x == 800 + 6 + 19), "{opt:?} {out:?}");
    }
}
