//! Image reads, samples and writes in 4-lane bodies, for the accesses the
//! scalar lowering does inline ([`crate::lower::image`]): the image (and
//! sampler) the same in every lane, the coordinates (or the texel) not.
//! Each lane's texel is found as the scalar code finds it, then the
//! descriptor's fast class is tested once for the chunk: its arm loads
//! the four texels and converts them as vectors (one component of the
//! four lanes per vector, the layout of the chunk's other values), and
//! every other class calls the helper once per lane. The conversions are
//! the scalar ones, lane by lane, so both bodies give the same bits.

use clift_builtins::image as img;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types as cl, BlockArg, InstBuilder, MemFlagsData, Type as Clif, Value};
use spirv::Op;

use super::{Shape, LANES};
use crate::lower::image::{Lookup, Tap, Texel};
use crate::lower::{Lowering, R};
use crate::spirv::ImageType;

/// Four texels side by side in a row that a chunk's lanes read or write
/// (see `Lowering::run`).
#[derive(Clone, Copy)]
struct Run {
    inside: Value,
    base: Value,
}

impl Lowering<'_, '_, '_> {
    /// The 4-lane form of image read, sample or write `i`, if it has one
    /// (`false`: nothing was emitted; it runs lane by lane).
    pub(super) fn simd_image(&mut self, i: u32) -> R<bool> {
        let inst = self.at(i);
        let image_op = inst.operand(0);
        if self.is_varying(image_op) {
            return Ok(false);
        }
        match inst.op {
            Op::ImageRead | Op::ImageSampleExplicitLod => self.simd_image_read(i),
            Op::ImageWrite => self.simd_image_write(i),
            _ => Ok(false),
        }
    }

    fn simd_image_read(&mut self, i: u32) -> R<bool> {
        let inst = self.at(i);
        let (image, sampler, t) = if inst.op == Op::ImageRead {
            (self.get1(inst.operand(0))?, None, self.image_type(inst.operand(0))?)
        } else {
            let pair = self.get(inst.operand(0))?;
            let [image, sampler] = pair[..] else {
                return Err("a sampled image is an image and a sampler".into());
            };
            (image, Some(sampler), self.sampled_image_type(inst.operand(0))?)
        };
        let rk = self.read_kind(inst.result_type());
        if rk.half {
            return Ok(false);
        }
        let coords = self.shapes(inst.operand(1))?;
        let types: Vec<Clif> = coords.iter().map(|&s| self.lane_type(s)).collect();
        let Some(plan) = self.plan(sampler, &types, &t, rk.kind) else {
            return Ok(false);
        };
        let vt = if rk.word == cl::F32 { cl::F32X4 } else { cl::I32X4 };
        let n = crate::validate::images::coordinates(&t);
        let lane_xs: Vec<Vec<Value>> = (0..LANES)
            .map(|k| coords[..n].iter().map(|&s| self.lane(s, k)).collect())
            .collect();
        let helper = |l: &mut Self| {
            let words: Vec<Vec<Value>> = lane_xs
                .iter()
                .map(|xs| l.read_helper(&t, image, sampler, rk.kind, rk.word, xs))
                .collect();
            (0..4)
                .map(|c| l.build(vt, std::array::from_fn(|k| words[k][c])))
                .collect::<Vec<Value>>()
        };
        let comps = self.sampled(
            plan,
            rk.kind,
            vt,
            |l, lookup| {
                // Each lane's taps: the same number in every lane.
                let lane_taps: Vec<Vec<Tap>> = lane_xs.iter().map(|xs| l.taps(&t, image, xs, lookup)).collect();
                let run = match lookup {
                    Lookup::Int { .. } => l.run(&t, image, &coords),
                    Lookup::Float { .. } => None,
                };
                let taps = lane_taps[0].len();
                // CLAMP: each tap's lanes outside the image, as a mask.
                let borders: Vec<Option<Value>> = (0..taps)
                    .map(|j| {
                        let b: Option<Vec<Value>> = lane_taps.iter().map(|lt| lt[j].border).collect();
                        b.map(|b| {
                            let m: [Value; LANES] = std::array::from_fn(|k| l.b.ins().bmask(cl::I32, b[k]));
                            l.build(cl::I32X4, m)
                        })
                    })
                    .collect();
                let weights: Vec<Option<Value>> = (0..taps)
                    .map(|j| {
                        let w: Option<Vec<Value>> = lane_taps.iter().map(|lt| lt[j].weight).collect();
                        w.map(|w| l.build(cl::F32X4, [w[0], w[1], w[2], w[3]]))
                    })
                    .collect();
                l.dispatch(
                    image,
                    rk.kind,
                    vt,
                    |l, class| {
                        let mut terms = Vec::with_capacity(taps);
                        for (j, &w) in weights.iter().enumerate() {
                            let ats: Vec<Texel> = lane_taps.iter().map(|lt| lt[j].at).collect();
                            let texel = l.fast_read_lanes(class, &ats, rk.word, vt, run)?;
                            let texel = l.with_border(class, texel, borders[j], Some(vt));
                            terms.push((texel, w));
                        }
                        Ok(l.filter(terms, Some(vt)))
                    },
                    |l| Ok(helper(l)),
                )
            },
            helper,
        )?;
        let shapes = comps[..rk.n].iter().map(|&v| Shape::V(v)).collect();
        self.set_shapes(inst.result_id(), shapes)?;
        self.count(true);
        Ok(true)
    }

    /// The inline reads of fast class `class` at the lanes' texels `ats`
    /// (or, for 4-byte texels, at `run`'s four texels when it holds): the
    /// four components, each a vector of `vt` (words of type `word`).
    fn fast_read_lanes(&mut self, class: u32, ats: &[Texel], word: Clif, vt: Clif, run: Option<Run>) -> R<Vec<Value>> {
        let flags = MemFlagsData::new().with_notrap();
        if matches!(class, img::fast::RGBA_F32 | img::fast::RGBA_I32) {
            let p: Vec<Value> = ats.iter().map(|&a| self.texel_address(a, class)).collect();
            return Ok((0..4)
                .map(|c| {
                    let lanes: [Value; LANES] = std::array::from_fn(|k| self.b.ins().load(word, flags, p[k], 4 * c));
                    self.build(vt, lanes)
                })
                .collect());
        }
        // A 4-byte texel per lane, as the lanes of an i32x4.
        let texels = self.texel_words(class, ats, run);
        let byte = self.splat_bits(cl::I32X4, 0xff);
        Ok(match class {
            img::fast::RGBA_UNORM8 | img::fast::BGRA_UNORM8 => {
                // Byte c of every lane, then byte / 255.0f.
                let order: [i64; 4] = if class == img::fast::BGRA_UNORM8 {
                    [2, 1, 0, 3]
                } else {
                    [0, 1, 2, 3]
                };
                order
                    .iter()
                    .map(|&c| {
                        let x = self.b.ins().ushr_imm_u(texels, 8 * c);
                        let x = self.b.ins().band(x, byte);
                        self.unorm8_to_float(x)
                    })
                    .collect()
            }
            img::fast::R_F32 | img::fast::R_I32 => {
                let x = if vt == cl::F32X4 {
                    self.b.ins().bitcast(vt, MemFlagsData::new(), texels)
                } else {
                    texels
                };
                let one = if word == cl::F32 { 1f32.to_bits() } else { 1 };
                vec![
                    x,
                    self.splat_bits(vt, 0),
                    self.splat_bits(vt, 0),
                    self.splat_bits(vt, one),
                ]
            }
            // Byte c zero-extended, or sign-extended (moved to the top,
            // then shifted back arithmetically).
            img::fast::RGBA_U8 => (0..4)
                .map(|c| {
                    let x = self.b.ins().ushr_imm_u(texels, 8 * c);
                    self.b.ins().band(x, byte)
                })
                .collect(),
            img::fast::RGBA_S8 => (0..4)
                .map(|c| {
                    let x = self.b.ins().ishl_imm_u(texels, 24 - 8 * c);
                    self.b.ins().sshr_imm_u(x, 24)
                })
                .collect(),
            _ => return Err(format!("no inline read for image class {class}")),
        })
    }

    /// The 4-byte texels of the lanes as an `i32x4`: one vector load when
    /// `run` holds, else a load per lane at `ats`.
    fn texel_words(&mut self, class: u32, ats: &[Texel], run: Option<Run>) -> Value {
        let flags = MemFlagsData::new().with_notrap();
        let gather = |l: &mut Self| {
            let lanes: [Value; LANES] = std::array::from_fn(|k| {
                let p = l.texel_address(ats[k], class);
                l.b.ins().load(cl::I32, flags, p, 0)
            });
            l.build(cl::I32X4, lanes)
        };
        let Some(run) = run else {
            return gather(self);
        };
        let (row, lanes, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let v = self.b.append_block_param(join, cl::I32X4);
        self.b.ins().brif(run.inside, row, &[], lanes, &[]);
        self.b.switch_to_block(row);
        let x = self.b.ins().load(cl::I32X4, flags, run.base, 0);
        self.b.ins().jump(join, &[BlockArg::Value(x)]);
        self.b.switch_to_block(lanes);
        let x = gather(self);
        self.b.ins().jump(join, &[BlockArg::Value(x)]);
        self.b.switch_to_block(join);
        v
    }

    /// The chunk's run, when its coordinates make one: x is lane 0's plus
    /// the lane number (an affine value of stride 1) and the other
    /// coordinates are the same in every lane. It holds (`inside`) when all
    /// four texels are inside the image: then lane k's texel of a 4-byte
    /// format is at `base + 4 * k` (indices inside need no clamping).
    fn run(&mut self, t: &ImageType, image: Value, coords: &[Shape]) -> Option<Run> {
        let axes = crate::lower::image::axes(t);
        let Shape::Affine {
            base: x0,
            stride: 1,
            wrap: None,
        } = *coords.first()?
        else {
            return None;
        };
        if self.ty(x0) != cl::I32
            || coords.len() < axes.len()
            || coords[1..axes.len()].iter().any(|s| !matches!(s, Shape::U(_)))
        {
            return None;
        }
        let x0 = self.b.ins().sextend(cl::I64, x0);
        let width = self.desc_field(image, axes[0].size);
        let zero = self.b.ins().iconst(cl::I64, 0);
        let from = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, x0, zero);
        let x3 = self.b.ins().iadd_imm_s(x0, 3);
        let to = self.b.ins().icmp(IntCC::SignedLessThan, x3, width);
        let mut inside = self.b.ins().band(from, to);
        let data = self.desc_field(image, std::mem::offset_of!(img::ImageDesc, data));
        let x = self.b.ins().ishl_imm_u(x0, 2);
        let mut base = self.b.ins().iadd(data, x);
        for (a, &c) in axes.iter().zip(coords).skip(1) {
            let Shape::U(c) = c else { return None };
            let c = self.b.ins().sextend(cl::I64, c);
            let size = self.desc_field(image, a.size);
            let ok = self.b.ins().icmp(IntCC::UnsignedLessThan, c, size);
            inside = self.b.ins().band(inside, ok);
            let pitch = self.desc_field(image, a.pitch?);
            let off = self.b.ins().imul(c, pitch);
            base = self.b.ins().iadd(base, off);
        }
        Some(Run { inside, base })
    }

    fn simd_image_write(&mut self, i: u32) -> R<bool> {
        // write_imageh: lane by lane, as the scalar lowering writes halves.
        if self.touches_half(i) {
            return Ok(false);
        }
        let inst = self.at(i);
        let image = self.get1(inst.operand(0))?;
        let t = self.image_type(inst.operand(0))?;
        let coords = self.shapes(inst.operand(1))?;
        let texel = self.shapes(inst.operand(2))?;
        let n = crate::validate::images::coordinates(&t);
        let word = match texel.first() {
            Some(&s) => self.lane_type(s),
            None => return Ok(false),
        };
        if coords.len() < n
            || coords[..n].iter().any(|&s| self.lane_type(s) != cl::I32)
            || texel.len() > 4
            || texel.iter().any(|&s| self.lane_type(s) != word)
            || (word != cl::F32 && word != cl::I32)
        {
            return Ok(false);
        }
        let kind = if word == cl::F32 {
            img::kind::FLOAT
        } else {
            img::kind::INT
        };
        let vt = if word == cl::F32 { cl::F32X4 } else { cl::I32X4 };
        let mut comps: Vec<Value> = texel.iter().map(|&s| self.as_vec(s, vt)).collect();
        while comps.len() < 4 {
            comps.push(self.splat_bits(vt, 0));
        }
        let lane_xs: Vec<Vec<Value>> = (0..LANES)
            .map(|k| coords[..n].iter().map(|&s| self.lane(s, k)).collect())
            .collect();
        let mut inside = Vec::with_capacity(LANES);
        let mut ats = Vec::with_capacity(LANES);
        for xs in &lane_xs {
            inside.push(self.inside(&t, image, xs)?);
            ats.push(self.taps(&t, image, xs, Lookup::Int { border: false })[0].at);
        }
        let comps4 = [comps[0], comps[1], comps[2], comps[3]];
        let run = self.run(&t, image, &coords);
        self.dispatch(
            image,
            kind,
            vt,
            |l, class| {
                l.fast_write_lanes(class, &ats, &inside, comps4, run);
                Ok(vec![])
            },
            |l| {
                for (k, xs) in lane_xs.iter().enumerate() {
                    let texel: Vec<Value> = comps4.iter().map(|&c| l.b.ins().extractlane(c, k as u8)).collect();
                    l.write_helper(&t, image, kind, xs, &texel);
                }
                Ok(vec![])
            },
        )?;
        self.count(true);
        Ok(true)
    }

    /// The inline writes of fast class `class` of texel components `v`
    /// (each a vector over the lanes) at the lanes' texels `ats`, in lane
    /// order; a lane whose `inside` does not hold writes nothing.
    fn fast_write_lanes(&mut self, class: u32, ats: &[Texel], inside: &[Value], v: [Value; 4], run: Option<Run>) {
        let flags = MemFlagsData::new().with_notrap();
        // A lane outside the image stores to a scratch slot instead: no
        // branch per lane.
        let scratch = self.words_slot();
        if matches!(class, img::fast::RGBA_F32 | img::fast::RGBA_I32) {
            for (k, &at) in ats.iter().enumerate() {
                let p = self.texel_address(at, class);
                let p = self.b.ins().select(inside[k], p, scratch);
                for (c, &x) in v.iter().enumerate() {
                    let w = self.b.ins().extractlane(x, k as u8);
                    self.b.ins().store(flags, w, p, 4 * c as i32);
                }
            }
            return;
        }
        // 4-byte texels: each lane's texel as a lane of an i32x4.
        let zero = self.splat_bits(cl::I32X4, 0);
        let pack = |l: &mut Self, bytes: [Value; 4]| {
            let mut packed = zero;
            for (c, &x) in bytes.iter().enumerate() {
                let x = l.b.ins().ishl_imm_u(x, 8 * c as i64);
                packed = l.b.ins().bor(packed, x);
            }
            packed
        };
        let words = match class {
            img::fast::RGBA_UNORM8 | img::fast::BGRA_UNORM8 => {
                // convert_uchar_sat_rte(x * 255.0f), each channel's four
                // lanes at once.
                let [r, g, b, a] = v;
                let chans = if class == img::fast::BGRA_UNORM8 {
                    [b, g, r, a]
                } else {
                    [r, g, b, a]
                };
                let bytes = chans.map(|x| self.float_to_unorm8(x));
                pack(self, bytes)
            }
            img::fast::R_F32 => self.b.ins().bitcast(cl::I32X4, MemFlagsData::new(), v[0]),
            img::fast::R_I32 => v[0],
            img::fast::RGBA_U8 => {
                // min(x, 255) unsigned.
                let top = self.splat_bits(cl::I32X4, 255);
                let bytes = v.map(|x| self.b.ins().umin(x, top));
                pack(self, bytes)
            }
            img::fast::RGBA_S8 => {
                // clamp(x, -128, 127), its low 8 bits.
                let top = self.splat_bits(cl::I32X4, 127);
                let bottom = self.splat_bits(cl::I32X4, -128i32 as u32);
                let low = self.splat_bits(cl::I32X4, 0xff);
                let bytes = v.map(|x| {
                    let x = self.b.ins().smax(x, bottom);
                    let x = self.b.ins().smin(x, top);
                    self.b.ins().band(x, low)
                });
                pack(self, bytes)
            }
            _ => return,
        };
        let done = self.b.create_block();
        if let Some(run) = run {
            // All four texels inside and side by side: one store.
            let (row, lanes) = (self.b.create_block(), self.b.create_block());
            self.b.ins().brif(run.inside, row, &[], lanes, &[]);
            self.b.switch_to_block(row);
            self.b.ins().store(flags, words, run.base, 0);
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(lanes);
        }
        for (k, &at) in ats.iter().enumerate() {
            let p = self.texel_address(at, class);
            let p = self.b.ins().select(inside[k], p, scratch);
            let w = self.b.ins().extractlane(words, k as u8);
            self.b.ins().store(flags, w, p, 0);
        }
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }
}
