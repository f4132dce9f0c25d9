//! Memory in a 4-lane body: built-in variables, loads, stores and access
//! chains. An affine pointer whose stride is the accessed size reads or
//! writes one vector; other varying pointers gather and scatter lane by
//! lane (in lane order); uniform pointers use the scalar lowering.

use cranelift_codegen::ir::{types as cl, BlockArg, InstBuilder, MemFlagsData, Value};
use rspirv::dr::Operand;
use spirv::{MemoryAccess, Op};

use std::collections::HashMap;

use super::{analysis, bool_components, Shape, Wrap, LANES};
use crate::lower::{types, Lowering, R};
use crate::spirv::{IdKind, Type};

/// Whether a load or store has the Volatile memory operand (from operand
/// `from`) or its pointer the Volatile decoration.
fn volatile(l: &Lowering, inst: &crate::spirv::Inst, from: usize, ptr: crate::spirv::Id) -> bool {
    inst.operands
        .iter()
        .skip(from)
        .any(|o| matches!(o, Operand::MemoryAccess(a) if a.contains(MemoryAccess::VOLATILE)))
        || l.m.decoration(ptr, spirv::Decoration::Volatile).is_some()
}

/// A scalar access whose lanes' values lie side by side
/// ([`Lowering::contiguous`]).
struct Contiguous {
    /// The lowest lane's address (lane 0's, or lane 3's for lanes moving
    /// down).
    base: Value,
    /// The scalar type.
    t: cl::Type,
    /// The vector type: `f64x2` or `i64x2` for 64 bits, held as a
    /// [`Shape::Pair`]; `i8x16` or `i16x8` for 8 and 16, of which 4 or 8
    /// bytes are accessed.
    vt: cl::Type,
    /// The test to make first (an `i8`: nonzero where the lanes may not be
    /// side by side, when `p` carries a [`Wrap`] or a note).
    check: Option<Value>,
    /// Whether the lanes move down: the vector read holds them in the
    /// opposite order.
    reversed: bool,
}

impl Lowering<'_, '_, '_> {
    /// OpLoad or OpStore of values holding half (16 bits in memory,
    /// `lower::half`): one half per lane through a pointer moving by 2 is
    /// one 8-byte access and the vector forms of the conversions; any
    /// other, the scalar lowering's access once per lane (once in all when
    /// nothing varies).
    pub(super) fn simd_half_access(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        if self.varying_operands(i).is_empty() {
            return self.scalar_inst(i);
        }
        let ptr = inst.operand(0);
        let (ty, value, access) = match inst.op {
            Op::Load => (inst.result_type.ok_or("a load without a type")?, None, 1),
            _ => (self.type_of(inst.operand(1)), Some(inst.operand(1)), 2),
        };
        if !self.is_varying(ptr) || self.scalar_lanes() || volatile(self, &inst, access, ptr) {
            return self.per_lane(i);
        }
        let p = *self.shapes(ptr)?.first().ok_or("an empty pointer")?;
        let comps = types::flatten(m, ty)?;
        let (
            Shape::Affine {
                base,
                stride: 2,
                wrap: None,
            },
            [(cl::F16, 0)],
        ) = (p, &comps[..])
        else {
            return self.per_lane(i);
        };
        self.count_access(ptr);
        match value {
            None => {
                let h = self.b.ins().uload16x4(MemFlagsData::new(), base, 0);
                let v = crate::lower::half::from_bits4(self.b, h);
                self.set_shapes(inst.result_id.ok_or("a load without a result")?, vec![Shape::V(v)])
            }
            Some(v) => {
                let s = *self.shapes(v)?.first().ok_or("an empty value")?;
                let x = self.as_vec(s, cl::F32X4);
                let h = crate::lower::half::to_bits4(self.b, x);
                let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
                let h = self.b.ins().bitcast(cl::I64X2, le, h);
                let low = self.b.ins().extractlane(h, 0);
                self.b.ins().store(MemFlagsData::new(), low, base, 0);
                Ok(())
            }
        }
    }

    /// OpLoad.
    pub(super) fn simd_load(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let ty = inst.result_type();
        let id = inst.result_id();
        let ptr = inst.operand(0);
        if let Some(b) = analysis::builtin_of(m, ptr) {
            if analysis::per_lane_builtin(b) {
                // Each lane's, from its own local id.
                let x0 = self.wi.local_id[0];
                let mut lanes = Vec::with_capacity(LANES);
                for k in 0..LANES {
                    self.wi.local_id[0] = self.b.ins().iadd_imm_s(x0, k as i64);
                    let v = self.builtin(b, ty);
                    self.wi.local_id[0] = x0;
                    lanes.push(*v?.first().ok_or("an empty built-in")?);
                }
                let lanes: [Value; LANES] = lanes.try_into().map_err(|_| "four lanes")?;
                return self.set_shapes(id, vec![Shape::Lanes(lanes)]);
            }
            let vals = self.builtin(b, ty)?;
            if matches!(b, spirv::BuiltIn::LocalInvocationId) {
                if let Some(&x) = vals.first() {
                    self.mark_small(x);
                }
            }
            if analysis::affine_builtin(b) {
                if let Some(&x) = vals.first().filter(|&&x| self.ty(x) == cl::I64) {
                    if let Some(c) = self.kernel.borrow_mut().simd.as_mut() {
                        c.ids.insert(x);
                    }
                }
            }
            let shapes: Vec<Shape> = vals
                .into_iter()
                .enumerate()
                .map(|(k, v)| {
                    if k == 0 && analysis::affine_builtin(b) {
                        Shape::Affine {
                            base: v,
                            stride: 1,
                            wrap: None,
                        }
                    } else {
                        Shape::U(v)
                    }
                })
                .collect();
            return self.set_shapes(id, shapes);
        }
        if !self.is_varying(ptr) {
            return self.scalar_inst(i);
        }
        if volatile(self, &inst, 1, ptr) {
            return self.per_lane(i);
        }
        let p = *self.shapes(ptr)?.first().ok_or("an empty pointer")?;
        let comps = types::flatten(m, ty)?;
        let bools = bool_components(m, ty)?;
        // One vector load (two for a double): a 32- or 64-bit scalar
        // through a pointer moving by its size.
        // A narrow value serving only as an index: lane by lane.
        let index = self.simd.as_ref().is_some_and(|s| s.index_loads.contains(&id));
        if index {
            let addrs = self.addresses(p)?;
            if let [(t, 0)] = comps[..] {
                let lanes = addrs.map(|(a, o)| self.b.ins().load(t, MemFlagsData::new(), a, o));
                return self.set_shapes(id, vec![Shape::Lanes(lanes)]);
            }
        }
        if let Some(Contiguous {
            base,
            t,
            vt,
            check,
            reversed,
        }) = self.contiguous(p, &comps, &bools)
        {
            self.count_access(ptr);
            let vectors = (LANES / vt.lane_count() as usize).max(1);
            let shape = |vals: &[Value]| match *vals {
                [v] => Ok(Shape::V(v)),
                [lo, hi] => Ok(Shape::Pair([lo, hi])),
                _ => Err("a contiguous access of an unexpected width".to_string()),
            };
            let load = |l: &mut Self| -> Vec<Value> {
                let vals = if vt.lane_count() as usize > LANES {
                    vec![l.load_low(vt, base)]
                } else {
                    (0..vectors)
                        .map(|k| l.b.ins().load(vt, MemFlagsData::new(), base, 16 * k as i32))
                        .collect()
                };
                if reversed {
                    l.reverse_lanes(&vals)
                } else {
                    vals
                }
            };
            let Some(wrapped) = check else {
                let vals = load(self);
                let s = shape(&vals)?;
                return self.set_shapes(id, vec![s]);
            };
            // Lanes that wrapped are gathered.
            let (fast, slow, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
            let vals: Vec<Value> = (0..vectors).map(|_| self.b.append_block_param(join, vt)).collect();
            self.b.ins().brif(wrapped, slow, &[], fast, &[]);
            self.b.switch_to_block(fast);
            let x: Vec<BlockArg> = load(self).into_iter().map(BlockArg::Value).collect();
            self.b.ins().jump(join, &x);
            self.b.switch_to_block(slow);
            let addrs = self.lanes(p);
            let lanes = addrs.map(|a| self.b.ins().load(t, MemFlagsData::new(), a, 0));
            let x = match shape(&vals)? {
                Shape::Pair(_) => self.build_pair(vt, lanes).to_vec(),
                _ => vec![self.build(vt, lanes)],
            };
            let x: Vec<BlockArg> = x.into_iter().map(BlockArg::Value).collect();
            self.b.ins().jump(join, &x);
            self.b.switch_to_block(join);
            let s = shape(&vals)?;
            return self.set_shapes(id, vec![s]);
        }
        // A small vector per lane: the block of the four lanes' values
        // (one access when side by side), taken apart by shuffles.
        if let Some((t, size)) = self.small_vector(&comps, &bools) {
            if self.moves_by(p, size) {
                self.count_access(ptr);
            }
            let shapes = self.load_small_vectors(p, t, comps.len(), size)?;
            return self.set_shapes(id, shapes);
        }
        if let Some(s) = self.strided_narrow_load(p, &comps, &bools) {
            self.count_access(ptr);
            return self.set_shapes(id, vec![s]);
        }
        if let Some(s) = self.strided_load32(p, &comps, &bools) {
            self.count_access(ptr);
            return self.set_shapes(id, vec![s]);
        }
        // Gather, component by component.
        let addrs = self.addresses(p)?;
        let mut shapes = Vec::with_capacity(comps.len());
        for (c, (t, off)) in comps.into_iter().enumerate() {
            let lanes: [Value; LANES] = std::array::from_fn(|k| {
                let (a, o) = addrs[k];
                self.b.ins().load(t, MemFlagsData::new(), a, o.wrapping_add(off as i32))
            });
            let boolean = bools.get(c).copied().unwrap_or(false);
            shapes.push(self.assemble(lanes, t, boolean));
        }
        self.set_shapes(id, shapes)
    }

    /// OpVariable in Function storage: one copy per lane, side by side in
    /// one stack slot, so that the pointer is affine with the variable's
    /// size as stride (a scalar `int` or `float` variable is then read and
    /// written as one vector).
    /// A private variable a chunk's frame holds a copy of per lane (in a
    /// function with barriers, `begin_frame`): its initializer, if any,
    /// stored into each copy. Its pointer is computed where it is used
    /// (`shapes`).
    pub(super) fn frame_lane_variable(&mut self, i: u32) -> R {
        let inst = self.at(i);
        let (base, stride) = self
            .frame_lane_var(inst.result_id())
            .ok_or("a variable the frame does not hold per lane")?;
        if let Some(init) = inst.id(1) {
            for k in 0..LANES {
                let a = self.b.ins().iadd_imm_s(base, (k as u64 * stride) as i64);
                self.store_value(a, init, false)?;
            }
        }
        Ok(())
    }

    pub(super) fn simd_variable(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let ty = inst.result_type();
        let id = inst.result_id();
        let (storage, pointee) = m.pointer(ty).ok_or("not a pointer")?;
        if storage != spirv::StorageClass::Function {
            return Err(format!("{storage:?} variables in functions are not supported"));
        }
        let l = m
            .layout(pointee)
            .ok_or_else(|| format!("type {} has no size", m.show_type(pointee)))?;
        // Each lane's copy at the variable's alignment.
        let align = crate::layout::variable_align(m, id, l);
        let size = crate::layout::variable_stride(l, align).ok_or("a private variable too large for four lanes")?;
        let total = size
            .checked_mul(LANES as u64)
            .filter(|&t| t <= 1 << 24)
            .ok_or("a private variable too large for four lanes")?;
        let base = self.private_slot(total, align)?;
        if let Some(init) = inst.id(1) {
            for k in 0..LANES {
                let a = self.b.ins().iadd_imm_s(base, (k as u64 * size) as i64);
                self.store_value(a, init, false)?;
            }
        }
        self.sb()?.varying.insert(
            id,
            vec![Shape::Affine {
                base,
                stride: size as i64,
                wrap: None,
            }],
        );
        Ok(())
    }

    /// For a value of components `comps` (booleans where `bools` says)
    /// through pointer `p`: when it is a single 8-, 16-, 32- or 64-bit
    /// scalar (not a boolean) and `p` moves by its size, up or down, the
    /// [`Contiguous`] access.
    fn contiguous(&mut self, p: Shape, comps: &[(cl::Type, u64)], bools: &[bool]) -> Option<Contiguous> {
        // A pointer with an unclamped note: its sequence, unless the
        // note's test says otherwise.
        let (p, differ) = match self.unclamped_pointer(p) {
            Some((p, differ)) => (p, Some(differ)),
            None => (p, None),
        };
        let (Shape::Affine { base, stride, wrap }, [(t, 0)], [false]) = (p, comps, bools) else {
            return None;
        };
        let size = i64::from(t.bytes());
        if self.scalar_lanes() || stride.abs() != size {
            return None;
        }
        let vt = match *t {
            cl::I8 => cl::I8X16,
            cl::I16 => cl::I16X8,
            cl::I32 => cl::I32X4,
            cl::F32 => cl::F32X4,
            cl::F64 => cl::F64X2,
            cl::I64 => cl::I64X2,
            _ => return None,
        };
        let check = match wrap {
            None => differ,
            Some(w) => Some(self.wraps(w.narrow, w.nstride, w.signed)?),
        };
        // Lanes moving down start at lane 3's value.
        let reversed = stride < 0;
        let base = if reversed {
            self.b.ins().iadd_imm_s(base, stride * (LANES as i64 - 1))
        } else {
            base
        };
        Some(Contiguous {
            base,
            t: *t,
            vt,
            check,
            reversed,
        })
    }

    /// The lanes of `vals` (one vector or a pair, as [`Contiguous`] reads
    /// them) in the opposite order: lanes 0-3 become lanes 3-0.
    fn reverse_lanes(&mut self, vals: &[Value]) -> Vec<Value> {
        match *vals {
            // Two 2-lane halves: each swapped, and swapped with the other.
            [lo, hi] => vec![self.high_down(hi), self.high_down(lo)],
            _ => vals
                .iter()
                .map(|&v| {
                    let s = (self.ty(v).lane_bits() / 8) as u8;
                    // Lanes 0-3 reversed; the bytes after them (of narrow
                    // lanes) kept where they are.
                    let pick = (0..16u8)
                        .map(|b| if b < 4 * s { (3 - b / s) * s + b % s } else { b })
                        .collect();
                    self.permute_bytes(v, pick)
                })
                .collect(),
        }
    }

    /// OpenCL.std vload_half, vload_halfn and vloada_halfn (n of 1, 2, 4,
    /// 8 or 16) through a pointer the same in every lane at an offset that
    /// moves by 1 (`vload_half(i, p)`): the block of the four lanes'
    /// halves read whole (or lane by lane where the offset wraps), each
    /// component's lanes widened to float as the host function widens
    /// them (`half::from_bits4`, bit for bit); false if the instruction
    /// has no such form (it then runs lane by lane).
    pub(super) fn simd_half_load(&mut self, i: u32) -> R<bool> {
        use spirv::OpenclStd100Op as Cl;
        let m = self.m;
        let inst = self.at(i);
        let op = inst.lit(1).and_then(Cl::from_u32);
        if !matches!(op, Some(Cl::vload_half | Cl::vload_halfn | Cl::vloada_halfn)) || self.scalar_lanes() {
            return Ok(false);
        }
        let (offset, ptr) = (inst.operand(2), inst.operand(3));
        let (ty, id) = inst.result();
        let out = types::components(m, ty)?;
        let n = out.len();
        if out.iter().any(|&t| t != cl::F32) || (op != Some(Cl::vload_half) && inst.lit(4) != Some(n as u32)) {
            return Ok(false);
        }
        let Some(parts) = self.half_blocks(offset, ptr, n)? else {
            return Ok(false);
        };
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        let per = n.min(8);
        let mut comps = Vec::with_capacity(n);
        for at in parts {
            let block = self.load_block(at, 2 * per as u64)?;
            comps.extend(
                self.unpack(&block, cl::I16, per)
                    .ok_or("a block of an unexpected size")?,
            );
        }
        let shapes = comps
            .into_iter()
            .map(|v| {
                let halves = self.b.ins().bitcast(cl::I16X8, le, v);
                let bits = self.b.ins().uwiden_low(halves);
                Shape::V(crate::lower::half::from_bits4(self.b, bits))
            })
            .collect();
        self.count(true);
        self.set_shapes(id, shapes)?;
        Ok(true)
    }

    /// OpenCL.std vstore_half, vstore_halfn and vstorea_halfn of floats
    /// (n of 1, 2, 4, 8 or 16) rounding to nearest even (no mode, or
    /// RTE), through a pointer the same in every lane at an offset that
    /// moves by 1: each component's lanes rounded and encoded with vector
    /// code as the host function does (`half::round_rte4`, `to_bits4`: a
    /// NaN quiet, its payload's top bits kept), written as the block of
    /// the four lanes' halves (lane by lane where the offset wraps); false
    /// if the instruction has no such form (it then runs lane by lane).
    pub(super) fn simd_half_store(&mut self, i: u32) -> R<bool> {
        use spirv::OpenclStd100Op as Cl;
        let m = self.m;
        let inst = self.at(i);
        let op = inst.lit(1).and_then(Cl::from_u32);
        let rounding = match op {
            Some(Cl::vstore_half | Cl::vstore_halfn | Cl::vstorea_halfn) => inst.operands.len() == 5,
            Some(Cl::vstore_half_r | Cl::vstore_halfn_r | Cl::vstorea_halfn_r) => matches!(
                inst.operands.get(5),
                Some(Operand::FPRoundingMode(spirv::FPRoundingMode::RTE))
            ),
            _ => false,
        };
        if !rounding || self.scalar_lanes() {
            return Ok(false);
        }
        let (data, offset, ptr) = (inst.operand(2), inst.operand(3), inst.operand(4));
        let comps = types::components(m, self.type_of(data))?;
        let n = comps.len();
        if comps.iter().any(|&t| t != cl::F32) {
            return Ok(false);
        }
        let Some(parts) = self.half_blocks(offset, ptr, n)? else {
            return Ok(false);
        };
        let shapes = self.shapes(data)?;
        let halves: Vec<Value> = shapes
            .iter()
            .map(|&s| {
                let x = self.as_vec(s, cl::F32X4);
                let r = crate::lower::half::round_rte4(self.b, x);
                crate::lower::half::to_bits4(self.b, r)
            })
            .collect();
        // Blocks of at most 8 halves a lane, as `simd_half_load` reads.
        let per = n.min(8);
        for (at, group) in parts.into_iter().zip(halves.chunks(per)) {
            let block = self.pack(group, 2).ok_or("a block of an unexpected size")?;
            self.store_block(at, 2 * per as u64, &block)?;
        }
        self.count(true);
        Ok(true)
    }

    /// For `n` halves a lane (1, 2, 4, 8 or 16) through pointer `ptr`, the
    /// same in every lane, at an offset `offset` that moves by 1: the
    /// pointers to each block of at most 8 halves a lane (two for 16, the
    /// lanes' second halves 16 bytes further), moving by 2n bytes, lane
    /// 0's address as the scalar lowering computes it, with the offset's
    /// wrap note; None for any other access (nothing emitted).
    fn half_blocks(&mut self, offset: crate::spirv::Id, ptr: crate::spirv::Id, n: usize) -> R<Option<Vec<Shape>>> {
        if self.scalar_lanes() || self.is_varying(ptr) || !matches!(n, 1 | 2 | 4 | 8 | 16) {
            return Ok(None);
        }
        let Some(&Shape::Affine { base, stride: 1, wrap }) = self.shapes(offset)?.first() else {
            return Ok(None);
        };
        if self.ty(base) != cl::I64 {
            return Ok(None);
        }
        let size = 2 * n as i64;
        let p = self.get1(ptr)?;
        let off = self.b.ins().imul_imm_u(base, size);
        let addr = self.b.ins().iadd(p, off);
        let per = n.min(8);
        Ok(Some(
            (0..n / per)
                .map(|part| Shape::Affine {
                    base: self.b.ins().iadd_imm_s(addr, 16 * part as i64),
                    stride: size,
                    wrap: wrap.map(|w| Wrap {
                        scale: w.scale.wrapping_mul(size),
                        ..w
                    }),
                })
                .collect(),
        ))
    }

    /// OpenCL.std vloadn or vstoren of a small vector ([`Self::small_vector`]:
    /// not of halves) through a pointer the same in every lane at an
    /// offset that is an affine sequence: the block of the four lanes'
    /// values, side by side when the offset moves by 1 (`vload4(i, p)`
    /// with `i` the work-item id), else whole values lane by lane; false
    /// if the instruction has no such form (it then runs lane by lane).
    pub(super) fn simd_vector_access(&mut self, i: u32) -> R<bool> {
        use spirv::OpenclStd100Op as Cl;
        let m = self.m;
        let inst = self.at(i);
        let op = inst.lit(1).and_then(Cl::from_u32);
        let (value, offset, ptr) = match op {
            Some(Cl::vloadn) => (None, inst.operand(2), inst.operand(3)),
            Some(Cl::vstoren) => (Some(inst.operand(2)), inst.operand(3), inst.operand(4)),
            _ => return Ok(false),
        };
        if self.touches_half(i) || self.is_varying(ptr) {
            return Ok(false);
        }
        let ty = match value {
            None => inst.result_type(),
            Some(v) => self.type_of(v),
        };
        let comps = types::flatten(m, ty)?;
        let bools = bool_components(m, ty)?;
        // (An offset that may wrap, an `int` widened: the block access
        // tests the wrap.) Three 32-bit components: `vector3_access`.
        let three = match comps[..] {
            [(t, 0), (t1, 4), (t2, 8)] if t == t1 && t == t2 && matches!(t, cl::I32 | cl::F32) => {
                (!self.scalar_lanes() && !bools.iter().any(|&b| b)).then_some((t, 12))
            }
            _ => None,
        };
        let (Some((t, size)), Some(&Shape::Affine { base, stride, wrap })) = (
            three.or_else(|| self.small_vector(&comps, &bools)),
            self.shapes(offset)?.first(),
        ) else {
            return Ok(false);
        };
        if three.is_some() && stride != 1 {
            return Ok(false);
        }
        let count_ok = value.is_some() || inst.lit(4) == Some(comps.len() as u32);
        if self.ty(base) != cl::I64 || !count_ok {
            return Ok(false);
        }
        // Lane 0's address as the scalar lowering computes it.
        let p = self.get1(ptr)?;
        let off = self.b.ins().imul_imm_u(base, size as i64);
        let addr = self.b.ins().iadd(p, off);
        let at = Shape::Affine {
            base: addr,
            stride: stride.wrapping_mul(size as i64),
            wrap: wrap.map(|w| Wrap {
                scale: w.scale.wrapping_mul(size as i64),
                ..w
            }),
        };
        self.count(true);
        if three.is_some() {
            let shapes = match value {
                None => None,
                Some(v) => Some(self.shapes(v)?),
            };
            if let Some(shapes) = self.vector3_access(at, t, shapes)? {
                self.set_shapes(inst.result_id(), shapes)?;
            }
            return Ok(true);
        }
        match value {
            None => {
                let shapes = self.load_small_vectors(at, t, comps.len(), size)?;
                self.set_shapes(inst.result_id(), shapes)?;
            }
            Some(v) => {
                let shapes = self.shapes(v)?;
                self.store_small_vectors(at, t, size, &shapes)?;
            }
        }
        Ok(true)
    }

    /// `vload3` (`values` None: the components' shapes returned) or
    /// `vstore3` (the components' shapes given) of 32-bit components
    /// (type `t`) through pointer `at` moving by 12 bytes: the four lanes'
    /// 48 bytes read or written as three vectors, each component or
    /// each vector put together by two shuffles; where `at` carries a
    /// wrap note whose test fails, lane by lane.
    fn vector3_access(&mut self, at: Shape, t: cl::Type, values: Option<Vec<Shape>>) -> R<Option<Vec<Shape>>> {
        let Shape::Affine { base, wrap, .. } = at else {
            return Err("vload3 or vstore3 through a pointer that is not affine".into());
        };
        let vt = if t == cl::F32 { cl::F32X4 } else { cl::I32X4 };
        let flags = MemFlagsData::new();
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        // (An offset whose lanes may always wrap: lane by lane always.)
        let test = match wrap {
            Some(w) => Some(match self.wraps(w.narrow, w.nstride, w.signed) {
                Some(test) => test,
                None => self.b.ins().iconst(cl::I8, 1),
            }),
            None => None,
        };
        // Byte `b` of the block (lane b / 12, component b % 12 / 4) from
        // three sources, the first two shuffled at once, the third after.
        let gather = |l: &mut Self, srcs: [Value; 3], at: &dyn Fn(usize) -> (usize, usize)| -> Value {
            let first: Vec<u8> = (0..16)
                .map(|b| {
                    let (s, i) = at(b);
                    if s < 2 {
                        (16 * s + i) as u8
                    } else {
                        0
                    }
                })
                .collect();
            let second: Vec<u8> = (0..16)
                .map(|b| {
                    let (s, i) = at(b);
                    if s == 2 {
                        (16 + i) as u8
                    } else {
                        b as u8
                    }
                })
                .collect();
            let imm =
                l.b.func
                    .dfg
                    .immediates
                    .push(cranelift_codegen::ir::ConstantData::from(first));
            let x = l.b.ins().shuffle(srcs[0], srcs[1], imm);
            let imm =
                l.b.func
                    .dfg
                    .immediates
                    .push(cranelift_codegen::ir::ConstantData::from(second));
            l.b.ins().shuffle(x, srcs[2], imm)
        };
        match values {
            None => {
                let fast = |l: &mut Self| {
                    let v: [Value; 3] = std::array::from_fn(|j| l.b.ins().load(cl::I8X16, flags, base, 16 * j as i32));
                    (0..3)
                        .map(|c| {
                            // Lane k of component c: block byte 12k + 4c.
                            let x = gather(l, v, &|b| {
                                let at = 12 * (b / 4) + 4 * c + b % 4;
                                (at / 16, at % 16)
                            });
                            l.b.ins().bitcast(vt, le, x)
                        })
                        .collect()
                };
                let comps = match test {
                    None => fast(self),
                    Some(test) => {
                        let slow = |l: &mut Self| {
                            let addrs = l.lanes(at);
                            Ok((0..3)
                                .map(|c| {
                                    let lanes = addrs.map(|a| l.b.ins().load(t, flags, a, 4 * c));
                                    l.build(vt, lanes)
                                })
                                .collect())
                        };
                        self.fast_or_lanes(test, &[vt; 3], fast, slow)?
                    }
                };
                Ok(Some(comps.into_iter().map(Shape::V).collect()))
            }
            Some(shapes) => {
                let comps: Vec<Value> = shapes.iter().map(|&s| self.as_vec(s, vt)).collect();
                let bytes: Vec<Value> = comps.iter().map(|&v| self.b.ins().bitcast(cl::I8X16, le, v)).collect();
                let store = |l: &mut Self| {
                    for j in 0..3 {
                        // Block byte 16j + b: lane at / 12, component at % 12 / 4.
                        let x = gather(l, [bytes[0], bytes[1], bytes[2]], &|b| {
                            let at = 16 * j + b;
                            (at % 12 / 4, 4 * (at / 12) + at % 4)
                        });
                        l.b.ins().store(flags, x, base, 16 * j as i32);
                    }
                };
                match test {
                    None => store(self),
                    Some(test) => {
                        let (fast_block, slow_block, join) =
                            (self.b.create_block(), self.b.create_block(), self.b.create_block());
                        self.b.ins().brif(test, slow_block, &[], fast_block, &[]);
                        self.b.switch_to_block(fast_block);
                        store(self);
                        self.b.ins().jump(join, &[]);
                        self.b.switch_to_block(slow_block);
                        let addrs = self.lanes(at);
                        for (c, &v) in comps.iter().enumerate() {
                            for (k, &a) in addrs.iter().enumerate() {
                                let x = self.b.ins().extractlane(v, k as u8);
                                self.b.ins().store(flags, x, a, 4 * c as i32);
                            }
                        }
                        self.b.ins().jump(join, &[]);
                        self.b.switch_to_block(join);
                    }
                }
                Ok(None)
            }
        }
    }

    /// A 32-bit scalar through a pointer moving by 8 or 12 bytes (a
    /// component of a `float2` or of a struct of three floats read on its
    /// own, `p[2 * i]`): two 16-byte reads, the first at lane 0's value
    /// and the second ending at or after lane 3's, both within the span
    /// from lane 0's value to the end of lane 3's (bytes of the object
    /// every lane reads from, all of them active here), and one shuffle
    /// picking the lanes. An affine pointer with a wrap note, or a pointer
    /// with an unclamped note, tests first and gathers where the test
    /// says the lanes are not that sequence.
    fn strided_load32(&mut self, p: Shape, comps: &[(cl::Type, u64)], bools: &[bool]) -> Option<Shape> {
        let (&[(t, 0)], [false]) = (comps, bools) else {
            return None;
        };
        if self.scalar_lanes() || !matches!(t, cl::I32 | cl::F32) {
            return None;
        }
        let (base, stride, test) = match self.unclamped_pointer(p) {
            Some((Shape::Affine { base, stride, .. }, differ)) => (base, stride, Some(differ)),
            _ => match p {
                Shape::Affine { base, stride, wrap } => {
                    let test = match wrap {
                        Some(w) => Some(self.wraps(w.narrow, w.nstride, w.signed)?),
                        None => None,
                    };
                    (base, stride, test)
                }
                _ => return None,
            },
        };
        if !matches!(stride, 8 | 12) {
            return None;
        }
        let vt = if t == cl::F32 { cl::F32X4 } else { cl::I32X4 };
        // The second read starts at lane 2's value or 16 bytes before the
        // span's end, whichever is first.
        let second = (2 * stride).min(3 * stride + 4 - 16);
        let pick: Vec<u8> = (0..LANES as i64)
            .flat_map(|k| {
                let at = if k < 2 { k * stride } else { 16 + k * stride - second };
                (at..at + 4).map(|b| b as u8)
            })
            .collect();
        let flags = MemFlagsData::new();
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        let fast = |l: &mut Self| {
            let a = l.b.ins().load(cl::I8X16, flags, base, 0);
            let b = l.b.ins().load(cl::I8X16, flags, base, second as i32);
            let imm =
                l.b.func
                    .dfg
                    .immediates
                    .push(cranelift_codegen::ir::ConstantData::from(pick));
            let x = l.b.ins().shuffle(a, b, imm);
            vec![l.b.ins().bitcast(vt, le, x)]
        };
        let Some(test) = test else {
            return Some(Shape::V(fast(self)[0]));
        };
        let slow = |l: &mut Self| {
            let lanes = l.lanes(p).map(|a| l.b.ins().load(t, flags, a, 0));
            Ok(vec![l.build(vt, lanes)])
        };
        let r = self.fast_or_lanes(test, &[vt], fast, slow).ok()?;
        Some(Shape::V(r[0]))
    }

    /// An 8- or 16-bit integer through a pointer moving by a few bytes
    /// (one component of a `uchar4` read on its own, as clang reads the
    /// components a kernel uses), when the four lanes' values lie within
    /// 16 bytes of lane 0's: the 16 bytes from lane 0's value, picked
    /// by one shuffle, when they lie in the 4 KiB page of lane 0's value
    /// (which is readable, so the read cannot fault; the bytes between and
    /// after the lanes' values are not used), else gathered lane by lane.
    fn strided_narrow_load(&mut self, p: Shape, comps: &[(cl::Type, u64)], bools: &[bool]) -> Option<Shape> {
        let (Shape::Affine { base, stride, wrap }, &[(t, 0)], [false]) = (p, comps, bools) else {
            return None;
        };
        let size = i64::from(t.bytes());
        if self.scalar_lanes() || !matches!(t, cl::I8 | cl::I16) || stride <= size || 3 * stride + size > 16 {
            return None;
        }
        // An index that may wrap (an `int` widened): tested too, the
        // lanes gathered where it did.
        let wrapped = match wrap {
            Some(w) => Some(self.wraps(w.narrow, w.nstride, w.signed)?),
            None => None,
        };
        let vt = super::ops::vec_of(t)?;
        let flags = MemFlagsData::new();
        let page = self.b.ins().band_imm_u(base, 4095);
        let mut inside = self.b.ins().icmp_imm_u(
            cranelift_codegen::ir::condcodes::IntCC::UnsignedLessThanOrEqual,
            page,
            4096 - 16,
        );
        if let Some(wrapped) = wrapped {
            let not = self
                .b
                .ins()
                .icmp_imm_u(cranelift_codegen::ir::condcodes::IntCC::Equal, wrapped, 0);
            inside = self.b.ins().band(inside, not);
        }
        let (fast, slow, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let v = self.b.append_block_param(join, vt);
        self.b.ins().brif(inside, fast, &[], slow, &[]);
        self.b.switch_to_block(fast);
        let bytes = self.b.ins().load(cl::I8X16, flags, base, 0);
        let s = size as u64;
        let pick: Vec<u8> = (0..16u64)
            .map(|b| ((b / s % LANES as u64) * stride as u64 + b % s) as u8)
            .collect();
        let imm = self
            .b
            .func
            .dfg
            .immediates
            .push(cranelift_codegen::ir::ConstantData::from(pick));
        let x = self.b.ins().shuffle(bytes, bytes, imm);
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        let x = self.b.ins().bitcast(vt, le, x);
        self.b.ins().jump(join, &[BlockArg::Value(x)]);
        self.b.switch_to_block(slow);
        let lanes: [Value; LANES] = if wrap.is_some() {
            self.lanes(p).map(|a| self.b.ins().load(t, flags, a, 0))
        } else {
            std::array::from_fn(|k| self.b.ins().load(t, flags, base, (stride * k as i64) as i32))
        };
        let x = self.build(vt, lanes);
        self.b.ins().jump(join, &[BlockArg::Value(x)]);
        self.b.switch_to_block(join);
        Some(Shape::V(v))
    }

    /// For a value of components `comps` (booleans where `bools` says):
    /// when they are 2, 4, 8 or 16 8-, 16- or 32-bit scalars of one type
    /// side by side (no padding: nothing but the value is read or
    /// written) making 2, 4, 8 or 16 bytes, the component type and the
    /// value's size. Four such values side by
    /// side make a block (`interleave`).
    fn small_vector(&self, comps: &[(cl::Type, u64)], bools: &[bool]) -> Option<(cl::Type, u64)> {
        let &(t, _) = comps.first()?;
        let s = u64::from(t.bytes());
        let size = s * comps.len() as u64;
        let same = comps
            .iter()
            .enumerate()
            .all(|(c, &(ct, off))| ct == t && off == c as u64 * s);
        let fits = matches!(size, 2 | 4 | 8 | 16) && comps.len().is_power_of_two();
        let ok = !self.scalar_lanes()
            && comps.len() >= 2
            && same
            && !bools.iter().any(|&b| b)
            && matches!(t, cl::I8 | cl::I16 | cl::I32 | cl::F32)
            && fits;
        ok.then_some((t, size))
    }

    /// Whether pointer `p` moves by `size` (an affine sequence, or a
    /// clamped one's noted sequence, with that stride).
    fn moves_by(&self, p: Shape, size: u64) -> bool {
        let p = self.unclamped_pointer(p).map_or(p, |(q, _)| q);
        matches!(p, Shape::Affine { stride, .. } if stride == size as i64)
    }

    /// The base address of pointer `p` when it moves by `size` (the
    /// lanes' values side by side).
    fn side_by_side(p: Shape, size: u64) -> Option<Value> {
        match p {
            Shape::Affine {
                base,
                stride,
                wrap: None,
            } if stride == size as i64 => Some(base),
            _ => None,
        }
    }

    /// The components (of type `t`, `count` of them) of four small vectors
    /// of `size` bytes through pointer `p` ([`Self::load_block`], then
    /// taken apart).
    fn load_small_vectors(&mut self, p: Shape, t: cl::Type, count: usize, size: u64) -> R<Vec<Shape>> {
        let block = self.load_block(p, size)?;
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        let vt = super::ops::vec_of(t).ok_or("no vector of the type")?;
        let parts = self.unpack(&block, t, count).ok_or("a block of an unexpected size")?;
        Ok(parts
            .into_iter()
            .map(|v| Shape::V(self.b.ins().bitcast(vt, le, v)))
            .collect())
    }

    /// Stores four small vectors of `size` bytes (`shapes`: their
    /// components, of type `t`) through pointer `p` (put together, then
    /// [`Self::store_block`]).
    fn store_small_vectors(&mut self, p: Shape, t: cl::Type, size: u64, shapes: &[Shape]) -> R {
        let vt = super::ops::vec_of(t).ok_or("no vector of the type")?;
        let parts: Vec<Value> = shapes.iter().map(|&s| self.as_vec(s, vt)).collect();
        let block = self
            .pack(&parts, size / parts.len() as u64)
            .ok_or("a block of an unexpected size")?;
        self.store_block(p, size, &block)
    }

    /// The block of four values of `size` bytes through pointer `p`: read
    /// whole (8 to 64 bytes) when they are side by side, else each lane's
    /// value as one scalar (one vector for 16 bytes), put together.
    fn load_block(&mut self, p: Shape, size: u64) -> R<Vec<Value>> {
        if let Some((side_by_side, wrapped)) = self.unless_wrapped(p, size) {
            // Lanes that wrapped are gathered.
            let count = (size as usize * LANES / 16).max(1);
            let (fast, slow, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
            let vals: Vec<Value> = (0..count).map(|_| self.b.append_block_param(join, cl::I8X16)).collect();
            self.b.ins().brif(wrapped, slow, &[], fast, &[]);
            for (block, at) in [(fast, side_by_side), (slow, p)] {
                self.b.switch_to_block(block);
                let x: Vec<BlockArg> = self.load_block_at(at, size)?.into_iter().map(BlockArg::Value).collect();
                self.b.ins().jump(join, &x);
            }
            self.b.switch_to_block(join);
            return Ok(vals);
        }
        self.load_block_at(p, size)
    }

    /// Pointer `p` moving by `size` (the lanes' values side by side) but
    /// for the wrap of a narrow index: `p` without it, and the `i8` test
    /// whether the lanes wrapped (None for any other pointer, or a wrap
    /// that is not tested).
    fn unless_wrapped(&mut self, p: Shape, size: u64) -> Option<(Shape, Value)> {
        if let Some((q, differ)) = self.unclamped_pointer(p) {
            return matches!(q, Shape::Affine { stride, .. } if stride == size as i64).then_some((q, differ));
        }
        let Shape::Affine {
            base,
            stride,
            wrap: Some(w),
        } = p
        else {
            return None;
        };
        if stride != size as i64 {
            return None;
        }
        let wrapped = self.wraps(w.narrow, w.nstride, w.signed)?;
        Some((
            Shape::Affine {
                base,
                stride,
                wrap: None,
            },
            wrapped,
        ))
    }

    /// [`Self::load_block`] without the wrap test: read whole when side by
    /// side, else lane by lane.
    fn load_block_at(&mut self, p: Shape, size: u64) -> R<Vec<Value>> {
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        let flags = MemFlagsData::new();
        if let Some(base) = Self::side_by_side(p, size) {
            if size == 2 {
                let x = self.b.ins().load(cl::I64, flags, base, 0);
                let v = self.b.ins().scalar_to_vector(cl::I64X2, x);
                return Ok(vec![self.b.ins().bitcast(cl::I8X16, le, v)]);
            }
            return Ok((0..size * LANES as u64 / 16)
                .map(|k| self.b.ins().load(cl::I8X16, flags, base, 16 * k as i32))
                .collect());
        }
        let addrs = self.addresses(p)?;
        let blocks = match size {
            16 => addrs.map(|(a, o)| self.b.ins().load(cl::I8X16, flags, a, o)).to_vec(),
            8 => {
                let lanes = addrs.map(|(a, o)| self.b.ins().load(cl::I64, flags, a, o));
                self.build_pair(cl::I64X2, lanes).to_vec()
            }
            _ => {
                let (t, vt) = if size == 4 {
                    (cl::I32, cl::I32X4)
                } else {
                    (cl::I16, cl::I16X8)
                };
                let lanes = addrs.map(|(a, o)| self.b.ins().load(t, flags, a, o));
                vec![self.build(vt, lanes)]
            }
        };
        Ok(blocks
            .into_iter()
            .map(|v| self.b.ins().bitcast(cl::I8X16, le, v))
            .collect())
    }

    /// Writes block `block` of four values of `size` bytes through
    /// pointer `p`: whole when they are side by side, else each lane's
    /// value as one scalar (one vector for 16 bytes).
    fn store_block(&mut self, p: Shape, size: u64, block: &[Value]) -> R {
        if let Some((side_by_side, wrapped)) = self.unless_wrapped(p, size) {
            // Lanes that wrapped are scattered.
            let (fast, slow, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
            self.b.ins().brif(wrapped, slow, &[], fast, &[]);
            for (b, at) in [(fast, side_by_side), (slow, p)] {
                self.b.switch_to_block(b);
                self.store_block_at(at, size, block)?;
                self.b.ins().jump(join, &[]);
            }
            self.b.switch_to_block(join);
            return Ok(());
        }
        self.store_block_at(p, size, block)
    }

    /// [`Self::store_block`] without the wrap test.
    fn store_block_at(&mut self, p: Shape, size: u64, block: &[Value]) -> R {
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        let flags = MemFlagsData::new();
        if let Some(base) = Self::side_by_side(p, size) {
            if size == 2 {
                let w = self.b.ins().bitcast(cl::I64X2, le, block[0]);
                let x = self.b.ins().extractlane(w, 0);
                self.b.ins().store(flags, x, base, 0);
                return Ok(());
            }
            for (k, &v) in block.iter().enumerate() {
                self.b.ins().store(flags, v, base, 16 * k as i32);
            }
            return Ok(());
        }
        let addrs = self.addresses(p)?;
        for (k, &(a, o)) in addrs.iter().enumerate() {
            let x = match size {
                16 => block[k],
                8 => {
                    let w = self.b.ins().bitcast(cl::I64X2, le, block[k / 2]);
                    self.b.ins().extractlane(w, (k % 2) as u8)
                }
                4 => {
                    let w = self.b.ins().bitcast(cl::I32X4, le, block[0]);
                    self.b.ins().extractlane(w, k as u8)
                }
                _ => {
                    let w = self.b.ins().bitcast(cl::I16X8, le, block[0]);
                    self.b.ins().extractlane(w, k as u8)
                }
            };
            self.b.ins().store(flags, x, a, o);
        }
        Ok(())
    }

    /// Four 8- or 16-bit integers at `base` (4 or 8 bytes) as lanes 0-3
    /// of a vector of type `vt` (`i8x16` or `i16x8`).
    fn load_low(&mut self, vt: cl::Type, base: Value) -> Value {
        let (w, wv) = Self::low_words(vt);
        let x = self.b.ins().load(w, MemFlagsData::new(), base, 0);
        let v = self.b.ins().scalar_to_vector(wv, x);
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        self.b.ins().bitcast(vt, le, v)
    }

    /// Stores lanes 0-3 of `v` (`i8x16` or `i16x8`) at `base`: 4 or 8
    /// bytes.
    fn store_low(&mut self, v: Value, base: Value) {
        let (_, wv) = Self::low_words(self.ty(v));
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        let w = self.b.ins().bitcast(wv, le, v);
        let x = self.b.ins().extractlane(w, 0);
        self.b.ins().store(MemFlagsData::new(), x, base, 0);
    }

    /// The scalar holding four lanes of narrow vector type `vt`, and the
    /// vector of such scalars.
    fn low_words(vt: cl::Type) -> (cl::Type, cl::Type) {
        if vt == cl::I8X16 {
            (cl::I32, cl::I32X4)
        } else {
            (cl::I64, cl::I64X2)
        }
    }

    /// Counts a vector access through pointer `ptr` as work done in 4
    /// lanes, unless it reads or writes a private variable (-O0 keeps every
    /// local in one: those accesses are overhead, not work).
    fn count_access(&self, ptr: crate::spirv::Id) {
        let private = matches!(
            self.m.type_of(ptr).and_then(|t| self.m.pointer(t)),
            Some((spirv::StorageClass::Function, _))
        );
        if !private {
            self.count(true);
        }
    }

    /// Each lane's address as a base and a constant offset.
    fn addresses(&mut self, p: Shape) -> R<[(Value, i32); LANES]> {
        Ok(match p {
            Shape::Affine {
                base,
                stride,
                wrap: None,
            } if (stride.unsigned_abs() as usize) * LANES < (1 << 30) => {
                std::array::from_fn(|k| (base, (stride as i32).wrapping_mul(k as i32)))
            }
            _ => {
                let l = self.lanes(p);
                l.map(|a| (a, 0))
            }
        })
    }

    /// OpStore.
    pub(super) fn simd_store(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let ptr = inst.operand(0);
        let val = inst.operand(1);
        if !self.is_varying(ptr) {
            // A uniform pointer: the same value from every lane is one
            // store; different ones race, and the last lane's wins.
            if !self.is_varying(val) {
                return self.scalar_inst(i);
            }
            return self.per_lane(i);
        }
        let ty = self.type_of(val);
        let aggregate = matches!(m.ty(ty), Some(Type::Array { .. } | Type::Struct { .. }));
        if volatile(self, &inst, 2, ptr) || (aggregate && m.kind(val) == IdKind::Constant) {
            return self.per_lane(i);
        }
        let shapes = self.shapes(val)?;
        if shapes.len() != types::flatten(m, ty)?.len() {
            return Err(format!("{} does not match its type", m.show(val)));
        }
        self.store_shapes(ptr, ty, &shapes)
    }

    /// Stores a value of type `ty`, its components' shapes `shapes`,
    /// through varying pointer `ptr` (not volatile): one vector access
    /// where the lanes' values are side by side, blocks of small vectors,
    /// else lane by lane.
    pub(super) fn store_shapes(&mut self, ptr: crate::spirv::Id, ty: crate::spirv::Id, shapes: &[Shape]) -> R {
        let m = self.m;
        let p = *self.shapes(ptr)?.first().ok_or("an empty pointer")?;
        let comps = types::flatten(m, ty)?;
        let bools = bool_components(m, ty)?;
        if let (
            Some(Contiguous {
                base,
                vt,
                check,
                reversed,
                ..
            }),
            [s],
        ) = (self.contiguous(p, &comps, &bools), shapes)
        {
            self.count_access(ptr);
            let vals = if vt.lane_count() == 2 {
                self.as_pair(*s, vt).to_vec()
            } else {
                vec![self.as_vec(*s, vt)]
            };
            let store = |l: &mut Self| {
                let stored = if reversed { l.reverse_lanes(&vals) } else { vals.clone() };
                if vt.lane_count() as usize > LANES {
                    return l.store_low(stored[0], base);
                }
                for (k, &v) in stored.iter().enumerate() {
                    l.b.ins().store(MemFlagsData::new(), v, base, 16 * k as i32);
                }
            };
            let Some(wrapped) = check else {
                store(self);
                return Ok(());
            };
            // Lanes that wrapped are scattered.
            let (fast, slow, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
            self.b.ins().brif(wrapped, slow, &[], fast, &[]);
            self.b.switch_to_block(fast);
            store(self);
            self.b.ins().jump(join, &[]);
            self.b.switch_to_block(slow);
            let addrs = self.lanes(p);
            let per = (vt.lane_count() as usize).min(LANES);
            for (k, a) in addrs.into_iter().enumerate() {
                let x = self.b.ins().extractlane(vals[k / per], (k % per) as u8);
                self.b.ins().store(MemFlagsData::new(), x, a, 0);
            }
            self.b.ins().jump(join, &[]);
            self.b.switch_to_block(join);
            return Ok(());
        }
        if let Some((t, size)) = self.small_vector(&comps, &bools) {
            if self.moves_by(p, size) {
                self.count_access(ptr);
            }
            return self.store_small_vectors(p, t, size, shapes);
        }
        // Scatter, lane by lane.
        let addrs = self.addresses(p)?;
        let lanes: Vec<[Value; LANES]> = shapes.iter().map(|&s| self.lanes(s)).collect();
        for (k, &(a, o)) in addrs.iter().enumerate() {
            for ((_, off), l) in comps.iter().zip(&lanes) {
                self.b
                    .ins()
                    .store(MemFlagsData::new(), l[k], a, o.wrapping_add(*off as i32));
            }
        }
        Ok(())
    }

    /// The access chains: affine when the base is uniform or affine and
    /// every varying index affine (a 32-bit index is sign-extended: the
    /// result carries a [`Wrap`] for the rare lanes that wrap around),
    /// else lane by lane. A base or index with an unclamped note (`clamp`:
    /// a clamped index) counts as its noted sequence: the pointer is then
    /// computed lane by lane, and noted with the sequence the operands
    /// make, tested by their notes' tests and the wrap test.
    pub(super) fn simd_access_chain(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        if self.varying_operands(i).is_empty() {
            return self.scalar_inst(i);
        }
        let id = inst.result_id();
        let base_id = inst.operand(0);
        let base_ty = self.type_of(base_id);
        let (_, mut cur) = m.pointer(base_ty).ok_or("base is not a pointer")?;
        let ptr_chain = matches!(inst.op, Op::PtrAccessChain | Op::InBoundsPtrAccessChain);
        // The noted operands' sequences, and their tests.
        let mut stand_ins: HashMap<crate::spirv::Id, Shape> = HashMap::new();
        let mut differ: Option<Value> = None;
        let mut sequence = |l: &mut Self, o: crate::spirv::Id| -> R<Option<(Value, i64, Option<Wrap>)>> {
            let Some(&s) = l.shapes(o)?.first() else {
                return Ok(None);
            };
            if let Shape::Affine { base, stride, wrap } = s {
                return Ok(Some((base, stride, wrap)));
            }
            let Some(g) = l.unclamped(s) else {
                return Ok(None);
            };
            let seq = Shape::Affine {
                base: g.base,
                stride: g.stride,
                wrap: None,
            };
            stand_ins.insert(o, seq);
            differ = Some(match differ {
                Some(d) => l.b.ins().bor(d, g.may_differ),
                None => g.may_differ,
            });
            Ok(Some((g.base, g.stride, None)))
        };
        // The wrap of the result: at most one narrow sequence may
        // contribute one.
        let mut wrap: Option<Wrap> = None;
        let mut stride: i64 = match self.shapes(base_id)?.first() {
            Some(Shape::U(_)) => 0,
            _ => match sequence(self, base_id)? {
                Some((_, s, w)) => {
                    wrap = w;
                    s
                }
                None => return self.per_lane(i),
            },
        };
        for k in 1..inst.operands.len() {
            let idx_id = inst.operand(k);
            let elem = match crate::lower::memory::chain_step(m, &mut cur, idx_id, ptr_chain && k == 1)? {
                crate::lower::memory::ChainStep::Member(_) => continue,
                crate::lower::memory::ChainStep::Element(ty) => ty,
            };
            if !self.is_varying(idx_id) {
                continue;
            }
            let size = types::size_of(m, elem)? as i64;
            let Some((base, s, w)) = sequence(self, idx_id)? else {
                return self.per_lane(i);
            };
            stride = stride.wrapping_add(s.wrapping_mul(size));
            // A narrow index is sign-extended: its lanes may wrap.
            let w = match w {
                _ if self.ty(base) != cl::I64 => self.wrap_of(base, s, true),
                w => w,
            };
            if let Some(w) = w {
                if wrap.is_some() {
                    return self.per_lane(i);
                }
                wrap = Some(Wrap {
                    scale: w.scale.wrapping_mul(size),
                    ..w
                });
            }
        }
        // With a note, the wrap is tested with the notes' tests.
        let noted = match (differ, wrap) {
            (None, _) => None,
            (Some(d), None) => Some(d),
            (Some(d), Some(w)) => match self.wraps(w.narrow, w.nstride, w.signed) {
                Some(wrapped) => Some(self.b.ins().bor(d, wrapped)),
                None => return self.per_lane(i),
            },
        };
        // Lane 0's address (of the sequence, for a noted pointer), by the
        // scalar lowering.
        let ops = self.varying_operands(i);
        for &o in &ops {
            let sh = match stand_ins.get(&o) {
                Some(&s) => vec![s],
                None => self.shapes(o)?,
            };
            let vals = sh.iter().map(|&s| self.lane(s, 0)).collect();
            self.values.insert(o, vals);
        }
        let r = self.scalar_inst(i);
        for &o in &ops {
            self.values.remove(&o);
        }
        r?;
        let base = self.get1(id)?;
        self.values.remove(&id);
        if let Some(may_differ) = noted {
            self.per_lane(i)?;
            let exact = *self.shapes(id)?.first().ok_or("an empty pointer")?;
            self.set_unclamped(exact, base, stride, may_differ);
            return Ok(());
        }
        self.set_shapes(id, vec![Shape::Affine { base, stride, wrap }])
    }
}
