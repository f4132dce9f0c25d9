//! Bad input (every entry point checks its handles): forged, freed and
//! wrong-type handles (images and samplers included) get CL_INVALID_<OBJECT>,
//! through the loader, and wild
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

extern "C" fn context_cb(_: cl_context, _: *mut c_void) {}
extern "C" fn event_cb(_: cl_event, _: cl_int, _: *mut c_void) {}
extern "C" fn mem_cb(_: cl_mem, _: *mut c_void) {}

/// The calls that take one handle of `kind` first.
fn calls_for(kind: &str) -> &'static [&'static str] {
    match kind {
        "context" => &[
            "clGetContextInfo",
            "clRetainContext",
            "clReleaseContext",
            "clCreateBuffer",
            "clCreateUserEvent",
            "clCreateCommandQueueWithProperties",
            "clSetContextDestructorCallback",
            "clCreateImage",
            "clGetSupportedImageFormats",
            "clCreateSampler",
            "clCreateSamplerWithProperties",
        ],
        "queue" => &[
            "clGetCommandQueueInfo",
            "clRetainCommandQueue",
            "clReleaseCommandQueue",
            "clFlush",
            "clFinish",
            "clEnqueueBarrier",
            "clEnqueueMarkerWithWaitList",
            "clEnqueueBarrierWithWaitList",
        ],
        // A device queue is a command-queue for the queries, retain and
        // release, and for clSetDefaultDeviceCommandQueue, but no host
        // command takes it.
        "device_queue" => &[
            "clGetCommandQueueInfo",
            "clRetainCommandQueue",
            "clReleaseCommandQueue",
            "clSetDefaultDeviceCommandQueue",
            "clFlush",
            "clFinish",
            "clEnqueueMarkerWithWaitList",
        ],
        "event" => &[
            "clGetEventInfo",
            "clGetEventProfilingInfo",
            "clRetainEvent",
            "clReleaseEvent",
            "clSetUserEventStatus",
            "clSetEventCallback",
        ],
        "mem" => &[
            "clGetMemObjectInfo",
            "clRetainMemObject",
            "clReleaseMemObject",
            "clSetMemObjectDestructorCallback",
        ],
        // An image is a memory object: the memory-object calls and the
        // image query.
        "image" => &[
            "clGetImageInfo",
            "clGetMemObjectInfo",
            "clRetainMemObject",
            "clReleaseMemObject",
            "clSetMemObjectDestructorCallback",
        ],
        "sampler" => &["clGetSamplerInfo", "clRetainSampler", "clReleaseSampler"],
        "device" => &["clGetDeviceInfo", "clRetainDevice", "clReleaseDevice"],
        _ => unreachable!(),
    }
}

/// Calls `name` with `h` as its handle and valid other arguments.
fn call(name: &str, h: H) -> cl_int {
    let mut out = [0u8; 64];
    let o: *mut c_void = out.as_mut_ptr().cast();
    let mut err = 0;
    // SAFETY: every pointer argument is a valid 64-byte buffer, an error-code
    // slot or NULL; the handle under test is the only bad argument, and clift
    // must reject it without using it.
    let rc = unsafe {
        match name {
            "clGetContextInfo" => clGetContextInfo(h, CL_CONTEXT_NUM_DEVICES, 64, o, ptr::null_mut()),
            "clRetainContext" => clRetainContext(h),
            "clReleaseContext" => clReleaseContext(h),
            "clCreateBuffer" => {
                clCreateBuffer(h, CL_MEM_READ_WRITE, 64, ptr::null_mut(), &mut err);
                err
            }
            "clCreateUserEvent" => {
                clCreateUserEvent(h, &mut err);
                err
            }
            "clCreateCommandQueueWithProperties" => {
                clCreateCommandQueueWithProperties(h, device(), ptr::null(), &mut err);
                err
            }
            "clSetContextDestructorCallback" => clSetContextDestructorCallback(h, Some(context_cb), ptr::null_mut()),
            "clCreateImage" => {
                let desc = cl_image_desc {
                    image_type: CL_MEM_OBJECT_IMAGE2D,
                    image_width: 4,
                    image_height: 4,
                    image_depth: 1,
                    image_array_size: 1,
                    image_row_pitch: 0,
                    image_slice_pitch: 0,
                    num_mip_levels: 0,
                    num_samples: 0,
                    buffer: ptr::null_mut(),
                };
                let format = cl_image_format {
                    image_channel_order: CL_RGBA,
                    image_channel_data_type: CL_UNORM_INT8,
                };
                clCreateImage(h, CL_MEM_READ_WRITE, &format, &desc, ptr::null_mut(), &mut err);
                err
            }
            "clGetSupportedImageFormats" => {
                let mut n = 0;
                clGetSupportedImageFormats(h, 0, CL_MEM_OBJECT_IMAGE2D, 0, ptr::null_mut(), &mut n)
            }
            "clCreateSampler" => {
                clCreateSampler(h, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &mut err);
                err
            }
            "clCreateSamplerWithProperties" => {
                clCreateSamplerWithProperties(h, ptr::null(), &mut err);
                err
            }
            "clGetCommandQueueInfo" => clGetCommandQueueInfo(h, CL_QUEUE_PROPERTIES, 64, o, ptr::null_mut()),
            "clRetainCommandQueue" => clRetainCommandQueue(h),
            "clReleaseCommandQueue" => clReleaseCommandQueue(h),
            "clFlush" => clFlush(h),
            "clFinish" => clFinish(h),
            "clEnqueueBarrier" => clEnqueueBarrier(h),
            "clEnqueueMarkerWithWaitList" => clEnqueueMarkerWithWaitList(h, 0, ptr::null(), ptr::null_mut()),
            "clEnqueueBarrierWithWaitList" => clEnqueueBarrierWithWaitList(h, 0, ptr::null(), ptr::null_mut()),
            "clSetDefaultDeviceCommandQueue" => {
                let ctx = context();
                let rc = clSetDefaultDeviceCommandQueue(ctx, device(), h);
                check(clReleaseContext(ctx));
                rc
            }
            "clGetEventInfo" => clGetEventInfo(h, CL_EVENT_COMMAND_TYPE, 64, o, ptr::null_mut()),
            "clGetEventProfilingInfo" => clGetEventProfilingInfo(h, CL_PROFILING_COMMAND_START, 64, o, ptr::null_mut()),
            "clRetainEvent" => clRetainEvent(h),
            "clReleaseEvent" => clReleaseEvent(h),
            "clSetUserEventStatus" => clSetUserEventStatus(h, CL_COMPLETE),
            "clSetEventCallback" => clSetEventCallback(h, CL_COMPLETE, Some(event_cb), ptr::null_mut()),
            "clGetMemObjectInfo" => clGetMemObjectInfo(h, CL_MEM_SIZE, 64, o, ptr::null_mut()),
            "clRetainMemObject" => clRetainMemObject(h),
            "clReleaseMemObject" => clReleaseMemObject(h),
            "clSetMemObjectDestructorCallback" => clSetMemObjectDestructorCallback(h, Some(mem_cb), ptr::null_mut()),
            "clGetImageInfo" => clGetImageInfo(h, CL_IMAGE_WIDTH, 64, o, ptr::null_mut()),
            "clGetSamplerInfo" => clGetSamplerInfo(h, CL_SAMPLER_CONTEXT, 64, o, ptr::null_mut()),
            "clRetainSampler" => clRetainSampler(h),
            "clReleaseSampler" => clReleaseSampler(h),
            "clGetDeviceInfo" => clGetDeviceInfo(h, CL_DEVICE_TYPE, 64, o, ptr::null_mut()),
            "clRetainDevice" => clRetainDevice(h),
            "clReleaseDevice" => clReleaseDevice(h),
            _ => unreachable!("no call named {name}"),
        }
    };
    rc
}

fn expected(kind: &str) -> cl_int {
    match kind {
        "context" => CL_INVALID_CONTEXT,
        "queue" | "device_queue" => CL_INVALID_COMMAND_QUEUE,
        "event" => CL_INVALID_EVENT,
        "mem" | "image" => CL_INVALID_MEM_OBJECT,
        "sampler" => CL_INVALID_SAMPLER,
        "device" => CL_INVALID_DEVICE,
        _ => unreachable!(),
    }
}

fn check_all(kind: &str, h: H, what: &str) {
    check_calls(kind, calls_for(kind), h, what);
}

fn check_calls(kind: &str, calls: &[&str], h: H, what: &str) {
    for name in calls {
        let got = call(name, h);
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
    device_queue: cl_command_queue,
    event: cl_event,
    mem: cl_mem,
    image: cl_mem,
    sampler: cl_sampler,
}

fn objects() -> Objects {
    let ctx = context();
    let queue = queue(ctx, 0);
    let mut err = 0;
    // SAFETY: valid context.
    let event = unsafe { clCreateUserEvent(ctx, &mut err) };
    check(err);
    let mem = buffer(ctx, CL_MEM_READ_WRITE, 64);
    let props = [
        CL_QUEUE_PROPERTIES as cl_queue_properties,
        CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        0,
    ];
    // SAFETY: valid handles and a zero-terminated list.
    let device_queue = unsafe { clCreateCommandQueueWithProperties(ctx, device(), props.as_ptr(), &mut err) };
    check(err);
    let format = cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: CL_UNORM_INT8,
    };
    let desc = cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE2D,
        image_width: 4,
        image_height: 4,
        image_depth: 1,
        image_array_size: 1,
        image_row_pitch: 0,
        image_slice_pitch: 0,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: ptr::null_mut(),
    };
    // SAFETY: valid context, format and descriptor; no host pointer.
    let image = unsafe { clCreateImage(ctx, CL_MEM_READ_WRITE, &format, &desc, ptr::null_mut(), &mut err) };
    check(err);
    // SAFETY: valid context; NULL properties.
    let sampler = unsafe { clCreateSamplerWithProperties(ctx, ptr::null(), &mut err) };
    check(err);
    Objects {
        ctx,
        queue,
        device_queue,
        event,
        mem,
        image,
        sampler,
    }
}

fn handle_of(o: &Objects, kind: &str) -> H {
    match kind {
        "context" => o.ctx,
        "queue" => o.queue,
        "device_queue" => o.device_queue,
        "event" => o.event,
        "mem" => o.mem,
        "image" => o.image,
        "sampler" => o.sampler,
        _ => unreachable!(),
    }
}

const KINDS: [&str; 7] = ["context", "queue", "device_queue", "event", "mem", "image", "sampler"];

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
            let what = format!("{other}-as");
            match (kind, *other) {
                // Host and device queues are both command-queues: only what
                // one kind alone takes must refuse the other.
                ("queue", "device_queue") => check_calls(kind, &calls_for(kind)[3..], handle_of(&o, other), &what),
                ("device_queue", "queue") => {
                    check_calls(kind, &["clSetDefaultDeviceCommandQueue"], handle_of(&o, other), &what)
                }
                // An image is a memory object for every memory-object call;
                // a buffer is not an image for the image query.
                ("mem", "image") => {}
                ("image", "mem") => check_calls(kind, &["clGetImageInfo"], handle_of(&o, other), &what),
                _ => check_all(kind, handle_of(&o, other), &what),
            }
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
        check(clReleaseMemObject(o.image));
        check(clReleaseSampler(o.sampler));
        check(clReleaseCommandQueue(o.queue));
        check(clReleaseCommandQueue(o.device_queue));
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
            let f = table.clGetSamplerInfo.unwrap();
            expect_err(
                f(h, CL_SAMPLER_CONTEXT, 64, out.as_mut_ptr().cast(), ptr::null_mut()),
                CL_INVALID_SAMPLER,
            );
            let f = table.clGetImageInfo.unwrap();
            expect_err(
                f(h, CL_IMAGE_WIDTH, 64, out.as_mut_ptr().cast(), ptr::null_mut()),
                CL_INVALID_MEM_OBJECT,
            );
        }
    }
}
