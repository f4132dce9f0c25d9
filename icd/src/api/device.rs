//! Devices: listing, queries, partitioning into sub-devices, and timers.

use std::ffi::c_void;
use std::sync::Arc;

use clift_runtime::device::Device;
use clift_runtime::error::{fail, ClResult};
use opencl_sys::*;

use crate::entry::cl_entry;
use crate::{args, handle, info};

/// Every bit a `cl_device_type` may hold, other than CL_DEVICE_TYPE_ALL.
const KNOWN_DEVICE_TYPES: cl_device_type = CL_DEVICE_TYPE_DEFAULT
    | CL_DEVICE_TYPE_CPU
    | CL_DEVICE_TYPE_GPU
    | CL_DEVICE_TYPE_ACCELERATOR
    | CL_DEVICE_TYPE_CUSTOM;

/// Whether a device of clift's (a CPU, and the platform's default device)
/// matches `device_type`, which has been checked to be valid.
fn matches_type(device_type: cl_device_type) -> bool {
    device_type == CL_DEVICE_TYPE_ALL || device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT) != 0
}

/// Reads clCreateSubDevices' property list, terminators included. The list
/// is "terminated with 0", but CL_DEVICE_PARTITION_BY_COUNTS has a 0 of its
/// own (CL_DEVICE_PARTITION_BY_COUNTS_LIST_END) before that terminator, so
/// for it a second zero-terminated run is read after the first.
fn partition_properties(props: *const cl_device_partition_property) -> ClResult<Vec<isize>> {
    // CL_INVALID_VALUE if values specified in properties are not valid
    if props.is_null() {
        return fail(CL_INVALID_VALUE);
    }
    let mut list = args::property_list(props, CL_INVALID_VALUE)?;
    let first_len = list.len();
    list.push(0);
    if list.first() == Some(&CL_DEVICE_PARTITION_BY_COUNTS) {
        // The 0 read above was the count list's end: the property list goes
        // on after it, up to its own terminator. The address is only formed
        // here; args reads it under the same contract as the first run.
        let rest = args::property_list(props.wrapping_add(first_len + 1), CL_INVALID_VALUE)?;
        list.extend(rest);
        list.push(0);
    }
    Ok(list)
}

cl_entry! {
    fn clGetDeviceIDs(platform: cl_platform_id, device_type: cl_device_type, num_entries: cl_uint, devices: *mut cl_device_id, num_devices: *mut cl_uint) {
        // CL_INVALID_PLATFORM if platform is not a valid platform.
        // ("If platform is NULL, the behavior is implementation-defined":
        // clift takes its own platform.)
        let p = handle::platform(platform, true)?;
        // CL_INVALID_DEVICE_TYPE if device_type is not a valid value.
        if device_type != CL_DEVICE_TYPE_ALL && (device_type == 0 || device_type & !KNOWN_DEVICE_TYPES != 0) {
            return fail(CL_INVALID_DEVICE_TYPE);
        }
        // CL_INVALID_VALUE if num_entries is equal to zero and devices is not
        // NULL or if both num_devices and devices are NULL.
        if (num_entries == 0 && !devices.is_null()) || (devices.is_null() && num_devices.is_null()) {
            return fail(CL_INVALID_VALUE);
        }
        let found: Vec<&Arc<Device>> = p.devices().iter().filter(|_| matches_type(device_type)).collect();
        // CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were found.
        if found.is_empty() {
            return fail(CL_DEVICE_NOT_FOUND);
        }
        // "The number of OpenCL devices returned is the minimum of the value
        // specified by num_entries or the number of OpenCL devices whose type
        // matches device_type."
        if let Some(out) = args::slice_mut(devices, num_entries as usize) {
            for (slot, d) in out.iter_mut().zip(&found) {
                *slot = handle::handle_of(d) as cl_device_id;
            }
        }
        args::write_out(num_devices, found.len() as cl_uint);
        Ok(())
    }
}

cl_entry! {
    fn clGetDeviceInfo(device: cl_device_id, param_name: cl_device_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_DEVICE if device is not a valid device.
        let d = handle::get::<Device>(device)?;
        info::write(d.info(param_name), param_value_size, param_value, param_value_size_ret)
    }
}

cl_entry! {
    fn clCreateSubDevices(in_device: cl_device_id, properties: *const cl_device_partition_property, num_devices: cl_uint, out_devices: *mut cl_device_id, num_devices_ret: *mut cl_uint) {
        // CL_INVALID_DEVICE if in_device is not a valid device.
        let d = handle::get::<Device>(in_device)?;
        let props = partition_properties(properties)?;
        let subs = d.partition(&props)?;
        // CL_INVALID_VALUE ... if out_devices is not NULL and num_devices is
        // less than the number of sub-devices created by the partition scheme
        if !out_devices.is_null() && (num_devices as usize) < subs.len() {
            return fail(CL_INVALID_VALUE);
        }
        // "If out_devices is NULL, this argument is ignored": the sub-devices
        // are only counted, and dropped unregistered.
        if let Some(out) = args::slice_mut(out_devices, subs.len()) {
            for (slot, s) in out.iter_mut().zip(&subs) {
                *slot = handle::register(s.clone()) as cl_device_id;
            }
        }
        args::write_out(num_devices_ret, subs.len() as cl_uint);
        Ok(())
    }
}

cl_entry! {
    fn clRetainDevice(device: cl_device_id) {
        // CL_INVALID_DEVICE if device is not a valid device. "If device is a
        // root level device ... the device reference count remains unchanged."
        handle::retain::<Device>(device)
    }
}

cl_entry! {
    fn clReleaseDevice(device: cl_device_id) {
        // CL_INVALID_DEVICE if device is not a valid device.
        handle::release::<Device>(device)
    }
}

// cl_ext_device_fission: the dispatch table has slots for these OpenCL 1.1
// extension functions, but clift does not list the extension (its core 1.2
// successors above do the same work), so after the handle check they answer
// CL_INVALID_OPERATION, as for any operation the device does not support.
cl_entry! {
    fn clCreateSubDevicesEXT(in_device: cl_device_id, properties: *const cl_device_partition_property_ext, num_entries: cl_uint, out_devices: *mut cl_device_id, num_devices: *mut cl_uint) {
        let _ = (properties, num_entries, out_devices, num_devices);
        handle::get::<Device>(in_device)?;
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clRetainDeviceEXT(device: cl_device_id) {
        handle::get::<Device>(device)?;
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clReleaseDeviceEXT(device: cl_device_id) {
        handle::get::<Device>(device)?;
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetDeviceAndHostTimer(device: cl_device_id, device_timestamp: *mut cl_ulong, host_timestamp: *mut cl_ulong) {
        // CL_INVALID_DEVICE if device is not a valid device
        handle::get::<Device>(device)?;
        // CL_INVALID_VALUE if host_timestamp is NULL or if device_timestamp is NULL
        if host_timestamp.is_null() || device_timestamp.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // Device and host share one clock (CLOCK_MONOTONIC), so one reading
        // is both timestamps, perfectly synchronized.
        let now = clift_runtime::timer::now_ns();
        args::write_out(device_timestamp, now);
        args::write_out(host_timestamp, now);
        Ok(())
    }
}

cl_entry! {
    fn clGetHostTimer(device: cl_device_id, host_timestamp: *mut cl_ulong) {
        // CL_INVALID_DEVICE if device is not a valid device
        handle::get::<Device>(device)?;
        // CL_INVALID_VALUE if host_timestamp is NULL
        if host_timestamp.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        args::write_out(host_timestamp, clift_runtime::timer::now_ns());
        Ok(())
    }
}
