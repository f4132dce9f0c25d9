//! Open-ended differential testing campaigns: generated programs on clift
//! (-O0 and -O2, 4-lane bodies on and off) and on PoCL, compared bit for
//! bit (see `clift_conformance::difftest`).
//!
//! ```text
//! cargo build --release -p clift-icd
//! cargo run --release -p clift-conformance --bin difftest -- --seeds 0..100000 --jobs 2
//! ```
//!
//! The work runs in child processes (this binary again, with the hidden
//! `--worker` argument), one chunk of `2 x --batch` seeds each, `--jobs` at
//! a time, with a time limit: a hang or a crash is pinned on its seed and
//! mode and the campaign goes on (`clift_conformance::difftest::campaign`).
//!
//! Options: `--seeds A..B` (default 0..1000), `--jobs N` (workers at a
//! time, default 1), `--batch K` (units per program build, default 8),
//! `--timeout S` (a worker that reports nothing for S seconds, default 120,
//! is killed: the program build or launch in progress hung), `--pocl-every
//! K` (run PoCL on one chunk of K, default 1: every chunk; the others are
//! compared across clift's 4 modes), `--print SEED` (print the program of
//! one seed and exit), `--failures FILE` (append each failure's report to
//! FILE too), `--only TEXT` (run only the modes whose label holds TEXT, or
//! one of its comma-separated parts: `clift`, `PoCL`, `-O0`, `SIMD`, `-O2
//! scalar,PoCL`, ...; a lone mode cannot disagree, so this is for finding
//! one that fails or hangs), `--source FILE` (with `--seeds S..`: run FILE,
//! a hand-reduced copy of seed S's program, as seed S's kernel),
//! `--minutes M` (start no new chunk after M minutes; the last line then
//! says how many programs ran). Progress goes to stderr every 10 chunks;
//! the last line says how many programs ran clean in which modes, on how
//! many PoCL hung or crashed while clift's modes agreed, and how many
//! failed. The exit status is 1 if any program failed.
//!
//! `CLIFT_DIFFTEST_PEER=<vendor .icd file>` puts another implementation
//! in PoCL's place (`clift_conformance::difftest::peer`), labelled by the
//! file's name: Intel's CPU runtime, say, to tell whether a disagreement
//! between clift and PoCL is PoCL's.

use std::io::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clift_conformance::difftest::campaign::{self, Campaign};
use clift_conformance::difftest::{modes_matching, peer, unit, Tally, POCL};

struct Args {
    start: u64,
    end: u64,
    jobs: usize,
    batch: usize,
    timeout: u64,
    pocl_every: usize,
    failures: Option<String>,
    only: String,
    source: Option<String>,
    minutes: Option<u64>,
    /// `--worker --pairs ...`: run these and report (see `campaign`).
    worker: Option<String>,
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        start: 0,
        end: 1000,
        jobs: 1,
        batch: 8,
        timeout: 120,
        pocl_every: 1,
        failures: None,
        only: String::new(),
        source: None,
        minutes: None,
        worker: None,
    };
    let mut worker = false;
    let mut it = std::env::args().skip(1);
    while let Some(w) = it.next() {
        let mut val = || it.next().ok_or(format!("{w} needs a value"));
        match w.as_str() {
            "--seeds" => {
                let v = val()?;
                let (s, e) = v.split_once("..").ok_or("--seeds takes A..B")?;
                a.start = s.parse().map_err(|_| format!("bad seed {s}"))?;
                a.end = e.parse().map_err(|_| format!("bad seed {e}"))?;
            }
            "--jobs" => a.jobs = val()?.parse().map_err(|_| "--jobs takes a number")?,
            "--batch" => a.batch = val()?.parse().map_err(|_| "--batch takes a number")?,
            "--timeout" => a.timeout = val()?.parse().map_err(|_| "--timeout takes seconds")?,
            "--pocl-every" => a.pocl_every = val()?.parse().map_err(|_| "--pocl-every takes a number")?,
            "--failures" => a.failures = Some(val()?),
            "--only" => a.only = val()?,
            "--source" => a.source = Some(val()?),
            "--minutes" => a.minutes = Some(val()?.parse().map_err(|_| "--minutes takes a number")?),
            "--print" => {
                let s: u64 = val()?.parse().map_err(|_| "--print takes a seed")?;
                print!("{}", unit(s).source());
                std::process::exit(0);
            }
            campaign::WORKER => worker = true,
            "--pairs" => a.worker = Some(val()?),
            _ => return Err(format!("unknown argument {w}")),
        }
    }
    if worker != a.worker.is_some() {
        return Err("--worker and --pairs go together".into());
    }
    if a.end < a.start || a.jobs == 0 || a.batch == 0 || a.timeout == 0 || a.pocl_every == 0 {
        return Err("need A <= B, and --jobs, --batch, --timeout and --pocl-every >= 1".into());
    }
    Ok(a)
}

/// Prints `t`'s failures (to FILE too with `--failures FILE`) and notes.
fn print_failures(t: &Tally, args: &Args) {
    for f in &t.failures {
        println!("{}", f.report);
        if let Some(path) = &args.failures {
            if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
                let _ = writeln!(file, "{}", f.report);
            }
        }
    }
    for n in &t.notes {
        println!("{n}");
    }
}

fn main() {
    let args = parse().unwrap_or_else(|e| {
        eprintln!("difftest: {e}");
        std::process::exit(2);
    });
    if let Some(pairs) = &args.worker {
        let pairs = campaign::parse_pairs(pairs).unwrap_or_else(|e| {
            eprintln!("difftest: {e}");
            std::process::exit(2);
        });
        let text = args
            .source
            .as_ref()
            .map(|f| std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}")));
        campaign::worker_main(&pairs, args.batch, text.as_deref());
        return;
    }
    let modes = modes_matching(&args.only);
    if modes == 0 {
        eprintln!("difftest: --only {:?} matches no mode", args.only);
        std::process::exit(2);
    }
    // Compiled programs are not worth keeping: clift's compile cache goes
    // to a private folder emptied as the campaign runs (its memory cache
    // still serves the four clift builds of a chunk in its worker), PoCL's
    // is off. The workers inherit both.
    let cache = std::env::temp_dir().join(format!("clift-difftest-cache-{}", std::process::id()));
    std::env::set_var("CLIFT_CACHE_DIR", &cache);
    std::env::set_var("POCL_KERNEL_CACHE", "0");
    let exe = std::env::current_exe().expect("this executable");
    let source = args.source.as_ref().map(std::path::PathBuf::from);
    let camp = Campaign::new(exe, Duration::from_secs(args.timeout), args.batch, source).unwrap_or_else(|e| {
        eprintln!("difftest: {e}");
        std::process::exit(2);
    });
    let started = Instant::now();

    if let Some(file) = &args.source {
        let t = camp.check(&[args.start], modes);
        print_failures(&t, &args);
        for (s, _, what) in &t.pocl_broke {
            println!("difftest: seed {s}: {} {what} while clift's modes agreed", peer().label);
        }
        println!("difftest: {file} as seed {}: {}", args.start, t.summary());
        std::process::exit(if t.failures.is_empty() { 0 } else { 1 });
    }
    let chunks: Vec<Vec<u64>> = (args.start..args.end)
        .collect::<Vec<u64>>()
        .chunks(args.batch * 2)
        .map(|c| c.to_vec())
        .collect();
    let next = AtomicU64::new(0);
    let total = Mutex::new(Tally::default());
    std::thread::scope(|s| {
        for _ in 0..args.jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                let Some(seeds) = chunks.get(i) else { break };
                if args.minutes.is_some_and(|m| started.elapsed().as_secs() >= m * 60) {
                    break;
                }
                let m = if i.is_multiple_of(args.pocl_every) {
                    modes
                } else {
                    modes & !POCL
                };
                let mut t = camp.check(seeds, m);
                let mut total = total.lock().unwrap_or_else(|e| e.into_inner());
                print_failures(&t, &args);
                t.failures.iter_mut().for_each(|f| f.report.clear());
                total.merge(t);
                if i % 10 == 9 {
                    let _ = std::fs::remove_dir_all(&cache);
                    eprintln!(
                        "difftest: {} programs done: {} ({:.0} s)",
                        total.units(),
                        total.summary(),
                        started.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&cache);
    let t = total.into_inner().unwrap_or_else(|e| e.into_inner());
    if !t.pocl_broke.is_empty() {
        let seeds: Vec<String> = t
            .pocl_broke
            .iter()
            .map(|(s, _, what)| format!("{s} ({what})"))
            .collect();
        println!(
            "difftest: clean in the clift modes run, {} hung or crashed (no clift failure): seeds {}",
            peer().label,
            seeds.join(", ")
        );
    }
    let mut why = Vec::new();
    if modes & POCL != 0 && !camp.pocl_fp16() {
        why.push(format!(
            "{} lacks cl_khr_fp16, so programs with half arithmetic ran without it",
            peer().label
        ));
    }
    if modes & POCL != 0 && args.pocl_every > 1 {
        why.push(format!("{} ran on one chunk of {}", peer().label, args.pocl_every));
    }
    println!(
        "difftest: {} programs of seeds {}..{}: {}{} ({:.0} s)",
        t.units(),
        args.start,
        args.end,
        t.summary(),
        if why.is_empty() {
            String::new()
        } else {
            format!("; {}", why.join("; "))
        },
        started.elapsed().as_secs_f64()
    );
    std::process::exit(if t.failures.is_empty() { 0 } else { 1 });
}
