//! The machine's streaming bandwidth by access width, without clift: the
//! reference for the memory-bound workloads (clbench's vadd and saxpy,
//! README "Performance"). `c[i] = a[i] + b[i]` over 16M floats (clbench's
//! vadd size), 64-byte aligned, split in two halves on two threads (as the
//! host C code of clbench, OpenMP's static schedule), with 16-byte (SSE,
//! the widest vectors Cranelift emits), 32-byte (AVX) and 64-byte
//! (AVX-512F, where the CPU has it) loads and stores. Criterion reports
//! bytes per second (12 per element: two read, one written).

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::arch::x86_64::*;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Floats per array.
const N: usize = 1 << 24;

/// A zeroed, page-aligned array of [`N`] floats.
struct Buffer(*mut f32);

impl Buffer {
    fn layout() -> Layout {
        Layout::from_size_align(N * 4, 4096).expect("a valid layout")
    }

    fn new(fill: f32) -> Buffer {
        // SAFETY: the layout has a non-zero size.
        let p = unsafe { alloc_zeroed(Self::layout()) }.cast::<f32>();
        assert!(!p.is_null(), "out of memory");
        for i in 0..N {
            // SAFETY: `p` holds N floats.
            unsafe { p.add(i).write(fill + (i % 7) as f32) };
        }
        Buffer(p)
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        // SAFETY: allocated by `new` with this layout.
        unsafe { dealloc(self.0.cast(), Self::layout()) };
    }
}

/// One thread's part `[lo, hi)` of the sum, `hi - lo` a multiple of 16.
type Part = unsafe fn(*const f32, *const f32, *mut f32, usize, usize);

/// 16-byte loads and stores.
///
/// # Safety
/// The three arrays hold at least `hi` floats.
unsafe fn sse(a: *const f32, b: *const f32, c: *mut f32, lo: usize, hi: usize) {
    let mut i = lo;
    while i < hi {
        // SAFETY: SSE is part of x86-64; `i + 4 <= hi`.
        unsafe { _mm_storeu_ps(c.add(i), _mm_add_ps(_mm_loadu_ps(a.add(i)), _mm_loadu_ps(b.add(i)))) };
        i += 4;
    }
}

/// 32-byte loads and stores.
///
/// # Safety
/// As [`sse`]; the CPU has AVX.
#[target_feature(enable = "avx")]
unsafe fn avx(a: *const f32, b: *const f32, c: *mut f32, lo: usize, hi: usize) {
    let mut i = lo;
    while i < hi {
        // SAFETY: `i + 8 <= hi`.
        unsafe {
            _mm256_storeu_ps(
                c.add(i),
                _mm256_add_ps(_mm256_loadu_ps(a.add(i)), _mm256_loadu_ps(b.add(i))),
            )
        };
        i += 8;
    }
}

/// 64-byte loads and stores.
///
/// # Safety
/// As [`sse`]; the CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn avx512(a: *const f32, b: *const f32, c: *mut f32, lo: usize, hi: usize) {
    let mut i = lo;
    while i < hi {
        // SAFETY: `i + 16 <= hi`.
        unsafe {
            _mm512_storeu_ps(
                c.add(i),
                _mm512_add_ps(_mm512_loadu_ps(a.add(i)), _mm512_loadu_ps(b.add(i))),
            )
        };
        i += 16;
    }
}

/// The whole sum, half on each of two threads.
fn run(part: Part, a: &Buffer, b: &Buffer, c: &Buffer) {
    // Addresses as integers: the threads use disjoint halves of `c`.
    let (pa, pb, pc) = (a.0 as usize, b.0 as usize, c.0 as usize);
    std::thread::scope(|s| {
        for t in 0..2 {
            s.spawn(move || {
                // SAFETY: each array holds N floats; the two threads write
                // disjoint halves of `c`, and `part`'s CPU feature was
                // detected before it was chosen.
                unsafe {
                    part(
                        pa as *const f32,
                        pb as *const f32,
                        pc as *mut f32,
                        t * N / 2,
                        (t + 1) * N / 2,
                    )
                };
            });
        }
    });
}

fn stream(cr: &mut Criterion) {
    let (a, b, c) = (Buffer::new(1.0), Buffer::new(2.0), Buffer::new(0.0));
    let mut g = cr.benchmark_group("stream_vadd");
    g.throughput(Throughput::Bytes((12 * N) as u64));
    let mut widths: Vec<(&str, Part)> = vec![("16_bytes", sse)];
    if is_x86_feature_detected!("avx") {
        widths.push(("32_bytes", avx));
    }
    if is_x86_feature_detected!("avx512f") {
        widths.push(("64_bytes", avx512));
    } else {
        eprintln!("stream: no AVX-512F on this CPU, so no 64-byte accesses");
    }
    for (name, part) in widths {
        g.bench_function(name, |bench| bench.iter(|| run(part, &a, &b, &c)));
    }
    g.finish();
    // SAFETY: `c` holds N floats, written by the runs above: a[5] + b[5].
    assert_eq!(unsafe { c.0.add(5).read() }, 6.0 + 7.0, "the sum is wrong");
}

criterion_group!(benches, stream);
criterion_main!(benches);
