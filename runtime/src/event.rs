//! Events and the command scheduler.
//!
//! Every enqueued command is an [`Event`] that carries its work as a closure.
//! An event counts the events it still waits for (`deps_left`); each of those
//! lists it among its dependents. When the count reaches zero the event is
//! ready and goes to its device's thread pool. When an event completes it
//! releases its dependents; if it failed, they fail too with
//! `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST`, and so on down the chain.
//!
//! A ready command is claimed exactly once (`claimed`): either by a pool
//! thread, or by an application thread that waits for it (clFinish,
//! clWaitForEvents, a blocking transfer), which then runs it itself instead of
//! sleeping until a pool thread wakes up. A pool thread that completes a
//! command goes straight on with a dependent it made ready on the same
//! device, so an in-order queue drains without a wake-up per command.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex};

use crate::context::Context;
use crate::error::{fail, ClError, ClResult};
use crate::info::InfoValue;
use crate::object::{handle_of, ApiHeader};
use crate::queue::Queue;
use crate::timer::now_ns;
use opencl_sys::*;

/// The work of a command. It returns an error code to fail the command.
pub type Work = Box<dyn FnOnce() -> ClResult<()> + Send>;

/// A status callback, already wrapped by the API layer; it receives the
/// event's status at the time it fires.
pub type StatusCallback = Box<dyn FnOnce(cl_int) + Send>;

const T_QUEUED: usize = 0;
const T_SUBMIT: usize = 1;
const T_START: usize = 2;
const T_END: usize = 3;
const T_COMPLETE: usize = 4;

struct EventState {
    status: cl_int,
    work: Option<Work>,
    /// Events waiting for this one, and whether a failure here fails them
    /// (wait lists) or only orders them (a queue's own ordering).
    dependents: Vec<(Arc<Event>, bool)>,
    callbacks: Vec<(cl_int, StatusCallback)>,
}

/// An event: an enqueued command or a user event.
pub struct Event {
    header: ApiHeader,
    context: Arc<Context>,
    queue: Option<Arc<Queue>>,
    command_type: cl_command_type,
    state: Mutex<EventState>,
    done: Condvar,
    /// Events still to complete before this one may start, plus one while
    /// the enqueue is still wiring dependencies.
    deps_left: AtomicUsize,
    /// Set when a dependency failed.
    dep_failed: AtomicBool,
    /// Set by the one thread that runs the command.
    claimed: AtomicBool,
    times: [AtomicU64; 5],
}
crate::api_object!(Event);

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Event")
            .field("command_type", &self.command_type)
            .field("status", &self.status())
            .finish()
    }
}

impl Event {
    fn new(
        context: Arc<Context>,
        queue: Option<Arc<Queue>>,
        command_type: cl_command_type,
        status: cl_int,
        work: Option<Work>,
    ) -> Arc<Event> {
        Arc::new(Event {
            header: ApiHeader::new(),
            context,
            queue,
            command_type,
            state: Mutex::new(EventState {
                status,
                work,
                dependents: Vec::new(),
                callbacks: Vec::new(),
            }),
            done: Condvar::new(),
            deps_left: AtomicUsize::new(1),
            dep_failed: AtomicBool::new(false),
            claimed: AtomicBool::new(false),
            times: Default::default(),
        })
    }

    /// clCreateUserEvent: an event in state `CL_SUBMITTED` that the
    /// application completes with [`Event::set_user_status`].
    pub fn new_user(context: Arc<Context>) -> Arc<Event> {
        let ev = Event::new(context, None, CL_COMMAND_USER, CL_SUBMITTED, None);
        ev.claimed.store(true, Ordering::Release);
        ev
    }

    /// A command of `queue` that runs `work`, not yet ready: the caller wires
    /// its dependencies with [`Event::depend_on`], then calls [`Event::arm`].
    pub(crate) fn new_command(queue: &Arc<Queue>, command_type: cl_command_type, work: Work) -> Arc<Event> {
        let ev = Event::new(
            queue.context().clone(),
            Some(queue.clone()),
            command_type,
            CL_QUEUED,
            Some(work),
        );
        if queue.profiling() {
            ev.times[T_QUEUED].store(now_ns(), Ordering::Relaxed);
        }
        ev
    }

    /// Makes `self` wait for `dep`, an event of its wait list: if `dep`
    /// fails, so does `self`.
    pub(crate) fn depend_on(self: &Arc<Self>, dep: &Event) {
        dep.add_dependent(self, true);
    }

    /// Makes `self` start after `dep` (queue ordering): a failure of `dep`
    /// does not fail `self`.
    pub(crate) fn order_after(self: &Arc<Self>, dep: &Event) {
        dep.add_dependent(self, false);
    }

    /// Ends the wiring of a new command: from here on it runs as soon as its
    /// dependencies are complete.
    pub(crate) fn arm(self: &Arc<Self>) {
        self.dependency_done(true, true);
    }

    /// Registers `ev` to be released when `self` completes; if `self` is
    /// already complete, accounts for it at once.
    fn add_dependent(&self, ev: &Arc<Event>, propagate: bool) {
        let mut st = self.state.lock();
        if st.status > CL_COMPLETE {
            ev.deps_left.fetch_add(1, Ordering::AcqRel);
            st.dependents.push((ev.clone(), propagate));
        } else if st.status < 0 && propagate {
            ev.dep_failed.store(true, Ordering::Release);
        }
    }

    /// One dependency of `self` finished (`ok` tells whether it succeeded).
    /// When it was the last, the command becomes ready: it goes to the pool,
    /// or, with `spawn == false`, is returned for the caller to run.
    fn dependency_done(self: &Arc<Self>, ok: bool, spawn: bool) -> Option<Arc<Event>> {
        if !ok {
            self.dep_failed.store(true, Ordering::Release);
        }
        if self.deps_left.fetch_sub(1, Ordering::AcqRel) != 1 {
            return None;
        }
        if self.dep_failed.load(Ordering::Acquire) {
            if !self.claimed.swap(true, Ordering::AcqRel) {
                // Fail on the pool rather than recursing down a chain of
                // dependants, however long.
                let ev = self.clone();
                self.pool().spawn(move || {
                    ev.finish(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, false);
                });
            }
            return None;
        }
        if self.profiling() {
            self.times[T_SUBMIT].store(now_ns(), Ordering::Relaxed);
        }
        self.set_status(CL_SUBMITTED);
        if spawn {
            let ev = self.clone();
            self.pool().spawn(move || ev.run_chain());
            None
        } else {
            Some(self.clone())
        }
    }

    fn pool(&self) -> &rayon::ThreadPool {
        match &self.queue {
            Some(q) => q.device().pool(),
            None => self.context.devices()[0].pool(),
        }
    }

    fn profiling(&self) -> bool {
        self.queue.as_ref().is_some_and(|q| q.profiling())
    }

    /// Runs this command on a pool thread, then each ready command of the
    /// same pool that its completion released.
    fn run_chain(self: Arc<Self>) {
        let mut next = Some(self);
        while let Some(ev) = next {
            next = ev.run(true);
        }
    }

    /// Claims and runs the command. Returns a newly ready dependent on the same
    /// pool for the caller to run next, when `chain` is set.
    fn run(self: &Arc<Self>, chain: bool) -> Option<Arc<Event>> {
        if self.claimed.swap(true, Ordering::AcqRel) {
            return None;
        }
        let work = self.state.lock().work.take();
        if self.profiling() {
            self.times[T_START].store(now_ns(), Ordering::Relaxed);
        }
        self.set_status(CL_RUNNING);
        let result = match work {
            Some(w) => match std::panic::catch_unwind(std::panic::AssertUnwindSafe(w)) {
                Ok(r) => r,
                Err(_) => Err(ClError(CL_OUT_OF_RESOURCES)),
            },
            None => Ok(()),
        };
        let status = match result {
            Ok(()) => CL_COMPLETE,
            Err(ClError(code)) => code.min(-1),
        };
        self.finish(status, chain)
    }

    /// Sets a non-final status and fires the callbacks it reaches.
    fn set_status(&self, status: cl_int) {
        let fire = {
            let mut st = self.state.lock();
            if st.status <= status {
                return;
            }
            st.status = status;
            take_reached(&mut st.callbacks, status)
        };
        for cb in fire {
            cb(status);
        }
    }

    /// Completes the event with `status` (CL_COMPLETE or an error), wakes its
    /// waiters, fires callbacks and releases dependents.
    fn finish(self: &Arc<Self>, status: cl_int, chain: bool) -> Option<Arc<Event>> {
        if self.profiling() {
            let t = now_ns();
            if self.times[T_START].load(Ordering::Relaxed) == 0 {
                self.times[T_START].store(t, Ordering::Relaxed);
            }
            self.times[T_END].store(t, Ordering::Relaxed);
            self.times[T_COMPLETE].store(t, Ordering::Relaxed);
        }
        let (dependents, fire) = {
            let mut st = self.state.lock();
            if st.status <= CL_COMPLETE {
                return None;
            }
            st.status = status;
            st.work = None;
            let fire = take_reached(&mut st.callbacks, CL_COMPLETE);
            (std::mem::take(&mut st.dependents), fire)
        };
        self.done.notify_all();
        if let Some(q) = &self.queue {
            q.retire(self);
        }
        for cb in fire {
            cb(status);
        }
        let mut next = None;
        for (d, propagate) in dependents {
            let same_pool = chain && next.is_none() && std::ptr::eq(d.pool(), self.pool());
            let ok = status == CL_COMPLETE || !propagate;
            if let Some(ready) = d.dependency_done(ok, !same_pool) {
                next = Some(ready);
            }
        }
        next
    }

    /// Blocks until the event is complete and returns its final status. If the
    /// command is ready but no pool thread has started it, and it may run on
    /// any CPU of the process (a root device's command), runs it here; a
    /// sub-device's commands run only on its own pinned threads.
    pub fn wait(self: &Arc<Self>) -> cl_int {
        let inline_ok = self.queue.as_ref().is_some_and(|q| q.device().is_root());
        if inline_ok && self.deps_left.load(Ordering::Acquire) == 0 && !self.claimed.load(Ordering::Acquire) {
            self.run(false);
        }
        let mut st = self.state.lock();
        while st.status > CL_COMPLETE {
            self.done.wait(&mut st);
        }
        st.status
    }

    /// The current execution status.
    pub fn status(&self) -> cl_int {
        self.state.lock().status
    }

    /// Whether the event has completed (successfully or not).
    pub fn is_complete(&self) -> bool {
        self.status() <= CL_COMPLETE
    }

    /// The event's context.
    pub fn context(&self) -> &Arc<Context> {
        &self.context
    }

    /// The command queue, or `None` for a user event.
    pub fn queue(&self) -> Option<&Arc<Queue>> {
        self.queue.as_ref()
    }

    /// Whether this is a user event.
    pub fn is_user(&self) -> bool {
        self.command_type == CL_COMMAND_USER
    }

    /// clSetUserEventStatus.
    pub fn set_user_status(self: &Arc<Self>, status: cl_int) -> ClResult<()> {
        if !self.is_user() {
            return fail(CL_INVALID_EVENT);
        }
        if status != CL_COMPLETE && status >= 0 {
            return fail(CL_INVALID_VALUE);
        }
        {
            let st = self.state.lock();
            if st.status <= CL_COMPLETE {
                return fail(CL_INVALID_OPERATION);
            }
        }
        self.finish(status, false);
        Ok(())
    }

    /// clSetEventCallback: `cb` fires once the event reaches `trigger`
    /// (CL_SUBMITTED, CL_RUNNING or CL_COMPLETE), at once if it already has.
    pub fn add_callback(&self, trigger: cl_int, cb: StatusCallback) -> ClResult<()> {
        if !matches!(trigger, CL_SUBMITTED | CL_RUNNING | CL_COMPLETE) {
            return fail(CL_INVALID_VALUE);
        }
        let now = {
            let mut st = self.state.lock();
            if st.status <= trigger {
                Some(st.status)
            } else {
                st.callbacks.push((trigger, cb));
                return Ok(());
            }
        };
        if let Some(status) = now {
            cb(status);
        }
        Ok(())
    }

    /// clGetEventInfo.
    pub fn info(&self, param: cl_event_info) -> ClResult<InfoValue> {
        Ok(match param {
            CL_EVENT_COMMAND_QUEUE => InfoValue::handle(self.queue.as_ref().map_or(0, handle_of)),
            CL_EVENT_CONTEXT => InfoValue::handle(handle_of(&self.context)),
            CL_EVENT_COMMAND_TYPE => InfoValue::u32(self.command_type),
            CL_EVENT_COMMAND_EXECUTION_STATUS => InfoValue::i32(self.status()),
            CL_EVENT_REFERENCE_COUNT => InfoValue::u32(self.header.ref_count()),
            _ => return fail(CL_INVALID_VALUE),
        })
    }

    /// clGetEventProfilingInfo.
    pub fn profiling_info(&self, param: cl_profiling_info) -> ClResult<InfoValue> {
        if !self.profiling() || self.status() != CL_COMPLETE {
            return fail(CL_PROFILING_INFO_NOT_AVAILABLE);
        }
        let idx = match param {
            CL_PROFILING_COMMAND_QUEUED => T_QUEUED,
            CL_PROFILING_COMMAND_SUBMIT => T_SUBMIT,
            CL_PROFILING_COMMAND_START => T_START,
            CL_PROFILING_COMMAND_END => T_END,
            CL_PROFILING_COMMAND_COMPLETE => T_COMPLETE,
            _ => return fail(CL_INVALID_VALUE),
        };
        Ok(InfoValue::u64(self.times[idx].load(Ordering::Relaxed)))
    }
}

/// Removes and returns the callbacks whose trigger status `status` has reached.
fn take_reached(cbs: &mut Vec<(cl_int, StatusCallback)>, status: cl_int) -> Vec<StatusCallback> {
    if cbs.is_empty() {
        return Vec::new();
    }
    let mut fire = Vec::new();
    let mut keep = Vec::new();
    for (trigger, cb) in cbs.drain(..) {
        if status <= trigger {
            fire.push(cb);
        } else {
            keep.push((trigger, cb));
        }
    }
    *cbs = keep;
    fire
}

/// clWaitForEvents: waits for all of `events`; `Err` with
/// `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST` if any failed.
pub fn wait_for_all(events: &[Arc<Event>]) -> ClResult<()> {
    let mut failed = false;
    for e in events {
        if e.wait() < 0 {
            failed = true;
        }
    }
    if failed {
        fail(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    } else {
        Ok(())
    }
}
