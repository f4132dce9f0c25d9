//! API spec 5.1: command queues, through the ICD loader.

#![allow(deprecated)] // the OpenCL 1.x entry points are tested on purpose

use std::ptr;

use clift_conformance::*;

fn queue_info<T: Copy>(q: cl_command_queue, p: cl_command_queue_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetCommandQueueInfo(q, p, s, v, r) })
}

#[test]
fn create_queues_and_query_them() {
    let c = context();
    let d = device();
    for props in [
        0,
        CL_QUEUE_PROFILING_ENABLE,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
    ] {
        let q = queue(c, props);
        assert_eq!(queue_info::<cl_context>(q, CL_QUEUE_CONTEXT), c);
        assert_eq!(queue_info::<cl_device_id>(q, CL_QUEUE_DEVICE), d);
        assert_eq!(queue_info::<cl_command_queue_properties>(q, CL_QUEUE_PROPERTIES), props);
        assert_eq!(queue_info::<cl_uint>(q, CL_QUEUE_REFERENCE_COUNT), 1);
        // SAFETY: valid handles.
        unsafe {
            check(clRetainCommandQueue(q));
            assert_eq!(queue_info::<cl_uint>(q, CL_QUEUE_REFERENCE_COUNT), 2);
            check(clFlush(q));
            check(clFinish(q));
            check(clReleaseCommandQueue(q));
            check(clReleaseCommandQueue(q));
            expect_err(clFlush(q), CL_INVALID_COMMAND_QUEUE);
        }
        let mut err = 0;
        // The OpenCL 1.x entry point.
        // SAFETY: valid handles.
        let q = unsafe { clCreateCommandQueue(c, d, props, &mut err) };
        check(err);
        assert_eq!(queue_info::<cl_command_queue_properties>(q, CL_QUEUE_PROPERTIES), props);
        // SAFETY: valid handle.
        check(unsafe { clReleaseCommandQueue(q) });
    }
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn queue_errors() {
    let c = context();
    let d = device();
    let mut err = 0;
    // SAFETY: every call must reject its bad argument.
    unsafe {
        // CL_INVALID_CONTEXT, CL_INVALID_DEVICE.
        assert!(clCreateCommandQueueWithProperties(ptr::null_mut(), d, ptr::null(), &mut err).is_null());
        expect_err(err, CL_INVALID_CONTEXT);
        clCreateCommandQueueWithProperties(c, forged_handle(), ptr::null(), &mut err);
        expect_err(err, CL_INVALID_DEVICE);
        // CL_INVALID_VALUE if values specified in properties are not valid.
        let bad = [CL_QUEUE_PROPERTIES as cl_queue_properties, 1 << 10, 0];
        clCreateCommandQueueWithProperties(c, d, bad.as_ptr(), &mut err);
        expect_err(err, CL_INVALID_VALUE);
        let unknown = [0x9999, 0, 0];
        clCreateCommandQueueWithProperties(c, d, unknown.as_ptr(), &mut err);
        expect_err(err, CL_INVALID_VALUE);
        let size_without_device = [CL_QUEUE_SIZE as cl_queue_properties, 1024, 0];
        clCreateCommandQueueWithProperties(c, d, size_without_device.as_ptr(), &mut err);
        expect_err(err, CL_INVALID_VALUE);
        // An on-device queue must be out-of-order (device_queue.rs has the rest).
        let in_order_on_device = [CL_QUEUE_PROPERTIES as cl_queue_properties, CL_QUEUE_ON_DEVICE, 0];
        clCreateCommandQueueWithProperties(c, d, in_order_on_device.as_ptr(), &mut err);
        expect_err(err, CL_INVALID_VALUE);
        clCreateCommandQueue(c, d, 1 << 12, &mut err);
        expect_err(err, CL_INVALID_VALUE);
        let q = queue(c, 0);
        let mut v = 0u64;
        expect_err(
            clGetCommandQueueInfo(q, 0x4444, 8, (&mut v as *mut u64).cast(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, 4, (&mut v as *mut u64).cast(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(clSetDefaultDeviceCommandQueue(c, d, q), CL_INVALID_COMMAND_QUEUE);
        // A context handle is not a queue.
        expect_err(clFinish(c as cl_command_queue), CL_INVALID_COMMAND_QUEUE);
        expect_err(clRetainCommandQueue(ptr::null_mut()), CL_INVALID_COMMAND_QUEUE);
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

// Deprecated in OpenCL 1.1 and not in opencl-sys; the loader exports it.
extern "C" {
    fn clSetCommandQueueProperty(
        command_queue: cl_command_queue,
        properties: cl_command_queue_properties,
        enable: cl_bool,
        old_properties: *mut cl_command_queue_properties,
    ) -> cl_int;
}

#[test]
fn queue_properties_cannot_be_changed_after_creation() {
    let c = context();
    let q = queue(c, 0);
    let mut old = 0;
    // SAFETY: valid queue, room for the old properties (never written).
    unsafe {
        // Not a queue; properties outside the legacy table.
        expect_err(
            clSetCommandQueueProperty(c as cl_command_queue, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &mut old),
            CL_INVALID_COMMAND_QUEUE,
        );
        expect_err(
            clSetCommandQueueProperty(q, 1 << 9, CL_TRUE, &mut old),
            CL_INVALID_VALUE,
        );
        expect_err(
            clSetCommandQueueProperty(q, CL_QUEUE_ON_DEVICE, CL_TRUE, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        // Valid properties: only OpenCL 1.0 devices must support changing
        // them ("may unconditionally return an error").
        expect_err(
            clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &mut old),
            CL_INVALID_OPERATION,
        );
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

#[test]
fn queue_properties_array_is_returned() {
    let c = context();
    let d = device();
    let list = [CL_QUEUE_PROPERTIES as cl_queue_properties, CL_QUEUE_PROFILING_ENABLE, 0];
    let mut err = 0;
    // SAFETY: valid handles and zero-terminated list.
    let q = unsafe { clCreateCommandQueueWithProperties(c, d, list.as_ptr(), &mut err) };
    check(err);
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    let b = info_bytes(|s, v, r| unsafe { clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, s, v, r) }).unwrap();
    let words: Vec<u64> = b.chunks(8).map(|w| u64::from_ne_bytes(w.try_into().unwrap())).collect();
    assert_eq!(words, list.to_vec());
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}
