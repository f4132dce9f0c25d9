//! Running kernels of the execution corpus (`conformance/kernels/`) through
//! the loader and reading their results back, for tests that compare them
//! with host references.
//!
//! ```ignore
//! let mut out = vec![0i32; 64];
//! let input: Vec<i32> = (0..64).collect();
//! Kernel::new("smoke", Opt::O2, "add_one")
//!     .arg(Arg::input(&input))
//!     .arg(Arg::output(&mut out))
//!     .run(&[64], Some(&[16]));
//! assert_eq!(out[5], 6);
//! ```
//!
//! The API in short:
//! - [`Kernel::new`] builds a corpus module (panics with the build log);
//!   [`Kernel::with_il`] and [`Kernel::with_source`] (OpenCL C) return the
//!   log instead, [`Kernel::with_spec`] sets specialization constants
//!   first ([`hand_spirv`] reads the hand-written modules).
//! - [`Kernel::arg`] appends an [`Arg`]: [`Arg::input`], [`Arg::output`],
//!   [`Arg::output_bytes`], [`Arg::sub_buffer`], [`Arg::value`] (scalars,
//!   vectors as arrays, `#[repr(C)]` structs), [`Arg::bytes`] (a value
//!   given as bytes), [`Arg::Local`], [`Arg::NullBuffer`].
//! - [`Kernel::run`] (NULL offset), [`Kernel::run_with_offset`] and
//!   [`Kernel::run_task`] (clEnqueueTask) launch, wait and read the outputs
//!   back; they panic with the error name and the program's build log (which
//!   says why a kernel cannot run) if the enqueue fails.
//! - [`Kernel::launch`] and [`Kernel::launch_task`] do the same but return
//!   the enqueue's error code and keep the kernel, so it can be launched
//!   again (the buffers are made afresh from the arguments' bytes each time,
//!   outputs included, which hold the previous launch's results).
//! - [`Kernel::sibling`] is another kernel of the same built program, on the
//!   same queue, so program-scope `__global` variables written by one launch
//!   are seen by the next.
//! - [`Kernel::build_log`], [`Kernel::build_log_lines`] (this kernel's
//!   lines), [`Kernel::work_group_info`] and [`Kernel::handle`] for queries.
//!
//! Every launch runs in each of clift's execution modes and compares them
//! bit for bit: the kernel as built (with 8- and 4-lane bodies where clift makes
//! them, `jit/src/lower/simd`; the build adds [`WIDE_AT_BUILD`], so that
//! every launch runs the 8-lane bodies, not the 4-lane ones that run until
//! clift's background thread has compiled them) and the same program built again with
//! [`TWIN`] (scalar bodies only, and the module's Function variables kept
//! in memory as written instead of promoted to values: `jit/src/promote.rs`),
//! the *twin*, built at the
//! first launch and shared by siblings (so program-scope variables evolve
//! alike). The twin runs on copies of the same arguments after the
//! kernel, and every buffer read back must hold the same bytes, or the
//! launch panics naming the kernel, the argument, the first differing
//! offset and both values. A test whose results may differ between modes
//! as the spec allows says so, with the reason, through
//! [`Kernel::modes_may_differ`] (the whole launch),
//! [`Kernel::arg_may_differ`] (one argument) or
//! [`Kernel::bytes_may_differ`] (some bytes of each element of one).

use std::cell::RefCell;
use std::ffi::c_void;
use std::ptr;
use std::rc::Rc;

use crate::*;

/// The clang optimisation level a corpus module was compiled at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opt {
    /// `clang-15 -O0`.
    O0,
    /// `clang-15 -O2`.
    O2,
}

impl Opt {
    /// Both levels, for tests that run each kernel at -O0 and -O2.
    pub const BOTH: [Opt; 2] = [Opt::O0, Opt::O2];

    fn dir(self) -> &'static str {
        match self {
            Opt::O0 => "O0",
            Opt::O2 => "O2",
        }
    }
}

/// The bytes of `conformance/kernels/spv/O<n>/<module>.spv`.
pub fn corpus_spirv(module: &str, opt: Opt) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("kernels/spv")
        .join(opt.dir())
        .join(format!("{module}.spv"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (run conformance/kernels/regen.sh)", path.display()))
}

/// The bytes of the hand-written module `conformance/kernels/spv/hand/<name>.spv`.
pub fn hand_spirv(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("kernels/spv/hand")
        .join(format!("{name}.spv"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Plain data that can be copied to and from device memory as bytes.
///
/// # Safety
/// Implementors must have no padding and accept any bit pattern.
pub unsafe trait Pod: Copy {}
// SAFETY: primitive numbers have no padding and accept every bit pattern.
unsafe impl Pod for u8 {}
// SAFETY: as above.
unsafe impl Pod for i8 {}
// SAFETY: as above.
unsafe impl Pod for u16 {}
// SAFETY: as above.
unsafe impl Pod for i16 {}
// SAFETY: as above.
unsafe impl Pod for u32 {}
// SAFETY: as above.
unsafe impl Pod for i32 {}
// SAFETY: as above.
unsafe impl Pod for u64 {}
// SAFETY: as above.
unsafe impl Pod for i64 {}
// SAFETY: as above.
unsafe impl Pod for f32 {}
// SAFETY: as above.
unsafe impl Pod for f64 {}
// SAFETY: arrays of padding-free types have no padding.
unsafe impl<T: Pod, const N: usize> Pod for [T; N] {}

/// The bytes of a slice of plain data.
pub fn as_bytes<T: Pod>(v: &[T]) -> &[u8] {
    // SAFETY: `T: Pod` has no padding, so every byte of the slice is initialized.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

fn as_bytes_mut<T: Pod>(v: &mut [T]) -> &mut [u8] {
    // SAFETY: `T: Pod` accepts any bit pattern and has no padding.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

/// One kernel argument.
pub enum Arg<'a> {
    /// A buffer initialized from these bytes and only read back if `out`.
    Buffer {
        /// The buffer's contents before the launch, and after it if `out`.
        bytes: &'a mut [u8],
        /// Whether to read the buffer back into `bytes` after the launch.
        out: bool,
    },
    /// A read-only buffer initialized from these bytes.
    Input(&'a [u8]),
    /// A read-only buffer on these bytes themselves
    /// (`CL_MEM_USE_HOST_PTR`: memory the caller placed, such as a
    /// [`crate::fenced::Fenced`] one).
    HostInput(&'a [u8]),
    /// A NULL buffer argument.
    NullBuffer,
    /// A `__local` pointer of this many bytes.
    Local(usize),
    /// A value passed by value (scalar, vector or struct bytes).
    Value(Vec<u8>),
    /// A sub-buffer at byte `offset` of a larger parent buffer (the
    /// parent's other bytes are 0xA5), holding these bytes and read back
    /// into them after the launch.
    SubBuffer {
        /// The sub-buffer's contents before and after the launch.
        bytes: &'a mut [u8],
        /// The sub-buffer's origin in its parent: a multiple of the
        /// device's CL_DEVICE_MEM_BASE_ADDR_ALIGN (in bits) / 8.
        offset: usize,
    },
}

impl<'a> Arg<'a> {
    /// A read-only buffer on `v` itself ([`Arg::HostInput`]).
    pub fn host_input<T: Pod>(v: &'a [T]) -> Arg<'a> {
        Arg::HostInput(as_bytes(v))
    }

    /// A buffer holding `v`, not read back.
    pub fn input<T: Pod>(v: &'a [T]) -> Arg<'a> {
        Arg::Input(as_bytes(v))
    }

    /// A buffer holding `v` before the launch, read back into `v` after it.
    pub fn output<T: Pod>(v: &'a mut [T]) -> Arg<'a> {
        Arg::Buffer {
            bytes: as_bytes_mut(v),
            out: true,
        }
    }

    /// A scalar or vector (as an array) by value.
    pub fn value<T: Pod>(v: T) -> Arg<'a> {
        Arg::Value(as_bytes(std::slice::from_ref(&v)).to_vec())
    }

    /// A value given as its bytes (a struct laid out by the test).
    pub fn bytes(b: &[u8]) -> Arg<'a> {
        Arg::Value(b.to_vec())
    }

    /// A sub-buffer holding `v` at byte `offset` of its parent, read back
    /// into `v` after the launch (see [`Arg::SubBuffer`]).
    pub fn sub_buffer<T: Pod>(v: &'a mut [T], offset: usize) -> Arg<'a> {
        Arg::SubBuffer {
            bytes: as_bytes_mut(v),
            offset,
        }
    }

    /// A buffer of raw bytes read back after the launch (structs).
    pub fn output_bytes(b: &'a mut [u8]) -> Arg<'a> {
        Arg::Buffer { bytes: b, out: true }
    }
}

/// clift's own build option asking for scalar bodies only.
pub const SCALAR_ONLY: &str = "-cl-clift-max-lanes=1";

/// The twin's build options: clift's own options asking for scalar
/// bodies only and for the Function variables kept in memory (what the
/// module says, done one work-item at a time).
pub const TWIN: &str = "-cl-clift-max-lanes=1 -cl-clift-keep-variables";

/// clift's own build option asking for the 8-lane bodies at the build.
pub const WIDE_AT_BUILD: &str = "-cl-clift-wide-at-build";

/// clift's own build option asking for 8-lane bodies wherever it can make
/// them, also where it estimates 4 lanes faster.
pub const WIDE: &str = "-cl-clift-min-lanes=8";

/// clift's own build option asking for 4-lane bodies alone: the code a
/// kernel runs until its 8-lane body is compiled after the build.
pub const NARROW: &str = "-cl-clift-max-lanes=4";

/// The global size of the tests of the lane builds ([`lane_builds`]).
pub const LANE_GLOBAL: usize = 104;

/// Their local sizes over [`LANE_GLOBAL`] work-items: none given, 8-lane
/// chunks (8, 52), 8-lane chunks and a 4-lane one with a work-item left
/// (13), a 4-lane chunk and scalar work-items (7), scalar work-items only
/// (2).
pub const LANE_LOCALS: [Option<usize>; 6] = [None, Some(8), Some(52), Some(13), Some(7), Some(2)];

/// Kernel `name` of corpus module `module` at `opt`, built three ways: as
/// clift chooses (8-lane bodies at the build, [`WIDE_AT_BUILD`]), with
/// [`NARROW`], and with [`WIDE`]. Panics if a build fails.
pub fn lane_builds<'a>(module: &str, opt: Opt, name: &str) -> [Kernel<'a>; 3] {
    let il = corpus_spirv(module, opt);
    ["", NARROW, WIDE].map(|o| Kernel::with_il(&il, name, o).unwrap_or_else(|e| panic!("{module} {name} {o}: {e}")))
}

/// How a kernel's program was made, to build it again for the twin.
enum Recipe {
    /// SPIR-V and the specialization constants set before the build.
    Il(Vec<u8>, Vec<(u32, Vec<u8>)>),
    /// OpenCL C source.
    Source(String),
}

/// The twin program of a built program (see the module documentation):
/// how to make it, and once made, the program.
struct Twin {
    recipe: Recipe,
    options: String,
    program: Option<cl_program>,
}

impl Drop for Twin {
    fn drop(&mut self) {
        if let Some(p) = self.program {
            // SAFETY: the program this value built, released once.
            unsafe { clReleaseProgram(p) };
        }
    }
}

/// A kernel of the execution corpus, built and ready to launch.
pub struct Kernel<'a> {
    ctx: cl_context,
    queue: cl_command_queue,
    program: cl_program,
    kernel: cl_kernel,
    name: String,
    args: Vec<Arg<'a>>,
    /// The twin program, shared with siblings (None when the build
    /// already asked for scalar bodies only).
    twin: Option<Rc<RefCell<Twin>>>,
    /// This kernel in the twin program, once made.
    twin_kernel: Option<cl_kernel>,
    /// Why the modes' results may differ ([`Kernel::modes_may_differ`]).
    differ: Option<String>,
    /// The arguments whose bytes may differ between modes
    /// ([`Kernel::arg_may_differ`], [`Kernel::bytes_may_differ`]).
    differing_args: Vec<MayDiffer>,
}

/// Bytes of an argument that may differ between execution modes, and why.
struct MayDiffer {
    /// The argument's index.
    index: usize,
    /// None: every byte; else the element size and the (offset, length)
    /// of the byte runs within each element.
    within: Option<(usize, Vec<(usize, usize)>)>,
    /// Why (named again when another byte differs).
    reason: String,
}

impl MayDiffer {
    /// Whether byte `at` of the argument may differ.
    fn covers(&self, at: usize) -> bool {
        match &self.within {
            None => true,
            Some((stride, runs)) => runs.iter().any(|&(o, len)| (o..o + len).contains(&(at % stride))),
        }
    }
}

impl<'a> Kernel<'a> {
    /// Kernel `name` of corpus module `module` at `opt`, built with no
    /// options (panics with the build log if the build fails).
    pub fn new(module: &str, opt: Opt, name: &str) -> Kernel<'a> {
        Kernel::with_il(&corpus_spirv(module, opt), name, "")
            .unwrap_or_else(|log| panic!("building {module} at {opt:?} failed:\n{log}"))
    }

    /// Kernel `name` of module `il` built with `options`, or the build log
    /// if the build fails.
    pub fn with_il(il: &[u8], name: &str, options: &str) -> Result<Kernel<'a>, String> {
        Kernel::with_spec(il, name, options, &[])
    }

    /// [`Kernel::with_il`] with the specialization constants `spec` (SpecId,
    /// value bytes) set before the build.
    pub fn with_spec(il: &[u8], name: &str, options: &str, spec: &[(u32, Vec<u8>)]) -> Result<Kernel<'a>, String> {
        let ctx = context();
        let recipe = Recipe::Il(il.to_vec(), spec.to_vec());
        Kernel::built(ctx, recipe.program(ctx), recipe, name, options)
    }

    /// Kernel `name` of the OpenCL C `source` built with `options`, or the
    /// build log if the build fails.
    pub fn with_source(source: &str, name: &str, options: &str) -> Result<Kernel<'a>, String> {
        let ctx = context();
        let recipe = Recipe::Source(source.to_string());
        Kernel::built(ctx, recipe.program(ctx), recipe, name, options)
    }

    /// Kernel `name` of `program` (of context `ctx`, both owned from here
    /// on, made by `recipe`) built with `options`.
    fn built(
        ctx: cl_context,
        program: cl_program,
        recipe: Recipe,
        name: &str,
        options: &str,
    ) -> Result<Kernel<'a>, String> {
        let queue = queue(ctx, 0);
        let rc = build(program, &format!("{options} {WIDE_AT_BUILD}"));
        if rc != CL_SUCCESS {
            let log = build_log(program, device());
            // SAFETY: handles this function created.
            unsafe {
                clReleaseProgram(program);
                clReleaseCommandQueue(queue);
                clReleaseContext(ctx);
            }
            return Err(format!("{} ({rc}):\n{log}", error_name(rc)));
        }
        assert_four_lane_code_compiled(program, &format!("kernel {name:?}"));
        let kernel = kernel(program, name);
        // The last -cl-clift-max-lanes counts.
        let lanes = options
            .split_whitespace()
            .rfind(|w| w.starts_with("-cl-clift-max-lanes="));
        let scalar_only = lanes == Some(SCALAR_ONLY);
        let twin = (!scalar_only).then(|| {
            Rc::new(RefCell::new(Twin {
                recipe,
                options: format!("{options} {TWIN}"),
                program: None,
            }))
        });
        Ok(Kernel {
            ctx,
            queue,
            program,
            kernel,
            name: name.to_string(),
            args: Vec::new(),
            twin,
            twin_kernel: None,
            differ: None,
            differing_args: Vec::new(),
        })
    }

    /// Says that this kernel's results may differ between execution modes
    /// as the spec allows, for `reason` (order-dependent atomics, printf
    /// output, unspecified values): launches then run in the built mode
    /// only.
    pub fn modes_may_differ(mut self, reason: &str) -> Kernel<'a> {
        assert!(!reason.trim().is_empty(), "a reason is required");
        self.differ = Some(reason.to_string());
        self
    }

    /// Says that argument `index`'s bytes may differ between execution
    /// modes as the spec allows, for `reason` (values an atomic returns,
    /// which depend on the order work-items ran in): launches still run in
    /// every mode and compare the other arguments.
    pub fn arg_may_differ(mut self, index: usize, reason: &str) -> Kernel<'a> {
        assert!(!reason.trim().is_empty(), "a reason is required");
        self.differing_args.push(MayDiffer {
            index,
            within: None,
            reason: reason.to_string(),
        });
        self
    }

    /// Says that in argument `index`, an array of elements of `stride`
    /// bytes, the `runs` (offset, length) of each element may differ between
    /// execution modes, for `reason` (the padding of structs written member
    /// by member, which the spec leaves unspecified; one counter of several
    /// whose final value depends on the order work-items ran in): every
    /// other byte is still compared.
    pub fn bytes_may_differ(
        mut self,
        index: usize,
        stride: usize,
        runs: &[(usize, usize)],
        reason: &str,
    ) -> Kernel<'a> {
        assert!(!reason.trim().is_empty(), "a reason is required");
        assert!(stride > 0, "elements have a size");
        self.differing_args.push(MayDiffer {
            index,
            within: Some((stride, runs.to_vec())),
            reason: reason.to_string(),
        });
        self
    }

    /// The `cl_kernel`, for tests that query it.
    pub fn handle(&self) -> cl_kernel {
        self.kernel
    }

    /// `clGetKernelWorkGroupInfo` for clift's device as a value of type `T`.
    pub fn work_group_info<T: Copy>(&self, param: cl_kernel_work_group_info) -> T {
        work_group_value(self.kernel, param)
    }

    /// Another kernel, `name`, of the same built program, on the same
    /// context and in-order queue (panics if there is no such kernel).
    pub fn sibling<'b>(&self, name: &str) -> Kernel<'b> {
        // SAFETY: handles this value owns; each sibling holds a reference.
        unsafe {
            check(clRetainContext(self.ctx));
            check(clRetainCommandQueue(self.queue));
            check(clRetainProgram(self.program));
        }
        Kernel {
            ctx: self.ctx,
            queue: self.queue,
            program: self.program,
            kernel: kernel(self.program, name),
            name: name.to_string(),
            args: Vec::new(),
            twin: self.twin.clone(),
            twin_kernel: None,
            differ: None,
            differing_args: Vec::new(),
        }
    }

    /// The program's build log for clift's device.
    pub fn build_log(&self) -> String {
        build_log(self.program, device())
    }

    /// Appends the next argument.
    pub fn arg(mut self, a: Arg<'a>) -> Kernel<'a> {
        self.args.push(a);
        self
    }

    /// Runs the kernel over `global` (1 to 3 dimensions) with local size
    /// `local` (NULL if None) and no offset; panics on error. Releases
    /// everything, so the output slices can be read afterwards.
    pub fn run(self, global: &[usize], local: Option<&[usize]>) {
        self.run_with_offset(None, global, local);
    }

    /// [`Kernel::run`] with a global offset (NULL if None).
    pub fn run_with_offset(mut self, offset: Option<&[usize]>, global: &[usize], local: Option<&[usize]>) {
        let r = self.launch(offset, global, local);
        self.check_launch(r);
    }

    /// Runs the kernel with clEnqueueTask; panics on error.
    pub fn run_task(mut self) {
        let r = self.launch_task();
        self.check_launch(r);
    }

    /// The build-log lines about this kernel (the whole log if none).
    pub fn build_log_lines(&self) -> String {
        let log = self.build_log();
        let tag = format!("kernel \"{}\"", self.name);
        let mine: Vec<&str> = log.lines().filter(|l| l.contains(&tag)).collect();
        if mine.is_empty() {
            log
        } else {
            mine.join("\n")
        }
    }

    #[track_caller]
    fn check_launch(&self, r: cl_int) {
        assert!(
            r == CL_SUCCESS,
            "enqueueing kernel {:?} failed with {} ({r}); build log:\n{}",
            self.name,
            error_name(r),
            self.build_log_lines()
        );
    }

    /// Sets the arguments, enqueues clEnqueueNDRangeKernel with `offset`,
    /// `global` and `local`, waits, and reads output buffers back. Returns
    /// the enqueue's error code (CL_SUCCESS if it ran).
    pub fn launch(&mut self, offset: Option<&[usize]>, global: &[usize], local: Option<&[usize]>) -> cl_int {
        let dims = global.len() as cl_uint;
        let queue = self.queue;
        self.launch_with(|kernel, ev| {
            // SAFETY: the slices have `dims` entries each (or are NULL).
            unsafe {
                clEnqueueNDRangeKernel(
                    queue,
                    kernel,
                    dims,
                    offset.map_or(ptr::null(), |o| o.as_ptr()),
                    global.as_ptr(),
                    local.map_or(ptr::null(), |l| l.as_ptr()),
                    0,
                    ptr::null(),
                    ev,
                )
            }
        })
    }

    /// [`Kernel::launch`] with clEnqueueTask.
    #[allow(deprecated)]
    pub fn launch_task(&mut self) -> cl_int {
        let queue = self.queue;
        // SAFETY: valid handles and event slot.
        self.launch_with(|kernel, ev| unsafe { clEnqueueTask(queue, kernel, 0, ptr::null(), ev) })
    }

    /// Launches with `enqueue` (given the kernel and the event slot) in
    /// every execution mode (see the module documentation) and returns the
    /// built mode's enqueue code.
    fn launch_with(&mut self, enqueue: impl Fn(cl_kernel, *mut cl_event) -> cl_int) -> cl_int {
        let before = self.read_back();
        let rc = self.launch_on(self.kernel, &enqueue);
        if rc != CL_SUCCESS || self.differ.is_some() {
            return rc;
        }
        let Some(twin) = self.twin_kernel() else {
            return rc;
        };
        let results = self.read_back();
        self.restore(&before);
        let twin_rc = self.launch_on(twin, &enqueue);
        assert!(
            twin_rc == CL_SUCCESS,
            "kernel {:?} ran, but with {TWIN} its enqueue failed with {} ({twin_rc})",
            self.name,
            error_name(twin_rc)
        );
        let scalar = self.read_back();
        for ((i, built), (_, alone)) in results.iter().zip(&scalar) {
            let may: Vec<&MayDiffer> = self.differing_args.iter().filter(|d| d.index == *i).collect();
            let differs = |at: usize| built[at] != alone[at] && !may.iter().any(|d| d.covers(at));
            if let Some(at) = (0..built.len().min(alone.len())).find(|&at| differs(at)) {
                let show = |b: &[u8]| {
                    let end = (at + 8).min(b.len());
                    format!("{:02x?}", &b[at..end])
                };
                let excused: Vec<String> = self
                    .differing_args
                    .iter()
                    .map(|d| format!("\n(argument {} may differ: {})", d.index, d.reason))
                    .collect();
                panic!(
                    "kernel {:?}: argument {i} differs between execution modes at byte {at} of {}: \
                     {} as built (vector bodies, variables promoted), {} with {TWIN} (bytes from there on){}",
                    self.name,
                    built.len(),
                    show(built),
                    show(alone),
                    excused.concat()
                );
            }
        }
        rc
    }

    /// The bytes of the arguments read back after a launch, by index.
    fn read_back(&self) -> Vec<(usize, Vec<u8>)> {
        self.args
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Arg::Buffer { bytes, out: true } | Arg::SubBuffer { bytes, .. } => Some((i, bytes.to_vec())),
                _ => None,
            })
            .collect()
    }

    /// Puts back the bytes [`Kernel::read_back`] took.
    fn restore(&mut self, saved: &[(usize, Vec<u8>)]) {
        for (i, b) in saved {
            if let Arg::Buffer { bytes, out: true } | Arg::SubBuffer { bytes, .. } = &mut self.args[*i] {
                bytes.copy_from_slice(b);
            }
        }
    }

    /// This kernel in the twin program, which is built at the first call
    /// (panics with its log if that build fails); None without a twin.
    fn twin_kernel(&mut self) -> Option<cl_kernel> {
        if self.twin_kernel.is_none() {
            let twin = self.twin.as_ref()?;
            let mut t = twin.borrow_mut();
            let program = match t.program {
                Some(p) => p,
                None => {
                    let p = t.recipe.program(self.ctx);
                    t.program = Some(p);
                    let rc = build(p, &t.options);
                    assert!(
                        rc == CL_SUCCESS,
                        "kernel {:?} built, but not with {TWIN}: {} ({rc}):\n{}",
                        self.name,
                        error_name(rc),
                        build_log(p, device())
                    );
                    p
                }
            };
            self.twin_kernel = Some(kernel(program, &self.name));
        }
        self.twin_kernel
    }

    /// One launch of `kernel` (this kernel or its twin) with the
    /// arguments: sets them, enqueues, waits, and reads the outputs back.
    fn launch_on(&mut self, kernel: cl_kernel, enqueue: &impl Fn(cl_kernel, *mut cl_event) -> cl_int) -> cl_int {
        let mut mems: Vec<(cl_mem, usize)> = Vec::new();
        let (ctx, queue) = (self.ctx, self.queue);
        for (i, a) in self.args.iter_mut().enumerate() {
            let i = i as cl_uint;
            let rc = match a {
                Arg::Buffer { bytes, .. } => {
                    let m = buffer_from(ctx, queue, bytes);
                    mems.push((m, i as usize));
                    set_arg(kernel, i, &m)
                }
                Arg::Input(bytes) => {
                    let m = buffer_from(ctx, queue, bytes);
                    mems.push((m, i as usize));
                    set_arg(kernel, i, &m)
                }
                Arg::HostInput(bytes) => {
                    let mut err = 0;
                    // SAFETY: the bytes outlive the launch (borrowed for
                    // 'a); the buffer is read-only, so the pointer's
                    // constness is kept.
                    let m = unsafe {
                        clCreateBuffer(
                            ctx,
                            CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                            bytes.len(),
                            bytes.as_ptr() as *mut c_void,
                            &mut err,
                        )
                    };
                    check(err);
                    mems.push((m, i as usize));
                    set_arg(kernel, i, &m)
                }
                Arg::SubBuffer { bytes, offset } => {
                    let mut parent_bytes = vec![0xa5u8; *offset + bytes.len() + 64];
                    parent_bytes[*offset..*offset + bytes.len()].copy_from_slice(bytes);
                    let parent = buffer_from(ctx, queue, &parent_bytes);
                    let m = sub_buffer(parent, CL_MEM_READ_WRITE, *offset, bytes.len().max(1))
                        .unwrap_or_else(|e| panic!("clCreateSubBuffer: {}", error_name(e)));
                    // The sub-buffer holds its parent alive.
                    release_mem(parent);
                    mems.push((m, i as usize));
                    set_arg(kernel, i, &m)
                }
                Arg::NullBuffer => {
                    // SAFETY: a NULL cl_mem value of the right size.
                    unsafe { clSetKernelArg(kernel, i, std::mem::size_of::<cl_mem>(), ptr::null()) }
                }
                // SAFETY: a __local argument takes a size and a NULL value.
                Arg::Local(n) => unsafe { clSetKernelArg(kernel, i, *n, ptr::null()) },
                // SAFETY: `v` is readable for its length.
                Arg::Value(v) => unsafe { clSetKernelArg(kernel, i, v.len(), v.as_ptr().cast()) },
            };
            check(rc);
        }
        let mut ev = ptr::null_mut();
        let rc = enqueue(kernel, &mut ev);
        if rc == CL_SUCCESS {
            // SAFETY: the event the enqueue returned.
            unsafe {
                check(clWaitForEvents(1, &ev));
                let mut status: cl_int = 0;
                check(clGetEventInfo(
                    ev,
                    CL_EVENT_COMMAND_EXECUTION_STATUS,
                    std::mem::size_of::<cl_int>(),
                    (&mut status as *mut cl_int).cast::<c_void>(),
                    ptr::null_mut(),
                ));
                assert_eq!(status, CL_COMPLETE, "the kernel command failed");
                clReleaseEvent(ev);
            }
            for &(m, i) in &mems {
                match &mut self.args[i] {
                    Arg::Buffer { bytes, out: true } | Arg::SubBuffer { bytes, .. } => {
                        let back = read_bytes(self.queue, m, 0, bytes.len());
                        bytes.copy_from_slice(&back);
                    }
                    _ => {}
                }
            }
        }
        for (m, _) in mems {
            release_mem(m);
        }
        rc
    }
}

/// A read-write buffer of `ctx` holding `bytes` (one byte if empty).
fn buffer_from(ctx: cl_context, queue: cl_command_queue, bytes: &[u8]) -> cl_mem {
    let m = buffer(ctx, CL_MEM_READ_WRITE, bytes.len().max(1));
    if !bytes.is_empty() {
        write_bytes(queue, m, 0, bytes);
    }
    m
}

impl Recipe {
    /// A new, unbuilt program of `ctx` from this recipe.
    fn program(&self, ctx: cl_context) -> cl_program {
        match self {
            Recipe::Il(il, spec) => {
                let program = il_program(ctx, il);
                for (id, bytes) in spec {
                    // SAFETY: `bytes` is readable for its length.
                    check(unsafe {
                        clSetProgramSpecializationConstant(program, *id, bytes.len(), bytes.as_ptr().cast())
                    });
                }
                program
            }
            Recipe::Source(src) => crate::programs::source_program(ctx, src),
        }
    }
}

impl Drop for Kernel<'_> {
    fn drop(&mut self) {
        // SAFETY: handles this value owns.
        unsafe {
            if let Some(k) = self.twin_kernel {
                clReleaseKernel(k);
            }
            // The twin program (if this was its last kernel) before the context.
            drop(self.twin.take());
            clReleaseKernel(self.kernel);
            clReleaseProgram(self.program);
            clReleaseCommandQueue(self.queue);
            clReleaseContext(self.ctx);
        }
    }
}
