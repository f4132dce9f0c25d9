//! Host command queues: in-order or out-of-order, with optional profiling
//! (on-device queues are [`crate::device_queue`]'s).
//!
//! A queue adds its own ordering to each command's wait list (the previous
//! command in an in-order queue; the last barrier in an out-of-order queue)
//! and keeps the commands not yet complete, for clFinish and for markers and
//! barriers with an empty wait list. Commands are issued as soon as they are
//! enqueued, so clFlush has nothing left to do.

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use parking_lot::Mutex;

use crate::context::Context;
use crate::device::Device;
use crate::error::{fail, ClResult};
use crate::event::{Event, Work};
use crate::info::InfoValue;
use crate::object::ApiHeader;
use opencl_sys::*;

#[derive(Default)]
struct QueueState {
    /// Commands not yet complete, by address.
    pending: HashMap<usize, Arc<Event>>,
    /// In-order: the last command. Out-of-order: the last barrier.
    last: Weak<Event>,
}

/// A host command queue.
pub struct Queue {
    header: ApiHeader,
    context: Arc<Context>,
    device: Arc<Device>,
    properties: cl_command_queue_properties,
    /// The property list given to clCreateCommandQueueWithProperties (empty
    /// for clCreateCommandQueue), for CL_QUEUE_PROPERTIES_ARRAY.
    property_list: Vec<u64>,
    state: Mutex<QueueState>,
}
crate::api_object!(Queue);

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queue").field("properties", &self.properties).finish()
    }
}

/// Queue properties a clift host queue supports.
pub const SUPPORTED_QUEUE_PROPERTIES: cl_command_queue_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

impl Queue {
    /// A queue on `device` of `context`. The caller has checked that the
    /// device belongs to the context; this checks the properties.
    pub fn new(
        context: Arc<Context>,
        device: Arc<Device>,
        properties: cl_command_queue_properties,
        property_list: Vec<u64>,
    ) -> ClResult<Arc<Queue>> {
        // CL_INVALID_VALUE if values specified in properties are not valid
        // (on-device queues are crate::device_queue's; CL_QUEUE_ON_DEVICE_DEFAULT
        // "can only be used with CL_QUEUE_ON_DEVICE").
        if properties & !SUPPORTED_QUEUE_PROPERTIES != 0 {
            return fail(CL_INVALID_VALUE);
        }
        Ok(Arc::new(Queue {
            header: ApiHeader::new(),
            context,
            device,
            properties,
            property_list,
            state: Mutex::new(QueueState::default()),
        }))
    }

    /// The queue's context.
    pub fn context(&self) -> &Arc<Context> {
        &self.context
    }

    /// The queue's device.
    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    /// Whether commands record profiling timestamps.
    pub fn profiling(&self) -> bool {
        self.properties & CL_QUEUE_PROFILING_ENABLE != 0
    }

    /// Whether commands may run out of order.
    pub fn out_of_order(&self) -> bool {
        self.properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE != 0
    }

    /// Checks that every event of a wait list shares the queue's context.
    pub fn check_wait_list(&self, wait_list: &[Arc<Event>]) -> ClResult<()> {
        if wait_list.iter().any(|e| !Arc::ptr_eq(e.context(), &self.context)) {
            return fail(CL_INVALID_CONTEXT);
        }
        Ok(())
    }

    /// Enqueues a command of type `command_type` that runs `work` once the
    /// events of `wait_list` and the queue's ordering allow.
    pub fn enqueue(
        self: &Arc<Self>,
        command_type: cl_command_type,
        wait_list: &[Arc<Event>],
        work: Work,
    ) -> ClResult<Arc<Event>> {
        self.check_wait_list(wait_list)?;
        let ev = Event::new_command(self, command_type, work);
        {
            let mut st = self.state.lock();
            if let Some(prev) = st.last.upgrade() {
                ev.order_after(&prev);
            }
            st.pending.insert(Arc::as_ptr(&ev) as usize, ev.clone());
            if !self.out_of_order() {
                st.last = Arc::downgrade(&ev);
            }
        }
        for d in wait_list {
            ev.depend_on(d);
        }
        ev.arm();
        Ok(ev)
    }

    /// clEnqueueMarkerWithWaitList (`barrier == false`) and
    /// clEnqueueBarrierWithWaitList (`barrier == true`). With an empty wait
    /// list the command waits for every command enqueued before it; a barrier
    /// also holds back every command enqueued after it.
    pub fn enqueue_sync_point(self: &Arc<Self>, wait_list: &[Arc<Event>], barrier: bool) -> ClResult<Arc<Event>> {
        self.check_wait_list(wait_list)?;
        let command_type = if barrier { CL_COMMAND_BARRIER } else { CL_COMMAND_MARKER };
        let ev = Event::new_command(self, command_type, Box::new(|| Ok(())));
        {
            let mut st = self.state.lock();
            // In an in-order queue the last command stands for all before
            // it; an out-of-order queue's empty-list sync point waits for
            // every pending command.
            if wait_list.is_empty() && self.out_of_order() {
                for prev in st.pending.values() {
                    ev.order_after(prev);
                }
            }
            if let Some(prev) = st.last.upgrade() {
                ev.order_after(&prev);
            }
            st.pending.insert(Arc::as_ptr(&ev) as usize, ev.clone());
            if barrier || !self.out_of_order() {
                st.last = Arc::downgrade(&ev);
            }
        }
        for d in wait_list {
            ev.depend_on(d);
        }
        ev.arm();
        Ok(ev)
    }

    /// Called by an event of this queue when it completes.
    pub(crate) fn retire(&self, ev: &Event) {
        self.state.lock().pending.remove(&(ev as *const Event as usize));
    }

    /// clFinish: waits until every command enqueued so far is complete.
    pub fn finish(&self) {
        loop {
            let next = {
                let st = self.state.lock();
                if !self.out_of_order() {
                    st.last.upgrade().filter(|e| !e.is_complete())
                } else {
                    st.pending.values().next().cloned()
                }
            };
            match next {
                Some(ev) => {
                    ev.wait();
                }
                None => break,
            }
            if !self.out_of_order() {
                // Everything before the last command is complete once it is.
                break;
            }
        }
    }

    /// clGetCommandQueueInfo.
    pub fn info(&self, param: cl_command_queue_info) -> ClResult<InfoValue> {
        let (ctx, dev) = (&self.context, &self.device);
        if let Some(v) =
            crate::device_queue::common_info(param, &self.header, ctx, dev, self.properties, &self.property_list)
        {
            return Ok(v);
        }
        match param {
            // Only on-device queues have a size: "To be considered valid for
            // this query, command_queue must be a device command-queue."
            CL_QUEUE_SIZE => fail(CL_INVALID_COMMAND_QUEUE),
            _ => fail(CL_INVALID_VALUE),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::Platform;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn setup(props: cl_command_queue_properties) -> Arc<Queue> {
        let dev = Platform::get().devices()[0].clone();
        let ctx = Context::new(vec![dev.clone()], Vec::new(), None);
        Queue::new(ctx, dev, props, Vec::new()).unwrap()
    }

    #[test]
    fn in_order_commands_run_in_order() {
        let q = setup(0);
        let seen = Arc::new(parking_lot::Mutex::new(Vec::new()));
        for i in 0..1000 {
            let s = seen.clone();
            q.enqueue(
                CL_COMMAND_MARKER,
                &[],
                Box::new(move || {
                    s.lock().push(i);
                    Ok(())
                }),
            )
            .unwrap();
        }
        q.finish();
        assert_eq!(*seen.lock(), (0..1000).collect::<Vec<_>>());
        // Every command has completed; at most the last may not have left
        // the pending set yet (it leaves right after waking its waiters).
        assert!(q.state.lock().pending.values().all(|e| e.is_complete()));
    }

    #[test]
    fn failure_propagates_through_wait_lists_only() {
        let q = setup(0);
        let bad = q
            .enqueue(CL_COMMAND_MARKER, &[], Box::new(|| fail(CL_OUT_OF_RESOURCES)))
            .unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        let dependant = q
            .enqueue(
                CL_COMMAND_MARKER,
                std::slice::from_ref(&bad),
                Box::new(move || {
                    r.fetch_add(1, Ordering::SeqCst);
                    Ok(())
                }),
            )
            .unwrap();
        let r = ran.clone();
        let follower = q
            .enqueue(
                CL_COMMAND_MARKER,
                &[],
                Box::new(move || {
                    r.fetch_add(10, Ordering::SeqCst);
                    Ok(())
                }),
            )
            .unwrap();
        q.finish();
        assert_eq!(bad.status(), CL_OUT_OF_RESOURCES);
        assert_eq!(dependant.wait(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        assert_eq!(follower.wait(), CL_COMPLETE);
        assert_eq!(ran.load(Ordering::SeqCst), 10);
    }

    #[test]
    fn a_panicking_command_fails_instead_of_unwinding() {
        let q = setup(0);
        let ev = q
            .enqueue(CL_COMMAND_MARKER, &[], Box::new(|| panic!("bug in a command")))
            .unwrap();
        assert_eq!(ev.wait(), CL_OUT_OF_RESOURCES);
        let next = q.enqueue(CL_COMMAND_MARKER, &[], Box::new(|| Ok(()))).unwrap();
        assert_eq!(next.wait(), CL_COMPLETE);
    }

    #[test]
    fn out_of_order_finish_waits_for_everything() {
        let q = setup(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
        let count = Arc::new(AtomicUsize::new(0));
        for _ in 0..500 {
            let c = count.clone();
            q.enqueue(
                CL_COMMAND_MARKER,
                &[],
                Box::new(move || {
                    c.fetch_add(1, Ordering::SeqCst);
                    Ok(())
                }),
            )
            .unwrap();
        }
        q.finish();
        assert_eq!(count.load(Ordering::SeqCst), 500);
    }

    #[test]
    fn user_event_releases_waiting_commands() {
        let q = setup(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
        let u = Event::new_user(q.context().clone());
        let m = q.enqueue_sync_point(std::slice::from_ref(&u), false).unwrap();
        assert!(!m.is_complete());
        u.set_user_status(CL_COMPLETE).unwrap();
        assert_eq!(m.wait(), CL_COMPLETE);
    }
}
