//! The clift program binary: the container CL_PROGRAM_BINARIES returns
//! and clCreateProgramWithBinary takes.

use std::collections::BTreeMap;
use std::sync::Arc;

use clift_jit as jit;

use crate::error::ClResult;
use opencl_sys::*;

/// The first bytes of every clift program binary.
pub const BINARY_MAGIC: [u8; 8] = *b"CLIFTBIN";
/// The version of the format below.
pub const BINARY_FORMAT_VERSION: u32 = 1;
/// Bytes before the variable-length parts.
const BINARY_HEADER: usize = 32;
/// Bytes per specialization constant record.
const SPEC_RECORD: usize = 16;
/// Bytes of the trailing checksum.
const BINARY_CHECKSUM: usize = 8;

/// A clift program binary: what CL_PROGRAM_BINARIES returns and
/// clCreateProgramWithBinary takes.
///
/// Layout (every integer little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `CLIFTBIN` |
/// | 8 | 4 | format version (1) |
/// | 12 | 4 | binary type (`CL_PROGRAM_BINARY_TYPE_*`) |
/// | 16 | 4 | `o`: bytes of the build options (UTF-8, no NUL) |
/// | 20 | 4 | `n`: number of specialization constants |
/// | 24 | 4 | `s`: bytes of the SPIR-V module (a nonzero multiple of 4) |
/// | 28 | 4 | reserved, 0 |
/// | 32 | `o` rounded up to 4 | build options, zero padded |
/// | .. | 16 `n` | per constant: SpecId, size (1, 2, 4 or 8), value zero padded to 8 bytes, by increasing SpecId |
/// | .. | `s` | the SPIR-V module as the application gave it (either byte order) |
/// | .. | 8 | 64-bit FNV-1a of every byte before it |
///
/// The SPIR-V is kept rather than machine code: clBuildProgram on a binary
/// program validates it again, so a binary can never smuggle in a module the
/// jit has not checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramBinary {
    /// CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, _LIBRARY or _EXECUTABLE.
    pub binary_type: cl_program_binary_type,
    /// The build options the binary was built with.
    pub options: String,
    /// The specialization constant values the binary was built with.
    pub spec_constants: BTreeMap<u32, Vec<u8>>,
    /// The SPIR-V module.
    pub spirv: Arc<[u8]>,
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `n` rounded up to a multiple of 4, if that fits.
fn pad4(n: usize) -> Option<usize> {
    n.checked_add(3).map(|m| m & !3)
}

impl ProgramBinary {
    /// The binary's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let opt = self.options.as_bytes();
        let mut v = Vec::with_capacity(
            BINARY_HEADER + opt.len() + 3 + SPEC_RECORD * self.spec_constants.len() + self.spirv.len() + 8,
        );
        v.extend_from_slice(&BINARY_MAGIC);
        for w in [
            BINARY_FORMAT_VERSION,
            self.binary_type,
            opt.len() as u32,
            self.spec_constants.len() as u32,
            self.spirv.len() as u32,
            0,
        ] {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.extend_from_slice(opt);
        v.resize(v.len().next_multiple_of(4), 0);
        for (id, value) in &self.spec_constants {
            v.extend_from_slice(&id.to_le_bytes());
            v.extend_from_slice(&(value.len() as u32).to_le_bytes());
            let mut slot = [0u8; 8];
            let n = value.len().min(8);
            slot[..n].copy_from_slice(&value[..n]);
            v.extend_from_slice(&slot);
        }
        v.extend_from_slice(&self.spirv);
        let sum = fnv1a(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        v
    }

    /// Reads a binary, checking every length before it is used:
    /// `CL_INVALID_BINARY` for anything that is not a well-formed clift
    /// binary holding a SPIR-V module clift takes.
    pub fn parse(bytes: &[u8]) -> ClResult<ProgramBinary> {
        Self::parse_inner(bytes).ok_or(crate::ClError(CL_INVALID_BINARY))
    }

    fn parse_inner(bytes: &[u8]) -> Option<ProgramBinary> {
        let word = |at: usize| -> Option<u32> {
            let b = bytes.get(at..at.checked_add(4)?)?;
            Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        if bytes.len() < BINARY_HEADER + BINARY_CHECKSUM || bytes[..8] != BINARY_MAGIC {
            return None;
        }
        if word(8)? != BINARY_FORMAT_VERSION || word(28)? != 0 {
            return None;
        }
        let binary_type = word(12)?;
        if !matches!(
            binary_type,
            CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT | CL_PROGRAM_BINARY_TYPE_LIBRARY | CL_PROGRAM_BINARY_TYPE_EXECUTABLE
        ) {
            return None;
        }
        let opt_len = usize::try_from(word(16)?).ok()?;
        let n_spec = usize::try_from(word(20)?).ok()?;
        let spirv_len = usize::try_from(word(24)?).ok()?;
        if spirv_len == 0 || spirv_len % 4 != 0 {
            return None;
        }
        // Every length is checked against the total before any is used.
        let opt_end = BINARY_HEADER.checked_add(pad4(opt_len)?)?;
        let spec_end = opt_end.checked_add(n_spec.checked_mul(SPEC_RECORD)?)?;
        let spirv_end = spec_end.checked_add(spirv_len)?;
        let total = spirv_end.checked_add(BINARY_CHECKSUM)?;
        if total != bytes.len() {
            return None;
        }
        let sum = u64::from_le_bytes(bytes[spirv_end..total].try_into().ok()?);
        if sum != fnv1a(&bytes[..spirv_end]) {
            return None;
        }
        let opt_bytes = &bytes[BINARY_HEADER..BINARY_HEADER + opt_len];
        if opt_bytes.contains(&0) || bytes[BINARY_HEADER + opt_len..opt_end].iter().any(|&b| b != 0) {
            return None;
        }
        let options = std::str::from_utf8(opt_bytes).ok()?.to_string();
        let mut spec_constants = BTreeMap::new();
        let mut last = None;
        for i in 0..n_spec {
            let at = opt_end + i * SPEC_RECORD;
            let id = word(at)?;
            let size = usize::try_from(word(at + 4)?).ok()?;
            if !matches!(size, 1 | 2 | 4 | 8) || last.is_some_and(|l| l >= id) {
                return None;
            }
            let slot = &bytes[at + 8..at + 16];
            if slot[size..].iter().any(|&b| b != 0) {
                return None;
            }
            spec_constants.insert(id, slot[..size].to_vec());
            last = Some(id);
        }
        let spirv = &bytes[spec_end..spirv_end];
        jit::check_il(spirv).ok()?;
        Some(ProgramBinary {
            binary_type,
            options,
            spec_constants,
            spirv: Arc::from(spirv),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal SPIR-V 1.0 module header (no instructions), little-endian.
    fn tiny_spirv() -> Vec<u8> {
        [0x0723_0203u32, 0x0001_0000, 0, 1, 0]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }

    fn sample() -> ProgramBinary {
        let mut spec = BTreeMap::new();
        spec.insert(3, vec![1]);
        spec.insert(7, vec![1, 2, 3, 4, 5, 6, 7, 8]);
        ProgramBinary {
            binary_type: CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
            options: "-cl-mad-enable -D X=1".into(),
            spec_constants: spec,
            spirv: Arc::from(tiny_spirv()),
        }
    }

    #[test]
    fn binaries_round_trip() {
        let b = sample();
        let bytes = b.to_bytes();
        assert_eq!(&bytes[..8], b"CLIFTBIN");
        assert_eq!(bytes.len() % 4, 0);
        assert_eq!(ProgramBinary::parse(&bytes).unwrap(), b);
        let empty = ProgramBinary {
            options: String::new(),
            spec_constants: BTreeMap::new(),
            ..b
        };
        assert_eq!(ProgramBinary::parse(&empty.to_bytes()).unwrap(), empty);
    }

    #[test]
    fn corrupt_binaries_are_refused() {
        let good = sample().to_bytes();
        let bad = |v: &[u8]| ProgramBinary::parse(v).unwrap_err().0 == CL_INVALID_BINARY;
        // Every truncation and every single-byte change is caught.
        for n in 0..good.len() {
            assert!(bad(&good[..n]), "truncated to {n}");
        }
        for i in 0..good.len() {
            let mut v = good.clone();
            v[i] ^= 0x41;
            assert!(bad(&v), "byte {i} changed");
        }
        let mut longer = good.clone();
        longer.extend_from_slice(&[0; 4]);
        assert!(bad(&longer));
        assert!(bad(b"not a binary at all, just some text!!!!!!!"));
        // Lengths that would overflow or point past the end are refused
        // before use, even with a matching checksum.
        for (at, value) in [(16usize, u32::MAX), (20, u32::MAX), (24, u32::MAX), (24, 6), (24, 0)] {
            let mut v = good[..good.len() - 8].to_vec();
            v[at..at + 4].copy_from_slice(&value.to_le_bytes());
            let sum = fnv1a(&v);
            v.extend_from_slice(&sum.to_le_bytes());
            assert!(bad(&v), "field at {at} = {value:#x}");
        }
        // A well-formed binary around something that is not SPIR-V.
        let mut not_spirv = sample();
        not_spirv.spirv = Arc::from(vec![0u8; 20]);
        assert!(bad(&not_spirv.to_bytes()));
        // An unknown binary type.
        let mut typ = sample();
        typ.binary_type = 0x9999;
        assert!(bad(&typ.to_bytes()));
        // A spec constant of an impossible size.
        let mut size = sample();
        size.spec_constants.insert(9, vec![1, 2, 3]);
        assert!(bad(&size.to_bytes()));
    }
}
