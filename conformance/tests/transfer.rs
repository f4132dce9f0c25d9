//! API spec 5.2.2-5.2.4, 5.5.5-5.5.7 and 5.10: reading, writing, copying,
//! filling and mapping buffers (plain and rectangular), unmapping,
//! migrating, and native kernels, through the ICD loader.

use std::ffi::c_void;
use std::ptr;

use clift_conformance::*;

/// clEnqueueReadBuffer into `out`; the event if one was asked for.
fn read(
    q: cl_command_queue,
    m: cl_mem,
    blocking: bool,
    offset: usize,
    out: &mut [u8],
    wait: &[cl_event],
) -> Result<cl_event, cl_int> {
    let (n, list) = wait_args(wait);
    let mut ev = ptr::null_mut();
    let b = if blocking { CL_TRUE } else { CL_FALSE };
    // SAFETY: `out` is writable for its length; callers wait for a
    // non-blocking read before they touch `out` again.
    let rc = unsafe { clEnqueueReadBuffer(q, m, b, offset, out.len(), out.as_mut_ptr().cast(), n, list, &mut ev) };
    if rc == CL_SUCCESS {
        Ok(ev)
    } else {
        assert!(ev.is_null(), "no event for a failed enqueue");
        Err(rc)
    }
}

/// clEnqueueWriteBuffer from `data`; the event.
fn write(
    q: cl_command_queue,
    m: cl_mem,
    blocking: bool,
    offset: usize,
    data: &[u8],
    wait: &[cl_event],
) -> Result<cl_event, cl_int> {
    let (n, list) = wait_args(wait);
    let mut ev = ptr::null_mut();
    let b = if blocking { CL_TRUE } else { CL_FALSE };
    // SAFETY: `data` is readable for its length; callers keep it alive until
    // a non-blocking write has completed.
    let rc = unsafe { clEnqueueWriteBuffer(q, m, b, offset, data.len(), data.as_ptr().cast(), n, list, &mut ev) };
    if rc == CL_SUCCESS {
        Ok(ev)
    } else {
        assert!(ev.is_null(), "no event for a failed enqueue");
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

fn release(ev: cl_event) {
    // SAFETY: a valid event owned by the test.
    check(unsafe { clReleaseEvent(ev) });
}

fn finish(q: cl_command_queue) {
    // SAFETY: valid queue.
    check(unsafe { clFinish(q) });
}

fn teardown(q: cl_command_queue, c: cl_context) {
    // SAFETY: valid handles owned by the test.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

fn copy(q: cl_command_queue, src: cl_mem, dst: cl_mem, so: usize, d: usize, size: usize) -> cl_int {
    // SAFETY: valid or deliberately invalid handles; no pointers.
    unsafe { clEnqueueCopyBuffer(q, src, dst, so, d, size, 0, ptr::null(), ptr::null_mut()) }
}

#[test]
fn read_and_write_blocking_and_non_blocking() {
    let c = context();
    for props in [0, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE] {
        let q = if props == 0 { default_queue(c) } else { queue(c, props) };
        let m = buffer(c, 0, 4096);
        let data = pattern_bytes(4096, 11);
        write(q, m, true, 0, &data, &[]).expect("blocking write");
        let mut out = vec![0u8; 4096];
        read(q, m, true, 0, &mut out, &[]).expect("blocking read");
        assert_eq!(out, data);
        // Non-blocking, at offsets, chained by events.
        let part = pattern_bytes(1000, 77);
        let w = write(q, m, false, 1234, &part, &[]).expect("non-blocking write");
        assert!(!w.is_null());
        let mut back = vec![0u8; 1000];
        let r = read(q, m, false, 1234, &mut back, &[w]).expect("non-blocking read");
        wait_release(r);
        release(w);
        assert_eq!(back, part);
        // The event of a transfer reports its command type.
        let e = read(q, m, true, 0, &mut out[..16], &[]).expect("read");
        // SAFETY: forwards the buffer protocol of `info_value`.
        let ty: cl_command_type = info_value(|s, v, r| unsafe { clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, s, v, r) });
        assert_eq!(ty, CL_COMMAND_READ_BUFFER);
        assert_eq!(event_status(e), CL_COMPLETE);
        release(e);
        // A zero-sized transfer is not an error.
        read(q, m, true, 4096, &mut [], &[]).expect("empty read");
        release_mem(m);
        // SAFETY: valid handle.
        check(unsafe { clReleaseCommandQueue(q) });
    }
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn read_and_write_errors() {
    let c = context();
    let q = default_queue(c);
    let m = buffer(c, 0, 256);
    let other_c = context();
    let other_m = buffer(other_c, 0, 256);
    let other_u = new_user_event(other_c);
    let mut buf = [0u8; 256];
    // CL_INVALID_COMMAND_QUEUE; CL_INVALID_MEM_OBJECT.
    // SAFETY: handles are checked before `buf` is used.
    unsafe {
        expect_err(
            clEnqueueReadBuffer(
                ptr::null_mut(),
                m,
                CL_TRUE,
                0,
                4,
                buf.as_mut_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_COMMAND_QUEUE,
        );
        expect_err(
            clEnqueueWriteBuffer(
                q,
                ptr::null_mut(),
                CL_TRUE,
                0,
                4,
                buf.as_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        expect_err(
            clEnqueueReadBuffer(
                q,
                c as cl_mem,
                CL_TRUE,
                0,
                4,
                buf.as_mut_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
    }
    // CL_INVALID_CONTEXT if the context of command_queue and buffer differ,
    // or of command_queue and events in event_wait_list.
    assert_eq!(read(q, other_m, true, 0, &mut buf, &[]), Err(CL_INVALID_CONTEXT));
    assert_eq!(write(q, m, true, 0, &buf, &[other_u]), Err(CL_INVALID_CONTEXT));
    // CL_INVALID_VALUE if the region is out of bounds, or ptr is NULL.
    assert_eq!(read(q, m, true, 1, &mut buf, &[]), Err(CL_INVALID_VALUE));
    assert_eq!(write(q, m, true, usize::MAX, &buf[..2], &[]), Err(CL_INVALID_VALUE));
    // SAFETY: NULL ptr is rejected before use.
    unsafe {
        expect_err(
            clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, ptr::null_mut(), 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 4, ptr::null(), 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        // CL_INVALID_EVENT_WAIT_LIST: NULL list with a count, a list with
        // count 0, an invalid event.
        expect_err(
            clEnqueueReadBuffer(
                q,
                m,
                CL_TRUE,
                0,
                4,
                buf.as_mut_ptr().cast(),
                1,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        let ev = other_u;
        expect_err(
            clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, buf.as_mut_ptr().cast(), 0, &ev, ptr::null_mut()),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        let bad: cl_event = m as cl_event;
        expect_err(
            clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, buf.as_mut_ptr().cast(), 1, &bad, ptr::null_mut()),
            CL_INVALID_EVENT_WAIT_LIST,
        );
    }
    // CL_INVALID_OPERATION for reads of HOST_WRITE_ONLY / HOST_NO_ACCESS
    // buffers and writes of HOST_READ_ONLY / HOST_NO_ACCESS buffers.
    let hwo = buffer(c, CL_MEM_HOST_WRITE_ONLY, 64);
    let hro = buffer(c, CL_MEM_HOST_READ_ONLY, 64);
    let hna = buffer(c, CL_MEM_HOST_NO_ACCESS, 64);
    assert_eq!(read(q, hwo, true, 0, &mut buf[..4], &[]), Err(CL_INVALID_OPERATION));
    assert_eq!(read(q, hna, true, 0, &mut buf[..4], &[]), Err(CL_INVALID_OPERATION));
    assert_eq!(write(q, hro, true, 0, &buf[..4], &[]), Err(CL_INVALID_OPERATION));
    assert_eq!(write(q, hna, true, 0, &buf[..4], &[]), Err(CL_INVALID_OPERATION));
    write(q, hwo, true, 0, &buf[..4], &[]).expect("HOST_WRITE_ONLY allows writes");
    read(q, hro, true, 0, &mut buf[..4], &[]).expect("HOST_READ_ONLY allows reads");
    // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the operation is
    // blocking and an event in event_wait_list failed.
    let u = new_user_event(c);
    let uu = u as usize;
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(20));
        // SAFETY: the user event stays valid until the test releases it
        // after joining this thread.
        check(unsafe { clSetUserEventStatus(uu as cl_event, -1) });
    });
    assert_eq!(
        read(q, m, true, 0, &mut buf[..4], &[u]),
        Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    );
    setter.join().unwrap();
    for b in [m, other_m, hwo, hro, hna] {
        release_mem(b);
    }
    release(u);
    release(other_u);
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(other_c) });
    teardown(q, c);
}

#[test]
fn copy_buffer_and_its_overlap_rules() {
    let c = context();
    let q = default_queue(c);
    let a = buffer(c, 0, 2048);
    let b = buffer(c, CL_MEM_HOST_NO_ACCESS | CL_MEM_READ_ONLY, 2048);
    let data = pattern_bytes(2048, 3);
    write_bytes(q, a, 0, &data);
    // The usage flags are ignored by clEnqueueCopyBuffer.
    check(copy(q, a, b, 100, 200, 1000));
    check(copy(q, b, a, 200, 1048, 1000));
    finish(q);
    let out = read_bytes(q, a, 0, 2048);
    assert_eq!(&out[..1048], &data[..1048]);
    assert_eq!(&out[1048..], &data[100..1100]);
    // Same buffer, disjoint regions: fine.
    check(copy(q, a, a, 0, 1024, 1024));
    finish(q);
    assert_eq!(read_bytes(q, a, 1024, 1024), read_bytes(q, a, 0, 1024));
    // CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer
    // and the regions overlap.
    expect_err(copy(q, a, a, 1000, 1023, 100), CL_MEM_COPY_OVERLAP);
    expect_err(copy(q, a, a, 1, 0, 2), CL_MEM_COPY_OVERLAP);
    expect_err(copy(q, a, a, 10, 10, 1), CL_MEM_COPY_OVERLAP);
    // ... or different sub-buffers of the same buffer that overlap.
    let region = |origin, size| cl_buffer_region { origin, size };
    let mut err = 0;
    let (r1, r2) = (region(0, 1024), region(512, 1024));
    // SAFETY: valid regions.
    let (s1, s2) = unsafe {
        let s1 = clCreateSubBuffer(
            a,
            0,
            CL_BUFFER_CREATE_TYPE_REGION,
            (&r1 as *const cl_buffer_region).cast(),
            &mut err,
        );
        check(err);
        let s2 = clCreateSubBuffer(
            a,
            0,
            CL_BUFFER_CREATE_TYPE_REGION,
            (&r2 as *const cl_buffer_region).cast(),
            &mut err,
        );
        check(err);
        (s1, s2)
    };
    expect_err(copy(q, s1, s2, 600, 0, 100), CL_MEM_COPY_OVERLAP);
    expect_err(copy(q, s1, s2, 0, 0, 513), CL_MEM_COPY_OVERLAP);
    // Sub-buffers that overlap, with copy regions that do not: fine.
    check(copy(q, s1, s2, 0, 0, 512));
    finish(q);
    assert_eq!(read_bytes(q, a, 512, 512), read_bytes(q, a, 0, 512));
    // CL_INVALID_VALUE if a region is out of bounds.
    expect_err(copy(q, a, b, 2000, 0, 100), CL_INVALID_VALUE);
    expect_err(copy(q, a, b, 0, 2000, 100), CL_INVALID_VALUE);
    expect_err(copy(q, a, b, usize::MAX, 0, 2), CL_INVALID_VALUE);
    // CL_INVALID_MEM_OBJECT; CL_INVALID_CONTEXT; CL_INVALID_COMMAND_QUEUE.
    expect_err(copy(q, a, ptr::null_mut(), 0, 0, 1), CL_INVALID_MEM_OBJECT);
    expect_err(copy(q, ptr::null_mut(), a, 0, 0, 1), CL_INVALID_MEM_OBJECT);
    expect_err(copy(ptr::null_mut(), a, b, 0, 0, 1), CL_INVALID_COMMAND_QUEUE);
    let other_c = context();
    let other = buffer(other_c, 0, 64);
    expect_err(copy(q, a, other, 0, 0, 1), CL_INVALID_CONTEXT);
    expect_err(copy(q, other, a, 0, 0, 1), CL_INVALID_CONTEXT);
    for m in [s1, s2, a, b, other] {
        release_mem(m);
    }
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(other_c) });
    teardown(q, c);
}

/// The byte offsets a rectangle covers, in copy order.
fn rect_offsets(origin: [usize; 3], region: [usize; 3], row: usize, slice: usize) -> Vec<usize> {
    let row = if row == 0 { region[0] } else { row };
    let slice = if slice == 0 { region[1] * row } else { slice };
    let mut v = Vec::new();
    for z in 0..region[2] {
        for y in 0..region[1] {
            for x in 0..region[0] {
                v.push((origin[2] + z) * slice + (origin[1] + y) * row + origin[0] + x);
            }
        }
    }
    v
}

#[allow(clippy::too_many_arguments)]
fn write_rect(
    q: cl_command_queue,
    m: cl_mem,
    blocking: bool,
    bo: [usize; 3],
    ho: [usize; 3],
    region: [usize; 3],
    pitches: [usize; 4],
    host: &[u8],
) -> cl_int {
    let b = if blocking { CL_TRUE } else { CL_FALSE };
    // SAFETY: `host` covers every byte the rectangle touches (callers size
    // it so; clift must reject it otherwise), and outlives the command.
    unsafe {
        clEnqueueWriteBufferRect(
            q,
            m,
            b,
            bo.as_ptr(),
            ho.as_ptr(),
            region.as_ptr(),
            pitches[0],
            pitches[1],
            pitches[2],
            pitches[3],
            host.as_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    }
}

#[allow(clippy::too_many_arguments)]
fn read_rect(
    q: cl_command_queue,
    m: cl_mem,
    blocking: bool,
    bo: [usize; 3],
    ho: [usize; 3],
    region: [usize; 3],
    pitches: [usize; 4],
    host: &mut [u8],
) -> cl_int {
    let b = if blocking { CL_TRUE } else { CL_FALSE };
    // SAFETY: as for `write_rect`.
    unsafe {
        clEnqueueReadBufferRect(
            q,
            m,
            b,
            bo.as_ptr(),
            ho.as_ptr(),
            region.as_ptr(),
            pitches[0],
            pitches[1],
            pitches[2],
            pitches[3],
            host.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    }
}

fn copy_rect(
    q: cl_command_queue,
    src: cl_mem,
    dst: cl_mem,
    so: [usize; 3],
    d: [usize; 3],
    region: [usize; 3],
    pitches: [usize; 4],
) -> cl_int {
    // SAFETY: the arrays are valid for the call.
    unsafe {
        clEnqueueCopyBufferRect(
            q,
            src,
            dst,
            so.as_ptr(),
            d.as_ptr(),
            region.as_ptr(),
            pitches[0],
            pitches[1],
            pitches[2],
            pitches[3],
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    }
}

#[test]
fn rectangular_transfers_with_pitches_and_origins() {
    let c = context();
    let q = default_queue(c);
    const SIZE: usize = 8192;
    let m = buffer(c, 0, SIZE);
    let zero = vec![0u8; SIZE];
    write_bytes(q, m, 0, &zero);
    // Buffer side: rows of 40 bytes, slices of 400; host side: rows of 17,
    // slices of 17 * 9; a 3D region of 13 x 5 x 3 from non-zero origins.
    let (bo, ho, region) = ([3, 2, 1], [2, 1, 1], [13, 5, 3]);
    let (brow, bslice, hrow, hslice) = (40, 400, 17, 17 * 9);
    let host = pattern_bytes(hslice * 5, 1);
    for blocking in [true, false] {
        write_bytes(q, m, 0, &zero);
        check(write_rect(
            q,
            m,
            blocking,
            bo,
            ho,
            region,
            [brow, bslice, hrow, hslice],
            &host,
        ));
        finish(q);
        let mut expect = zero.clone();
        for (b, h) in rect_offsets(bo, region, brow, bslice)
            .into_iter()
            .zip(rect_offsets(ho, region, hrow, hslice))
        {
            expect[b] = host[h];
        }
        assert_eq!(read_bytes(q, m, 0, SIZE), expect, "write rect (blocking {blocking})");
        // Read it back with other host pitches and origin.
        let (ho2, hrow2, hslice2) = ([5, 0, 2], 20, 20 * 6);
        let mut back = vec![0u8; hslice2 * 5];
        check(read_rect(
            q,
            m,
            blocking,
            bo,
            ho2,
            region,
            [brow, bslice, hrow2, hslice2],
            &mut back,
        ));
        finish(q);
        for (h2, h) in rect_offsets(ho2, region, hrow2, hslice2)
            .into_iter()
            .zip(rect_offsets(ho, region, hrow, hslice))
        {
            assert_eq!(back[h2], host[h], "read rect (blocking {blocking})");
        }
    }
    // Zero pitches mean tightly packed rows and slices.
    let packed = pattern_bytes(6 * 4 * 2, 50);
    check(write_rect(
        q,
        m,
        true,
        [0, 0, 0],
        [0, 0, 0],
        [6, 4, 2],
        [0, 0, 0, 0],
        &packed,
    ));
    assert_eq!(read_bytes(q, m, 0, 48), packed);
    // Copy a rectangle into another buffer with other pitches.
    let dst = buffer(c, 0, SIZE);
    write_bytes(q, dst, 0, &zero);
    let src_now = read_bytes(q, m, 0, SIZE);
    let (so, dor, cregion) = ([1, 1, 0], [7, 3, 1], [10, 4, 2]);
    check(copy_rect(q, m, dst, so, dor, cregion, [brow, bslice, 30, 300]));
    finish(q);
    let dst_now = read_bytes(q, dst, 0, SIZE);
    for (s, d) in rect_offsets(so, cregion, brow, bslice)
        .into_iter()
        .zip(rect_offsets(dor, cregion, 30, 300))
    {
        assert_eq!(dst_now[d], src_now[s]);
    }
    // Within one buffer: side-by-side columns do not overlap (Appendix D).
    check(copy_rect(
        q,
        m,
        m,
        [0, 0, 0],
        [20, 0, 0],
        [20, 10, 1],
        [40, 400, 40, 400],
    ));
    finish(q);
    let after = read_bytes(q, m, 0, 400);
    for y in 0..10 {
        assert_eq!(after[y * 40 + 20..y * 40 + 40], after[y * 40..y * 40 + 20]);
    }
    release_mem(dst);
    release_mem(m);
    teardown(q, c);
}

#[test]
fn rectangular_transfer_errors() {
    let c = context();
    let q = default_queue(c);
    let m = buffer(c, 0, 1024);
    let mut host = vec![0u8; 4096];
    let o = [0usize; 3];
    let r = [4usize, 4, 1];
    let bad = |rc: cl_int| expect_err(rc, CL_INVALID_VALUE);
    // CL_INVALID_VALUE if any region array element is zero.
    bad(write_rect(q, m, true, o, o, [0, 4, 1], [0; 4], &host));
    bad(read_rect(q, m, true, o, o, [4, 4, 0], [0; 4], &mut host));
    // if buffer_row_pitch is not zero and less than region[0]; if
    // buffer_slice_pitch is not zero and less than region[1] * row pitch or
    // not a multiple of it; likewise for the host pitches.
    bad(write_rect(q, m, true, o, o, r, [3, 0, 0, 0], &host));
    bad(write_rect(q, m, true, o, o, [4, 4, 2], [8, 31, 0, 0], &host));
    bad(write_rect(q, m, true, o, o, [4, 4, 2], [8, 36, 0, 0], &host));
    bad(read_rect(q, m, true, o, o, r, [0, 0, 2, 0], &mut host));
    bad(read_rect(q, m, true, o, o, [4, 4, 2], [0, 0, 5, 19], &mut host));
    bad(read_rect(q, m, true, o, o, [4, 4, 2], [0, 0, 5, 21], &mut host));
    // if the region is out of bounds of the buffer.
    bad(write_rect(q, m, true, [0, 0, 1], o, [16, 16, 4], [0; 4], &host));
    bad(read_rect(q, m, true, [1, 0, 0], o, [1024, 1, 1], [0; 4], &mut host));
    // if buffer_origin, host_origin, region or ptr is NULL.
    // SAFETY: NULL arguments are rejected before anything is read.
    unsafe {
        bad(clEnqueueReadBufferRect(
            q,
            m,
            CL_TRUE,
            ptr::null(),
            o.as_ptr(),
            r.as_ptr(),
            0,
            0,
            0,
            0,
            host.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        ));
        bad(clEnqueueReadBufferRect(
            q,
            m,
            CL_TRUE,
            o.as_ptr(),
            ptr::null(),
            r.as_ptr(),
            0,
            0,
            0,
            0,
            host.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        ));
        bad(clEnqueueWriteBufferRect(
            q,
            m,
            CL_TRUE,
            o.as_ptr(),
            o.as_ptr(),
            ptr::null(),
            0,
            0,
            0,
            0,
            host.as_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        ));
        bad(clEnqueueWriteBufferRect(
            q,
            m,
            CL_TRUE,
            o.as_ptr(),
            o.as_ptr(),
            r.as_ptr(),
            0,
            0,
            0,
            0,
            ptr::null(),
            0,
            ptr::null(),
            ptr::null_mut(),
        ));
        bad(clEnqueueCopyBufferRect(
            q,
            m,
            m,
            ptr::null(),
            o.as_ptr(),
            r.as_ptr(),
            0,
            0,
            0,
            0,
            0,
            ptr::null(),
            ptr::null_mut(),
        ));
    }
    // Host access flags.
    let hna = buffer(c, CL_MEM_HOST_NO_ACCESS, 1024);
    expect_err(write_rect(q, hna, true, o, o, r, [0; 4], &host), CL_INVALID_OPERATION);
    expect_err(
        read_rect(q, hna, true, o, o, r, [0; 4], &mut host),
        CL_INVALID_OPERATION,
    );
    // Copy rect within one buffer: pitches must match, regions must not
    // overlap.
    bad(copy_rect(q, m, m, o, [0, 8, 0], r, [8, 0, 16, 0]));
    bad(copy_rect(q, m, m, o, [0, 0, 1], [4, 4, 1], [8, 64, 8, 128]));
    expect_err(copy_rect(q, m, m, o, [2, 0, 0], r, [8, 0, 8, 0]), CL_MEM_COPY_OVERLAP);
    expect_err(copy_rect(q, m, m, o, [0, 3, 0], r, [8, 0, 8, 0]), CL_MEM_COPY_OVERLAP);
    check(copy_rect(q, m, m, o, [4, 0, 0], r, [8, 0, 8, 0]));
    check(copy_rect(q, m, m, o, [0, 4, 0], r, [8, 0, 8, 0]));
    // Out of bounds of the destination.
    bad(copy_rect(q, m, hna, o, [0, 0, 1], [32, 32, 1], [0; 4]));
    finish(q);
    release_mem(hna);
    release_mem(m);
    teardown(q, c);
}

fn fill(q: cl_command_queue, m: cl_mem, pattern: &[u8], offset: usize, size: usize) -> cl_int {
    // SAFETY: `pattern` is readable for its length during the call.
    unsafe {
        clEnqueueFillBuffer(
            q,
            m,
            pattern.as_ptr().cast(),
            pattern.len(),
            offset,
            size,
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    }
}

#[test]
fn fill_with_every_pattern_size() {
    let c = context();
    let q = default_queue(c);
    let m = buffer(c, CL_MEM_HOST_WRITE_ONLY, 4096);
    let probe = buffer(c, 0, 4096);
    let mut ps = 1;
    while ps <= 128 {
        let pattern = pattern_bytes(ps, ps as u8);
        // Zero the buffer, then fill five patterns from offset 2 * ps.
        check(fill(q, m, &[0], 0, 4096));
        check(fill(q, m, &pattern, 2 * ps, 5 * ps));
        // The usage flags are ignored by fills: copy out to read.
        check(copy(q, m, probe, 0, 0, 4096));
        finish(q);
        let out = read_bytes(q, probe, 0, 4096);
        assert!(out[..2 * ps].iter().all(|&b| b == 0), "pattern size {ps}");
        for k in 0..5 {
            assert_eq!(&out[(2 + k) * ps..(3 + k) * ps], &pattern[..], "pattern size {ps}");
        }
        assert!(out[7 * ps..].iter().all(|&b| b == 0), "pattern size {ps}");
        // CL_INVALID_VALUE if offset or size is not a multiple of pattern_size.
        if ps > 1 {
            expect_err(fill(q, m, &pattern, 1, ps), CL_INVALID_VALUE);
            expect_err(fill(q, m, &pattern, 0, ps + 1), CL_INVALID_VALUE);
        }
        ps *= 2;
    }
    // CL_INVALID_VALUE if pattern_size is 0, not a power of two, or > 128; if
    // pattern is NULL; if the region is out of bounds.
    expect_err(fill(q, m, &[], 0, 4), CL_INVALID_VALUE);
    expect_err(fill(q, m, &[1, 2, 3], 0, 6), CL_INVALID_VALUE);
    expect_err(fill(q, m, &[0; 256], 0, 256), CL_INVALID_VALUE);
    expect_err(fill(q, m, &[0; 4], 4096, 4), CL_INVALID_VALUE);
    // SAFETY: NULL pattern is rejected before it is read.
    expect_err(
        unsafe { clEnqueueFillBuffer(q, m, ptr::null(), 4, 0, 4, 0, ptr::null(), ptr::null_mut()) },
        CL_INVALID_VALUE,
    );
    // The pattern may be reused as soon as the call returns.
    let gate = new_user_event(c);
    let mut pat = [0x11u8; 4];
    let mut ev = ptr::null_mut();
    // SAFETY: `pat` is readable during the call.
    check(unsafe { clEnqueueFillBuffer(q, probe, pat.as_ptr().cast(), 4, 0, 64, 1, &gate, &mut ev) });
    pat = [0x22; 4];
    // SAFETY: valid user event.
    check(unsafe { clSetUserEventStatus(gate, CL_COMPLETE) });
    wait_release(ev);
    assert_eq!(read_bytes(q, probe, 0, 64), vec![0x11; 64]);
    assert_eq!(pat, [0x22; 4]);
    release(gate);
    release_mem(probe);
    release_mem(m);
    teardown(q, c);
}

fn map(
    q: cl_command_queue,
    m: cl_mem,
    blocking: bool,
    flags: cl_map_flags,
    offset: usize,
    size: usize,
) -> Result<*mut u8, cl_int> {
    let mut err = 1;
    let b = if blocking { CL_TRUE } else { CL_FALSE };
    // SAFETY: valid or deliberately invalid handles; no pointers in.
    let p = unsafe { clEnqueueMapBuffer(q, m, b, flags, offset, size, 0, ptr::null(), ptr::null_mut(), &mut err) };
    if err == CL_SUCCESS {
        assert!(!p.is_null());
        Ok(p.cast())
    } else {
        assert!(p.is_null());
        Err(err)
    }
}

fn unmap(q: cl_command_queue, m: cl_mem, p: *mut u8) -> cl_int {
    // SAFETY: `p` is passed back as a value; clift checks it.
    unsafe { clEnqueueUnmapMemObject(q, m, p.cast(), 0, ptr::null(), ptr::null_mut()) }
}

#[test]
fn map_and_unmap_for_reading_and_writing() {
    let c = context();
    let q = default_queue(c);
    let m = buffer(c, 0, 4096);
    let data = pattern_bytes(4096, 21);
    write_bytes(q, m, 0, &data);
    // Map for reading: the contents are there; the map count goes up.
    let p = map(q, m, true, CL_MAP_READ, 1000, 500).expect("map read");
    // SAFETY: the map covers 500 readable bytes until unmapped.
    let seen = unsafe { std::slice::from_raw_parts(p, 500) }.to_vec();
    assert_eq!(seen, data[1000..1500]);
    assert_eq!(mem_value::<cl_uint>(m, CL_MEM_MAP_COUNT), 1);
    // Overlapping maps for reading are allowed.
    let p2 = map(q, m, true, CL_MAP_READ, 1200, 100).expect("second read map");
    assert_eq!(mem_value::<cl_uint>(m, CL_MEM_MAP_COUNT), 2);
    // Mapping overlapped regions for writing is an error.
    assert_eq!(map(q, m, true, CL_MAP_WRITE, 1400, 10), Err(CL_INVALID_OPERATION));
    check(unmap(q, m, p2));
    check(unmap(q, m, p));
    finish(q);
    assert_eq!(mem_value::<cl_uint>(m, CL_MEM_MAP_COUNT), 0);
    // CL_INVALID_VALUE if mapped_ptr is not a pointer returned by a map for
    // memobj (including one already unmapped).
    expect_err(unmap(q, m, p), CL_INVALID_VALUE);
    let mut local = 0u8;
    expect_err(unmap(q, m, &mut local), CL_INVALID_VALUE);
    // Map for writing, non-blocking: the pointer is usable once the event
    // completes; the write lands in the buffer once unmapped.
    let mut err = 0;
    let mut ev = ptr::null_mut();
    // SAFETY: valid handles and out-pointers.
    let w = unsafe {
        clEnqueueMapBuffer(
            q,
            m,
            CL_FALSE,
            CL_MAP_WRITE_INVALIDATE_REGION,
            0,
            256,
            0,
            ptr::null(),
            &mut ev,
            &mut err,
        )
    } as *mut u8;
    check(err);
    wait_release(ev);
    // SAFETY: the map covers 256 writable bytes until unmapped.
    unsafe { std::ptr::write_bytes(w, 0xee, 256) };
    let other = buffer(c, 0, 4096);
    // A map of a different buffer does not collide.
    let po = map(q, other, true, CL_MAP_WRITE, 0, 4096).expect("other buffer");
    check(unmap(q, other, po));
    // Unmapping with the wrong memory object is invalid.
    expect_err(unmap(q, other, w), CL_INVALID_VALUE);
    check(unmap(q, m, w));
    finish(q);
    assert_eq!(read_bytes(q, m, 0, 256), vec![0xee; 256]);
    // Map of a sub-buffer counts on the sub-buffer, and collides with a
    // write map of the parent's overlapping region.
    let region = cl_buffer_region {
        origin: 1024,
        size: 1024,
    };
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
    let ps = map(q, sub, true, CL_MAP_WRITE, 0, 64).expect("sub-buffer map");
    assert_eq!(mem_value::<cl_uint>(sub, CL_MEM_MAP_COUNT), 1);
    assert_eq!(mem_value::<cl_uint>(m, CL_MEM_MAP_COUNT), 0);
    assert_eq!(map(q, m, true, CL_MAP_READ, 1000, 100), Err(CL_INVALID_OPERATION));
    check(unmap(q, sub, ps));
    // The sub-buffer's map points into the parent's data store.
    let pp = map(q, m, true, CL_MAP_READ, 1024, 64).expect("parent map");
    assert_eq!(pp, ps);
    check(unmap(q, m, pp));
    finish(q);
    release_mem(sub);
    // Errors: CL_INVALID_VALUE if size is zero, the region is out of bounds,
    // or map_flags are not valid.
    assert_eq!(map(q, m, true, CL_MAP_READ, 0, 0), Err(CL_INVALID_VALUE));
    assert_eq!(map(q, m, true, CL_MAP_READ, 4000, 97), Err(CL_INVALID_VALUE));
    assert_eq!(
        map(q, m, true, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 4),
        Err(CL_INVALID_VALUE)
    );
    assert_eq!(map(q, m, true, 1 << 7, 0, 4), Err(CL_INVALID_VALUE));
    // CL_INVALID_OPERATION for maps the host-access flags forbid.
    let hwo = buffer(c, CL_MEM_HOST_WRITE_ONLY, 64);
    let hro = buffer(c, CL_MEM_HOST_READ_ONLY, 64);
    let hna = buffer(c, CL_MEM_HOST_NO_ACCESS, 64);
    assert_eq!(map(q, hwo, true, CL_MAP_READ, 0, 4), Err(CL_INVALID_OPERATION));
    assert_eq!(map(q, hro, true, CL_MAP_WRITE, 0, 4), Err(CL_INVALID_OPERATION));
    assert_eq!(
        map(q, hro, true, CL_MAP_WRITE_INVALIDATE_REGION, 0, 4),
        Err(CL_INVALID_OPERATION)
    );
    assert_eq!(map(q, hna, true, CL_MAP_READ, 0, 4), Err(CL_INVALID_OPERATION));
    let ok = map(q, hwo, true, CL_MAP_WRITE, 0, 4).expect("write map of HOST_WRITE_ONLY");
    check(unmap(q, hwo, ok));
    // CL_INVALID_MEM_OBJECT, CL_INVALID_COMMAND_QUEUE, CL_INVALID_CONTEXT.
    assert_eq!(
        map(q, ptr::null_mut(), true, CL_MAP_READ, 0, 4),
        Err(CL_INVALID_MEM_OBJECT)
    );
    assert_eq!(
        map(ptr::null_mut(), m, true, CL_MAP_READ, 0, 4),
        Err(CL_INVALID_COMMAND_QUEUE)
    );
    expect_err(unmap(q, ptr::null_mut(), ok), CL_INVALID_MEM_OBJECT);
    let other_c = context();
    let other_q = default_queue(other_c);
    assert_eq!(map(other_q, m, true, CL_MAP_READ, 0, 4), Err(CL_INVALID_CONTEXT));
    finish(q);
    for b in [hwo, hro, hna, other, m] {
        release_mem(b);
    }
    teardown(other_q, other_c);
    teardown(q, c);
}

#[test]
fn migrate_memory_objects() {
    let c = context();
    let q = default_queue(c);
    let a = buffer(c, 0, 256);
    let b = buffer(c, 0, 256);
    write_bytes(q, a, 0, &[5; 256]);
    let list = [a, b];
    let migrate = |q: cl_command_queue, n: cl_uint, l: *const cl_mem, flags: cl_mem_migration_flags| {
        let mut ev = ptr::null_mut();
        // SAFETY: `l` is NULL or holds `n` handles.
        let rc = unsafe { clEnqueueMigrateMemObjects(q, n, l, flags, 0, ptr::null(), &mut ev) };
        if rc == CL_SUCCESS {
            // SAFETY: forwards the buffer protocol of `info_value`.
            let ty: cl_command_type =
                info_value(|s, v, r| unsafe { clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, s, v, r) });
            assert_eq!(ty, CL_COMMAND_MIGRATE_MEM_OBJECTS);
            wait_release(ev);
        }
        rc
    };
    for flags in [
        0,
        CL_MIGRATE_MEM_OBJECT_HOST,
        CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
        CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
    ] {
        check(migrate(q, 2, list.as_ptr(), flags));
    }
    // Migration to the device keeps the contents.
    assert_eq!(read_bytes(q, a, 0, 256), vec![5; 256]);
    // CL_INVALID_VALUE if num_mem_objects is zero or mem_objects is NULL, or
    // flags are not valid.
    expect_err(migrate(q, 0, list.as_ptr(), 0), CL_INVALID_VALUE);
    expect_err(migrate(q, 2, ptr::null(), 0), CL_INVALID_VALUE);
    expect_err(migrate(q, 2, list.as_ptr(), 1 << 5), CL_INVALID_VALUE);
    // CL_INVALID_MEM_OBJECT; CL_INVALID_CONTEXT; CL_INVALID_COMMAND_QUEUE.
    let bad = [a, ptr::null_mut()];
    expect_err(migrate(q, 2, bad.as_ptr(), 0), CL_INVALID_MEM_OBJECT);
    let other_c = context();
    let other = buffer(other_c, 0, 16);
    let mixed = [a, other];
    expect_err(migrate(q, 2, mixed.as_ptr(), 0), CL_INVALID_CONTEXT);
    expect_err(migrate(ptr::null_mut(), 2, list.as_ptr(), 0), CL_INVALID_COMMAND_QUEUE);
    for m in [a, b, other] {
        release_mem(m);
    }
    // SAFETY: valid handle.
    check(unsafe { clReleaseContext(other_c) });
    teardown(q, c);
}

#[test]
fn a_64_mib_buffer_survives_write_copy_map_and_read() {
    const SIZE: usize = 64 << 20;
    let c = context();
    let q = default_queue(c);
    let a = buffer(c, 0, SIZE);
    let b = buffer(c, 0, SIZE);
    let words: Vec<u32> = (0..(SIZE / 4) as u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    // SAFETY: `words` is SIZE bytes, readable during the blocking write.
    check(unsafe {
        clEnqueueWriteBuffer(
            q,
            a,
            CL_TRUE,
            0,
            SIZE,
            words.as_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    });
    check(copy(q, a, b, 0, 0, SIZE));
    let p = map(q, b, true, CL_MAP_READ, 0, SIZE).expect("map 64 MiB");
    // SAFETY: the map covers SIZE readable bytes, aligned for u32 (buffers
    // start at CL_DEVICE_MEM_BASE_ADDR_ALIGN).
    let mapped = unsafe { std::slice::from_raw_parts(p as *const u32, SIZE / 4) };
    assert!(mapped == &words[..], "mapped copy differs");
    check(unmap(q, b, p));
    let mut back = vec![0u32; SIZE / 4];
    // SAFETY: `back` is SIZE writable bytes during the blocking read.
    check(unsafe {
        clEnqueueReadBuffer(
            q,
            b,
            CL_TRUE,
            0,
            SIZE,
            back.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    });
    assert!(back == words, "read-back differs");
    // A large fill, too.
    check(fill(q, b, &[1, 2, 3, 4, 5, 6, 7, 8], 8, SIZE - 16));
    finish(q);
    let out = read_bytes(q, b, 0, SIZE);
    assert_eq!(&out[..8], &words_bytes(&words[..2])[..]);
    assert!(out[8..SIZE - 8].chunks(8).all(|ch| ch == [1, 2, 3, 4, 5, 6, 7, 8]));
    release_mem(a);
    release_mem(b);
    teardown(q, c);
}

fn words_bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

/// The argument block of the native kernel: two buffers and a count. The
/// buffer handles are replaced by the buffers' addresses in clift's copy.
#[repr(C)]
struct NativeArgs {
    src: *mut c_void,
    dst: *mut c_void,
    count: u32,
}

extern "C" fn double_into(args: *mut c_void) {
    // SAFETY: clift passes its copy of a `NativeArgs` whose `src` and `dst`
    // now point to buffers of at least `count` u32s.
    unsafe {
        let a = &*(args as *const NativeArgs);
        let src = a.src as *const u32;
        let dst = a.dst as *mut u32;
        for i in 0..a.count as usize {
            *dst.add(i) = *src.add(i) * 2;
        }
    }
}

extern "C" fn nothing(_args: *mut c_void) {}

#[test]
fn native_kernel_writes_through_the_translated_pointers() {
    let c = context();
    let q = default_queue(c);
    let caps: cl_device_exec_capabilities = device_value(device(), CL_DEVICE_EXECUTION_CAPABILITIES);
    assert!(caps & CL_EXEC_NATIVE_KERNEL != 0);
    let n = 1000usize;
    let src_data: Vec<u32> = (0..n as u32).collect();
    let src = buffer(c, 0, n * 4);
    let dst = buffer(c, 0, n * 4);
    write_bytes(q, src, 0, &words_bytes(&src_data));
    let mut args = NativeArgs {
        src: src.cast(),
        dst: dst.cast(),
        count: n as u32,
    };
    let mems = [src, dst];
    let locs: [*const c_void; 2] = [
        (&args.src as *const *mut c_void).cast(),
        (&args.dst as *const *mut c_void).cast(),
    ];
    let gate = new_user_event(c);
    let mut ev = ptr::null_mut();
    // SAFETY: `args` is a valid block of its size; `locs` point inside it.
    check(unsafe {
        clEnqueueNativeKernel(
            q,
            Some(double_into),
            (&mut args as *mut NativeArgs).cast(),
            std::mem::size_of::<NativeArgs>(),
            2,
            mems.as_ptr(),
            locs.as_ptr(),
            1,
            &gate,
            &mut ev,
        )
    });
    // The block was copied: changing it now does not change the kernel's.
    args.count = 0;
    // SAFETY: valid user event.
    check(unsafe { clSetUserEventStatus(gate, CL_COMPLETE) });
    // SAFETY: forwards the buffer protocol of `info_value`.
    let ty: cl_command_type = info_value(|s, v, r| unsafe { clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, s, v, r) });
    assert_eq!(ty, CL_COMMAND_NATIVE_KERNEL);
    wait_release(ev);
    let out = read_bytes(q, dst, 0, n * 4);
    let want: Vec<u32> = src_data.iter().map(|x| x * 2).collect();
    assert_eq!(out, words_bytes(&want));
    // The application's block still holds its handles.
    assert_eq!(args.src, src.cast());
    // SAFETY: each call passes one bad argument; the rest is valid.
    unsafe {
        let size = std::mem::size_of::<NativeArgs>();
        let a = (&mut args as *mut NativeArgs).cast::<c_void>();
        // A kernel without arguments.
        check(clEnqueueNativeKernel(
            q,
            Some(nothing),
            ptr::null_mut(),
            0,
            0,
            ptr::null(),
            ptr::null(),
            0,
            ptr::null(),
            ptr::null_mut(),
        ));
        // CL_INVALID_VALUE if user_func is NULL.
        expect_err(
            clEnqueueNativeKernel(
                q,
                None,
                a,
                size,
                0,
                ptr::null(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // if args is NULL and cb_args > 0 or num_mem_objects > 0.
        expect_err(
            clEnqueueNativeKernel(
                q,
                Some(nothing),
                ptr::null_mut(),
                size,
                0,
                ptr::null(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueNativeKernel(
                q,
                Some(nothing),
                ptr::null_mut(),
                0,
                2,
                mems.as_ptr(),
                locs.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // if args is not NULL and cb_args is 0.
        expect_err(
            clEnqueueNativeKernel(
                q,
                Some(nothing),
                a,
                0,
                0,
                ptr::null(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // if num_mem_objects > 0 and mem_list or args_mem_loc are NULL.
        expect_err(
            clEnqueueNativeKernel(
                q,
                Some(nothing),
                a,
                size,
                2,
                ptr::null(),
                locs.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueNativeKernel(
                q,
                Some(nothing),
                a,
                size,
                2,
                mems.as_ptr(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // if num_mem_objects = 0 and mem_list or args_mem_loc are not NULL.
        expect_err(
            clEnqueueNativeKernel(
                q,
                Some(nothing),
                a,
                size,
                0,
                mems.as_ptr(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueNativeKernel(
                q,
                Some(nothing),
                a,
                size,
                0,
                ptr::null(),
                locs.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // CL_INVALID_MEM_OBJECT if a memory object in mem_list is not valid
        // or is not a buffer object.
        let bad = [src, q as cl_mem];
        expect_err(
            clEnqueueNativeKernel(
                q,
                Some(nothing),
                a,
                size,
                2,
                bad.as_ptr(),
                locs.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        let mut err = 0;
        let pipe = clCreatePipe(c, 0, 4, 4, ptr::null(), &mut err);
        check(err);
        let with_pipe = [src, pipe];
        expect_err(
            clEnqueueNativeKernel(
                q,
                Some(nothing),
                a,
                size,
                2,
                with_pipe.as_ptr(),
                locs.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        release_mem(pipe);
        // CL_INVALID_COMMAND_QUEUE.
        expect_err(
            clEnqueueNativeKernel(
                ptr::null_mut(),
                Some(nothing),
                a,
                size,
                0,
                ptr::null(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_COMMAND_QUEUE,
        );
        // CL_INVALID_EVENT_WAIT_LIST.
        expect_err(
            clEnqueueNativeKernel(
                q,
                Some(nothing),
                a,
                size,
                0,
                ptr::null(),
                ptr::null(),
                1,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_EVENT_WAIT_LIST,
        );
    }
    finish(q);
    release(gate);
    release_mem(src);
    release_mem(dst);
    teardown(q, c);
}

#[test]
fn many_host_threads_transfer_at_once() {
    let c = context();
    let q = queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let shared = buffer(c, 0, 64 * 1024);
    let (cu, qu, su) = (c as usize, q as usize, shared as usize);
    let threads: Vec<_> = (0..8u8)
        .map(|t| {
            std::thread::spawn(move || {
                let (c, q, shared) = (cu as cl_context, qu as cl_command_queue, su as cl_mem);
                for round in 0..20u8 {
                    let data = pattern_bytes(8192, t.wrapping_mul(31).wrapping_add(round));
                    let own = buffer(c, 0, 8192);
                    write_bytes(q, own, 0, &data);
                    // Each thread owns one 8 KiB slice of the shared buffer.
                    check(copy(q, own, shared, 0, t as usize * 8192, 8192));
                    finish(q);
                    let p = map(q, shared, true, CL_MAP_READ, t as usize * 8192, 8192).expect("map");
                    // SAFETY: the map covers 8192 readable bytes until unmapped.
                    let seen = unsafe { std::slice::from_raw_parts(p, 8192) }.to_vec();
                    check(unmap(q, shared, p));
                    assert_eq!(seen, data, "thread {t} round {round}");
                    assert_eq!(read_bytes(q, own, 0, 8192), data);
                    release_mem(own);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("thread");
    }
    finish(q);
    assert_eq!(mem_value::<cl_uint>(shared, CL_MEM_MAP_COUNT), 0);
    release_mem(shared);
    teardown(q, c);
}
