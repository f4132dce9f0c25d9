//! Finding clang, llvm-spirv and opt of one LLVM version, once per process.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use super::cache;
use super::process::{run, TempDir};

/// What the log says to install when no compiler is found.
pub const INSTALL_HINT: &str = "clift compiles OpenCL C with clang and llvm-spirv of the same LLVM version; \
none was found. On Debian or Ubuntu: apt-get install clang-15 llvm-spirv-15 \
(or name the tools with CLIFT_CLANG and CLIFT_LLVM_SPIRV).";

/// The tools clift compiles with.
#[derive(Debug, Clone)]
pub struct Tools {
    /// clang (every clang has the spir64 target: it needs no LLVM back end).
    pub clang: PathBuf,
    /// llvm-spirv of clang's major version.
    pub llvm_spirv: PathBuf,
    /// opt of clang's major version, for the llvm-spirv workarounds, if found.
    pub opt: Option<PathBuf>,
    /// `clang --version` and `llvm-spirv --version` output, for cache keys.
    pub versions: String,
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

/// A tool the configuration names (`value` of variable `var`), or `None`
/// when it names none.
fn configured(var: &str, value: Option<&OsString>) -> Option<Result<PathBuf, String>> {
    let p = PathBuf::from(value?);
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
    let config = crate::config::get();
    let env_clang = configured("CLIFT_CLANG", config.clang.as_ref())
        .transpose()
        .map_err(hint)?;
    let env_spirv = configured("CLIFT_LLVM_SPIRV", config.llvm_spirv.as_ref())
        .transpose()
        .map_err(hint)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read() {
        assert_eq!(major_version("Debian clang version 15.0.6\nTarget: x"), Some(15));
        assert_eq!(
            major_version("LLVM (http://llvm.org/):\n  LLVM version 16.0.1\n"),
            Some(16)
        );
        assert_eq!(major_version("nothing"), None);
    }
}
