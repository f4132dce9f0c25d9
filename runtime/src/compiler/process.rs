//! Running one tool: no stdin, output in files of a private temporary
//! folder, its own process group, killed at a time limit.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Time limit of one tool run.
pub(super) fn time_limit() -> Duration {
    crate::config::get().compiler_timeout
}

/// A private temporary directory (mode 0700), removed when dropped.
pub(super) struct TempDir {
    pub(super) path: PathBuf,
}

impl TempDir {
    pub(super) fn new() -> std::io::Result<TempDir> {
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
pub(super) struct RunOutput {
    pub(super) success: bool,
    /// stdout then stderr.
    pub(super) text: String,
}

/// Runs `tool` with `args`, stdin from /dev/null, stdout and stderr into
/// files of `dir`; kills it after `limit`. `Err` is a log line.
pub(super) fn run(tool: &Path, args: &[String], dir: &TempDir, limit: Duration) -> Result<RunOutput, String> {
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
