//! Device-side enqueue, the kernel side (OpenCL C 6.13.17): what
//! `enqueue_kernel`, `enqueue_marker`, the device event built-ins and the
//! block kernel queries do when generated code calls them
//! ([`jit::launch_abi::DeviceEnqueue`]).
//!
//! A host command whose kernel enqueues (`KernelInfo::enqueues`) gets an
//! [`EnqueueState`], shared by the command and every kernel its kernels
//! enqueue, however deep. An enqueue checks its operands (the queue is one
//! the command named, the ND-range, the wait list, the local sizes),
//! charges the queue's `CL_QUEUE_SIZE`, copies the block literal (the
//! parent's copy dies with it) and records the child; a marker is recorded
//! the same way. Nothing runs while the parent's work-groups run: when the
//! last of them has finished, the command runs the recorded children, each
//! once every event it waits for has completed, each over the device's
//! pool like a host launch; children may enqueue more, which run in turn.
//! Each launch reaches the state through a [`LaunchHooks`] that names its
//! command, so the commands form a tree rooted at the host command: a
//! command completes (its event takes its status) only when it and every
//! command it enqueued have, with the first error any of them met, and the
//! host command (and its event) last. Running every child after its whole
//! parent satisfies each flag:
//! `CLK_ENQUEUE_FLAGS_WAIT_KERNEL` asks for exactly that,
//! `WAIT_WORK_GROUP` for less, `NO_WAIT` for nothing (and a parent cannot
//! wait for its children).
//!
//! Device events live in a pool of `CL_DEVICE_MAX_ON_DEVICE_EVENTS` slots
//! per host command; an event word is the slot's index + 1 with the slot's
//! generation in the high half, so a released and reused slot does not
//! answer for its old word, and `CLK_NULL_EVENT` (every bit set) is never
//! one. A slot is held by the kernel's references (the returned event is
//! retained, `retain_event` and `release_event` count) and by every
//! recorded command that waits for it or completes it.
//!
//! A command whose wait list holds an event that ended in an error does
//! not run; its own event gets that error. Commands still waiting when
//! nothing else can run (a user event never set) are dropped the same way,
//! with `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST`, rather than hang.
//!
//! Without `-g` in the build options every failed enqueue returns
//! `CLK_ENQUEUE_FAILURE`; with it, the specific error ("If the -g compile
//! option is specified ... the following errors may be returned instead").

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Instant;

use clift_jit as jit;
use jit::launch_abi::{clk, event_op, kernel_query, ndrange_layout, DeviceEnqueue, EnqueueRequest};
use parking_lot::Mutex;

use crate::device::{self, Device};
use crate::device_queue::{DeviceQueue, MAX_ON_DEVICE_EVENTS};
use crate::kernel::ArgValue;
use crate::ndrange::{suggested_local_size, Launch, NdRange};
use crate::program::Executable;
use opencl_sys::*;

/// What a recorded command costs its queue's `CL_QUEUE_SIZE`, besides its
/// block literal, local sizes and wait list.
const COMMAND_BYTES: usize = 64;

/// The execution status of a device event slot.
const SUBMITTED: i32 = CL_SUBMITTED;
const COMPLETE: i32 = CL_COMPLETE;

/// One device event.
#[derive(Debug, Default)]
struct Slot {
    /// Bumped each time the slot is freed.
    generation: u32,
    /// References: the kernel's, and each recorded command's that waits
    /// for or completes it. 0: free.
    refs: u32,
    /// `CL_SUBMITTED`, `CL_COMPLETE` or a negative error.
    status: i32,
    /// Whether `create_user_event` made it.
    user: bool,
    /// Nanoseconds since the state's epoch when its command started,
    /// ended, and completed with its descendants (all the same for markers
    /// and user events).
    start: u64,
    end: u64,
    complete: u64,
    /// Where `capture_event_profiling_info` asked for the times, written
    /// when the command completes.
    captures: Vec<usize>,
}

/// The device event pool of one host command.
#[derive(Debug, Default)]
struct Events {
    slots: Vec<Slot>,
    free: Vec<u32>,
}

impl Events {
    /// The slot index of event word `word`, if it names a live event.
    fn index(&self, word: u64) -> Option<usize> {
        let i = (word & 0xffff_ffff).checked_sub(1)? as usize;
        let s = self.slots.get(i)?;
        (s.refs > 0 && u64::from(s.generation) == word >> 32).then_some(i)
    }

    /// A new event with `refs` references (its word and slot), or `None`
    /// when the pool is exhausted.
    fn allocate(&mut self, refs: u32, user: bool) -> Option<(u64, usize)> {
        let i = match self.free.pop() {
            Some(i) => i as usize,
            None if self.slots.len() < MAX_ON_DEVICE_EVENTS as usize => {
                self.slots.push(Slot::default());
                self.slots.len() - 1
            }
            None => return None,
        };
        let s = &mut self.slots[i];
        s.refs = refs;
        s.status = SUBMITTED;
        (s.start, s.end, s.complete) = (0, 0, 0);
        s.user = user;
        s.captures.clear();
        Some(((u64::from(s.generation) << 32) | (i as u64 + 1), i))
    }

    /// Drops one reference of slot `i`, freeing it at zero.
    fn release(&mut self, i: usize) {
        let s = &mut self.slots[i];
        s.refs = s.refs.saturating_sub(1);
        if s.refs == 0 {
            s.generation = s.generation.wrapping_add(1);
            s.captures.clear();
            self.free.push(i as u32);
        }
    }
}

/// Up to [`Few::INLINE`] numbers without allocating (wait lists and local
/// sizes are short), more on the heap.
#[derive(Default)]
struct Few {
    len: usize,
    inline: [usize; Few::INLINE],
    heap: Vec<usize>,
}

impl Few {
    const INLINE: usize = 4;

    fn new(values: impl ExactSizeIterator<Item = usize>) -> Few {
        let mut f = Few {
            len: values.len(),
            ..Few::default()
        };
        if f.len <= Few::INLINE {
            for (slot, v) in f.inline.iter_mut().zip(values) {
                *slot = v;
            }
        } else {
            f.heap = values.collect();
        }
        f
    }

    fn as_slice(&self) -> &[usize] {
        if self.len <= Few::INLINE {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }
}

/// The copy of a block literal, 128-byte aligned (at least its alignment):
/// inline when it fits one chunk (no allocation), else on the heap.
enum Literal {
    Inline(crate::ndrange::Chunk),
    Heap(Vec<crate::ndrange::Chunk>),
}

impl Literal {
    /// A copy of the `size` bytes at `from`.
    ///
    /// # Safety
    /// `from` is readable for `size` bytes (or `size` is 0).
    unsafe fn copy(from: *const u8, size: usize) -> Literal {
        let mut l = if size <= 128 {
            Literal::Inline(crate::ndrange::Chunk::ZERO)
        } else {
            Literal::Heap(crate::ndrange::chunks(size))
        };
        if size > 0 {
            // SAFETY: the caller's contract for `from`; the copy has room
            // for `size` bytes (one chunk of 128, or chunks of at least
            // `size`), and the two do not overlap.
            unsafe { std::ptr::copy_nonoverlapping(from, l.as_mut_ptr(), size) };
        }
        l
    }

    fn as_mut_ptr(&mut self) -> *mut u8 {
        match self {
            Literal::Inline(c) => (c as *mut crate::ndrange::Chunk).cast(),
            Literal::Heap(v) => v.as_mut_ptr().cast(),
        }
    }

    fn address(&self) -> u64 {
        match self {
            Literal::Inline(c) => c as *const crate::ndrange::Chunk as u64,
            Literal::Heap(v) => v.as_ptr() as u64,
        }
    }
}

/// A child kernel: the block kernel, its ND-range, its arguments.
struct ChildKernel {
    /// Index in the executable's kernels.
    kernel: usize,
    range: NdRange,
    literal: Literal,
    local_sizes: Few,
}

/// A recorded command.
struct Command {
    /// None for a marker.
    kernel: Option<ChildKernel>,
    /// Event slots it waits for (each holding a reference of this command).
    wait: Few,
    /// Its event's slot (holding a reference of this command), if any.
    event: Option<usize>,
    /// Index of its queue in [`EnqueueState::queues`], and what it charged.
    queue: usize,
    cost: usize,
    /// Its node in [`EnqueueState::nodes`] (set when it is recorded).
    node: usize,
}

/// A command of the tree a host command grows (the host command itself is
/// [`ROOT`]): it completes when its own command has ended and every
/// command it recorded has completed ("A parent kernel's execution status
/// is considered to be complete when it and all its child kernels have
/// finished execution"), with the first error any of them ended with.
struct Node {
    parent: usize,
    /// 1 until its own command ends, plus one per recorded command not
    /// complete yet.
    outstanding: u32,
    /// `CL_COMPLETE`, or the first error.
    status: i32,
    /// Its event's slot, if it has one.
    event: Option<usize>,
    /// When its own command started and ended.
    start: u64,
    end: u64,
}

/// The host command's node.
const ROOT: usize = 0;

/// Command lists kept for the next host commands that enqueue: a list of
/// a thousand children is hundreds of KiB, which a fresh allocation pays
/// for in page faults each time.
static SPARE_LISTS: Mutex<Vec<Vec<Command>>> = Mutex::new(Vec::new());

/// How many lists, of how many commands at most, [`SPARE_LISTS`] keeps.
const SPARE_LIST_COUNT: usize = 16;
const SPARE_LIST_CAPACITY: usize = 1 << 16;

/// An empty command list, with the capacity of a spare one if there is one.
fn spare_list() -> Vec<Command> {
    SPARE_LISTS.lock().pop().unwrap_or_default()
}

/// Keeps `list`'s buffer (emptied) for [`spare_list`], within the limits.
fn give_back(mut list: Vec<Command>) {
    list.clear();
    if list.capacity() == 0 || list.capacity() > SPARE_LIST_CAPACITY {
        return;
    }
    let mut spare = SPARE_LISTS.lock();
    if spare.len() < SPARE_LIST_COUNT {
        spare.push(list);
    }
}

/// A device queue a command may name, with what its recorded commands
/// charge of its size.
struct QueueUse {
    word: u64,
    queue: Arc<DeviceQueue>,
    used: Mutex<usize>,
}

/// The device-side enqueue of one host command and its descendants.
pub struct EnqueueState {
    device: Arc<Device>,
    exe: Arc<Executable>,
    /// The command's queues: its `queue_t` arguments and the default
    /// queue, alive while it runs.
    queues: Vec<QueueUse>,
    default_queue: Option<Arc<DeviceQueue>>,
    /// `-g`: specific errors.
    specific_errors: bool,
    /// `-cl-uniform-work-group-size`.
    uniform: bool,
    pending: Mutex<Vec<Command>>,
    /// The command tree (locked before `events` when both are).
    nodes: Mutex<Vec<Node>>,
    events: Mutex<Events>,
    epoch: Instant,
}

/// What one launch (the host command's, or a child's) gives generated
/// code: the entry points, with `hooks.state` pointing to this struct,
/// which knows the launch's node, so that what it enqueues becomes its
/// children.
pub struct LaunchHooks {
    hooks: DeviceEnqueue,
    state: Arc<EnqueueState>,
    node: usize,
}

// SAFETY: the raw pointer in `hooks` is this struct's own (boxed, so
// stable) address and the functions beside it are plain `extern "C"`
// functions; `state` is Send and Sync, and the entry points only take
// shared references.
unsafe impl Send for LaunchHooks {}
// SAFETY: as above.
unsafe impl Sync for LaunchHooks {}

impl LaunchHooks {
    /// The entry points of a launch of node `node` of `state`.
    pub fn new(state: Arc<EnqueueState>, node: usize) -> Box<LaunchHooks> {
        let mut h = Box::new(LaunchHooks {
            hooks: DeviceEnqueue {
                state: std::ptr::null(),
                enqueue_kernel: entry_enqueue_kernel,
                enqueue_marker: entry_enqueue_marker,
                event: entry_event,
                kernel_query: entry_kernel_query,
            },
            state,
            node,
        });
        h.hooks.state = (&*h as *const LaunchHooks).cast::<c_void>();
        h
    }

    /// The host command's launch of `state`.
    pub fn root(state: Arc<EnqueueState>) -> Box<LaunchHooks> {
        LaunchHooks::new(state, ROOT)
    }

    /// The entry points to put in the launch's context.
    pub fn entry_points(&self) -> *const DeviceEnqueue {
        &self.hooks
    }

    /// The state of the host command.
    pub fn state(&self) -> &Arc<EnqueueState> {
        &self.state
    }
}

impl EnqueueState {
    /// The state of a host command of `exe` on `device` that names
    /// `queues` (its `queue_t` arguments) and sees `default_queue`.
    pub fn new(
        device: &Arc<Device>,
        exe: &Arc<Executable>,
        queues: &[Arc<DeviceQueue>],
        default_queue: Option<Arc<DeviceQueue>>,
    ) -> Arc<EnqueueState> {
        let mut list: Vec<QueueUse> = Vec::new();
        for q in queues.iter().chain(default_queue.iter()) {
            let word = Arc::as_ptr(q) as u64;
            if !list.iter().any(|u| u.word == word) {
                list.push(QueueUse {
                    word,
                    queue: q.clone(),
                    used: Mutex::new(0),
                });
            }
        }
        Arc::new(EnqueueState {
            device: device.clone(),
            exe: exe.clone(),
            queues: list,
            default_queue,
            specific_errors: exe.options.enqueue_errors,
            uniform: exe.options.uniform_work_group_size,
            pending: Mutex::new(spare_list()),
            nodes: Mutex::new(vec![Node {
                parent: ROOT,
                outstanding: 1,
                status: COMPLETE,
                event: None,
                start: 0,
                end: 0,
            }]),
            events: Mutex::new(Events::default()),
            epoch: Instant::now(),
        })
    }

    /// The host command's kernel has finished: once its children have too,
    /// [`EnqueueState::status`] is the command's.
    pub fn finish_root(&self) {
        self.finish(ROOT, COMPLETE);
    }

    /// The host command's status: `CL_COMPLETE`, or the first error a
    /// descendant ended with.
    pub fn status(&self) -> i32 {
        self.nodes.lock()[ROOT].status
    }

    /// A new node for a command `parent` recorded, with event slot `event`.
    fn add_node(&self, parent: usize, event: Option<usize>) -> usize {
        let mut nodes = self.nodes.lock();
        nodes[parent].outstanding += 1;
        nodes.push(Node {
            parent,
            outstanding: 1,
            status: COMPLETE,
            event,
            start: 0,
            end: 0,
        });
        nodes.len() - 1
    }

    /// Node `n`'s own command ended with `status`: the node, and each
    /// ancestor whose last outstanding command that was, complete; each
    /// completed node's event takes its status and profiling times.
    fn finish(&self, n: usize, status: i32) {
        let now = self.now();
        let mut nodes = self.nodes.lock();
        // A command that never ran starts and ends now.
        if nodes[n].start == 0 {
            nodes[n].start = now;
        }
        nodes[n].end = now;
        let (mut cur, mut st) = (n, status);
        loop {
            let node = &mut nodes[cur];
            if st < 0 && node.status >= 0 {
                node.status = st;
            }
            node.outstanding = node.outstanding.saturating_sub(1);
            if node.outstanding > 0 {
                return;
            }
            if let Some(i) = node.event {
                let mut ev = self.events.lock();
                let s = &mut ev.slots[i];
                (s.status, s.start, s.end, s.complete) = (node.status, node.start, node.end, now);
                let captures = std::mem::take(&mut s.captures);
                for addr in captures {
                    write_profiling(addr, node.start, node.end, now);
                }
                // The command's own reference.
                ev.release(i);
            }
            if cur == ROOT {
                return;
            }
            (cur, st) = (node.parent, node.status);
        }
    }

    /// The default device queue the command's kernels see.
    pub fn default_queue(&self) -> Option<Arc<DeviceQueue>> {
        self.default_queue.clone()
    }

    /// `err`, or `CLK_ENQUEUE_FAILURE` without `-g`.
    fn error(&self, err: i32) -> i32 {
        if self.specific_errors {
            err
        } else {
            clk::ENQUEUE_FAILURE
        }
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_nanos() as u64
    }

    /// The index of queue word `q` among the command's queues.
    fn queue(&self, q: u64) -> Option<usize> {
        (q != 0).then(|| self.queues.iter().position(|u| u.word == q))?
    }

    /// Charges `cost` bytes to queue `qi`; false when it does not fit.
    fn charge(&self, qi: usize, cost: usize) -> bool {
        let u = &self.queues[qi];
        let mut used = u.used.lock();
        if used.saturating_add(cost) > u.queue.size() as usize {
            return false;
        }
        *used += cost;
        true
    }

    fn refund(&self, qi: usize, cost: usize) {
        let mut used = self.queues[qi].used.lock();
        *used = used.saturating_sub(cost);
    }

    /// The wait list's slots, each retained, or the error.
    ///
    /// # Safety
    /// `wait` is null or points to `n` readable event words.
    unsafe fn retain_wait_list(&self, n: u32, wait: *const u64) -> Result<Few, i32> {
        // More events than the pool holds cannot all be valid: refused
        // without reading them.
        if (n > 0) == wait.is_null() || n > MAX_ON_DEVICE_EVENTS {
            return Err(clk::INVALID_EVENT_WAIT_LIST);
        }
        if n == 0 {
            return Ok(Few::default());
        }
        // SAFETY: the caller's contract.
        let words = unsafe { std::slice::from_raw_parts(wait, n as usize) };
        let mut ev = self.events.lock();
        if words.iter().any(|&w| ev.index(w).is_none()) {
            return Err(clk::INVALID_EVENT_WAIT_LIST);
        }
        let slots = Few::new(words.iter().map(|&w| ev.index(w).unwrap_or(0)));
        for &i in slots.as_slice() {
            ev.slots[i].refs += 1;
        }
        Ok(slots)
    }

    /// Records `cmd`, with a new event for it when `ret` is not null (the
    /// kernel's reference written there); undoes the wait list's
    /// references and the queue charge on failure.
    ///
    /// # Safety
    /// `ret` is null or writable for one event word.
    unsafe fn record(&self, parent: usize, mut cmd: Command, ret: *mut u64) -> i32 {
        if !ret.is_null() {
            let allocated = self.events.lock().allocate(2, false);
            match allocated {
                Some((w, slot)) => {
                    cmd.event = Some(slot);
                    // SAFETY: the caller's contract.
                    unsafe { ret.write_unaligned(w) };
                }
                None => {
                    self.release_holds(&cmd);
                    return self.error(clk::EVENT_ALLOCATION_FAILURE);
                }
            }
        }
        cmd.node = self.add_node(parent, cmd.event);
        self.pending.lock().push(cmd);
        clk::SUCCESS
    }

    /// Gives back what `cmd` holds of the queue and of the events it
    /// waits for.
    fn release_holds(&self, cmd: &Command) {
        self.refund(cmd.queue, cmd.cost);
        let mut ev = self.events.lock();
        for &i in cmd.wait.as_slice() {
            ev.release(i);
        }
    }

    /// `cmd` has ended with `status` (or will never run): what it holds is
    /// given back and its node finishes.
    fn end_command(&self, cmd: Command, status: i32) {
        self.release_holds(&cmd);
        self.finish(cmd.node, status);
    }

    /// enqueue_kernel.
    ///
    /// # Safety
    /// The request's pointers are what the kernel passed: the ND-range
    /// readable for [`ndrange_layout::SIZE`] bytes, the wait list for its
    /// count, the literal for its size, the local sizes for their count,
    /// the return event null or writable.
    unsafe fn enqueue_kernel(&self, parent: usize, r: &EnqueueRequest) -> i32 {
        let Some(qi) = self.queue(r.queue) else {
            return self.error(clk::INVALID_QUEUE);
        };
        if r.flags > 2 {
            return clk::ENQUEUE_FAILURE;
        }
        // SAFETY: the caller's contract.
        let Some(range) = (unsafe { read_ndrange(r.ndrange) }) else {
            return self.error(clk::INVALID_NDRANGE);
        };
        let Some(info) = self.exe.kernels.get(r.kernel as usize).filter(|k| k.block_invoke) else {
            return clk::ENQUEUE_FAILURE;
        };
        if let Some(l) = range.local {
            let items = l.iter().try_fold(1usize, |a, &b| a.checked_mul(b));
            let uneven = range.global.is_some_and(|g| (0..3).any(|d| g[d] % l[d] != 0));
            if items.is_none_or(|n| n > device::MAX_WORK_GROUP_SIZE) || (self.uniform && uneven) {
                return self.error(clk::INVALID_NDRANGE);
            }
        }
        let n_locals = r.num_locals as usize;
        if n_locals + 1 != info.args.len() {
            return self.error(clk::INVALID_ARG_SIZE);
        }
        let local_sizes = if n_locals == 0 {
            Few::default()
        } else {
            // SAFETY: the caller's contract.
            let sizes = unsafe { std::slice::from_raw_parts(r.local_sizes, n_locals) };
            Few::new(sizes.iter().map(|&s| s as usize))
        };
        if local_sizes.as_slice().contains(&0) {
            return self.error(clk::INVALID_ARG_SIZE);
        }
        let local_total = local_sizes
            .as_slice()
            .iter()
            .fold(info.local_mem_size, |a, &s| a.saturating_add(s as u64));
        if local_total > device::local_mem_size() {
            return self.error(clk::OUT_OF_RESOURCES);
        }
        let size = r.literal_size as usize;
        if (size > 0 && r.literal.is_null()) || !r.literal_align.is_power_of_two() || r.literal_align > 128 {
            return self.error(clk::INVALID_ARG_SIZE);
        }
        // Charged before anything is read: a literal larger than the queue
        // is refused without touching it.
        let cost = COMMAND_BYTES + size + 8 * n_locals + 8 * r.num_events as usize;
        if !self.charge(qi, cost) {
            return self.error(clk::DEVICE_QUEUE_FULL);
        }
        // SAFETY: the caller's contract: `size` readable bytes.
        let literal = unsafe { Literal::copy(r.literal, size) };
        // SAFETY: the caller's contract.
        let wait = match unsafe { self.retain_wait_list(r.num_events, r.wait) } {
            Ok(w) => w,
            Err(e) => {
                self.refund(qi, cost);
                return self.error(e);
            }
        };
        let cmd = Command {
            kernel: Some(ChildKernel {
                kernel: r.kernel as usize,
                range,
                literal,
                local_sizes,
            }),
            wait,
            event: None,
            queue: qi,
            cost,
            node: ROOT,
        };
        // SAFETY: the caller's contract.
        unsafe { self.record(parent, cmd, r.ret_event) }
    }

    /// enqueue_marker.
    ///
    /// # Safety
    /// `wait` null or readable for `n` words; `ret` null or writable.
    unsafe fn enqueue_marker(&self, parent: usize, queue: u64, n: u32, wait: *const u64, ret: *mut u64) -> i32 {
        let Some(qi) = self.queue(queue) else {
            return self.error(clk::INVALID_QUEUE);
        };
        if wait.is_null() || n == 0 {
            return self.error(clk::INVALID_EVENT_WAIT_LIST);
        }
        let cost = COMMAND_BYTES + 8 * n as usize;
        if !self.charge(qi, cost) {
            return self.error(clk::DEVICE_QUEUE_FULL);
        }
        // SAFETY: the caller's contract.
        let wait = match unsafe { self.retain_wait_list(n, wait) } {
            Ok(w) => w,
            Err(e) => {
                self.refund(qi, cost);
                return self.error(e);
            }
        };
        let cmd = Command {
            kernel: None,
            wait,
            event: None,
            queue: qi,
            cost,
            node: ROOT,
        };
        // "event_ret must not be NULL as otherwise this is a no-op."
        // SAFETY: the caller's contract.
        unsafe { self.record(parent, cmd, ret) }
    }

    /// A device event operation.
    fn event(&self, op: u32, word: u64, value: u64) -> u64 {
        let mut ev = self.events.lock();
        if op == event_op::CREATE_USER {
            return ev.allocate(1, true).map_or(clk::NULL_EVENT, |(w, _)| w);
        }
        let Some(i) = ev.index(word) else {
            return 0;
        };
        match op {
            event_op::IS_VALID => 1,
            event_op::RETAIN => {
                ev.slots[i].refs += 1;
                0
            }
            event_op::RELEASE => {
                ev.release(i);
                0
            }
            event_op::SET_STATUS => {
                let status = value as i64;
                let s = &mut ev.slots[i];
                // Only user events, only once, only to CL_COMPLETE or an
                // error.
                if s.user && s.status == SUBMITTED && status <= 0 {
                    let now = self.now();
                    s.status = status.max(i64::from(i32::MIN)) as i32;
                    (s.start, s.end, s.complete) = (now, now, now);
                }
                0
            }
            event_op::CAPTURE_PROFILING => {
                let addr = value as usize;
                let s = &mut ev.slots[i];
                if addr != 0 {
                    if s.status == SUBMITTED {
                        s.captures.push(addr);
                    } else {
                        write_profiling(addr, s.start, s.end, s.complete);
                    }
                }
                0
            }
            _ => 0,
        }
    }

    /// A block kernel query.
    ///
    /// # Safety
    /// `ndrange` null or readable for [`ndrange_layout::SIZE`] bytes.
    unsafe fn kernel_query(&self, what: u32, kernel: u32, ndrange: *const u8) -> u32 {
        let Some(info) = self.exe.kernels.get(kernel as usize) else {
            return 0;
        };
        let wgs = device::MAX_WORK_GROUP_SIZE;
        let answer = match what {
            kernel_query::WORK_GROUP_SIZE => wgs,
            kernel_query::PREFERRED_MULTIPLE => crate::kernel::preferred_multiple(&self.device, wgs),
            _ => {
                // SAFETY: the caller's contract.
                let Some(range) = (unsafe { read_ndrange(ndrange) }) else {
                    return 0;
                };
                let local = range
                    .local
                    .unwrap_or_else(|| suggested_local_size(info, wgs, &self.device, &range));
                let items: usize = local.iter().product();
                let items = items as u64;
                (match what {
                    kernel_query::SUB_GROUP_COUNT => clift_jit::sub_group::count(items),
                    _ => clift_jit::sub_group::max_size(items),
                }) as usize
            }
        };
        u32::try_from(answer).unwrap_or(u32::MAX)
    }

    /// Runs every recorded command (and those they record), each once the
    /// events it waits for have completed; commands that can never run
    /// end with an error status.
    pub fn run_children(self: &Arc<Self>) {
        let (mut waiting, mut ready, mut later) = (spare_list(), spare_list(), spare_list());
        loop {
            {
                let mut pending = self.pending.lock();
                if waiting.is_empty() {
                    // The pending list's buffer for the empty one: no copy.
                    std::mem::swap(&mut waiting, &mut *pending);
                } else {
                    waiting.append(&mut pending);
                }
            }
            if waiting.is_empty() {
                break;
            }
            // The commands whose events have all completed, in the order
            // they were recorded; the others stay.
            {
                let ev = self.events.lock();
                for c in waiting.drain(..) {
                    if c.wait.as_slice().iter().all(|&i| ev.slots[i].status <= COMPLETE) {
                        ready.push(c);
                    } else {
                        later.push(c);
                    }
                }
            }
            std::mem::swap(&mut waiting, &mut later);
            if ready.is_empty() {
                // Nothing can run (and nothing ran since `pending` was
                // emptied): the rest wait for user events no one will set.
                for c in waiting.drain(..) {
                    self.end_command(c, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
                }
                continue;
            }
            for cmd in ready.drain(..) {
                let failed = {
                    let ev = self.events.lock();
                    cmd.wait.as_slice().iter().map(|&i| ev.slots[i].status).find(|&s| s < 0)
                };
                let now = self.now();
                self.nodes.lock()[cmd.node].start = now;
                let status = match (&cmd.kernel, failed) {
                    (_, Some(_)) => CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                    (None, None) => COMPLETE,
                    (Some(child), None) => match self.run_kernel(child, cmd.node) {
                        Ok(()) => COMPLETE,
                        Err(e) => e,
                    },
                };
                self.end_command(cmd, status);
            }
        }
        for list in [waiting, ready, later] {
            give_back(list);
        }
    }

    /// Runs one child kernel to completion.
    fn run_kernel(self: &Arc<Self>, child: &ChildKernel, node: usize) -> Result<(), i32> {
        let info = self.exe.kernels.get(child.kernel).ok_or(CL_INVALID_KERNEL)?;
        let (code, entry) = self
            .exe
            .work_group_fn(&info.name)
            .ok_or(CL_INVALID_PROGRAM_EXECUTABLE)?;
        let Some(global) = child.range.global else {
            return Ok(());
        };
        let local = child
            .range
            .local
            .unwrap_or_else(|| suggested_local_size(info, device::MAX_WORK_GROUP_SIZE, &self.device, &child.range));
        let literal = child.literal.address();
        let args: Vec<Option<ArgValue>> = std::iter::once(Some(ArgValue::Value(literal.to_ne_bytes().to_vec())))
            .chain(child.local_sizes.as_slice().iter().map(|&n| Some(ArgValue::Local(n))))
            .collect();
        let mut launch = Launch::new(info, &args, child.range, global, local, &entry).map_err(|e| e.0)?;
        launch.default_queue = self.default_queue.clone();
        launch.enqueue = Some(LaunchHooks::new(self.clone(), node));
        launch.run(entry.func, self.device.pool());
        launch.flush_printf();
        drop(code);
        Ok(())
    }
}

impl Drop for EnqueueState {
    fn drop(&mut self) {
        // Commands left (a command that failed before its children ran)
        // give back what they hold; the list's buffer is kept.
        let left = std::mem::take(&mut *self.pending.lock());
        give_back(left);
    }
}

/// Writes the two profiling values of CLK_PROFILING_COMMAND_EXEC_TIME at
/// `addr`: the execution time (end - start) and the time until it and its
/// descendants completed (complete - start).
fn write_profiling(addr: usize, start: u64, end: u64, complete: u64) {
    let p = addr as *mut u64;
    // SAFETY: `addr` is the global memory address the kernel passed to
    // capture_event_profiling_info for two ulongs; the buffer it lies in
    // is held by the host command, which has not completed.
    unsafe {
        p.write_unaligned(end.saturating_sub(start));
        p.add(1).write_unaligned(complete.saturating_sub(start));
    }
}

/// An `ndrange_t` in memory, if it describes a valid ND-range: 1 to 3
/// dimensions, global sizes above 0 whose sums with the offsets fit, local
/// sizes all given (each at most the device's limit) or all 0.
///
/// # Safety
/// `p` is null or readable for [`ndrange_layout::SIZE`] bytes.
unsafe fn read_ndrange(p: *const u8) -> Option<NdRange> {
    if p.is_null() {
        return None;
    }
    let word = |off: usize| -> usize {
        // SAFETY: the caller's contract; unaligned reads.
        unsafe { p.add(off).cast::<u64>().read_unaligned() as usize }
    };
    // SAFETY: as above.
    let dims = unsafe { p.add(ndrange_layout::WORK_DIM).cast::<u32>().read_unaligned() };
    if !(1..=3).contains(&dims) {
        return None;
    }
    let dims = dims as usize;
    let mut offset = [0usize; 3];
    let mut global = [1usize; 3];
    let mut local = [1usize; 3];
    for d in 0..dims {
        offset[d] = word(ndrange_layout::OFFSET + 8 * d);
        global[d] = word(ndrange_layout::GLOBAL + 8 * d);
        local[d] = word(ndrange_layout::LOCAL + 8 * d);
    }
    if global[..dims].contains(&0) || (0..dims).any(|d| offset[d].checked_add(global[d]).is_none()) {
        return None;
    }
    let given = local[..dims].iter().filter(|&&l| l != 0).count();
    let local = match given {
        0 => None,
        n if n == dims && (0..dims).all(|d| local[d] <= device::MAX_WORK_ITEM_SIZES[d]) => Some(local),
        _ => return None,
    };
    Some(NdRange {
        work_dim: dims as u32,
        offset,
        global: Some(global),
        local,
    })
}

/// The launch behind a `state` pointer of generated code's call.
///
/// # Safety
/// `state` is [`DeviceEnqueue::state`] of a live [`LaunchHooks`] (the
/// launch calling holds it).
unsafe fn state<'a>(state: *const c_void) -> &'a LaunchHooks {
    // SAFETY: the caller's contract.
    unsafe { &*state.cast::<LaunchHooks>() }
}

unsafe extern "C" fn entry_enqueue_kernel(s: *const c_void, request: *const EnqueueRequest) -> i32 {
    // No panic may cross into generated code.
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: generated code passes its launch's state and a complete
        // request on its stack whose pointers are the kernel's operands.
        unsafe {
            let h = state(s);
            h.state.enqueue_kernel(h.node, &*request)
        }
    }))
    .unwrap_or(clk::ENQUEUE_FAILURE)
}

unsafe extern "C" fn entry_enqueue_marker(
    s: *const c_void,
    queue: u64,
    n: u32,
    wait: *const u64,
    ret: *mut u64,
) -> i32 {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: generated code passes its launch's state and the
        // kernel's operands.
        unsafe {
            let h = state(s);
            h.state.enqueue_marker(h.node, queue, n, wait, ret)
        }
    }))
    .unwrap_or(clk::ENQUEUE_FAILURE)
}

unsafe extern "C" fn entry_event(s: *const c_void, op: u32, event: u64, value: u64) -> u64 {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: generated code passes its launch's state.
        unsafe { state(s).state.event(op, event, value) }
    }))
    .unwrap_or(0)
}

unsafe extern "C" fn entry_kernel_query(s: *const c_void, what: u32, kernel: u32, ndrange: *const u8) -> u32 {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: generated code passes its launch's state and an
        // ND-range on its stack (or null).
        unsafe { state(s).state.kernel_query(what, kernel, ndrange) }
    }))
    .unwrap_or(0)
}
