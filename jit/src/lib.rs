//! clift's compiler: SPIR-V bytes -> parsed module -> validated module ->
//! (kernels issue) Cranelift IR -> machine code.
//!
//! The runtime sees only this file's API: [`check_il`] for
//! clCreateProgramWithIL, [`spec_constants`] for
//! clSetProgramSpecializationConstant, and [`build`] for clBuildProgram,
//! which returns the kernels' interfaces or a build log of [`Diagnostic`]s.
//! Data flows one way: `spirv` (reader, parsed module) -> `validate`
//! (environment and structural rules, producing the evidence later stages
//! require) -> `interface` (what the API reports about kernels).

pub mod error;
pub mod interface;

pub use error::{BuildError, Diagnostic, IlError};
pub use interface::{ArgInfo, ArgKind, BuildOptions, BuiltModule, IlInfo, KernelInfo, SpecConstant};

/// SPIR-V's magic number.
const MAGIC: u32 = 0x0723_0203;

/// The module's words in host order, or why the bytes are not a SPIR-V module
/// clift takes: the magic in either byte order, a length that is a multiple of
/// 4 and holds the 5-word header, a version from 1.0 to 1.2, and an
/// instruction stream whose word counts are nonzero and end exactly at the
/// end of the module.
pub fn words(bytes: &[u8]) -> Result<Vec<u32>, IlError> {
    if bytes.len() % 4 != 0 {
        return Err(IlError(format!("length {} is not a multiple of 4", bytes.len())));
    }
    if bytes.len() < 20 {
        return Err(IlError("shorter than the 5-word SPIR-V header".into()));
    }
    let first = [bytes[0], bytes[1], bytes[2], bytes[3]];
    let swap = if u32::from_le_bytes(first) == MAGIC {
        false
    } else if u32::from_be_bytes(first) == MAGIC {
        true
    } else {
        return Err(IlError("not a SPIR-V module: wrong magic number".into()));
    };
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| {
            let w = [c[0], c[1], c[2], c[3]];
            if swap {
                u32::from_be_bytes(w)
            } else {
                u32::from_le_bytes(w)
            }
        })
        .collect();
    let version = words[1];
    let (major, minor) = ((version >> 16) & 0xff, (version >> 8) & 0xff);
    if version & 0xff00_00ff != 0 || major != 1 || minor > 2 {
        return Err(IlError(format!(
            "SPIR-V version {major}.{minor} (word 0x{version:08x}): clift takes 1.0, 1.1 and 1.2"
        )));
    }
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 {
            return Err(IlError(format!("word {at}: instruction with a word count of 0")));
        }
        if at + count > words.len() {
            return Err(IlError(format!(
                "word {at}: instruction of {count} words runs past the end of the module ({} words)",
                words.len()
            )));
        }
        at += count;
    }
    Ok(words)
}

/// clCreateProgramWithIL's check: is this a SPIR-V module clift takes?
pub fn check_il(bytes: &[u8]) -> Result<IlInfo, IlError> {
    let w = words(bytes)?;
    Ok(IlInfo {
        version: (((w[1] >> 16) & 0xff) as u8, ((w[1] >> 8) & 0xff) as u8),
    })
}

/// The specialization constants of a module that passed [`check_il`], in
/// SpecId order.
pub fn spec_constants(bytes: &[u8]) -> Result<Vec<SpecConstant>, IlError> {
    words(bytes)?;
    Err(IlError("the SPIR-V front end is not written yet".into()))
}

/// clBuildProgram: parses and validates the module against the OpenCL SPIR-V
/// environment and the rules the lowering relies on, with `options` (spec
/// constant values are folded in), and reports its kernels.
pub fn build(bytes: &[u8], options: &BuildOptions) -> Result<BuiltModule, BuildError> {
    let _ = (bytes, options);
    Err(BuildError {
        diagnostics: vec![Diagnostic {
            word_offset: 0,
            opcode: None,
            result_id: None,
            name: None,
            rule: "the SPIR-V front end is not written yet".into(),
        }],
    })
}
