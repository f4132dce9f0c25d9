//! Command queues (API spec 5.1): host queues and on-device queues, two
//! handle types, so every host command refuses a device queue with
//! `CL_INVALID_COMMAND_QUEUE` ("not a valid host command-queue").

use std::ffi::c_void;
use std::sync::Arc;

use clift_runtime::context::Context;
use clift_runtime::device::Device;
use clift_runtime::device_queue::{Created, DeviceQueue};
use clift_runtime::error::{fail, ClResult};
use clift_runtime::queue::Queue;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};
use crate::{args, handle, info};

/// The context and device of a new queue, checked.
fn context_and_device(context: cl_context, device: cl_device_id) -> ClResult<(Arc<Context>, Arc<Device>)> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    let ctx = handle::get::<Context>(context)?;
    // CL_INVALID_DEVICE if device is not a valid device or is not associated
    // with context.
    let dev = handle::get::<Device>(device)?;
    if !ctx.has_device(&dev) {
        return fail(CL_INVALID_DEVICE);
    }
    Ok((ctx, dev))
}

cl_entry_ptr! {
    fn clCreateCommandQueue(context: cl_context, device: cl_device_id, properties: cl_command_queue_properties; errcode_ret) {
        let (ctx, dev) = context_and_device(context, device)?;
        // CL_INVALID_VALUE if values specified in properties are not valid.
        // (On-device queues need clCreateCommandQueueWithProperties.)
        let valid = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
        if properties & !valid != 0 {
            return fail(CL_INVALID_VALUE);
        }
        let q = Queue::new(ctx, dev, properties, Vec::new())?;
        Ok(handle::register(q))
    }

    fn clCreateCommandQueueWithProperties(context: cl_context, device: cl_device_id, properties: *const cl_queue_properties; errcode_ret) {
        let (ctx, dev) = context_and_device(context, device)?;
        let list = args::property_pairs(properties, CL_INVALID_VALUE)?;
        // CL_INVALID_VALUE if values specified in properties are not valid.
        if list.len() % 2 != 0 {
            return fail(CL_INVALID_VALUE);
        }
        let mut props: cl_command_queue_properties = 0;
        let mut size = None;
        let mut seen = Vec::new();
        for pair in list.chunks_exact(2) {
            if seen.contains(&pair[0]) {
                return fail(CL_INVALID_VALUE);
            }
            seen.push(pair[0]);
            match pair[0] as cl_uint {
                CL_QUEUE_PROPERTIES => props = pair[1],
                CL_QUEUE_SIZE => size = Some(pair[1]),
                _ => return fail(CL_INVALID_VALUE),
            }
        }
        let mut stored = list;
        if !properties.is_null() {
            stored.push(0);
        }
        if props & CL_QUEUE_ON_DEVICE != 0 {
            // An on-device queue (device_queue.rs checks its properties and
            // size, the limit per device, and the one default queue).
            let mut new_handle = std::ptr::null_mut();
            return Ok(match DeviceQueue::create(&ctx, &dev, props, size, stored, |q| new_handle = handle::register(q.clone()))? {
                Created::New(_) => new_handle,
                Created::ExistingDefault(q) => handle::handle_of(&q),
            });
        }
        // CL_QUEUE_SIZE can only be specified if CL_QUEUE_ON_DEVICE is set.
        if size.is_some() {
            return fail(CL_INVALID_VALUE);
        }
        let q = Queue::new(ctx, dev, props, stored)?;
        Ok(handle::register(q))
    }
}

cl_entry! {
    fn clRetainCommandQueue(command_queue: cl_command_queue) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid
        // command-queue (host or device).
        handle::retain::<Queue>(command_queue).or_else(|_| handle::retain::<DeviceQueue>(command_queue))
    }

    fn clReleaseCommandQueue(command_queue: cl_command_queue) {
        // clReleaseCommandQueue performs an implicit flush: clift issues
        // commands as they are enqueued, and they keep the queue alive.
        handle::release::<Queue>(command_queue).or_else(|_| handle::release::<DeviceQueue>(command_queue))
    }

    fn clGetCommandQueueInfo(command_queue: cl_command_queue, param_name: cl_command_queue_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        let value = match handle::get::<Queue>(command_queue) {
            Ok(q) => q.info(param_name),
            Err(_) => handle::get::<DeviceQueue>(command_queue)?.info(param_name),
        };
        info::write(value, param_value_size, param_value, param_value_size_ret)
    }

    fn clSetCommandQueueProperty(command_queue: cl_command_queue, properties: cl_command_queue_properties, _enable: cl_bool, _old_properties: *mut cl_command_queue_properties) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue.
        handle::get::<Queue>(command_queue).map(|_| ()).or_else(|_| handle::get::<DeviceQueue>(command_queue).map(|_| ()))?;
        // CL_INVALID_VALUE if values specified in properties are not valid
        // (only the legacy table's: out-of-order execution, profiling).
        if properties & !(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE) != 0 {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_OPERATION if no devices in the context associated with
        // command_queue support modifying the properties of a command-queue
        // (required of OpenCL 1.0 devices only; clift's are 2.2).
        fail(CL_INVALID_OPERATION)
    }

    fn clSetDefaultDeviceCommandQueue(context: cl_context, device: cl_device_id, command_queue: cl_command_queue) {
        let (ctx, dev) = context_and_device(context, device)?;
        // CL_INVALID_OPERATION if device does not support a replaceable
        // default on-device queue: every clift device does.
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid
        // command-queue for device: only an on-device queue of this device
        // and context can be the default (a host queue is not one).
        handle::get::<DeviceQueue>(command_queue)?.make_default(&ctx, &dev)
    }

    fn clFlush(command_queue: cl_command_queue) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
        // command-queue (a device queue is not one). Commands are issued to
        // the device as soon as they are enqueued.
        handle::get::<Queue>(command_queue)?;
        Ok(())
    }

    fn clFinish(command_queue: cl_command_queue) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
        // command-queue (a device queue is not one).
        handle::get::<Queue>(command_queue)?.finish();
        Ok(())
    }
}
