//! Integer built-ins that need host code: `mad_sat` on 64-bit operands,
//! whose exact value needs 128 bits. (The narrower widths widen to 64 bits
//! inline, and every other integer instruction is inline.)

/// `mad_sat(a, b, c)` for `long`: `a * b + c` saturated to the range.
pub extern "C" fn clift_mad_sat_i64(a: i64, b: i64, c: i64) -> i64 {
    // |a * b| <= 2^126 and |c| <= 2^63: the sum fits in i128.
    let v = a as i128 * b as i128 + c as i128;
    v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// `mad_sat(a, b, c)` for `ulong`: `a * b + c` saturated to the range.
pub extern "C" fn clift_mad_sat_u64(a: u64, b: u64, c: u64) -> u64 {
    // (2^64 - 1)^2 + 2^64 - 1 < 2^128: the sum fits in u128.
    let v = a as u128 * b as u128 + c as u128;
    v.min(u64::MAX as u128) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturates_both_ways() {
        assert_eq!(clift_mad_sat_i64(3, 4, 5), 17);
        assert_eq!(clift_mad_sat_i64(i64::MAX, 2, 0), i64::MAX);
        assert_eq!(clift_mad_sat_i64(i64::MIN, 2, 0), i64::MIN);
        assert_eq!(clift_mad_sat_i64(i64::MIN, -1, -1), i64::MAX);
        assert_eq!(clift_mad_sat_i64(i64::MAX, 1, 1), i64::MAX);
        assert_eq!(clift_mad_sat_i64(i64::MAX, -1, -2), i64::MIN);
        assert_eq!(clift_mad_sat_u64(u64::MAX, u64::MAX, u64::MAX), u64::MAX);
        assert_eq!(clift_mad_sat_u64(1 << 32, 1 << 31, 7), (1 << 63) + 7);
    }
}
