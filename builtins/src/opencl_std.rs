//! The OpenCL.std extended instruction set: one table with a row for every
//! instruction, saying how clift implements it. The JIT reads it to lower
//! an `OpExtInst` (emit the inline recipe, call the host function, or
//! refuse the kernel at build naming the instruction), and registers
//! [`host_symbols`] with its JIT module.
//!
//! Operand counts are the SPIR-V operands after the set and the opcode
//! (the grammar's), so `vloadn` counts its literal width and
//! `vstore_half_r` its rounding mode; `printf` takes its format and any
//! number of arguments. A unit test checks the table against the
//! `rspirv` grammar: every opcode exactly once, same name, same count.

use spirv::OpenclStd100Op as Op;

use crate::frem::{clift_frem_f32, clift_frem_f64};
use crate::half::*;
use crate::integer::*;
use crate::math_f32::*;
use crate::math_f64::*;
use crate::printf::{clift_printf, PrintfSink};

/// The chapter of the OpenCL C built-in functions an instruction belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Math functions (including the `half_` and `native_` forms).
    Math,
    /// Integer functions.
    Integer,
    /// Common functions (clamp, degrees, mix, step, ...).
    Common,
    /// Geometric functions (cross, dot-based length, normalize, ...).
    Geometric,
    /// Relational functions that are extended instructions (bitselect,
    /// select); the others are core SPIR-V instructions.
    Relational,
    /// Vector data load and store (`vloadn`, `vstore_half`, ...).
    LoadStore,
    /// Miscellaneous vector functions, printf and prefetch.
    Misc,
}

/// A C type in a host function's signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CType {
    /// `float`.
    F32,
    /// `double`.
    F64,
    /// `int`.
    I32,
    /// `unsigned int` (also a `half`'s bits in the low 16 bits).
    U32,
    /// `long`.
    I64,
    /// `unsigned long`.
    U64,
    /// A pointer (an out-parameter; any storage class).
    Ptr,
}

/// The scalar type a host function implements an instruction for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// `float` operands (and results).
    F32,
    /// `double` operands.
    F64,
    /// `half` operands (cl_khr_fp16).
    F16,
    /// `long` operands.
    I64,
    /// `unsigned long` operands.
    U64,
    /// Any operands: a function not chosen by operand type (printf's).
    Any,
}

/// A host function's address, typed by its C signature. The variant names
/// spell the signature: parameters, then `_` and the result (`PF32` is a
/// `float *`, `PI32` an `int *`).
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug)]
pub enum FnPtr {
    /// `float f(float)`.
    F32_F32(extern "C" fn(f32) -> f32),
    /// `float f(float, float)`.
    F32F32_F32(extern "C" fn(f32, f32) -> f32),
    /// `float f(float, int)`.
    F32I32_F32(extern "C" fn(f32, i32) -> f32),
    /// `int f(float)`.
    F32_I32(extern "C" fn(f32) -> i32),
    /// `float f(float, float *)`.
    F32PF32_F32(unsafe extern "C" fn(f32, *mut f32) -> f32),
    /// `float f(float, int *)`.
    F32PI32_F32(unsafe extern "C" fn(f32, *mut i32) -> f32),
    /// `float f(float, float, int *)`.
    F32F32PI32_F32(unsafe extern "C" fn(f32, f32, *mut i32) -> f32),
    /// `double f(double)`.
    F64_F64(extern "C" fn(f64) -> f64),
    /// `double f(double, double)`.
    F64F64_F64(extern "C" fn(f64, f64) -> f64),
    /// `double f(double, int)`.
    F64I32_F64(extern "C" fn(f64, i32) -> f64),
    /// `int f(double)`.
    F64_I32(extern "C" fn(f64) -> i32),
    /// `double f(double, double *)`.
    F64PF64_F64(unsafe extern "C" fn(f64, *mut f64) -> f64),
    /// `double f(double, int *)`.
    F64PI32_F64(unsafe extern "C" fn(f64, *mut i32) -> f64),
    /// `double f(double, double, int *)`.
    F64F64PI32_F64(unsafe extern "C" fn(f64, f64, *mut i32) -> f64),
    /// `unsigned f(float)`: float to half bits.
    F32_U32(extern "C" fn(f32) -> u32),
    /// `unsigned f(double)`: double to half bits.
    F64_U32(extern "C" fn(f64) -> u32),
    /// `float f(unsigned)`: half bits to float.
    U32_F32(extern "C" fn(u32) -> f32),
    /// `long f(long, long, long)`.
    I64I64I64_I64(extern "C" fn(i64, i64, i64) -> i64),
    /// `ulong f(ulong, ulong, ulong)`.
    U64U64U64_U64(extern "C" fn(u64, u64, u64) -> u64),
    /// `int f(sink *, const char *, ulong, const ulong *, ulong)`: printf.
    PtrPtrU64PtrU64_I32(unsafe extern "C" fn(*const PrintfSink, *const u8, u64, *const u64, u64) -> i32),
}

impl FnPtr {
    /// The function's address, for the JIT's symbol table.
    pub fn addr(self) -> usize {
        match self {
            FnPtr::F32_F32(f) => f as usize,
            FnPtr::F32F32_F32(f) => f as usize,
            FnPtr::F32I32_F32(f) => f as usize,
            FnPtr::F32_I32(f) => f as usize,
            FnPtr::F32PF32_F32(f) => f as usize,
            FnPtr::F32PI32_F32(f) => f as usize,
            FnPtr::F32F32PI32_F32(f) => f as usize,
            FnPtr::F64_F64(f) => f as usize,
            FnPtr::F64F64_F64(f) => f as usize,
            FnPtr::F64I32_F64(f) => f as usize,
            FnPtr::F64_I32(f) => f as usize,
            FnPtr::F64PF64_F64(f) => f as usize,
            FnPtr::F64PI32_F64(f) => f as usize,
            FnPtr::F64F64PI32_F64(f) => f as usize,
            FnPtr::F32_U32(f) => f as usize,
            FnPtr::F64_U32(f) => f as usize,
            FnPtr::U32_F32(f) => f as usize,
            FnPtr::I64I64I64_I64(f) => f as usize,
            FnPtr::U64U64U64_U64(f) => f as usize,
            FnPtr::PtrPtrU64PtrU64_I32(f) => f as usize,
        }
    }

    /// The parameter types and the result type.
    pub const fn signature(self) -> (&'static [CType], CType) {
        use CType::*;
        match self {
            FnPtr::F32_F32(_) => (&[F32], F32),
            FnPtr::F32F32_F32(_) => (&[F32, F32], F32),
            FnPtr::F32I32_F32(_) => (&[F32, I32], F32),
            FnPtr::F32_I32(_) => (&[F32], I32),
            FnPtr::F32PF32_F32(_) => (&[F32, Ptr], F32),
            FnPtr::F32PI32_F32(_) => (&[F32, Ptr], F32),
            FnPtr::F32F32PI32_F32(_) => (&[F32, F32, Ptr], F32),
            FnPtr::F64_F64(_) => (&[F64], F64),
            FnPtr::F64F64_F64(_) => (&[F64, F64], F64),
            FnPtr::F64I32_F64(_) => (&[F64, I32], F64),
            FnPtr::F64_I32(_) => (&[F64], I32),
            FnPtr::F64PF64_F64(_) => (&[F64, Ptr], F64),
            FnPtr::F64PI32_F64(_) => (&[F64, Ptr], F64),
            FnPtr::F64F64PI32_F64(_) => (&[F64, F64, Ptr], F64),
            FnPtr::F32_U32(_) => (&[F32], U32),
            FnPtr::F64_U32(_) => (&[F64], U32),
            FnPtr::U32_F32(_) => (&[U32], F32),
            FnPtr::I64I64I64_I64(_) => (&[I64, I64, I64], I64),
            FnPtr::U64U64U64_U64(_) => (&[U64, U64, U64], U64),
            FnPtr::PtrPtrU64PtrU64_I32(_) => (&[Ptr, Ptr, U64, Ptr, U64], I32),
        }
    }
}

/// One host function implementing an instruction for one scalar type.
#[derive(Clone, Copy, Debug)]
pub struct HostFn {
    /// The scalar type of the instruction's operands it handles.
    pub ty: Scalar,
    /// Which variant, where the instruction has several per type: the
    /// rounding mode ("rte", "rtz", "rtp", "rtn") of the `vstore_half`
    /// family; empty otherwise.
    pub tag: &'static str,
    /// The symbol name the JIT declares and registers.
    pub symbol: &'static str,
    /// The address and C signature.
    pub func: FnPtr,
}

/// How clift implements an instruction.
#[derive(Clone, Copy, Debug)]
pub enum Impl {
    /// The JIT emits Cranelift instructions, per scalar lane unless the
    /// recipe says otherwise; the text is the recipe.
    Inline(&'static str),
    /// A call per scalar lane to a host function of this crate, one per
    /// scalar type; a type with no entry is refused by name at build.
    Host(&'static [HostFn]),
    /// Inline Cranelift code (the recipe) around or instead of host calls:
    /// the host functions cover the listed types or steps, the recipe the
    /// rest.
    Mixed(&'static str, &'static [HostFn]),
    /// Not implemented: the build refuses a kernel using it, naming the
    /// instruction and giving this reason.
    Refused(&'static str),
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    /// The opcode.
    pub op: Op,
    /// The instruction's name in the OpenCL.std grammar.
    pub name: &'static str,
    /// The built-in function chapter.
    pub category: Category,
    /// The number of operands (the fixed ones for `printf`).
    pub operands: u8,
    /// Whether any number of operands may follow the fixed ones (`printf`).
    pub variadic: bool,
    /// The implementation.
    pub imp: Impl,
}

impl OpInfo {
    /// The opcode number.
    pub fn opcode(&self) -> u32 {
        self.op as u32
    }

    /// The host function for operands of type `ty` (and `tag`, see
    /// [`HostFn::tag`]), if there is one.
    pub fn host_fn(&self, ty: Scalar, tag: &str) -> Option<&'static HostFn> {
        match self.imp {
            Impl::Host(fns) | Impl::Mixed(_, fns) => fns.iter().find(|h| h.ty == ty && h.tag == tag),
            Impl::Inline(_) | Impl::Refused(_) => None,
        }
    }
}

/// One host function entry: scalar type, C signature variant, function,
/// and the tag (see [`HostFn::tag`]; none by default).
macro_rules! host_fn {
    ($ty:ident, $kind:ident, $f:ident) => {
        host_fn!($ty, $kind, $f, "")
    };
    ($ty:ident, $kind:ident, $f:ident, $tag:literal) => {
        HostFn {
            ty: Scalar::$ty,
            tag: $tag,
            symbol: stringify!($f),
            func: FnPtr::$kind($f),
        }
    };
}

/// A math row whose implementation is host functions, each given by its
/// signature variant (whose parameters are the operands) and name: one
/// `float` function (the `half_` and `native_` forms, which OpenCL C has
/// for `float` only), or a `float` and a `double` function (a unit test
/// checks that the `double` signature is the `float` one widened).
macro_rules! math {
    ($op:ident, $kind:ident, $f:ident $(, $kind64:ident, $f64:ident)?) => {
        row!(
            $op,
            Math,
            FnPtr::$kind($f).signature().0.len() as u8,
            Impl::Host(&[
                host_fn!(F32, $kind, $f),
                $(host_fn!(F64, $kind64, $f64),)?
            ])
        )
    };
}

/// A row whose implementation is inline.
macro_rules! inline {
    ($op:ident, $cat:ident, $n:expr, $recipe:expr) => {
        row!($op, $cat, $n, Impl::Inline($recipe))
    };
}

macro_rules! row {
    ($op:ident, $cat:ident, $n:expr, $imp:expr) => {
        OpInfo {
            op: Op::$op,
            name: stringify!($op),
            category: Category::$cat,
            operands: $n,
            variadic: false,
            imp: $imp,
        }
    };
}

/// The C99/OpenCL fmax/fmin NaN rule shared by several recipes.
const FMINMAX: &str = "a NaN operand yields the other operand: \
    select(fcmp uno y y, x, select(fcmp uno x x, y, fmax/fmin(x, y)))";

const HALF_STORE_RTE: &[HostFn] = &[
    host_fn!(F32, F32_U32, clift_f32_to_half_rte, "rte"),
    host_fn!(F64, F64_U32, clift_f64_to_half_rte, "rte"),
];

const HALF_STORE_ALL: &[HostFn] = &[
    host_fn!(F32, F32_U32, clift_f32_to_half_rte, "rte"),
    host_fn!(F32, F32_U32, clift_f32_to_half_rtz, "rtz"),
    host_fn!(F32, F32_U32, clift_f32_to_half_rtp, "rtp"),
    host_fn!(F32, F32_U32, clift_f32_to_half_rtn, "rtn"),
    host_fn!(F64, F64_U32, clift_f64_to_half_rte, "rte"),
    host_fn!(F64, F64_U32, clift_f64_to_half_rtz, "rtz"),
    host_fn!(F64, F64_U32, clift_f64_to_half_rtp, "rtp"),
    host_fn!(F64, F64_U32, clift_f64_to_half_rtn, "rtn"),
];

const HALF_LOAD: &[HostFn] = &[host_fn!(F32, U32_F32, clift_half_to_f32)];

const HALF_LOAD_RECIPE: &str = "load the u16 at p + 2 * offset (vload_halfn: + 2 * n * offset; \
    vloada_halfn: + 2 * m * offset with m = 4 for n = 3, else n), uextend to i32, \
    convert each lane with clift_half_to_f32";
const HALF_STORE_RECIPE: &str = "convert each lane with the function of the value's type \
    and rounding mode (vstore_half, vstore_halfn, vstorea_halfn: rte), ireduce to i16 and store \
    at p + 2 * offset (halfn: + 2 * n * offset; vstorea_halfn: + 2 * m * offset with m = 4 \
    for n = 3, else n)";

/// Every OpenCL.std instruction, in opcode order.
pub static OPENCL_STD: &[OpInfo] = &[
    // Math.
    math!(acos, F32_F32, clift_acos_f32, F64_F64, clift_acos_f64),
    math!(acosh, F32_F32, clift_acosh_f32, F64_F64, clift_acosh_f64),
    math!(acospi, F32_F32, clift_acospi_f32, F64_F64, clift_acospi_f64),
    math!(asin, F32_F32, clift_asin_f32, F64_F64, clift_asin_f64),
    math!(asinh, F32_F32, clift_asinh_f32, F64_F64, clift_asinh_f64),
    math!(asinpi, F32_F32, clift_asinpi_f32, F64_F64, clift_asinpi_f64),
    math!(atan, F32_F32, clift_atan_f32, F64_F64, clift_atan_f64),
    math!(atan2, F32F32_F32, clift_atan2_f32, F64F64_F64, clift_atan2_f64),
    math!(atanh, F32_F32, clift_atanh_f32, F64_F64, clift_atanh_f64),
    math!(atanpi, F32_F32, clift_atanpi_f32, F64_F64, clift_atanpi_f64),
    math!(atan2pi, F32F32_F32, clift_atan2pi_f32, F64F64_F64, clift_atan2pi_f64),
    math!(cbrt, F32_F32, clift_cbrt_f32, F64_F64, clift_cbrt_f64),
    inline!(ceil, Math, 1, "ceil"),
    inline!(copysign, Math, 2, "fcopysign"),
    math!(cos, F32_F32, clift_cos_f32, F64_F64, clift_cos_f64),
    math!(cosh, F32_F32, clift_cosh_f32, F64_F64, clift_cosh_f64),
    math!(cospi, F32_F32, clift_cospi_f32, F64_F64, clift_cospi_f64),
    math!(erfc, F32_F32, clift_erfc_f32, F64_F64, clift_erfc_f64),
    math!(erf, F32_F32, clift_erf_f32, F64_F64, clift_erf_f64),
    math!(exp, F32_F32, clift_exp_f32, F64_F64, clift_exp_f64),
    math!(exp2, F32_F32, clift_exp2_f32, F64_F64, clift_exp2_f64),
    math!(exp10, F32_F32, clift_exp10_f32, F64_F64, clift_exp10_f64),
    math!(expm1, F32_F32, clift_expm1_f32, F64_F64, clift_expm1_f64),
    inline!(fabs, Math, 1, "fabs"),
    math!(fdim, F32F32_F32, clift_fdim_f32, F64F64_F64, clift_fdim_f64),
    inline!(floor, Math, 1, "floor"),
    inline!(
        fma,
        Math,
        3,
        "fma (correctly rounded; Cranelift calls fmaf/fma without the FMA extension)"
    ),
    inline!(fmax, Math, 2, FMINMAX),
    inline!(fmin, Math, 2, FMINMAX),
    math!(fmod, F32F32_F32, clift_frem_f32, F64F64_F64, clift_frem_f64),
    math!(fract, F32PF32_F32, clift_fract_f32, F64PF64_F64, clift_fract_f64),
    math!(frexp, F32PI32_F32, clift_frexp_f32, F64PI32_F64, clift_frexp_f64),
    math!(hypot, F32F32_F32, clift_hypot_f32, F64F64_F64, clift_hypot_f64),
    math!(ilogb, F32_I32, clift_ilogb_f32, F64_I32, clift_ilogb_f64),
    math!(ldexp, F32I32_F32, clift_ldexp_f32, F64I32_F64, clift_ldexp_f64),
    math!(lgamma, F32_F32, clift_lgamma_f32, F64_F64, clift_lgamma_f64),
    math!(
        lgamma_r,
        F32PI32_F32,
        clift_lgamma_r_f32,
        F64PI32_F64,
        clift_lgamma_r_f64
    ),
    math!(log, F32_F32, clift_log_f32, F64_F64, clift_log_f64),
    math!(log2, F32_F32, clift_log2_f32, F64_F64, clift_log2_f64),
    math!(log10, F32_F32, clift_log10_f32, F64_F64, clift_log10_f64),
    math!(log1p, F32_F32, clift_log1p_f32, F64_F64, clift_log1p_f64),
    math!(logb, F32_F32, clift_logb_f32, F64_F64, clift_logb_f64),
    inline!(
        mad,
        Math,
        3,
        "fma where the target has it, else fmul then fadd (both allowed)"
    ),
    inline!(
        maxmag,
        Math,
        2,
        "x if |x| > |y|, y if |y| > |x|, else fmax(x, y) with the fmax NaN rule"
    ),
    inline!(
        minmag,
        Math,
        2,
        "x if |x| < |y|, y if |y| < |x|, else fmin(x, y) with the fmin NaN rule"
    ),
    math!(modf, F32PF32_F32, clift_modf_f32, F64PF64_F64, clift_modf_f64),
    inline!(
        nan,
        Math,
        1,
        "bitcast of the quiet NaN with the code as payload: 0x7fc00000 | (nancode & 0x3fffff) \
         (f64: 0x7ff8000000000000 | (nancode & 0x7ffffffffffff))"
    ),
    math!(
        nextafter,
        F32F32_F32,
        clift_nextafter_f32,
        F64F64_F64,
        clift_nextafter_f64
    ),
    math!(pow, F32F32_F32, clift_pow_f32, F64F64_F64, clift_pow_f64),
    math!(pown, F32I32_F32, clift_pown_f32, F64I32_F64, clift_pown_f64),
    math!(powr, F32F32_F32, clift_powr_f32, F64F64_F64, clift_powr_f64),
    math!(
        remainder,
        F32F32_F32,
        clift_remainder_f32,
        F64F64_F64,
        clift_remainder_f64
    ),
    math!(
        remquo,
        F32F32PI32_F32,
        clift_remquo_f32,
        F64F64PI32_F64,
        clift_remquo_f64
    ),
    inline!(rint, Math, 1, "nearest (ties to even)"),
    math!(rootn, F32I32_F32, clift_rootn_f32, F64I32_F64, clift_rootn_f64),
    math!(round, F32_F32, clift_round_f32, F64_F64, clift_round_f64),
    math!(rsqrt, F32_F32, clift_rsqrt_f32, F64_F64, clift_rsqrt_f64),
    math!(sin, F32_F32, clift_sin_f32, F64_F64, clift_sin_f64),
    math!(sincos, F32PF32_F32, clift_sincos_f32, F64PF64_F64, clift_sincos_f64),
    math!(sinh, F32_F32, clift_sinh_f32, F64_F64, clift_sinh_f64),
    math!(sinpi, F32_F32, clift_sinpi_f32, F64_F64, clift_sinpi_f64),
    inline!(sqrt, Math, 1, "sqrt (correctly rounded)"),
    math!(tan, F32_F32, clift_tan_f32, F64_F64, clift_tan_f64),
    math!(tanh, F32_F32, clift_tanh_f32, F64_F64, clift_tanh_f64),
    math!(tanpi, F32_F32, clift_tanpi_f32, F64_F64, clift_tanpi_f64),
    math!(tgamma, F32_F32, clift_tgamma_f32, F64_F64, clift_tgamma_f64),
    inline!(trunc, Math, 1, "trunc"),
    // The half_ forms: the full-precision functions (the spec allows 8192
    // ulp; the edge cases are the full functions').
    math!(half_cos, F32_F32, clift_cos_f32),
    inline!(half_divide, Math, 2, "fdiv"),
    math!(half_exp, F32_F32, clift_exp_f32),
    math!(half_exp2, F32_F32, clift_exp2_f32),
    math!(half_exp10, F32_F32, clift_exp10_f32),
    math!(half_log, F32_F32, clift_log_f32),
    math!(half_log2, F32_F32, clift_log2_f32),
    math!(half_log10, F32_F32, clift_log10_f32),
    math!(half_powr, F32F32_F32, clift_powr_f32),
    inline!(half_recip, Math, 1, "fdiv(1.0, x)"),
    math!(half_rsqrt, F32_F32, clift_rsqrt_f32),
    math!(half_sin, F32_F32, clift_sin_f32),
    inline!(half_sqrt, Math, 1, "sqrt"),
    math!(half_tan, F32_F32, clift_tan_f32),
    // The native_ forms: implementation-defined accuracy; the full
    // functions for now.
    math!(native_cos, F32_F32, clift_cos_f32),
    inline!(native_divide, Math, 2, "fdiv"),
    math!(native_exp, F32_F32, clift_exp_f32),
    math!(native_exp2, F32_F32, clift_exp2_f32),
    math!(native_exp10, F32_F32, clift_exp10_f32),
    math!(native_log, F32_F32, clift_log_f32),
    math!(native_log2, F32_F32, clift_log2_f32),
    math!(native_log10, F32_F32, clift_log10_f32),
    math!(native_powr, F32F32_F32, clift_powr_f32),
    inline!(native_recip, Math, 1, "fdiv(1.0, x)"),
    math!(native_rsqrt, F32_F32, clift_rsqrt_f32),
    math!(native_sin, F32_F32, clift_sin_f32),
    inline!(native_sqrt, Math, 1, "sqrt"),
    math!(native_tan, F32_F32, clift_tan_f32),
    // Common.
    inline!(
        fclamp,
        Common,
        3,
        "fmin(fmax(x, minval), maxval) with the fmin/fmax NaN rule (undefined if minval > maxval)"
    ),
    inline!(
        degrees,
        Common,
        1,
        "x * (180 / pi): f32 promotes to f64, multiplies by the double constant and demotes"
    ),
    inline!(fmax_common, Common, 2, "fmax (undefined if either operand is NaN)"),
    inline!(fmin_common, Common, 2, "fmin (undefined if either operand is NaN)"),
    inline!(mix, Common, 3, "x + (y - x) * a (fsub, fmul, fadd)"),
    inline!(
        radians,
        Common,
        1,
        "x * (pi / 180): f32 promotes to f64, multiplies by the double constant and demotes"
    ),
    inline!(step, Common, 2, "select(fcmp lt x edge, 0.0, 1.0)"),
    inline!(
        smoothstep,
        Common,
        3,
        "t = clamp((x - edge0) / (edge1 - edge0), 0, 1); t * t * (3 - 2 * t)"
    ),
    inline!(
        sign,
        Common,
        1,
        "1.0 if x > 0, -1.0 if x < 0, x itself for ±0, 0.0 for NaN"
    ),
    // Geometric (the operands are vectors of 2, 3 or 4 lanes, or scalars).
    inline!(
        cross,
        Geometric,
        2,
        "(a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x[, 0])"
    ),
    inline!(
        distance,
        Geometric,
        2,
        "length(p0 - p1), f32: the subtraction already in f64 so it cannot overflow"
    ),
    inline!(
        length,
        Geometric,
        1,
        "f32: promote the lanes to f64, sqrt of the sum of squares, demote (no overflow or \
         underflow, one rounding); f64: scale by the largest |lane| (a power of two) first"
    ),
    inline!(
        normalize,
        Geometric,
        1,
        "all lanes zero: v; any NaN: all NaN; any inf: lanes become copysign(1, inf lanes) and \
         0 * others first; then each lane / length(v), computed in f64 for f32"
    ),
    inline!(fast_distance, Geometric, 2, "as distance"),
    inline!(fast_length, Geometric, 1, "as length"),
    inline!(fast_normalize, Geometric, 1, "as normalize"),
    // Integer (any width; `s_` signed, `u_` unsigned).
    inline!(s_abs, Integer, 1, "iabs (the result type is unsigned)"),
    inline!(s_abs_diff, Integer, 2, "select(icmp sgt x y, x - y, y - x), wrapping"),
    inline!(
        s_add_sat,
        Integer,
        2,
        "sadd_overflow, then select the bound by the sign of y"
    ),
    inline!(u_add_sat, Integer, 2, "uadd_overflow, then select all ones"),
    inline!(
        s_hadd,
        Integer,
        2,
        "(x >> 1) + (y >> 1) + (x & y & 1), arithmetic shifts"
    ),
    inline!(u_hadd, Integer, 2, "(x >> 1) + (y >> 1) + (x & y & 1), logical shifts"),
    inline!(
        s_rhadd,
        Integer,
        2,
        "(x >> 1) + (y >> 1) + ((x | y) & 1), arithmetic shifts"
    ),
    inline!(
        u_rhadd,
        Integer,
        2,
        "(x >> 1) + (y >> 1) + ((x | y) & 1), logical shifts"
    ),
    inline!(s_clamp, Integer, 3, "smin(smax(x, minval), maxval)"),
    inline!(u_clamp, Integer, 3, "umin(umax(x, minval), maxval)"),
    inline!(clz, Integer, 1, "clz"),
    inline!(ctz, Integer, 1, "ctz"),
    inline!(s_mad_hi, Integer, 3, "smulhi(a, b) + c, wrapping"),
    row!(
        u_mad_sat,
        Integer,
        3,
        Impl::Mixed(
            "8/16/32-bit: uextend to i64, a * b + c, umin with the maximum, ireduce; 64-bit: the host \
             function",
            &[host_fn!(U64, U64U64U64_U64, clift_mad_sat_u64)]
        )
    ),
    row!(
        s_mad_sat,
        Integer,
        3,
        Impl::Mixed(
            "8/16/32-bit: sextend to i64, a * b + c, clamp to the range, ireduce; 64-bit: the host \
             function",
            &[host_fn!(I64, I64I64I64_I64, clift_mad_sat_i64)]
        )
    ),
    inline!(s_max, Integer, 2, "smax"),
    inline!(u_max, Integer, 2, "umax"),
    inline!(s_min, Integer, 2, "smin"),
    inline!(u_min, Integer, 2, "umin"),
    inline!(s_mul_hi, Integer, 2, "smulhi"),
    inline!(rotate, Integer, 2, "rotl (the count modulo the width)"),
    inline!(
        s_sub_sat,
        Integer,
        2,
        "ssub_overflow, then select the bound by the sign of x"
    ),
    inline!(u_sub_sat, Integer, 2, "usub_overflow, then select 0"),
    inline!(u_upsample, Integer, 2, "(uextend hi << width) | uextend lo"),
    inline!(s_upsample, Integer, 2, "(sextend hi << width) | uextend lo"),
    inline!(popcount, Integer, 1, "popcnt"),
    inline!(s_mad24, Integer, 3, "imul + iadd (operands are 24-bit by contract)"),
    inline!(u_mad24, Integer, 3, "imul + iadd (operands are 24-bit by contract)"),
    inline!(s_mul24, Integer, 2, "imul (operands are 24-bit by contract)"),
    inline!(u_mul24, Integer, 2, "imul (operands are 24-bit by contract)"),
    // Vector loads and stores.
    inline!(
        vloadn,
        LoadStore,
        3,
        "n element loads at p + offset * n elements (element alignment)"
    ),
    inline!(
        vstoren,
        LoadStore,
        3,
        "n element stores at p + offset * n elements (element alignment)"
    ),
    row!(vload_half, LoadStore, 2, Impl::Mixed(HALF_LOAD_RECIPE, HALF_LOAD)),
    row!(vload_halfn, LoadStore, 3, Impl::Mixed(HALF_LOAD_RECIPE, HALF_LOAD)),
    row!(
        vstore_half,
        LoadStore,
        3,
        Impl::Mixed(HALF_STORE_RECIPE, HALF_STORE_RTE)
    ),
    row!(
        vstore_half_r,
        LoadStore,
        4,
        Impl::Mixed(HALF_STORE_RECIPE, HALF_STORE_ALL)
    ),
    row!(
        vstore_halfn,
        LoadStore,
        3,
        Impl::Mixed(HALF_STORE_RECIPE, HALF_STORE_RTE)
    ),
    row!(
        vstore_halfn_r,
        LoadStore,
        4,
        Impl::Mixed(HALF_STORE_RECIPE, HALF_STORE_ALL)
    ),
    row!(vloada_halfn, LoadStore, 3, Impl::Mixed(HALF_LOAD_RECIPE, HALF_LOAD)),
    row!(
        vstorea_halfn,
        LoadStore,
        3,
        Impl::Mixed(HALF_STORE_RECIPE, HALF_STORE_RTE)
    ),
    row!(
        vstorea_halfn_r,
        LoadStore,
        4,
        Impl::Mixed(HALF_STORE_RECIPE, HALF_STORE_ALL)
    ),
    // Miscellaneous vector functions, printf, prefetch.
    inline!(
        shuffle,
        Misc,
        2,
        "result lane i = x[mask[i] mod n] (only the low bits of each mask lane count)"
    ),
    inline!(
        shuffle2,
        Misc,
        3,
        "result lane i = (x ++ y)[mask[i] mod 2n] (only the low bits of each mask lane count)"
    ),
    OpInfo {
        op: Op::printf,
        name: "printf",
        category: Category::Misc,
        operands: 1,
        variadic: true,
        imp: Impl::Mixed(
            "the format and each %s argument must be build-time addresses in a __constant variable \
             (their bound is what is left of it); the arguments are packed into a stack buffer of \
             8-byte words (a descriptor per argument, then its components) and clift_printf formats \
             them into the launch's printf buffer (WorkGroupCtx::printf), returning 0 or -1",
            &[host_fn!(Any, PtrPtrU64PtrU64_I32, clift_printf)],
        ),
    },
    inline!(prefetch, Misc, 2, "nothing (a hint; the CPU's caches prefetch)"),
    // Relational.
    inline!(
        bitselect,
        Relational,
        3,
        "bor(band(c, b), band(bnot(c), a)) on the bit patterns (floats bitcast to integers)"
    ),
    inline!(
        select,
        Relational,
        3,
        "lane = c != 0 (scalar c) or the most significant bit of c's lane (vector c) ? b : a"
    ),
    // Integer, added later to the set.
    inline!(u_abs, Integer, 1, "x itself"),
    inline!(u_abs_diff, Integer, 2, "select(icmp ugt x y, x - y, y - x)"),
    inline!(u_mul_hi, Integer, 2, "umulhi"),
    inline!(u_mad_hi, Integer, 3, "umulhi(a, b) + c, wrapping"),
];

/// The row of an opcode, if it is an OpenCL.std instruction.
pub fn lookup(opcode: u32) -> Option<&'static OpInfo> {
    OPENCL_STD
        .binary_search_by_key(&opcode, |row| row.opcode())
        .ok()
        .map(|i| &OPENCL_STD[i])
}

/// Every host function's symbol and address, each once, for the JIT's
/// symbol table (`JITBuilder::symbol`).
pub fn host_symbols() -> Vec<(&'static str, usize)> {
    let mut out: Vec<(&'static str, usize)> = Vec::new();
    for row in OPENCL_STD {
        if let Impl::Host(fns) | Impl::Mixed(_, fns) = row.imp {
            for h in fns {
                if !out.iter().any(|(s, _)| *s == h.symbol) {
                    out.push((h.symbol, h.func.addr()));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rspirv::grammar::{OperandQuantifier, OPENCL_STD_100_INSTRUCTION_TABLE};

    #[test]
    fn every_opcode_exactly_once_and_implemented_or_refused() {
        // The table is in opcode order with no duplicates (lookup relies
        // on it).
        for pair in OPENCL_STD.windows(2) {
            assert!(
                pair[0].opcode() < pair[1].opcode(),
                "{} then {}",
                pair[0].name,
                pair[1].name
            );
        }
        // Every opcode of the grammar appears exactly once, with its name
        // and operand count, and every opcode in the table is in the
        // grammar.
        let grammar: Vec<_> = OPENCL_STD_100_INSTRUCTION_TABLE.iter().collect();
        assert_eq!(grammar.len(), OPENCL_STD.len());
        for inst in &grammar {
            let rspirv::grammar::ExtInstOp::OpenclStd100(op) = inst.opcode else {
                panic!("{} is not an OpenCL.std opcode", inst.opname);
            };
            let rows: Vec<_> = OPENCL_STD.iter().filter(|r| r.op == op).collect();
            assert_eq!(rows.len(), 1, "{} appears {} times", inst.opname, rows.len());
            let row = rows[0];
            assert_eq!(row.name, inst.opname);
            assert_eq!(lookup(op as u32).map(|r| r.name), Some(inst.opname));
            let fixed = inst
                .operands
                .iter()
                .filter(|o| o.quantifier == OperandQuantifier::One)
                .count();
            let variadic = inst.operands.iter().any(|o| o.quantifier != OperandQuantifier::One);
            assert_eq!(usize::from(row.operands), fixed, "{}", row.name);
            assert_eq!(row.variadic, variadic, "{}", row.name);
        }
        // Every opcode number the enum knows, and no other, is in the
        // table.
        for n in 0..512u32 {
            assert_eq!(lookup(n).is_some(), Op::from_u32(n).is_some(), "opcode {n}");
        }
        // Implemented (a recipe or at least one host function, with the
        // right arity) or refused with a reason.
        for row in OPENCL_STD {
            match row.imp {
                Impl::Inline(recipe) => assert!(!recipe.is_empty(), "{}", row.name),
                Impl::Host(fns) | Impl::Mixed(_, fns) => {
                    assert!(!fns.is_empty(), "{}", row.name);
                    if let Impl::Mixed(recipe, _) = row.imp {
                        assert!(!recipe.is_empty(), "{}", row.name);
                    }
                    for h in fns {
                        assert!(h.symbol.starts_with("clift_"), "{}", h.symbol);
                        assert_ne!(h.func.addr(), 0);
                        if let Impl::Host(_) = row.imp {
                            // A per-lane call: one parameter per operand.
                            assert_eq!(h.func.signature().0.len(), usize::from(row.operands), "{}", row.name);
                        }
                    }
                }
                Impl::Refused(reason) => assert!(!reason.is_empty(), "{}", row.name),
            }
        }
    }

    #[test]
    fn every_float_math_function_has_an_f32_implementation() {
        for row in OPENCL_STD.iter().filter(|r| r.category == Category::Math) {
            match row.imp {
                Impl::Inline(_) => {}
                _ => assert!(row.host_fn(Scalar::F32, "").is_some(), "{}", row.name),
            }
        }
    }

    /// OpenCL C has every math function for `double` too, except the
    /// `half_` and `native_` forms: every math row with a `float` host
    /// function has a `double` one, whose signature is the `float` one
    /// with `float` replaced by `double`.
    #[test]
    fn every_float_math_host_function_has_a_double_one() {
        let widen = |t: CType| if t == CType::F32 { CType::F64 } else { t };
        for row in OPENCL_STD.iter().filter(|r| r.category == Category::Math) {
            let Some(h32) = row.host_fn(Scalar::F32, "") else {
                continue;
            };
            let h64 = row.host_fn(Scalar::F64, "");
            if row.name.starts_with("half_") || row.name.starts_with("native_") {
                assert!(h64.is_none(), "{} is float-only in OpenCL C", row.name);
                continue;
            }
            let h64 = h64.unwrap_or_else(|| panic!("{} has no double host function", row.name));
            let (p32, r32) = h32.func.signature();
            let (p64, r64) = h64.func.signature();
            let want: Vec<CType> = p32.iter().map(|&t| widen(t)).collect();
            assert_eq!(p64, &want[..], "{}", row.name);
            assert_eq!(r64, widen(r32), "{}", row.name);
            assert!(h64.symbol.ends_with("_f64"), "{}", h64.symbol);
        }
    }

    #[test]
    fn symbols_are_unique_and_consistent() {
        let syms = host_symbols();
        for (i, (s, _)) in syms.iter().enumerate() {
            assert!(syms[i + 1..].iter().all(|(t, _)| t != s), "{s} twice");
        }
        // A symbol names one function wherever it appears.
        for row in OPENCL_STD {
            if let Impl::Host(fns) | Impl::Mixed(_, fns) = row.imp {
                for h in fns {
                    let addr = syms.iter().find(|(s, _)| *s == h.symbol).map(|(_, a)| *a);
                    assert_eq!(addr, Some(h.func.addr()), "{}", h.symbol);
                }
            }
        }
    }
}
