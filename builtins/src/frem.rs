//! The floating-point remainder of SPIR-V's OpFRem (C's `fmod`: the result
//! has the sign of the dividend and is exact), which Cranelift has no
//! instruction for. JIT code calls these through their addresses.

/// `fmod(x, y)` for `float`.
pub extern "C" fn clift_frem_f32(x: f32, y: f32) -> f32 {
    // Rust's `%` on floats is C's fmod: exact, sign of the dividend.
    x % y
}

/// `fmod(x, y)` for `double`.
pub extern "C" fn clift_frem_f64(x: f64, y: f64) -> f64 {
    x % y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_of_dividend_and_special_values() {
        assert_eq!(clift_frem_f32(7.5, 2.0), 1.5);
        assert_eq!(clift_frem_f32(-7.5, 2.0), -1.5);
        assert_eq!(clift_frem_f32(7.5, -2.0), 1.5);
        assert!(clift_frem_f32(1.0, 0.0).is_nan());
        assert!(clift_frem_f32(f32::INFINITY, 1.0).is_nan());
        assert_eq!(clift_frem_f32(3.0, f32::INFINITY), 3.0);
        assert_eq!(clift_frem_f32(-0.0, 1.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(clift_frem_f64(-7.5, 2.0), -1.5);
        // Exact even when the quotient is huge: 2^100 = 1 (mod 3).
        assert_eq!(clift_frem_f32(2f32.powi(100), 3.0), 1.0);
    }
}
