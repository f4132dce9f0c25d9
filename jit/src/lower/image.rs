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
use cranelift_codegen::ir::condcodes::IntCC;
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
        let lookup = self.lookup(sampler, &types, t);
        let words = match lookup {
            Some(lookup) => {
                let at = self.texel_at(t, image, &xs, lookup);
                self.dispatch(
                    image,
                    kind,
                    word,
                    |l, class| l.fast_read(class, at, word),
                    |l| Ok(l.read_helper(t, image, sampler, kind, word, &xs)),
                )?
            }
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
        let at = self.texel_at(&t, image, &xs, Lookup::Int);
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

    /// How a read with `sampler` (none: a sampler-less read) and float or
    /// integer coordinates of types `types` finds its texel inline, if it
    /// can: the coordinates are `i32` or `f32`, one per axis of image `t`,
    /// and the sampler is a constant whose addressing (NONE or
    /// CLAMP_TO_EDGE) clamps each index to the image, with nearest
    /// filtering for float coordinates. (The helper clamps for NONE too,
    /// see `clift_builtins::image::sample`.)
    pub(super) fn lookup(&self, sampler: Option<Value>, types: &[cl::Type], t: &ImageType) -> Option<Lookup> {
        let bits = match sampler {
            None => img::sampler::NONE,
            Some(s) => self.constant_bits(s)?,
        };
        let n = crate::validate::images::coordinates(t);
        let floats = types.first() == Some(&cl::F32);
        let want = if floats { cl::F32 } else { cl::I32 };
        if types.len() < n || types[..n].iter().any(|&x| x != want) {
            return None;
        }
        let address = bits & img::sampler::ADDRESS_MASK;
        if address != img::sampler::ADDRESS_NONE && address != img::sampler::ADDRESS_CLAMP_TO_EDGE {
            return None;
        }
        if !floats {
            return Some(Lookup::Int);
        }
        if bits & img::sampler::FILTER_LINEAR != 0 {
            return None;
        }
        Some(Lookup::Nearest {
            normalized: bits & img::sampler::NORMALIZED_COORDS_TRUE != 0,
        })
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

    /// The texel the coordinates `xs` select, each index clamped to the
    /// image (see [`Lookup`]).
    pub(super) fn texel_at(&mut self, t: &ImageType, image: Value, xs: &[Value], lookup: Lookup) -> Texel {
        let mut x_index = None;
        let mut offset = None;
        for (a, &x) in axes(t).iter().zip(xs) {
            let size = self.desc_field(image, a.size);
            let i = match lookup {
                Lookup::Int => self.b.ins().sextend(cl::I64, x),
                // The layer: rint(w).
                Lookup::Nearest { .. } if a.layer => {
                    let r = self.b.ins().nearest(x);
                    self.b.ins().fcvt_to_sint_sat(cl::I64, r)
                }
                // floor(s * size) or floor(s).
                Lookup::Nearest { normalized } => {
                    let u = if normalized {
                        let nf = self.b.ins().fcvt_from_uint(cl::F32, size);
                        self.b.ins().fmul(x, nf)
                    } else {
                        x
                    };
                    let f = self.b.ins().floor(u);
                    self.b.ins().fcvt_to_sint_sat(cl::I64, f)
                }
            };
            // clamp(i, 0, size - 1): size is at least 1 for an image with a
            // fast class.
            let last = self.b.ins().iadd_imm_s(size, -1);
            let i = self.b.ins().smin(i, last);
            let zero = self.b.ins().iconst(cl::I64, 0);
            let i = self.b.ins().smax(i, zero);
            match a.pitch {
                None => x_index = Some(i),
                Some(p) => {
                    let pitch = self.desc_field(image, p);
                    let o = self.b.ins().imul(i, pitch);
                    offset = Some(match offset {
                        Some(sum) => self.b.ins().iadd(sum, o),
                        None => o,
                    });
                }
            }
        }
        let data = self.desc_field(image, offset_of!(ImageDesc, data));
        let row = match offset {
            Some(o) => self.b.ins().iadd(data, o),
            None => data,
        };
        Texel {
            row,
            x: x_index.unwrap_or(row),
        }
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

    /// The inline read of fast class `class` at `at`: four words.
    fn fast_read(&mut self, class: u32, at: Texel, word: cl::Type) -> R<Vec<Value>> {
        let flags = MemFlagsData::new().with_notrap().with_readonly();
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
                let f = self.b.ins().fcvt_from_sint(cl::F32X4, v);
                let max = self.b.ins().f32const(255.0);
                let max = self.b.ins().splat(cl::F32X4, max);
                let f = self.b.ins().fdiv(f, max);
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
                let max = self.b.ins().f32const(255.0);
                let max = self.b.ins().splat(cl::F32X4, max);
                let x = self.b.ins().fmul(x, max);
                let x = self.b.ins().nearest(x);
                let x = self.b.ins().fcvt_to_sint_sat(cl::I32X4, x);
                let zero = self.b.ins().iconst(cl::I32, 0);
                let zero = self.b.ins().splat(cl::I32X4, zero);
                let top = self.b.ins().iconst(cl::I32, 255);
                let top = self.b.ins().splat(cl::I32X4, top);
                let x = self.b.ins().smax(x, zero);
                let x = self.b.ins().smin(x, top);
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
        if at.x == at.row {
            return at.row;
        }
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

/// How an inline read finds its texel's indices: from integer
/// coordinates, or float ones filtered nearest (`floor(s * size)` if
/// normalized, else `floor(s)`; an array's layer `rint(w)`); either clamped
/// to the image, as NONE and CLAMP_TO_EDGE addressing do in the helper.
#[derive(Debug, Clone, Copy)]
pub(super) enum Lookup {
    Int,
    Nearest { normalized: bool },
}

/// A texel found inline: the address of its row (with the layer's and
/// slice's offsets) and its index along x (`row` itself if there is none).
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
    pitch: Option<usize>,
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
