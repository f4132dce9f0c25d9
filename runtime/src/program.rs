//! Program objects (API spec 5.8): OpenCL C source, SPIR-V or clift
//! binaries loaded into a context, built per device, with the build status,
//! options and log of each device and the specialization constant values.
//!
//! - `binary.rs`: clift's program binary container (`CLIFTBIN`), what
//!   CL_PROGRAM_BINARIES returns and clCreateProgramWithBinary takes.
//! - `state.rs`: each device's build state (status, options, log; the binary
//!   loaded, the executable built, the object or library compiled).
//! - `build.rs`: clBuildProgram, clCompileProgram and clLinkProgram: what each
//!   device makes from what (source through [`crate::compiler`], SPIR-V,
//!   modules to link with [`jit::link`]), with options parsed by
//!   [`crate::options`], run inline or on a thread when there is a callback.
//! - `executable.rs`: a successful build's kernels ([`jit::BuiltModule`]) and
//!   machine code ([`jit::CompiledProgram`]), compiled at the build, and the
//!   kernel objects ([`crate::kernel`]) attached to the program.
//!
//! Locking: one mutex guards the per-device build state and the count of
//! kernel objects attached, so "no rebuild while kernels exist" and "no
//! kernel before a successful build" are decided atomically. The jit runs
//! without the lock held; no lock is held while application callbacks run.

mod binary;
mod build;
mod executable;
mod state;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock};

use clift_jit as jit;
use parking_lot::Mutex;

use crate::context::{Context, DestructorFn};
use crate::device::Device;
use crate::error::{fail, ClResult};
use crate::info::InfoValue;
use crate::object::{handle_of, ApiHeader};
use opencl_sys::*;

pub use binary::{ProgramBinary, BINARY_FORMAT_VERSION, BINARY_MAGIC};
pub use build::{BuildNotify, LinkNotify};
pub use executable::Executable;
pub use jit::{ArgInfo, ArgKind, BuildOptions, KernelInfo, SpecConstant};
use state::{DeviceState, State};

/// What a program was created from.
#[derive(Debug)]
pub enum Origin {
    /// clCreateProgramWithSource: OpenCL C, the strings concatenated.
    Source(String),
    /// clCreateProgramWithIL: a SPIR-V module that passed [`jit::check_il`].
    Il(Arc<[u8]>),
    /// clCreateProgramWithBinary: a clift binary per device.
    Binary,
    /// clLinkProgram: linked from other programs' objects and libraries.
    Linked,
}

/// A program object.
pub struct Program {
    header: ApiHeader,
    context: Arc<Context>,
    devices: Vec<Arc<Device>>,
    origin: Origin,
    /// The module's specialization constants (IL programs), read on first use.
    spec_ids: OnceLock<Option<Vec<SpecConstant>>>,
    /// Values set with clSetProgramSpecializationConstant.
    spec_values: Mutex<BTreeMap<u32, Vec<u8>>>,
    state: Mutex<State>,
    release_callbacks: Mutex<Vec<DestructorFn>>,
}
crate::api_object!(Program);

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program").field("origin", &self.origin).finish()
    }
}

impl Program {
    fn new(context: Arc<Context>, devices: Vec<Arc<Device>>, origin: Origin, states: Vec<DeviceState>) -> Arc<Program> {
        Arc::new(Program {
            header: ApiHeader::new(),
            context,
            devices,
            origin,
            spec_ids: OnceLock::new(),
            spec_values: Mutex::new(BTreeMap::new()),
            state: Mutex::new(State {
                devices: states,
                kernels: 0,
            }),
            release_callbacks: Mutex::new(Vec::new()),
        })
    }

    /// clCreateProgramWithIL: `CL_INVALID_VALUE` unless `il` is a SPIR-V
    /// module clift takes (SPIR-V 1.0 to 1.2, either byte order). The
    /// program's devices are the context's.
    pub fn with_il(context: &Arc<Context>, il: &[u8]) -> ClResult<Arc<Program>> {
        // CL_INVALID_VALUE if the length-byte block of memory pointed to by
        // il does not contain well-formed intermediate language input that
        // can be consumed by the OpenCL runtime.
        if jit::check_il(il).is_err() {
            return fail(CL_INVALID_VALUE);
        }
        let devices = context.devices().to_vec();
        let states = devices.iter().map(|_| DeviceState::default()).collect();
        Ok(Program::new(
            context.clone(),
            devices,
            Origin::Il(Arc::from(il)),
            states,
        ))
    }

    /// clCreateProgramWithSource: "The devices associated with the program
    /// object are the devices associated with context."
    pub fn with_source(context: &Arc<Context>, source: String) -> Arc<Program> {
        let devices = context.devices().to_vec();
        let states = devices.iter().map(|_| DeviceState::default()).collect();
        Program::new(context.clone(), devices, Origin::Source(source), states)
    }

    /// clCreateProgramWithBinary, once every binary has been parsed: one
    /// binary (and its bytes) per device.
    pub fn with_binaries(context: &Arc<Context>, loaded: Vec<(Arc<Device>, ProgramBinary, Arc<[u8]>)>) -> Arc<Program> {
        let mut devices = Vec::with_capacity(loaded.len());
        let mut states = Vec::with_capacity(loaded.len());
        for (d, bin, bytes) in loaded {
            devices.push(d);
            states.push(DeviceState {
                loaded: Some((Arc::new(bin), bytes)),
                ..DeviceState::default()
            });
        }
        Program::new(context.clone(), devices, Origin::Binary, states)
    }

    /// The program's context.
    pub fn context(&self) -> &Arc<Context> {
        &self.context
    }

    /// The program's devices.
    pub fn devices(&self) -> &[Arc<Device>] {
        &self.devices
    }

    /// What the program was created from.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// Whether the program was created from OpenCL C source.
    pub fn is_source(&self) -> bool {
        matches!(self.origin, Origin::Source(_))
    }

    /// Index of `device` among the program's devices.
    fn index_of(&self, device: &Arc<Device>) -> Option<usize> {
        self.devices.iter().position(|d| Arc::ptr_eq(d, device))
    }

    /// Whether `device` is one of the program's devices.
    pub fn has_device(&self, device: &Arc<Device>) -> bool {
        self.index_of(device).is_some()
    }

    /// The index of the device whose state answers for `device`: its own,
    /// when a program binary has been built for it; else that of its
    /// nearest ancestor among the program's devices that has one built ("A
    /// program binary built for a parent device can be used by all its
    /// sub-devices. If a program binary has not been built for a
    /// sub-device, the program binary associated with the parent device
    /// will be used."); else its own (nothing built, perhaps a binary
    /// loaded). `None` when neither `device` nor an ancestor is one of the
    /// program's devices.
    fn answering(&self, st: &State, device: &Arc<Device>) -> Option<usize> {
        let own = self.index_of(device);
        if own.is_some_and(|i| st.devices[i].built_for()) {
            return own;
        }
        let mut d = device.parent();
        while let Some(dev) = d {
            if let Some(i) = self.index_of(dev).filter(|&i| st.devices[i].built_for()) {
                return Some(i);
            }
            d = dev.parent();
        }
        own
    }

    /// clSetProgramReleaseCallback: `f` runs when the program is destroyed,
    /// after callbacks registered later ("called in the reverse order in
    /// which they were registered").
    pub fn add_release_callback(&self, f: DestructorFn) {
        self.release_callbacks.lock().push(f);
    }

    // -- specialization constants ------------------------------------------

    /// clSetProgramSpecializationConstant: `read` gives the `size` bytes of
    /// the value (`None` for a NULL pointer); it is called only once `size`
    /// is known to be the constant's.
    pub fn set_spec_constant(&self, spec_id: u32, size: usize, read: impl FnOnce() -> Option<Vec<u8>>) -> ClResult<()> {
        // CL_INVALID_PROGRAM if program is not a valid program object created
        // from an intermediate language (e.g. SPIR-V).
        let Origin::Il(il) = &self.origin else {
            return fail(CL_INVALID_PROGRAM);
        };
        // A module the jit cannot read has no valid SpecId.
        let ids = self.spec_ids.get_or_init(|| {
            catch_unwind(AssertUnwindSafe(|| jit::spec_constants(il).ok()))
                .ok()
                .flatten()
        });
        // CL_INVALID_SPEC_ID if spec_id is not a valid specialization
        // constant identifier.
        let Some(constant) = ids.as_ref().and_then(|v| v.iter().find(|c| c.spec_id == spec_id)) else {
            return fail(CL_INVALID_SPEC_ID);
        };
        // CL_INVALID_VALUE if spec_size does not match the size of the
        // specialization constant in the module, or if spec_value is NULL.
        // ("This should be 1 for boolean constants.")
        if size != constant.size {
            return fail(CL_INVALID_VALUE);
        }
        let Some(bytes) = read() else {
            return fail(CL_INVALID_VALUE);
        };
        // "Calling this function multiple times for the same specialization
        // constant shall cause the last provided value to override any
        // previously specified value."
        self.spec_values.lock().insert(spec_id, bytes);
        Ok(())
    }

    /// The program's binaries, one per device (empty where none is
    /// available; a sub-device with none built has its parent's).
    pub fn binaries(&self) -> Vec<Vec<u8>> {
        let st = self.state.lock();
        self.devices
            .iter()
            .enumerate()
            .map(|(i, dev)| &st.devices[self.answering(&st, dev).unwrap_or(i)])
            .map(|d| match (&d.built, &d.object, &d.loaded) {
                (Some(exe), _, _) => exe.binary.clone(),
                (None, Some((_, bytes)), _) => bytes.clone(),
                (None, None, Some((_, bytes))) => bytes.to_vec(),
                (None, None, None) => Vec::new(),
            })
            .collect()
    }

    // -- queries -------------------------------------------------------------

    /// clGetProgramInfo, except CL_PROGRAM_BINARIES (which writes through
    /// the application's pointers; see [`Program::binaries`]).
    pub fn info(&self, param: cl_program_info) -> ClResult<InfoValue> {
        Ok(match param {
            CL_PROGRAM_REFERENCE_COUNT => InfoValue::u32(self.header.ref_count()),
            CL_PROGRAM_CONTEXT => InfoValue::handle(handle_of(&self.context)),
            CL_PROGRAM_NUM_DEVICES => InfoValue::u32(self.devices.len() as u32),
            CL_PROGRAM_DEVICES => {
                let h: Vec<usize> = self.devices.iter().map(handle_of).collect();
                InfoValue::handles(&h)
            }
            // "If program is created using clCreateProgramWithBinary,
            // clCreateProgramWithIL, or clCreateProgramWithBuiltInKernels, a
            // null string or the appropriate program source code is returned
            // depending on whether or not the program source code is stored
            // in the binary": clift binaries hold no source.
            CL_PROGRAM_SOURCE => InfoValue::string(match &self.origin {
                Origin::Source(s) => s,
                _ => "",
            }),
            // "If program is created with clCreateProgramWithSource,
            // clCreateProgramWithBinary or clCreateProgramWithBuiltInKernels
            // the memory pointed to by param_value will be unchanged and
            // param_value_size_ret will be set to 0."
            CL_PROGRAM_IL => match &self.origin {
                Origin::Il(il) => InfoValue::bytes(il.to_vec()),
                _ => InfoValue::bytes(Vec::new()),
            },
            // "If a binary is not available for a device(s), a size of zero
            // is returned."
            CL_PROGRAM_BINARY_SIZES => {
                let sizes: Vec<usize> = self.binaries().iter().map(Vec::len).collect();
                InfoValue::usizes(&sizes)
            }
            // CL_INVALID_PROGRAM_EXECUTABLE if param_name is
            // CL_PROGRAM_NUM_KERNELS, CL_PROGRAM_KERNEL_NAMES,
            // CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, or
            // CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT and a successful program
            // executable has not been built for at least one device in the
            // list of devices associated with program.
            CL_PROGRAM_NUM_KERNELS => InfoValue::usize(self.kernel_names()?.len()),
            CL_PROGRAM_KERNEL_NAMES => InfoValue::string(&self.kernel_names()?.join(";")),
            // SPIR-V for OpenCL has no program-scope constructors or
            // destructors (they come from C++ for OpenCL modules, which the
            // jit does not take).
            CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT | CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT => {
                self.kernel_names()?;
                InfoValue::bool(false)
            }
            // CL_INVALID_VALUE if param_name is not one of the supported values
            _ => return fail(CL_INVALID_VALUE),
        })
    }

    /// clGetProgramBuildInfo for `device` (`CL_INVALID_DEVICE` if it is not
    /// one of the program's devices). A sub-device with no program binary
    /// built for it answers with the build of the parent whose binary it uses.
    pub fn build_info(&self, device: &Arc<Device>, param: cl_program_build_info) -> ClResult<InfoValue> {
        if !self.has_device(device) {
            return fail(CL_INVALID_DEVICE);
        }
        let st = self.state.lock();
        let Some(i) = self.answering(&st, device) else {
            return fail(CL_INVALID_DEVICE);
        };
        let d = &st.devices[i];
        Ok(match param {
            CL_PROGRAM_BUILD_STATUS => InfoValue::i32(d.status),
            // "If build status of the specified program for device is
            // CL_BUILD_NONE, an empty string is returned."
            CL_PROGRAM_BUILD_OPTIONS => InfoValue::string(&d.options),
            CL_PROGRAM_BUILD_LOG => InfoValue::string(&d.log),
            CL_PROGRAM_BINARY_TYPE => InfoValue::u32(match (&d.built, &d.object, &d.loaded) {
                (Some(_), _, _) => CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
                (None, Some((bin, _)), _) | (None, None, Some((bin, _))) => bin.binary_type,
                (None, None, None) => CL_PROGRAM_BINARY_TYPE_NONE,
            }),
            CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => {
                InfoValue::usize(d.built.as_ref().map_or(0, |e| e.global_variable_total_size))
            }
            // CL_INVALID_VALUE if param_name is not one of the supported values
            _ => return fail(CL_INVALID_VALUE),
        })
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        // "The registered callback functions are called after destructors (if
        // any) for program scope global variables (if any) are called and
        // before the program object is deleted."
        let list = std::mem::take(&mut *self.release_callbacks.lock());
        for f in list.into_iter().rev() {
            f();
        }
    }
}
