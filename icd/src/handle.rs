//! Handles: the live-handle registry and the conversions between C handles and
//! runtime objects.
//!
//! A handle points to a one-word cell holding the address of the dispatch
//! table, which is all the ICD loader reads behind a handle. Cells are never
//! returned to the allocator: a released handle's cell keeps pointing at the
//! dispatch table, so even a loader that dereferences a stale handle lands in
//! clift, which then answers `CL_INVALID_*`. A freed cell is reused only after
//! [`REUSE_DISTANCE`] other releases, so a stale handle is very unlikely to
//! alias a newer object.
//!
//! Every handle the application may hold is in the registry, with the `Arc`
//! that keeps its object alive. A handle is looked up there before anything
//! else is done with it, so a garbage, freed or wrong-type handle is answered
//! with its `CL_INVALID_*` code and never dereferenced by clift. When the
//! application's reference count reaches zero the handle leaves the registry;
//! the object itself lives on while commands or other objects still hold it.

use std::collections::{HashMap, VecDeque};
use std::ffi::c_void;
use std::sync::{Arc, LazyLock, Once};

use clift_runtime::context::Context;
use clift_runtime::device::Device;
use clift_runtime::device_queue::DeviceQueue;
use clift_runtime::error::{fail, ClResult};
use clift_runtime::event::Event;
use clift_runtime::kernel::Kernel;
use clift_runtime::memory::MemObject;
use clift_runtime::object::ApiObject;
use clift_runtime::platform::Platform;
use clift_runtime::program::Program;
use clift_runtime::queue::Queue;
use clift_runtime::sampler::Sampler;
use opencl_sys::cl_icd::cl_icd_dispatch;
use opencl_sys::*;
use parking_lot::RwLock;

/// How many released cells wait before one is reused.
const REUSE_DISTANCE: usize = 4096;

/// What a handle points to.
#[repr(C)]
struct Cell {
    dispatch: &'static cl_icd_dispatch,
}

/// A registered object.
enum Object {
    Platform,
    Device(Arc<Device>),
    Context(Arc<Context>),
    Queue(Arc<Queue>),
    DeviceQueue(Arc<DeviceQueue>),
    Mem(Arc<MemObject>),
    Event(Arc<Event>),
    Program(Arc<Program>),
    Kernel(Arc<Kernel>),
    Sampler(Arc<Sampler>),
}

#[derive(Default)]
struct Registry {
    live: HashMap<usize, ObjectRef>,
    free: VecDeque<usize>,
}

impl Registry {
    /// A cell for a new handle.
    fn cell(&mut self) -> usize {
        if self.free.len() > REUSE_DISTANCE {
            if let Some(c) = self.free.pop_front() {
                return c;
            }
        }
        let cell: &'static mut Cell = Box::leak(Box::new(Cell {
            dispatch: &crate::dispatch::DISPATCH,
        }));
        cell as *mut Cell as usize
    }
}

static REGISTRY: LazyLock<RwLock<Registry>> = LazyLock::new(|| RwLock::new(Registry::default()));

static INIT: Once = Once::new();

/// Creates the platform and its root devices on first use and gives them
/// their handles.
pub fn init() -> &'static Platform {
    INIT.call_once(|| {
        let platform = Platform::get();
        let mut reg = REGISTRY.write();
        let h = reg.cell();
        platform.header().set_handle(h);
        reg.live.insert(h, ObjectRef(Object::Platform));
        for d in platform.devices() {
            let h = reg.cell();
            d.header().set_handle(h);
            reg.live.insert(h, ObjectRef(Object::Device(d.clone())));
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
handle_type!(DeviceQueue, DeviceQueue, CL_INVALID_COMMAND_QUEUE);
handle_type!(MemObject, Mem, CL_INVALID_MEM_OBJECT);
handle_type!(Event, Event, CL_INVALID_EVENT);
handle_type!(Program, Program, CL_INVALID_PROGRAM);
handle_type!(Kernel, Kernel, CL_INVALID_KERNEL);
handle_type!(Sampler, Sampler, CL_INVALID_SAMPLER);

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
    match reg.live.get(&(handle as usize)).and_then(unwrap_entry::<T>) {
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
            reg.live
                .get(&(*h as usize))
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
    let mut reg = REGISTRY.write();
    let h = reg.cell();
    obj.header().set_handle(h);
    reg.live.insert(h, T::wrap(obj));
    h as *mut c_void
}

/// The handle of an object that was registered (NULL if never).
pub fn handle_of<T: Handle>(obj: &Arc<T>) -> *mut c_void {
    obj.header().handle() as *mut c_void
}

/// clRetain*: adds an application reference.
pub fn retain<T: Handle>(handle: *mut c_void) -> ClResult<()> {
    if handle.is_null() {
        return fail(T::INVALID);
    }
    init();
    let reg = REGISTRY.read();
    match reg.live.get(&(handle as usize)).and_then(unwrap_entry::<T>) {
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
        let left = match reg.live.get(&key).and_then(unwrap_entry::<T>) {
            Some(o) if !T::counted(o) => return Ok(()),
            Some(o) => o.header().release(),
            None => return fail(T::INVALID),
        };
        if left == 0 {
            reg.free.push_back(key);
            reg.live.remove(&key)
        } else {
            None
        }
    };
    drop(removed);
    Ok(())
}
