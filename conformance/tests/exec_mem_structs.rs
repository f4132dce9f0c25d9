//! Structs and arrays as values and in memory (conformance/kernels/cl/
//! mem_structs.cl), checked against host references at -O0 and -O2: struct
//! kernel arguments by value, whole-struct loads and stores, helpers taking
//! and returning structs, nested access chains, private arrays with
//! initializers.

use clift_conformance::exec::{Arg, Kernel, Opt};

/// `S` of mem_structs.cl with the OpenCL C layout: a@0, b@16 (float4), c@32,
/// d@40, e@48 (float3 takes 16 bytes); 64 bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
struct S {
    a: i32,
    b: [f32; 4],
    c: i8,
    d: i64,
    e: [f32; 3],
}

const S_SIZE: usize = 64;

impl S {
    fn sample(k: i32) -> S {
        S {
            a: 10 * k - 3,
            b: [k as f32 + 0.5, -(k as f32), 2.0 * k as f32, 7.25],
            c: (k % 100) as i8 - 50,
            d: (k as i64) * 1_000_000_007 - 5,
            e: [k as f32 * 0.25, 1.0 - k as f32, 3.5],
        }
    }

    fn write(&self, out: &mut [u8]) {
        out[0..4].copy_from_slice(&self.a.to_le_bytes());
        for (j, x) in self.b.iter().enumerate() {
            out[16 + 4 * j..20 + 4 * j].copy_from_slice(&x.to_le_bytes());
        }
        out[32] = self.c as u8;
        out[40..48].copy_from_slice(&self.d.to_le_bytes());
        for (j, x) in self.e.iter().enumerate() {
            out[48 + 4 * j..52 + 4 * j].copy_from_slice(&x.to_le_bytes());
        }
    }

    fn read(b: &[u8]) -> S {
        let f = |o: usize| f32::from_le_bytes(b[o..o + 4].try_into().unwrap());
        S {
            a: i32::from_le_bytes(b[0..4].try_into().unwrap()),
            b: [f(16), f(20), f(24), f(28)],
            c: b[32] as i8,
            d: i64::from_le_bytes(b[40..48].try_into().unwrap()),
            e: [f(48), f(52), f(56)],
        }
    }
}

fn s_buffer(n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n * S_SIZE];
    for k in 0..n {
        S::sample(k as i32).write(&mut v[k * S_SIZE..(k + 1) * S_SIZE]);
    }
    v
}

#[test]
fn struct_passed_by_value() {
    for opt in Opt::BOTH {
        let s = S::sample(9);
        let mut bytes = [0u8; S_SIZE];
        s.write(&mut bytes);
        let n = 64;
        let mut out = vec![0f32; n * 8];
        Kernel::new("mem_structs", opt, "struct_byval")
            .arg(Arg::value(bytes))
            .arg(Arg::output(&mut out))
            .run(&[n], Some(&[16]));
        for i in 0..n {
            let want = [
                (s.a + i as i32) as f32,
                s.b[0],
                s.b[1],
                s.b[2],
                s.b[3],
                s.c as f32,
                s.d as f32,
                s.e[2],
            ];
            assert_eq!(&out[i * 8..i * 8 + 8], &want, "{opt:?} work-item {i}");
        }
    }
}

#[test]
fn whole_struct_copies() {
    for opt in Opt::BOTH {
        let n = 100;
        let input = s_buffer(n);
        let mut out = vec![0u8; n * S_SIZE];
        Kernel::new("mem_structs", opt, "struct_copy")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .run(&[n], None);
        for i in 0..n {
            let mut want = S::sample(i as i32);
            want.a += 1;
            want.b[1] *= 2.0;
            want.e[0] = want.c as f32;
            assert_eq!(S::read(&out[i * S_SIZE..]), want, "{opt:?} work-item {i}");
        }
    }
}

#[test]
fn helper_taking_and_returning_a_struct() {
    for opt in Opt::BOTH {
        let n = 50;
        let input = s_buffer(n);
        let mut out = vec![0u8; n * S_SIZE];
        Kernel::new("mem_structs", opt, "struct_call")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .run(&[n], None);
        for i in 0..n {
            let mut want = S::sample(i as i32);
            want.a += i as i32;
            want.d -= i as i64;
            for x in &mut want.e {
                *x *= 2.0;
            }
            assert_eq!(S::read(&out[i * S_SIZE..]), want, "{opt:?} work-item {i}");
        }
    }
}

/// `Outer`: short s[3]@0, int x@8, S inner[2]@16; 144 bytes.
const OUTER: usize = 144;

#[test]
fn nested_structs_and_arrays() {
    for opt in Opt::BOTH {
        let n = 30;
        let mut io = vec![0u8; n * OUTER];
        for i in 0..n {
            let o = &mut io[i * OUTER..(i + 1) * OUTER];
            for j in 0..3 {
                o[2 * j..2 * j + 2].copy_from_slice(&((i * 3 + j) as i16 - 20).to_le_bytes());
            }
            o[8..12].copy_from_slice(&(i as i32 * 11).to_le_bytes());
            S::sample(i as i32).write(&mut o[16..80]);
            S::sample(i as i32 + 100).write(&mut o[80..144]);
        }
        let before = io.clone();
        Kernel::new("mem_structs", opt, "nested")
            .arg(Arg::output(&mut io))
            .run(&[n], None);
        for i in 0..n {
            let b = &before[i * OUTER..(i + 1) * OUTER];
            let mut s: Vec<i16> = (0..3).map(|j| i16::from_le_bytes([b[2 * j], b[2 * j + 1]])).collect();
            let x = i32::from_le_bytes(b[8..12].try_into().unwrap());
            let mut inner = [S::read(&b[16..80]), S::read(&b[80..144])];
            s[i % 3] += 7;
            inner[1].b[3] = (inner[0].a + x) as f32;
            inner[i & 1].d = s[0] as i64 * 3;
            let o = &io[i * OUTER..(i + 1) * OUTER];
            let got_s: Vec<i16> = (0..3).map(|j| i16::from_le_bytes([o[2 * j], o[2 * j + 1]])).collect();
            assert_eq!(got_s, s, "{opt:?} work-item {i}");
            assert_eq!(i32::from_le_bytes(o[8..12].try_into().unwrap()), x);
            assert_eq!(S::read(&o[16..80]), inner[0], "{opt:?} work-item {i}");
            assert_eq!(S::read(&o[80..144]), inner[1], "{opt:?} work-item {i}");
        }
    }
}

#[test]
fn private_arrays_with_initializers() {
    let tab = [3, 1, 4, 1, 5, 9, 2, 6];
    for opt in Opt::BOTH {
        for n_arg in [0i32, 3, 13] {
            let n = 77;
            let mut out = vec![0i32; n];
            Kernel::new("mem_structs", opt, "private_array")
                .arg(Arg::output(&mut out))
                .arg(Arg::value(n_arg))
                .run(&[n], None);
            for (i, &got) in out.iter().enumerate() {
                let acc: Vec<i32> = (0..8).map(|k| tab[(k + n_arg as usize) & 7] * i as i32).collect();
                assert_eq!(got, acc[i & 7] + tab[i % 8], "{opt:?} n={n_arg} work-item {i}");
            }
        }
    }
}

#[test]
fn large_private_array() {
    for opt in Opt::BOTH {
        let n = 40;
        let mut out = vec![0i32; n];
        Kernel::new("mem_structs", opt, "big_private")
            .arg(Arg::output(&mut out))
            .run(&[n], None);
        for (i, &got) in out.iter().enumerate() {
            let mut big = [0i32; 100];
            big[..3].copy_from_slice(&[1, 2, 3]);
            for k in 3..100 {
                big[k] = big[k - 1].wrapping_add(big[k - 3]).wrapping_add(i as i32);
            }
            assert_eq!(got, big[99].wrapping_add(big[i % 100]), "{opt:?} work-item {i}");
        }
    }
}

/// A hostile module loading a whole `uint[2^32]`: the kernel is refused
/// with a log line naming the instruction, and nothing crashes.
#[test]
fn huge_aggregate_values_are_refused() {
    let il = clift_conformance::spirv("mem_huge_array");
    let mut buf = vec![0u32; 4];
    let mut k = Kernel::with_il(&il, "huge", "").expect("the module builds; only its kernel cannot run");
    let log = k.build_log();
    assert!(
        log.contains("OpLoad") && log.contains("more than 1024 components"),
        "build log: {log}"
    );
    k = k.arg(Arg::output(&mut buf));
    assert_eq!(
        k.launch(None, &[1], None),
        clift_conformance::CL_INVALID_PROGRAM_EXECUTABLE
    );
}

/// Multi-level OpCompositeExtract / OpCompositeInsert paths, struct
/// construction and a constant struct (conformance/spirv/mem_paths.spvasm).
#[test]
fn composite_index_paths() {
    let il = clift_conformance::spirv("mem_paths");
    // struct outer { struct st { uint u; uint arr[2]; uint2 v; } s; uint w; }:
    // u@0, arr@4, (pad), v@16, w@24, (pad); 32 bytes.
    let mut io: Vec<u32> = vec![10, 11, 12, 0xdead, 13, 14, 15, 0xbeef];
    Kernel::with_il(&il, "paths", "")
        .expect("build")
        .arg(Arg::output(&mut io))
        .run(&[1], None);
    // a = arr[0] = 11, b = w = 15, sum = 26; the constant {1, {3, 7}, (9, 1)}
    // with arr[1] = 9 and v.y = 26 gives arr {3, 9} and v (9, 26); the new
    // w is the old v.y.
    assert_eq!(io, vec![15, 3, 9, 0xdead, 9, 26, 14, 0xbeef]);
}

#[test]
fn zero_initialized_private_aggregates() {
    for opt in Opt::BOTH {
        for k in [0i32, 5, 1999] {
            let n = 300;
            let mut out = vec![-1i32; n];
            Kernel::new("mem_structs", opt, "zero_private")
                .arg(Arg::output(&mut out))
                .arg(Arg::value(k))
                .run(&[n], None);
            for (i, &got) in out.iter().enumerate() {
                let mut z = vec![0i32; 2000];
                z[(i * 7 + k as usize) % 2000] = i as i32 + 1;
                let bz = z[k as usize % 2000];
                assert_eq!(got, z[i % 2000] + z[(i + 1) % 2000] + bz, "{opt:?} k={k} work-item {i}");
            }
        }
    }
}

/// OpStore of an OpConstantNull struct zeroes all of it, padding included.
#[test]
fn null_struct_store() {
    let il = clift_conformance::spirv("mem_paths");
    let mut io: Vec<u32> = vec![7; 9];
    Kernel::with_il(&il, "zero", "")
        .expect("build")
        .arg(Arg::output(&mut io))
        .run(&[1], None);
    assert_eq!(io, vec![0, 0, 0, 0, 0, 0, 0, 0, 7]);
}

/// OpCopyMemory copies the whole pointee, padding included.
#[test]
fn copy_memory_of_a_struct() {
    let il = clift_conformance::spirv("mem_paths");
    let src: Vec<u32> = (100..109).collect();
    let mut dst: Vec<u32> = vec![1; 9];
    Kernel::with_il(&il, "copy", "")
        .expect("build")
        .arg(Arg::output(&mut dst))
        .arg(Arg::input(&src))
        .run(&[1], None);
    assert_eq!(dst, vec![100, 101, 102, 103, 104, 105, 106, 107, 1]);
}
