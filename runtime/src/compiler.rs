//! The OpenCL C front end: the system's clang and SPIR-V translator, run as
//! child processes, and a cache of what they produced.
//!
//! clift turns OpenCL C into SPIR-V with `clang -target spir64 -emit-llvm`
//! and `llvm-spirv`, then builds that module exactly as
//! clCreateProgramWithIL would. The tools are found once per process:
//! `CLIFT_CLANG` and `CLIFT_LLVM_SPIRV` name them; otherwise `clang-15` and
//! `llvm-spirv-15` on `PATH`, then other versioned names (`clang-16`, ...,
//! `clang`) with an `llvm-spirv` of the same major version.
//!
//! Every tool runs with stdin from `/dev/null`, its output in files of a
//! private temporary directory, and a time limit (`CLIFT_COMPILER_TIMEOUT`
//! seconds, 120 by default) after which it is killed and the log says so.
//!
//! llvm-spirv 15 cannot translate LLVM's `freeze` instruction, which
//! clang's div-rem-pairs pass makes at -O1 and above (`x / y` and `x % y`
//! of the same operands). When the translator fails on one, the module is
//! rebuilt with that pass left out of `opt`'s -O2 pipeline (or, without an
//! `opt` of the same version, at -O0), and the build log says so.
//!
//! Results are cached in memory and on disk (`$CLIFT_CACHE_DIR`, else
//! `$XDG_CACHE_HOME/clift`, else `~/.cache/clift`; `CLIFT_CACHE=0` turns
//! both off), keyed by the source, the headers, the translated arguments and
//! both tools' `--version` output. A disk entry holds its whole key and a
//! checksum, is written to a temporary file and renamed into place, and is
//! ignored when it does not read back whole.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::program::ParsedOptions;

mod attributes;

/// What the log says to install when no compiler is found.
pub const INSTALL_HINT: &str = "clift compiles OpenCL C with clang and llvm-spirv of the same LLVM version; \
none was found. On Debian or Ubuntu: apt-get install clang-15 llvm-spirv-15 \
(or name the tools with CLIFT_CLANG and CLIFT_LLVM_SPIRV).";

/// The OpenCL C version the device reports (CL_DEVICE_OPENCL_C_VERSION);
/// `-cl-std` above it fails to compile.
const MAX_CL_STD: (u32, u32) = crate::device::OPENCL_C_VERSION;

/// The tools clift compiles with.
#[derive(Debug, Clone)]
pub struct Tools {
    /// clang (every clang has the spir64 target: it needs no LLVM back end).
    pub clang: PathBuf,
    /// llvm-spirv of clang's major version.
    pub llvm_spirv: PathBuf,
    /// opt of clang's major version, for the `freeze` fallback, if found.
    pub opt: Option<PathBuf>,
    /// `clang --version` and `llvm-spirv --version` output, for cache keys.
    pub versions: String,
}

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
    /// What the tools printed, and notes on fallbacks.
    pub log: String,
}

/// The tools, found once per process (`Err` holds the log line saying what
/// is missing).
pub fn tools() -> Result<&'static Tools, String> {
    static TOOLS: OnceLock<Result<Tools, String>> = OnceLock::new();
    TOOLS.get_or_init(find_tools).as_ref().map_err(Clone::clone)
}

/// Whether a compiler was found (CL_DEVICE_COMPILER_AVAILABLE).
pub fn available() -> bool {
    tools().is_ok()
}

/// Time limit of one tool run.
fn time_limit() -> Duration {
    let secs = std::env::var("CLIFT_COMPILER_TIMEOUT")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .filter(|&s| s > 0)
        .unwrap_or(120);
    Duration::from_secs(secs)
}

// ---------------------------------------------------------------------------
// Finding the tools
// ---------------------------------------------------------------------------

/// Every executable named `name` in a `PATH` directory, in order.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A tool's `--version` output, if it runs and exits successfully. The
/// answer is remembered in the cache folder with the executable's identity
/// (path, device, inode, size, modification time), so later processes do
/// not start the tool just to ask (each start loads all of LLVM).
fn version_text(tool: &Path) -> Option<String> {
    let memo = cache::version_memo(tool);
    if let Some((_, Some(text))) = &memo {
        return Some(text.clone());
    }
    let dir = TempDir::new().ok()?;
    let out = run(tool, &["--version".into()], &dir, Duration::from_secs(20)).ok()?;
    if !out.success {
        return None;
    }
    if let Some((file, _)) = memo {
        cache::remember_version(&file, tool, &out.text);
    }
    Some(out.text)
}

/// The LLVM major version a `--version` text names ("clang version 15.0.6",
/// "LLVM version 15.0.6").
fn major_version(text: &str) -> Option<u32> {
    let at = text.find("version ")? + "version ".len();
    let digits: String = text[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// A tool given by an environment variable, or `None` when it is unset.
fn from_env(var: &str) -> Option<Result<PathBuf, String>> {
    let v = std::env::var_os(var)?;
    let p = PathBuf::from(&v);
    let found = if p.components().count() > 1 {
        Some(p.clone()).filter(|p| is_executable(p))
    } else {
        on_path(&p.to_string_lossy())
    };
    Some(found.ok_or_else(|| format!("{var}={} is not an executable", p.display())))
}

/// llvm-spirv (or opt) of LLVM major version `major`: `<base>-<major>`, or
/// plain `<base>` reporting that version.
fn matching_tool(base: &str, major: u32) -> Option<(PathBuf, String)> {
    for name in [format!("{base}-{major}"), base.to_string()] {
        if let Some(p) = on_path(&name) {
            if let Some(v) = version_text(&p) {
                if major_version(&v) == Some(major) {
                    return Some((p, v));
                }
            }
        }
    }
    None
}

fn find_tools() -> Result<Tools, String> {
    let hint = |e: String| format!("{INSTALL_HINT}\n  {e}");
    let env_clang = from_env("CLIFT_CLANG").transpose().map_err(hint)?;
    let env_spirv = from_env("CLIFT_LLVM_SPIRV").transpose().map_err(hint)?;
    let candidates: Vec<PathBuf> = match env_clang {
        Some(c) => vec![c],
        None => std::iter::once("clang-15".to_string())
            .chain((16..=30).map(|v| format!("clang-{v}")))
            .chain(std::iter::once("clang".to_string()))
            .filter_map(|n| on_path(&n))
            .collect(),
    };
    let mut notes = Vec::new();
    for clang in candidates {
        let Some(cv) = version_text(&clang) else {
            notes.push(format!("{} does not run", clang.display()));
            continue;
        };
        let Some(major) = major_version(&cv) else {
            notes.push(format!("{}: no version in its --version output", clang.display()));
            continue;
        };
        let spirv = match &env_spirv {
            Some(p) => version_text(p).map(|v| (p.clone(), v)),
            None => matching_tool("llvm-spirv", major),
        };
        let Some((llvm_spirv, sv)) = spirv else {
            notes.push(format!("{} (LLVM {major}) has no llvm-spirv-{major}", clang.display()));
            continue;
        };
        let opt = matching_tool("opt", major).map(|(p, _)| p);
        return Ok(Tools {
            clang,
            llvm_spirv,
            opt,
            versions: format!("{cv}\n{sv}"),
        });
    }
    let mut msg = INSTALL_HINT.to_string();
    for n in notes {
        msg.push_str(&format!("\n  {n}"));
    }
    Err(msg)
}

// ---------------------------------------------------------------------------
// Running tools
// ---------------------------------------------------------------------------

/// A private temporary directory (mode 0700), removed when dropped.
struct TempDir {
    path: PathBuf,
}

impl TempDir {
    fn new() -> std::io::Result<TempDir> {
        use std::os::unix::fs::DirBuilderExt;
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        for _ in 0..16 {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos());
            let path = base.join(format!("clift-cc-{}-{n}-{nanos:x}", std::process::id()));
            match std::fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(TempDir { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "no fresh temporary directory",
        ))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// What a tool run printed and whether it exited successfully.
struct RunOutput {
    success: bool,
    /// stdout then stderr.
    text: String,
}

/// Runs `tool` with `args`, stdin from /dev/null, stdout and stderr into
/// files of `dir`; kills it after `limit`. `Err` is a log line.
fn run(tool: &Path, args: &[String], dir: &TempDir, limit: Duration) -> Result<RunOutput, String> {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    let out_path = dir.path.join(format!("out{n}.txt"));
    let err_path = dir.path.join(format!("err{n}.txt"));
    let open = |p: &Path| std::fs::File::create(p).map_err(|e| format!("cannot create {}: {e}", p.display()));
    use std::os::unix::process::CommandExt;
    // Its own process group, so a timeout ends whatever it started too
    // (a wrapper script's children).
    let mut child = Command::new(tool)
        .args(args)
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(open(&out_path)?)
        .stderr(open(&err_path)?)
        .current_dir(&dir.path)
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    let start = Instant::now();
    let mut pause = Duration::from_micros(200);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() >= limit => {
                if let Ok(pid) = libc::pid_t::try_from(child.id()) {
                    // SAFETY: kill(2) with a negative pid signals the process
                    // group the child leads (process_group(0) above); the
                    // child has not been waited for, so its id is not reused.
                    unsafe { libc::kill(-pid, libc::SIGKILL) };
                }
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{} did not finish within {} s and was killed (CLIFT_COMPILER_TIMEOUT sets the limit)",
                    tool.display(),
                    limit.as_secs()
                ));
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(4));
            }
            Err(e) => return Err(format!("waiting for {}: {e}", tool.display())),
        }
    };
    let read = |p: &Path| {
        let mut s = Vec::new();
        if let Ok(f) = std::fs::File::open(p) {
            // A tool's diagnostics beyond 1 MiB are cut.
            let _ = f.take(1 << 20).read_to_end(&mut s);
        }
        String::from_utf8_lossy(&s).into_owned()
    };
    let mut text = read(&out_path);
    text.push_str(&read(&err_path));
    Ok(RunOutput {
        success: status.success(),
        text,
    })
}

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

/// The clang arguments for `options` (after the fixed ones), or a log line
/// when the options ask for what the device cannot do.
fn clang_args(options: &ParsedOptions) -> Result<Vec<String>, String> {
    let std = options.cl_std.as_deref().unwrap_or("CL1.2");
    let (major, minor) = std
        .strip_prefix("CL")
        .and_then(|v| v.split_once('.'))
        .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
        .ok_or_else(|| format!("-cl-std={std}: not an OpenCL C version"))?;
    if (major, minor) > MAX_CL_STD {
        return Err(format!(
            "-cl-std={std}: the device supports OpenCL C {}.{} at most (CL_DEVICE_OPENCL_C_VERSION)",
            MAX_CL_STD.0, MAX_CL_STD.1
        ));
    }
    let mut a: Vec<String> = vec![format!("-cl-std={std}")];
    // Only the extensions the device reports exist for the program.
    let mut ext = String::from("-cl-ext=-all");
    for e in crate::device::DEVICE_EXTENSIONS {
        ext.push_str(",+");
        ext.push_str(e);
    }
    a.extend(["-Xclang".into(), ext]);
    for d in &options.defines {
        a.extend(["-D".into(), d.clone()]);
    }
    // clang runs in a private folder: relative -I folders are the
    // application's working directory's.
    let cwd = std::env::current_dir().unwrap_or_default();
    for i in &options.include_dirs {
        a.extend(["-I".into(), cwd.join(i).to_string_lossy().into_owned()]);
    }
    a.extend(options.compiler_flags.iter().cloned());
    Ok(a)
}

// ---------------------------------------------------------------------------
// Compiling
// ---------------------------------------------------------------------------

/// Compiles `source` (with `headers`: include name and text, for
/// clCompileProgram's embedded headers) to SPIR-V.
pub fn compile(source: &str, headers: &[(String, String)], options: &ParsedOptions) -> Result<Compiled, CompileError> {
    let tools = tools().map_err(CompileError::NotAvailable)?;
    let args = clang_args(options).map_err(|e| CompileError::Failed(format!("{e}\n")))?;
    let key = cache_key(tools, source, headers, &args, options.build.kernel_arg_info);
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
fn cache_key(tools: &Tools, source: &str, headers: &[(String, String)], args: &[String], arg_info: bool) -> Vec<u8> {
    let mut k = Vec::new();
    let mut field = |b: &[u8]| {
        k.extend_from_slice(&(b.len() as u64).to_le_bytes());
        k.extend_from_slice(b);
    };
    field(b"clift-cc 2");
    field(tools.versions.as_bytes());
    field(&[u8::from(tools.opt.is_some()), u8::from(arg_info)]);
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

fn compile_uncached(
    tools: &Tools,
    source: &str,
    headers: &[(String, String)],
    args: &[String],
    options: &ParsedOptions,
) -> Result<(Compiled, Vec<PathBuf>), CompileError> {
    let failed = |s: String| CompileError::Failed(s);
    let dir = TempDir::new().map_err(|e| failed(format!("cannot create a temporary directory: {e}\n")))?;
    // Embedded headers, in a folder searched first.
    let hdir = dir.path.join("headers");
    std::fs::create_dir(&hdir).map_err(|e| failed(format!("cannot write headers: {e}\n")))?;
    for (name, text) in headers {
        let rel = Path::new(name);
        if rel.is_absolute() || rel.components().any(|c| !matches!(c, std::path::Component::Normal(_))) {
            return Err(failed(format!(
                "header include name {name:?}: must be a relative path without \"..\"\n"
            )));
        }
        let p = hdir.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(|e| failed(format!("cannot write header {name:?}: {e}\n")))?;
        }
        std::fs::write(&p, text).map_err(|e| failed(format!("cannot write header {name:?}: {e}\n")))?;
    }
    let src = dir.path.join("program.cl");
    std::fs::write(&src, source).map_err(|e| failed(format!("cannot write the source: {e}\n")))?;
    let path = |p: &Path| p.to_string_lossy().into_owned();
    let limit = time_limit();
    let mut log = String::new();

    let common = |extra: &[&str], out: &Path, emit_text: bool| -> Vec<String> {
        let mut a: Vec<String> = vec!["-target".into(), "spir64".into(), "-x".into(), "cl".into()];
        a.extend(extra.iter().map(|s| s.to_string()));
        // Relative to the private folder clang runs in, so diagnostics name
        // `program.cl` and `headers/<name>`, the same in every run.
        a.extend([
            "-Wno-unused-command-line-argument".into(),
            "-I".into(),
            "headers".into(),
        ]);
        a.extend(args.iter().cloned());
        a.extend([
            "-emit-llvm".into(),
            if emit_text { "-S".into() } else { "-c".into() },
            "program.cl".into(),
            "-o".into(),
            path(out),
        ]);
        a
    };
    let level = if options.build.opt_disable { "-O0" } else { "-O2" };
    let bc = dir.path.join("program.bc");
    let spv = dir.path.join("program.spv");
    let translate = |bc: &Path, log: &mut String| -> Result<Result<Vec<u8>, String>, CompileError> {
        let a = vec!["--spirv-max-version=1.0".into(), path(bc), "-o".into(), path(&spv)];
        let r = run(&tools.llvm_spirv, &a, &dir, limit).map_err(|e| failed(format!("{log}{e}\n")))?;
        if r.success {
            let bytes = std::fs::read(&spv).map_err(|e| failed(format!("{log}llvm-spirv wrote no module: {e}\n")))?;
            Ok(Ok(bytes))
        } else {
            Ok(Err(r.text))
        }
    };

    // clang, then llvm-spirv. With -I folders, clang lists what it read
    // from them, so a cache entry can tell when one of those files changed.
    let deps_file = dir.path.join("program.d");
    let mut first: Vec<&str> = vec![level];
    let deps_arg = path(&deps_file);
    if !options.include_dirs.is_empty() {
        first.extend(["-MD", "-MF", &deps_arg]);
    }
    let r = run(&tools.clang, &common(&first, &bc, false), &dir, limit).map_err(|e| failed(format!("{e}\n")))?;
    log.push_str(&r.text);
    if !r.success {
        return Err(failed(log));
    }
    let include_dirs: Vec<PathBuf> = args
        .windows(2)
        .filter(|w| w[0] == "-I")
        .map(|w| PathBuf::from(&w[1]))
        .collect();
    let deps = included_files(&std::fs::read_to_string(&deps_file).unwrap_or_default(), &include_dirs);
    let mut module = translate(&bc, &mut log)?;
    if let Err(text) = &module {
        if !text.contains("freeze") {
            return Err(failed(format!("{log}llvm-spirv failed:\n{text}")));
        }
        // llvm-spirv 15 cannot translate `freeze`: rebuild without the
        // pass that makes it, else at -O0.
        let mut rebuilt = None;
        if let (Some(opt), false) = (&tools.opt, options.build.opt_disable) {
            if let Some(pipeline) = pipeline_without_div_rem_pairs(opt) {
                let raw = dir.path.join("raw.bc");
                let r = run(
                    &tools.clang,
                    &common(&["-O2", "-Xclang", "-disable-llvm-passes"], &raw, false),
                    &dir,
                    limit,
                )
                .map_err(|e| failed(format!("{log}{e}\n")))?;
                if r.success {
                    let a = vec![format!("-passes={pipeline}"), path(&raw), "-o".into(), path(&bc)];
                    let r = run(opt, &a, &dir, limit).map_err(|e| failed(format!("{log}{e}\n")))?;
                    if r.success {
                        if let Ok(m) = translate(&bc, &mut log)? {
                            log.push_str(
                                "clift: llvm-spirv cannot translate LLVM's `freeze` instruction; \
                                 rebuilt at -O2 without LLVM's div-rem-pairs pass\n",
                            );
                            rebuilt = Some(m);
                        }
                    }
                }
            }
        }
        if rebuilt.is_none() {
            let r = run(&tools.clang, &common(&["-O0"], &bc, false), &dir, limit)
                .map_err(|e| failed(format!("{log}{e}\n")))?;
            if !r.success {
                return Err(failed(format!("{log}{}", r.text)));
            }
            match translate(&bc, &mut log)? {
                Ok(m) => {
                    log.push_str("clift: llvm-spirv cannot translate LLVM's `freeze` instruction; rebuilt at -O0\n");
                    rebuilt = Some(m);
                }
                Err(t) => return Err(failed(format!("{log}llvm-spirv failed:\n{t}"))),
            }
        }
        module = Ok(rebuilt.unwrap_or_default());
    }
    let mut spirv = module.unwrap_or_default();

    // Kernel argument information, from clang's metadata; without
    // -cl-kernel-arg-info, none (not even the parameters' OpNames). The
    // kernels' attributes (CL_KERNEL_ATTRIBUTES), from the metadata when
    // the module has any.
    if !options.build.kernel_arg_info {
        spirv = strip_parameter_names(&spirv).unwrap_or(spirv);
    }
    let metadata = if options.build.kernel_arg_info || attributes::has_attribute_modes(&spirv) {
        let ll = dir.path.join("metadata.ll");
        let r = run(
            &tools.clang,
            &common(&["-O0", "-Xclang", "-disable-llvm-passes"], &ll, true),
            &dir,
            limit,
        )
        .map_err(|e| failed(format!("{log}{e}\n")))?;
        r.success.then(|| std::fs::read_to_string(&ll).unwrap_or_default())
    } else {
        None
    };
    let mut strings = Vec::new();
    if let (Some(text), true) = (&metadata, options.build.kernel_arg_info) {
        strings = arg_info_strings(text);
    }
    strings.extend(attributes::attribute_strings(&spirv, metadata.as_deref()));
    spirv = insert_strings(&spirv, &strings).unwrap_or(spirv);
    if clift_jit::check_il(&spirv).is_err() {
        return Err(failed(format!("{log}llvm-spirv produced a module clift cannot read\n")));
    }
    Ok((
        Compiled {
            spirv: Arc::from(spirv),
            log,
        },
        deps,
    ))
}

/// `opt`'s -O2 pipeline without div-rem-pairs, asked of `opt` once.
fn pipeline_without_div_rem_pairs(opt: &Path) -> Option<String> {
    static PIPELINE: OnceLock<Option<String>> = OnceLock::new();
    PIPELINE
        .get_or_init(|| {
            let dir = TempDir::new().ok()?;
            let a: Vec<String> = vec![
                "-passes=default<O2>".into(),
                "-print-pipeline-passes".into(),
                "-disable-output".into(),
                "/dev/null".into(),
            ];
            let r = run(opt, &a, &dir, Duration::from_secs(20)).ok()?;
            let p = r.text.lines().find(|l| l.contains("div-rem-pairs"))?.trim().to_string();
            let p = p.replace(",div-rem-pairs,", ",").replace(",div-rem-pairs)", ")");
            (!p.contains("div-rem-pairs")).then_some(p)
        })
        .clone()
}

// ---------------------------------------------------------------------------
// Kernel argument information
// ---------------------------------------------------------------------------

/// Decodes an LLVM IR metadata string body (`\XX` escapes).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if let Some(v) = s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The strings of a metadata tuple line `!{!"a", !"b"}`.
fn tuple_strings(body: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.find("!\"") {
        let tail = &rest[at + 2..];
        let Some(end) = tail.find('"') else { break };
        v.push(unescape(&tail[..end]));
        rest = &tail[end + 1..];
    }
    v
}

/// The metadata tuples of clang's LLVM IR, by id: `!6` -> the text after
/// `!6 = !{`.
fn metadata_tuples(ll: &str) -> HashMap<&str, &str> {
    let mut tuples = HashMap::new();
    for line in ll.lines() {
        if let Some((id, body)) = line.split_once(" = !{") {
            if id.starts_with('!') && !id.contains(' ') {
                tuples.insert(id, body);
            }
        }
    }
    tuples
}

/// The kernels clang's LLVM IR defines: (name, the `define` line).
fn kernel_definitions(ll: &str) -> Vec<(String, &str)> {
    let mut out = Vec::new();
    for line in ll
        .lines()
        .filter(|l| l.starts_with("define ") && l.contains(" spir_kernel "))
    {
        let Some(at) = line.find('@') else { continue };
        let rest = &line[at + 1..];
        let name = if let Some(q) = rest.strip_prefix('"') {
            match q.find('"') {
                Some(e) => unescape(&q[..e]),
                None => continue,
            }
        } else {
            rest.chars().take_while(|&c| c != '(').collect()
        };
        out.push((name, line));
    }
    out
}

/// The body of the metadata tuple a kernel's `define` line attaches as
/// `md` (`"!kernel_arg_type "`, with the trailing space).
fn attached<'a>(line: &str, md: &str, tuples: &HashMap<&str, &'a str>) -> Option<&'a str> {
    let p = line.find(md)?;
    let id: String = line[p + md.len()..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != ',')
        .collect();
    tuples.get(id.as_str()).copied()
}

/// The OpStrings clift's jit reads argument information from
/// (`kernel_arg_type.<kernel>.<t1>,<t2>,`, likewise `kernel_arg_type_qual`
/// and `kernel_arg_name`), from the kernel metadata of clang's LLVM IR.
fn arg_info_strings(ll: &str) -> Vec<String> {
    let tuples = metadata_tuples(ll);
    let mut out = Vec::new();
    for (name, line) in kernel_definitions(ll) {
        for (md, prefix) in [
            ("!kernel_arg_type ", "kernel_arg_type"),
            ("!kernel_arg_type_qual ", "kernel_arg_type_qual"),
            ("!kernel_arg_name ", "kernel_arg_name"),
        ] {
            let Some(body) = attached(line, md, &tuples) else {
                continue;
            };
            let list = tuple_strings(body);
            let mut s = format!("{prefix}.{name}.");
            for item in list {
                s.push_str(&item);
                s.push(',');
            }
            out.push(s);
        }
    }
    out
}

/// The module's words (little-endian SPIR-V only, as llvm-spirv writes).
fn words_of(module: &[u8]) -> Option<Vec<u32>> {
    if !module.len().is_multiple_of(4) || module.len() < 20 {
        return None;
    }
    let words: Vec<u32> = module
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    (words[0] == 0x0723_0203).then_some(words)
}

/// The instructions of `words` past the header: (start, opcode, word count).
fn instructions(words: &[u32]) -> impl Iterator<Item = (usize, u32, usize)> + '_ {
    let mut at = 5;
    std::iter::from_fn(move || {
        let w = *words.get(at)?;
        let count = (w >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return None;
        }
        let r = (at, w & 0xffff, count);
        at += count;
        Some(r)
    })
}

/// `module` without the OpNames of function parameters (kernel argument
/// names are reported only with -cl-kernel-arg-info).
fn strip_parameter_names(module: &[u8]) -> Option<Vec<u8>> {
    let words = words_of(module)?;
    // OpFunctionParameter: result type, result id.
    let params: std::collections::HashSet<u32> = instructions(&words)
        .filter(|&(_, op, n)| op == 55 && n >= 3)
        .map(|(at, _, _)| words[at + 2])
        .collect();
    let mut out = words[..5].to_vec();
    for (at, op, n) in instructions(&words) {
        if op == 5 && n >= 2 && params.contains(&words[at + 1]) {
            continue;
        }
        out.extend_from_slice(&words[at..at + n]);
    }
    Some(out.iter().flat_map(|w| w.to_le_bytes()).collect())
}

/// `module` (little-endian SPIR-V) with an OpString per string added in
/// the debug section. `None` if the module is not one clift can edit.
fn insert_strings(module: &[u8], strings: &[String]) -> Option<Vec<u8>> {
    if strings.is_empty() {
        return Some(module.to_vec());
    }
    let mut words = words_of(module)?;
    // Before the first instruction after the entry points and modes.
    let mut at = 5;
    while at < words.len() {
        let op = words[at] & 0xffff;
        let count = (words[at] >> 16) as usize;
        if count == 0 || !matches!(op, 10 | 11 | 14 | 15 | 16 | 17 | 331) {
            break;
        }
        at += count;
    }
    if at > words.len() {
        return None;
    }
    let mut new = Vec::new();
    for s in strings {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        bytes.resize(bytes.len().next_multiple_of(4), 0);
        let count = 2 + bytes.len() / 4;
        if count > 0xffff {
            continue;
        }
        let id = words[3];
        words[3] = id.checked_add(1)?;
        new.push(((count as u32) << 16) | 7);
        new.push(id);
        new.extend(
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
    }
    words.splice(at..at, new);
    Some(words.iter().flat_map(|w| w.to_le_bytes()).collect())
}

// ---------------------------------------------------------------------------
// The cache
// ---------------------------------------------------------------------------

mod cache {
    //! Memory and disk caches of compiled modules. An entry records the
    //! files of `-I` folders its compile read, with a hash of each; it is
    //! used only while every one still hashes the same.

    use super::*;

    /// First bytes of a disk entry.
    const MAGIC: &[u8; 8] = b"CLIFTCC2";
    /// Entries kept in memory before the map is emptied.
    const MEMORY_ENTRIES: usize = 256;

    /// A cached compile.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Entry {
        pub spirv: Arc<[u8]>,
        pub log: String,
        /// Files read from `-I` folders, with the hash of their contents.
        pub deps: Vec<(PathBuf, u64)>,
    }

    fn enabled() -> bool {
        std::env::var("CLIFT_CACHE").map_or(true, |v| v.trim() != "0")
    }

    /// Key bytes -> entry.
    type Memory = Mutex<HashMap<Vec<u8>, Entry>>;

    fn memory() -> &'static Memory {
        static MEM: OnceLock<Memory> = OnceLock::new();
        MEM.get_or_init(|| Mutex::new(HashMap::new()))
    }

    /// The disk cache's folder.
    pub fn dir() -> Option<PathBuf> {
        let nonempty = |v: &str| std::env::var_os(v).filter(|s| !s.is_empty()).map(PathBuf::from);
        if let Some(d) = nonempty("CLIFT_CACHE_DIR") {
            return Some(d);
        }
        if let Some(d) = nonempty("XDG_CACHE_HOME") {
            return Some(d.join("clift"));
        }
        nonempty("HOME").map(|h| h.join(".cache").join("clift"))
    }

    fn fnv(bytes: &[u8], seed: u64) -> u64 {
        let mut h = seed;
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    }

    /// The hash of a file's contents (`None` if it cannot be read).
    fn file_hash(p: &Path) -> Option<u64> {
        std::fs::read(p).ok().map(|b| fnv(&b, 0xcbf2_9ce4_8422_2325))
    }

    fn file_for(key: &[u8]) -> Option<PathBuf> {
        let a = fnv(key, 0xcbf2_9ce4_8422_2325);
        let b = fnv(key, 0x8422_2325_cbf2_9ce4);
        dir().map(|d| d.join(format!("{a:016x}{b:016x}.spvc")))
    }

    fn encode(key: &[u8], e: &Entry) -> Vec<u8> {
        let mut deps = String::new();
        for (p, h) in &e.deps {
            deps.push_str(&format!("{h:016x}\t{}\n", p.to_string_lossy()));
        }
        let mut v = Vec::with_capacity(key.len() + e.spirv.len() + e.log.len() + deps.len() + 48);
        v.extend_from_slice(MAGIC);
        for part in [key, &e.spirv[..], e.log.as_bytes(), deps.as_bytes()] {
            v.extend_from_slice(&(part.len() as u64).to_le_bytes());
            v.extend_from_slice(part);
        }
        let sum = fnv(&v, 0xcbf2_9ce4_8422_2325);
        v.extend_from_slice(&sum.to_le_bytes());
        v
    }

    /// The entry if it is whole and holds `key`.
    fn decode(bytes: &[u8], key: &[u8]) -> Option<Entry> {
        let body_len = bytes.len().checked_sub(8)?;
        let (body, sum) = bytes.split_at(body_len);
        if u64::from_le_bytes(sum.try_into().ok()?) != fnv(body, 0xcbf2_9ce4_8422_2325) {
            return None;
        }
        let mut rest = body.strip_prefix(MAGIC)?;
        let mut part = || -> Option<&[u8]> {
            let n = usize::try_from(u64::from_le_bytes(rest.get(..8)?.try_into().ok()?)).ok()?;
            let p = rest.get(8..8usize.checked_add(n)?)?;
            rest = &rest[8 + n..];
            Some(p)
        };
        let (k, spirv, log, deps) = (part()?, part()?, part()?, part()?);
        if k != key || !rest.is_empty() {
            return None;
        }
        clift_jit::check_il(spirv).ok()?;
        let mut dep_list = Vec::new();
        for line in std::str::from_utf8(deps).ok()?.lines() {
            let (h, p) = line.split_once('\t')?;
            dep_list.push((PathBuf::from(p), u64::from_str_radix(h, 16).ok()?));
        }
        Some(Entry {
            spirv: Arc::from(spirv),
            log: String::from_utf8(log.to_vec()).ok()?,
            deps: dep_list,
        })
    }

    /// What identifies an executable's contents without reading it.
    fn identity(tool: &Path) -> Option<String> {
        use std::os::unix::fs::MetadataExt;
        let real = std::fs::canonicalize(tool).ok()?;
        let m = std::fs::metadata(&real).ok()?;
        Some(format!(
            "{}\n{} {} {} {} {}\n",
            real.to_string_lossy(),
            m.dev(),
            m.ino(),
            m.size(),
            m.mtime(),
            m.mtime_nsec()
        ))
    }

    /// The memo file of `tool`'s `--version` output, and the output it holds
    /// if the executable is still the one it was written for. `None` when
    /// the cache is off or has no folder.
    pub fn version_memo(tool: &Path) -> Option<(PathBuf, Option<String>)> {
        if !enabled() {
            return None;
        }
        let id = identity(tool)?;
        let file = dir()?.join(format!("tool-{:016x}.txt", fnv(id.as_bytes(), 0xcbf2_9ce4_8422_2325)));
        let text = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| t.strip_prefix(&id).map(str::to_string));
        Some((file, text))
    }

    /// Records `tool`'s `--version` output in its memo file.
    pub fn remember_version(file: &Path, tool: &Path, text: &str) {
        let Some(id) = identity(tool) else { return };
        let mut bytes = id.into_bytes();
        bytes.extend_from_slice(text.as_bytes());
        write_atomically(file, &bytes);
    }

    /// Writes `bytes` to a temporary name beside `file`, then renames it into
    /// place, so a reader sees the old file, none, or the new one.
    fn write_atomically(file: &Path, bytes: &[u8]) {
        let Some(parent) = file.parent() else { return };
        if std::fs::create_dir_all(parent).is_err() {
            return;
        }
        static N: AtomicU64 = AtomicU64::new(0);
        let tmp = parent.join(format!(
            ".tmp-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        if std::fs::write(&tmp, bytes).is_ok() && std::fs::rename(&tmp, file).is_ok() {
            return;
        }
        let _ = std::fs::remove_file(&tmp);
    }

    /// Whether every file the entry's compile read is unchanged.
    fn current(e: &Entry) -> bool {
        e.deps.iter().all(|(p, h)| file_hash(p) == Some(*h))
    }

    pub fn get(key: &[u8]) -> Option<Compiled> {
        if !enabled() {
            return None;
        }
        let found = memory().lock().get(key).cloned();
        let entry = match found {
            Some(e) => e,
            None => {
                let e = decode(&std::fs::read(file_for(key)?).ok()?, key)?;
                remember(key, &e);
                e
            }
        };
        let fresh = current(&entry);
        fresh.then_some(Compiled {
            spirv: entry.spirv,
            log: entry.log,
        })
    }

    fn remember(key: &[u8], e: &Entry) {
        let mut m = memory().lock();
        if m.len() >= MEMORY_ENTRIES {
            m.clear();
        }
        m.insert(key.to_vec(), e.clone());
    }

    pub fn put(key: &[u8], c: &Compiled, deps: &[PathBuf]) {
        if !enabled() {
            return;
        }
        let Some(deps) = deps.iter().map(|p| file_hash(p).map(|h| (p.clone(), h))).collect() else {
            return;
        };
        let e = Entry {
            spirv: c.spirv.clone(),
            log: c.log.clone(),
            deps,
        };
        remember(key, &e);
        if let Some(file) = file_for(key) {
            write_atomically(&file, &encode(key, &e));
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn entries_round_trip_and_damage_is_ignored() {
            let spirv: Vec<u8> = [0x0723_0203u32, 0x0001_0000, 0, 1, 0]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect();
            let entry = Entry {
                spirv: Arc::from(spirv),
                log: "warning: x\n".into(),
                deps: vec![(PathBuf::from("/inc/a b.h"), 0x1234)],
            };
            let e = encode(b"key", &entry);
            assert_eq!(decode(&e, b"key"), Some(entry));
            assert_eq!(decode(&e, b"other"), None);
            for n in 0..e.len() {
                assert_eq!(decode(&e[..n], b"key"), None, "truncated to {n}");
            }
            for i in 0..e.len() {
                let mut v = e.clone();
                v[i] ^= 0x10;
                assert_eq!(decode(&v, b"key"), None, "byte {i} changed");
            }
        }
    }
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
    fn versions_are_read() {
        assert_eq!(major_version("Debian clang version 15.0.6\nTarget: x"), Some(15));
        assert_eq!(
            major_version("LLVM (http://llvm.org/):\n  LLVM version 16.0.1\n"),
            Some(16)
        );
        assert_eq!(major_version("nothing"), None);
    }

    #[test]
    fn arg_info_comes_from_kernel_metadata() {
        let ll = "define dso_local spir_kernel void @k(i32 addrspace(1)* %a) #0 !kernel_arg_addr_space !4 \
                  !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {\n\
                  !6 = !{!\"int*\", !\"float4\"}\n!7 = !{!\"const restrict\", !\"\"}\n!8 = !{!\"a\", !\"b\\5Cc\"}\n";
        assert_eq!(
            arg_info_strings(ll),
            [
                "kernel_arg_type.k.int*,float4,",
                "kernel_arg_type_qual.k.const restrict,,",
                "kernel_arg_name.k.a,b\\c,"
            ]
        );
    }

    #[test]
    fn strings_go_before_the_debug_section() {
        // Capability Kernel; MemoryModel; Name %1 "a".
        let words = [
            0x0723_0203u32,
            0x0001_0000,
            0,
            2,
            0,
            (2 << 16) | 17,
            6,
            (3 << 16) | 14,
            2,
            2,
            (3 << 16) | 5,
            1,
            0x61,
        ];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let out = insert_strings(&bytes, &["abc".into()]).unwrap();
        let w: Vec<u32> = out
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(w[3], 3, "bound raised");
        assert_eq!(&w[10..13], &[(3 << 16) | 7, 2, u32::from_le_bytes(*b"abc\0")]);
        assert_eq!(w[13], (3 << 16) | 5);
    }
}
