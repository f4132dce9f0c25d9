//! The one seeded pseudo-random sequence the tests draw their inputs from:
//! a 64-bit linear congruential generator (Knuth's MMIX constants), whose
//! high bits are used. Deterministic, so a failing input is found again by
//! its seed.

/// A pseudo-random sequence; `Rng(seed)` starts one.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next state, all 64 bits (the low bits are weak: prefer the high
    /// ones).
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0
    }

    /// The next 31 high bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u32 {
        (self.next_u64() >> 33) as u32
    }

    /// 64 bits from two draws.
    pub fn next64(&mut self) -> u64 {
        (self.next() as u64) << 32 | self.next() as u64
    }

    /// A value in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }

    /// A value in `lo..hi` (`lo < hi`), from 62 random bits.
    pub fn int<T: Copy + Into<i64> + TryFrom<i64>>(&mut self, lo: T, hi: T) -> T {
        let (l, h) = (lo.into(), hi.into());
        let wide = (self.next() as u64) << 31 | self.next() as u64;
        let v = l + (wide % (h - l) as u64) as i64;
        T::try_from(v).unwrap_or(lo)
    }

    /// `n` values in `lo..hi`.
    pub fn ints<T: Copy + Into<i64> + TryFrom<i64>>(&mut self, n: usize, lo: T, hi: T) -> Vec<T> {
        (0..n).map(|_| self.int(lo, hi)).collect()
    }
}
