//! API spec 5.2, 5.4 and 5.5: buffer, sub-buffer and pipe objects, memory
//! object queries, reference counts and destructor callbacks, and image
//! calls given buffers, through the ICD loader (images.rs tests images).

use std::ffi::c_void;
use std::ptr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clift_conformance::*;

const ACCESS: [cl_mem_flags; 4] = [0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY];
const HOST_PTR: [cl_mem_flags; 5] = [
    0,
    CL_MEM_USE_HOST_PTR,
    CL_MEM_ALLOC_HOST_PTR,
    CL_MEM_COPY_HOST_PTR,
    CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR,
];
const HOST_ACCESS: [cl_mem_flags; 4] = [0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS];

/// clCreateBuffer, returning the error code on failure.
fn try_buffer(c: cl_context, flags: cl_mem_flags, size: usize, host: *mut c_void) -> Result<cl_mem, cl_int> {
    let mut err = 1;
    // SAFETY: `host` is NULL or points to at least `size` bytes that outlive
    // the buffer (callers keep their arrays alive until they release it).
    let m = unsafe { clCreateBuffer(c, flags, size, host, &mut err) };
    if err == CL_SUCCESS {
        assert!(!m.is_null());
        Ok(m)
    } else {
        assert!(m.is_null(), "a failed create returns NULL");
        Err(err)
    }
}

fn mem_props(m: cl_mem) -> Vec<u8> {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_bytes(|s, v, r| unsafe { clGetMemObjectInfo(m, CL_MEM_PROPERTIES, s, v, r) }).expect("CL_MEM_PROPERTIES")
}

#[test]
fn every_allowed_flag_combination_creates_a_buffer() {
    let c = context();
    let q = default_queue(c);
    let mut host = pattern_bytes(256, 7);
    for a in ACCESS {
        for h in HOST_PTR {
            for ha in HOST_ACCESS {
                let flags = a | h | ha;
                let wants_ptr = h & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
                let hp = if wants_ptr {
                    host.as_mut_ptr().cast()
                } else {
                    ptr::null_mut()
                };
                let m = try_buffer(c, flags, 256, hp).unwrap_or_else(|e| panic!("flags {flags:#x}: {}", error_name(e)));
                assert_eq!(mem_value::<cl_mem_object_type>(m, CL_MEM_TYPE), CL_MEM_OBJECT_BUFFER);
                assert_eq!(mem_value::<cl_mem_flags>(m, CL_MEM_FLAGS), flags);
                assert_eq!(mem_value::<usize>(m, CL_MEM_SIZE), 256);
                let hp_info = mem_value::<*mut c_void>(m, CL_MEM_HOST_PTR);
                if h & CL_MEM_USE_HOST_PTR != 0 {
                    assert_eq!(hp_info, hp);
                } else {
                    assert!(hp_info.is_null());
                }
                // The initial contents come from host_ptr with USE and COPY.
                if wants_ptr && ha & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) == 0 {
                    assert_eq!(read_bytes(q, m, 0, 256), host, "flags {flags:#x}");
                }
                release_mem(m);
            }
        }
    }
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

#[test]
fn disallowed_flag_combinations_are_invalid_values() {
    let c = context();
    let mut host = [0u8; 64];
    let bad = [
        // CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY are
        // mutually exclusive; CL_MEM_READ_WRITE and CL_MEM_WRITE_ONLY too.
        CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
        CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY,
        CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY,
        CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY,
        // CL_MEM_USE_HOST_PTR with CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR.
        CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
        CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
        // The host-access flags are mutually exclusive.
        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
        CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
        // Flags that are not buffer flags.
        CL_MEM_KERNEL_READ_AND_WRITE,
        CL_MEM_SVM_FINE_GRAIN_BUFFER,
        CL_MEM_SVM_ATOMICS,
        1 << 40,
    ];
    for flags in bad {
        let hp = if flags & CL_MEM_USE_HOST_PTR != 0 {
            host.as_mut_ptr().cast()
        } else {
            ptr::null_mut()
        };
        assert_eq!(try_buffer(c, flags, 64, hp), Err(CL_INVALID_VALUE), "flags {flags:#x}");
    }
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn buffer_creation_errors() {
    let c = context();
    let mut host = [0u8; 64];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    let mut err = 0;
    // CL_INVALID_CONTEXT if context is not a valid context.
    // SAFETY: no pointer is dereferenced for a NULL context.
    let m = unsafe { clCreateBuffer(ptr::null_mut(), 0, 64, ptr::null_mut(), &mut err) };
    assert!(m.is_null());
    expect_err(err, CL_INVALID_CONTEXT);
    // CL_INVALID_BUFFER_SIZE if size is 0, or greater than
    // CL_DEVICE_MAX_MEM_ALLOC_SIZE.
    assert_eq!(try_buffer(c, 0, 0, ptr::null_mut()), Err(CL_INVALID_BUFFER_SIZE));
    let max: cl_ulong = device_value(device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    assert_eq!(
        try_buffer(c, 0, max as usize + 1, ptr::null_mut()),
        Err(CL_INVALID_BUFFER_SIZE)
    );
    // CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR are set; if host_ptr is not NULL but they are not.
    assert_eq!(
        try_buffer(c, CL_MEM_USE_HOST_PTR, 64, ptr::null_mut()),
        Err(CL_INVALID_HOST_PTR)
    );
    assert_eq!(
        try_buffer(c, CL_MEM_COPY_HOST_PTR, 64, ptr::null_mut()),
        Err(CL_INVALID_HOST_PTR)
    );
    assert_eq!(try_buffer(c, 0, 64, hp), Err(CL_INVALID_HOST_PTR));
    assert_eq!(try_buffer(c, CL_MEM_ALLOC_HOST_PTR, 64, hp), Err(CL_INVALID_HOST_PTR));
    // errcode_ret may be NULL.
    // SAFETY: valid context, no host pointer.
    let m = unsafe { clCreateBuffer(c, 0, 64, ptr::null_mut(), ptr::null_mut()) };
    assert!(!m.is_null());
    release_mem(m);
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn create_buffer_with_properties() {
    let c = context();
    let q = default_queue(c);
    let mut err = 0;
    let mut host = pattern_bytes(128, 3);
    // SAFETY: NULL properties; host array outlives the buffer.
    let m = unsafe {
        clCreateBufferWithProperties(
            c,
            ptr::null(),
            CL_MEM_COPY_HOST_PTR,
            128,
            host.as_mut_ptr().cast(),
            &mut err,
        )
    };
    check(err);
    // If properties was NULL, param_value_size_ret is 0.
    assert!(mem_props(m).is_empty());
    assert_eq!(read_bytes(q, m, 0, 128), host);
    release_mem(m);
    // An empty list is returned as given: just its terminator.
    let empty: [cl_mem_properties; 1] = [0];
    // SAFETY: zero-terminated list.
    let m = unsafe { clCreateBufferWithProperties(c, empty.as_ptr(), 0, 128, ptr::null_mut(), &mut err) };
    check(err);
    assert_eq!(mem_props(m), 0u64.to_ne_bytes().to_vec());
    release_mem(m);
    // CL_INVALID_PROPERTY if a property name in properties is not a supported
    // property name (OpenCL defines none for buffers).
    let props: [cl_mem_properties; 3] = [0x4242, 1, 0];
    // SAFETY: zero-terminated list.
    let m = unsafe { clCreateBufferWithProperties(c, props.as_ptr(), 0, 128, ptr::null_mut(), &mut err) };
    assert!(m.is_null());
    expect_err(err, CL_INVALID_PROPERTY);
    // CL_INVALID_CONTEXT comes first.
    // SAFETY: as above.
    let m = unsafe { clCreateBufferWithProperties(ptr::null_mut(), props.as_ptr(), 0, 128, ptr::null_mut(), &mut err) };
    assert!(m.is_null());
    expect_err(err, CL_INVALID_CONTEXT);
    // The flag and size rules are those of clCreateBuffer.
    // SAFETY: NULL properties.
    let m = unsafe {
        clCreateBufferWithProperties(
            c,
            ptr::null(),
            CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
            128,
            ptr::null_mut(),
            &mut err,
        )
    };
    assert!(m.is_null());
    expect_err(err, CL_INVALID_VALUE);
    // SAFETY: as above.
    let m = unsafe { clCreateBufferWithProperties(c, ptr::null(), 0, 0, ptr::null_mut(), &mut err) };
    assert!(m.is_null());
    expect_err(err, CL_INVALID_BUFFER_SIZE);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

#[test]
fn mem_object_info_answers_every_param() {
    let c = context();
    let m = buffer(c, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 1000);
    assert_eq!(mem_value::<cl_mem_object_type>(m, CL_MEM_TYPE), CL_MEM_OBJECT_BUFFER);
    assert_eq!(
        mem_value::<cl_mem_flags>(m, CL_MEM_FLAGS),
        CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS
    );
    assert_eq!(mem_value::<usize>(m, CL_MEM_SIZE), 1000);
    assert!(mem_value::<*mut c_void>(m, CL_MEM_HOST_PTR).is_null());
    assert_eq!(mem_value::<cl_uint>(m, CL_MEM_MAP_COUNT), 0);
    assert_eq!(mem_value::<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 1);
    assert_eq!(mem_value::<cl_context>(m, CL_MEM_CONTEXT), c);
    assert!(mem_value::<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT).is_null());
    assert_eq!(mem_value::<usize>(m, CL_MEM_OFFSET), 0);
    assert_eq!(mem_value::<cl_bool>(m, CL_MEM_USES_SVM_POINTER), CL_FALSE);
    assert!(mem_props(m).is_empty());
    let mut small = 0u16;
    let mut size_ret = 0usize;
    // SAFETY: every buffer passed is valid for the size given.
    unsafe {
        // Size only.
        check(clGetMemObjectInfo(m, CL_MEM_SIZE, 0, ptr::null_mut(), &mut size_ret));
        assert_eq!(size_ret, std::mem::size_of::<usize>());
        // CL_INVALID_VALUE if param_name is not one of the supported values,
        // or if param_value_size is less than the size of the return type and
        // param_value is not NULL.
        expect_err(
            clGetMemObjectInfo(m, 0x4242, 2, (&mut small as *mut u16).cast(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clGetMemObjectInfo(m, CL_MEM_SIZE, 2, (&mut small as *mut u16).cast(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        // CL_INVALID_MEM_OBJECT if memobj is a not a valid memory object.
        expect_err(
            clGetMemObjectInfo(ptr::null_mut(), CL_MEM_SIZE, 0, ptr::null_mut(), &mut size_ret),
            CL_INVALID_MEM_OBJECT,
        );
        expect_err(
            clGetMemObjectInfo(c as cl_mem, CL_MEM_SIZE, 0, ptr::null_mut(), &mut size_ret),
            CL_INVALID_MEM_OBJECT,
        );
    }
    // Retain and release move the reference count; at zero the handle is gone.
    // SAFETY: valid handle.
    check(unsafe { clRetainMemObject(m) });
    assert_eq!(mem_value::<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 2);
    release_mem(m);
    assert_eq!(mem_value::<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 1);
    release_mem(m);
    // SAFETY: the handle is stale; clift must answer without using it.
    unsafe {
        expect_err(clRetainMemObject(m), CL_INVALID_MEM_OBJECT);
        expect_err(clReleaseMemObject(m), CL_INVALID_MEM_OBJECT);
        expect_err(clRetainMemObject(ptr::null_mut()), CL_INVALID_MEM_OBJECT);
        check(clReleaseContext(c));
    }
}

#[test]
fn use_host_ptr_aliases_the_application_memory() {
    let c = context();
    let q = default_queue(c);
    let mut host = vec![0u8; 4096];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    let m = try_buffer(c, CL_MEM_USE_HOST_PTR, 4096, hp).expect("USE_HOST_PTR buffer");
    // A write through the API lands in the application's array.
    let data = pattern_bytes(100, 9);
    write_bytes(q, m, 300, &data);
    assert_eq!(&host[300..400], &data[..]);
    // A change in the array is seen by the buffer.
    host[1000] = 0xab;
    assert_eq!(read_bytes(q, m, 1000, 1), vec![0xab]);
    // A map returns a pointer into the application's memory.
    let mut err = 0;
    // SAFETY: valid handles; blocking map.
    let p = unsafe {
        clEnqueueMapBuffer(
            q,
            m,
            CL_TRUE,
            CL_MAP_READ | CL_MAP_WRITE,
            512,
            256,
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut err,
        )
    };
    check(err);
    assert_eq!(p as usize, hp as usize + 512);
    // SAFETY: `p` maps 256 writable bytes of the buffer (which is `host`).
    unsafe { *(p as *mut u8).add(3) = 0x5a };
    // SAFETY: valid handles; `p` came from the map above.
    check(unsafe { clEnqueueUnmapMemObject(q, m, p, 0, ptr::null(), ptr::null_mut()) });
    // SAFETY: valid handle.
    check(unsafe { clFinish(q) });
    assert_eq!(read_bytes(q, m, 515, 1), vec![0x5a]);
    assert_eq!(host[515], 0x5a);
    release_mem(m);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
    drop(host);
}

#[test]
fn copy_host_ptr_copies_at_creation() {
    let c = context();
    let q = default_queue(c);
    let mut host = pattern_bytes(512, 1);
    let m = try_buffer(c, CL_MEM_COPY_HOST_PTR, 512, host.as_mut_ptr().cast()).expect("COPY_HOST_PTR buffer");
    let original = host.clone();
    host.iter_mut().for_each(|b| *b = 0);
    assert_eq!(read_bytes(q, m, 0, 512), original);
    write_bytes(q, m, 0, &[9; 16]);
    assert!(host.iter().all(|&b| b == 0), "the buffer has its own copy");
    release_mem(m);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

#[test]
fn sub_buffers_share_their_parent_and_report_it() {
    let c = context();
    let q = default_queue(c);
    let align_bits: cl_uint = device_value(device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    let align = align_bits as usize / 8;
    assert_eq!(align, 128);
    let mut host = pattern_bytes(8 * align, 5);
    let hp: *mut c_void = host.as_mut_ptr().cast();
    let parent_flags = CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY;
    let parent = try_buffer(c, parent_flags, 8 * align, hp).expect("parent");
    let sub = sub_buffer(parent, 0, 2 * align, 3 * align).expect("sub-buffer");
    // The contents are the parent's region.
    assert_eq!(read_bytes(q, sub, 0, 3 * align), host[2 * align..5 * align].to_vec());
    // Info: type, inherited flags, size, host_ptr + origin, parent, offset.
    assert_eq!(mem_value::<cl_mem_object_type>(sub, CL_MEM_TYPE), CL_MEM_OBJECT_BUFFER);
    assert_eq!(mem_value::<cl_mem_flags>(sub, CL_MEM_FLAGS), parent_flags);
    assert_eq!(mem_value::<usize>(sub, CL_MEM_SIZE), 3 * align);
    assert_eq!(mem_value::<usize>(sub, CL_MEM_HOST_PTR), hp as usize + 2 * align);
    assert_eq!(mem_value::<cl_mem>(sub, CL_MEM_ASSOCIATED_MEMOBJECT), parent);
    assert_eq!(mem_value::<usize>(sub, CL_MEM_OFFSET), 2 * align);
    assert_eq!(mem_value::<cl_context>(sub, CL_MEM_CONTEXT), c);
    assert_eq!(mem_value::<cl_uint>(sub, CL_MEM_REFERENCE_COUNT), 1);
    // Host access is inherited: HOST_READ_ONLY forbids writes.
    let one = [1u8];
    // SAFETY: `one` is readable during the blocking call.
    expect_err(
        unsafe {
            clEnqueueWriteBuffer(
                q,
                sub,
                CL_TRUE,
                0,
                1,
                one.as_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        },
        CL_INVALID_OPERATION,
    );
    // A flag the parent allows narrows the sub-buffer's.
    let sub2 = sub_buffer(parent, CL_MEM_HOST_NO_ACCESS, 0, align).expect("narrower sub-buffer");
    assert_eq!(
        mem_value::<cl_mem_flags>(sub2, CL_MEM_FLAGS),
        CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_NO_ACCESS
    );
    release_mem(sub2);
    // Writes through a sub-buffer show in the parent.
    let rw = buffer(c, CL_MEM_READ_WRITE, 4 * align);
    write_bytes(q, rw, 0, &vec![0u8; 4 * align]);
    let rw_sub = sub_buffer(rw, CL_MEM_WRITE_ONLY, align, align).expect("WRITE_ONLY sub of READ_WRITE");
    write_bytes(q, rw_sub, 5, &[7, 8, 9]);
    assert_eq!(read_bytes(q, rw, align + 5, 3), vec![7, 8, 9]);
    // The parent may be released first; the sub-buffer keeps working.
    release_mem(rw);
    assert_eq!(read_bytes(q, rw_sub, 5, 3), vec![7, 8, 9]);
    release_mem(rw_sub);
    release_mem(sub);
    release_mem(parent);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
    drop(host);
}

#[test]
fn sub_buffer_errors() {
    let c = context();
    let parent = buffer(c, CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, 1024);
    let ro = buffer(c, CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 1024);
    let hro = buffer(c, CL_MEM_HOST_READ_ONLY, 1024);
    // CL_MISALIGNED_SUB_BUFFER_OFFSET if origin is not aligned to
    // CL_DEVICE_MEM_BASE_ADDR_ALIGN.
    assert_eq!(sub_buffer(parent, 0, 1, 16), Err(CL_MISALIGNED_SUB_BUFFER_OFFSET));
    assert_eq!(sub_buffer(parent, 0, 64, 16), Err(CL_MISALIGNED_SUB_BUFFER_OFFSET));
    // CL_INVALID_BUFFER_SIZE if the size field is zero.
    assert_eq!(sub_buffer(parent, 0, 0, 0), Err(CL_INVALID_BUFFER_SIZE));
    // CL_INVALID_VALUE if the region is out of bounds in buffer.
    assert_eq!(sub_buffer(parent, 0, 512, 513), Err(CL_INVALID_VALUE));
    assert_eq!(sub_buffer(parent, 0, 2048, 1), Err(CL_INVALID_VALUE));
    assert_eq!(sub_buffer(parent, 0, 128, usize::MAX), Err(CL_INVALID_VALUE));
    // buffer was created with CL_MEM_WRITE_ONLY and flags specifies
    // CL_MEM_READ_WRITE or CL_MEM_READ_ONLY.
    assert_eq!(sub_buffer(parent, CL_MEM_READ_WRITE, 0, 16), Err(CL_INVALID_VALUE));
    assert_eq!(sub_buffer(parent, CL_MEM_READ_ONLY, 0, 16), Err(CL_INVALID_VALUE));
    // buffer was created with CL_MEM_READ_ONLY and flags specifies
    // CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY.
    assert_eq!(sub_buffer(ro, CL_MEM_READ_WRITE, 0, 16), Err(CL_INVALID_VALUE));
    assert_eq!(sub_buffer(ro, CL_MEM_WRITE_ONLY, 0, 16), Err(CL_INVALID_VALUE));
    // CL_MEM_HOST_WRITE_ONLY parent and CL_MEM_HOST_READ_ONLY flags, and
    // the reverse; CL_MEM_HOST_NO_ACCESS parent and either.
    assert_eq!(sub_buffer(ro, CL_MEM_HOST_READ_ONLY, 0, 16), Err(CL_INVALID_VALUE));
    assert_eq!(sub_buffer(hro, CL_MEM_HOST_WRITE_ONLY, 0, 16), Err(CL_INVALID_VALUE));
    assert_eq!(sub_buffer(parent, CL_MEM_HOST_READ_ONLY, 0, 16), Err(CL_INVALID_VALUE));
    assert_eq!(sub_buffer(parent, CL_MEM_HOST_WRITE_ONLY, 0, 16), Err(CL_INVALID_VALUE));
    // flags specifies CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR.
    for f in [CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR] {
        assert_eq!(sub_buffer(hro, f, 0, 16), Err(CL_INVALID_VALUE));
    }
    // Conflicting flags within flags.
    assert_eq!(
        sub_buffer(hro, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 0, 16),
        Err(CL_INVALID_VALUE)
    );
    let mut err = 0;
    let region = cl_buffer_region { origin: 0, size: 16 };
    // SAFETY: `region` is valid for the calls; the others pass NULL.
    unsafe {
        // CL_INVALID_VALUE if the value specified in buffer_create_type is not
        // valid; if buffer_create_info is NULL.
        let m = clCreateSubBuffer(hro, 0, 0x4242, (&region as *const cl_buffer_region).cast(), &mut err);
        assert!(m.is_null());
        expect_err(err, CL_INVALID_VALUE);
        let m = clCreateSubBuffer(hro, 0, CL_BUFFER_CREATE_TYPE_REGION, ptr::null(), &mut err);
        assert!(m.is_null());
        expect_err(err, CL_INVALID_VALUE);
        // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object.
        let m = clCreateSubBuffer(
            ptr::null_mut(),
            0,
            CL_BUFFER_CREATE_TYPE_REGION,
            (&region as *const cl_buffer_region).cast(),
            &mut err,
        );
        assert!(m.is_null());
        expect_err(err, CL_INVALID_MEM_OBJECT);
    }
    // CL_INVALID_MEM_OBJECT if buffer is a sub-buffer object.
    let sub = sub_buffer(hro, 0, 128, 256).expect("sub-buffer");
    assert_eq!(sub_buffer(sub, 0, 0, 16), Err(CL_INVALID_MEM_OBJECT));
    for m in [sub, parent, ro, hro] {
        release_mem(m);
    }
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(c) });
}

/// What a destructor callback records: which registration ran, and for
/// which memory object.
struct Tag {
    log: Arc<Mutex<Vec<(usize, usize)>>>,
    id: usize,
}

extern "C" fn on_destroy(m: cl_mem, user: *mut c_void) {
    // SAFETY: `user` is a `Tag` the test keeps alive until after the object
    // is destroyed.
    let tag = unsafe { &*(user as *const Tag) };
    tag.log.lock().unwrap().push((tag.id, m as usize));
}

fn set_destructor(m: cl_mem, tag: &Tag) {
    // SAFETY: the callback matches the signature; `tag` outlives the object
    // (the tests wait for the callbacks before dropping it).
    check(unsafe { clSetMemObjectDestructorCallback(m, Some(on_destroy), (tag as *const Tag).cast_mut().cast()) });
}

fn wait_for_len(log: &Mutex<Vec<(usize, usize)>>, n: usize) -> bool {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(5) {
        if log.lock().unwrap().len() >= n {
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

#[test]
fn destructor_callbacks_run_in_reverse_order_on_release() {
    let c = context();
    let log = Arc::new(Mutex::new(Vec::new()));
    let tags: Vec<Tag> = (1..=3).map(|id| Tag { log: log.clone(), id }).collect();
    let m = buffer(c, 0, 64);
    for t in &tags {
        set_destructor(m, t);
    }
    // SAFETY: valid handle: a retain keeps the object past one release.
    check(unsafe { clRetainMemObject(m) });
    release_mem(m);
    assert!(log.lock().unwrap().is_empty(), "still referenced");
    release_mem(m);
    // The registered callback functions are called in the reverse order in
    // which they were registered, with the memory object being deleted.
    assert_eq!(
        *log.lock().unwrap(),
        vec![(3, m as usize), (2, m as usize), (1, m as usize)]
    );
    // Errors: CL_INVALID_VALUE if pfn_notify is NULL; CL_INVALID_MEM_OBJECT
    // if memobj is not a valid memory object.
    let m2 = buffer(c, 0, 64);
    // SAFETY: NULL callback and stale handle are rejected before use.
    unsafe {
        expect_err(
            clSetMemObjectDestructorCallback(m2, None, ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clSetMemObjectDestructorCallback(m, Some(on_destroy), ptr::null_mut()),
            CL_INVALID_MEM_OBJECT,
        );
    }
    release_mem(m2);
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn destructor_waits_for_commands_using_the_object() {
    let c = context();
    let q = default_queue(c);
    let log = Arc::new(Mutex::new(Vec::new()));
    let tag = Tag {
        log: log.clone(),
        id: 1,
    };
    let mut host = vec![0u8; 256];
    let m = try_buffer(c, CL_MEM_USE_HOST_PTR, 256, host.as_mut_ptr().cast()).expect("buffer");
    set_destructor(m, &tag);
    let gate = new_user_event(c);
    let data = pattern_bytes(256, 2);
    let mut ev = ptr::null_mut();
    // SAFETY: `data` outlives the command (the test waits for it below).
    check(unsafe { clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 256, data.as_ptr().cast(), 1, &gate, &mut ev) });
    // After the memobj reference count becomes zero and commands queued for
    // execution that use memobj have finished, the memory object is deleted.
    release_mem(m);
    std::thread::sleep(Duration::from_millis(50));
    assert!(
        log.lock().unwrap().is_empty(),
        "a pending command still uses the buffer"
    );
    // SAFETY: valid handles.
    unsafe {
        check(clSetUserEventStatus(gate, CL_COMPLETE));
        check(clWaitForEvents(1, &ev));
    }
    assert!(wait_for_len(&log, 1), "the callback runs once the command finished");
    assert_eq!(host, data, "the write reached the host memory before the callback");
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseEvent(ev));
        check(clReleaseEvent(gate));
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

#[test]
fn a_buffer_outlives_its_sub_buffers() {
    let c = context();
    let log = Arc::new(Mutex::new(Vec::new()));
    let (tp, ts) = (
        Tag {
            log: log.clone(),
            id: 1,
        },
        Tag {
            log: log.clone(),
            id: 2,
        },
    );
    let parent = buffer(c, 0, 1024);
    let sub = sub_buffer(parent, 0, 256, 256).expect("sub-buffer");
    set_destructor(parent, &tp);
    set_destructor(sub, &ts);
    // If memobj is a buffer object, memobj cannot be deleted until all
    // sub-buffer objects associated with memobj are deleted.
    release_mem(parent);
    assert!(log.lock().unwrap().is_empty());
    release_mem(sub);
    let order: Vec<usize> = log.lock().unwrap().iter().map(|e| e.0).collect();
    assert_eq!(order, vec![2, 1]);
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(c) });
}

fn try_pipe(c: cl_context, flags: cl_mem_flags, packet: cl_uint, max: cl_uint) -> Result<cl_mem, cl_int> {
    let mut err = 1;
    // SAFETY: NULL properties.
    let m = unsafe { clCreatePipe(c, flags, packet, max, ptr::null(), &mut err) };
    if err == CL_SUCCESS {
        Ok(m)
    } else {
        assert!(m.is_null());
        Err(err)
    }
}

fn pipe_value<T: Copy>(p: cl_mem, param: cl_pipe_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetPipeInfo(p, param, s, v, r) })
}

#[test]
fn pipes_create_and_answer_queries() {
    let c = context();
    for flags in [
        0,
        CL_MEM_READ_WRITE,
        CL_MEM_HOST_NO_ACCESS,
        CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS,
    ] {
        let p = try_pipe(c, flags, 16, 100).expect("pipe");
        assert_eq!(mem_value::<cl_mem_object_type>(p, CL_MEM_TYPE), CL_MEM_OBJECT_PIPE);
        assert_eq!(mem_value::<cl_mem_flags>(p, CL_MEM_FLAGS), flags);
        assert!(mem_value::<usize>(p, CL_MEM_SIZE) >= 1600);
        assert_eq!(mem_value::<cl_context>(p, CL_MEM_CONTEXT), c);
        assert_eq!(pipe_value::<cl_uint>(p, CL_PIPE_PACKET_SIZE), 16);
        assert_eq!(pipe_value::<cl_uint>(p, CL_PIPE_MAX_PACKETS), 100);
        let mut size = 1usize;
        // SAFETY: size-only query.
        check(unsafe { clGetPipeInfo(p, CL_PIPE_PROPERTIES, 0, ptr::null_mut(), &mut size) });
        assert_eq!(size, 0, "properties was NULL");
        // SAFETY: size-only query with a bad name.
        expect_err(
            unsafe { clGetPipeInfo(p, 0x4242, 0, ptr::null_mut(), &mut size) },
            CL_INVALID_VALUE,
        );
        release_mem(p);
    }
    let max_packet: cl_uint = device_value(device(), CL_DEVICE_PIPE_MAX_PACKET_SIZE);
    assert!(try_pipe(c, 0, max_packet, 1).is_ok_and(|p| {
        release_mem(p);
        true
    }));
    // CL_INVALID_VALUE if values specified in flags are not as defined above.
    for f in [
        CL_MEM_READ_ONLY,
        CL_MEM_WRITE_ONLY,
        CL_MEM_HOST_READ_ONLY,
        CL_MEM_USE_HOST_PTR,
    ] {
        assert_eq!(try_pipe(c, f, 4, 4), Err(CL_INVALID_VALUE));
    }
    // CL_INVALID_PIPE_SIZE if pipe_packet_size is 0 or exceeds
    // CL_DEVICE_PIPE_MAX_PACKET_SIZE, or if pipe_max_packets is 0.
    assert_eq!(try_pipe(c, 0, 0, 4), Err(CL_INVALID_PIPE_SIZE));
    assert_eq!(try_pipe(c, 0, max_packet + 1, 4), Err(CL_INVALID_PIPE_SIZE));
    assert_eq!(try_pipe(c, 0, 4, 0), Err(CL_INVALID_PIPE_SIZE));
    let mut err = 0;
    let props: [cl_pipe_properties; 1] = [0];
    // SAFETY: valid or NULL arguments.
    unsafe {
        // CL_INVALID_VALUE if properties is not NULL.
        assert!(clCreatePipe(c, 0, 4, 4, props.as_ptr(), &mut err).is_null());
        expect_err(err, CL_INVALID_VALUE);
        // CL_INVALID_CONTEXT if context is not a valid context.
        assert!(clCreatePipe(ptr::null_mut(), 0, 4, 4, ptr::null(), &mut err).is_null());
        expect_err(err, CL_INVALID_CONTEXT);
    }
    // CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object.
    let b = buffer(c, 0, 64);
    let mut v: cl_uint = 0;
    // SAFETY: `v` has room for a cl_uint.
    expect_err(
        unsafe {
            clGetPipeInfo(
                b,
                CL_PIPE_PACKET_SIZE,
                4,
                (&mut v as *mut cl_uint).cast(),
                ptr::null_mut(),
            )
        },
        CL_INVALID_MEM_OBJECT,
    );
    // Pipes are not accessible from the host and are not buffers.
    let p = try_pipe(c, 0, 4, 16).expect("pipe");
    let q = default_queue(c);
    let mut out = [0u8; 4];
    // SAFETY: `out` has room for 4 bytes.
    expect_err(
        unsafe {
            clEnqueueReadBuffer(
                q,
                p,
                CL_TRUE,
                0,
                4,
                out.as_mut_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        },
        CL_INVALID_MEM_OBJECT,
    );
    assert_eq!(sub_buffer(p, 0, 0, 4), Err(CL_INVALID_MEM_OBJECT));
    release_mem(p);
    release_mem(b);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

#[test]
fn image_calls_refuse_buffers() {
    let c = context();
    let q = default_queue(c);
    let b = buffer(c, 0, 256);
    let mut err = 0;
    let origin = [0usize; 3];
    let region = [1usize, 1, 1];
    let mut pixel = [0u8; 4];
    // SAFETY: every pointer is valid for what the call reads or writes.
    unsafe {
        // CL_INVALID_MEM_OBJECT if image is not a valid image object: a
        // buffer is not one (images.rs tests images).
        let mut w = 0usize;
        expect_err(
            clGetImageInfo(b, CL_IMAGE_WIDTH, 8, (&mut w as *mut usize).cast(), ptr::null_mut()),
            CL_INVALID_MEM_OBJECT,
        );
        expect_err(
            clEnqueueReadImage(
                q,
                b,
                CL_TRUE,
                origin.as_ptr(),
                region.as_ptr(),
                0,
                0,
                pixel.as_mut_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        expect_err(
            clEnqueueWriteImage(
                q,
                b,
                CL_TRUE,
                origin.as_ptr(),
                region.as_ptr(),
                0,
                0,
                pixel.as_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        expect_err(
            clEnqueueCopyImageToBuffer(
                q,
                b,
                b,
                origin.as_ptr(),
                region.as_ptr(),
                0,
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        expect_err(
            clEnqueueCopyBufferToImage(
                q,
                b,
                b,
                0,
                origin.as_ptr(),
                region.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        expect_err(
            clEnqueueFillImage(
                q,
                b,
                pixel.as_ptr().cast(),
                origin.as_ptr(),
                region.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        let mut pitch = 0usize;
        assert!(clEnqueueMapImage(
            q,
            b,
            CL_TRUE,
            CL_MAP_READ,
            origin.as_ptr(),
            region.as_ptr(),
            &mut pitch,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut err
        )
        .is_null());
        expect_err(err, CL_INVALID_MEM_OBJECT);
        // CL_INVALID_COMMAND_QUEUE comes first.
        expect_err(
            clEnqueueCopyImage(
                ptr::null_mut(),
                b,
                b,
                origin.as_ptr(),
                origin.as_ptr(),
                region.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_COMMAND_QUEUE,
        );
    }
    release_mem(b);
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}
