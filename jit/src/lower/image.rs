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
use cranelift_codegen::ir::{types as cl, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind, Value};
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
    fn image_type(&self, id: Id) -> R<ImageType> {
        match self.m.ty(self.type_of(id)) {
            Some(Type::Image(t)) => Ok(*t),
            _ => Err(format!("{} is not an image", self.m.show(id))),
        }
    }

    /// The image type of sampled image value `id`.
    fn sampled_image_type(&self, id: Id) -> R<ImageType> {
        match self.m.ty(self.type_of(id)) {
            Some(Type::SampledImage { image }) => match self.m.ty(*image) {
                Some(Type::Image(t)) => Ok(*t),
                _ => Err("a sampled image of something other than an image".into()),
            },
            _ => Err(format!("{} is not a sampled image", self.m.show(id))),
        }
    }

    /// A 16-byte stack slot's address.
    fn words_slot(&mut self) -> Value {
        let slot = self
            .b
            .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 16, 4));
        self.b.ins().stack_addr(cl::I64, slot, 0)
    }

    /// Stores the coordinate operand `coord` of image `t` (the image's
    /// number of coordinates, the others 0) as four words at a new stack
    /// slot: its address, and whether they are floats.
    fn coordinates(&mut self, t: &ImageType, coord: Id) -> R<(Value, bool)> {
        let xs = self.get(coord)?;
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
        Ok((at, floats))
    }

    /// OpImageSampleExplicitLod (with `sampler`) or OpImageRead (without):
    /// the texel at the coordinates, as the result type's four components
    /// (one for a depth image read as a float).
    fn read(&mut self, i: u32, t: &ImageType, image: Value, sampler: Option<Value>) -> R {
        let inst = self.at(i);
        let rt = inst.result_type();
        let (comp, n) = self.m.scalar_of(rt).unwrap_or((rt, 1));
        let (kind, half, word) = match self.m.ty(comp) {
            Some(Type::Float { width: 16 }) => (img::kind::FLOAT, true, cl::F32),
            Some(Type::Float { .. }) => (img::kind::FLOAT, false, cl::F32),
            _ => (img::kind::INT, false, cl::I32),
        };
        let (coords, floats) = self.coordinates(t, inst.operand(1))?;
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
        let mut v = Vec::with_capacity(n as usize);
        for k in 0..n as i32 {
            let x = self.b.ins().load(word, flags, out, 4 * k);
            v.push(if half { super::half::round_rte(self.b, x) } else { x });
        }
        self.values.insert(inst.result_id(), v);
        Ok(())
    }

    /// OpImageWrite: the texel converted to the image's format at integer
    /// coordinates.
    fn write(&mut self, i: u32) -> R {
        let inst = self.at(i);
        let image = self.get1(inst.operand(0))?;
        let t = self.image_type(inst.operand(0))?;
        let (coords, _) = self.coordinates(&t, inst.operand(1))?;
        let texel = self.get(inst.operand(2))?;
        let floats = texel.first().is_some_and(|&x| self.b.func.dfg.value_type(x) == cl::F32);
        let value = self.words_slot();
        let flags = MemFlagsData::trusted();
        for k in 0..4 {
            let v = match texel.get(k) {
                Some(&x) => x,
                None if floats => self.b.ins().f32const(0.0),
                None => self.b.ins().iconst(cl::I32, 0),
            };
            self.b.ins().store(flags, v, value, 4 * k as i32);
        }
        let kind = if floats { img::kind::FLOAT } else { img::kind::INT };
        let kind = self.b.ins().iconst(cl::I32, i64::from(kind));
        let helper = img::clift_image_write as unsafe extern "C" fn(_, _, _, _) as usize;
        self.call_host(
            helper,
            &[cl::I64, cl::I32, cl::I64, cl::I64],
            &[],
            &[image, kind, coords, value],
        );
        Ok(())
    }

    /// OpConstantSampler `id`: its `sampler_t` bits.
    pub(super) fn constant_sampler(&mut self, id: Id) -> R<Vec<Value>> {
        let bits = sampler_bits(self.m, id)?;
        Ok(vec![self.b.ins().iconst(cl::I64, i64::from(bits))])
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
