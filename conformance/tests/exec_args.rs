//! Kernel arguments: every scalar type, vectors of 2, 3, 4 and 16
//! components (3-component ones padded to 4), a struct by value, buffers and
//! __local pointers interleaved, each at its own alignment in the argument
//! block; and arguments captured at enqueue time (API spec 5.10: "the
//! argument values ... are captured at the time of the enqueue"), checked
//! with commands held back by a user event while the arguments change.
//! Kernels: `kernels/cl/arguments.cl` at -O0 and -O2.

use std::ptr;

use clift_conformance::exec::{corpus_spirv, Arg, Kernel, Opt, Pod};
use clift_conformance::*;

/// `struct Mixed { char a; short b; int c; long d; float e; float4 f; char
/// g; }`: 64 bytes.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
struct Mixed {
    a: i8,
    _p0: u8,
    b: i16,
    c: i32,
    d: i64,
    e: f32,
    _p1: [u8; 12],
    f: [f32; 4],
    g: i8,
    _p2: [u8; 15],
}
// SAFETY: padding made explicit; any bits are valid.
unsafe impl Pod for Mixed {}

#[test]
fn many_arguments_of_every_kind() {
    assert_eq!(std::mem::size_of::<Mixed>(), 64);
    let (n, local) = (96usize, 32usize);
    let (a, b, c, d) = (-100i8, 200u8, -30000i16, 60000u16);
    let (e, f, g, h) = (
        -2_000_000_000i32,
        4_000_000_000u32,
        -(1i64 << 50) + 3,
        (1u64 << 63) + 12345,
    );
    let i = 12.75f32;
    let j = [-7i8, 99];
    let k = [-3i16, 44, 5, 0x5555]; // short3: the 4th lane is padding
    let l = [100_000i32, -200_000, 300_000, 7];
    let m = [1.5f32, -0.25, 8.0, 1e30]; // float3: the 4th lane is padding
    let nn = [1i64 << 40, -(1i64 << 41)];
    let s = Mixed {
        a: -5,
        _p0: 0,
        b: -1234,
        c: 987_654_321,
        d: -(1i64 << 60),
        e: -3.5,
        _p1: [0; 12],
        f: [0.5, 1.5, 2.5, 3.5],
        g: 77,
        _p2: [0; 15],
    };
    let input: Vec<i32> = (0..n as i32).map(|x| x * 1000 - 7).collect();
    let o = [1u8, 2, 3, 0xee];
    let p: [f32; 16] = std::array::from_fn(|x| x as f32 * 1.25);
    let q = 0x8000_0000_0000_0001u64;
    let base: [i64; 23] = [
        a as i64,
        b as i64,
        c as i64,
        d as i64,
        e as i64,
        f as i64,
        g,
        h as i64,
        (i * 4.0) as i64,
        (j[0] as i64) * 1000 + j[1] as i64,
        k[0] as i64 + k[1] as i64 * 100 + k[2] as i64 * 10000,
        l.iter().map(|&x| x as i64).sum(),
        (m[0] + m[1] * 2.0 + m[2] * 4.0) as i64,
        nn[0] - nn[1],
        s.a as i64,
        s.b as i64,
        s.c as i64,
        s.d,
        (s.e * 2.0) as i64,
        (s.f[0] + s.f[1] + s.f[2] + s.f[3]) as i64,
        s.g as i64,
        o[0] as i64 + o[1] as i64 * 256 + o[2] as i64 * 65536,
        (((p[0] + p[5]) + p[10]) + p[15]) as i64,
    ];
    let mut want = Vec::new();
    for (t, &x) in input.iter().enumerate() {
        for v in base {
            want.push(v.wrapping_add(t as i64));
        }
        want.push((x as i64).wrapping_add(q as i64).wrapping_add(t as i64));
    }
    for opt in Opt::BOTH {
        let mut out = vec![0i64; n * 24];
        Kernel::new("arguments", opt, "many_args")
            .arg(Arg::value(a))
            .arg(Arg::value(b))
            .arg(Arg::value(c))
            .arg(Arg::value(d))
            .arg(Arg::value(e))
            .arg(Arg::value(f))
            .arg(Arg::value(g))
            .arg(Arg::value(h))
            .arg(Arg::value(i))
            .arg(Arg::output(&mut out))
            .arg(Arg::value(j))
            .arg(Arg::value(k))
            .arg(Arg::value(l))
            .arg(Arg::value(m))
            .arg(Arg::value(nn))
            .arg(Arg::Local(local * 4))
            .arg(Arg::value(s))
            .arg(Arg::input(&input))
            .arg(Arg::value(o))
            .arg(Arg::value(p))
            .arg(Arg::Local(local * 8))
            .arg(Arg::value(q))
            .run(&[n], Some(&[local]));
        for t in 0..n {
            assert_eq!(
                out[t * 24..t * 24 + 24],
                want[t * 24..t * 24 + 24],
                "{opt:?}: work-item {t}"
            );
        }
    }
}

fn enqueue(q: cl_command_queue, k: cl_kernel, n: usize, wait: &[cl_event]) {
    let (nw, w) = wait_args(wait);
    // SAFETY: valid handles; one dimension; the wait list has `nw` events.
    check(unsafe { clEnqueueNDRangeKernel(q, k, 1, ptr::null(), &n, ptr::null(), nw, w, ptr::null_mut()) });
}

#[test]
fn arguments_are_captured_at_enqueue() {
    let n = 1000usize;
    for opt in Opt::BOTH {
        let ctx = context();
        let q = queue(ctx, 0);
        let p = il_program(ctx, &corpus_spirv("arguments", opt));
        check(build(p, ""));
        let k = kernel(p, "add_k");
        let (ma, mb) = (
            buffer(ctx, CL_MEM_READ_WRITE, n * 4),
            buffer(ctx, CL_MEM_READ_WRITE, n * 4),
        );
        write_bytes(q, ma, 0, &vec![0u8; n * 4]);
        write_bytes(q, mb, 0, &vec![0u8; n * 4]);
        // Nothing runs until `gate` completes: every enqueue below happens
        // while the earlier commands are still waiting.
        let gate = new_user_event(ctx);
        check(set_arg(k, 0, &ma));
        check(set_arg(k, 1, &1i32));
        enqueue(q, k, n, &[gate]);
        check(set_arg(k, 1, &10i32));
        enqueue(q, k, n, &[]);
        check(set_arg(k, 0, &mb));
        check(set_arg(k, 1, &100i32));
        enqueue(q, k, n, &[]);
        check(set_arg(k, 0, &ma));
        check(set_arg(k, 1, &1000i32));
        enqueue(q, k, n, &[]);
        // The commands hold what they use: release the kernel and program
        // before they run.
        // SAFETY: handles this test owns, released once.
        unsafe {
            check(clReleaseKernel(k));
            check(clReleaseProgram(p));
            check(clSetUserEventStatus(gate, CL_COMPLETE));
            check(clFinish(q));
        }
        let ints = |m: cl_mem| -> Vec<i32> {
            read_bytes(q, m, 0, n * 4)
                .chunks_exact(4)
                .map(|c| i32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        assert_eq!(ints(ma), vec![1011; n], "{opt:?}: buffer A saw k = 1, 10 and 1000");
        assert_eq!(ints(mb), vec![100; n], "{opt:?}: buffer B saw k = 100");
        release_mem(ma);
        release_mem(mb);
        // SAFETY: handles this test owns, released once.
        unsafe {
            check(clReleaseEvent(gate));
            check(clReleaseCommandQueue(q));
            check(clReleaseContext(ctx));
        }
    }
}
