//! Campaigns in child processes, each with a time limit.
//!
//! [`Campaign::check`] starts the `difftest` binary again as a worker
//! ([`WORKER`], [`worker_main`]) for a chunk of seeds and their modes. The
//! worker runs them as [`Harness::check`] would and writes one line to
//! stdout as each program build starts (`start MODE SEED...`) and as each
//! unit's outcome in a mode is final (`ok SEED MODE BUFFERS`,
//! `err SEED MODE MESSAGE`); the parent judges the outcomes. If no line
//! comes for the time limit, the parent kills the worker's process group
//! (clang runs included); if the worker dies (a signal, a panic), the
//! same follows: the units of the build in progress are run again one at a
//! time in that mode, each in a worker of its own with the limit, so the
//! hang or crash is pinned on one seed and one mode and every other unit
//! and mode of the chunk is still judged; the rest of the chunk then runs
//! in a fresh worker.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::*;

/// The hidden argument that makes the `difftest` binary a worker: `--worker
/// --pairs SEED:MODES,... --batch K [--source FILE]` (MODES a [`Modes`] in
/// hex).
pub const WORKER: &str = "--worker";

/// Writes `pairs` (seeds with their modes) as `--pairs` takes them.
fn format_pairs(pairs: &[(u64, Modes)]) -> String {
    pairs
        .iter()
        .map(|(s, m)| format!("{s}:{m:x}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Reads `--pairs`' value.
pub fn parse_pairs(text: &str) -> Result<Vec<(u64, Modes)>, String> {
    text.split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (s, m) = p.split_once(':').ok_or(format!("bad pair {p}"))?;
            let seed = s.parse().map_err(|_| format!("bad seed {s}"))?;
            let modes = Modes::from_str_radix(m, 16).map_err(|_| format!("bad modes {m}"))?;
            Ok((seed, modes & ALL_MODES))
        })
        .collect()
}

/// A message on one line: `\` and newlines escaped.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\n', "\\n")
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        match (c, c == '\\') {
            (_, true) => match it.next() {
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            },
            (c, false) => out.push(c),
        }
    }
    out
}

/// The worker: runs `pairs` (with `source` as the program of the one seed,
/// if given) and reports on stdout as it goes. Its first line says whether
/// PoCL runs half arithmetic (`hello 1` or `hello 0`).
pub fn worker_main(pairs: &[(u64, Modes)], batch: usize, source: Option<&str>) {
    // A worker lives in a process group of its own, out of reach of the
    // terminal's Ctrl-C: it dies with its parent instead, so a hung one
    // cannot outlive a stopped campaign.
    // SAFETY: prctl with PR_SET_PDEATHSIG takes a signal number and touches
    // no memory of ours.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) };
    // SAFETY: getppid only reads the process's parent id.
    if unsafe { libc::getppid() } == 1 {
        return; // The parent died before the line above.
    }
    let h = Harness::new();
    let mut out = std::io::stdout().lock();
    // Lines go out as written (stdout is line-buffered); once the parent is
    // gone there is nobody to report to.
    let mut say = |line: std::fmt::Arguments| {
        if writeln!(out, "{line}").is_err() {
            std::process::exit(1);
        }
    };
    say(format_args!("hello {}", u8::from(h.pocl_fp16())));
    let units: Vec<(Unit, Modes)> = pairs
        .iter()
        .map(|&(s, m)| {
            let u = unit(s);
            let m = modes_for(m, &u, h.pocl_fp16());
            (u, m)
        })
        .collect();
    h.run_units(&units, batch, source, &mut |e| match e {
        Event::Start(m, seeds) => {
            let s: Vec<String> = seeds.iter().map(u64::to_string).collect();
            say(format_args!("start {m} {}", s.join(" ")))
        }
        Event::Done(seed, m, Ok(o)) => say(format_args!("ok {seed} {m} {}", o.encode())),
        Event::Done(seed, m, Err(e)) => say(format_args!("err {seed} {m} {}", escape(&e))),
    });
}

/// What one worker did.
#[derive(Default)]
struct WorkerRun {
    /// Whether PoCL runs half arithmetic, from its first line.
    hello: Option<bool>,
    /// The outcomes it reported: (seed, mode, outcome).
    results: Vec<(u64, usize, Outcome)>,
    /// The last build it started: the mode and its seeds.
    current: Option<(usize, Vec<u64>)>,
    /// How it ended if it did not exit normally: timed out or crashed.
    broke: Option<Outcome>,
}

/// Runs the work of a campaign in child processes (see the module
/// documentation).
pub struct Campaign {
    exe: PathBuf,
    timeout: Duration,
    batch: usize,
    source: Option<PathBuf>,
    pocl_fp16: bool,
}

/// A build that hung or crashed as one program of several units while each
/// unit alone did not: its mode, its seeds and what it did.
struct BatchBroke(usize, Vec<u64>, Outcome);

impl Campaign {
    /// A campaign whose workers are `exe` (the `difftest` binary), with at
    /// most `timeout` between two lines of a worker, building `batch` units
    /// into one program, and running `source` as the program of the one
    /// seed instead of the generated one if given. Starts one worker to
    /// learn whether PoCL runs half arithmetic; fails with its report if
    /// that worker fails (no PoCL, say).
    pub fn new(exe: PathBuf, timeout: Duration, batch: usize, source: Option<PathBuf>) -> Result<Campaign, String> {
        let mut c = Campaign {
            exe,
            timeout,
            batch,
            source,
            pocl_fp16: false,
        };
        let probe = c.spawn(&[]);
        match (probe.hello, probe.broke) {
            (Some(fp16), None) => {
                c.pocl_fp16 = fp16;
                Ok(c)
            }
            (_, broke) => Err(format!(
                "the worker {} did not start: {}",
                c.exe.display(),
                match broke {
                    Some(Outcome::TimedOut(s)) => format!("timed out after {s} s"),
                    Some(Outcome::Crashed(c)) => c,
                    _ => "it said nothing".into(),
                }
            )),
        }
    }

    /// Whether PoCL runs programs with `half` arithmetic.
    pub fn pocl_fp16(&self) -> bool {
        self.pocl_fp16
    }

    /// Runs the units of `seeds` in the modes `modes` (those that apply to
    /// each) in workers and judges them.
    pub fn check(&self, seeds: &[u64], modes: Modes) -> Tally {
        let units: Vec<(Unit, Modes)> = seeds
            .iter()
            .map(|&s| {
                let u = unit(s);
                let m = modes_for(modes, &u, self.pocl_fp16);
                (u, m)
            })
            .collect();
        let todo: Vec<(u64, usize)> = units
            .iter()
            .flat_map(|(u, m)| (0..MODES.len()).filter(move |i| m & 1 << i != 0).map(|i| (u.seed, i)))
            .collect();
        let mut outs = HashMap::new();
        let mut batches = Vec::new();
        self.settle(todo, &mut outs, &mut batches);
        let mut tally = Tally::default();
        let text = self.source.as_ref().and_then(|f| std::fs::read_to_string(f).ok());
        for (u, m) in &units {
            judge(u, *m, text.as_deref(), |i| outs.remove(&(u.seed, i)), &mut tally);
        }
        for BatchBroke(m, seeds, what) in batches {
            let what = match what {
                Outcome::TimedOut(s) => format!("timed out after {s} s"),
                Outcome::Crashed(c) => format!("crashed: {}", c.trim_end()),
                _ => unreachable!("only hangs and crashes are kept"),
            };
            let list: Vec<String> = seeds.iter().map(u64::to_string).collect();
            let text = format!(
                "difftest: the program of seeds {} together in {}: {what}, while each seed alone ran",
                list.join(", "),
                label(m)
            );
            if 1 << m == POCL {
                tally.notes.push(text);
            } else {
                tally.failures.push(Failure {
                    seed: seeds[0],
                    report: text,
                });
            }
        }
        tally
    }

    /// Gets an outcome for every pair of `todo` into `outs`: runs them in
    /// a worker, and after a hang or a crash pins it down and runs the rest
    /// again.
    fn settle(
        &self,
        mut todo: Vec<(u64, usize)>,
        outs: &mut HashMap<(u64, usize), Outcome>,
        batches: &mut Vec<BatchBroke>,
    ) {
        while !todo.is_empty() {
            let run = self.spawn(&todo);
            let progressed = !run.results.is_empty();
            for (s, m, o) in run.results {
                outs.insert((s, m), o);
            }
            todo.retain(|p| !outs.contains_key(p));
            let Some(broke) = run.broke else {
                for p in todo.drain(..) {
                    outs.insert(p, Outcome::Error("the worker exited without reporting it".into()));
                }
                break;
            };
            let busy: Vec<(u64, usize)> = run
                .current
                .map(|(m, seeds)| seeds.into_iter().map(|s| (s, m)).filter(|p| todo.contains(p)).collect())
                .unwrap_or_default();
            match busy.len() {
                // It broke between builds: run the rest again, unless it
                // broke before reporting anything (then it would again).
                0 if progressed => {}
                0 => {
                    for p in todo.drain(..) {
                        outs.insert(p, broke.clone());
                    }
                }
                1 => {
                    outs.insert(busy[0], broke);
                }
                _ => {
                    for &p in &busy {
                        self.settle(vec![p], outs, batches);
                    }
                    // Each seed alone ran: the batch runs once more (on a
                    // machine starved of CPU a build can outlast the limit
                    // once); one that breaks again is reported.
                    if !busy.iter().any(|p| outs.get(p).is_some_and(Outcome::broke))
                        && self.spawn(&busy).broke.is_some()
                    {
                        batches.push(BatchBroke(busy[0].1, busy.iter().map(|p| p.0).collect(), broke));
                    }
                }
            }
            todo.retain(|p| !outs.contains_key(p));
        }
    }

    /// Runs one worker on `pairs` to its end, or until it says nothing for
    /// the time limit.
    fn spawn(&self, pairs: &[(u64, usize)]) -> WorkerRun {
        let mut masks: Vec<(u64, Modes)> = Vec::new();
        for &(s, m) in pairs {
            match masks.iter_mut().find(|e| e.0 == s) {
                Some(e) => e.1 |= 1 << m,
                None => masks.push((s, 1 << m)),
            }
        }
        let mut cmd = Command::new(&self.exe);
        cmd.args([
            WORKER,
            "--pairs",
            &format_pairs(&masks),
            "--batch",
            &self.batch.to_string(),
        ]);
        if let Some(src) = &self.source {
            cmd.arg("--source").arg(src);
        }
        // A group of its own: a time-out kills its clang runs too.
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let mut run = WorkerRun::default();
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                run.broke = Some(Outcome::Crashed(format!("could not start {}: {e}", self.exe.display())));
                return run;
            }
        };
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().expect("piped stdout");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let (etx, erx) = mpsc::channel();
        let mut stderr = child.stderr.take().expect("piped stderr");
        std::thread::spawn(move || {
            // The last 2000 bytes: a panic's message or a crash's last words.
            let (mut tail, mut buf) = (Vec::new(), [0u8; 4096]);
            while let Ok(n @ 1..) = stderr.read(&mut buf) {
                tail.extend_from_slice(&buf[..n]);
                let cut = tail.len().saturating_sub(2000);
                tail.drain(..cut);
            }
            let _ = etx.send(String::from_utf8_lossy(&tail).into_owned());
        });
        let mut deadline = Instant::now() + self.timeout;
        let mut timed_out = false;
        loop {
            match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) => {
                    deadline = Instant::now() + self.timeout;
                    read_line(&line, &mut run);
                }
                Err(RecvTimeoutError::Timeout) => {
                    timed_out = true;
                    break;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        // Stdout closed: the worker should be exiting; give it the rest of
        // the limit.
        let status = if timed_out {
            None
        } else {
            wait_until(&mut child, deadline)
        };
        let status = match status {
            Some(s) => s,
            None => {
                timed_out = true;
                kill_group(&mut child)
            }
        };
        let _ = std::fs::remove_dir_all(crate::vendor_dir(child.id()));
        if timed_out {
            run.broke = Some(Outcome::TimedOut(self.timeout.as_secs()));
        } else if !status.success() {
            let how = match status.signal() {
                Some(sig) => format!("killed by signal {sig} ({})", signal_name(sig)),
                None => format!("the worker exited with {status}"),
            };
            let tail = erx.recv_timeout(Duration::from_secs(5)).unwrap_or_default();
            let tail = tail.trim_end();
            run.broke = Some(Outcome::Crashed(if tail.is_empty() {
                how
            } else {
                format!("{how}; its stderr ends:\n{tail}")
            }));
        }
        run
    }
}

/// Takes in one line of a worker's report.
fn read_line(line: &str, run: &mut WorkerRun) {
    let mut f = line.splitn(4, ' ');
    let (kind, a, b, rest) = (f.next(), f.next(), f.next(), f.next());
    let seed_mode = || -> Option<(u64, usize)> {
        let s = a?.parse().ok()?;
        let m: usize = b?.parse().ok()?;
        (m < MODES.len()).then_some((s, m))
    };
    match kind {
        Some("hello") => run.hello = Some(a == Some("1")),
        Some("start") => {
            let mut w = line.split(' ').skip(1);
            if let Some(m) = w
                .next()
                .and_then(|m| m.parse().ok())
                .filter(|&m: &usize| m < MODES.len())
            {
                run.current = Some((m, w.filter_map(|s| s.parse().ok()).collect()));
            }
        }
        Some("ok") => {
            if let (Some((s, m)), Some(o)) = (seed_mode(), rest.and_then(Output::decode)) {
                run.results.push((s, m, Outcome::Ran(o)));
            }
        }
        Some("err") => {
            if let Some((s, m)) = seed_mode() {
                run.results.push((s, m, Outcome::Error(unescape(rest.unwrap_or("")))));
            }
        }
        // Anything else a library printed on stdout.
        _ => {}
    }
}

/// Waits for `child` until `deadline`; None if it is still running then.
fn wait_until(child: &mut Child, deadline: Instant) -> Option<std::process::ExitStatus> {
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return Some(s),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => return None,
        }
    }
}

/// Kills `child`'s process group (its own: see `spawn`) and reaps it.
fn kill_group(child: &mut Child) -> std::process::ExitStatus {
    // SAFETY: a plain system call; the group is the one `spawn` made for
    // this child (its id is the child's, which is not reaped yet, so no
    // other process can have it).
    unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
    let _ = child.kill();
    child.wait().expect("wait for the killed worker")
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGTRAP => "SIGTRAP",
        _ => "another signal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_messages_and_buffers_survive_their_lines() {
        let p = vec![(7, 0b1_0101), (1000, ALL_MODES)];
        assert_eq!(parse_pairs(&format_pairs(&p)), Ok(p));
        let m = "build: CL_BUILD_PROGRAM_FAILURE; log:\nline \\n two\n";
        assert_eq!(unescape(&escape(m)), m);
        assert!(!escape(m).contains('\n'));
        let o = Output {
            out: vec![0, u64::MAX],
            res: vec![],
            cnt: vec![3],
            hs: vec![0x7bff],
        };
        assert_eq!(Output::decode(&o.encode()), Some(o));
        assert_eq!(Output::decode("1 2 3"), None);
    }
}
