//! Handles: the live-handle registry and the conversions between C handles and
//! runtime objects.
//!
//! A handle is the address of a runtime object (whose first word is the
//! dispatch pointer the loader reads). Every handle the application may hold is
//! in [`REGISTRY`], with the `Arc` that keeps its object alive. A handle is
//! looked up there before anything else is done with it, so a garbage, freed
//! or wrong-type handle is answered with its `CL_INVALID_*` code and never
//! dereferenced. When the application's reference count of an object reaches
//! zero the handle leaves the registry; the object itself lives on while
//! commands or other objects still hold it.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, LazyLock, Once};

use clift_runtime::context::Context;
use clift_runtime::device::Device;
use clift_runtime::error::{fail, ClResult};
use clift_runtime::event::Event;
use clift_runtime::memory::MemObject;
use clift_runtime::object::ApiObject;
use clift_runtime::platform::Platform;
use clift_runtime::queue::Queue;
use opencl_sys::*;
use parking_lot::RwLock;

/// A registered object.
enum Object {
    Platform,
    Device(Arc<Device>),
    Context(Arc<Context>),
    Queue(Arc<Queue>),
    Mem(Arc<MemObject>),
    Event(Arc<Event>),
}

static REGISTRY: LazyLock<RwLock<HashMap<usize, ObjectRef>>> = LazyLock::new(|| RwLock::new(HashMap::new()));

static INIT: Once = Once::new();

/// Creates the platform and its root devices on first use, after giving the
/// runtime the dispatch word every object must start with.
pub fn init() -> &'static Platform {
    INIT.call_once(|| {
        clift_runtime::object::set_dispatch_word(crate::dispatch::dispatch_word());
        let platform = Platform::get();
        let mut reg = REGISTRY.write();
        reg.insert(platform.handle(), ObjectRef(Object::Platform));
        for d in platform.devices() {
            reg.insert(Arc::as_ptr(d) as usize, ObjectRef(Object::Device(d.clone())));
        }
    });
    Platform::get()
}

/// A runtime type that the API hands out as a handle.
pub trait Handle: ApiObject + Sized {
    /// The error code for an invalid handle of this type.
    const INVALID: cl_int;
    /// Wraps an object for the registry.
    #[doc(hidden)]
    fn wrap(obj: Arc<Self>) -> ObjectRef;
    /// The object of a registry entry, if it has this type.
    #[doc(hidden)]
    fn unwrap(obj: &ObjectRef) -> Option<&Arc<Self>>;
    /// Whether retain/release change this object's count (root devices ignore them).
    fn counted(_obj: &Arc<Self>) -> bool {
        true
    }
}

/// Opaque registry entry (the type is private to this module).
pub struct ObjectRef(Object);

macro_rules! handle_type {
    ($t:ty, $variant:ident, $invalid:expr) => {
        impl Handle for $t {
            const INVALID: cl_int = $invalid;
            fn wrap(obj: Arc<Self>) -> ObjectRef {
                ObjectRef(Object::$variant(obj))
            }
            fn unwrap(obj: &ObjectRef) -> Option<&Arc<Self>> {
                match &obj.0 {
                    Object::$variant(o) => Some(o),
                    _ => None,
                }
            }
        }
    };
}

handle_type!(Context, Context, CL_INVALID_CONTEXT);
handle_type!(Queue, Queue, CL_INVALID_COMMAND_QUEUE);
handle_type!(MemObject, Mem, CL_INVALID_MEM_OBJECT);
handle_type!(Event, Event, CL_INVALID_EVENT);

impl Handle for Device {
    const INVALID: cl_int = CL_INVALID_DEVICE;
    fn wrap(obj: Arc<Self>) -> ObjectRef {
        ObjectRef(Object::Device(obj))
    }
    fn unwrap(obj: &ObjectRef) -> Option<&Arc<Self>> {
        match &obj.0 {
            Object::Device(o) => Some(o),
            _ => None,
        }
    }
    fn counted(obj: &Arc<Self>) -> bool {
        !obj.is_root()
    }
}

fn unwrap_entry<T: Handle>(entry: &ObjectRef) -> Option<&Arc<T>> {
    T::unwrap(entry)
}

/// The object behind `handle`, or `T::INVALID`.
pub fn get<T: Handle>(handle: *mut c_void) -> ClResult<Arc<T>> {
    if handle.is_null() {
        return fail(T::INVALID);
    }
    init();
    let reg = REGISTRY.read();
    match reg.get(&(handle as usize)).and_then(unwrap_entry::<T>) {
        Some(o) => Ok(o.clone()),
        None => fail(T::INVALID),
    }
}

/// The objects behind an array of `n` handles. `Err(invalid)` if the array
/// pointer is NULL while `n > 0` or any handle is invalid.
pub fn get_list<T: Handle>(list: *const *mut c_void, n: usize, invalid: cl_int) -> ClResult<Vec<Arc<T>>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    let Some(handles) = crate::args::slice(list, n) else {
        return fail(invalid);
    };
    init();
    let reg = REGISTRY.read();
    handles
        .iter()
        .map(|h| {
            reg.get(&(*h as usize))
                .and_then(unwrap_entry::<T>)
                .cloned()
                .ok_or(clift_runtime::ClError(invalid))
        })
        .collect()
}

/// Checks a platform handle: NULL picks clift's platform only where
/// `null_ok` says the call allows it.
pub fn platform(handle: cl_platform_id, null_ok: bool) -> ClResult<&'static Platform> {
    let p = init();
    if handle.is_null() {
        return if null_ok { Ok(p) } else { fail(CL_INVALID_PLATFORM) };
    }
    if handle as usize == p.handle() {
        Ok(p)
    } else {
        fail(CL_INVALID_PLATFORM)
    }
}

/// Registers a new object (reference count 1) and returns its handle.
pub fn register<T: Handle>(obj: Arc<T>) -> *mut c_void {
    init();
    let h = Arc::as_ptr(&obj) as usize;
    let entry = T::wrap(obj);
    REGISTRY.write().insert(h, entry);
    h as *mut c_void
}

/// The handle of an object that is already registered (or was: the address
/// is the handle either way).
pub fn handle_of<T: Handle>(obj: &Arc<T>) -> *mut c_void {
    Arc::as_ptr(obj) as *mut c_void
}

/// clRetain*: adds an application reference.
pub fn retain<T: Handle>(handle: *mut c_void) -> ClResult<()> {
    if handle.is_null() {
        return fail(T::INVALID);
    }
    init();
    let reg = REGISTRY.read();
    match reg.get(&(handle as usize)).and_then(unwrap_entry::<T>) {
        Some(o) => {
            if T::counted(o) {
                o.header().retain();
            }
            Ok(())
        }
        None => fail(T::INVALID),
    }
}

/// clRelease*: drops an application reference; at zero the handle becomes
/// invalid. The object is dropped outside the registry lock, since dropping it
/// may run application callbacks that call back into clift.
pub fn release<T: Handle>(handle: *mut c_void) -> ClResult<()> {
    if handle.is_null() {
        return fail(T::INVALID);
    }
    init();
    let removed = {
        let mut reg = REGISTRY.write();
        let key = handle as usize;
        let left = match reg.get(&key).and_then(unwrap_entry::<T>) {
            Some(o) if !T::counted(o) => return Ok(()),
            Some(o) => o.header().release(),
            None => return fail(T::INVALID),
        };
        if left == 0 {
            reg.remove(&key)
        } else {
            None
        }
    };
    drop(removed);
    Ok(())
}

/// Number of live handles of all kinds (for leak checks in tests).
pub fn live_handles() -> usize {
    REGISTRY.read().len()
}
