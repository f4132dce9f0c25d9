//! Program objects (API spec 5.8): OpenCL C (compiled by the system's clang
//! and llvm-spirv, `clift_runtime::compiler`), SPIR-V programs, clift
//! binaries, their builds, separate compilation and linking, and queries.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use clift_runtime::context::Context;
use clift_runtime::device::Device;
use clift_runtime::error::{fail, ClResult};
use clift_runtime::options::parse_link_options;
use clift_runtime::program::{Program, ProgramBinary};
use opencl_sys::*;

use crate::args::{self, UserData};
use crate::entry::{cl_entry, cl_entry_ptr};
use crate::{handle, info};

type ProgramNotify = Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>;

/// A device list argument: `None` for NULL with a zero count (meaning "all
/// devices"), else the devices. CL_INVALID_VALUE if device_list is NULL and
/// num_devices is greater than zero, or if device_list is not NULL and
/// num_devices is zero; CL_INVALID_DEVICE for an invalid device.
fn optional_devices(num_devices: cl_uint, list: *const cl_device_id) -> ClResult<Option<Vec<Arc<Device>>>> {
    if list.is_null() != (num_devices == 0) {
        return fail(CL_INVALID_VALUE);
    }
    if list.is_null() {
        return Ok(None);
    }
    handle::get_list::<Device>(list, num_devices as usize, CL_INVALID_DEVICE).map(Some)
}

/// Wraps pfn_notify of clBuildProgram: CL_INVALID_VALUE if pfn_notify is
/// NULL but user_data is not NULL.
fn build_notify(
    program: cl_program,
    pfn_notify: ProgramNotify,
    user_data: *mut c_void,
) -> ClResult<Option<Box<dyn FnOnce() + Send>>> {
    let Some(f) = pfn_notify else {
        return if user_data.is_null() {
            Ok(None)
        } else {
            fail(CL_INVALID_VALUE)
        };
    };
    let user = UserData(user_data);
    let h = program as usize;
    Ok(Some(Box::new(move || {
        let u = user;
        // SAFETY: the application registered `f` for this call shape, to be
        // called with its program and user_data once the build is done, from
        // any thread ("It is the application's responsibility to ensure that
        // the callback function is thread-safe").
        unsafe { f(h as cl_program, u.0) };
    })))
}

/// An options argument: `None` for NULL. Options that are not UTF-8 cannot
/// be any option clift knows: `invalid`.
fn options_arg(options: *const c_char, invalid: cl_int) -> ClResult<Option<String>> {
    match args::c_str(options) {
        None => Ok(None),
        Some(s) => match s.to_str() {
            Ok(s) => Ok(Some(s.to_string())),
            Err(_) => fail(invalid),
        },
    }
}

/// The devices of a creation call with an explicit list: CL_INVALID_VALUE if
/// device_list is NULL or num_devices is zero; CL_INVALID_DEVICE if any
/// device in device_list is not in the list of devices associated with context.
fn context_devices(ctx: &Context, num_devices: cl_uint, list: *const cl_device_id) -> ClResult<Vec<Arc<Device>>> {
    if list.is_null() || num_devices == 0 {
        return fail(CL_INVALID_VALUE);
    }
    let devs = handle::get_list::<Device>(list, num_devices as usize, CL_INVALID_DEVICE)?;
    if devs.iter().any(|d| !ctx.has_device(d)) {
        return fail(CL_INVALID_DEVICE);
    }
    Ok(devs)
}

cl_entry_ptr! {
    fn clCreateProgramWithSource(context: cl_context, count: cl_uint, strings: *mut *const c_char, lengths: *const usize; errcode_ret) {
        // CL_INVALID_CONTEXT if context is not a valid context.
        let ctx = handle::get::<Context>(context)?;
        // CL_INVALID_VALUE if count is zero or if strings or any entry in
        // strings is NULL.
        if count == 0 {
            return fail(CL_INVALID_VALUE);
        }
        let Some(list) = args::slice(strings as *const *const c_char, count as usize) else {
            return fail(CL_INVALID_VALUE);
        };
        if list.iter().any(|s| s.is_null()) {
            return fail(CL_INVALID_VALUE);
        }
        let lens = args::slice(lengths, count as usize);
        let mut text = Vec::new();
        for (i, &s) in list.iter().enumerate() {
            // "If an element in lengths is zero, its accompanying string is
            // null-terminated. If lengths is NULL, all strings in the strings
            // argument are considered null-terminated."
            match lens.map(|l| l[i]).filter(|&n| n > 0) {
                Some(n) => text.extend_from_slice(args::slice(s as *const u8, n).unwrap_or(&[])),
                None => text.extend_from_slice(args::c_str(s).map(|c| c.to_bytes()).unwrap_or(&[])),
            }
        }
        // "The concatenation strips any nulls in the original source strings."
        text.retain(|&b| b != 0);
        let source = String::from_utf8_lossy(&text).into_owned();
        Ok(handle::register(Program::with_source(&ctx, source)))
    }

    fn clCreateProgramWithBinary(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, lengths: *const usize, binaries: *mut *const ::core::ffi::c_uchar, binary_status: *mut cl_int; errcode_ret) {
        // CL_INVALID_CONTEXT if context is not a valid context.
        let ctx = handle::get::<Context>(context)?;
        let devs = context_devices(&ctx, num_devices, device_list)?;
        let n = devs.len();
        // CL_INVALID_VALUE if lengths or binaries is NULL
        let (Some(lens), Some(bins)) = (args::slice(lengths, n), args::slice(binaries as *const *const u8, n)) else {
            return fail(CL_INVALID_VALUE);
        };
        // binary_status: "CL_SUCCESS ... if binary was successfully loaded
        // ...; otherwise returns CL_INVALID_VALUE if lengths[i] is zero or if
        // binaries[i] is a NULL value or CL_INVALID_BINARY ... if program
        // binary is not a valid binary for the specified device."
        let mut status = vec![CL_SUCCESS; n];
        let mut loaded = Vec::with_capacity(n);
        for i in 0..n {
            let bytes = if lens[i] == 0 { None } else { args::slice(bins[i], lens[i]) };
            match bytes {
                None => status[i] = CL_INVALID_VALUE,
                Some(b) => match ProgramBinary::parse(b) {
                    Ok(bin) => loaded.push((devs[i].clone(), bin, Arc::<[u8]>::from(b))),
                    Err(e) => status[i] = e.0,
                },
            }
        }
        if let Some(out) = args::slice_mut(binary_status, n) {
            out.copy_from_slice(&status);
        }
        // CL_INVALID_VALUE if ... any entry in lengths[i] is zero or binaries[i] is NULL.
        if status.contains(&CL_INVALID_VALUE) {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_BINARY if an invalid program binary was encountered for
        // any device.
        if status.contains(&CL_INVALID_BINARY) {
            return fail(CL_INVALID_BINARY);
        }
        Ok(handle::register(Program::with_binaries(&ctx, loaded)))
    }

    fn clCreateProgramWithBuiltInKernels(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, kernel_names: *const c_char; errcode_ret) {
        // CL_INVALID_CONTEXT if context is not a valid context.
        let ctx = handle::get::<Context>(context)?;
        // CL_INVALID_VALUE if device_list is NULL or num_devices is zero.
        if device_list.is_null() || num_devices == 0 {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_VALUE if kernel_names is NULL
        if kernel_names.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_DEVICE if any device in device_list is not in the list of
        // devices associated with context.
        context_devices(&ctx, num_devices, device_list)?;
        // CL_INVALID_VALUE if kernel_names ... contains a kernel name that is
        // not supported by any of the devices in device_list: clift has no
        // built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty).
        fail(CL_INVALID_VALUE)
    }

    fn clCreateProgramWithIL(context: cl_context, il: *const c_void, length: usize; errcode_ret) {
        // CL_INVALID_CONTEXT if context is not a valid context.
        let ctx = handle::get::<Context>(context)?;
        // CL_INVALID_VALUE if il is NULL or if length is zero.
        if length == 0 {
            return fail(CL_INVALID_VALUE);
        }
        let Some(bytes) = args::slice(il as *const u8, length) else {
            return fail(CL_INVALID_VALUE);
        };
        // CL_INVALID_OPERATION if no devices in context support intermediate
        // language programs: every clift device takes SPIR-V 1.0 to 1.2.
        // CL_INVALID_VALUE if the length-byte block of memory pointed to by il
        // does not contain well-formed intermediate language input.
        Ok(handle::register(Program::with_il(&ctx, bytes)?))
    }
}

/// clLinkProgram: written out rather than through `cl_entry_ptr!`, because
/// a failed link still returns its program ("If the linking operation can
/// begin, clLinkProgram returns a valid non-zero program object") along with
/// CL_LINK_PROGRAM_FAILURE.
#[allow(non_snake_case, clippy::too_many_arguments)]
pub(crate) extern "C" fn clLinkProgram(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_programs: cl_uint,
    input_programs: *const cl_program,
    pfn_notify: ProgramNotify,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_program {
    let body = || {
        link_program(
            context,
            num_devices,
            device_list,
            options,
            num_input_programs,
            input_programs,
            pfn_notify,
            user_data,
        )
    };
    let (program, code) = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(Ok((p, code))) => (p, code),
        Ok(Err(e)) => (std::ptr::null_mut(), e.0),
        Err(_) => (std::ptr::null_mut(), crate::entry::PANIC_CODE),
    };
    args::write_out(errcode_ret, code);
    program
}

#[allow(clippy::too_many_arguments)]
fn link_program(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_programs: cl_uint,
    input_programs: *const cl_program,
    pfn_notify: ProgramNotify,
    user_data: *mut c_void,
) -> ClResult<(cl_program, cl_int)> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    let ctx = handle::get::<Context>(context)?;
    let devs = optional_devices(num_devices, device_list)?;
    // CL_INVALID_VALUE if num_input_programs is zero and input_programs
    // is NULL or if num_input_programs is zero and input_programs is not
    // NULL or if num_input_programs is not zero and input_programs is NULL.
    if num_input_programs == 0 || input_programs.is_null() {
        return fail(CL_INVALID_VALUE);
    }
    // CL_INVALID_PROGRAM if programs specified in input_programs are not
    // valid program objects.
    let programs = handle::get_list::<Program>(input_programs, num_input_programs as usize, CL_INVALID_PROGRAM)?;
    // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
    if pfn_notify.is_none() && !user_data.is_null() {
        return fail(CL_INVALID_VALUE);
    }
    // CL_INVALID_DEVICE if any device in device_list is not in the list
    // of devices associated with context.
    if devs.iter().flatten().any(|d| !ctx.has_device(d)) {
        return fail(CL_INVALID_DEVICE);
    }
    // CL_INVALID_CONTEXT if the context associated with programs in
    // input_programs are not the same as context.
    if programs.iter().any(|p| !Arc::ptr_eq(p.context(), &ctx)) {
        return fail(CL_INVALID_CONTEXT);
    }
    // CL_INVALID_LINKER_OPTIONS if the linker options specified by
    // options are invalid: the library options, and the program linking
    // options of the spec's "Linker Options" section. ("if options is a
    // NULL pointer then it will have the same result as the empty string.")
    let text = options_arg(options, CL_INVALID_LINKER_OPTIONS)?.unwrap_or_default();
    // No program is returned, so the line naming the refused option goes
    // to the context's notify callback ("report information on errors
    // that occur at runtime in this context").
    let request = match parse_link_options(&text) {
        Ok(r) => r,
        Err(e) => {
            ctx.notify(&e.to_string());
            return fail(e.call.invalid_code());
        }
    };
    // "The devices associated with the returned program object will be the
    // list of devices specified by device_list or if device_list is NULL it
    // will be the list of devices associated with context."
    let devices = devs.unwrap_or_else(|| ctx.devices().to_vec());
    let notify = pfn_notify.map(|f| {
        let user = UserData(user_data);
        Box::new(move |p: &Arc<Program>| {
            let u = user;
            let h = clift_runtime::object::handle_of(p) as cl_program;
            // SAFETY: the application registered `f` for this call shape, to
            // be called with the new program and user_data once the link is
            // done, from any thread ("It is the application's responsibility
            // to ensure that the callback function is thread-safe").
            unsafe { f(h, u.0) };
        }) as clift_runtime::program::LinkNotify
    });
    // The handle exists before a callback can run: the program is
    // registered inside `link` through `register_first`.
    let (program, code) = Program::link(&ctx, devices, &request, &programs, notify, |p| {
        handle::register(p.clone());
    })?;
    Ok((clift_runtime::object::handle_of(&program) as cl_program, code))
}

cl_entry! {
    fn clRetainProgram(program: cl_program) {
        // CL_INVALID_PROGRAM if program is not a valid program object.
        handle::retain::<Program>(program)
    }

    fn clReleaseProgram(program: cl_program) {
        // CL_INVALID_PROGRAM if program is not a valid program object. "The
        // program object is deleted after all kernel objects associated with
        // program have been deleted and the program reference count becomes
        // zero": kernels hold their program.
        handle::release::<Program>(program)
    }

    fn clBuildProgram(program: cl_program, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, pfn_notify: ProgramNotify, user_data: *mut c_void) {
        // CL_INVALID_PROGRAM if program is not a valid program object.
        let p = handle::get::<Program>(program)?;
        let devs = optional_devices(num_devices, device_list)?;
        let notify = build_notify(program, pfn_notify, user_data)?;
        // CL_INVALID_DEVICE if any device in device_list is not in the list
        // of devices associated with program.
        if devs.iter().flatten().any(|d| !p.has_device(d)) {
            return fail(CL_INVALID_DEVICE);
        }
        let opts = options_arg(options, CL_INVALID_BUILD_OPTIONS)?;
        // The rest (options, binaries, compiler, builds in progress, kernels
        // attached) is checked by the program, atomically with the start.
        p.build(devs.as_deref(), opts.as_deref(), notify)
    }

    fn clUnloadCompiler() {
        // "clUnloadCompiler will always return CL_SUCCESS." A hint; the jit
        // keeps no state between builds.
        Ok(())
    }

    fn clGetProgramInfo(program: cl_program, param_name: cl_program_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_PROGRAM if program is a not a valid program object.
        let p = handle::get::<Program>(program)?;
        if param_name != CL_PROGRAM_BINARIES {
            return info::write(p.info(param_name), param_value_size, param_value, param_value_size_ret);
        }
        // "param_value points to an array of n pointers allocated by the
        // caller, where n is the number of devices associated with program
        // ... Each entry in this array is used by the implementation as the
        // location in memory where to copy the program binary for a specific
        // device, if there is a binary available."
        let bins = p.binaries();
        let size = bins.len() * std::mem::size_of::<*mut u8>();
        if !param_value.is_null() {
            // CL_INVALID_VALUE if the size in bytes specified by
            // param_value_size is less than size of the return type.
            if param_value_size < size {
                return fail(CL_INVALID_VALUE);
            }
            let ptrs = args::slice(param_value as *const *mut u8, bins.len()).unwrap_or(&[]);
            for (&dst, bin) in ptrs.iter().zip(&bins) {
                // A NULL entry asks for no binary for that device; each
                // non-NULL entry has room for the size CL_PROGRAM_BINARY_SIZES
                // gave (the API contract).
                if !dst.is_null() && !bin.is_empty() {
                    args::copy_out(dst, bin);
                }
            }
        }
        args::write_out(param_value_size_ret, size);
        Ok(())
    }

    fn clGetProgramBuildInfo(program: cl_program, device: cl_device_id, param_name: cl_program_build_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_PROGRAM if program is a not a valid program object.
        let p = handle::get::<Program>(program)?;
        // CL_INVALID_DEVICE if device is not in the list of devices
        // associated with program.
        let d = handle::get::<Device>(device)?;
        info::write(p.build_info(&d, param_name), param_value_size, param_value, param_value_size_ret)
    }

    fn clCompileProgram(program: cl_program, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, num_input_headers: cl_uint, input_headers: *const cl_program, header_include_names: *mut *const c_char, pfn_notify: ProgramNotify, user_data: *mut c_void) {
        // CL_INVALID_PROGRAM if program is not a valid program object.
        let p = handle::get::<Program>(program)?;
        let devs = optional_devices(num_devices, device_list)?;
        // CL_INVALID_VALUE if num_input_headers is zero and
        // header_include_names or input_headers are not NULL or if
        // num_input_headers is not zero and header_include_names or
        // input_headers are NULL.
        let headers_given = !input_headers.is_null() || !header_include_names.is_null();
        let headers_complete = !input_headers.is_null() && !header_include_names.is_null();
        if (num_input_headers == 0 && headers_given) || (num_input_headers != 0 && !headers_complete) {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
        if pfn_notify.is_none() && !user_data.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_DEVICE if device in device_list is not in the list of
        // devices associated with program.
        if devs.iter().flatten().any(|d| !p.has_device(d)) {
            return fail(CL_INVALID_DEVICE);
        }
        let notify = build_notify(program, pfn_notify, user_data)?;
        // The embedded headers: each a program created with source, named
        // by the matching header_include_names entry.
        let mut headers = Vec::with_capacity(num_input_headers as usize);
        if num_input_headers != 0 {
            let progs = handle::get_list::<Program>(input_headers, num_input_headers as usize, CL_INVALID_PROGRAM)?;
            let Some(names) = args::slice(header_include_names as *const *const c_char, num_input_headers as usize) else {
                return fail(CL_INVALID_VALUE);
            };
            for (h, &name) in progs.iter().zip(names) {
                let Some(name) = args::c_str(name).and_then(|c| c.to_str().ok()) else {
                    return fail(CL_INVALID_VALUE);
                };
                let text = match h.origin() {
                    clift_runtime::program::Origin::Source(s) => s.clone(),
                    _ => String::new(),
                };
                headers.push((name.to_string(), text));
            }
        }
        // CL_INVALID_COMPILER_OPTIONS if the compiler options specified by
        // options are invalid; CL_INVALID_OPERATION if program has no source
        // or IL available; CL_COMPILER_NOT_AVAILABLE if a compiler is not
        // available; the rest is checked by the program, atomically with the start.
        let opts = options_arg(options, CL_INVALID_COMPILER_OPTIONS)?;
        p.compile(devs.as_deref(), opts.as_deref(), headers, notify)
    }

    fn clUnloadPlatformCompiler(platform: cl_platform_id) {
        // CL_INVALID_PLATFORM if platform is not a valid platform.
        handle::platform(platform, false)?;
        // A hint; the jit keeps no state between builds.
        Ok(())
    }

    fn clSetProgramReleaseCallback(program: cl_program, pfn_notify: ProgramNotify, user_data: *mut c_void) {
        // CL_INVALID_PROGRAM if program is not a valid program object.
        let p = handle::get::<Program>(program)?;
        p.add_release_callback(args::handle_callback(pfn_notify, program, user_data)?);
        Ok(())
    }

    fn clSetProgramSpecializationConstant(program: cl_program, spec_id: cl_uint, spec_size: usize, spec_value: *const c_void) {
        // CL_INVALID_PROGRAM if program is not a valid program object
        // created from an intermediate language (e.g. SPIR-V).
        let p = handle::get::<Program>(program)?;
        // "spec_size specifies the size in bytes of the data pointed to by
        // spec_value"; the program checks it against the module before the
        // bytes are read.
        p.set_spec_constant(spec_id, spec_size, || {
            args::slice(spec_value as *const u8, spec_size).map(<[u8]>::to_vec)
        })
    }
}
