//! Program objects (API spec 5.8): SPIR-V (or, later, OpenCL C) loaded into a
//! context, built per device by the jit, with the build status, options and
//! log of each device, specialization constant values, and clift's own
//! program binary format. Option strings are parsed by [`crate::options`].
//!
//! A build validates the module and records its kernels' interfaces
//! ([`jit::BuiltModule`]); kernel objects ([`crate::kernel`]) are created
//! from those. Machine code arrives with the kernels issue.
//!
//! Locking: one mutex guards the per-device build state and the count of
//! kernel objects attached, so "no rebuild while kernels exist" and "no
//! kernel before a successful build" are decided atomically. The jit runs
//! without the lock held; no lock is held while application callbacks run.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock};

use clift_jit as jit;
use parking_lot::Mutex;

use crate::compiler;
use crate::context::{Context, DestructorFn};
use crate::device::Device;
use crate::error::{fail, ClResult};
use crate::info::InfoValue;
use crate::object::{handle_of, ApiHeader};
use crate::options::{parse_options, LinkRequest, OptionError, OptionsOf, ParsedOptions};
use opencl_sys::*;

pub use jit::{ArgInfo, ArgKind, BuildOptions, KernelInfo, SpecConstant};

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

// ---------------------------------------------------------------------------
// The clift program binary
// ---------------------------------------------------------------------------

/// The first bytes of every clift program binary.
pub const BINARY_MAGIC: [u8; 8] = *b"CLIFTBIN";
/// The version of the format below.
pub const BINARY_FORMAT_VERSION: u32 = 1;
/// Bytes before the variable-length parts.
const BINARY_HEADER: usize = 32;
/// Bytes per specialization constant record.
const SPEC_RECORD: usize = 16;
/// Bytes of the trailing checksum.
const BINARY_CHECKSUM: usize = 8;

/// A clift program binary: what CL_PROGRAM_BINARIES returns and
/// clCreateProgramWithBinary takes.
///
/// Layout (every integer little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `CLIFTBIN` |
/// | 8 | 4 | format version (1) |
/// | 12 | 4 | binary type (`CL_PROGRAM_BINARY_TYPE_*`) |
/// | 16 | 4 | `o`: bytes of the build options (UTF-8, no NUL) |
/// | 20 | 4 | `n`: number of specialization constants |
/// | 24 | 4 | `s`: bytes of the SPIR-V module (a nonzero multiple of 4) |
/// | 28 | 4 | reserved, 0 |
/// | 32 | `o` rounded up to 4 | build options, zero padded |
/// | .. | 16 `n` | per constant: SpecId, size (1, 2, 4 or 8), value zero padded to 8 bytes, by increasing SpecId |
/// | .. | `s` | the SPIR-V module as the application gave it (either byte order) |
/// | .. | 8 | 64-bit FNV-1a of every byte before it |
///
/// The SPIR-V is kept rather than machine code: clBuildProgram on a binary
/// program validates it again, so a binary can never smuggle in a module the
/// jit has not checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramBinary {
    /// CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, _LIBRARY or _EXECUTABLE.
    pub binary_type: cl_program_binary_type,
    /// The build options the binary was built with.
    pub options: String,
    /// The specialization constant values the binary was built with.
    pub spec_constants: BTreeMap<u32, Vec<u8>>,
    /// The SPIR-V module.
    pub spirv: Arc<[u8]>,
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `n` rounded up to a multiple of 4, if that fits.
fn pad4(n: usize) -> Option<usize> {
    n.checked_add(3).map(|m| m & !3)
}

impl ProgramBinary {
    /// The binary's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let opt = self.options.as_bytes();
        let mut v = Vec::with_capacity(
            BINARY_HEADER + opt.len() + 3 + SPEC_RECORD * self.spec_constants.len() + self.spirv.len() + 8,
        );
        v.extend_from_slice(&BINARY_MAGIC);
        for w in [
            BINARY_FORMAT_VERSION,
            self.binary_type,
            opt.len() as u32,
            self.spec_constants.len() as u32,
            self.spirv.len() as u32,
            0,
        ] {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.extend_from_slice(opt);
        v.resize(v.len().next_multiple_of(4), 0);
        for (id, value) in &self.spec_constants {
            v.extend_from_slice(&id.to_le_bytes());
            v.extend_from_slice(&(value.len() as u32).to_le_bytes());
            let mut slot = [0u8; 8];
            let n = value.len().min(8);
            slot[..n].copy_from_slice(&value[..n]);
            v.extend_from_slice(&slot);
        }
        v.extend_from_slice(&self.spirv);
        let sum = fnv1a(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        v
    }

    /// Reads a binary, checking every length before it is used:
    /// `CL_INVALID_BINARY` for anything that is not a well-formed clift
    /// binary holding a SPIR-V module clift takes.
    pub fn parse(bytes: &[u8]) -> ClResult<ProgramBinary> {
        Self::parse_inner(bytes).ok_or(crate::ClError(CL_INVALID_BINARY))
    }

    fn parse_inner(bytes: &[u8]) -> Option<ProgramBinary> {
        let word = |at: usize| -> Option<u32> {
            let b = bytes.get(at..at.checked_add(4)?)?;
            Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        if bytes.len() < BINARY_HEADER + BINARY_CHECKSUM || bytes[..8] != BINARY_MAGIC {
            return None;
        }
        if word(8)? != BINARY_FORMAT_VERSION || word(28)? != 0 {
            return None;
        }
        let binary_type = word(12)?;
        if !matches!(
            binary_type,
            CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT | CL_PROGRAM_BINARY_TYPE_LIBRARY | CL_PROGRAM_BINARY_TYPE_EXECUTABLE
        ) {
            return None;
        }
        let opt_len = usize::try_from(word(16)?).ok()?;
        let n_spec = usize::try_from(word(20)?).ok()?;
        let spirv_len = usize::try_from(word(24)?).ok()?;
        if spirv_len == 0 || spirv_len % 4 != 0 {
            return None;
        }
        // Every length is checked against the total before any is used.
        let opt_end = BINARY_HEADER.checked_add(pad4(opt_len)?)?;
        let spec_end = opt_end.checked_add(n_spec.checked_mul(SPEC_RECORD)?)?;
        let spirv_end = spec_end.checked_add(spirv_len)?;
        let total = spirv_end.checked_add(BINARY_CHECKSUM)?;
        if total != bytes.len() {
            return None;
        }
        let sum = u64::from_le_bytes(bytes[spirv_end..total].try_into().ok()?);
        if sum != fnv1a(&bytes[..spirv_end]) {
            return None;
        }
        let opt_bytes = &bytes[BINARY_HEADER..BINARY_HEADER + opt_len];
        if opt_bytes.contains(&0) || bytes[BINARY_HEADER + opt_len..opt_end].iter().any(|&b| b != 0) {
            return None;
        }
        let options = std::str::from_utf8(opt_bytes).ok()?.to_string();
        let mut spec_constants = BTreeMap::new();
        let mut last = None;
        for i in 0..n_spec {
            let at = opt_end + i * SPEC_RECORD;
            let id = word(at)?;
            let size = usize::try_from(word(at + 4)?).ok()?;
            if !matches!(size, 1 | 2 | 4 | 8) || last.is_some_and(|l| l >= id) {
                return None;
            }
            let slot = &bytes[at + 8..at + 16];
            if slot[size..].iter().any(|&b| b != 0) {
                return None;
            }
            spec_constants.insert(id, slot[..size].to_vec());
            last = Some(id);
        }
        let spirv = &bytes[spec_end..spirv_end];
        jit::check_il(spirv).ok()?;
        Some(ProgramBinary {
            binary_type,
            options,
            spec_constants,
            spirv: Arc::from(spirv),
        })
    }
}

// ---------------------------------------------------------------------------
// Programs
// ---------------------------------------------------------------------------

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

/// The build state of one device of a program.
#[derive(Debug)]
struct DeviceState {
    /// CL_PROGRAM_BUILD_STATUS.
    status: cl_build_status,
    /// CL_PROGRAM_BUILD_OPTIONS of the last build.
    options: String,
    /// CL_PROGRAM_BUILD_LOG of the last build.
    log: String,
    /// The binary loaded by clCreateProgramWithBinary (with its bytes).
    loaded: Option<(Arc<ProgramBinary>, Arc<[u8]>)>,
    /// The last successful build, while it is the device's current one.
    built: Option<Arc<Executable>>,
    /// The compiled object (clCompileProgram) or library (clLinkProgram
    /// -create-library) of the last successful compile or link, with its bytes.
    object: Option<(Arc<ProgramBinary>, Vec<u8>)>,
}

impl DeviceState {
    /// Whether a program binary has been built for the device: a build,
    /// compile or link has run (or is running) for it. (A binary loaded by
    /// clCreateProgramWithBinary is not built until clBuildProgram.)
    fn built_for(&self) -> bool {
        self.status != CL_BUILD_NONE
    }
}

impl Default for DeviceState {
    /// "CL_BUILD_NONE - The build status returned if no clBuildProgram,
    /// clCompileProgram or clLinkProgram has been performed".
    fn default() -> Self {
        DeviceState {
            status: CL_BUILD_NONE,
            options: String::new(),
            log: String::new(),
            loaded: None,
            built: None,
            object: None,
        }
    }
}

#[derive(Debug)]
struct State {
    /// Parallel to `Program::devices`.
    devices: Vec<DeviceState>,
    /// Kernel objects attached to the program.
    kernels: usize,
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

/// Where a build, compile or link starts.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Work {
    /// A SPIR-V module (IL, or an executable binary's).
    Spirv(Arc<[u8]>),
    /// OpenCL C, with embedded headers (include name, text).
    Source {
        text: Arc<str>,
        headers: Arc<Vec<(String, String)>>,
    },
    /// Modules to link first.
    Link(Vec<Arc<[u8]>>),
    /// Nothing: the call's options were refused (the build fails with the
    /// log line naming the option).
    Refused(OptionError),
}

/// What a build, compile or link makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Goal {
    /// A program executable (clBuildProgram, clLinkProgram).
    Executable,
    /// A compiled object (clCompileProgram).
    Object,
    /// A library (clLinkProgram -create-library).
    Library,
}

/// What one device builds: the work, the goal, spec constant values and options.
#[derive(Debug, PartialEq, Eq)]
struct BuildInput {
    work: Work,
    goal: Goal,
    options_text: String,
    options: ParsedOptions,
}

/// What a successful build, compile or link made.
#[derive(Debug, Clone)]
enum Product {
    Executable(Arc<Executable>),
    /// An object or library: the binary, its bytes, the log.
    Object(Arc<ProgramBinary>, Vec<u8>, String),
}

/// A module clLinkProgram takes from one input program, with its
/// specialization constant values.
type LinkInput = (Arc<[u8]>, BTreeMap<u32, Vec<u8>>);

/// Runs after a link started with a callback, with the new program.
pub type LinkNotify = Box<dyn FnOnce(&Arc<Program>) + Send>;

/// Runs after a build started with a callback, once status and log are set.
pub type BuildNotify = Box<dyn FnOnce() + Send>;

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

    // -- building ------------------------------------------------------------

    /// The device indices `devices` names (all of the program's when `None`;
    /// `CL_INVALID_DEVICE` for one that is not the program's), sorted.
    fn targets(&self, devices: Option<&[Arc<Device>]>) -> ClResult<Vec<usize>> {
        let mut targets: Vec<usize> = match devices {
            None => (0..self.devices.len()).collect(),
            Some(list) => list
                .iter()
                .map(|d| self.index_of(d).ok_or(crate::ClError(CL_INVALID_DEVICE)))
                .collect::<ClResult<_>>()?,
        };
        targets.sort_unstable();
        targets.dedup();
        Ok(targets)
    }

    /// clBuildProgram for `devices` (all of the program's when `None`; each
    /// must be one of them) with `options` (`None` for a NULL pointer). With
    /// `notify`, the build runs on a new thread and `notify` follows it, once
    /// status and log are set; without, the call returns when the build is
    /// done: `CL_BUILD_PROGRAM_FAILURE` if it failed for any device.
    pub fn build(
        self: &Arc<Self>,
        devices: Option<&[Arc<Device>]>,
        options: Option<&str>,
        notify: Option<BuildNotify>,
    ) -> ClResult<()> {
        // CL_INVALID_DEVICE if any device in device_list is not in the list
        // of devices associated with program.
        let targets = self.targets(devices)?;
        // CL_INVALID_OPERATION if program was not created with
        // clCreateProgramWithSource, clCreateProgramWithIL or
        // clCreateProgramWithBinary.
        if matches!(self.origin, Origin::Linked) {
            return fail(CL_INVALID_OPERATION);
        }
        // What each device builds (binaries, options and compiler checked).
        let inputs: Vec<(usize, BuildInput)> = {
            let st = self.state.lock();
            targets
                .iter()
                .map(|&i| self.build_input(&st.devices[i], options).map(|b| (i, b)))
                .collect::<ClResult<_>>()?
        };
        // CL_INVALID_BUILD_OPTIONS if the build options specified by options
        // are invalid.
        let refused = inputs.iter().find_map(|(_, b)| match &b.work {
            Work::Refused(e) => Some((e.clone(), b.options_text.clone())),
            _ => None,
        });
        if let Some((e, text)) = refused {
            return self.refuse(&targets, &text, e);
        }
        self.check_compiler(&targets, &inputs)?;
        self.start(inputs, notify, CL_BUILD_PROGRAM_FAILURE)
    }

    /// clCompileProgram: source (with `headers`, include name and text) or
    /// IL to a compiled object, for `devices`, with `options`.
    pub fn compile(
        self: &Arc<Self>,
        devices: Option<&[Arc<Device>]>,
        options: Option<&str>,
        headers: Vec<(String, String)>,
        notify: Option<BuildNotify>,
    ) -> ClResult<()> {
        // CL_INVALID_DEVICE if device in device_list is not in the list of
        // devices associated with program.
        let targets = self.targets(devices)?;
        let options_text = options.unwrap_or("").to_string();
        // CL_INVALID_OPERATION if program has no source or IL available, i.e.
        // it has not been created with clCreateProgramWithSource or
        // clCreateProgramWithIL.
        if matches!(self.origin, Origin::Binary | Origin::Linked) {
            return fail(CL_INVALID_OPERATION);
        }
        // CL_INVALID_COMPILER_OPTIONS if the compiler options specified by
        // options are invalid.
        let mut parsed = match parse_options(&options_text, OptionsOf::Compile) {
            Ok(p) => p,
            Err(e) => return self.refuse(&targets, &options_text, e),
        };
        let work = match &self.origin {
            Origin::Source(s) => Work::Source {
                text: Arc::from(s.as_str()),
                headers: Arc::new(headers),
            },
            Origin::Il(il) => {
                parsed.build.spec_constants = self.spec_values.lock().clone();
                Work::Spirv(il.clone())
            }
            // Refused above.
            Origin::Binary | Origin::Linked => return fail(CL_INVALID_OPERATION),
        };
        let inputs: Vec<(usize, BuildInput)> = targets
            .iter()
            .map(|&i| {
                (
                    i,
                    BuildInput {
                        work: work.clone(),
                        goal: Goal::Object,
                        options_text: options_text.clone(),
                        options: parsed.clone(),
                    },
                )
            })
            .collect();
        self.check_compiler(&targets, &inputs)?;
        self.start(inputs, notify, CL_COMPILE_PROGRAM_FAILURE)
    }

    /// A build or compile whose options were refused: after the checks
    /// every call shares (builds in progress, kernels attached), each target
    /// device's build fails with the log line naming the option ("the
    /// last call generated an error"), the context's notify callback gets
    /// the line too, and the call returns `e`'s CL_INVALID_*_OPTIONS.
    fn refuse(self: &Arc<Self>, targets: &[usize], options_text: &str, e: OptionError) -> ClResult<()> {
        let code = e.call.invalid_code();
        let line = e.to_string();
        let inputs = targets
            .iter()
            .map(|&i| {
                let input = BuildInput {
                    work: Work::Refused(e.clone()),
                    goal: Goal::Executable,
                    options_text: options_text.to_string(),
                    options: ParsedOptions::default(),
                };
                (i, input)
            })
            .collect();
        let r = self.start(inputs, None, code);
        if matches!(&r, Err(c) if c.0 == code) {
            self.context.notify(&line);
        }
        r
    }

    /// CL_COMPILER_NOT_AVAILABLE if program is created with
    /// clCreateProgramWithSource and a compiler is not available: the log
    /// of each device says what to install.
    fn check_compiler(&self, targets: &[usize], inputs: &[(usize, BuildInput)]) -> ClResult<()> {
        if !inputs.iter().any(|(_, b)| matches!(b.work, Work::Source { .. })) {
            return Ok(());
        }
        let Err(why) = compiler::tools() else {
            return Ok(());
        };
        let mut st = self.state.lock();
        if targets.iter().any(|&i| st.devices[i].status == CL_BUILD_IN_PROGRESS) {
            return fail(CL_INVALID_OPERATION);
        }
        for &i in targets {
            let d = &mut st.devices[i];
            d.status = CL_BUILD_ERROR;
            d.log = format!("{why}\n");
        }
        fail(CL_COMPILER_NOT_AVAILABLE)
    }

    /// Marks `inputs`' devices in progress (after the checks every build,
    /// compile and link share) and runs them, on a new thread when there is
    /// a `notify`; `failure` is the code a synchronous failure returns.
    fn start(
        self: &Arc<Self>,
        inputs: Vec<(usize, BuildInput)>,
        notify: Option<BuildNotify>,
        failure: cl_int,
    ) -> ClResult<()> {
        // Hold the state lock from the checks to the status change, so
        // concurrent builds and kernel creation see one or the other.
        {
            let mut st = self.state.lock();
            // CL_INVALID_OPERATION if the build of a program executable for
            // any of the devices listed in device_list by a previous call to
            // clBuildProgram for program has not completed.
            if inputs
                .iter()
                .any(|(i, _)| st.devices[*i].status == CL_BUILD_IN_PROGRESS)
            {
                return fail(CL_INVALID_OPERATION);
            }
            // CL_INVALID_OPERATION if there are kernel objects attached to program.
            if st.kernels > 0 {
                return fail(CL_INVALID_OPERATION);
            }
            for (i, input) in &inputs {
                let d = &mut st.devices[*i];
                d.status = CL_BUILD_IN_PROGRESS;
                d.options = input.options_text.clone();
                d.log.clear();
                d.built = None;
                d.object = None;
            }
        }

        match notify {
            None => {
                if self.run_builds(inputs) {
                    Ok(())
                } else {
                    // CL_BUILD_PROGRAM_FAILURE (CL_COMPILE_PROGRAM_FAILURE,
                    // CL_LINK_PROGRAM_FAILURE) if there is a failure to build
                    // the program executable. This error will be returned if
                    // clBuildProgram does not return until the build has completed.
                    fail(failure)
                }
            }
            // "If pfn_notify is not NULL, clBuildProgram does not need to wait
            // for the build to complete and can return immediately once the
            // build operation can begin."
            Some(notify) => {
                let slot = Arc::new(Mutex::new(Some((inputs, notify))));
                let me = self.clone();
                let work = {
                    let slot = slot.clone();
                    move || {
                        if let Some((inputs, notify)) = slot.lock().take() {
                            me.run_builds(inputs);
                            notify();
                        }
                    }
                };
                if std::thread::Builder::new()
                    .name("clift-build".into())
                    .spawn(work)
                    .is_err()
                {
                    // No thread could be started: build here instead.
                    if let Some((inputs, notify)) = slot.lock().take() {
                        self.run_builds(inputs);
                        notify();
                    }
                }
                Ok(())
            }
        }
    }

    /// What device `d` builds with `options`, checked in the spec's order:
    /// the binary, the options (refused ones make a [`Work::Refused`]).
    fn build_input(&self, d: &DeviceState, options: Option<&str>) -> ClResult<BuildInput> {
        let (work, spec, default_options) = match &self.origin {
            Origin::Il(il) => (Work::Spirv(il.clone()), self.spec_values.lock().clone(), String::new()),
            Origin::Binary => match &d.loaded {
                Some((bin, _)) if bin.binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE => (
                    Work::Spirv(bin.spirv.clone()),
                    bin.spec_constants.clone(),
                    bin.options.clone(),
                ),
                // A compiled object or library is linked on its own into
                // an executable (its imports must resolve within it).
                Some((bin, _)) => (
                    Work::Link(vec![bin.spirv.clone()]),
                    bin.spec_constants.clone(),
                    bin.options.clone(),
                ),
                // CL_INVALID_BINARY if program is created with
                // clCreateProgramWithBinary and devices listed in device_list
                // do not have a valid program binary loaded.
                None => return fail(CL_INVALID_BINARY),
            },
            Origin::Source(s) => (
                Work::Source {
                    text: Arc::from(s.as_str()),
                    headers: Arc::new(Vec::new()),
                },
                BTreeMap::new(),
                String::new(),
            ),
            // Refused by `build` before this.
            Origin::Linked => return fail(CL_INVALID_OPERATION),
        };
        // "If the program was created using clCreateProgramWithBinary and
        // options is a NULL pointer, the program will be built as if options
        // were the same as when the program binary was originally built."
        let options_text = options.map(str::to_string).unwrap_or(default_options);
        let (work, options) = match parse_options(&options_text, OptionsOf::Build) {
            Ok(mut parsed) => {
                parsed.build.spec_constants = spec;
                (work, parsed)
            }
            Err(e) => (Work::Refused(e), ParsedOptions::default()),
        };
        Ok(BuildInput {
            work,
            goal: Goal::Executable,
            options_text,
            options,
        })
    }

    /// Runs the jit (and the compiler or linker) for each device, once per
    /// distinct input, and records the results. Returns whether every
    /// build succeeded.
    fn run_builds(&self, inputs: Vec<(usize, BuildInput)>) -> bool {
        let mut done: Vec<(BuildInput, Result<Product, String>)> = Vec::new();
        let mut results = Vec::with_capacity(inputs.len());
        for (i, input) in inputs {
            let known = done.iter().find(|(b, _)| *b == input).map(|(_, r)| r.clone());
            let r = match known {
                Some(r) => r,
                None => {
                    let r = produce(&input);
                    done.push((input, r.clone()));
                    r
                }
            };
            results.push((i, r));
        }
        let mut ok = true;
        let mut st = self.state.lock();
        for (i, r) in results {
            let d = &mut st.devices[i];
            match r {
                Ok(Product::Executable(exe)) => {
                    d.status = CL_BUILD_SUCCESS;
                    d.log.clone_from(&exe.log);
                    d.built = Some(exe);
                }
                Ok(Product::Object(bin, bytes, log)) => {
                    d.status = CL_BUILD_SUCCESS;
                    d.log = log;
                    d.object = Some((bin, bytes));
                }
                Err(log) => {
                    ok = false;
                    d.status = CL_BUILD_ERROR;
                    d.log = log;
                    d.built = None;
                    d.object = None;
                }
            }
        }
        ok
    }

    // -- linking -------------------------------------------------------------

    /// The compiled object or library of device `device`, for clLinkProgram:
    /// `Ok(None)` when the program has none for it (nor IL to use as one);
    /// `CL_INVALID_OPERATION` while a compile or build is in progress.
    fn link_input(&self, device: &Arc<Device>) -> ClResult<Option<LinkInput>> {
        let st = self.state.lock();
        let Some(i) = self.answering(&st, device) else {
            return Ok(None);
        };
        let d = &st.devices[i];
        // CL_INVALID_OPERATION if the compilation or build of a program
        // executable for any of the devices listed in device_list by a
        // previous call to clCompileProgram or clBuildProgram for program
        // has not completed.
        if d.status == CL_BUILD_IN_PROGRESS {
            return fail(CL_INVALID_OPERATION);
        }
        if let Some((bin, _)) = &d.object {
            return Ok(Some((bin.spirv.clone(), bin.spec_constants.clone())));
        }
        if d.built.is_some() {
            return Ok(None);
        }
        if let Some((bin, _)) = &d.loaded {
            if bin.binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE {
                return Ok(Some((bin.spirv.clone(), bin.spec_constants.clone())));
            }
            return Ok(None);
        }
        // An IL program is an object as it is.
        if let Origin::Il(il) = &self.origin {
            return Ok(Some((il.clone(), self.spec_values.lock().clone())));
        }
        Ok(None)
    }

    /// clLinkProgram, once the context, devices, inputs and options are
    /// checked: a new program for `devices` holding the executable (or, with
    /// `-create-library`, the library) linked from `inputs`. Without
    /// `notify`, the second value is `CL_LINK_PROGRAM_FAILURE` when the link
    /// failed (the program is returned all the same, with its log).
    /// `register` runs once the program exists, before the link starts.
    pub fn link(
        context: &Arc<Context>,
        devices: Vec<Arc<Device>>,
        options: &LinkRequest,
        inputs: &[Arc<Program>],
        notify: Option<LinkNotify>,
        register: impl FnOnce(&Arc<Program>),
    ) -> ClResult<(Arc<Program>, cl_int)> {
        let mut jobs = Vec::new();
        for (i, d) in devices.iter().enumerate() {
            let found: Vec<_> = inputs.iter().map(|p| p.link_input(d)).collect::<ClResult<_>>()?;
            let have = found.iter().filter(|f| f.is_some()).count();
            // "None of the programs contain a compiled binary or library for
            // that device. In this case, no link is performed"; CL_INVALID_OPERATION
            // if the rules for devices containing compiled binaries or
            // libraries as described in input_programs argument above are not
            // followed.
            if have == 0 {
                continue;
            }
            if have != found.len() {
                return fail(CL_INVALID_OPERATION);
            }
            let mut spec = BTreeMap::new();
            let mut modules = Vec::new();
            for (m, s) in found.into_iter().flatten() {
                modules.push(m);
                spec.extend(s);
            }
            let mut parsed = options.build.clone();
            parsed.build.spec_constants = spec;
            jobs.push((
                i,
                BuildInput {
                    work: Work::Link(modules),
                    goal: if options.create_library {
                        Goal::Library
                    } else {
                        Goal::Executable
                    },
                    options_text: options.text.clone(),
                    options: parsed,
                },
            ));
        }
        let states = devices.iter().map(|_| DeviceState::default()).collect();
        let program = Program::new(context.clone(), devices, Origin::Linked, states);
        // The API layer gives the program its handle before a callback can
        // see it.
        register(&program);
        let notify = notify.map(|f| {
            let p = program.clone();
            Box::new(move || f(&p)) as BuildNotify
        });
        let code = match program.start(jobs, notify, CL_LINK_PROGRAM_FAILURE) {
            Ok(()) => CL_SUCCESS,
            Err(e) if e.0 == CL_LINK_PROGRAM_FAILURE => e.0,
            Err(e) => return Err(e),
        };
        Ok((program, code))
    }

    // -- executables and kernels ---------------------------------------------

    /// The executables of the devices with a successful build.
    fn executables(st: &State) -> Vec<Arc<Executable>> {
        st.devices.iter().filter_map(|d| d.built.clone()).collect()
    }

    /// The executable for `device`: its own build, else (for a sub-device
    /// with none built) its nearest ancestor's (see [`Program::answering`]).
    pub fn executable_for(&self, device: &Arc<Device>) -> Option<Arc<Executable>> {
        let st = self.state.lock();
        let i = self.answering(&st, device)?;
        st.devices[i].built.clone()
    }

    /// The kernels that can be created with clCreateKernel: those of the
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
            .filter(|k| exes.iter().all(|e| e.kernels.iter().any(|o| same_definition(k, o))))
            .cloned()
            .collect())
    }

    /// The interface of kernel `name`, attaching a kernel object to the
    /// program (see [`Program::detach_kernel`]).
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
            .filter_map(|e| e.kernels.iter().find(|k| k.name == name))
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

/// Makes what `input` asks for: compiles source, links modules, and runs
/// the jit on the result when the goal is an executable. `Err` is the log.
fn produce(input: &BuildInput) -> Result<Product, String> {
    let (spirv, log) = match &input.work {
        Work::Spirv(s) => (s.clone(), String::new()),
        Work::Source { text, headers } => match compiler::compile(text, headers, &input.options) {
            Ok(c) => (c.spirv, c.log),
            Err(compiler::CompileError::NotAvailable(l) | compiler::CompileError::Failed(l)) => return Err(l),
        },
        Work::Refused(e) => return Err(format!("{e}\n")),
        Work::Link(modules) => {
            let refs: Vec<&[u8]> = modules.iter().map(|m| &m[..]).collect();
            let opts = jit::link::LinkOptions {
                create_library: input.goal == Goal::Library,
            };
            match catch_unwind(AssertUnwindSafe(|| jit::link::link(&refs, &opts))) {
                Ok(Ok(m)) => (Arc::from(m), String::new()),
                Ok(Err(log)) => return Err(log),
                Err(_) => return Err("internal error: the SPIR-V linker panicked\n".into()),
            }
        }
    };
    let binary_type = match input.goal {
        Goal::Executable => {
            return compile(&spirv, input).map(|mut exe| {
                if !log.is_empty() {
                    if let Some(e) = Arc::get_mut(&mut exe) {
                        e.log.insert_str(0, &log);
                    }
                }
                Product::Executable(exe)
            });
        }
        Goal::Object => CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
        Goal::Library => CL_PROGRAM_BINARY_TYPE_LIBRARY,
    };
    let bin = ProgramBinary {
        binary_type,
        options: input.options_text.clone(),
        spec_constants: input.options.build.spec_constants.clone(),
        spirv,
    };
    let bytes = bin.to_bytes();
    Ok(Product::Object(Arc::new(bin), bytes, log))
}

/// Runs the jit on one module; a panic in the jit becomes a failed build.
fn compile(spirv: &Arc<[u8]>, input: &BuildInput) -> Result<Arc<Executable>, String> {
    let built = catch_unwind(AssertUnwindSafe(|| jit::front_end(spirv, &input.options.build)));
    match built {
        Ok(Ok(front)) => {
            // Kernels code generation does not support yet keep the build
            // successful (they can be queried, not run); the log says why.
            let (compiled, failed) = jit::compile_kernels(&front);
            let mut log = String::new();
            for (name, e) in failed {
                let why = e.diagnostics.first().map_or_else(String::new, ToString::to_string);
                log.push_str(&format!("kernel \"{name}\" cannot run yet: {why}\n"));
            }
            let module = front.built;
            let binary = ProgramBinary {
                binary_type: CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
                options: input.options_text.clone(),
                spec_constants: input.options.build.spec_constants.clone(),
                spirv: spirv.clone(),
            };
            Ok(Arc::new(Executable {
                kernels: module.kernels.into_iter().map(Arc::new).collect(),
                global_variable_total_size: module.global_variable_total_size,
                options: input.options.clone(),
                binary: binary.to_bytes(),
                compiled: compiled.map(Arc::new),
                log,
            }))
        }
        Ok(Err(e)) => Err(e.log()),
        Err(_) => Err("internal error: the SPIR-V front end panicked on this module\n".to_string()),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal SPIR-V 1.0 module header (no instructions), little-endian.
    fn tiny_spirv() -> Vec<u8> {
        [0x0723_0203u32, 0x0001_0000, 0, 1, 0]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }

    fn sample() -> ProgramBinary {
        let mut spec = BTreeMap::new();
        spec.insert(3, vec![1]);
        spec.insert(7, vec![1, 2, 3, 4, 5, 6, 7, 8]);
        ProgramBinary {
            binary_type: CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
            options: "-cl-mad-enable -D X=1".into(),
            spec_constants: spec,
            spirv: Arc::from(tiny_spirv()),
        }
    }

    #[test]
    fn binaries_round_trip() {
        let b = sample();
        let bytes = b.to_bytes();
        assert_eq!(&bytes[..8], b"CLIFTBIN");
        assert_eq!(bytes.len() % 4, 0);
        assert_eq!(ProgramBinary::parse(&bytes).unwrap(), b);
        let empty = ProgramBinary {
            options: String::new(),
            spec_constants: BTreeMap::new(),
            ..b
        };
        assert_eq!(ProgramBinary::parse(&empty.to_bytes()).unwrap(), empty);
    }

    #[test]
    fn corrupt_binaries_are_refused() {
        let good = sample().to_bytes();
        let bad = |v: &[u8]| ProgramBinary::parse(v).unwrap_err().0 == CL_INVALID_BINARY;
        // Every truncation and every single-byte change is caught.
        for n in 0..good.len() {
            assert!(bad(&good[..n]), "truncated to {n}");
        }
        for i in 0..good.len() {
            let mut v = good.clone();
            v[i] ^= 0x41;
            assert!(bad(&v), "byte {i} changed");
        }
        let mut longer = good.clone();
        longer.extend_from_slice(&[0; 4]);
        assert!(bad(&longer));
        assert!(bad(b"not a binary at all, just some text!!!!!!!"));
        // Lengths that would overflow or point past the end are refused
        // before use, even with a matching checksum.
        for (at, value) in [(16usize, u32::MAX), (20, u32::MAX), (24, u32::MAX), (24, 6), (24, 0)] {
            let mut v = good[..good.len() - 8].to_vec();
            v[at..at + 4].copy_from_slice(&value.to_le_bytes());
            let sum = fnv1a(&v);
            v.extend_from_slice(&sum.to_le_bytes());
            assert!(bad(&v), "field at {at} = {value:#x}");
        }
        // A well-formed binary around something that is not SPIR-V.
        let mut not_spirv = sample();
        not_spirv.spirv = Arc::from(vec![0u8; 20]);
        assert!(bad(&not_spirv.to_bytes()));
        // An unknown binary type.
        let mut typ = sample();
        typ.binary_type = 0x9999;
        assert!(bad(&typ.to_bytes()));
        // A spec constant of an impossible size.
        let mut size = sample();
        size.spec_constants.insert(9, vec![1, 2, 3]);
        assert!(bad(&size.to_bytes()));
    }
}
