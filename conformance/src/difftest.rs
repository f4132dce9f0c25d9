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
//! are then compared across clift's modes alone).
//!
//! [`Harness::check`] runs seeds in batches: the units of a batch share one
//! program (one clang run per optimisation level instead of one per seed);
//! when a batch fails to build or run anywhere, each unit is run alone to
//! find the one at fault. A unit whose modes disagree, or that fails to
//! build or run in some mode, is a [`Failure`] naming the seed, each mode's
//! outcome and the unit's program alone.

use std::ffi::{c_void, CString};
use std::fmt::Write as _;
use std::ptr;

use clift_clgen::{Unit, COUNTERS, HALVES_PER_ITEM, IN_WORDS, RES_PER_ITEM};

use crate::exec::{as_bytes, Pod};
use crate::*;

/// The PoCL vendor file Debian's `pocl-opencl-icd` installs.
pub const POCL_ICD: &str = "/etc/OpenCL/vendors/pocl.icd";

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

const MODES: [Mode; 5] = [
    Mode {
        label: "clift -O0 scalar",
        device: 0,
        options: "-O0 -cl-clift-max-lanes=1",
    },
    Mode {
        label: "clift -O0 SIMD",
        device: 0,
        options: "-O0",
    },
    Mode {
        label: "clift -O2 scalar",
        device: 0,
        options: "-O2 -cl-clift-max-lanes=1",
    },
    Mode {
        label: "clift -O2 SIMD",
        device: 0,
        options: "-O2",
    },
    Mode {
        label: "PoCL",
        device: 1,
        options: "",
    },
];

/// What one unit left in its buffers.
#[derive(Clone, PartialEq, Eq)]
struct Output {
    out: Vec<u64>,
    res: Vec<u64>,
    cnt: Vec<u32>,
    hs: Vec<u16>,
}

/// A unit whose modes disagree (or that failed to build or run somewhere).
#[derive(Debug, Clone)]
pub struct Failure {
    pub seed: u64,
    /// Each mode's outcome, the reproduction command and the program.
    pub report: String,
}

/// How a set of seeds went.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    /// Units that ran clean in every mode, PoCL included.
    pub clean: u64,
    /// Units with `half` arithmetic that ran clean in every clift mode
    /// (PoCL lacking cl_khr_fp16).
    pub clean_clift_only: u64,
    pub failures: Vec<Failure>,
}

/// The two platforms' contexts and queues.
pub struct Harness {
    devices: Vec<Device>,
    /// Only the modes whose label contains this or one of its
    /// comma-separated parts (all when empty).
    only: String,
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

impl Harness {
    /// clift and PoCL through the loader (panics if either is missing).
    pub fn new() -> Harness {
        setup_with_vendors(&[std::path::Path::new(POCL_ICD)]);
        let clift = platform_named("clift").expect("the loader lists clift");
        let pocl = platform_named("Portable Computing Language").unwrap_or_else(|| {
            panic!("the loader lists no PoCL platform: install Debian's pocl-opencl-icd ({POCL_ICD})")
        });
        Harness {
            devices: vec![open("clift", clift), open("PoCL", pocl)],
            only: String::new(),
        }
    }

    /// Runs only the modes whose label contains `filter`, or one of its
    /// comma-separated parts (e.g. `clift`, `PoCL`, `-O2`, `SIMD`,
    /// `-O2 scalar,PoCL`): to find which mode misbehaves.
    pub fn only(mut self, filter: &str) -> Harness {
        self.only = filter.to_string();
        self
    }

    /// Whether PoCL runs programs with `half` arithmetic.
    pub fn pocl_fp16(&self) -> bool {
        self.devices[1].fp16
    }

    fn modes(&self, fp16: bool) -> Vec<&'static Mode> {
        MODES
            .iter()
            .filter(|m| !fp16 || self.devices[m.device].fp16)
            .filter(|m| self.only.split(',').any(|o| m.label.contains(o)))
            .collect()
    }

    /// Runs the units of `seeds` in batches of `batch` and compares every
    /// mode.
    pub fn check(&self, seeds: &[u64], batch: usize) -> Tally {
        let mut tally = Tally::default();
        let units: Vec<Unit> = seeds.iter().map(|&s| unit(s)).collect();
        for fp16 in [false, true] {
            let group: Vec<&Unit> = units.iter().filter(|u| u.fp16 == fp16).collect();
            for chunk in group.chunks(batch.max(1)) {
                self.check_batch(chunk, &mut tally);
            }
        }
        tally
    }

    /// Runs the unit of `seed` with `source` as its program instead of the
    /// generated one (a hand-reduced copy, say): same kernel name, sizes
    /// and buffers.
    pub fn check_source(&self, seed: u64, source: &str) -> Tally {
        let mut tally = Tally::default();
        let u = unit(seed);
        let modes = self.modes(u.fp16);
        let per_mode: Vec<Result<Output, String>> = modes
            .iter()
            .map(|m| self.run_source(source, &[&u], m).map(|mut v| v.remove(0)))
            .collect();
        self.judge(&u, &modes, per_mode, &mut tally);
        tally
    }

    fn check_batch(&self, units: &[&Unit], tally: &mut Tally) {
        let fp16 = units[0].fp16;
        let modes = self.modes(fp16);
        let results: Vec<Result<Vec<Output>, String>> = modes.iter().map(|m| self.run(units, m)).collect();
        if results.iter().all(Result::is_ok) {
            let results: Vec<Vec<Output>> = results.into_iter().map(Result::unwrap).collect();
            for (i, u) in units.iter().enumerate() {
                let per_mode: Vec<Result<Output, String>> = results.iter().map(|r| Ok(r[i].clone())).collect();
                self.judge(u, &modes, per_mode, tally);
            }
        } else {
            for u in units {
                let per_mode: Vec<Result<Output, String>> = modes
                    .iter()
                    .map(|m| self.run(&[u], m).map(|mut v| v.remove(0)))
                    .collect();
                self.judge(u, &modes, per_mode, tally);
            }
        }
    }

    fn judge(&self, u: &Unit, modes: &[&Mode], outs: Vec<Result<Output, String>>, tally: &mut Tally) {
        let first = &outs[0];
        if first.is_ok() && outs.iter().all(|o| o.as_ref().ok() == first.as_ref().ok()) {
            if modes.len() == MODES.len() {
                tally.clean += 1;
            } else {
                tally.clean_clift_only += 1;
            }
            return;
        }
        let mut r = String::new();
        let _ = writeln!(
            r,
            "difftest: seed {} ({}kernel {}, {} work-items in groups of {}) disagrees:",
            u.seed,
            if u.fp16 { "half arithmetic, " } else { "" },
            u.name,
            u.global_size,
            u.local_size
        );
        for (m, o) in modes.iter().zip(&outs) {
            match o {
                Err(e) => {
                    let _ = writeln!(r, "  {}: failed: {}", m.label, e.trim_end());
                }
                Ok(out) => {
                    let same: Vec<&str> = modes
                        .iter()
                        .zip(&outs)
                        .filter(|(_, o2)| o2.as_ref().ok() == Some(out))
                        .map(|(m2, _)| m2.label)
                        .collect();
                    let _ = writeln!(
                        r,
                        "  {}: result A{} (same as: {})",
                        m.label,
                        group_id(&outs, out),
                        same.join(", ")
                    );
                }
            }
        }
        // Where each other distinct result differs from the first.
        let mut distinct: Vec<&Output> = Vec::new();
        for o in outs.iter().filter_map(|o| o.as_ref().ok()) {
            if !distinct.contains(&o) {
                distinct.push(o);
            }
        }
        for (i, b) in distinct.iter().enumerate().skip(1) {
            r.push_str(&describe_difference(distinct[0], b, i));
        }
        let _ = writeln!(
            r,
            "  reproduce: cargo run --release -p clift-conformance --bin difftest -- --seeds {}..{}\n  \
             program (cargo run --release -p clift-conformance --bin difftest -- --print {}):\n{}",
            u.seed,
            u.seed + 1,
            u.seed,
            u.source()
        );
        tally.failures.push(Failure {
            seed: u.seed,
            report: r,
        });
    }

    /// Builds the units' program in mode `m` and runs each unit.
    fn run(&self, units: &[&Unit], m: &Mode) -> Result<Vec<Output>, String> {
        self.run_source(&clift_clgen::program(units), units, m)
    }

    fn run_source(&self, source: &str, units: &[&Unit], m: &Mode) -> Result<Vec<Output>, String> {
        let dev = &self.devices[m.device];
        let src = CString::new(source).map_err(|e| e.to_string())?;
        let mut err = 0;
        let p_src = src.as_ptr();
        // SAFETY: one NUL-terminated string, NULL lengths.
        let program = unsafe { clCreateProgramWithSource(dev.ctx, 1, &p_src, ptr::null(), &mut err) };
        if err != CL_SUCCESS {
            return Err(format!("{}: clCreateProgramWithSource: {}", dev.name, error_name(err)));
        }
        let result = (|| {
            let opts = CString::new(m.options).expect("options without NUL");
            // SAFETY: valid program and NUL-terminated options; no callback.
            let rc = unsafe { clBuildProgram(program, 0, ptr::null(), opts.as_ptr(), None, ptr::null_mut()) };
            if rc != CL_SUCCESS {
                let mut d = ptr::null_mut();
                // SAFETY: room for one handle.
                unsafe {
                    clGetProgramInfo(
                        program,
                        CL_PROGRAM_DEVICES,
                        size_of::<cl_device_id>(),
                        (&mut d as *mut cl_device_id).cast(),
                        ptr::null_mut(),
                    )
                };
                return Err(format!("build: {}; log:\n{}", error_name(rc), build_log_of(program, d)));
            }
            units.iter().map(|u| self.launch(dev, program, u)).collect()
        })();
        // SAFETY: the program was created above and is released once.
        unsafe { clReleaseProgram(program) };
        result
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
        out: vec![0; g],
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

fn group_id(outs: &[Result<Output, String>], o: &Output) -> usize {
    let mut distinct: Vec<&Output> = Vec::new();
    for x in outs.iter().filter_map(|x| x.as_ref().ok()) {
        if !distinct.contains(&x) {
            distinct.push(x);
        }
    }
    distinct.iter().position(|d| *d == o).unwrap_or(0)
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
    diff("out", a.out.clone(), b.out.clone(), 1);
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
