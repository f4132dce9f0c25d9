//! Kernel objects and kernel enqueues (API spec 5.9, 5.10). Enqueues are
//! checked completely, then run by `clift_runtime::ndrange::enqueue_ndrange`.

use std::ffi::{c_char, c_void};
use std::mem::size_of;
use std::sync::Arc;

use clift_runtime::device::Device;
use clift_runtime::device_queue::DeviceQueue;
use clift_runtime::error::{fail, ClResult};
use clift_runtime::kernel::{ArgKind, ArgValue, Kernel, MemArg, QueueArg};
use clift_runtime::memory::MemObject;
use clift_runtime::ndrange;
use clift_runtime::program::Program;
use clift_runtime::queue::Queue;
use clift_runtime::sampler::Sampler;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};
use crate::{args, handle, info};

/// The `device` argument of the device-specific kernel queries: `None` for
/// NULL, else the device (CL_INVALID_DEVICE for an invalid handle).
fn query_device(kernel: &Kernel, device: cl_device_id) -> ClResult<Arc<Device>> {
    let d = if device.is_null() {
        None
    } else {
        Some(handle::get::<Device>(device)?)
    };
    kernel.check_device(d.as_ref())
}

/// The sub-group query of clGetKernelSubGroupInfo(KHR).
fn sub_group_info(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_sub_group_info,
    input_value_size: usize,
    input_value: *const c_void,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
    let k = handle::get::<Kernel>(kernel)?;
    // CL_INVALID_DEVICE if device is not in the list of devices associated
    // with kernel or if device is NULL but there is more than one device
    // associated with kernel. (Every clift device supports sub-groups.)
    query_device(&k, device)?;
    let word = size_of::<usize>();
    // The input: an array of size_t, whose length input_value_size gives
    // ("This size must be == size of input type"). Anything that is not 0 to
    // 3 whole words is an invalid size, reported by the queries that use it.
    let input = if input_value_size.is_multiple_of(word) && input_value_size / word <= 3 {
        args::slice(input_value as *const usize, input_value_size / word)
    } else {
        None
    };
    // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: "Other dimensions inferred
    // from the value specified for param_value_size"; a size-only query
    // (param_value NULL) with no usable size is answered for 3 dimensions.
    let out_dims = if param_value_size.is_multiple_of(word) && (1..=3).contains(&(param_value_size / word)) {
        param_value_size / word
    } else if param_value.is_null() {
        3
    } else {
        0
    };
    info::write(
        k.sub_group_info(param_name, input, out_dims),
        param_value_size,
        param_value,
        param_value_size_ret,
    )
}

/// The offset, global and local size arrays of an ND-range.
type RangeArrays<'a> = (Option<&'a [usize]>, Option<&'a [usize]>, Option<&'a [usize]>);

/// The arrays of an ND-range argument list: `work_dim` entries each, or none
/// when `work_dim` is out of range (the kernel's checks report it before
/// they use any array).
fn range_arrays<'a>(
    work_dim: cl_uint,
    offset: *const usize,
    global: *const usize,
    local: *const usize,
) -> RangeArrays<'a> {
    let dims = if (1..=clift_runtime::device::MAX_WORK_ITEM_DIMENSIONS).contains(&work_dim) {
        work_dim as usize
    } else {
        0
    };
    (
        args::slice(offset, dims),
        args::slice(global, dims),
        args::slice(local, dims),
    )
}

cl_entry_ptr! {
    fn clCreateKernel(program: cl_program, kernel_name: *const c_char; errcode_ret) {
        // CL_INVALID_PROGRAM if program is not a valid program object.
        let p = handle::get::<Program>(program)?;
        let Some(name) = args::c_str(kernel_name) else {
            // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
            // executable for program.
            p.kernel_names()?;
            // CL_INVALID_VALUE if kernel_name is NULL.
            return fail(CL_INVALID_VALUE);
        };
        // CL_INVALID_KERNEL_NAME if kernel_name is not found in program (a
        // name that is not UTF-8 names no SPIR-V entry point).
        let name = name.to_str().unwrap_or("\u{fffd}");
        let k = Kernel::create(&p, name)?;
        Ok(handle::register(k))
    }

    fn clCloneKernel(source_kernel: cl_kernel; errcode_ret) {
        // CL_INVALID_KERNEL if kernel is not a valid kernel object.
        let k = handle::get::<Kernel>(source_kernel)?;
        Ok(handle::register(k.clone_kernel()))
    }
}

cl_entry! {
    fn clCreateKernelsInProgram(program: cl_program, num_kernels: cl_uint, kernels: *mut cl_kernel, num_kernels_ret: *mut cl_uint) {
        // CL_INVALID_PROGRAM if program is not a valid program object.
        let p = handle::get::<Program>(program)?;
        // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
        // executable for any device in program.
        let count = p.kernel_names()?.len();
        // CL_INVALID_VALUE if kernels is not NULL and num_kernels is less
        // than the number of kernels in program.
        if kernels.is_null() {
            args::write_out(num_kernels_ret, count as cl_uint);
            return Ok(());
        }
        if (num_kernels as usize) < count {
            return fail(CL_INVALID_VALUE);
        }
        let made = Kernel::create_all(&p)?;
        // (A rebuild between the two calls may have changed the count.)
        if made.len() > num_kernels as usize {
            return fail(CL_INVALID_VALUE);
        }
        let Some(out) = args::slice_mut(kernels, made.len()) else {
            return fail(CL_INVALID_VALUE);
        };
        for (slot, k) in out.iter_mut().zip(made) {
            *slot = handle::register(k);
        }
        args::write_out(num_kernels_ret, out.len() as cl_uint);
        Ok(())
    }

    fn clRetainKernel(kernel: cl_kernel) {
        // CL_INVALID_KERNEL if kernel is not a valid kernel object.
        handle::retain::<Kernel>(kernel)
    }

    fn clReleaseKernel(kernel: cl_kernel) {
        // CL_INVALID_KERNEL if kernel is not a valid kernel object. "The
        // kernel object is deleted once the number of instances that are
        // retained to kernel become zero and the kernel object is no longer
        // needed by any enqueued commands that use kernel."
        handle::release::<Kernel>(kernel)
    }

    fn clSetKernelArg(kernel: cl_kernel, arg_index: cl_uint, arg_size: usize, arg_value: *const c_void) {
        // CL_INVALID_KERNEL if kernel is not a valid kernel
        let k = handle::get::<Kernel>(kernel)?;
        // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index
        let arg = k.arg(arg_index)?;
        let value = match arg.kind {
            ArgKind::Local => {
                // "If the kernel argument being set is a pointer to the local
                // address space, then arg_value must be NULL, and arg_size
                // specifies the amount of local memory in bytes".
                if !arg_value.is_null() {
                    return fail(CL_INVALID_ARG_VALUE);
                }
                ArgValue::Local(arg_size)
            }
            ArgKind::Value => {
                // CL_INVALID_ARG_SIZE if arg_value points to the data to be
                // used as the kernel argument value and arg_size does not
                // match the size of the data type for the argument
                if arg_size != arg.size {
                    return fail(CL_INVALID_ARG_SIZE);
                }
                // "For all other kernel arguments, arg_value points to the
                // data that is used as the kernel argument value."
                let Some(bytes) = args::slice(arg_value as *const u8, arg_size) else {
                    return fail(CL_INVALID_ARG_VALUE);
                };
                ArgValue::Value(bytes.to_vec())
            }
            ArgKind::GlobalBuffer | ArgKind::ConstantBuffer | ArgKind::Pipe | ArgKind::Image => {
                // CL_INVALID_ARG_SIZE if arg_value points to a memory object
                // and arg_size is not equal to sizeof(cl_mem)
                if arg_size != size_of::<cl_mem>() {
                    return fail(CL_INVALID_ARG_SIZE);
                }
                // "If arg_value is NULL or points to NULL, then the kernel
                // argument will be set to NULL" (buffers; the kernel refuses
                // NULL for pipes and images).
                let h = args::slice(arg_value as *const cl_mem, 1).map_or(std::ptr::null_mut(), |s| s[0]);
                if h.is_null() {
                    ArgValue::Mem(None)
                } else {
                    // CL_INVALID_MEM_OBJECT if arg_value is not NULL, and does
                    // not point to NULL, and does not point to a valid memory object
                    ArgValue::Mem(Some(MemArg::new(&handle::get::<MemObject>(h)?)))
                }
            }
            ArgKind::Sampler => {
                // CL_INVALID_ARG_SIZE if arg_value points to a sampler object
                // and arg_size is not equal to sizeof(cl_sampler)
                if arg_size != size_of::<cl_sampler>() {
                    return fail(CL_INVALID_ARG_SIZE);
                }
                // CL_INVALID_SAMPLER if the kernel argument is a sampler but
                // arg_value does not point to a valid sampler object.
                let h = args::slice(arg_value as *const cl_sampler, 1).map_or(std::ptr::null_mut(), |s| s[0]);
                if h.is_null() {
                    return fail(CL_INVALID_SAMPLER);
                }
                ArgValue::Sampler(handle::get::<Sampler>(h)?.bits())
            }
            ArgKind::Queue => {
                // CL_INVALID_ARG_SIZE if arg_value points to a device queue
                // object and arg_size is not equal to sizeof(cl_command_queue)
                if arg_size != size_of::<cl_command_queue>() {
                    return fail(CL_INVALID_ARG_SIZE);
                }
                // CL_INVALID_DEVICE_QUEUE if the kernel argument is a device
                // queue, but arg_value does not point to a valid device queue
                // object (NULL, a host queue, anything else).
                let h = args::slice(arg_value as *const cl_command_queue, 1).map_or(std::ptr::null_mut(), |s| s[0]);
                match handle::get::<DeviceQueue>(h) {
                    Ok(q) => ArgValue::Queue(QueueArg::new(&q)),
                    Err(_) => return fail(CL_INVALID_DEVICE_QUEUE),
                }
            }
            // Block kernels are launched only by device-side enqueue: the
            // application can create no kernel object of one.
            ArgKind::BlockLiteral => return fail(CL_INVALID_KERNEL),
        };
        k.set_arg(arg_index, value)
    }

    fn clGetKernelInfo(kernel: cl_kernel, param_name: cl_kernel_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
        let k = handle::get::<Kernel>(kernel)?;
        info::write(k.info(param_name), param_value_size, param_value, param_value_size_ret)
    }

    fn clGetKernelWorkGroupInfo(kernel: cl_kernel, device: cl_device_id, param_name: cl_kernel_work_group_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
        let k = handle::get::<Kernel>(kernel)?;
        let d = query_device(&k, device)?;
        info::write(k.work_group_info(&d, param_name), param_value_size, param_value, param_value_size_ret)
    }

    fn clGetKernelArgInfo(kernel: cl_kernel, arg_index: cl_uint, param_name: cl_kernel_arg_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
        let k = handle::get::<Kernel>(kernel)?;
        info::write(k.arg_info(arg_index, param_name), param_value_size, param_value, param_value_size_ret)
    }

    fn clSetKernelArgSVMPointer(kernel: cl_kernel, arg_index: cl_uint, arg_value: *const c_void) {
        // CL_INVALID_KERNEL if kernel is not a valid kernel object.
        let k = handle::get::<Kernel>(kernel)?;
        // CL_INVALID_OPERATION if no devices in the context associated with
        // kernel support SVM: every clift device does. The pointer is a value
        // (clift never dereferences it here); an enqueue checks that it lies
        // in an SVM allocation.
        k.set_arg_svm(arg_index, arg_value as usize)
    }

    fn clSetKernelExecInfo(kernel: cl_kernel, param_name: cl_kernel_exec_info, param_value_size: usize, param_value: *const c_void) {
        // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
        let k = handle::get::<Kernel>(kernel)?;
        // CL_INVALID_VALUE if param_name is not valid, if param_value is NULL
        // and param_value_size is greater than zero, or if the size specified
        // by param_value_size is not valid.
        if param_value.is_null() && param_value_size > 0 {
            return fail(CL_INVALID_VALUE);
        }
        match param_name {
            CL_KERNEL_EXEC_INFO_SVM_PTRS => {
                let word = size_of::<*const c_void>();
                if !param_value_size.is_multiple_of(word) {
                    return fail(CL_INVALID_VALUE);
                }
                // "To specify that no SVM allocations will be accessed by a
                // kernel other than those set as kernel arguments, specify an
                // empty set by passing param_value_size equal to zero and
                // param_value equal to NULL."
                let ptrs = args::slice(param_value as *const usize, param_value_size / word).unwrap_or(&[]);
                k.set_exec_svm_ptrs(ptrs.to_vec());
                Ok(())
            }
            CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM => {
                if param_value_size != size_of::<cl_bool>() {
                    return fail(CL_INVALID_VALUE);
                }
                let Some(&[v]) = args::slice(param_value as *const cl_bool, 1) else {
                    return fail(CL_INVALID_VALUE);
                };
                k.set_exec_fine_grain_system(v != CL_FALSE)
            }
            _ => fail(CL_INVALID_VALUE),
        }
    }

    fn clGetKernelSubGroupInfoKHR(in_kernel: cl_kernel, in_device: cl_device_id, param_name: cl_kernel_sub_group_info, input_value_size: usize, input_value: *const c_void, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // cl_khr_subgroups' name for clGetKernelSubGroupInfo.
        sub_group_info(in_kernel, in_device, param_name, input_value_size, input_value, param_value_size, param_value, param_value_size_ret)
    }

    fn clGetKernelSubGroupInfo(kernel: cl_kernel, device: cl_device_id, param_name: cl_kernel_sub_group_info, input_value_size: usize, input_value: *const c_void, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        sub_group_info(kernel, device, param_name, input_value_size, input_value, param_value_size, param_value, param_value_size_ret)
    }

    fn clEnqueueNDRangeKernel(command_queue: cl_command_queue, kernel: cl_kernel, work_dim: cl_uint, global_work_offset: *const usize, global_work_size: *const usize, local_work_size: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_KERNEL if kernel is not a valid kernel
        let k = handle::get::<Kernel>(kernel)?;
        let (offset, global, local) = range_arrays(work_dim, global_work_offset, global_work_size, local_work_size);
        let range = k.check_launch(&q, work_dim, offset, global, local)?;
        // CL_INVALID_EVENT_WAIT_LIST ...
        let wait = args::wait_list(num_events_in_wait_list, event_wait_list)?;
        let ev = ndrange::enqueue_ndrange(&q, &k, CL_COMMAND_NDRANGE_KERNEL, range, &wait)?;
        args::event_out(event, ev);
        Ok(())
    }

    fn clEnqueueTask(command_queue: cl_command_queue, kernel: cl_kernel, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_KERNEL if kernel is not a valid kernel object.
        let k = handle::get::<Kernel>(kernel)?;
        // "clEnqueueTask is equivalent to calling clEnqueueNDRangeKernel with
        // work_dim set to 1, global_work_offset set to NULL,
        // global_work_size[0] set to 1, and local_work_size[0] set to 1."
        let range = k.check_launch(&q, 1, None, Some(&[1]), Some(&[1]))?;
        // CL_INVALID_EVENT_WAIT_LIST ...
        let wait = args::wait_list(num_events_in_wait_list, event_wait_list)?;
        let ev = ndrange::enqueue_ndrange(&q, &k, CL_COMMAND_TASK, range, &wait)?;
        args::event_out(event, ev);
        Ok(())
    }

    fn clGetKernelSuggestedLocalWorkSizeKHR(command_queue: cl_command_queue, kernel: cl_kernel, work_dim: cl_uint, global_work_offset: *const usize, global_work_size: *const usize, suggested_local_work_size: *mut usize) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_KERNEL if kernel is not a valid kernel
        let k = handle::get::<Kernel>(kernel)?;
        let (offset, global, _) = range_arrays(work_dim, global_work_offset, global_work_size, std::ptr::null());
        let range = k.check_launch(&q, work_dim, offset, global, None)?;
        // CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL, if any of
        // the values specified in global_work_size[0], ...
        // global_work_size[work_dim - 1] are zero.
        if range.global.is_none() {
            return fail(CL_INVALID_GLOBAL_WORK_SIZE);
        }
        // CL_INVALID_VALUE if suggested_local_work_size is NULL
        let Some(out) = args::slice_mut(suggested_local_work_size, work_dim as usize) else {
            return fail(CL_INVALID_VALUE);
        };
        let suggestion = k.suggest_local_size(q.device(), &range);
        out.copy_from_slice(&suggestion[..out.len()]);
        Ok(())
    }
}
