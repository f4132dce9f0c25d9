//! Structs passed by value that the kernel writes to: every work-item works
//! on its own copy (the argument block is shared by all of them), also
//! across a barrier.

use clift_conformance::exec::{Arg, Kernel, Opt};

/// `struct { int a; float b; int c[4]; }` with the OpenCL C layout.
fn s_bytes(a: i32, b: f32, c: [i32; 4]) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend(a.to_ne_bytes());
    v.extend(b.to_ne_bytes());
    for x in c {
        v.extend(x.to_ne_bytes());
    }
    v
}

#[test]
fn each_work_item_writes_its_own_copy() {
    for opt in Opt::BOTH {
        let mut out = vec![0i32; 64];
        Kernel::new("byval", opt, "written")
            .arg(Arg::Value(s_bytes(100, 2.5, [1, 2, 3, 4])))
            .arg(Arg::output(&mut out))
            .run(&[64], Some(&[16]));
        for (i, &v) in out.iter().enumerate() {
            // c[i & 3] = 7 on the work-item's own copy only.
            let c0 = if i & 3 == 0 { 7 } else { 1 };
            let c3 = if i & 3 == 3 { 7 } else { 4 };
            assert_eq!(v, 100 + i as i32 + c0 + c3 + 2, "{opt:?}: item {i}");
        }
    }
}

#[test]
fn copies_survive_a_barrier() {
    for opt in Opt::BOTH {
        let mut out = vec![0i32; 48];
        Kernel::new("byval", opt, "written_across_barrier")
            .arg(Arg::Value(s_bytes(10, 0.0, [0, 5, 0, 0])))
            .arg(Arg::output(&mut out))
            .arg(Arg::Local(16 * 4))
            .run(&[48], Some(&[16]));
        for (i, &v) in out.iter().enumerate() {
            let (g, l) = (i / 16, i % 16);
            let neighbour = 10 + (g * 16 + (l + 1) % 16) as i32;
            assert_eq!(v, 10 + i as i32 + 5 + neighbour, "{opt:?}: item {i}");
        }
    }
}
