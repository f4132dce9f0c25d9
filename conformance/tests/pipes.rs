//! Pipes in kernels (OpenCL C 2.0 6.13.16, SPIR-V's pipe instructions),
//! from OpenCL C compiled by clift at -O2 and -O0 and from SPIR-V compiled
//! offline: packets of every size from 1 to 128 bytes, int, float4 and a
//! struct through write_pipe and read_pipe with every value checked;
//! per-work-item, work-group and sub-group reservations (each committed
//! reservation's packets read back together and in order); full and empty
//! pipes; a producer and a consumer kernel running at the same time over a
//! pipe much smaller than the data (two queues, and one out-of-order
//! queue); as many pipe arguments, active reservations and packet bytes as
//! the device reports. Packets leave a pipe in the order of
//! their positions, but work-items of several work-groups write at the same
//! time, so most checks compare sets of packets, each packet carrying its
//! own index.

use std::collections::HashSet;
use std::ptr;

use clift_conformance::programs::source_program;
use clift_conformance::*;

/// How a program reaches clift.
#[derive(Clone, Copy, Debug)]
enum From {
    /// clCreateProgramWithSource, clift compiling it at -O2.
    Source,
    /// The same with `-cl-opt-disable` (clang -O0: pipes and reservation
    /// ids in private variables).
    SourceO0,
    /// Compiled offline (clang -O2, llvm-spirv, spirv-val), then
    /// clCreateProgramWithIL.
    SpirV,
}

const FROMS: [From; 3] = [From::Source, From::SourceO0, From::SpirV];

/// A kernel argument.
#[derive(Clone, Copy)]
enum A {
    Mem(cl_mem),
    U32(u32),
}

/// A built program with its context and an in-order queue.
struct Run {
    ctx: cl_context,
    queue: cl_command_queue,
    program: cl_program,
    mems: Vec<cl_mem>,
}

impl Run {
    /// `src` built as `from` says; panics with the log if the build fails
    /// or a kernel cannot run.
    fn new(src: &str, from: From) -> Run {
        let ctx = context();
        let (program, options) = match from {
            From::Source => (source_program(ctx, src), "-cl-std=CL2.0"),
            From::SourceO0 => (source_program(ctx, src), "-cl-std=CL2.0 -cl-opt-disable"),
            From::SpirV => (il_program(ctx, &offline::spirv_of(src, &["-cl-std=CL2.0"])), ""),
        };
        let rc = build(program, options);
        let log = build_log(program, device());
        assert_eq!(rc, CL_SUCCESS, "{from:?}: the build failed:\n{log}");
        assert!(!log.contains("cannot run yet"), "{from:?}: {log}");
        Run {
            ctx,
            queue: queue(ctx, 0),
            program,
            mems: Vec::new(),
        }
    }

    /// A pipe of `max` packets of `packet` bytes.
    fn pipe(&mut self, packet: usize, max: usize) -> cl_mem {
        let mut err = 0;
        // SAFETY: a valid context; properties NULL.
        let p = unsafe { clCreatePipe(self.ctx, 0, packet as cl_uint, max as cl_uint, ptr::null(), &mut err) };
        check(err);
        self.mems.push(p);
        p
    }

    /// A buffer holding `bytes` (at least one byte).
    fn buffer(&mut self, bytes: &[u8]) -> cl_mem {
        let m = buffer(self.ctx, CL_MEM_READ_WRITE, bytes.len().max(1));
        write_bytes(self.queue, m, 0, bytes);
        self.mems.push(m);
        m
    }

    /// A buffer of `n` ints, all -7.
    fn ints(&mut self, n: usize) -> cl_mem {
        self.buffer(&bytes_of(&vec![-7i32; n]))
    }

    /// Kernel `name` with `args`, its arguments set.
    fn kernel(&self, name: &str, args: &[A]) -> cl_kernel {
        let k = kernel(self.program, name);
        for (i, a) in args.iter().enumerate() {
            let rc = match a {
                A::Mem(m) => set_arg(k, i as cl_uint, m),
                A::U32(v) => set_arg(k, i as cl_uint, v),
            };
            assert_eq!(rc, CL_SUCCESS, "argument {i} of {name}");
        }
        k
    }

    /// Enqueues kernel `k` on `q` over `global` with `local`; its event.
    fn enqueue(q: cl_command_queue, k: cl_kernel, global: usize, local: Option<usize>) -> cl_event {
        let mut ev = ptr::null_mut();
        let local = local.map(|l| [l]);
        // SAFETY: valid handles; one-dimensional sizes.
        let rc = unsafe {
            clEnqueueNDRangeKernel(
                q,
                k,
                1,
                ptr::null(),
                [global].as_ptr(),
                local.as_ref().map_or(ptr::null(), |l| l.as_ptr()),
                0,
                ptr::null(),
                &mut ev,
            )
        };
        assert_eq!(rc, CL_SUCCESS, "enqueue: {}", error_name(rc));
        ev
    }

    /// Runs kernel `name` with `args` over `global` and waits.
    fn run(&self, name: &str, args: &[A], global: usize, local: Option<usize>) {
        let k = self.kernel(name, args);
        let ev = Run::enqueue(self.queue, k, global, local);
        // SAFETY: valid handles, released once.
        unsafe {
            check(clWaitForEvents(1, &ev));
            assert_eq!(event_status(ev), CL_COMPLETE as cl_int, "{name} completes");
            clReleaseEvent(ev);
            clReleaseKernel(k);
        }
    }

    /// `len` bytes of `m`.
    fn read(&self, m: cl_mem, len: usize) -> Vec<u8> {
        read_bytes(self.queue, m, 0, len)
    }

    /// `n` ints of `m`.
    fn read_ints(&self, m: cl_mem, n: usize) -> Vec<i32> {
        self.read(m, 4 * n)
            .chunks_exact(4)
            .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
            .collect()
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        // SAFETY: handles this value created, released once.
        unsafe {
            for &m in &self.mems {
                clReleaseMemObject(m);
            }
            clReleaseProgram(self.program);
            clReleaseCommandQueue(self.queue);
            clReleaseContext(self.ctx);
        }
    }
}

fn bytes_of(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

/// Packet `k` of `size` bytes: its index in the first one or two bytes,
/// then bytes that depend on the index and the offset.
fn packet(k: usize, size: usize) -> Vec<u8> {
    (0..size)
        .map(|j| match j {
            0 => k as u8,
            1 => (k >> 8) as u8,
            _ => (k * 7 + j * 13) as u8,
        })
        .collect()
}

/// A writer and a reader kernel for packets of type `t`, named `w_<name>`
/// and `r_<name>`: work-item `i` writes `src[i]` (reads into `dst[i]`) and
/// stores what write_pipe (read_pipe) returned in `st[i]`.
fn pair(t: &str, name: &str) -> String {
    format!(
        "kernel void w_{name}(global const {t} *src, write_only pipe {t} p, global int *st) {{\n\
         size_t i = get_global_id(0); st[i] = write_pipe(p, &src[i]); }}\n\
         kernel void r_{name}(global {t} *dst, read_only pipe {t} p, global int *st) {{\n\
         size_t i = get_global_id(0); st[i] = read_pipe(p, &dst[i]); }}\n"
    )
}

/// Writes `n` packets of `size` bytes (`packet`) with kernel `writer` and
/// reads them back with `reader` (both as [`pair`] makes them) through a
/// pipe of `n` packets: every write and read succeeds and the packets read
/// are the packets written.
fn round_trip(r: &mut Run, writer: &str, reader: &str, size: usize, n: usize, what: &str) {
    let sent: Vec<Vec<u8>> = (0..n).map(|k| packet(k, size)).collect();
    let input = r.buffer(&sent.concat());
    let dst = r.buffer(&vec![0xEE; n * size]);
    let (wst, rst) = (r.ints(n), r.ints(n));
    let p = r.pipe(size, n);
    r.run(writer, &[A::Mem(input), A::Mem(p), A::Mem(wst)], n, None);
    assert!(
        r.read_ints(wst, n).iter().all(|&s| s == 0),
        "{what} {writer}: every write succeeds"
    );
    r.run(reader, &[A::Mem(dst), A::Mem(p), A::Mem(rst)], n, None);
    assert!(
        r.read_ints(rst, n).iter().all(|&s| s == 0),
        "{what} {reader}: every read succeeds"
    );
    let mut got: Vec<Vec<u8>> = r.read(dst, n * size).chunks_exact(size).map(<[u8]>::to_vec).collect();
    got.sort();
    let mut want = sent;
    want.sort();
    assert!(got == want, "{what} {writer}: the packets read are the packets written");
}

#[test]
fn packets_of_every_size_and_type_round_trip() {
    // (type, kernel name, packet size)
    let mut types: Vec<(String, String, usize)> = vec![
        ("int".into(), "int".into(), 4),
        ("float4".into(), "float4".into(), 16),
        ("S".into(), "S".into(), 20),
    ];
    let mut src = String::from("typedef struct { int a; char b; float c[3]; } S;\n");
    for n in 1..=128 {
        src.push_str(&format!("typedef struct {{ uchar b[{n}]; }} P{n};\n"));
        types.push((format!("P{n}"), format!("p{n}"), n));
    }
    for (t, name, _) in &types {
        src.push_str(&pair(t, name));
    }
    // At most 256 packets, so a 1-byte packet holds its index.
    const N: usize = 200;
    for from in FROMS {
        let mut r = Run::new(&src, from);
        for (_, name, size) in &types {
            round_trip(
                &mut r,
                &format!("w_{name}"),
                &format!("r_{name}"),
                *size,
                N,
                &format!("{from:?}"),
            );
        }
    }
}

const FULL_EMPTY: &str = "\
kernel void fill(write_only pipe int p, global int *st, global int *n) {\n\
  for (int k = 0; k < 6; k++) { int v = 100 + k; st[k] = write_pipe(p, &v); }\n\
  n[0] = get_pipe_num_packets(p); n[1] = get_pipe_max_packets(p);\n\
  reserve_id_t r = reserve_write_pipe(p, 1); n[2] = is_valid_reserve_id(r);\n\
}\n\
kernel void drain(read_only pipe int p, global int *st, global int *out, global int *n) {\n\
  n[0] = get_pipe_num_packets(p); n[1] = get_pipe_max_packets(p);\n\
  reserve_id_t r = reserve_read_pipe(p, 5); n[2] = is_valid_reserve_id(r);\n\
  for (int k = 0; k < 6; k++) { int v = -1; st[k] = read_pipe(p, &v); out[k] = v; }\n\
  n[3] = get_pipe_num_packets(p);\n\
  reserve_id_t e = reserve_read_pipe(p, 1); n[4] = is_valid_reserve_id(e);\n\
}\n";

/// Checks that of six statuses the first four say success, the others
/// failure.
fn four_then_fail(s: &[i32], from: From) {
    assert!(
        s[..4].iter().all(|&s| s == 0) && s[4..].iter().all(|&s| s < 0),
        "{from:?}: {s:?}"
    );
}

#[test]
fn an_empty_pipe_fails_reads_and_a_full_one_writes() {
    for from in FROMS {
        let mut r = Run::new(FULL_EMPTY, from);
        let p = r.pipe(4, 4);
        let (st, out, n) = (r.ints(6), r.ints(6), r.ints(5));
        // Empty from the start.
        r.run("drain", &[A::Mem(p), A::Mem(st), A::Mem(out), A::Mem(n)], 1, None);
        assert!(
            r.read_ints(st, 6).iter().all(|&s| s < 0),
            "{from:?}: reads of an empty pipe fail"
        );
        assert_eq!(r.read_ints(out, 6), [-1; 6], "{from:?}: failed reads write nothing");
        assert_eq!(r.read_ints(n, 5), [0, 4, 0, 0, 0], "{from:?}: counts of an empty pipe");
        r.run("fill", &[A::Mem(p), A::Mem(st), A::Mem(n)], 1, None);
        four_then_fail(&r.read_ints(st, 6), from);
        assert_eq!(
            r.read_ints(n, 3),
            [4, 4, 0],
            "{from:?}: a full pipe's counts; no reservation"
        );
        r.run("drain", &[A::Mem(p), A::Mem(st), A::Mem(out), A::Mem(n)], 1, None);
        four_then_fail(&r.read_ints(st, 6), from);
        assert_eq!(
            r.read_ints(out, 6),
            [100, 101, 102, 103, -1, -1],
            "{from:?}: in order, once"
        );
        assert_eq!(
            r.read_ints(n, 5),
            [4, 4, 0, 0, 0],
            "{from:?}: 5 of 4 packets cannot be reserved; empty after"
        );
    }
}

#[test]
fn the_null_reserve_id_is_invalid() {
    // llvm-spirv 15 writes CLK_NULL_RESERVE_ID in a form spirv-val refuses
    // (duplicate OpTypeReserveId): from source only.
    let src = "kernel void k(write_only pipe int p, global int *out) {\n\
        reserve_id_t r = CLK_NULL_RESERVE_ID; if (get_global_id(0) == 1) r = reserve_write_pipe(p, 1);\n\
        out[get_global_id(0)] = is_valid_reserve_id(r);\n\
        if (is_valid_reserve_id(r)) commit_write_pipe(p, r); }\n";
    for from in [From::Source, From::SourceO0] {
        let mut r = Run::new(src, from);
        let p = r.pipe(4, 4);
        let out = r.ints(2);
        r.run("k", &[A::Mem(p), A::Mem(out)], 2, Some(2));
        assert_eq!(r.read_ints(out, 2), [0, 1], "{from:?}");
    }
}

const PER_ITEM: &str = "\
kernel void rw(global const int *src, write_only pipe int p, global int *st) {\n\
  size_t i = get_global_id(0);\n\
  reserve_id_t r = reserve_write_pipe(p, 4);\n\
  if (!is_valid_reserve_id(r)) { st[i] = -100; return; }\n\
  int s = 0;\n\
  for (int k = 3; k >= 0; k--) s |= write_pipe(p, r, k, &src[4 * i + k]);\n\
  if (write_pipe(p, r, 4, &src[0]) == 0) s |= 1;\n\
  commit_write_pipe(p, r); st[i] = s;\n\
}\n\
kernel void rr(global int *dst, read_only pipe int p, global int *st) {\n\
  size_t i = get_global_id(0);\n\
  reserve_id_t r = reserve_read_pipe(p, 4);\n\
  if (!is_valid_reserve_id(r)) { st[i] = -100; return; }\n\
  int s = 0;\n\
  for (int k = 0; k < 4; k++) { int v = -1; s |= read_pipe(p, r, k, &v); dst[4 * i + k] = v; }\n\
  int v; if (read_pipe(p, r, 4, &v) == 0) s |= 1;\n\
  commit_read_pipe(p, r); st[i] = s;\n\
}\n";

/// Checks that `got` is `n` runs of `len` values, each run some
/// `base .. base + len` with `base` a multiple of `len`, every base once.
fn runs_in_order(got: &[i32], len: usize, what: &str) {
    let mut bases = HashSet::new();
    for (c, run) in got.chunks_exact(len).enumerate() {
        let base = run[0];
        assert!(
            base >= 0
                && (base as usize).is_multiple_of(len)
                && run.iter().enumerate().all(|(k, &v)| v == base + k as i32),
            "{what}: run {c} is {run:?}, not one reservation's packets in order"
        );
        assert!(bases.insert(base), "{what}: run {base} read twice");
    }
    assert_eq!(bases.len() * len, got.len(), "{what}");
}

#[test]
fn per_work_item_reservations_keep_their_packets_together() {
    const ITEMS: usize = 96;
    let src: Vec<i32> = (0..4 * ITEMS as i32).collect();
    for from in FROMS {
        let mut r = Run::new(PER_ITEM, from);
        let input = r.buffer(&bytes_of(&src));
        let dst = r.ints(4 * ITEMS);
        let (wst, rst) = (r.ints(ITEMS), r.ints(ITEMS));
        let p = r.pipe(4, 4 * ITEMS);
        r.run("rw", &[A::Mem(input), A::Mem(p), A::Mem(wst)], ITEMS, Some(8));
        assert!(
            r.read_ints(wst, ITEMS).iter().all(|&s| s == 0),
            "{from:?}: reserved writes"
        );
        r.run("rr", &[A::Mem(dst), A::Mem(p), A::Mem(rst)], ITEMS, Some(8));
        assert!(
            r.read_ints(rst, ITEMS).iter().all(|&s| s == 0),
            "{from:?}: reserved reads"
        );
        runs_in_order(&r.read_ints(dst, 4 * ITEMS), 4, &format!("{from:?}"));
        // The pipe is empty again: one more reservation fails.
        r.run("rr", &[A::Mem(dst), A::Mem(p), A::Mem(rst)], 1, None);
        assert_eq!(r.read_ints(rst, 1), [-100], "{from:?}: nothing left");
    }
}

/// Work-group (`work_group`) and sub-group (`sub_group`) reservations: each
/// group reserves as many packets as it has work-items, each work-item
/// writes (reads) the one at its local id, and the group commits.
fn group_source(scope: &str) -> String {
    let (size, id) = if scope == "sub_group" {
        ("get_sub_group_size()", "get_sub_group_local_id()")
    } else {
        ("get_local_size(0)", "get_local_id(0)")
    };
    format!(
        "kernel void gw(global const int *src, write_only pipe int p, global int *st) {{\n\
           size_t i = get_global_id(0);\n\
           reserve_id_t r = {scope}_reserve_write_pipe(p, {size});\n\
           if (is_valid_reserve_id(r)) {{ st[i] = write_pipe(p, r, {id}, &src[i]);\n\
             {scope}_commit_write_pipe(p, r); }} else st[i] = -100;\n\
         }}\n\
         kernel void gr(global int *dst, read_only pipe int p, global int *st) {{\n\
           size_t i = get_global_id(0);\n\
           reserve_id_t r = {scope}_reserve_read_pipe(p, {size});\n\
           if (is_valid_reserve_id(r)) {{ int v = -1; st[i] = read_pipe(p, r, {id}, &v); dst[i] = v;\n\
             {scope}_commit_read_pipe(p, r); }} else st[i] = -100;\n\
         }}\n"
    )
}

#[test]
fn work_group_and_sub_group_reservations_move_whole_groups() {
    const ITEMS: usize = 256;
    const LOCAL: usize = 32;
    let src: Vec<i32> = (0..ITEMS as i32).collect();
    for scope in ["work_group", "sub_group"] {
        for from in FROMS {
            let what = format!("{scope} {from:?}");
            let mut r = Run::new(&group_source(scope), from);
            let input = r.buffer(&bytes_of(&src));
            let dst = r.ints(ITEMS);
            let (wst, rst) = (r.ints(ITEMS), r.ints(ITEMS));
            let p = r.pipe(4, ITEMS);
            r.run("gw", &[A::Mem(input), A::Mem(p), A::Mem(wst)], ITEMS, Some(LOCAL));
            assert!(r.read_ints(wst, ITEMS).iter().all(|&s| s == 0), "{what}: group writes");
            r.run("gr", &[A::Mem(dst), A::Mem(p), A::Mem(rst)], ITEMS, Some(LOCAL));
            assert!(r.read_ints(rst, ITEMS).iter().all(|&s| s == 0), "{what}: group reads");
            let run = if scope == "sub_group" { sub_group_size() } else { LOCAL };
            runs_in_order(&r.read_ints(dst, ITEMS), run, &what);
            // A full pipe refuses a group's reservation; the group sees it
            // as one (every work-item -100).
            r.run("gw", &[A::Mem(input), A::Mem(p), A::Mem(wst)], ITEMS, Some(LOCAL));
            r.run("gw", &[A::Mem(input), A::Mem(p), A::Mem(wst)], 2 * LOCAL, Some(LOCAL));
            assert_eq!(r.read_ints(wst, 2 * LOCAL), [-100; 2 * LOCAL], "{what}: full");
        }
    }
}

const PRODUCER_CONSUMER: &str = "\
#define TRIES 20000000u\n\
kernel void producer(write_only pipe uint p, uint per, global uint *st) {\n\
  uint w = get_global_id(0);\n\
  for (uint k = 0; k < per; k++) {\n\
    uint v = w * per + k; uint t = 0;\n\
    while (write_pipe(p, &v) != 0) if (++t == TRIES) { st[w] = k | 0x80000000u; return; }\n\
  }\n\
  st[w] = per;\n\
}\n\
kernel void consumer(read_only pipe uint p, uint per, global uint *out, global uint *st) {\n\
  uint c = get_global_id(0);\n\
  for (uint k = 0; k < per; k++) {\n\
    uint v; uint t = 0;\n\
    while (read_pipe(p, &v) != 0) if (++t == TRIES) { st[c] = k | 0x80000000u; return; }\n\
    out[c * per + k] = v;\n\
  }\n\
  st[c] = per;\n\
}\n\
kernel void producer4(write_only pipe uint p, uint per, global uint *st) {\n\
  uint w = get_global_id(0);\n\
  for (uint k = 0; k < per; k += 4) {\n\
    uint t = 0; reserve_id_t r;\n\
    while (!is_valid_reserve_id(r = reserve_write_pipe(p, 4))) if (++t == TRIES) { st[w] = k | 0x80000000u; return; }\n\
    for (uint j = 0; j < 4; j++) { uint v = w * per + k + 3 - j; write_pipe(p, r, 3 - j, &v); }\n\
    commit_write_pipe(p, r);\n\
  }\n\
  st[w] = per;\n\
}\n\
kernel void consumer4(read_only pipe uint p, uint per, global uint *out, global uint *st) {\n\
  uint c = get_global_id(0);\n\
  for (uint k = 0; k < per; k += 4) {\n\
    uint t = 0; reserve_id_t r;\n\
    while (!is_valid_reserve_id(r = reserve_read_pipe(p, 4))) if (++t == TRIES) { st[c] = k | 0x80000000u; return; }\n\
    for (uint j = 0; j < 4; j++) read_pipe(p, r, j, &out[c * per + k + j]);\n\
    commit_read_pipe(p, r);\n\
  }\n\
  st[c] = per;\n\
}\n\
kernel void group_producer(write_only pipe uint p, uint per, global uint *st) {\n\
  uint l = get_local_id(0);\n\
  for (uint k = 0; k < per; k++) {\n\
    uint t = 0; reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));\n\
    while (!is_valid_reserve_id(r)) {\n\
      if (++t == TRIES) { st[l] = k | 0x80000000u; return; }\n\
      r = work_group_reserve_write_pipe(p, get_local_size(0));\n\
    }\n\
    uint v = l * per + k; write_pipe(p, r, l, &v);\n\
    work_group_commit_write_pipe(p, r);\n\
  }\n\
  st[l] = per;\n\
}\n\
kernel void group_consumer(read_only pipe uint p, uint per, global uint *out, global uint *st) {\n\
  uint l = get_local_id(0);\n\
  for (uint k = 0; k < per; k++) {\n\
    uint t = 0; reserve_id_t r = work_group_reserve_read_pipe(p, get_local_size(0));\n\
    while (!is_valid_reserve_id(r)) {\n\
      if (++t == TRIES) { st[l] = k | 0x80000000u; return; }\n\
      r = work_group_reserve_read_pipe(p, get_local_size(0));\n\
    }\n\
    read_pipe(p, r, l, &out[l * per + k]);\n\
    work_group_commit_read_pipe(p, r);\n\
  }\n\
  st[l] = per;\n\
}\n";

#[test]
fn a_producer_and_a_consumer_run_at_the_same_time_over_a_small_pipe() {
    // 100,000 values through 64 packets. Each kernel is one work-group (so
    // one thread: a work-group's work-items run one after another), four
    // work-items writing (reading) 25,000 values each, retrying a full
    // (empty) pipe up to 20,000,000 times in a row before giving up and
    // recording where. On an out-of-order queue and on two in-order queues.
    // Three pairs: packets one at a time; reservations of 4 packets written
    // in reverse order (so every read run of 4 must be one reservation's,
    // in order); work-group reservations of 4 packets, one per work-item
    // (one group on each side, so the values arrive in the order written).
    const WORKERS: usize = 4;
    for from in FROMS {
        let mut r = Run::new(PRODUCER_CONSUMER, from);
        // (producer, consumer, values per work-item: 100,000 in all one
        // packet at a time, 20,000 with reservations, to keep the test short
        // on a loaded machine, where each side spins while the other waits
        // for a CPU)
        let pairs = [
            ("producer", "consumer", 25_000),
            ("producer4", "consumer4", 5_000),
            ("group_producer", "group_consumer", 5_000),
        ];
        for ((producer, consumer, per), two_queues) in pairs.into_iter().flat_map(|p| [(p, true), (p, false)]) {
            let total = WORKERS * per;
            let what = format!(
                "{from:?}, {producer}, {}",
                if two_queues { "two queues" } else { "out-of-order queue" }
            );
            let p = r.pipe(4, 64);
            let out = r.ints(total);
            let (pst, cst) = (r.ints(WORKERS), r.ints(WORKERS));
            let prod = r.kernel(producer, &[A::Mem(p), A::U32(per as u32), A::Mem(pst)]);
            let cons = r.kernel(consumer, &[A::Mem(p), A::U32(per as u32), A::Mem(out), A::Mem(cst)]);
            let (q1, q2) = if two_queues {
                (queue(r.ctx, 0), queue(r.ctx, 0))
            } else {
                let q = queue(r.ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
                // SAFETY: a valid queue, retained for the second name.
                unsafe { check(clRetainCommandQueue(q)) };
                (q, q)
            };
            let e1 = Run::enqueue(q1, prod, WORKERS, Some(WORKERS));
            let e2 = Run::enqueue(q2, cons, WORKERS, Some(WORKERS));
            // Each event is waited for on a thread of its own: a thread
            // waiting for a command no pool thread has started runs it, so
            // the two kernels run at the same time even on a device with
            // one thread (each spins until the other makes room or data).
            let consumer_event = e2 as usize;
            let waiter = std::thread::spawn(move || {
                let e = consumer_event as cl_event;
                // SAFETY: a valid event, released by the main thread after
                // the join.
                check(unsafe { clWaitForEvents(1, &e) });
            });
            // SAFETY: valid handles, released once.
            unsafe {
                check(clFlush(q1));
                check(clFlush(q2));
                check(clWaitForEvents(1, &e1));
            }
            waiter.join().expect("the consumer's waiter");
            // SAFETY: valid handles, released once.
            unsafe {
                clReleaseEvent(e1);
                clReleaseEvent(e2);
                clReleaseKernel(prod);
                clReleaseKernel(cons);
                clReleaseCommandQueue(q1);
                clReleaseCommandQueue(q2);
            }
            let (ps, cs) = (r.read_ints(pst, WORKERS), r.read_ints(cst, WORKERS));
            assert!(
                ps.iter().chain(&cs).all(|&s| s as usize == per),
                "{what}: a worker gave up (bit 31 set, the value index below): producers {ps:x?}, consumers {cs:x?}"
            );
            let got = r.read_ints(out, total);
            // Each consumer sees each producer's values in order.
            for (c, run) in got.chunks_exact(per).enumerate() {
                let mut last = [-1i32; WORKERS];
                for &v in run {
                    let w = v as usize / per;
                    assert!(
                        w < WORKERS && v > last[w],
                        "{what}: consumer {c} got {v} after {}",
                        last[w.min(3)]
                    );
                    last[w] = v;
                }
            }
            if producer == "producer4" {
                for run in got.chunks_exact(per) {
                    runs_in_order(run, 4, &what);
                }
            }
            if producer == "group_producer" {
                assert!(
                    got.iter().enumerate().all(|(k, &v)| v == k as i32),
                    "{what}: one group on each side: every value where it was written"
                );
            }
            let mut sorted = got;
            sorted.sort_unstable();
            let lost: Vec<i32> = (0..total as i32)
                .filter(|v| sorted.binary_search(v).is_err())
                .take(5)
                .collect();
            assert!(lost.is_empty(), "{what}: values lost, e.g. {lost:?}");
            assert!(sorted.windows(2).all(|w| w[0] < w[1]), "{what}: a value arrived twice");
        }
    }
}

#[test]
fn as_many_pipe_arguments_as_the_device_allows() {
    let max: cl_uint = device_value(device(), CL_DEVICE_MAX_PIPE_ARGS);
    assert!(max >= 16, "the spec's minimum");
    let n = max as usize;
    let params = |access: &str| {
        (0..n)
            .map(|k| format!("{access} pipe int p{k}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let writes: String = (0..n)
        .map(|k| format!("v = i * {n} + {k}; s |= write_pipe(p{k}, &v);\n"))
        .collect();
    let reads: String = (0..n)
        .map(|k| format!("s |= read_pipe(p{k}, &v); out[{k} * get_global_size(0) + i] = v;\n"))
        .collect();
    let src = format!(
        "kernel void w16({}, global int *st) {{ int i = get_global_id(0); int v; int s = 0;\n{writes} st[i] = s; }}\n\
         kernel void r16({}, global int *out, global int *st) {{ int i = get_global_id(0); int v; int s = 0;\n{reads} st[i] = s; }}\n",
        params("write_only"),
        params("read_only")
    );
    const ITEMS: usize = 40;
    for from in FROMS {
        let mut r = Run::new(&src, from);
        let pipes: Vec<cl_mem> = (0..n).map(|_| r.pipe(4, ITEMS)).collect();
        let (out, st) = (r.ints(n * ITEMS), r.ints(ITEMS));
        let mut args: Vec<A> = pipes.iter().map(|&p| A::Mem(p)).collect();
        args.push(A::Mem(st));
        r.run("w16", &args, ITEMS, None);
        assert!(r.read_ints(st, ITEMS).iter().all(|&s| s == 0), "{from:?}: writes");
        args.pop();
        args.extend([A::Mem(out), A::Mem(st)]);
        r.run("r16", &args, ITEMS, None);
        assert!(r.read_ints(st, ITEMS).iter().all(|&s| s == 0), "{from:?}: reads");
        let got = r.read_ints(out, n * ITEMS);
        for (k, per_pipe) in got.chunks_exact(ITEMS).enumerate() {
            let mut v = per_pipe.to_vec();
            v.sort_unstable();
            let want: Vec<i32> = (0..ITEMS as i32).map(|i| i * n as i32 + k as i32).collect();
            assert_eq!(v, want, "{from:?}: pipe {k}");
        }
    }
}

const ID_STORAGE: &str = "\
typedef struct { reserve_id_t r; int n; } R;\n\
kernel void via_local(global const int *src, write_only pipe int p, global int *st) {\n\
  local reserve_id_t id[1];\n\
  size_t l = get_local_id(0), i = get_global_id(0);\n\
  if (l == 0) id[0] = reserve_write_pipe(p, get_local_size(0));\n\
  barrier(CLK_LOCAL_MEM_FENCE);\n\
  st[i] = is_valid_reserve_id(id[0]) ? write_pipe(p, id[0], l, &src[i]) : -100;\n\
  barrier(CLK_LOCAL_MEM_FENCE);\n\
  if (l == 0 && is_valid_reserve_id(id[0])) commit_write_pipe(p, id[0]);\n\
}\n\
kernel void via_global(global const int *src, write_only pipe int p, global int *st, global reserve_id_t *ids) {\n\
  size_t i = get_global_id(0);\n\
  ids[i] = reserve_write_pipe(p, 2);\n\
  R x; x.r = ids[i]; x.n = 2;\n\
  reserve_id_t arr[3]; arr[i % 3] = x.r;\n\
  int s = is_valid_reserve_id(arr[i % 3]) ? 0 : -100;\n\
  for (int k = 0; k < x.n; k++) s |= write_pipe(p, arr[i % 3], k, &src[2 * i + k]);\n\
  commit_write_pipe(p, ids[i]); st[i] = s;\n\
}\n\
kernel void read_runs(global int *dst, read_only pipe int p, uint len, global int *st) {\n\
  size_t i = get_global_id(0);\n\
  reserve_id_t r = reserve_read_pipe(p, len);\n\
  int s = is_valid_reserve_id(r) ? 0 : -100;\n\
  for (uint k = 0; k < len; k++) s |= read_pipe(p, r, k, &dst[len * i + k]);\n\
  commit_read_pipe(p, r); st[i] = s;\n\
}\n";

#[test]
fn reservation_ids_live_in_private_local_and_global_memory() {
    const ITEMS: usize = 64;
    let src: Vec<i32> = (0..2 * ITEMS as i32).collect();
    for from in FROMS {
        let mut r = Run::new(ID_STORAGE, from);
        let input = r.buffer(&bytes_of(&src));
        let p = r.pipe(4, 2 * ITEMS);
        let (wst, rst, dst) = (r.ints(ITEMS), r.ints(ITEMS), r.ints(2 * ITEMS));
        // A work-group's reservation kept in local memory.
        r.run("via_local", &[A::Mem(input), A::Mem(p), A::Mem(wst)], ITEMS, Some(16));
        assert!(
            r.read_ints(wst, ITEMS).iter().all(|&s| s == 0),
            "{from:?}: via local memory"
        );
        r.run(
            "read_runs",
            &[A::Mem(dst), A::Mem(p), A::U32(16), A::Mem(rst)],
            ITEMS / 16,
            None,
        );
        assert!(r.read_ints(rst, ITEMS / 16).iter().all(|&s| s == 0), "{from:?}");
        runs_in_order(&r.read_ints(dst, ITEMS), 16, &format!("{from:?} via local memory"));
        // Per work-item reservations through global memory, a private
        // struct and a private array.
        let ids = r.buffer(&[0u8; 8 * ITEMS]);
        r.run(
            "via_global",
            &[A::Mem(input), A::Mem(p), A::Mem(wst), A::Mem(ids)],
            ITEMS,
            None,
        );
        assert!(
            r.read_ints(wst, ITEMS).iter().all(|&s| s == 0),
            "{from:?}: via global memory"
        );
        r.run(
            "read_runs",
            &[A::Mem(dst), A::Mem(p), A::U32(2), A::Mem(rst)],
            ITEMS,
            None,
        );
        assert!(r.read_ints(rst, ITEMS).iter().all(|&s| s == 0), "{from:?}");
        runs_in_order(&r.read_ints(dst, 2 * ITEMS), 2, &format!("{from:?} via global memory"));
    }
}

#[test]
fn as_many_active_reservations_as_the_device_allows() {
    // Each work-item holds every reservation it may at once (ids in a
    // private array), writes them in reverse order and commits them in
    // reverse order; one work-item then reads everything back. (do-while
    // loops: for loops here make llvm-spirv 15 put a loop's exit block
    // before its body, which spirv-val refuses.)
    let max: cl_uint = device_value(device(), CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS);
    assert!(max >= 1, "the spec's minimum");
    let src = format!(
        "#define M {max}\n\
         kernel void hold(write_only pipe int p, global int *st) {{\n\
           int i = get_global_id(0); reserve_id_t r[M]; int s = 0; int k = 0;\n\
           do {{ r[k] = reserve_write_pipe(p, 1); k++; }} while (k < M);\n\
           do {{ k--; int v = i * M + k; s |= is_valid_reserve_id(r[k]) ? write_pipe(p, r[k], 0, &v) : -100; }} while (k > 0);\n\
           do {{ commit_write_pipe(p, r[M - 1 - k]); k++; }} while (k < M);\n\
           st[i] = s; }}\n\
         kernel void all(read_only pipe int p, global int *out, uint n, global int *st) {{\n\
           int s = 0; for (uint k = 0; k < n; k++) s |= read_pipe(p, &out[k]); st[0] = s; }}\n"
    );
    const ITEMS: usize = 24;
    let total = ITEMS * max as usize;
    for from in FROMS {
        let mut r = Run::new(&src, from);
        let p = r.pipe(4, total);
        let (st, out) = (r.ints(ITEMS), r.ints(total));
        r.run("hold", &[A::Mem(p), A::Mem(st)], ITEMS, Some(4));
        assert!(r.read_ints(st, ITEMS).iter().all(|&s| s == 0), "{from:?}: reservations");
        r.run(
            "all",
            &[A::Mem(p), A::Mem(out), A::U32(total as u32), A::Mem(st)],
            1,
            None,
        );
        assert_eq!(r.read_ints(st, 1), [0], "{from:?}: reads");
        let got = r.read_ints(out, total);
        // Each work-item's packets in the order it reserved them.
        let mut last = [-1; ITEMS];
        for &v in &got {
            let i = v as usize / max as usize;
            assert!(
                i < ITEMS && v > last[i],
                "{from:?}: {v} after {}",
                last[i.min(ITEMS - 1)]
            );
            last[i] = v;
        }
        let mut sorted = got;
        sorted.sort_unstable();
        assert_eq!(sorted, (0..total as i32).collect::<Vec<_>>(), "{from:?}");
    }
}

#[test]
fn packets_up_to_the_largest_size_round_trip() {
    let max: cl_uint = device_value(device(), CL_DEVICE_PIPE_MAX_PACKET_SIZE);
    assert!(max >= 1024, "the spec's minimum");
    let sizes = [1024usize, 4000, max as usize];
    let mut src = String::new();
    for size in sizes {
        src.push_str(&format!("typedef struct {{ uchar b[{size}]; }} B{size};\n"));
        src.push_str(&pair(&format!("B{size}"), &format!("b{size}")));
    }
    // A work-item's private copy of a packet, too.
    src.push_str(&format!(
        "kernel void private_copy(global const B{max} *src, write_only pipe B{max} p, global int *st) {{\n\
         B{max} v = src[get_global_id(0)]; st[get_global_id(0)] = write_pipe(p, &v); }}\n"
    ));
    const N: usize = 6;
    for from in FROMS {
        let mut r = Run::new(&src, from);
        for size in sizes {
            let reader = format!("r_b{size}");
            round_trip(&mut r, &format!("w_b{size}"), &reader, size, N, &format!("{from:?}"));
            if size == max as usize {
                round_trip(&mut r, "private_copy", &reader, size, N, &format!("{from:?}"));
            }
        }
    }
}
