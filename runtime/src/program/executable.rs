//! A successful build's executable, and the kernels it offers.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, OnceLock, Weak};

use parking_lot::Mutex;

use clift_jit as jit;

use super::state::State;
use super::Program;
use crate::device::Device;
use crate::error::{fail, ClResult};
use crate::options::ParsedOptions;
use opencl_sys::*;

pub use jit::KernelInfo;

/// A successful build for one device: the module's kernels and the binary
/// that reproduces it.
#[derive(Debug)]
pub struct Executable {
    /// The kernels, in the module's entry-point order.
    pub kernels: Vec<Arc<KernelInfo>>,
    /// CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE.
    pub global_variable_total_size: usize,
    /// The options it was built with.
    pub options: ParsedOptions,
    /// The clift binary of this build (CL_PROGRAM_BINARIES).
    pub binary: Vec<u8>,
    /// The machine code of the kernels code generation supports (`None`
    /// when it supports none of them).
    pub compiled: Option<Arc<jit::CompiledProgram>>,
    /// The same kernels with the 8-lane bodies the build left for later
    /// ([`jit::CodegenConfig::wide_later`]), once compiled: launches prefer
    /// them. Both programs share the program-scope variables, and each
    /// launch runs one program's code from start to end.
    pub wide: Arc<OnceLock<Arc<jit::CompiledProgram>>>,
    /// What compiling those takes, until the first launch of one of the
    /// program's kernels hands it to the background thread.
    pub wide_pending: WidePending,
    /// CL_PROGRAM_BUILD_LOG of a successful build: one line per kernel that
    /// cannot run yet.
    pub log: String,
}

impl Executable {
    /// The work-group function of kernel `name`, with the program owning
    /// its code, if code generation supports the kernel.
    ///
    /// The first call (a launch) has the background thread compile the
    /// 8-lane bodies the build left for later, if any: so a program that
    /// is built and never run costs no more than its build, and builds in
    /// a row do not compete with background compilations.
    pub fn work_group_fn(&self, name: &str) -> Option<(Arc<jit::CompiledProgram>, jit::launch_abi::KernelCode)> {
        let wide = self.wide.get();
        if wide.is_none() {
            self.request_wide();
        }
        [wide, self.compiled.as_ref()]
            .into_iter()
            .flatten()
            .find_map(|c| c.kernel(name).map(|f| (c.clone(), f)))
    }

    /// Has the background thread compile the 8-lane bodies that this
    /// executable's build left for later, once, and hand them to later
    /// launches through `self.wide`. Kernels run the build's code until
    /// then, or for good if the compilation fails or no thread can be
    /// started: the same results, slower.
    fn request_wide(&self) {
        let Some((front, narrow)) = self.wide_pending.take() else {
            return;
        };
        if let Some(queue) = wide_queue() {
            // A send fails only if the thread is gone: 4-lane bodies then.
            let _ = queue.send(WideJob {
                front,
                narrow,
                slot: Arc::downgrade(&self.wide),
            });
        }
    }
}

/// The front end of a build and its code, while its 8-lane bodies wait for
/// the program's first launch.
pub struct WidePending {
    /// Set once the job is handed over, or from the start when the build
    /// left nothing for later: launches then skip the lock.
    done: AtomicBool,
    job: Mutex<Option<(jit::FrontEnd, Arc<jit::CompiledProgram>)>>,
}

impl WidePending {
    /// For a build whose code is `narrow`, from `front`, which the build
    /// keeps only when it left 8-lane bodies for later: pending then.
    pub(super) fn new(front: Option<jit::FrontEnd>, narrow: Option<&Arc<jit::CompiledProgram>>) -> WidePending {
        let job = front.zip(narrow.cloned());
        WidePending {
            done: AtomicBool::new(job.is_none()),
            job: Mutex::new(job),
        }
    }

    /// The job, to the first caller only.
    fn take(&self) -> Option<(jit::FrontEnd, Arc<jit::CompiledProgram>)> {
        if self.done.load(Ordering::Acquire) {
            return None;
        }
        let job = self.job.lock().take();
        self.done.store(true, Ordering::Release);
        job
    }
}

impl std::fmt::Debug for WidePending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pending = !self.done.load(Ordering::Acquire);
        f.debug_struct("WidePending").field("pending", &pending).finish()
    }
}

/// One program's 8-lane bodies to compile.
struct WideJob {
    front: jit::FrontEnd,
    narrow: Arc<jit::CompiledProgram>,
    /// Where they go; gone if the program was released meanwhile, and
    /// then they are not compiled.
    slot: Weak<OnceLock<Arc<jit::CompiledProgram>>>,
}

/// The queue of the thread that compiles 8-lane bodies, one program at a
/// time in the order of their first launches (so that many programs do not
/// start a thread each); started on first use, `None` if it cannot be.
fn wide_queue() -> Option<&'static mpsc::Sender<WideJob>> {
    static QUEUE: OnceLock<Option<mpsc::Sender<WideJob>>> = OnceLock::new();
    QUEUE
        .get_or_init(|| {
            let (send, receive) = mpsc::channel::<WideJob>();
            let worker = move || {
                for job in receive {
                    if job.slot.strong_count() == 0 {
                        continue;
                    }
                    let wide = jit::compile_wide(&job.front, &job.narrow);
                    if let (Some(wide), Some(slot)) = (wide, job.slot.upgrade()) {
                        // The only writer: the slot is empty.
                        let _ = slot.set(Arc::new(wide));
                    }
                }
            };
            let thread = std::thread::Builder::new().name("clift-wide".into()).spawn(worker);
            thread.ok().map(|_| send)
        })
        .as_ref()
}

impl Program {
    // -- executables and kernels ---------------------------------------------

    /// The executables of the devices with a successful build.
    fn executables(st: &State) -> Vec<Arc<Executable>> {
        st.devices.iter().filter_map(|d| d.built.clone()).collect()
    }

    /// The executable for `device`: its own build, else (for a sub-device
    /// with none built) its nearest ancestor's (see `Program::answering`).
    pub fn executable_for(&self, device: &Arc<Device>) -> Option<Arc<Executable>> {
        let st = self.state.lock();
        let i = self.answering(&st, device)?;
        st.devices[i].built.clone()
    }

    /// The kernels that can be created with clCreateKernel (block kernels,
    /// which only device-side enqueue launches, are not among them): those of the
    /// first built device whose definition is the same on every built
    /// device ("Kernel objects are not created for any __kernel functions in
    /// program that do not have the same function definition across all
    /// devices for which a program executable has been successfully
    /// built"). `CL_INVALID_PROGRAM_EXECUTABLE` if no device has a build.
    fn kernel_list(st: &State) -> ClResult<Vec<Arc<KernelInfo>>> {
        let exes = Self::executables(st);
        let Some(first) = exes.first() else {
            return fail(CL_INVALID_PROGRAM_EXECUTABLE);
        };
        Ok(first
            .kernels
            .iter()
            .filter(|k| !k.block_invoke)
            .filter(|k| exes.iter().all(|e| e.kernels.iter().any(|o| same_definition(k, o))))
            .cloned()
            .collect())
    }

    /// The interface of kernel `name`, attaching a kernel object to the
    /// program (see `Program::detach_kernel`).
    pub fn attach_kernel(&self, name: &str) -> ClResult<Arc<KernelInfo>> {
        let mut st = self.state.lock();
        let exes = Self::executables(&st);
        // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
        // executable for program.
        if exes.is_empty() {
            return fail(CL_INVALID_PROGRAM_EXECUTABLE);
        }
        let found: Vec<&Arc<KernelInfo>> = exes
            .iter()
            .filter_map(|e| e.kernels.iter().find(|k| k.name == name && !k.block_invoke))
            .collect();
        // CL_INVALID_KERNEL_NAME if kernel_name is not found in program.
        let Some(first) = found.first() else {
            return fail(CL_INVALID_KERNEL_NAME);
        };
        // CL_INVALID_KERNEL_DEFINITION if the function definition for
        // __kernel function given by kernel_name such as the number of
        // arguments, the argument types are not the same for all devices for
        // which the program executable has been built.
        if found.len() != exes.len() || found.iter().any(|k| !same_definition(first, k)) {
            return fail(CL_INVALID_KERNEL_DEFINITION);
        }
        let info = Arc::clone(first);
        st.kernels += 1;
        Ok(info)
    }

    /// clCreateKernelsInProgram: every kernel, each attached.
    pub fn attach_all_kernels(&self) -> ClResult<Vec<Arc<KernelInfo>>> {
        let mut st = self.state.lock();
        // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
        // executable for any device in program.
        let list = Self::kernel_list(&st)?;
        st.kernels += list.len();
        Ok(list)
    }

    /// Attaches one more kernel object (clCloneKernel).
    pub(crate) fn attach_clone(&self) {
        self.state.lock().kernels += 1;
    }

    /// A kernel object of this program was destroyed.
    pub(crate) fn detach_kernel(&self) {
        let mut st = self.state.lock();
        st.kernels = st.kernels.saturating_sub(1);
    }

    /// The names of the kernels clCreateKernel can create (without attaching).
    pub fn kernel_names(&self) -> ClResult<Vec<String>> {
        let st = self.state.lock();
        Ok(Self::kernel_list(&st)?.iter().map(|k| k.name.clone()).collect())
    }
}

/// Whether two builds define a kernel the same way (name and arguments).
fn same_definition(a: &KernelInfo, b: &KernelInfo) -> bool {
    a.name == b.name
        && a.args.len() == b.args.len()
        && a.args
            .iter()
            .zip(&b.args)
            .all(|(x, y)| x.kind == y.kind && x.size == y.size && x.address_qualifier == y.address_qualifier)
}
