//! Half precision (cl_khr_fp16). A `half` value lives in registers as an
//! `f32` that is always exactly the widening of a binary16 encoding, and
//! memory holds the 16-bit format:
//!
//! - **Moves keep all 16 bits.** The widening ([`from_bits`]) maps every
//!   encoding to one `f32` (a NaN's 10 significand bits, the signaling bit
//!   among them, become the top 10 of the `f32`'s, the other 13 zero) and
//!   the narrowing ([`to_bits`]) inverts it; both are integer instructions
//!   only, so neither the MXCSR's flush-to-zero and denormals-are-zero
//!   modes nor any quieting of signaling NaNs can touch them. Between them
//!   a value is only moved as a bit pattern (register and stack moves,
//!   selects, phis, vector lanes), never through an FP instruction. Loads,
//!   stores, OpBitcast, vloadn/vstoren, shuffles, selects, bitselect,
//!   fabs, copysign and negation therefore keep every encoding, signaling
//!   NaNs with their payloads included.
//! - **Arithmetic rounds once.** Every instruction that computes a new
//!   half value (OpFAdd ... OpFMod, OpFConvert, OpConvertSToF,
//!   OpVectorTimesScalar, OpDot, OpenCL.std math) computes in `f32` and
//!   rounds the result once to half ([`round_rte`], round to nearest even,
//!   keeping infinities, signed zeros and half denormals; a NaN becomes a
//!   quiet NaN keeping its sign and its top payload bits, as IEEE 754
//!   conversions and the host conversions do). For +, -, *, / and sqrt
//!   this is the correctly rounded half result, since `f32`'s 24 bits are
//!   at least 2 * 11 + 2 (the double rounding is innocuous); fma computes
//!   in f64 and rounds once from there. Instructions that only move bits
//!   ([`moves_bits`]) are not rounded.
//! - Comparisons and conversions to other types use the `f32` as it is
//!   (it is the half's exact value); the bit-level operations (OpBitcast,
//!   bitselect, nextafter) go through the 16-bit encoding.

use cranelift_codegen::ir::{
    condcodes::{FloatCC, IntCC},
    types as cl, Endianness, InstBuilder, MemFlagsData, Value,
};
use cranelift_frontend::FunctionBuilder;

use spirv::{Op, OpenclStd100Op};

use super::{Lowering, R};
use crate::spirv::{Id, Module, Type};

/// Whether scalar or vector type `ty` has half components.
pub fn is_half(m: &Module, ty: Id) -> bool {
    match m.ty(ty) {
        Some(Type::Float { width: 16 }) => true,
        Some(Type::Vector { component, .. }) => matches!(m.ty(*component), Some(Type::Float { width: 16 })),
        _ => false,
    }
}

/// Whether type `ty` holds half values: a half, a vector of halves, or an
/// array or struct with one among its members (not a pointer to them).
pub fn holds_half(m: &Module, ty: Id) -> bool {
    let mut todo = vec![ty];
    let mut seen = 0;
    while let Some(t) = todo.pop() {
        seen += 1;
        if seen > 4096 {
            // Deeper than any real type: say yes (the caller then keeps
            // to the plainer path).
            return true;
        }
        match m.ty(t) {
            Some(Type::Float { width: 16 }) => return true,
            Some(Type::Vector { component, .. }) => todo.push(*component),
            Some(Type::Array { element, .. }) => todo.push(*element),
            Some(Type::Struct { members }) => todo.extend(members.iter().copied()),
            _ => {}
        }
    }
    false
}

/// Whether instruction `op` computes a new float value that, for a half
/// result, must be rounded to half afterwards (OpenCL.std, conversions and
/// collectives round by themselves).
pub fn rounds(op: Op) -> bool {
    matches!(
        op,
        Op::FAdd | Op::FSub | Op::FMul | Op::FDiv | Op::FRem | Op::FMod | Op::VectorTimesScalar | Op::Dot
    )
}

/// Whether OpenCL.std instruction `op` only moves bits or sets the sign
/// bit (IEEE 754's non-arithmetic operations): its half result is made of
/// its operands' bits, already a half, and is not rounded.
pub fn moves_bits(op: OpenclStd100Op) -> bool {
    use OpenclStd100Op as Cl;
    matches!(
        op,
        Cl::vloadn | Cl::shuffle | Cl::shuffle2 | Cl::select | Cl::bitselect | Cl::fabs | Cl::copysign
    )
}

/// The f32 bits of a half constant's 16 bits.
pub fn widen_const(bits: u64) -> u64 {
    u64::from(clift_builtins::half::half_to_f32(bits as u16).to_bits())
}

fn f32c(b: &mut FunctionBuilder, x: f32) -> Value {
    b.ins().f32const(x)
}

/// `x` (an `f32`) rounded to the nearest half value (ties to even), as an
/// `f32`: overflow gives the infinity of `x`'s sign; a NaN gives the quiet
/// NaN with its sign and the top 9 bits of its payload below the quiet bit.
pub fn round_rte(b: &mut FunctionBuilder, x: Value) -> Value {
    let flags = MemFlagsData::new();
    let bits = b.ins().bitcast(cl::I32, flags, x);
    // Normal halves: keep 11 significant bits of the f32's 24, rounding the
    // 13 dropped ones to nearest even (a carry moves into the exponent).
    let lsb = b.ins().ushr_imm_u(bits, 13);
    let lsb = b.ins().band_imm_u(lsb, 1);
    let r = b.ins().iadd_imm_s(bits, 0x0fff);
    let r = b.ins().iadd(r, lsb);
    let r = b.ins().band_imm_u(r, 0xffff_e000);
    let rn = b.ins().bitcast(cl::F32, flags, r);
    let arn = b.ins().fabs(rn);
    let max = f32c(b, 65504.0);
    let big = b.ins().fcmp(FloatCC::GreaterThan, arn, max);
    let inf = f32c(b, f32::INFINITY);
    let inf = b.ins().fcopysign(inf, x);
    let rn = b.ins().select(big, inf, rn);
    // Below 2^-14 (half denormals and zero): a multiple of 2^-24, which is
    // the f32 ulp in [0.5, 1): (|x| + 0.5) - 0.5 rounds to it, to nearest
    // even; the sign is put back (zeros keep theirs).
    let a = b.ins().fabs(x);
    let half = f32c(b, 0.5);
    let d = b.ins().fadd(a, half);
    let d = b.ins().fsub(d, half);
    let d = b.ins().fcopysign(d, x);
    let min_normal = f32c(b, f32::from_bits(0x3880_0000)); // 2^-14
    let small = b.ins().fcmp(FloatCC::LessThan, a, min_normal);
    let r = b.ins().select(small, d, rn);
    // NaNs: quiet, the payload cut to the half's.
    let q = b.ins().bor_imm_u(bits, 0x0040_0000);
    let q = b.ins().band_imm_u(q, 0xffff_e000);
    let q = b.ins().bitcast(cl::F32, flags, q);
    let nan = b.ins().fcmp(FloatCC::Unordered, x, x);
    b.ins().select(nan, q, r)
}

/// `k` in every lane of an `i32x4`.
fn splat_i32(b: &mut FunctionBuilder, k: u32) -> Value {
    let c = b.ins().iconst(cl::I32, i64::from(k as i32));
    b.ins().splat(cl::I32X4, c)
}

/// `k` in every lane of an `f32x4`.
fn splat_f32(b: &mut FunctionBuilder, k: f32) -> Value {
    let c = b.ins().f32const(k);
    b.ins().splat(cl::F32X4, c)
}

/// Flags for bitcasts between vector types (lane order kept).
fn lanes() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

/// [`round_rte`] of the four lanes of `x` (an `f32x4`), with the same
/// steps as vector instructions (the sign moves and selects as bit
/// operations), so each lane gets the scalar sequence's bits.
pub fn round_rte4(b: &mut FunctionBuilder, x: Value) -> Value {
    let le = lanes();
    let bits = b.ins().bitcast(cl::I32X4, le, x);
    let sign = splat_i32(b, 0x8000_0000);
    let sign = b.ins().band(bits, sign);
    // Normal halves: 11 significant bits kept, the 13 dropped rounded to
    // nearest even.
    let lsb = b.ins().ushr_imm_u(bits, 13);
    let one = splat_i32(b, 1);
    let lsb = b.ins().band(lsb, one);
    let bias = splat_i32(b, 0x0fff);
    let r = b.ins().iadd(bits, bias);
    let r = b.ins().iadd(r, lsb);
    let keep = splat_i32(b, 0xffff_e000);
    let r = b.ins().band(r, keep);
    let rn = b.ins().bitcast(cl::F32X4, le, r);
    let arn = b.ins().fabs(rn);
    let max = splat_f32(b, 65504.0);
    let big = b.ins().fcmp(FloatCC::GreaterThan, arn, max);
    let inf = splat_i32(b, 0x7f80_0000);
    let inf = b.ins().bor(inf, sign);
    let rn = b.ins().bitselect(big, inf, r);
    // Below 2^-14: (|x| + 0.5) - 0.5, the sign put back.
    let a = b.ins().fabs(x);
    let half = splat_f32(b, 0.5);
    let d = b.ins().fadd(a, half);
    let d = b.ins().fsub(d, half);
    let d = b.ins().bitcast(cl::I32X4, le, d);
    let d = b.ins().bor(d, sign);
    let min_normal = splat_f32(b, f32::from_bits(0x3880_0000));
    let small = b.ins().fcmp(FloatCC::LessThan, a, min_normal);
    let r = b.ins().bitselect(small, d, rn);
    // NaNs: quiet, the payload cut to the half's.
    let quiet = splat_i32(b, 0x0040_0000);
    let q = b.ins().bor(bits, quiet);
    let q = b.ins().band(q, keep);
    let nan = b.ins().fcmp(FloatCC::Unordered, x, x);
    let r = b.ins().bitselect(nan, q, r);
    b.ins().bitcast(cl::F32X4, le, r)
}

/// [`from_bits`] of the four lanes of `h` (an `i32x4`, each holding a
/// half's 16 bits) as an `f32x4`, bit for bit. Denormals (and zero) are
/// their 10-bit significand converted to `f32` times 2^-24, both exact,
/// with normal `f32` results (so flush-to-zero cannot touch them).
pub fn from_bits4(b: &mut FunctionBuilder, h: Value) -> Value {
    let le = lanes();
    let mask = splat_i32(b, 0x7fff);
    let mag = b.ins().band(h, mask);
    let sign_bit = splat_i32(b, 0x8000);
    let sign = b.ins().band(h, sign_bit);
    let sign = b.ins().ishl_imm_u(sign, 16);
    let shifted = b.ins().ishl_imm_u(mag, 13);
    let rebias = splat_i32(b, 112 << 23);
    let normal = b.ins().iadd(shifted, rebias);
    let ones = splat_i32(b, 0x7f80_0000);
    let special = b.ins().bor(shifted, ones);
    let m = b.ins().fcvt_from_sint(cl::F32X4, mag);
    let scale = splat_f32(b, f32::from_bits(0x3380_0000)); // 2^-24
    let denormal = b.ins().fmul(m, scale);
    let denormal = b.ins().bitcast(cl::I32X4, le, denormal);
    // The magnitudes are below 2^15: signed comparisons.
    let min_normal = splat_i32(b, 0x03ff);
    let is_normal = b.ins().icmp(IntCC::SignedGreaterThan, mag, min_normal);
    let r = b.ins().bitselect(is_normal, normal, denormal);
    let max_finite = splat_i32(b, 0x7bff);
    let is_special = b.ins().icmp(IntCC::SignedGreaterThan, mag, max_finite);
    let r = b.ins().bitselect(is_special, special, r);
    let r = b.ins().bor(r, sign);
    b.ins().bitcast(cl::F32X4, le, r)
}

/// [`to_bits`] of the four lanes of `x` (an `f32x4` of half values): the
/// four 16-bit encodings packed into the low 8 bytes of an `i16x8`, bit
/// for bit. Denormals (and zero) are |x| * 2^24 converted to an integer,
/// both exact for a half value.
pub fn to_bits4(b: &mut FunctionBuilder, x: Value) -> Value {
    let le = lanes();
    let bits = b.ins().bitcast(cl::I32X4, le, x);
    let sign = b.ins().ushr_imm_u(bits, 16);
    let sign_bit = splat_i32(b, 0x8000);
    let sign = b.ins().band(sign, sign_bit);
    let abs_mask = splat_i32(b, 0x7fff_ffff);
    let abits = b.ins().band(bits, abs_mask);
    let rebias = splat_i32(b, 112 << 23);
    let normal = b.ins().isub(abits, rebias);
    let normal = b.ins().ushr_imm_u(normal, 13);
    // Infinities and NaNs: the top 10 significand bits and a sticky bit
    // for the other 13.
    let top = b.ins().ushr_imm_u(abits, 13);
    let top_mask = splat_i32(b, 0x03ff);
    let top = b.ins().band(top, top_mask);
    let low_mask = splat_i32(b, 0x1fff);
    let low = b.ins().band(abits, low_mask);
    let zero = splat_i32(b, 0);
    let any_low = b.ins().icmp(IntCC::NotEqual, low, zero);
    let one = splat_i32(b, 1);
    let sticky = b.ins().band(any_low, one);
    let special = b.ins().bor(top, sticky);
    let exp_ones = splat_i32(b, 0x7c00);
    let special = b.ins().bor(special, exp_ones);
    let a = b.ins().fabs(x);
    let scale = splat_f32(b, 16_777_216.0); // 2^24
    let scaled = b.ins().fmul(a, scale);
    let denormal = b.ins().fcvt_to_sint_sat(cl::I32X4, scaled);
    // The magnitudes' bits are below 2^31: signed comparisons.
    let below_normal = splat_i32(b, 0x387f_ffff);
    let is_normal = b.ins().icmp(IntCC::SignedGreaterThan, abits, below_normal);
    let r = b.ins().bitselect(is_normal, normal, denormal);
    let finite = splat_i32(b, 0x7f7f_ffff);
    let is_special = b.ins().icmp(IntCC::SignedGreaterThan, abits, finite);
    let r = b.ins().bitselect(is_special, special, r);
    let r = b.ins().bor(r, sign);
    // Every lane is below 2^16: the unsigned saturating narrowing keeps it.
    b.ins().unarrow(r, r)
}

/// The half encoded in the low 16 bits of `h` (an `i16` or `i32`) as an
/// `f32`, exactly, with integer instructions only: a NaN keeps its payload
/// and its signaling bit (the half's significand becomes the top 10 bits of
/// the `f32`'s).
pub fn from_bits(b: &mut FunctionBuilder, h: Value) -> Value {
    let flags = MemFlagsData::new();
    let h = if b.func.dfg.value_type(h) == cl::I32 {
        h
    } else {
        b.ins().uextend(cl::I32, h)
    };
    let mag = b.ins().band_imm_u(h, 0x7fff);
    let sign = b.ins().band_imm_u(h, 0x8000);
    let sign = b.ins().ishl_imm_u(sign, 16);
    let shifted = b.ins().ishl_imm_u(mag, 13);
    // Normals: the exponent rebiased (127 - 15 = 112).
    let normal = b.ins().iadd_imm_s(shifted, 112 << 23);
    // Infinities and NaNs: the exponent all ones, the significand moved up.
    let special = b.ins().bor_imm_u(shifted, 0x7f80_0000);
    // Denormals m * 2^-24 (m < 2^10), normalized: with the top bit of m at
    // position p = 31 - clz(m), the f32 is m << (23 - p) (its top bit is
    // the exponent's lowest, adding one) plus (p + 102) << 23.
    let lz = b.ins().clz(mag);
    let up = b.ins().iadd_imm_s(lz, -8);
    let m = b.ins().ishl(mag, up);
    let c = b.ins().iconst(cl::I32, 133);
    let e = b.ins().isub(c, lz);
    let e = b.ins().ishl_imm_u(e, 23);
    let denormal = b.ins().iadd(m, e);
    let zero = b.ins().iconst(cl::I32, 0);
    let is_zero = b.ins().icmp_imm_u(IntCC::Equal, mag, 0);
    let r = b.ins().select(is_zero, zero, denormal);
    let is_normal = b.ins().icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, mag, 0x0400);
    let r = b.ins().select(is_normal, normal, r);
    let is_special = b.ins().icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, mag, 0x7c00);
    let r = b.ins().select(is_special, special, r);
    let r = b.ins().bor(r, sign);
    b.ins().bitcast(cl::F32, flags, r)
}

/// The 16-bit encoding (an `i16`) of `x`, an `f32` holding a half value:
/// [`from_bits`] inverted, with integer instructions only. (Were `x` a NaN
/// with none of the top 10 significand bits set, which no half widens to,
/// its lowest half significand bit is set, so it stays a NaN.)
pub fn to_bits(b: &mut FunctionBuilder, x: Value) -> Value {
    let flags = MemFlagsData::new();
    let bits = b.ins().bitcast(cl::I32, flags, x);
    let sign = b.ins().ushr_imm_u(bits, 16);
    let sign = b.ins().band_imm_u(sign, 0x8000);
    let abits = b.ins().band_imm_u(bits, 0x7fff_ffff);
    // Normals: the exponent rebiased.
    let normal = b.ins().iadd_imm_s(abits, -(112 << 23));
    let normal = b.ins().ushr_imm_u(normal, 13);
    // Infinities and NaNs: the top 10 significand bits, and a sticky bit
    // for the other 13.
    let top = b.ins().ushr_imm_u(abits, 13);
    let top = b.ins().band_imm_u(top, 0x03ff);
    let low = b.ins().band_imm_u(abits, 0x1fff);
    let sticky = b.ins().icmp_imm_u(IntCC::NotEqual, low, 0);
    let sticky = b.ins().uextend(cl::I32, sticky);
    let special = b.ins().bor(top, sticky);
    let special = b.ins().bor_imm_u(special, 0x7c00);
    // Denormals (and zero): the significand with its implicit bit, shifted
    // right by 126 - e for the f32 exponent field e (103..=112). For zero
    // (e = 0) the shift is 126, which Cranelift takes modulo 32 (30): the
    // implicit bit alone shifts out to 0.
    let e = b.ins().ushr_imm_u(abits, 23);
    let sig = b.ins().band_imm_u(abits, 0x007f_ffff);
    let sig = b.ins().bor_imm_u(sig, 0x0080_0000);
    let c = b.ins().iconst(cl::I32, 126);
    let down = b.ins().isub(c, e);
    let denormal = b.ins().ushr(sig, down);
    let is_normal = b
        .ins()
        .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, abits, 0x3880_0000);
    let r = b.ins().select(is_normal, normal, denormal);
    let is_special = b
        .ins()
        .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, abits, 0x7f80_0000);
    let r = b.ins().select(is_special, special, r);
    let r = b.ins().bor(r, sign);
    b.ins().ireduce(cl::I16, r)
}

/// Loads the half at `addr + off` as an `f32`.
pub fn load(b: &mut FunctionBuilder, flags: MemFlagsData, addr: Value, off: i32) -> Value {
    let h = b.ins().uload16(cl::I32, flags, addr, off);
    from_bits(b, h)
}

/// Stores `x` (an `f32` holding a half value) as a half at `addr + off`.
pub fn store(b: &mut FunctionBuilder, flags: MemFlagsData, x: Value, addr: Value, off: i32) {
    let h = to_bits(b, x);
    b.ins().store(flags, h, addr, off);
}

impl Lowering<'_, '_, '_> {
    /// Rounds every component of `v` to half (round to nearest even).
    pub(super) fn round_half(&mut self, v: &mut [Value]) {
        for x in v {
            if self.b.func.dfg.value_type(*x) == cl::F32 {
                *x = round_rte(self.b, *x);
            }
        }
    }

    /// `x` (an `f32`) rounded to half in `mode` (SPIR-V FPRoundingMode
    /// 0..=3; RTE inline, the others through the table's conversions).
    pub(super) fn round_half_mode(&mut self, x: Value, mode: u32) -> R<Value> {
        use clift_builtins::half as h;
        let f: extern "C" fn(f32) -> u32 = match mode {
            0 => return Ok(round_rte(self.b, x)),
            1 => h::clift_f32_to_half_rtz,
            2 => h::clift_f32_to_half_rtp,
            3 => h::clift_f32_to_half_rtn,
            _ => return Err(format!("rounding mode {mode} does not exist")),
        };
        let r = self.call_host(f as usize, &[cl::F32], &[cl::I32], &[x]);
        let bits = *r.first().ok_or("the conversion returned nothing")?;
        Ok(from_bits(self.b, bits))
    }

    /// `x` (an `f64`) rounded once to half in `mode`, as an `f32`.
    pub(super) fn f64_to_half(&mut self, x: Value, mode: u32) -> R<Value> {
        use clift_builtins::half as h;
        let f: extern "C" fn(f64) -> u32 = match mode {
            0 => h::clift_f64_to_half_rte,
            1 => h::clift_f64_to_half_rtz,
            2 => h::clift_f64_to_half_rtp,
            3 => h::clift_f64_to_half_rtn,
            _ => return Err(format!("rounding mode {mode} does not exist")),
        };
        let r = self.call_host(f as usize, &[cl::F64], &[cl::I32], &[x]);
        let bits = *r.first().ok_or("the conversion returned nothing")?;
        Ok(from_bits(self.b, bits))
    }
}

#[cfg(test)]
mod tests {
    //! The inline sequences against the builtins' reference conversions,
    //! compiled and run through Cranelift's JIT over every half and many
    //! floats around every half.

    use super::*;
    use cranelift_codegen::ir::{AbiParam, Function, Signature, UserFuncName};
    use cranelift_codegen::settings::{self, Configurable};
    use cranelift_frontend::FunctionBuilderContext;
    use cranelift_jit::{JITBuilder, JITModule};
    use cranelift_module::{Linkage, Module as _};

    /// Compiles `body` as `fn(param) -> ret` and returns its address.
    fn jit(
        module: &mut JITModule,
        name: &str,
        param: cl::Type,
        ret: cl::Type,
        body: fn(&mut FunctionBuilder, Value) -> Value,
    ) -> *const u8 {
        let mut sig = Signature::new(module.isa().default_call_conv());
        sig.params.push(AbiParam::new(param));
        sig.returns.push(AbiParam::new(ret));
        let id = module.declare_function(name, Linkage::Local, &sig).unwrap();
        let mut ctx = module.make_context();
        ctx.func = Function::with_name_signature(UserFuncName::default(), sig);
        let mut fctx = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let blk = b.create_block();
        b.append_block_params_for_function_params(blk);
        b.switch_to_block(blk);
        b.seal_block(blk);
        let x = b.block_params(blk)[0];
        let r = body(&mut b, x);
        b.ins().return_(&[r]);
        let config = module.isa().frontend_config();
        b.finalize(config);
        module.define_function(id, &mut ctx).unwrap();
        module.finalize_definitions().unwrap();
        module.get_finalized_function(id)
    }

    #[test]
    fn inline_conversions_match_the_reference() {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").unwrap();
        let isa = cranelift_native::builder()
            .unwrap()
            .finish(settings::Flags::new(flags))
            .unwrap();
        let mut module = JITModule::new(JITBuilder::with_isa(isa, cranelift_module::default_libcall_names()));
        // Every function takes and returns bits (no float crosses the ABI).
        let from = jit(&mut module, "from", cl::I32, cl::I32, |b, h| {
            let x = from_bits(b, h);
            b.ins().bitcast(cl::I32, MemFlagsData::new(), x)
        });
        let to = jit(&mut module, "to", cl::I32, cl::I32, |b, x| {
            let x = b.ins().bitcast(cl::F32, MemFlagsData::new(), x);
            let h = to_bits(b, x);
            b.ins().uextend(cl::I32, h)
        });
        let round = jit(&mut module, "round", cl::I32, cl::I32, |b, x| {
            let x = b.ins().bitcast(cl::F32, MemFlagsData::new(), x);
            let r = round_rte(b, x);
            b.ins().bitcast(cl::I32, MemFlagsData::new(), r)
        });
        // The vector form, in a lane other than the first.
        let round4 = jit(&mut module, "round4", cl::I32, cl::I32, |b, x| {
            let x = b.ins().bitcast(cl::F32, MemFlagsData::new(), x);
            let v = b.ins().splat(cl::F32X4, x);
            let r = round_rte4(b, v);
            let r = b.ins().extractlane(r, 2);
            b.ins().bitcast(cl::I32, MemFlagsData::new(), r)
        });
        let from4 = jit(&mut module, "from4", cl::I32, cl::I32, |b, h| {
            let v = b.ins().splat(cl::I32X4, h);
            let x = from_bits4(b, v);
            let x = b.ins().extractlane(x, 1);
            b.ins().bitcast(cl::I32, MemFlagsData::new(), x)
        });
        let to4 = jit(&mut module, "to4", cl::I32, cl::I32, |b, x| {
            let v = b.ins().splat(cl::I32X4, x);
            let v = b
                .ins()
                .bitcast(cl::F32X4, MemFlagsData::new().with_endianness(Endianness::Little), v);
            let h = to_bits4(b, v);
            let h = b.ins().extractlane(h, 3);
            b.ins().uextend(cl::I32, h)
        });
        type Bits = extern "C" fn(u32) -> u32;
        // SAFETY: the functions were just compiled with this signature
        // (the host's C convention, one 32-bit integer in, one out) and live
        // as long as `module`, which outlives every call below.
        let (from, to, round, round4, from4, to4) = unsafe {
            (
                std::mem::transmute::<*const u8, Bits>(from),
                std::mem::transmute::<*const u8, Bits>(to),
                std::mem::transmute::<*const u8, Bits>(round),
                std::mem::transmute::<*const u8, Bits>(round4),
                std::mem::transmute::<*const u8, Bits>(from4),
                std::mem::transmute::<*const u8, Bits>(to4),
            )
        };
        use clift_builtins::half::{f64_to_half, half_to_f32, Rounding};
        let quiet_cut = |x: u32| (x | 0x0040_0000) & 0xffff_e000;
        for h in 0..=u16::MAX {
            // Widening and narrowing are exact for every encoding, NaNs
            // (signaling ones and their payloads) included.
            let want = half_to_f32(h);
            let got = from(u32::from(h));
            assert_eq!(got, want.to_bits(), "from {h:#x}");
            assert_eq!(to(got), u32::from(h), "to {h:#x}");
            assert_eq!(from4(u32::from(h)), got, "from4 {h:#x}");
            assert_eq!(to4(got), u32::from(h), "to4 {h:#x}");
            if want.is_nan() {
                // Rounding is arithmetic: a NaN comes out quiet.
                assert_eq!(round(got), quiet_cut(got), "round {h:#x}");
                assert_eq!(round4(got), quiet_cut(got), "round4 {h:#x}");
                continue;
            }
            // Floats around the half: every one rounds as the reference.
            let base = want.to_bits();
            for d in [
                0i64, 1, -1, 0xfff, 0x1000, 0x1001, -0xfff, -0x1000, -0x1001, 0x1fff, 0x7ff, 12345,
            ] {
                let bits = base as i64 + d;
                if !(0..=u32::MAX as i64).contains(&bits) {
                    continue;
                }
                let x = f32::from_bits(bits as u32);
                let r = round(bits as u32);
                assert_eq!(round4(bits as u32), r, "round4 {:#x}", bits);
                if x.is_nan() {
                    assert_eq!(r, quiet_cut(bits as u32), "round {:#x}", bits);
                    continue;
                }
                let want = half_to_f32(f64_to_half(f64::from(x), Rounding::Rte));
                assert_eq!(r, want.to_bits(), "round {x:e} ({:#x})", x.to_bits());
            }
        }
        for x in [
            1e-30f32,
            -1e-30,
            1e30,
            -1e30,
            f32::INFINITY,
            f32::NEG_INFINITY,
            65519.0,
            65520.0,
            -65520.0,
        ] {
            let want = half_to_f32(f64_to_half(f64::from(x), Rounding::Rte));
            assert_eq!(round(x.to_bits()), want.to_bits(), "{x:e}");
            assert_eq!(round4(x.to_bits()), want.to_bits(), "round4 {x:e}");
        }
        // A NaN no half widens to (payload in the low 13 bits only) still
        // narrows to a NaN.
        assert_eq!(to(0x7f80_0001), 0x7c01);
        assert_eq!(to(0xffbf_e001), 0xfdff);
        assert_eq!(to4(0x7f80_0001), 0x7c01);
        assert_eq!(to4(0xffbf_e001), 0xfdff);
        // With flush-to-zero and denormals-are-zero set in the MXCSR (as a
        // host compiled with -ffast-math leaves them), half denormals still
        // widen and narrow exactly: the conversions use no FP instruction.
        // SAFETY: reading and writing the calling thread's MXCSR; the
        // previous value is restored before anything else runs on it.
        #[cfg(target_arch = "x86_64")]
        #[allow(deprecated)]
        unsafe {
            use std::arch::x86_64::{_mm_getcsr, _mm_setcsr};
            let saved = _mm_getcsr();
            _mm_setcsr(saved | 0x8040);
            let bad = (0..=u16::MAX).find(|&h| to(from(u32::from(h))) != u32::from(h));
            let bad4 = (0..=u16::MAX)
                .find(|&h| to4(from4(u32::from(h))) != u32::from(h) || from4(u32::from(h)) != from(u32::from(h)));
            let got = from(1);
            _mm_setcsr(saved);
            assert_eq!(bad, None, "FTZ/DAZ changed a half");
            assert_eq!(bad4, None, "FTZ/DAZ changed a half in the vector forms");
            assert_eq!(got, 0x3380_0000, "the smallest denormal under FTZ/DAZ");
        }
        drop(module);
    }
}
