//! Images and samplers in kernels: OpSampledImage, OpImageSampleExplicitLod,
//! OpImageRead, OpImageWrite, the size, order and format queries, and
//! OpConstantSampler.
//!
//! An image value is the address of the image's
//! [`ImageDesc`](clift_builtins::image::ImageDesc) (the runtime passes it
//! as the kernel argument); a sampler value is OpenCL C's `sampler_t` bits
//! ([`clift_builtins::image::sampler`]), from the runtime's sampler object
//! or from an OpConstantSampler; a sampled image is the pair. Reads,
//! samples and writes call `clift_image_read` / `clift_image_write`, which
//! convert between the image's format and four 32-bit words (floats, or
//! integers for the integer formats); the queries read the descriptor's
//! fields inline.

use std::mem::offset_of;

use clift_builtins::image::{self as img, ImageDesc};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types as cl, BlockArg, Endianness, InstBuilder, InstructionData, MemFlagsData, Opcode, StackSlotData,
    StackSlotKind, Value,
};
use rspirv::dr::Operand;
use spirv::{Dim, Op, SamplerAddressingMode, SamplerFilterMode};

use super::{Lowering, R};
use crate::spirv::{Id, ImageType, Type};

/// The first channel order and data type of `cl.h`: SPIR-V numbers both
/// enums in the same order from 0 (OpImageQueryOrder and
/// OpImageQueryFormat return those numbers).
const FIRST_ORDER: i64 = img::order::R as i64;
const FIRST_DATA_TYPE: i64 = img::data_type::SNORM_INT8 as i64;
const _: () = assert!(
    img::order::ABGR - img::order::R == 19 && img::data_type::UNORM_INT_101010_2 - img::data_type::SNORM_INT8 == 16
);

impl Lowering<'_, '_, '_> {
    /// Lowers image instruction `i`.
    pub(super) fn image(&mut self, i: u32) -> R {
        let inst = self.at(i);
        match inst.op {
            Op::SampledImage => {
                let image = self.get1(inst.operand(0))?;
                let sampler = self.get1(inst.operand(1))?;
                self.values.insert(inst.result_id(), vec![image, sampler]);
                Ok(())
            }
            Op::ImageSampleExplicitLod => {
                let pair = self.get(inst.operand(0))?;
                let [image, sampler] = pair[..] else {
                    return Err("a sampled image is an image and a sampler".into());
                };
                let t = self.sampled_image_type(inst.operand(0))?;
                self.read(i, &t, image, Some(sampler))
            }
            Op::ImageRead => {
                let image = self.get1(inst.operand(0))?;
                let t = self.image_type(inst.operand(0))?;
                self.read(i, &t, image, None)
            }
            Op::ImageWrite => self.write(i),
            Op::ImageQuerySizeLod | Op::ImageQuerySize => {
                let image = self.get1(inst.operand(0))?;
                let t = self.image_type(inst.operand(0))?;
                let fields: Vec<usize> = match (t.dim, t.arrayed) {
                    (Dim::Dim1D | Dim::DimBuffer, false) => vec![offset_of!(ImageDesc, width)],
                    (Dim::Dim1D, true) => vec![offset_of!(ImageDesc, width), offset_of!(ImageDesc, array_size)],
                    (Dim::Dim2D, false) => vec![offset_of!(ImageDesc, width), offset_of!(ImageDesc, height)],
                    (Dim::Dim2D, true) => vec![
                        offset_of!(ImageDesc, width),
                        offset_of!(ImageDesc, height),
                        offset_of!(ImageDesc, array_size),
                    ],
                    _ => vec![
                        offset_of!(ImageDesc, width),
                        offset_of!(ImageDesc, height),
                        offset_of!(ImageDesc, depth),
                    ],
                };
                let comps = super::types::components(self.m, inst.result_type())?;
                if comps.len() != fields.len() {
                    return Err("the size query's result does not fit the image".into());
                }
                let flags = MemFlagsData::trusted().with_readonly();
                let v = fields
                    .iter()
                    .zip(comps)
                    .map(|(&off, t)| {
                        let x = self.b.ins().load(cl::I64, flags, image, off as i32);
                        if t == cl::I64 {
                            x
                        } else {
                            self.b.ins().ireduce(t, x)
                        }
                    })
                    .collect();
                self.values.insert(inst.result_id(), v);
                Ok(())
            }
            Op::ImageQueryOrder | Op::ImageQueryFormat => {
                let image = self.get1(inst.operand(0))?;
                let (off, first) = if inst.op == Op::ImageQueryOrder {
                    (
                        offset_of!(ImageDesc, format) + offset_of!(img::Format, order),
                        FIRST_ORDER,
                    )
                } else {
                    (
                        offset_of!(ImageDesc, format) + offset_of!(img::Format, data_type),
                        FIRST_DATA_TYPE,
                    )
                };
                let flags = MemFlagsData::trusted().with_readonly();
                let x = self.b.ins().load(cl::I32, flags, image, off as i32);
                let x = self.b.ins().iadd_imm_s(x, -first);
                let t = super::types::scalar(self.m, inst.result_type())?;
                let x = match t.bits().cmp(&32) {
                    std::cmp::Ordering::Equal => x,
                    std::cmp::Ordering::Less => self.b.ins().ireduce(t, x),
                    std::cmp::Ordering::Greater => self.b.ins().uextend(t, x),
                };
                self.values.insert(inst.result_id(), vec![x]);
                Ok(())
            }
            op => Err(format!("{op:?} is not an image instruction clift lowers")),
        }
    }

    /// The image type of value `id`.
    pub(super) fn image_type(&self, id: Id) -> R<ImageType> {
        match self.m.ty(self.type_of(id)) {
            Some(Type::Image(t)) => Ok(*t),
            _ => Err(format!("{} is not an image", self.m.show(id))),
        }
    }

    /// The image type of sampled image value `id`.
    pub(super) fn sampled_image_type(&self, id: Id) -> R<ImageType> {
        match self.m.ty(self.type_of(id)) {
            Some(Type::SampledImage { image }) => match self.m.ty(*image) {
                Some(Type::Image(t)) => Ok(*t),
                _ => Err("a sampled image of something other than an image".into()),
            },
            _ => Err(format!("{} is not a sampled image", self.m.show(id))),
        }
    }

    /// A 16-byte stack slot's address.
    pub(super) fn words_slot(&mut self) -> Value {
        let slot = self
            .b
            .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 16, 4));
        self.b.ins().stack_addr(cl::I64, slot, 0)
    }

    /// Stores coordinates `xs` of image `t` (the image's number of them,
    /// the others 0) as four words at a new stack slot: its address, and
    /// whether they are floats.
    fn coordinates(&mut self, t: &ImageType, xs: &[Value]) -> (Value, bool) {
        let n = crate::validate::images::coordinates(t).min(xs.len());
        let floats = xs.first().is_some_and(|&x| self.b.func.dfg.value_type(x) == cl::F32);
        let at = self.words_slot();
        let flags = MemFlagsData::trusted();
        for k in 0..4 {
            let v = match xs.get(k) {
                Some(&x) if k < n => x,
                _ => self.b.ins().iconst(cl::I32, 0),
            };
            self.b.ins().store(flags, v, at, 4 * k as i32);
        }
        (at, floats)
    }

    /// OpImageSampleExplicitLod (with `sampler`) or OpImageRead (without):
    /// the texel at the coordinates, as the result type's four components
    /// (one for a depth image read as a float). Inline code for the
    /// [`img::fast`] classes when the sampler is known and its addressing
    /// clamps (see [`Lookup`]), else (and for every other format) the
    /// helper.
    fn read(&mut self, i: u32, t: &ImageType, image: Value, sampler: Option<Value>) -> R {
        let inst = self.at(i);
        let ReadKind { kind, half, word, n } = self.read_kind(inst.result_type());
        let xs = self.get(inst.operand(1))?;
        let types: Vec<cl::Type> = xs.iter().map(|&x| self.b.func.dfg.value_type(x)).collect();
        let words = match self.plan(sampler, &types, t, kind) {
            Some(plan) => self.sampled(
                plan,
                kind,
                word,
                |l, lookup| {
                    let taps = l.taps(t, image, &xs, lookup);
                    l.dispatch(
                        image,
                        kind,
                        word,
                        |l, class| {
                            let mut terms = Vec::with_capacity(taps.len());
                            for tap in &taps {
                                let texel = l.fast_read(class, tap.at, word)?;
                                terms.push((l.with_border(class, texel, tap.border, None), tap.weight));
                            }
                            Ok(l.filter(terms, None))
                        },
                        |l| Ok(l.read_helper(t, image, sampler, kind, word, &xs)),
                    )
                },
                |l| l.read_helper(t, image, sampler, kind, word, &xs),
            )?,
            None => self.read_helper(t, image, sampler, kind, word, &xs),
        };
        let v = words[..n]
            .iter()
            .map(|&x| if half { super::half::round_rte(self.b, x) } else { x })
            .collect();
        self.values.insert(inst.result_id(), v);
        Ok(())
    }

    /// What a read whose result is of type `rt` returns.
    pub(super) fn read_kind(&self, rt: Id) -> ReadKind {
        let (comp, n) = self.m.scalar_of(rt).unwrap_or((rt, 1));
        let (kind, half, word) = match self.m.ty(comp) {
            Some(Type::Float { width: 16 }) => (img::kind::FLOAT, true, cl::F32),
            Some(Type::Float { .. }) => (img::kind::FLOAT, false, cl::F32),
            _ => (img::kind::INT, false, cl::I32),
        };
        ReadKind {
            kind,
            half,
            word,
            n: (n as usize).min(4),
        }
    }

    /// Whether integer coordinates `xs` are inside image `t` along every
    /// axis, layer included (a negative coordinate is a huge unsigned one):
    /// an `i8` boolean.
    pub(super) fn inside(&mut self, t: &ImageType, image: Value, xs: &[Value]) -> R<Value> {
        let mut inside = None;
        for (a, &x) in axes(t).iter().zip(xs) {
            let x = self.b.ins().sextend(cl::I64, x);
            let size = self.desc_field(image, a.size);
            let ok = self.b.ins().icmp(IntCC::UnsignedLessThan, x, size);
            inside = Some(match inside {
                Some(all) => self.b.ins().band(all, ok),
                None => ok,
            });
        }
        inside.ok_or_else(|| "an image without coordinates".into())
    }

    /// The helper's read of the texel at coordinates `xs`: four words.
    pub(super) fn read_helper(
        &mut self,
        t: &ImageType,
        image: Value,
        sampler: Option<Value>,
        kind: u32,
        word: cl::Type,
        xs: &[Value],
    ) -> Vec<Value> {
        let (coords, floats) = self.coordinates(t, xs);
        let sampler = match sampler {
            Some(s) => self.b.ins().ireduce(cl::I32, s),
            None => self.b.ins().iconst(cl::I32, i64::from(img::sampler::NONE)),
        };
        let out = self.words_slot();
        let floats = self.b.ins().iconst(cl::I32, i64::from(floats));
        let kind = self.b.ins().iconst(cl::I32, i64::from(kind));
        let helper = img::clift_image_read as unsafe extern "C" fn(_, _, _, _, _, _) as usize;
        self.call_host(
            helper,
            &[cl::I64, cl::I32, cl::I32, cl::I32, cl::I64, cl::I64],
            &[],
            &[image, sampler, floats, kind, coords, out],
        );
        let flags = MemFlagsData::trusted();
        (0..4).map(|k| self.b.ins().load(word, flags, out, 4 * k)).collect()
    }

    /// OpImageWrite: the texel converted to the image's format at integer
    /// coordinates; inline code for the [`img::fast`] classes, else the
    /// helper.
    fn write(&mut self, i: u32) -> R {
        let inst = self.at(i);
        let image = self.get1(inst.operand(0))?;
        let t = self.image_type(inst.operand(0))?;
        let xs = self.get(inst.operand(1))?;
        let mut texel = self.get(inst.operand(2))?;
        let floats = texel.first().is_some_and(|&x| self.b.func.dfg.value_type(x) == cl::F32);
        let (kind, word) = if floats {
            (img::kind::FLOAT, cl::F32)
        } else {
            (img::kind::INT, cl::I32)
        };
        while texel.len() < 4 {
            let zero = if floats {
                self.b.ins().f32const(0.0)
            } else {
                self.b.ins().iconst(cl::I32, 0)
            };
            texel.push(zero);
        }
        let n = crate::validate::images::coordinates(&t);
        let typed = |l: &Self, v: &[Value], t: cl::Type| v.iter().all(|&x| l.b.func.dfg.value_type(x) == t);
        if xs.len() < n || !typed(self, &xs[..n], cl::I32) || !typed(self, &texel[..4], word) {
            self.write_helper(&t, image, kind, &xs, &texel);
            return Ok(());
        }
        // Outside the image nothing is written.
        let inside = self.inside(&t, image, &xs)?;
        let (write, done) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(inside, write, &[], done, &[]);
        self.b.switch_to_block(write);
        let at = self.taps(&t, image, &xs, Lookup::Int { border: false })[0].at;
        let texel4 = [texel[0], texel[1], texel[2], texel[3]];
        self.dispatch(
            image,
            kind,
            word,
            |l, class| {
                l.fast_write(class, at, texel4);
                Ok(vec![])
            },
            |l| {
                l.write_helper(&t, image, kind, &xs, &texel4);
                Ok(vec![])
            },
        )?;
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        Ok(())
    }

    /// The helper's write of `texel` (four words of `kind`) at coordinates
    /// `xs`.
    pub(super) fn write_helper(&mut self, t: &ImageType, image: Value, kind: u32, xs: &[Value], texel: &[Value]) {
        let (coords, _) = self.coordinates(t, xs);
        let value = self.words_slot();
        let flags = MemFlagsData::trusted();
        for (k, &v) in texel.iter().take(4).enumerate() {
            self.b.ins().store(flags, v, value, 4 * k as i32);
        }
        let kind = self.b.ins().iconst(cl::I32, i64::from(kind));
        let helper = img::clift_image_write as unsafe extern "C" fn(_, _, _, _) as usize;
        self.call_host(
            helper,
            &[cl::I64, cl::I32, cl::I64, cl::I64],
            &[],
            &[image, kind, coords, value],
        );
    }

    /// How a read of `kind` with `sampler` (none: a sampler-less read) and
    /// coordinates of types `types` finds its texels inline, if it can: the
    /// coordinates are `i32` or `f32`, one per axis of image `t`; a
    /// constant sampler must have a mode [`Lookup`] takes, any other is
    /// tested at run time.
    pub(super) fn plan(
        &mut self,
        sampler: Option<Value>,
        types: &[cl::Type],
        t: &ImageType,
        kind: u32,
    ) -> Option<Plan> {
        let n = crate::validate::images::coordinates(t);
        let floats = types.first() == Some(&cl::F32);
        let want = if floats { cl::F32 } else { cl::I32 };
        if types.len() < n || types[..n].iter().any(|&x| x != want) {
            return None;
        }
        let bits = match sampler {
            None => img::sampler::NONE,
            Some(s) => match self.constant_bits(s) {
                Some(bits) => bits,
                None => {
                    let bits = self.b.ins().ireduce(cl::I32, s);
                    return Some(Plan::Dynamic { bits, floats });
                }
            },
        };
        let mode = match bits & img::sampler::ADDRESS_MASK {
            img::sampler::ADDRESS_CLAMP => Address::Border,
            img::sampler::ADDRESS_REPEAT => Address::Repeat,
            img::sampler::ADDRESS_MIRRORED_REPEAT => Address::Mirror,
            // NONE, CLAMP_TO_EDGE, and bits naming no mode (as NONE).
            _ => Address::Clamp,
        };
        if !floats {
            // Integer coordinates ignore the filter and normalization; the
            // repeating modes wrap them, which stays the helper's.
            return match mode {
                Address::Clamp => Some(Plan::Known(Lookup::Int { border: false })),
                Address::Border => Some(Plan::Known(Lookup::Int { border: true })),
                _ => None,
            };
        }
        Some(Plan::Known(Lookup::Float {
            mode,
            normalized: Flag::Known(bits & img::sampler::NORMALIZED_COORDS_TRUE != 0),
            linear: bits & img::sampler::FILTER_LINEAR != 0 && kind == img::kind::FLOAT,
        }))
    }

    /// A read by `plan`: `inline(lookup)` where inline code takes it (for a
    /// run-time sampler, after testing its bits: every addressing mode for
    /// float coordinates, NONE, CLAMP_TO_EDGE and CLAMP for integer ones
    /// (the helper wraps integer coordinates for the repeating modes), any
    /// other mode's bits as NONE; then the filter), else `helper()`;
    /// results of type `word` (scalars or vectors) joined.
    pub(super) fn sampled(
        &mut self,
        plan: Plan,
        kind: u32,
        word: cl::Type,
        mut inline: impl FnMut(&mut Self, Lookup) -> R<Vec<Value>>,
        helper: impl FnOnce(&mut Self) -> Vec<Value>,
    ) -> R<Vec<Value>> {
        let (bits, floats) = match plan {
            Plan::Known(lookup) => return inline(self, lookup),
            Plan::Dynamic { bits, floats } => (bits, floats),
        };
        let mode = self.b.ins().band_imm_u(bits, i64::from(img::sampler::ADDRESS_MASK));
        let is = |l: &mut Self, m: u32| l.b.ins().icmp_imm_u(IntCC::Equal, mode, i64::from(m));
        let ok = if floats {
            self.b.ins().iconst(cl::I8, 1)
        } else {
            let r = is(self, img::sampler::ADDRESS_REPEAT);
            let m = is(self, img::sampler::ADDRESS_MIRRORED_REPEAT);
            let either = self.b.ins().bor(r, m);
            self.b.ins().bxor_imm_u(either, 1)
        };
        let (go, other, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let params: Vec<Value> = (0..4).map(|_| self.b.append_block_param(join, word)).collect();
        let jump = |l: &mut Self, v: &[Value]| {
            let args: Vec<BlockArg> = v.iter().map(|&x| BlockArg::Value(x)).collect();
            l.b.ins().jump(join, &args);
        };
        self.b.ins().brif(ok, go, &[], other, &[]);
        self.b.switch_to_block(go);
        if !floats {
            let border = is(self, img::sampler::ADDRESS_CLAMP);
            let (clamp, edge) = (self.b.create_block(), self.b.create_block());
            self.b.ins().brif(border, clamp, &[], edge, &[]);
            self.b.switch_to_block(clamp);
            let v = inline(self, Lookup::Int { border: true })?;
            jump(self, &v);
            self.b.switch_to_block(edge);
            let v = inline(self, Lookup::Int { border: false })?;
            jump(self, &v);
        } else {
            // A branch per filter and addressing mode (taken the same way
            // for the whole kernel run: predicted); the flag a select.
            let norm = self
                .b
                .ins()
                .band_imm_u(bits, i64::from(img::sampler::NORMALIZED_COORDS_TRUE));
            let norm = self.b.ins().icmp_imm_u(IntCC::NotEqual, norm, 0);
            let filters: &[bool] = if kind == img::kind::FLOAT {
                &[true, false]
            } else {
                &[false]
            };
            let lin = self.b.ins().band_imm_u(bits, i64::from(img::sampler::FILTER_LINEAR));
            for (f, &linear) in filters.iter().enumerate() {
                let other_filter = (f + 1 < filters.len()).then(|| self.b.create_block());
                if let Some(other_filter) = other_filter {
                    let this = self.b.create_block();
                    self.b.ins().brif(lin, this, &[], other_filter, &[]);
                    self.b.switch_to_block(this);
                }
                let modes = [
                    (Some(img::sampler::ADDRESS_REPEAT), Address::Repeat),
                    (Some(img::sampler::ADDRESS_MIRRORED_REPEAT), Address::Mirror),
                    (Some(img::sampler::ADDRESS_CLAMP), Address::Border),
                    (None, Address::Clamp),
                ];
                for (m, address) in modes {
                    if let Some(m) = m {
                        let (this, other_mode) = (self.b.create_block(), self.b.create_block());
                        let is = self.b.ins().icmp_imm_u(IntCC::Equal, mode, i64::from(m));
                        self.b.ins().brif(is, this, &[], other_mode, &[]);
                        self.b.switch_to_block(this);
                        let v = inline(self, float(address, norm, linear))?;
                        jump(self, &v);
                        self.b.switch_to_block(other_mode);
                    } else {
                        let v = inline(self, float(address, norm, linear))?;
                        jump(self, &v);
                    }
                }
                if let Some(other_filter) = other_filter {
                    self.b.switch_to_block(other_filter);
                }
            }
        }
        self.b.switch_to_block(other);
        let v = helper(self);
        jump(self, &v);
        self.b.switch_to_block(join);
        Ok(params)
    }

    /// The sampler bits value `v` holds if an `iconst` defines it (through
    /// an `ireduce` or an extension): a literal sampler.
    fn constant_bits(&self, v: Value) -> Option<u32> {
        let dfg = &self.b.func.dfg;
        let mut v = dfg.resolve_aliases(v);
        for _ in 0..4 {
            let inst = dfg.value_def(v).inst()?;
            match dfg.insts[inst] {
                InstructionData::UnaryImm {
                    opcode: Opcode::Iconst,
                    imm,
                } => return u32::try_from(imm.bits() & 0xffff_ffff).ok(),
                InstructionData::Unary {
                    opcode: Opcode::Ireduce | Opcode::Uextend | Opcode::Sextend,
                    arg,
                } => v = dfg.resolve_aliases(arg),
                _ => return None,
            }
        }
        None
    }

    /// The descriptor's 64-bit field at byte offset `off`.
    pub(super) fn desc_field(&mut self, image: Value, off: usize) -> Value {
        let flags = MemFlagsData::trusted().with_readonly();
        self.b.ins().load(cl::I64, flags, image, off as i32)
    }

    /// The texels the coordinates `xs` select with `lookup` (see
    /// [`Lookup`]): one, or the 2, 4 or 8 of a linear filter with their
    /// weights, x's index varying fastest (the order of the spec's sums
    /// and of the helper's).
    pub(super) fn taps(&mut self, t: &ImageType, image: Value, xs: &[Value], lookup: Lookup) -> Vec<Tap> {
        // Per axis: each choice's index (x) or byte offset (the others),
        // with its weight along the axis if filtered.
        let mut choices: Vec<(bool, Vec<Pick>)> = Vec::new();
        for (a, &x) in axes(t).iter().zip(xs) {
            let size = self.desc_field(image, a.size);
            let picks: Vec<Pick> = match lookup {
                // An array's layer is clamped, whatever the mode.
                Lookup::Int { border } => {
                    let i = self.b.ins().sextend(cl::I64, x);
                    let out = (border && !a.layer).then(|| self.outside(i, size));
                    vec![(self.clamp_index(i, size), None, out)]
                }
                // The layer: clamp(rint(w), 0, size - 1).
                Lookup::Float { .. } if a.layer => {
                    let r = self.b.ins().nearest(x);
                    let i = self.b.ins().fcvt_to_sint_sat(cl::I64, r);
                    vec![(self.clamp_index(i, size), None, None)]
                }
                Lookup::Float {
                    mode,
                    normalized,
                    linear: false,
                } => {
                    let (i, out) = self.nearest_index(mode, normalized, x, size);
                    vec![(i, None, out)]
                }
                Lookup::Float {
                    mode,
                    normalized,
                    linear: true,
                } => {
                    let ((i0, out0), (i1, out1), frac) = self.linear_indices(mode, normalized, x, size);
                    let one = self.b.ins().f32const(1.0);
                    let w0 = self.b.ins().fsub(one, frac);
                    vec![(i0, Some(w0), out0), (i1, Some(frac), out1)]
                }
            };
            let picks = match a.pitch {
                None => picks,
                Some(p) => {
                    let pitch = self.desc_field(image, p);
                    picks
                        .into_iter()
                        .map(|(i, w, out)| (self.b.ins().imul(i, pitch), w, out))
                        .collect()
                }
            };
            choices.push((a.pitch.is_none(), picks));
        }
        let data = self.desc_field(image, offset_of!(ImageDesc, data));
        let corners: usize = choices.iter().map(|(_, p)| p.len()).product();
        let mut taps = Vec::with_capacity(corners);
        let zero = self.b.ins().iconst(cl::I64, 0);
        for corner in 0..corners {
            let (mut x, mut row, mut weight, mut border) = (zero, data, None, None);
            let mut rest = corner;
            for (is_x, picks) in &choices {
                let (v, w, out) = picks[rest % picks.len()];
                if let Some(out) = out {
                    border = Some(match border {
                        Some(b) => self.b.ins().bor(b, out),
                        None => out,
                    });
                }
                rest /= picks.len();
                if *is_x {
                    x = v;
                } else {
                    row = self.b.ins().iadd(row, v);
                }
                if let Some(w) = w {
                    weight = Some(match weight {
                        Some(p) => self.b.ins().fmul(p, w),
                        None => w,
                    });
                }
            }
            taps.push(Tap {
                at: Texel { row, x },
                weight,
                border,
            });
        }
        taps
    }

    /// `texel` (four words of class `class`, scalars or vectors of type
    /// `lanes`), or the class's border color where `outside` holds (an
    /// `i8`, or for vectors an `i32x4` mask).
    pub(super) fn with_border(
        &mut self,
        class: u32,
        texel: Vec<Value>,
        outside: Option<Value>,
        lanes: Option<cl::Type>,
    ) -> Vec<Value> {
        let Some(out) = outside else { return texel };
        texel
            .into_iter()
            .zip(img::fast::border(class))
            .map(|(x, bits)| {
                let t = self.b.func.dfg.value_type(x);
                let c = self.b.ins().iconst(cl::I32, i64::from(bits));
                match lanes {
                    Some(vt) => {
                        let c = self.splat_bits(vt, bits);
                        let mask = if vt == cl::I32X4 {
                            out
                        } else {
                            self.b.ins().bitcast(vt, MemFlagsData::new(), out)
                        };
                        self.b.ins().bitselect(mask, c, x)
                    }
                    None => {
                        let c = if t == cl::I32 {
                            c
                        } else {
                            self.b.ins().bitcast(t, MemFlagsData::new(), c)
                        };
                        self.b.ins().select(out, c, x)
                    }
                }
            })
            .collect()
    }

    /// The read's result from its taps' texels (four words each) and
    /// weights: the one texel, or the linear filter's sum
    /// `0 + w0 * T0 + w1 * T1 + ...` in f32, in the taps' order, as the
    /// helper sums; a NaN sum
    /// is the quiet NaN 0x7fc00000 (the helper's too: which NaN an
    /// arithmetic result is, the spec leaves open). `lanes`: the values are
    /// vectors of this type (4-lane bodies), else scalars.
    pub(super) fn filter(
        &mut self,
        mut terms: Vec<(Vec<Value>, Option<Value>)>,
        lanes: Option<cl::Type>,
    ) -> Vec<Value> {
        if terms.len() == 1 && terms[0].1.is_none() {
            return terms.pop().map(|(v, _)| v).unwrap_or_default();
        }
        let splat = |l: &mut Self, x: f32| {
            let c = l.b.ins().f32const(x);
            match lanes {
                Some(vt) => l.b.ins().splat(vt, c),
                None => c,
            }
        };
        let zero = splat(self, 0.0);
        let nan = splat(self, f32::from_bits(0x7fc0_0000));
        let mut sum = [zero; 4];
        for (texel, weight) in &terms {
            let Some(w) = *weight else { continue };
            for (s, &t) in sum.iter_mut().zip(texel) {
                let p = self.b.ins().fmul(w, t);
                *s = self.b.ins().fadd(*s, p);
            }
        }
        sum.iter()
            .map(|&x| {
                let is_nan = self.b.ins().fcmp(FloatCC::Unordered, x, x);
                match lanes {
                    Some(vt) => {
                        let mask = self.b.ins().bitcast(vt, MemFlagsData::new(), is_nan);
                        self.b.ins().bitselect(mask, nan, x)
                    }
                    None => self.b.ins().select(is_nan, nan, x),
                }
            })
            .collect()
    }

    /// `clamp(i, 0, size - 1)` (`size` is at least 1 for an image with a
    /// fast class).
    fn clamp_index(&mut self, i: Value, size: Value) -> Value {
        let last = self.b.ins().iadd_imm_s(size, -1);
        let i = self.b.ins().smin(i, last);
        let zero = self.b.ins().iconst(cl::I64, 0);
        self.b.ins().smax(i, zero)
    }

    /// `(int)floor(x)`, saturating (NaN to 0), as an `i64`.
    fn floor_index(&mut self, x: Value) -> Value {
        let f = self.b.ins().floor(x);
        self.b.ins().fcvt_to_sint_sat(cl::I64, f)
    }

    /// The coordinate REPEAT and MIRRORED_REPEAT work on: `s`, or `s /
    /// size` when unnormalized (the helper's choice).
    fn repeat_coordinate(&mut self, normalized: Flag, s: Value, nf: Value) -> Value {
        match normalized {
            Flag::Known(true) => s,
            Flag::Known(false) => self.b.ins().fdiv(s, nf),
            Flag::Dynamic(f) => {
                let d = self.b.ins().fdiv(s, nf);
                self.b.ins().select(f, s, d)
            }
        }
    }

    /// The coordinate the clamping modes work on: `s * size` if normalized,
    /// else `s`.
    fn clamp_coordinate(&mut self, normalized: Flag, s: Value, nf: Value) -> Value {
        match normalized {
            Flag::Known(true) => self.b.ins().fmul(s, nf),
            Flag::Known(false) => s,
            Flag::Dynamic(f) => {
                let m = self.b.ins().fmul(s, nf);
                self.b.ins().select(f, m, s)
            }
        }
    }

    /// MIRRORED_REPEAT's `fabs(s - 2.0f * rint(0.5f * s))`.
    fn mirror(&mut self, s: Value) -> Value {
        let half = self.b.ins().f32const(0.5);
        let two = self.b.ins().f32const(2.0);
        let h = self.b.ins().fmul(half, s);
        let r = self.b.ins().nearest(h);
        let r = self.b.ins().fmul(two, r);
        let d = self.b.ins().fsub(s, r);
        self.b.ins().fabs(d)
    }

    /// The helper's `nearest_tap` (clift_builtins::image::sample) for the
    /// modes inline code takes: the texel's index along an axis of `size`
    /// texels.
    fn nearest_index(&mut self, mode: Address, normalized: Flag, s: Value, size: Value) -> (Value, Option<Value>) {
        let nf = self.b.ins().fcvt_from_uint(cl::F32, size);
        let index = match mode {
            Address::Border => {
                let u = self.clamp_coordinate(normalized, s, nf);
                let i = self.floor_index(u);
                let out = self.outside(i, size);
                return (self.clamp_index(i, size), Some(out));
            }
            Address::Repeat => {
                // u = (s - floor(s)) * size; i = floor(u), less size if
                // past the last texel.
                let s = self.repeat_coordinate(normalized, s, nf);
                let fl = self.b.ins().floor(s);
                let f = self.b.ins().fsub(s, fl);
                let u = self.b.ins().fmul(f, nf);
                let i = self.floor_index(u);
                let last = self.b.ins().iadd_imm_s(size, -1);
                let past = self.b.ins().icmp(IntCC::SignedGreaterThan, i, last);
                let wrapped = self.b.ins().isub(i, size);
                let i = self.b.ins().select(past, wrapped, i);
                self.clamp_index(i, size)
            }
            Address::Mirror => {
                let s = self.repeat_coordinate(normalized, s, nf);
                let m = self.mirror(s);
                let u = self.b.ins().fmul(m, nf);
                let i = self.floor_index(u);
                let last = self.b.ins().iadd_imm_s(size, -1);
                let i = self.b.ins().smin(i, last);
                self.clamp_index(i, size)
            }
            Address::Clamp => {
                let u = self.clamp_coordinate(normalized, s, nf);
                let i = self.floor_index(u);
                self.clamp_index(i, size)
            }
        };
        (index, None)
    }

    /// Whether index `i` is outside `0..size`: an `i8` boolean.
    fn outside(&mut self, i: Value, size: Value) -> Value {
        // A negative index is a huge unsigned one.
        self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, i, size)
    }

    /// The helper's `linear_taps` for the modes inline code takes: the two
    /// texels' indices along an axis of `size` texels and the weight of the
    /// second (`frac(u - 0.5)`, 0 when not finite).
    fn linear_indices(&mut self, mode: Address, normalized: Flag, s: Value, size: Value) -> (Bounded, Bounded, Value) {
        let nf = self.b.ins().fcvt_from_uint(cl::F32, size);
        let half = self.b.ins().f32const(0.5);
        let last = self.b.ins().iadd_imm_s(size, -1);
        // Below, `t` is NaN or within [-0.5, size - 0.5] for REPEAT and
        // MIRRORED_REPEAT, so their `i0 + 1` cannot overflow.
        let (i0, i1, t) = match mode {
            Address::Repeat => {
                let s = self.repeat_coordinate(normalized, s, nf);
                let fl = self.b.ins().floor(s);
                let f = self.b.ins().fsub(s, fl);
                let u = self.b.ins().fmul(f, nf);
                let t = self.b.ins().fsub(u, half);
                let i0 = self.floor_index(t);
                let i1 = self.b.ins().iadd_imm_s(i0, 1);
                // i0 < 0: i0 + size; i1 > last: i1 - size.
                let zero = self.b.ins().iconst(cl::I64, 0);
                let below = self.b.ins().icmp(IntCC::SignedLessThan, i0, zero);
                let up = self.b.ins().iadd(i0, size);
                let i0 = self.b.ins().select(below, up, i0);
                let past = self.b.ins().icmp(IntCC::SignedGreaterThan, i1, last);
                let down = self.b.ins().isub(i1, size);
                let i1 = self.b.ins().select(past, down, i1);
                (self.clamp_index(i0, size), self.clamp_index(i1, size), t)
            }
            Address::Mirror => {
                let s = self.repeat_coordinate(normalized, s, nf);
                let m = self.mirror(s);
                let u = self.b.ins().fmul(m, nf);
                let t = self.b.ins().fsub(u, half);
                let i0 = self.floor_index(t);
                let i1 = self.b.ins().iadd_imm_s(i0, 1);
                let zero = self.b.ins().iconst(cl::I64, 0);
                let i0 = self.b.ins().smax(i0, zero);
                let i1 = self.b.ins().smin(i1, last);
                (self.clamp_index(i0, size), self.clamp_index(i1, size), t)
            }
            Address::Clamp | Address::Border => {
                let u = self.clamp_coordinate(normalized, s, nf);
                let t = self.b.ins().fsub(u, half);
                let i0 = self.floor_index(t);
                // clamp(saturating(i0 + 1)) is clamp(min(i0, last) + 1).
                let below_last = self.b.ins().smin(i0, last);
                let i1 = self.b.ins().iadd_imm_s(below_last, 1);
                if mode == Address::Border {
                    // saturating(i0 + 1) is outside when i0 is below -1 or
                    // at least the last index.
                    let out0 = self.outside(i0, size);
                    let low = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, i0, -1);
                    let high = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, i0, last);
                    let out1 = self.b.ins().bor(low, high);
                    let (c0, c1) = (self.clamp_index(i0, size), self.clamp_index(i1, size));
                    let (a, _, _) = self.frac_weight(c0, c1, t);
                    return ((c0, Some(out0)), (c1, Some(out1)), a);
                }
                (self.clamp_index(i0, size), self.clamp_index(i1, size), t)
            }
        };
        let (a, i0, i1) = self.frac_weight(i0, i1, t);
        ((i0, None), (i1, None), a)
    }

    /// The second texel's weight `frac(t)`, 0 when not finite (and `i0`,
    /// `i1` back).
    fn frac_weight(&mut self, i0: Value, i1: Value, t: Value) -> (Value, Value, Value) {
        let fl = self.b.ins().floor(t);
        let a = self.b.ins().fsub(t, fl);
        // a is finite when |a| < infinity (false for NaN).
        let abs = self.b.ins().fabs(a);
        let inf = self.b.ins().f32const(f32::INFINITY);
        let finite = self.b.ins().fcmp(FloatCC::LessThan, abs, inf);
        let zero = self.b.ins().f32const(0.0);
        (self.b.ins().select(finite, a, zero), i0, i1)
    }

    /// Emits the descriptor's fast class test: `fast(class)` for each class
    /// of `kind` (its results, `word`s, joined), `other` for every other
    /// class; returns the joined results.
    pub(super) fn dispatch(
        &mut self,
        image: Value,
        kind: u32,
        word: cl::Type,
        mut fast: impl FnMut(&mut Self, u32) -> R<Vec<Value>>,
        other: impl FnOnce(&mut Self) -> R<Vec<Value>>,
    ) -> R<Vec<Value>> {
        let classes: &[u32] = if kind == img::kind::FLOAT {
            &[
                img::fast::RGBA_UNORM8,
                img::fast::RGBA_F32,
                img::fast::R_F32,
                img::fast::BGRA_UNORM8,
            ]
        } else {
            &[
                img::fast::RGBA_I32,
                img::fast::RGBA_U8,
                img::fast::R_I32,
                img::fast::RGBA_S8,
            ]
        };
        let flags = MemFlagsData::trusted().with_readonly();
        let class = self
            .b
            .ins()
            .load(cl::I32, flags, image, offset_of!(ImageDesc, fast) as i32);
        let join = self.b.create_block();
        let mut results = None;
        for &c in classes {
            let (arm, next) = (self.b.create_block(), self.b.create_block());
            let is = self.b.ins().icmp_imm_u(IntCC::Equal, class, i64::from(c));
            self.b.ins().brif(is, arm, &[], next, &[]);
            self.b.switch_to_block(arm);
            let v = fast(self, c)?;
            self.jump_with(join, &v, &mut results, word);
            self.b.switch_to_block(next);
        }
        let v = other(self)?;
        self.jump_with(join, &v, &mut results, word);
        self.b.switch_to_block(join);
        Ok(self.b.block_params(join).to_vec())
    }

    /// Jumps to `join` with `v`, giving `join` its parameters (`word`s) on
    /// the first jump.
    fn jump_with(
        &mut self,
        join: cranelift_codegen::ir::Block,
        v: &[Value],
        first: &mut Option<usize>,
        word: cl::Type,
    ) {
        if first.is_none() {
            for _ in v {
                self.b.append_block_param(join, word);
            }
            *first = Some(v.len());
        }
        let args: Vec<BlockArg> = v.iter().map(|&x| BlockArg::Value(x)).collect();
        self.b.ins().jump(join, &args);
    }

    /// Bytes 0..255 (the lanes of an `i32x4`) as UNORM_INT8 reads them:
    /// `byte / 255.0f`, a correctly rounded division, as the helper's.
    pub(super) fn unorm8_to_float(&mut self, bytes: Value) -> Value {
        let f = self.b.ins().fcvt_from_sint(cl::F32X4, bytes);
        let max = self.b.ins().f32const(255.0);
        let max = self.b.ins().splat(cl::F32X4, max);
        self.b.ins().fdiv(f, max)
    }

    /// The lanes of an `f32x4` as UNORM_INT8 writes them, in the lanes of
    /// an `i32x4`: `convert_uchar_sat_rte(x * 255.0f)`, the product rounded
    /// to nearest even, converted saturating (NaN to 0), clamped to 0..255.
    pub(super) fn float_to_unorm8(&mut self, x: Value) -> Value {
        let max = self.b.ins().f32const(255.0);
        let max = self.b.ins().splat(cl::F32X4, max);
        let x = self.b.ins().fmul(x, max);
        let x = self.b.ins().nearest(x);
        let x = self.b.ins().fcvt_to_sint_sat(cl::I32X4, x);
        let zero = self.splat_bits(cl::I32X4, 0);
        let top = self.splat_bits(cl::I32X4, 255);
        let x = self.b.ins().smax(x, zero);
        self.b.ins().smin(x, top)
    }

    /// A vector of type `vt` (`i32x4` or `f32x4`) whose lanes hold `bits`.
    pub(super) fn splat_bits(&mut self, vt: cl::Type, bits: u32) -> Value {
        let x = self.b.ins().iconst(cl::I32, i64::from(bits));
        let x = self.b.ins().splat(cl::I32X4, x);
        if vt == cl::I32X4 {
            x
        } else {
            self.b.ins().bitcast(vt, MemFlagsData::new(), x)
        }
    }

    /// The inline read of fast class `class` at `at`: four words.
    fn fast_read(&mut self, class: u32, at: Texel, word: cl::Type) -> R<Vec<Value>> {
        let flags = MemFlagsData::new().with_notrap();
        let p = self.texel_address(at, class);
        let zero = |l: &mut Self| {
            if word == cl::F32 {
                l.b.ins().f32const(0.0)
            } else {
                l.b.ins().iconst(cl::I32, 0)
            }
        };
        Ok(match class {
            img::fast::RGBA_UNORM8 | img::fast::BGRA_UNORM8 => {
                // byte / 255.0f, four lanes at once (the same correctly
                // rounded division as the helper's).
                let w = self.b.ins().load(cl::I32, flags, p, 0);
                let v = self.b.ins().scalar_to_vector(cl::I32X4, w);
                let little = MemFlagsData::new().with_endianness(Endianness::Little);
                let v = self.b.ins().bitcast(cl::I8X16, little, v);
                let v = self.b.ins().uwiden_low(v);
                let v = self.b.ins().uwiden_low(v);
                let f = self.unorm8_to_float(v);
                let order: [u8; 4] = if class == img::fast::BGRA_UNORM8 {
                    [2, 1, 0, 3]
                } else {
                    [0, 1, 2, 3]
                };
                order.iter().map(|&k| self.b.ins().extractlane(f, k)).collect()
            }
            img::fast::RGBA_F32 | img::fast::RGBA_I32 => {
                (0..4).map(|k| self.b.ins().load(word, flags, p, 4 * k)).collect()
            }
            img::fast::R_F32 | img::fast::R_I32 => {
                let x = self.b.ins().load(word, flags, p, 0);
                let one = if word == cl::F32 {
                    self.b.ins().f32const(1.0)
                } else {
                    self.b.ins().iconst(cl::I32, 1)
                };
                vec![x, zero(self), zero(self), one]
            }
            img::fast::RGBA_U8 => (0..4).map(|k| self.b.ins().uload8(cl::I32, flags, p, k)).collect(),
            img::fast::RGBA_S8 => (0..4).map(|k| self.b.ins().sload8(cl::I32, flags, p, k)).collect(),
            _ => return Err(format!("no inline read for image class {class}")),
        })
    }

    /// The inline write of `v` (four words) in fast class `class` at `at`.
    fn fast_write(&mut self, class: u32, at: Texel, v: [Value; 4]) {
        let flags = MemFlagsData::new().with_notrap();
        let p = self.texel_address(at, class);
        match class {
            img::fast::RGBA_UNORM8 | img::fast::BGRA_UNORM8 => {
                // convert_uchar_sat_rte(x * 255.0f), NaN to 0: the product
                // rounded to nearest even, converted saturating (NaN to 0),
                // clamped to 0..255, four lanes at once.
                let [r, g, b, a] = v;
                let lanes = if class == img::fast::BGRA_UNORM8 {
                    [b, g, r, a]
                } else {
                    [r, g, b, a]
                };
                let mut x = self.b.ins().scalar_to_vector(cl::F32X4, lanes[0]);
                for (k, &l) in lanes.iter().enumerate().skip(1) {
                    x = self.b.ins().insertlane(x, l, k as u8);
                }
                let x = self.float_to_unorm8(x);
                let x = self.b.ins().snarrow(x, x);
                let x = self.b.ins().unarrow(x, x);
                let little = MemFlagsData::new().with_endianness(Endianness::Little);
                let x = self.b.ins().bitcast(cl::I32X4, little, x);
                let w = self.b.ins().extractlane(x, 0);
                self.b.ins().store(flags, w, p, 0);
            }
            img::fast::RGBA_F32 | img::fast::RGBA_I32 => {
                for (k, &x) in v.iter().enumerate() {
                    self.b.ins().store(flags, x, p, 4 * k as i32);
                }
            }
            img::fast::R_F32 | img::fast::R_I32 => {
                self.b.ins().store(flags, v[0], p, 0);
            }
            img::fast::RGBA_U8 => {
                let top = self.b.ins().iconst(cl::I32, 255);
                for (k, &x) in v.iter().enumerate() {
                    let x = self.b.ins().umin(x, top);
                    self.b.ins().istore8(flags, x, p, k as i32);
                }
            }
            img::fast::RGBA_S8 => {
                let (lo, hi) = (self.b.ins().iconst(cl::I32, -128), self.b.ins().iconst(cl::I32, 127));
                for (k, &x) in v.iter().enumerate() {
                    let x = self.b.ins().smax(x, lo);
                    let x = self.b.ins().smin(x, hi);
                    self.b.ins().istore8(flags, x, p, k as i32);
                }
            }
            _ => {}
        }
    }

    /// The address of texel `at` in an image of fast class `class` (4 or
    /// 16 bytes a texel).
    pub(super) fn texel_address(&mut self, at: Texel, class: u32) -> Value {
        let shift = if matches!(class, img::fast::RGBA_F32 | img::fast::RGBA_I32) {
            4
        } else {
            2
        };
        let x = self.b.ins().ishl_imm_u(at.x, shift);
        self.b.ins().iadd(at.row, x)
    }

    /// OpConstantSampler `id`: its `sampler_t` bits.
    pub(super) fn constant_sampler(&mut self, id: Id) -> R<Vec<Value>> {
        let bits = sampler_bits(self.m, id)?;
        Ok(vec![self.b.ins().iconst(cl::I64, i64::from(bits))])
    }
}

/// What a read returns: words of `kind` (`word`s), the first `n` of them
/// the result's components, rounded to half if `half`.
pub(super) struct ReadKind {
    pub(super) kind: u32,
    pub(super) half: bool,
    pub(super) word: cl::Type,
    pub(super) n: usize,
}

/// How an inline read finds its texels' indices, as the helper does
/// (`clift_builtins::image::sample`): from integer coordinates clamped to
/// the image (NONE and CLAMP_TO_EDGE addressing; the helper clamps for
/// NONE too) or with the border color outside it (CLAMP), or from float
/// coordinates with any addressing mode, nearest or linear filtering
/// (linear only for reads of floats: integer formats are read nearest),
/// normalized or not; an array's layer is `clamp(rint(w))`.
#[derive(Debug, Clone, Copy)]
pub(super) enum Lookup {
    /// Integer coordinates: clamped, or (CLAMP) the border outside.
    Int { border: bool },
    Float {
        mode: Address,
        normalized: Flag,
        linear: bool,
    },
}

/// The addressing modes: NONE and CLAMP_TO_EDGE (both clamp), CLAMP (the
/// border color outside the image), REPEAT, MIRRORED_REPEAT.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Address {
    Clamp,
    Border,
    Repeat,
    Mirror,
}

/// The lookup of float coordinates with addressing `mode`, the run-time
/// normalized flag `norm` and filter `linear`.
fn float(mode: Address, norm: Value, linear: bool) -> Lookup {
    Lookup::Float {
        mode,
        normalized: Flag::Dynamic(norm),
        linear,
    }
}

/// A sampler's normalized-coordinates flag: known at build time, or a
/// run-time boolean (`i8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Flag {
    Known(bool),
    Dynamic(Value),
}

/// How a read with a sampler finds its texels inline: with the sampler
/// known at build time, or, for a sampler argument, with its bits (`i32`),
/// tested at run time (see `Lowering::sampled`).
#[derive(Debug, Clone, Copy)]
pub(super) enum Plan {
    Known(Lookup),
    Dynamic { bits: Value, floats: bool },
}

/// One choice of an index along an axis (the x index, or the byte offset
/// along another axis) and its weight along the axis, if filtered.
/// (Also whether the index is outside the image, for CLAMP's border.)
type Pick = (Value, Option<Value>, Option<Value>);

/// A texel index along an axis and, for CLAMP, whether it is outside.
type Bounded = (Value, Option<Value>);

/// One texel of a read and its weight (linear filtering).
#[derive(Debug, Clone, Copy)]
pub(super) struct Tap {
    pub(super) at: Texel,
    pub(super) weight: Option<Value>,
    /// CLAMP addressing: whether the texel is outside the image (an `i8`),
    /// so that the border color stands in for it (`at` is then clamped
    /// inside, only to keep the load in bounds).
    pub(super) border: Option<Value>,
}

/// A texel found inline: the address of its row (with the layer's and
/// slice's offsets) and its index along x.
#[derive(Debug, Clone, Copy)]
pub(super) struct Texel {
    row: Value,
    x: Value,
}

/// One coordinate axis of an image: the descriptor fields of its size and
/// of the pitch between its texels (`None` along x, whose pitch is the
/// texel's size), and whether it selects an array layer.
pub(super) struct Axis {
    pub(super) size: usize,
    pub(super) pitch: Option<usize>,
    layer: bool,
}

/// The axes of image type `t`, in coordinate order.
pub(super) fn axes(t: &ImageType) -> Vec<Axis> {
    let x = Axis {
        size: offset_of!(ImageDesc, width),
        pitch: None,
        layer: false,
    };
    let axis = |size, pitch, layer| Axis {
        size,
        pitch: Some(pitch),
        layer,
    };
    let (row, slice) = (offset_of!(ImageDesc, row_pitch), offset_of!(ImageDesc, slice_pitch));
    let (height, depth, layers) = (
        offset_of!(ImageDesc, height),
        offset_of!(ImageDesc, depth),
        offset_of!(ImageDesc, array_size),
    );
    match (t.dim, t.arrayed) {
        (Dim::Dim1D | Dim::DimBuffer, false) => vec![x],
        (Dim::Dim1D, true) => vec![x, axis(layers, row, true)],
        (Dim::Dim2D, false) => vec![x, axis(height, row, false)],
        (Dim::Dim2D, true) => vec![x, axis(height, row, false), axis(layers, slice, true)],
        _ => vec![x, axis(height, row, false), axis(depth, slice, false)],
    }
}

/// The `sampler_t` bits of OpConstantSampler `id`.
pub fn sampler_bits(m: &crate::spirv::Module, id: Id) -> R<u32> {
    let c = m.constant(id).ok_or("not a constant")?;
    let inst = &m.insts[c.inst as usize];
    let (
        Some(Operand::SamplerAddressingMode(a)),
        Some(Operand::LiteralBit32(normalized)),
        Some(Operand::SamplerFilterMode(f)),
    ) = (inst.operands.first(), inst.operands.get(1), inst.operands.get(2))
    else {
        return Err("OpConstantSampler needs an addressing mode, a normalized flag and a filter mode".into());
    };
    let address = match a {
        SamplerAddressingMode::None => img::sampler::ADDRESS_NONE,
        SamplerAddressingMode::ClampToEdge => img::sampler::ADDRESS_CLAMP_TO_EDGE,
        SamplerAddressingMode::Clamp => img::sampler::ADDRESS_CLAMP,
        SamplerAddressingMode::Repeat => img::sampler::ADDRESS_REPEAT,
        SamplerAddressingMode::RepeatMirrored => img::sampler::ADDRESS_MIRRORED_REPEAT,
    };
    let filter = match f {
        SamplerFilterMode::Nearest => img::sampler::FILTER_NEAREST,
        SamplerFilterMode::Linear => img::sampler::FILTER_LINEAR,
    };
    let normalized = if *normalized != 0 {
        img::sampler::NORMALIZED_COORDS_TRUE
    } else {
        0
    };
    Ok(address | filter | normalized)
}
