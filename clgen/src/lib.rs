//! Random OpenCL C programs free of undefined behaviour, for differential
//! testing (`conformance/src/difftest.rs` runs them on clift in every mode
//! and on PoCL) and for fuzzing clift's code generator (`jit/fuzz`).
//!
//! A program is deterministic in its seed ([`generate`]): the same seed
//! gives the same text on every machine. Each seed makes one [`Unit`]: a
//! kernel `k_<seed in hex>` with its own structs, `__constant` tables and
//! functions (their names end in the seed, so several units can share one
//! program, [`program`]), and the helper functions it needs (written once
//! per program).
//!
//! What the kernels do, and how undefined or unspecified behaviour is kept
//! out by construction:
//! - every scalar and vector type (2, 3, 4, 8, 16 components) of char to
//!   ulong, float and double; `half` only in memory (`vload_half`,
//!   `vstore_half` with every rounding mode), and as arithmetic too in
//!   programs generated for `cl_khr_fp16`;
//! - integer `+ - *` and negation wrap (computed unsigned), `/` and `%` by
//!   zero or of MIN by -1 leave the dividend, shift counts are taken modulo
//!   the width; `clamp` gets its bounds ordered;
//! - floating-point operations are the correctly rounded or exact ones
//!   (`+ - *`, `/` and `sqrt` on doubles, `fma`, `fabs`, `floor`, `ceil`,
//!   `trunc`, `rint`, `round`, `fmin`/`fmax` with the zero's sign made
//!   positive, `copysign` and `nextafter`); `FP_CONTRACT` is off so no
//!   compiler may fuse a multiply and an add; a sum, difference,
//!   product, quotient or `fma` of two NaNs is the NaN literal (which of
//!   two NaNs an operation passes on is left open, and compilers commute
//!   sums and products: `Helpers::float_op`); float to integer conversions
//!   saturate; the bits of a NaN (sign, payload) are never observed: the
//!   hashes map every NaN to one value, and `as_type`, `copysign` and
//!   `vstore_half` see NaNs replaced by 1; inputs read as floats have an
//!   exponent bit cleared, so they hold no NaN or infinity (and no
//!   signaling NaN ever exists);
//! - in programs generated with `fp16` only (compared across clift's
//!   modes alone, [`Unit::math`]): float math built-ins that
//!   implementations round differently within their ulp bounds (`exp`,
//!   `log`, `erf`, `sin`, `cos`, `tan`, `exp2`, `exp10`, `log2`, `log10`,
//!   `native_exp`, `half_sin`, `pow`; the inverse trigonometric and
//!   hyperbolic functions, `expm1`, `log1p`, `erfc`, `cbrt`, `hypot`,
//!   `sinpi`, `cospi`, `tanpi`, `pown`, `ldexp`; and the common built-ins whose
//!   exact steps the spec leaves open: `mix`, `step`, `smoothstep`, `sign`,
//!   `maxmag`, `minmag`, `degrees`, `radians`, `fdim`, `native_recip`,
//!   `native_divide`, `native_rsqrt`, `half_sqrt`), so that clift's vector
//!   forms of them are compared with its scalar ones on every kind of
//!   expression;
//! - comparisons: the operators, the relational built-ins of two floats
//!   (`isequal` ... `islessgreater`, `isordered`, `isunordered`) and the
//!   classifications (`isnan`, `isinf`, `isfinite`, `isnormal`);
//! - loops have constant trip counts; barriers only in uniform control
//!   flow (the kernel's top level and loops without break or continue);
//!   local memory is written at `[lid]` and read after a barrier; half of
//!   the seeds ([`uses_barriers`]) make kernels with no local memory and
//!   no barrier (whose 4-lane chunks clift may abandon at a branch);
//! - atomics: each global counter (`cnt`) and local counter sees one
//!   commutative operation (add/sub, min, max, or, and, xor), and atomics'
//!   return values are never used, so final values do not depend on the
//!   order work-items run in;
//! - PoCL, the second opinion, must not be led into its own defects
//!   (PoCL 3.1): scalar float `rint` sees no value from 2^23 up (it hangs
//!   on +infinity and from 2^31), `abs` no smallest int or long, `abs_diff`
//!   of ints or longs no operands of unlike sign, and vector division fixes
//!   its divisor with masks, not `select` (see the helpers); each keeps the
//!   result the same, only computed another way;
//! - every work-item writes a hash of its variables to `out[2 * gid]`
//!   (NaNs as one canonical NaN: which NaN an operation makes is left
//!   open between implementations) and a hash of its floating-point
//!   variables' bits as they are to `out[2 * gid + 1]`, and may store
//!   values into its own slots of `res` and `hs`; the harness compares
//!   `out`, `res`, `hs` and `cnt` bit for bit, the second hash only
//!   between clift's scalar and vector bodies of one module (a NaN's bits
//!   must not depend on the body that made it).
//!
//! Kernel signature: `(__global ulong *out, __global ulong *res, __global
//! uint *cnt, __global const uint *in, __global half *hs)` with `out`
//! holding [`OUT_PER_ITEM`] ulongs per work-item, `res` [`RES_PER_ITEM`] ulongs per
//! work-item, `cnt` [`COUNTERS`] uints, `in` [`IN_WORDS`] uints and `hs`
//! [`HALVES_PER_ITEM`] halves per work-item.

mod gen;
mod helpers;
mod lit;
mod rng;
mod types;

pub use gen::{uses_barriers, COUNTER_OPS, LOCAL_COUNTER_OPS};
pub use rng::Rng;
pub use types::{Scalar, Ty};

/// Words of the input buffer.
pub const IN_WORDS: usize = 1024;
/// ulongs of `out` per work-item: the hash, then the raw hash.
pub const OUT_PER_ITEM: usize = 2;
/// ulongs of `res` per work-item.
pub const RES_PER_ITEM: usize = 8;
/// halves of `hs` per work-item.
pub const HALVES_PER_ITEM: usize = 16;
/// Global atomic counters.
pub const COUNTERS: usize = 8;
/// Local atomic counters per work-group.
pub const LOCAL_COUNTERS: usize = 4;

/// One generated kernel with what it declares at program scope.
#[derive(Debug, Clone)]
pub struct Unit {
    /// The seed it was generated from.
    pub seed: u64,
    /// The kernel's name.
    pub name: String,
    /// Work-items per group (a power of two).
    pub local_size: usize,
    /// Work-items in all (a multiple of `local_size`).
    pub global_size: usize,
    /// Uses `half` arithmetic: needs `cl_khr_fp16`.
    pub fp16: bool,
    /// Uses float math built-ins that implementations round differently
    /// within their ulp bounds (`exp`, `sin`, `pow` ...; only in `fp16`
    /// programs): compare it across clift's modes only, which must agree
    /// bit for bit, not with another implementation.
    pub math: bool,
    helpers: Vec<(String, String)>,
    text: String,
}

impl Unit {
    /// The whole program of this unit alone.
    pub fn source(&self) -> String {
        program(&[self])
    }
}

/// The unit of `seed`; with `fp16`, `half` arithmetic is used too.
pub fn generate(seed: u64, fp16: bool) -> Unit {
    gen::Gen::new(seed, fp16).unit(seed)
}

/// One program holding `units`: the pragmas, the prelude, the helpers any
/// unit needs (each once), then each unit.
pub fn program(units: &[&Unit]) -> String {
    let mut s = String::new();
    s.push_str("#pragma OPENCL FP_CONTRACT OFF\n");
    s.push_str("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    if units.iter().any(|u| u.fp16) {
        s.push_str("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n");
    }
    s.push_str(helpers::PRELUDE);
    let mut seen = std::collections::HashSet::new();
    for u in units {
        for (name, text) in &u.helpers {
            if seen.insert(name.as_str()) {
                s.push_str(text);
            }
        }
    }
    for u in units {
        s.push('\n');
        s.push_str(&u.text);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_program() {
        for seed in 0..20 {
            assert_eq!(generate(seed, false).source(), generate(seed, false).source());
        }
        assert_ne!(generate(1, false).source(), generate(2, false).source());
    }

    #[test]
    fn units_share_one_program() {
        let a = generate(3, false);
        let b = generate(4, true);
        let p = program(&[&a, &b]);
        assert!(p.contains("k_3(") && p.contains("k_4("));
        assert!(p.contains("cl_khr_fp16"));
        assert_eq!(p.matches("static ulong hmix").count(), 1);
    }
}
