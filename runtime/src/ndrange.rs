//! NDRange launches (API spec 5.10, clEnqueueNDRangeKernel and
//! clEnqueueTask): the enqueue checks in the spec's order
//! ([`Kernel::check_launch`]), the local size chosen when the application
//! gives none ([`Kernel::suggest_local_size`]), and the command
//! ([`enqueue_ndrange`]): the argument values snapshot into an argument
//! block laid out by [`jit::launch_abi::arg_offsets`], then the kernel's
//! work-group function run once per work-group, ranges of work-groups
//! spread over the device's rayon pool, each range with its own local and
//! private arenas.

use std::sync::Arc;

use clift_jit as jit;

use crate::device::{self, Device};
use crate::device_enqueue::{EnqueueState, LaunchHooks};
use crate::device_queue::DeviceQueue;
use crate::error::{fail, ClResult};
use crate::event::{Event, Work};
use crate::kernel::{ArgValue, Kernel, KernelInfo};
use crate::memory::storage::Storage;
use crate::memory::{MemObject, MEM_BASE_ADDR_ALIGN};
use crate::queue::Queue;
use opencl_sys::*;

/// The work-item counts of a checked ND-range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NdRange {
    /// 1, 2 or 3.
    pub work_dim: u32,
    /// Global ID offset per dimension (0 beyond `work_dim`).
    pub offset: [usize; 3],
    /// Global size per dimension (1 beyond `work_dim`); `None` when the
    /// application passed NULL or a zero size: "the kernel command will
    /// trivially succeed after its event dependencies are satisfied".
    pub global: Option<[usize; 3]>,
    /// The local size the application gave (1 beyond `work_dim`), or `None`.
    pub local: Option<[usize; 3]>,
}

impl Kernel {
    /// Checks an enqueue of this kernel on `queue` with the spec's errors of
    /// clEnqueueNDRangeKernel, in its order, up to (not including) the wait
    /// list. Arrays hold `work_dim` entries (the API layer reads none when
    /// `work_dim` is out of range).
    pub fn check_launch(
        &self,
        queue: &Arc<Queue>,
        work_dim: u32,
        offset: Option<&[usize]>,
        global: Option<&[usize]>,
        local: Option<&[usize]>,
    ) -> ClResult<NdRange> {
        let device = queue.device();
        // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
        // program executable available for the device associated with
        // command_queue.
        let Some(exe) = self.program().executable_for(device) else {
            return fail(CL_INVALID_PROGRAM_EXECUTABLE);
        };
        // CL_INVALID_CONTEXT if the context associated with command_queue
        // and kernel are not the same.
        if !Arc::ptr_eq(queue.context(), self.context()) {
            return fail(CL_INVALID_CONTEXT);
        }
        let args = self.arg_values();
        // CL_INVALID_KERNEL_ARGS if any kernel arguments for kernel have not
        // been set. An argument naming a memory object the application has
        // released names nothing any more: it is as good as unset (the
        // spec leaves the case undefined; this is its nearest error).
        if args.iter().any(|a| match a {
            None => true,
            Some(ArgValue::Mem(Some(m))) => m.get().is_none(),
            Some(ArgValue::Queue(q)) => q.get().is_none(),
            Some(_) => false,
        }) {
            return fail(CL_INVALID_KERNEL_ARGS);
        }
        // CL_INVALID_WORK_DIMENSION if work_dim is not valid for the device
        // associated with command_queue.
        if !(1..=device::MAX_WORK_ITEM_DIMENSIONS).contains(&work_dim) {
            return fail(CL_INVALID_WORK_DIMENSION);
        }
        let dims = work_dim as usize;
        let mut off = [0usize; 3];
        if let Some(o) = offset {
            off[..dims].copy_from_slice(&o[..dims]);
        }
        // "If global_work_size is NULL or the value in any passed dimension
        // is zero, then the kernel command will trivially succeed" (OpenCL
        // 2.1 and newer devices).
        let gws = global.filter(|g| g[..dims].iter().all(|&v| v != 0)).map(|g| {
            let mut a = [1usize; 3];
            a[..dims].copy_from_slice(&g[..dims]);
            a
        });
        if let Some(g) = &gws {
            // CL_INVALID_GLOBAL_OFFSET if the value specified in
            // global_work_size plus the corresponding value in
            // global_work_offset for any dimensions is greater than the
            // maximum value representable by size_t on the device.
            if (0..dims).any(|i| g[i].checked_add(off[i]).is_none()) {
                return fail(CL_INVALID_GLOBAL_OFFSET);
            }
        }
        let lws = local.map(|l| {
            let mut a = [1usize; 3];
            a[..dims].copy_from_slice(&l[..dims]);
            a
        });
        if let Some(l) = &lws {
            let total = l.iter().try_fold(1usize, |a, &b| a.checked_mul(b));
            // CL_INVALID_WORK_GROUP_SIZE if local_work_size is not NULL and
            // if the total number of work-items in the work-group is zero
            if total == Some(0) {
                return fail(CL_INVALID_WORK_GROUP_SIZE);
            }
            // CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified
            // in any dimension of local_work_size is greater than the
            // corresponding value returned for CL_DEVICE_MAX_WORK_GROUP_SIZES.
            // (Checked before the total, which such a size also exceeds, so
            // the more precise code is the one reported.)
            if (0..dims).any(|i| l[i] > device::MAX_WORK_ITEM_SIZES[i]) {
                return fail(CL_INVALID_WORK_ITEM_SIZE);
            }
            // CL_INVALID_WORK_GROUP_SIZE if local_work_size is not NULL and
            // if the total number of work-items in the work-group is greater
            // than the value returned for CL_KERNEL_WORK_GROUP_SIZE
            if total.is_none_or(|t| t > self.work_group_size()) {
                return fail(CL_INVALID_WORK_GROUP_SIZE);
            }
            // ... or if the local_work_size does not match the required
            // work-group size for kernel
            if let Some(r) = self.info_of().reqd_work_group_size {
                if *l != r {
                    return fail(CL_INVALID_WORK_GROUP_SIZE);
                }
            }
            // ... or if the work-group size must be uniform, and the
            // global_work_size is not evenly divisible by the
            // local_work_size. (Non-uniform work-groups are supported unless
            // the program was built with -cl-uniform-work-group-size.)
            if let Some(g) = &gws {
                if exe.options.uniform_work_group_size && (0..dims).any(|i| g[i] % l[i] != 0) {
                    return fail(CL_INVALID_WORK_GROUP_SIZE);
                }
            }
        }
        for a in args.iter().flatten() {
            match a {
                // CL_MISALIGNED_SUB_BUFFER_OFFSET if a kernel argument for
                // kernel is a sub-buffer object and the offset specified when
                // the sub-buffer object is created is not aligned to
                // CL_DEVICE_MEM_BASE_ADDR_ALIGN.
                ArgValue::Mem(Some(m)) if m.get().is_some_and(|m| m.origin() % MEM_BASE_ADDR_ALIGN != 0) => {
                    return fail(CL_MISALIGNED_SUB_BUFFER_OFFSET);
                }
                // CL_INVALID_OPERATION if system pointers are set as
                // arguments for kernel and the device associated with
                // command_queue does not support fine-grain system SVM.
                ArgValue::Svm(p)
                    if device::SVM_CAPABILITIES & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM == 0
                        && *p != 0
                        && self.context().svm().find(*p).is_none() =>
                {
                    return fail(CL_INVALID_OPERATION);
                }
                _ => {}
            }
        }
        // CL_OUT_OF_RESOURCES if there is a failure to allocate resources
        // required by the OpenCL implementation on the device: more local
        // memory than the device has.
        if self.local_mem_size() > device::local_mem_size() {
            return fail(CL_OUT_OF_RESOURCES);
        }
        Ok(NdRange {
            work_dim,
            offset: off,
            global: gws,
            local: lws,
        })
    }

    /// clGetKernelSuggestedLocalWorkSizeKHR's answer for a checked range
    /// with no local size: the local size an enqueue with a NULL local size
    /// uses. The required work-group size if the kernel has one; else a
    /// uniform size (each dimension divides the global size) of at most
    /// CL_KERNEL_WORK_GROUP_SIZE work-items, small enough that every CPU of
    /// the device gets a work-group when the range is big enough, with the
    /// largest share in dimension 0 (contiguous work-items stay together).
    pub fn suggest_local_size(&self, device: &Device, range: &NdRange) -> [usize; 3] {
        suggested_local_size(self.info_of(), self.work_group_size(), device, range)
    }
}

/// [`Kernel::suggest_local_size`] for kernel `info` whose
/// CL_KERNEL_WORK_GROUP_SIZE is `work_group_size` (also for the kernels
/// device-side enqueue launches).
pub fn suggested_local_size(info: &KernelInfo, work_group_size: usize, device: &Device, range: &NdRange) -> [usize; 3] {
    if let Some(r) = info.reqd_work_group_size {
        return r;
    }
    let Some(global) = range.global else {
        return [1; 3];
    };
    let dims = range.work_dim as usize;
    let items = global[..dims]
        .iter()
        .try_fold(1usize, |a, &b| a.checked_mul(b))
        .unwrap_or(usize::MAX);
    let units = device.compute_units().max(1) as usize;
    let mut budget = work_group_size.min((items / units).max(1));
    let mut out = [1usize; 3];
    for i in 0..dims {
        let cap = budget.min(device::MAX_WORK_ITEM_SIZES[i]).min(global[i]);
        let pick = (1..=cap).rev().find(|c| global[i] % c == 0).unwrap_or(1);
        out[i] = pick;
        budget /= pick;
    }
    out
}

/// clEnqueueNDRangeKernel and clEnqueueTask (`command_type`
/// CL_COMMAND_NDRANGE_KERNEL or CL_COMMAND_TASK), once every argument has
/// been checked ([`Kernel::check_launch`], the wait list's context).
///
/// The argument values are snapshot now (later clSetKernelArg calls do not
/// change the command) into an argument block laid out by
/// [`jit::launch_abi::arg_offsets`]; the command runs the kernel's
/// work-group function once per work-group, in parallel on the device's
/// pool. A kernel that code generation does not support yet has no
/// work-group function: the call reports `CL_INVALID_PROGRAM_EXECUTABLE`
/// ("if there is no successfully built program executable available for
/// the device associated with command_queue"), and the build log says why.
pub fn enqueue_ndrange(
    queue: &Arc<Queue>,
    kernel: &Arc<Kernel>,
    command_type: cl_command_type,
    range: NdRange,
    wait: &[Arc<Event>],
) -> ClResult<Arc<Event>> {
    // CL_INVALID_CONTEXT if the context associated with command_queue and
    // events in event_wait_list are not the same.
    queue.check_wait_list(wait)?;
    let device = queue.device().clone();
    let Some((code, entry)) = kernel
        .program()
        .executable_for(&device)
        .and_then(|exe| exe.work_group_fn(&kernel.info_of().name))
    else {
        return fail(CL_INVALID_PROGRAM_EXECUTABLE);
    };
    // "the kernel command will trivially succeed after its event
    // dependencies are satisfied".
    let Some(global) = range.global else {
        return queue.enqueue(command_type, wait, Box::new(|| Ok(())));
    };
    let local = range
        .local
        .unwrap_or_else(|| kernel.suggest_local_size(&device, &range));
    let args = kernel.arg_values();
    // The SVM allocations the kernel's pointers lie in, held while the
    // command runs ("clSVMFree does not wait for previously enqueued
    // commands that may be using svm_pointer": the memory then stays until
    // the command is done, rather than vanishing under it).
    let svm = kernel.context().svm();
    let svm_held: Vec<Arc<Storage>> = args
        .iter()
        .filter_map(|a| match a {
            Some(ArgValue::Svm(p)) => Some(*p),
            _ => None,
        })
        .chain(kernel.exec_info().svm_ptrs)
        .filter(|&p| p != 0)
        .filter_map(|p| svm.find(p).map(|r| r.storage().clone()))
        .collect();
    let mut launch = Launch {
        _svm: svm_held,
        default_queue: crate::device_queue::default_queue(kernel.context(), &device),
        ..Launch::new(kernel.info_of(), &args, range, global, local, &entry)?
    };
    if kernel.info_of().enqueues {
        let exe = kernel
            .program()
            .executable_for(&device)
            .ok_or(crate::ClError(CL_INVALID_PROGRAM_EXECUTABLE))?;
        launch.enqueue = Some(LaunchHooks::root(EnqueueState::new(
            &device,
            &exe,
            &launch._queues,
            launch.default_queue.clone(),
        )));
    }
    let func = entry.func;
    let work: Work = Box::new(move || {
        // Keeps the machine code alive while the command runs.
        let _code = code;
        launch.run(func, device.pool());
        launch.flush_printf();
        // The kernels it enqueued, and theirs: the command completes when
        // every one has, with the first error any of them ended with.
        if let Some(hooks) = &launch.enqueue {
            let state = hooks.state();
            state.finish_root();
            state.run_children();
            let status = state.status();
            if status < 0 {
                return Err(crate::ClError(status));
            }
        }
        Ok(())
    });
    queue.enqueue(command_type, wait, work)
}

/// The largest private arena (frames of one work-group's work-items) a
/// launch may need; beyond it the enqueue answers `CL_OUT_OF_RESOURCES`.
const MAX_PRIVATE_ARENA: usize = 512 << 20;

/// One aligned unit of an argument block or local arena: the block must be
/// aligned to its largest argument alignment (at most 128 bytes), and each
/// `__local` argument starts at a multiple of 128 in the arena.
#[derive(Clone, Copy)]
#[repr(C, align(128))]
pub(crate) struct Chunk([u8; 128]);

impl Chunk {
    pub(crate) const ZERO: Chunk = Chunk([0; 128]);
}

/// A zeroed buffer of at least `len` bytes, 128-byte aligned.
pub(crate) fn chunks(len: usize) -> Vec<Chunk> {
    vec![Chunk([0; 128]); len.div_ceil(128).max(1)]
}

/// Everything a kernel command needs to run its work-groups.
pub(crate) struct Launch {
    /// The argument block, with `__local` pointers left 0 (each thread
    /// patches its copy to its own arena).
    block: Vec<Chunk>,
    /// (offset in the block, offset in the arena) of each `__local` argument.
    locals: Vec<(usize, usize)>,
    /// Bytes of local arena per work-group.
    arena_len: usize,
    /// Bytes of private arena per work-group (a frame per work-item).
    private_len: usize,
    /// The buffers the block points into, alive while the command runs.
    _buffers: Vec<Arc<MemObject>>,
    /// The SVM allocations the kernel's SVM pointers lie in, alive while
    /// the command runs.
    _svm: Vec<Arc<Storage>>,
    /// The device queues the block names (`queue_t` arguments), alive
    /// while the command runs: the block holds their addresses.
    _queues: Vec<Arc<DeviceQueue>>,
    /// get_default_queue(): the default device queue of the command's
    /// device and context at enqueue, alive while the command runs.
    pub(crate) default_queue: Option<Arc<DeviceQueue>>,
    /// The device-side enqueue of the launch, for kernels that enqueue.
    pub(crate) enqueue: Option<Box<LaunchHooks>>,
    work_dim: u32,
    offset: [u64; 3],
    global: [u64; 3],
    local: [u64; 3],
    num_groups: [u64; 3],
    /// The output of the kernel's printf calls, printed when it completes.
    printf: jit::launch_abi::PrintfSink,
}

impl Launch {
    pub(crate) fn new(
        info: &KernelInfo,
        args: &[Option<ArgValue>],
        range: NdRange,
        global: [usize; 3],
        local: [usize; 3],
        code: &jit::launch_abi::KernelCode,
    ) -> ClResult<Launch> {
        let (offsets, size) = jit::launch_abi::arg_offsets(info);
        let mut block = chunks(size);
        let mut locals = Vec::new();
        let too_big = || crate::error::ClError(CL_OUT_OF_RESOURCES);
        // The kernel's own __local variables first, then the arguments.
        let mut arena_len = usize::try_from(code.local_static)
            .ok()
            .and_then(|n| n.checked_next_multiple_of(128))
            .ok_or_else(too_big)?;
        // The frames of a work-group (kernels with barriers), allocated per
        // task: refused past MAX_PRIVATE_ARENA rather than allocated.
        let private_len = usize::try_from(code.private_frame)
            .ok()
            .and_then(|f| local.iter().try_fold(f, |a, &l| a.checked_mul(l)))
            .filter(|&n| n <= MAX_PRIVATE_ARENA)
            .ok_or_else(too_big)?;
        let mut buffers = Vec::new();
        let mut queues = Vec::new();
        {
            // SAFETY: `block` is a Vec of `block.len()` plain 128-byte
            // arrays, so its memory is `block.len() * 128` initialized bytes
            // borrowed mutably for this scope only.
            let bytes = unsafe { std::slice::from_raw_parts_mut(block.as_mut_ptr().cast::<u8>(), block.len() * 128) };
            for (k, (a, &at)) in args.iter().zip(&offsets).enumerate() {
                let put = |bytes: &mut [u8], v: &[u8]| bytes[at..at + v.len()].copy_from_slice(v);
                match a {
                    Some(ArgValue::Value(v)) => {
                        let n = v.len().min(info.args[k].size);
                        put(bytes, &v[..n]);
                    }
                    Some(ArgValue::Mem(Some(m))) => {
                        // Released since check_launch looked: as unset.
                        let m = m.get().ok_or(crate::ClError(CL_INVALID_KERNEL_ARGS))?;
                        // An image: the address of its descriptor, which
                        // stays put while `buffers` holds the image. A
                        // buffer: the address of its first byte (its store
                        // plus a sub-buffer's origin).
                        let word = match m.image_desc() {
                            Some(d) => d as *const clift_builtins::image::ImageDesc as u64,
                            None => m.host_address() as u64,
                        };
                        put(bytes, &word.to_ne_bytes());
                        buffers.push(m);
                    }
                    Some(ArgValue::Sampler(bits)) => put(bytes, &u64::from(*bits).to_ne_bytes()),
                    Some(ArgValue::Mem(None)) => put(bytes, &0u64.to_ne_bytes()),
                    Some(ArgValue::Svm(p)) => put(bytes, &(*p as u64).to_ne_bytes()),
                    Some(ArgValue::Queue(q)) => {
                        // Released since check_launch looked: as unset.
                        let q = q.get().ok_or(crate::ClError(CL_INVALID_KERNEL_ARGS))?;
                        // A queue_t is the DeviceQueue's address, an opaque
                        // word to generated code (crate::device_queue).
                        put(bytes, &(Arc::as_ptr(&q) as u64).to_ne_bytes());
                        queues.push(q);
                    }
                    Some(ArgValue::Local(n)) => {
                        locals.push((at, arena_len));
                        arena_len = n
                            .div_ceil(128)
                            .checked_mul(128)
                            .and_then(|n| arena_len.checked_add(n))
                            .ok_or_else(too_big)?;
                    }
                    // check_launch rejects unset arguments.
                    None => return fail(CL_INVALID_KERNEL_ARGS),
                }
            }
        }
        // The module's __local variables (one layout for all its kernels)
        // and the arguments must fit the device's local memory.
        if arena_len as u64 > device::local_mem_size() {
            return fail(CL_OUT_OF_RESOURCES);
        }
        let dims = |a: [usize; 3]| a.map(|v| v as u64);
        let num_groups = std::array::from_fn(|d| global[d].div_ceil(local[d]) as u64);
        Ok(Launch {
            block,
            locals,
            arena_len,
            private_len,
            _buffers: buffers,
            _svm: Vec::new(),
            _queues: queues,
            default_queue: None,
            enqueue: None,
            work_dim: range.work_dim,
            offset: dims(range.offset),
            global: dims(global),
            local: dims(local),
            num_groups,
            printf: jit::launch_abi::PrintfSink::new(device::PRINTF_BUFFER_SIZE, crate::config::get().printf_immediate),
        })
    }

    /// Runs work-groups `groups` (linear ids, dimension 0 fastest) on the
    /// calling thread, with one arena for all of them.
    fn run_groups(&self, func: jit::launch_abi::WorkGroupFn, groups: std::ops::Range<u64>) {
        // No allocation for kernels without `__local` memory (an empty
        // Vec's pointer is dangling but aligned and never dereferenced:
        // the arena's size is 0).
        let mut arena = if self.arena_len > 0 {
            chunks(self.arena_len)
        } else {
            Vec::new()
        };
        let arena_ptr = arena.as_mut_ptr().cast::<u8>();
        let mut private = if self.private_len > 0 {
            chunks(self.private_len)
        } else {
            Vec::new()
        };
        let private_ptr = if private.is_empty() {
            std::ptr::null_mut()
        } else {
            private.as_mut_ptr().cast::<u8>()
        };
        let mut own;
        let block: &[Chunk] = if self.locals.is_empty() {
            &self.block
        } else {
            own = self.block.clone();
            // SAFETY: as in `Launch::new`: `own` is `own.len() * 128`
            // initialized bytes, borrowed mutably for this statement.
            let bytes = unsafe { std::slice::from_raw_parts_mut(own.as_mut_ptr().cast::<u8>(), own.len() * 128) };
            for &(at, arena_at) in &self.locals {
                let addr = arena_ptr as u64 + arena_at as u64;
                bytes[at..at + 8].copy_from_slice(&addr.to_ne_bytes());
            }
            &own
        };
        let [n0, n1, _] = self.num_groups;
        // Kernels compute in OpenCL's rounding and denormal modes, whatever
        // this thread's are (an application thread may run the command).
        let _env = jit::OpenClFpEnv::enter();
        for g in groups {
            let group_id = [g % n0, (g / n0) % n1, g / (n0 * n1)];
            let local_size = std::array::from_fn(|d| self.local[d].min(self.global[d] - group_id[d] * self.local[d]));
            let ctx = jit::launch_abi::WorkGroupCtx {
                work_dim: self.work_dim,
                global_offset: self.offset,
                global_size: self.global,
                local_size,
                enqueued_local_size: self.local,
                num_groups: self.num_groups,
                group_id,
                args: block.as_ptr().cast::<u8>(),
                local_arena: arena_ptr,
                local_arena_size: (arena.len() * 128) as u64,
                private_arena: private_ptr,
                private_arena_size: (private.len() * 128) as u64,
                printf: &self.printf,
                default_queue: self.default_queue.as_ref().map_or(0, |q| Arc::as_ptr(q) as u64),
                device_enqueue: self.enqueue.as_ref().map_or(std::ptr::null(), |e| e.entry_points()),
            };
            // SAFETY: `func` is a work-group function of a finalized
            // `CompiledProgram` the command holds (`_code` in
            // `enqueue_ndrange`), so its code is alive; it takes a
            // `*const WorkGroupCtx`, and `ctx` is a complete one whose
            // sizes describe this group of the checked range. The argument
            // block was laid out by `arg_offsets` for this kernel, 128-byte
            // aligned, with the address of each buffer argument, whose
            // `MemObject` (and so its storage) `self` keeps alive, and of
            // this thread's arena slice for each `__local` argument, of the
            // size the application set. The arena and block live until
            // after the call and are not shared with other threads; the
            // printf buffer lives in `self` and is shared behind its lock.
            // Device queue words (queue_t arguments, the default queue) are
            // addresses of queues `self` holds, never dereferenced by
            // generated code. Work-groups may run concurrently: generated code is immutable
            // and keeps its state on its own stack.
            unsafe { func(&ctx) };
        }
        drop(arena);
        drop(private);
    }

    /// Prints what the kernel's printf calls wrote, once every work-group
    /// has run: after what the application's C stdio buffers hold, so
    /// its own output before the enqueue comes first.
    pub(crate) fn flush_printf(&self) {
        let out = self.printf.take();
        if out.is_empty() {
            return;
        }
        // SAFETY: fflush(NULL) flushes every C output stream of the
        // process; it takes no pointer from us.
        unsafe { libc::fflush(std::ptr::null_mut()) };
        jit::launch_abi::write_stdout(&out);
    }

    /// Runs every work-group: in parallel on `pool`, each task with its own
    /// arena over a range of groups, or inline for a single group.
    pub(crate) fn run(&self, func: jit::launch_abi::WorkGroupFn, pool: &rayon::ThreadPool) {
        use rayon::prelude::*;
        let total: u64 = self.num_groups.iter().product();
        if total <= 1 {
            self.run_groups(func, 0..total);
            return;
        }
        // A few tasks per thread, so work-stealing evens out uneven groups.
        let tasks = (pool.current_num_threads() as u64 * 8).clamp(1, total);
        let per = total.div_ceil(tasks);
        pool.install(|| {
            (0..total.div_ceil(per))
                .into_par_iter()
                .for_each(|t| self.run_groups(func, t * per..((t + 1) * per).min(total)));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::tests::{arg, kernel};
    use crate::kernel::ArgKind;

    /// Work-items and calls seen by `probe`.
    static ITEMS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    /// Checks `probe` saw fail (it must not panic: it is `extern "C"`).
    static BAD: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

    /// A stand-in work-group function for `launch_runs_every_group`:
    /// checks the argument block (a __local slice at the arena, a value, a
    /// second __local slice 128 bytes on), writes to its local slices, and
    /// counts the group's work-items.
    unsafe extern "C" fn probe(ctx: *const jit::launch_abi::WorkGroupCtx) {
        use std::sync::atomic::Ordering::Relaxed;
        // SAFETY: `Launch::run_groups` passes a valid context whose block
        // holds, at offsets 0, 8 and 16 (arg_offsets of a local pointer, a
        // 4-byte value, a local pointer), an arena address, a u32 and an
        // arena address; the arena holds 384 bytes and the private arena
        // 24 * 16, both used by this thread alone.
        unsafe {
            let c = &*ctx;
            let a = c.args.cast::<u64>().read();
            let v = c.args.add(8).cast::<u32>().read();
            let b = c.args.add(16).cast::<u64>().read();
            let base = c.local_arena as u64;
            let mut ok = a == base + 128 && b == base + 256 && v == 7 && c.local_arena_size >= 384;
            ok &= !c.private_arena.is_null() && c.private_arena_size >= 24 * 16;
            if ok {
                std::ptr::write_bytes(c.local_arena, 3, 40);
                std::ptr::write_bytes(a as *mut u8, 1, 100);
                std::ptr::write_bytes(b as *mut u8, 2, 8);
                std::ptr::write_bytes(c.private_arena, 4, 24 * 16);
            }
            for d in 0..3 {
                let last = c.group_id[d] + 1 == c.num_groups[d];
                let want = if last {
                    c.global_size[d] - c.group_id[d] * c.enqueued_local_size[d]
                } else {
                    c.enqueued_local_size[d]
                };
                ok &= c.local_size[d] == want;
            }
            if !ok {
                BAD.fetch_add(1, Relaxed);
            }
            ITEMS.fetch_add(c.local_size.iter().product(), Relaxed);
            CALLS.fetch_add(1, Relaxed);
        }
    }

    /// A kernel named "k" with `args` and nothing else.
    fn kernel_info(args: Vec<crate::kernel::ArgInfo>) -> KernelInfo {
        KernelInfo {
            name: "k".into(),
            args,
            attributes: String::new(),
            reqd_work_group_size: None,
            work_group_size_hint: None,
            vec_type_hint: None,
            local_mem_size: 0,
            private_mem_size: 0,
            block_invoke: false,
            enqueues: false,
        }
    }

    #[test]
    fn launch_runs_every_group() {
        use std::sync::atomic::Ordering::Relaxed;
        let info = kernel_info(vec![
            arg(ArgKind::Local, 8),
            arg(ArgKind::Value, 4),
            arg(ArgKind::Local, 8),
        ]);
        let values = [
            Some(ArgValue::Local(100)),
            Some(ArgValue::Value(7u32.to_ne_bytes().to_vec())),
            Some(ArgValue::Local(8)),
        ];
        let range = NdRange {
            work_dim: 3,
            offset: [0; 3],
            global: Some([10, 7, 3]),
            local: Some([4, 2, 2]),
        };
        let code = jit::launch_abi::KernelCode {
            func: probe,
            local_static: 40,
            private_frame: 24,
        };
        let launch = Launch::new(&info, &values, range, [10, 7, 3], [4, 2, 2], &code).expect("launch");
        // 40 bytes of __local variables, then 100 and 8 of arguments, each
        // from a multiple of 128.
        assert_eq!(launch.arena_len, 384);
        assert_eq!(launch.locals.iter().map(|l| l.1).collect::<Vec<_>>(), [128, 256]);
        assert_eq!(launch.private_len, 24 * 16);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().expect("pool");
        launch.run(probe, &pool);
        assert_eq!(ITEMS.load(Relaxed), 10 * 7 * 3);
        assert_eq!(CALLS.load(Relaxed), 3 * 4 * 2);
        assert_eq!(BAD.load(Relaxed), 0);
    }

    /// The words `queue_probe` expects: the queue_t argument (after a
    /// 4-byte value, so at offset 8) and the default queue.
    static WANT_ARG: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    static WANT_DEFAULT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    static QUEUE_OK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

    /// A stand-in work-group function for `queue_words_reach_the_kernel`.
    unsafe extern "C" fn queue_probe(ctx: *const jit::launch_abi::WorkGroupCtx) {
        use std::sync::atomic::Ordering::Relaxed;
        // SAFETY: `Launch::run_groups` passes a valid context whose block
        // holds a 4-byte value at offset 0 and a queue_t word at offset 8.
        let (arg, default) = unsafe { ((*ctx).args.add(8).cast::<u64>().read(), (*ctx).default_queue) };
        if arg == WANT_ARG.load(Relaxed) && default == WANT_DEFAULT.load(Relaxed) {
            QUEUE_OK.fetch_add(1, Relaxed);
        }
    }

    #[test]
    fn queue_words_reach_the_kernel() {
        use crate::device_queue::{Created, DeviceQueue};
        use crate::kernel::QueueArg;
        use std::sync::atomic::Ordering::Relaxed;
        let dev = crate::platform::Platform::get().devices()[0].clone();
        let ctx = crate::context::Context::new(vec![dev.clone()], Vec::new(), None);
        let props = CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
        let new = |p| match DeviceQueue::create(&ctx, &dev, p, None, Vec::new(), |_| {}) {
            Ok(Created::New(q)) => q,
            _ => panic!("a device queue"),
        };
        let arg_q = new(props);
        let default_q = new(props | CL_QUEUE_ON_DEVICE_DEFAULT);
        let info = kernel_info(vec![arg(ArgKind::Value, 4), arg(ArgKind::Queue, 8)]);
        let values = [
            Some(ArgValue::Value(1u32.to_ne_bytes().to_vec())),
            Some(ArgValue::Queue(QueueArg::new(&arg_q))),
        ];
        let range = NdRange {
            work_dim: 1,
            offset: [0; 3],
            global: Some([8, 1, 1]),
            local: Some([2, 1, 1]),
        };
        let code = jit::launch_abi::KernelCode {
            func: queue_probe,
            local_static: 0,
            private_frame: 0,
        };
        let launch = Launch {
            default_queue: crate::device_queue::default_queue(&ctx, &dev),
            ..Launch::new(&info, &values, range, [8, 1, 1], [2, 1, 1], &code).expect("launch")
        };
        // The launch holds what it names, whatever the application releases.
        WANT_ARG.store(Arc::as_ptr(&arg_q) as u64, Relaxed);
        WANT_DEFAULT.store(Arc::as_ptr(&default_q) as u64, Relaxed);
        drop((arg_q, default_q));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("pool");
        launch.run(queue_probe, &pool);
        assert_eq!(QUEUE_OK.load(Relaxed), 4);
    }

    #[test]
    fn suggestions_divide_the_range_and_respect_limits() {
        let k = kernel(Vec::new(), None);
        let dev = crate::platform::Platform::get().devices()[0].clone();
        let units = dev.compute_units() as usize;
        for (dims, g) in [
            (1u32, [1024usize, 1, 1]),
            (1, [1000, 1, 1]),
            (1, [7, 1, 1]),
            (2, [64, 48, 1]),
            (3, [10, 12, 14]),
            (1, [usize::MAX, 1, 1]),
        ] {
            let r = NdRange {
                work_dim: dims,
                offset: [0; 3],
                global: Some(g),
                local: None,
            };
            let l = k.suggest_local_size(&dev, &r);
            let total: usize = l.iter().product();
            assert!((1..=k.work_group_size()).contains(&total), "{g:?} -> {l:?}");
            for i in 0..dims as usize {
                assert_eq!(g[i] % l[i], 0, "{g:?} -> {l:?}");
            }
            // Every CPU gets a work-group when there are enough work-items.
            let items: usize = g
                .iter()
                .try_fold(1usize, |a, &b| a.checked_mul(b))
                .unwrap_or(usize::MAX);
            if items >= units {
                assert!(total <= items / units, "{g:?} -> {l:?} on {units} CPUs");
            }
        }
        let fixed = kernel(Vec::new(), Some([16, 16, 1]));
        let r = NdRange {
            work_dim: 2,
            offset: [0; 3],
            global: Some([64, 64, 1]),
            local: None,
        };
        assert_eq!(fixed.suggest_local_size(&dev, &r), [16, 16, 1]);
        assert_eq!(fixed.work_group_size(), 256);
    }
}
