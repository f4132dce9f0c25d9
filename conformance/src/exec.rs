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

use std::ffi::c_void;
use std::ptr;

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

/// A kernel of the execution corpus, built and ready to launch.
pub struct Kernel<'a> {
    ctx: cl_context,
    queue: cl_command_queue,
    program: cl_program,
    kernel: cl_kernel,
    name: String,
    args: Vec<Arg<'a>>,
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
        let program = il_program(ctx, il);
        for (id, bytes) in spec {
            // SAFETY: `bytes` is readable for its length.
            check(unsafe { clSetProgramSpecializationConstant(program, *id, bytes.len(), bytes.as_ptr().cast()) });
        }
        Kernel::built(ctx, program, name, options)
    }

    /// Kernel `name` of the OpenCL C `source` built with `options`, or the
    /// build log if the build fails.
    pub fn with_source(source: &str, name: &str, options: &str) -> Result<Kernel<'a>, String> {
        let ctx = context();
        Kernel::built(ctx, crate::programs::source_program(ctx, source), name, options)
    }

    /// Kernel `name` of `program` (of context `ctx`, both owned from here
    /// on) built with `options`.
    fn built(ctx: cl_context, program: cl_program, name: &str, options: &str) -> Result<Kernel<'a>, String> {
        let queue = queue(ctx, 0);
        let rc = build(program, options);
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
        let kernel = kernel(program, name);
        Ok(Kernel {
            ctx,
            queue,
            program,
            kernel,
            name: name.to_string(),
            args: Vec::new(),
        })
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
        let (queue, kernel) = (self.queue, self.kernel);
        self.launch_with(|ev| {
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
        let (queue, kernel) = (self.queue, self.kernel);
        // SAFETY: valid handles and event slot.
        self.launch_with(|ev| unsafe { clEnqueueTask(queue, kernel, 0, ptr::null(), ev) })
    }

    fn launch_with(&mut self, enqueue: impl FnOnce(*mut cl_event) -> cl_int) -> cl_int {
        let mut mems: Vec<(cl_mem, usize)> = Vec::new();
        let (ctx, queue) = (self.ctx, self.queue);
        for (i, a) in self.args.iter_mut().enumerate() {
            let i = i as cl_uint;
            let rc = match a {
                Arg::Buffer { bytes, .. } => {
                    let m = buffer_from(ctx, queue, bytes);
                    mems.push((m, i as usize));
                    set_arg(self.kernel, i, &m)
                }
                Arg::Input(bytes) => {
                    let m = buffer_from(ctx, queue, bytes);
                    mems.push((m, i as usize));
                    set_arg(self.kernel, i, &m)
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
                    set_arg(self.kernel, i, &m)
                }
                Arg::NullBuffer => {
                    // SAFETY: a NULL cl_mem value of the right size.
                    unsafe { clSetKernelArg(self.kernel, i, std::mem::size_of::<cl_mem>(), ptr::null()) }
                }
                // SAFETY: a __local argument takes a size and a NULL value.
                Arg::Local(n) => unsafe { clSetKernelArg(self.kernel, i, *n, ptr::null()) },
                // SAFETY: `v` is readable for its length.
                Arg::Value(v) => unsafe { clSetKernelArg(self.kernel, i, v.len(), v.as_ptr().cast()) },
            };
            check(rc);
        }
        let mut ev = ptr::null_mut();
        let rc = enqueue(&mut ev);
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

impl Drop for Kernel<'_> {
    fn drop(&mut self) {
        // SAFETY: handles this value owns.
        unsafe {
            clReleaseKernel(self.kernel);
            clReleaseProgram(self.program);
            clReleaseCommandQueue(self.queue);
            clReleaseContext(self.ctx);
        }
    }
}
