//! API spec 5.11-5.12: events, user events, callbacks, markers, barriers and

#![allow(deprecated)] // the OpenCL 1.x entry points are tested on purpose
//! profiling, and queue ordering, through the ICD loader.

use std::ffi::c_void;
use std::ptr;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clift_conformance::*;

fn status(e: cl_event) -> cl_int {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, s, v, r) })
}

fn user_event(c: cl_context) -> cl_event {
    let mut err = 0;
    // SAFETY: valid context.
    let e = unsafe { clCreateUserEvent(c, &mut err) };
    check(err);
    e
}

fn marker(q: cl_command_queue, wait: &[cl_event]) -> cl_event {
    let mut e = ptr::null_mut();
    let list = if wait.is_empty() { ptr::null() } else { wait.as_ptr() };
    // SAFETY: `wait` holds the events it says.
    check(unsafe { clEnqueueMarkerWithWaitList(q, wait.len() as cl_uint, list, &mut e) });
    e
}

/// Polls until `e` reaches `want` or a few seconds pass.
fn wait_status(e: cl_event, want: cl_int) -> bool {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(5) {
        if status(e) == want {
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

fn release_all(events: &[cl_event]) {
    for &e in events {
        // SAFETY: valid handles owned by the test.
        check(unsafe { clReleaseEvent(e) });
    }
}

#[test]
fn user_event_gates_commands_and_reports_info() {
    let c = context();
    let q = queue(c, 0);
    let u = user_event(c);
    assert_eq!(status(u), CL_SUBMITTED);
    // SAFETY: forwards the buffer protocol of `info_value`.
    let ty: cl_command_type = info_value(|s, v, r| unsafe { clGetEventInfo(u, CL_EVENT_COMMAND_TYPE, s, v, r) });
    assert_eq!(ty, CL_COMMAND_USER);
    // SAFETY: as above.
    let uq: cl_command_queue = info_value(|s, v, r| unsafe { clGetEventInfo(u, CL_EVENT_COMMAND_QUEUE, s, v, r) });
    assert!(uq.is_null());
    let m = marker(q, &[u]);
    // SAFETY: as above.
    let mq: cl_command_queue = info_value(|s, v, r| unsafe { clGetEventInfo(m, CL_EVENT_COMMAND_QUEUE, s, v, r) });
    assert_eq!(mq, q);
    // SAFETY: as above.
    let mc: cl_context = info_value(|s, v, r| unsafe { clGetEventInfo(m, CL_EVENT_CONTEXT, s, v, r) });
    assert_eq!(mc, c);
    std::thread::sleep(Duration::from_millis(20));
    assert!(status(m) > CL_COMPLETE, "the marker waits for the user event");
    // SAFETY: valid user event.
    check(unsafe { clSetUserEventStatus(u, CL_COMPLETE) });
    // SAFETY: valid event list.
    check(unsafe { clWaitForEvents(1, &m) });
    assert_eq!(status(m), CL_COMPLETE);
    // CL_INVALID_OPERATION if the status was already set.
    // SAFETY: valid user event.
    expect_err(unsafe { clSetUserEventStatus(u, CL_COMPLETE) }, CL_INVALID_OPERATION);
    // CL_INVALID_EVENT if event is not a user event.
    // SAFETY: valid event.
    expect_err(unsafe { clSetUserEventStatus(m, CL_COMPLETE) }, CL_INVALID_EVENT);
    release_all(&[u, m]);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

#[test]
fn failed_event_fails_its_dependants() {
    let c = context();
    let q = queue(c, 0);
    let u = user_event(c);
    // CL_INVALID_VALUE if the status is neither CL_COMPLETE nor negative.
    // SAFETY: valid user event.
    expect_err(unsafe { clSetUserEventStatus(u, 5) }, CL_INVALID_VALUE);
    let a = marker(q, &[u]);
    let b = marker(q, &[a]);
    // SAFETY: valid user event.
    check(unsafe { clSetUserEventStatus(u, -1234) });
    // SAFETY: valid event list.
    expect_err(
        unsafe { clWaitForEvents(1, &b) },
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
    );
    assert_eq!(status(u), -1234);
    assert_eq!(status(a), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_eq!(status(b), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    // A command that only follows the failed one in queue order still runs.
    let after = marker(q, &[]);
    // SAFETY: valid queue.
    check(unsafe { clFinish(q) });
    assert_eq!(status(after), CL_COMPLETE);
    release_all(&[u, a, b, after]);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

static CALLS: AtomicUsize = AtomicUsize::new(0);
static LAST_STATUS: AtomicI32 = AtomicI32::new(99);

extern "C" fn on_status(_e: cl_event, status: cl_int, user: *mut c_void) {
    let want = user as usize as cl_int;
    assert!(status <= want, "callback for {want} fired at status {status}");
    LAST_STATUS.store(status, Ordering::SeqCst);
    CALLS.fetch_add(1, Ordering::SeqCst);
}

#[test]
fn callbacks_fire_for_every_status() {
    let c = context();
    let q = queue(c, 0);
    let u = user_event(c);
    let m = marker(q, &[u]);
    for s in [CL_SUBMITTED, CL_RUNNING, CL_COMPLETE] {
        // SAFETY: valid event and callback.
        check(unsafe { clSetEventCallback(m, s, Some(on_status), s as usize as *mut c_void) });
    }
    // CL_INVALID_VALUE for a NULL callback or another status.
    // SAFETY: as above.
    unsafe {
        expect_err(
            clSetEventCallback(m, CL_COMPLETE, None, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clSetEventCallback(m, CL_QUEUED, Some(on_status), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
    }
    assert_eq!(CALLS.load(Ordering::SeqCst), 0);
    // SAFETY: valid user event.
    check(unsafe { clSetUserEventStatus(u, CL_COMPLETE) });
    // SAFETY: valid queue.
    check(unsafe { clFinish(q) });
    let t = Instant::now();
    while CALLS.load(Ordering::SeqCst) < 3 && t.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(CALLS.load(Ordering::SeqCst), 3);
    // A callback registered after the status was reached fires at once.
    // SAFETY: valid event and callback.
    check(unsafe { clSetEventCallback(m, CL_COMPLETE, Some(on_status), CL_COMPLETE as usize as *mut c_void) });
    assert_eq!(CALLS.load(Ordering::SeqCst), 4);
    assert_eq!(LAST_STATUS.load(Ordering::SeqCst), CL_COMPLETE);
    release_all(&[u, m]);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

#[test]
fn out_of_order_queue_runs_independent_commands_independently() {
    let c = context();
    let q = queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let (u1, u2) = (user_event(c), user_event(c));
    let a = marker(q, &[u1]);
    let b = marker(q, &[u2]);
    // SAFETY: valid user event.
    check(unsafe { clSetUserEventStatus(u2, CL_COMPLETE) });
    assert!(wait_status(b, CL_COMPLETE), "b completes while a still waits");
    assert!(status(a) > CL_COMPLETE);
    // A barrier holds back later commands until everything before it is done.
    let mut bar = ptr::null_mut();
    // SAFETY: valid queue.
    check(unsafe { clEnqueueBarrierWithWaitList(q, 0, ptr::null(), &mut bar) });
    let later = marker(q, &[u2]);
    std::thread::sleep(Duration::from_millis(20));
    assert!(status(bar) > CL_COMPLETE && status(later) > CL_COMPLETE);
    // SAFETY: valid user event.
    check(unsafe { clSetUserEventStatus(u1, CL_COMPLETE) });
    // SAFETY: valid queue.
    check(unsafe { clFinish(q) });
    for e in [a, b, bar, later] {
        assert_eq!(status(e), CL_COMPLETE);
    }
    release_all(&[u1, u2, a, b, bar, later]);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

#[test]
fn in_order_queue_keeps_order() {
    let c = context();
    let q = queue(c, 0);
    let u = user_event(c);
    let a = marker(q, &[u]);
    let b = marker(q, &[]);
    std::thread::sleep(Duration::from_millis(20));
    assert!(status(b) > CL_COMPLETE, "b follows a in an in-order queue");
    // SAFETY: valid user event.
    check(unsafe { clSetUserEventStatus(u, CL_COMPLETE) });
    // SAFETY: valid queue.
    check(unsafe { clFinish(q) });
    assert_eq!(status(a), CL_COMPLETE);
    assert_eq!(status(b), CL_COMPLETE);
    release_all(&[u, a, b]);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

fn profile(e: cl_event, p: cl_profiling_info) -> Result<cl_ulong, cl_int> {
    let mut v: cl_ulong = 0;
    // SAFETY: 8-byte buffer.
    let rc = unsafe { clGetEventProfilingInfo(e, p, 8, (&mut v as *mut cl_ulong).cast(), ptr::null_mut()) };
    if rc == CL_SUCCESS {
        Ok(v)
    } else {
        Err(rc)
    }
}

#[test]
fn profiling_timestamps_are_ordered() {
    let c = context();
    let q = queue(c, CL_QUEUE_PROFILING_ENABLE);
    let mut before = 0;
    // SAFETY: valid device and out-pointer.
    check(unsafe { clGetHostTimer(device(), &mut before) });
    let m = marker(q, &[]);
    // SAFETY: valid event list.
    check(unsafe { clWaitForEvents(1, &m) });
    let ts: Vec<cl_ulong> = [
        CL_PROFILING_COMMAND_QUEUED,
        CL_PROFILING_COMMAND_SUBMIT,
        CL_PROFILING_COMMAND_START,
        CL_PROFILING_COMMAND_END,
        CL_PROFILING_COMMAND_COMPLETE,
    ]
    .iter()
    .map(|&p| profile(m, p).expect("profiling info"))
    .collect();
    assert!(ts[0] >= before, "timestamps use the host timer's clock");
    assert!(ts.windows(2).all(|w| w[0] <= w[1]), "{ts:?}");
    expect_err(profile(m, 0x1234).unwrap_err(), CL_INVALID_VALUE);
    // Not available for a user event, nor on a queue without profiling.
    let u = user_event(c);
    expect_err(
        profile(u, CL_PROFILING_COMMAND_START).unwrap_err(),
        CL_PROFILING_INFO_NOT_AVAILABLE,
    );
    let q2 = queue(c, 0);
    let m2 = marker(q2, &[]);
    // SAFETY: valid event list.
    check(unsafe { clWaitForEvents(1, &m2) });
    expect_err(
        profile(m2, CL_PROFILING_COMMAND_START).unwrap_err(),
        CL_PROFILING_INFO_NOT_AVAILABLE,
    );
    // SAFETY: valid user event.
    check(unsafe { clSetUserEventStatus(u, CL_COMPLETE) });
    release_all(&[m, u, m2]);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseCommandQueue(q2));
        check(clReleaseContext(c));
    }
}

#[test]
fn legacy_marker_barrier_and_wait_for_events() {
    let c = context();
    let q = queue(c, 0);
    let mut u = user_event(c);
    // SAFETY: valid handles and lists.
    unsafe {
        check(clEnqueueWaitForEvents(q, 1, &mut u));
        expect_err(clEnqueueWaitForEvents(q, 0, &mut u), CL_INVALID_VALUE);
        check(clEnqueueBarrier(q));
        expect_err(clEnqueueMarker(q, ptr::null_mut()), CL_INVALID_VALUE);
    }
    let mut m = ptr::null_mut();
    // SAFETY: valid queue and out-pointer.
    check(unsafe { clEnqueueMarker(q, &mut m) });
    std::thread::sleep(Duration::from_millis(10));
    assert!(status(m) > CL_COMPLETE);
    // SAFETY: valid user event.
    check(unsafe { clSetUserEventStatus(u, CL_COMPLETE) });
    // SAFETY: valid queue.
    check(unsafe { clFinish(q) });
    assert_eq!(status(m), CL_COMPLETE);
    release_all(&[u, m]);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

#[test]
fn event_errors() {
    let c = context();
    let q = queue(c, 0);
    let garbage = forged_handle();
    let mut e = ptr::null_mut();
    // SAFETY: every call must reject its bad argument without dereferencing it.
    unsafe {
        // clWaitForEvents: CL_INVALID_VALUE for 0 events or NULL list,
        // CL_INVALID_EVENT for a bad event.
        expect_err(clWaitForEvents(0, &garbage), CL_INVALID_VALUE);
        expect_err(clWaitForEvents(1, ptr::null()), CL_INVALID_VALUE);
        expect_err(clWaitForEvents(1, &garbage), CL_INVALID_EVENT);
        // Wait lists: NULL with a count, a list with count 0, a bad event.
        expect_err(
            clEnqueueMarkerWithWaitList(q, 1, ptr::null(), &mut e),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        expect_err(
            clEnqueueMarkerWithWaitList(q, 0, &garbage, &mut e),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        expect_err(
            clEnqueueBarrierWithWaitList(q, 1, &garbage, &mut e),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        expect_err(
            clEnqueueMarkerWithWaitList(garbage as cl_command_queue, 0, ptr::null(), &mut e),
            CL_INVALID_COMMAND_QUEUE,
        );
        expect_err(clRetainEvent(garbage), CL_INVALID_EVENT);
        expect_err(clReleaseEvent(ptr::null_mut()), CL_INVALID_EVENT);
        let mut err = 0;
        assert!(clCreateUserEvent(ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_CONTEXT);
    }
    // Events from another context: CL_INVALID_CONTEXT.
    let c2 = context();
    let u2 = user_event(c2);
    // SAFETY: valid handles.
    unsafe {
        expect_err(clEnqueueMarkerWithWaitList(q, 1, &u2, &mut e), CL_INVALID_CONTEXT);
        let u1 = user_event(c);
        let both = [u1, u2];
        expect_err(clWaitForEvents(2, both.as_ptr()), CL_INVALID_CONTEXT);
        check(clSetUserEventStatus(u1, CL_COMPLETE));
        check(clSetUserEventStatus(u2, CL_COMPLETE));
        release_all(&[u1, u2]);
        // A released event is invalid.
        expect_err(clRetainEvent(u1), CL_INVALID_EVENT);
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
        check(clReleaseContext(c2));
    }
}

static ARRIVED: AtomicUsize = AtomicUsize::new(0);
static MET: AtomicUsize = AtomicUsize::new(0);

/// A native kernel that waits (up to 5 s) until the other one has started too.
extern "C" fn rendezvous(_args: *mut c_void) {
    ARRIVED.fetch_add(1, Ordering::SeqCst);
    let t = Instant::now();
    while ARRIVED.load(Ordering::SeqCst) < 2 && t.elapsed() < Duration::from_secs(5) {
        std::hint::spin_loop();
    }
    if ARRIVED.load(Ordering::SeqCst) >= 2 {
        MET.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn out_of_order_queue_runs_independent_commands_at_the_same_time() {
    let c = context();
    let q = queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let mut events = [ptr::null_mut(); 2];
    let mut arg = 0u64;
    for e in events.iter_mut() {
        // SAFETY: a valid native kernel with an 8-byte argument block and no
        // memory objects.
        check(unsafe {
            clEnqueueNativeKernel(
                q,
                Some(rendezvous),
                (&mut arg as *mut u64).cast(),
                8,
                0,
                ptr::null(),
                ptr::null_mut(),
                0,
                ptr::null(),
                e,
            )
        });
    }
    // SAFETY: valid queue.
    check(unsafe { clFinish(q) });
    assert_eq!(MET.load(Ordering::SeqCst), 2, "both commands were running at once");
    release_all(&events);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}
