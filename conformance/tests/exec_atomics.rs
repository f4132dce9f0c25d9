//! Atomics: every OpenCL 1.2 atomic function (atomic_add, sub,
//! xchg, inc, dec, min, max signed and unsigned, and, or, xor, cmpxchg) on
//! 32-bit ints and their atom_* forms on 64-bit ints, in global and local
//! memory; the OpenCL 2.0 C11 atomics with explicit orders and scopes
//! (fetch_*, exchange, compare_exchange_strong/weak, load, store,
//! atomic_flag_test_and_set/clear); all contended by many work-items in many
//! work-groups, so a non-atomic implementation loses updates. The 1.2 names
//! reach clift with Workgroup scope and must still be atomic across the
//! device. Only lock-free patterns: compare-exchange loops that retry,
//! never a lock. Kernels: `kernels/cl/atomics.cl` (32-bit) and
//! `atomics64.cl` (64-bit: its module declares the Int64Atomics capability,
//! which needs the device to advertise cl_khr_int64_base_atomics and
//! cl_khr_int64_extended_atomics), at -O0 and -O2.
//!
//! Besides the final values, the old values the operations return are
//! checked: inc and dec must hand out every value exactly once, exchanges
//! must form one chain, and adds must chain (every `old + x` is another
//! item's `old` or the final value).

use std::collections::HashMap;
use std::fmt::Debug;

use clift_conformance::exec::{Arg, Kernel, Opt, Pod};
use clift_conformance::rng::Rng;

/// The integer types under test, computed with on the host as i64/u64.
trait Int: Pod + Debug + PartialEq {
    const BITS: u32;
    /// The corpus module of this width's kernels.
    const MODULE: &'static str;
    type U: Pod + Debug + PartialEq;
    fn to_i64(self) -> i64;
    fn from_i64(v: i64) -> Self;
    fn u_from(v: u64) -> Self::U;
    fn u_to(v: Self::U) -> u64;
}

impl Int for i32 {
    const BITS: u32 = 32;
    const MODULE: &'static str = "atomics";
    type U = u32;
    fn to_i64(self) -> i64 {
        self as i64
    }
    fn from_i64(v: i64) -> i32 {
        v as i32
    }
    fn u_from(v: u64) -> u32 {
        v as u32
    }
    fn u_to(v: u32) -> u64 {
        v as u64
    }
}

impl Int for i64 {
    const BITS: u32 = 64;
    const MODULE: &'static str = "atomics64";
    type U = u64;
    fn to_i64(self) -> i64 {
        self
    }
    fn from_i64(v: i64) -> i64 {
        v
    }
    fn u_from(v: u64) -> u64 {
        v
    }
    fn u_to(v: u64) -> u64 {
        v
    }
}

/// `v` wrapped to T's width (as T then back).
fn wrap<T: Int>(v: i64) -> i64 {
    T::from_i64(v).to_i64()
}

fn values<T: Int>(n: usize, seed: u64) -> Vec<T> {
    let mut r = Rng(seed);
    (0..n)
        .map(|_| {
            // Mostly moderate values of both signs, some at the extremes.
            let raw = r.next64() as i64;
            let v = match r.next() % 8 {
                0 => raw,
                1 => i64::MIN >> (64 - T::BITS),
                _ => raw >> (64 - T::BITS + 8),
            };
            T::from_i64(v)
        })
        .collect()
}

/// Checks that `olds[i] + xs[i]` (wrapped) chains from `init` to `last`:
/// every value after an operation is the value before another, or the end.
fn check_chain<T: Int>(init: i64, olds: &[i64], xs: &[i64], last: i64, what: &str) {
    let mut before: HashMap<i64, i64> = HashMap::new();
    *before.entry(init).or_default() += 1;
    for (&o, &x) in olds.iter().zip(xs) {
        *before.entry(wrap::<T>(o.wrapping_add(x))).or_default() += 1;
    }
    let mut after: HashMap<i64, i64> = HashMap::new();
    *after.entry(last).or_default() += 1;
    for &o in olds {
        *after.entry(o).or_default() += 1;
    }
    assert!(
        before == after,
        "{what}: the returned old values do not form one chain of updates"
    );
}

/// Checks that `olds` is `expected` in some order.
fn check_permutation(mut olds: Vec<i64>, mut expected: Vec<i64>, what: &str) {
    olds.sort_unstable();
    expected.sort_unstable();
    if olds != expected {
        let first = olds.iter().zip(&expected).position(|(a, b)| a != b);
        panic!("{what}: returned old values are not the expected set (first difference at sorted position {first:?})");
    }
}

/// Initial counter values of the BODY kernels: c[0..11], u[0..2].
fn body_init<T: Int>() -> (Vec<T>, Vec<T::U>) {
    let c: Vec<i64> = vec![1000, -1000, 5, 7, 0, 0, -1, 0, 0x5a5a, -77, 12345];
    (
        c.into_iter().map(T::from_i64).collect(),
        vec![T::u_from(u64::MAX), T::u_from(0)],
    )
}

/// The expected counters after BODY ran for items `ids` with values `xs`,
/// and checks of the values returned to `ret` (4 per item, indexed by id).
fn body_check<T: Int>(
    init: &[T],
    uinit: &[T::U],
    ids: &[usize],
    xs: &[T],
    got: &[T],
    ugot: &[T::U],
    ret: &[T],
    what: &str,
) {
    let c0: Vec<i64> = init.iter().map(|v| v.to_i64()).collect();
    let x: Vec<i64> = ids.iter().map(|&i| xs[i].to_i64()).collect();
    let n = ids.len() as i64;
    let bits = T::BITS as usize;
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let sum = x.iter().fold(0i64, |a, &b| a.wrapping_add(b));
    let bitset = ids.iter().fold(0u64, |a, &i| a | (1u64 << (i % bits)));
    let mut want = [0i64; 11];
    want[0] = wrap::<T>(c0[0].wrapping_add(sum));
    want[1] = wrap::<T>(c0[1].wrapping_sub(sum));
    want[2] = wrap::<T>(c0[2] + n);
    want[3] = wrap::<T>(c0[3] - n);
    want[4] = x.iter().copied().fold(c0[4], i64::min);
    want[5] = x.iter().copied().fold(c0[5], i64::max);
    want[6] = wrap::<T>(c0[6] & !(bitset as i64));
    want[7] = wrap::<T>(c0[7] | bitset as i64);
    want[8] = x.iter().fold(c0[8], |a, &b| a ^ b);
    want[10] = wrap::<T>(c0[10].wrapping_add(sum));
    let got64: Vec<i64> = got.iter().map(|v| v.to_i64()).collect();
    let names = [
        "add",
        "sub",
        "inc",
        "dec",
        "min",
        "max",
        "and",
        "or",
        "xor",
        "xchg",
        "cmpxchg loop",
    ];
    for i in 0..11 {
        if i != 9 {
            assert_eq!(got64[i], want[i], "{what}: counter {i} ({})", names[i]);
        }
    }
    let ux: Vec<u64> = x.iter().map(|&v| v as u64 & mask).collect();
    let umin = ux.iter().copied().fold(T::u_to(uinit[0]), u64::min);
    let umax = ux.iter().copied().fold(T::u_to(uinit[1]), u64::max);
    assert_eq!(
        (T::u_to(ugot[0]), T::u_to(ugot[1])),
        (umin, umax),
        "{what}: unsigned min, max"
    );
    let r = |i: usize, k: usize| ret[i * 4 + k].to_i64();
    let add_olds: Vec<i64> = ids.iter().map(|&i| r(i, 0)).collect();
    check_chain::<T>(c0[0], &add_olds, &x, got64[0], &format!("{what}: add"));
    check_permutation(
        ids.iter().map(|&i| r(i, 1)).collect(),
        (0..n).map(|k| wrap::<T>(c0[2] + k)).collect(),
        &format!("{what}: inc"),
    );
    check_permutation(
        ids.iter().map(|&i| r(i, 2)).collect(),
        (0..n).map(|k| wrap::<T>(c0[3] - k)).collect(),
        &format!("{what}: dec"),
    );
    let mut xchg: Vec<i64> = ids.iter().map(|&i| r(i, 3)).collect();
    xchg.push(got64[9]);
    let mut expect: Vec<i64> = ids.iter().map(|&i| i as i64).collect();
    expect.push(c0[9]);
    check_permutation(xchg, expect, &format!("{what}: xchg"));
}

/// Why a buffer of counters differs between runs (and execution modes):
/// the exchanged counter ends with the last work-item's value.
const XCHG: &str = "the exchanged counter ends with the value of whichever work-item ran last";
/// Why the values atomics return differ between runs and modes.
const RETURNED: &str = "the old values atomics return depend on the order work-items ran in";
/// Why the winner of a test-and-set race differs.
const WINNER: &str = "which work-item wins a test-and-set race depends on the order work-items ran in";

/// BODY on global counters over `n` items in groups of `local`.
fn global_ops<T: Int>(kernel: &str, n: usize, local: usize) {
    let xs: Vec<T> = values(n, 42 + T::BITS as u64);
    let (init, uinit) = body_init::<T>();
    let ids: Vec<usize> = (0..n).collect();
    for opt in Opt::BOTH {
        let (mut c, mut u) = (init.clone(), uinit.clone());
        let mut ret = vec![T::from_i64(-1); n * 4];
        Kernel::new(T::MODULE, opt, kernel)
            .arg_may_differ(0, XCHG)
            .arg_may_differ(2, RETURNED)
            .arg(Arg::output(&mut c))
            .arg(Arg::output(&mut u))
            .arg(Arg::output(&mut ret))
            .arg(Arg::input(&xs))
            .run(&[n], Some(&[local]));
        body_check(&init, &uinit, &ids, &xs, &c, &u, &ret, &format!("{opt:?} {kernel}"));
    }
}

/// BODY on __local counters: one set per group.
fn local_ops<T: Int>(kernel: &str, n: usize, local: usize) {
    let xs: Vec<T> = values(n, 7 + T::BITS as u64);
    let (init, uinit) = body_init::<T>();
    let groups = n.div_ceil(local);
    for opt in Opt::BOTH {
        let mut out = vec![T::from_i64(0); groups * 11];
        let mut uout = vec![T::u_from(0); groups * 2];
        let mut ret = vec![T::from_i64(-1); n * 4];
        Kernel::new(T::MODULE, opt, kernel)
            .arg_may_differ(2, XCHG)
            .arg_may_differ(4, RETURNED)
            .arg(Arg::input(&init))
            .arg(Arg::input(&uinit))
            .arg(Arg::output(&mut out))
            .arg(Arg::output(&mut uout))
            .arg(Arg::output(&mut ret))
            .arg(Arg::input(&xs))
            .run(&[n], Some(&[local]));
        for g in 0..groups {
            let ids: Vec<usize> = (g * local..((g + 1) * local).min(n)).collect();
            body_check(
                &init,
                &uinit,
                &ids,
                &xs,
                &out[g * 11..g * 11 + 11],
                &uout[g * 2..g * 2 + 2],
                &ret,
                &format!("{opt:?} {kernel} group {g}"),
            );
        }
    }
}

#[test]
fn opencl12_atomics_32_bit_global() {
    global_ops::<i32>("ops32_global", 64 * 64, 64);
}

#[test]
fn opencl12_atom_prefix_32_bit_global() {
    global_ops::<i32>("atom32_global", 50 * 40, 40);
}

#[test]
fn opencl12_atomics_64_bit_global() {
    global_ops::<i64>("ops64_global", 64 * 64, 64);
}

#[test]
fn opencl12_atomics_32_bit_local() {
    // 32 groups of 128 and a last, smaller group.
    local_ops::<i32>("ops32_local", 32 * 128 + 50, 128);
}

#[test]
fn opencl12_atomics_64_bit_local() {
    local_ops::<i64>("ops64_local", 32 * 128 + 50, 128);
}

/// Initial values of the C11 kernels: c[0..10], u[0..2].
fn c11_init<T: Int>() -> (Vec<T>, Vec<T::U>) {
    let c: Vec<i64> = vec![1000, -1000, 0, 0x5a5a, -1, 0, 0, -77, 12345, -54321];
    (
        c.into_iter().map(T::from_i64).collect(),
        vec![T::u_from(u64::MAX), T::u_from(0)],
    )
}

/// Checks the C11 kernels' results for items `ids` (see C11BODY).
#[allow(clippy::too_many_arguments)]
fn c11_check<T: Int>(
    init: &[T],
    uinit: &[T::U],
    ids: &[usize],
    xs: &[T],
    got: &[T],
    ugot: &[T::U],
    ret: &[T],
    what: &str,
) {
    let c0: Vec<i64> = init.iter().map(|v| v.to_i64()).collect();
    let x: Vec<i64> = ids.iter().map(|&i| xs[i].to_i64()).collect();
    let bits = T::BITS as usize;
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let sum = x.iter().fold(0i64, |a, &b| a.wrapping_add(b));
    let bitset = ids.iter().fold(0u64, |a, &i| a | (1u64 << (i % bits)));
    let got64: Vec<i64> = got.iter().map(|v| v.to_i64()).collect();
    let mut want = [0i64; 10];
    want[0] = wrap::<T>(c0[0].wrapping_add(sum));
    want[1] = wrap::<T>(c0[1].wrapping_sub(sum));
    want[2] = wrap::<T>(c0[2] | bitset as i64);
    want[3] = x.iter().fold(c0[3], |a, &b| a ^ b);
    want[4] = wrap::<T>(c0[4] & !(bitset as i64));
    want[5] = x.iter().copied().fold(c0[5], i64::min);
    want[6] = x.iter().copied().fold(c0[6], i64::max);
    want[8] = wrap::<T>(c0[8].wrapping_add(sum));
    want[9] = wrap::<T>(c0[9].wrapping_add(sum));
    let names = [
        "fetch_add",
        "fetch_sub",
        "fetch_or",
        "fetch_xor",
        "fetch_and",
        "fetch_min",
        "fetch_max",
        "exchange",
        "compare_exchange_strong loop",
        "compare_exchange_weak loop",
    ];
    for i in 0..10 {
        if i != 7 {
            assert_eq!(got64[i], want[i], "{what}: counter {i} ({})", names[i]);
        }
    }
    let ux: Vec<u64> = x.iter().map(|&v| v as u64 & mask).collect();
    let umin = ux.iter().copied().fold(T::u_to(uinit[0]), u64::min);
    let umax = ux.iter().copied().fold(T::u_to(uinit[1]), u64::max);
    assert_eq!(
        (T::u_to(ugot[0]), T::u_to(ugot[1])),
        (umin, umax),
        "{what}: unsigned fetch_min, fetch_max"
    );
    let r = |i: usize, k: usize| ret[i * 4 + k].to_i64();
    check_chain::<T>(
        c0[0],
        &ids.iter().map(|&i| r(i, 0)).collect::<Vec<_>>(),
        &x,
        got64[0],
        &format!("{what}: fetch_add"),
    );
    // fetch_or: every old value is a subset of the final bits and lacks
    // nothing set before; exactly as many distinct olds as bits became set
    // is not required, but each must include the initial bits.
    for &i in ids {
        let old = r(i, 1) as u64 & mask;
        assert_eq!(
            old & !(got64[2] as u64 & mask),
            0,
            "{what}: fetch_or of item {i} returned {old:#x}"
        );
        assert_eq!(
            old & (c0[2] as u64 & mask),
            c0[2] as u64 & mask,
            "{what}: fetch_or of item {i}"
        );
    }
    let mut xchg: Vec<i64> = ids.iter().map(|&i| r(i, 2)).collect();
    xchg.push(got64[7]);
    let mut expect: Vec<i64> = ids.iter().map(|&i| i as i64).collect();
    expect.push(c0[7]);
    check_permutation(xchg, expect, &format!("{what}: exchange"));
}

/// atomic_store wrote 2x, atomic_load read `ld`.
fn c11_check_load_store<T: Int>(ids: &[usize], xs: &[T], st: &[T], ld: &[T], ret: &[T], what: &str) {
    for &i in ids {
        assert_eq!(
            st[i].to_i64(),
            wrap::<T>(xs[i].to_i64().wrapping_mul(2)),
            "{what}: atomic_store of item {i}"
        );
        assert_eq!(ret[i * 4 + 3], ld[i], "{what}: atomic_load of item {i}");
    }
}

fn c11_global<T: Int>(kernel: &str, n: usize, local: usize) {
    let xs: Vec<T> = values(n, 99 + T::BITS as u64);
    let ld: Vec<T> = values(n, 5);
    let (init, uinit) = c11_init::<T>();
    let ids: Vec<usize> = (0..n).collect();
    for opt in Opt::BOTH {
        let (mut c, mut u) = (init.clone(), uinit.clone());
        let mut ret = vec![T::from_i64(-1); n * 4];
        let mut st = vec![T::from_i64(0); n];
        Kernel::new(T::MODULE, opt, kernel)
            .arg_may_differ(0, XCHG)
            .arg_may_differ(2, RETURNED)
            .arg(Arg::output(&mut c))
            .arg(Arg::output(&mut u))
            .arg(Arg::output(&mut ret))
            .arg(Arg::output(&mut st))
            .arg(Arg::input(&ld))
            .arg(Arg::input(&xs))
            .run(&[n], Some(&[local]));
        let what = format!("{opt:?} {kernel}");
        c11_check(&init, &uinit, &ids, &xs, &c, &u, &ret, &what);
        c11_check_load_store(&ids, &xs, &st, &ld, &ret, &what);
    }
}

#[test]
fn c11_atomics_32_bit_global_device_scope() {
    c11_global::<i32>("c11_32_global", 64 * 64, 64);
}

#[test]
fn c11_atomics_64_bit_global_all_svm_devices_scope() {
    c11_global::<i64>("c11_64_global", 64 * 64, 64);
}

#[test]
fn c11_atomics_32_bit_local_work_group_scope() {
    let (n, local) = (16 * 96 + 30usize, 96usize);
    let groups = n.div_ceil(local);
    let xs: Vec<i32> = values(n, 123);
    let ld: Vec<i32> = values(n, 6);
    let (init, uinit) = c11_init::<i32>();
    let mut init12 = init.clone();
    init12.extend(uinit.iter().map(|&u| u as i32));
    for opt in Opt::BOTH {
        let mut out = vec![0i32; groups * 10];
        let mut uout = vec![0u32; groups * 2];
        let mut ret = vec![-1i32; n * 4];
        let mut st = vec![0i32; n];
        Kernel::new("atomics", opt, "c11_32_local")
            .arg_may_differ(1, XCHG)
            .arg_may_differ(3, RETURNED)
            .arg(Arg::input(&init12))
            .arg(Arg::output(&mut out))
            .arg(Arg::output(&mut uout))
            .arg(Arg::output(&mut ret))
            .arg(Arg::output(&mut st))
            .arg(Arg::input(&ld))
            .arg(Arg::input(&xs))
            .run(&[n], Some(&[local]));
        for g in 0..groups {
            let ids: Vec<usize> = (g * local..((g + 1) * local).min(n)).collect();
            let what = format!("{opt:?} c11_32_local group {g}");
            c11_check(
                &init,
                &uinit,
                &ids,
                &xs,
                &out[g * 10..g * 10 + 10],
                &uout[g * 2..g * 2 + 2],
                &ret,
                &what,
            );
            c11_check_load_store(&ids, &xs, &st, &ld, &ret, &what);
        }
    }
}

/// (winners of each group's flag, winners of the range's flag).
fn flag_winners(won: &[i32], local: usize) -> (Vec<usize>, usize) {
    let per_group = won
        .chunks(local)
        .map(|c| c.iter().filter(|&&w| w & 1 != 0).count())
        .collect();
    (per_group, won.iter().filter(|&&w| w & 2 != 0).count())
}

#[test]
fn atomic_flag_test_and_set_and_clear() {
    let (n, local) = (1024usize, 64usize);
    let groups = n / local;
    for opt in Opt::BOTH {
        let race = Kernel::new("atomics", opt, "flag_race");
        let race_again = race.sibling("flag_race");
        let clear = race.sibling("flag_clear");
        let race_after_clear = race.sibling("flag_race");
        let mut flags = vec![0u32; groups + 1];
        let mut won = vec![-1i32; n];
        race.arg_may_differ(1, WINNER)
            .arg(Arg::output(&mut flags))
            .arg(Arg::output(&mut won))
            .run(&[n], Some(&[local]));
        assert_eq!(flag_winners(&won, local), (vec![1; groups], 1), "{opt:?}: first race");
        race_again
            .arg_may_differ(1, WINNER)
            .arg(Arg::output(&mut flags))
            .arg(Arg::output(&mut won))
            .run(&[n], Some(&[local]));
        assert_eq!(
            flag_winners(&won, local),
            (vec![0; groups], 0),
            "{opt:?}: flags still set"
        );
        clear.arg(Arg::output(&mut flags)).run(&[groups + 1], None);
        race_after_clear
            .arg_may_differ(1, WINNER)
            .arg(Arg::output(&mut flags))
            .arg(Arg::output(&mut won))
            .run(&[n], Some(&[local]));
        assert_eq!(
            flag_winners(&won, local),
            (vec![1; groups], 1),
            "{opt:?}: after atomic_flag_clear"
        );
    }
}

#[test]
fn atomic_flag_in_local_memory() {
    let (n, local) = (1000usize, 64usize);
    for opt in Opt::BOTH {
        let mut won = vec![-1i32; n];
        Kernel::new("atomics", opt, "flag_local")
            .arg_may_differ(0, WINNER)
            .arg(Arg::output(&mut won))
            .run(&[n], Some(&[local]));
        let per_group: Vec<usize> = won
            .chunks(local)
            .map(|c| c.iter().filter(|&&w| w == 1).count())
            .collect();
        assert_eq!(per_group, vec![1; n.div_ceil(local)], "{opt:?}: winners per group");
        assert!(won.iter().all(|&w| w == 0 || w == 1), "{opt:?}");
    }
}

fn seven_counters<T: Pod + Debug + PartialEq + TryFrom<u64>>(module: &str, kernel: &str) {
    let n = 1usize << 20;
    let conv = |v: u64| T::try_from(v).unwrap_or_else(|_| panic!("{v} fits"));
    let want: Vec<T> = (0..7).map(|k| conv(((n - k) as u64).div_ceil(7))).collect();
    // The 32-bit sum wraps.
    let sum = (n as u64) * (n as u64 - 1) / 2;
    let want_sum = conv(if std::mem::size_of::<T>() == 4 {
        sum & 0xffff_ffff
    } else {
        sum
    });
    for opt in Opt::BOTH {
        for local in [Some([256usize]), None] {
            let mut c = vec![conv(0); 7];
            let mut s = vec![conv(0); 1];
            Kernel::new(module, opt, kernel)
                .arg(Arg::output(&mut c))
                .arg(Arg::output(&mut s))
                .run(&[n], local.as_ref().map(|l| &l[..]));
            assert_eq!(c, want, "{opt:?} {kernel} local {local:?}: counters");
            assert_eq!(s[0], want_sum, "{opt:?} {kernel} local {local:?}: sum of ids");
        }
    }
}

#[test]
fn a_million_work_items_on_seven_counters() {
    seven_counters::<u32>("atomics", "count7");
}

#[test]
fn a_million_work_items_on_seven_64_bit_counters() {
    seven_counters::<u64>("atomics64", "count7_64");
}

fn histogram_input(n: usize) -> (Vec<u8>, Vec<u32>) {
    let mut r = Rng(77);
    // Skewed: half the bytes fall in 4 bins, so those bins are contended.
    let data: Vec<u8> = (0..n)
        .map(|_| {
            let v = r.next();
            if v & 1 == 0 {
                (v >> 8) as u8 & 3
            } else {
                (v >> 8) as u8
            }
        })
        .collect();
    let mut bins = vec![0u32; 256];
    for &b in &data {
        bins[b as usize] += 1;
    }
    (data, bins)
}

#[test]
fn histogram_with_global_atomics() {
    let n = 1 << 20;
    let (data, want) = histogram_input(n);
    for opt in Opt::BOTH {
        let mut bins = vec![0u32; 256];
        Kernel::new("atomics", opt, "hist_global")
            .arg(Arg::input(&data))
            .arg(Arg::output(&mut bins))
            .arg(Arg::value(n as u32))
            .run(&[64 * 256], Some(&[128]));
        assert_eq!(bins, want, "{opt:?}");
    }
}

#[test]
fn histogram_with_local_then_global_atomics() {
    let n = 1 << 20;
    let (data, want) = histogram_input(n);
    for opt in Opt::BOTH {
        // Also few work-items per group, odd and even, so each loops long
        // and the loops' lanes leave at different iterations (4-lane bodies
        // run them under masks).
        let shapes = [
            (64 * 256usize, 256usize),
            (100 * 64, 64),
            (4 * 100, 100),
            (5 * 12, 12),
            (3 * 7, 7),
        ];
        for (global, local) in shapes {
            let mut bins = vec![0u32; 256];
            Kernel::new("atomics", opt, "hist_local")
                .arg(Arg::input(&data))
                .arg(Arg::output(&mut bins))
                .arg(Arg::Local(256 * 4))
                .arg(Arg::value(n as u32))
                .run(&[global], Some(&[local]));
            assert_eq!(bins, want, "{opt:?}: global {global} local {local}");
        }
    }
}
