//! Floating-point values that are only moved keep every bit: the kernels
//! of `kernels/cl/fp16_moves.cl` (half, over all 65,536 encodings) and
//! `fp_moves.cl` (float and double, over signaling and quiet NaNs with
//! payloads of both signs, infinities, denormals, zeros and random
//! patterns) move values through loads and stores, vloadn/vstoren of
//! every width, vector pointers, swizzles, .hi/.lo/.odd/.even, dynamic
//! component indices, shuffle/shuffle2, select, ?:, if/else and loop
//! phis, private/local/__constant/generic memory, values live across a
//! barrier, structs (whole and member by member, in global memory and
//! by value), arguments by value, async copies (plain and strided),
//! work_group_broadcast, as_type to and from every type of the same size,
//! constants, specialization constants (and their folded FNegate and
//! Select, `kernels/spv/hand/spec_moves.spv`), negation, fabs, copysign,
//! and float atomic exchanges; one-element-per-work-item kernels (`lanes`)
//! are the shapes the 4-lane bodies take (float at -O2); bitselect of
//! every width is checked against its bitwise definition. Every output is
//! compared bit for bit, at -O0 and -O2, with the 4-lane bodies and with
//! `-cl-clift-max-lanes=1` (the scalar body alone, the exec helper's twin
//! of every program).

use std::fmt::LowerHex;

use clift_conformance::exec::{corpus_spirv, hand_spirv, Arg, Kernel, Opt, Pod};

/// The build options the programs are built with. The scalar body alone
/// (`-cl-clift-max-lanes=1`) needs no build of its own here: the exec
/// helper builds that twin of every program and compares each launch with
/// it bit for bit.
const MODES: [&str; 1] = [""];

/// Elements per input (16 per work-item).
const N: usize = 65536;
/// Work-items per launch.
const ITEMS: usize = N / 16;
/// Local size (the `spaces` kernels' tile holds 64 work-items).
const LOCAL: usize = 64;

/// The bit pattern of one floating-point element (`u16` for half).
trait Elem: Pod + Eq + LowerHex + Default + 'static {
    /// The OpenCL C type name (kernel names end in it).
    const NAME: &'static str;
    /// The corpus module holding its kernels.
    const MODULE: &'static str;
    fn from_u64(x: u64) -> Self;
    fn to_u64(self) -> u64;
    /// The encodings every test covers: NaNs (signaling and quiet, with
    /// payloads, both signs), infinities, zeros, denormals, normals.
    fn specials() -> Vec<Self>;
    /// N inputs: every half; for float and double, the specials and a
    /// mix of the classes with random payloads.
    fn inputs(seed: u64) -> Vec<Self>;
}

fn splitmix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// N patterns of a `bits`-wide float with `mant` mantissa bits: the
/// specials, then by turns a signaling NaN, a quiet NaN, a denormal (each
/// with a random payload and sign) and random patterns.
fn mixed(specials: &[u64], bits: u32, mant: u32, seed: u64) -> Vec<u64> {
    let mut s = seed;
    let sign = 1u64 << (bits - 1);
    let exp = (sign - 1) & !((1u64 << mant) - 1);
    let quiet = 1u64 << (mant - 1);
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    (0..N)
        .map(|k| {
            if k < specials.len() {
                return specials[k];
            }
            let r = splitmix(&mut s);
            let sg = r & sign;
            match k % 6 {
                0 => sg | exp | (1 + r % (quiet - 1)),
                1 => sg | exp | quiet | (r & (quiet - 1)),
                2 => sg | (r & ((1u64 << mant) - 1)),
                _ => r & mask,
            }
        })
        .collect()
}

impl Elem for u16 {
    const NAME: &'static str = "half";
    const MODULE: &'static str = "fp16_moves";
    fn from_u64(x: u64) -> u16 {
        x as u16
    }
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
    fn specials() -> Vec<u16> {
        vec![
            0x7d8e, 0xfc01, 0x7c01, 0x7dff, 0xfd55, 0x7e00, 0xff8e, 0x7fff, 0x7c00, 0xfc00, 0x0001, 0x83ff, 0x8000,
            0x0000, 0x3c00, 0xfbff, 0x0400, 0x03ff, 0xfe01, 0x7e01,
        ]
    }
    fn inputs(seed: u64) -> Vec<u16> {
        // Every encoding once, in an order set by the seed (an odd
        // multiplier is a bijection).
        let mul = (seed.wrapping_mul(0x9e37) | 1) as u16;
        (0..N)
            .map(|k| (k as u16).wrapping_mul(mul).wrapping_add(seed as u16))
            .collect()
    }
}

impl Elem for u32 {
    const NAME: &'static str = "float";
    const MODULE: &'static str = "fp_moves";
    fn from_u64(x: u64) -> u32 {
        x as u32
    }
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
    fn specials() -> Vec<u32> {
        vec![
            0x7f80_0001,
            0xff80_0001,
            0x7fa5_a5a5,
            0xffbf_ffff,
            0x7fc0_0000,
            0xffc1_2345,
            0x7fff_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x0000_0001,
            0x807f_ffff,
            0x0080_0000,
            0x8000_0000,
            0x0000_0000,
            0x3f80_0000,
            0xff7f_ffff,
        ]
    }
    fn inputs(seed: u64) -> Vec<u32> {
        let sp: Vec<u64> = Self::specials().into_iter().map(u64::from).collect();
        mixed(&sp, 32, 23, seed).into_iter().map(|x| x as u32).collect()
    }
}

impl Elem for u64 {
    const NAME: &'static str = "double";
    const MODULE: &'static str = "fp_moves";
    fn from_u64(x: u64) -> u64 {
        x
    }
    fn to_u64(self) -> u64 {
        self
    }
    fn specials() -> Vec<u64> {
        vec![
            0x7ff0_0000_0000_0001,
            0xfff0_0000_0000_0001,
            0x7ff5_a5a5_a5a5_a5a5,
            0xfff7_ffff_ffff_ffff,
            0x7ff8_0000_0000_0000,
            0xfff8_1234_5678_9abc,
            0x7fff_ffff_ffff_ffff,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
            0x0000_0000_0000_0001,
            0x800f_ffff_ffff_ffff,
            0x0010_0000_0000_0000,
            0x8000_0000_0000_0000,
            0x0000_0000_0000_0000,
            0x3ff0_0000_0000_0000,
            0xffef_ffff_ffff_ffff,
        ]
    }
    fn inputs(seed: u64) -> Vec<u64> {
        mixed(&Self::specials(), 64, 52, seed)
    }
}

/// The bytes of a slice of elements.
fn bytes_of<E: Elem>(v: &[E]) -> Vec<u8> {
    clift_conformance::exec::as_bytes(v).to_vec()
}

/// The elements of a byte slice.
fn elems_of<E: Elem>(b: &[u8]) -> Vec<E> {
    let z = std::mem::size_of::<E>();
    b.chunks(z)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..z].copy_from_slice(c);
            E::from_u64(u64::from_le_bytes(w))
        })
        .collect()
}

/// The mismatches of `got[k]` against `want(k)` (bit for bit): none, or
/// a line with their count and the first few.
fn mismatches<E: Elem>(what: &str, got: &[E], want: impl Fn(usize) -> E) -> Option<String> {
    let bad: Vec<usize> = (0..got.len()).filter(|&k| got[k] != want(k)).collect();
    if bad.is_empty() {
        return None;
    }
    let show: Vec<String> = bad
        .iter()
        .take(6)
        .map(|&k| format!("[{k}] {:#x} want {:#x}", got[k], want(k)))
        .collect();
    Some(format!(
        "{what}: {} of {} differ: {}",
        bad.len(),
        got.len(),
        show.join(", ")
    ))
}

/// One built program of `E`'s module, for one level and mode.
struct Setup {
    opt: Opt,
    mode: &'static str,
    first: Kernel<'static>,
    /// What differed so far (every path is checked before the test fails).
    failures: std::cell::RefCell<Vec<String>>,
}

impl Setup {
    fn new<E: Elem>(opt: Opt, mode: &'static str) -> Setup {
        let first = Kernel::with_il(&corpus_spirv(E::MODULE, opt), &format!("load_store_{}", E::NAME), mode)
            .unwrap_or_else(|log| panic!("building {} at {opt:?} {mode:?}: {log}", E::MODULE));
        Setup {
            opt,
            mode,
            first,
            failures: Default::default(),
        }
    }

    fn kernel<'a>(&self, name: &str) -> Kernel<'a> {
        self.first.sibling(name)
    }

    fn what(&self, name: &str) -> String {
        format!("{name} at {:?} {:?}", self.opt, self.mode)
    }

    /// Records the mismatches of `got` against `want`, if any.
    fn check<E: Elem>(&self, what: &str, got: &[E], want: impl Fn(usize) -> E) {
        self.failures.borrow_mut().extend(mismatches(what, got, want));
    }

    /// Records a failure unless `ok`.
    fn expect(&self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.failures.borrow_mut().push(what());
        }
    }
}

/// Checks region `r` of `o` (N elements each) against `want(element)`.
fn region<E: Elem>(s: &Setup, name: &str, o: &[E], r: usize, want: impl Fn(usize) -> E) {
    s.check(&format!("{} region {r}", s.what(name)), &o[r * N..(r + 1) * N], want);
}

fn load_store<E: Elem>(s: &Setup, a: &[E]) {
    let name = format!("load_store_{}", E::NAME);
    let mut o = vec![E::default(); 8 * N];
    s.kernel(&name)
        .arg(Arg::input(a))
        .arg(Arg::output(&mut o))
        .run(&[ITEMS], Some(&[LOCAL]));
    for r in 0..8 {
        region(s, &name, &o, r, |e| a[e]);
    }
}

/// Element `e`'s work-item base (16 i) and position j in it.
fn split(e: usize) -> (usize, usize) {
    (e & !15, e & 15)
}

fn swizzle<E: Elem>(s: &Setup, a: &[E]) {
    let name = format!("swizzle_{}", E::NAME);
    let k = 5usize;
    let mut o = vec![E::default(); 7 * N];
    s.kernel(&name)
        .arg(Arg::input(a))
        .arg(Arg::output(&mut o))
        .arg(Arg::value(k as i32))
        .run(&[ITEMS], Some(&[LOCAL]));
    const MIX: [usize; 16] = [7, 3, 2, 10, 5, 0, 2, 4, 6, 15, 1, 8, 6, 12, 9, 11];
    const QUAD: [usize; 16] = [7, 6, 5, 4, 6, 7, 4, 5, 5, 7, 4, 6, 10, 8, 9, 11];
    let perms: [&dyn Fn(usize) -> usize; 6] = [
        &|j| (j + 8) % 16,
        &|j| if j < 8 { 2 * j + 1 } else { 2 * (j - 8) },
        &|j| 15 - j,
        &|j| MIX[j],
        &|j| QUAD[j],
        &|j| (5 * j + k) & 15,
    ];
    for (r, p) in perms.iter().enumerate() {
        region(s, &name, &o, r, |e| {
            let (b, j) = split(e);
            a[b + p(j)]
        });
    }
    // z[(7 j + k) & 15] = w[j]: element m came from j = 7 (m - k) (7 is its
    // own inverse modulo 16).
    region(s, &name, &o, 6, |e| {
        let (b, m) = split(e);
        a[b + ((7 * (m + 16 - k)) & 15)]
    });
}

fn shuffles<E: Elem>(s: &Setup, a: &[E]) {
    let name = format!("shuffles_{}", E::NAME);
    // Mask elements with bits above the ones shuffle uses.
    let m: Vec<E> = (0..16u64)
        .map(|j| E::from_u64((j * 11 + 3) % 16 + 16 * (j + 1)))
        .collect();
    let mk = |j: usize| m[j].to_u64() as usize;
    let mut o = vec![E::default(); 4 * N];
    s.kernel(&name)
        .arg(Arg::input(a))
        .arg(Arg::input(&m))
        .arg(Arg::output(&mut o))
        .run(&[ITEMS], Some(&[LOCAL]));
    let perms: [&dyn Fn(usize) -> usize; 4] = [
        &|j| mk(j) & 15,
        &|j| ((mk(j) & 15) + 8) % 16,
        &|j| match j {
            0..=3 => mk(j) & 3,
            4..=7 => 4 + (mk(j) & 3),
            _ => 8 + (mk(j) & 7),
        },
        &|j| match j {
            0..=1 => mk(j) & 15,
            2..=5 => mk(j) & 7,
            6..=13 => {
                let x = mk(j) & 7;
                if x < 4 {
                    x
                } else {
                    15 - (x - 4)
                }
            }
            _ => mk(j) & 1,
        },
    ];
    for (r, p) in perms.iter().enumerate() {
        region(s, &name, &o, r, |e| {
            let (b, j) = split(e);
            a[b + p(j)]
        });
    }
}

fn selects<E: Elem>(s: &Setup, a: &[E], b: &[E]) {
    let name = format!("selects_{}", E::NAME);
    let bits = 8 * std::mem::size_of::<E>() as u32;
    let c = conditions::<E>();
    let mut o = vec![E::default(); 8 * N];
    s.kernel(&name)
        .arg(Arg::input(a))
        .arg(Arg::input(b))
        .arg(Arg::input(&c))
        .arg(Arg::output(&mut o))
        .run(&[ITEMS], Some(&[LOCAL]));
    let cv = |e: usize| c[e].to_u64();
    let neg = |e: usize| cv(e) >> (bits - 1) == 1;
    let pick = |t: bool, e: usize| if t { b[e] } else { a[e] };
    region(s, &name, &o, 0, |e| pick(cv(e) != 0, e));
    region(s, &name, &o, 1, |e| pick(!neg(e), e));
    region(s, &name, &o, 2, |e| pick(neg(e), e));
    region(s, &name, &o, 3, |e| pick(!neg(e), e));
    region(s, &name, &o, 4, |e| pick(cv(e) & 3 != 1, e));
    region(s, &name, &o, 5, |e| pick(cv(e) & 1 == 1, e));
    region(s, &name, &o, 6, |e| pick(neg(e), e));
    region(s, &name, &o, 7, |e| {
        pick(if e & 15 == 15 { cv(e) != 0 } else { neg(e) }, e)
    });
}

fn bitselects<E: Elem>(s: &Setup, a: &[E], b: &[E], c: &[E]) {
    let name = format!("bitselects_{}", E::NAME);
    let mut o = vec![E::default(); 6 * N];
    s.kernel(&name)
        .arg(Arg::input(a))
        .arg(Arg::input(b))
        .arg(Arg::input(c))
        .arg(Arg::output(&mut o))
        .run(&[ITEMS], Some(&[LOCAL]));
    for r in 0..6 {
        region(s, &name, &o, r, |e| {
            let (x, y, z) = (a[e].to_u64(), b[e].to_u64(), c[e].to_u64());
            E::from_u64((x & !z) | (y & z))
        });
    }
}

fn spaces<E: Elem>(s: &Setup, a: &[E]) {
    let name = format!("spaces_{}", E::NAME);
    let k = 5usize;
    let mut o = vec![E::default(); 6 * N];
    s.kernel(&name)
        .arg(Arg::input(a))
        .arg(Arg::output(&mut o))
        .arg(Arg::input(a))
        .arg(Arg::Local(16 * LOCAL * std::mem::size_of::<E>()))
        .arg(Arg::value(k as i32))
        .run(&[ITEMS], Some(&[LOCAL]));
    // priv[(7 j + k) & 15] = a[16 i + j], so priv[m] = a[16 i + 7 (m - k)].
    let private = |b: usize, m: usize| a[b + ((7 * (m + 16 - k)) & 15)];
    let mirrored = |e: usize| {
        let item = e / 16;
        let (g, l) = (item / LOCAL, item % LOCAL);
        a[16 * (g * LOCAL + LOCAL - 1 - l) + e % 16]
    };
    region(s, &name, &o, 0, |e| private(e & !15, e & 15));
    region(s, &name, &o, 1, |e| a[e]);
    region(s, &name, &o, 2, mirrored);
    region(s, &name, &o, 3, mirrored);
    region(s, &name, &o, 4, |e| private(e & !15, ((e & 15) + k) & 15));
    region(s, &name, &o, 5, |e| a[e]);
}

/// A struct { char c; T h; T2 v; T arr[3]; T4 w; } (12 elements' size,
/// members at 0, 1, 2, 4 and 8 elements) holding `x[0..10]` and tag `c`,
/// its padding 0xa5.
fn struct_bytes<E: Elem>(x: &[E], c: u8) -> Vec<u8> {
    let z = std::mem::size_of::<E>();
    let mut s = vec![0xa5u8; 12 * z];
    s[0] = c;
    for (m, at) in [1, 2, 3, 4, 5, 6, 8, 9, 10, 11].into_iter().enumerate() {
        s[at * z..(at + 1) * z].copy_from_slice(&bytes_of(&x[m..m + 1]));
    }
    s
}

/// The member bytes of such a struct (padding left out).
fn members<E: Elem>(s: &[u8]) -> Vec<u8> {
    let z = std::mem::size_of::<E>();
    let mut out = vec![s[0]];
    for at in [1, 2, 3, 4, 5, 6, 8, 9, 10, 11] {
        out.extend_from_slice(&s[at * z..(at + 1) * z]);
    }
    out
}

fn structs<E: Elem>(s: &Setup, a: &[E]) {
    let name = format!("structs_{}", E::NAME);
    let z = std::mem::size_of::<E>();
    let size = 12 * z;
    let input: Vec<u8> = (0..ITEMS)
        .flat_map(|i| struct_bytes(&a[10 * i..10 * i + 10], i as u8))
        .collect();
    let sp = E::specials();
    let by: Vec<E> = (0..10).map(|m| sp[m % sp.len()]).collect();
    let by_bytes = struct_bytes(&by, 0x5c);
    let (mut o1, mut o2, mut ob) = (vec![0u8; input.len()], vec![0u8; input.len()], vec![0u8; 2 * size]);
    // The padding: after c, and between arr and w.
    let padding = [(1, z - 1), (7 * z, z)];
    let why = "the padding of a struct written member by member is unspecified";
    s.kernel(&name)
        .bytes_may_differ(2, size, &padding, why)
        .bytes_may_differ(4, size, &padding, why)
        .arg(Arg::input(&input))
        .arg(Arg::output_bytes(&mut o1))
        .arg(Arg::output_bytes(&mut o2))
        .arg(Arg::bytes(&by_bytes))
        .arg(Arg::output_bytes(&mut ob))
        .arg(Arg::value(1i32))
        .run(&[ITEMS], Some(&[LOCAL]));
    for (what, o) in [("whole", &o1), ("member by member", &o2)] {
        let bad: Vec<usize> = (0..ITEMS)
            .filter(|&i| members::<E>(&o[i * size..(i + 1) * size]) != members::<E>(&input[i * size..(i + 1) * size]))
            .collect();
        s.expect(bad.is_empty(), || {
            format!(
                "{} {what}: {} structs differ, first [{}]: {:x?} want {:x?}",
                s.what(&name),
                bad.len(),
                bad[0],
                members::<E>(&o[bad[0] * size..(bad[0] + 1) * size]),
                members::<E>(&input[bad[0] * size..(bad[0] + 1) * size])
            )
        });
    }
    for (k, what) in ["whole", "member by member"].iter().enumerate() {
        let got = members::<E>(&ob[k * size..(k + 1) * size]);
        let want = members::<E>(&by_bytes);
        s.expect(got == want, || {
            format!("{} by-value struct {what}: {got:x?} want {want:x?}", s.what(&name))
        });
    }
}

/// Arguments by value: the specials and a sample of the inputs, 23 per
/// launch (T, T2, T4, T16).
fn args<E: Elem>(s: &Setup, a: &[E]) {
    let name = format!("args_{}", E::NAME);
    let mut vals = E::specials();
    vals.extend((0..4 * 23).map(|k| a[(k * 2897) % N]));
    for chunk in vals.chunks(23) {
        let mut v = chunk.to_vec();
        v.resize(23, E::from_u64(0x5a));
        let mut o = vec![E::default(); 23];
        s.kernel(&name)
            .arg(Arg::bytes(&bytes_of(&v[0..1])))
            .arg(Arg::bytes(&bytes_of(&v[1..3])))
            .arg(Arg::bytes(&bytes_of(&v[3..7])))
            .arg(Arg::bytes(&bytes_of(&v[7..23])))
            .arg(Arg::output(&mut o))
            .run(&[1], None);
        s.check(&s.what(&name), &o, |k| v[k]);
    }
}

fn async_copies<E: Elem>(s: &Setup, a: &[E]) {
    let name = format!("async_copies_{}", E::NAME);
    let z = std::mem::size_of::<E>();
    let m = 16 * LOCAL;
    let mut o = vec![E::default(); 2 * N];
    s.kernel(&name)
        .arg(Arg::input(a))
        .arg(Arg::output(&mut o))
        .arg(Arg::Local(m * z))
        .arg(Arg::Local(m * z))
        .run(&[ITEMS], Some(&[LOCAL]));
    region(s, &name, &o, 0, |e| {
        let (base, k) = (e / m * m, e % m);
        if k < m / 2 {
            a[base + 2 * k]
        } else {
            a[base + 2 * (k - m / 2) + 1]
        }
    });
    region(s, &name, &o, 1, |e| {
        let (base, j) = (e / m * m, e % 16);
        a[base + 16 * (j % LOCAL) + j]
    });
}

/// Conditions of T's width: zero, small, negative and random, with every
/// low-two-bit pattern.
fn conditions<E: Elem>() -> Vec<E> {
    let bits = 8 * std::mem::size_of::<E>() as u32;
    let mut seed = 77;
    (0..N)
        .map(|k| {
            let r = splitmix(&mut seed);
            E::from_u64(match k % 4 {
                0 => 0,
                1 => r & 7,
                2 => (r | (1 << 63)) >> (64 - bits),
                _ => r >> (64 - bits),
            })
        })
        .collect()
}

/// One element per work-item (the 4-lane bodies' shapes).
fn lanes<E: Elem>(s: &Setup, a: &[E], b: &[E]) {
    let name = format!("lanes_{}", E::NAME);
    let bits = 8 * std::mem::size_of::<E>() as u32;
    let c = conditions::<E>();
    let mut o = vec![E::default(); 10 * N];
    s.kernel(&name)
        .arg(Arg::input(a))
        .arg(Arg::input(b))
        .arg(Arg::input(&c))
        .arg(Arg::output(&mut o))
        .arg(Arg::bytes(&bytes_of(&[E::from_u64(0)])))
        .arg(Arg::value(3i32))
        .run(&[N], Some(&[LOCAL]));
    let cv = |e: usize| c[e].to_u64();
    let neg = |e: usize| cv(e) >> (bits - 1) == 1;
    let pick = |t: bool, e: usize| if t { b[e] } else { a[e] };
    region(s, &name, &o, 0, |e| a[e]);
    region(s, &name, &o, 1, |e| pick(cv(e) != 0, e));
    region(s, &name, &o, 2, |e| pick(!neg(e), e));
    region(s, &name, &o, 3, |e| {
        let (x, y, z) = (a[e].to_u64(), b[e].to_u64(), cv(e));
        E::from_u64((x & !z) | (y & z))
    });
    region(s, &name, &o, 4, |e| a[e]);
    region(s, &name, &o, 5, |e| a[e ^ 1]);
    region(s, &name, &o, 6, |e| b[e]);
    let sign = 1u64 << (bits - 1);
    region(s, &name, &o, 7, |e| E::from_u64(a[e].to_u64() ^ sign));
    region(s, &name, &o, 8, |e| E::from_u64(a[e].to_u64() & !sign));
    region(s, &name, &o, 9, |e| {
        E::from_u64((a[e].to_u64() & !sign) | (b[e].to_u64() & sign))
    });
    let name = format!("lanes_local_{}", E::NAME);
    let mut o = vec![E::default(); 2 * N];
    s.kernel(&name)
        .arg(Arg::input(a))
        .arg(Arg::output(&mut o))
        .arg(Arg::Local(LOCAL * std::mem::size_of::<E>()))
        .run(&[N], Some(&[LOCAL]));
    region(s, &name, &o, 0, |e| a[e / LOCAL * LOCAL + LOCAL - 1 - e % LOCAL]);
    region(s, &name, &o, 1, |e| a[e]);
}

/// as_type from T to every type of the same size (`regions` of them),
/// and back.
fn astype<E: Elem>(s: &Setup, a: &[E], regions: usize) {
    let z = std::mem::size_of::<E>();
    let from = format!("astype_from_{}", E::NAME);
    let mut o = vec![0u8; regions * N * z];
    s.kernel(&from)
        .arg(Arg::input(a))
        .arg(Arg::output_bytes(&mut o))
        .arg(if z == 2 { Arg::value(0i16) } else { Arg::value(0i32) })
        .run(&[ITEMS], Some(&[LOCAL]));
    let got: Vec<E> = elems_of(&o);
    for r in 0..regions {
        region(s, &from, &got, r, |e| a[e]);
    }
    let to = format!("astype_to_{}", E::NAME);
    let mut o = vec![E::default(); regions * N];
    let b = bytes_of(a);
    s.kernel(&to)
        .arg(Arg::input(&b))
        .arg(Arg::output(&mut o))
        .arg(if z == 2 { Arg::value(0i16) } else { Arg::value(0i32) })
        .run(&[ITEMS], Some(&[LOCAL]));
    for r in 0..regions {
        region(s, &to, &o, r, |e| a[e]);
    }
}

/// Runs `body` on `E`'s program at both levels in both modes and fails
/// with everything that differed.
fn each_setup<E: Elem>(body: impl Fn(&Setup)) {
    let mut failures = Vec::new();
    for opt in Opt::BOTH {
        for mode in MODES {
            let s = Setup::new::<E>(opt, mode);
            body(&s);
            failures.extend(s.failures.into_inner());
        }
    }
    let shown: Vec<&str> = failures.iter().take(60).map(String::as_str).collect();
    assert!(
        failures.is_empty(),
        "{} checks differ (the first {} listed):\n{}",
        failures.len(),
        shown.len(),
        shown.join("\n")
    );
}

/// The moves every type shares (`moves_body.h`), then as_type.
fn all_moves<E: Elem>(astype_regions: usize) {
    let (a, b, c) = (E::inputs(1), E::inputs(2), E::inputs(3));
    each_setup::<E>(|s| {
        load_store(s, &a);
        swizzle(s, &a);
        shuffles(s, &a);
        selects(s, &a, &b);
        bitselects(s, &a, &b, &c);
        spaces(s, &a);
        structs(s, &a);
        args(s, &a);
        async_copies(s, &a);
        lanes(s, &a, &b);
        astype(s, &a, astype_regions);
    });
}

#[test]
fn half_moves_keep_all_16_bits() {
    all_moves::<u16>(23);
}

#[test]
fn float_moves_keep_every_bit() {
    all_moves::<u32>(15);
}

#[test]
fn double_moves_keep_every_bit() {
    all_moves::<u64>(13);
}

#[test]
fn half_constants_keep_their_bits() {
    let want: Vec<u16> = u16::specials()[..16].to_vec();
    each_setup::<u16>(|s| {
        let mut o = vec![0u16; 32];
        s.kernel("constants_half")
            .arg(Arg::output(&mut o))
            .arg(Arg::value(0i32))
            .run(&[1], None);
        s.check(&s.what("constants_half"), &o, |k| want[k % 16]);
    });
}

#[test]
fn float_and_double_constants_keep_their_bits() {
    let wf: [u32; 8] = [
        0x7f80_0001,
        0xffa5_a5a5,
        0x7fbf_ffff,
        0x7fc0_0001,
        0xffc1_2345,
        0x0000_0001,
        0x807f_ffff,
        0x8000_0000,
    ];
    let wd: [u64; 8] = [
        0x7ff0_0000_0000_0001,
        0xfff5_a5a5_a5a5_a5a5,
        0x7ff7_ffff_ffff_ffff,
        0x7ff8_0000_0000_0001,
        0xfff8_1234_5678_9abc,
        0x0000_0000_0000_0001,
        0x800f_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
    ];
    each_setup::<u32>(|s| {
        let (mut o, mut od) = (vec![0u32; 16], vec![0u64; 16]);
        s.kernel("constants_fp")
            .arg(Arg::output(&mut o))
            .arg(Arg::output(&mut od))
            .arg(Arg::value(0i32))
            .run(&[1], None);
        s.check(&s.what("constants_fp float"), &o, |k| wf[k % 8]);
        s.check(&s.what("constants_fp double"), &od, |k| wd[k % 8]);
    });
}

#[test]
fn float_atomic_exchanges_keep_every_bit() {
    let (a, b) = (u32::inputs(4), u32::inputs(5));
    each_setup::<u32>(|s| {
        let (mut cell, mut old, mut cell2, mut old2, mut cell3, mut ld) = (
            b.clone(),
            vec![0u32; N],
            b.clone(),
            vec![0u32; N],
            vec![0u32; N],
            vec![0u32; N],
        );
        s.kernel("exchange_float")
            .arg(Arg::output(&mut cell))
            .arg(Arg::input(&a))
            .arg(Arg::output(&mut old))
            .arg(Arg::output(&mut cell2))
            .arg(Arg::output(&mut old2))
            .arg(Arg::output(&mut cell3))
            .arg(Arg::output(&mut ld))
            .run(&[N], Some(&[LOCAL]));
        let w = s.what("exchange_float");
        s.check(&format!("{w} atomic_xchg cell"), &cell, |k| a[k]);
        s.check(&format!("{w} atomic_xchg old"), &old, |k| b[k]);
        s.check(&format!("{w} atomic_exchange cell"), &cell2, |k| a[k]);
        s.check(&format!("{w} atomic_exchange old"), &old2, |k| b[k]);
        s.check(&format!("{w} atomic_store"), &cell3, |k| a[k]);
        s.check(&format!("{w} atomic_load"), &ld, |k| a[k]);
    });
}

/// Builds the hand-written `spec_moves` module with spec constants half
/// `h`, float `f`, double `d` and bool `pick` (None: the module's
/// defaults) and `options`, runs it once and returns what it stored.
fn run_spec_moves(set: Option<(u16, u32, u64, bool)>, options: &str) -> ([u16; 3], [u32; 3], [u64; 3]) {
    let spec: Vec<(u32, Vec<u8>)> = set.map_or_else(Vec::new, |(h, f, d, pick)| {
        vec![
            (0, h.to_ne_bytes().to_vec()),
            (1, f.to_ne_bytes().to_vec()),
            (2, d.to_ne_bytes().to_vec()),
            (3, vec![u8::from(pick)]),
        ]
    });
    let (mut h, mut f, mut d) = ([0u16; 3], [0u32; 3], [0u64; 3]);
    Kernel::with_spec(&hand_spirv("spec_moves"), "spec_moves", options, &spec)
        .unwrap_or_else(|log| panic!("build: {log}"))
        .arg(Arg::output(&mut h))
        .arg(Arg::output(&mut f))
        .arg(Arg::output(&mut d))
        .run(&[1], None);
    (h, f, d)
}

/// Specialization constants of half, float and double, their FNegate (the
/// sign bit flipped) and a Select, folded at build: every bit kept.
#[test]
fn specialization_constants_keep_their_bits() {
    for mode in MODES {
        let (h, f, d) = run_spec_moves(None, mode);
        assert_eq!(h, [0x4100, 0xc100, 0x4100], "{mode:?} half defaults");
        assert_eq!(f, [0x3fc0_0000, 0xbfc0_0000, 0x3fc0_0000], "{mode:?} float defaults");
        assert_eq!(
            d,
            [0xbfe8_0000_0000_0000, 0x3fe8_0000_0000_0000, 0xbfe8_0000_0000_0000],
            "{mode:?} double defaults"
        );
        let hs = u16::specials();
        let (fs, ds) = (u32::specials(), u64::specials());
        for k in 0..hs.len() {
            let (x, y, z) = (hs[k], fs[k % fs.len()], ds[k % ds.len()]);
            let pick = k % 2 == 0;
            let (h, f, d) = run_spec_moves(Some((x, y, z, pick)), mode);
            let sel = |v: u64, s: u64| if pick { v } else { v ^ s };
            assert_eq!(
                h,
                [x, x ^ 0x8000, sel(u64::from(x), 0x8000) as u16],
                "{mode:?} half {x:#x}"
            );
            assert_eq!(
                f,
                [y, y ^ 0x8000_0000, sel(u64::from(y), 0x8000_0000) as u32],
                "{mode:?} float {y:#x}"
            );
            assert_eq!(d, [z, z ^ (1 << 63), sel(z, 1 << 63)], "{mode:?} double {z:#x}");
        }
    }
}
