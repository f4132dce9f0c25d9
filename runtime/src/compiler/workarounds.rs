//! What llvm-spirv 15 cannot translate from clang's optimised LLVM IR, and
//! how clift gets a module anyway.
//!
//! When the translator fails on clang's output (or, for `llvm.bitreverse`,
//! writes a Shader-capability module from it, or writes a module that
//! refers to ids it never defines, or may have mistranslated a conversion
//! of `i1`), the IR is
//! disassembled with `opt` of clang's version and read for the constructs
//! llvm-spirv 15 is known not to take. Each has a targeted workaround:
//!
//! | in the IR | made by | workaround |
//! |---|---|---|
//! | `freeze` | div-rem-pairs (`x / y` and `x % y` of the same operands); InstCombine (a masked divisor) | re-optimise without div-rem-pairs; each `freeze` still left written as a no-op cast |
//! | integers of odd widths (`i2`, `i17`, `i33`, `i65`): `InvalidBitWidth` | InstCombine narrowing a switch or compare operand whose high bits it knows (`switch (x % 3)`); loop exit values in closed form (the sum of a counted loop, computed one bit wider) | re-optimise with 8-, 16-, 32- and 64-bit integers declared native in the data layout (InstCombine then keeps those widths), exit values left to the loops (`-replexitval=never`) and no switch lookup tables (which the native widths would turn into `i24` bitmaps) |
//! | `llvm.vector.reduce.*` | the loop vectorizer (short and char sums) | re-optimise without the loop and SLP vectorizers |
//! | `llvm.uadd.sat`, `llvm.ssub.sat`, ...; `llvm.sadd.sat` on `i8` stops llvm-spirv with an assertion | InstCombine, from clamped sums and differences | calls rewritten to OpenCL's `add_sat` / `sub_sat` (same results, translated to OpenCL.std) |
//! | `llvm.bitreverse` | InstCombine, from shift-and-mask bit reversal | calls rewritten to a shift-and-mask function of the module |
//! | `llvm.{sadd,uadd,ssub,usub,smul}.with.overflow` (`umul` translates) | `__builtin_add_overflow` and the like, at every level | calls rewritten to functions of the module (the signed multiply through OpenCL's `mul_hi`) |
//! | constant bitcasts of vector literals: from a one-component vector (`bitcast (<1 x i16> <i16 3271> to <2 x i8>)`) or under `fneg`, an assertion stops llvm-spirv; inside another constant, llvm-spirv writes it before its operand (an invalid module) | clang at -O0, for `as_typeN` of a constant | folded to the constants they make |
//! | an invalid module: decorations of ids never defined | a conversion with a rounding mode or saturation (`convert_int_rte`, `convert_ulong_sat`) whose result a phi uses before its definition: the instruction takes the forward reference's id, its `FPRoundingMode` or `SaturatedConversion` decoration another | calls to those conversions made through functions of the module (each returns the conversion's result) |
//! | a store of a sampler into a private variable (an assertion, "Inconsistent operand types") | clang at -O0, which copies every image and sampler parameter into a private variable | at -O0, local variables promoted to values (clang without `optnone`, then `mem2reg`) |
//! | `CLK_NULL_QUEUE`: a null constant of OpTypeQueue stops llvm-spirv with an assertion | clang, for a null `queue_t` at every level | each made a value loaded from a zeroed private variable at the start of its function |
//! | an invalid module: `bitcast <8 x i1> %c to i8` (and `<16 x i1>`, and back) written as an OpBitcast of a boolean vector | InstCombine, from `as_long(char8 comparison) != 0` and the like | the mask computed with integer vectors: lanes zero-extended, shifted into place, or-ed by halves (back: broadcast, masked, compared with 0) |
//! | a wrong answer: `sitofp i1` (true is -1.0) translated as a select of 1 and 0 then a signed conversion (+1.0); `fptosi`/`fptoui` to `i1`, a conversion to a boolean (an invalid module) | InstCombine, from `(float)(c ? -1 : 0)`; the SLP vectorizer makes vectors of them | a translated module that may hold them (an OpConvertSToF of an OpSelect) is checked against the IR; each is made through a 32-bit integer (`sext` then `sitofp`; `fptosi` then `trunc`) |
//!
//! Re-optimising starts again from clang's unoptimised IR at the same level,
//! with `opt` running the level's own pipeline minus what is left out.
//! Whatever remains untranslatable falls back to -O0 (in `mod.rs`), where
//! the workarounds that need no pipeline apply again.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use parking_lot::Mutex;

use super::process::{run, TempDir};
use super::{tool_args, CompileError, Job};
use crate::options::OptLevel;

/// What the optimised IR holds that llvm-spirv 15 cannot translate.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Findings {
    /// A `freeze` instruction.
    freeze: bool,
    /// `freeze` instructions left after the pipeline changes, rewritten to
    /// no-op casts (for the log).
    freeze_casts: bool,
    /// Integer widths other than 1, 8, 16, 32 and 64.
    odd_widths: BTreeSet<u32>,
    /// `llvm.vector.reduce.*` intrinsics declared.
    reductions: BTreeSet<String>,
    /// `llvm.[su](add|sub).sat.*` intrinsics declared.
    saturating: BTreeSet<String>,
    /// `llvm.bitreverse.*` intrinsics declared.
    bit_reversals: BTreeSet<String>,
    /// `llvm.[su](add|sub).with.overflow.*` and `llvm.smul.with.overflow.*`
    /// declared (`__builtin_add_overflow` and the like).
    overflow_checks: BTreeSet<String>,
    /// OpenCL conversions with a rounding mode or saturation declared
    /// (`convert_int_rte`, `convert_ulong_sat`: mangled names).
    conversions: BTreeSet<String>,
    /// Constant bitcasts of vector or number literals (`bitcast (<1 x i16>
    /// <i16 3271> to <2 x i8>)`, clang -O0's `as_uchar2` of a constant;
    /// `bitcast (<4 x i16> <...> to i64)` inside another constant): how
    /// many [`fold_constant_bitcasts`] folds.
    constant_bitcasts: usize,
    /// Conversions between `i1` (or vectors of it) and floating point
    /// (`sitofp i1`, which llvm-spirv 15 translates as if true were +1:
    /// InstCombine makes it of `(float)(c ? -1 : 0)`; `fptosi`/`fptoui` to
    /// `i1`, translated to an invalid module): how many
    /// [`rewrite_bool_conversions`] rewrites.
    bool_conversions: usize,
    /// A null `queue_t` (`CLK_NULL_QUEUE`): llvm-spirv 15 stops with an
    /// assertion on a null constant of OpTypeQueue.
    null_queues: bool,
    /// Private copies (`alloca`) of images or samplers, which clang -O0
    /// makes of every such parameter: llvm-spirv 15 stops with an assertion
    /// ("Inconsistent operand types") on the store of a sampler into one.
    opaque_allocas: bool,
}

/// Changes to the optimisation pipeline.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct PipelineFixes {
    /// Leave out div-rem-pairs (no `freeze`).
    no_div_rem_pairs: bool,
    /// Native integer widths in the data layout, no exit value
    /// replacement, no switch lookup tables (no odd widths).
    native_integers: bool,
    /// Leave out the loop and SLP vectorizers (no vector reductions).
    no_vectorizers: bool,
}

impl PipelineFixes {
    /// These fixes and those `found` asks for.
    fn with(self, found: &Findings) -> PipelineFixes {
        PipelineFixes {
            no_div_rem_pairs: self.no_div_rem_pairs || found.freeze,
            native_integers: self.native_integers || !found.odd_widths.is_empty(),
            no_vectorizers: self.no_vectorizers || !found.reductions.is_empty(),
        }
    }
}

/// Whether `c` may be part of an LLVM identifier or keyword (so a type
/// token cannot start or end next to it).
fn word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b'%' | b'@' | b'!' | b'#' | b'-')
}

/// The widths of the integer types `iN` on one line of IR, outside quotes.
fn integer_widths(line: &str, out: &mut impl FnMut(u32)) {
    let b = line.as_bytes();
    let mut quoted = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            quoted = !quoted;
        } else if !quoted && c == b'i' && (i == 0 || !word_char(b[i - 1])) {
            let digits = b[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
            let end = i + 1 + digits;
            let ends_type = end == b.len() || !(word_char(b[end]) || b[end] == b':');
            if digits > 0 && ends_type {
                if let Ok(w) = line[i + 1..end].parse::<u32>() {
                    out(w);
                }
            }
            i = end;
            continue;
        }
        i += 1;
    }
}

/// The mangled name of the OpenCL conversion with a rounding mode or
/// saturation (`convert_<type>[_sat][_rt<e|z|p|n>]`) that a `declare` line
/// declares: `_Z17convert_ulong_satf`, `_Z18convert_int4_rteDv4_f`.
fn declared_conversion(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("declare ")?;
    let at = rest.find("@_Z")? + 1;
    let mangled = &rest[at..];
    let mangled = &mangled[..mangled.find('(')?];
    let digits = mangled[2..].bytes().take_while(u8::is_ascii_digit).count();
    let len: usize = mangled[2..2 + digits].parse().ok()?;
    let name = mangled.get(2 + digits..2 + digits + len)?;
    let suffixes = name.strip_prefix("convert_")?.split_once('_')?.1;
    let decorated = matches!(
        suffixes,
        "sat" | "rte" | "rtz" | "rtp" | "rtn" | "sat_rte" | "sat_rtz" | "sat_rtp" | "sat_rtn"
    );
    decorated.then_some(mangled)
}

/// The name of the intrinsic a `declare` line declares (`llvm.x.y`).
fn declared_intrinsic(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("declare ")?;
    let at = rest.find("@llvm.")? + 1;
    let name = &rest[at..];
    Some(&name[..name.find('(')?])
}

impl Findings {
    /// Reads textual LLVM IR.
    fn scan(ir: &str) -> Findings {
        let mut f = Findings::default();
        for line in ir.lines() {
            let t = line.trim_start();
            if t.starts_with([';', '!']) || t.starts_with("attributes ") || t.starts_with("source_filename") {
                continue;
            }
            if t.starts_with("target ") {
                continue;
            }
            if let Some(name) = declared_intrinsic(t) {
                let name = name.to_string();
                if name.starts_with("llvm.vector.reduce.") {
                    f.reductions.insert(name);
                } else if saturating_op(&name).is_some() {
                    f.saturating.insert(name);
                } else if name.starts_with("llvm.bitreverse.") {
                    f.bit_reversals.insert(name);
                } else if overflow_op(&name).is_some() {
                    f.overflow_checks.insert(name);
                }
            }
            if let Some(name) = declared_conversion(t) {
                f.conversions.insert(name.to_string());
            }
            if t.contains(CONSTANT_BITCAST) {
                f.constant_bitcasts += fold_constant_bitcasts(t).1;
            }
            if t.contains("tofp ") || t.contains(" = fpto") || (t.contains(" = bitcast ") && t.contains(" x i1>")) {
                f.bool_conversions += rewrite_bool_conversions(t).1;
            }
            if t.contains(NULL_QUEUE) {
                f.null_queues = true;
            }
            if t.contains(" = alloca %opencl.sampler_t") || t.contains(" = alloca %opencl.image") {
                f.opaque_allocas = true;
            }
            if t.contains(" = freeze ") {
                f.freeze = true;
            }
            integer_widths(t, &mut |w| {
                if !matches!(w, 1 | 8 | 16 | 32 | 64) {
                    f.odd_widths.insert(w);
                }
            });
        }
        f
    }

    /// Whether a pipeline change is still needed (the re-optimised IR
    /// still holds what it was for).
    fn needs_pipeline(&self) -> bool {
        self.freeze || !self.odd_widths.is_empty() || !self.reductions.is_empty()
    }

    /// Whether calls need rewriting.
    fn needs_rewrite(&self) -> bool {
        !self.saturating.is_empty()
            || !self.bit_reversals.is_empty()
            || !self.overflow_checks.is_empty()
            || !self.conversions.is_empty()
            || self.constant_bitcasts > 0
            || self.bool_conversions > 0
            || self.null_queues
    }

    fn is_empty(&self) -> bool {
        !self.needs_pipeline() && !self.needs_rewrite()
    }
}

// ---------------------------------------------------------------------------
// Pipelines
// ---------------------------------------------------------------------------

/// Pipelines already asked of `opt`: (opt, level) -> its text.
type PipelineMemo = Mutex<HashMap<(PathBuf, &'static str), Option<String>>>;

/// `opt`'s pipeline for `level` (`default<O2>` written out), asked of `opt`
/// once per process.
fn level_pipeline(opt: &Path, level: OptLevel) -> Option<String> {
    static PIPELINES: OnceLock<PipelineMemo> = OnceLock::new();
    let key = (opt.to_path_buf(), level.name());
    let map = PIPELINES.get_or_init(Default::default);
    if let Some(p) = map.lock().get(&key) {
        return p.clone();
    }
    let asked = || {
        let dir = TempDir::new().ok()?;
        let a: Vec<String> = vec![
            format!("-passes=default<{}>", level.name()),
            "-print-pipeline-passes".into(),
            "-disable-output".into(),
            "/dev/null".into(),
        ];
        let r = run(opt, &a, &dir, Duration::from_secs(20)).ok()?;
        let p = r.text.lines().map(str::trim).find(|l| l.contains("instcombine"))?;
        r.success.then(|| p.to_string())
    };
    let p = asked();
    map.lock().insert(key, p.clone());
    p
}

/// Splits a pipeline text at its top-level commas (not those inside
/// `(...)` or `<...>`).
fn split_pipeline(p: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in p.char_indices() {
        match c {
            '(' | '<' => depth += 1,
            ')' | '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&p[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&p[start..]);
    parts
}

/// `p` without the passes named in `remove` (with or without parameters),
/// at any nesting depth, and with `simplifycfg`'s `switch-to-lookup`
/// turned off when `no_lookup_tables`. `None` when nothing was removed
/// that should have been.
fn edit_pipeline(p: &str, remove: &[&str], no_lookup_tables: bool) -> Option<String> {
    fn edit(p: &str, remove: &[&str], no_lookup: bool, removed: &mut BTreeSet<String>) -> String {
        let mut kept = Vec::new();
        for part in split_pipeline(p) {
            let name_end = part.find(['(', '<']).unwrap_or(part.len());
            let name = &part[..name_end];
            if remove.contains(&name) {
                removed.insert(name.to_string());
                continue;
            }
            let rest = &part[name_end..];
            let rest = if rest.starts_with('(') && rest.ends_with(')') {
                format!("({})", edit(&rest[1..rest.len() - 1], remove, no_lookup, removed))
            } else if let Some(params) = rest.strip_prefix('<') {
                // A parameter list, maybe followed by a nested pipeline
                // (`function<eager-inv>(...)`).
                let close = params.find('>').unwrap_or(params.len());
                let mut list = params[..close].to_string();
                if no_lookup && name == "simplifycfg" {
                    list = list
                        .split(';')
                        .map(|q| {
                            if q == "switch-to-lookup" {
                                "no-switch-to-lookup"
                            } else {
                                q
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(";");
                }
                let after = params.get(close + 1..).unwrap_or("");
                let after = if after.starts_with('(') && after.ends_with(')') {
                    format!("({})", edit(&after[1..after.len() - 1], remove, no_lookup, removed))
                } else {
                    after.to_string()
                };
                format!("<{list}>{after}")
            } else {
                rest.to_string()
            };
            kept.push(format!("{name}{rest}"));
        }
        kept.join(",")
    }
    let mut removed = BTreeSet::new();
    let out = edit(p, remove, no_lookup_tables, &mut removed);
    remove.iter().all(|r| removed.contains(*r)).then_some(out)
}

/// The data layout string with 8-, 16-, 32- and 64-bit integers declared
/// native (`-n8:16:32:64`), from the module's own.
fn native_integer_layout(ir: &str) -> Option<String> {
    let line = ir.lines().find(|l| l.starts_with("target datalayout = \""))?;
    let dl = line.strip_prefix("target datalayout = \"")?.strip_suffix('"')?;
    if dl.split('-').any(|part| part.starts_with('n')) {
        return None;
    }
    Some(format!("{dl}-n8:16:32:64"))
}

// ---------------------------------------------------------------------------
// Rewriting intrinsic calls
// ---------------------------------------------------------------------------

/// For `llvm.[su](add|sub).sat.<type>`: the OpenCL built-in (`add_sat`,
/// `sub_sat`) and whether it is signed.
fn saturating_op(name: &str) -> Option<(&'static str, bool, &str)> {
    let rest = name.strip_prefix("llvm.")?;
    for (prefix, builtin, signed) in [
        ("sadd.sat.", "add_sat", true),
        ("uadd.sat.", "add_sat", false),
        ("ssub.sat.", "sub_sat", true),
        ("usub.sat.", "sub_sat", false),
    ] {
        if let Some(ty) = rest.strip_prefix(prefix) {
            return Some((builtin, signed, ty));
        }
    }
    None
}

/// An intrinsic's type suffix (`i32`, `v4i16`): lanes (`None` for a
/// scalar) and element width.
fn type_suffix(s: &str) -> Option<(Option<u32>, u32)> {
    let (lanes, elem) = match s.strip_prefix('v') {
        Some(v) => {
            let i = v.find('i')?;
            (Some(v[..i].parse::<u32>().ok()?), &v[i..])
        }
        None => (None, s),
    };
    let width = elem.strip_prefix('i')?.parse::<u32>().ok()?;
    Some((lanes, width))
}

/// The LLVM type written out.
fn llvm_type(lanes: Option<u32>, width: u32) -> String {
    match lanes {
        Some(n) => format!("<{n} x i{width}>"),
        None => format!("i{width}"),
    }
}

/// A constant of that type with every lane `value`.
fn splat(lanes: Option<u32>, width: u32, value: u64) -> String {
    match lanes {
        Some(n) => {
            let lane = format!("i{width} {value}");
            format!("<{}>", vec![lane; n as usize].join(", "))
        }
        None => value.to_string(),
    }
}

/// The Itanium-mangled OpenCL built-in `builtin(T, T)` for an intrinsic of
/// type suffix `ty` (OpenCL C types only: `char` to `long`, vectors of 2,
/// 3, 4, 8 or 16).
fn mangled_builtin(builtin: &str, signed: bool, ty: &str) -> Option<String> {
    let (lanes, width) = type_suffix(ty)?;
    let code = match (width, signed) {
        (8, true) => 'c',
        (8, false) => 'h',
        (16, true) => 's',
        (16, false) => 't',
        (32, true) => 'i',
        (32, false) => 'j',
        (64, true) => 'l',
        (64, false) => 'm',
        _ => return None,
    };
    let params = match lanes {
        Some(n) if [2, 3, 4, 8, 16].contains(&n) => format!("Dv{n}_{code}S_"),
        Some(_) => return None,
        None => format!("{code}{code}"),
    };
    Some(format!("_Z{}{builtin}{params}", builtin.len()))
}

/// `declare spir_func T @name(T, T)` for a built-in of type `t`, unless
/// `ir` declares or defines it already (then nothing).
fn builtin_declaration(ir: &str, name: &str, t: &str) -> String {
    let declared = ir
        .lines()
        .any(|l| (l.starts_with("declare ") || l.starts_with("define ")) && l.contains(&format!("@{name}(")));
    if declared {
        String::new()
    } else {
        format!("declare spir_func {t} @{name}({t}, {t})\n")
    }
}

/// A function of the module reversing the bits of each lane, for
/// `llvm.bitreverse.<ty>`: `(name, definition)`.
fn bit_reverse_function(ty: &str) -> Option<(String, String)> {
    let (lanes, width) = type_suffix(ty)?;
    if !matches!(width, 8 | 16 | 32 | 64) {
        return None;
    }
    let t = llvm_type(lanes, width);
    let name = format!("clift.bitreverse.{ty}");
    let mut body = format!("define internal spir_func {t} @{name}({t} %x0) {{\n");
    // Swap neighbouring groups of s bits, s = 1, 2, 4, ..., width / 2.
    let mut step = 0;
    let mut s = 1;
    while s < width {
        let mask = (0..width)
            .filter(|b| (b / s) % 2 == 0)
            .fold(0u64, |m, b| m | (1u64 << b));
        let (x, m, k) = (
            format!("%x{step}"),
            splat(lanes, width, mask),
            splat(lanes, width, u64::from(s)),
        );
        let n = step + 1;
        body.push_str(&format!(
            "  %h{n} = lshr {t} {x}, {k}\n  %a{n} = and {t} %h{n}, {m}\n  %l{n} = and {t} {x}, {m}\n  \
             %s{n} = shl {t} %l{n}, {k}\n  %x{n} = or {t} %a{n}, %s{n}\n"
        ));
        step = n;
        s *= 2;
    }
    body.push_str(&format!("  ret {t} %x{step}\n}}\n"));
    Some((name, body))
}

/// For `llvm.<op>.with.overflow.<type>` (`op`: `sadd`, `uadd`, `ssub`,
/// `usub`, `smul`, `umul`; llvm-spirv 15 translates only `umul`, wrongly:
/// its function compares the product divided by the first operand with
/// that same operand, not the second, and divides by zero when the first
/// is zero; and `sadd` not on `i8`): the operation and the type suffix.
fn overflow_op(name: &str) -> Option<(&str, &str)> {
    let (op, ty) = name.strip_prefix("llvm.")?.split_once(".with.overflow.")?;
    ["sadd", "uadd", "ssub", "usub", "smul", "umul"]
        .contains(&op)
        .then_some((op, ty))
}

/// Whether SPIR-V `module` holds llvm-spirv 15's function for
/// `llvm.umul.with.overflow` (named `spirv.llvm_umul_with_overflow_<ty>`),
/// whose overflow bit is wrong ([`overflow_op`]): the translation must
/// count as failed so that the call is rewritten before llvm-spirv.
pub(super) fn has_umul_overflow_function(module: &[u8]) -> bool {
    const NAME: &[u8] = b"llvm_umul_with_overflow";
    module.windows(NAME.len()).any(|w| w == NAME)
}

/// A function of the module computing `llvm.<op>.with.overflow.<ty>`'s
/// `{ result, overflowed }`: `(name, definition)`, the definition followed
/// by the OpenCL `mul_hi` declaration `smul` needs. The overflow tests:
/// unsigned add, a sum below an operand; unsigned sub, a subtrahend above
/// the minuend; signed add and sub, operands of one sign and a result of
/// the other; signed multiply, a high half that is not the low half's sign;
/// unsigned multiply, a high half that is not zero.
fn overflow_function(ir: &str, op: &str, ty: &str) -> Option<(String, String)> {
    let (lanes, width) = type_suffix(ty)?;
    if !matches!(width, 8 | 16 | 32 | 64) {
        return None;
    }
    let t = llvm_type(lanes, width);
    let b = llvm_type(lanes, 1);
    let zero = splat(lanes, width, 0);
    let name = format!("clift.{op}.with.overflow.{ty}");
    let mut tail = String::new();
    let body = match op {
        "uadd" => format!("  %r = add {t} %a, %b\n  %o = icmp ult {t} %r, %a\n"),
        "usub" => format!("  %r = sub {t} %a, %b\n  %o = icmp ult {t} %a, %b\n"),
        "sadd" => format!(
            "  %r = add {t} %a, %b\n  %x = xor {t} %a, %r\n  %y = xor {t} %b, %r\n  %z = and {t} %x, %y\n  \
             %o = icmp slt {t} %z, {zero}\n"
        ),
        "ssub" => format!(
            "  %r = sub {t} %a, %b\n  %x = xor {t} %a, %b\n  %y = xor {t} %a, %r\n  %z = and {t} %x, %y\n  \
             %o = icmp slt {t} %z, {zero}\n"
        ),
        "umul" => {
            let hi = mangled_builtin("mul_hi", false, ty)?;
            tail = builtin_declaration(ir, &hi, &t);
            format!(
                "  %r = mul {t} %a, %b\n  %h = call spir_func {t} @{hi}({t} %a, {t} %b)\n  \
                 %o = icmp ne {t} %h, {zero}\n"
            )
        }
        "smul" => {
            let hi = mangled_builtin("mul_hi", true, ty)?;
            tail = builtin_declaration(ir, &hi, &t);
            let sign = splat(lanes, width, u64::from(width - 1));
            format!(
                "  %r = mul {t} %a, %b\n  %h = call spir_func {t} @{hi}({t} %a, {t} %b)\n  \
                 %s = ashr {t} %r, {sign}\n  %o = icmp ne {t} %h, %s\n"
            )
        }
        _ => return None,
    };
    let pair = format!("{{ {t}, {b} }}");
    let def = format!(
        "define internal spir_func {pair} @{name}({t} %a, {t} %b) {{\n{body}  \
         %p = insertvalue {pair} undef, {t} %r, 0\n  %q = insertvalue {pair} %p, {b} %o, 1\n  ret {pair} %q\n}}\n{tail}"
    );
    Some((name, def))
}

/// A function of the module that returns what the conversion `mangled`
/// (declared in `ir`) returns, for the `index`th such conversion:
/// `(name, definition)`, the definition preceded by the conversion's own
/// declaration. A call to it is an OpFunctionCall, which llvm-spirv 15
/// refers to before its definition without harm; the conversion's result
/// is used only by the `ret` after it, so the translator's forward
/// references never reach the decorated instruction.
fn conversion_function(ir: &str, mangled: &str, index: usize) -> Option<(String, String)> {
    let declare = ir
        .lines()
        .find(|l| l.starts_with("declare ") && l.contains(&format!("@{mangled}(")))?;
    // `declare ... spir_func <ret attrs> <ret type> @name(<params>) ...`
    let head = &declare[..declare.find(&format!("@{mangled}("))?];
    let ret = head.split_once("spir_func ")?.1.trim_end();
    let ret_type = match ret.rfind('<') {
        Some(lt) if ret.ends_with('>') => &ret[lt..],
        _ => ret.rsplit(' ').next()?,
    };
    let open = declare.find(&format!("@{mangled}("))? + mangled.len() + 2;
    let close = open + declare[open..].find(')')?;
    let params: Vec<&str> = declare[open..close].split(", ").filter(|p| !p.is_empty()).collect();
    let mut formals = Vec::new();
    let mut actuals = Vec::new();
    for (i, p) in params.iter().enumerate() {
        // A parameter: its type (`<4 x float>` or one word), then attributes.
        let ty_end = if p.starts_with('<') {
            p.find('>')? + 1
        } else {
            p.find(' ').unwrap_or(p.len())
        };
        formals.push(format!("{} %p{i}", &p[..ty_end]));
        actuals.push(format!("{p} %p{i}"));
    }
    let name = format!("clift.conversion.{index}");
    let def = format!(
        "{declare}\ndefine internal spir_func {ret_type} @{name}({}) {{\n  \
         %r = call spir_func {ret} @{mangled}({})\n  ret {ret_type} %r\n}}\n",
        formals.join(", "),
        actuals.join(", ")
    );
    Some((name, def))
}

/// How a constant bitcast expression starts.
const CONSTANT_BITCAST: &str = "bitcast (";

/// The little-endian bytes of the LLVM constant `value` of scalar type
/// `ty` (`i8` to `i64`, `half`, `float`, `double`; LLVM writes a float or
/// double as a decimal that reads back exactly or as the hexadecimal bits
/// of the double, a half as `0xH` and its bits). `undef` and `poison` are
/// read as zeros (one of the values they allow).
fn constant_bytes(ty: &str, value: &str) -> Option<Vec<u8>> {
    if matches!(value, "zeroinitializer" | "undef" | "poison") {
        return Some(vec![0; scalar_size(ty)?]);
    }
    let hex_double = || match value.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => value.parse::<f64>().ok().map(f64::to_bits),
    };
    Some(match ty {
        "half" => u16::from_str_radix(value.strip_prefix("0xH")?, 16)
            .ok()?
            .to_le_bytes()
            .to_vec(),
        "float" => {
            // A float's own bits from the double's (a NaN keeps its payload
            // and its signalling bit).
            let d = hex_double()?;
            let (sign, exp, mant) = (d >> 63, (d >> 52) & 0x7ff, d & ((1 << 52) - 1));
            let bits = if exp == 0x7ff {
                ((sign << 31) | (0xff << 23) | (mant >> 29)) as u32
            } else {
                (f64::from_bits(d) as f32).to_bits()
            };
            bits.to_le_bytes().to_vec()
        }
        "double" => hex_double()?.to_le_bytes().to_vec(),
        _ => {
            let n = scalar_size(ty)?;
            value.parse::<i128>().ok()?.to_le_bytes()[..n].to_vec()
        }
    })
}

/// The size in bytes of an LLVM scalar type clang's OpenCL uses.
fn scalar_size(ty: &str) -> Option<usize> {
    Some(match ty {
        "i8" => 1,
        "i16" | "half" => 2,
        "i32" | "float" => 4,
        "i64" | "double" => 8,
        _ => return None,
    })
}

/// A value of type `ty` from its little-endian bytes, as LLVM writes it
/// (without the type).
fn literal(ty: &str, b: &[u8]) -> Option<String> {
    let bits = b.iter().rev().fold(0u64, |v, &x| (v << 8) | u64::from(x));
    Some(match ty {
        "half" => format!("0xH{bits:04X}"),
        "float" => {
            // As the double of the same value (a NaN: the payload moved up).
            let f = bits as u32;
            let (sign, exp, mant) = (u64::from(f >> 31), (f >> 23) & 0xff, u64::from(f & 0x7f_ffff));
            let d = if exp == 0xff {
                (sign << 63) | (0x7ff << 52) | (mant << 29)
            } else {
                f64::from(f32::from_bits(f)).to_bits()
            };
            format!("0x{d:016X}")
        }
        "double" => format!("0x{bits:016X}"),
        _ => {
            let n = scalar_size(ty)?;
            let shift = 64 - 8 * n as u32;
            format!("{}", ((bits << shift) as i64) >> shift)
        }
    })
}

/// A type as `(lanes, scalar)`: `<4 x i16>` -> `(Some(4), "i16")`,
/// `double` -> `(None, "double")`; `None` for other types (pointers...).
fn literal_type(t: &str) -> Option<(Option<usize>, &str)> {
    let (lanes, elem) = match t.strip_prefix('<') {
        Some(v) => {
            let (n, e) = v.strip_suffix('>')?.split_once(" x ")?;
            (Some(n.parse().ok().filter(|&n| n > 0)?), e)
        }
        None => (None, t),
    };
    scalar_size(elem)?;
    Some((lanes, elem))
}

/// The bytes of `value` (`<T a, T b>`, a number, `zeroinitializer`,
/// `undef`, `poison`) of type `ty`; `None` for any other value (a constant
/// expression, say).
fn literal_bytes(ty: &str, value: &str) -> Option<Vec<u8>> {
    let (lanes, elem) = literal_type(ty)?;
    let Some(n) = lanes else {
        return constant_bytes(elem, value);
    };
    if matches!(value, "zeroinitializer" | "undef" | "poison") {
        return Some(vec![0; n * scalar_size(elem)?]);
    }
    let inner = value.strip_prefix('<')?.strip_suffix('>')?;
    let parts: Vec<&str> = inner.split(", ").collect();
    if parts.len() != n {
        return None;
    }
    let mut bytes = Vec::new();
    for p in parts {
        bytes.extend(constant_bytes(elem, p.strip_prefix(elem)?.strip_prefix(' ')?)?);
    }
    Some(bytes)
}

/// The value of type `ty` whose bytes are `bytes`, as LLVM writes it.
fn literal_of(ty: &str, bytes: &[u8]) -> Option<String> {
    let (lanes, elem) = literal_type(ty)?;
    let size = scalar_size(elem)?;
    if bytes.len() != lanes.unwrap_or(1) * size {
        return None;
    }
    if lanes.is_none() {
        return literal(elem, bytes);
    }
    let parts: Option<Vec<String>> = bytes
        .chunks_exact(size)
        .map(|b| literal(elem, b).map(|v| format!("{elem} {v}")))
        .collect();
    Some(format!("<{}>", parts?.join(", ")))
}

/// One constant bitcast at the start of `text` (just past `bitcast (`):
/// its folded value and the length of what it replaces, if its operand is a
/// literal of a number or vector type and the result is one too.
fn fold_one_bitcast(text: &str) -> Option<(String, usize)> {
    // `<src type> <value> to <dst type>)`; a vector type holds no `>`
    // before its end, a literal vector none before its end either.
    let (src, rest) = match text.strip_prefix('<') {
        Some(r) => {
            let end = r.find('>')? + 2;
            (&text[..end], &text[end..])
        }
        None => text.split_at(text.find(' ')?),
    };
    let rest = rest.strip_prefix(' ')?;
    let value_end = if rest.starts_with('<') {
        rest.find('>')? + 1
    } else {
        rest.find(' ')?
    };
    let value = &rest[..value_end];
    let rest = rest[value_end..].strip_prefix(" to ")?;
    let dst_end = if rest.starts_with('<') {
        rest.find('>')? + 1
    } else {
        rest.find(')')?
    };
    let dst = &rest[..dst_end];
    rest[dst_end..].strip_prefix(')')?;
    let folded = literal_of(dst, &literal_bytes(src, value)?)?;
    let used = text.len() - rest.len() + dst_end + 1;
    Some((folded, used))
}

/// `ir` with every constant bitcast of a number or vector literal folded
/// into the literal it makes (`bitcast (<1 x i16> <i16 3271> to <2 x i8>)`
/// -> `<i8 -57, i8 12>`), nested ones from the inside out; other bitcasts
/// (of pointers, of constant expressions) are left as they are. Also how
/// many were folded.
fn fold_constant_bitcasts(ir: &str) -> (String, usize) {
    let mut text = ir.to_string();
    let mut folded = 0;
    // Each pass folds the innermost ones: their operands are literals.
    for _ in 0..8 {
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        let before = folded;
        while let Some(at) = rest.find(CONSTANT_BITCAST) {
            let start = at + CONSTANT_BITCAST.len();
            match fold_one_bitcast(&rest[start..]) {
                Some((value, used)) => {
                    out.push_str(&rest[..at]);
                    out.push_str(&value);
                    rest = &rest[start + used..];
                    folded += 1;
                }
                None => {
                    out.push_str(&rest[..start]);
                    rest = &rest[start..];
                }
            }
        }
        out.push_str(rest);
        text = out;
        if folded == before {
            break;
        }
    }
    (text, folded)
}

/// `ir` with every `%x = freeze T %y` written `%x = bitcast T %y to T`,
/// or `%x = xor T %y, false` for booleans (`i1`, `<N x i1>`: llvm-spirv
/// would make a bitcast of them an OpBitcast of a boolean, which SPIR-V
/// does not allow; the xor becomes OpLogicalNotEqual with false), and
/// `None` if one freezes an aggregate, which bitcast cannot take.
fn rewrite_freezes(ir: &str) -> Option<String> {
    let mut out = String::with_capacity(ir.len());
    for line in ir.lines() {
        match line.split_once(" = freeze ") {
            Some((lhs, operand)) => {
                let (ty, value) = operand.rsplit_once(' ')?;
                if ty.starts_with(['{', '[']) {
                    return None;
                }
                if ty == "i1" {
                    out.push_str(&format!("{lhs} = xor {ty} {value}, false\n"));
                } else if ty.starts_with('<') && ty.ends_with(" x i1>") {
                    out.push_str(&format!("{lhs} = xor {ty} {value}, zeroinitializer\n"));
                } else {
                    out.push_str(&format!("{lhs} = bitcast {ty} {value} to {ty}\n"));
                }
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    Some(out)
}

/// A null `queue_t` in clang's IR.
const NULL_QUEUE: &str = "%opencl.queue_t* null";

/// `ir` with every null `queue_t` made a value loaded from a zeroed private
/// variable at the start of its function (`%clift.nullq`), which llvm-spirv
/// 15 translates as an OpLoad of a queue; `None` if a function's body is
/// not where it is expected.
fn rewrite_null_queues(ir: &str) -> Option<String> {
    let lines: Vec<&str> = ir.lines().collect();
    let mut out = String::with_capacity(ir.len() + 512);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        out.push_str(line);
        out.push('\n');
        i += 1;
        if !(line.starts_with("define ") && line.trim_end().ends_with('{')) {
            continue;
        }
        let end = i + lines[i..].iter().position(|l| l.starts_with('}'))?;
        let body = &lines[i..end];
        if body.iter().any(|l| l.contains(NULL_QUEUE)) {
            // After the entry block's label, if it has one.
            let label = body.first().is_some_and(|l| {
                let l = l.trim_end();
                l.ends_with(':') && !l.starts_with(' ')
            });
            let (head, rest) = body.split_at(usize::from(label));
            for l in head {
                out.push_str(l);
                out.push('\n');
            }
            out.push_str(
                "  %clift.nullq.slot = alloca i64, align 8\n  store i64 0, i64* %clift.nullq.slot, align 8\n  \
                 %clift.nullq.ptr = bitcast i64* %clift.nullq.slot to %opencl.queue_t**\n  \
                 %clift.nullq = load %opencl.queue_t*, %opencl.queue_t** %clift.nullq.ptr, align 8\n",
            );
            for l in rest {
                out.push_str(&l.replace(NULL_QUEUE, "%opencl.queue_t* %clift.nullq"));
                out.push('\n');
            }
        } else {
            for l in body {
                out.push_str(l);
                out.push('\n');
            }
        }
        i = end;
    }
    Some(out)
}

/// A type token at the start of `text` (`i1`, `float`, `<4 x i1>`) and
/// what follows it.
fn split_type(text: &str) -> Option<(&str, &str)> {
    let end = if text.starts_with('<') {
        text.find('>')? + 1
    } else {
        text.find([' ', ','])?
    };
    Some(text.split_at(end))
}

/// `ty` (`i1` or `<N x i1>`) with `i32` components, if it is one of those.
fn widened_bool(ty: &str) -> Option<String> {
    if ty == "i1" {
        return Some("i32".into());
    }
    let lanes = ty.strip_prefix('<')?.strip_suffix(" x i1>")?;
    lanes.parse::<u32>().ok()?;
    Some(format!("<{lanes} x i32>"))
}

/// `ir` with every conversion between `i1` (or a vector of it) and floating
/// point made through `i32`, and how many were rewritten:
/// `%x = sitofp i1 %c to float` becomes `%clift.b2f.N = sext i1 %c to i32`
/// then `%x = sitofp i32 %clift.b2f.N to float` (true is -1, as in LLVM;
/// llvm-spirv 15 translates `sitofp i1` as a select of 1 and 0 then a
/// signed conversion, +1.0 for true); `%x = fptosi float %f to i1` becomes
/// an `fptosi` to `i32` then `trunc` (llvm-spirv 15 writes a conversion to
/// a boolean, which SPIR-V does not allow). `uitofp i1` translates
/// correctly and is left alone.
fn rewrite_bool_conversions(ir: &str) -> (String, usize) {
    let mut out = String::with_capacity(ir.len());
    let mut n = 0;
    for line in ir.lines() {
        match rewrite_bool_conversion(line, n) {
            Some(two) => {
                out.push_str(&two);
                n += 1;
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    (out, n)
}

/// The two lines replacing `line` if it is a conversion
/// [`rewrite_bool_conversions`] rewrites (`n` numbers its new value).
fn rewrite_bool_conversion(line: &str, n: usize) -> Option<String> {
    let (lhs, rhs) = line.split_once(" = ")?;
    let (op, rest) = rhs.split_once(' ')?;
    let (src, rest) = split_type(rest)?;
    let (value, rest) = rest.strip_prefix(' ')?.split_once(" to ")?;
    let (dst, tail) = split_type(rest).unwrap_or((rest, ""));
    let tmp = format!("%clift.b2f.{n}");
    let indent = &lhs[..lhs.len() - lhs.trim_start().len()];
    match op {
        "sitofp" => {
            let wide = widened_bool(src)?;
            Some(format!(
                "{indent}{tmp} = sext {src} {value} to {wide}\n{lhs} = sitofp {wide} {tmp} to {dst}{tail}"
            ))
        }
        "fptosi" | "fptoui" => {
            let wide = widened_bool(dst)?;
            Some(format!(
                "{indent}{tmp} = {op} {src} {value} to {wide}\n{lhs} = trunc {wide} {tmp} to {dst}{tail}"
            ))
        }
        "bitcast" => bool_mask_bitcast(lhs, src, value, dst, tail, &tmp),
        _ => None,
    }
}

/// The lanes of a `<N x i1>` type with N 8 or 16 (whose mask is a native
/// integer, and `<N x iN>` a vector llvm-spirv 15 takes).
fn mask_lanes(ty: &str) -> Option<u32> {
    let n: u32 = ty.strip_prefix('<')?.strip_suffix(" x i1>")?.parse().ok()?;
    matches!(n, 8 | 16).then_some(n)
}

/// `<N x iN>` literal of lanes `f(0) .. f(N-1)` (each as a signed N-bit
/// value, the form LLVM's parser takes).
fn lane_literal(n: u32, f: impl Fn(u32) -> u64) -> String {
    let lanes: Vec<String> = (0..n)
        .map(|k| {
            let v = f(k) & if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            let signed = if n < 64 && v >> (n - 1) != 0 {
                v as i64 - (1i64 << n)
            } else {
                v as i64
            };
            format!("i{n} {signed}")
        })
        .collect();
    format!("<{}>", lanes.join(", "))
}

/// The lines replacing a `bitcast` between a mask `<N x i1>` and `iN`
/// (InstCombine makes `bitcast <8 x i1> %c to i8` of `any(c)` and
/// `all(c)`), which llvm-spirv 15 writes as an OpBitcast of a boolean
/// vector (not allowed): to the integer, each lane's bit shifted into
/// place in `<N x iN>` lanes and or-ed together by halves; from it, the
/// integer broadcast, masked with each lane's bit and compared with 0.
fn bool_mask_bitcast(lhs: &str, src: &str, value: &str, dst: &str, tail: &str, tmp: &str) -> Option<String> {
    let indent = &lhs[..lhs.len() - lhs.trim_start().len()];
    let mut out = String::new();
    if let Some(n) = mask_lanes(src).filter(|&n| dst == format!("i{n}")) {
        let vt = format!("<{n} x i{n}>");
        out.push_str(&format!("{indent}{tmp}.z = zext {src} {value} to {vt}\n"));
        out.push_str(&format!(
            "{indent}{tmp}.s{n} = shl {vt} {tmp}.z, {}\n",
            lane_literal(n, u64::from)
        ));
        let mut width = n;
        while width > 2 {
            let half = width / 2;
            let (from, to) = (format!("<{width} x i{n}>"), format!("<{half} x i{n}>"));
            let idx = |start: u32| {
                let v: Vec<String> = (start..start + half).map(|k| format!("i32 {k}")).collect();
                format!("<{}>", v.join(", "))
            };
            out.push_str(&format!(
                "{indent}{tmp}.lo{half} = shufflevector {from} {tmp}.s{width}, {from} undef, <{half} x i32> {}\n",
                idx(0)
            ));
            out.push_str(&format!(
                "{indent}{tmp}.hi{half} = shufflevector {from} {tmp}.s{width}, {from} undef, <{half} x i32> {}\n",
                idx(half)
            ));
            out.push_str(&format!(
                "{indent}{tmp}.s{half} = or {to} {tmp}.lo{half}, {tmp}.hi{half}\n"
            ));
            width = half;
        }
        out.push_str(&format!(
            "{indent}{tmp}.a = extractelement <2 x i{n}> {tmp}.s2, i32 0\n\
             {indent}{tmp}.b = extractelement <2 x i{n}> {tmp}.s2, i32 1\n\
             {lhs} = or i{n} {tmp}.a, {tmp}.b{tail}"
        ));
        return Some(out);
    }
    let n = mask_lanes(dst).filter(|&n| src == format!("i{n}"))?;
    let vt = format!("<{n} x i{n}>");
    out.push_str(&format!(
        "{indent}{tmp}.i = insertelement {vt} undef, i{n} {value}, i32 0\n\
         {indent}{tmp}.b = shufflevector {vt} {tmp}.i, {vt} undef, <{n} x i32> zeroinitializer\n\
         {indent}{tmp}.m = and {vt} {tmp}.b, {}\n\
         {lhs} = icmp ne {vt} {tmp}.m, zeroinitializer{tail}",
        lane_literal(n, |k| 1u64 << k)
    ));
    Some(out)
}

/// `ir` with every call to the intrinsics `found` lists for rewriting
/// rewritten (`None` if one has a type with no replacement).
fn rewrite_intrinsics(ir: &str, found: &Findings) -> Option<String> {
    // Intrinsic -> (new name, replacement of its declaration).
    let mut renames: Vec<(String, String, String)> = Vec::new();
    for name in &found.saturating {
        let (builtin, signed, ty) = saturating_op(name)?;
        let new = mangled_builtin(builtin, signed, ty)?;
        let (lanes, width) = type_suffix(ty)?;
        let decl = builtin_declaration(ir, &new, &llvm_type(lanes, width));
        renames.push((name.clone(), new, decl));
    }
    for name in &found.bit_reversals {
        let (new, def) = bit_reverse_function(name.strip_prefix("llvm.bitreverse.")?)?;
        renames.push((name.clone(), new, def));
    }
    for name in &found.overflow_checks {
        let (op, ty) = overflow_op(name)?;
        let (new, def) = overflow_function(ir, op, ty)?;
        renames.push((name.clone(), new, def));
    }
    for (i, name) in found.conversions.iter().enumerate() {
        let (new, def) = conversion_function(ir, name, i)?;
        renames.push((name.clone(), new, def));
    }
    let mut out = String::with_capacity(ir.len() + 1024);
    for line in ir.lines() {
        let hit = renames.iter().find(|(old, _, _)| line.contains(&format!("@{old}(")));
        match hit {
            Some((_, _, decl)) if line.starts_with("declare ") => out.push_str(decl),
            Some((old, new, _)) => {
                let old_ref = format!("@{old}(");
                let at = line.find(&old_ref)?;
                let call = line[..at].find("call ")? + "call ".len();
                out.push_str(&line[..call]);
                // Intrinsic calls have no calling convention; the
                // replacements are OpenCL functions.
                if !line[call..at].starts_with("spir_func ") {
                    out.push_str("spir_func ");
                }
                out.push_str(&line[call..at]);
                out.push_str(&format!("@{new}("));
                out.push_str(&line[at + old_ref.len()..]);
                out.push('\n');
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    Some(out)
}

// ---------------------------------------------------------------------------
// The workaround
// ---------------------------------------------------------------------------

/// The build log's lines for what was done.
fn log_lines(level: OptLevel, found: &Findings, fixes: PipelineFixes) -> String {
    let l = level.name();
    let list = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(", ");
    let mut log = String::new();
    if found.freeze_casts {
        log.push_str(
            "clift: llvm-spirv 15 cannot translate LLVM's `freeze` instruction; each one no pipeline change \
             avoids is written as a no-op cast\n",
        );
    }
    if fixes.no_div_rem_pairs {
        log.push_str(&format!(
            "clift: llvm-spirv 15 cannot translate LLVM's `freeze` instruction (which -{l}'s div-rem-pairs pass \
             makes from x / y and x % y of the same operands); rebuilt at -{l} without div-rem-pairs\n"
        ));
    }
    if fixes.native_integers {
        log.push_str(&format!(
            "clift: llvm-spirv 15 cannot translate integers of {} bits (which -{l} makes by narrowing switch \
             and compare operands and by computing loop results in closed form); rebuilt at -{l} with 8-, 16-, \
             32- and 64-bit integers declared native, loop exit values left to the loops and no switch lookup \
             tables\n",
            found
                .odd_widths
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if fixes.no_vectorizers {
        log.push_str(&format!(
            "clift: llvm-spirv 15 cannot translate the vector reductions the loop vectorizer makes ({}); \
             rebuilt at -{l} without the loop and SLP vectorizers\n",
            list(&found.reductions)
        ));
    }
    if !found.saturating.is_empty() {
        log.push_str(&format!(
            "clift: llvm-spirv 15 cannot translate all of LLVM's saturating arithmetic ({}); calls replaced by \
             OpenCL add_sat and sub_sat\n",
            list(&found.saturating)
        ));
    }
    if !found.conversions.is_empty() {
        log.push_str(&format!(
            "clift: llvm-spirv 15 loses the rounding mode or saturation of a conversion whose result is used \
             before its definition (a loop's phi); calls to {} made through functions of the module\n",
            list(&found.conversions)
        ));
    }
    if found.constant_bitcasts > 0 {
        log.push_str(&format!(
            "clift: llvm-spirv 15 cannot translate some constant bitcasts of vectors (which clang makes of \
             as_typeN of a constant: one-component vectors stop it with an assertion, a bitcast inside another \
             constant comes out before its operand); {} folded to the constants they make\n",
            found.constant_bitcasts
        ));
    }
    if found.bool_conversions > 0 {
        log.push_str(&format!(
            "clift: llvm-spirv 15 mistranslates conversions of i1 values (sitofp i1, which -{l}'s InstCombine \
             makes of (float)(c ? -1 : 0), comes out as if true were +1; fptosi/fptoui to i1 and bitcasts \
             between <N x i1> masks and integers make invalid modules); {} made through wider integers\n",
            found.bool_conversions
        ));
    }
    if found.null_queues {
        log.push_str(
            "clift: llvm-spirv 15 cannot translate a null queue_t (CLK_NULL_QUEUE); each is a null word loaded \
             from a private variable\n",
        );
    }
    if !found.overflow_checks.is_empty() {
        log.push_str(&format!(
            "clift: llvm-spirv 15 cannot translate {} (from __builtin_*_overflow); calls replaced by functions \
             computing the result and the overflow\n",
            list(&found.overflow_checks)
        ));
    }
    if !found.bit_reversals.is_empty() {
        log.push_str(&format!(
            "clift: llvm-spirv 15 translates {} to OpBitReverse, which needs the Shader capability OpenCL does \
             not have; calls replaced by a shift-and-mask function\n",
            list(&found.bit_reversals)
        ));
    }
    log
}

impl Job<'_> {
    /// Runs `opt` with `args`; `Ok(false)` when it fails.
    fn opt(&self, opt: &Path, args: Vec<String>) -> Result<bool, CompileError> {
        Ok(self.run(opt, &args)?.success)
    }

    /// The text of the LLVM IR in `bc` (`None` if `opt` cannot read it).
    fn disassemble(&self, opt: &Path, bc: &Path) -> Result<Option<String>, CompileError> {
        let ll = self.file("program.ll");
        if !self.opt(opt, tool_args(&["-S"], bc, &ll))? {
            return Ok(None);
        }
        Ok(std::fs::read_to_string(&ll).ok())
    }

    /// Whether the program in `bc` converts between `i1` and floating point
    /// in a way llvm-spirv 15 mistranslates (see
    /// [`rewrite_bool_conversions`]); clang built `bc` at `level`. Without
    /// `opt` to read the IR, only at -O0 is the answer no (clang makes such
    /// conversions only when it optimises).
    pub(super) fn converts_bools(&self, bc: &Path, level: OptLevel) -> Result<bool, CompileError> {
        let Some(opt) = self.tools.opt.clone() else {
            return Ok(level != OptLevel::O0);
        };
        Ok(match self.disassemble(&opt, bc)? {
            Some(ir) => Findings::scan(&ir).bool_conversions > 0,
            None => true,
        })
    }

    /// The program optimised again at the options' level with `fixes`, as
    /// text (`None` if a tool refuses).
    fn reoptimize(
        &self,
        opt: &Path,
        fixes: PipelineFixes,
        layout: Option<&str>,
    ) -> Result<Option<String>, CompileError> {
        let raw = self.file("raw.bc");
        if !raw.exists()
            && self
                .clang(&[&self.level_flag(), "-Xclang", "-disable-llvm-passes"], &raw, false)?
                .is_err()
        {
            return Ok(None);
        }
        let Some(pipeline) = level_pipeline(opt, self.options.opt_level) else {
            return Ok(None);
        };
        let mut remove = Vec::new();
        if fixes.no_div_rem_pairs {
            remove.push("div-rem-pairs");
        }
        if fixes.no_vectorizers {
            remove.extend(["loop-vectorize", "slp-vectorizer"]);
        }
        let Some(pipeline) = edit_pipeline(&pipeline, &remove, fixes.native_integers) else {
            return Ok(None);
        };
        let mut flags = vec![format!("-passes={pipeline}"), "-S".into()];
        if self.keep_arms_apart {
            flags.extend(super::KEEP_ARMS_APART.map(String::from));
        }
        if fixes.native_integers {
            let Some(layout) = layout else { return Ok(None) };
            flags.push(format!("--data-layout={layout}"));
            flags.push("-replexitval=never".into());
        }
        let ll = self.file("fixed.ll");
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        if !self.opt(opt, tool_args(&flags, &raw, &ll))? {
            return Ok(None);
        }
        Ok(std::fs::read_to_string(&ll).ok())
    }

    /// SPIR-V for the program in `program.bc`, built at `level` (the
    /// options' level, or -O0 when that is the fallback), which llvm-spirv
    /// 15 could not translate, by the workarounds in the module
    /// documentation (re-optimising only when `level` optimises); `None`
    /// when none applies or it does not help. The log gets a line per
    /// workaround.
    pub(super) fn work_around(&mut self, level: OptLevel) -> Result<Option<Vec<u8>>, CompileError> {
        let Some(opt) = self.tools.opt.clone() else {
            return Ok(None);
        };
        let Some(mut ir) = self.disassemble(&opt, &self.file("program.bc"))? else {
            return Ok(None);
        };
        let layout = native_integer_layout(&ir);
        let mut found = Findings::scan(&ir);
        // At -O0 no pipeline made what llvm-spirv refuses: only calls the
        // program wrote itself (`__builtin_add_overflow`) can be rewritten,
        // and the private copies -O0 makes of image and sampler parameters
        // promoted to values.
        let optimised = level != OptLevel::O0;
        let promoted = found.opaque_allocas && !optimised;
        if promoted {
            let Some(text) = self.promote_allocas(&opt)? else {
                return Ok(None);
            };
            ir = text;
            found = Findings::scan(&ir);
            if found.is_empty() {
                return self.translate_repaired(&opt, &ir, level, found, PipelineFixes::default(), true);
            }
        }
        if found.is_empty() || (found.needs_pipeline() && !optimised) {
            return Ok(None);
        }
        // Pipeline changes first (each re-optimisation may show what the
        // previous one hid: without exit values, a loop may vectorize).
        let mut fixes = PipelineFixes::default();
        let mut seen = found.clone();
        for _ in 0..3 {
            let wanted = fixes.with(&found);
            if wanted == fixes {
                break;
            }
            fixes = wanted;
            let Some(text) = self.reoptimize(&opt, fixes, layout.as_deref())? else {
                return Ok(None);
            };
            ir = text;
            found = Findings::scan(&ir);
            seen.odd_widths.extend(found.odd_widths.iter().copied());
            seen.reductions.extend(found.reductions.iter().cloned());
        }
        // A `freeze` another pass made (InstCombine, from selects feeding
        // a division) survives the pipeline change: each becomes a no-op
        // cast (no LLVM pass runs afterwards to exploit poison; neither
        // SPIR-V nor clift has poison).
        if found.freeze {
            let Some(text) = rewrite_freezes(&ir) else {
                return Ok(None);
            };
            ir = text;
            found.freeze = false;
            seen.freeze_casts = true;
        }
        if found.needs_pipeline() {
            return Ok(None);
        }
        if found.needs_rewrite() {
            let Some(text) = rewrite_intrinsics(&ir, &found) else {
                return Ok(None);
            };
            ir = text;
        }
        if found.constant_bitcasts > 0 {
            let (text, folded) = fold_constant_bitcasts(&ir);
            ir = text;
            found.constant_bitcasts = folded;
        }
        if found.bool_conversions > 0 {
            let (text, rewritten) = rewrite_bool_conversions(&ir);
            ir = text;
            found.bool_conversions = rewritten;
        }
        if found.null_queues {
            let Some(text) = rewrite_null_queues(&ir) else {
                return Ok(None);
            };
            ir = text;
        }
        seen.saturating = found.saturating;
        seen.bit_reversals = found.bit_reversals;
        seen.overflow_checks = found.overflow_checks;
        seen.conversions = found.conversions;
        seen.constant_bitcasts = found.constant_bitcasts;
        seen.bool_conversions = found.bool_conversions;
        seen.null_queues = found.null_queues;
        self.translate_repaired(&opt, &ir, level, seen, fixes, promoted)
    }

    /// Translates the repaired IR `ir`; on success logs what was done
    /// (`seen`, `fixes`, and `promoted` for the -O0 copies of images and
    /// samplers).
    fn translate_repaired(
        &mut self,
        opt: &Path,
        ir: &str,
        level: OptLevel,
        seen: Findings,
        fixes: PipelineFixes,
        promoted: bool,
    ) -> Result<Option<Vec<u8>>, CompileError> {
        let (ll, bc) = (self.file("repaired.ll"), self.file("repaired.bc"));
        std::fs::write(&ll, ir).map_err(|e| self.failed(format!("cannot write {}: {e}", ll.display())))?;
        if !self.opt(opt, tool_args(&["-passes=verify"], &ll, &bc))? {
            return Ok(None);
        }
        let Ok(module) = self.translate(&bc)? else {
            return Ok(None);
        };
        if promoted {
            self.log.push_str(
                "clift: llvm-spirv 15 cannot translate the private copies -O0 makes of image and sampler \
                 parameters; rebuilt at -O0 with local variables promoted to values (mem2reg)\n",
            );
        }
        self.log.push_str(&log_lines(level, &seen, fixes));
        Ok(Some(module))
    }

    /// The program at -O0 with its local variables promoted to values (clang
    /// without `optnone`, then `opt -passes=mem2reg`), as text.
    fn promote_allocas(&self, opt: &Path) -> Result<Option<String>, CompileError> {
        let raw = self.file("unpinned.bc");
        if self
            .clang(&["-O0", "-Xclang", "-disable-O0-optnone"], &raw, false)?
            .is_err()
        {
            return Ok(None);
        }
        let ll = self.file("promoted.ll");
        if !self.opt(opt, tool_args(&["-passes=mem2reg", "-S"], &raw, &ll))? {
            return Ok(None);
        }
        Ok(std::fs::read_to_string(&ll).ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_widths_are_found_in_types_only() {
        let ir = "; ModuleID = 'x'\ntarget datalayout = \"e-i64:64\"\n\
                  define spir_kernel void @k(i32 addrspace(1)* %i2) {\n\
                  i2:\n  %3 = trunc i32 %v to i2\n  switch i2 %3, label %7 [\n    i2 0, label %8\n  ]\n\
                  %a = zext i32 %x to i33\n  %b = bitcast <4 x i1> %m to i4\n  %s = getelementptr inbounds [2 x i8], [2 x i8]* @str.i17, i64 0\n\
                  @c = constant [4 x i8] c\"i24 \\00\"\n  call void @f.i48(i64 %i65)\n}\n!0 = !{i32 7}\n";
        let f = Findings::scan(ir);
        assert_eq!(f.odd_widths, BTreeSet::from([2, 4, 33]));
        assert!(!f.freeze && f.saturating.is_empty());
    }

    #[test]
    fn intrinsics_and_freeze_are_found() {
        let ir = "  %f = freeze i32 %x\n\
                  declare i16 @llvm.vector.reduce.add.v2i16(<2 x i16>) #2\n\
                  declare i32 @llvm.uadd.sat.i32(i32, i32) #2\n\
                  declare <4 x i8> @llvm.ssub.sat.v4i8(<4 x i8>, <4 x i8>)\n\
                  declare i64 @llvm.bitreverse.i64(i64)\n\
                  declare i32 @llvm.umax.i32(i32, i32)\n";
        let f = Findings::scan(ir);
        assert!(f.freeze && f.odd_widths.is_empty());
        assert_eq!(
            f.reductions,
            BTreeSet::from(["llvm.vector.reduce.add.v2i16".to_string()])
        );
        assert_eq!(
            f.saturating,
            BTreeSet::from(["llvm.ssub.sat.v4i8".to_string(), "llvm.uadd.sat.i32".to_string()])
        );
        assert_eq!(f.bit_reversals, BTreeSet::from(["llvm.bitreverse.i64".to_string()]));
        assert_eq!(
            PipelineFixes::default().with(&f),
            PipelineFixes {
                no_div_rem_pairs: true,
                native_integers: false,
                no_vectorizers: true
            }
        );
    }

    #[test]
    fn private_copies_of_images_and_samplers_are_found() {
        for (line, found) in [
            ("  %5 = alloca %opencl.sampler_t addrspace(2)*, align 8", true),
            ("  %4 = alloca %opencl.image2d_ro_t addrspace(1)*, align 8", true),
            ("  %6 = alloca <2 x i32>, align 8", false),
            (
                "  store %opencl.sampler_t addrspace(2)* %1, %opencl.sampler_t addrspace(2)** %5",
                false,
            ),
        ] {
            assert_eq!(Findings::scan(line).opaque_allocas, found, "{line}");
        }
    }

    #[test]
    fn pipelines_lose_exactly_the_named_passes() {
        let p = "verify,function<eager-inv>(instcombine,simplifycfg<bonus-inst-threshold=1;switch-to-lookup;keep-loops>),\
                 function(loop-vectorize<no-interleave-forced-only;>,slp-vectorizer,div-rem-pairs,simplifycfg<no-switch-to-lookup>),verify";
        let e = edit_pipeline(p, &["div-rem-pairs", "loop-vectorize", "slp-vectorizer"], true).unwrap();
        assert_eq!(
            e,
            "verify,function<eager-inv>(instcombine,simplifycfg<bonus-inst-threshold=1;no-switch-to-lookup;keep-loops>),\
             function(simplifycfg<no-switch-to-lookup>),verify"
        );
        assert_eq!(edit_pipeline(p, &[], false).unwrap(), p);
        assert_eq!(edit_pipeline(p, &["no-such-pass"], false), None);
    }

    #[test]
    fn native_integers_extend_the_modules_layout() {
        let ir = "target datalayout = \"e-i64:64-v16:16-v1024:1024\"\n";
        assert_eq!(
            native_integer_layout(ir).unwrap(),
            "e-i64:64-v16:16-v1024:1024-n8:16:32:64"
        );
        assert_eq!(native_integer_layout("target datalayout = \"e-n32\"\n"), None);
    }

    #[test]
    fn saturating_calls_become_opencl_builtins() {
        assert_eq!(mangled_builtin("add_sat", false, "i32").unwrap(), "_Z7add_satjj");
        assert_eq!(mangled_builtin("sub_sat", true, "i8").unwrap(), "_Z7sub_satcc");
        assert_eq!(mangled_builtin("add_sat", true, "v4i16").unwrap(), "_Z7add_satDv4_sS_");
        assert_eq!(
            mangled_builtin("sub_sat", false, "v16i64").unwrap(),
            "_Z7sub_satDv16_mS_"
        );
        assert_eq!(mangled_builtin("add_sat", false, "v5i32"), None);
        assert_eq!(mangled_builtin("add_sat", false, "i24"), None);
        let ir = "define void @k() {\n  %r = tail call i32 @llvm.uadd.sat.i32(i32 %a, i32 %b)\n  \
                  %s = call <2 x i8> @llvm.sadd.sat.v2i8(<2 x i8> %c, <2 x i8> %d)\n}\n\
                  declare i32 @llvm.uadd.sat.i32(i32, i32) #1\n\
                  declare <2 x i8> @llvm.sadd.sat.v2i8(<2 x i8>, <2 x i8>) #1\n\
                  declare spir_func <2 x i8> @_Z7add_satDv2_cS_(<2 x i8> noundef, <2 x i8> noundef) #2\n";
        let f = Findings::scan(ir);
        let out = rewrite_intrinsics(ir, &f).unwrap();
        assert_eq!(
            out,
            "define void @k() {\n  %r = tail call spir_func i32 @_Z7add_satjj(i32 %a, i32 %b)\n  \
             %s = call spir_func <2 x i8> @_Z7add_satDv2_cS_(<2 x i8> %c, <2 x i8> %d)\n}\n\
             declare spir_func i32 @_Z7add_satjj(i32, i32)\n\
             declare spir_func <2 x i8> @_Z7add_satDv2_cS_(<2 x i8> noundef, <2 x i8> noundef) #2\n"
        );
    }

    #[test]
    fn constant_bitcasts_fold_to_the_constants_they_make() {
        let ir = "  store <2 x i8> bitcast (<1 x i16> <i16 3271> to <2 x i8>), <2 x i8>* %a, align 2\n\
                  store <4 x i8> bitcast (<1 x i32> <i32 -123456> to <4 x i8>), <4 x i8>* %b\n\
                  store <2 x half> bitcast (<1 x i32> <i32 1006649344> to <2 x half>), <2 x half>* %c\n\
                  store <8 x i8> bitcast (<1 x double> <double 1.500000e+00> to <8 x i8>), <8 x i8>* %d\n\
                  store <2 x i16> bitcast (<1 x float> <float 0x7FF4000020000000> to <2 x i16>), <2 x i16>* %e\n\
                  store <2 x float> bitcast (<1 x i64> <i64 -4611686018427387904> to <2 x float>), <2 x float>* %f\n\
                  store <2 x i32> bitcast (<1 x i64> zeroinitializer to <2 x i32>), <2 x i32>* %g\n\
                  %h = shufflevector <2 x i64> <i64 bitcast (<4 x i16> <i16 -1, i16 2, i16 -1, i16 -1> to i64), i64 undef>, <2 x i64> %x, <2 x i32> <i32 0, i32 2>\n\
                  store float fneg (float extractelement (<2 x float> bitcast (<4 x i16> <i16 1, i16 1, i16 0, i16 0> to <2 x float>), i32 0)), float* %i\n\
                  store i8 addrspace(1)* bitcast (i32 addrspace(1)* @g to i8 addrspace(1)*), i8 addrspace(1)** %j\n\
                  store <2 x i32> bitcast (<1 x i64> bitcast (<2 x float> <float 1.000000e+00, float 0.000000e+00> to <1 x i64>) to <2 x i32>), <2 x i32>* %k\n";
        let found = Findings::scan(ir);
        assert_eq!(
            found.constant_bitcasts, 11,
            "the pointer bitcast is not one; the nested pair is two"
        );
        assert!(found.needs_rewrite() && !found.needs_pipeline());
        let (folded, n) = fold_constant_bitcasts(ir);
        assert_eq!(n, 11);
        let want = "  store <2 x i8> <i8 -57, i8 12>, <2 x i8>* %a, align 2\n\
                    store <4 x i8> <i8 -64, i8 29, i8 -2, i8 -1>, <4 x i8>* %b\n\
                    store <2 x half> <half 0xH4000, half 0xH3C00>, <2 x half>* %c\n\
                    store <8 x i8> <i8 0, i8 0, i8 0, i8 0, i8 0, i8 0, i8 -8, i8 63>, <8 x i8>* %d\n\
                    store <2 x i16> <i16 1, i16 32672>, <2 x i16>* %e\n\
                    store <2 x float> <float 0x0000000000000000, float 0xC000000000000000>, <2 x float>* %f\n\
                    store <2 x i32> <i32 0, i32 0>, <2 x i32>* %g\n\
                    %h = shufflevector <2 x i64> <i64 -4294770689, i64 undef>, <2 x i64> %x, <2 x i32> <i32 0, i32 2>\n\
                    store float fneg (float extractelement (<2 x float> <float 0x37A0001000000000, float 0x0000000000000000>, i32 0)), float* %i\n\
                    store i8 addrspace(1)* bitcast (i32 addrspace(1)* @g to i8 addrspace(1)*), i8 addrspace(1)** %j\n\
                    store <2 x i32> <i32 1065353216, i32 0>, <2 x i32>* %k\n";
        assert_eq!(folded, want);
        // A float lane that is a signalling NaN keeps its bits.
        assert_eq!(
            literal("float", &0x7fa0_0001u32.to_le_bytes()).unwrap(),
            "0x7FF4000020000000"
        );
        // Shapes of different sizes are left alone.
        let odd = "bitcast (<1 x i16> <i16 1> to <3 x i8>)";
        assert_eq!(fold_constant_bitcasts(odd), (odd.to_string(), 0));
    }

    #[test]
    fn freezes_become_no_op_casts() {
        let ir = "  %283 = freeze <16 x i32> %282\n  %a = freeze i8 addrspace(1)* %p\n  %b = add i32 %x, 1\n";
        assert_eq!(
            rewrite_freezes(ir).unwrap(),
            "  %283 = bitcast <16 x i32> %282 to <16 x i32>\n  %a = bitcast i8 addrspace(1)* %p to i8 addrspace(1)*\n  \
             %b = add i32 %x, 1\n"
        );
        assert_eq!(rewrite_freezes("  %s = freeze { i32, i8 } %t\n"), None);
        // Booleans: no bitcast (an OpBitcast of a boolean is not allowed).
        assert_eq!(
            rewrite_freezes("  %cond.fr = freeze i1 %c\n  %m = freeze <4 x i1> %v\n").unwrap(),
            "  %cond.fr = xor i1 %c, false\n  %m = xor <4 x i1> %v, zeroinitializer\n"
        );
    }

    #[test]
    fn bool_conversions_go_through_32_bit_integers() {
        let ir = "  %12 = sitofp i1 %11 to float\n  %7 = sitofp <4 x i1> %6 to <4 x float>\n  \
                  %a = uitofp i1 %c to double\n  %b = sitofp i32 %x to half\n  \
                  %t = fptosi float %f to i1\n  %u = fptoui <2 x double> %g to <2 x i1>, !x !1\n  \
                  %v = fptosi float %f to i32\n";
        let (text, n) = rewrite_bool_conversions(ir);
        assert_eq!(n, 4);
        assert_eq!(
            text,
            "  %clift.b2f.0 = sext i1 %11 to i32\n  %12 = sitofp i32 %clift.b2f.0 to float\n  \
             %clift.b2f.1 = sext <4 x i1> %6 to <4 x i32>\n  %7 = sitofp <4 x i32> %clift.b2f.1 to <4 x float>\n  \
             %a = uitofp i1 %c to double\n  %b = sitofp i32 %x to half\n  \
             %clift.b2f.2 = fptosi float %f to i32\n  %t = trunc i32 %clift.b2f.2 to i1\n  \
             %clift.b2f.3 = fptoui <2 x double> %g to <2 x i32>\n  %u = trunc <2 x i32> %clift.b2f.3 to <2 x i1>, !x !1\n  \
             %v = fptosi float %f to i32\n"
        );
        assert_eq!(Findings::scan(ir).bool_conversions, 4);
        // Masks: to an integer (or-ed by halves) and back.
        let masks = "  %141 = bitcast <8 x i1> %140 to i8\n  %m = bitcast i16 %x to <16 x i1>\n  \
                     %o = bitcast <4 x i1> %c to i4\n";
        let (text, n) = rewrite_bool_conversions(masks);
        assert_eq!(n, 2, "<4 x i1> is left to the odd-width workaround:\n{text}");
        assert!(text.starts_with(
            "  %clift.b2f.0.z = zext <8 x i1> %140 to <8 x i8>\n  \
             %clift.b2f.0.s8 = shl <8 x i8> %clift.b2f.0.z, <i8 0, i8 1, i8 2, i8 3, i8 4, i8 5, i8 6, i8 7>\n  \
             %clift.b2f.0.lo4 = shufflevector <8 x i8> %clift.b2f.0.s8, <8 x i8> undef, <4 x i32> <i32 0, i32 1, i32 2, i32 3>\n"
        ), "{text}");
        assert!(
            text.contains("  %141 = or i8 %clift.b2f.0.a, %clift.b2f.0.b\n"),
            "{text}"
        );
        assert!(text.contains(
            "  %clift.b2f.1.m = and <16 x i16> %clift.b2f.1.b, <i16 1, i16 2, i16 4, i16 8, i16 16, i16 32, i16 64, \
             i16 128, i16 256, i16 512, i16 1024, i16 2048, i16 4096, i16 8192, i16 16384, i16 -32768>\n  \
             %m = icmp ne <16 x i16> %clift.b2f.1.m, zeroinitializer\n"
        ), "{text}");
        assert!(text.ends_with("  %o = bitcast <4 x i1> %c to i4\n"), "{text}");
        assert!(Findings::scan(ir).needs_rewrite());
    }

    #[test]
    fn null_queues_become_loads() {
        let ir = "define spir_kernel void @k(i32 addrspace(1)* %o) #0 {\n  %1 = call i32 @f(%opencl.queue_t* null)\n  \
                  ret void\n}\ndefine void @g() {\nentry:\n  ret void\n}\n";
        assert!(Findings::scan(ir).null_queues);
        let out = rewrite_null_queues(ir).unwrap();
        assert_eq!(
            out,
            "define spir_kernel void @k(i32 addrspace(1)* %o) #0 {\n  %clift.nullq.slot = alloca i64, align 8\n  \
             store i64 0, i64* %clift.nullq.slot, align 8\n  \
             %clift.nullq.ptr = bitcast i64* %clift.nullq.slot to %opencl.queue_t**\n  \
             %clift.nullq = load %opencl.queue_t*, %opencl.queue_t** %clift.nullq.ptr, align 8\n  \
             %1 = call i32 @f(%opencl.queue_t* %clift.nullq)\n  ret void\n}\ndefine void @g() {\nentry:\n  ret void\n}\n"
        );
    }

    #[test]
    fn overflow_checks_become_functions() {
        assert_eq!(overflow_op("llvm.uadd.with.overflow.i32"), Some(("uadd", "i32")));
        assert_eq!(overflow_op("llvm.smul.with.overflow.v2i64"), Some(("smul", "v2i64")));
        assert_eq!(overflow_op("llvm.umul.with.overflow.i64"), Some(("umul", "i64")));
        let ir = "define void @k() {\n  %r = call { i32, i1 } @llvm.ssub.with.overflow.i32(i32 %a, i32 %b)\n  \
                  %s = call { i64, i1 } @llvm.smul.with.overflow.i64(i64 %c, i64 %d)\n}\n\
                  declare { i32, i1 } @llvm.ssub.with.overflow.i32(i32, i32) #1\n\
                  declare { i64, i1 } @llvm.smul.with.overflow.i64(i64, i64) #1\n";
        let f = Findings::scan(ir);
        assert_eq!(f.overflow_checks.len(), 2);
        let out = rewrite_intrinsics(ir, &f).unwrap();
        assert!(
            out.contains("%r = call spir_func { i32, i1 } @clift.ssub.with.overflow.i32(i32 %a, i32 %b)"),
            "{out}"
        );
        assert!(out.contains(
            "define internal spir_func { i32, i1 } @clift.ssub.with.overflow.i32(i32 %a, i32 %b) {\n  %r = sub i32 %a, %b\n"
        ));
        assert!(
            out.contains("%h = call spir_func i64 @_Z6mul_hill(i64 %a, i64 %b)"),
            "{out}"
        );
        assert!(out.contains("%s = ashr i64 %r, 63\n  %o = icmp ne i64 %h, %s"), "{out}");
        assert!(out.contains("declare spir_func i64 @_Z6mul_hill(i64, i64)\n"), "{out}");
        // Unsigned multiply: the high half (unsigned mul_hi) is not zero.
        let (name, u) = overflow_function("", "umul", "i64").unwrap();
        assert_eq!(name, "clift.umul.with.overflow.i64");
        assert!(u.contains("call spir_func i64 @_Z6mul_himm(i64 %a, i64 %b)"), "{u}");
        assert!(u.contains("%o = icmp ne i64 %h, 0"), "{u}");
        assert!(has_umul_overflow_function(b"..spirv.llvm_umul_with_overflow_i64.."));
        assert!(!has_umul_overflow_function(b"spirv.llvm_smul_with_overflow"));
        let (_, v) = overflow_function("", "sadd", "v4i8").unwrap();
        assert!(v.contains("%o = icmp slt <4 x i8> %z, <i8 0, i8 0, i8 0, i8 0>"), "{v}");
        assert!(
            v.contains("insertvalue { <4 x i8>, <4 x i1> } undef, <4 x i8> %r, 0"),
            "{v}"
        );
    }

    #[test]
    fn bit_reversal_becomes_shifts_and_masks() {
        let (name, def) = bit_reverse_function("i8").unwrap();
        assert_eq!(name, "clift.bitreverse.i8");
        assert_eq!(
            def,
            "define internal spir_func i8 @clift.bitreverse.i8(i8 %x0) {\n\
             \x20 %h1 = lshr i8 %x0, 1\n  %a1 = and i8 %h1, 85\n  %l1 = and i8 %x0, 85\n  %s1 = shl i8 %l1, 1\n  %x1 = or i8 %a1, %s1\n\
             \x20 %h2 = lshr i8 %x1, 2\n  %a2 = and i8 %h2, 51\n  %l2 = and i8 %x1, 51\n  %s2 = shl i8 %l2, 2\n  %x2 = or i8 %a2, %s2\n\
             \x20 %h3 = lshr i8 %x2, 4\n  %a3 = and i8 %h3, 15\n  %l3 = and i8 %x2, 15\n  %s3 = shl i8 %l3, 4\n  %x3 = or i8 %a3, %s3\n\
             \x20 ret i8 %x3\n}\n"
        );
        let (_, v) = bit_reverse_function("v2i64").unwrap();
        assert!(v.contains("lshr <2 x i64> %x5, <i64 32, i64 32>"), "{v}");
        assert!(
            v.contains("and <2 x i64> %h1, <i64 6148914691236517205, i64 6148914691236517205>"),
            "{v}"
        );
        assert_eq!(bit_reverse_function("i24"), None);
    }
}
