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
use cranelift_codegen::ir::{types as cl, InstBuilder, MemFlagsData, Type as Clif, Value};
use spirv::Op;

use super::{Shape, LANES};
use crate::lower::image::{Lookup, Texel};
use crate::lower::{Lowering, R};

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
        let Some(lookup) = self.lookup(sampler, &types, &t) else {
            return Ok(false);
        };
        let vt = if rk.word == cl::F32 { cl::F32X4 } else { cl::I32X4 };
        let n = crate::validate::images::coordinates(&t);
        let lane_xs: Vec<Vec<Value>> = (0..LANES)
            .map(|k| coords[..n].iter().map(|&s| self.lane(s, k)).collect())
            .collect();
        let ats: Vec<Texel> = lane_xs.iter().map(|xs| self.texel_at(&t, image, xs, lookup)).collect();
        let comps = self.dispatch(
            image,
            rk.kind,
            vt,
            |l, class| l.fast_read_lanes(class, &ats, rk.word, vt),
            |l| {
                let words: Vec<Vec<Value>> = lane_xs
                    .iter()
                    .map(|xs| l.read_helper(&t, image, sampler, rk.kind, rk.word, xs))
                    .collect();
                Ok((0..4)
                    .map(|c| l.build(vt, std::array::from_fn(|k| words[k][c])))
                    .collect())
            },
        )?;
        let shapes = comps[..rk.n].iter().map(|&v| Shape::V(v)).collect();
        self.set_shapes(inst.result_id(), shapes)?;
        self.count(true);
        Ok(true)
    }

    /// The inline reads of fast class `class` at the lanes' texels `ats`:
    /// the four components, each a vector of `vt` (words of type `word`).
    fn fast_read_lanes(&mut self, class: u32, ats: &[Texel], word: Clif, vt: Clif) -> R<Vec<Value>> {
        let flags = MemFlagsData::new().with_notrap().with_readonly();
        let p: Vec<Value> = ats.iter().map(|&a| self.texel_address(a, class)).collect();
        let gather = |l: &mut Self, vt: Clif, load: &dyn Fn(&mut Self, Value) -> Value| -> Value {
            let lanes: [Value; LANES] = std::array::from_fn(|k| load(l, p[k]));
            l.build(vt, lanes)
        };
        let splat = |l: &mut Self, bits: u32| {
            let x = l.b.ins().iconst(cl::I32, i64::from(bits));
            let x = l.b.ins().splat(cl::I32X4, x);
            if vt == cl::F32X4 {
                l.b.ins().bitcast(vt, MemFlagsData::new(), x)
            } else {
                x
            }
        };
        Ok(match class {
            img::fast::RGBA_UNORM8 | img::fast::BGRA_UNORM8 => {
                // Each lane's texel as a word; byte c of every lane, then
                // byte / 255.0f (the scalar code's division, four at once).
                let texels = gather(self, cl::I32X4, &|l, p| l.b.ins().load(cl::I32, flags, p, 0));
                let byte = self.b.ins().iconst(cl::I32, 0xff);
                let byte = self.b.ins().splat(cl::I32X4, byte);
                let max = self.b.ins().f32const(255.0);
                let max = self.b.ins().splat(cl::F32X4, max);
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
                        let f = self.b.ins().fcvt_from_sint(cl::F32X4, x);
                        self.b.ins().fdiv(f, max)
                    })
                    .collect()
            }
            img::fast::RGBA_F32 | img::fast::RGBA_I32 => (0..4)
                .map(|c| gather(self, vt, &|l, p| l.b.ins().load(word, flags, p, 4 * c)))
                .collect(),
            img::fast::R_F32 | img::fast::R_I32 => {
                let x = gather(self, vt, &|l, p| l.b.ins().load(word, flags, p, 0));
                let one = if word == cl::F32 { 1f32.to_bits() } else { 1 };
                vec![x, splat(self, 0), splat(self, 0), splat(self, one)]
            }
            img::fast::RGBA_U8 => (0..4)
                .map(|c| gather(self, vt, &|l, p| l.b.ins().uload8(cl::I32, flags, p, c)))
                .collect(),
            img::fast::RGBA_S8 => (0..4)
                .map(|c| gather(self, vt, &|l, p| l.b.ins().sload8(cl::I32, flags, p, c)))
                .collect(),
            _ => return Err(format!("no inline read for image class {class}")),
        })
    }

    fn simd_image_write(&mut self, i: u32) -> R<bool> {
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
            let zero = self.b.ins().iconst(cl::I32, 0);
            let zero = self.b.ins().splat(cl::I32X4, zero);
            comps.push(if vt == cl::F32X4 {
                self.b.ins().bitcast(vt, MemFlagsData::new(), zero)
            } else {
                zero
            });
        }
        let lane_xs: Vec<Vec<Value>> = (0..LANES)
            .map(|k| coords[..n].iter().map(|&s| self.lane(s, k)).collect())
            .collect();
        let mut inside = Vec::with_capacity(LANES);
        let mut ats = Vec::with_capacity(LANES);
        for xs in &lane_xs {
            inside.push(self.inside(&t, image, xs)?);
            ats.push(self.texel_at(&t, image, xs, Lookup::Int));
        }
        let comps4 = [comps[0], comps[1], comps[2], comps[3]];
        self.dispatch(
            image,
            kind,
            vt,
            |l, class| {
                l.fast_write_lanes(class, &ats, &inside, comps4);
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
    fn fast_write_lanes(&mut self, class: u32, ats: &[Texel], inside: &[Value], v: [Value; 4]) {
        let flags = MemFlagsData::new().with_notrap();
        // What each lane stores: (offset, value, bytes) triples.
        let mut stores: Vec<Vec<(i32, Value, u8)>> = vec![Vec::new(); LANES];
        match class {
            img::fast::RGBA_UNORM8 | img::fast::BGRA_UNORM8 => {
                // convert_uchar_sat_rte(x * 255.0f), as the scalar code,
                // each channel's four lanes at once; then each lane's four
                // bytes packed into a word.
                let [r, g, b, a] = v;
                let chans = if class == img::fast::BGRA_UNORM8 {
                    [b, g, r, a]
                } else {
                    [r, g, b, a]
                };
                let max = self.b.ins().f32const(255.0);
                let max = self.b.ins().splat(cl::F32X4, max);
                let zero = self.b.ins().iconst(cl::I32, 0);
                let zero = self.b.ins().splat(cl::I32X4, zero);
                let top = self.b.ins().iconst(cl::I32, 255);
                let top = self.b.ins().splat(cl::I32X4, top);
                let mut packed = None;
                for (c, &x) in chans.iter().enumerate() {
                    let x = self.b.ins().fmul(x, max);
                    let x = self.b.ins().nearest(x);
                    let x = self.b.ins().fcvt_to_sint_sat(cl::I32X4, x);
                    let x = self.b.ins().smax(x, zero);
                    let x = self.b.ins().smin(x, top);
                    let x = self.b.ins().ishl_imm_u(x, 8 * c as i64);
                    packed = Some(match packed {
                        Some(p) => self.b.ins().bor(p, x),
                        None => x,
                    });
                }
                let packed = packed.unwrap_or(zero);
                for (k, s) in stores.iter_mut().enumerate() {
                    let w = self.b.ins().extractlane(packed, k as u8);
                    s.push((0, w, 4));
                }
            }
            img::fast::RGBA_F32 | img::fast::RGBA_I32 | img::fast::R_F32 | img::fast::R_I32 => {
                let comps = if matches!(class, img::fast::RGBA_F32 | img::fast::RGBA_I32) {
                    4
                } else {
                    1
                };
                for (k, s) in stores.iter_mut().enumerate() {
                    for (c, &x) in v.iter().enumerate().take(comps) {
                        let w = self.b.ins().extractlane(x, k as u8);
                        s.push((4 * c as i32, w, 4));
                    }
                }
            }
            img::fast::RGBA_U8 | img::fast::RGBA_S8 => {
                let (lo, hi) = if class == img::fast::RGBA_U8 {
                    (0, 255)
                } else {
                    (-128, 127)
                };
                let top = self.b.ins().iconst(cl::I32, hi);
                let top = self.b.ins().splat(cl::I32X4, top);
                let bottom = self.b.ins().iconst(cl::I32, lo);
                let bottom = self.b.ins().splat(cl::I32X4, bottom);
                for (c, &x) in v.iter().enumerate() {
                    // min(x, 255) unsigned, or clamp(x, -128, 127).
                    let x = if class == img::fast::RGBA_U8 {
                        self.b.ins().umin(x, top)
                    } else {
                        let x = self.b.ins().smax(x, bottom);
                        self.b.ins().smin(x, top)
                    };
                    for (k, s) in stores.iter_mut().enumerate() {
                        let w = self.b.ins().extractlane(x, k as u8);
                        s.push((c as i32, w, 1));
                    }
                }
            }
            _ => return,
        }
        // A lane outside the image stores to a scratch slot instead: no
        // branch per lane.
        let scratch = self.words_slot();
        for (k, lane) in stores.iter().enumerate() {
            let p = self.texel_address(ats[k], class);
            let p = self.b.ins().select(inside[k], p, scratch);
            for &(off, w, bytes) in lane {
                if bytes == 1 {
                    self.b.ins().istore8(flags, w, p, off);
                } else {
                    self.b.ins().store(flags, w, p, off);
                }
            }
        }
    }
}
