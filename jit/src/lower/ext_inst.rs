//! OpenCL.std extended instructions, driven by the table of
//! `clift_builtins::opencl_std`: a row marked `Host` is a call per
//! component to the table's function (with the table's C signature), a row
//! marked `Inline` is emitted here as Cranelift instructions following its
//! recipe, a `Mixed` row is both (the recipe around the host function), and
//! a `Refused` row refuses the kernel at build with a log line naming the
//! instruction and giving the table's reason.
//!
//! Values are scalarized ([`super::types`]), so every instruction works on
//! the components of its operands. A scalar operand where the result is a
//! vector (`ldexp(float4, int)`, `fclamp(float4, float, float)`) stands for
//! every component.
//!
//! - **Pointer results** (fract, frexp, modf, remquo, sincos, lgamma_r): the
//!   host function writes component `k` of its second result at the
//!   pointer plus the byte offset of component `k` in the pointee type
//!   (any storage class: every pointer is an address).
//! - **Vector loads and stores** use the element alignment the spec
//!   requires of `vloadn`/`vstoren` (no alignment is assumed).
//! - **printf** packs its arguments into a stack buffer of 8-byte words
//!   (`clift_builtins::printf::descriptor`, then the components) and calls
//!   the table's host function with the launch's printf buffer
//!   ([`crate::launch_abi::WorkGroupCtx::printf`]). The format, and each
//!   pointer argument `%s` may print, must be an address known at build
//!   inside a `__constant` program-scope variable: the host reads no more
//!   than what is left of that variable.
//! - **Doubles** (cl_khr_fp64) take the same recipes with f64 constants;
//!   where the f32 recipe computes in f64 to avoid overflow and underflow
//!   (length, distance, normalize), the f64 one scales the components by a
//!   power of two first. A host row without an F64 function refuses the
//!   kernel by name (`OpenCL.std <name> on F64 operands is not supported`).

use clift_builtins::opencl_std::{self as table, CType, HostFn, Impl, OpInfo, Scalar};
use clift_builtins::printf::{descriptor, KIND_FLOAT, KIND_INT, KIND_PTR, KIND_STR};
use cranelift_codegen::ir::{
    condcodes::{FloatCC, IntCC},
    types as cl, InstBuilder, InstructionData, MemFlagsData, Opcode, StackSlotData, StackSlotKind, Type as Clif, Value,
    ValueDef,
};
use rspirv::dr::Operand;
use spirv::{FPRoundingMode, Op, OpenclStd100Op as Cl, StorageClass};

use super::{half, types, Lowering, R};
use crate::globals::Root;
use crate::launch_abi::ctx_offset;
use crate::spirv::{Id, IdKind, Type};

/// The operands of one OpExtInst: the values of its id operands (empty for
/// literals), the ids themselves, and its result's component types.
struct Ops {
    name: &'static str,
    vals: Vec<Vec<Value>>,
    ids: Vec<Option<Id>>,
    out: Vec<Clif>,
    /// The result or the first value operand is half (cl_khr_fp16): the
    /// f32 values hold halves.
    half: bool,
}

impl Ops {
    /// Component `k` of operand `j` (component 0 of a scalar operand).
    ///
    /// `j` is picked by the table's recipe or host signature, not read off
    /// the instruction: the parser guarantees the operands the OpenCL.std
    /// grammar requires, and the table's operand counts match the grammar
    /// (its test), so an absent operand here would be a recipe naming one
    /// its row does not have, reported as a diagnostic, not a panic.
    fn lane(&self, j: usize, k: usize) -> R<Value> {
        let v = self
            .vals
            .get(j)
            .ok_or_else(|| format!("OpenCL.std {}: missing operand {j}", self.name))?;
        let pick = if v.len() == 1 { 0 } else { k };
        v.get(pick)
            .copied()
            .ok_or_else(|| format!("OpenCL.std {}: operand {j} has too few components", self.name))
    }

    /// Every component of operand `j`.
    fn all(&self, j: usize) -> R<&[Value]> {
        self.vals
            .get(j)
            .map(|v| v.as_slice())
            .ok_or_else(|| format!("OpenCL.std {}: missing operand {j}", self.name))
    }
}

/// The Cranelift type of a host function's C type.
fn clif(t: CType) -> Clif {
    match t {
        CType::F32 => cl::F32,
        CType::F64 => cl::F64,
        CType::I32 | CType::U32 => cl::I32,
        CType::I64 | CType::U64 | CType::Ptr => cl::I64,
    }
}

/// The rounding-mode tag of [`HostFn::tag`].
fn rounding_tag(r: FPRoundingMode) -> &'static str {
    match r {
        FPRoundingMode::RTE => "rte",
        FPRoundingMode::RTZ => "rtz",
        FPRoundingMode::RTP => "rtp",
        FPRoundingMode::RTN => "rtn",
    }
}

impl Lowering<'_, '_, '_> {
    /// OpExtInst of OpenCL.std (the only set the front end accepts).
    pub(super) fn opencl_std(&mut self, i: u32) -> R {
        let inst = self.at(i);
        let n = inst.literal(1);
        let info = table::lookup(n).ok_or_else(|| format!("OpenCL.std has no instruction {n}"))?;
        let name = info.name;
        if let Impl::Refused(why) = info.imp {
            return Err(format!("OpenCL.std {name} is not supported: {why}"));
        }
        self.ext_lower(i, info).map_err(|e| {
            if e.contains("OpenCL.std") {
                e
            } else {
                format!("OpenCL.std {name}: {e}")
            }
        })
    }

    fn ext_lower(&mut self, i: u32, info: &'static OpInfo) -> R {
        let m = self.m;
        let inst = self.at(i);
        let name = info.name;
        let ty = inst.result_type();
        let id = inst.result_id();
        let out = types::components(m, ty)?;
        let mut vals = Vec::new();
        let mut ids = Vec::new();
        for k in 2..inst.operands.len() {
            match inst.id(k) {
                Some(x) => {
                    vals.push(self.get(x)?);
                    ids.push(Some(x));
                }
                None => {
                    vals.push(Vec::new());
                    ids.push(None);
                }
            }
        }
        let half_out = half::is_half(m, ty);
        let half_in = ids
            .iter()
            .flatten()
            .find(|&&x| m.type_of(x).and_then(|t| m.pointer(t)).is_none())
            .and_then(|&x| m.type_of(x))
            .is_some_and(|t| half::is_half(m, t));
        let ops = Ops {
            name,
            vals,
            ids,
            out,
            half: half_out || half_in,
        };
        if ops.half && (name.starts_with("half_") || name.starts_with("native_")) {
            return Err(format!(
                "OpenCL.std {name} is not supported on half operands: the half_ and native_ forms are float-only"
            ));
        }
        let mut v = match info.op {
            Cl::fma | Cl::mad if ops.half => self.half_fma(&ops)?,
            Cl::nextafter if ops.half => self.half_nextafter(&ops)?,
            Cl::bitselect if ops.half => self.half_bitselect(&ops)?,
            Cl::vloadn | Cl::vload_half | Cl::vload_halfn | Cl::vloada_halfn => {
                self.ext_load(info, inst.lit(4), &ops)?
            }
            Cl::vstoren
            | Cl::vstore_half
            | Cl::vstore_half_r
            | Cl::vstore_halfn
            | Cl::vstore_halfn_r
            | Cl::vstorea_halfn
            | Cl::vstorea_halfn_r => {
                let mode = match inst.operands.get(5) {
                    Some(Operand::FPRoundingMode(r)) => Some(*r),
                    Some(_) => return Err(format!("OpenCL.std {name}: the rounding mode is not a literal")),
                    None => None,
                };
                self.ext_store(info, mode, &ops)?;
                Vec::new()
            }
            Cl::prefetch => Vec::new(),
            Cl::printf => vec![self.ext_printf(info, &ops)?],
            Cl::shuffle | Cl::shuffle2 => self.ext_shuffle(info.op, &ops)?,
            Cl::cross => self.ext_cross(&ops)?,
            Cl::length | Cl::fast_length => {
                let x = ops.all(0)?.to_vec();
                vec![self.length(&x)?]
            }
            Cl::distance | Cl::fast_distance => {
                let (a, b) = (ops.all(0)?.to_vec(), ops.all(1)?.to_vec());
                if a.len() != b.len() {
                    return Err("the points have different component counts".into());
                }
                if a.first().is_some_and(|&v| self.b.func.dfg.value_type(v) == cl::F64) {
                    // The difference of doubles overflows only where the
                    // distance does.
                    let d: Vec<Value> = a.iter().zip(&b).map(|(&x, &y)| self.b.ins().fsub(x, y)).collect();
                    vec![self.length(&d)?]
                } else {
                    let d = a
                        .iter()
                        .zip(&b)
                        .map(|(&x, &y)| {
                            let (x, y) = (self.b.ins().fpromote(cl::F64, x), self.b.ins().fpromote(cl::F64, y));
                            self.b.ins().fsub(x, y)
                        })
                        .collect::<Vec<_>>();
                    let l = self.sum_sq_sqrt(&d);
                    vec![self.b.ins().fdemote(cl::F32, l)]
                }
            }
            Cl::normalize | Cl::fast_normalize => self.ext_normalize(&ops)?,
            _ => match info.imp {
                Impl::Host(fns) => {
                    let st = self.operand_scalar(&ops)?;
                    let h = fns
                        .iter()
                        .find(|h| h.ty == st && h.tag.is_empty())
                        .ok_or_else(|| format!("OpenCL.std {name} on {st:?} operands is not supported"))?;
                    self.host_lanes(h, &ops)?
                }
                Impl::Inline(_) | Impl::Mixed(..) => {
                    let mut v = Vec::with_capacity(ops.out.len());
                    for (k, &t) in ops.out.iter().enumerate() {
                        v.push(self.ext_lane(info, &ops, k, t)?);
                    }
                    v
                }
                Impl::Refused(why) => return Err(format!("OpenCL.std {name} is not supported: {why}")),
            },
        };
        if half_out && !half::moves_bits(info.op) {
            // The general rule for half: the float row computed on the
            // operands widened to float, rounded once to half.
            self.round_half(&mut v);
            if info.op == Cl::fract {
                // fract's bound is the largest half below 1 (0x1.ffcp-1),
                // which float's 0x1.fffffep-1 rounds above.
                let top = self.b.ins().f32const(f32::from_bits(0x3f7f_e000));
                for x in &mut v {
                    *x = self.b.ins().fmin(*x, top);
                }
            }
        }
        if v.len() != ops.out.len() {
            return Err(format!(
                "OpenCL.std {name}: {} components computed for a result of {}",
                v.len(),
                ops.out.len()
            ));
        }
        self.values.insert(id, v);
        Ok(())
    }

    /// The scalar type of the first non-pointer operand (what the table's
    /// host functions are chosen by).
    fn operand_scalar(&self, ops: &Ops) -> R<Scalar> {
        let first = ops
            .vals
            .iter()
            .zip(&ops.ids)
            .find(|(_, id)| id.is_some_and(|x| self.m.type_of(x).and_then(|t| self.m.pointer(t)).is_none()))
            .and_then(|(v, _)| v.first().copied())
            .ok_or("no value operand")?;
        match self.b.func.dfg.value_type(first) {
            cl::F32 => Ok(Scalar::F32),
            cl::F64 => Ok(Scalar::F64),
            t => Err(format!("operands of type {t} have no host function")),
        }
    }

    /// Calls host function `h` once per result component: value parameters
    /// take the operands' components, a pointer parameter the address of
    /// the component in its pointee.
    fn host_lanes(&mut self, h: &HostFn, ops: &Ops) -> R<Vec<Value>> {
        let (params, ret) = h.func.signature();
        let cparams: Vec<Clif> = params.iter().map(|&p| clif(p)).collect();
        let mut offsets: Vec<Vec<u64>> = Vec::with_capacity(params.len());
        // Pointer parameters whose pointee is half: the host function writes
        // a float into a stack slot, stored from there as a half.
        let mut half_ptr: Vec<usize> = Vec::new();
        for (j, &p) in params.iter().enumerate() {
            if p == CType::Ptr {
                let id = ops.ids.get(j).copied().flatten().ok_or("missing pointer operand")?;
                let pointee = self
                    .m
                    .type_of(id)
                    .and_then(|t| self.m.pointer(t))
                    .map(|(_, p)| p)
                    .ok_or("the operand is not a pointer")?;
                let comps = types::flatten(self.m, pointee)?;
                if comps.len() != ops.out.len() {
                    return Err("the pointee does not match the result".into());
                }
                if comps.iter().any(|&(t, _)| t == cl::F16) {
                    half_ptr.push(j);
                }
                offsets.push(comps.into_iter().map(|(_, o)| o).collect());
            } else {
                offsets.push(Vec::new());
            }
        }
        let mut v = Vec::with_capacity(ops.out.len());
        let mut half_back: Vec<(Value, Value)> = Vec::new();
        for k in 0..ops.out.len() {
            let mut args = Vec::with_capacity(params.len());
            for (j, &p) in params.iter().enumerate() {
                let a = ops.lane(j, k)?;
                if p == CType::Ptr {
                    let off = offsets
                        .get(j)
                        .and_then(|o| o.get(k))
                        .copied()
                        .ok_or("no pointee offset")? as i64;
                    let at = if off == 0 { a } else { self.b.ins().iadd_imm_s(a, off) };
                    if half_ptr.contains(&j) {
                        let slot =
                            self.b
                                .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 4, 2));
                        let tmp = self.b.ins().stack_addr(cl::I64, slot, 0);
                        half_back.push((tmp, at));
                        args.push(tmp);
                    } else {
                        args.push(at);
                    }
                } else {
                    let want = clif(p);
                    let have = self.b.func.dfg.value_type(a);
                    if have != want {
                        return Err(format!("operand {j} is {have}, the host function takes {want}"));
                    }
                    args.push(a);
                }
            }
            let r = self.call_host(h.func.addr(), &cparams, &[clif(ret)], &args);
            v.push(*r.first().ok_or("the host function returned nothing")?);
            for (tmp, at) in half_back.drain(..) {
                let flags = MemFlagsData::new();
                let f = self.b.ins().load(cl::F32, flags, tmp, 0);
                let f = half::round_rte(self.b, f);
                half::store(self.b, flags, f, at, 0);
            }
        }
        Ok(v)
    }

    /// The inline recipes that act lane by lane on floats ([`lanewise_op`]
    /// and `degrees`/`radians` of doubles), written once for
    /// scalars and for vectors of them (the 4-lane bodies call this with
    /// `f32x4` and `f64x2` operands: every lane computes what the scalar
    /// body computes, operation for operation): `copysign`, the square
    /// roots, `maxmag`/`minmag`, the divisions and reciprocals of the
    /// `half_` and `native_` forms, `mix`, `step`, `smoothstep`, `sign`,
    /// and `degrees`/`radians` of doubles (those of floats compute in
    /// double: the 4-lane bodies widen each half themselves). `select`
    /// is here too for any type (`scalar_select`: whether the instruction
    /// is of scalars, whose condition is nonzero, not negative), and the
    /// integer `abs_diff`, `add_sat`, `sub_sat`, `hadd` and `rhadd` of
    /// every width (vectors of 8- and 16-bit lanes take x86's saturating
    /// and averaging instructions, whose results are the only right
    /// ones). None for other instructions or arities.
    pub(super) fn lanewise(&mut self, op: Cl, a: &[Value], scalar_select: bool) -> Option<Value> {
        let x = *a.first()?;
        let t = self.b.func.dfg.value_type(x);
        let lane = t.lane_type();
        Some(match (op, a.len()) {
            (Cl::copysign, 2) => self.copysign_any(x, a[1]),
            (Cl::sqrt | Cl::half_sqrt | Cl::native_sqrt, 1) => self.b.ins().sqrt(x),
            (Cl::maxmag | Cl::minmag, 2) => {
                let y = a[1];
                let (ax, ay) = (self.b.ins().fabs(x), self.b.ins().fabs(y));
                let max = op == Cl::maxmag;
                let (px, py) = if max {
                    (FloatCC::GreaterThan, FloatCC::LessThan)
                } else {
                    (FloatCC::LessThan, FloatCC::GreaterThan)
                };
                let pick_x = self.b.ins().fcmp(px, ax, ay);
                let pick_y = self.b.ins().fcmp(py, ax, ay);
                let r = self.fmaxmin(x, y, max);
                let r = self.select_either(pick_y, y, r);
                self.select_either(pick_x, x, r)
            }
            // Relational: (a & ~c) | (b & c), on the bit patterns (of
            // scalars or vectors).
            (Cl::bitselect, 3) => {
                let it = t.as_int();
                let bits = [x, a[1], a[2]].map(|v| {
                    if t.lane_type().is_float() {
                        self.b.ins().bitcast(it, MemFlagsData::new(), v)
                    } else {
                        v
                    }
                });
                let keep = self.b.ins().band_not(bits[0], bits[2]);
                let take = self.b.ins().band(bits[1], bits[2]);
                let r = self.b.ins().bor(keep, take);
                if t.lane_type().is_float() {
                    self.b.ins().bitcast(t, MemFlagsData::new(), r)
                } else {
                    r
                }
            }
            (Cl::half_divide | Cl::native_divide, 2) => self.b.ins().fdiv(x, a[1]),
            (Cl::half_recip | Cl::native_recip, 1) => {
                let one = self.fconst_like(t, 1.0);
                self.b.ins().fdiv(one, x)
            }
            (Cl::degrees | Cl::radians, 1) if lane == cl::F64 => {
                let c = if op == Cl::degrees {
                    180.0 / std::f64::consts::PI
                } else {
                    std::f64::consts::PI / 180.0
                };
                let c = self.fconst_like(t, c);
                self.b.ins().fmul(x, c)
            }
            (Cl::mix, 3) => {
                let (y, s) = (a[1], a[2]);
                let d = self.b.ins().fsub(y, x);
                let p = self.b.ins().fmul(d, s);
                self.b.ins().fadd(x, p)
            }
            (Cl::step, 2) => {
                // step(edge, x): 0.0 if x < edge, else 1.0.
                let v = a[1];
                let lt = self.b.ins().fcmp(FloatCC::LessThan, v, x);
                let (zero, one) = (self.fconst_like(t, 0.0), self.fconst_like(t, 1.0));
                self.select_either(lt, zero, one)
            }
            (Cl::smoothstep, 3) => {
                let (e1, v) = (a[1], a[2]);
                let num = self.b.ins().fsub(v, x);
                let den = self.b.ins().fsub(e1, x);
                let q = self.b.ins().fdiv(num, den);
                let (zero, one) = (self.fconst_like(t, 0.0), self.fconst_like(t, 1.0));
                let q = self.fmaxmin(q, zero, true);
                let q = self.fmaxmin(q, one, false);
                let two = self.fconst_like(t, 2.0);
                let three = self.fconst_like(t, 3.0);
                let tq = self.b.ins().fmul(two, q);
                let s = self.b.ins().fsub(three, tq);
                let qq = self.b.ins().fmul(q, q);
                self.b.ins().fmul(qq, s)
            }
            (Cl::sign, 1) => {
                let one = self.fconst_like(t, 1.0);
                let s = self.copysign_any(one, x);
                let zero = self.fconst_like(t, 0.0);
                let is_zero = self.b.ins().fcmp(FloatCC::Equal, x, zero);
                let s = self.select_either(is_zero, x, s);
                let nan = self.b.ins().fcmp(FloatCC::Unordered, x, x);
                self.select_either(nan, zero, s)
            }
            (Cl::select, 3) => {
                // select(a, b, c): b where c (a scalar) is nonzero or c's
                // component has its most significant bit set (a vector).
                let c = a[2];
                let ct = self.b.func.dfg.value_type(c);
                let zero = if ct.is_vector() {
                    self.zero(ct)
                } else {
                    self.bits(ct, 0)
                };
                let cc = if scalar_select {
                    IntCC::NotEqual
                } else {
                    IntCC::SignedLessThan
                };
                let cond = self.b.ins().icmp(cc, c, zero);
                self.select_either(cond, a[1], x)
            }
            // Integer (any width; vectors of `i8`, `i16` and `i32` lanes
            // and `i64x2`). Saturation and halving have one right answer,
            // so the narrow vectors use x86's own instructions for them.
            (Cl::s_abs_diff | Cl::u_abs_diff, 2) => {
                let y = a[1];
                let cc = if op == Cl::s_abs_diff {
                    IntCC::SignedGreaterThan
                } else {
                    IntCC::UnsignedGreaterThan
                };
                let gt = self.b.ins().icmp(cc, x, y);
                let d1 = self.b.ins().isub(x, y);
                let d2 = self.b.ins().isub(y, x);
                self.select_either(gt, d1, d2)
            }
            (Cl::u_add_sat | Cl::u_sub_sat | Cl::s_add_sat | Cl::s_sub_sat, 2) if narrow_vector(t) => {
                let (ins, y) = (self.b.ins(), a[1]);
                match op {
                    Cl::u_add_sat => ins.uadd_sat(x, y),
                    Cl::u_sub_sat => ins.usub_sat(x, y),
                    Cl::s_add_sat => ins.sadd_sat(x, y),
                    _ => ins.ssub_sat(x, y),
                }
            }
            (Cl::u_add_sat, 2) => {
                let s = self.b.ins().iadd(x, a[1]);
                let ovf = self.b.ins().icmp(IntCC::UnsignedLessThan, s, x);
                let ones = self.int_like(t, u64::MAX);
                self.select_either(ovf, ones, s)
            }
            (Cl::u_sub_sat, 2) => {
                let y = a[1];
                let d = self.b.ins().isub(x, y);
                let under = self.b.ins().icmp(IntCC::UnsignedLessThan, x, y);
                let zero = self.int_like(t, 0);
                self.select_either(under, zero, d)
            }
            (Cl::s_add_sat | Cl::s_sub_sat, 2) => {
                let y = a[1];
                let (r, ovf_bits) = if op == Cl::s_add_sat {
                    // Overflow: the sum's sign differs from both operands'.
                    let s = self.b.ins().iadd(x, y);
                    let sx = self.b.ins().bxor(s, x);
                    let sy = self.b.ins().bxor(s, y);
                    (s, self.b.ins().band(sx, sy))
                } else {
                    // Overflow: the operands' signs differ and the
                    // difference's sign differs from x's.
                    let d = self.b.ins().isub(x, y);
                    let xy = self.b.ins().bxor(x, y);
                    let xd = self.b.ins().bxor(x, d);
                    (d, self.b.ins().band(xy, xd))
                };
                let zero = self.int_like(t, 0);
                let ovf = self.b.ins().icmp(IntCC::SignedLessThan, ovf_bits, zero);
                // The bound on x's side: MAX ^ (x >> (w - 1)) is MAX for
                // x >= 0 and MIN for x < 0.
                let w = i64::from(lane.bits());
                let sign = self.b.ins().sshr_imm_s(x, w - 1);
                let max = self.int_like(t, (1u64 << (w - 1)) - 1);
                let bound = self.b.ins().bxor(max, sign);
                self.select_either(ovf, bound, r)
            }
            (Cl::u_rhadd, 2) if narrow_vector(t) => self.b.ins().avg_round(x, a[1]),
            (Cl::s_hadd | Cl::u_hadd | Cl::s_rhadd | Cl::u_rhadd, 2) => {
                let y = a[1];
                let signed = matches!(op, Cl::s_hadd | Cl::s_rhadd);
                let (hx, hy) = if signed {
                    (self.b.ins().sshr_imm_s(x, 1), self.b.ins().sshr_imm_s(y, 1))
                } else {
                    (self.b.ins().ushr_imm_s(x, 1), self.b.ins().ushr_imm_s(y, 1))
                };
                let low = if matches!(op, Cl::s_hadd | Cl::u_hadd) {
                    self.b.ins().band(x, y)
                } else {
                    self.b.ins().bor(x, y)
                };
                let one = self.int_like(t, 1);
                let low = self.b.ins().band(low, one);
                let s = self.b.ins().iadd(hx, hy);
                self.b.ins().iadd(s, low)
            }
            _ => return None,
        })
    }

    /// `x` with the sign bit of `y`: Cranelift's `fcopysign` of scalars
    /// (bit operations on x86-64), the same bit operations on vectors
    /// (which Cranelift's x86-64 back end has no `fcopysign` for).
    pub(super) fn copysign_any(&mut self, x: Value, y: Value) -> Value {
        let t = self.b.func.dfg.value_type(x);
        if !t.is_vector() {
            return self.b.ins().fcopysign(x, y);
        }
        let it = t.as_int();
        let sign = self.bits(it.lane_type(), 1 << (it.lane_bits() - 1));
        let sign = self.b.ins().splat(it, sign);
        let flags = MemFlagsData::new();
        let (xi, yi) = (self.b.ins().bitcast(it, flags, x), self.b.ins().bitcast(it, flags, y));
        let magnitude = self.b.ins().band_not(xi, sign);
        let signs = self.b.ins().band(yi, sign);
        let r = self.b.ins().bor(magnitude, signs);
        self.b.ins().bitcast(t, flags, r)
    }

    /// Float constant `v` of type `t`, or every lane of a vector of type
    /// `t` (f32x4, f64x2).
    pub(in crate::lower) fn fconst_like(&mut self, t: Clif, v: f64) -> Value {
        let c = self.fconst(t.lane_type(), v);
        if t.is_vector() {
            self.b.ins().splat(t, c)
        } else {
            c
        }
    }

    /// An integer constant (its low `t.lane_bits()` bits) of type `t`, a
    /// scalar or a vector of it in every lane.
    fn int_like(&mut self, t: Clif, v: u64) -> Value {
        let c = self.bits(t.lane_type(), v);
        if t.is_vector() {
            self.b.ins().splat(t, c)
        } else {
            c
        }
    }

    /// Component `k` (of type `t`) of an inline (or mixed) instruction.
    fn ext_lane(&mut self, info: &OpInfo, ops: &Ops, k: usize, t: Clif) -> R<Value> {
        let a = |j: usize| ops.lane(j, k);
        let x = a(0)?;
        let lanewise = lanewise_op(info.op) || (matches!(info.op, Cl::degrees | Cl::radians) && t == cl::F64);
        if lanewise {
            let args = (0..ops.vals.len()).map(a).collect::<R<Vec<Value>>>()?;
            return self
                .lanewise(info.op, &args, ops.out.len() == 1)
                .ok_or_else(|| format!("OpenCL.std {} with {} operands", info.name, args.len()));
        }
        Ok(match info.op {
            // Math.
            Cl::ceil => self.b.ins().ceil(x),
            Cl::floor => self.b.ins().floor(x),
            Cl::trunc => self.b.ins().trunc(x),
            Cl::rint => self.b.ins().nearest(x),
            Cl::fabs => self.b.ins().fabs(x),
            Cl::fma | Cl::mad => self.b.ins().fma(x, a(1)?, a(2)?),
            Cl::fmax | Cl::fmax_common => self.fmaxmin(x, a(1)?, true),
            Cl::fmin | Cl::fmin_common => self.fmaxmin(x, a(1)?, false),
            Cl::nan if t == cl::F64 => {
                let code = self.resize(x, cl::I64, false);
                let payload = self.b.ins().band_imm_u(code, 0x7_ffff_ffff_ffff);
                let bits = self.b.ins().bor_imm_u(payload, 0x7ff8_0000_0000_0000u64 as i64);
                self.b.ins().bitcast(cl::F64, MemFlagsData::new(), bits)
            }
            Cl::nan => {
                let code = self.resize(x, cl::I32, false);
                let payload = self.b.ins().band_imm_u(code, 0x3f_ffff);
                let bits = self.b.ins().bor_imm_u(payload, 0x7fc0_0000);
                self.b.ins().bitcast(cl::F32, MemFlagsData::new(), bits)
            }
            // Common.
            Cl::fclamp => {
                let lo = self.fmaxmin(x, a(1)?, true);
                self.fmaxmin(lo, a(2)?, false)
            }
            // Of floats: in double, rounded once (of doubles: `lanewise`).
            Cl::degrees | Cl::radians => {
                let c = if info.op == Cl::degrees {
                    180.0 / std::f64::consts::PI
                } else {
                    std::f64::consts::PI / 180.0
                };
                let c = self.b.ins().f64const(c);
                let wide = self.b.ins().fpromote(cl::F64, x);
                let p = self.b.ins().fmul(wide, c);
                self.b.ins().fdemote(cl::F32, p)
            }
            // Integer.
            Cl::s_abs => {
                let neg = self.b.ins().ineg(x);
                let lt = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
                self.b.ins().select(lt, neg, x)
            }
            Cl::u_abs => x,
            Cl::s_clamp => {
                let lo = self.b.ins().smax(x, a(1)?);
                self.b.ins().smin(lo, a(2)?)
            }
            Cl::u_clamp => {
                let lo = self.b.ins().umax(x, a(1)?);
                self.b.ins().umin(lo, a(2)?)
            }
            Cl::s_max => self.b.ins().smax(x, a(1)?),
            Cl::u_max => self.b.ins().umax(x, a(1)?),
            Cl::s_min => self.b.ins().smin(x, a(1)?),
            Cl::u_min => self.b.ins().umin(x, a(1)?),
            Cl::clz | Cl::ctz => {
                // Counted at 32 bits or more: a zero counts the width.
                let w = t.bits();
                if w >= 32 {
                    if info.op == Cl::clz {
                        self.b.ins().clz(x)
                    } else {
                        self.b.ins().ctz(x)
                    }
                } else {
                    let wide = self.b.ins().uextend(cl::I32, x);
                    let c = if info.op == Cl::clz {
                        let c = self.b.ins().clz(wide);
                        self.b.ins().iadd_imm_s(c, -(32 - i64::from(w)))
                    } else {
                        let stop = self.b.ins().bor_imm_u(wide, 1i64 << w);
                        self.b.ins().ctz(stop)
                    };
                    self.b.ins().ireduce(t, c)
                }
            }
            Cl::popcount => self.b.ins().popcnt(x),
            Cl::rotate => self.b.ins().rotl(x, a(1)?),
            Cl::s_mul_hi | Cl::u_mul_hi => self.mul_hi(x, a(1)?, info.op == Cl::s_mul_hi),
            Cl::s_mad_hi | Cl::u_mad_hi => {
                let h = self.mul_hi(x, a(1)?, info.op == Cl::s_mad_hi);
                self.b.ins().iadd(h, a(2)?)
            }
            Cl::s_mad_sat | Cl::u_mad_sat => {
                let signed = info.op == Cl::s_mad_sat;
                let (y, z) = (a(1)?, a(2)?);
                if t == cl::I64 {
                    let st = if signed { Scalar::I64 } else { Scalar::U64 };
                    let h = info.host_fn(st, "").ok_or("no 64-bit host function")?;
                    let r = self.call_host(h.func.addr(), &[cl::I64; 3], &[cl::I64], &[x, y, z]);
                    *r.first().ok_or("the host function returned nothing")?
                } else {
                    // Exact in 64 bits: |a * b + c| < 2^63 (signed) and
                    // a * b + c < 2^64 (unsigned) for 32-bit operands.
                    let w = t.bits();
                    let (x, y, z) = (
                        self.resize(x, cl::I64, signed),
                        self.resize(y, cl::I64, signed),
                        self.resize(z, cl::I64, signed),
                    );
                    let p = self.b.ins().imul(x, y);
                    let s = self.b.ins().iadd(p, z);
                    let s = if signed {
                        let max = self.b.ins().iconst(cl::I64, (1i64 << (w - 1)) - 1);
                        let min = self.b.ins().iconst(cl::I64, -(1i64 << (w - 1)));
                        let s = self.b.ins().smin(s, max);
                        self.b.ins().smax(s, min)
                    } else {
                        let max = self.b.ins().iconst(cl::I64, ((1u64 << w) - 1) as i64);
                        self.b.ins().umin(s, max)
                    };
                    self.b.ins().ireduce(t, s)
                }
            }
            Cl::s_mul24 | Cl::u_mul24 => self.b.ins().imul(x, a(1)?),
            Cl::s_mad24 | Cl::u_mad24 => {
                let p = self.b.ins().imul(x, a(1)?);
                self.b.ins().iadd(p, a(2)?)
            }
            Cl::s_upsample | Cl::u_upsample => {
                let lo = a(1)?;
                let hi = self.resize(x, t, info.op == Cl::s_upsample);
                let w = self.b.func.dfg.value_type(lo).bits();
                let hi = self.b.ins().ishl_imm_s(hi, i64::from(w));
                let lo = self.resize(lo, t, false);
                self.b.ins().bor(hi, lo)
            }
            _ => {
                return Err(format!(
                    "OpenCL.std {} is not supported by code generation yet",
                    info.name
                ))
            }
        })
    }

    /// fma and mad of halves: the product is exact in f64 and the sum is
    /// rounded there once, then once more to half; the f64 sum is exact
    /// whenever a half midpoint could be at stake, so the result is the
    /// correctly rounded half fma.
    fn half_fma(&mut self, ops: &Ops) -> R<Vec<Value>> {
        let mut v = Vec::with_capacity(ops.out.len());
        for k in 0..ops.out.len() {
            let [x, y, z] = [0, 1, 2].map(|j| ops.lane(j, k));
            let (x, y, z) = (x?, y?, z?);
            let (x, y, z) = (
                self.b.ins().fpromote(cl::F64, x),
                self.b.ins().fpromote(cl::F64, y),
                self.b.ins().fpromote(cl::F64, z),
            );
            let p = self.b.ins().fmul(x, y);
            let s = self.b.ins().fadd(p, z);
            v.push(self.f64_to_half(s, 0)?);
        }
        Ok(v)
    }

    /// nextafter of halves: one step of the 16-bit encoding toward `y`.
    fn half_nextafter(&mut self, ops: &Ops) -> R<Vec<Value>> {
        let mut v = Vec::with_capacity(ops.out.len());
        for k in 0..ops.out.len() {
            let (x, y) = (ops.lane(0, k)?, ops.lane(1, k)?);
            let hx = half::to_bits(self.b, x);
            let hx = self.b.ins().uextend(cl::I32, hx);
            // Away from zero when y is beyond x on x's side.
            let lt = self.b.ins().fcmp(FloatCC::LessThan, x, y);
            let zero = self.b.ins().f32const(0.0);
            let neg = self.b.ins().fcmp(FloatCC::LessThan, x, zero);
            let away = self.b.ins().bxor(lt, neg);
            let up = self.b.ins().iadd_imm_s(hx, 1);
            let down = self.b.ins().iadd_imm_s(hx, -1);
            let stepped = self.b.ins().select(away, up, down);
            let r = half::from_bits(self.b, stepped);
            // From a zero: the smallest denormal with y's sign.
            let tiny = self.b.ins().f32const(2f32.powi(-24));
            let tiny = self.b.ins().fcopysign(tiny, y);
            let is_zero = self.b.ins().fcmp(FloatCC::Equal, x, zero);
            let r = self.b.ins().select(is_zero, tiny, r);
            // Equal: y; a NaN operand: a NaN.
            let eq = self.b.ins().fcmp(FloatCC::Equal, x, y);
            let r = self.b.ins().select(eq, y, r);
            let uno = self.b.ins().fcmp(FloatCC::Unordered, x, y);
            let nan = self.b.ins().fadd(x, y);
            v.push(self.b.ins().select(uno, nan, r));
        }
        Ok(v)
    }

    /// bitselect of halves, on their 16-bit encodings.
    fn half_bitselect(&mut self, ops: &Ops) -> R<Vec<Value>> {
        let mut v = Vec::with_capacity(ops.out.len());
        for k in 0..ops.out.len() {
            let [a, b, c] = [0, 1, 2].map(|j| ops.lane(j, k));
            let (a, b, c) = (a?, b?, c?);
            let (a, b, c) = (
                half::to_bits(self.b, a),
                half::to_bits(self.b, b),
                half::to_bits(self.b, c),
            );
            let keep = self.b.ins().band_not(a, c);
            let take = self.b.ins().band(b, c);
            let r = self.b.ins().bor(keep, take);
            v.push(half::from_bits(self.b, r));
        }
        Ok(v)
    }

    /// C99's fmax/fmin: a NaN operand yields the other operand. Of
    /// floats or of float vectors (the 4-lane forms, `simd::ops`: lane by
    /// lane the same instructions, so the same bits).
    pub(super) fn fmaxmin(&mut self, x: Value, y: Value, max: bool) -> Value {
        let r = if max {
            self.b.ins().fmax(x, y)
        } else {
            self.b.ins().fmin(x, y)
        };
        let xn = self.b.ins().fcmp(FloatCC::Unordered, x, x);
        let yn = self.b.ins().fcmp(FloatCC::Unordered, y, y);
        let r = self.select_either(xn, y, r);
        self.select_either(yn, x, r)
    }

    /// `a` where comparison result `c` holds, else `b`: a select of
    /// scalars, a bit select of vectors (`c` a lane mask).
    pub(in crate::lower) fn select_either(&mut self, c: Value, a: Value, b: Value) -> Value {
        let t = self.b.func.dfg.value_type(a);
        if !t.is_vector() {
            return self.b.ins().select(c, a, b);
        }
        let c = if self.b.func.dfg.value_type(c) == t {
            c
        } else {
            self.b.ins().bitcast(t, MemFlagsData::new(), c)
        };
        self.b.ins().bitselect(c, a, b)
    }

    /// The high half of the full product of `x` and `y`.
    fn mul_hi(&mut self, x: Value, y: Value, signed: bool) -> Value {
        let t = self.b.func.dfg.value_type(x);
        if t == cl::I64 {
            return if signed {
                self.b.ins().smulhi(x, y)
            } else {
                self.b.ins().umulhi(x, y)
            };
        }
        let (wx, wy) = (self.resize(x, cl::I64, signed), self.resize(y, cl::I64, signed));
        let p = self.b.ins().imul(wx, wy);
        let h = if signed {
            self.b.ins().sshr_imm_s(p, i64::from(t.bits()))
        } else {
            self.b.ins().ushr_imm_s(p, i64::from(t.bits()))
        };
        self.b.ins().ireduce(t, h)
    }

    /// sqrt of the sum of the squares of f64 values.
    pub(super) fn sum_sq_sqrt(&mut self, d: &[Value]) -> Value {
        let mut acc = None;
        for &x in d {
            let sq = self.b.ins().fmul(x, x);
            acc = Some(match acc {
                None => sq,
                Some(s) => self.b.ins().fadd(s, sq),
            });
        }
        let s = match acc {
            Some(s) => s,
            None => self.b.ins().f64const(0.0),
        };
        self.b.ins().sqrt(s)
    }

    /// length(x) of f32 components: in f64, where neither the squares nor
    /// their sum can overflow or underflow, rounded once to f32 at the end.
    /// Of f64 components: scaled as [`Self::scale_f64`] says, then scaled
    /// back; infinite if any component is.
    fn length(&mut self, x: &[Value]) -> R<Value> {
        if x.first().is_some_and(|&v| self.b.func.dfg.value_type(v) == cl::F64) {
            let (scaled, _, back) = self.scale_f64(x);
            let l = self.sum_sq_sqrt(&scaled);
            let l = self.b.ins().fmul(l, back);
            // An infinite component makes the length infinite even beside
            // a NaN (C's hypot rule).
            let inf = self.b.ins().f64const(f64::INFINITY);
            let mut any_inf = None;
            for &v in x {
                let a = self.b.ins().fabs(v);
                let i = self.b.ins().fcmp(FloatCC::Equal, a, inf);
                any_inf = Some(match any_inf {
                    None => i,
                    Some(p) => self.b.ins().bor(p, i),
                });
            }
            return Ok(match any_inf {
                Some(i) => self.b.ins().select(i, inf, l),
                None => l,
            });
        }
        let d: Vec<Value> = x.iter().map(|&v| self.b.ins().fpromote(cl::F64, v)).collect();
        let l = self.sum_sq_sqrt(&d);
        Ok(self.b.ins().fdemote(cl::F32, l))
    }

    /// f64 components `x` multiplied by a power of two that brings the
    /// largest magnitude among them into [1, 4), so that their squares and
    /// the sum of up to 16 squares neither overflow nor underflow (a lane
    /// that still underflows is below 2^-1074 of the largest, where it
    /// cannot change a rounded length or quotient). A largest magnitude
    /// below DBL_MIN is first multiplied by 2^600, so the exponent field
    /// is that of a normal number. Returns the scaled lanes, the factor
    /// and its inverse (exact powers of two, the inverse possibly the
    /// product of two).
    fn scale_f64(&mut self, x: &[Value]) -> (Vec<Value>, Value, Value) {
        let mut big = None;
        for &v in x {
            let a = self.b.ins().fabs(v);
            big = Some(match big {
                None => a,
                // fmax propagates a NaN, which then propagates anyway.
                Some(m) => self.b.ins().fmax(m, a),
            });
        }
        let big = big.unwrap_or_else(|| self.b.ins().f64const(0.0));
        let min_normal = self.b.ins().f64const(f64::MIN_POSITIVE);
        let tiny = self.b.ins().fcmp(FloatCC::LessThan, big, min_normal);
        let (up, down, one) = (
            self.b.ins().f64const(2f64.powi(600)),
            self.b.ins().f64const(2f64.powi(-600)),
            self.b.ins().f64const(1.0),
        );
        let pre = self.b.ins().select(tiny, up, one);
        let pre_inv = self.b.ins().select(tiny, down, one);
        let big = self.b.ins().fmul(big, pre);
        // The biased exponent, kept where both 2^-e and 2^e are normal.
        let bits = self.b.ins().bitcast(cl::I64, MemFlagsData::new(), big);
        let e = self.b.ins().ushr_imm_u(bits, 52);
        let e = self.b.ins().band_imm_u(e, 0x7ff);
        let lo = self.b.ins().iconst(cl::I64, 1);
        let hi = self.b.ins().iconst(cl::I64, 2045);
        let e = self.b.ins().smax(e, lo);
        let e = self.b.ins().smin(e, hi);
        let top = self.b.ins().iconst(cl::I64, 2046);
        let neg_e = self.b.ins().isub(top, e);
        let f_bits = self.b.ins().ishl_imm_u(neg_e, 52);
        let f = self.b.ins().bitcast(cl::F64, MemFlagsData::new(), f_bits);
        let inv_bits = self.b.ins().ishl_imm_u(e, 52);
        let inv = self.b.ins().bitcast(cl::F64, MemFlagsData::new(), inv_bits);
        let inv = self.b.ins().fmul(inv, pre_inv);
        let scaled = x
            .iter()
            .map(|&v| {
                let w = self.b.ins().fmul(v, pre);
                self.b.ins().fmul(w, f)
            })
            .collect();
        let f = self.b.ins().fmul(f, pre);
        (scaled, f, inv)
    }

    /// A float constant of type `t` (f32 or f64) with value `v`.
    fn fconst(&mut self, t: Clif, v: f64) -> Value {
        if t == cl::F64 {
            self.b.ins().f64const(v)
        } else {
            self.b.ins().f32const(v as f32)
        }
    }

    /// normalize's first steps on components `x` (scalars, or vectors of
    /// one type): where any component is infinite, the infinite ones
    /// become ±1 and the others ±0 (a NaN stays NaN), else each stays; and
    /// whether every component is zero (a mask for vectors). None for no
    /// components.
    pub(super) fn normalize_inputs(&mut self, x: &[Value]) -> Option<(Vec<Value>, Value)> {
        let t = self.b.func.dfg.value_type(*x.first()?);
        let zero = self.fconst_like(t, 0.0);
        let one = self.fconst_like(t, 1.0);
        let inf = self.fconst_like(t, f64::INFINITY);
        let mut any_inf = None;
        let mut all_zero = None;
        let mut is_inf = Vec::with_capacity(x.len());
        for &v in x {
            let av = self.b.ins().fabs(v);
            let i = self.b.ins().fcmp(FloatCC::Equal, av, inf);
            let z = self.b.ins().fcmp(FloatCC::Equal, v, zero);
            is_inf.push(i);
            any_inf = Some(match any_inf {
                None => i,
                Some(a) => self.b.ins().bor(a, i),
            });
            all_zero = Some(match all_zero {
                None => z,
                Some(a) => self.b.ins().band(a, z),
            });
        }
        let (any_inf, all_zero) = (any_inf?, all_zero?);
        let replaced = x
            .iter()
            .zip(&is_inf)
            .map(|(&v, &i)| {
                let unit = self.copysign_any(one, v);
                let other = self.b.ins().fmul(v, zero);
                let other = self.copysign_any(other, v);
                let repl = self.select_either(i, unit, other);
                self.select_either(any_inf, repl, v)
            })
            .collect();
        Some((replaced, all_zero))
    }

    /// normalize: zero vectors unchanged, infinite components first become
    /// ±1 and the others ±0 (a NaN stays NaN, which makes every component
    /// NaN), then each component over the length, in f64.
    fn ext_normalize(&mut self, ops: &Ops) -> R<Vec<Value>> {
        let x = ops.all(0)?.to_vec();
        let t = x.first().map_or(cl::F32, |&v| self.b.func.dfg.value_type(v));
        let (replaced, all_zero) = self.normalize_inputs(&x).ok_or("normalize of no components")?;
        let d: Vec<Value> = replaced
            .into_iter()
            .map(|v2| {
                if t == cl::F64 {
                    v2
                } else {
                    self.b.ins().fpromote(cl::F64, v2)
                }
            })
            .collect();
        if t == cl::F64 {
            // The quotients of the scaled lanes by their length: the
            // scale cancels.
            let (scaled, _, _) = self.scale_f64(&d);
            let l = self.sum_sq_sqrt(&scaled);
            let mut out = Vec::with_capacity(x.len());
            for (&v, &w) in x.iter().zip(&scaled) {
                let q = self.b.ins().fdiv(w, l);
                out.push(self.b.ins().select(all_zero, v, q));
            }
            return Ok(out);
        }
        let l = self.sum_sq_sqrt(&d);
        let mut out = Vec::with_capacity(x.len());
        for (&v, &w) in x.iter().zip(&d) {
            let q = self.b.ins().fdiv(w, l);
            let q = self.b.ins().fdemote(cl::F32, q);
            out.push(self.b.ins().select(all_zero, v, q));
        }
        Ok(out)
    }

    /// cross of 3- or 4-component vectors (the fourth component 0).
    fn ext_cross(&mut self, ops: &Ops) -> R<Vec<Value>> {
        let (a, b) = (ops.all(0)?.to_vec(), ops.all(1)?.to_vec());
        if a.len() < 3 || a.len() != b.len() || a.len() > 4 {
            return Err("cross takes two 3- or 4-component vectors".into());
        }
        let mut out = Vec::with_capacity(a.len());
        for (i, j) in [(1, 2), (2, 0), (0, 1)] {
            let p = self.b.ins().fmul(a[i], b[j]);
            let q = self.b.ins().fmul(a[j], b[i]);
            out.push(self.b.ins().fsub(p, q));
        }
        if a.len() == 4 {
            let t = self.b.func.dfg.value_type(a[0]);
            out.push(self.zero(t));
        }
        Ok(out)
    }

    /// shuffle(x, mask) and shuffle2(x, y, mask): component `i` of the
    /// result is component `mask[i]` of x (of x then y), counting only the
    /// low bits of the mask that can index it.
    fn ext_shuffle(&mut self, op: Cl, ops: &Ops) -> R<Vec<Value>> {
        let mut src = ops.all(0)?.to_vec();
        let mask_at = if op == Cl::shuffle2 {
            src.extend_from_slice(ops.all(1)?);
            2
        } else {
            1
        };
        let mask = ops.all(mask_at)?.to_vec();
        if mask.len() != ops.out.len() || src.is_empty() {
            return Err("the mask does not match the result".into());
        }
        let span = src.len().next_power_of_two();
        let mut out = Vec::with_capacity(mask.len());
        for &mk in &mask {
            let idx = self.b.ins().band_imm_u(mk, span as i64 - 1);
            let mut r = src[0];
            for (j, &s) in src.iter().enumerate().skip(1) {
                let hit = self.b.ins().icmp_imm_u(IntCC::Equal, idx, j as i64);
                r = self.b.ins().select(hit, s, r);
            }
            out.push(r);
        }
        Ok(out)
    }

    /// The byte address `p + offset * stride` (offset a size_t).
    fn ext_addr(&mut self, p: Value, offset: Value, stride: u64) -> Value {
        let off = self.zext_i64(offset);
        let scaled = self.b.ins().imul_imm_u(off, stride as i64);
        self.b.ins().iadd(p, scaled)
    }

    /// vloadn, vload_half, vload_halfn, vloada_halfn.
    fn ext_load(&mut self, info: &OpInfo, n_lit: Option<u32>, ops: &Ops) -> R<Vec<Value>> {
        let n = ops.out.len();
        if info.op == Cl::vload_half && n != 1 {
            return Err("vload_half returns a scalar".into());
        }
        if info.op != Cl::vload_half && n_lit.is_some_and(|l| l as usize != n) {
            return Err("the component count differs from the result's".into());
        }
        let (offset, p) = (ops.lane(0, 0)?, ops.lane(1, 0)?);
        let flags = MemFlagsData::new();
        let mut v = Vec::with_capacity(n);
        if info.op == Cl::vloadn && ops.half {
            let base = self.ext_addr(p, offset, 2 * n as u64);
            for k in 0..n {
                v.push(half::load(self.b, flags, base, (2 * k) as i32));
            }
            return Ok(v);
        }
        if info.op == Cl::vloadn {
            let t = *ops.out.first().ok_or("empty result")?;
            let size = u64::from(t.bytes());
            let base = self.ext_addr(p, offset, size * n as u64);
            for k in 0..n {
                v.push(self.b.ins().load(t, flags, base, (k as u64 * size) as i32));
            }
            return Ok(v);
        }
        let slots = if info.op == Cl::vloada_halfn && n == 3 { 4 } else { n };
        let h = info.host_fn(Scalar::F32, "").ok_or("no half conversion")?;
        let base = self.ext_addr(p, offset, 2 * slots as u64);
        for k in 0..n {
            let bits = self.b.ins().uload16(cl::I32, flags, base, (2 * k) as i32);
            let r = self.call_host(h.func.addr(), &[cl::I32], &[cl::F32], &[bits]);
            v.push(*r.first().ok_or("the host function returned nothing")?);
        }
        Ok(v)
    }

    /// vstoren and the vstore_half family.
    fn ext_store(&mut self, info: &OpInfo, mode: Option<FPRoundingMode>, ops: &Ops) -> R {
        let data = ops.all(0)?.to_vec();
        let n = data.len();
        let (offset, p) = (ops.lane(1, 0)?, ops.lane(2, 0)?);
        let flags = MemFlagsData::new();
        if info.op == Cl::vstoren && ops.half {
            let base = self.ext_addr(p, offset, 2 * n as u64);
            for (k, &d) in data.iter().enumerate() {
                half::store(self.b, flags, d, base, (2 * k) as i32);
            }
            return Ok(());
        }
        if info.op == Cl::vstoren {
            let t = self.b.func.dfg.value_type(*data.first().ok_or("no data")?);
            let size = u64::from(t.bytes());
            let base = self.ext_addr(p, offset, size * n as u64);
            for (k, &d) in data.iter().enumerate() {
                self.b.ins().store(flags, d, base, (k as u64 * size) as i32);
            }
            return Ok(());
        }
        if matches!(info.op, Cl::vstore_half | Cl::vstore_half_r) && n != 1 {
            return Err(format!("OpenCL.std {} stores a scalar", info.name));
        }
        let slots = if matches!(info.op, Cl::vstorea_halfn | Cl::vstorea_halfn_r) && n == 3 {
            4
        } else {
            n
        };
        let tag = mode.map_or("rte", rounding_tag);
        let dt = self.b.func.dfg.value_type(*data.first().ok_or("no data")?);
        let st = if dt == cl::F64 { Scalar::F64 } else { Scalar::F32 };
        let h = info
            .host_fn(st, tag)
            .ok_or_else(|| format!("OpenCL.std {}: no conversion for rounding mode {tag}", info.name))?;
        let base = self.ext_addr(p, offset, 2 * slots as u64);
        for (k, &d) in data.iter().enumerate() {
            let r = self.call_host(h.func.addr(), &[dt], &[cl::I32], &[d]);
            let bits = *r.first().ok_or("the host function returned nothing")?;
            self.b.ins().istore16(flags, bits, base, (2 * k) as i32);
        }
        Ok(())
    }
}

impl Lowering<'_, '_, '_> {
    /// printf: packs the arguments and calls the host function, whose `int`
    /// result (0 or -1) is printf's.
    fn ext_printf(&mut self, info: &OpInfo, ops: &Ops) -> R<Value> {
        let m = self.m;
        let h = info.host_fn(Scalar::Any, "").ok_or("no host function")?;
        let fmt = ops.lane(0, 0)?;
        let fmt_bound = self.constant_bytes(ops.ids[0], fmt).ok_or(
            "printf's format must be a string literal in the constant address space (an address known when the \
             program is built)",
        )?;
        let mut words = Vec::new();
        for j in 1..ops.vals.len() {
            let id = ops.ids[j].ok_or("a printf argument is not a value")?;
            let ty = self.type_of(id);
            let (scalar, count) = match m.ty(ty) {
                Some(Type::Vector { component, count }) => (*component, u64::from(*count)),
                _ => (ty, 1),
            };
            let vals = ops.all(j)?.to_vec();
            let desc = match m.ty(scalar) {
                Some(Type::Int { width, .. }) => descriptor(KIND_INT, u64::from(*width / 8), count, 0),
                Some(Type::Bool) => descriptor(KIND_INT, 1, count, 0),
                Some(Type::Float { width }) => descriptor(KIND_FLOAT, u64::from(*width / 8), count, 0),
                Some(Type::Pointer { .. }) if count == 1 => {
                    match vals.first().and_then(|&v| self.constant_bytes(Some(id), v)) {
                        Some(bound) => descriptor(KIND_STR, 8, 1, bound),
                        None => descriptor(KIND_PTR, 8, 1, 0),
                    }
                }
                _ => {
                    return Err(format!(
                        "a printf argument of type {} is not supported",
                        m.show_type(ty)
                    ))
                }
            };
            if vals.len() as u64 != count {
                return Err("a printf argument's components do not match its type".into());
            }
            words.push(self.b.ins().iconst(cl::I64, desc as i64));
            let half = matches!(m.ty(scalar), Some(Type::Float { width: 16 }));
            for v in vals {
                // A half travels as its 16-bit encoding.
                let v = if half {
                    let h = half::to_bits(self.b, v);
                    self.b.ins().uextend(cl::I64, h)
                } else {
                    v
                };
                words.push(self.word64(v));
            }
        }
        let size = 8 * words.len().max(1) as u64;
        self.take_stack(size)?;
        let slot = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            u32::try_from(size).map_err(|_| "too many printf arguments")?,
            3,
        ));
        for (k, &w) in words.iter().enumerate() {
            self.b.ins().stack_store(cl::I64, w, slot, (8 * k) as i32);
        }
        let args = self.b.ins().stack_addr(cl::I64, slot, 0);
        let sink = self.ctx_word(ctx_offset::PRINTF);
        let bound = self.b.ins().iconst(cl::I64, fmt_bound as i64);
        let n = self.b.ins().iconst(cl::I64, words.len() as i64);
        let r = self.call_host(h.func.addr(), &[cl::I64; 5], &[cl::I32], &[sink, fmt, bound, args, n]);
        r.first()
            .copied()
            .ok_or_else(|| "the host function returned nothing".into())
    }

    /// `v`'s bits as an `i64` (integers zero-extended, floats bitcast).
    fn word64(&mut self, v: Value) -> Value {
        let t = self.b.func.dfg.value_type(v);
        let v = match t {
            cl::F32 => self.b.ins().bitcast(cl::I32, MemFlagsData::new(), v),
            cl::F64 => self.b.ins().bitcast(cl::I64, MemFlagsData::new(), v),
            _ => v,
        };
        if self.b.func.dfg.value_type(v) == cl::I64 {
            v
        } else {
            self.b.ins().uextend(cl::I64, v)
        }
    }

    /// If value `v` of id `id` is an address known at build inside an
    /// initialized `__constant` program-scope variable (a string literal),
    /// the bytes from it to the end of the variable. The address is found
    /// from the SPIR-V (constant access chains and casts over the variable,
    /// which holds even where the value itself was kept across a barrier),
    /// else from the Cranelift value (a constant the caller passed to an
    /// inlined function's parameter).
    fn constant_bytes(&self, id: Option<Id>, v: Value) -> Option<u64> {
        let addr = id
            .and_then(|id| self.spirv_address(id))
            .or_else(|| self.const_value(v, 0))?;
        self.m.globals.iter().find_map(|g| {
            if g.storage != StorageClass::UniformConstant || g.init.is_none() {
                return None;
            }
            let start = *self.env.statics.global_addresses.get(&g.id)?;
            let (_, pointee) = self.m.pointer(g.ty)?;
            let size = self.m.layout(pointee)?.size;
            let end = start.checked_add(size)?;
            (start <= addr && addr < end).then(|| end - addr)
        })
    }

    /// The address id `id` holds if it is a chain of constant access chains
    /// and pointer casts over a program-scope variable.
    fn spirv_address(&self, id: Id) -> Option<u64> {
        let m = self.m;
        let mut cur = id;
        let mut off = 0u64;
        for _ in 0..64 {
            match m.kind(cur) {
                IdKind::Global => return Some(self.env.statics.global_addresses.get(&cur)?.wrapping_add(off)),
                IdKind::Constant => {
                    let (Root::Variable(g), o) = crate::globals::pointer_parts(m, cur).ok()? else {
                        return None;
                    };
                    return Some(
                        self.env
                            .statics
                            .global_addresses
                            .get(&g)?
                            .wrapping_add(o)
                            .wrapping_add(off),
                    );
                }
                _ => {}
            }
            let inst = m.def(cur)?;
            match inst.op {
                Op::AccessChain | Op::InBoundsAccessChain | Op::PtrAccessChain | Op::InBoundsPtrAccessChain => {
                    let base = inst.id(0)?;
                    let idx = (1..inst.operands.len())
                        .map(|k| inst.id(k).and_then(|x| crate::globals::const_index(m, x).ok()))
                        .collect::<Option<Vec<i64>>>()?;
                    let ptr_chain = matches!(inst.op, Op::PtrAccessChain | Op::InBoundsPtrAccessChain);
                    let step = crate::globals::chain_offset(m, m.type_of(base)?, &idx, ptr_chain).ok()?;
                    off = off.wrapping_add(step);
                    cur = base;
                }
                Op::Bitcast | Op::PtrCastToGeneric | Op::GenericCastToPtr | Op::CopyObject => cur = inst.id(0)?,
                _ => return None,
            }
        }
        None
    }

    /// The value of `v` if the instructions defining it are integer
    /// constants and additions of them (how addresses of program-scope
    /// variables and constant access chains into them are lowered).
    fn const_value(&self, v: Value, depth: u32) -> Option<u64> {
        let dfg = &self.b.func.dfg;
        let mut v = dfg.resolve_aliases(v);
        let mut add = 0u64;
        for _ in 0..64 {
            let ValueDef::Result(inst, 0) = dfg.value_def(v) else {
                return None;
            };
            match dfg.insts[inst] {
                InstructionData::UnaryImm {
                    opcode: Opcode::Iconst,
                    imm,
                } => return Some(add.wrapping_add(imm.bits() as u64)),
                InstructionData::Binary {
                    opcode: Opcode::Iadd,
                    args: [a, b],
                } if depth < 8 => {
                    add = add.wrapping_add(self.const_value(b, depth + 1)?);
                    v = dfg.resolve_aliases(a);
                }
                _ => return None,
            }
        }
        None
    }
}

/// Whether [`Lowering::lanewise`] computes OpenCL.std instruction `op`
/// for every type it takes (`degrees` and `radians` only for doubles:
/// those of floats compute in double).
pub(super) fn lanewise_op(op: Cl) -> bool {
    matches!(
        op,
        Cl::copysign
            | Cl::sqrt
            | Cl::half_sqrt
            | Cl::native_sqrt
            | Cl::maxmag
            | Cl::minmag
            | Cl::half_divide
            | Cl::native_divide
            | Cl::half_recip
            | Cl::native_recip
            | Cl::mix
            | Cl::step
            | Cl::smoothstep
            | Cl::sign
            | Cl::select
            | Cl::bitselect
            | Cl::s_abs_diff
            | Cl::u_abs_diff
            | Cl::u_add_sat
            | Cl::u_sub_sat
            | Cl::s_add_sat
            | Cl::s_sub_sat
            | Cl::s_hadd
            | Cl::u_hadd
            | Cl::s_rhadd
            | Cl::u_rhadd
    )
}

/// A vector of 8- or 16-bit integer lanes: x86 has saturating adds and
/// subtractions and a rounding average for them.
fn narrow_vector(t: Clif) -> bool {
    t.is_vector() && t.lane_type().is_int() && t.lane_bits() <= 16
}
