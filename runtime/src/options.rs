//! Build, compile and link options (API spec 5.8.6 "Compiler Options" and
//! 5.8.7 "Linker Options"): one rule that splits an option string into
//! words, and what each word means to clBuildProgram, clCompileProgram and
//! clLinkProgram.
//!
//! Splitting follows the rule clang's drivers use for response files, a
//! shell's without its expansions: words are separated by unquoted white
//! space; `'...'` and `"..."` group what they enclose (white space included)
//! and are removed; a backslash, outside quotes and inside both kinds,
//! makes the next character literal (`\"`, `\'`, `\\`, `\ `). A quote left
//! open is an error, and an empty pair of quotes is an empty word.
//!
//! Accepted: every option the spec lists, in every spelling it allows, and
//! the options clang understands the same way: `-D name`, `-Dname`,
//! `-D name=definition` (function-like `-D 'F(a,b)=a##b'` too), `-U name`,
//! `-I dir`, `-Idir`, `-w`, `-Werror`, `-W<warning>` and `-Wno-<warning>`,
//! `-O0` to `-O3`, `-Os` and `-Oz` (`-O0` is `-cl-opt-disable`),
//! `-cl-std=CL1.0` to `CL3.0` (lowercase `cl` too), and clift's own
//! `-cl-clift-max-lanes=N`, `-cl-clift-min-lanes=N`, `-cl-clift-wide-at-build` and
//! `-cl-clift-keep-variables`. Anything else is refused with the option named
//! and the reason (the caller's `CL_INVALID_*_OPTIONS`), never dropped.

use std::fmt;

use opencl_sys::{cl_int, CL_INVALID_BUILD_OPTIONS, CL_INVALID_COMPILER_OPTIONS, CL_INVALID_LINKER_OPTIONS};

use clift_jit::BuildOptions;

/// The call an option string was given to: what it may hold and the error
/// code that refuses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionsOf {
    /// clBuildProgram: the compiler options.
    Build,
    /// clCompileProgram: the compiler options.
    Compile,
    /// clLinkProgram: the library and program linking options.
    Link,
}

impl OptionsOf {
    /// The error code a refused option string gets.
    pub fn invalid_code(self) -> cl_int {
        match self {
            OptionsOf::Build => CL_INVALID_BUILD_OPTIONS,
            OptionsOf::Compile => CL_INVALID_COMPILER_OPTIONS,
            OptionsOf::Link => CL_INVALID_LINKER_OPTIONS,
        }
    }

    fn call(self) -> &'static str {
        match self {
            OptionsOf::Build => "clBuildProgram",
            OptionsOf::Compile => "clCompileProgram",
            OptionsOf::Link => "clLinkProgram",
        }
    }
}

/// A refused option string: the offending option and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError {
    /// The option as written (after splitting).
    pub option: String,
    /// Why it was refused.
    pub why: String,
    /// The call it was given to.
    pub call: OptionsOf,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: invalid option {:?}: {}",
            self.call.call(),
            self.option,
            self.why
        )
    }
}

impl OptionError {
    fn new(call: OptionsOf, option: &str, why: impl Into<String>) -> OptionError {
        OptionError {
            option: option.to_string(),
            why: why.into(),
            call,
        }
    }
}

/// The optimisation level clang (and `opt`, for the translator
/// workarounds) runs at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OptLevel {
    /// `-O0`, `-cl-opt-disable`.
    O0,
    O1,
    /// The default ("optimizations are enabled").
    #[default]
    O2,
    O3,
    Os,
    Oz,
}

impl OptLevel {
    /// The level's name as clang's `-O` and `opt`'s `default<...>` write it.
    pub fn name(self) -> &'static str {
        match self {
            OptLevel::O0 => "O0",
            OptLevel::O1 => "O1",
            OptLevel::O2 => "O2",
            OptLevel::O3 => "O3",
            OptLevel::Os => "Os",
            OptLevel::Oz => "Oz",
        }
    }

    fn from_flag(w: &str) -> Option<OptLevel> {
        Some(match w {
            "-O0" => OptLevel::O0,
            "-O1" => OptLevel::O1,
            "-O2" => OptLevel::O2,
            "-O3" => OptLevel::O3,
            "-Os" => OptLevel::Os,
            "-Oz" => OptLevel::Oz,
            _ => return None,
        })
    }
}

/// A preprocessor option, in the order given ("-D options are processed in
/// the order they are given", and `-U` undoes one in that order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Macro {
    /// `-D`: `name`, `name=definition` or `name(params)=definition`, the
    /// definition cut at its first newline as the spec says.
    Define(String),
    /// `-U name`.
    Undefine(String),
}

/// A compiler option string, checked and parsed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParsedOptions {
    /// What the jit receives (spec constant values are added at build time).
    pub build: BuildOptions,
    /// `-cl-uniform-work-group-size`: every work-group of an ND-range must be
    /// full, so a local size must divide the global size.
    pub uniform_work_group_size: bool,
    /// `-g`: device-side enqueue returns the specific `CLK_*` error instead
    /// of `CLK_ENQUEUE_FAILURE`.
    pub enqueue_errors: bool,
    /// `-cl-std=`, if given: the OpenCL C version (major, minor).
    pub cl_std: Option<(u32, u32)>,
    /// The optimisation level (`-cl-opt-disable` makes it `O0`).
    pub opt_level: OptLevel,
    /// `-D` and `-U`, in order. Ignored for programs created with IL.
    pub macros: Vec<Macro>,
    /// `-I` directories, in order. Ignored for programs created with IL.
    pub include_dirs: Vec<String>,
    /// The options clang takes as they are (`-w`, `-W...`, the `-cl-*`
    /// math and optimisation options), in order. Ignored for programs
    /// created with IL.
    pub clang_flags: Vec<String>,
}

/// clLinkProgram's options, checked.
#[derive(Debug, Clone, Default)]
pub struct LinkRequest {
    /// The option string as given.
    pub text: String,
    /// `-create-library`.
    pub create_library: bool,
    /// `-enable-link-options` (with `-create-library`): the library's
    /// users may apply their link options to it, which clift always does.
    pub enable_link_options: bool,
    /// The program linking options, as build options of the executable.
    pub build: ParsedOptions,
}

// ---------------------------------------------------------------------------
// Splitting
// ---------------------------------------------------------------------------

/// Splits `s` into words by the rule in the module documentation. `Err`
/// holds the text from the quote left open.
pub fn split(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    // Whether a word has started (an empty pair of quotes starts one).
    let mut in_word = false;
    let mut chars = s.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                // A backslash as the very last character stands for itself.
                cur.push(chars.next().map_or('\\', |(_, n)| n));
                in_word = true;
            }
            '"' | '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some((_, q)) if q == c => break,
                        Some((_, '\\')) => {
                            if let Some((_, n)) = chars.next() {
                                cur.push(n);
                            } else {
                                return Err(s[at..].to_string());
                            }
                        }
                        Some((_, other)) => cur.push(other),
                        None => return Err(s[at..].to_string()),
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

/// The OpenCL C versions `-cl-std=` may name: those the device supports
/// (CL_DEVICE_OPENCL_C_ALL_VERSIONS goes up to its OpenCL C version) and
/// the later ones the spec lists, which fail to compile as the spec says.
const CL_STD_VALUES: [(u32, u32); 6] = [(1, 0), (1, 1), (1, 2), (2, 0), (3, 0), (3, 1)];

/// The `-cl-*` flags clang takes with the spec's meaning, handed to it
/// unchanged.
const CLANG_CL_FLAGS: [&str; 11] = [
    "-cl-opt-disable",
    "-cl-mad-enable",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
    "-cl-uniform-work-group-size",
    "-cl-single-precision-constant",
    "-cl-denorms-are-zero",
    "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-kernel-arg-info",
];

/// The program linking options of the spec's "Linker Options".
const LINK_PROGRAM_OPTIONS: [&str; 6] = [
    "-cl-denorms-are-zero",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
    "-cl-no-subgroup-ifp",
];

/// Whether `s` is a C identifier.
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Checks a `-D` argument and returns it as clang takes it: `name`, or the
/// name part (an identifier, optionally followed directly by a
/// parenthesised parameter list of identifiers and a final `...`) then `=`
/// and the definition, cut at its first newline.
fn check_define(def: &str) -> Result<String, String> {
    let (head, body) = match def.split_once('=') {
        Some((h, b)) => (h, Some(b)),
        None => (def, None),
    };
    let name_end = head
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(head.len());
    let (name, mut rest) = head.split_at(name_end);
    if !is_identifier(name) {
        return Err("a -D needs a macro name (an identifier) before any `=`".into());
    }
    if let Some(params) = rest.strip_prefix('(') {
        let Some(close) = params.find(')') else {
            return Err("the macro's parameter list has no `)`".into());
        };
        let list = &params[..close];
        let items: Vec<&str> = list.split(',').map(str::trim).collect();
        let empty = items.len() == 1 && items[0].is_empty();
        if !empty {
            for (i, p) in items.iter().enumerate() {
                let variadic = *p == "..." && i + 1 == items.len();
                if !variadic && !is_identifier(p) {
                    return Err(format!("macro parameter {p:?} is not an identifier"));
                }
            }
        }
        rest = &params[close + 1..];
    }
    if !rest.chars().all(|c| c == ' ' || c == '\t') {
        return Err(format!(
            "{:?} follows the macro name; a -D defines one name (quote a definition that holds spaces: -D 'NAME=a b')",
            rest.trim()
        ));
    }
    Ok(match body {
        Some(b) => format!("{head}={}", b.split(['\n', '\r']).next().unwrap_or("")),
        None => head.to_string(),
    })
}

/// The value of clift's `-cl-clift-max-lanes=N` or `-cl-clift-min-lanes=N`
/// (`which`: "max" or "min"): a power of two from 1 to 64.
fn parse_lanes(v: &str, which: &str) -> Result<u32, String> {
    match v.parse::<u32>() {
        Ok(n) if n.is_power_of_two() && n <= 64 => Ok(n),
        _ => Err(format!(
            "clift's -cl-clift-{which}-lanes takes a power of two from 1 to 64"
        )),
    }
}

/// The version `-cl-std=` names (`CL1.2`, `cl2.0`, `CL` for 1.0).
fn parse_cl_std(v: &str) -> Result<(u32, u32), String> {
    let refuse = || {
        format!(
            "not an OpenCL C version; -cl-std takes {}",
            CL_STD_VALUES.map(|(a, b)| format!("CL{a}.{b}")).join(", ")
        )
    };
    let Some(num) = v.strip_prefix("CL").or_else(|| v.strip_prefix("cl")) else {
        return Err(refuse());
    };
    if num.starts_with("C++") || num.starts_with("c++") {
        return Err("C++ for OpenCL needs cl_ext_cxx_for_opencl, which this device does not report".into());
    }
    if num.is_empty() {
        return Ok((1, 0));
    }
    let version = num
        .split_once('.')
        .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
        .filter(|v| CL_STD_VALUES.contains(v));
    version.ok_or_else(refuse)
}

/// Splits `s`, naming the quote left open.
fn split_for(s: &str, call: OptionsOf) -> Result<Vec<String>, OptionError> {
    split(s).map_err(|open| OptionError::new(call, &open, "a quote is not closed"))
}

/// Parses the options of clBuildProgram or clCompileProgram (`call`).
pub fn parse_options(s: &str, call: OptionsOf) -> Result<ParsedOptions, OptionError> {
    parse_words(&split_for(s, call)?, call)
}

/// Parses compiler options already split into words.
fn parse_words(words: &[String], call: OptionsOf) -> Result<ParsedOptions, OptionError> {
    let mut p = ParsedOptions::default();
    let mut level = None;
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let bad = |why: String| OptionError::new(call, w, why);
        // An option and its argument, given apart or joined (`-D X`, `-DX`).
        let mut argument = |flag: &str| -> Option<Result<String, OptionError>> {
            let rest = w.strip_prefix(flag)?;
            Some(if !rest.is_empty() {
                Ok(rest.to_string())
            } else {
                it.next()
                    .cloned()
                    .ok_or_else(|| OptionError::new(call, w, format!("{flag} needs an argument")))
            })
        };
        if let Some(def) = argument("-D") {
            let def = def?;
            let checked = check_define(&def).map_err(|why| OptionError::new(call, &format!("-D {def}"), why))?;
            p.macros.push(Macro::Define(checked));
            continue;
        }
        if let Some(name) = argument("-U") {
            let name = name?;
            if !is_identifier(&name) {
                return Err(OptionError::new(call, &format!("-U {name}"), "-U needs a macro name"));
            }
            p.macros.push(Macro::Undefine(name));
            continue;
        }
        if let Some(dir) = argument("-I") {
            let dir = dir?;
            if dir.is_empty() {
                return Err(OptionError::new(call, "-I", "-I needs a directory"));
            }
            p.include_dirs.push(dir);
            continue;
        }
        if let Some(l) = OptLevel::from_flag(w) {
            level = Some(l);
            continue;
        }
        if CLANG_CL_FLAGS.contains(&w.as_str()) {
            p.clang_flags.push(w.clone());
        }
        let b = &mut p.build;
        match w.as_str() {
            // Optimization options.
            "-cl-opt-disable" => b.opt_disable = true,
            "-cl-mad-enable" => b.mad_enable = true,
            "-cl-no-signed-zeros" => b.no_signed_zeros = true,
            // "This option includes the -cl-no-signed-zeros, -cl-mad-enable,
            // and -cl-denorms-are-zero options."
            "-cl-unsafe-math-optimizations" => {
                b.unsafe_math = true;
                b.no_signed_zeros = true;
                b.mad_enable = true;
                b.denorms_are_zero = true;
            }
            "-cl-finite-math-only" => b.finite_math_only = true,
            // "Sets the optimization options -cl-finite-math-only and
            // -cl-unsafe-math-optimizations."
            "-cl-fast-relaxed-math" => {
                b.fast_relaxed_math = true;
                b.finite_math_only = true;
                b.unsafe_math = true;
                b.no_signed_zeros = true;
                b.mad_enable = true;
                b.denorms_are_zero = true;
            }
            "-cl-uniform-work-group-size" => p.uniform_work_group_size = true,
            // "the kernel does not require independent forward progress of
            // sub-groups": code generation places no yield points. The
            // deprecated strict-aliasing hint changes nothing here (and
            // clang-15 takes neither).
            "-cl-no-subgroup-ifp" => b.no_subgroup_ifp = true,
            "-cl-strict-aliasing" => {}
            // Math intrinsics options.
            "-cl-single-precision-constant" => b.single_precision_constant = true,
            "-cl-denorms-are-zero" => b.denorms_are_zero = true,
            // "This build option can only be specified if the
            // CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT is set in
            // CL_DEVICE_SINGLE_FP_CONFIG": clift's division and square root
            // are always correctly rounded.
            "-cl-fp32-correctly-rounded-divide-sqrt" => {}
            "-cl-kernel-arg-info" => b.kernel_arg_info = true,
            "-cl-clift-wide-at-build" => b.wide_at_build = true,
            "-cl-clift-keep-variables" => b.keep_variables = true,
            // Debugging: "additional errors for the built-in functions that
            // allow you to enqueue commands on a device" (enqueue_kernel and
            // enqueue_marker then say why they failed); not clang's -g
            // (debug information).
            "-g" => p.enqueue_errors = true,
            "-create-library" | "-enable-link-options" => {
                return Err(bad("a library linking option, which only clLinkProgram takes".into()));
            }
            _ => {
                if let Some(v) = w.strip_prefix("-cl-clift-max-lanes=") {
                    b.max_lanes = Some(parse_lanes(v, "max").map_err(bad)?);
                } else if let Some(v) = w.strip_prefix("-cl-clift-min-lanes=") {
                    b.min_lanes = Some(parse_lanes(v, "min").map_err(bad)?);
                } else if let Some(v) = w.strip_prefix("-cl-std=") {
                    p.cl_std = Some(parse_cl_std(v).map_err(bad)?);
                } else if is_warning_flag(w) {
                    p.clang_flags.push(w.clone());
                } else {
                    return Err(bad(unknown_reason(w)));
                }
            }
        }
    }
    p.opt_level = if p.build.opt_disable {
        OptLevel::O0
    } else {
        level.unwrap_or_default()
    };
    p.build.opt_disable = p.opt_level == OptLevel::O0;
    Ok(p)
}

/// `-w`, `-Werror`, `-W<warning>`, `-Wno-<warning>`, `-Werror=<warning>`:
/// clang's warning switches (not `-Wl,`, `-Wa,` or `-Wp,`, which hand
/// arguments to other tools).
fn is_warning_flag(w: &str) -> bool {
    if w == "-w" {
        return true;
    }
    let Some(rest) = w.strip_prefix("-W") else {
        return false;
    };
    !rest.is_empty()
        && rest.starts_with(|c: char| c.is_ascii_alphabetic())
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '=' | '+' | '#'))
}

/// Why an option no rule above took is refused.
fn unknown_reason(w: &str) -> String {
    if w == "-x" || w.starts_with("-spir-std") {
        "SPIR binaries (cl_khr_spir) are not supported; clift takes SPIR-V through clCreateProgramWithIL".into()
    } else if w.starts_with("-cl-") {
        "not a compiler option of OpenCL 2.2 (vendor options such as -cl-nv-*, -cl-amd-* and -cl-intel-* \
         belong to other platforms)"
            .into()
    } else if w.starts_with("-O") {
        "clift takes -O0, -O1, -O2, -O3, -Os and -Oz".into()
    } else if !w.starts_with('-') {
        "not an option (options start with -; a -D or -I argument with spaces needs quotes)".into()
    } else {
        "not an OpenCL compiler option".into()
    }
}

/// Parses clLinkProgram's options: the library linking options and the
/// program linking options of the spec's "Linker Options", and clift's
/// `-cl-clift-max-lanes=N`, `-cl-clift-min-lanes=N`,
/// `-cl-clift-wide-at-build` and `-cl-clift-keep-variables`.
pub fn parse_link_options(s: &str) -> Result<LinkRequest, OptionError> {
    let call = OptionsOf::Link;
    let mut r = LinkRequest {
        text: s.to_string(),
        ..LinkRequest::default()
    };
    let mut rest = Vec::new();
    for w in split_for(s, call)? {
        match w.as_str() {
            "-create-library" => r.create_library = true,
            "-enable-link-options" => r.enable_link_options = true,
            _ if LINK_PROGRAM_OPTIONS.contains(&w.as_str())
                || w.starts_with("-cl-clift-max-lanes=")
                || w.starts_with("-cl-clift-min-lanes=")
                || w == "-cl-clift-wide-at-build"
                || w == "-cl-clift-keep-variables" =>
            {
                rest.push(w)
            }
            _ => {
                return Err(OptionError::new(
                    call,
                    &w,
                    format!(
                        "clLinkProgram takes -create-library, -enable-link-options and the program linking options {}",
                        LINK_PROGRAM_OPTIONS.join(" ")
                    ),
                ))
            }
        }
    }
    // "This option must be specified with the create-library option."
    if r.enable_link_options && !r.create_library {
        return Err(OptionError::new(
            call,
            "-enable-link-options",
            "it must be given with -create-library",
        ));
    }
    r.build = parse_words(&rest, call)?;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        split(s).unwrap_or_else(|open| panic!("{s:?}: open quote at {open:?}"))
    }

    #[test]
    fn splitting_is_shell_like() {
        let cases: &[(&str, &[&str])] = &[
            ("", &[]),
            ("   \t\n ", &[]),
            ("-D X -DY=1", &["-D", "X", "-DY=1"]),
            ("  a   b  ", &["a", "b"]),
            (r#"-I "/a dir/x""#, &["-I", "/a dir/x"]),
            (r#"-I"/a dir""#, &["-I/a dir"]),
            ("-I '/a dir'", &["-I", "/a dir"]),
            (r"-I/a\ dir", &["-I/a dir"]),
            (r#"-D S="\"q\"""#, &["-D", r#"S="q""#]),
            (r#"-D 'S="q"'"#, &["-D", r#"S="q""#]),
            (r#"-D "S='q'""#, &["-D", "S='q'"]),
            (r"-D A=\\", &["-D", r"A=\"]),
            (r"-D A='it\'s'", &["-D", "A=it's"]),
            (
                "-D 'XM2S(x)=#x' -D M2S(x)=XM2S(x)",
                &["-D", "XM2S(x)=#x", "-D", "M2S(x)=XM2S(x)"],
            ),
            ("a''b", &["ab"]),
            ("'' x", &["", "x"]),
            (r#""""#, &[""]),
            ("trailing\\", &["trailing\\"]),
            ("multi\nline\ttab", &["multi", "line", "tab"]),
            ("-D 'A=x y'z", &["-D", "A=x yz"]),
        ];
        for (s, want) in cases {
            assert_eq!(words(s), *want, "{s:?}");
        }
        for open in [r#"-I "dir"#, "-D 'A", r#"x "\"#, "'"] {
            assert!(split(open).is_err(), "{open:?}");
        }
        assert_eq!(split(r#"a -I "b c"#).unwrap_err(), r#""b c"#);
    }

    fn parse(s: &str) -> ParsedOptions {
        parse_options(s, OptionsOf::Build).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    fn defines(p: &ParsedOptions) -> Vec<String> {
        p.macros
            .iter()
            .map(|m| match m {
                Macro::Define(d) => format!("D {d}"),
                Macro::Undefine(u) => format!("U {u}"),
            })
            .collect()
    }

    #[test]
    fn options_accept_the_spec_set_and_clangs_spellings() {
        for ok in [
            "",
            "  ",
            "-cl-opt-disable",
            "-cl-mad-enable -cl-fast-relaxed-math -cl-denorms-are-zero",
            "-cl-finite-math-only -cl-no-signed-zeros -cl-unsafe-math-optimizations",
            "-cl-single-precision-constant -cl-std=CL2.0 -cl-kernel-arg-info -w -Werror",
            "-D FOO -DBAR=2 -D BAZ=x -I /tmp -I/usr/include -I \"/a dir\"",
            "-cl-std=CL1.1",
            "-cl-std=CL1.2",
            "-cl-std=cl2.0",
            "-cl-std=CL",
            "-cl-std=CL3.0",
            "-cl-uniform-work-group-size -cl-no-subgroup-ifp -g -cl-fp32-correctly-rounded-divide-sqrt",
            "-cl-strict-aliasing",
            "-O0 -O1 -O2 -O3 -Os -Oz",
            "-Wall -Wno-unused-variable -Werror=implicit-function-declaration -Wno-error=unused",
            "-U FOO -UBAR",
            "-D 'F(a, b)=a##b' -D G()=1 -D 'V(x, ...)=x' -D H(x)=#x",
            "-D X= -D 'Y=a b c'",
            "-cl-clift-max-lanes=1",
        ] {
            parse(ok);
        }
    }

    #[test]
    fn options_refuse_with_the_option_named() {
        for (bad, named) in [
            ("-cl-unknown", "-cl-unknown"),
            ("-cl-nv-verbose", "-cl-nv-verbose"),
            ("-D", "-D"),
            ("-I", "-I"),
            ("-U", "-U"),
            ("-I ''", "-I"),
            ("-cl-std=", "-cl-std="),
            ("-cl-std=CL9.9", "-cl-std=CL9.9"),
            ("-cl-std=CL2.1", "-cl-std=CL2.1"),
            ("-cl-std=CLC++", "-cl-std=CLC++"),
            ("-D 1X", "-D 1X"),
            ("-D -w", "-D -w"),
            ("-D 'A B=1'", "-D A B=1"),
            ("-D 'F(x=1'", "-D F(x=1"),
            ("-D 'F(1)=1'", "-D F(1)=1"),
            ("-D 'F(x)y=1'", "-D F(x)y=1"),
            ("-D =1", "-D =1"),
            ("-U 1", "-U 1"),
            ("-DX -Ofast", "-Ofast"),
            ("-I \"unterminated", "\"unterminated"),
            ("cl-mad-enable", "cl-mad-enable"),
            ("-x spir", "-x"),
            ("-spir-std=1.2", "-spir-std=1.2"),
            ("-create-library", "-create-library"),
            ("-cl-clift-max-lanes=3", "-cl-clift-max-lanes=3"),
            ("-cl-clift-max-lanes=0", "-cl-clift-max-lanes=0"),
            ("-cl-clift-max-lanes=", "-cl-clift-max-lanes="),
            ("-Wl,-rpath", "-Wl,-rpath"),
            ("-W", "-W"),
            ("-s /tmp/k.cl", "-s"),
            ("--help", "--help"),
        ] {
            for call in [OptionsOf::Build, OptionsOf::Compile] {
                let e = parse_options(bad, call).expect_err(bad);
                assert_eq!(e.option, named, "{bad:?}");
                assert!(e.to_string().contains(named) && !e.why.is_empty(), "{e}");
                assert_eq!(e.call, call);
            }
        }
    }

    #[test]
    fn max_lanes_is_clifts_own_option() {
        assert_eq!(parse("").build.max_lanes, None);
        assert_eq!(parse("-cl-clift-max-lanes=1").build.max_lanes, Some(1));
        assert_eq!(parse("-cl-clift-max-lanes=4").build.max_lanes, Some(4));
        let link = parse_link_options("-cl-clift-max-lanes=1").unwrap();
        assert_eq!(link.build.build.max_lanes, Some(1));
        assert_eq!(parse("").build.min_lanes, None);
        assert_eq!(parse("-cl-clift-min-lanes=4").build.min_lanes, Some(4));
        let link = parse_link_options("-cl-clift-min-lanes=4").unwrap();
        assert_eq!(link.build.build.min_lanes, Some(4));
        for bad in [
            "-cl-clift-min-lanes=3",
            "-cl-clift-min-lanes=",
            "-cl-clift-min-lanes=128",
        ] {
            let e = parse_options(bad, OptionsOf::Build).expect_err(bad);
            assert!(e.why.contains("-cl-clift-min-lanes"), "{e}");
        }
        assert!(!parse("").build.wide_at_build);
        assert!(parse("-cl-clift-wide-at-build").build.wide_at_build);
        assert!(!parse("").build.keep_variables);
        assert!(parse("-cl-clift-keep-variables").build.keep_variables);
        assert!(
            parse_link_options("-cl-clift-keep-variables")
                .unwrap()
                .build
                .build
                .keep_variables
        );
        let link = parse_link_options("-cl-clift-wide-at-build").unwrap();
        assert!(link.build.build.wide_at_build);
    }

    #[test]
    fn options_set_their_fields_and_implications() {
        let p = parse("-cl-fast-relaxed-math -cl-kernel-arg-info -DA -D B=2 -Ix -I \"y z\"");
        let b = &p.build;
        assert!(b.fast_relaxed_math && b.finite_math_only && b.unsafe_math);
        assert!(b.no_signed_zeros && b.mad_enable && b.denorms_are_zero);
        assert!(b.kernel_arg_info && !b.opt_disable);
        assert_eq!(defines(&p), ["D A", "D B=2"]);
        assert_eq!(p.include_dirs, ["x", "y z"]);
        let p = parse("-cl-uniform-work-group-size -cl-std=CL2.0");
        assert!(p.uniform_work_group_size);
        assert_eq!(p.cl_std, Some((2, 0)));
        assert_eq!(parse("-cl-std=cl1.1").cl_std, Some((1, 1)));
        assert_eq!(parse("-cl-std=CL").cl_std, Some((1, 0)));
        assert_eq!(parse(""), ParsedOptions::default());
    }

    #[test]
    fn macros_keep_their_order_and_text() {
        let p = parse(
            "-D XM2S(x)=#x -D M2S(x)=XM2S(x) -U OLD -D 'CAT(a,b)=a ## b' -DV(...)=__VA_ARGS__ -D 'NL=1\n2' -D E=",
        );
        assert_eq!(
            defines(&p),
            [
                "D XM2S(x)=#x",
                "D M2S(x)=XM2S(x)",
                "U OLD",
                "D CAT(a,b)=a ## b",
                "D V(...)=__VA_ARGS__",
                "D NL=1",
                "D E="
            ]
        );
    }

    #[test]
    fn optimisation_levels() {
        assert_eq!(parse("").opt_level, OptLevel::O2);
        assert_eq!(parse("-O3").opt_level, OptLevel::O3);
        assert_eq!(parse("-O3 -O1").opt_level, OptLevel::O1);
        assert_eq!(parse("-Oz").opt_level, OptLevel::Oz);
        let p = parse("-O0");
        assert!(p.opt_level == OptLevel::O0 && p.build.opt_disable);
        // "This option disables all optimizations", whatever -O says.
        let p = parse("-cl-opt-disable -O3");
        assert!(p.opt_level == OptLevel::O0 && p.build.opt_disable);
    }

    #[test]
    fn clang_flags_keep_what_clang_takes_in_order() {
        let p = parse("-Werror -cl-mad-enable -g -D X -cl-no-subgroup-ifp -w -Wall -cl-opt-disable -O2");
        assert_eq!(
            p.clang_flags,
            ["-Werror", "-cl-mad-enable", "-w", "-Wall", "-cl-opt-disable"]
        );
        assert!(p.build.opt_disable && p.build.mad_enable);
    }

    #[test]
    fn link_options() {
        let r = parse_link_options("-create-library -enable-link-options -cl-fast-relaxed-math").unwrap();
        assert!(r.create_library && r.enable_link_options);
        assert!(r.build.build.fast_relaxed_math && r.build.build.finite_math_only);
        let r = parse_link_options("").unwrap();
        assert!(!r.create_library && r.build == ParsedOptions::default());
        for ok in [
            "-cl-denorms-are-zero -cl-no-signed-zeros",
            "-cl-unsafe-math-optimizations -cl-finite-math-only -cl-no-subgroup-ifp",
            "'-create-library'  \"-cl-clift-max-lanes=4\"",
        ] {
            assert!(parse_link_options(ok).is_ok(), "{ok:?}");
        }
        for (bad, named) in [
            ("-enable-link-options", "-enable-link-options"),
            ("-cl-mad-enable", "-cl-mad-enable"),
            ("-cl-opt-disable", "-cl-opt-disable"),
            ("-D X", "-D"),
            ("-I dir", "-I"),
            ("-cl-std=CL2.0", "-cl-std=CL2.0"),
            ("-w", "-w"),
            ("-bogus", "-bogus"),
            ("\"-create-library", "\"-create-library"),
            ("-cl-clift-max-lanes=5", "-cl-clift-max-lanes=5"),
        ] {
            let e = parse_link_options(bad).expect_err(bad);
            assert_eq!(e.option, named, "{bad:?}");
            assert_eq!(e.call, OptionsOf::Link);
            assert_eq!(e.call.invalid_code(), CL_INVALID_LINKER_OPTIONS);
        }
    }
}
