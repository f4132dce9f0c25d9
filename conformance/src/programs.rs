//! OpenCL C programs for the source, compile and link tests
//! (`program_source.rs`, `program_link.rs`, `program.rs`): creating them
//! from source, clCompileProgram and clLinkProgram, binaries through
//! CL_PROGRAM_BINARIES and clCreateProgramWithBinary, running a kernel that
//! fills a `global int*`, and build callbacks.

use std::ffi::{c_char, c_void, CString};
use std::ptr;
use std::sync::atomic::{AtomicI32, Ordering};

use crate::*;

/// A program from the OpenCL C source `src` in `ctx` (panics on error).
pub fn source_program(ctx: cl_context, src: &str) -> cl_program {
    let s = CString::new(src).expect("source without NUL");
    let strings = [s.as_ptr()];
    let mut err = 0;
    // SAFETY: one NUL-terminated string; lengths NULL.
    let p = unsafe { clCreateProgramWithSource(ctx, 1, strings.as_ptr() as *mut *const c_char, ptr::null(), &mut err) };
    check(err);
    p
}

/// clCompileProgram for every device of `p` with `options` (NULL if None)
/// and the embedded headers `headers` (include name, program), no
/// callback: the returned code.
pub fn compile(p: cl_program, options: Option<&str>, headers: &[(&str, cl_program)]) -> cl_int {
    let opts = options.map(|o| CString::new(o).expect("options without NUL"));
    let names: Vec<CString> = headers
        .iter()
        .map(|(n, _)| CString::new(*n).expect("header name without NUL"))
        .collect();
    let name_ptrs: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
    let progs: Vec<cl_program> = headers.iter().map(|(_, p)| *p).collect();
    let (hp, np) = if headers.is_empty() {
        (ptr::null(), ptr::null_mut())
    } else {
        (progs.as_ptr(), name_ptrs.as_ptr() as *mut *const c_char)
    };
    // SAFETY: valid lists of `headers.len()` entries (or NULL), options
    // NUL-terminated or NULL; no callback.
    unsafe {
        clCompileProgram(
            p,
            0,
            ptr::null(),
            opts.as_ref().map_or(ptr::null(), |o| o.as_ptr()),
            headers.len() as cl_uint,
            hp,
            np,
            None,
            ptr::null_mut(),
        )
    }
}

/// clLinkProgram of `inputs` with `options`, no callback: the program
/// (possibly NULL) and the code.
pub fn link(ctx: cl_context, inputs: &[cl_program], options: &str) -> (cl_program, cl_int) {
    let opts = CString::new(options).expect("options without NUL");
    let mut err = 0;
    // SAFETY: `inputs` holds `inputs.len()` handles; no callback.
    let p = unsafe {
        clLinkProgram(
            ctx,
            0,
            ptr::null(),
            opts.as_ptr(),
            inputs.len() as cl_uint,
            inputs.as_ptr(),
            None,
            ptr::null_mut(),
            &mut err,
        )
    };
    (p, err)
}

/// CL_PROGRAM_BINARIES of a one-device program (panics unless there is a
/// binary).
pub fn program_binary(p: cl_program) -> Vec<u8> {
    let sizes = program_bytes(p, CL_PROGRAM_BINARY_SIZES).expect("CL_PROGRAM_BINARY_SIZES");
    let size = usize::from_ne_bytes(sizes[..8].try_into().expect("one size"));
    assert!(size > 0, "a binary is available");
    let mut bin = vec![0u8; size];
    let mut ptrs = [bin.as_mut_ptr()];
    // SAFETY: one pointer to `size` writable bytes.
    check(unsafe {
        clGetProgramInfo(
            p,
            CL_PROGRAM_BINARIES,
            std::mem::size_of_val(&ptrs),
            ptrs.as_mut_ptr().cast::<c_void>(),
            ptr::null_mut(),
        )
    });
    bin
}

/// clCreateProgramWithBinary for clift's device: the program, or the error
/// (the binary status must agree with it).
pub fn binary_program(ctx: cl_context, bin: &[u8]) -> Result<cl_program, cl_int> {
    let d = [device()];
    let lens = [bin.len()];
    let bins = [bin.as_ptr()];
    let (mut status, mut err) = (0, 0);
    // SAFETY: one device, one binary readable for its length.
    let p = unsafe {
        clCreateProgramWithBinary(
            ctx,
            1,
            d.as_ptr(),
            lens.as_ptr(),
            bins.as_ptr() as *mut _,
            &mut status,
            &mut err,
        )
    };
    if err == CL_SUCCESS {
        assert_eq!(status, CL_SUCCESS);
        Ok(p)
    } else {
        assert_eq!(status, err);
        Err(err)
    }
}

/// Runs kernel `name` of `p` (one `global int*` argument, zeroed first)
/// over `n` work-items with local size `local` (NULL if None); returns the
/// enqueue's code and the buffer's `n` ints.
pub fn run_ints_local(
    ctx: cl_context,
    p: cl_program,
    name: &str,
    n: usize,
    local: Option<usize>,
) -> (cl_int, Vec<i32>) {
    let q = queue(ctx, 0);
    let k = kernel(p, name);
    let m = buffer(ctx, CL_MEM_READ_WRITE, n * 4);
    write_bytes(q, m, 0, &vec![0u8; n * 4]);
    check(set_arg(k, 0, &m));
    let global = [n];
    let l = local.map(|l| [l]);
    // SAFETY: valid handles; one dimension.
    let rc = unsafe {
        clEnqueueNDRangeKernel(
            q,
            k,
            1,
            ptr::null(),
            global.as_ptr(),
            l.as_ref().map_or(ptr::null(), |l| l.as_ptr()),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    let out = read_bytes(q, m, 0, n * 4)
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    release_mem(m);
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseKernel(k));
        check(clReleaseCommandQueue(q));
    }
    (rc, out)
}

/// [`run_ints_local`] with no local size, panicking if the enqueue fails.
pub fn run_ints(ctx: cl_context, p: cl_program, name: &str, n: usize) -> Vec<i32> {
    let (rc, out) = run_ints_local(ctx, p, name, n, None);
    check(rc);
    out
}

/// CL_PROGRAM_BUILD_STATUS of `p` for clift's device.
pub fn build_status(p: cl_program) -> cl_build_status {
    build_value(p, device(), CL_PROGRAM_BUILD_STATUS)
}

/// CL_PROGRAM_BINARY_TYPE of `p` for clift's device.
pub fn binary_type(p: cl_program) -> cl_program_binary_type {
    build_value(p, device(), CL_PROGRAM_BINARY_TYPE)
}

/// `clGetKernelArgInfo` of argument `i` of `k` as a string (panics on error).
pub fn arg_string(k: cl_kernel, i: cl_uint, param: cl_kernel_arg_info) -> String {
    // SAFETY: forwards the buffer protocol of `info_string`.
    info_string(|sz, v, r| unsafe { clGetKernelArgInfo(k, i, param, sz, v, r) })
}

/// `clGetKernelArgInfo` of argument `i` of `k` as a value of type `T`
/// (panics on error or on a size other than `T`'s).
pub fn arg_value<T: Copy>(k: cl_kernel, i: cl_uint, param: cl_kernel_arg_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|sz, v, r| unsafe { clGetKernelArgInfo(k, i, param, sz, v, r) })
}

/// Releases a program (panics on error).
pub fn release_program(p: cl_program) {
    // SAFETY: the caller passes a program it owns, released once.
    check(unsafe { clReleaseProgram(p) });
}

/// Releases a context (panics on error).
pub fn release_context(ctx: cl_context) {
    // SAFETY: the caller passes a context it owns, released once.
    check(unsafe { clReleaseContext(ctx) });
}

/// What a [`StatusSlot`] holds until a callback stores a build status.
const NO_STATUS: i32 = 99;

/// Where [`record_status`] puts the build status a build, compile or link
/// callback sees; pass [`StatusSlot::user_data`] with it.
pub struct StatusSlot(AtomicI32);

impl Default for StatusSlot {
    fn default() -> Self {
        StatusSlot(AtomicI32::new(NO_STATUS))
    }
}

impl StatusSlot {
    /// The `user_data` argument for [`record_status`]; the slot must
    /// outlive the call back.
    pub fn user_data(&self) -> *mut c_void {
        &self.0 as *const AtomicI32 as *mut c_void
    }

    /// Empties the slot for the next callback.
    pub fn reset(&self) {
        self.0.store(NO_STATUS, Ordering::SeqCst);
    }

    /// Waits (up to two minutes, else panics) for the callback and returns
    /// the status it saw.
    pub fn wait(&self) -> cl_build_status {
        let start = std::time::Instant::now();
        while self.0.load(Ordering::SeqCst) == NO_STATUS {
            assert!(start.elapsed().as_secs() < 120, "no callback");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        self.0.load(Ordering::SeqCst)
    }
}

/// A build, compile or link callback that stores the program's
/// CL_PROGRAM_BUILD_STATUS, as observed from inside the callback, in the
/// [`StatusSlot`] whose [`StatusSlot::user_data`] it is given.
pub extern "C" fn record_status(p: cl_program, user: *mut c_void) {
    let status = build_status(p);
    // SAFETY: `user` is a StatusSlot's AtomicI32, alive until it sees a value.
    let slot = unsafe { &*(user as *const AtomicI32) };
    slot.store(status, Ordering::SeqCst);
}
