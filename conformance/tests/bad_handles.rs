//! Bad input (issue: every entry point checks its handles): forged, freed and
//! wrong-type handles get CL_INVALID_<OBJECT>, through the loader, and wild
//! pointers passed straight to clift's dispatch table are never dereferenced.
//!
//! Through ocl-icd a handle must point at readable memory whose first word is
//! a dispatch table (the loader reads it before calling the vendor), so
//! "garbage" here is a forged object whose first word is clift's dispatch
//! table. A released clift handle stays readable with that first word, so the
//! loader can pass it on and clift rejects it.

#![allow(deprecated)] // OpenCL 1.x entry points are checked too

use std::ffi::c_void;
use std::ptr;

use clift_conformance::*;
use opencl_sys::cl_icd::cl_icd_dispatch;

type H = *mut c_void;

/// Calls that take one handle of a type, each with the code a bad handle gets.
fn calls_for(kind: &str) -> Vec<(&'static str, Box<dyn Fn(H) -> cl_int>)> {
    let mut v: Vec<(&'static str, Box<dyn Fn(H) -> cl_int>)> = Vec::new();
    let mut buf = [0u8; 64];
    let p = buf.as_mut_ptr() as usize;
    let out = move || p as *mut c_void;
    // SAFETY (all closures): every pointer argument is a valid 64-byte buffer
    // or NULL; the handle under test is the only bad argument.
    match kind {
        "context" => {
            v.push((
                "clGetContextInfo",
                Box::new(move |h| unsafe { clGetContextInfo(h, CL_CONTEXT_NUM_DEVICES, 64, out(), ptr::null_mut()) }),
            ));
            v.push(("clRetainContext", Box::new(|h| unsafe { clRetainContext(h) })));
            v.push(("clReleaseContext", Box::new(|h| unsafe { clReleaseContext(h) })));
            v.push((
                "clCreateBuffer",
                Box::new(|h| {
                    let mut e = 0;
                    unsafe { clCreateBuffer(h, CL_MEM_READ_WRITE, 64, ptr::null_mut(), &mut e) };
                    e
                }),
            ));
            v.push((
                "clCreateUserEvent",
                Box::new(|h| {
                    let mut e = 0;
                    unsafe { clCreateUserEvent(h, &mut e) };
                    e
                }),
            ));
            v.push((
                "clCreateCommandQueueWithProperties",
                Box::new(|h| {
                    let mut e = 0;
                    unsafe { clCreateCommandQueueWithProperties(h, device(), ptr::null(), &mut e) };
                    e
                }),
            ));
            v.push((
                "clSetContextDestructorCallback",
                Box::new(|h| {
                    extern "C" fn cb(_: cl_context, _: *mut c_void) {}
                    unsafe { clSetContextDestructorCallback(h, Some(cb), ptr::null_mut()) }
                }),
            ));
        }
        "queue" => {
            v.push((
                "clGetCommandQueueInfo",
                Box::new(move |h| unsafe { clGetCommandQueueInfo(h, CL_QUEUE_PROPERTIES, 64, out(), ptr::null_mut()) }),
            ));
            v.push(("clRetainCommandQueue", Box::new(|h| unsafe { clRetainCommandQueue(h) })));
            v.push((
                "clReleaseCommandQueue",
                Box::new(|h| unsafe { clReleaseCommandQueue(h) }),
            ));
            v.push(("clFlush", Box::new(|h| unsafe { clFlush(h) })));
            v.push(("clFinish", Box::new(|h| unsafe { clFinish(h) })));
            v.push(("clEnqueueBarrier", Box::new(|h| unsafe { clEnqueueBarrier(h) })));
            v.push((
                "clEnqueueMarkerWithWaitList",
                Box::new(|h| unsafe { clEnqueueMarkerWithWaitList(h, 0, ptr::null(), ptr::null_mut()) }),
            ));
            v.push((
                "clEnqueueBarrierWithWaitList",
                Box::new(|h| unsafe { clEnqueueBarrierWithWaitList(h, 0, ptr::null(), ptr::null_mut()) }),
            ));
        }
        "event" => {
            v.push((
                "clGetEventInfo",
                Box::new(move |h| unsafe { clGetEventInfo(h, CL_EVENT_COMMAND_TYPE, 64, out(), ptr::null_mut()) }),
            ));
            v.push((
                "clGetEventProfilingInfo",
                Box::new(move |h| unsafe {
                    clGetEventProfilingInfo(h, CL_PROFILING_COMMAND_START, 64, out(), ptr::null_mut())
                }),
            ));
            v.push(("clRetainEvent", Box::new(|h| unsafe { clRetainEvent(h) })));
            v.push(("clReleaseEvent", Box::new(|h| unsafe { clReleaseEvent(h) })));
            v.push((
                "clSetUserEventStatus",
                Box::new(|h| unsafe { clSetUserEventStatus(h, CL_COMPLETE) }),
            ));
            v.push((
                "clSetEventCallback",
                Box::new(|h| {
                    extern "C" fn cb(_: cl_event, _: cl_int, _: *mut c_void) {}
                    unsafe { clSetEventCallback(h, CL_COMPLETE, Some(cb), ptr::null_mut()) }
                }),
            ));
        }
        "mem" => {
            v.push((
                "clGetMemObjectInfo",
                Box::new(move |h| unsafe { clGetMemObjectInfo(h, CL_MEM_SIZE, 64, out(), ptr::null_mut()) }),
            ));
            v.push(("clRetainMemObject", Box::new(|h| unsafe { clRetainMemObject(h) })));
            v.push(("clReleaseMemObject", Box::new(|h| unsafe { clReleaseMemObject(h) })));
            v.push((
                "clSetMemObjectDestructorCallback",
                Box::new(|h| {
                    extern "C" fn cb(_: cl_mem, _: *mut c_void) {}
                    unsafe { clSetMemObjectDestructorCallback(h, Some(cb), ptr::null_mut()) }
                }),
            ));
        }
        "device" => {
            v.push((
                "clGetDeviceInfo",
                Box::new(move |h| unsafe { clGetDeviceInfo(h, CL_DEVICE_TYPE, 64, out(), ptr::null_mut()) }),
            ));
            v.push(("clRetainDevice", Box::new(|h| unsafe { clRetainDevice(h) })));
            v.push(("clReleaseDevice", Box::new(|h| unsafe { clReleaseDevice(h) })));
        }
        _ => unreachable!(),
    }
    v
}

fn expected(kind: &str) -> cl_int {
    match kind {
        "context" => CL_INVALID_CONTEXT,
        "queue" => CL_INVALID_COMMAND_QUEUE,
        "event" => CL_INVALID_EVENT,
        "mem" => CL_INVALID_MEM_OBJECT,
        "device" => CL_INVALID_DEVICE,
        _ => unreachable!(),
    }
}

fn check_all(kind: &str, h: H, what: &str) {
    for (name, call) in calls_for(kind) {
        let got = call(h);
        assert_eq!(
            got,
            expected(kind),
            "{name} with a {what} {kind} handle: expected {}, got {}",
            error_name(expected(kind)),
            error_name(got)
        );
    }
}

/// Fresh objects of each kind, to release or to pass as the wrong type.
struct Objects {
    ctx: cl_context,
    queue: cl_command_queue,
    event: cl_event,
    mem: cl_mem,
}

fn objects() -> Objects {
    let ctx = context();
    let queue = queue(ctx, 0);
    let mut err = 0;
    // SAFETY: valid context.
    let event = unsafe { clCreateUserEvent(ctx, &mut err) };
    check(err);
    let mem = buffer(ctx, CL_MEM_READ_WRITE, 64);
    Objects { ctx, queue, event, mem }
}

fn handle_of(o: &Objects, kind: &str) -> H {
    match kind {
        "context" => o.ctx,
        "queue" => o.queue,
        "event" => o.event,
        "mem" => o.mem,
        _ => unreachable!(),
    }
}

const KINDS: [&str; 4] = ["context", "queue", "event", "mem"];

#[test]
fn forged_handles_are_rejected_through_the_loader() {
    let o = objects();
    // SAFETY: a clift handle is readable and its first word is the dispatch table.
    let dispatch = unsafe { *(o.ctx as *const usize) };
    for kind in KINDS.iter().chain(["device"].iter()) {
        let mut fake = [dispatch, 0x4141_4141, 0x4242_4242, 0x4343_4343];
        check_all(kind, fake.as_mut_ptr().cast(), "forged");
    }
}

#[test]
fn wrong_type_handles_are_rejected() {
    let o = objects();
    for kind in KINDS {
        for other in KINDS.iter().filter(|k| **k != kind) {
            check_all(kind, handle_of(&o, other), &format!("{other}-as"));
        }
        check_all(kind, device(), "device-as");
        check_all(kind, platform(), "platform-as");
    }
    for other in KINDS {
        check_all("device", handle_of(&o, other), &format!("{other}-as"));
    }
}

#[test]
fn released_handles_are_rejected() {
    let o = objects();
    // SAFETY: valid handles, released once each.
    unsafe {
        check(clSetUserEventStatus(o.event, CL_COMPLETE));
        check(clReleaseEvent(o.event));
        check(clReleaseMemObject(o.mem));
        check(clReleaseCommandQueue(o.queue));
        check(clReleaseContext(o.ctx));
    }
    for kind in KINDS {
        check_all(kind, handle_of(&o, kind), "released");
    }
}

#[test]
fn null_handles_are_rejected() {
    for kind in KINDS {
        // The loader answers NULL handles itself with the same codes.
        check_all(kind, ptr::null_mut(), "NULL");
    }
}

#[test]
fn wild_pointers_given_to_the_dispatch_table_are_never_dereferenced() {
    let o = objects();
    // SAFETY: a clift handle's first word is the address of its dispatch table.
    let table: &cl_icd_dispatch = unsafe { &**(o.ctx as *const *const cl_icd_dispatch) };
    let wild = [1usize, 0x10, 0xdead_beef, usize::MAX - 7, 0x7fff_ffff_f000];
    let mut out = [0u8; 64];
    for w in wild {
        let h = w as *mut c_void;
        // SAFETY: clift must reject the handle before touching it; the output
        // buffer is valid.
        unsafe {
            let f = table.clGetContextInfo.unwrap();
            expect_err(
                f(h, CL_CONTEXT_NUM_DEVICES, 64, out.as_mut_ptr().cast(), ptr::null_mut()),
                CL_INVALID_CONTEXT,
            );
            let f = table.clFinish.unwrap();
            expect_err(f(h), CL_INVALID_COMMAND_QUEUE);
            let f = table.clReleaseEvent.unwrap();
            expect_err(f(h), CL_INVALID_EVENT);
            let f = table.clGetMemObjectInfo.unwrap();
            expect_err(
                f(h, CL_MEM_SIZE, 64, out.as_mut_ptr().cast(), ptr::null_mut()),
                CL_INVALID_MEM_OBJECT,
            );
            let f = table.clGetDeviceInfo.unwrap();
            expect_err(
                f(h, CL_DEVICE_TYPE, 64, out.as_mut_ptr().cast(), ptr::null_mut()),
                CL_INVALID_DEVICE,
            );
            let f = table.clGetPlatformInfo.unwrap();
            expect_err(
                f(h, CL_PLATFORM_NAME, 64, out.as_mut_ptr().cast(), ptr::null_mut()),
                CL_INVALID_PLATFORM,
            );
            let f = table.clReleaseProgram.unwrap();
            expect_err(f(h), CL_INVALID_PROGRAM);
            let f = table.clReleaseKernel.unwrap();
            expect_err(f(h), CL_INVALID_KERNEL);
            let f = table.clReleaseSampler.unwrap();
            expect_err(f(h), CL_INVALID_SAMPLER);
        }
    }
}
