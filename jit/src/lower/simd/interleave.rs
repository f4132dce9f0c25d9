//! Four lanes' values side by side, as memory holds an array of them: a
//! *block* of byte vectors (`i8x16`) with lane k's value at byte
//! `k * size`, 8 to 64 bytes (an 8-byte block in the low half of one
//! vector). A load or store of a small vector per work-item through a
//! pointer moving by its size reads or writes the block whole
//! (`memory`), and a bit cast between types of different component
//! counts (`as_uint` of a `uchar4`, `as_short2` of an `int`) goes
//! through one in registers (`ops`). Both directions are byte shuffles
//! (`pshufb`, `punpckl*`/`punpckh*`), which only move bits.

use cranelift_codegen::ir::{types as cl, ConstantData, InstBuilder, MemFlagsData, Type as Clif, Value};

use super::LANES;
use crate::lower::Lowering;

impl Lowering<'_, '_, '_> {
    /// The block of four values of 1, 2, 4, 8 or 16 components of `s`
    /// bytes each, at most 16 bytes a value (`comps`: one 4-lane vector
    /// per component; a component of 8 bytes as its two 2-lane halves,
    /// one or two such), or None for other shapes: a component's vector is itself
    /// the block; more are merged pairwise, unit by unit, until one holds
    /// the values (`punpckl*`/`punpckh*`).
    pub(super) fn pack(&mut self, comps: &[Value], s: u64) -> Option<Vec<Value>> {
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        let c: Vec<Value> = comps.iter().map(|&v| self.b.ins().bitcast(cl::I8X16, le, v)).collect();
        match (&c[..], s) {
            (&[_, _], 8) => return Some(c),
            // Two 8-byte components: lane k's value is vector k.
            (&[a_lo, a_hi, b_lo, b_hi], 8) => {
                return Some(vec![
                    self.interleave(a_lo, b_lo, 8, false),
                    self.interleave(a_lo, b_lo, 8, true),
                    self.interleave(a_hi, b_hi, 8, false),
                    self.interleave(a_hi, b_hi, 8, true),
                ])
            }
            _ => {}
        }
        if !c.len().is_power_of_two() || !(1..=4).contains(&s) || s * c.len() as u64 > 16 {
            return None;
        }
        // Groups of components merged so far, each the block of its
        // units of `unit` bytes (4 * unit bytes, in 16-byte vectors).
        let mut groups: Vec<Vec<Value>> = c.into_iter().map(|v| vec![v]).collect();
        let mut unit = s;
        while groups.len() > 1 {
            let vectors = (8 * unit).div_ceil(16) as usize;
            groups = groups
                .chunks(2)
                .map(|pair| {
                    let (a, b) = (&pair[0], &pair[1]);
                    let mut out = Vec::with_capacity(vectors);
                    for (&x, &y) in a.iter().zip(b) {
                        for high in [false, true] {
                            if out.len() < vectors {
                                out.push(self.interleave(x, y, unit, high));
                            }
                        }
                    }
                    out
                })
                .collect();
            unit *= 2;
        }
        groups.pop()
    }

    /// The `count` components of type `t` of the values of block `block`,
    /// each as a byte vector (lanes 0-3 of the component's vector; the
    /// two halves of each of one or two 8-byte components), or None for
    /// other shapes:
    /// one shuffle per component of a block of one or two vectors, a
    /// transposition of four 32-bit components in four.
    pub(super) fn unpack(&mut self, block: &[Value], t: Clif, count: usize) -> Option<Vec<Value>> {
        let s = u64::from(t.bytes());
        let size = s * count as u64;
        if count == 1 {
            return (block.len() as u64 == (s * LANES as u64).div_ceil(16)).then(|| block.to_vec());
        }
        if let ([v0, v1, v2, v3], 8, 2) = (block, s, count) {
            // Lane k's value is vector k: each component's two halves.
            let (v0, v1, v2, v3) = (*v0, *v1, *v2, *v3);
            return Some(vec![
                self.interleave(v0, v1, 8, false),
                self.interleave(v2, v3, 8, false),
                self.interleave(v0, v1, 8, true),
                self.interleave(v2, v3, 8, true),
            ]);
        }
        match *block {
            [v0, v1, v2, v3] if s == 4 && count == 4 => {
                let [t01, t23, h01, h23] = [(v0, v1, false), (v2, v3, false), (v0, v1, true), (v2, v3, true)]
                    .map(|(x, y, high)| self.interleave(x, y, 4, high));
                Some(vec![
                    self.interleave(t01, t23, 8, false),
                    self.interleave(t01, t23, 8, true),
                    self.interleave(h01, h23, 8, false),
                    self.interleave(h01, h23, 8, true),
                ])
            }
            [v0, v1, v2, v3] if size == 16 => Some(
                (0..count as u64)
                    .map(|c| {
                        // Lane k's bytes are in vector k: lanes 0-1 from
                        // the first two, 2-3 from the last two, joined.
                        let lanes = |l: &mut Self, x: Value, y: Value| {
                            let pick: Vec<u8> = (0..16u64)
                                .map(|b| {
                                    let k = b / s % 2;
                                    (k * 16 + c * s + b % s) as u8
                                })
                                .collect();
                            let imm = l.b.func.dfg.immediates.push(ConstantData::from(pick));
                            l.b.ins().shuffle(x, y, imm)
                        };
                        let (lo, hi) = (lanes(self, v0, v1), lanes(self, v2, v3));
                        // Lanes 0-1 of `lo` then lanes 0-1 of `hi` (each lane
                        // `s` bytes; the rest repeats them).
                        let pick: Vec<u8> = (0..16u64)
                            .map(|b| {
                                let k = b / s % LANES as u64;
                                ((k / 2) * 16 + (k % 2) * s + b % s) as u8
                            })
                            .collect();
                        let imm = self.b.func.dfg.immediates.push(ConstantData::from(pick));
                        self.b.ins().shuffle(lo, hi, imm)
                    })
                    .collect(),
            ),
            [x] | [x, _] if size * LANES as u64 <= 16 * block.len() as u64 && size <= 8 => {
                let y = *block.last().unwrap_or(&x);
                Some(
                    (0..count as u64)
                        .map(|c| {
                            // Byte j of lane k of component c: byte
                            // k * size + c * s + j of the block (the lanes
                            // past 3 of a narrow vector repeat lanes 0-3).
                            let pick: Vec<u8> = (0..16u64)
                                .map(|b| ((b / s % LANES as u64) * size + c * s + b % s) as u8)
                                .collect();
                            let imm = self.b.func.dfg.immediates.push(ConstantData::from(pick));
                            self.b.ins().shuffle(x, y, imm)
                        })
                        .collect(),
                )
            }
            _ => None,
        }
    }

    /// The units of `unit` bytes of byte vectors `x` and `y` taken in
    /// turn, from their low halves (or high ones: `high`):
    /// `punpckl*`/`punpckh*`.
    fn interleave(&mut self, x: Value, y: Value, unit: u64, high: bool) -> Value {
        let from = if high { 8 } else { 0 };
        let pick: Vec<u8> = (0..16u64)
            .map(|b| {
                let (which, u, j) = ((b / unit) % 2, b / unit / 2, b % unit);
                (which * 16 + from + u * unit + j) as u8
            })
            .collect();
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(pick));
        self.b.ins().shuffle(x, y, imm)
    }
}
