//! API spec 4.4: contexts, through the ICD loader.

use std::ffi::{c_char, c_void};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use clift_conformance::*;

fn context_info<T: Copy>(c: cl_context, param: cl_context_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetContextInfo(c, param, s, v, r) })
}

#[test]
fn create_context_and_query_it() {
    let d = device();
    let props = [
        CL_CONTEXT_PLATFORM as cl_context_properties,
        platform() as cl_context_properties,
        0,
    ];
    let mut err = 0;
    // SAFETY: valid device, zero-terminated property list.
    let c = unsafe { clCreateContext(props.as_ptr(), 1, &d, None, ptr::null_mut(), &mut err) };
    check(err);
    assert_eq!(context_info::<cl_uint>(c, CL_CONTEXT_NUM_DEVICES), 1);
    assert_eq!(context_info::<cl_device_id>(c, CL_CONTEXT_DEVICES), d);
    assert_eq!(context_info::<cl_uint>(c, CL_CONTEXT_REFERENCE_COUNT), 1);
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    let p = info_bytes(|s, v, r| unsafe { clGetContextInfo(c, CL_CONTEXT_PROPERTIES, s, v, r) }).unwrap();
    let words: Vec<isize> = p
        .chunks(8)
        .map(|w| isize::from_ne_bytes(w.try_into().unwrap()))
        .collect();
    assert_eq!(words, props.to_vec());
    // SAFETY: valid handle.
    check(unsafe { clRetainContext(c) });
    assert_eq!(context_info::<cl_uint>(c, CL_CONTEXT_REFERENCE_COUNT), 2);
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(c) });
    assert_eq!(context_info::<cl_uint>(c, CL_CONTEXT_REFERENCE_COUNT), 1);
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(c) });
    // A released context is no longer valid.
    // SAFETY: the handle is stale; clift must detect it, not dereference it.
    expect_err(unsafe { clRetainContext(c) }, CL_INVALID_CONTEXT);
}

#[test]
fn context_without_properties_reports_none() {
    let c = context();
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    let p = info_bytes(|s, v, r| unsafe { clGetContextInfo(c, CL_CONTEXT_PROPERTIES, s, v, r) }).unwrap();
    assert!(p.is_empty());
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn create_context_from_type() {
    for ty in [CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL] {
        let props = [
            CL_CONTEXT_PLATFORM as cl_context_properties,
            platform() as cl_context_properties,
            0,
        ];
        let mut err = 0;
        // SAFETY: zero-terminated property list.
        let c = unsafe { clCreateContextFromType(props.as_ptr(), ty, None, ptr::null_mut(), &mut err) };
        check(err);
        assert_eq!(context_info::<cl_device_id>(c, CL_CONTEXT_DEVICES), device());
        // SAFETY: valid handle.
        check(unsafe { clReleaseContext(c) });
    }
    let props = [
        CL_CONTEXT_PLATFORM as cl_context_properties,
        platform() as cl_context_properties,
        0,
    ];
    let mut err = 0;
    // CL_DEVICE_NOT_FOUND if no devices that match device_type.
    // SAFETY: zero-terminated property list.
    let c = unsafe { clCreateContextFromType(props.as_ptr(), CL_DEVICE_TYPE_GPU, None, ptr::null_mut(), &mut err) };
    assert!(c.is_null());
    expect_err(err, CL_DEVICE_NOT_FOUND);
    // CL_INVALID_DEVICE_TYPE if device_type is not a valid value.
    // SAFETY: as above.
    let c = unsafe { clCreateContextFromType(props.as_ptr(), 1 << 20, None, ptr::null_mut(), &mut err) };
    assert!(c.is_null());
    expect_err(err, CL_INVALID_DEVICE_TYPE);
}

#[test]
fn create_context_errors() {
    let d = device();
    let mut err = 0;
    // CL_INVALID_VALUE if devices is NULL.
    // SAFETY: the call must reject the NULL list.
    let c = unsafe { clCreateContext(ptr::null(), 1, ptr::null(), None, ptr::null_mut(), &mut err) };
    assert!(c.is_null());
    expect_err(err, CL_INVALID_VALUE);
    // CL_INVALID_VALUE if num_devices is equal to zero.
    // SAFETY: valid device pointer.
    unsafe { clCreateContext(ptr::null(), 0, &d, None, ptr::null_mut(), &mut err) };
    expect_err(err, CL_INVALID_VALUE);
    // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
    let mut dummy = 0u8;
    // SAFETY: as above.
    unsafe { clCreateContext(ptr::null(), 1, &d, None, (&mut dummy as *mut u8).cast(), &mut err) };
    expect_err(err, CL_INVALID_VALUE);
    // CL_INVALID_DEVICE if any device in devices is not a valid device.
    let bogus = [d, forged_handle()];
    // SAFETY: the list holds two entries.
    unsafe { clCreateContext(ptr::null(), 2, bogus.as_ptr(), None, ptr::null_mut(), &mut err) };
    expect_err(err, CL_INVALID_DEVICE);
    // CL_INVALID_PROPERTY if a property name is not supported or given twice.
    let bad = [0x7777isize, 1, 0];
    // SAFETY: zero-terminated list.
    unsafe { clCreateContext(bad.as_ptr(), 1, &d, None, ptr::null_mut(), &mut err) };
    expect_err(err, CL_INVALID_PROPERTY);
    let p = platform() as cl_context_properties;
    let twice = [CL_CONTEXT_PLATFORM, p, CL_CONTEXT_PLATFORM, p, 0];
    // SAFETY: zero-terminated list.
    unsafe { clCreateContext(twice.as_ptr(), 1, &d, None, ptr::null_mut(), &mut err) };
    expect_err(err, CL_INVALID_PROPERTY);
    // CL_INVALID_PLATFORM if the platform value is not a valid platform.
    let badp = [CL_CONTEXT_PLATFORM, 0x4321, 0];
    // SAFETY: zero-terminated list.
    unsafe { clCreateContext(badp.as_ptr(), 1, &d, None, ptr::null_mut(), &mut err) };
    expect_err(err, CL_INVALID_PLATFORM);
    // errcode_ret may be NULL.
    // SAFETY: as above.
    let c = unsafe { clCreateContext(badp.as_ptr(), 1, &d, None, ptr::null_mut(), ptr::null_mut()) };
    assert!(c.is_null());
}

#[test]
fn context_info_errors() {
    let c = context();
    let mut v = 0u32;
    // CL_INVALID_VALUE if param_name is not supported or the buffer is too small.
    // SAFETY: valid 4-byte buffer.
    expect_err(
        unsafe { clGetContextInfo(c, 0x9999, 4, (&mut v as *mut u32).cast(), ptr::null_mut()) },
        CL_INVALID_VALUE,
    );
    // SAFETY: as above, with a declared size of 2.
    expect_err(
        unsafe {
            clGetContextInfo(
                c,
                CL_CONTEXT_NUM_DEVICES,
                2,
                (&mut v as *mut u32).cast(),
                ptr::null_mut(),
            )
        },
        CL_INVALID_VALUE,
    );
    // CL_INVALID_CONTEXT for a forged handle and for a handle of another type.
    // SAFETY: forged handles must be detected, not dereferenced past the first word.
    expect_err(
        unsafe {
            clGetContextInfo(
                forged_handle(),
                CL_CONTEXT_NUM_DEVICES,
                4,
                (&mut v as *mut u32).cast(),
                ptr::null_mut(),
            )
        },
        CL_INVALID_CONTEXT,
    );
    let q = queue(c, 0);
    // SAFETY: as above.
    expect_err(
        unsafe {
            clGetContextInfo(
                q as cl_context,
                CL_CONTEXT_NUM_DEVICES,
                4,
                (&mut v as *mut u32).cast(),
                ptr::null_mut(),
            )
        },
        CL_INVALID_CONTEXT,
    );
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

static DESTROYED: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_destroy(_c: cl_context, user: *mut c_void) {
    // The callbacks must run most recently registered first.
    let order = user as usize;
    let prev = DESTROYED.fetch_add(1, Ordering::SeqCst);
    assert_eq!(order, prev, "destructor callbacks run in reverse registration order");
}

extern "C" fn notify(_e: *const c_char, _p: *const c_void, _n: usize, _u: *mut c_void) {}

#[test]
fn destructor_callbacks_run_on_release_in_reverse_order() {
    let d = device();
    let mut err = 0;
    // SAFETY: valid device; a real notify callback.
    let c = unsafe { clCreateContext(ptr::null(), 1, &d, Some(notify), ptr::null_mut(), &mut err) };
    check(err);
    // Registered as 1 then 0: 0 must run first.
    // SAFETY: valid context and callback.
    unsafe {
        check(clSetContextDestructorCallback(
            c,
            Some(on_destroy),
            ptr::dangling_mut::<c_void>(), // user data 1: registered first, runs second,
        ));
        check(clSetContextDestructorCallback(c, Some(on_destroy), ptr::null_mut()));
        expect_err(
            clSetContextDestructorCallback(c, None, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
    }
    assert_eq!(DESTROYED.load(Ordering::SeqCst), 0);
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(c) });
    assert_eq!(DESTROYED.load(Ordering::SeqCst), 2);
}
