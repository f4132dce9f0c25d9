//! The one place where C pointers from the application become Rust values.
//!
//! The OpenCL API makes the application responsible for every non-NULL pointer
//! it passes: it must point to memory of the documented size and type for the
//! duration of the call (or, for `USE_HOST_PTR` and mapped regions, as long as
//! the spec says). clift cannot check that; it checks what it can (NULL,
//! sizes, counts) and trusts the rest, exactly as any OpenCL implementation
//! must. Every function here states the contract it relies on.

use std::ffi::{c_char, c_void, CStr};
use std::sync::Arc;

use clift_runtime::error::{fail, ClResult};
use clift_runtime::event::Event;
use opencl_sys::*;

use crate::handle;

/// Writes `v` through `ptr` unless it is NULL.
pub fn write_out<T>(ptr: *mut T, v: T) {
    if !ptr.is_null() {
        // SAFETY: the API contract: a non-NULL output pointer points to a
        // writable `T`. `write_unaligned` tolerates any alignment.
        unsafe { ptr.write_unaligned(v) };
    }
}

/// Copies `bytes` to `dst`, which the caller has checked to be non-NULL and
/// to have room for `bytes.len()` bytes (the size the application declared).
pub fn copy_out(dst: *mut u8, bytes: &[u8]) {
    // SAFETY: the API contract: `dst` is writable for the size the application
    // passed, which the caller checked is at least `bytes.len()`.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len()) };
}

/// The `n` elements at `ptr`, or `None` if `ptr` is NULL.
pub fn slice<'a, T>(ptr: *const T, n: usize) -> Option<&'a [T]> {
    if ptr.is_null() {
        return None;
    }
    if n == 0 {
        return Some(&[]);
    }
    // SAFETY: the API contract: a non-NULL array argument holds at least the
    // element count passed beside it, and stays valid during the call.
    Some(unsafe { std::slice::from_raw_parts(ptr, n) })
}

/// The `n` bytes at `ptr` as a mutable slice, or `None` if `ptr` is NULL.
pub fn slice_mut<'a, T>(ptr: *mut T, n: usize) -> Option<&'a mut [T]> {
    if ptr.is_null() {
        return None;
    }
    if n == 0 {
        return Some(&mut []);
    }
    // SAFETY: the API contract: a non-NULL output array has room for the
    // element count passed beside it and is not aliased during the call.
    Some(unsafe { std::slice::from_raw_parts_mut(ptr, n) })
}

/// A NUL-terminated string argument, or `None` if `ptr` is NULL.
pub fn c_str<'a>(ptr: *const c_char) -> Option<&'a CStr> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the API contract: a non-NULL string argument is NUL-terminated.
    Some(unsafe { CStr::from_ptr(ptr) })
}

/// Longest zero-terminated property list clift reads; a longer one is taken
/// as missing its terminator.
const MAX_PROPERTIES: usize = 4096;

/// A zero-terminated list of `T` (without the terminator), or an empty list
/// for NULL; for lists whose every element is nonzero (partition counts). `Err(invalid)` if no terminator is found within a sane
/// length.
pub fn property_list<T: Copy + PartialEq + Default>(ptr: *const T, invalid: cl_int) -> ClResult<Vec<T>> {
    let mut out = Vec::new();
    if ptr.is_null() {
        return Ok(out);
    }
    for i in 0..MAX_PROPERTIES {
        // SAFETY: the API contract: a property list is readable up to and
        // including its zero terminator; we stop at the terminator.
        let v = unsafe { ptr.add(i).read_unaligned() };
        if v == T::default() {
            return Ok(out);
        }
        out.push(v);
    }
    fail(invalid)
}

/// A property list of (name, value) pairs ended by a zero name, as the
/// context, queue, buffer and sampler calls take it: the pairs without the
/// terminator, or an empty list for NULL. A value may be zero. `Err(invalid)`
/// if no terminator is found within a sane length.
pub fn property_pairs<T: Copy + PartialEq + Default>(ptr: *const T, invalid: cl_int) -> ClResult<Vec<T>> {
    let mut out = Vec::new();
    if ptr.is_null() {
        return Ok(out);
    }
    for i in (0..MAX_PROPERTIES).step_by(2) {
        // SAFETY: the API contract: a property list is readable pair by pair
        // up to and including its zero terminator; we stop at the terminator.
        let name = unsafe { ptr.add(i).read_unaligned() };
        if name == T::default() {
            return Ok(out);
        }
        // SAFETY: as above: a nonzero name is followed by its value.
        let value = unsafe { ptr.add(i + 1).read_unaligned() };
        out.push(name);
        out.push(value);
    }
    fail(invalid)
}

/// Checks and converts an event wait list: `CL_INVALID_EVENT_WAIT_LIST` if the
/// list is NULL with a nonzero count, non-NULL with a zero count, or holds an
/// invalid event.
pub fn wait_list(num: cl_uint, list: *const cl_event) -> ClResult<Vec<Arc<Event>>> {
    // CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
    // num_events_in_wait_list > 0, or event_wait_list is not NULL and
    // num_events_in_wait_list is 0, or if event objects in event_wait_list
    // are not valid events.
    if (list.is_null() && num > 0) || (!list.is_null() && num == 0) {
        return fail(CL_INVALID_EVENT_WAIT_LIST);
    }
    handle::get_list::<Event>(list, num as usize, CL_INVALID_EVENT_WAIT_LIST)
}

/// Hands a new event to the application through `event` (if not NULL).
pub fn event_out(event: *mut cl_event, ev: Arc<Event>) {
    if !event.is_null() {
        write_out(event, handle::register(ev));
    }
}

/// A `cl_bool` argument: `Err(CL_INVALID_VALUE)` unless it is CL_TRUE or CL_FALSE.
pub fn bool_arg(v: cl_bool) -> ClResult<bool> {
    match v {
        CL_TRUE => Ok(true),
        CL_FALSE => Ok(false),
        // Any nonzero value is true in C; the spec only names CL_TRUE/CL_FALSE.
        _ => Ok(true),
    }
}

/// An opaque pointer the application gave for its callbacks (`user_data`).
/// It is only handed back to the application's own callback.
#[derive(Clone, Copy)]
pub struct UserData(pub *mut c_void);
// SAFETY: clift never dereferences user data; it only passes it back to the
// application's callback, on whatever thread the spec allows callbacks on.
unsafe impl Send for UserData {}
// SAFETY: as above; sharing the pointer value is harmless.
unsafe impl Sync for UserData {}

/// The shape of the destructor and release callbacks of contexts, memory
/// objects and programs: the object's handle and the application's user data.
pub type HandleCallback = unsafe extern "C" fn(handle: *mut c_void, user_data: *mut c_void);

/// Wraps the application's destructor or release callback `f` as a closure
/// the runtime runs once, when the object with handle `handle` is destroyed:
/// `CL_INVALID_VALUE` if `f` is NULL.
pub fn handle_callback(
    f: Option<HandleCallback>,
    handle: *mut c_void,
    user_data: *mut c_void,
) -> ClResult<Box<dyn FnOnce() + Send>> {
    // CL_INVALID_VALUE if pfn_notify is NULL.
    let Some(f) = f else {
        return fail(CL_INVALID_VALUE);
    };
    let user = UserData(user_data);
    let handle = handle as usize;
    Ok(Box::new(move || {
        let user = user;
        // SAFETY: the application registered `f` to be called with the
        // object's handle (only "for reference purposes": the object is
        // being destroyed) and its own user_data, from any thread.
        unsafe { f(handle as *mut c_void, user.0) }
    }))
}
