//! Open-ended differential testing campaigns: generated programs on clift
//! (-O0 and -O2, 4-lane bodies on and off) and on PoCL, compared bit for
//! bit (see `clift_conformance::difftest`).
//!
//! ```text
//! cargo build --release -p clift-icd
//! cargo run --release -p clift-conformance --bin difftest -- --seeds 0..100000 --jobs 2
//! ```
//!
//! Options: `--seeds A..B` (default 0..1000), `--jobs N` (threads, default
//! 1), `--batch K` (units per program build, default 8), `--print SEED`
//! (print the program of one seed and exit), `--failures FILE` (append each
//! failure's report to FILE too), `--only TEXT` (run only the modes whose
//! label holds TEXT, or one of its comma-separated parts: `clift`,
//! `PoCL`, `-O0`, `SIMD`, `-O2 scalar,PoCL`, ...; a lone mode
//! cannot disagree, so this is for finding one that fails or hangs),
//! `--source FILE` (with `--seeds S..`: run FILE, a hand-reduced copy of
//! seed S's program, as seed S's kernel), `--minutes M` (start no new
//! batch after M minutes; the last line then says which seeds ran). Progress goes to stderr every 10 batches;
//! the last line says how many programs ran clean. The exit status is 1 if
//! any program failed.

use std::io::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use clift_conformance::difftest::{unit, Harness};

struct Args {
    start: u64,
    end: u64,
    jobs: usize,
    batch: usize,
    failures: Option<String>,
    only: String,
    source: Option<String>,
    minutes: Option<u64>,
}

fn parse() -> Result<Args, String> {
    let mut a = Args {
        start: 0,
        end: 1000,
        jobs: 1,
        batch: 8,
        failures: None,
        only: String::new(),
        source: None,
        minutes: None,
    };
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
            "--failures" => a.failures = Some(val()?),
            "--only" => a.only = val()?,
            "--source" => a.source = Some(val()?),
            "--minutes" => a.minutes = Some(val()?.parse().map_err(|_| "--minutes takes a number")?),
            "--print" => {
                let s: u64 = val()?.parse().map_err(|_| "--print takes a seed")?;
                print!("{}", unit(s).source());
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument {w}")),
        }
    }
    if a.end < a.start || a.jobs == 0 || a.batch == 0 {
        return Err("need A <= B, --jobs >= 1 and --batch >= 1".into());
    }
    Ok(a)
}

fn main() {
    let args = parse().unwrap_or_else(|e| {
        eprintln!("difftest: {e}");
        std::process::exit(2);
    });
    // Compiled programs are not worth keeping: clift's compile cache goes
    // to a private folder emptied as the campaign runs (its memory cache
    // still serves the four clift builds of a batch), PoCL's is off.
    let cache = std::env::temp_dir().join(format!("clift-difftest-cache-{}", std::process::id()));
    std::env::set_var("CLIFT_CACHE_DIR", &cache);
    std::env::set_var("POCL_KERNEL_CACHE", "0");

    if let Some(file) = &args.source {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let t = Harness::new().only(&args.only).check_source(args.start, &text);
        for f in &t.failures {
            println!("{}", f.report);
        }
        println!(
            "difftest: {file} as seed {}: {}",
            args.start,
            if t.failures.is_empty() { "clean" } else { "FAILED" }
        );
        std::process::exit(if t.failures.is_empty() { 0 } else { 1 });
    }
    let chunks: Vec<Vec<u64>> = (args.start..args.end)
        .collect::<Vec<u64>>()
        .chunks(args.batch * 2)
        .map(|c| c.to_vec())
        .collect();
    let next = AtomicU64::new(0);
    let clean = AtomicU64::new(0);
    let clean_clift = AtomicU64::new(0);
    let failed = AtomicU64::new(0);
    let out = Mutex::new(());
    let started = Instant::now();
    let first = Harness::new();
    let pocl_fp16 = first.pocl_fp16();
    drop(first);
    std::thread::scope(|s| {
        for _ in 0..args.jobs {
            s.spawn(|| {
                let h = Harness::new().only(&args.only);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some(seeds) = chunks.get(i) else { break };
                    if args.minutes.is_some_and(|m| started.elapsed().as_secs() >= m * 60) {
                        break;
                    }
                    let t = h.check(seeds, args.batch);
                    clean.fetch_add(t.clean, Ordering::Relaxed);
                    clean_clift.fetch_add(t.clean_clift_only, Ordering::Relaxed);
                    failed.fetch_add(t.failures.len() as u64, Ordering::Relaxed);
                    let _g = out.lock().unwrap_or_else(|e| e.into_inner());
                    for f in &t.failures {
                        println!("{}", f.report);
                        if let Some(path) = &args.failures {
                            if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
                                let _ = writeln!(file, "{}", f.report);
                            }
                        }
                    }
                    if i % 10 == 9 {
                        let _ = std::fs::remove_dir_all(&cache);
                        eprintln!(
                            "difftest: {} seeds done, {} clean, {} clean in clift's modes only, {} failed, {:.0} s",
                            (i + 1) * args.batch * 2,
                            clean.load(Ordering::Relaxed),
                            clean_clift.load(Ordering::Relaxed),
                            failed.load(Ordering::Relaxed),
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&cache);
    let (c, cc, f) = (
        clean.load(Ordering::Relaxed),
        clean_clift.load(Ordering::Relaxed),
        failed.load(Ordering::Relaxed),
    );
    println!(
        "difftest: {} programs of seeds {}..{}: {c} programs ran clean in all 5 modes (clift -O0/-O2 x scalar/SIMD, PoCL), \
         {cc} programs with half arithmetic ran clean in clift's 4 modes{}, {f} failed ({:.0} s)",
        c + cc + f,
        args.start,
        args.end,
        if pocl_fp16 { "" } else { " only (PoCL lacks cl_khr_fp16)" },
        started.elapsed().as_secs_f64()
    );
    std::process::exit(if f == 0 { 0 } else { 1 });
}
