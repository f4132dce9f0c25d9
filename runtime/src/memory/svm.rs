//! Shared virtual memory: clSVMAlloc/clSVMFree and the SVM commands.
//!
//! The CPU device and the host share one address space, so an SVM
//! allocation is plain host memory at an address both see; coarse- and
//! fine-grained buffers differ only in what the application must
//! synchronise. Each context keeps its allocations ([`SvmRegistry`]) by
//! start address, so a pointer anywhere inside one finds it.

use std::collections::BTreeMap;
use std::sync::Arc;

use parking_lot::RwLock;

use super::storage::{self, Bytes, HostPtr, Storage};
use super::transfer::Command;
use crate::context::Context;
use crate::device::SVM_CAPABILITIES;
use crate::error::{fail, ClError, ClResult};
use crate::queue::Queue;
use opencl_sys::*;

/// The default alignment: the size of the largest data type (long16).
pub const SVM_DEFAULT_ALIGNMENT: usize = 128;

/// One allocation made by clSVMAlloc.
#[derive(Debug)]
struct SvmAlloc {
    storage: Arc<Storage>,
    flags: cl_svm_mem_flags,
}

/// An SVM allocation found by address.
#[derive(Debug, Clone)]
pub struct SvmRange {
    storage: Arc<Storage>,
    flags: cl_svm_mem_flags,
}

impl SvmRange {
    /// Start address.
    pub fn base(&self) -> usize {
        self.storage.addr()
    }

    /// Size passed to clSVMAlloc.
    pub fn len(&self) -> usize {
        self.storage.len()
    }

    /// Whether the allocation has no bytes (never: clSVMAlloc refuses 0).
    pub fn is_empty(&self) -> bool {
        self.storage.is_empty()
    }

    /// The flags passed to clSVMAlloc.
    pub fn flags(&self) -> cl_svm_mem_flags {
        self.flags
    }

    /// The allocation's store (holding it keeps the memory alive).
    pub fn storage(&self) -> &Arc<Storage> {
        &self.storage
    }

    /// Whether `[addr, addr + len)` lies inside the allocation.
    pub fn contains(&self, addr: usize, len: usize) -> bool {
        addr >= self.base() && storage::check_range(addr - self.base(), len, self.len()).is_ok()
    }

    /// The `len` bytes at `addr` (which must lie inside).
    pub fn bytes(&self, addr: usize, len: usize) -> ClResult<Bytes> {
        let off = addr.checked_sub(self.base()).ok_or(ClError(CL_INVALID_VALUE))?;
        Bytes::of(&self.storage, off, len)
    }
}

/// A context's SVM allocations, by start address.
#[derive(Debug, Default)]
pub struct SvmRegistry {
    allocs: RwLock<BTreeMap<usize, SvmAlloc>>,
}

impl SvmRegistry {
    /// The allocation that contains `addr`, if any.
    pub fn find(&self, addr: usize) -> Option<SvmRange> {
        let map = self.allocs.read();
        let (&base, a) = map.range(..=addr).next_back()?;
        // An address one past the end belongs to no allocation (unless
        // another starts there, which `range` would have found).
        if addr - base < a.storage.len() {
            Some(SvmRange {
                storage: a.storage.clone(),
                flags: a.flags,
            })
        } else {
            None
        }
    }

    /// Number of live allocations.
    pub fn count(&self) -> usize {
        self.allocs.read().len()
    }

    fn insert(&self, storage: Arc<Storage>, flags: cl_svm_mem_flags) -> usize {
        let base = storage.addr();
        self.allocs.write().insert(base, SvmAlloc { storage, flags });
        base
    }

    /// Forgets the allocation starting at `addr`; its memory is freed once no
    /// command or buffer still uses it. Returns whether there was one.
    pub fn remove(&self, addr: usize) -> bool {
        let removed = self.allocs.write().remove(&addr);
        removed.is_some()
    }
}

/// clSVMAlloc: the new allocation's address. Any error means NULL for the
/// application.
pub fn alloc(context: &Context, flags: cl_svm_mem_flags, size: usize, alignment: u32) -> ClResult<usize> {
    let allowed =
        CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
    // clSVMAlloc will fail if the values specified in flags are not valid,
    // i.e. do not match those defined in the SVM Memory Flags table; if
    // values specified in flags do not follow rules described for supported
    // values (CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY are
    // mutually exclusive).
    if flags & !allowed != 0 || (flags & super::ACCESS_FLAGS).count_ones() > 1 {
        return fail(CL_INVALID_VALUE);
    }
    // if flags does not contain CL_MEM_SVM_FINE_GRAIN_BUFFER but does contain
    // CL_MEM_SVM_ATOMICS.
    if flags & CL_MEM_SVM_ATOMICS != 0 && flags & CL_MEM_SVM_FINE_GRAIN_BUFFER == 0 {
        return fail(CL_INVALID_VALUE);
    }
    // if CL_MEM_SVM_FINE_GRAIN_BUFFER or CL_MEM_SVM_ATOMICS is specified in
    // flags and these are not supported by at least one device in context.
    if flags & CL_MEM_SVM_FINE_GRAIN_BUFFER != 0 && SVM_CAPABILITIES & CL_DEVICE_SVM_FINE_GRAIN_BUFFER == 0
        || flags & CL_MEM_SVM_ATOMICS != 0 && SVM_CAPABILITIES & CL_DEVICE_SVM_ATOMICS == 0
    {
        return fail(CL_INVALID_OPERATION);
    }
    // if size is 0 or > CL_DEVICE_MAX_MEM_ALLOC_SIZE value for any device in
    // context.
    if size == 0 || size as u64 > context.max_mem_alloc_size() {
        return fail(CL_INVALID_BUFFER_SIZE);
    }
    // if alignment is not a power of two. If alignment is 0, a default
    // alignment will be used that is equal to the size of largest data type
    // supported by the OpenCL implementation.
    let align = match alignment {
        0 => SVM_DEFAULT_ALIGNMENT,
        a if a.is_power_of_two() => (a as usize).max(SVM_DEFAULT_ALIGNMENT),
        _ => return fail(CL_INVALID_VALUE),
    };
    let storage = Arc::new(Storage::alloc(size, align)?);
    Ok(context.svm().insert(storage, flags))
}

/// clSVMFree: forgets the allocation at `ptr` (NULL or unknown pointers are
/// ignored). Buffers and commands that still use it keep its memory until
/// they are done.
pub fn free(context: &Context, ptr: usize) {
    if ptr != 0 {
        context.svm().remove(ptr);
    }
}

/// The `len` bytes at `ptr` for a command of `context`: inside an SVM
/// allocation (which the command then keeps alive) when the range lies in
/// one, else application memory under the `HostPtr` contract.
fn region(context: &Context, ptr: HostPtr, len: usize) -> ClResult<Bytes> {
    if let Some(r) = context.svm().find(ptr.addr()) {
        if r.contains(ptr.addr(), len) {
            return r.bytes(ptr.addr(), len);
        }
    }
    ptr.bytes(len).ok_or(ClError(CL_INVALID_VALUE))
}

/// The application's free callback of clEnqueueSVMFree, already wrapped by
/// the API layer: it receives the pointers to free.
pub type FreeFn = Box<dyn FnOnce(&mut [usize]) + Send>;

/// clEnqueueSVMFree. With `callback`, the command calls it with the
/// pointers; without, it frees them (they must come from clSVMAlloc).
pub fn enqueue_free(queue: &Arc<Queue>, pointers: Vec<usize>, callback: Option<FreeFn>) -> ClResult<Command> {
    let context = queue.context().clone();
    let mut pointers = pointers;
    Ok(Command::new(
        queue,
        CL_COMMAND_SVM_FREE,
        Box::new(move || {
            match callback {
                // If pfn_free_func is a valid callback function, the OpenCL
                // implementation will call pfn_free_func to free all the SVM
                // pointers specified in svm_pointers.
                Some(cb) => cb(&mut pointers),
                // If pfn_free_func is NULL, all pointers specified in
                // svm_pointers must be allocated using clSVMAlloc and the
                // OpenCL implementation will free these SVM pointers.
                None => pointers.iter().for_each(|&p| free(&context, p)),
            }
            Ok(())
        }),
    ))
}

/// clEnqueueSVMMemcpy.
pub fn memcpy(queue: &Arc<Queue>, dst: HostPtr, src: HostPtr, size: usize) -> ClResult<Command> {
    // CL_INVALID_VALUE if dst_ptr is NULL; if src_ptr is NULL.
    if dst.is_null() || src.is_null() {
        return fail(CL_INVALID_VALUE);
    }
    // CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr and
    // size result in an overlapping copy.
    if storage::ranges_overlap(dst.addr(), size, src.addr(), size) {
        return fail(CL_MEM_COPY_OVERLAP);
    }
    let ctx = queue.context();
    let d = region(ctx, dst, size)?;
    let s = region(ctx, src, size)?;
    let device = queue.device().clone();
    Ok(Command::new(
        queue,
        CL_COMMAND_SVM_MEMCPY,
        Box::new(move || storage::copy(&d, 0, &s, 0, size, Some(device.pool()))),
    ))
}

/// clEnqueueSVMMemFill.
pub fn mem_fill(
    queue: &Arc<Queue>,
    ptr: HostPtr,
    pattern: HostPtr,
    pattern_size: usize,
    size: usize,
) -> ClResult<Command> {
    // CL_INVALID_VALUE if svm_ptr is NULL.
    if ptr.is_null() {
        return fail(CL_INVALID_VALUE);
    }
    // if pattern is NULL; if pattern_size is zero; if pattern_size is not a
    // power of two; if pattern_size is greater than 128.
    let pat = super::transfer::read_pattern(pattern, pattern_size)?;
    // if svm_ptr is not aligned to pattern_size bytes; if size is not a
    // multiple of pattern_size.
    if !ptr.addr().is_multiple_of(pattern_size) || !size.is_multiple_of(pattern_size) {
        return fail(CL_INVALID_VALUE);
    }
    let d = region(queue.context(), ptr, size)?;
    let device = queue.device().clone();
    Ok(Command::new(
        queue,
        CL_COMMAND_SVM_MEMFILL,
        Box::new(move || storage::fill(&d, 0, size, &pat, Some(device.pool()))),
    ))
}

/// The valid `map_flags` combinations: CL_MAP_READ and/or CL_MAP_WRITE, or
/// CL_MAP_WRITE_INVALIDATE_REGION alone.
pub fn check_map_flags(flags: cl_map_flags) -> ClResult<()> {
    if flags & !(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0 {
        return fail(CL_INVALID_VALUE);
    }
    // CL_MAP_READ or CL_MAP_WRITE and CL_MAP_WRITE_INVALIDATE_REGION are
    // mutually exclusive.
    if flags & CL_MAP_WRITE_INVALIDATE_REGION != 0 && flags & (CL_MAP_READ | CL_MAP_WRITE) != 0 {
        return fail(CL_INVALID_VALUE);
    }
    Ok(())
}

/// clEnqueueSVMMap: a synchronisation point (the memory is already the
/// host's).
pub fn map(queue: &Arc<Queue>, flags: cl_map_flags, ptr: HostPtr, size: usize) -> ClResult<Command> {
    // CL_INVALID_VALUE if svm_ptr is NULL; if size is zero; if values
    // specified in map_flags are not valid.
    if ptr.is_null() || size == 0 {
        return fail(CL_INVALID_VALUE);
    }
    check_map_flags(flags)?;
    let keep = queue.context().svm().find(ptr.addr());
    Ok(Command::new(
        queue,
        CL_COMMAND_SVM_MAP,
        Box::new(move || {
            drop(keep);
            Ok(())
        }),
    ))
}

/// clEnqueueSVMUnmap: a synchronisation point.
pub fn unmap(queue: &Arc<Queue>, ptr: HostPtr) -> ClResult<Command> {
    // CL_INVALID_VALUE if svm_ptr is NULL.
    if ptr.is_null() {
        return fail(CL_INVALID_VALUE);
    }
    let keep = queue.context().svm().find(ptr.addr());
    Ok(Command::new(
        queue,
        CL_COMMAND_SVM_UNMAP,
        Box::new(move || {
            drop(keep);
            Ok(())
        }),
    ))
}

/// clEnqueueSVMMigrateMem: the memory is already where every clift device
/// and the host can use it; the command orders the migration's events.
pub fn migrate(
    queue: &Arc<Queue>,
    pointers: &[usize],
    sizes: Option<&[usize]>,
    flags: cl_mem_migration_flags,
) -> ClResult<Command> {
    // CL_INVALID_VALUE if num_svm_pointers is zero.
    if pointers.is_empty() {
        return fail(CL_INVALID_VALUE);
    }
    // if flags is not zero and is not a valid combination of the values
    // described in the Memory migration Flags table.
    if flags & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0 {
        return fail(CL_INVALID_VALUE);
    }
    let svm = queue.context().svm();
    let mut keep = Vec::with_capacity(pointers.len());
    for (i, &p) in pointers.iter().enumerate() {
        let size = sizes.map_or(0, |s| s[i]);
        // Each pointer in this array must be within an allocation produced by
        // a call to clSVMAlloc. CL_INVALID_VALUE if sizes[i] is non-zero and
        // the memory range described by svm_pointers[i] and sizes[i] is not
        // contained within an SVM allocation returned by clSVMAlloc.
        match svm.find(p) {
            Some(r) if r.contains(p, size) => keep.push(r),
            _ => return fail(CL_INVALID_VALUE),
        }
    }
    Ok(Command::new(
        queue,
        CL_COMMAND_SVM_MIGRATE_MEM,
        Box::new(move || {
            drop(keep);
            Ok(())
        }),
    ))
}
