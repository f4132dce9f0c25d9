//! Reference conversions to and from IEEE half precision, shared by the
//! float (`exec_builtins_misc`) and double (`exec_fp64_convert`) tests:
//! exact arithmetic in f64, the exponent read from the bits, so no
//! logarithm can misjudge it.

/// An OpenCL rounding mode (`_rte`, `_rtz`, `_rtp`, `_rtn`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rounding {
    /// To nearest, ties to even.
    Rte,
    /// Toward zero.
    Rtz,
    /// Toward positive infinity.
    Rtp,
    /// Toward negative infinity.
    Rtn,
}

/// The unbiased exponent of a normal positive f64.
fn exp_of(v: f64) -> i32 {
    ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023
}

/// `x` (a float or double, given exactly as f64) to half bits, rounded by
/// `mode`; a NaN becomes a quiet NaN with the sign of `x`.
pub fn to_half(x: f64, mode: Rounding) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let a = x.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    if a == 0.0 {
        return sign;
    }
    let ulp = 2f64.powi(exp_of(a).max(-14) - 10);
    let q = a / ulp;
    // Rounding the magnitude up or down, by the mode and the sign.
    let neg = sign != 0;
    let r = match mode {
        Rounding::Rtz => q.floor(),
        Rounding::Rtp if neg => q.floor(),
        Rounding::Rtp => q.ceil(),
        Rounding::Rtn if neg => q.ceil(),
        Rounding::Rtn => q.floor(),
        Rounding::Rte => q.round_ties_even(),
    };
    let v = r * ulp;
    if v > 65504.0 {
        let to_inf = match mode {
            Rounding::Rte => true,
            Rounding::Rtz => false,
            Rounding::Rtp => !neg,
            Rounding::Rtn => neg,
        };
        return sign | if to_inf { 0x7c00 } else { 0x7bff };
    }
    if v < 2f64.powi(-14) {
        return sign | (v / 2f64.powi(-24)) as u16;
    }
    let e = exp_of(v);
    let m = (v / 2f64.powi(e - 10)) as u16 - 1024;
    sign | (((e + 15) as u16) << 10) | m
}

/// Half bits to f64 (exact; every half is a float and a double).
pub fn from_half(h: u16) -> f64 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f64::from(h & 0x3ff);
    let v = match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    };
    s * v
}

/// Whether two halves are the same bits, or both NaN.
pub fn same_half(a: u16, b: u16) -> bool {
    let nan = |h: u16| h & 0x7c00 == 0x7c00 && h & 0x3ff != 0;
    a == b || (nan(a) && nan(b))
}
