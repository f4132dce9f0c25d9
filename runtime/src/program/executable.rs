//! A successful build's executable, and the kernels it offers.

use std::sync::Arc;

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
    /// CL_PROGRAM_BUILD_LOG of a successful build: one line per kernel that
    /// cannot run yet.
    pub log: String,
}

impl Executable {
    /// The work-group function of kernel `name`, with the program owning
    /// its code, if code generation supports the kernel.
    pub fn work_group_fn(&self, name: &str) -> Option<(Arc<jit::CompiledProgram>, jit::launch_abi::KernelCode)> {
        let c = self.compiled.as_ref()?;
        c.kernel(name).map(|f| (c.clone(), f))
    }
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
