//! Debug dumps: given a dump folder `<dir>` ([`crate::CodegenConfig`]; the
//! runtime takes it from `CLIFT_DUMP`), every program build writes what
//! code generation saw and made, one folder per module, `<dir>/<hash>/`
//! (`<hash>`: 16 hex digits of an FNV-1a hash of the module's disassembly,
//! so rebuilding the same module overwrites its folder):
//! - `module.spvasm`: the whole module, disassembled;
//! - per kernel `<name>` and per helper function (named `spirv.<id>`):
//!   - `<name>.spvasm`: the SPIR-V function;
//!   - `<name>.clif`: the Cranelift IR as lowered, before optimisation;
//!   - `<name>.opt.clif`: the Cranelift IR after optimisation (legalized,
//!     e-graph rewritten, just before instruction selection);
//!   - `<name>.asm`: the machine code: Cranelift's own listing of the
//!     selected instructions after register allocation (its `VCode`
//!     disassembly; no external disassembler is linked), then every code
//!     byte in hex with its offset;
//!   - `<name>.bin`: the raw code bytes, for
//!     `objdump -D -b binary -m i386:x86-64 <name>.bin`;
//!   - `<name>.scalar.txt` (kernels only): why the kernel got no 4-lane
//!     body, when code generation tried to make one;
//!   - `<name>.lanes.txt` (kernels only): why its 4-lane body holds every
//!     value as scalars per lane;
//! - `module.scalar.txt`: why the module, with 4-lane bodies, failed to
//!   compile (every kernel was then compiled again without them).
//!
//! A kernel whose lowering fails gets its `.spvasm` and no other file.
//! Failures to write are reported once per build on stderr and never fail
//! the build.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cranelift_codegen::ir;
use cranelift_codegen::CompiledCode;

use crate::spirv::{Function, Module};

/// Writes one module's dump files.
#[derive(Debug)]
pub struct Dumper {
    dir: PathBuf,
    warned: std::cell::Cell<bool>,
}

impl Dumper {
    /// A dumper writing module `m` under `root`: its folder is created and
    /// `module.spvasm` written.
    pub fn new(root: &Path, m: &Module) -> Dumper {
        let text = disassemble(m, 0..m.insts.len() as u32);
        let dir = root.join(format!("{:016x}", fnv1a(text.as_bytes())));
        let d = Dumper {
            dir,
            warned: std::cell::Cell::new(false),
        };
        if let Err(e) = std::fs::create_dir_all(&d.dir) {
            d.warn(&e);
        }
        d.write("module.spvasm", text.as_bytes());
        d
    }

    /// The folder of this module's files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn warn(&self, e: &dyn std::fmt::Display) {
        if !self.warned.replace(true) {
            eprintln!("clift: debug dump: cannot write to {}: {e}", self.dir.display());
        }
    }

    /// Writes `file` in the module's folder. Kernel names come from the
    /// module: any character but ASCII letters, digits, `_`, `-` and `.`
    /// becomes `_`, so a name such as `../../x` cannot leave the folder.
    fn write(&self, file: &str, bytes: &[u8]) {
        let file: String = file
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if let Err(e) = std::fs::write(self.dir.join(file), bytes) {
            self.warn(&e);
        }
    }

    /// `<name>.spvasm`: SPIR-V function `func` of `m`.
    pub fn spirv(&self, name: &str, m: &Module, func: &Function) {
        let end = func.end.saturating_add(1).min(m.insts.len() as u32);
        self.write(&format!("{name}.spvasm"), disassemble(m, func.inst..end).as_bytes());
    }

    /// `<name>.scalar.txt`: why kernel `name` runs one work-item at a time.
    pub fn scalar_reason(&self, name: &str, why: &str) {
        self.write(&format!("{name}.scalar.txt"), format!("{why}\n").as_bytes());
    }

    /// `module.scalar.txt`: why the module with 4-lane bodies failed to
    /// compile, so that every kernel was compiled again without them.
    pub fn module_scalar_reason(&self, why: &str) {
        self.write("module.scalar.txt", format!("{why}\n").as_bytes());
    }

    /// `<name>.narrow.txt`: why kernel `name` got no 8-lane body (only a
    /// 4-lane one, or none if `<name>.scalar.txt` says so too).
    pub fn narrow_reason(&self, name: &str, why: &str) {
        self.write(&format!("{name}.narrow.txt"), format!("{why}\n").as_bytes());
    }

    /// `<name>.lanes.txt`: why kernel `name`'s 4-lane body holds values
    /// as scalars per lane.
    pub fn lanes_reason(&self, name: &str, why: &str) {
        self.write(&format!("{name}.lanes.txt"), format!("{why}\n").as_bytes());
    }

    /// `<name>.clif` (`optimised` false) or `<name>.opt.clif`.
    pub fn clif(&self, name: &str, func: &ir::Function, optimised: bool) {
        let ext = if optimised { "opt.clif" } else { "clif" };
        self.write(&format!("{name}.{ext}"), func.display().to_string().as_bytes());
    }

    /// `<name>.asm` and `<name>.bin` from a compiled function.
    pub fn machine(&self, name: &str, code: &CompiledCode) {
        let bytes = code.code_buffer();
        let mut s = String::new();
        let _ = writeln!(s, "; {name}: {} bytes of machine code", bytes.len());
        match &code.vcode {
            Some(v) => {
                s.push_str("; Cranelift's listing after register allocation:\n");
                s.push_str(v);
            }
            None => s.push_str("; (no listing: the compiler was not asked for one)\n"),
        }
        s.push_str("\n; code bytes (objdump -D -b binary -m i386:x86-64 on the .bin file disassembles them):\n");
        s.push_str(&hex(bytes));
        self.write(&format!("{name}.asm"), s.as_bytes());
        self.write(&format!("{name}.bin"), bytes);
    }
}

/// Instructions `range` of `m` in the usual text form:
/// `%result = OpName %type operands...`, with OpName names as comments.
pub fn disassemble(m: &Module, range: std::ops::Range<u32>) -> String {
    let mut s = String::new();
    if range.start == 0 {
        let _ = writeln!(
            s,
            "; SPIR-V {}.{}\n; Generator: 0x{:08x}\n; Bound: {}",
            m.version.0, m.version.1, m.generator, m.bound
        );
    }
    for i in range {
        let Some(inst) = m.insts.get(i as usize) else {
            break;
        };
        let mut line = String::new();
        if let Some(r) = inst.result_id {
            let _ = write!(line, "{:>8} = ", format!("%{r}"));
        } else {
            line.push_str("           ");
        }
        line.push_str(&inst.opname());
        if let Some(t) = inst.result_type {
            let _ = write!(line, " %{t}");
        }
        for o in &inst.operands {
            let _ = match o {
                rspirv::dr::Operand::IdRef(x)
                | rspirv::dr::Operand::IdScope(x)
                | rspirv::dr::Operand::IdMemorySemantics(x) => {
                    write!(line, " %{x}")
                }
                rspirv::dr::Operand::LiteralString(t) => write!(line, " {t:?}"),
                other => write!(line, " {other}"),
            };
        }
        if let Some(n) = inst.result_id.and_then(|r| m.name(r)) {
            let _ = write!(line, "  ; {n}");
        }
        let _ = writeln!(s, "{line}");
    }
    s
}

/// `bytes` as lines of 16 hex bytes after their offset.
fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 3 + bytes.len() / 16 * 8);
    for (k, line) in bytes.chunks(16).enumerate() {
        let _ = write!(s, "{:06x}:", k * 16);
        for b in line {
            let _ = write!(s, " {b:02x}");
        }
        s.push('\n');
    }
    s
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_lines_carry_offsets() {
        let h = hex(&(0u8..20).collect::<Vec<_>>());
        assert_eq!(
            h,
            "000000: 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n000010: 10 11 12 13\n"
        );
    }

    #[test]
    fn fnv1a_known_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
