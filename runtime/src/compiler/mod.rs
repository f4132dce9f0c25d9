//! The OpenCL C front end: the system's clang and SPIR-V translator, run as
//! child processes, and a cache of what they produced.
//!
//! clift turns OpenCL C into SPIR-V with `clang -target spir64 -emit-llvm`
//! and `llvm-spirv`, then builds that module exactly as
//! clCreateProgramWithIL would. The tools are found once per process
//! ([`tools`]): `CLIFT_CLANG` and `CLIFT_LLVM_SPIRV` name them; otherwise
//! `clang-15` and `llvm-spirv-15` on `PATH`, then other versioned names
//! (`clang-16`, ..., `clang`) with an `llvm-spirv` of the same major version.
//! (Every `CLIFT_*` variable is read by [`crate::config`].)
//!
//! Every tool runs with stdin from `/dev/null`, its output in files of a
//! private temporary directory, and a time limit (`CLIFT_COMPILER_TIMEOUT`
//! seconds, 120 by default) after which it is killed and the log says so
//! (`process.rs`).
//!
//! A compile runs in phases (`compile_uncached`): the private folder with
//! the source and embedded headers; clang to LLVM bitcode; llvm-spirv, with
//! workarounds for what llvm-spirv 15 cannot translate from clang's
//! optimised IR (`workarounds.rs`: a pass left out of `opt`'s pipeline, or
//! an intrinsic call rewritten; -O0 as the last resort), each named in the
//! build log; kernel argument information (`arg_info.rs`) and kernel
//! attributes (`attributes.rs`), recorded in the module as OpStrings
//! ([`clift_jit::spirv::edit`]).
//!
//! Results are cached in memory and on disk (`cache.rs`: `$CLIFT_CACHE_DIR`,
//! else `$XDG_CACHE_HOME/clift`, else `~/.cache/clift`; `CLIFT_CACHE=0`
//! turns both off), keyed by the source, the headers, the translated
//! arguments and both tools' `--version` output. A disk entry holds its
//! whole key and a checksum, is written to a temporary file and renamed
//! into place, and is ignored when it does not read back whole.

mod arg_info;
mod attributes;
mod cache;
mod process;
mod tools;
mod workarounds;

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use clift_jit::spirv::edit::{Capability, Words};

pub use tools::{available, tools, Tools, INSTALL_HINT};

use crate::options::{Macro, OptLevel, ParsedOptions};
use process::{run, TempDir};

/// The OpenCL C version the device reports (CL_DEVICE_OPENCL_C_VERSION);
/// `-cl-std` above it fails to compile.
const MAX_CL_STD: (u32, u32) = crate::device::OPENCL_C_VERSION;

/// The OpenCL C version without `-cl-std` ("the highest OpenCL C 1.x
/// language version supported by each device").
const DEFAULT_CL_STD: (u32, u32) = (1, 2);

/// Why source did not become SPIR-V.
#[derive(Debug, Clone)]
pub enum CompileError {
    /// No usable compiler: the log says what to install.
    NotAvailable(String),
    /// The compiler refused the program (or failed): its diagnostics.
    Failed(String),
}

/// A compiled module and the compiler's diagnostics (warnings).
#[derive(Debug)]
pub struct Compiled {
    /// The SPIR-V module (with Linkage: an object that may import symbols).
    pub spirv: Arc<[u8]>,
    /// What the tools printed, and notes on workarounds.
    pub log: String,
}

/// The clang arguments for `options` (after the fixed ones, before the
/// optimisation level), or a log line when the options ask for what the
/// device cannot do.
fn clang_args(options: &ParsedOptions) -> Result<Vec<String>, String> {
    let (major, minor) = options.cl_std.unwrap_or(DEFAULT_CL_STD);
    if (major, minor) > MAX_CL_STD {
        return Err(format!(
            "-cl-std=CL{major}.{minor}: the device supports OpenCL C {}.{} at most (CL_DEVICE_OPENCL_C_VERSION)",
            MAX_CL_STD.0, MAX_CL_STD.1
        ));
    }
    let mut a: Vec<String> = vec![format!("-cl-std=CL{major}.{minor}")];
    // Only the extensions the device reports exist for the program.
    let mut ext = String::from("-cl-ext=-all");
    for e in crate::device::DEVICE_EXTENSIONS {
        ext.push_str(",+");
        ext.push_str(e);
    }
    a.extend(["-Xclang".into(), ext]);
    // OpenCL C's predefined macros as the device has them (before the
    // application's -D and -U, which may change them): clang-15 defines no
    // __OPENCL_VERSION__ ("an integer reflecting the version number of the
    // OpenCL supported by the OpenCL device"). Its __IMAGE_SUPPORT__ (for
    // spir64) is right: clift's devices support images.
    let (dmajor, dminor) = crate::device::DEVICE_VERSION;
    a.push(format!("-D__OPENCL_VERSION__={}", dmajor * 100 + dminor * 10));
    // As separate arguments (no shell in between), so definitions keep
    // their spaces, quotes, `#` and `##`.
    for m in &options.macros {
        match m {
            Macro::Define(d) => a.extend(["-D".into(), d.clone()]),
            Macro::Undefine(u) => a.extend(["-U".into(), u.clone()]),
        }
    }
    // clang runs in a private folder: relative -I folders are the
    // application's working directory's.
    let cwd = std::env::current_dir().unwrap_or_default();
    for i in &options.include_dirs {
        a.extend(["-I".into(), cwd.join(i).to_string_lossy().into_owned()]);
    }
    a.extend(options.clang_flags.iter().cloned());
    Ok(a)
}

/// Compiles `source` (with `headers`: include name and text, for
/// clCompileProgram's embedded headers) to SPIR-V.
pub fn compile(source: &str, headers: &[(String, String)], options: &ParsedOptions) -> Result<Compiled, CompileError> {
    let tools = tools().map_err(CompileError::NotAvailable)?;
    let args = clang_args(options).map_err(|e| CompileError::Failed(format!("{e}\n")))?;
    let key = cache_key(tools, source, headers, &args, options);
    if let Some(hit) = cache::get(&key) {
        return Ok(hit);
    }
    let (out, deps) = compile_uncached(tools, source, headers, &args, options)?;
    cache::put(&key, &out, &deps);
    Ok(out)
}

/// The files of the `-I` folders a compile read, from clang's dependency
/// file (`make` syntax: `target: dep dep \`, spaces in names escaped).
fn included_files(deps: &str, include_dirs: &[PathBuf]) -> Vec<PathBuf> {
    let text = deps.replace("\\\n", " ");
    let body = text.split_once(": ").map_or("", |(_, b)| b);
    let mut files = Vec::new();
    let mut cur = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => {
                cur.push(' ');
                chars.next();
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    files.push(PathBuf::from(std::mem::take(&mut cur)));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        files.push(PathBuf::from(cur));
    }
    files.retain(|f| include_dirs.iter().any(|d| f.starts_with(d)));
    files.sort();
    files.dedup();
    files
}

/// The bytes a compile is cached under.
fn cache_key(
    tools: &Tools,
    source: &str,
    headers: &[(String, String)],
    args: &[String],
    options: &ParsedOptions,
) -> Vec<u8> {
    let mut k = Vec::new();
    let mut field = |b: &[u8]| {
        k.extend_from_slice(&(b.len() as u64).to_le_bytes());
        k.extend_from_slice(b);
    };
    field(b"clift-cc 9");
    field(tools.versions.as_bytes());
    field(&[u8::from(tools.opt.is_some()), u8::from(options.build.kernel_arg_info)]);
    field(options.opt_level.name().as_bytes());
    for a in args {
        field(a.as_bytes());
    }
    field(b"--");
    for (name, text) in headers {
        field(name.as_bytes());
        field(text.as_bytes());
    }
    field(source.as_bytes());
    k
}

/// One compile: its private folder, the clang arguments, the options and
/// the log so far.
struct Job<'a> {
    tools: &'a Tools,
    dir: TempDir,
    args: &'a [String],
    options: &'a ParsedOptions,
    limit: Duration,
    log: String,
    /// llvm-spirv needed SPIR-V 1.3: the program calls non-uniform
    /// sub-group functions.
    non_uniform: Cell<bool>,
    /// The program is optimised without SimplifyCFG's hoisting and sinking
    /// of common code, which would merge the calls of a non-uniform
    /// sub-group function from the two arms of a branch into one, and so
    /// change the work-items active at each (see [`Job::spirv`]).
    keep_arms_apart: bool,
}

/// The flags (for `opt`; for clang each after `-mllvm`) that keep
/// SimplifyCFG from hoisting or sinking code common to the arms of a
/// branch.
const KEEP_ARMS_APART: [&str; 2] = ["-simplifycfg-hoist-common=false", "-simplifycfg-sink-common=false"];

fn compile_uncached(
    tools: &Tools,
    source: &str,
    headers: &[(String, String)],
    args: &[String],
    options: &ParsedOptions,
) -> Result<(Compiled, Vec<PathBuf>), CompileError> {
    let mut job = Job::new(tools, source, headers, args, options)?;
    let deps = job.front_end()?;
    let spirv = job.spirv()?;
    let spirv = job.argument_info(spirv)?;
    if clift_jit::check_il(&spirv).is_err() {
        return Err(job.failed("llvm-spirv produced a module clift cannot read"));
    }
    let compiled = Compiled {
        spirv: Arc::from(spirv),
        log: job.log,
    };
    Ok((compiled, deps))
}

impl<'a> Job<'a> {
    /// Phase 1: the private folder, holding `program.cl` and the embedded
    /// headers in `headers/` (searched first).
    fn new(
        tools: &'a Tools,
        source: &str,
        headers: &[(String, String)],
        args: &'a [String],
        options: &'a ParsedOptions,
    ) -> Result<Job<'a>, CompileError> {
        let failed = |s: String| CompileError::Failed(format!("{s}\n"));
        let dir = TempDir::new().map_err(|e| failed(format!("cannot create a temporary directory: {e}")))?;
        let hdir = dir.path.join("headers");
        std::fs::create_dir(&hdir).map_err(|e| failed(format!("cannot write headers: {e}")))?;
        for (name, text) in headers {
            let rel = Path::new(name);
            if rel.is_absolute() || rel.components().any(|c| !matches!(c, std::path::Component::Normal(_))) {
                return Err(failed(format!(
                    "header include name {name:?}: must be a relative path without \"..\""
                )));
            }
            let p = hdir.join(rel);
            if let Some(parent) = p.parent() {
                std::fs::create_dir_all(parent).map_err(|e| failed(format!("cannot write header {name:?}: {e}")))?;
            }
            std::fs::write(&p, text).map_err(|e| failed(format!("cannot write header {name:?}: {e}")))?;
        }
        let src = dir.path.join("program.cl");
        std::fs::write(&src, source).map_err(|e| failed(format!("cannot write the source: {e}")))?;
        Ok(Job {
            tools,
            dir,
            args,
            options,
            limit: process::time_limit(),
            log: String::new(),
            non_uniform: Cell::new(false),
            keep_arms_apart: false,
        })
    }

    /// A file of the private folder.
    fn file(&self, name: &str) -> PathBuf {
        self.dir.path.join(name)
    }

    /// A failure: the log so far, then `why`.
    fn failed(&self, why: impl std::fmt::Display) -> CompileError {
        CompileError::Failed(format!("{}{why}\n", self.log))
    }

    /// Runs `tool` with `args` in the private folder (`Err`: it could not
    /// run or was killed).
    fn run(&self, tool: &Path, args: &[String]) -> Result<process::RunOutput, CompileError> {
        run(tool, args, &self.dir, self.limit).map_err(|e| self.failed(e))
    }

    /// Runs clang on `program.cl` with `extra` (the level and the like)
    /// then the compile's arguments, writing LLVM IR (`text`: `.ll`) to
    /// `out`. `Ok(Err(diagnostics))` when clang refuses the program.
    fn clang(&self, extra: &[&str], out: &Path, text: bool) -> Result<Result<String, String>, CompileError> {
        let mut a: Vec<String> = ["-target", "spir64", "-x", "cl"].map(String::from).to_vec();
        a.extend(extra.iter().map(|s| s.to_string()));
        if self.keep_arms_apart {
            for f in KEEP_ARMS_APART {
                a.extend(["-mllvm".to_string(), f.to_string()]);
            }
        }
        // Relative to the private folder clang runs in, so diagnostics name
        // `program.cl` and `headers/<name>`, the same in every run.
        a.extend(["-Wno-unused-command-line-argument", "-I", "headers"].map(String::from));
        a.extend(self.args.iter().cloned());
        a.extend(["-emit-llvm", if text { "-S" } else { "-c" }, "program.cl", "-o"].map(String::from));
        a.push(out.to_string_lossy().into_owned());
        let r = self.run(&self.tools.clang, &a)?;
        Ok(if r.success { Ok(r.text) } else { Err(r.text) })
    }

    /// The options' optimisation level as clang's flag.
    fn level_flag(&self) -> String {
        format!("-{}", self.options.opt_level.name())
    }

    /// Phase 2: clang to `program.bc` at the options' level. With -I
    /// folders, clang lists what it read from them, so a cache entry can
    /// tell when one of those files changed: those files are returned.
    fn front_end(&mut self) -> Result<Vec<PathBuf>, CompileError> {
        let deps_file = self.file("program.d");
        let deps_arg = deps_file.to_string_lossy().into_owned();
        let level = self.level_flag();
        let mut extra: Vec<&str> = vec![&level];
        if !self.options.include_dirs.is_empty() {
            extra.extend(["-MD", "-MF", &deps_arg]);
        }
        match self.clang(&extra, &self.file("program.bc"), false)? {
            Ok(diagnostics) => self.log.push_str(&diagnostics),
            Err(diagnostics) => {
                self.log.push_str(&diagnostics);
                return Err(CompileError::Failed(std::mem::take(&mut self.log)));
            }
        }
        let include_dirs: Vec<PathBuf> = self
            .args
            .windows(2)
            .filter(|w| w[0] == "-I")
            .map(|w| PathBuf::from(&w[1]))
            .collect();
        let deps = std::fs::read_to_string(&deps_file).unwrap_or_default();
        Ok(included_files(&deps, &include_dirs))
    }

    /// llvm-spirv on `bc`: the module, or (`Ok(Err(..))`) why there is
    /// none. A module declaring the Shader capability (llvm-spirv writes
    /// `llvm.bitreverse` as OpBitReverse) counts as a failure: OpenCL
    /// modules may not declare it. So does a module that refers to ids it
    /// never defines or defines too late (llvm-spirv 15 decorating ids it
    /// never defines when a conversion is used before its definition, or
    /// writing a constant before the constant it is made of); what clift
    /// merely does not support is left to the build to report.
    ///
    /// llvm-spirv writes SPIR-V 1.0 unless that cannot hold the program:
    /// the non-uniform sub-group functions (cl_khr_subgroup_ballot and the
    /// others) need SPIR-V 1.3, which llvm-spirv 15 asserts on at 1.0, so a
    /// program it refuses for its version is translated again at 1.3.
    fn translate(&self, bc: &Path) -> Result<Result<Vec<u8>, String>, CompileError> {
        let spv = self.file("program.spv");
        // Once the program is known to need 1.3, later translations (of
        // the program rebuilt, or repaired) start there.
        let mut r = if self.non_uniform.get() {
            self.run(
                &self.tools.llvm_spirv,
                &tool_args(&["--spirv-max-version=1.3"], bc, &spv),
            )?
        } else {
            self.run(
                &self.tools.llvm_spirv,
                &tool_args(&["--spirv-max-version=1.0"], bc, &spv),
            )?
        };
        if !r.success && !self.non_uniform.get() && r.text.contains(NEEDS_LATER_SPIRV) {
            self.non_uniform.set(true);
            r = self.run(
                &self.tools.llvm_spirv,
                &tool_args(&["--spirv-max-version=1.3"], bc, &spv),
            )?;
        }
        if !r.success {
            return Ok(Err(r.text));
        }
        let module = std::fs::read(&spv).map_err(|e| self.failed(format!("llvm-spirv wrote no module: {e}")))?;
        let Some(words) = Words::new(&module) else {
            return Ok(Ok(module));
        };
        if words.declares_capability(Capability::Shader) {
            return Ok(Err(
                "the module declares the Shader capability, which OpenCL modules may not\n".into(),
            ));
        }
        if let Some(reference) = clift_jit::dangling_reference(&module) {
            return Ok(Err(format!("llvm-spirv wrote an invalid module: {reference}\n")));
        }
        Ok(Ok(module))
    }

    /// [`Self::translate`], where a module that may hold llvm-spirv 15's
    /// wrong translation of a conversion between `i1` and floating point
    /// counts as a failure when the IR (`bc`, built at `level`) holds such
    /// a conversion, and one holding its wrong `llvm.umul.with.overflow`
    /// function always, and one whose clustered reductions take a cluster
    /// size that is not a constant, so that the workarounds apply.
    fn checked_translation(&self, bc: &Path, level: OptLevel) -> Result<Result<Vec<u8>, String>, CompileError> {
        let module = match self.translate(bc)? {
            Ok(module) => module,
            Err(text) => return Ok(Err(text)),
        };
        if workarounds::has_umul_overflow_function(&module) {
            return Ok(Err(
                "llvm-spirv 15 mistranslates llvm.umul.with.overflow (its overflow bit compares the wrong operand)\n"
                    .into(),
            ));
        }
        if Words::new(&module).is_some_and(|w| w.has_varying_cluster_size()) {
            return Ok(Err(
                "a clustered sub-group reduction's cluster size is not a constant (the optimiser merged calls with different sizes)\n"
                    .into(),
            ));
        }
        let suspect = Words::new(&module).is_some_and(|w| w.may_mistranslate_bool_conversions());
        if suspect && self.converts_bools(bc, level)? {
            return Ok(Err(
                "llvm-spirv 15 mistranslates conversions between i1 and floating point\n".into(),
            ));
        }
        Ok(Ok(module))
    }

    /// Phase 3: SPIR-V from `program.bc`. When llvm-spirv cannot translate
    /// it (or translates it wrongly), a targeted workaround (see
    /// [`workarounds`]), else the program again at -O0; the log names what
    /// was done.
    ///
    /// A program that calls non-uniform sub-group functions (it needs
    /// SPIR-V 1.3) is optimised again without SimplifyCFG's hoisting and
    /// sinking of common code: `if (c) x = sub_group_broadcast_first(v);
    /// else x = sub_group_broadcast_first(v);` asks for the first active
    /// work-item of each arm, which one call after the branch would not
    /// give (LLVM merges calls of convergent functions that way).
    fn spirv(&mut self) -> Result<Vec<u8>, CompileError> {
        let bc = self.file("program.bc");
        let level = self.options.opt_level;
        let mut first = self.checked_translation(&bc, level)?;
        if self.non_uniform.get() && level != OptLevel::O0 {
            self.keep_arms_apart = true;
            if let Err(diagnostics) = self.clang(&[&self.level_flag()], &bc, false)? {
                return Err(self.failed(diagnostics.trim_end()));
            }
            self.log.push_str(&format!(
                "clift: the program calls non-uniform sub-group functions: optimised at -{} without hoisting or \
                 sinking code common to the arms of a branch (which would merge calls with different active \
                 work-items)\n",
                level.name()
            ));
            first = self.checked_translation(&bc, level)?;
        }
        let failure = match first {
            Ok(module) => return Ok(module),
            Err(text) => text,
        };
        if let Some(module) = self.work_around(level)? {
            return Ok(module);
        }
        if level == OptLevel::O0 {
            return Err(self.failed(format!("llvm-spirv failed:\n{}", failure.trim_end())));
        }
        if let Err(diagnostics) = self.clang(&["-O0"], &bc, false)? {
            return Err(self.failed(diagnostics.trim_end()));
        }
        let why = if self.tools.opt.is_none() {
            " (without an opt of clang's version there is no targeted workaround)"
        } else {
            ""
        };
        self.log.push_str(&format!(
            "clift: llvm-spirv cannot translate this program at -{} ({}); rebuilt at -O0{why}\n",
            level.name(),
            first_line(&failure)
        ));
        // The -O0 program may need a workaround of its own.
        match self.checked_translation(&bc, OptLevel::O0)? {
            Ok(module) => Ok(module),
            Err(text) => match self.work_around(OptLevel::O0)? {
                Some(module) => Ok(module),
                None => Err(self.failed(format!("llvm-spirv failed:\n{}", text.trim_end()))),
            },
        }
    }

    /// Phase 4: kernel argument information, from clang's metadata; without
    /// -cl-kernel-arg-info, none (not even the parameters' OpNames). The
    /// kernels' attributes (CL_KERNEL_ATTRIBUTES), from the metadata when
    /// the module has any.
    fn argument_info(&self, module: Vec<u8>) -> Result<Vec<u8>, CompileError> {
        // A module clift cannot read fails the build after this phase.
        let Some(mut words) = Words::new(&module) else {
            return Ok(module);
        };
        let arg_info = self.options.build.kernel_arg_info;
        if !arg_info {
            words.strip_parameter_names();
        }
        let metadata = if arg_info || words.has_execution_mode(&attributes::ATTRIBUTE_MODES) {
            let ll = self.file("metadata.ll");
            let ok = self
                .clang(&["-O0", "-Xclang", "-disable-llvm-passes"], &ll, true)?
                .is_ok();
            ok.then(|| std::fs::read_to_string(&ll).unwrap_or_default())
        } else {
            None
        };
        let mut strings = Vec::new();
        if let (Some(text), true) = (&metadata, arg_info) {
            strings = arg_info::arg_info_strings(text);
        }
        strings.extend(attributes::attribute_strings(
            &words.entry_point_names(),
            metadata.as_deref(),
        ));
        // Should the id bound overflow, the module goes without the strings.
        words.insert_strings(&strings);
        Ok(words.to_bytes())
    }
}

/// A tool's arguments: `flags`, then `input -o output`.
/// What llvm-spirv 15 says when the program needs a later SPIR-V version
/// than `--spirv-max-version` allows (an assertion, with a stack dump).
const NEEDS_LATER_SPIRV: &str = "isAllowedToUseVersion";

fn tool_args(flags: &[&str], input: &Path, output: &Path) -> Vec<String> {
    let mut a: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
    a.extend([
        input.to_string_lossy().into_owned(),
        "-o".into(),
        output.to_string_lossy().into_owned(),
    ]);
    a
}

/// The first non-empty line of a tool's message.
fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("no message")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn included_files_come_from_the_dependency_file() {
        let d = "program.bc: program.cl headers/x.h /inc/one.h \\\n  /inc/a\\ dir/two.h /usr/lib/clang/15/include/opencl-c.h\n";
        assert_eq!(
            included_files(d, &[PathBuf::from("/inc")]),
            [PathBuf::from("/inc/a dir/two.h"), PathBuf::from("/inc/one.h")]
        );
    }

    #[test]
    fn clang_gets_the_options_in_order() {
        let o = crate::options::parse_options(
            "-D A=1 -U A -D 'F(x)=#x' -I inc -w -cl-mad-enable -O3 -cl-std=CL2.0",
            crate::options::OptionsOf::Build,
        )
        .unwrap();
        let a = clang_args(&o).unwrap();
        let cwd = std::env::current_dir().unwrap().join("inc");
        let tail: Vec<&str> = a.iter().skip(4).map(String::as_str).collect();
        assert_eq!(a[0], "-cl-std=CL2.0");
        // The device's predefined macros, before the application's.
        assert_eq!(a[3..4], ["-D__OPENCL_VERSION__=220"]);
        assert_eq!(
            tail,
            [
                "-D",
                "A=1",
                "-U",
                "A",
                "-D",
                "F(x)=#x",
                "-I",
                cwd.to_str().unwrap(),
                "-w",
                "-cl-mad-enable"
            ]
        );
        assert_eq!(clang_args(&ParsedOptions::default()).unwrap()[0], "-cl-std=CL1.2");
        let too_new = crate::options::parse_options("-cl-std=CL3.0", crate::options::OptionsOf::Build).unwrap();
        assert!(clang_args(&too_new).unwrap_err().contains("2.0 at most"));
    }
}
