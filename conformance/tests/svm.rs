//! API spec 5.6: shared virtual memory, through the ICD loader:
//! clSVMAlloc/clSVMFree, the SVM commands, and buffers over SVM pointers.

use std::ffi::c_void;
use std::ptr;
use std::sync::Mutex;

use clift_conformance::*;

fn svm_alloc(c: cl_context, flags: cl_svm_mem_flags, size: usize, alignment: cl_uint) -> *mut u8 {
    // SAFETY: clSVMAlloc takes no pointers; it returns NULL on failure.
    unsafe { clSVMAlloc(c, flags, size, alignment) }.cast()
}

fn svm_free(c: cl_context, p: *mut u8) {
    // SAFETY: `p` is NULL or came from clSVMAlloc on `c` and is no longer used.
    unsafe { clSVMFree(c, p.cast()) };
}

fn caps() -> cl_device_svm_capabilities {
    device_value(device(), CL_DEVICE_SVM_CAPABILITIES)
}

fn memcpy(
    q: cl_command_queue,
    blocking: bool,
    dst: *mut u8,
    src: *const u8,
    size: usize,
    wait: &[cl_event],
) -> Result<cl_event, cl_int> {
    let (n, list) = wait_args(wait);
    let mut ev = ptr::null_mut();
    let b = if blocking { CL_TRUE } else { CL_FALSE };
    // SAFETY: callers pass SVM or host ranges of `size` bytes that outlive
    // the command (they wait for non-blocking copies).
    let rc = unsafe { clEnqueueSVMMemcpy(q, b, dst.cast(), src.cast(), size, n, list, &mut ev) };
    if rc == CL_SUCCESS {
        Ok(ev)
    } else {
        assert!(ev.is_null());
        Err(rc)
    }
}

fn wait_release(ev: cl_event) {
    // SAFETY: a valid event owned by the test.
    unsafe {
        check(clWaitForEvents(1, &ev));
        check(clReleaseEvent(ev));
    }
}

fn command_type(ev: cl_event) -> cl_command_type {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, s, v, r) })
}

fn teardown(q: cl_command_queue, c: cl_context) {
    // SAFETY: valid handles owned by the test.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

#[test]
fn svm_alloc_and_free() {
    let c = context();
    let q = default_queue(c);
    let caps = caps();
    assert!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER != 0);
    let mut flag_sets = vec![0, CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY];
    if caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER != 0 {
        flag_sets.push(CL_MEM_SVM_FINE_GRAIN_BUFFER);
        flag_sets.push(CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_READ_WRITE);
    }
    for flags in flag_sets {
        for alignment in [0, 1, 8, 128, 4096] {
            let p = svm_alloc(c, flags, 1000, alignment);
            assert!(!p.is_null(), "flags {flags:#x} alignment {alignment}");
            // If alignment is 0, a default alignment equal to the size of the
            // largest data type (long16) is used.
            assert_eq!(p as usize % (alignment.max(128) as usize), 0);
            // The host uses the memory directly.
            // SAFETY: the allocation holds 1000 bytes.
            unsafe { ptr::write_bytes(p, 0x3c, 1000) };
            let mut out = vec![0u8; 1000];
            wait_release(memcpy(q, true, out.as_mut_ptr(), p, 1000, &[]).expect("memcpy"));
            assert!(out.iter().all(|&b| b == 0x3c));
            svm_free(c, p);
        }
    }
    // Atomics only with fine-grained buffers, and only when supported.
    let atomics = svm_alloc(c, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 64, 0);
    assert_eq!(atomics.is_null(), caps & CL_DEVICE_SVM_ATOMICS == 0);
    svm_free(c, atomics);
    // clSVMAlloc fails (returns NULL) if: context is not valid; flags has
    // CL_MEM_SVM_ATOMICS without CL_MEM_SVM_FINE_GRAIN_BUFFER; flags break the
    // table's rules or hold unknown values; size is 0 or above
    // CL_DEVICE_MAX_MEM_ALLOC_SIZE; alignment is not a power of two.
    let max: cl_ulong = device_value(device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    assert!(svm_alloc(ptr::null_mut(), 0, 64, 0).is_null());
    assert!(svm_alloc(c, CL_MEM_SVM_ATOMICS, 64, 0).is_null());
    assert!(svm_alloc(c, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0).is_null());
    assert!(svm_alloc(c, CL_MEM_USE_HOST_PTR, 64, 0).is_null());
    assert!(svm_alloc(c, 1 << 30, 64, 0).is_null());
    assert!(svm_alloc(c, 0, 0, 0).is_null());
    assert!(svm_alloc(c, 0, max as usize + 1, 0).is_null());
    assert!(svm_alloc(c, 0, 64, 3).is_null());
    assert!(svm_alloc(c, 0, 64, 96).is_null());
    // clSVMFree with NULL does nothing; so do foreign pointers and contexts.
    svm_free(c, ptr::null_mut());
    let mut local = 0u8;
    svm_free(c, &mut local);
    svm_free(ptr::null_mut(), ptr::null_mut());
    teardown(q, c);
}

#[test]
fn svm_memcpy_between_svm_and_host_memory() {
    let c = context();
    let q = default_queue(c);
    let a = svm_alloc(c, 0, 4096, 0);
    let b = svm_alloc(c, CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 0);
    assert!(!a.is_null() && !b.is_null());
    let data = pattern_bytes(4096, 4);
    // Host to SVM, blocking.
    wait_release(memcpy(q, true, a, data.as_ptr(), 4096, &[]).expect("host to svm"));
    // SVM to SVM, non-blocking, then SVM to host after it.
    let e1 = memcpy(q, false, b, a, 4096, &[]).expect("svm to svm");
    assert_eq!(command_type(e1), CL_COMMAND_SVM_MEMCPY);
    let mut out = vec![0u8; 4096];
    let e2 = memcpy(q, false, out.as_mut_ptr(), b, 4096, &[e1]).expect("svm to host");
    wait_release(e2);
    wait_release(e1);
    assert_eq!(out, data);
    // Within one allocation, disjoint ranges: fine.
    // SAFETY: both ranges lie inside `a`.
    let (a0, a1) = unsafe { (a, a.add(2048)) };
    wait_release(memcpy(q, true, a1, a0, 2048, &[]).expect("disjoint"));
    // CL_MEM_COPY_OVERLAP if dst_ptr, src_ptr and size result in an
    // overlapping copy.
    // SAFETY: the ranges lie inside `a`.
    let a10 = unsafe { a.add(10) };
    assert_eq!(memcpy(q, true, a10, a, 100, &[]), Err(CL_MEM_COPY_OVERLAP));
    assert_eq!(memcpy(q, true, a, a10, 100, &[]), Err(CL_MEM_COPY_OVERLAP));
    // CL_INVALID_VALUE if dst_ptr or src_ptr is NULL.
    assert_eq!(memcpy(q, true, ptr::null_mut(), a, 4, &[]), Err(CL_INVALID_VALUE));
    assert_eq!(memcpy(q, true, a, ptr::null(), 4, &[]), Err(CL_INVALID_VALUE));
    // CL_INVALID_COMMAND_QUEUE; CL_INVALID_EVENT_WAIT_LIST; CL_INVALID_CONTEXT.
    assert_eq!(
        memcpy(ptr::null_mut(), true, b, a, 4, &[]),
        Err(CL_INVALID_COMMAND_QUEUE)
    );
    // SAFETY: the NULL list with a count is rejected before use.
    expect_err(
        unsafe { clEnqueueSVMMemcpy(q, CL_TRUE, b.cast(), a.cast(), 4, 1, ptr::null(), ptr::null_mut()) },
        CL_INVALID_EVENT_WAIT_LIST,
    );
    let other_c = context();
    let other_u = new_user_event(other_c);
    assert_eq!(memcpy(q, true, b, a, 4, &[other_u]), Err(CL_INVALID_CONTEXT));
    // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST for a blocking copy after
    // a failed event.
    let u = new_user_event(c);
    // SAFETY: valid user event.
    check(unsafe { clSetUserEventStatus(u, -5) });
    assert_eq!(
        memcpy(q, true, b, a, 4, &[u]),
        Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    );
    // SAFETY: valid handles.
    unsafe {
        check(clReleaseEvent(u));
        check(clReleaseEvent(other_u));
        check(clReleaseContext(other_c));
    }
    svm_free(c, a);
    svm_free(c, b);
    teardown(q, c);
}

fn mem_fill(q: cl_command_queue, p: *mut u8, pattern: &[u8], size: usize) -> cl_int {
    // SAFETY: `p` covers `size` bytes of an SVM allocation (or is rejected);
    // `pattern` is readable for its length.
    unsafe {
        clEnqueueSVMMemFill(
            q,
            p.cast(),
            pattern.as_ptr().cast(),
            pattern.len(),
            size,
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    }
}

#[test]
fn svm_mem_fill_with_every_pattern_size() {
    let c = context();
    let q = default_queue(c);
    let p = svm_alloc(c, 0, 4096, 0);
    let mut ps = 1;
    while ps <= 128 {
        let pattern = pattern_bytes(ps, ps as u8);
        check(mem_fill(q, p, &[0], 4096));
        // SAFETY: inside the allocation, aligned to `ps` (the allocation is
        // 128-byte aligned).
        let at = unsafe { p.add(ps * 3) };
        check(mem_fill(q, at, &pattern, ps * 4));
        // SAFETY: valid queue.
        check(unsafe { clFinish(q) });
        // SAFETY: the fill completed; the allocation holds 4096 bytes.
        let out = unsafe { std::slice::from_raw_parts(p, 4096) };
        assert!(out[..3 * ps].iter().all(|&b| b == 0));
        for k in 0..4 {
            assert_eq!(&out[(3 + k) * ps..(4 + k) * ps], &pattern[..], "pattern size {ps}");
        }
        assert!(out[7 * ps..].iter().all(|&b| b == 0));
        if ps > 1 {
            // CL_INVALID_VALUE if svm_ptr is not aligned to pattern_size; if
            // size is not a multiple of pattern_size.
            // SAFETY: inside the allocation.
            let odd = unsafe { p.add(1) };
            expect_err(mem_fill(q, odd, &pattern, ps), CL_INVALID_VALUE);
            expect_err(mem_fill(q, p, &pattern, ps + 1), CL_INVALID_VALUE);
        }
        ps *= 2;
    }
    // CL_INVALID_VALUE if svm_ptr or pattern is NULL, or pattern_size is 0,
    // not a power of two, or greater than 128.
    expect_err(mem_fill(q, ptr::null_mut(), &[1], 4), CL_INVALID_VALUE);
    expect_err(mem_fill(q, p, &[], 4), CL_INVALID_VALUE);
    expect_err(mem_fill(q, p, &[1, 2, 3], 6), CL_INVALID_VALUE);
    expect_err(mem_fill(q, p, &[0; 256], 256), CL_INVALID_VALUE);
    // SAFETY: the NULL pattern is rejected before it is read.
    expect_err(
        unsafe { clEnqueueSVMMemFill(q, p.cast(), ptr::null(), 4, 4, 0, ptr::null(), ptr::null_mut()) },
        CL_INVALID_VALUE,
    );
    expect_err(mem_fill(ptr::null_mut(), p, &[1], 4), CL_INVALID_COMMAND_QUEUE);
    svm_free(c, p);
    teardown(q, c);
}

#[test]
fn svm_map_and_unmap() {
    let c = context();
    let q = default_queue(c);
    let p = svm_alloc(c, 0, 1024, 0);
    for blocking in [CL_TRUE, CL_FALSE] {
        let mut ev = ptr::null_mut();
        // SAFETY: `p` is an SVM allocation of 1024 bytes.
        check(unsafe { clEnqueueSVMMap(q, blocking, CL_MAP_WRITE, p.cast(), 1024, 0, ptr::null(), &mut ev) });
        assert_eq!(command_type(ev), CL_COMMAND_SVM_MAP);
        wait_release(ev);
        // SAFETY: mapped for writing.
        unsafe { ptr::write_bytes(p, blocking as u8 + 1, 1024) };
        // SAFETY: as above.
        check(unsafe { clEnqueueSVMUnmap(q, p.cast(), 0, ptr::null(), &mut ev) });
        assert_eq!(command_type(ev), CL_COMMAND_SVM_UNMAP);
        wait_release(ev);
        let mut out = vec![0u8; 1024];
        wait_release(memcpy(q, true, out.as_mut_ptr(), p, 1024, &[]).expect("copy out"));
        assert!(out.iter().all(|&b| b == blocking as u8 + 1));
    }
    // SAFETY: each call passes one bad argument; none is dereferenced.
    unsafe {
        // CL_INVALID_VALUE if svm_ptr is NULL, size is zero, or map_flags are
        // not valid.
        expect_err(
            clEnqueueSVMMap(
                q,
                CL_TRUE,
                CL_MAP_READ,
                ptr::null_mut(),
                4,
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, p.cast(), 0, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueSVMMap(
                q,
                CL_TRUE,
                CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION,
                p.cast(),
                4,
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueSVMMap(q, CL_TRUE, 1 << 9, p.cast(), 4, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueSVMUnmap(q, ptr::null_mut(), 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        // CL_INVALID_COMMAND_QUEUE; CL_INVALID_EVENT_WAIT_LIST.
        expect_err(
            clEnqueueSVMMap(
                ptr::null_mut(),
                CL_TRUE,
                CL_MAP_READ,
                p.cast(),
                4,
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_COMMAND_QUEUE,
        );
        expect_err(
            clEnqueueSVMUnmap(q, p.cast(), 2, ptr::null(), ptr::null_mut()),
            CL_INVALID_EVENT_WAIT_LIST,
        );
    }
    svm_free(c, p);
    teardown(q, c);
}

/// What the free callback saw.
struct FreeLog {
    context: cl_context,
    calls: Mutex<Vec<(usize, Vec<usize>)>>,
}

extern "C" fn free_cb(queue: cl_command_queue, n: cl_uint, ptrs: *mut *mut c_void, user: *mut c_void) {
    // SAFETY: `user` is the test's `FreeLog`, alive until after the command
    // completes; `ptrs` holds `n` pointers during the call.
    unsafe {
        let log = &*(user as *const FreeLog);
        let list: Vec<usize> = std::slice::from_raw_parts(ptrs, n as usize)
            .iter()
            .map(|&p| p as usize)
            .collect();
        for &p in &list {
            clSVMFree(log.context, p as *mut c_void);
        }
        log.calls.lock().unwrap().push((queue as usize, list));
    }
}

#[test]
fn enqueue_svm_free_with_and_without_a_callback() {
    let c = context();
    let q = default_queue(c);
    let (a, b) = (svm_alloc(c, 0, 64, 0), svm_alloc(c, 0, 64, 0));
    let log = FreeLog {
        context: c,
        calls: Mutex::new(Vec::new()),
    };
    let mut ptrs: [*const c_void; 2] = [a.cast(), b.cast()];
    let mut ev = ptr::null_mut();
    // SAFETY: the pointers are SVM allocations; `log` outlives the command.
    check(unsafe {
        clEnqueueSVMFree(
            q,
            2,
            ptrs.as_ptr(),
            Some(free_cb),
            (&log as *const FreeLog).cast_mut().cast(),
            0,
            ptr::null(),
            &mut ev,
        )
    });
    // The memory associated with svm_pointers can be reused after the call.
    ptrs = [ptr::null(); 2];
    assert_eq!(command_type(ev), CL_COMMAND_SVM_FREE);
    wait_release(ev);
    assert_eq!(
        *log.calls.lock().unwrap(),
        vec![(q as usize, vec![a as usize, b as usize])]
    );
    // Without a callback clift frees the pointers itself.
    let d = svm_alloc(c, 0, 64, 0);
    let list: [*const c_void; 1] = [d.cast()];
    // SAFETY: `d` is an SVM allocation no command uses.
    check(unsafe { clEnqueueSVMFree(q, 1, list.as_ptr(), None, ptr::null_mut(), 0, ptr::null(), &mut ev) });
    wait_release(ev);
    // An empty list is valid.
    // SAFETY: no pointers.
    check(unsafe {
        clEnqueueSVMFree(
            q,
            0,
            ptr::null(),
            None,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    });
    // SAFETY: each call passes one bad argument.
    unsafe {
        // CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is
        // non-NULL, or svm_pointers is NULL and num_svm_pointers is not 0.
        expect_err(
            clEnqueueSVMFree(
                q,
                0,
                ptrs.as_ptr(),
                None,
                ptr::null_mut(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueSVMFree(
                q,
                1,
                ptr::null(),
                None,
                ptr::null_mut(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueSVMFree(
                ptr::null_mut(),
                0,
                ptr::null(),
                None,
                ptr::null_mut(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_COMMAND_QUEUE,
        );
        check(clFinish(q));
    }
    teardown(q, c);
}

#[test]
fn svm_migrate_mem() {
    let c = context();
    let q = default_queue(c);
    let p = svm_alloc(c, 0, 4096, 0);
    let p2 = svm_alloc(c, 0, 256, 0);
    // SAFETY: inside the allocation.
    let inner = unsafe { p.add(100) };
    let migrate = |ptrs: &[*const u8], sizes: Option<&[usize]>, flags: cl_mem_migration_flags| {
        let mut list: Vec<*const c_void> = ptrs.iter().map(|&x| x.cast()).collect();
        let lp = if ptrs.is_empty() {
            ptr::null_mut()
        } else {
            list.as_mut_ptr()
        };
        let mut ev = ptr::null_mut();
        // SAFETY: `list` and `sizes` hold `ptrs.len()` entries.
        let rc = unsafe {
            clEnqueueSVMMigrateMem(
                q,
                ptrs.len() as cl_uint,
                lp,
                sizes.map_or(ptr::null(), |s| s.as_ptr()),
                flags,
                0,
                ptr::null(),
                &mut ev,
            )
        };
        if rc == CL_SUCCESS {
            assert_eq!(command_type(ev), CL_COMMAND_SVM_MIGRATE_MEM);
            wait_release(ev);
        }
        rc
    };
    check(migrate(&[p, p2], None, 0));
    check(migrate(&[inner], Some(&[0]), CL_MIGRATE_MEM_OBJECT_HOST));
    check(migrate(
        &[inner, p2],
        Some(&[3996, 256]),
        CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
    ));
    // CL_INVALID_VALUE if num_svm_pointers is zero, svm_pointers is NULL,
    // flags are not valid, or a range is not inside an SVM allocation.
    expect_err(migrate(&[], None, 0), CL_INVALID_VALUE);
    // SAFETY: the NULL list is rejected before use.
    expect_err(
        unsafe { clEnqueueSVMMigrateMem(q, 1, ptr::null_mut(), ptr::null(), 0, 0, ptr::null(), ptr::null_mut()) },
        CL_INVALID_VALUE,
    );
    expect_err(migrate(&[p], None, 1 << 4), CL_INVALID_VALUE);
    expect_err(migrate(&[inner], Some(&[3997]), 0), CL_INVALID_VALUE);
    let local = [0u8; 16];
    expect_err(migrate(&[local.as_ptr()], Some(&[16]), 0), CL_INVALID_VALUE);
    svm_free(c, p);
    svm_free(c, p2);
    teardown(q, c);
}

#[test]
fn buffers_over_svm_pointers_share_the_allocation() {
    let c = context();
    let q = default_queue(c);
    let p = svm_alloc(c, 0, 4096, 0);
    // SAFETY: inside the allocation.
    let at = unsafe { p.add(256) };
    let mut err = 0;
    // SAFETY: `at` covers 1024 bytes of the SVM allocation.
    let m = unsafe { clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 1024, at.cast(), &mut err) };
    check(err);
    assert_eq!(mem_value::<cl_bool>(m, CL_MEM_USES_SVM_POINTER), CL_TRUE);
    assert_eq!(mem_value::<usize>(m, CL_MEM_HOST_PTR), at as usize);
    // Writes through the buffer land in the SVM allocation, and back.
    write_bytes(q, m, 8, &[1, 2, 3]);
    // SAFETY: the write completed; the bytes are inside the allocation.
    assert_eq!(unsafe { std::slice::from_raw_parts(at.add(8), 3) }, &[1, 2, 3]);
    // SAFETY: as above.
    unsafe { *at.add(100) = 42 };
    assert_eq!(read_bytes(q, m, 100, 1), vec![42]);
    // A sub-buffer of it reports the SVM pointer too.
    let region = cl_buffer_region { origin: 128, size: 128 };
    // SAFETY: valid region.
    let sub = unsafe {
        clCreateSubBuffer(
            m,
            0,
            CL_BUFFER_CREATE_TYPE_REGION,
            (&region as *const cl_buffer_region).cast(),
            &mut err,
        )
    };
    check(err);
    assert_eq!(mem_value::<cl_bool>(sub, CL_MEM_USES_SVM_POINTER), CL_TRUE);
    release_mem(sub);
    release_mem(m);
    // CL_INVALID_BUFFER_SIZE if host_ptr is a pointer returned by clSVMAlloc
    // and size is greater than the size passed to clSVMAlloc.
    // SAFETY: clift must refuse the size before touching the memory.
    let big = unsafe { clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 4097, p.cast(), &mut err) };
    assert!(big.is_null());
    expect_err(err, CL_INVALID_BUFFER_SIZE);
    // SAFETY: as above.
    let big = unsafe { clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, 4096, at.cast(), &mut err) };
    assert!(big.is_null());
    expect_err(err, CL_INVALID_BUFFER_SIZE);
    // COPY_HOST_PTR from an SVM pointer copies; the buffer does not use it.
    // SAFETY: `p` covers 4096 bytes.
    let copy = unsafe { clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, 4096, p.cast(), &mut err) };
    check(err);
    assert_eq!(mem_value::<cl_bool>(copy, CL_MEM_USES_SVM_POINTER), CL_FALSE);
    assert_eq!(read_bytes(q, copy, 256 + 8, 3), vec![1, 2, 3]);
    release_mem(copy);
    // A plain buffer does not use an SVM pointer.
    let plain = buffer(c, 0, 64);
    assert_eq!(mem_value::<cl_bool>(plain, CL_MEM_USES_SVM_POINTER), CL_FALSE);
    release_mem(plain);
    svm_free(c, p);
    teardown(q, c);
}

/// Kernels of the fine-grain system SVM and SVM atomics tests.
const SYSTEM_SVM_SOURCE: &str = r#"
typedef struct node { int value; global struct node *next; } node;

// Walks a linked list the host built with malloc: the sum of the values,
// and the count, per work-item (each starts `get_global_id(0)` nodes in).
kernel void walk(global node *head, global int *out) {
    global node *p = head;
    for (size_t k = 0; k < get_global_id(0) && p; k++)
        p = p->next;
    int sum = 0, n = 0;
    for (; p; p = p->next) {
        sum += p->value;
        n++;
    }
    out[2 * get_global_id(0)] = sum;
    out[2 * get_global_id(0) + 1] = n;
}

kernel void scale(global float *a, float k) {
    size_t i = get_global_id(0);
    a[i] = a[i] * k + (float)i;
}

kernel void bump(volatile global atomic_int *counter, int times) {
    for (int i = 0; i < times; i++)
        atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_all_svm_devices);
}

// One work-item writes `n` values, then releases `flag` to the host.
kernel void publish(global int *data, int n, volatile global atomic_int *flag) {
    for (int i = 0; i < n; i++)
        data[i] = 3 * i + 1;
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_all_svm_devices);
}
"#;

/// A list node as the kernels' `node` lays it out.
#[repr(C)]
struct Node {
    value: i32,
    next: *mut Node,
}

fn system_svm_kernels(c: cl_context) -> cl_program {
    let p = clift_conformance::programs::source_program(c, SYSTEM_SVM_SOURCE);
    let rc = build(p, "-cl-std=CL2.0");
    assert_eq!(rc, CL_SUCCESS, "build log:\n{}", build_log(p, device()));
    p
}

fn run_1d(q: cl_command_queue, k: cl_kernel, n: usize) {
    // SAFETY: a valid queue and kernel whose arguments are set; one
    // dimension of `n` work-items.
    check(unsafe { clEnqueueNDRangeKernel(q, k, 1, ptr::null(), &n, ptr::null(), 0, ptr::null(), ptr::null_mut()) });
    // SAFETY: a valid queue.
    check(unsafe { clFinish(q) });
}

fn fine_grain_system(k: cl_kernel) {
    let yes: cl_bool = CL_TRUE;
    // SAFETY: a cl_bool of the size given.
    check(unsafe {
        clSetKernelExecInfo(
            k,
            CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
            size_of::<cl_bool>(),
            (&yes as *const cl_bool).cast(),
        )
    });
}

#[test]
fn the_device_offers_fine_grain_system_svm_and_svm_atomics() {
    let c = caps();
    for bit in [
        CL_DEVICE_SVM_COARSE_GRAIN_BUFFER,
        CL_DEVICE_SVM_FINE_GRAIN_BUFFER,
        CL_DEVICE_SVM_FINE_GRAIN_SYSTEM,
        CL_DEVICE_SVM_ATOMICS,
    ] {
        assert_ne!(c & bit, 0, "CL_DEVICE_SVM_CAPABILITIES {c:#x} lacks {bit:#x}");
    }
}

#[test]
fn kernels_dereference_malloced_memory() {
    let c = context();
    let q = queue(c, 0);
    let p = system_svm_kernels(c);
    // A list of 100 nodes, each its own heap allocation.
    let values: Vec<i32> = (0..100).map(|i| i * 7 - 40).collect();
    let mut head: *mut Node = ptr::null_mut();
    for &v in values.iter().rev() {
        head = Box::into_raw(Box::new(Node { value: v, next: head }));
    }
    let items = 16;
    let mut out = vec![-1i32; 2 * items];
    let walk = kernel(p, "walk");
    fine_grain_system(walk);
    // SAFETY: system pointers are values to clSetKernelArgSVMPointer; the
    // list and `out` outlive the kernel (run_1d waits for it).
    unsafe {
        check(clSetKernelArgSVMPointer(walk, 0, head.cast()));
        check(clSetKernelArgSVMPointer(walk, 1, out.as_mut_ptr().cast()));
    }
    run_1d(q, walk, items);
    for (i, pair) in out.chunks(2).enumerate() {
        let want: i32 = values[i..].iter().sum();
        assert_eq!(pair, [want, (values.len() - i) as i32], "work-item {i}");
    }
    while !head.is_null() {
        // SAFETY: each node came from Box::into_raw and is freed once.
        let node = unsafe { Box::from_raw(head) };
        head = node.next;
    }

    // A pointer into the middle of a Vec, and a stack array, as arguments
    // without clSetKernelExecInfo.
    let scale = kernel(p, "scale");
    let mut heap: Vec<f32> = (0..1000).map(|i| i as f32 * 0.5).collect();
    let mut stack = [2.0f32; 64];
    let k = 3.0f32;
    for (ptr_, n, before) in [
        (heap[100..].as_mut_ptr(), 800, heap[100..900].to_vec()),
        (stack.as_mut_ptr(), 64, stack.to_vec()),
    ] {
        // SAFETY: as above; the memory outlives the kernel.
        unsafe { check(clSetKernelArgSVMPointer(scale, 0, ptr_.cast())) };
        check(set_arg(scale, 1, &k));
        run_1d(q, scale, n);
        // SAFETY: `ptr_` covers `n` floats the kernel has finished writing.
        let after = unsafe { std::slice::from_raw_parts(ptr_, n) };
        for (i, (&a, &b)) in after.iter().zip(&before).enumerate() {
            assert_eq!(a.to_bits(), (b * k + i as f32).to_bits(), "element {i}");
        }
    }
    assert_eq!(heap[99], 49.5, "the kernel wrote before its range");
    assert_eq!(heap[900], 450.0, "the kernel wrote past its range");
    // SAFETY: valid handles owned by the test.
    unsafe {
        check(clReleaseKernel(walk));
        check(clReleaseKernel(scale));
        check(clReleaseProgram(p));
    }
    teardown(q, c);
}

/// Host threads and a kernel add to one counter at the same time: no update
/// is lost, in an SVM-atomics buffer and in `malloc`ed memory.
#[test]
fn host_threads_and_kernels_share_atomic_counters() {
    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
    let c = context();
    let q = queue(c, 0);
    let p = system_svm_kernels(c);
    let bump = kernel(p, "bump");
    let svm = svm_alloc(c, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 64, 0);
    assert!(!svm.is_null());
    let heap = Box::new(AtomicI32::new(0));
    let (items, times) = (256usize, 4000i32);
    for counter in [svm.cast::<AtomicI32>(), &*heap as *const AtomicI32 as *mut AtomicI32] {
        // SAFETY: `counter` is an aligned i32 in memory that outlives this
        // iteration; all accesses to it are atomic.
        let counter: &AtomicI32 = unsafe { &*counter };
        counter.store(0, Ordering::SeqCst);
        // SAFETY: as above; `counter` outlives the kernel.
        unsafe { check(clSetKernelArgSVMPointer(bump, 0, (counter as *const AtomicI32).cast())) };
        check(set_arg(bump, 1, &times));
        let kernel_done = AtomicBool::new(false);
        let host_adds = std::thread::scope(|s| {
            let threads: Vec<_> = (0..2)
                .map(|_| {
                    s.spawn(|| {
                        let mut n = 0i64;
                        // Until the kernel is done, and at least 100,000.
                        while n < 100_000 || !kernel_done.load(Ordering::SeqCst) {
                            counter.fetch_add(1, Ordering::Relaxed);
                            n += 1;
                        }
                        n
                    })
                })
                .collect();
            let n = items;
            // SAFETY: a valid queue and kernel with its arguments set.
            check(unsafe {
                clEnqueueNDRangeKernel(
                    q,
                    bump,
                    1,
                    ptr::null(),
                    &n,
                    ptr::null(),
                    0,
                    ptr::null(),
                    ptr::null_mut(),
                )
            });
            // SAFETY: a valid queue.
            check(unsafe { clFinish(q) });
            kernel_done.store(true, Ordering::SeqCst);
            threads.into_iter().map(|t| t.join().expect("host thread")).sum::<i64>()
        });
        let want = items as i64 * i64::from(times) + host_adds;
        assert_eq!(i64::from(counter.load(Ordering::SeqCst)), want);
    }
    drop(heap);
    svm_free(c, svm);
    // SAFETY: valid handles owned by the test.
    unsafe {
        check(clReleaseKernel(bump));
        check(clReleaseProgram(p));
    }
    teardown(q, c);
}

/// A kernel's release store, seen by a host thread's acquire load while
/// the kernel runs, makes the kernel's earlier writes visible to it.
#[test]
fn a_kernels_release_store_publishes_to_a_host_thread() {
    use std::sync::atomic::{AtomicI32, Ordering};
    let c = context();
    let q = queue(c, 0);
    let p = system_svm_kernels(c);
    let publish = kernel(p, "publish");
    let n = 100_000i32;
    let data = svm_alloc(c, CL_MEM_SVM_FINE_GRAIN_BUFFER, n as usize * 4, 0);
    let flag = svm_alloc(c, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 4, 0);
    assert!(!data.is_null() && !flag.is_null());
    // SAFETY: `flag` is an aligned i32 of SVM memory, only accessed
    // atomically from here on.
    let flag_ref: &AtomicI32 = unsafe { &*flag.cast::<AtomicI32>() };
    flag_ref.store(0, Ordering::SeqCst);
    // SAFETY: SVM pointers from clSVMAlloc on this context.
    unsafe {
        check(clSetKernelArgSVMPointer(publish, 0, data.cast()));
        check(clSetKernelArgSVMPointer(publish, 2, flag.cast()));
    }
    check(set_arg(publish, 1, &n));
    let one = 1usize;
    // SAFETY: a valid queue and kernel with its arguments set.
    check(unsafe {
        clEnqueueNDRangeKernel(
            q,
            publish,
            1,
            ptr::null(),
            &one,
            ptr::null(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    });
    // SAFETY: a valid queue.
    check(unsafe { clFlush(q) });
    let start = std::time::Instant::now();
    while flag_ref.load(Ordering::Acquire) == 0 {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "the kernel's release store never reached the host"
        );
        std::hint::spin_loop();
    }
    // SAFETY: the acquire load saw the release store, so the kernel's
    // writes of `n` ints are complete and visible.
    let seen = unsafe { std::slice::from_raw_parts(data.cast::<i32>(), n as usize) };
    for (i, &v) in seen.iter().enumerate() {
        assert_eq!(v, 3 * i as i32 + 1, "element {i}");
    }
    // SAFETY: a valid queue.
    check(unsafe { clFinish(q) });
    svm_free(c, data);
    svm_free(c, flag);
    // SAFETY: valid handles owned by the test.
    unsafe {
        check(clReleaseKernel(publish));
        check(clReleaseProgram(p));
    }
    teardown(q, c);
}
