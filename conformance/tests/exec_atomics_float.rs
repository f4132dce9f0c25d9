//! Atomics on atomic_float and atomic_double: atomic_init, atomic_store,
//! atomic_load and atomic_exchange (plain and _explicit) on __global,
//! __local and generic pointers, checked bit for bit (NaN payloads, -0.0,
//! subnormals, infinities among the values), from `kernels/cl/
//! atomics_float.cl` built four ways: its checked-in SPIR-V at -O0 and
//! -O2, each also with `-cl-clift-max-lanes=1`, and its OpenCL C source
//! through clCreateProgramWithSource. Compare-exchange on float and double
//! memory is bitwise (OpenCL C compares as memcmp does): a compare-exchange
//! loop on the bits through atomic_uint / atomic_ulong, and the integer
//! form a translator gives atomic_compare_exchange_* on them
//! (`spirv/atomic_float_cas.spvasm`).
//!
//! What SPIR-V does not allow on floats (arithmetic atomics and
//! compare-exchange on a float type, atomics on halves) is refused by name:
//! `corpus/invalid/atomic_float_*.spvasm` and `atomic_half.spvasm`
//! (tests/corpus.rs).

use std::collections::BTreeMap;
use std::fmt::Debug;

use clift_conformance::exec::{corpus_spirv, Arg, Kernel, Opt, Pod};

/// The bits of a float type and its kernels' names.
trait Bits: Pod + Ord + Debug {
    /// "float" or "double".
    const NAME: &'static str;
    /// `n` distinct values: special ones (NaNs with payloads, signed zeros,
    /// infinities, subnormals), then ordinary ones.
    fn distinct(n: usize) -> Vec<Self>;
    /// The bits of `x` rounded to this type.
    fn of(x: f64) -> Self;
}

impl Bits for u32 {
    const NAME: &'static str = "float";
    fn distinct(n: usize) -> Vec<u32> {
        let special = [
            0x0000_0000, // +0
            0x8000_0000, // -0
            0x0000_0001, // smallest subnormal
            0x807f_ffff, // largest negative subnormal
            0x7f80_0000, // +inf
            0xff80_0000, // -inf
            0x7fc0_0000, // quiet NaN
            0xffc0_dead, // negative quiet NaN with a payload
            0x7f80_0001, // signalling NaN
            0x7fa5_a5a5, // signalling NaN with a payload
        ];
        let mut v: Vec<u32> = special.to_vec();
        v.extend(
            (0..)
                .map(|k| (k as f32 * 0.75 + 1.5).to_bits())
                .take(n.saturating_sub(v.len())),
        );
        v.truncate(n);
        v
    }
    fn of(x: f64) -> u32 {
        (x as f32).to_bits()
    }
}

impl Bits for u64 {
    const NAME: &'static str = "double";
    fn distinct(n: usize) -> Vec<u64> {
        let special = [
            0x0000_0000_0000_0000,
            0x8000_0000_0000_0000,
            0x0000_0000_0000_0001,
            0x800f_ffff_ffff_ffff,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
            0x7ff8_0000_0000_0000,
            0xfff8_0000_dead_beef,
            0x7ff0_0000_0000_0001,
            0x7ff4_a5a5_a5a5_a5a5,
        ];
        let mut v: Vec<u64> = special.to_vec();
        v.extend(
            (0..)
                .map(|k| (k as f64 * 0.75 + 1.5).to_bits())
                .take(n.saturating_sub(v.len())),
        );
        v.truncate(n);
        v
    }
    fn of(x: f64) -> u64 {
        x.to_bits()
    }
}

/// The multiset of `v`.
fn counts<T: Bits>(v: impl IntoIterator<Item = T>) -> BTreeMap<T, usize> {
    let mut m = BTreeMap::new();
    for x in v {
        *m.entry(x).or_insert(0) += 1;
    }
    m
}

/// An exchange chain: starting from `init`, each of `values` was exchanged
/// in once, returning `old`; `last` is what the variable holds at the end.
/// With distinct values, the old values and the last one are exactly the
/// initial one and the exchanged ones, each once.
fn check_chain<T: Bits>(init: T, values: &[T], old: &[T], last: T, what: &str) {
    let want = counts(std::iter::once(init).chain(values.iter().copied()));
    let got = counts(old.iter().copied().chain(std::iter::once(last)));
    assert_eq!(
        got, want,
        "{what}: the old values and the last one are not the initial and exchanged ones"
    );
}

/// Work-items per launch and per work-group.
const N: usize = 64;
const LOCAL: usize = 16;
const GROUPS: usize = N / LOCAL;

/// A program of atomics_float.cl (one built kernel; the others are its
/// siblings) and how it was built.
struct Build<'a> {
    kernel: Kernel<'a>,
    what: String,
}

/// atomics_float.cl built every way: checked-in SPIR-V at -O0 and -O2,
/// with 4-lane bodies and with the scalar body alone, and from source.
fn builds() -> Vec<Build<'static>> {
    let mut v = Vec::new();
    for opt in Opt::BOTH {
        for options in ["", "-cl-clift-max-lanes=1"] {
            let what = format!("SPIR-V {opt:?} {options:?}");
            let kernel = Kernel::with_il(&corpus_spirv("atomics_float", opt), "exchange_global_float", options)
                .unwrap_or_else(|log| panic!("{what}: {log}"));
            v.push(Build { kernel, what });
        }
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/cl/atomics_float.cl");
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for options in ["-cl-std=CL2.0", "-cl-std=CL2.0 -cl-opt-disable"] {
        let what = format!("OpenCL C {options:?}");
        let kernel =
            Kernel::with_source(&src, "exchange_global_float", options).unwrap_or_else(|log| panic!("{what}: {log}"));
        v.push(Build { kernel, what });
    }
    v
}

/// Why the results of an exchange chain differ between runs (and modes).
const ORDER: &str = "which value an exchange sees, and which one is last, depends on the order work-items ran in";

/// exchange_global_T: three chains on a[0..3], one per form.
fn exchange_global<T: Bits>(b: &Build) {
    let what = format!("exchange_global_{} ({})", T::NAME, b.what);
    let all = T::distinct(N + 3);
    let (init, values) = all.split_at(3);
    let mut a = init.to_vec();
    let mut old = vec![T::of(0.0); 3 * N];
    b.kernel
        .sibling(&format!("exchange_global_{}", T::NAME))
        .arg_may_differ(0, ORDER)
        .arg_may_differ(2, ORDER)
        .arg(Arg::output(&mut a))
        .arg(Arg::input(values))
        .arg(Arg::output(&mut old))
        .run(&[N], Some(&[LOCAL]));
    for (j, form) in ["atomic_exchange", "relaxed", "seq_cst device"].iter().enumerate() {
        check_chain(
            init[j],
            values,
            &old[j * N..(j + 1) * N],
            a[j],
            &format!("{what}, {form}"),
        );
    }
}

/// store_load_global_T: every form of init, store and load, each
/// work-item on its own elements.
fn store_load_global<T: Bits>(b: &Build) {
    let what = format!("store_load_global_{} ({})", T::NAME, b.what);
    let v = T::distinct(N);
    let mut s = vec![T::of(-1.0); 4 * N];
    let mut out = vec![T::of(-2.0); 4 * N];
    b.kernel
        .sibling(&format!("store_load_global_{}", T::NAME))
        .arg(Arg::output(&mut s))
        .arg(Arg::input(&v))
        .arg(Arg::output(&mut out))
        .run(&[N], Some(&[LOCAL]));
    for i in 0..N {
        let want = [v[i], v[N - 1 - i], v[i], v[N - 1 - i]];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(out[k * N + i], *w, "{what}: form {k}, work-item {i}: loaded");
            assert_eq!(s[k * N + i], *w, "{what}: form {k}, work-item {i}: in memory");
        }
    }
}

/// exchange_local_T: a chain per work-group on a __local variable.
fn exchange_local<T: Bits>(b: &Build) {
    let what = format!("exchange_local_{} ({})", T::NAME, b.what);
    let all = T::distinct(N + 1);
    let (init, values) = (all[N], &all[..N]);
    let mut old = vec![T::of(0.0); N];
    let mut fin = vec![T::of(0.0); GROUPS];
    b.kernel
        .sibling(&format!("exchange_local_{}", T::NAME))
        .arg_may_differ(1, ORDER)
        .arg_may_differ(2, ORDER)
        .arg(Arg::input(values))
        .arg(Arg::output(&mut old))
        .arg(Arg::output(&mut fin))
        .arg(Arg::value(init))
        .run(&[N], Some(&[LOCAL]));
    for (g, &last) in fin.iter().enumerate() {
        let r = g * LOCAL..(g + 1) * LOCAL;
        check_chain(init, &values[r.clone()], &old[r], last, &format!("{what}, group {g}"));
    }
}

/// exchange_generic_T: chains through a generic pointer to __local (odd
/// groups) or __global (even groups) memory, and a store and load of each
/// work-item's own element through a generic pointer.
fn exchange_generic<T: Bits>(b: &Build) {
    let what = format!("exchange_generic_{} ({})", T::NAME, b.what);
    let all = T::distinct(N + 1);
    let (init, values) = (all[N], &all[..N]);
    let mut a = vec![T::of(3.0); GROUPS];
    let mut old = vec![T::of(0.0); N];
    let mut fin = vec![T::of(0.0); GROUPS];
    let mut s = vec![T::of(-1.0); N];
    let mut out = vec![T::of(-2.0); N];
    b.kernel
        .sibling(&format!("exchange_generic_{}", T::NAME))
        .arg_may_differ(0, ORDER)
        .arg_may_differ(2, ORDER)
        .arg_may_differ(3, ORDER)
        .arg(Arg::output(&mut a))
        .arg(Arg::input(values))
        .arg(Arg::output(&mut old))
        .arg(Arg::output(&mut fin))
        .arg(Arg::value(init))
        .arg(Arg::output(&mut s))
        .arg(Arg::output(&mut out))
        .run(&[N], Some(&[LOCAL]));
    for g in 0..GROUPS {
        let r = g * LOCAL..(g + 1) * LOCAL;
        let space = if g % 2 == 1 { "__local" } else { "__global" };
        check_chain(
            init,
            &values[r.clone()],
            &old[r],
            fin[g],
            &format!("{what}, group {g} ({space})"),
        );
        if g % 2 == 0 {
            assert_eq!(
                a[g], fin[g],
                "{what}, group {g}: the __global variable holds the last value"
            );
        } else {
            assert_eq!(
                a[g],
                T::of(3.0),
                "{what}, group {g}: the __global variable is untouched"
            );
        }
    }
    assert_eq!(out, values, "{what}: loaded through generic pointers");
    assert_eq!(s, values, "{what}: stored through generic pointers");
}

/// add_by_cas_T: every work-item adds 1 with a compare-exchange loop on
/// the bits; the sum is exact and every loop ends.
fn add_by_cas<T: Bits>(b: &Build) {
    let what = format!("add_by_cas_{} ({})", T::NAME, b.what);
    let mut a = vec![T::of(0.5)];
    let mut tries = vec![0u32; N];
    b.kernel
        .sibling(&format!("add_by_cas_{}", T::NAME))
        .arg_may_differ(
            1,
            "how often a compare-exchange retries depends on the order work-items ran in",
        )
        .arg(Arg::output(&mut a))
        .arg(Arg::output(&mut tries))
        .run(&[N], Some(&[LOCAL]));
    assert_eq!(a[0], T::of(N as f64 + 0.5), "{what}: the sum");
    assert!(
        tries.iter().all(|&t| (1..=N as u32).contains(&t)),
        "{what}: attempts per work-item {tries:?}"
    );
}

#[test]
fn float_and_double_atomics_from_opencl_c() {
    for b in builds() {
        exchange_global::<u32>(&b);
        exchange_global::<u64>(&b);
        store_load_global::<u32>(&b);
        store_load_global::<u64>(&b);
        exchange_local::<u32>(&b);
        exchange_local::<u64>(&b);
        exchange_generic::<u32>(&b);
        exchange_generic::<u64>(&b);
        add_by_cas::<u32>(&b);
        add_by_cas::<u64>(&b);
    }
}

/// cas_T of spirv/atomic_float_cas.spvasm over pairs (memory, expected):
/// the old bits come back, and the memory takes `desired` exactly where
/// the bits were equal: +0 and -0 differ, a NaN equals itself.
fn compare_exchange<T: Bits>(kernel: &str, options: &str) {
    let what = format!("{kernel} {options:?}");
    let v = T::distinct(12);
    // (memory, expected): equal bits, then bits that differ.
    let mut pairs: Vec<(T, T)> = v.iter().map(|&x| (x, x)).collect();
    pairs.extend(v.iter().zip(v.iter().skip(1)).map(|(&x, &y)| (x, y)));
    let (mut a, expected): (Vec<T>, Vec<T>) = pairs.iter().copied().unzip();
    let desired: Vec<T> = (0..pairs.len()).map(|k| T::of(k as f64 + 100.25)).collect();
    let mut old = vec![T::of(-7.0); pairs.len()];
    let before = a.clone();
    Kernel::with_il(&clift_conformance::spirv("atomic_float_cas"), kernel, options)
        .unwrap_or_else(|log| panic!("{what}: {log}"))
        .arg(Arg::output(&mut a))
        .arg(Arg::input(&expected))
        .arg(Arg::input(&desired))
        .arg(Arg::output(&mut old))
        .run(&[pairs.len()], None);
    for k in 0..pairs.len() {
        assert_eq!(old[k], before[k], "{what}: pair {k}: the old value");
        let want = if before[k] == expected[k] {
            desired[k]
        } else {
            before[k]
        };
        assert_eq!(a[k], want, "{what}: pair {k} ({:?} vs {:?})", before[k], expected[k]);
    }
}

#[test]
fn compare_exchange_on_float_and_double_memory_is_bitwise() {
    for options in ["", "-cl-clift-max-lanes=1"] {
        compare_exchange::<u64>("cas_double", options);
        compare_exchange::<u64>("cas_double_generic", options);
        compare_exchange::<u32>("cas_float", options);
    }
}
