//! Specialization constants in running code: a hand-written module
//! (`kernels/spv/hand/spec_exec.spvasm`; clang cannot make them) whose
//! kernel stores spec constants of every scalar type and values computed from
//! them with OpSpecConstantOp (IAdd, UConvert, SConvert, Select, IMul,
//! ShiftLeftLogical, FMul, ConvertFToS, SDiv, ULessThan, Bitcast between
//! one and two lanes, CompositeExtract) and
//! OpSpecConstantComposite, with the module's defaults, with values set by
//! clSetProgramSpecializationConstant, and after a round trip through the
//! program binary.

use std::ptr;

use clift_conformance::*;

const N: usize = 20;

fn spec_module() -> Vec<u8> {
    clift_conformance::exec::hand_spirv("spec_exec")
}

/// The values the kernel writes for these spec constants.
fn expected(b: bool, c: u8, s: u16, i: u32, l: u64, f: f32) -> [u64; N] {
    let sum = i.wrapping_add(5);
    let fm = f * 2.0;
    [
        b as u64,
        c as u64,
        s as u64,
        i as u64,
        l,
        f.to_bits() as u64,
        sum as u64,
        c as u64,
        s as i16 as i64 as u64,
        if b { 11 } else { 22 },
        l.wrapping_mul(3),
        i.wrapping_shl(4) as u64,
        sum as u64,
        fm.to_bits() as u64,
        (fm as i32) as u32 as u64,
        ((i as i32).wrapping_div(7)) as u32 as u64,
        (c < 10) as u64,
        (f * 3.0).to_bits() as u64,
        u64::from(i) | u64::from(sum) << 32,
        l >> 32,
    ]
}

/// Builds `p` (already holding its spec values), runs spec_values once and
/// returns what it wrote.
fn run(ctx: cl_context, p: cl_program) -> [u64; N] {
    let rc = build(p, "");
    assert_eq!(rc, CL_SUCCESS, "build: {}", build_log(p, device()));
    let k = kernel(p, "spec_values");
    let q = queue(ctx, 0);
    let m = buffer(ctx, CL_MEM_READ_WRITE, N * 8);
    write_bytes(q, m, 0, &[0xee; N * 8]);
    check(set_arg(k, 0, &m));
    let one = 1usize;
    // SAFETY: valid handles; one work-item.
    check(unsafe { clEnqueueNDRangeKernel(q, k, 1, ptr::null(), &one, ptr::null(), 0, ptr::null(), ptr::null_mut()) });
    let bytes = read_bytes(q, m, 0, N * 8);
    release_mem(m);
    // SAFETY: handles this function created.
    unsafe {
        check(clReleaseKernel(k));
        check(clReleaseCommandQueue(q));
    }
    std::array::from_fn(|x| u64::from_ne_bytes(bytes[x * 8..x * 8 + 8].try_into().unwrap()))
}

fn set(p: cl_program, id: u32, bytes: &[u8]) {
    // SAFETY: `bytes` is readable for its length.
    check(unsafe { clSetProgramSpecializationConstant(p, id, bytes.len(), bytes.as_ptr().cast()) });
}

#[test]
fn default_values() {
    let ctx = context();
    let p = il_program(ctx, &spec_module());
    assert_eq!(run(ctx, p), expected(true, 7, 300, 70000, 5_000_000_000, 1.5));
    // SAFETY: handles this test owns.
    unsafe {
        check(clReleaseProgram(p));
        check(clReleaseContext(ctx));
    }
}

#[test]
fn values_set_by_the_application_and_kept_in_the_binary() {
    let ctx = context();
    let p = il_program(ctx, &spec_module());
    let (b, c, s, i, l, f) = (false, 200u8, 0xffffu16, (-21i32) as u32, 1u64 << 40, -2.75f32);
    set(p, 0, &[0]);
    set(p, 1, &[c]);
    set(p, 2, &s.to_ne_bytes());
    set(p, 3, &i.to_ne_bytes());
    set(p, 4, &l.to_ne_bytes());
    set(p, 5, &f.to_ne_bytes());
    let want = expected(b, c, s, i, l, f);
    assert_eq!(run(ctx, p), want, "set values");
    // The binary of the built program rebuilds with the same values.
    let d = device();
    let size: usize = info_value(|sz, v, r| {
        // SAFETY: forwards the buffer protocol of `info_value`.
        unsafe { clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sz, v, r) }
    });
    let mut bin = vec![0u8; size];
    let mut bin_ptr = bin.as_mut_ptr();
    // SAFETY: one device; `bin` has room for the binary.
    check(unsafe {
        clGetProgramInfo(
            p,
            CL_PROGRAM_BINARIES,
            std::mem::size_of::<*mut u8>(),
            (&mut bin_ptr as *mut *mut u8).cast(),
            ptr::null_mut(),
        )
    });
    let (len, data) = (bin.len(), bin.as_ptr());
    let mut err = 0;
    // SAFETY: one device and one binary of `len` bytes.
    let q = unsafe { clCreateProgramWithBinary(ctx, 1, &d, &len, &data, ptr::null_mut(), &mut err) };
    check(err);
    assert_eq!(run(ctx, q), want, "rebuilt from the binary");
    // SAFETY: handles this test owns.
    unsafe {
        check(clReleaseProgram(q));
        check(clReleaseProgram(p));
        check(clReleaseContext(ctx));
    }
}
