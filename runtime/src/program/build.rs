//! Builds, compiles and links: what each device makes, run inline or on a
//! thread, and the results recorded in the build state.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use clift_jit as jit;
use parking_lot::Mutex;

use super::executable::WidePending;
use super::state::DeviceState;
use super::{Executable, Origin, Program, ProgramBinary};
use crate::compiler;
use crate::context::Context;
use crate::device::Device;
use crate::error::{fail, ClResult};
use crate::options::{parse_options, LinkRequest, OptionError, OptionsOf, ParsedOptions};
use opencl_sys::*;

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
            let (compiled, failed) = jit::compile_kernels(&front, &crate::config::codegen());
            let mut log = compiled.as_ref().map_or_else(String::new, |c| c.notes().to_string());
            for (name, e) in failed {
                let why = e.diagnostics.first().map_or_else(String::new, ToString::to_string);
                log.push_str(&format!("kernel \"{name}\" cannot run yet: {why}\n"));
            }
            // Kernels whose 8-lane bodies the build left for later keep
            // the front end for a compilation on a thread of clift's
            // (`Executable::work_group_fn`).
            let later = compiled.as_ref().is_some_and(|c| !c.wide_later().is_empty());
            let (module, front) = if later {
                (front.built().clone(), Some(front))
            } else {
                (front.into_built(), None)
            };
            let binary = ProgramBinary {
                binary_type: CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
                options: input.options_text.clone(),
                spec_constants: input.options.build.spec_constants.clone(),
                spirv: spirv.clone(),
            };
            let compiled = compiled.map(Arc::new);
            Ok(Arc::new(Executable {
                kernels: module.kernels.into_iter().map(Arc::new).collect(),
                global_variable_total_size: module.global_variable_total_size,
                options: input.options.clone(),
                binary: binary.to_bytes(),
                wide_pending: WidePending::new(front, compiled.as_ref()),
                compiled,
                wide: Arc::default(),
                log,
            }))
        }
        Ok(Err(e)) => Err(e.log()),
        Err(_) => Err("internal error: the SPIR-V front end panicked on this module\n".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{parse_options, OptionsOf};

    /// clbench's vadd (a kernel that gets an 8-lane body) built with
    /// `options`.
    fn build_vadd(options: &str) -> Arc<Executable> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/clbench/spv/O2/vadd.spv");
        let spirv: Arc<[u8]> = std::fs::read(path).expect("vadd.spv").into();
        let input = BuildInput {
            work: Work::Spirv(spirv.clone()),
            goal: Goal::Executable,
            options_text: options.to_string(),
            options: parse_options(options, OptionsOf::Build).expect("options"),
        };
        compile(&spirv, &input).expect("build")
    }

    #[test]
    fn launches_run_the_builds_code_until_the_8_lane_program_asked_for_by_the_first_arrives() {
        let exe = build_vadd("");
        let narrow = exe.compiled.clone().expect("compiled");
        assert_eq!(narrow.wide_later(), ["vadd"]);
        // Nothing is compiled for a program that is not launched.
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(exe.wide.get().is_none());
        // The first launch asks for the 8-lane bodies.
        let (code, _) = exe.work_group_fn("vadd").expect("vadd");
        let wide = exe.wide.get();
        // Until the background thread fills the slot, the build's code.
        assert!(Arc::ptr_eq(&code, wide.unwrap_or(&narrow)));
        let start = std::time::Instant::now();
        let wide = loop {
            if let Some(w) = exe.wide.get() {
                break w.clone();
            }
            assert!(start.elapsed().as_secs() < 120, "no 8-lane program after two minutes");
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        assert!(wide.kernel("vadd").is_some());
        let (code, _) = exe.work_group_fn("vadd").expect("vadd");
        assert!(Arc::ptr_eq(&code, &wide));
    }

    #[test]
    fn wide_at_build_leaves_nothing_for_later() {
        let exe = build_vadd("-cl-clift-wide-at-build");
        assert!(exe.compiled.as_ref().expect("compiled").wide_later().is_empty());
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(exe.wide.get().is_none());
    }
}
