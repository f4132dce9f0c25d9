//! device

#![allow(unused_variables)]

use std::ffi::{c_char, c_void};

use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};

cl_entry! {
    fn clGetDeviceIDs(platform: cl_platform_id, device_type: cl_device_type, num_entries: cl_uint, devices: *mut cl_device_id, num_devices: *mut cl_uint) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetDeviceInfo(device: cl_device_id, param_name: cl_device_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clCreateSubDevices(in_device: cl_device_id, properties: *const cl_device_partition_property, num_devices: cl_uint, out_devices: *mut cl_device_id, num_devices_ret: *mut cl_uint) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clRetainDevice(device: cl_device_id) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clReleaseDevice(device: cl_device_id) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clCreateSubDevicesEXT(in_device: cl_device_id, properties: *const cl_device_partition_property_ext, num_entries: cl_uint, out_devices: *mut cl_device_id, num_devices: *mut cl_uint) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clRetainDeviceEXT(device: cl_device_id) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clReleaseDeviceEXT(device: cl_device_id) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetDeviceAndHostTimer(device: cl_device_id, device_timestamp: *mut cl_ulong, host_timestamp: *mut cl_ulong) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetHostTimer(device: cl_device_id, host_timestamp: *mut cl_ulong) {
        fail(CL_INVALID_OPERATION)
    }
}
