//! On-device command queues (API spec 5.1, `CL_QUEUE_ON_DEVICE`): the host
//! side.
//!
//! A device queue is created on the host (clCreateCommandQueueWithProperties
//! with `CL_QUEUE_ON_DEVICE`), named by `queue_t` kernel arguments and by
//! `get_default_queue()`, and receives commands only from kernels
//! (`enqueue_kernel`, `enqueue_marker`): every host command on it answers
//! `CL_INVALID_COMMAND_QUEUE` ("not a valid host command-queue"), which the
//! API layer gets for free because a device queue is a handle type of its
//! own, not a [`crate::queue::Queue`].
//!
//! Each context keeps its device queues per device ([`DeviceQueues`]): at
//! most [`MAX_ON_DEVICE_QUEUES`] live ones, and which one is the default
//! (`CL_QUEUE_ON_DEVICE_DEFAULT`, or replaced by
//! clSetDefaultDeviceCommandQueue). The context names them weakly (the
//! queues hold their context); a queue counts as live while the
//! application holds a reference to it, so a released queue frees its slot
//! and stops being the default even while a running command still holds it.
//!
//! What a kernel receives for a `queue_t` (an argument or
//! `get_default_queue()`) is the address of the [`DeviceQueue`] object, an
//! opaque 8-byte word generated code never dereferences (0 is
//! `CLK_NULL_QUEUE`); the launch holds an `Arc` of every queue it names, so
//! the address stays valid while the kernel runs. ARCHITECTURE.md
//! ("Device-side queues") says how the kernel side will use it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use parking_lot::Mutex;

use crate::context::Context;
use crate::device::Device;
use crate::error::{fail, ClResult};
use crate::info::InfoValue;
use crate::object::{handle_of, ApiHeader};
use opencl_sys::*;

/// `CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES`: "the mandated minimum capability".
pub const ON_DEVICE_PROPERTIES: cl_command_queue_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
/// `CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE` (at least 16 KiB), the size of
/// a queue created without `CL_QUEUE_SIZE`.
pub const PREFERRED_SIZE: u32 = 128 << 10;
/// `CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE` (at least 256 KiB for the full
/// profile).
pub const MAX_SIZE: u32 = 16 << 20;
/// `CL_DEVICE_MAX_ON_DEVICE_QUEUES`: device queues per device and context
/// (at least 1). A device queue is a small object, so many: the Khronos
/// conformance suite's device_queue test keeps the default queue and
/// creates up to 1,000 more beside it (Intel's CPU runtime reports no
/// limit).
pub const MAX_ON_DEVICE_QUEUES: u32 = 1024;
/// `CL_DEVICE_MAX_ON_DEVICE_EVENTS` (at least 1024): the device events one
/// host command and its descendants may hold at once. The pool grows as
/// events are created (a slot is a few dozen bytes), so the limit costs
/// nothing until used; the conformance suite's enqueue_multi_queue test has
/// 256 work-items each hold an event per device queue (up to 1,000).
pub const MAX_ON_DEVICE_EVENTS: u32 = 1 << 20;

/// An on-device command queue.
pub struct DeviceQueue {
    header: ApiHeader,
    context: Arc<Context>,
    device: Arc<Device>,
    properties: cl_command_queue_properties,
    /// The property list as given (zero-terminated), for
    /// `CL_QUEUE_PROPERTIES_ARRAY`.
    property_list: Vec<u64>,
    /// `CL_QUEUE_SIZE` in bytes.
    size: u32,
}
crate::api_object!(DeviceQueue);

impl std::fmt::Debug for DeviceQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceQueue")
            .field("properties", &self.properties)
            .field("size", &self.size)
            .finish()
    }
}

/// What clCreateCommandQueueWithProperties produced for `CL_QUEUE_ON_DEVICE`.
pub enum Created {
    /// A new queue, to be given a handle.
    New(Arc<DeviceQueue>),
    /// The existing default device queue, its application count already
    /// raised by one ("will return the default device queue that has
    /// already been created and increment its reference count by 1").
    ExistingDefault(Arc<DeviceQueue>),
}

impl DeviceQueue {
    /// clCreateCommandQueueWithProperties with `CL_QUEUE_ON_DEVICE` in
    /// `properties`. `size` is `CL_QUEUE_SIZE` if given; `property_list` is
    /// the list as given. `register` gives a new queue its handle; it runs
    /// while the context's device-queue table is locked, so no other thread
    /// sees a new default queue before it has a handle.
    pub fn create(
        context: &Arc<Context>,
        device: &Arc<Device>,
        properties: cl_command_queue_properties,
        size: Option<u64>,
        property_list: Vec<u64>,
        register: impl FnOnce(&Arc<DeviceQueue>),
    ) -> ClResult<Created> {
        let known = ON_DEVICE_PROPERTIES | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
        // CL_INVALID_VALUE if values specified in properties are not valid:
        // "If CL_QUEUE_ON_DEVICE is set, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
        // must also be set" ("Only out-of-order device queues are
        // supported"), and CL_QUEUE_SIZE "must be a value <=
        // CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE" (a size of 0 holds nothing).
        if properties & !known != 0
            || properties & CL_QUEUE_ON_DEVICE == 0
            || properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE == 0
        {
            return fail(CL_INVALID_VALUE);
        }
        let size = match size {
            None => PREFERRED_SIZE,
            Some(s) if (1..=u64::from(MAX_SIZE)).contains(&s) => s as u32,
            Some(_) => return fail(CL_INVALID_VALUE),
        };
        let queues = context.device_queues();
        let mut table = queues.lock();
        let slot = table.slot(device);
        slot.queues.retain(|q| q.upgrade().is_some_and(|q| q.is_live()));
        if properties & CL_QUEUE_ON_DEVICE_DEFAULT != 0 {
            // "There can only be one default device queue for each device
            // within a context. If a default device queue has already been
            // created, calling clCreateCommandQueueWithProperties with
            // CL_QUEUE_PROPERTIES set to CL_QUEUE_ON_DEVICE and
            // CL_QUEUE_ON_DEVICE_DEFAULT will return the default device queue
            // that has already been created and increment its reference
            // count by 1." A default the application has released is gone.
            if let Some(q) = slot.default.upgrade() {
                if q.header.try_retain() {
                    return Ok(Created::ExistingDefault(q));
                }
            }
        }
        // CL_DEVICE_MAX_ON_DEVICE_QUEUES: "The maximum number of device
        // queues that can be created for this device in a single context."
        // Past it: CL_OUT_OF_RESOURCES ("a failure to allocate resources
        // required by the OpenCL implementation on the device").
        if slot.queues.len() >= MAX_ON_DEVICE_QUEUES as usize {
            return fail(CL_OUT_OF_RESOURCES);
        }
        let q = Arc::new(DeviceQueue {
            header: ApiHeader::new(),
            context: context.clone(),
            device: device.clone(),
            properties,
            property_list,
            size,
        });
        register(&q);
        slot.queues.push(Arc::downgrade(&q));
        if properties & CL_QUEUE_ON_DEVICE_DEFAULT != 0 {
            queues.set_default(&mut table, &q);
        }
        Ok(Created::New(q))
    }

    /// Whether the application still holds a reference (the handle is valid).
    fn is_live(&self) -> bool {
        self.header.ref_count() > 0
    }

    /// The queue's context.
    pub fn context(&self) -> &Arc<Context> {
        &self.context
    }

    /// The queue's device.
    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    /// `CL_QUEUE_SIZE` in bytes.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// clSetDefaultDeviceCommandQueue: makes this queue the default device
    /// queue of `device` in `context`. The caller has checked that the
    /// device belongs to the context.
    pub fn make_default(self: &Arc<Self>, context: &Arc<Context>, device: &Arc<Device>) -> ClResult<()> {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid
        // command-queue for device ("context is the OpenCL context used to
        // create command_queue").
        if !Arc::ptr_eq(&self.device, device) || !Arc::ptr_eq(&self.context, context) {
            return fail(CL_INVALID_COMMAND_QUEUE);
        }
        let queues = context.device_queues();
        queues.set_default(&mut queues.lock(), self);
        Ok(())
    }

    /// clGetCommandQueueInfo.
    pub fn info(&self, param: cl_command_queue_info) -> ClResult<InfoValue> {
        let (ctx, dev) = (&self.context, &self.device);
        if let Some(v) = common_info(param, &self.header, ctx, dev, self.properties, &self.property_list) {
            return Ok(v);
        }
        match param {
            CL_QUEUE_SIZE => Ok(InfoValue::u32(self.size)),
            _ => fail(CL_INVALID_VALUE),
        }
    }
}

/// The clGetCommandQueueInfo queries host and device queues answer alike
/// (`None` for the others).
pub(crate) fn common_info(
    param: cl_command_queue_info,
    header: &ApiHeader,
    context: &Arc<Context>,
    device: &Arc<Device>,
    properties: cl_command_queue_properties,
    property_list: &[u64],
) -> Option<InfoValue> {
    Some(match param {
        CL_QUEUE_CONTEXT => InfoValue::handle(handle_of(context)),
        CL_QUEUE_DEVICE => InfoValue::handle(handle_of(device)),
        CL_QUEUE_REFERENCE_COUNT => InfoValue::u32(header.ref_count()),
        CL_QUEUE_PROPERTIES => InfoValue::u64(properties),
        CL_QUEUE_PROPERTIES_ARRAY => InfoValue::u64s(property_list),
        // "the current default command-queue for the underlying device".
        CL_QUEUE_DEVICE_DEFAULT => InfoValue::handle(default_handle(context, device)),
        _ => return None,
    })
}

/// The handle of the default device queue of `device` in `context`, or 0
/// (`CL_QUEUE_DEVICE_DEFAULT`: "the current default command-queue for the
/// underlying device").
pub fn default_handle(context: &Context, device: &Arc<Device>) -> usize {
    default_queue(context, device).map_or(0, |q| handle_of(&q))
}

/// The default device queue of `device` in `context`, while the application
/// holds it. Every kernel enqueue asks (for get_default_queue()): a context
/// that never had a default answers without taking the lock.
pub fn default_queue(context: &Context, device: &Arc<Device>) -> Option<Arc<DeviceQueue>> {
    let queues = context.device_queues();
    if !queues.ever_default.load(Ordering::Acquire) {
        return None;
    }
    queues
        .table
        .lock()
        .slot(device)
        .default
        .upgrade()
        .filter(|q| q.is_live())
}

/// A context's device queues, per device.
#[derive(Default)]
pub struct DeviceQueues {
    table: Mutex<Table>,
    /// Whether any default was ever set (set under the lock, never cleared).
    ever_default: AtomicBool,
}

impl DeviceQueues {
    /// Locks the table.
    fn lock(&self) -> parking_lot::MutexGuard<'_, Table> {
        self.table.lock()
    }

    /// Makes `q` the default of its device (the table locked as `table`).
    fn set_default(&self, table: &mut Table, q: &Arc<DeviceQueue>) {
        table.slot(&q.device).default = Arc::downgrade(q);
        self.ever_default.store(true, Ordering::Release);
    }
}

#[derive(Default)]
struct Table(Vec<PerDevice>);

struct PerDevice {
    device: Weak<Device>,
    /// The queues created for the device, live or not yet pruned.
    queues: Vec<Weak<DeviceQueue>>,
    /// The default device queue.
    default: Weak<DeviceQueue>,
}

impl Table {
    fn slot(&mut self, device: &Arc<Device>) -> &mut PerDevice {
        let at = match self
            .0
            .iter()
            .position(|p| std::ptr::eq(p.device.as_ptr(), Arc::as_ptr(device)))
        {
            Some(i) => i,
            None => {
                self.0.push(PerDevice {
                    device: Arc::downgrade(device),
                    queues: Vec::new(),
                    default: Weak::new(),
                });
                self.0.len() - 1
            }
        };
        &mut self.0[at]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::ApiObject;
    use crate::platform::Platform;

    fn setup() -> (Arc<Context>, Arc<Device>) {
        let dev = Platform::get().devices()[0].clone();
        (Context::new(vec![dev.clone()], Vec::new(), None), dev)
    }

    const OOO_DEV: cl_command_queue_properties = CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;

    fn new(ctx: &Arc<Context>, dev: &Arc<Device>, props: cl_command_queue_properties) -> ClResult<Created> {
        DeviceQueue::create(ctx, dev, props, None, Vec::new(), |_| {})
    }

    #[test]
    fn the_default_is_shared_and_slots_are_freed_by_release() {
        let (ctx, dev) = setup();
        let Ok(Created::New(a)) = new(&ctx, &dev, OOO_DEV | CL_QUEUE_ON_DEVICE_DEFAULT) else {
            panic!("first default")
        };
        let Ok(Created::ExistingDefault(b)) = new(&ctx, &dev, OOO_DEV | CL_QUEUE_ON_DEVICE_DEFAULT) else {
            panic!("second default")
        };
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.header().ref_count(), 2);
        let mut others = Vec::new();
        for _ in 1..MAX_ON_DEVICE_QUEUES {
            let Ok(Created::New(q)) = new(&ctx, &dev, OOO_DEV) else {
                panic!("below the limit")
            };
            others.push(q);
        }
        assert_eq!(new(&ctx, &dev, OOO_DEV).err().map(|e| e.0), Some(CL_OUT_OF_RESOURCES));
        // Releasing the default to zero frees its slot and its default role.
        a.header().release();
        a.header().release();
        assert!(default_queue(&ctx, &dev).is_none());
        let Ok(Created::New(c)) = new(&ctx, &dev, OOO_DEV | CL_QUEUE_ON_DEVICE_DEFAULT) else {
            panic!("a new default")
        };
        assert!(Arc::ptr_eq(&default_queue(&ctx, &dev).unwrap(), &c));
        others[0].make_default(&ctx, &dev).unwrap();
        assert!(Arc::ptr_eq(&default_queue(&ctx, &dev).unwrap(), &others[0]));
    }

    #[test]
    fn properties_and_sizes_are_checked() {
        let (ctx, dev) = setup();
        let err = |props, size| {
            DeviceQueue::create(&ctx, &dev, props, size, Vec::new(), |_| {})
                .err()
                .map(|e| e.0)
        };
        assert_eq!(err(CL_QUEUE_ON_DEVICE, None), Some(CL_INVALID_VALUE));
        assert_eq!(err(OOO_DEV | (1 << 20), None), Some(CL_INVALID_VALUE));
        assert_eq!(err(OOO_DEV, Some(0)), Some(CL_INVALID_VALUE));
        assert_eq!(err(OOO_DEV, Some(u64::from(MAX_SIZE) + 1)), Some(CL_INVALID_VALUE));
        let Ok(Created::New(q)) =
            DeviceQueue::create(&ctx, &dev, OOO_DEV, Some(u64::from(MAX_SIZE)), Vec::new(), |_| {})
        else {
            panic!("max size")
        };
        assert_eq!(q.size(), MAX_SIZE);
    }
}
