//! Contexts (API spec 4.4).

use std::ffi::{c_char, c_void, CString};
use std::sync::Arc;

use clift_runtime::context::{Context, NotifyFn};
use clift_runtime::device::Device;
use clift_runtime::error::{fail, ClResult};
use opencl_sys::*;

use crate::args::{self, UserData};
use crate::entry::{cl_entry, cl_entry_ptr};
use crate::{handle, info};

type ContextNotify = Option<unsafe extern "C" fn(*const c_char, *const c_void, usize, *mut c_void)>;

/// Checks a context property list and returns it as the application gave it
/// (with its terminator, as CL_CONTEXT_PROPERTIES must return it), or empty
/// for NULL.
fn context_properties(properties: *const cl_context_properties) -> ClResult<Vec<isize>> {
    let list = args::property_pairs(properties, CL_INVALID_PROPERTY)?;
    // CL_INVALID_PROPERTY if context property name in properties is not a
    // supported property name, if the value specified for a supported
    // property name is not valid, or if the same property name is specified
    // more than once.
    if list.len() % 2 != 0 {
        return fail(CL_INVALID_PROPERTY);
    }
    let mut seen = Vec::new();
    for pair in list.chunks_exact(2) {
        let (name, value) = (pair[0], pair[1]);
        if seen.contains(&name) {
            return fail(CL_INVALID_PROPERTY);
        }
        seen.push(name);
        match name {
            // CL_INVALID_PLATFORM if platform value specified in properties
            // is not a valid platform.
            CL_CONTEXT_PLATFORM => {
                handle::platform(value as cl_platform_id, false)?;
            }
            CL_CONTEXT_INTEROP_USER_SYNC => {
                if value as cl_bool != CL_TRUE && value as cl_bool != CL_FALSE {
                    return fail(CL_INVALID_PROPERTY);
                }
            }
            _ => return fail(CL_INVALID_PROPERTY),
        }
    }
    let mut out = list;
    if !properties.is_null() {
        out.push(0);
    }
    Ok(out)
}

/// Wraps the application's pfn_notify as a Rust closure.
fn notify_fn(pfn_notify: ContextNotify, user_data: *mut c_void) -> ClResult<Option<NotifyFn>> {
    // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
    let Some(f) = pfn_notify else {
        return if user_data.is_null() {
            Ok(None)
        } else {
            fail(CL_INVALID_VALUE)
        };
    };
    let user = UserData(user_data);
    Ok(Some(Box::new(move |msg: &str, private: &[u8]| {
        let text = CString::new(msg.replace('\0', " ")).unwrap_or_default();
        let u = user;
        // SAFETY: the application registered `f` for exactly this call shape;
        // the strings and bytes live for the duration of the call.
        unsafe { f(text.as_ptr(), private.as_ptr().cast(), private.len(), u.0) };
    })))
}

fn new_context(
    properties: *const cl_context_properties,
    devices: Vec<Arc<Device>>,
    pfn_notify: ContextNotify,
    user_data: *mut c_void,
) -> ClResult<*mut c_void> {
    let props = context_properties(properties)?;
    let notify = notify_fn(pfn_notify, user_data)?;
    Ok(handle::register(Context::new(devices, props, notify)))
}

cl_entry_ptr! {
    fn clCreateContext(properties: *const cl_context_properties, num_devices: cl_uint, devices: *const cl_device_id, pfn_notify: ContextNotify, user_data: *mut c_void; errcode_ret) {
        // CL_INVALID_VALUE if devices is NULL; if num_devices is equal to zero.
        if devices.is_null() || num_devices == 0 {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_DEVICE if any device in devices is not a valid device.
        let devs = handle::get_list::<Device>(devices, num_devices as usize, CL_INVALID_DEVICE)?;
        new_context(properties, devs, pfn_notify, user_data)
    }

    fn clCreateContextFromType(properties: *const cl_context_properties, device_type: cl_device_type, pfn_notify: ContextNotify, user_data: *mut c_void; errcode_ret) {
        let platform = handle::init();
        // CL_INVALID_DEVICE_TYPE if device_type is not a valid value.
        let valid = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
        if device_type != CL_DEVICE_TYPE_ALL && (device_type == 0 || device_type & !valid != 0) {
            return fail(CL_INVALID_DEVICE_TYPE);
        }
        // Check the properties first: an invalid platform is reported before
        // a missing device.
        context_properties(properties)?;
        // CL_DEVICE_NOT_FOUND if no devices that match device_type and
        // property values specified in properties are currently available.
        let wanted = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU;
        if device_type != CL_DEVICE_TYPE_ALL && device_type & wanted == 0 {
            return fail(CL_DEVICE_NOT_FOUND);
        }
        new_context(properties, platform.devices().to_vec(), pfn_notify, user_data)
    }
}

cl_entry! {
    fn clRetainContext(context: cl_context) {
        handle::retain::<Context>(context)
    }

    fn clReleaseContext(context: cl_context) {
        handle::release::<Context>(context)
    }

    fn clGetContextInfo(context: cl_context, param_name: cl_context_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_CONTEXT if context is not a valid context.
        let c = handle::get::<Context>(context)?;
        info::write(c.info(param_name), param_value_size, param_value, param_value_size_ret)
    }

    fn clSetContextDestructorCallback(context: cl_context, pfn_notify: Option<unsafe extern "C" fn(context: cl_context, user_data: *mut c_void)>, user_data: *mut c_void) {
        let c = handle::get::<Context>(context)?;
        c.add_destructor(args::handle_callback(pfn_notify, context, user_data)?);
        Ok(())
    }
}
