//! Operand types of the image instructions OpenCL C uses: OpSampledImage,
//! OpImageSampleExplicitLod (level of detail 0), OpImageRead, OpImageWrite
//! and the size, order and format queries, on the image types the OpenCL
//! SPIR-V environment allows (checked with the types, [`super::env`]).

use rspirv::dr::Operand;
use spirv::{AccessQualifier, Dim, ImageOperands, Op};

use super::types::Ctx;
use crate::spirv::{Id, ImageType, Type};

/// How many coordinates an image of type `t` is addressed with: its
/// dimensions, and the layer of an array.
pub fn coordinates(t: &ImageType) -> usize {
    let dims = match t.dim {
        Dim::Dim1D | Dim::DimBuffer => 1,
        Dim::Dim2D => 2,
        _ => 3,
    };
    dims + usize::from(t.arrayed)
}

/// Checks image instruction `op` with result type `rt`.
pub(super) fn check(c: &Ctx, op: Op, rt: Option<Id>) -> Result<(), String> {
    let m = c.m;
    let rt_or = || rt.ok_or_else(|| "missing result type".to_string());
    match op {
        Op::SampledImage => {
            let rt = rt_or()?;
            let Some(Type::SampledImage { image }) = m.ty(rt) else {
                return Err(format!(
                    "the result type {} must be a sampled image type",
                    m.show_type(rt)
                ));
            };
            c.same(0, *image)?;
            let s = c.ty(1)?;
            if !matches!(m.ty(s), Some(Type::Sampler)) {
                return Err(format!("operand 1 must be a sampler, not {}", m.show_type(s)));
            }
            Ok(())
        }
        Op::ImageSampleExplicitLod => {
            let si = c.ty(0)?;
            let Some(Type::SampledImage { image }) = m.ty(si) else {
                return Err(format!("operand 0 must be a sampled image, not {}", m.show_type(si)));
            };
            let t = image_of(c, *image)?;
            texel(c, &t, rt_or()?, "the result type")?;
            coordinate(c, &t, 1, true)?;
            level_of_detail_zero(c, 2)
        }
        Op::ImageRead => {
            let t = image_operand(c, 0)?;
            if t.access == Some(AccessQualifier::WriteOnly) {
                return Err("OpImageRead of a write_only image".into());
            }
            texel(c, &t, rt_or()?, "the result type")?;
            coordinate(c, &t, 1, false)?;
            no_image_operands(c, 2)
        }
        Op::ImageWrite => {
            let t = image_operand(c, 0)?;
            if t.access == Some(AccessQualifier::ReadOnly) {
                return Err("OpImageWrite of a read_only image".into());
            }
            coordinate(c, &t, 1, false)?;
            texel(c, &t, c.ty(2)?, "the texel")?;
            no_image_operands(c, 3)
        }
        Op::ImageQuerySizeLod | Op::ImageQuerySize => {
            let t = image_operand(c, 0)?;
            let rt = rt_or()?;
            let want = coordinates(&t);
            let (comp, n) = m.scalar_of(rt).unwrap_or((rt, 1));
            if !matches!(m.ty(comp), Some(Type::Int { .. })) || n as usize != want {
                return Err(format!(
                    "the result type {} must be {want} integer component(s) for this image",
                    m.show_type(rt)
                ));
            }
            if op == Op::ImageQuerySizeLod {
                c.int_scalar(c.ty(1)?, "the level of detail")?;
            }
            Ok(())
        }
        Op::ImageQueryFormat | Op::ImageQueryOrder => {
            image_operand(c, 0)?;
            c.int_scalar(rt_or()?, "the result type")
        }
        _ => Ok(()),
    }
}

/// The image type `id`.
fn image_of(c: &Ctx, id: Id) -> Result<ImageType, String> {
    match c.m.ty(id) {
        Some(Type::Image(t)) => Ok(*t),
        _ => Err(format!("{} is not an image type", c.m.show_type(id))),
    }
}

/// Operand `k` is an image: its type.
fn image_operand(c: &Ctx, k: usize) -> Result<ImageType, String> {
    let t = c.ty(k)?;
    image_of(c, t).map_err(|_| format!("operand {k} must be an image, not {}", c.m.show_type(t)))
}

/// `ty` is a texel of image `t`: four floats, halves or 32-bit integers, or
/// one float of a depth image.
fn texel(c: &Ctx, t: &ImageType, ty: Id, what: &str) -> Result<(), String> {
    let m = c.m;
    let ok = match m.ty(ty) {
        Some(Type::Vector { component, count: 4 }) => {
            matches!(
                m.ty(*component),
                Some(Type::Float { width: 16 | 32 }) | Some(Type::Int { width: 32, .. })
            )
        }
        Some(Type::Float { width: 32 }) => t.depth == 1,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{what} {} must be a vector of four floats, halves or 32-bit integers{}",
            m.show_type(ty),
            if t.depth == 1 { ", or a float" } else { "" }
        ))
    }
}

/// Operand `k` is a coordinate of image `t`: integers (or floats, when
/// sampling with `floats`), at least as many as the image has.
fn coordinate(c: &Ctx, t: &ImageType, k: usize, floats: bool) -> Result<(), String> {
    let m = c.m;
    let ty = c.ty(k)?;
    let (comp, n) = m.scalar_of(ty).unwrap_or((ty, 1));
    let kind_ok = match m.ty(comp) {
        Some(Type::Int { width: 32, .. }) => true,
        Some(Type::Float { width: 32 }) => floats,
        _ => false,
    };
    let want = coordinates(t);
    if !kind_ok || (n as usize) < want {
        return Err(format!(
            "the coordinate {} must be {want} or more 32-bit integers{}",
            m.show_type(ty),
            if floats { " or floats" } else { "" }
        ));
    }
    Ok(())
}

/// From operand `k` on: the image operands Lod with a constant 0 (OpenCL
/// images have one level of detail) and nothing else.
fn level_of_detail_zero(c: &Ctx, k: usize) -> Result<(), String> {
    match c.args.get(k) {
        Some(Operand::ImageOperands(ops)) if *ops == ImageOperands::LOD => {}
        _ => return Err("OpImageSampleExplicitLod must have the Lod image operand alone in OpenCL".into()),
    }
    let lod = c.id(k + 1)?;
    let zero = c.m.constant(lod).is_some_and(|v| match v.value {
        crate::spirv::ConstValue::Scalar(bits) => bits == 0 || bits == 0x8000_0000,
        crate::spirv::ConstValue::Null => true,
        _ => false,
    });
    if !zero {
        return Err(format!(
            "the level of detail %{lod} must be a constant 0 (OpenCL images have no mipmaps)"
        ));
    }
    if c.args.len() > k + 2 {
        return Err("too many image operands".into());
    }
    Ok(())
}

/// From operand `k` on: no image operands (or an empty mask).
fn no_image_operands(c: &Ctx, k: usize) -> Result<(), String> {
    match c.args.get(k) {
        None => Ok(()),
        Some(Operand::ImageOperands(ops)) if ops.is_empty() && c.args.len() == k + 1 => Ok(()),
        Some(_) => Err("image operands are not supported here in OpenCL".into()),
    }
}
