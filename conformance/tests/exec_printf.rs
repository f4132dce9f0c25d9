//! printf (kernels/cl/printf.cl) through the loader: the exact text of
//! every conversion with flags, width and precision, vectors of 2 to 16
//! components with hh, h, hl and l, %s of literal strings, %%, printf's
//! return value, whole lines from concurrent work-items, the printf buffer's
//! capacity, and the immediate mode. `kernels/cl/printf_double.cl` is
//! compiled the ordinary way (cl_khr_fp64 on, so clang promotes float
//! arguments to double): the same float text, and double scalars and
//! vectors (`%v2lf`...) with full precision.
//!
//! printf writes to the process's stdout, so each case runs in a child
//! process: this test binary again, running only the `child` test with
//! `CLIFT_PRINTF_CASE` naming the case. The child prints a marker line,
//! runs the kernel (whose output is printed when the command completes),
//! prints a second marker and then the return values; the parent checks
//! the text between the markers.

use std::process::Command;

use clift_conformance::exec::{Arg, Kernel, Opt};

const BEGIN: &str = "<<<printf begin>>>\n";
const END: &str = "<<<printf end>>>\n";

/// CL_DEVICE_PRINTF_BUFFER_SIZE of clift's device.
const BUFFER: usize = 1 << 20;

// -3.14159 is a value with many digits to round, not an approximation of π.
#[allow(clippy::approx_constant)]
const FLOATS: [f32; 16] = [
    1.5,
    -3.14159,
    1234.5,
    0.000123,
    100000.0,
    1e6,
    0.0001,
    1e-5,
    0.1,
    f32::INFINITY,
    f32::NAN,
    -0.0,
    255.0,
    2.5,
    0.5,
    1.0,
];

/// The doubles of printf_double.cl's double_values and double_vectors.
const DOUBLES: [f64; 8] = [
    0.1,
    1e300,
    f64::MAX,
    f64::MIN_POSITIVE,
    4.9e-324,
    -2.5,
    1.0 / 3.0,
    123_456_789.123_456_79,
];

const INTS: [i32; 16] = [
    -1,
    0,
    1,
    127,
    128,
    255,
    256,
    32767,
    -32768,
    65535,
    0x7fff_ffff,
    i32::MIN,
    10,
    11,
    12,
    13,
];

/// In the child: runs case `case` and prints its output between the
/// markers, then `ret` and the return values.
fn run_case(case: &str) {
    let (name, opt) = case.split_once(':').expect("case:opt");
    let opt = if opt == "O0" { Opt::O0 } else { Opt::O2 };
    let (global, local, nret): (usize, usize, usize) = match name {
        "lines" => (1024, 16, 1024),
        "lines_big" => (32768, 64, 32768),
        "after_barrier" => (64, 16, 64),
        _ => (1, 1, 8),
    };
    let kernel = if name == "lines_big" { "lines" } else { name };
    let mut ret = vec![i32::MIN; nret];
    let ints: [i32; 8] = [42, -5, 255, 0, 0x1ff, 0x18000, 7, b'A' as i32];
    let longs: [i64; 3] = [i64::MIN, -1, 123];
    let pair: [i32; 2] = [7, 8];
    let module = if name.starts_with("double_") {
        "printf_double"
    } else {
        "printf"
    };
    let k = Kernel::new(module, opt, kernel).modes_may_differ(
        "printf writes to stdout, which this test compares: a second run would print twice, \
         and the order of the work-items' lines is unspecified",
    );
    let k = match name {
        "double_floats" => k.arg(Arg::input(&FLOATS)),
        "double_values" | "double_vectors" => k.arg(Arg::input(&DOUBLES)),
        "integers" => k.arg(Arg::input(&ints)).arg(Arg::input(&longs)),
        "floats" => k.arg(Arg::input(&FLOATS)),
        "vectors" => k.arg(Arg::input(&INTS)).arg(Arg::input(&FLOATS)),
        "returns" => k.arg(Arg::input(&pair)),
        _ => k,
    };
    print!("{BEGIN}");
    k.arg(Arg::output(&mut ret)).run(&[global], Some(&[local]));
    print!("{END}");
    println!(
        "ret {}",
        ret.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(" ")
    );
}

/// Not a test of its own: the child process's entry (does nothing unless
/// `CLIFT_PRINTF_CASE` is set).
#[test]
fn child() {
    if let Some(case) = clift_conformance::env::text("CLIFT_PRINTF_CASE") {
        run_case(&case);
    }
}

/// Runs `case` at `opt` in a child process; returns the kernel's output and
/// its return values.
fn spawn(case: &str, opt: Opt, immediate: bool) -> (String, Vec<i32>) {
    let exe = std::env::current_exe().expect("test executable");
    let mut cmd = Command::new(exe);
    cmd.args(["--exact", "child", "--nocapture", "--test-threads=1"])
        .env("CLIFT_PRINTF_CASE", format!("{case}:{opt:?}"));
    if immediate {
        cmd.env("CLIFT_PRINTF_IMMEDIATE", "1");
    } else {
        cmd.env_remove("CLIFT_PRINTF_IMMEDIATE");
    }
    let out = cmd.output().expect("run the child");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    assert!(
        out.status.success(),
        "{case} {opt:?}: child failed\nstdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let start = stdout
        .find(BEGIN)
        .unwrap_or_else(|| panic!("no begin marker in {stdout:?}"))
        + BEGIN.len();
    let end = stdout[start..]
        .find(END)
        .unwrap_or_else(|| panic!("no end marker in {stdout:?}"))
        + start;
    let rest = &stdout[end + END.len()..];
    let ret_line = rest
        .lines()
        .find_map(|l| l.strip_prefix("ret "))
        .expect("return values");
    let ret = ret_line.split(' ').map(|r| r.parse().expect("an int")).collect();
    (stdout[start..end].to_string(), ret)
}

/// Runs a single-work-item case at both levels and checks its exact text
/// and return values.
fn check_case(case: &str, want: &[&str], want_ret: &[i32]) {
    for opt in Opt::BOTH {
        let (text, ret) = spawn(case, opt, false);
        let want_text: String = want.iter().map(|l| format!("{l}\n")).collect();
        assert_eq!(text, want_text, "{case} {opt:?}");
        assert_eq!(&ret[..want_ret.len()], want_ret, "{case} {opt:?}");
    }
}

#[test]
fn integer_conversions() {
    check_case(
        "integers",
        &[
            "[42|-5|   42|42   |-0005|+42| 42|007|     007|]",
            "[4294967291|10|010|ff|FF|0xff|0x000000ff|0XFF    |0]",
            "[-1|255|-32768|8000|A|  A|z  ]",
            "[-9223372036854775808|18446744073709551615|ffffffffffffffff|+123|  -9223372036854775808|173]",
        ],
        &[0; 4],
    );
}

/// What the kernel of `kernels/cl/printf_floats.h` prints, with float
/// arguments or promoted to double.
const FLOATS_TEXT: [&str; 4] = [
    "[1.500000|2|2|1.|  -3.142|1.50    |-0003.14|-0.000000| 1.0|INF|0.1000000015|nan]",
    "[1.234500e+03|1.23e+03|1.230000E-04|2e+00|1.e+00|  -3.142e+00|-0.000000e+00|+inf]",
    "[100000|1e+06|0.0001|1e-05|1.5|-3.14|1.50000|INF|-003.14159|nan   |0.000123]",
    "[0x1p+0|0x1p-1|0x1.fep+7|0X1.FEP+7|0x1.99999ap-4|0x2p+0|0x1.ap-4|-0x0p+0|      0x1p+0|0x1p-1   ]",
];

#[test]
fn float_conversions() {
    check_case("floats", &FLOATS_TEXT, &[0; 4]);
}

#[test]
fn float_arguments_promoted_to_double_print_the_same() {
    check_case("double_floats", &FLOATS_TEXT, &[0; 4]);
}

/// The expected text is glibc's printf of the same values and formats.
#[test]
fn double_scalars_and_vectors() {
    check_case(
        "double_values",
        &[
            "[0.10000000000000001|1e+300|1.000000e+300|1.798e+308|0x1.999999999999ap-4|0x0.0000000000001p-1022|0X1P-1022]",
            "[-2.500000|0.33333333333333331483|123456789.123457|-2.5e+00    |+123456789|2.22507E-308]",
            "[100000000000000005250476025520442024870446858110815915491585411551180245798890819578637137508044786\
             4043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368\
             9532349707999450811190389676408800746527427801424945792587888200568428381156694721963868654594005401\
             60]",
        ],
        &[0; 3],
    );
    check_case(
        "double_vectors",
        &[
            "v2=-2.500000,0.333333 v4=1.000e-01,1.000e+300,1.798e+308,2.225e-308",
            "v3=0.1,-2.5,1.23457e+08 v2a=0x1.999999999999ap-4,-0x1.4p+1",
            "v8=1.00,2.00,3.00,4.00,5.00,6.00,7.00,8.50",
        ],
        &[0; 3],
    );
}

#[test]
fn vector_conversions() {
    check_case(
        "vectors",
        &[
            "c2=-1,127 uc4=0x80,0xff,0,0xff s3=32767,-32768,-1 us8=65535,0,1,127,128,255,256,32767",
            "i4=-32768,65535,2147483647,-2147483648 u16=ffffffff,0,1,7f,80,ff,100,7fff,ffff8000,ffff,7fffffff,80000000,a,b,c,d",
            "l2=8589934588,-8589934592 ul3=18446744073709551615,0,1 o2=012,013",
            "f2=1.50,-3.14 f4=1.00,2.00,3.00,4.00 f8=1.5,-3.14159,1234.5,0.000123,100000,1e+06,0.0001,1e-05",
            "f16=1.5e+00,-3.1e+00,1.2e+03,1.2e-04,1.0e+05,1.0e+06,1.0e-04,1.0e-05,1.0e-01,inf,nan,-0.0e+00,2.6e+02,\
             2.5e+00,5.0e-01,1.0e+00 f3=0x1.99999ap-4,0x1.fep+7,0x1p+0",
        ],
        &[0; 5],
    );
}

const STRINGS: [&str; 4] = [
    "literal|     right|left      |tru|",
    "constant array and a \"quoted\" %d",
    "100% x%",
    "   co|0x0",
];

#[test]
fn strings_and_percent() {
    check_case("strings", &STRINGS, &[0; 4]);
}

#[test]
fn return_values() {
    // A missing argument, an int for %ld, an int2 for %v4hld and an
    // unknown conversion print nothing and return -1; excess arguments are
    // ignored.
    check_case(
        "returns",
        &["ok 7", "no arguments", "extra 7"],
        &[0, -1, -1, -1, -1, 0, 0],
    );
}

/// The line work-item `g` of `lines` prints (groups of `local`).
fn line(g: usize, local: usize) -> String {
    format!(
        "work-item {g:5} of group {:4}: {},{},{},{} end {}\n",
        g / local,
        g,
        2 * g,
        3 * g,
        4 * g,
        if g == 0 { "0".to_string() } else { format!("{g:#x}") }
    )
}

/// Checks that `text` is made of whole lines of `lines`, each at most once,
/// and returns how many.
fn whole_lines(text: &str, local: usize, total: usize) -> usize {
    let mut seen = vec![false; total];
    for l in text.split_inclusive('\n') {
        let g: usize = l
            .strip_prefix("work-item ")
            .and_then(|r| r.get(..5))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("not a line of the kernel: {l:?}"));
        assert!(g < total && !seen[g], "line {l:?} twice or out of range");
        assert_eq!(l, line(g, local), "a line mixed with another");
        seen[g] = true;
    }
    seen.iter().filter(|&&s| s).count()
}

#[test]
fn each_work_items_output_stays_whole() {
    for opt in Opt::BOTH {
        let (text, ret) = spawn("lines", opt, false);
        assert_eq!(whole_lines(&text, 16, 1024), 1024, "{opt:?}");
        assert!(ret.iter().all(|&r| r == 0), "{opt:?}: {ret:?}");
    }
}

#[test]
fn printf_after_barriers() {
    for opt in Opt::BOTH {
        let (text, ret) = spawn("after_barrier", opt, false);
        let mut got: Vec<&str> = text.lines().collect();
        got.sort_unstable();
        let mut want: Vec<String> = (0..64).map(|g| format!("item {g} of 64 saw 16")).collect();
        want.sort_unstable();
        assert_eq!(got, want, "{opt:?}");
        assert!(ret.iter().all(|&r| r == 0), "{opt:?}: {ret:?}");
    }
}

#[test]
fn output_past_the_printf_buffer_is_refused() {
    // 32768 lines of about 60 bytes exceed CL_DEVICE_PRINTF_BUFFER_SIZE:
    // the calls that no longer fit print nothing and return -1.
    let (text, ret) = spawn("lines_big", Opt::O2, false);
    let printed = whole_lines(&text, 64, 32768);
    let ok = ret.iter().filter(|&&r| r == 0).count();
    assert_eq!(printed, ok);
    assert!(ret.iter().all(|&r| r == 0 || r == -1));
    assert!(
        text.len() <= BUFFER && text.len() > BUFFER - 100,
        "{} bytes",
        text.len()
    );
    assert!(ok < 32768);
}

#[test]
fn immediate_mode_prints_at_each_call() {
    let (text, ret) = spawn("strings", Opt::O2, true);
    let want: String = STRINGS.iter().map(|l| format!("{l}\n")).collect();
    assert_eq!(text, want);
    assert_eq!(&ret[..4], &[0; 4]);
    // No buffer, so no capacity: every call prints.
    let (text, ret) = spawn("lines_big", Opt::O2, true);
    assert_eq!(whole_lines(&text, 64, 32768), 32768);
    assert!(ret.iter().all(|&r| r == 0));
}
