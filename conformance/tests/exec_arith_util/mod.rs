//! Shared by the `exec_arith_*` tests: one corpus module built once and many
//! of its kernels run on byte buffers (the arithmetic modules hold hundreds
//! of small kernels; building the module per kernel would dominate).
//!
//! Every run happens in each of clift's execution modes, as
//! `clift_conformance::exec` does it: the module as built and again built
//! with `-cl-clift-max-lanes=1` (scalar bodies only); their outputs must be
//! the same bytes.

#![allow(dead_code)]

use std::cell::Cell;
use std::ptr;

use clift_conformance::exec::{corpus_spirv, Opt, SCALAR_ONLY};
use clift_conformance::*;

/// An OpenCL C integer type.
#[derive(Debug, Clone, Copy)]
pub struct IntTy {
    pub name: &'static str,
    pub bits: u32,
    pub signed: bool,
}

/// The eight OpenCL C integer types, narrowest first, signed before
/// unsigned.
pub const INT_TYPES: [IntTy; 8] = [
    IntTy {
        name: "char",
        bits: 8,
        signed: true,
    },
    IntTy {
        name: "uchar",
        bits: 8,
        signed: false,
    },
    IntTy {
        name: "short",
        bits: 16,
        signed: true,
    },
    IntTy {
        name: "ushort",
        bits: 16,
        signed: false,
    },
    IntTy {
        name: "int",
        bits: 32,
        signed: true,
    },
    IntTy {
        name: "uint",
        bits: 32,
        signed: false,
    },
    IntTy {
        name: "long",
        bits: 64,
        signed: true,
    },
    IntTy {
        name: "ulong",
        bits: 64,
        signed: false,
    },
];

/// A built corpus module.
pub struct Module {
    ctx: cl_context,
    queue: cl_command_queue,
    program: cl_program,
    /// The module's SPIR-V, to build the twin from.
    il: Vec<u8>,
    /// The module built with scalar bodies only, once a run needed it.
    twin: Cell<Option<cl_program>>,
    pub name: String,
    pub opt: Opt,
}

impl Module {
    /// Corpus module `name` at `opt`, built (panics with the log if not).
    pub fn new(name: &str, opt: Opt) -> Module {
        Module::with_il(&corpus_spirv(name, opt), name, opt)
    }

    /// The module `il`, built (panics with the log if not).
    pub fn with_il(il: &[u8], name: &str, opt: Opt) -> Module {
        let ctx = context();
        let queue = queue(ctx, 0);
        let program = il_program(ctx, il);
        let rc = build(program, "");
        assert_eq!(
            rc,
            CL_SUCCESS,
            "building {name} at {opt:?}:\n{}",
            build_log(program, device())
        );
        assert_four_lane_code_compiled(program, &format!("{name} at {opt:?}"));
        Module {
            ctx,
            queue,
            program,
            il: il.to_vec(),
            twin: Cell::new(None),
            name: name.into(),
            opt,
        }
    }

    /// The module built with scalar bodies only (panics with the log if
    /// that fails).
    fn twin(&self) -> cl_program {
        if let Some(p) = self.twin.get() {
            return p;
        }
        let p = il_program(self.ctx, &self.il);
        self.twin.set(Some(p));
        let rc = build(p, SCALAR_ONLY);
        assert_eq!(
            rc,
            CL_SUCCESS,
            "building {} at {:?} with {SCALAR_ONLY}:\n{}",
            self.name,
            self.opt,
            build_log(p, device())
        );
        p
    }

    /// Runs kernel `kernel` over `items` work-items with one buffer per
    /// entry of `inputs` then one output buffer of `out_len` bytes
    /// (initialized to 0xAB), and returns the output's bytes.
    pub fn run(&self, kernel: &str, inputs: &[&[u8]], out_len: usize, items: usize) -> Vec<u8> {
        self.run_outs(kernel, inputs, &[out_len], items).remove(0)
    }

    /// Like [`Module::run`] with one output buffer per entry of `outs` (its
    /// length in bytes), after the inputs.
    pub fn run_outs(&self, kernel: &str, inputs: &[&[u8]], outs: &[usize], items: usize) -> Vec<Vec<u8>> {
        let built = self.run_in(self.program, kernel, inputs, outs, items);
        let alone = self.run_in(self.twin(), kernel, inputs, outs, items);
        for (o, (b, a)) in built.iter().zip(&alone).enumerate() {
            if let Some(at) = b.iter().zip(a).position(|(x, y)| x != y) {
                let end = (at + 8).min(b.len());
                panic!(
                    "{} {:?}: kernel {kernel:?}: output {o} differs between execution modes at byte {at}: \
                     {:02x?} with 4-lane bodies, {:02x?} with {SCALAR_ONLY} (bytes from there on)",
                    self.name,
                    self.opt,
                    &b[at..end],
                    &a[at..end]
                );
            }
        }
        built
    }

    /// [`Module::run_outs`] on `program` (the module or its twin).
    fn run_in(
        &self,
        program: cl_program,
        kernel: &str,
        inputs: &[&[u8]],
        outs: &[usize],
        items: usize,
    ) -> Vec<Vec<u8>> {
        let k = clift_conformance::kernel(program, kernel);
        let mut mems = Vec::new();
        for bytes in inputs {
            let m = buffer(self.ctx, CL_MEM_READ_WRITE, bytes.len().max(1));
            if !bytes.is_empty() {
                write_bytes(self.queue, m, 0, bytes);
            }
            mems.push(m);
        }
        for &len in outs {
            let m = buffer(self.ctx, CL_MEM_READ_WRITE, len.max(1));
            write_bytes(self.queue, m, 0, &vec![0xAB; len.max(1)]);
            mems.push(m);
        }
        for (i, m) in mems.iter().enumerate() {
            check(set_arg(k, i as cl_uint, m));
        }
        let global = [items];
        // SAFETY: valid handles; one dimension; no offset, local size or events.
        let rc = unsafe {
            clEnqueueNDRangeKernel(
                self.queue,
                k,
                1,
                ptr::null(),
                global.as_ptr(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        check(rc);
        // SAFETY: a valid queue.
        check(unsafe { clFinish(self.queue) });
        let back = outs
            .iter()
            .zip(&mems[inputs.len()..])
            .map(|(&len, &m)| read_bytes(self.queue, m, 0, len))
            .collect();
        for m in mems {
            release_mem(m);
        }
        // SAFETY: the kernel created above.
        unsafe { clReleaseKernel(k) };
        back
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        // SAFETY: handles this value owns.
        unsafe {
            if let Some(p) = self.twin.get() {
                clReleaseProgram(p);
            }
            clReleaseProgram(self.program);
            clReleaseCommandQueue(self.queue);
            clReleaseContext(self.ctx);
        }
    }
}

/// Little-endian bytes of the low `bytes` bytes of each value.
pub fn to_bytes(v: &[u64], bytes: usize) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()[..bytes].to_vec()).collect()
}

/// Values of `bytes` bytes each, zero-extended.
pub fn from_bytes(b: &[u8], bytes: usize) -> Vec<u64> {
    b.chunks(bytes)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..bytes].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect()
}

/// `v`'s low `bits` bits, sign-extended.
pub fn sx(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

/// The mask of `bits` low bits.
pub fn mask(bits: u32) -> u64 {
    if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}
