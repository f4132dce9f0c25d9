//! Control flow: OpSwitch on 8-, 16-, 32- and 64-bit selectors
//! (with fallthrough, default, case values at the type's limits), nested
//! loops with break and continue, goto, call chains with early returns
//! (noinline: real OpFunctionCalls at both levels), early returns from the
//! kernel, loop-carried OpPhis. Kernels: `kernels/cl/control.cl` at -O0 and
//! -O2; every output element is compared with a host reference.

use clift_conformance::exec::{Arg, Kernel, Opt, Pod};
use clift_conformance::rng::Rng;

/// Runs `name(in, out)` over `input` at both levels and compares `out`
/// (initialized with `init`) with `want`.
fn check_unary<I: Pod, O: Pod + PartialEq + std::fmt::Debug>(
    name: &str,
    input: &[I],
    init: O,
    want: &[O],
    local: Option<usize>,
) {
    for opt in Opt::BOTH {
        let mut out = vec![init; want.len()];
        let loc = local.map(|l| [l]);
        Kernel::new("control", opt, name)
            .arg(Arg::input(input))
            .arg(Arg::output(&mut out))
            .run(&[input.len()], loc.as_ref().map(|l| &l[..]));
        for (i, (g, w)) in out.iter().zip(want).enumerate() {
            assert_eq!(g, w, "{opt:?} {name}: element {i}");
        }
    }
}

#[test]
fn switch_on_char() {
    let sel: Vec<i8> = (-128..=127).collect();
    let want: Vec<i32> = sel
        .iter()
        .map(|&s| match s {
            -128 => 1,
            -3 => 30,
            0 => 20,
            5 => 22,
            6 => 1,
            7 => 1,
            127 => -5,
            _ => s as i32 * 2,
        })
        .collect();
    check_unary("switch_char", &sel, 0i32, &want, Some(16));
}

#[test]
fn switch_on_uchar_selector_of_8_bits() {
    let sel: Vec<u8> = (0..=255).collect();
    let want: Vec<i32> = sel
        .iter()
        .map(|&s| match s {
            0 => 11,
            1 => 7,
            2 => 2,
            128 => 7,
            200 => -9,
            255 => 9,
            _ => s as i32 + 1000,
        })
        .collect();
    check_unary("switch_uchar", &sel, 0i32, &want, Some(16));
}

fn short_inputs() -> Vec<i16> {
    let mut v: Vec<i16> = (i16::MIN..=i16::MAX).step_by(97).collect();
    v.extend([
        i16::MIN,
        -300,
        300,
        1000,
        1001,
        1002,
        i16::MAX,
        0,
        -1,
        255,
        256,
        299,
        301,
    ]);
    v
}

#[test]
fn switch_on_short() {
    let sel = short_inputs();
    let want: Vec<i32> = sel
        .iter()
        .map(|&s| match s {
            -32768 => 1,
            -300 => 5,
            300 => 103,
            1000..=1002 => 4,
            32767 => -12345, // left alone
            _ => -(s as i32),
        })
        .collect();
    check_unary("switch_short", &sel, -12345i32, &want, None);
}

#[test]
fn switch_on_ushort_selector_of_16_bits() {
    let sel: Vec<u16> = short_inputs()
        .iter()
        .map(|&s| s as u16)
        .chain([32768, 60000, 65535])
        .collect();
    let want: Vec<i32> = sel
        .iter()
        .map(|&s| match s {
            0 => 0,
            255 => 6,
            256 => 3,
            32768 => 4,
            60000 => 5,
            65535 => 6,
            _ => -(s as i32),
        })
        .collect();
    check_unary("switch_ushort", &sel, 0i32, &want, None);
}

fn switch_int_ref(s: i32) -> i32 {
    let (mut r, mut k) = (0i32, 0i32);
    while k < 3 {
        match s + k {
            0 => r += 1,
            1 => {
                r += 10;
                k += 1;
                continue;
            }
            2 => r += 1100,
            3 => r += 1000,
            i32::MAX => r -= 5,
            i32::MIN => r -= 7,
            0x10_0000 => r += 3,
            _ => {
                r += 10000;
                if s < -100 {
                    k = 5;
                }
            }
        }
        r *= 2;
        k += 1;
    }
    r
}

#[test]
fn switch_on_int_in_a_loop_with_continue() {
    // No selector past i32::MAX - 2: sel + k must not overflow (UB in C).
    let mut sel: Vec<i32> = (-110..10).collect();
    sel.extend([
        i32::MAX - 2,
        i32::MAX - 3,
        i32::MAX - 4,
        i32::MIN,
        i32::MIN + 1,
        1 << 20,
        (1 << 20) - 2,
        (1 << 20) - 1,
    ]);
    let mut r = Rng(1);
    sel.extend((0..200).map(|_| r.int(i32::MIN as i64, i32::MAX as i64 - 2) as i32));
    let want: Vec<i32> = sel.iter().map(|&s| switch_int_ref(s)).collect();
    check_unary("switch_int", &sel, 0i32, &want, None);
}

#[test]
fn switch_on_long() {
    let mut sel: Vec<i64> = vec![
        0x1_0000_0000,
        -0x1_0000_0000,
        i64::MAX,
        5,
        -1,
        0xffff_ffff,
        0,
        i64::MIN,
        0x1_0000_0005, // same low 32 bits as a case: must not match
        -0x1_0000_0001,
        0x7fff_ffff,
        1 << 40,
    ];
    let mut r = Rng(2);
    sel.extend((0..100).map(|_| ((r.next() as i64) << 32 | r.next() as i64) - (1 << 62)));
    let want: Vec<i64> = sel
        .iter()
        .map(|&s| match s {
            0x1_0000_0000 => 1,
            -0x1_0000_0000 => 2,
            i64::MAX => 4,
            5 => 4,
            -1 => 5,
            0xffff_ffff => 6,
            _ => s >> 3,
        })
        .collect();
    check_unary("switch_long", &sel, 0i64, &want, None);
}

#[test]
fn a_dense_switch() {
    let mut sel: Vec<u32> = (0..24).collect();
    sel.extend([u32::MAX, 1 << 31, 12, 1000]);
    let want: Vec<u32> = sel
        .iter()
        .map(|&x| match x {
            0 => x.wrapping_mul(3),
            1 => x + 17,
            2 => x ^ 0x55,
            3 => x >> 2,
            4 => x << 3,
            5 => !x,
            6 => x.wrapping_mul(x),
            7 => x.wrapping_sub(1000),
            8 => x | 0xf0,
            9 => x & 0x0f,
            _ => 42,
        })
        .collect();
    check_unary("switch_dense", &sel, 0u32, &want, None);
}

fn loops_ref(lim: i32) -> i32 {
    let mut acc = 0i32;
    for i in 0..lim {
        if i % 3 == 1 {
            continue;
        }
        if acc > 5000 {
            break;
        }
        let mut j = 0;
        loop {
            j += 1;
            if j % 2 == 0 {
                continue;
            }
            if j > i {
                break;
            }
            acc += i * j;
        }
        loop {
            acc ^= j;
            j -= 3;
            if j <= 0 {
                break;
            }
        }
    }
    acc
}

#[test]
fn nested_loops_with_break_and_continue() {
    let n: Vec<i32> = (-2..70).collect();
    let want: Vec<i32> = n.iter().map(|&l| loops_ref(l)).collect();
    check_unary("loops", &n, 0i32, &want, Some(8));
}

#[test]
fn goto_retry_loop_and_jump_out_of_nested_loops() {
    let mut input: Vec<i32> = (-20..400).collect();
    input.extend([27, 97, 871, 703]);
    let mut want = Vec::new();
    for &x0 in &input {
        let (mut x, mut steps) = (x0, 0);
        loop {
            steps += 1;
            if x > 1 {
                x = if x & 1 != 0 { 3 * x + 1 } else { x / 2 };
                if steps < 200 {
                    continue;
                }
            }
            break;
        }
        let m = x0 % 7 + 1;
        let mut found = -1;
        'out: for i in 0..10 {
            for j in 0..10 {
                if (i * 10 + j) * m > 60 {
                    found = i * 10 + j;
                    break 'out;
                }
            }
        }
        want.extend([steps, found]);
    }
    check_unary("gotos", &input, 0i32, &want, None);
}

fn leaf(x: i32) -> i32 {
    if x < 0 {
        -x
    } else if x > 1000 {
        1000
    } else {
        x * 2
    }
}

fn middle(x: i32, y: i32) -> i32 {
    let a = leaf(x);
    if a == y {
        0
    } else {
        a + leaf(y - x)
    }
}

fn top(x: i32, y: i32, z: i32) -> i64 {
    let mut s = middle(x, y) as i64;
    for i in 0..z {
        s += middle(i, x) as i64 * (i as i64 + 1);
    }
    s
}

#[test]
fn call_chains_with_early_returns() {
    let n = 300;
    let mut r = Rng(3);
    let mut input = Vec::new();
    for g in 0..n {
        let x = r.int(-2000, 2000);
        // Some work-items hit the `a == y` early return.
        let y = if g % 5 == 0 { leaf(x) } else { r.int(-2000, 2000) };
        let z = r.int(-5, 50);
        input.extend([x, y, z]);
    }
    let mut want = vec![0i64; n];
    let mut want_even = vec![-7i32; n];
    for g in 0..n {
        let (x, y, z) = (input[g * 3], input[g * 3 + 1], input[g * 3 + 2]);
        if z < 0 {
            want[g] = -1;
            continue;
        }
        want[g] = top(x, y, z);
        if x & 1 == 0 {
            want_even[g] = x;
        }
    }
    for opt in Opt::BOTH {
        let mut out = vec![0i64; n];
        let mut even = vec![-7i32; n];
        Kernel::new("control", opt, "calls")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .arg(Arg::output(&mut even))
            .run(&[n], Some(&[20]));
        assert_eq!(out, want, "{opt:?}: top()");
        assert_eq!(even, want_even, "{opt:?}: store_if()");
    }
}

#[test]
fn early_return_from_the_kernel() {
    let n = 1000;
    let global = 1024;
    let input: Vec<i32> = (0..global as i32).map(|i| (i % 13) - 6).collect();
    let want: Vec<i32> = (0..global)
        .map(|g| {
            if g >= n {
                -99
            } else if input[g] == 0 {
                77
            } else if input[g] > 0 {
                input[g]
            } else {
                -input[g] * 3
            }
        })
        .collect();
    for opt in Opt::BOTH {
        let mut out = vec![-99i32; global];
        Kernel::new("control", opt, "early_return")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .arg(Arg::value(n as i32))
            .run(&[global], Some(&[64]));
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn loop_carried_phis() {
    let mut r = Rng(4);
    let input: Vec<u32> = (0..500).map(|_| r.next()).collect();
    let want: Vec<u32> = input
        .iter()
        .map(|&x| {
            let (mut a, mut b, mut c) = (x, x.wrapping_mul(7).wrapping_add(1), 0u32);
            for i in 0..(x & 31) {
                let t = a;
                a = b;
                b = t.wrapping_add(if i & 1 != 0 { a } else { c });
                c ^= t;
            }
            if a < b {
                a.wrapping_sub(b)
            } else {
                c.wrapping_add(if b > 10 { b } else { a })
            }
        })
        .collect();
    check_unary("phis", &input, 0u32, &want, None);
}

/// f_n(x) = f_(n-1)(x / 2) + n of a double4 and g_n(x) = g_(n-1)(x + 1) ^
/// n of a char4, n = 52 down to f_0(x) = x, a call chain deeper than the
/// JIT inlines (lower/inline.rs, MAX_DEPTH): the innermost calls go to
/// separately compiled helper functions returning four doubles or four
/// chars, more values than the return registers hold, which Cranelift then
/// returns through memory the caller provides. Before, the kernel could not
/// run ("Too many return values to fit in registers"). Built from source at
/// -O0 (every call kept) and -O2, scalar, 4-lane and 8-lane.
#[test]
fn call_chain_deeper_than_inlining_returns_vectors() {
    use clift_conformance::exec::{NARROW, SCALAR_ONLY, WIDE};
    let depth = 52;
    let mut src = String::from(
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
         static double4 f0(double4 x) { return x; }\n\
         static char4 g0(char4 x) { return x; }\n",
    );
    for n in 1..=depth {
        src += &format!(
            "static double4 f{n}(double4 x) {{ return f{}(x * 0.5) + (double4)({n}); }}\n\
             static char4 g{n}(char4 x) {{ return g{}(x + (char4)(1)) ^ (char4)({n}); }}\n",
            n - 1,
            n - 1
        );
    }
    src += &format!(
        "kernel void deep(global double4 *o, global char4 *c) {{\n\
         size_t i = get_global_id(0);\n\
         o[i] = f{depth}(o[i]);\n\
         c[i] = g{depth}(c[i]);\n\
         }}\n"
    );
    fn f(n: u32, x: f64) -> f64 {
        if n == 0 {
            x
        } else {
            f(n - 1, x * 0.5) + f64::from(n)
        }
    }
    fn g(n: u32, x: i8) -> i8 {
        if n == 0 {
            x
        } else {
            g(n - 1, x.wrapping_add(1)) ^ n as i8
        }
    }
    let items = 37usize;
    let doubles: Vec<f64> = (0..4 * items).map(|k| k as f64 * 1.25 - 40.0).collect();
    let chars: Vec<i8> = (0..4 * items).map(|k| (k as i32 * 37 - 100) as i8).collect();
    for opt in ["-cl-opt-disable", ""] {
        for lanes in ["", SCALAR_ONLY, NARROW, WIDE] {
            let options = format!("{opt} {lanes}");
            let mut o = doubles.clone();
            let mut c = chars.clone();
            Kernel::with_source(&src, "deep", &options)
                .unwrap_or_else(|e| panic!("{options}: {e}"))
                .arg(Arg::output(&mut o))
                .arg(Arg::output(&mut c))
                .run(&[items], None);
            for k in 0..4 * items {
                assert_eq!(o[k], f(depth, doubles[k]), "{options}: double {k}");
                assert_eq!(c[k], g(depth, chars[k]), "{options}: char {k}");
            }
        }
    }
}
