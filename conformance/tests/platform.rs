//! API spec 4.1: querying platform info, through the ICD loader.

use std::ptr;

use clift_conformance::*;

fn platform_string(p: cl_platform_id, param: cl_platform_info) -> String {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_string(|s, v, r| unsafe { clGetPlatformInfo(p, param, s, v, r) })
}

#[test]
fn loader_lists_clift_with_its_identity() {
    let p = platform();
    assert_eq!(platform_string(p, CL_PLATFORM_NAME), "clift");
    assert_eq!(platform_string(p, CL_PLATFORM_PROFILE), "FULL_PROFILE");
    let version = platform_string(p, CL_PLATFORM_VERSION);
    assert!(version.starts_with("OpenCL 2.2 clift "), "{version}");
    assert_eq!(platform_string(p, CL_PLATFORM_ICD_SUFFIX_KHR), "clift");
    let ext = platform_string(p, CL_PLATFORM_EXTENSIONS);
    assert!(ext.split(' ').any(|e| e == "cl_khr_icd"), "{ext}");
    assert!(!platform_string(p, CL_PLATFORM_VENDOR).is_empty());
}

#[test]
fn platform_info_errors() {
    let p = platform();
    let mut buf = [0u8; 2];
    // CL_INVALID_VALUE if param_name is not one of the supported values.
    // SAFETY: valid buffer of the declared size.
    expect_err(
        unsafe { clGetPlatformInfo(p, 0xdead, 2, buf.as_mut_ptr().cast(), ptr::null_mut()) },
        CL_INVALID_VALUE,
    );
    // CL_INVALID_VALUE if the size in bytes specified by param_value_size is
    // < size of return type and param_value is not a NULL value.
    // SAFETY: as above.
    expect_err(
        unsafe { clGetPlatformInfo(p, CL_PLATFORM_NAME, 2, buf.as_mut_ptr().cast(), ptr::null_mut()) },
        CL_INVALID_VALUE,
    );
}

#[test]
fn extension_function_lookup() {
    let p = platform();
    // SAFETY: NUL-terminated names.
    let f = unsafe { clGetExtensionFunctionAddressForPlatform(p, c"clIcdGetPlatformIDsKHR".as_ptr()) };
    assert!(!f.is_null());
    // SAFETY: as above.
    let f = unsafe { clGetExtensionFunctionAddressForPlatform(p, c"clNoSuchFunctionKHR".as_ptr()) };
    assert!(f.is_null());
}

#[test]
fn get_platform_ids_errors() {
    setup();
    let mut p = ptr::null_mut();
    // CL_INVALID_VALUE if num_entries is equal to zero and platforms is not NULL
    // SAFETY: valid out-pointer.
    expect_err(
        unsafe { clGetPlatformIDs(0, &mut p, ptr::null_mut()) },
        CL_INVALID_VALUE,
    );
    // or if both num_platforms and platforms are NULL.
    // SAFETY: no pointers written.
    expect_err(
        unsafe { clGetPlatformIDs(1, ptr::null_mut(), ptr::null_mut()) },
        CL_INVALID_VALUE,
    );
}
