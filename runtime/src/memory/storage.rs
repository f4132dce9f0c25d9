//! Raw host memory: the one place in the runtime that reads and writes
//! through raw pointers.
//!
//! Two kinds of memory are touched here:
//!
//! * [`Storage`]: the data store of a memory object or an SVM allocation,
//!   either allocated by clift (aligned, zeroed) or lent by the application
//!   (`CL_MEM_USE_HOST_PTR`).
//! * Application memory passed to a command (the `ptr` of a read or write,
//!   a fill pattern, the `args` of a native kernel), wrapped in a [`HostPtr`]
//!   by the API layer, which alone can vouch for it.
//!
//! Both become [`Bytes`]: an address range that is valid for as long as the
//! value lives. Every operation on `Bytes` ([`copy`], [`copy_rect`],
//! [`fill`], [`write()`], [`read`]) checks its offsets against the ranges, so
//! the only obligations left to callers are the ones the `unsafe`
//! constructors state.
//!
//! Concurrent commands may read and write the same memory; OpenCL makes the
//! application order conflicting accesses (with events, queues and maps), as
//! any shared-memory device must.

use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::Arc;

use opencl_sys::{CL_INVALID_VALUE, CL_MEM_OBJECT_ALLOCATION_FAILURE};
use rayon::prelude::*;

use crate::error::{fail, ClError, ClResult};

/// Copies and fills at least this large are split over the device's threads.
pub const PARALLEL_THRESHOLD: usize = 1 << 20;

/// The smallest piece of a parallel copy or fill.
const MIN_CHUNK: usize = 256 << 10;

/// A data store.
#[derive(Debug)]
pub struct Storage {
    /// First byte of the store (aligned as requested).
    ptr: NonNull<u8>,
    len: usize,
    /// What `calloc` returned, when clift owns the memory; NULL when the
    /// application lent it.
    raw: *mut c_void,
}

// SAFETY: a Storage is an address range plus ownership of a heap block. The
// block is freed once, by Drop; accesses to its bytes go through `Bytes`,
// whose operations are bounds-checked, and are ordered by the application as
// OpenCL requires.
unsafe impl Send for Storage {}
// SAFETY: as above; `&Storage` only exposes the address and length.
unsafe impl Sync for Storage {}

impl Storage {
    /// Allocates `len` zeroed bytes aligned to `align` (a power of two).
    /// `CL_MEM_OBJECT_ALLOCATION_FAILURE` if the system has no memory for it.
    pub fn alloc(len: usize, align: usize) -> ClResult<Storage> {
        if !align.is_power_of_two() {
            return fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
        }
        // calloc gives zeroed memory cheaply (fresh pages stay untouched
        // until used); over-allocating by `align` lets the store start at an
        // aligned address inside the block.
        let total = len
            .max(1)
            .checked_add(align)
            .ok_or(ClError(CL_MEM_OBJECT_ALLOCATION_FAILURE))?;
        // SAFETY: calloc has no preconditions; a NULL result is handled.
        let raw = unsafe { libc::calloc(1, total) };
        if raw.is_null() {
            return fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
        }
        let skip = (align - (raw as usize) % align) % align;
        // SAFETY: `skip < align`, so `raw + skip` and the `len` bytes after it
        // lie inside the `len + align` bytes just allocated.
        let ptr = unsafe { (raw as *mut u8).add(skip) };
        Ok(Storage {
            ptr: NonNull::new(ptr).ok_or(ClError(CL_MEM_OBJECT_ALLOCATION_FAILURE))?,
            len,
            raw,
        })
    }

    /// The application's memory at `ptr` as a store (`CL_MEM_USE_HOST_PTR`).
    /// `None` if `ptr` is NULL.
    ///
    /// # Safety
    ///
    /// `ptr` must be valid for reads and writes of `len` bytes for as long as
    /// the returned store (and every `Bytes` made from it) lives. The OpenCL
    /// API contract gives this: the application keeps `host_ptr` valid until
    /// the memory object's destructor callbacks have run.
    pub unsafe fn borrowed(ptr: *mut c_void, len: usize) -> Option<Storage> {
        Some(Storage {
            ptr: NonNull::new(ptr as *mut u8)?,
            len,
            raw: std::ptr::null_mut(),
        })
    }

    /// Address of the first byte.
    pub fn addr(&self) -> usize {
        self.ptr.as_ptr() as usize
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the store has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether clift allocated this store (as opposed to borrowing it).
    pub fn is_owned(&self) -> bool {
        !self.raw.is_null()
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        if !self.raw.is_null() {
            // SAFETY: `raw` came from calloc in `Storage::alloc` and is freed
            // only here, once.
            unsafe { libc::free(self.raw) };
        }
    }
}

/// Application memory passed to a command, whose extent the call's other
/// arguments define (a size, or a rectangle with pitches).
#[derive(Debug, Clone, Copy)]
pub struct HostPtr(*mut u8);

impl HostPtr {
    /// Wraps the application's pointer.
    ///
    /// # Safety
    ///
    /// `ptr` must be NULL or valid, for every byte that the call it came with
    /// describes, for the accesses that call implies (reads of the data
    /// clift reads, writes of the data clift writes), until the command it
    /// is given to has completed (for data read at enqueue time, such as
    /// fill patterns and native-kernel arguments, until the call returns).
    /// This is the OpenCL API contract for the `ptr` arguments of transfers
    /// and for SVM pointers.
    pub unsafe fn new(ptr: *const c_void) -> HostPtr {
        HostPtr(ptr as *mut u8)
    }

    /// Whether the application passed NULL.
    pub fn is_null(&self) -> bool {
        self.0.is_null()
    }

    /// The pointer value.
    pub fn addr(&self) -> usize {
        self.0 as usize
    }

    /// The `len` bytes at the pointer, or `None` if it is NULL.
    pub fn bytes(&self, len: usize) -> Option<Bytes> {
        if self.0.is_null() {
            return None;
        }
        Some(Bytes {
            ptr: self.0,
            len,
            _keep: None,
        })
    }
}

/// An address range clift may read and write while this value lives.
#[derive(Debug, Clone)]
pub struct Bytes {
    ptr: *mut u8,
    len: usize,
    /// The store the range lies in, kept alive with it.
    _keep: Option<Arc<Storage>>,
}

// SAFETY: `Bytes` is an address range that stays valid while it lives (the
// store is kept alive by `_keep`; application memory by the `HostPtr`
// contract, which covers whatever thread runs the command).
unsafe impl Send for Bytes {}
// SAFETY: as above; shared `Bytes` only copy through bounds-checked operations.
unsafe impl Sync for Bytes {}

impl Bytes {
    /// `len` bytes of `storage` from `offset`; `CL_INVALID_VALUE` if they are
    /// not all inside it.
    pub fn of(storage: &Arc<Storage>, offset: usize, len: usize) -> ClResult<Bytes> {
        check_range(offset, len, storage.len)?;
        Ok(Bytes {
            // SAFETY: `offset <= storage.len`, checked above, so the result is
            // inside the allocation or one past its end.
            ptr: unsafe { storage.ptr.as_ptr().add(offset) },
            len,
            _keep: Some(storage.clone()),
        })
    }

    /// The part of these bytes at `offset`, `len` long.
    pub fn slice(&self, offset: usize, len: usize) -> ClResult<Bytes> {
        check_range(offset, len, self.len)?;
        Ok(Bytes {
            // SAFETY: `offset <= self.len`, checked above.
            ptr: unsafe { self.ptr.add(offset) },
            len,
            _keep: self._keep.clone(),
        })
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the range is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Address of the first byte.
    pub fn addr(&self) -> usize {
        self.ptr as usize
    }

    /// The first byte as a pointer, for handing to the application (a
    /// mapped region) or to kernels.
    pub fn as_ptr(&self) -> *mut c_void {
        self.ptr as *mut c_void
    }

    /// Pointer to `offset` (checked to be inside the range).
    fn at(&self, offset: usize, len: usize) -> ClResult<*mut u8> {
        check_range(offset, len, self.len)?;
        // SAFETY: `offset + len <= self.len`, checked above.
        Ok(unsafe { self.ptr.add(offset) })
    }
}

/// `CL_INVALID_VALUE` unless `[offset, offset + len)` lies in `[0, total)`.
pub fn check_range(offset: usize, len: usize, total: usize) -> ClResult<()> {
    match offset.checked_add(len) {
        Some(end) if end <= total => Ok(()),
        _ => fail(CL_INVALID_VALUE),
    }
}

/// Whether two address ranges share a byte.
pub fn ranges_overlap(a: usize, a_len: usize, b: usize, b_len: usize) -> bool {
    a_len > 0 && b_len > 0 && a < b.saturating_add(b_len) && b < a.saturating_add(a_len)
}

/// How many pieces to split `len` bytes into on `pool`.
fn pieces(len: usize, pool: Option<&rayon::ThreadPool>) -> usize {
    match pool {
        Some(p) if len >= PARALLEL_THRESHOLD => (len / MIN_CHUNK).clamp(1, p.current_num_threads().max(1) * 4),
        _ => 1,
    }
}

/// Copies `len` bytes from `src` at `src_off` to `dst` at `dst_off`. Ranges
/// that overlap in memory are copied as by `memmove`; large disjoint ones in
/// parallel on `pool`.
pub fn copy(
    dst: &Bytes,
    dst_off: usize,
    src: &Bytes,
    src_off: usize,
    len: usize,
    pool: Option<&rayon::ThreadPool>,
) -> ClResult<()> {
    let d = dst.at(dst_off, len)?;
    let s = src.at(src_off, len)?;
    if len == 0 || std::ptr::eq(d, s) {
        return Ok(());
    }
    let n = pieces(len, pool);
    if n <= 1 || ranges_overlap(d as usize, len, s as usize, len) {
        // SAFETY: both ranges were checked to lie inside live `Bytes`;
        // `copy` allows them to overlap.
        unsafe { std::ptr::copy(s, d, len) };
        return Ok(());
    }
    let chunk = len.div_ceil(n);
    let run = || {
        (0..n).into_par_iter().try_for_each(|i| {
            let start = (i * chunk).min(len);
            let part = chunk.min(len - start);
            copy_disjoint(dst, dst_off + start, src, src_off + start, part)
        })
    };
    match pool {
        Some(p) => p.install(run),
        None => run(),
    }
}

/// One piece of a parallel copy between ranges known not to overlap.
fn copy_disjoint(dst: &Bytes, dst_off: usize, src: &Bytes, src_off: usize, len: usize) -> ClResult<()> {
    let d = dst.at(dst_off, len)?;
    let s = src.at(src_off, len)?;
    // SAFETY: both ranges lie inside live `Bytes` (checked just above) and
    // the caller checked that the whole ranges they belong to do not overlap.
    unsafe { std::ptr::copy_nonoverlapping(s, d, len) };
    Ok(())
}

/// Copies `out.len()` bytes from `src` at `offset` into `out`.
pub fn read(src: &Bytes, offset: usize, out: &mut [u8]) -> ClResult<()> {
    let s = src.at(offset, out.len())?;
    // SAFETY: the source range lies inside `src`; `out` is a distinct Rust
    // buffer, so the two do not overlap.
    unsafe { std::ptr::copy_nonoverlapping(s, out.as_mut_ptr(), out.len()) };
    Ok(())
}

/// Copies `data` into `dst` at `offset`.
pub fn write(dst: &Bytes, offset: usize, data: &[u8]) -> ClResult<()> {
    let d = dst.at(offset, data.len())?;
    // SAFETY: the destination range lies inside `dst`; `data` is a distinct
    // Rust buffer, so the two do not overlap.
    unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), d, data.len()) };
    Ok(())
}

/// Fills `len` bytes of `dst` from `offset` with repetitions of `pattern`
/// (whose length divides `len`). Large fills run in parallel on `pool`.
pub fn fill(dst: &Bytes, offset: usize, len: usize, pattern: &[u8], pool: Option<&rayon::ThreadPool>) -> ClResult<()> {
    let p = pattern.len();
    if p == 0 || !len.is_multiple_of(p) {
        return fail(CL_INVALID_VALUE);
    }
    dst.at(offset, len)?;
    let n = pieces(len, pool);
    if n <= 1 {
        return fill_piece(dst, offset, len, pattern);
    }
    // Pieces are whole multiples of the pattern, so each starts with it.
    let chunk = len.div_ceil(n).div_ceil(p) * p;
    let run = || {
        (0..n).into_par_iter().try_for_each(|i| {
            let start = (i * chunk).min(len);
            let part = chunk.min(len - start);
            fill_piece(dst, offset + start, part, pattern)
        })
    };
    match pool {
        Some(pl) => pl.install(run),
        None => run(),
    }
}

/// Fills one range by writing the pattern once and doubling the filled prefix.
fn fill_piece(dst: &Bytes, offset: usize, len: usize, pattern: &[u8]) -> ClResult<()> {
    let d = dst.at(offset, len)?;
    if len == 0 {
        return Ok(());
    }
    if pattern.iter().all(|&b| b == pattern[0]) {
        // SAFETY: `d..d + len` lies inside `dst`, checked above.
        unsafe { std::ptr::write_bytes(d, pattern[0], len) };
        return Ok(());
    }
    // SAFETY: `pattern.len()` divides `len` (checked by `fill`), so the
    // pattern fits at the start of the range; `pattern` is a Rust buffer
    // distinct from the destination.
    unsafe { std::ptr::copy_nonoverlapping(pattern.as_ptr(), d, pattern.len()) };
    let mut filled = pattern.len();
    while filled < len {
        let n = filled.min(len - filled);
        // SAFETY: `d..d + filled` is initialised and `d + filled..d + filled
        // + n` is inside the range (`filled + n <= len`); the two do not
        // overlap.
        unsafe { std::ptr::copy_nonoverlapping(d, d.add(filled), n) };
        filled += n;
    }
    Ok(())
}

/// One side of a rectangular copy: where the rectangle starts and how rows
/// and slices are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Byte offset of the rectangle's first byte.
    pub offset: usize,
    /// Bytes from one row to the next.
    pub row_pitch: usize,
    /// Bytes from one slice to the next.
    pub slice_pitch: usize,
}

impl Rect {
    /// Offset of row `y` of slice `z`.
    fn row(&self, y: usize, z: usize) -> usize {
        self.offset + z * self.slice_pitch + y * self.row_pitch
    }

    /// One past the last byte a `region` touches; `None` on overflow.
    pub fn end(&self, region: [usize; 3]) -> Option<usize> {
        if region.contains(&0) {
            return Some(self.offset);
        }
        (region[2] - 1)
            .checked_mul(self.slice_pitch)?
            .checked_add((region[1] - 1).checked_mul(self.row_pitch)?)?
            .checked_add(region[0])?
            .checked_add(self.offset)
    }
}

/// Copies a `region` (width in bytes, rows, slices) from `src` laid out as
/// `src_rect` to `dst` laid out as `dst_rect`, row by row in order (rows of
/// large regions in parallel on `pool` when the two sides cannot overlap).
pub fn copy_rect(
    dst: &Bytes,
    dst_rect: Rect,
    src: &Bytes,
    src_rect: Rect,
    region: [usize; 3],
    pool: Option<&rayon::ThreadPool>,
) -> ClResult<()> {
    if region.contains(&0) {
        return Ok(());
    }
    // Check the whole extent on both sides up front.
    let dst_end = dst_rect.end(region).ok_or(ClError(CL_INVALID_VALUE))?;
    let src_end = src_rect.end(region).ok_or(ClError(CL_INVALID_VALUE))?;
    check_range(0, dst_end, dst.len)?;
    check_range(0, src_end, src.len)?;
    let rows = region[1] * region[2];
    let total = rows.saturating_mul(region[0]);
    let disjoint = !ranges_overlap(
        dst.addr() + dst_rect.offset,
        dst_end - dst_rect.offset,
        src.addr() + src_rect.offset,
        src_end - src_rect.offset,
    );
    let copy_row = |r: usize| {
        let (y, z) = (r % region[1], r / region[1]);
        copy(dst, dst_rect.row(y, z), src, src_rect.row(y, z), region[0], None)
    };
    if pieces(total, pool) > 1 && disjoint && rows > 1 {
        let run = || (0..rows).into_par_iter().try_for_each(copy_row);
        return match pool {
            Some(p) => p.install(run),
            None => run(),
        };
    }
    (0..rows).try_for_each(copy_row)
}

/// Fills a `region` (width in bytes, rows, slices) of `dst` laid out as
/// `rect` with repetitions of `pattern` (whose length divides the width),
/// each row from its start; the rows of large regions in parallel on
/// `pool`.
pub fn fill_rect(
    dst: &Bytes,
    rect: Rect,
    region: [usize; 3],
    pattern: &[u8],
    pool: Option<&rayon::ThreadPool>,
) -> ClResult<()> {
    if region.contains(&0) {
        return Ok(());
    }
    let end = rect.end(region).ok_or(ClError(CL_INVALID_VALUE))?;
    check_range(0, end, dst.len)?;
    let rows = region[1] * region[2];
    let fill_row = |r: usize| {
        let (y, z) = (r % region[1], r / region[1]);
        fill(dst, rect.row(y, z), region[0], pattern, None)
    };
    if pieces(rows.saturating_mul(region[0]), pool) > 1 && rows > 1 {
        let run = || (0..rows).into_par_iter().try_for_each(fill_row);
        return match pool {
            Some(p) => p.install(run),
            None => run(),
        };
    }
    (0..rows).try_for_each(fill_row)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(len: usize) -> Arc<Storage> {
        Arc::new(Storage::alloc(len, 128).expect("alloc"))
    }

    #[test]
    fn alloc_is_aligned_and_zeroed() {
        let s = store(1000);
        assert_eq!(s.addr() % 128, 0);
        let b = Bytes::of(&s, 0, 1000).expect("bytes");
        let mut out = vec![1u8; 1000];
        read(&b, 0, &mut out).expect("read");
        assert!(out.iter().all(|&x| x == 0));
    }

    #[test]
    fn bounds_are_checked() {
        let s = store(16);
        assert!(Bytes::of(&s, 8, 9).is_err());
        let b = Bytes::of(&s, 8, 8).expect("bytes");
        assert!(write(&b, 4, &[0; 5]).is_err());
        assert!(b.slice(usize::MAX, 2).is_err());
    }

    #[test]
    fn parallel_copy_and_fill() {
        let n = 8 << 20;
        let a = Bytes::of(&store(n), 0, n).expect("a");
        let b = Bytes::of(&store(n), 0, n).expect("b");
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().expect("pool");
        fill(&a, 0, n, &[1, 2, 3, 4], Some(&pool)).expect("fill");
        copy(&b, 0, &a, 0, n, Some(&pool)).expect("copy");
        let mut out = vec![0u8; n];
        read(&b, 0, &mut out).expect("read");
        assert!(out.chunks(4).all(|c| c == [1, 2, 3, 4]));
    }

    #[test]
    fn overlapping_copy_is_memmove() {
        let s = store(8);
        let b = Bytes::of(&s, 0, 8).expect("b");
        write(&b, 0, &[0, 1, 2, 3, 4, 5, 6, 7]).expect("write");
        copy(&b, 2, &b, 0, 6, None).expect("copy");
        let mut out = [0u8; 8];
        read(&b, 0, &mut out).expect("read");
        assert_eq!(out, [0, 1, 0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn rect_copy_moves_rows() {
        let s = store(64);
        let d = store(64);
        let src = Bytes::of(&s, 0, 64).expect("src");
        let dst = Bytes::of(&d, 0, 64).expect("dst");
        let data: Vec<u8> = (0..64).collect();
        write(&src, 0, &data).expect("write");
        let sr = Rect {
            offset: 9,
            row_pitch: 8,
            slice_pitch: 32,
        };
        let dr = Rect {
            offset: 0,
            row_pitch: 4,
            slice_pitch: 8,
        };
        copy_rect(&dst, dr, &src, sr, [3, 2, 2], None).expect("rect");
        let mut out = [0u8; 16];
        read(&dst, 0, &mut out).expect("read");
        assert_eq!(&out[0..3], &[9, 10, 11]);
        assert_eq!(&out[4..7], &[17, 18, 19]);
        assert_eq!(&out[8..11], &[41, 42, 43]);
        assert_eq!(&out[12..15], &[49, 50, 51]);
    }

    #[test]
    fn rect_fill_writes_only_the_rows() {
        let s = store(64);
        let b = Bytes::of(&s, 0, 64).expect("b");
        let r = Rect {
            offset: 2,
            row_pitch: 8,
            slice_pitch: 32,
        };
        fill_rect(&b, r, [4, 2, 2], &[7, 9], None).expect("fill");
        let mut out = [0u8; 64];
        read(&b, 0, &mut out).expect("read");
        for (i, &v) in out.iter().enumerate() {
            let (z, y, x) = (i / 32, (i % 32) / 8, i % 8);
            let inside = y < 2 && (2..6).contains(&x) && z < 2;
            let want = if inside { [7, 9][(x - 2) % 2] } else { 0 };
            assert_eq!(v, want, "byte {i}");
        }
        assert!(fill_rect(&b, r, [4, 2, 3], &[1], None).is_err());
    }
}
