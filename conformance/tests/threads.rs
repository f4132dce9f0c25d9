//! Thread safety (API spec appendix A.2): many host threads create, use and
//! release contexts, queues (host and on-device), events, images and
//! samplers at once, sharing some of them, and nothing is leaked: every
//! context's destructor callback has run by the end (a context is destroyed
//! only after every queue, event, memory object and sampler that refers to
//! it is gone). Device queues created at
//! once on one context keep its one default queue and its limit. Programs
//! are built, launched and released on many threads while clift compiles
//! their 8-lane bodies in the background.

use std::ffi::c_void;
use std::mem::size_of;
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clift_conformance::*;

static CREATED: AtomicUsize = AtomicUsize::new(0);
static DESTROYED: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_context_destroyed(_c: cl_context, _u: *mut c_void) {
    DESTROYED.fetch_add(1, Ordering::SeqCst);
}

fn tracked_context() -> cl_context {
    let c = context();
    // SAFETY: valid context and callback.
    check(unsafe { clSetContextDestructorCallback(c, Some(on_context_destroyed), ptr::null_mut()) });
    CREATED.fetch_add(1, Ordering::SeqCst);
    c
}

#[derive(Clone, Copy)]
struct Shared(usize);
// SAFETY: OpenCL handles may be used from any thread (API spec A.2).
unsafe impl Send for Shared {}

fn own_objects_round(i: usize) {
    let c = tracked_context();
    let props = if i.is_multiple_of(2) {
        0
    } else {
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE
    };
    let q = queue(c, props);
    let mut err = 0;
    // SAFETY: valid handles throughout; every object is released once.
    unsafe {
        let u = clCreateUserEvent(c, &mut err);
        check(err);
        let mut events = Vec::new();
        for _ in 0..8 {
            let mut e = ptr::null_mut();
            check(clEnqueueMarkerWithWaitList(q, 1, &u, &mut e));
            events.push(e);
        }
        let buf = buffer(c, CL_MEM_READ_WRITE, 4096);
        check(clRetainEvent(events[0]));
        check(clSetUserEventStatus(u, CL_COMPLETE));
        check(clWaitForEvents(events.len() as cl_uint, events.as_ptr()));
        check(clFinish(q));
        check(clReleaseEvent(events[0]));
        for e in events {
            check(clReleaseEvent(e));
        }
        check(clReleaseEvent(u));
        check(clReleaseMemObject(buf));
        // An image, written and read back, and a sampler: both hold the
        // context until released.
        let (img, smp) = image_and_sampler(c, i);
        let texels: Vec<u8> = (0..64).map(|b| (b + i) as u8).collect();
        let (origin, region) = ([0usize; 3], [4usize, 4, 1]);
        // Blocking: the queue may be out of order.
        check(clEnqueueWriteImage(
            q,
            img,
            CL_TRUE,
            origin.as_ptr(),
            region.as_ptr(),
            0,
            0,
            texels.as_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        ));
        let mut back = vec![0u8; 64];
        check(clEnqueueReadImage(
            q,
            img,
            CL_TRUE,
            origin.as_ptr(),
            region.as_ptr(),
            0,
            0,
            back.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        ));
        assert_eq!(back, texels);
        check(clReleaseSampler(smp));
        check(clReleaseMemObject(img));
        // An on-device queue of the context, the default: it holds the
        // context until released.
        let dq = device_queue(c, CL_QUEUE_ON_DEVICE_DEFAULT);
        let mut default: cl_command_queue = ptr::null_mut();
        check(clGetCommandQueueInfo(
            q,
            CL_QUEUE_DEVICE_DEFAULT,
            size_of::<cl_command_queue>(),
            (&mut default as *mut cl_command_queue).cast(),
            ptr::null_mut(),
        ));
        assert_eq!(default, dq);
        check(clReleaseCommandQueue(dq));
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

/// A 4x4 RGBA8 image and a sampler of `c` (which kind of each varies with
/// `i`).
#[allow(deprecated)] // clCreateSampler is exercised on purpose
fn image_and_sampler(c: cl_context, i: usize) -> (cl_mem, cl_sampler) {
    let format = cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: CL_UNORM_INT8,
    };
    let desc = cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE2D,
        image_width: 4,
        image_height: 4,
        image_depth: 0,
        image_array_size: 0,
        image_row_pitch: 0,
        image_slice_pitch: 0,
        num_mip_levels: 0,
        num_samples: 0,
        buffer: ptr::null_mut(),
    };
    let mut err = 0;
    // SAFETY: valid context, format and descriptor; no host pointer.
    let img = unsafe { clCreateImage(c, CL_MEM_READ_WRITE, &format, &desc, ptr::null_mut(), &mut err) };
    check(err);
    let smp = if i.is_multiple_of(2) {
        // SAFETY: valid context.
        unsafe { clCreateSampler(c, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &mut err) }
    } else {
        let props = [
            CL_SAMPLER_NORMALIZED_COORDS as cl_sampler_properties,
            CL_FALSE as u64,
            0,
        ];
        // SAFETY: valid context and a zero-terminated list.
        unsafe { clCreateSamplerWithProperties(c, props.as_ptr(), &mut err) }
    };
    check(err);
    (img, smp)
}

/// clCreateCommandQueueWithProperties of an on-device queue with `extra`
/// properties: the queue, or NULL with the error in `err`.
fn try_device_queue(c: cl_context, extra: cl_command_queue_properties, err: &mut cl_int) -> cl_command_queue {
    let props = [
        CL_QUEUE_PROPERTIES as cl_queue_properties,
        CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | extra,
        0,
    ];
    // SAFETY: a valid context and device, a zero-terminated list.
    unsafe { clCreateCommandQueueWithProperties(c, device(), props.as_ptr(), err) }
}

fn device_queue(c: cl_context, extra: cl_command_queue_properties) -> cl_command_queue {
    let mut err = 0;
    let q = try_device_queue(c, extra, &mut err);
    check(err);
    q
}

/// Device queues of the shared context alive now, as the threads count them
/// (a lower bound of what the context holds).
static LIVE_DEVICE_QUEUES: AtomicUsize = AtomicUsize::new(0);

#[test]
fn many_threads_create_use_and_release_objects() {
    let shared_ctx = tracked_context();
    let shared_q = queue(shared_ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let shared_default = device_queue(shared_ctx, CL_QUEUE_ON_DEVICE_DEFAULT);
    let max_queues: cl_uint = device_value(device(), CL_DEVICE_MAX_ON_DEVICE_QUEUES);
    let (sc, sq, sd) = (
        Shared(shared_ctx as usize),
        Shared(shared_q as usize),
        Shared(shared_default as usize),
    );
    let threads: Vec<_> = (0..8)
        .map(|t| {
            std::thread::spawn(move || {
                let (c, q, d) = (sc.0 as cl_context, sq.0 as cl_command_queue, sd.0 as cl_command_queue);
                for i in 0..40 {
                    own_objects_round(t + i);
                    // Work on the shared queue and context from every thread.
                    let mut err = 0;
                    // SAFETY: the shared handles stay valid until all threads join.
                    unsafe {
                        check(clRetainContext(c));
                        let u = clCreateUserEvent(c, &mut err);
                        check(err);
                        let mut e = ptr::null_mut();
                        check(clEnqueueMarkerWithWaitList(q, 1, &u, &mut e));
                        check(clSetUserEventStatus(u, CL_COMPLETE));
                        check(clWaitForEvents(1, &e));
                        check(clReleaseEvent(e));
                        check(clReleaseEvent(u));
                        // Images and samplers of the shared context, made
                        // and released by every thread at once.
                        let (img, smp) = image_and_sampler(c, t + i);
                        check(clRetainSampler(smp));
                        check(clReleaseSampler(smp));
                        check(clReleaseSampler(smp));
                        check(clReleaseMemObject(img));
                        check(clReleaseContext(c));
                    }
                    // The default device queue is the one created first, for
                    // every thread at once; other device queues stay within
                    // the limit (the default holds one slot).
                    assert_eq!(device_queue(c, CL_QUEUE_ON_DEVICE_DEFAULT), d);
                    // SAFETY: the reference just returned.
                    check(unsafe { clReleaseCommandQueue(d) });
                    let mut err = 0;
                    let dq = try_device_queue(c, CL_QUEUE_PROFILING_ENABLE, &mut err);
                    if err == CL_SUCCESS {
                        let live = LIVE_DEVICE_QUEUES.fetch_add(1, Ordering::SeqCst) + 1;
                        assert!(live < max_queues as usize, "{live} device queues besides the default");
                        LIVE_DEVICE_QUEUES.fetch_sub(1, Ordering::SeqCst);
                        // SAFETY: the queue just created.
                        check(unsafe { clReleaseCommandQueue(dq) });
                    } else {
                        expect_err(err, CL_OUT_OF_RESOURCES);
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("worker thread");
    }
    // SAFETY: valid handles, released once.
    unsafe {
        check(clFinish(shared_q));
        check(clReleaseCommandQueue(shared_q));
        check(clReleaseCommandQueue(shared_default));
        check(clReleaseContext(shared_ctx));
    }
    // Commands drop their references as they retire: allow the pool a moment.
    let t = Instant::now();
    while DESTROYED.load(Ordering::SeqCst) < CREATED.load(Ordering::SeqCst) && t.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        DESTROYED.load(Ordering::SeqCst),
        CREATED.load(Ordering::SeqCst),
        "every context was destroyed"
    );
}

static PROGRAM_CONTEXTS: AtomicUsize = AtomicUsize::new(0);
static PROGRAM_CONTEXTS_DESTROYED: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_program_context_destroyed(_c: cl_context, _u: *mut c_void) {
    PROGRAM_CONTEXTS_DESTROYED.fetch_add(1, Ordering::SeqCst);
}

/// One thread's round of clbench's vadd: build, launch and release, in one
/// of three orders by `i`: released right after one launch (its 8-lane
/// bodies asked for and not yet compiled, most likely), launched again and
/// again across the switch to the 8-lane bodies, or released while its
/// launch is still queued behind a user event.
fn vadd_round(il: &[u8], i: usize) {
    let c = context();
    // SAFETY: valid context and callback.
    check(unsafe { clSetContextDestructorCallback(c, Some(on_program_context_destroyed), ptr::null_mut()) });
    PROGRAM_CONTEXTS.fetch_add(1, Ordering::SeqCst);
    let q = queue(c, 0);
    let p = il_program(c, il);
    check(build(p, ""));
    let k = kernel(p, "vadd");
    let n = 1000 + i as u32;
    let a: Vec<f32> = (0..n).map(|j| j as f32 * 0.25 + i as f32).collect();
    let b: Vec<f32> = (0..n).map(|j| 7.0 - j as f32).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_ne_bytes()).collect::<Vec<u8>>();
    let (ba, bb, bc) = (
        buffer(c, CL_MEM_READ_WRITE, 4 * n as usize),
        buffer(c, CL_MEM_READ_WRITE, 4 * n as usize),
        buffer(c, CL_MEM_READ_WRITE, 4 * n as usize),
    );
    write_bytes(q, ba, 0, &bytes(&a));
    write_bytes(q, bb, 0, &bytes(&b));
    for (index, m) in [ba, bb, bc].iter().enumerate() {
        check(set_arg(k, index as cl_uint, m));
    }
    check(set_arg(k, 3, &n));
    let want: Vec<u8> = bytes(&a.iter().zip(&b).map(|(x, y)| x + y).collect::<Vec<f32>>());
    let global = n as usize;
    // SAFETY: valid queue and kernel with its arguments set; `global`
    // lives across the call; `wait` is a valid user event of `c`.
    let launch = |wait: Option<cl_event>| unsafe {
        let (count, list) = match &wait {
            Some(e) => (1, e as *const cl_event),
            None => (0, ptr::null()),
        };
        check(clEnqueueNDRangeKernel(
            q,
            k,
            1,
            ptr::null(),
            &global,
            ptr::null(),
            count,
            list,
            ptr::null_mut(),
        ));
    };
    let mut err = 0;
    match i % 3 {
        0 => launch(None),
        1 => {
            for _ in 0..20 {
                write_bytes(q, bc, 0, &vec![0u8; 4 * n as usize]);
                launch(None);
                assert_eq!(read_bytes(q, bc, 0, 4 * n as usize), want, "round {i}");
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        _ => {
            // SAFETY: a valid context and error pointer.
            let gate = unsafe { clCreateUserEvent(c, &mut err) };
            check(err);
            launch(Some(gate));
            // The kernel and program go before the queued launch runs.
            // SAFETY: handles this function created, released once.
            unsafe {
                check(clReleaseKernel(k));
                check(clReleaseProgram(p));
                check(clSetUserEventStatus(gate, CL_COMPLETE));
                check(clReleaseEvent(gate));
            }
        }
    }
    assert_eq!(read_bytes(q, bc, 0, 4 * n as usize), want, "round {i}");
    // SAFETY: handles this function created, each released once.
    unsafe {
        if i % 3 != 2 {
            check(clReleaseKernel(k));
            check(clReleaseProgram(p));
        }
        for m in [ba, bb, bc] {
            check(clReleaseMemObject(m));
        }
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

#[test]
fn programs_built_launched_and_released_while_their_8_lane_bodies_compile() {
    // vadd gets an 8-lane body, compiled on clift's background thread
    // after the program's first launch: eight threads build, launch and
    // release programs in every order against it, and every launch
    // computes the right sums, and every context is destroyed in the end
    // (a pending background compilation holds no context).
    let il = spirv("clbench/O2/vadd");
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let il = il.clone();
            std::thread::spawn(move || {
                for i in 0..12 {
                    vadd_round(&il, t * 12 + i);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("worker thread");
    }
    let t = Instant::now();
    while PROGRAM_CONTEXTS_DESTROYED.load(Ordering::SeqCst) < PROGRAM_CONTEXTS.load(Ordering::SeqCst)
        && t.elapsed() < Duration::from_secs(10)
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        PROGRAM_CONTEXTS_DESTROYED.load(Ordering::SeqCst),
        PROGRAM_CONTEXTS.load(Ordering::SeqCst),
        "every context was destroyed"
    );
}
