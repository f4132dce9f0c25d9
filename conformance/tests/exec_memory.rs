//! Memory: private arrays with runtime indices, structs with the
//! OpenCL C layout in global memory and by value, nested arrays of structs,
//! struct copies (OpCopyMemorySized), program-scope __constant tables and
//! OpenCL 2.0 __global variables (kept across launches of one program),
//! generic pointers to every space with to_global/to_local/to_private,
//! calls with pointer and by-value parameters, __local pointer arguments and
//! NULL buffer arguments. Kernels: `kernels/cl/memory.cl` at -O0 and -O2,
//! every output element compared with a host reference.

use clift_conformance::exec::{Arg, Kernel, Opt, Pod};
use clift_conformance::rng::Rng;

/// `struct S { char c; int i; float4 f; long l; }`: c at 0, i at 4, f at
/// 16, l at 32, 48 bytes (aligned to 16 by the float4).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
struct S {
    c: i8,
    _p0: [u8; 3],
    i: i32,
    _p1: [u8; 8],
    f: [f32; 4],
    l: i64,
    _p2: [u8; 8],
}
// SAFETY: every byte is a named field (padding made explicit); any bits are valid.
unsafe impl Pod for S {}

impl S {
    fn new(c: i8, i: i32, f: [f32; 4], l: i64) -> S {
        S {
            c,
            i,
            f,
            l,
            ..S::default()
        }
    }
    /// The members, without the padding (which copies may or may not keep).
    fn key(&self) -> (i8, i32, [u32; 4], i64) {
        (self.c, self.i, self.f.map(f32::to_bits), self.l)
    }
    fn random(r: &mut Rng) -> S {
        S::new(
            r.int(-128, 128) as i8,
            r.int(-100_000, 100_000),
            [0; 4].map(|_| r.int(-64, 64) as f32 * 0.5),
            ((r.next() as i64) << 20) - (1 << 40),
        )
    }
}

fn same_s(got: &[S], want: &[S], what: &str) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g.key(), w.key(), "{what}: element {i}");
    }
}

#[test]
fn struct_layout_is_the_opencl_c_one() {
    assert_eq!(std::mem::size_of::<S>(), 48);
    assert_eq!(std::mem::size_of::<Outer>(), 64);
    assert_eq!(std::mem::size_of::<Arr>(), 36);
}

#[test]
fn private_array_with_runtime_indices() {
    let n = 256;
    let mut r = Rng(1);
    let input: Vec<i32> = (0..n * 16).map(|_| r.int(-1000, 1000)).collect();
    let idx: Vec<u32> = (0..n * 2).map(|_| r.next()).collect();
    let want: Vec<i32> = (0..n)
        .map(|g| {
            let mut a: Vec<i32> = input[g * 16..g * 16 + 16].to_vec();
            a[(idx[g * 2] & 15) as usize] += 1000;
            a[(idx[g * 2 + 1] & 15) as usize]
        })
        .collect();
    for opt in Opt::BOTH {
        let mut out = vec![0i32; n];
        Kernel::new("memory", opt, "private_array")
            .arg(Arg::input(&input))
            .arg(Arg::input(&idx))
            .arg(Arg::output(&mut out))
            .run(&[n], Some(&[32]));
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn private_two_dimensional_array() {
    let n = 128;
    let mut r = Rng(2);
    let input: Vec<i64> = (0..n).map(|_| r.int(-1 << 30, 1 << 30) as i64 * 12345).collect();
    let idx: Vec<u32> = (0..n).map(|_| r.next()).collect();
    let want: Vec<i64> = (0..n)
        .map(|g| {
            let mut m = [[0i64; 5]; 4];
            for (ri, row) in m.iter_mut().enumerate() {
                for (ci, v) in row.iter_mut().enumerate() {
                    *v = input[g].wrapping_mul(ri as i64 + 1).wrapping_add(ci as i64);
                }
            }
            let (rr, cc) = ((idx[g] % 4) as usize, ((idx[g] / 4) % 5) as usize);
            m[rr][cc] = m[rr][cc].wrapping_neg();
            let mut s = 0i64;
            for (i, row) in m.iter().enumerate() {
                s = s
                    .wrapping_add(row[cc].wrapping_mul(i as i64 + 1))
                    .wrapping_add(m[rr][i]);
            }
            s
        })
        .collect();
    for opt in Opt::BOTH {
        let mut out = vec![0i64; n];
        Kernel::new("memory", opt, "private_matrix")
            .arg(Arg::input(&input))
            .arg(Arg::input(&idx))
            .arg(Arg::output(&mut out))
            .run(&[n], None);
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn structs_in_global_memory() {
    let n = 100;
    let mut r = Rng(3);
    let input: Vec<S> = (0..n).map(|_| S::random(&mut r)).collect();
    let want: Vec<S> = input
        .iter()
        .map(|s| {
            S::new(
                s.c.wrapping_add(1),
                s.i.wrapping_mul(2),
                [s.f[0] + 1.0, s.f[1] + 2.0, s.f[2] + 3.0, s.f[3] + 4.0],
                s.l - 3,
            )
        })
        .collect();
    for opt in Opt::BOTH {
        let mut out = vec![S::default(); n];
        Kernel::new("memory", opt, "struct_global")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .run(&[n], Some(&[10]));
        same_s(&out, &want, &format!("{opt:?}"));
    }
}

#[test]
fn a_struct_by_value_kernel_argument() {
    let n = 64;
    let s = S::new(-5, 1_000_000, [1.5, -2.0, 3.25, 8.0], -(1 << 40) + 77);
    let want: Vec<S> = (0..n)
        .map(|g| {
            let mut t = s;
            t.c = t.c.wrapping_add(g as i8);
            t.i += g as i32;
            t.f[1] += g as f32;
            t.l = t.l.wrapping_mul(g as i64);
            t
        })
        .collect();
    for opt in Opt::BOTH {
        let mut out = vec![S::default(); n];
        Kernel::new("memory", opt, "struct_by_value")
            .arg(Arg::value(s))
            .arg(Arg::output(&mut out))
            .run(&[n], Some(&[16]));
        same_s(&out, &want, &format!("{opt:?}"));
    }
}

/// `struct Inner { short s[3]; int v; }`: 12 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Inner {
    s: [i16; 3],
    _p: [u8; 2],
    v: i32,
}

/// `struct Outer { struct Inner in[4]; char tag; ulong w; }`: tag at 48, w
/// at 56, 64 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
struct Outer {
    inn: [Inner; 4],
    tag: i8,
    _p: [u8; 7],
    w: u64,
}
// SAFETY: padding made explicit; any bits are valid.
unsafe impl Pod for Outer {}

impl Outer {
    fn key(&self) -> ([([i16; 3], i32); 4], i8, u64) {
        (self.inn.map(|x| (x.s, x.v)), self.tag, self.w)
    }
}

#[test]
fn nested_arrays_of_structs() {
    let n = 50;
    let mut r = Rng(4);
    let input: Vec<Outer> = (0..n)
        .map(|_| {
            let mut o = Outer::default();
            for x in o.inn.iter_mut() {
                x.s = [0; 3].map(|_| r.int(-20000, 20000) as i16);
                x.v = r.int(-1 << 30, 1 << 30);
            }
            o.tag = r.int(-128, 128) as i8;
            o.w = ((r.next() as u64) << 32) | r.next() as u64;
            o
        })
        .collect();
    let idx: Vec<u32> = (0..n).map(|_| r.next()).collect();
    let mut want = input.clone();
    let mut want_sum = vec![0i32; n];
    for g in 0..n {
        let (a, b) = ((idx[g] & 3) as usize, ((idx[g] >> 2) % 3) as usize);
        let o = &mut want[g];
        o.inn[a].s[b] = (o.inn[a].s[b] as i32 * 3) as i16;
        o.inn[3 - a].v = o.inn[3 - a].v.wrapping_add(o.tag as i32);
        o.w ^= ((o.inn[a].v as i64) << 32) as u64;
        let mut t = 0i32;
        for i in 0..4 {
            for j in 0..3 {
                t += input[g].inn[i].s[j] as i32 * (i as i32 * 3 + j as i32 + 1);
            }
        }
        want_sum[g] = t;
    }
    for opt in Opt::BOTH {
        let mut out = vec![Outer::default(); n];
        let mut sum = vec![0i32; n];
        Kernel::new("memory", opt, "nested")
            .arg(Arg::input(&input))
            .arg(Arg::input(&idx))
            .arg(Arg::output(&mut out))
            .arg(Arg::output(&mut sum))
            .run(&[n], None);
        for g in 0..n {
            assert_eq!(out[g].key(), want[g].key(), "{opt:?}: out[{g}]");
        }
        assert_eq!(sum, want_sum, "{opt:?}: sums");
    }
}

#[test]
fn struct_assignment_copies() {
    let n = 77;
    let mut r = Rng(5);
    let input: Vec<S> = (0..n).map(|_| S::random(&mut r)).collect();
    let perm: Vec<u32> = (0..n).map(|i| ((i * 31 + 7) % n) as u32).collect();
    let want: Vec<S> = (0..n)
        .map(|g| {
            let mut u = input[perm[g] as usize];
            u.i = u.i.wrapping_add(1);
            u
        })
        .collect();
    for opt in Opt::BOTH {
        let mut out = vec![S::default(); n];
        Kernel::new("memory", opt, "struct_copy")
            .arg(Arg::input(&input))
            .arg(Arg::input(&perm))
            .arg(Arg::output(&mut out))
            .run(&[n], Some(&[7]));
        same_s(&out, &want, &format!("{opt:?}"));
    }
}

/// `struct Arr { int v[9]; }`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Arr {
    v: [i32; 9],
}
// SAFETY: no padding; any bits are valid.
unsafe impl Pod for Arr {}

#[test]
fn array_copies_through_a_struct() {
    let n = 90;
    let mut r = Rng(6);
    let input: Vec<Arr> = (0..n)
        .map(|_| Arr {
            v: [0; 9].map(|_| r.next() as i32),
        })
        .collect();
    let idx: Vec<u32> = (0..n).map(|_| r.next()).collect();
    let want: Vec<Arr> = (0..n)
        .map(|g| {
            let mut b = input[g];
            b.v[(idx[g] % 9) as usize] = -1;
            b
        })
        .collect();
    for opt in Opt::BOTH {
        let mut out = vec![Arr::default(); n];
        Kernel::new("memory", opt, "array_copy")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .arg(Arg::input(&idx))
            .run(&[n], None);
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn program_scope_constant_tables() {
    let n = 200;
    let mut r = Rng(7);
    let idx: Vec<u32> = (0..n).map(|_| r.next()).collect();
    let squares: Vec<i32> = (0..16).map(|i| i * i).collect();
    let pairs = [(1i16, 0.5f32), (-2, 1.5), (3, -2.25)];
    let message = b"clift!";
    let want: Vec<f32> = idx
        .iter()
        .map(|&i| {
            let (a, _) = pairs[(i % 3) as usize];
            let (_, b) = pairs[((i >> 4) % 3) as usize];
            (squares[(i % 16) as usize] as f32 + a as f32 * b) + message[(i % 6) as usize] as f32
        })
        .collect();
    for opt in Opt::BOTH {
        let mut out = vec![0f32; n];
        Kernel::new("memory", opt, "constant_tables")
            .arg(Arg::input(&idx))
            .arg(Arg::output(&mut out))
            .run(&[n], Some(&[8]));
        assert_eq!(out, want, "{opt:?}");
    }
}

/// read_globals over 16 work-items: (gtable[g] + gcounter, gvec, gzero).
fn read_globals(k: Kernel<'_>) -> (Vec<i32>, [f32; 4], Vec<i64>) {
    let mut out = vec![0i32; 16];
    let mut v = [[-1f32; 4]];
    let mut z = vec![-1i64; 8];
    k.arg(Arg::output(&mut out))
        .arg(Arg::output(&mut v))
        .arg(Arg::output(&mut z))
        .run(&[16], Some(&[4]));
    (out, v[0], z)
}

#[test]
fn program_scope_global_variables_persist_across_launches() {
    let initial = (
        (1..=16).map(|x| x + 5).collect::<Vec<i32>>(),
        [0.5f32, 1.5, 2.5, 3.5],
        vec![0i64; 8],
    );
    let input: Vec<i32> = (0..21).map(|i| i * 3 - 20).collect();
    let written = (
        (0..16).map(|g| input[g] + input[16]).collect::<Vec<i32>>(),
        [input[17] as f32, input[18] as f32, input[19] as f32, input[20] as f32],
        (0..8).map(|g| (input[g] as i64) << 40).collect::<Vec<i64>>(),
    );
    for opt in Opt::BOTH {
        let reader = Kernel::new("memory", opt, "read_globals");
        let writer = reader.sibling("write_globals");
        let again = reader.sibling("read_globals");
        let twice = reader.sibling("read_globals");
        assert_eq!(read_globals(reader), initial, "{opt:?}: the initializers");
        writer.arg(Arg::input(&input)).run(&[16], Some(&[8]));
        assert_eq!(read_globals(again), written, "{opt:?}: after write_globals");
        assert_eq!(read_globals(twice), written, "{opt:?}: read a second time");
        // Another program has its own variables, initialized afresh.
        let other = Kernel::new("memory", opt, "read_globals");
        assert_eq!(read_globals(other), initial, "{opt:?}: a new program");
    }
}

#[test]
fn generic_pointers_to_every_address_space() {
    let (n, local) = (64usize, 8usize);
    let mut r = Rng(8);
    let input: Vec<i32> = (0..n * 4).map(|_| r.int(-1000, 1000)).collect();
    let mut want = vec![0i32; n * 4];
    let want_in: Vec<i32> = input.iter().map(|x| x * 7).collect();
    let dot = |v: &[i32]| -> i32 { v.iter().enumerate().map(|(i, x)| x * (i as i32 + 1)).sum() };
    for g in 0..n {
        let x = &input[g * 4..g * 4 + 4];
        let priv_: Vec<i32> = x.iter().map(|v| (v + 1) * 3).collect();
        let scr: Vec<i32> = x.iter().map(|v| (v + 2) * 5).collect();
        want[g * 4] = dot(&want_in[g * 4..g * 4 + 4]);
        want[g * 4 + 1] = dot(&scr);
        want[g * 4 + 2] = dot(&priv_);
        want[g * 4 + 3] = dot(&priv_[..2]) + dot(&scr[2..]);
    }
    for opt in Opt::BOTH {
        let mut inout = input.clone();
        let mut out = vec![0i32; n * 4];
        Kernel::new("memory", opt, "generic_spaces")
            .arg(Arg::output(&mut inout))
            .arg(Arg::output(&mut out))
            .arg(Arg::Local(local * 4 * 4))
            .run(&[n], Some(&[local]));
        assert_eq!(
            inout, want_in,
            "{opt:?}: the global data scaled through a generic pointer"
        );
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn to_global_to_local_to_private() {
    let (n, local) = (96usize, 16usize);
    let mut r = Rng(9);
    let which: Vec<i32> = (0..n).map(|_| r.int(0, 1 << 20)).collect();
    let mut want = vec![0i32; n * 2];
    for g in 0..n {
        let (flags, v) = match which[g] % 3 {
            0 => (1, 200 + g as i32),
            1 => (2, 100 + g as i32),
            _ => (4, g as i32),
        };
        want[g * 2] = flags;
        want[g * 2 + 1] = 2 * v;
    }
    for opt in Opt::BOTH {
        let mut gbuf = vec![0i32; n];
        let mut out = vec![-9i32; n * 2];
        Kernel::new("memory", opt, "generic_casts")
            .arg(Arg::output(&mut gbuf))
            .arg(Arg::input(&which))
            .arg(Arg::output(&mut out))
            .arg(Arg::Local(local * 4))
            .run(&[n], Some(&[local]));
        for g in 0..n {
            assert_eq!(
                out[g * 2..g * 2 + 2],
                want[g * 2..g * 2 + 2],
                "{opt:?}: work-item {g} (space {}; flags: 1 global, 2 local, 4 private)",
                ["global", "local", "private"][(which[g] % 3) as usize]
            );
        }
    }
}

#[test]
fn calls_with_pointer_and_by_value_parameters() {
    let n = 40;
    let mut r = Rng(10);
    let input: Vec<S> = (0..n + 1).map(|_| S::random(&mut r)).collect();
    let acc0: Vec<i64> = (0..n).map(|_| r.next() as i64).collect();
    let mut want = vec![S::default(); n];
    let mut want_acc = acc0.clone();
    let mut want_pick = vec![0i32; n];
    for g in 0..n {
        let (a, b, k) = (input[g], input[g + 1], g as i32 + 1);
        let mut res = S::new(
            (a.c as i32 + b.c as i32) as i8,
            a.i.wrapping_mul(k).wrapping_add(b.i),
            std::array::from_fn(|j| a.f[j] * k as f32 - b.f[j]),
            a.l.wrapping_add(b.l.wrapping_mul(k as i64)),
        );
        res.i = res.i.wrapping_add(1);
        want_acc[g] = want_acc[g].wrapping_add(res.l);
        want[g] = res;
        want_pick[g] =
            a.i.wrapping_add((b.l as i32).wrapping_mul(2))
                .wrapping_add((a.f[0] as i32) * 3)
                .wrapping_add(b.c as i32 * 4);
    }
    for opt in Opt::BOTH {
        let mut out = vec![S::default(); n];
        let mut acc = acc0.clone();
        let mut picked = vec![0i32; n];
        Kernel::new("memory", opt, "calls")
            .bytes_may_differ(
                1,
                std::mem::size_of::<S>(),
                &[(1, 3), (8, 8), (40, 8)],
                "the padding of a struct written member by member is unspecified",
            )
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .arg(Arg::output(&mut acc))
            .arg(Arg::output(&mut picked))
            .run(&[n], Some(&[8]));
        same_s(&out, &want, &format!("{opt:?}"));
        assert_eq!(acc, want_acc, "{opt:?}: acc");
        assert_eq!(picked, want_pick, "{opt:?}: pick");
    }
}

#[test]
fn local_pointer_arguments() {
    let (n, local) = (128usize, 32usize);
    let input: Vec<i32> = (0..n as i32).map(|i| i * 1001 - 50_000).collect();
    let want: Vec<i32> = input.iter().map(|x| x * 3).collect();
    for opt in Opt::BOTH {
        let mut out = vec![0i32; n];
        Kernel::new("memory", opt, "local_arg")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .arg(Arg::Local(local * 4))
            .arg(Arg::Local(local * 8))
            .run(&[n], Some(&[local]));
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn null_buffer_arguments() {
    let n = 50;
    let input: Vec<i32> = (0..n as i32).map(|i| i * i).collect();
    for opt in Opt::BOTH {
        let mut out = vec![0i32; n];
        Kernel::new("memory", opt, "maybe_null")
            .arg(Arg::NullBuffer)
            .arg(Arg::output(&mut out))
            .run(&[n], Some(&[5]));
        assert_eq!(out, vec![-1; n], "{opt:?}: NULL");
        Kernel::new("memory", opt, "maybe_null")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .run(&[n], Some(&[5]));
        let want: Vec<i32> = input.iter().map(|x| x + 1).collect();
        assert_eq!(out, want, "{opt:?}: a buffer");
    }
}

#[test]
fn sub_buffer_arguments() {
    use clift_conformance::*;
    let align_bits: cl_uint = device_value(device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    let align = (align_bits / 8) as usize;
    let n = 300;
    let input: Vec<i32> = (0..n as i32).map(|i| i * 7 - 1000).collect();
    let want: Vec<i32> = input.iter().map(|x| x + 1).collect();
    for opt in Opt::BOTH {
        let mut inp = input.clone();
        let mut out = vec![0i32; n];
        Kernel::new("memory", opt, "maybe_null")
            .arg(Arg::sub_buffer(&mut inp, align))
            .arg(Arg::sub_buffer(&mut out, 3 * align))
            .run(&[n], Some(&[20]));
        assert_eq!(out, want, "{opt:?}");
        assert_eq!(inp, input, "{opt:?}: the input sub-buffer");
    }
}

#[test]
fn a_constant_pointer_argument() {
    let n = 500;
    let mut r = Rng(12);
    let tab: Vec<i32> = (0..100).map(|_| r.int(-1_000_000, 1_000_000)).collect();
    let idx: Vec<u32> = (0..n).map(|_| r.next()).collect();
    let want: Vec<i32> = idx
        .iter()
        .map(|&i| tab[(i % 100) as usize] * 2 + tab[((i >> 8) % 100) as usize])
        .collect();
    for opt in Opt::BOTH {
        let mut out = vec![0i32; n];
        Kernel::new("memory", opt, "constant_arg")
            .arg(Arg::input(&tab))
            .arg(Arg::input(&idx))
            .arg(Arg::output(&mut out))
            .run(&[n], None);
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn vectors_by_value() {
    let a = [1.5f32, -2.25, 4.0, 0.5];
    let b = [3i32, -7, 11, 0x7777_7777]; // the 4th lane of an int3 is padding
    let c: [u8; 16] = std::array::from_fn(|i| (i * 17 + 3) as u8);
    let d = [1i64 << 40, (1i64 << 40) - 12345];
    let e: [i16; 8] = std::array::from_fn(|i| (i as i16 - 4) * 1000);
    let n = 64;
    let want: Vec<f32> = (0..n)
        .map(|g| {
            a[0] * g as f32
                + a[1]
                + a[2]
                + a[3]
                + (b[0] + b[1] * 2 + b[2] * 3) as f32
                + (c[0] as i32 + c[15] as i32 * 2 + c[7] as i32) as f32
                + (d[0] - d[1]) as f32
                + e[3] as f32 * e[6] as f32
        })
        .collect();
    for opt in Opt::BOTH {
        let mut out = vec![0f32; n];
        Kernel::new("memory", opt, "vector_args")
            .arg(Arg::value(a))
            .arg(Arg::value(b))
            .arg(Arg::value(c))
            .arg(Arg::value(d))
            .arg(Arg::value(e))
            .arg(Arg::output(&mut out))
            .run(&[n], Some(&[16]));
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn program_scope_pointers_initialized_with_addresses() {
    let mut gdata: Vec<i32> = (1..=8).map(|x| x * 10).collect();
    for opt in Opt::BOTH {
        let first = Kernel::new("memory_extra", opt, "pointer_initializers");
        let after = first.sibling("read_after_pointer_moved");
        let mut out = vec![-1i32; 4];
        first.arg(Arg::output(&mut out)).run(&[4], None);
        assert_eq!(
            out,
            [40, 60, 14, 60],
            "{opt:?}: *gptr, gptr[2], *cptr + cptr[2], *gptr moved"
        );
        let mut back = vec![-1i32; 9];
        after.arg(Arg::output(&mut back)).run(&[9], None);
        gdata[3] = 1040;
        assert_eq!(back[..8], gdata[..], "{opt:?}: gdata after *gptr += 1000");
        assert_eq!(back[8], 5, "{opt:?}: gptr - gdata after gptr = &gdata[5]");
        gdata[3] = 40;
        // A new program starts from the initializers again.
        let mut fresh = vec![-1i32; 9];
        Kernel::new("memory_extra", opt, "read_after_pointer_moved")
            .arg(Arg::output(&mut fresh))
            .run(&[9], None);
        assert_eq!(fresh[..8], gdata[..], "{opt:?}: a new program's gdata");
        assert_eq!(fresh[8], 3, "{opt:?}: a new program's gptr");
    }
}

#[test]
fn a_constant_table_of_string_pointers() {
    let n = 40;
    let idx: Vec<u32> = (0..n as u32).map(|i| i * 7 + 1).collect();
    let names = ["zero", "one", "two", "three"];
    let mut want = vec![0u8; n * 8];
    for g in 0..n {
        let s = names[(idx[g] % 4) as usize].as_bytes();
        want[g * 8..g * 8 + s.len()].copy_from_slice(s);
        want[g * 8 + 7] = s.len() as u8;
    }
    for opt in Opt::BOTH {
        let mut out = vec![0u8; n * 8];
        Kernel::new("memory_extra", opt, "string_table")
            .arg(Arg::input(&idx))
            .arg(Arg::output(&mut out))
            .run(&[n], None);
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn volatile_loads_and_stores() {
    let n = 100;
    let buf0: Vec<i32> = (0..n as i32).map(|i| i * 3 - 50).collect();
    let want_buf: Vec<i32> = buf0.iter().map(|b| (b + 1) * 3).collect();
    let want: Vec<i32> = (0..n).map(|g| g as i32 + want_buf[g]).collect();
    for opt in Opt::BOTH {
        let mut buf = buf0.clone();
        let mut out = vec![0i32; n];
        Kernel::new("memory_extra", opt, "volatile_access")
            .arg(Arg::output(&mut buf))
            .arg(Arg::output(&mut out))
            .run(&[n], Some(&[10]));
        assert_eq!(buf, want_buf, "{opt:?}: buffer");
        assert_eq!(out, want, "{opt:?}");
    }
}

/// `struct V3 { float3 v; int tag; }`: tag at 16, 32 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
struct V3 {
    v: [f32; 4],
    tag: i32,
    _p: [u8; 12],
}
// SAFETY: padding made explicit; any bits are valid.
unsafe impl Pod for V3 {}

#[test]
fn float3_members_take_16_bytes() {
    let n = 50;
    let input: Vec<V3> = (0..n)
        .map(|i| V3 {
            v: [i as f32, i as f32 * 0.5, -(i as f32), 99.0],
            tag: i as i32 * 11,
            _p: [0; 12],
        })
        .collect();
    for opt in Opt::BOTH {
        let mut out = vec![V3::default(); n];
        Kernel::new("memory_extra", opt, "float3_members")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .run(&[n], None);
        for g in 0..n {
            let s = &input[g];
            assert_eq!(
                out[g].v[..3],
                [s.v[2] * 2.0, s.v[0] * 2.0, s.v[1] * 2.0],
                "{opt:?}: v of {g}"
            );
            assert_eq!(out[g].tag, s.tag + 1, "{opt:?}: tag of {g}");
        }
    }
}

#[test]
fn pointers_as_integers_differences_and_comparisons() {
    let n = 200;
    let base: Vec<i32> = (0..64).map(|i| i * i - 100).collect();
    let mut r = Rng(13);
    let off: Vec<u32> = (0..n).map(|_| r.next()).collect();
    let mut want = vec![0i64; n * 4];
    for g in 0..n {
        let (p, q) = ((off[g] % 64) as i64, ((off[g] >> 8) % 64) as i64);
        want[g * 4] = p;
        want[g * 4 + 1] = q - p;
        want[g * 4 + 2] = (p < q) as i64 + 2 * (p == q) as i64 + 4 * (p > q) as i64;
        want[g * 4 + 3] = (base[p as usize] + base[q as usize]) as i64;
    }
    for opt in Opt::BOTH {
        let mut out = vec![0i64; n * 4];
        Kernel::new("memory_extra", opt, "pointer_arith")
            .arg(Arg::input(&base))
            .arg(Arg::input(&off))
            .arg(Arg::output(&mut out))
            .run(&[n], None);
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn selects_and_phis_of_pointers() {
    let n = 300;
    let mut r = Rng(14);
    let bufs: Vec<Vec<i32>> = (0..3).map(|_| (0..n).map(|_| r.int(-100, 300)).collect()).collect();
    for iters in [0, 1, 5] {
        let want: Vec<i32> = (0..n)
            .map(|g| {
                let mut p = if g & 1 == 1 { 0 } else { 1 };
                for _ in 0..iters {
                    if bufs[p][g] < 0 {
                        p = 2;
                    } else if p == 2 {
                        p = 0;
                    }
                }
                bufs[p][g]
            })
            .collect();
        for opt in Opt::BOTH {
            let mut out = vec![0i32; n];
            Kernel::new("memory_extra", opt, "pointer_select")
                .arg(Arg::input(&bufs[0]))
                .arg(Arg::input(&bufs[1]))
                .arg(Arg::input(&bufs[2]))
                .arg(Arg::output(&mut out))
                .arg(Arg::value(iters))
                .run(&[n], None);
            assert_eq!(out, want, "{opt:?}: {iters} iterations");
        }
    }
}

#[test]
fn unreachable_default_of_a_switch() {
    let input: Vec<u32> = (0..128).map(|i| (i * 7) % 4).collect();
    let want: Vec<i32> = input
        .iter()
        .map(|&x| [10, 20, 30, 40][x as usize] + x as i32 * 100)
        .collect();
    for opt in Opt::BOTH {
        let mut out = vec![0i32; input.len()];
        Kernel::new("memory_extra", opt, "unreachable")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .run(&[input.len()], None);
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn get_fence_of_generic_pointers() {
    // cl_mem_fence_flags of OpenCL C (opencl-c-base.h).
    const CLK_LOCAL_MEM_FENCE: i32 = 1;
    const CLK_GLOBAL_MEM_FENCE: i32 = 2;
    let (n, local) = (96usize, 16usize);
    let mut r = Rng(15);
    let which: Vec<i32> = (0..n).map(|_| r.int(0, 1 << 20)).collect();
    let (gf, lf) = (CLK_GLOBAL_MEM_FENCE, CLK_LOCAL_MEM_FENCE);
    for opt in Opt::BOTH {
        let gbuf = vec![0i32; n];
        let mut out = vec![-1i32; n * 2];
        Kernel::new("memory_extra", opt, "fences")
            .arg(Arg::input(&gbuf))
            .arg(Arg::input(&which))
            .arg(Arg::output(&mut out))
            .arg(Arg::Local(local * 4))
            .run(&[n], Some(&[local]));
        for g in 0..n {
            let space = which[g] % 3;
            match space {
                0 => assert_eq!(out[g * 2], gf, "{opt:?}: get_fence of a global pointer (item {g})"),
                1 => assert_eq!(out[g * 2], lf, "{opt:?}: get_fence of a local pointer (item {g})"),
                // A private pointer: any valid fence value.
                _ => assert_eq!(
                    out[g * 2] & !(gf | lf),
                    0,
                    "{opt:?}: get_fence of a private pointer (item {g})"
                ),
            }
            assert_eq!(out[g * 2 + 1], gf * 16 + lf, "{opt:?}: item {g}");
        }
    }
}
