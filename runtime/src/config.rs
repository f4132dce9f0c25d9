//! clift's configuration: every `CLIFT_*` environment variable the library
//! reads is read here and nowhere else, by the one rule of [`clift_env`]
//! (unset or empty: the default; flags `1`/`true`/`yes`/`on` and
//! `0`/`false`/`no`/`off`; decimal numbers in range; anything else: the
//! default and a warning on stderr). The other modules, the jit and the
//! built-ins receive the values as parameters ([`jit::CodegenConfig`], the
//! printf sink's mode), as wasmtime's crates receive its `Config`.
//!
//! | variable | read | default | what |
//! |---|---|---|---|
//! | `CLIFT_NO_SIMD` | once per process | off | no 4-lane bodies: every kernel runs one work-item at a time |
//! | `CLIFT_NO_FAST_IMAGES` | once per process | off | every image read and write goes through the generic helpers (no inline code for the common formats) |
//! | `CLIFT_DUMP` | at each build | none | the debug dump folder ([`jit::debug_dump`]) |
//! | `CLIFT_PRINTF_IMMEDIATE` | once per process | off | printf output at each call instead of when the command completes |
//! | `CLIFT_CLANG`, `CLIFT_LLVM_SPIRV` | once per process | searched on `PATH` | the OpenCL C compiler and SPIR-V translator ([`crate::compiler`]) |
//! | `CLIFT_COMPILER_TIMEOUT` | once per process | 120 | seconds one compiler tool run may take |
//! | `CLIFT_CACHE` | once per process | on | the compile cache, in memory and on disk |
//! | `CLIFT_CACHE_DIR` | once per process | `$XDG_CACHE_HOME/clift`, else `~/.cache/clift` | the compile cache's folder |
//!
//! `CLIFT_DUMP` is read at each build so that a process (a test) can dump
//! one build and not the next; the others are read when first needed.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use clift_env as env;
use clift_jit as jit;

/// The settings read once per process.
#[derive(Debug, Clone)]
pub struct Config {
    /// `CLIFT_NO_SIMD`: no 4-lane bodies.
    pub no_simd: bool,
    /// `CLIFT_NO_FAST_IMAGES`: image descriptors carry no fast class, so
    /// JIT code calls the helpers for every image access.
    pub no_fast_images: bool,
    /// `CLIFT_PRINTF_IMMEDIATE`: printf output at each call.
    pub printf_immediate: bool,
    /// `CLIFT_CLANG`: the clang to use (a path, or a name looked up on `PATH`).
    pub clang: Option<OsString>,
    /// `CLIFT_LLVM_SPIRV`: the llvm-spirv to use.
    pub llvm_spirv: Option<OsString>,
    /// `CLIFT_COMPILER_TIMEOUT`: how long one tool run may take.
    pub compiler_timeout: Duration,
    /// `CLIFT_CACHE`: whether compiles are cached.
    pub cache: bool,
    /// `CLIFT_CACHE_DIR`, else `$XDG_CACHE_HOME/clift`, else
    /// `$HOME/.cache/clift`: the disk cache's folder (`None`: no disk cache).
    pub cache_dir: Option<PathBuf>,
}

/// Seconds one compiler tool run may take by default.
const COMPILER_TIMEOUT_SECS: u64 = 120;

impl Config {
    /// The settings in this process's environment now.
    fn from_env() -> Config {
        let secs = env::number("CLIFT_COMPILER_TIMEOUT", COMPILER_TIMEOUT_SECS, 1..=u64::MAX);
        let cache_dir = env::value("CLIFT_CACHE_DIR")
            .map(PathBuf::from)
            .or_else(|| env::value("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("clift")))
            .or_else(|| env::value("HOME").map(|h| PathBuf::from(h).join(".cache").join("clift")));
        Config {
            no_simd: env::flag("CLIFT_NO_SIMD", false),
            no_fast_images: env::flag("CLIFT_NO_FAST_IMAGES", false),
            printf_immediate: env::flag("CLIFT_PRINTF_IMMEDIATE", false),
            clang: env::value("CLIFT_CLANG"),
            llvm_spirv: env::value("CLIFT_LLVM_SPIRV"),
            compiler_timeout: Duration::from_secs(secs),
            cache: env::flag("CLIFT_CACHE", true),
            cache_dir,
        }
    }
}

/// The settings read once per process, on first use.
pub fn get() -> &'static Config {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    CONFIG.get_or_init(Config::from_env)
}

/// What code generation gets for one build: the process's SIMD setting and
/// `CLIFT_DUMP` as it is now.
pub fn codegen() -> jit::CodegenConfig {
    jit::CodegenConfig {
        simd: !get().no_simd,
        dump_dir: env::value("CLIFT_DUMP").map(PathBuf::from),
        // 8-lane bodies are compiled after clBuildProgram returns, from
        // the program's first launch on (`program::executable`), so that
        // they cost the build no time.
        wide_later: true,
    }
}
