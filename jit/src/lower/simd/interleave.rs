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
    /// The block of four values of one, two or four components of `s`
    /// bytes each (`comps`: one 4-lane vector per component; a single
    /// component of 8 bytes as its two 2-lane halves), or None for other
    /// shapes: a component's vector is itself the block; two or four are
    /// interleaved unit by unit.
    pub(super) fn pack(&mut self, comps: &[Value], s: u64) -> Option<Vec<Value>> {
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        let c: Vec<Value> = comps.iter().map(|&v| self.b.ins().bitcast(cl::I8X16, le, v)).collect();
        Some(match (&c[..], s) {
            (&[_], 1..=4) | (&[_, _], 8) => c,
            (&[a, b], 1..=4) => {
                let lo = self.interleave(a, b, s, false);
                if s == 4 {
                    vec![lo, self.interleave(a, b, s, true)]
                } else {
                    vec![lo]
                }
            }
            (&[a, b, x, y], 1..=4) => {
                let (ab, xy) = (self.interleave(a, b, s, false), self.interleave(x, y, s, false));
                match s {
                    1 => vec![self.interleave(ab, xy, 2, false)],
                    2 => vec![self.interleave(ab, xy, 4, false), self.interleave(ab, xy, 4, true)],
                    4 => {
                        let (abh, xyh) = (self.interleave(a, b, s, true), self.interleave(x, y, s, true));
                        vec![
                            self.interleave(ab, xy, 8, false),
                            self.interleave(ab, xy, 8, true),
                            self.interleave(abh, xyh, 8, false),
                            self.interleave(abh, xyh, 8, true),
                        ]
                    }
                    _ => return None,
                }
            }
            _ => return None,
        })
    }

    /// The `count` components of type `t` of the values of block `block`,
    /// each as a byte vector (lanes 0-3 of the component's vector; the
    /// halves of an 8-byte single component), or None for other shapes:
    /// one shuffle per component of a block of one or two vectors, a
    /// transposition of four 32-bit components in four.
    pub(super) fn unpack(&mut self, block: &[Value], t: Clif, count: usize) -> Option<Vec<Value>> {
        let s = u64::from(t.bytes());
        let size = s * count as u64;
        if count == 1 {
            return (block.len() as u64 == (s * LANES as u64).div_ceil(16)).then(|| block.to_vec());
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
