//! Literals: integers in range with the right suffix, floating-point values
//! as exact hexadecimal literals.

use crate::rng::Rng;
use crate::types::{Scalar, Ty};

/// An integer literal of scalar `s` with value `v` (within its range), as an
/// expression of type `s`.
pub fn int(s: Scalar, v: i128) -> String {
    let (lo, hi) = s.range();
    debug_assert!(lo <= v && v <= hi);
    let text = match s {
        Scalar::Long if v == lo => "(-9223372036854775807L-1L)".to_string(),
        Scalar::Int if v == lo => "(-2147483647-1)".to_string(),
        Scalar::Long => format!("{v}L"),
        Scalar::ULong => format!("{v}UL"),
        Scalar::UInt => format!("{v}u"),
        _ => format!("{v}"),
    };
    format!("(({}){text})", s.name())
}

/// An interesting integer value of scalar `s`.
pub fn int_value(r: &mut Rng, s: Scalar) -> i128 {
    let (lo, hi) = s.range();
    match r.below(9) {
        0 => 0,
        1 => 1,
        2 => {
            if lo < 0 {
                -1
            } else {
                hi
            }
        }
        3 => lo,
        4 => hi,
        5 => r.below(17) as i128,
        6 => (s.bits() - 1) as i128,
        _ => {
            let bits = r.next_u64() as i128 & ((1i128 << s.bits()) - 1);
            if lo < 0 && bits > hi {
                bits - (1i128 << s.bits())
            } else {
                bits
            }
        }
    }
}

/// The exact hexadecimal spelling of a finite `f64`, or INFINITY / NAN
/// (which need a cast to be doubles).
pub fn hex_f64(v: f64) -> String {
    if v.is_nan() {
        return "NAN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 {
            "INFINITY".into()
        } else {
            "(-INFINITY)".into()
        };
    }
    let bits = v.to_bits();
    let sign = if bits >> 63 != 0 { "-" } else { "" };
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let mant = bits & ((1u64 << 52) - 1);
    if exp == 0 && mant == 0 {
        format!("{sign}0x0p+0")
    } else if exp == 0 {
        format!("{sign}0x0.{mant:013x}p-1022")
    } else {
        format!("{sign}0x1.{mant:013x}p{:+}", exp - 1023)
    }
}

/// A floating-point value for scalar `s` (exact in floats and doubles;
/// a half literal is a double the compiler rounds).
pub fn float_value(r: &mut Rng, s: Scalar) -> f64 {
    let v: f64 = match r.below(12) {
        0 => 0.0,
        1 => -0.0,
        2 => 1.0,
        3 => r.pick(&[0.5, -1.5, 2.0, 3.0, -7.25, 100.0, 0.1, 1e6, -2.5]),
        4 => f64::INFINITY,
        5 if r.chance(1, 3) => f64::NAN,
        5 => f64::NEG_INFINITY,
        6 => match s {
            Scalar::Half => 65504.0,
            Scalar::Float => f32::MAX as f64,
            _ => f64::MAX,
        },
        7 => match s {
            // The smallest normal and a denormal.
            Scalar::Half => r.pick(&[6.103515625e-05, 5.960464477539063e-08]),
            Scalar::Float => r.pick(&[f32::MIN_POSITIVE as f64, f32::from_bits(1) as f64]),
            _ => r.pick(&[f64::MIN_POSITIVE, f64::from_bits(1)]),
        },
        _ => {
            let scale = r.below(40) as i32 - 20;
            let m = (r.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            m * 2f64.powi(scale) * if r.chance(1, 2) { -1.0 } else { 1.0 }
        }
    };
    // Round to the scalar's precision: the literal must be exact in it.
    match s {
        Scalar::Float => v as f32 as f64,
        _ => v,
    }
}

/// A literal of floating scalar `s` with value `v`, as an expression of type `s`.
pub fn float(s: Scalar, v: f64) -> String {
    let text = hex_f64(v);
    match s {
        Scalar::Float if v.is_finite() => format!("{text}f"),
        Scalar::Float => text,
        _ => format!("(({}){text})", s.name()),
    }
}

/// A literal of scalar type `s`: a constant expression.
pub fn scalar(r: &mut Rng, s: Scalar) -> String {
    if s.is_float() {
        let v = float_value(r, s);
        if s == Scalar::Float && v.is_finite() {
            format!("({})", float(s, v))
        } else {
            float(s, v)
        }
    } else {
        int(s, int_value(r, s))
    }
}

/// A literal of scalar type `s` allowed in a program-scope initializer
/// (clang does not fold a NaN converted to double there).
pub fn constant(r: &mut Rng, s: Scalar) -> String {
    loop {
        if s.is_float() {
            let v = float_value(r, s);
            if v.is_nan() {
                continue;
            }
            return float(s, v);
        }
        return int(s, int_value(r, s));
    }
}

/// A literal of any type: a scalar, a splat or a vector of literals.
pub fn value(r: &mut Rng, t: Ty) -> String {
    if t.n == 1 {
        return scalar(r, t.s);
    }
    if r.chance(1, 4) {
        return format!("(({})({}))", t.name(), scalar(r, t.s));
    }
    let parts: Vec<String> = (0..t.n).map(|_| scalar(r, t.s)).collect();
    format!("(({})({}))", t.name(), parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_exact() {
        assert_eq!(hex_f64(1.0), "0x1.0000000000000p+0");
        assert_eq!(hex_f64(-0.5), "-0x1.0000000000000p-1");
        assert_eq!(hex_f64(-0.0), "-0x0p+0");
        assert_eq!(hex_f64(f64::from_bits(1)), "0x0.0000000000001p-1022");
    }

    #[test]
    fn int_literals_stay_in_range() {
        let mut r = Rng::new(1);
        for s in crate::types::INTS {
            for _ in 0..100 {
                let v = int_value(&mut r, s);
                let (lo, hi) = s.range();
                assert!(lo <= v && v <= hi, "{s:?} {v}");
            }
        }
        assert_eq!(int(Scalar::Int, -2147483648), "((int)(-2147483647-1))");
    }
}
