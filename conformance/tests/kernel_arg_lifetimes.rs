//! What kernel arguments keep alive, through the loader: nothing. "A kernel
//! object does not update the reference count for objects such as memory or
//! sampler objects specified as argument values"; "Implementations shall
//! not allow cl_kernel objects to hold reference counts to cl_kernel
//! arguments". A memory object released by the application is deleted (its
//! destructor callbacks run) while a kernel, or a clone of it, still names
//! it; enqueueing that kernel then answers CL_INVALID_KERNEL_ARGS, as for an
//! argument never set. A command enqueued before the release keeps what it
//! uses until it has run: "After the memobj reference count becomes zero and
//! commands queued for execution on a command-queue(s) that use memobj have
//! finished, the memory object is deleted." SVM allocations freed while a
//! command that uses them waits stay mapped until it has run.

use std::ffi::c_void;
use std::ptr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clift_conformance::programs::{release_context, release_program, source_program};
use clift_conformance::*;

const SOURCE: &str = "
kernel void add1(global int *a) { a[get_global_id(0)] += 1; }
kernel void fill(global int *a, int v) { a[get_global_id(0)] = v; }
kernel void with_pipe(read_only pipe int p, global int *out) { out[0] = 1; }
";

/// A context, a queue and the built program of [`SOURCE`].
struct Setup {
    ctx: cl_context,
    queue: cl_command_queue,
    program: cl_program,
}

impl Setup {
    fn new() -> Setup {
        let ctx = context();
        let queue = default_queue(ctx);
        let program = source_program(ctx, SOURCE);
        let rc = build(program, "-cl-std=CL2.0");
        assert_eq!(rc, CL_SUCCESS, "{}", build_log(program, device()));
        Setup { ctx, queue, program }
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        // SAFETY: the queue is the test's own, released once.
        check(unsafe { clReleaseCommandQueue(self.queue) });
        release_program(self.program);
        release_context(self.ctx);
    }
}

/// The memory objects whose destructor callbacks have run.
#[derive(Default)]
struct Destroyed(Mutex<Vec<usize>>);

extern "C" fn on_destroy(m: cl_mem, user: *mut c_void) {
    // SAFETY: `user` is the `Destroyed` the test keeps alive (in an `Arc`
    // it holds) until the callbacks have run.
    let log = unsafe { &*(user as *const Destroyed) };
    log.0.lock().unwrap().push(m as usize);
}

impl Destroyed {
    fn watch(self: &Arc<Self>, m: cl_mem) {
        // SAFETY: the callback matches the signature; `self` outlives `m`
        // (the test holds the Arc until the callback has run).
        check(unsafe { clSetMemObjectDestructorCallback(m, Some(on_destroy), Arc::as_ptr(self).cast_mut().cast()) });
    }

    fn has(&self, m: cl_mem) -> bool {
        self.0.lock().unwrap().contains(&(m as usize))
    }

    /// Waits up to 5 s for `m`'s callback.
    fn wait_for(&self, m: cl_mem) -> bool {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(5) {
            if self.has(m) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        false
    }
}

fn enqueue_1d(q: cl_command_queue, k: cl_kernel, n: usize, wait: &[cl_event]) -> (cl_int, cl_event) {
    let global = [n];
    let (count, list) = wait_args(wait);
    let mut ev = ptr::null_mut();
    // SAFETY: valid handles; one dimension; a wait list of `count` events.
    let rc =
        unsafe { clEnqueueNDRangeKernel(q, k, 1, ptr::null(), global.as_ptr(), ptr::null(), count, list, &mut ev) };
    (rc, ev)
}

fn clone_kernel(k: cl_kernel) -> cl_kernel {
    let mut err = 0;
    // SAFETY: a valid kernel and error slot.
    let c = unsafe { clCloneKernel(k, &mut err) };
    check(err);
    c
}

fn release_kernel(k: cl_kernel) {
    // SAFETY: a kernel the test created, released once.
    check(unsafe { clReleaseKernel(k) });
}

fn release_event(e: cl_event) {
    // SAFETY: an event the test holds, released once.
    check(unsafe { clReleaseEvent(e) });
}

#[test]
fn a_buffer_named_by_kernel_arguments_is_deleted_when_released() {
    let s = Setup::new();
    let log = Arc::new(Destroyed::default());
    let k = kernel(s.program, "add1");
    let buf = buffer(s.ctx, CL_MEM_READ_WRITE, 256);
    log.watch(buf);
    check(set_arg(k, 0, &buf));
    let twin = clone_kernel(k);
    release_mem(buf);
    // Neither the kernel nor its clone holds the buffer.
    assert!(log.wait_for(buf), "the destructor callback runs after the last release");
    // Enqueueing a kernel whose argument names the deleted buffer: an
    // error, for the kernel, its clone and a clone made now.
    let late = clone_kernel(k);
    for kk in [k, twin, late] {
        expect_err(enqueue_1d(s.queue, kk, 64, &[]).0, CL_INVALID_KERNEL_ARGS);
    }
    // CL_INVALID_KERNEL_ARGS for clEnqueueTask too.
    // SAFETY: valid queue and kernel; no events.
    #[allow(deprecated)]
    let rc = unsafe { clEnqueueTask(s.queue, k, 0, ptr::null(), ptr::null_mut()) };
    expect_err(rc, CL_INVALID_KERNEL_ARGS);
    // A new buffer makes the kernel runnable again.
    let fresh = buffer(s.ctx, CL_MEM_READ_WRITE, 256);
    write_bytes(s.queue, fresh, 0, &[0u8; 256]);
    check(set_arg(k, 0, &fresh));
    let (rc, ev) = enqueue_1d(s.queue, k, 64, &[]);
    check(rc);
    release_event(ev);
    let out = read_bytes(s.queue, fresh, 0, 256);
    assert!(out.chunks_exact(4).all(|c| c == 1i32.to_ne_bytes()), "the kernel ran");
    release_mem(fresh);
    for kk in [k, twin, late] {
        release_kernel(kk);
    }
}

#[test]
fn sub_buffers_and_their_parents_follow_the_same_rule() {
    let s = Setup::new();
    let log = Arc::new(Destroyed::default());
    let parent = buffer(s.ctx, CL_MEM_READ_WRITE, 1024);
    let sub = sub_buffer(parent, CL_MEM_READ_WRITE, 512, 256).expect("sub-buffer");
    log.watch(parent);
    log.watch(sub);
    let on_parent = kernel(s.program, "add1");
    let on_sub = kernel(s.program, "add1");
    check(set_arg(on_parent, 0, &parent));
    check(set_arg(on_sub, 0, &sub));
    // The parent, released by the application, lives on for its sub-buffer
    // ("memobj cannot be deleted until all sub-buffer objects associated
    // with memobj are deleted"), but its handle is gone: the argument
    // naming it names nothing.
    release_mem(parent);
    assert!(!log.has(parent));
    expect_err(enqueue_1d(s.queue, on_parent, 64, &[]).0, CL_INVALID_KERNEL_ARGS);
    let (rc, ev) = enqueue_1d(s.queue, on_sub, 64, &[]);
    check(rc);
    release_event(ev);
    // SAFETY: a valid queue.
    check(unsafe { clFinish(s.queue) });
    // The sub-buffer is deleted on release though a kernel names it; then
    // the parent.
    release_mem(sub);
    assert!(log.wait_for(sub) && log.wait_for(parent));
    expect_err(enqueue_1d(s.queue, on_sub, 64, &[]).0, CL_INVALID_KERNEL_ARGS);
    release_kernel(on_parent);
    release_kernel(on_sub);
}

#[test]
fn a_pipe_named_by_a_kernel_argument_is_deleted_when_released() {
    let s = Setup::new();
    let log = Arc::new(Destroyed::default());
    let k = kernel(s.program, "with_pipe");
    let mut err = 0;
    // SAFETY: a valid context; no properties.
    let pipe = unsafe { clCreatePipe(s.ctx, CL_MEM_READ_WRITE, 4, 16, ptr::null(), &mut err) };
    check(err);
    let out = buffer(s.ctx, CL_MEM_READ_WRITE, 4);
    log.watch(pipe);
    check(set_arg(k, 0, &pipe));
    check(set_arg(k, 1, &out));
    release_mem(pipe);
    assert!(log.wait_for(pipe), "the pipe's destructor callback runs");
    expect_err(enqueue_1d(s.queue, k, 1, &[]).0, CL_INVALID_KERNEL_ARGS);
    release_mem(out);
    release_kernel(k);
}

#[test]
fn a_queued_command_keeps_its_buffer_until_it_has_run() {
    let s = Setup::new();
    let log = Arc::new(Destroyed::default());
    let mut host = vec![0i32; 64];
    let mut err = 0;
    // SAFETY: `host` outlives the buffer (the test waits for its callback).
    let buf = unsafe {
        clCreateBuffer(
            s.ctx,
            CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
            256,
            host.as_mut_ptr().cast(),
            &mut err,
        )
    };
    check(err);
    log.watch(buf);
    let k = kernel(s.program, "fill");
    check(set_arg(k, 0, &buf));
    check(set_arg(k, 1, &7i32));
    let gate = new_user_event(s.ctx);
    let (rc, ev) = enqueue_1d(s.queue, k, 64, &[gate]);
    check(rc);
    // Released (buffer and kernel) right after the enqueue, before the
    // command can run: the command still holds both.
    release_mem(buf);
    release_kernel(k);
    std::thread::sleep(Duration::from_millis(50));
    assert!(!log.has(buf), "a queued command still uses the buffer");
    // SAFETY: valid events.
    unsafe {
        check(clSetUserEventStatus(gate, CL_COMPLETE));
        check(clWaitForEvents(1, &ev));
    }
    assert_eq!(event_status(ev), CL_COMPLETE);
    assert!(log.wait_for(buf), "the callback runs once the command has run");
    assert_eq!(host, vec![7; 64], "the kernel wrote the buffer");
    release_event(ev);
    release_event(gate);
}

#[test]
fn svm_memory_freed_under_a_waiting_kernel_stays_until_it_has_run() {
    let s = Setup::new();
    // Large enough that the allocator gives it pages of its own, which a
    // free returns to the system at once.
    const N: usize = 4 << 20;
    // SAFETY: a valid context; default alignment.
    let svm = unsafe { clSVMAlloc(s.ctx, CL_MEM_READ_WRITE, N * 4, 0) };
    assert!(!svm.is_null());
    let k = kernel(s.program, "fill");
    // SAFETY: an SVM pointer of this context.
    check(unsafe { clSetKernelArgSVMPointer(k, 0, svm) });
    check(set_arg(k, 1, &3i32));
    let gate = new_user_event(s.ctx);
    let (rc, ev) = enqueue_1d(s.queue, k, N, &[gate]);
    check(rc);
    // SAFETY: "clSVMFree does not wait for previously enqueued commands
    // that may be using svm_pointer to finish": the kernel has not run yet.
    unsafe { clSVMFree(s.ctx, svm) };
    // SAFETY: valid events.
    unsafe {
        check(clSetUserEventStatus(gate, CL_COMPLETE));
        check(clWaitForEvents(1, &ev));
    }
    assert_eq!(event_status(ev), CL_COMPLETE);
    // The argument now names no allocation of the context: with fine-grain
    // system SVM it would be taken as a system pointer, which the
    // application must keep valid, so the kernel is not enqueued again.
    release_event(ev);
    release_event(gate);
    release_kernel(k);
}
