//! Kernel objects (API spec 5.9): argument slots and their checks, exec
//! info, and the kernel, argument, work-group and sub-group queries.
//!
//! A kernel is one entry point of a built program with the argument values
//! set so far. It holds its program (a program lives while kernels use it)
//! but not the memory objects its arguments name: "A kernel object does not
//! update the reference count for objects such as memory or sampler objects
//! specified as argument values", and "Implementations shall not allow
//! cl_kernel objects to hold reference counts to cl_kernel arguments". An
//! argument keeps a weak reference ([`ArgRef`]); an enqueue takes what it
//! names while the application still holds it, and the command then keeps
//! it (and the SVM allocations its pointers lie in) alive until it has run.
//!
//! Enqueues of a kernel are [`crate::ndrange`]'s.

use std::sync::{Arc, Weak};

use parking_lot::Mutex;

use crate::context::Context;
use crate::device::{self, Device};
use crate::error::{fail, ClResult};
use crate::info::InfoValue;
use crate::memory::MemObject;
use crate::object::ApiObject;
use crate::object::{handle_of, ApiHeader};
use crate::program::{Origin, Program};
use clift_jit::sub_group;
use opencl_sys::*;

pub use crate::program::{ArgInfo, ArgKind, KernelInfo};

/// An object named by a kernel argument (a memory object or a device
/// queue): a weak reference, so that the argument keeps nothing alive.
#[derive(Debug)]
pub struct ArgRef<T>(Weak<T>);

impl<T> Clone for ArgRef<T> {
    fn clone(&self) -> Self {
        ArgRef(self.0.clone())
    }
}

impl<T: ApiObject> ArgRef<T> {
    /// An argument naming `o`.
    pub fn new(o: &Arc<T>) -> ArgRef<T> {
        ArgRef(Arc::downgrade(o))
    }

    /// The object, while the application still holds a reference to it.
    /// (Commands or sub-buffers may keep an object the application has
    /// released alive a while longer; its handle is gone all the same, so
    /// the argument no longer names anything.)
    pub fn get(&self) -> Option<Arc<T>> {
        self.0.upgrade().filter(|o| o.header().ref_count() > 0)
    }
}

/// A memory object named by a kernel argument.
pub type MemArg = ArgRef<MemObject>;

/// A device queue named by a kernel argument.
pub type QueueArg = ArgRef<crate::device_queue::DeviceQueue>;

/// The value of one kernel argument, as set by clSetKernelArg or
/// clSetKernelArgSVMPointer.
#[derive(Debug, Clone)]
pub enum ArgValue {
    /// The bytes of a scalar, vector or struct passed by value.
    Value(Vec<u8>),
    /// A buffer (`None` for a NULL pointer) or a pipe.
    Mem(Option<MemArg>),
    /// A `__local` pointer: the bytes of local memory to allocate.
    Local(usize),
    /// A pointer to global or constant memory given as an SVM (or NULL)
    /// address.
    Svm(usize),
    /// A device queue (`queue_t`).
    Queue(QueueArg),
    /// A sampler: its `sampler_t` bits (a sampler never changes, and a
    /// kernel argument does not keep its object alive).
    Sampler(u32),
}

/// What clSetKernelExecInfo set.
#[derive(Debug, Clone, Default)]
pub struct ExecInfo {
    /// CL_KERNEL_EXEC_INFO_SVM_PTRS.
    pub svm_ptrs: Vec<usize>,
    /// CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, if set ("If
    /// clSetKernelExecInfo has not been called with a value for
    /// CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, the default value is CL_TRUE").
    pub fine_grain_system: Option<bool>,
}

/// A kernel object.
pub struct Kernel {
    header: ApiHeader,
    program: Arc<Program>,
    info: Arc<KernelInfo>,
    args: Mutex<Vec<Option<ArgValue>>>,
    exec: Mutex<ExecInfo>,
}
crate::api_object!(Kernel);

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel").field("name", &self.info.name).finish()
    }
}

impl Drop for Kernel {
    fn drop(&mut self) {
        self.program.detach_kernel();
    }
}

impl Kernel {
    /// clCreateKernel: kernel `name` of `program` (`CL_INVALID_PROGRAM_EXECUTABLE`
    /// before a successful build, `CL_INVALID_KERNEL_NAME` if there is none).
    pub fn create(program: &Arc<Program>, name: &str) -> ClResult<Arc<Kernel>> {
        let info = program.attach_kernel(name)?;
        Ok(Kernel::new(program, info))
    }

    /// clCreateKernelsInProgram: one kernel object per kernel of `program`.
    pub fn create_all(program: &Arc<Program>) -> ClResult<Vec<Arc<Kernel>>> {
        let infos = program.attach_all_kernels()?;
        Ok(infos.into_iter().map(|i| Kernel::new(program, i)).collect())
    }

    /// A kernel already attached to `program`.
    fn new(program: &Arc<Program>, info: Arc<KernelInfo>) -> Arc<Kernel> {
        let n = info.args.len();
        Arc::new(Kernel {
            header: ApiHeader::new(),
            program: program.clone(),
            info,
            args: Mutex::new(vec![None; n]),
            exec: Mutex::new(ExecInfo::default()),
        })
    }

    /// clCloneKernel: "a shallow copy of the kernel object, its arguments
    /// and any information passed to the kernel object using
    /// clSetKernelExecInfo", with a reference count of 1.
    pub fn clone_kernel(&self) -> Arc<Kernel> {
        self.program.attach_clone();
        Arc::new(Kernel {
            header: ApiHeader::new(),
            program: self.program.clone(),
            info: self.info.clone(),
            args: Mutex::new(self.args.lock().clone()),
            exec: Mutex::new(self.exec.lock().clone()),
        })
    }

    /// The kernel's program.
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// The kernel's context (its program's).
    pub fn context(&self) -> &Arc<Context> {
        self.program.context()
    }

    /// The kernel's interface.
    pub fn info_of(&self) -> &KernelInfo {
        &self.info
    }

    /// Argument `index`, or `CL_INVALID_ARG_INDEX`.
    pub fn arg(&self, index: u32) -> ClResult<&ArgInfo> {
        match self.info.args.get(index as usize) {
            Some(a) => Ok(a),
            // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index.
            None => fail(CL_INVALID_ARG_INDEX),
        }
    }

    /// The argument values set so far (`None` where unset).
    pub fn arg_values(&self) -> Vec<Option<ArgValue>> {
        self.args.lock().clone()
    }

    /// The exec info set so far.
    pub fn exec_info(&self) -> ExecInfo {
        self.exec.lock().clone()
    }

    /// clSetKernelArg, once the API layer has turned the application's bytes
    /// into `value` by the argument's kind (reading memory-object handles).
    /// Checks that the value fits the argument.
    pub fn set_arg(&self, index: u32, value: ArgValue) -> ClResult<()> {
        let arg = self.arg(index)?;
        match (&arg.kind, &value) {
            // CL_INVALID_ARG_SIZE if arg_value points to the data to be used
            // as the kernel argument value and arg_size does not match the
            // size of the data type for the argument.
            (ArgKind::Value, ArgValue::Value(bytes)) => {
                if bytes.len() != arg.size {
                    return fail(CL_INVALID_ARG_SIZE);
                }
            }
            // "If the kernel argument being set is a pointer to the global or
            // constant address space, then arg_value must point to a buffer
            // memory object or NULL, or arg_value must be NULL."
            (ArgKind::GlobalBuffer | ArgKind::ConstantBuffer, ArgValue::Mem(m)) => {
                if let Some(m) = m {
                    // Released since the API layer read the handle.
                    let m = m.get().ok_or(crate::ClError(CL_INVALID_MEM_OBJECT))?;
                    // CL_INVALID_MEM_OBJECT if arg_value points to a valid
                    // memory object, but the memory object is not valid for
                    // the kernel argument specified by arg_index.
                    if !m.is_buffer() {
                        return fail(CL_INVALID_MEM_OBJECT);
                    }
                    self.check_context(m.context())?;
                }
            }
            // "If the kernel argument being set is a pipe, then arg_value
            // must point to a pipe memory object."
            (ArgKind::Pipe, ArgValue::Mem(m)) => match m.as_ref().and_then(MemArg::get) {
                Some(m) if m.is_pipe() => self.check_context(m.context())?,
                _ => return fail(CL_INVALID_MEM_OBJECT),
            },
            // "If the kernel argument being set is an image object, then
            // arg_value must point to an image memory object" of the
            // argument's image type (a depth image: of channel order
            // CL_DEPTH).
            (ArgKind::Image, ArgValue::Mem(m)) => {
                let Some(m) = m.as_ref().and_then(MemArg::get).filter(|m| m.is_image()) else {
                    return fail(CL_INVALID_MEM_OBJECT);
                };
                if let Some((mem_type, depth)) = arg.image {
                    let is_depth = m
                        .image_format()
                        .is_some_and(|f| f.order == clift_builtins::image::order::DEPTH);
                    if m.mem_type() != mem_type || is_depth != depth {
                        return fail(CL_INVALID_MEM_OBJECT);
                    }
                }
                // CL_INVALID_ARG_VALUE if the argument is an image declared
                // with the read_only qualifier and arg_value points to an
                // image object created with CL_MEM_WRITE_ONLY, or declared
                // write_only and created with CL_MEM_READ_ONLY.
                let flags = m.kernel_access();
                if (arg.access_qualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY && flags & CL_MEM_WRITE_ONLY != 0)
                    || (arg.access_qualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY && flags & CL_MEM_READ_ONLY != 0)
                {
                    return fail(CL_INVALID_ARG_VALUE);
                }
                self.check_context(m.context())?;
            }
            (ArgKind::Local, ArgValue::Local(size)) => {
                // CL_INVALID_ARG_SIZE if the kernel argument is a pointer to
                // the local address space and arg_size is zero (OpenCL 2.2).
                if *size == 0 {
                    return fail(CL_INVALID_ARG_SIZE);
                }
            }
            (ArgKind::GlobalBuffer | ArgKind::ConstantBuffer, ArgValue::Svm(_)) => {}
            // CL_INVALID_SAMPLER if the kernel argument is a sampler, but
            // arg_value does not point to a valid sampler object (the API
            // layer reads the handle).
            (ArgKind::Sampler, ArgValue::Sampler(_)) => {}
            (ArgKind::Sampler, _) => return fail(CL_INVALID_SAMPLER),
            // "If the kernel argument being set is a device queue, then
            // arg_value must point to a device queue object." (The API layer
            // answers CL_INVALID_DEVICE_QUEUE for anything else.)
            (ArgKind::Queue, ArgValue::Queue(q)) => {
                // Released since the API layer read the handle.
                let q = q.get().ok_or(crate::ClError(CL_INVALID_DEVICE_QUEUE))?;
                self.check_context(q.context())?;
            }
            (ArgKind::Queue, _) => return fail(CL_INVALID_DEVICE_QUEUE),
            // A value of the wrong shape for the argument.
            (ArgKind::Local, _) => return fail(CL_INVALID_ARG_VALUE),
            (ArgKind::Value, _) => return fail(CL_INVALID_ARG_VALUE),
            (_, _) => return fail(CL_INVALID_MEM_OBJECT),
        }
        self.args.lock()[index as usize] = Some(value);
        Ok(())
    }

    /// CL_INVALID_CONTEXT if the context associated with kernel and an
    /// OpenCL object pointed to by arg_value are not the same.
    fn check_context(&self, ctx: &Arc<Context>) -> ClResult<()> {
        if Arc::ptr_eq(ctx, self.context()) {
            Ok(())
        } else {
            fail(CL_INVALID_CONTEXT)
        }
    }

    /// clSetKernelArgSVMPointer.
    pub fn set_arg_svm(&self, index: u32, ptr: usize) -> ClResult<()> {
        let arg = self.arg(index)?;
        // "The SVM pointer can only be used for arguments that are declared
        // to be a pointer to global or constant memory."
        if !matches!(arg.kind, ArgKind::GlobalBuffer | ArgKind::ConstantBuffer) {
            return fail(CL_INVALID_ARG_INDEX);
        }
        self.args.lock()[index as usize] = Some(ArgValue::Svm(ptr));
        Ok(())
    }

    /// clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS): "The complete set
    /// of pointers is specified by each call ... and replaces any previously
    /// specified set of pointers."
    pub fn set_exec_svm_ptrs(&self, ptrs: Vec<usize>) {
        self.exec.lock().svm_ptrs = ptrs;
    }

    /// clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM).
    pub fn set_exec_fine_grain_system(&self, on: bool) -> ClResult<()> {
        // CL_INVALID_OPERATION if param_name is
        // CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM and param_value is
        // CL_TRUE and no devices in the context associated with kernel
        // support fine-grain system SVM allocations.
        if on && device::SVM_CAPABILITIES & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM == 0 {
            return fail(CL_INVALID_OPERATION);
        }
        self.exec.lock().fine_grain_system = Some(on);
        Ok(())
    }

    // -- queries -------------------------------------------------------------

    /// clGetKernelInfo.
    pub fn info(&self, param: cl_kernel_info) -> ClResult<InfoValue> {
        Ok(match param {
            CL_KERNEL_FUNCTION_NAME => InfoValue::string(&self.info.name),
            CL_KERNEL_NUM_ARGS => InfoValue::u32(self.info.args.len() as u32),
            CL_KERNEL_REFERENCE_COUNT => InfoValue::u32(self.header.ref_count()),
            CL_KERNEL_CONTEXT => InfoValue::handle(handle_of(self.context())),
            CL_KERNEL_PROGRAM => InfoValue::handle(handle_of(&self.program)),
            // "For kernels not created from OpenCL C source and the
            // clCreateProgramWithSource API call the string returned from
            // this query will be empty": kernels of programs created from
            // IL or from a binary report none. A linked program's kernels
            // report what their modules record: those clift compiled from
            // OpenCL C carry their attribute list, those that came as
            // SPIR-V carry none.
            CL_KERNEL_ATTRIBUTES => InfoValue::string(match self.program.origin() {
                Origin::Source(_) | Origin::Linked => &self.info.attributes,
                Origin::Il(_) | Origin::Binary => "",
            }),
            // CL_INVALID_VALUE if param_name is not one of the supported values
            _ => return fail(CL_INVALID_VALUE),
        })
    }

    /// clGetKernelArgInfo. Address and access qualifiers are always known;
    /// the type name and the argument name only where the module carries
    /// them (`CL_KERNEL_ARG_INFO_NOT_AVAILABLE` otherwise); the type
    /// qualifier comes from the module's parameter decorations.
    pub fn arg_info(&self, index: u32, param: cl_kernel_arg_info) -> ClResult<InfoValue> {
        let arg = self.arg(index)?;
        Ok(match param {
            CL_KERNEL_ARG_ADDRESS_QUALIFIER => InfoValue::u32(arg.address_qualifier),
            CL_KERNEL_ARG_ACCESS_QUALIFIER => InfoValue::u32(arg.access_qualifier),
            CL_KERNEL_ARG_TYPE_QUALIFIER => InfoValue::u64(arg.type_qualifier),
            // CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is
            // not available for kernel.
            CL_KERNEL_ARG_TYPE_NAME => match &arg.type_name {
                Some(t) => InfoValue::string(t),
                None => return fail(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
            },
            CL_KERNEL_ARG_NAME => match &arg.name {
                Some(n) => InfoValue::string(n),
                None => return fail(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
            },
            // CL_INVALID_VALUE if param_name is not one of the supported values
            _ => return fail(CL_INVALID_VALUE),
        })
    }

    /// Checks `device` for the device-specific queries: one of the
    /// program's devices, or NULL (`None`) when the program has exactly one.
    pub fn check_device(&self, device: Option<&Arc<Device>>) -> ClResult<Arc<Device>> {
        let devices = self.program.devices();
        match device {
            Some(d) if self.program.has_device(d) => Ok(d.clone()),
            // "If the list of devices associated with kernel is a single
            // device, device can be a NULL value."
            None if devices.len() == 1 => Ok(devices[0].clone()),
            // CL_INVALID_DEVICE if device is not in the list of devices
            // associated with kernel or if device is NULL but there is more
            // than one device associated with kernel.
            _ => fail(CL_INVALID_DEVICE),
        }
    }

    /// CL_KERNEL_WORK_GROUP_SIZE: the device's maximum, or the required
    /// work-group size when the module fixes one.
    pub fn work_group_size(&self) -> usize {
        match self.info.reqd_work_group_size {
            Some(r) => r
                .iter()
                .try_fold(1usize, |a, &b| a.checked_mul(b))
                .unwrap_or(usize::MAX)
                .min(device::MAX_WORK_GROUP_SIZE),
            None => device::MAX_WORK_GROUP_SIZE,
        }
    }

    /// CL_KERNEL_LOCAL_MEM_SIZE: the kernel's `__local` variables plus the
    /// `__local` arguments set so far ("If the local memory size, for any
    /// pointer argument to the kernel declared with the __local address
    /// qualifier, is not specified, its size is assumed to be 0").
    pub fn local_mem_size(&self) -> u64 {
        let args: u64 = self
            .args
            .lock()
            .iter()
            .map(|a| match a {
                Some(ArgValue::Local(n)) => *n as u64,
                _ => 0,
            })
            .fold(0u64, u64::saturating_add);
        self.info.local_mem_size.saturating_add(args)
    }

    /// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: the device's native
    /// float vector width. A work-group runs on one CPU thread; a back end
    /// that vectorises across work-items fills whole SIMD registers when the
    /// work-group size is a multiple of the width, and a scalar one loses
    /// nothing. (Never more than the kernel's work-group size.)
    pub fn preferred_multiple(&self, device: &Device) -> usize {
        preferred_multiple(device, self.work_group_size())
    }

    /// clGetKernelWorkGroupInfo for `device` (already checked).
    pub fn work_group_info(&self, device: &Device, param: cl_kernel_work_group_info) -> ClResult<InfoValue> {
        Ok(match param {
            CL_KERNEL_WORK_GROUP_SIZE => InfoValue::usize(self.work_group_size()),
            // "If the work-group size is not specified in the kernel source
            // or IL, (0, 0, 0) is returned."
            CL_KERNEL_COMPILE_WORK_GROUP_SIZE => InfoValue::usizes(&self.info.reqd_work_group_size.unwrap_or([0; 3])),
            CL_KERNEL_LOCAL_MEM_SIZE => InfoValue::u64(self.local_mem_size()),
            CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => InfoValue::usize(self.preferred_multiple(device)),
            CL_KERNEL_PRIVATE_MEM_SIZE => InfoValue::u64(self.info.private_mem_size),
            // CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and
            // kernel is not a built-in kernel (clift has none) ...
            // ... or if param_name is not one of the supported values.
            _ => return fail(CL_INVALID_VALUE),
        })
    }

    /// clGetKernelSubGroupInfo for `device` (already checked). A work-group
    /// is split into sub-groups of `clift_jit::sub_group::SIZE` consecutive
    /// work-items (the last holding the rest). `input` is the input
    /// value's `size_t` words (`None` for a NULL pointer or a size that is
    /// not a whole number of words); `out_dims` is the number of `size_t`
    /// the application has room for (for CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT).
    pub fn sub_group_info(
        &self,
        param: cl_kernel_sub_group_info,
        input: Option<&[usize]>,
        out_dims: usize,
    ) -> ClResult<InfoValue> {
        // The local size of an ND-range query: 1 to 3 dimensions ("The
        // number of dimensions in the ND-range will be inferred from the
        // value specified for input_value_size").
        let local = || -> ClResult<usize> {
            match input {
                Some(l) if (1..=3).contains(&l.len()) => Ok(l
                    .iter()
                    .try_fold(1usize, |a, &b| a.checked_mul(b))
                    .unwrap_or(usize::MAX)),
                // CL_INVALID_VALUE if param_name is ..._FOR_NDRANGE ... and
                // the size in bytes specified by input_value_size is not
                // valid or if input_value is NULL.
                _ => fail(CL_INVALID_VALUE),
            }
        };
        Ok(match param {
            CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE => InfoValue::usize(sub_group::max_size(local()? as u64) as usize),
            CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE => InfoValue::usize(sub_group::count(local()? as u64) as usize),
            CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT => {
                let count = match input {
                    Some(&[n]) => n,
                    _ => return fail(CL_INVALID_VALUE),
                };
                if !(1..=3).contains(&out_dims) {
                    return fail(CL_INVALID_VALUE);
                }
                // "Any returned work-group will have one dimension. Other
                // dimensions ... will be filled with the value 1." The
                // largest such work-group is returned (a required size, if
                // the kernel has one, is the only one). "If no work-group
                // size can accommodate the requested number of sub-groups,
                // 0 will be returned in each element".
                let mut out = vec![1usize; out_dims];
                let max = self.work_group_size() as u64;
                match self.info.reqd_work_group_size {
                    Some(r) => {
                        let items: usize = r.iter().product();
                        if sub_group::count(items as u64) == count as u64 {
                            out.iter_mut().zip(r).for_each(|(o, v)| *o = v);
                        } else {
                            out.fill(0);
                        }
                    }
                    None => match sub_group::largest_local_size_for(count as u64, max) {
                        Some(n) => out[0] = n as usize,
                        None => out.fill(0),
                    },
                }
                InfoValue::usizes(&out)
            }
            CL_KERNEL_MAX_NUM_SUB_GROUPS => InfoValue::usize(sub_group::count(self.work_group_size() as u64) as usize),
            // "If the sub-group count is not specified then 0 is returned":
            // OpenCL SPIR-V has no SubgroupsPerWorkgroup before SPIR-V 1.1
            // kernels ask for it, and the jit reports none.
            CL_KERNEL_COMPILE_NUM_SUB_GROUPS => InfoValue::usize(0),
            // CL_INVALID_VALUE if param_name is not one of the supported values
            _ => return fail(CL_INVALID_VALUE),
        })
    }
}

/// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of a kernel whose
/// work-group size is `work_group_size` (see [`Kernel::preferred_multiple`]).
pub fn preferred_multiple(device: &Device, work_group_size: usize) -> usize {
    let width = device
        .info(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT)
        .ok()
        .and_then(|v| v.0.try_into().ok().map(u32::from_ne_bytes))
        .unwrap_or(1)
        .max(1) as usize;
    width.min(work_group_size).max(1)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn arg(kind: ArgKind, size: usize) -> ArgInfo {
        ArgInfo {
            kind,
            size,
            address_qualifier: CL_KERNEL_ARG_ADDRESS_PRIVATE,
            access_qualifier: CL_KERNEL_ARG_ACCESS_NONE,
            type_qualifier: 0,
            name: None,
            type_name: None,
            image: None,
        }
    }

    /// A kernel on a program with no build, only for the argument checks.
    pub(crate) fn kernel(args: Vec<ArgInfo>, reqd: Option<[usize; 3]>) -> Arc<Kernel> {
        let ctx = Context::new(crate::platform::Platform::get().devices().to_vec(), Vec::new(), None);
        let program = Program::with_source(&ctx, String::new());
        program.attach_clone();
        Kernel::new(
            &program,
            Arc::new(KernelInfo {
                name: "k".into(),
                args,
                attributes: String::new(),
                reqd_work_group_size: reqd,
                work_group_size_hint: None,
                vec_type_hint: None,
                local_mem_size: 16,
                private_mem_size: 0,
                block_invoke: false,
                enqueues: false,
            }),
        )
    }

    fn err(r: ClResult<()>) -> cl_int {
        r.unwrap_err().0
    }

    #[test]
    fn set_arg_checks_each_kind() {
        let k = kernel(
            vec![
                arg(ArgKind::Value, 4),
                arg(ArgKind::GlobalBuffer, 8),
                arg(ArgKind::Local, 8),
                arg(ArgKind::Sampler, 8),
                arg(ArgKind::Image, 8),
                arg(ArgKind::Pipe, 8),
                arg(ArgKind::Queue, 8),
            ],
            None,
        );
        assert_eq!(err(k.set_arg(7, ArgValue::Value(vec![0; 4]))), CL_INVALID_ARG_INDEX);
        assert_eq!(err(k.set_arg(0, ArgValue::Value(vec![0; 8]))), CL_INVALID_ARG_SIZE);
        k.set_arg(0, ArgValue::Value(vec![1, 2, 3, 4])).unwrap();
        k.set_arg(1, ArgValue::Mem(None)).unwrap();
        k.set_arg_svm(1, 0).unwrap();
        assert_eq!(err(k.set_arg_svm(0, 0)), CL_INVALID_ARG_INDEX);
        assert_eq!(err(k.set_arg(2, ArgValue::Local(0))), CL_INVALID_ARG_SIZE);
        k.set_arg(2, ArgValue::Local(64)).unwrap();
        assert_eq!(k.local_mem_size(), 16 + 64);
        assert_eq!(err(k.set_arg(3, ArgValue::Mem(None))), CL_INVALID_SAMPLER);
        assert_eq!(err(k.set_arg(4, ArgValue::Mem(None))), CL_INVALID_MEM_OBJECT);
        assert_eq!(err(k.set_arg(5, ArgValue::Mem(None))), CL_INVALID_MEM_OBJECT);
        assert_eq!(err(k.set_arg(6, ArgValue::Mem(None))), CL_INVALID_DEVICE_QUEUE);
        let c = k.clone_kernel();
        assert_eq!(c.arg_values().iter().filter(|a| a.is_some()).count(), 3);
        assert!(matches!(c.arg_values()[0], Some(ArgValue::Value(ref v)) if v == &[1, 2, 3, 4]));
    }

    #[test]
    fn sub_group_answers_for_sub_groups_of_eight() {
        let k = kernel(Vec::new(), None);
        let v = |r: ClResult<InfoValue>| r.unwrap().0;
        let word = |n: usize| n.to_ne_bytes().to_vec();
        let max = device::MAX_WORK_GROUP_SIZE;
        for (local, size, count) in [(&[8, 4][..], 8, 4), (&[5], 5, 1), (&[3, 3, 3], 8, 4), (&[1], 1, 1)] {
            assert_eq!(
                v(k.sub_group_info(CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, Some(local), 1)),
                word(size),
                "{local:?}"
            );
            assert_eq!(
                v(k.sub_group_info(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, Some(local), 1)),
                word(count),
                "{local:?}"
            );
        }
        assert_eq!(
            k.sub_group_info(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, None, 1)
                .unwrap_err()
                .0,
            CL_INVALID_VALUE
        );
        assert_eq!(
            k.sub_group_info(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, Some(&[1, 1, 1, 1]), 1)
                .unwrap_err()
                .0,
            CL_INVALID_VALUE
        );
        let one = v(k.sub_group_info(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, Some(&[1]), 2));
        assert_eq!(one, [word(8), word(1)].concat());
        let three = v(k.sub_group_info(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, Some(&[3]), 3));
        assert_eq!(three, [word(24), word(1), word(1)].concat());
        let all = v(k.sub_group_info(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, Some(&[max / 8]), 1));
        assert_eq!(all, word(max));
        let none = v(k.sub_group_info(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, Some(&[max / 8 + 1]), 3));
        assert_eq!(none, [word(0), word(0), word(0)].concat());
        let none = v(k.sub_group_info(CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, Some(&[0]), 1));
        assert_eq!(none, word(0));
        assert_eq!(
            v(k.sub_group_info(CL_KERNEL_MAX_NUM_SUB_GROUPS, None, 0)),
            word(max / 8)
        );
        assert_eq!(v(k.sub_group_info(CL_KERNEL_COMPILE_NUM_SUB_GROUPS, None, 0)), word(0));
    }
}
