//! On-device command queues, the host side (API spec 5.1 and 5.9): creation
//! with every property combination and each error, the limit per device and
//! context, the one default queue and its replacement by
//! clSetDefaultDeviceCommandQueue, every queue and device query, host
//! commands refused on a device queue, and `queue_t` kernel arguments
//! (valid and invalid values, argument info, kernels that run with them).
//! Device-side enqueue itself (enqueue_kernel from a kernel) is in
//! `device_enqueue.rs`.

#![allow(deprecated)] // clCreateCommandQueue and clEnqueueTask are checked too

use std::ffi::c_void;
use std::ptr;

use clift_conformance::programs::{arg_string, arg_value, release_context, release_program, source_program};
use clift_conformance::*;

type Props = cl_command_queue_properties;

const ON_DEVICE: Props = CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
const DEFAULT: Props = ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;

/// clCreateCommandQueueWithProperties on clift's device with the
/// zero-terminated `list`: the queue or the error.
fn create(ctx: cl_context, list: &[cl_queue_properties]) -> Result<cl_command_queue, cl_int> {
    create_on(ctx, device(), list)
}

fn create_on(ctx: cl_context, d: cl_device_id, list: &[cl_queue_properties]) -> Result<cl_command_queue, cl_int> {
    assert_eq!(list.last(), Some(&0), "the list ends with 0");
    let mut err = 0;
    // SAFETY: a zero-terminated property list; the handles are checked by clift.
    let q = unsafe { clCreateCommandQueueWithProperties(ctx, d, list.as_ptr(), &mut err) };
    if err == CL_SUCCESS {
        assert!(!q.is_null());
        Ok(q)
    } else {
        assert!(q.is_null(), "a failed create returns NULL");
        Err(err)
    }
}

/// A device queue with `props` (and `CL_QUEUE_SIZE` if given), panicking on error.
fn device_queue(ctx: cl_context, props: Props, size: Option<u32>) -> cl_command_queue {
    let mut list = vec![CL_QUEUE_PROPERTIES as cl_queue_properties, props];
    if let Some(s) = size {
        list.extend([CL_QUEUE_SIZE as cl_queue_properties, u64::from(s)]);
    }
    list.push(0);
    create(ctx, &list).unwrap_or_else(|e| panic!("device queue {props:#x}: {}", error_name(e)))
}

fn queue_bytes(q: cl_command_queue, param: cl_command_queue_info) -> Result<Vec<u8>, cl_int> {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_bytes(|s, v, r| unsafe { clGetCommandQueueInfo(q, param, s, v, r) })
}

fn queue_value<T: Copy>(q: cl_command_queue, param: cl_command_queue_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetCommandQueueInfo(q, param, s, v, r) })
}

fn default_of(q: cl_command_queue) -> cl_command_queue {
    queue_value(q, CL_QUEUE_DEVICE_DEFAULT)
}

fn ref_count(q: cl_command_queue) -> cl_uint {
    queue_value(q, CL_QUEUE_REFERENCE_COUNT)
}

fn release_queue(q: cl_command_queue) {
    // SAFETY: a queue the caller holds a reference to.
    check(unsafe { clReleaseCommandQueue(q) });
}

fn release_kernel(k: cl_kernel) {
    // SAFETY: a kernel the caller owns.
    check(unsafe { clReleaseKernel(k) });
}

/// The device's limits on device queues.
struct Limits {
    preferred: cl_uint,
    max_size: cl_uint,
    max_queues: cl_uint,
}

fn limits() -> Limits {
    let d = device();
    Limits {
        preferred: device_value(d, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE),
        max_size: device_value(d, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE),
        max_queues: device_value(d, CL_DEVICE_MAX_ON_DEVICE_QUEUES),
    }
}

#[test]
fn device_reports_on_device_queues() {
    let d = device();
    // "Support for on-device queues is required for an OpenCL 2.0, 2.1, or
    // 2.2 device. When on-device queues are supported, the mandated minimum
    // capability is: CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE."
    let props: Props = device_value(d, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES);
    assert_eq!(
        props,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE
    );
    let l = limits();
    // "The minimum value is 16 KB", "256 KB for the full profile", "1", "1024".
    assert!(l.preferred >= 16 << 10, "preferred size {}", l.preferred);
    assert!(l.max_size >= 256 << 10, "max size {}", l.max_size);
    assert!(l.preferred <= l.max_size);
    // At least two, so that clSetDefaultDeviceCommandQueue has a choice.
    assert!(l.max_queues >= 2, "max queues {}", l.max_queues);
    let events: cl_uint = device_value(d, CL_DEVICE_MAX_ON_DEVICE_EVENTS);
    assert!(events >= 1024, "max events {events}");
}

#[test]
fn every_property_combination_creates_a_queue_that_reports_it() {
    let l = limits();
    let d = device();
    for profiling in [0, CL_QUEUE_PROFILING_ENABLE] {
        for default in [0, CL_QUEUE_ON_DEVICE_DEFAULT] {
            for size in [None, Some(16 << 10), Some(l.preferred), Some(l.max_size), Some(1)] {
                let ctx = context();
                let props = ON_DEVICE | profiling | default;
                let mut list = vec![CL_QUEUE_PROPERTIES as cl_queue_properties, props];
                if let Some(s) = size {
                    list.extend([CL_QUEUE_SIZE as cl_queue_properties, u64::from(s)]);
                }
                list.push(0);
                let what = format!("{props:#x} size {size:?}");
                let q = create(ctx, &list).unwrap_or_else(|e| panic!("{what}: {}", error_name(e)));
                assert_eq!(queue_value::<Props>(q, CL_QUEUE_PROPERTIES), props, "{what}");
                // "If CL_QUEUE_SIZE is not specified, the device queue is
                // created with CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE."
                assert_eq!(
                    queue_value::<cl_uint>(q, CL_QUEUE_SIZE),
                    size.unwrap_or(l.preferred),
                    "{what}"
                );
                // The properties "in the same order and without including
                // additional properties".
                let array = queue_bytes(q, CL_QUEUE_PROPERTIES_ARRAY).unwrap();
                let want: Vec<u8> = list.iter().flat_map(|v| v.to_ne_bytes()).collect();
                assert_eq!(array, want, "{what}");
                assert_eq!(queue_value::<cl_context>(q, CL_QUEUE_CONTEXT), ctx, "{what}");
                assert_eq!(queue_value::<cl_device_id>(q, CL_QUEUE_DEVICE), d, "{what}");
                assert_eq!(ref_count(q), 1, "{what}");
                let want_default = if default != 0 { q } else { ptr::null_mut() };
                assert_eq!(default_of(q), want_default, "{what}");
                // The host queue of the same device and context names the
                // same default ("the current default command-queue for the
                // underlying device").
                let host = queue(ctx, 0);
                assert_eq!(default_of(host), want_default, "{what}");
                release_queue(host);
                release_queue(q);
                release_context(ctx);
            }
        }
    }
    // CL_QUEUE_SIZE and CL_QUEUE_PROPERTIES in the other order.
    let ctx = context();
    let list = [
        CL_QUEUE_SIZE as cl_queue_properties,
        1 << 16,
        CL_QUEUE_PROPERTIES as u64,
        ON_DEVICE,
        0,
    ];
    let q = create(ctx, &list).unwrap();
    assert_eq!(queue_value::<cl_uint>(q, CL_QUEUE_SIZE), 1 << 16);
    release_queue(q);
    release_context(ctx);
}

#[test]
fn invalid_properties_are_refused() {
    let ctx = context();
    let d = device();
    let max = u64::from(limits().max_size);
    let p = CL_QUEUE_PROPERTIES as cl_queue_properties;
    let s = CL_QUEUE_SIZE as cl_queue_properties;
    // CL_INVALID_VALUE if values specified in properties are not valid:
    let cases: &[(&str, &[cl_queue_properties])] = &[
        // "If CL_QUEUE_ON_DEVICE is set, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE must also be set."
        ("in-order device queue", &[p, CL_QUEUE_ON_DEVICE, 0]),
        (
            "in-order profiling device queue",
            &[p, CL_QUEUE_ON_DEVICE | CL_QUEUE_PROFILING_ENABLE, 0],
        ),
        (
            "in-order default device queue",
            &[p, CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT, 0],
        ),
        // CL_QUEUE_ON_DEVICE_DEFAULT "can only be used with CL_QUEUE_ON_DEVICE".
        (
            "default without on-device",
            &[
                p,
                CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                0,
            ],
        ),
        ("default alone", &[p, CL_QUEUE_ON_DEVICE_DEFAULT, 0]),
        // CL_QUEUE_SIZE "can only be specified if CL_QUEUE_ON_DEVICE is set".
        (
            "size on a host queue",
            &[p, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, s, 1 << 14, 0],
        ),
        ("size alone", &[s, 1 << 14, 0]),
        // "This must be a value <= CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE."
        ("size above the maximum", &[p, ON_DEVICE, s, max + 1, 0]),
        ("size past 32 bits", &[p, ON_DEVICE, s, 1 << 32, 0]),
        ("size 0", &[p, ON_DEVICE, s, 0, 0]),
        ("unknown bit", &[p, ON_DEVICE | (1 << 12), 0]),
        ("property twice", &[p, ON_DEVICE, p, ON_DEVICE, 0]),
        ("size twice", &[p, ON_DEVICE, s, 1 << 14, s, 1 << 14, 0]),
    ];
    for (what, list) in cases {
        assert_eq!(create(ctx, list).err(), Some(CL_INVALID_VALUE), "{what}");
    }
    // clCreateCommandQueue takes host queue properties only.
    let mut err = 0;
    // SAFETY: valid handles.
    let q = unsafe { clCreateCommandQueue(ctx, d, ON_DEVICE, &mut err) };
    assert!(q.is_null());
    expect_err(err, CL_INVALID_VALUE);
    // Nothing was created by the refused calls: the whole limit is free.
    let qs: Vec<_> = (0..limits().max_queues)
        .map(|_| device_queue(ctx, ON_DEVICE, None))
        .collect();
    qs.into_iter().for_each(release_queue);
    // The handles are checked first.
    let list = [p, ON_DEVICE, 0];
    assert_eq!(create_on(ptr::null_mut(), d, &list).err(), Some(CL_INVALID_CONTEXT));
    assert_eq!(create_on(ctx, ptr::null_mut(), &list).err(), Some(CL_INVALID_DEVICE));
    assert_eq!(
        create_on(ctx, ctx as cl_device_id, &list).err(),
        Some(CL_INVALID_DEVICE)
    );
    release_context(ctx);
}

#[test]
fn at_most_the_device_limit_per_context() {
    let max = limits().max_queues;
    let ctx = context();
    let first = device_queue(ctx, DEFAULT, None);
    let mut qs = vec![first];
    for _ in 1..max {
        qs.push(device_queue(ctx, ON_DEVICE | CL_QUEUE_PROFILING_ENABLE, None));
    }
    // "The maximum number of device queues that can be created for this
    // device in a single context": past it, CL_OUT_OF_RESOURCES.
    assert_eq!(
        create(ctx, &[CL_QUEUE_PROPERTIES as u64, ON_DEVICE, 0]).err(),
        Some(CL_OUT_OF_RESOURCES)
    );
    // Asking for the default returns the existing one, which takes no slot.
    let again = device_queue(ctx, DEFAULT, None);
    assert_eq!(again, first);
    assert_eq!(ref_count(first), 2);
    release_queue(again);
    // Another context has its own limit; host queues are not counted.
    let other = context();
    let host = queue(ctx, 0);
    let in_other = device_queue(other, ON_DEVICE, None);
    release_queue(in_other);
    release_queue(host);
    release_context(other);
    // Releasing a queue frees its slot; a retained one keeps it.
    let last = qs.pop().unwrap();
    // SAFETY: a valid queue.
    check(unsafe { clRetainCommandQueue(last) });
    release_queue(last);
    assert_eq!(
        create(ctx, &[CL_QUEUE_PROPERTIES as u64, ON_DEVICE, 0]).err(),
        Some(CL_OUT_OF_RESOURCES)
    );
    release_queue(last);
    qs.push(device_queue(ctx, ON_DEVICE, None));
    qs.into_iter().for_each(release_queue);
    release_context(ctx);
}

#[test]
fn the_default_queue_is_one_per_device_and_context() {
    let ctx = context();
    let host = queue(ctx, 0);
    assert!(default_of(host).is_null(), "no default device queue yet");
    let a = device_queue(ctx, DEFAULT, None);
    // "If a default device queue has already been created, calling
    // clCreateCommandQueueWithProperties with CL_QUEUE_PROPERTIES set to
    // CL_QUEUE_ON_DEVICE and CL_QUEUE_ON_DEVICE_DEFAULT will return the
    // default device queue that has already been created and increment its
    // reference count by 1."
    let b = device_queue(ctx, DEFAULT | CL_QUEUE_PROFILING_ENABLE, Some(1 << 14));
    assert_eq!(a, b);
    assert_eq!(ref_count(a), 2);
    assert_eq!(default_of(host), a);
    // Another context has its own default.
    let other = context();
    let c = device_queue(other, DEFAULT, None);
    assert_ne!(c, a);
    assert_eq!(default_of(c), c);
    assert_eq!(default_of(a), a);
    release_queue(c);
    release_context(other);
    // Released to zero, the default is gone (the next one is new).
    release_queue(b);
    assert_eq!(ref_count(a), 1);
    release_queue(a);
    assert!(default_of(host).is_null());
    let n = device_queue(ctx, DEFAULT, None);
    assert_eq!(ref_count(n), 1);
    assert_eq!(default_of(host), n);
    release_queue(n);
    release_queue(host);
    release_context(ctx);
}

#[test]
fn set_default_device_command_queue_replaces_the_default() {
    let ctx = context();
    let d = device();
    let host = queue(ctx, 0);
    let a = device_queue(ctx, DEFAULT | CL_QUEUE_PROFILING_ENABLE, None);
    let b = device_queue(ctx, ON_DEVICE, Some(1 << 15));
    assert_eq!(default_of(b), a);
    // SAFETY: every call below passes handles clift checks and valid pointers.
    unsafe {
        // A queue created without CL_QUEUE_ON_DEVICE_DEFAULT can become the default.
        check(clSetDefaultDeviceCommandQueue(ctx, d, b));
        for q in [a, b, host] {
            assert_eq!(default_of(q), b);
        }
        // Its properties stay what they were created with.
        assert_eq!(queue_value::<Props>(b, CL_QUEUE_PROPERTIES), ON_DEVICE);
        // Creating "the default" now returns the replacement, retained.
        let again = device_queue(ctx, DEFAULT, None);
        assert_eq!(again, b);
        assert_eq!(ref_count(b), 2);
        release_queue(again);
        // Setting it again, and back.
        check(clSetDefaultDeviceCommandQueue(ctx, d, b));
        check(clSetDefaultDeviceCommandQueue(ctx, d, a));
        assert_eq!(default_of(host), a);
        assert_eq!(ref_count(a), 1, "setting the default does not retain");

        // CL_INVALID_CONTEXT if context is not a valid context.
        expect_err(
            clSetDefaultDeviceCommandQueue(ptr::null_mut(), d, b),
            CL_INVALID_CONTEXT,
        );
        expect_err(
            clSetDefaultDeviceCommandQueue(d as cl_context, d, b),
            CL_INVALID_CONTEXT,
        );
        expect_err(
            clSetDefaultDeviceCommandQueue(forged_handle(), d, b),
            CL_INVALID_CONTEXT,
        );
        // CL_INVALID_DEVICE if device is not a valid device.
        expect_err(
            clSetDefaultDeviceCommandQueue(ctx, ptr::null_mut(), b),
            CL_INVALID_DEVICE,
        );
        expect_err(
            clSetDefaultDeviceCommandQueue(ctx, ctx as cl_device_id, b),
            CL_INVALID_DEVICE,
        );
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid
        // command-queue for device: NULL, another object, a host queue, a
        // device queue of another context, a released one.
        expect_err(
            clSetDefaultDeviceCommandQueue(ctx, d, ptr::null_mut()),
            CL_INVALID_COMMAND_QUEUE,
        );
        expect_err(
            clSetDefaultDeviceCommandQueue(ctx, d, d as cl_command_queue),
            CL_INVALID_COMMAND_QUEUE,
        );
        expect_err(
            clSetDefaultDeviceCommandQueue(ctx, d, forged_handle()),
            CL_INVALID_COMMAND_QUEUE,
        );
        expect_err(clSetDefaultDeviceCommandQueue(ctx, d, host), CL_INVALID_COMMAND_QUEUE);
        let other = context();
        let foreign = device_queue(other, ON_DEVICE, None);
        expect_err(
            clSetDefaultDeviceCommandQueue(ctx, d, foreign),
            CL_INVALID_COMMAND_QUEUE,
        );
        release_queue(foreign);
        release_context(other);
        let gone = device_queue(ctx, ON_DEVICE, None);
        release_queue(gone);
        expect_err(clSetDefaultDeviceCommandQueue(ctx, d, gone), CL_INVALID_COMMAND_QUEUE);
        // None of the refusals changed the default.
        assert_eq!(default_of(host), a);
    }
    // A device queue of a sub-device is not one for the root device, nor the
    // reverse; the sub-device has its own default.
    let props = [
        CL_DEVICE_PARTITION_BY_COUNTS as cl_device_partition_property,
        1,
        CL_DEVICE_PARTITION_BY_COUNTS_LIST_END as cl_device_partition_property,
        0,
    ];
    let mut sub: cl_device_id = ptr::null_mut();
    // SAFETY: a valid device, room for one sub-device.
    check(unsafe { clCreateSubDevices(d, props.as_ptr(), 1, &mut sub, ptr::null_mut()) });
    {
        let devs = [d, sub];
        let mut err = 0;
        // SAFETY: two valid devices; no callback.
        let both = unsafe { clCreateContext(ptr::null(), 2, devs.as_ptr(), None, ptr::null_mut(), &mut err) };
        check(err);
        let on_sub = create_on(both, sub, &[CL_QUEUE_PROPERTIES as u64, DEFAULT, 0]).unwrap();
        let on_root = create_on(both, d, &[CL_QUEUE_PROPERTIES as u64, ON_DEVICE, 0]).unwrap();
        assert_eq!(default_of(on_sub), on_sub);
        assert!(default_of(on_root).is_null());
        // SAFETY: valid handles.
        unsafe {
            expect_err(
                clSetDefaultDeviceCommandQueue(both, d, on_sub),
                CL_INVALID_COMMAND_QUEUE,
            );
            expect_err(
                clSetDefaultDeviceCommandQueue(both, sub, on_root),
                CL_INVALID_COMMAND_QUEUE,
            );
            // CL_INVALID_DEVICE if device is not associated with context.
            expect_err(clSetDefaultDeviceCommandQueue(ctx, sub, a), CL_INVALID_DEVICE);
            check(clSetDefaultDeviceCommandQueue(both, d, on_root));
        }
        assert_eq!(default_of(on_root), on_root);
        assert_eq!(default_of(on_sub), on_sub);
        release_queue(on_sub);
        release_queue(on_root);
        release_context(both);
        // SAFETY: the sub-device created above.
        check(unsafe { clReleaseDevice(sub) });
    }
    release_queue(a);
    release_queue(b);
    release_queue(host);
    release_context(ctx);
}

#[test]
fn host_commands_refuse_a_device_queue() {
    let ctx = context();
    let dq = device_queue(ctx, ON_DEVICE, None);
    let host = queue(ctx, 0);
    let m = buffer(ctx, CL_MEM_READ_WRITE, 64);
    let mut bytes = [0u8; 64];
    let p = bytes.as_mut_ptr().cast::<c_void>();
    let program = source_program(ctx, "kernel void k(global int *p) { p[0] = 1; }");
    check(build(program, ""));
    let k = kernel(program, "k");
    check(set_arg(k, 0, &m));
    let gws = [1usize];
    let pattern = 0u32;
    let svm = {
        // SAFETY: a valid context.
        unsafe { clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0) }
    };
    assert!(!svm.is_null());
    let mut err = 0;
    // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
    // command-queue", for every command and for clFlush and clFinish.
    // SAFETY: every call has valid arguments apart from the queue, which
    // clift must refuse before touching anything.
    unsafe {
        let codes = [
            ("clFlush", clFlush(dq)),
            ("clFinish", clFinish(dq)),
            (
                "clEnqueueWriteBuffer",
                clEnqueueWriteBuffer(dq, m, CL_TRUE, 0, 64, p, 0, ptr::null(), ptr::null_mut()),
            ),
            (
                "clEnqueueReadBuffer",
                clEnqueueReadBuffer(dq, m, CL_TRUE, 0, 64, p, 0, ptr::null(), ptr::null_mut()),
            ),
            (
                "clEnqueueCopyBuffer",
                clEnqueueCopyBuffer(dq, m, m, 0, 32, 32, 0, ptr::null(), ptr::null_mut()),
            ),
            (
                "clEnqueueFillBuffer",
                clEnqueueFillBuffer(
                    dq,
                    m,
                    (&pattern as *const u32).cast(),
                    4,
                    0,
                    64,
                    0,
                    ptr::null(),
                    ptr::null_mut(),
                ),
            ),
            (
                "clEnqueueNDRangeKernel",
                clEnqueueNDRangeKernel(
                    dq,
                    k,
                    1,
                    ptr::null(),
                    gws.as_ptr(),
                    ptr::null(),
                    0,
                    ptr::null(),
                    ptr::null_mut(),
                ),
            ),
            ("clEnqueueTask", clEnqueueTask(dq, k, 0, ptr::null(), ptr::null_mut())),
            (
                "clEnqueueMarkerWithWaitList",
                clEnqueueMarkerWithWaitList(dq, 0, ptr::null(), ptr::null_mut()),
            ),
            (
                "clEnqueueBarrierWithWaitList",
                clEnqueueBarrierWithWaitList(dq, 0, ptr::null(), ptr::null_mut()),
            ),
            (
                "clEnqueueMigrateMemObjects",
                clEnqueueMigrateMemObjects(dq, 1, &m, 0, 0, ptr::null(), ptr::null_mut()),
            ),
            (
                "clEnqueueSVMMemcpy",
                clEnqueueSVMMemcpy(dq, CL_TRUE, svm, p, 64, 0, ptr::null(), ptr::null_mut()),
            ),
            (
                "clEnqueueSVMMemFill",
                clEnqueueSVMMemFill(
                    dq,
                    svm,
                    (&pattern as *const u32).cast(),
                    4,
                    64,
                    0,
                    ptr::null(),
                    ptr::null_mut(),
                ),
            ),
        ];
        for (name, code) in codes {
            assert_eq!(code, CL_INVALID_COMMAND_QUEUE, "{name}: {}", error_name(code));
        }
        let mapped = clEnqueueMapBuffer(
            dq,
            m,
            CL_TRUE,
            CL_MAP_READ,
            0,
            64,
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut err,
        );
        assert!(mapped.is_null());
        expect_err(err, CL_INVALID_COMMAND_QUEUE);
        // A host queue's wait list may not name the device queue either
        // (it is not an event); the host queue itself still works.
        check(clEnqueueWriteBuffer(
            host,
            m,
            CL_TRUE,
            0,
            64,
            p,
            0,
            ptr::null(),
            ptr::null_mut(),
        ));
        check(clFinish(host));
        // CL_QUEUE_SIZE "to be considered valid for this query,
        // command_queue must be a device command-queue".
        let mut size = 0u32;
        expect_err(
            clGetCommandQueueInfo(host, CL_QUEUE_SIZE, 4, (&mut size as *mut u32).cast(), ptr::null_mut()),
            CL_INVALID_COMMAND_QUEUE,
        );
        expect_err(
            clGetCommandQueueInfo(dq, 0x7777, 4, (&mut size as *mut u32).cast(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clGetCommandQueueInfo(dq, CL_QUEUE_SIZE, 2, (&mut size as *mut u32).cast(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        clSVMFree(ctx, svm);
    }
    release_kernel(k);
    release_program(program);
    release_mem(m);
    release_queue(host);
    release_queue(dq);
    release_context(ctx);
}

#[test]
fn a_released_device_queue_is_invalid() {
    let ctx = context();
    let q = device_queue(ctx, DEFAULT, None);
    // SAFETY: every call passes handles clift checks; a released handle
    // stays readable (ARCHITECTURE.md, "Objects and handles").
    unsafe {
        check(clRetainCommandQueue(q));
        assert_eq!(ref_count(q), 2);
        check(clReleaseCommandQueue(q));
        check(clReleaseCommandQueue(q));
        expect_err(clRetainCommandQueue(q), CL_INVALID_COMMAND_QUEUE);
        expect_err(clReleaseCommandQueue(q), CL_INVALID_COMMAND_QUEUE);
        let mut v = 0u32;
        expect_err(
            clGetCommandQueueInfo(q, CL_QUEUE_SIZE, 4, (&mut v as *mut u32).cast(), ptr::null_mut()),
            CL_INVALID_COMMAND_QUEUE,
        );
        expect_err(
            clSetDefaultDeviceCommandQueue(ctx, device(), q),
            CL_INVALID_COMMAND_QUEUE,
        );
    }
    release_context(ctx);
}

const QUEUE_KERNELS: &str = r#"
kernel void take_queue(queue_t q, global int *out) {
    out[get_global_id(0)] = (int)get_global_id(0) * 3 + 1;
}
kernel void queue_last(global int *out, int add, queue_t q) {
    out[get_global_id(0)] = (int)get_global_id(0) + add;
}
kernel void default_queue(global int *out) {
    queue_t d = get_default_queue();
    out[get_global_id(0)] = 5;
}
"#;

/// Runs `k` (its arguments set, `out` among them, which is filled with
/// `fill` first) over `n` work-items on a new host queue: the enqueue's
/// code and the first `fill.len()` bytes of `out` afterwards.
fn launch(ctx: cl_context, k: cl_kernel, out: cl_mem, fill: &[u8], n: usize) -> (cl_int, Vec<u8>) {
    let q = queue(ctx, 0);
    write_bytes(q, out, 0, fill);
    let gws = [n];
    // SAFETY: valid handles; one dimension.
    let rc = unsafe {
        clEnqueueNDRangeKernel(
            q,
            k,
            1,
            ptr::null(),
            gws.as_ptr(),
            ptr::null(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    let bytes = read_bytes(q, out, 0, fill.len());
    release_queue(q);
    (rc, bytes)
}

/// Runs `k` (its other arguments set) over `n` work-items on a host queue,
/// with `out` as its output; the enqueue's code and the ints.
fn run(ctx: cl_context, k: cl_kernel, out: cl_mem, n: usize) -> (cl_int, Vec<i32>) {
    let (rc, bytes) = launch(ctx, k, out, &vec![0u8; n * 4], n);
    let ints = bytes
        .chunks_exact(4)
        .map(|c| i32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    (rc, ints)
}

/// [`run`], panicking unless the enqueue succeeds.
fn run_ok(ctx: cl_context, k: cl_kernel, out: cl_mem, n: usize) -> Vec<i32> {
    let (rc, ints) = run(ctx, k, out, n);
    check(rc);
    ints
}

#[test]
fn queue_t_arguments_take_device_queues_only() {
    for opts in [
        "-cl-std=CL2.0 -cl-kernel-arg-info",
        "-cl-std=CL2.0 -cl-kernel-arg-info -cl-opt-disable",
    ] {
        let ctx = context();
        let program = source_program(ctx, QUEUE_KERNELS);
        let rc = build(program, opts);
        assert_eq!(rc, CL_SUCCESS, "{opts}: {}", build_log(program, device()));
        let log = build_log(program, device());
        assert!(!log.contains("cannot run yet"), "{opts}: {log}");
        let k = kernel(program, "take_queue");
        let k2 = kernel(program, "queue_last");
        // Argument information: a queue_t is a private-address argument
        // named by its type.
        for (kk, i) in [(k, 0), (k2, 2)] {
            assert_eq!(arg_string(kk, i, CL_KERNEL_ARG_TYPE_NAME), "queue_t", "{opts}");
            assert_eq!(arg_string(kk, i, CL_KERNEL_ARG_NAME), "q", "{opts}");
            assert_eq!(
                arg_value::<cl_kernel_arg_address_qualifier>(kk, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
                CL_KERNEL_ARG_ADDRESS_PRIVATE
            );
            assert_eq!(
                arg_value::<cl_kernel_arg_access_qualifier>(kk, i, CL_KERNEL_ARG_ACCESS_QUALIFIER),
                CL_KERNEL_ARG_ACCESS_NONE
            );
            assert_eq!(
                arg_value::<cl_bitfield>(kk, i, CL_KERNEL_ARG_TYPE_QUALIFIER),
                cl_bitfield::from(CL_KERNEL_ARG_TYPE_NONE)
            );
        }
        let out = buffer(ctx, CL_MEM_READ_WRITE, 4 * 64);
        check(set_arg(k, 1, &out));
        check(set_arg(k2, 0, &out));
        check(set_arg(k2, 1, &10i32));
        // Unset: CL_INVALID_KERNEL_ARGS.
        assert_eq!(run(ctx, k, out, 64).0, CL_INVALID_KERNEL_ARGS);

        let host = queue(ctx, 0);
        let dq = device_queue(ctx, ON_DEVICE, None);
        let other = context();
        let foreign = device_queue(other, ON_DEVICE, None);
        let null_queue: cl_command_queue = ptr::null_mut();
        for kk in [k, k2] {
            let i = if kk == k { 0 } else { 2 };
            // CL_INVALID_DEVICE_QUEUE if the kernel argument is a device
            // queue, but arg_value does not point to a valid device queue
            // object: a host queue, NULL, a buffer, a forged handle, no value.
            expect_err(set_arg(kk, i, &host), CL_INVALID_DEVICE_QUEUE);
            expect_err(set_arg(kk, i, &null_queue), CL_INVALID_DEVICE_QUEUE);
            expect_err(set_arg(kk, i, &out), CL_INVALID_DEVICE_QUEUE);
            expect_err(set_arg(kk, i, &forged_handle()), CL_INVALID_DEVICE_QUEUE);
            // SAFETY: a NULL value of the right size.
            expect_err(
                unsafe { clSetKernelArg(kk, i, size_of::<cl_command_queue>(), ptr::null()) },
                CL_INVALID_DEVICE_QUEUE,
            );
            // CL_INVALID_ARG_SIZE if arg_value points to a device queue
            // object and arg_size is not equal to sizeof(cl_command_queue).
            expect_err(set_arg(kk, i, &1u32), CL_INVALID_ARG_SIZE);
            // SAFETY: `dq` is readable for 4 bytes.
            expect_err(
                unsafe { clSetKernelArg(kk, i, 4, (&dq as *const cl_command_queue).cast()) },
                CL_INVALID_ARG_SIZE,
            );
            // CL_INVALID_CONTEXT: a device queue of another context.
            expect_err(set_arg(kk, i, &foreign), CL_INVALID_CONTEXT);
            // Still unset after all the refusals.
            assert_eq!(run(ctx, kk, out, 64).0, CL_INVALID_KERNEL_ARGS, "{opts}");
            check(set_arg(kk, i, &dq));
        }
        // The kernels run with their queue argument.
        assert_eq!(
            run_ok(ctx, k, out, 64),
            (0..64).map(|i| i * 3 + 1).collect::<Vec<_>>(),
            "{opts}"
        );
        assert_eq!(
            run_ok(ctx, k2, out, 64),
            (0..64).map(|i| i + 10).collect::<Vec<_>>(),
            "{opts}"
        );
        // A kernel does not retain its arguments: a released queue leaves
        // the argument naming nothing.
        release_queue(dq);
        assert_eq!(run(ctx, k, out, 64).0, CL_INVALID_KERNEL_ARGS, "{opts}");
        let dq2 = device_queue(ctx, DEFAULT, None);
        check(set_arg(k, 0, &dq2));
        assert_eq!(run_ok(ctx, k, out, 8), (0..8).map(|i| i * 3 + 1).collect::<Vec<_>>());
        // A clone keeps the argument.
        // SAFETY: a valid kernel.
        let clone = unsafe { clCloneKernel(k, &mut 0) };
        assert_eq!(run_ok(ctx, clone, out, 4), vec![1, 4, 7, 10]);

        // get_default_queue() builds and runs, with and without a default.
        let kd = kernel(program, "default_queue");
        check(set_arg(kd, 0, &out));
        assert_eq!(run_ok(ctx, kd, out, 16), vec![5; 16]);
        release_queue(dq2);
        assert_eq!(run_ok(ctx, kd, out, 16), vec![5; 16]);

        release_kernel(kd);
        release_kernel(clone);
        release_kernel(k);
        release_kernel(k2);
        release_mem(out);
        release_queue(foreign);
        release_queue(host);
        release_context(other);
        release_program(program);
        release_context(ctx);
    }
}

/// The two words `queue_words` (conformance/spirv/queue_words.spvasm)
/// stores for `arg`: its queue_t argument and get_default_queue().
fn queue_words(ctx: cl_context, k: cl_kernel, arg: cl_command_queue) -> [u64; 2] {
    let out = buffer(ctx, CL_MEM_READ_WRITE, 16);
    check(set_arg(k, 0, &arg));
    check(set_arg(k, 1, &out));
    let (rc, bytes) = launch(ctx, k, out, &[0xa5; 16], 3);
    check(rc);
    release_mem(out);
    let word = |i: usize| u64::from_ne_bytes(bytes[i * 8..i * 8 + 8].try_into().unwrap());
    [word(0), word(1)]
}

#[test]
fn kernels_receive_queue_words() {
    // What a kernel receives (ARCHITECTURE.md, "Device-side queues"): an
    // opaque nonzero word per device queue, the same for the queue_t
    // argument and for get_default_queue() when they are the same queue,
    // and 0 (CLK_NULL_QUEUE) from get_default_queue() when there is no
    // default. The module is checked by spirv-val when it is assembled.
    let ctx = context();
    let program = built_program(ctx, "queue_words", "");
    let k = kernel(program, "queue_words");
    let a = device_queue(ctx, ON_DEVICE, None);
    let b = device_queue(ctx, ON_DEVICE | CL_QUEUE_PROFILING_ENABLE, None);
    let [wa, none] = queue_words(ctx, k, a);
    assert_ne!(wa, 0);
    assert_eq!(none, 0, "no default device queue: CLK_NULL_QUEUE");
    let [wb, none] = queue_words(ctx, k, b);
    assert_ne!(wb, 0);
    assert_ne!(wa, wb, "two queues, two words");
    assert_eq!(none, 0);
    // The same queue gives the same word at each launch.
    assert_eq!(queue_words(ctx, k, a), [wa, 0]);
    // SAFETY: valid handles.
    check(unsafe { clSetDefaultDeviceCommandQueue(ctx, device(), b) });
    assert_eq!(queue_words(ctx, k, a), [wa, wb]);
    assert_eq!(queue_words(ctx, k, b), [wb, wb]);
    // SAFETY: valid handles.
    check(unsafe { clSetDefaultDeviceCommandQueue(ctx, device(), a) });
    assert_eq!(queue_words(ctx, k, b), [wb, wa]);
    // A default created with CL_QUEUE_ON_DEVICE_DEFAULT, in a context of its own.
    let other = context();
    let p2 = built_program(other, "queue_words", "");
    let k2 = kernel(p2, "queue_words");
    let d = device_queue(other, DEFAULT, None);
    let [wd, dd] = queue_words(other, k2, d);
    assert_ne!(wd, 0);
    assert_eq!(dd, wd);
    release_kernel(k2);
    release_program(p2);
    release_queue(d);
    release_context(other);
    release_kernel(k);
    release_program(program);
    release_queue(a);
    release_queue(b);
    release_context(ctx);
}

#[test]
fn queue_queries_of_host_queues_are_unchanged() {
    let ctx = context();
    let host = queue(ctx, CL_QUEUE_PROFILING_ENABLE);
    assert_eq!(
        queue_value::<Props>(host, CL_QUEUE_PROPERTIES),
        CL_QUEUE_PROFILING_ENABLE
    );
    assert!(default_of(host).is_null());
    let dq = device_queue(ctx, DEFAULT, None);
    assert_eq!(default_of(host), dq);
    release_queue(dq);
    release_queue(host);
    release_context(ctx);
}
