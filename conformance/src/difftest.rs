//! Differential testing: programs from the random generator
//! (`clift-clgen`) run on clift at -O0 and -O2 with 4-lane bodies on and
//! off, and on PoCL as a second opinion; every mode must produce the same
//! bytes in every buffer.
//!
//! [`Harness::new`] points the ICD loader at a folder holding clift's
//! `.icd` and PoCL's (`/etc/OpenCL/vendors/pocl.icd`, Debian's
//! `pocl-opencl-icd`); it panics if PoCL is missing, so a test cannot pass
//! without its second opinion. Programs that use `half` arithmetic run on
//! PoCL only if it reports `cl_khr_fp16` (Debian's PoCL 3.1 does not: they
//! are then compared across clift's modes alone). `CLIFT_DIFFTEST_PEER`,
//! another vendor `.icd` file, puts that implementation in PoCL's place
//! ([`peer`]: Intel's CPU runtime, say, to tell whether a disagreement
//! between clift and PoCL is PoCL's); "PoCL" below means whichever runs.
//!
//! Seeds run in batches: the units of a batch share one program (one clang
//! run per optimisation level instead of one per seed); when a batch fails
//! to build in some mode, or a unit of it fails to run, those units run
//! alone in that mode to find the one at fault. A unit whose modes
//! disagree, or that fails to build or run, hangs or crashes in some clift
//! mode, is a [`Failure`] naming the seed, each mode's outcome and the
//! unit's program alone. A unit on which only PoCL hangs or crashes while
//! the clift modes agree is no clift failure: [`Tally::pocl_broke`] lists
//! it.
//!
//! Two ways to run: [`Harness::check`] runs everything in this process (the
//! CI test; a hang there hangs the test), and [`campaign::Campaign`] runs
//! the work in child processes (the `difftest` binary started again with
//! its hidden `--worker` argument), each with a time limit, so a hang or a
//! crash costs one child and is pinned on one seed and one mode.

pub mod campaign;

use std::collections::{BTreeMap, HashMap};
use std::ffi::{c_void, CString};
use std::fmt::Write as _;
use std::ptr;

use clift_clgen::{Unit, COUNTERS, HALVES_PER_ITEM, IN_WORDS, OUT_PER_ITEM, RES_PER_ITEM};

use crate::exec::{as_bytes, Pod};
use crate::*;

/// The PoCL vendor file Debian's `pocl-opencl-icd` installs.
pub const POCL_ICD: &str = "/etc/OpenCL/vendors/pocl.icd";

/// The second opinion: its vendor `.icd` file, the name of its platform
/// (`None`: the first platform that is not clift's) and the label of its
/// mode in reports.
pub struct Peer {
    /// The vendor `.icd` file the loader is given beside clift's.
    pub icd: std::path::PathBuf,
    /// Its platform's `CL_PLATFORM_NAME`, or `None`: the first platform
    /// that is not clift's.
    pub platform: Option<&'static str>,
    /// Its mode's label in reports and for `--only`.
    pub label: &'static str,
}

/// PoCL, or the implementation whose `.icd` file `CLIFT_DIFFTEST_PEER`
/// names (labelled by the file's name without `.icd`); read once per
/// process, so the campaign's workers, which inherit the variable, run
/// the same one.
pub fn peer() -> &'static Peer {
    static PEER: std::sync::OnceLock<Peer> = std::sync::OnceLock::new();
    PEER.get_or_init(|| match env::text("CLIFT_DIFFTEST_PEER") {
        Some(icd) => {
            let icd = std::path::PathBuf::from(icd);
            let stem = icd.file_stem().map(|s| s.to_string_lossy().into_owned());
            Peer {
                platform: None,
                // Made once per process (the `OnceLock`), so leaking it
                // costs a few bytes once.
                label: Box::leak(stem.unwrap_or_else(|| "peer".into()).into_boxed_str()),
                icd,
            }
        }
        None => Peer {
            icd: POCL_ICD.into(),
            platform: Some("Portable Computing Language"),
            label: "PoCL",
        },
    })
}

/// The label of mode `i` in reports (the second opinion's from [`peer`]).
pub(crate) fn label(i: usize) -> &'static str {
    if 1 << i == POCL {
        peer().label
    } else {
        MODES[i].label
    }
}

/// Whether seed `seed` makes a program with `half` arithmetic (one in
/// eight).
pub fn fp16_seed(seed: u64) -> bool {
    seed % 8 == 7
}

/// The unit of `seed`, as the harness runs it.
pub fn unit(seed: u64) -> Unit {
    clift_clgen::generate(seed, fp16_seed(seed))
}

struct Device {
    name: &'static str,
    ctx: cl_context,
    queue: cl_command_queue,
    fp16: bool,
}

/// One way of running a program: a device and build options.
struct Mode {
    label: &'static str,
    device: usize,
    options: &'static str,
}

impl Mode {
    /// The optimisation level of a clift mode's module (its scalar and
    /// SIMD modes run the same module's two kinds of body), None for the
    /// peer.
    fn level(&self) -> Option<&'static str> {
        if self.device != 0 {
            return None;
        }
        self.options.split_whitespace().next()
    }
}

const MODES: [Mode; 5] = [
    // The -O0 module as written, one work-item at a time: its Function
    // variables stay in memory (every other clift mode promotes them to
    // values, jit/src/promote.rs).
    Mode {
        label: "clift -O0 scalar",
        device: 0,
        options: "-O0 -cl-clift-max-lanes=1 -cl-clift-keep-variables",
    },
    // At -O0, 8-lane bodies wherever clift can make them (also where it
    // estimates 4 lanes faster, as for loops whose exits differ); at
    // -O2, the width clift picks (8 or 4 lanes), the 8-lane bodies
    // compiled at the build so that every launch runs them. Seeds whose
    // groups are 4 wide run 4-lane bodies in both.
    Mode {
        label: "clift -O0 SIMD",
        device: 0,
        options: "-O0 -cl-clift-min-lanes=8",
    },
    Mode {
        label: "clift -O2 scalar",
        device: 0,
        options: "-O2 -cl-clift-max-lanes=1",
    },
    Mode {
        label: "clift -O2 SIMD",
        device: 0,
        options: "-O2 -cl-clift-min-lanes=4 -cl-clift-wide-at-build",
    },
    Mode {
        label: "PoCL",
        device: 1,
        options: "",
    },
];

/// A set of modes: bit `i` stands for the `i`-th of clift -O0 scalar,
/// clift -O0 SIMD, clift -O2 scalar, clift -O2 SIMD and PoCL.
pub type Modes = u8;

/// All five modes.
pub const ALL_MODES: Modes = 0b1_1111;
/// PoCL's mode.
pub const POCL: Modes = 0b1_0000;
/// clift's four modes.
pub const CLIFT_MODES: Modes = ALL_MODES & !POCL;

/// The modes whose label contains `filter` or one of its comma-separated
/// parts (e.g. `clift`, `PoCL`, `-O2`, `SIMD`, `-O2 scalar,PoCL`; all when
/// empty).
pub fn modes_matching(filter: &str) -> Modes {
    (0..MODES.len())
        .filter(|&i| filter.split(',').any(|o| label(i).contains(o)))
        .fold(0, |m, i| m | 1 << i)
}

/// The modes of `modes` unit `u` runs in: without PoCL if it uses `half`
/// arithmetic and PoCL lacks cl_khr_fp16, or math built-ins that
/// implementations round differently ([`Unit::math`]).
pub fn modes_for(modes: Modes, u: &Unit, pocl_fp16: bool) -> Modes {
    if (u.fp16 && !pocl_fp16) || u.math {
        modes & !POCL
    } else {
        modes
    }
}

/// The labels of `modes`.
fn labels(modes: Modes) -> Vec<&'static str> {
    (0..MODES.len()).filter(|i| modes & 1 << i != 0).map(label).collect()
}

/// How to say "in the modes `m`" in a tally.
pub fn describe_modes(m: Modes) -> String {
    match m {
        ALL_MODES => format!("all 5 modes (clift -O0/-O2 x scalar/SIMD, {})", peer().label),
        CLIFT_MODES => "clift's 4 modes".to_string(),
        _ if m.count_ones() == 1 => format!("{} alone (nothing compared)", labels(m)[0]),
        _ => format!("the modes {}", labels(m).join(", ")),
    }
}

/// What one unit left in its buffers.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Output {
    out: Vec<u64>,
    res: Vec<u64>,
    cnt: Vec<u32>,
    hs: Vec<u16>,
}

impl Output {
    /// The output with the raw hashes (each work-item's second `out`
    /// entry: its floating-point variables' bits, NaNs as made) zeroed:
    /// what every implementation must agree on.
    fn canonical(&self) -> Output {
        let mut c = self.clone();
        for (i, o) in c.out.iter_mut().enumerate() {
            if i % OUT_PER_ITEM != 0 {
                *o = 0;
            }
        }
        c
    }
}

/// How one unit went in one mode.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// It ran and left these buffers.
    Ran(Output),
    /// It failed to build or run (the message says how).
    Error(String),
    /// It did not finish within the time limit (seconds).
    TimedOut(u64),
    /// The process running it died (a signal, a panic: how and its last
    /// words).
    Crashed(String),
}

impl Outcome {
    fn output(&self) -> Option<&Output> {
        match self {
            Outcome::Ran(o) => Some(o),
            _ => None,
        }
    }

    /// A hang or a crash (rather than an answer or an error).
    fn broke(&self) -> bool {
        matches!(self, Outcome::TimedOut(_) | Outcome::Crashed(_))
    }
}

/// A unit whose modes disagree (or that failed to build or run somewhere,
/// or hung or crashed in a clift mode).
#[derive(Debug, Clone)]
pub struct Failure {
    pub seed: u64,
    /// Each mode's outcome, the reproduction command and the program.
    pub report: String,
}

/// How a set of seeds went.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    /// Units that ran clean, by the set of modes they were compared in.
    pub clean: BTreeMap<Modes, u64>,
    /// Units on which PoCL hung or crashed while the clift modes run agreed
    /// (no clift failure): the seed, those clift modes and what PoCL did.
    pub pocl_broke: Vec<(u64, Modes, String)>,
    /// Units that ran in no mode (none of the modes asked for applies).
    pub not_run: u64,
    pub failures: Vec<Failure>,
    /// Things seen that are not about one unit (a batch that hung as one
    /// program in PoCL while each unit alone ran, say).
    pub notes: Vec<String>,
}

impl Tally {
    /// Units that ran clean in exactly the modes `m`.
    pub fn clean_in(&self, m: Modes) -> u64 {
        self.clean.get(&m).copied().unwrap_or(0)
    }

    /// Units judged: clean, PoCL broken, not run or failed.
    pub fn units(&self) -> u64 {
        self.clean.values().sum::<u64>() + self.pocl_broke.len() as u64 + self.not_run + self.failures.len() as u64
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: Tally) {
        for (m, n) in other.clean {
            *self.clean.entry(m).or_default() += n;
        }
        self.pocl_broke.extend(other.pocl_broke);
        self.not_run += other.not_run;
        self.failures.extend(other.failures);
        self.notes.extend(other.notes);
    }

    /// The counts in words: "N ran clean in all 5 modes (...), M ran clean
    /// in clift's 4 modes (no PoCL), ..., F failed".
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = self
            .clean
            .iter()
            .rev()
            .map(|(&m, n)| match m.count_ones() {
                1 => format!("{n} ran without error in {}", describe_modes(m)),
                _ => format!("{n} ran clean in {}", describe_modes(m)),
            })
            .collect();
        if parts.is_empty() {
            parts.push("0 ran clean".into());
        }
        let mut broke: BTreeMap<Modes, u64> = BTreeMap::new();
        for (_, m, _) in &self.pocl_broke {
            *broke.entry(*m).or_default() += 1;
        }
        for (m, n) in broke.iter().rev() {
            parts.push(match m {
                0 => format!("{n} hung or crashed in {} (no clift mode run)", peer().label),
                _ => format!(
                    "{n} hung or crashed in {} while {} agreed",
                    peer().label,
                    describe_modes(*m)
                ),
            });
        }
        if self.not_run != 0 {
            parts.push(format!(
                "{} not run (half arithmetic, and {}, the only mode asked for, lacks cl_khr_fp16)",
                self.not_run,
                peer().label
            ));
        }
        parts.push(format!("{} failed", self.failures.len()));
        parts.join(", ")
    }
}

/// The two platforms' contexts and queues.
pub struct Harness {
    devices: Vec<Device>,
    /// Only these modes (see [`Harness::only`]).
    only: Modes,
}

// SAFETY: OpenCL handles may be used from any thread (the API is
// thread-safe, except clSetKernelArg on one kernel, which the harness never
// shares); each job uses its own Harness anyway.
unsafe impl Send for Harness {}

fn open(name: &'static str, platform: cl_platform_id) -> Device {
    let mut d = ptr::null_mut();
    // SAFETY: room for one handle.
    check(unsafe { clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &mut d, ptr::null_mut()) });
    let mut err = 0;
    // SAFETY: one valid device handle; no callback.
    let ctx = unsafe { clCreateContext(ptr::null(), 1, &d, None, ptr::null_mut(), &mut err) };
    check(err);
    // SAFETY: valid handles; NULL properties (in order).
    let queue = unsafe { clCreateCommandQueueWithProperties(ctx, d, ptr::null(), &mut err) };
    check(err);
    let fp16 = device_string(d, CL_DEVICE_EXTENSIONS)
        .split_whitespace()
        .any(|e| e == "cl_khr_fp16");
    Device { name, ctx, queue, fp16 }
}

/// A built program, released when dropped.
struct Program(cl_program);

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: the program was created by `Harness::build` and is
        // released once, here.
        unsafe { clReleaseProgram(self.0) };
    }
}

/// What a run reports as it goes: a program build of these seeds in this
/// mode starts, or one unit's outcome in one mode is final.
pub(crate) enum Event<'a> {
    Start(usize, &'a [u64]),
    Done(u64, usize, Result<Output, String>),
}

impl Harness {
    /// clift and PoCL (or the [`peer`] asked for) through the loader
    /// (panics if either is missing).
    pub fn new() -> Harness {
        let peer = peer();
        setup_with_vendors(&[peer.icd.as_path()]);
        let clift = platform_named("clift").expect("the loader lists clift");
        let other = match peer.platform {
            Some(name) => platform_named(name),
            None => platforms().into_iter().find(|&p| platform_name(p) != "clift"),
        };
        let other = other.unwrap_or_else(|| match peer.platform {
            Some(_) => panic!("the loader lists no PoCL platform: install Debian's pocl-opencl-icd ({POCL_ICD})"),
            None => panic!("the loader lists no platform from {}", peer.icd.display()),
        });
        Harness {
            devices: vec![open("clift", clift), open(peer.label, other)],
            only: ALL_MODES,
        }
    }

    /// Runs only the modes whose label contains `filter`, or one of its
    /// comma-separated parts (see [`modes_matching`]): to find which mode
    /// misbehaves.
    pub fn only(mut self, filter: &str) -> Harness {
        self.only = modes_matching(filter);
        self
    }

    /// Whether PoCL runs programs with `half` arithmetic.
    pub fn pocl_fp16(&self) -> bool {
        self.devices[1].fp16
    }

    /// Runs the units of `seeds` in batches of `batch` and compares every
    /// mode, in this process.
    pub fn check(&self, seeds: &[u64], batch: usize) -> Tally {
        let units: Vec<(Unit, Modes)> = seeds
            .iter()
            .map(|&s| {
                let u = unit(s);
                let m = modes_for(self.only, &u, self.pocl_fp16());
                (u, m)
            })
            .collect();
        self.check_units(&units, batch, None)
    }

    /// Runs the unit of `seed` with `source` as its program instead of the
    /// generated one (a hand-reduced copy, say): same kernel name, sizes
    /// and buffers.
    pub fn check_source(&self, seed: u64, source: &str) -> Tally {
        let u = unit(seed);
        let m = modes_for(self.only, &u, self.pocl_fp16());
        self.check_units(&[(u, m)], 1, Some(source))
    }

    fn check_units(&self, units: &[(Unit, Modes)], batch: usize, source: Option<&str>) -> Tally {
        let mut outs: HashMap<(u64, usize), Outcome> = HashMap::new();
        self.run_units(units, batch, source, &mut |e| {
            if let Event::Done(seed, m, r) = e {
                outs.insert((seed, m), r.map_or_else(Outcome::Error, Outcome::Ran));
            }
        });
        let mut tally = Tally::default();
        for (u, m) in units {
            judge(u, *m, source, |i| outs.remove(&(u.seed, i)), &mut tally);
        }
        tally
    }

    /// Runs each unit in each of its modes, batch by batch, telling `sink`
    /// what starts as it goes and what is final after each batch.
    ///
    /// A unit that some mode ran alone (its batch failed to build there,
    /// or the unit failed in it) runs alone in every mode, so that all its
    /// modes run the same program: clang compiles a function beside other
    /// units' differently from alone (seed 1041873: LLVM turned `x - NaN`
    /// into `x + -NaN` in one program and not in the other, and the NaN's
    /// sign, which IEEE 754 leaves open, told the modes apart).
    pub(crate) fn run_units(
        &self,
        units: &[(Unit, Modes)],
        batch: usize,
        source: Option<&str>,
        sink: &mut dyn FnMut(Event),
    ) {
        for fp16 in [false, true] {
            let group: Vec<&(Unit, Modes)> = units.iter().filter(|(u, _)| u.fp16 == fp16).collect();
            for chunk in group.chunks(batch.max(1)) {
                let mut done: Vec<(u64, usize, Result<Output, String>)> = Vec::new();
                let mut alone: Vec<(u64, usize)> = Vec::new();
                for m in 0..MODES.len() {
                    let us: Vec<&Unit> = chunk
                        .iter()
                        .filter(|(_, modes)| modes & 1 << m != 0)
                        .map(|(u, _)| u)
                        .collect();
                    if us.is_empty() {
                        continue;
                    }
                    let batched = us.len() > 1;
                    self.run_batch(&us, m, source, &mut |e| match e {
                        Event::Start(mm, seeds) => {
                            if batched && seeds.len() == 1 {
                                alone.push((seeds[0], mm));
                            }
                            sink(Event::Start(mm, seeds));
                        }
                        Event::Done(s, mm, r) => done.push((s, mm, r)),
                    });
                }
                for (u, modes) in chunk.iter() {
                    if !alone.iter().any(|&(s, _)| s == u.seed) {
                        continue;
                    }
                    for m in (0..MODES.len()).filter(|&m| modes & 1 << m != 0) {
                        if alone.contains(&(u.seed, m)) {
                            continue;
                        }
                        done.retain(|d| !(d.0 == u.seed && d.1 == m));
                        self.run_batch(&[u], m, source, &mut |e| match e {
                            Event::Start(mm, seeds) => sink(Event::Start(mm, seeds)),
                            Event::Done(s, mm, r) => done.push((s, mm, r)),
                        });
                    }
                }
                for (s, m, r) in done {
                    sink(Event::Done(s, m, r));
                }
            }
        }
    }

    /// Builds the units' program in mode `m` and runs each unit; a build
    /// that fails, or a unit that fails, is run again alone.
    fn run_batch(&self, units: &[&Unit], m: usize, source: Option<&str>, sink: &mut dyn FnMut(Event)) {
        let seeds: Vec<u64> = units.iter().map(|u| u.seed).collect();
        sink(Event::Start(m, &seeds));
        let text = source.map_or_else(|| clift_clgen::program(units), str::to_string);
        let program = match self.build(&text, m) {
            Ok(p) => p,
            Err(e) if units.len() == 1 => return sink(Event::Done(units[0].seed, m, Err(e))),
            Err(_) => {
                for u in units {
                    self.run_batch(&[u], m, source, sink);
                }
                return;
            }
        };
        let dev = &self.devices[MODES[m].device];
        let mut again = Vec::new();
        for u in units {
            match self.launch(dev, program.0, u) {
                Ok(o) => sink(Event::Done(u.seed, m, Ok(o))),
                Err(e) if units.len() == 1 => sink(Event::Done(u.seed, m, Err(e))),
                Err(_) => again.push(*u),
            }
        }
        drop(program);
        for u in again {
            self.run_batch(&[u], m, source, sink);
        }
    }

    fn build(&self, source: &str, m: usize) -> Result<Program, String> {
        let mode = &MODES[m];
        let dev = &self.devices[mode.device];
        let src = CString::new(source).map_err(|e| e.to_string())?;
        let mut err = 0;
        let p_src = src.as_ptr();
        // SAFETY: one NUL-terminated string, NULL lengths.
        let program = unsafe { clCreateProgramWithSource(dev.ctx, 1, &p_src, ptr::null(), &mut err) };
        if err != CL_SUCCESS {
            return Err(format!("{}: clCreateProgramWithSource: {}", dev.name, error_name(err)));
        }
        let program = Program(program);
        let opts = CString::new(mode.options).expect("options without NUL");
        // SAFETY: valid program and NUL-terminated options; no callback.
        let rc = unsafe { clBuildProgram(program.0, 0, ptr::null(), opts.as_ptr(), None, ptr::null_mut()) };
        let mut d = ptr::null_mut();
        // SAFETY: room for one handle.
        unsafe {
            clGetProgramInfo(
                program.0,
                CL_PROGRAM_DEVICES,
                size_of::<cl_device_id>(),
                (&mut d as *mut cl_device_id).cast(),
                ptr::null_mut(),
            )
        };
        if rc != CL_SUCCESS {
            return Err(format!(
                "build: {}; log:\n{}",
                error_name(rc),
                build_log_of(program.0, d)
            ));
        }
        // clift compiled the module only without 4-lane bodies (a vector
        // instruction its code generator cannot select): right answers,
        // but a gap to report.
        let log = build_log_of(program.0, d);
        if log.contains(crate::WITHOUT_FOUR_LANES) {
            return Err(format!("build: 4-lane bodies failed to compile; log:\n{log}"));
        }
        Ok(program)
    }

    fn launch(&self, dev: &Device, program: cl_program, u: &Unit) -> Result<Output, String> {
        let input = inputs(u);
        let name = CString::new(u.name.as_str()).expect("kernel name without NUL");
        let mut err = 0;
        // SAFETY: valid program and NUL-terminated name.
        let k = unsafe { clCreateKernel(program, name.as_ptr(), &mut err) };
        if err != CL_SUCCESS {
            return Err(format!("clCreateKernel {}: {}", u.name, error_name(err)));
        }
        let bufs: Vec<cl_mem> = [
            as_bytes(&input.out),
            as_bytes(&input.res),
            as_bytes(&input.cnt),
            as_bytes(&input.in_words),
            as_bytes(&input.hs),
        ]
        .iter()
        .map(|b| {
            let mut e = 0;
            // SAFETY: `b` is readable for its length; COPY_HOST_PTR copies it now.
            let m = unsafe {
                clCreateBuffer(
                    dev.ctx,
                    CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                    b.len(),
                    b.as_ptr() as *mut c_void,
                    &mut e,
                )
            };
            check(e);
            m
        })
        .collect();
        let mut result = Ok(());
        for (i, b) in bufs.iter().enumerate() {
            let rc = set_arg(k, i as cl_uint, b);
            if rc != CL_SUCCESS {
                result = Err(format!("clSetKernelArg {i}: {}", error_name(rc)));
            }
        }
        let out = result.and_then(|_| {
            let (g, l) = (u.global_size, u.local_size);
            // SAFETY: valid handles; one dimension; sizes live across the call.
            let rc = unsafe {
                clEnqueueNDRangeKernel(dev.queue, k, 1, ptr::null(), &g, &l, 0, ptr::null(), ptr::null_mut())
            };
            if rc != CL_SUCCESS {
                return Err(format!("clEnqueueNDRangeKernel: {}", error_name(rc)));
            }
            // SAFETY: valid queue.
            let rc = unsafe { clFinish(dev.queue) };
            if rc != CL_SUCCESS {
                return Err(format!("clFinish: {}", error_name(rc)));
            }
            Ok(Output {
                out: read_vec(dev.queue, bufs[0], input.out.len()),
                res: read_vec(dev.queue, bufs[1], input.res.len()),
                cnt: read_vec(dev.queue, bufs[2], input.cnt.len()),
                hs: read_vec(dev.queue, bufs[4], input.hs.len()),
            })
        });
        for b in bufs {
            release_mem(b);
        }
        // SAFETY: the kernel was created above and is released once.
        unsafe { clReleaseKernel(k) };
        out
    }
}

/// Judges unit `u` from its outcome in each mode of `modes` (`take(i)`
/// gives mode `i`'s), adding it to `tally`.
/// `source` is the program run instead of the generated one, if any.
pub(crate) fn judge(
    u: &Unit,
    modes: Modes,
    source: Option<&str>,
    mut take: impl FnMut(usize) -> Option<Outcome>,
    tally: &mut Tally,
) {
    let ms: Vec<usize> = (0..MODES.len()).filter(|i| modes & 1 << i != 0).collect();
    if ms.is_empty() {
        tally.not_run += 1;
        return;
    }
    let outs: Vec<Outcome> = ms
        .iter()
        .map(|&i| take(i).unwrap_or_else(|| Outcome::Error("no outcome reported".into())))
        .collect();
    // Every mode's results alike, the raw hashes of floating-point bits
    // aside (`Output::canonical`); those alike between clift's bodies of
    // one module (its scalar and SIMD modes at one level).
    let agree = |keep: &dyn Fn(usize) -> bool| {
        let kept: Vec<(usize, &Outcome)> = ms
            .iter()
            .zip(&outs)
            .filter(|(&i, _)| keep(i))
            .map(|(&i, o)| (i, o))
            .collect();
        let canonical = kept.iter().all(|(_, o)| {
            o.output().is_some() && o.output().map(Output::canonical) == kept[0].1.output().map(Output::canonical)
        });
        let same_module = kept.iter().all(|&(i, o)| {
            kept.iter()
                .filter(|&&(j, _)| MODES[j].level() == MODES[i].level() && MODES[i].level().is_some())
                .all(|(_, p)| p.output() == o.output())
        });
        canonical && same_module
    };
    if agree(&|_| true) {
        *tally.clean.entry(modes).or_default() += 1;
        return;
    }
    let pocl = ms.iter().position(|&i| 1 << i == POCL);
    if let Some(p) = pocl.filter(|&p| outs[p].broke()) {
        if agree(&|i| 1 << i != POCL) {
            let what = match &outs[p] {
                Outcome::TimedOut(s) => format!("timed out after {s} s"),
                Outcome::Crashed(c) => format!("crashed: {}", c.lines().next().unwrap_or("")),
                _ => unreachable!("broke() is a time-out or a crash"),
            };
            tally.pocl_broke.push((u.seed, modes & !POCL, what));
            return;
        }
    }
    let broke = outs.iter().any(|o| !matches!(o, Outcome::Ran(_)));
    let mut r = String::new();
    let _ = writeln!(
        r,
        "difftest: seed {} ({}{}kernel {}, {} work-items in groups of {}) {}:",
        u.seed,
        if u.fp16 { "half arithmetic, " } else { "" },
        if u.math { "math built-ins, " } else { "" },
        u.name,
        u.global_size,
        u.local_size,
        if broke { "fails" } else { "disagrees" }
    );
    let distinct = distinct_outputs(&outs);
    for (&i, o) in ms.iter().zip(&outs) {
        let name = label(i);
        let _ = match o {
            Outcome::Error(e) => writeln!(r, "  {name}: failed: {}", e.trim_end()),
            Outcome::TimedOut(s) => writeln!(r, "  {name}: timed out after {s} s"),
            Outcome::Crashed(c) => writeln!(r, "  {name}: crashed: {}", c.trim_end()),
            Outcome::Ran(out) => {
                let same: Vec<&str> = ms
                    .iter()
                    .zip(&outs)
                    .filter(|(_, o2)| o2.output() == Some(out))
                    .map(|(&j, _)| label(j))
                    .collect();
                let id = distinct.iter().position(|d| *d == out).unwrap_or(0);
                writeln!(r, "  {name}: result A{id} (same as: {})", same.join(", "))
            }
        };
    }
    // Where each other distinct result differs from the first.
    for (i, b) in distinct.iter().enumerate().skip(1) {
        r.push_str(&describe_difference(distinct[0], b, i));
    }
    // A hang or a crash reproduces in the modes that hung or crashed.
    let hung: Vec<&str> = ms
        .iter()
        .zip(&outs)
        .filter(|(_, o)| o.broke())
        .map(|(&i, _)| label(i))
        .collect();
    let only = match hung.is_empty() {
        true => String::new(),
        false => format!(" --only '{}'", hung.join(",")),
    };
    let _ = match source {
        Some(text) => writeln!(
            r,
            "  reproduce: cargo run --release -p clift-conformance --bin difftest -- --seeds {}..{} --source FILE{only}\n  \
             program (FILE):\n{text}",
            u.seed,
            u.seed + 1,
        ),
        None => writeln!(
            r,
            "  reproduce: cargo run --release -p clift-conformance --bin difftest -- --seeds {}..{}{only}\n  \
             program (cargo run --release -p clift-conformance --bin difftest -- --print {}):\n{}",
            u.seed,
            u.seed + 1,
            u.seed,
            u.source()
        ),
    };
    tally.failures.push(Failure {
        seed: u.seed,
        report: r,
    });
}

/// The distinct buffers among `outs`, in order of first appearance.
fn distinct_outputs(outs: &[Outcome]) -> Vec<&Output> {
    let mut distinct: Vec<&Output> = Vec::new();
    for o in outs.iter().filter_map(Outcome::output) {
        if !distinct.contains(&o) {
            distinct.push(o);
        }
    }
    distinct
}

impl Output {
    /// The buffers as one line of text: four space-separated lists of hex
    /// numbers (`-` for an empty one), read back by [`Output::decode`].
    pub(crate) fn encode(&self) -> String {
        fn list<T: Copy + Into<u64>>(v: &[T]) -> String {
            if v.is_empty() {
                return "-".into();
            }
            v.iter()
                .map(|&x| format!("{:x}", x.into()))
                .collect::<Vec<_>>()
                .join(",")
        }
        format!(
            "{} {} {} {}",
            list(&self.out),
            list(&self.res),
            list(&self.cnt),
            list(&self.hs)
        )
    }

    /// The buffers [`Output::encode`] wrote, or None if `text` is not such a
    /// line.
    pub(crate) fn decode(text: &str) -> Option<Output> {
        fn list<T: TryFrom<u64>>(s: &str) -> Option<Vec<T>> {
            if s == "-" {
                return Some(Vec::new());
            }
            s.split(',')
                .map(|x| u64::from_str_radix(x, 16).ok().and_then(|v| T::try_from(v).ok()))
                .collect()
        }
        let f: Vec<&str> = text.split(' ').collect();
        let [out, res, cnt, hs] = f[..] else { return None };
        Some(Output {
            out: list(out)?,
            res: list(res)?,
            cnt: list(cnt)?,
            hs: list(hs)?,
        })
    }
}

impl Default for Harness {
    fn default() -> Harness {
        Harness::new()
    }
}

fn build_log_of(p: cl_program, d: cl_device_id) -> String {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_bytes(|s, v, r| unsafe { clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, s, v, r) })
        .map(|b| String::from_utf8_lossy(&b).trim_end_matches('\0').to_string())
        .unwrap_or_else(|e| format!("(no log: {})", error_name(e)))
}

fn read_vec<T: Pod + Default>(q: cl_command_queue, m: cl_mem, n: usize) -> Vec<T> {
    let bytes = read_bytes(q, m, 0, n * size_of::<T>());
    bytes
        .chunks_exact(size_of::<T>())
        // SAFETY: each chunk holds size_of::<T>() bytes; T is plain data.
        .map(|c| unsafe { (c.as_ptr() as *const T).read_unaligned() })
        .collect()
}

struct Inputs {
    out: Vec<u64>,
    res: Vec<u64>,
    cnt: Vec<u32>,
    in_words: Vec<u32>,
    hs: Vec<u16>,
}

/// The buffers' first contents, from the unit's seed. Halves are never
/// infinite or NaN (a kernel reads them as floats with `vload_half`).
fn inputs(u: &Unit) -> Inputs {
    let mut r = clift_clgen::Rng::new(u.seed ^ 0xd1ff);
    let g = u.global_size;
    Inputs {
        out: vec![0; g * OUT_PER_ITEM],
        res: (0..g * RES_PER_ITEM).map(|_| r.next_u64()).collect(),
        cnt: (0..COUNTERS).map(|_| r.next_u64() as u32).collect(),
        in_words: (0..IN_WORDS).map(|_| r.next_u64() as u32).collect(),
        hs: (0..g * HALVES_PER_ITEM)
            .map(|_| {
                let h = r.next_u64() as u16;
                if h & 0x7c00 == 0x7c00 {
                    h & !0x4000
                } else {
                    h
                }
            })
            .collect(),
    }
}

fn describe_difference(a: &Output, b: &Output, bi: usize) -> String {
    let mut s = String::new();
    let mut diff = |name: &str, x: Vec<u64>, y: Vec<u64>, per: usize| {
        let idx: Vec<usize> = (0..x.len()).filter(|&i| x[i] != y[i]).collect();
        if let Some(&i) = idx.first() {
            let _ = writeln!(
                s,
                "  {name}: A0 and A{bi}: {} of {} entries differ; first [{i}] (work-item {}): A0 {:#x}, A{bi} {:#x}",
                idx.len(),
                x.len(),
                i / per.max(1),
                x[i],
                y[i]
            );
            if per != usize::MAX {
                // The first differing work-item's entries in full.
                let w = i / per.max(1) * per;
                let show = |v: &[u64]| {
                    v[w..(w + per).min(v.len())]
                        .iter()
                        .map(|e| format!("{e:#x}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                let _ = writeln!(s, "    A0: {}\n    A{bi}: {}", show(&x), show(&y));
            }
        }
    };
    diff("out", a.out.clone(), b.out.clone(), OUT_PER_ITEM);
    diff("res", a.res.clone(), b.res.clone(), RES_PER_ITEM);
    diff(
        "cnt (counters, not per work-item)",
        a.cnt.iter().map(|&v| v as u64).collect(),
        b.cnt.iter().map(|&v| v as u64).collect(),
        usize::MAX,
    );
    diff(
        "hs",
        a.hs.iter().map(|&v| v as u64).collect(),
        b.hs.iter().map(|&v| v as u64).collect(),
        HALVES_PER_ITEM,
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An outcome whose `out` buffer holds `out` (the other buffers empty).
    fn ran(out: &[u64]) -> Outcome {
        Outcome::Ran(Output {
            out: out.to_vec(),
            res: Vec::new(),
            cnt: Vec::new(),
            hs: Vec::new(),
        })
    }

    /// The failures of judging clift's four modes (-O0 scalar, -O0 SIMD,
    /// -O2 scalar, -O2 SIMD) on these `out` buffers.
    fn failures(outs: [&[u64]; 4]) -> usize {
        let u = clift_clgen::generate(0, false);
        let mut t = Tally::default();
        judge(&u, CLIFT_MODES, None, |i| Some(ran(outs[i])), &mut t);
        t.failures.len()
    }

    /// The raw hash (each work-item's second `out` entry) must agree
    /// between one level's scalar and SIMD modes, and may differ between
    /// levels (clang -O0 and -O2 make different modules); the canonical
    /// hash must agree everywhere.
    #[test]
    fn raw_hashes_are_compared_within_a_level() {
        assert_eq!(failures([&[1, 10], &[1, 10], &[1, 20], &[1, 20]]), 0);
        assert_eq!(failures([&[1, 10], &[1, 10], &[1, 20], &[1, 21]]), 1);
        assert_eq!(failures([&[1, 10], &[1, 11], &[1, 20], &[1, 20]]), 1);
        assert_eq!(failures([&[1, 10], &[1, 10], &[2, 20], &[2, 20]]), 1);
    }
}
