//! Contexts: a set of devices, the properties they were created with, the
//! error-notification callback, and destructor callbacks.

use std::sync::Arc;

use parking_lot::Mutex;

use crate::device::Device;
use crate::error::{fail, ClResult};
use crate::info::InfoValue;
use crate::object::{handle_of, ApiHeader};
use opencl_sys::*;

/// The application's `pfn_notify` of clCreateContext, already wrapped by the
/// API layer: it receives the error text and private info bytes.
pub type NotifyFn = Box<dyn Fn(&str, &[u8]) + Send + Sync>;

/// A callback run once, when the object it is attached to is destroyed.
pub type DestructorFn = Box<dyn FnOnce() + Send>;

/// An OpenCL context.
pub struct Context {
    header: ApiHeader,
    devices: Vec<Arc<Device>>,
    properties: Vec<isize>,
    notify: Option<NotifyFn>,
    destructors: Mutex<Vec<DestructorFn>>,
    /// The context's SVM allocations (clSVMAlloc).
    svm: crate::memory::svm::SvmRegistry,
    /// The context's on-device queues, per device.
    device_queues: crate::device_queue::DeviceQueues,
}
crate::api_object!(Context);

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context").field("devices", &self.devices).finish()
    }
}

impl Context {
    /// A context over `devices` (already checked by the caller: non-empty,
    /// valid, duplicates allowed as the spec allows). `properties` is the
    /// zero-terminated list as given (empty when the application passed NULL).
    pub fn new(devices: Vec<Arc<Device>>, properties: Vec<isize>, notify: Option<NotifyFn>) -> Arc<Context> {
        Arc::new(Context {
            header: ApiHeader::new(),
            devices,
            properties,
            notify,
            destructors: Mutex::new(Vec::new()),
            svm: Default::default(),
            device_queues: Default::default(),
        })
    }

    /// The context's SVM allocations.
    pub fn svm(&self) -> &crate::memory::svm::SvmRegistry {
        &self.svm
    }

    /// The context's on-device queues.
    pub fn device_queues(&self) -> &crate::device_queue::DeviceQueues {
        &self.device_queues
    }

    /// The context's devices.
    pub fn devices(&self) -> &[Arc<Device>] {
        &self.devices
    }

    /// Whether `device` belongs to this context.
    pub fn has_device(&self, device: &Arc<Device>) -> bool {
        self.devices.iter().any(|d| Arc::ptr_eq(d, device))
    }

    /// Reports an error through the application's notify callback, if any.
    pub fn notify(&self, message: &str) {
        if let Some(cb) = &self.notify {
            cb(message, &[]);
        }
    }

    /// clSetContextDestructorCallback: `f` runs when the context is destroyed,
    /// after callbacks registered later.
    pub fn add_destructor(&self, f: DestructorFn) {
        self.destructors.lock().push(f);
    }

    /// Smallest `CL_DEVICE_MAX_MEM_ALLOC_SIZE` of the context's devices.
    pub fn max_mem_alloc_size(&self) -> u64 {
        self.devices.iter().map(|d| d.max_mem_alloc_size()).min().unwrap_or(0)
    }

    /// `clGetContextInfo`.
    pub fn info(&self, param: cl_context_info) -> ClResult<InfoValue> {
        Ok(match param {
            CL_CONTEXT_REFERENCE_COUNT => InfoValue::u32(self.header.ref_count()),
            CL_CONTEXT_NUM_DEVICES => InfoValue::u32(self.devices.len() as u32),
            CL_CONTEXT_DEVICES => {
                let h: Vec<usize> = self.devices.iter().map(handle_of).collect();
                InfoValue::handles(&h)
            }
            CL_CONTEXT_PROPERTIES => InfoValue::isizes(&self.properties),
            _ => return fail(CL_INVALID_VALUE),
        })
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        let list = std::mem::take(&mut *self.destructors.lock());
        for f in list.into_iter().rev() {
            f();
        }
    }
}
