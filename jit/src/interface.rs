//! What the API reports about a module and its kernels.

use std::collections::BTreeMap;

/// What [`crate::check_il`] learns from a module's header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IlInfo {
    /// SPIR-V version (major, minor).
    pub version: (u8, u8),
}

/// A specialization constant of a module (OpSpecConstant* decorated SpecId).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecConstant {
    /// The SpecId.
    pub spec_id: u32,
    /// Size in bytes of its type (1 for bool, as clSetProgramSpecializationConstant takes it).
    pub size: usize,
}

/// Options of one build (from clBuildProgram's option string and
/// clSetProgramSpecializationConstant).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// Values set with clSetProgramSpecializationConstant, by SpecId, in the
    /// bytes the application passed.
    pub spec_constants: BTreeMap<u32, Vec<u8>>,
    /// -cl-opt-disable
    pub opt_disable: bool,
    /// -cl-mad-enable
    pub mad_enable: bool,
    /// -cl-fast-relaxed-math
    pub fast_relaxed_math: bool,
    /// -cl-denorms-are-zero
    pub denorms_are_zero: bool,
    /// -cl-finite-math-only
    pub finite_math_only: bool,
    /// -cl-no-signed-zeros
    pub no_signed_zeros: bool,
    /// -cl-unsafe-math-optimizations
    pub unsafe_math: bool,
    /// -cl-single-precision-constant
    pub single_precision_constant: bool,
    /// -cl-kernel-arg-info
    pub kernel_arg_info: bool,
    /// -cl-no-subgroup-ifp: kernels need not let sub-groups progress
    /// independently, so code generation places no yield points
    /// (`lower::progress`).
    pub no_subgroup_ifp: bool,
    /// `-cl-clift-max-lanes=N`, clift's own option: the most work-items code
    /// generation may run side by side in one SIMD body (1: the scalar body
    /// alone). `None`: as many as clift chooses. Lets tests and the
    /// differential generator run one program in every execution mode.
    pub max_lanes: Option<u32>,
    /// `-cl-clift-min-lanes=N`, clift's own option: with N of 4 or more,
    /// every kernel that can have a 4-lane body gets one, even where clift
    /// estimates its scalar body faster (the differential tests compare
    /// those bodies with the scalar ones too). `None`: as clift chooses.
    pub min_lanes: Option<u32>,
    /// `-cl-clift-wide-at-build`, clift's own option: the kernels' 8-lane
    /// bodies are compiled by the build itself, not after it on a thread
    /// of clift's ([`crate::CodegenConfig::wide_later`]), so that every
    /// launch runs them (tests that compare them with the scalar bodies).
    pub wide_at_build: bool,
    /// `-cl-clift-keep-variables`, clift's own option: Function variables
    /// stay in memory as the module has them ([`crate::promote`] does not
    /// run; the differential tests compare both).
    pub keep_variables: bool,
}

/// How a kernel argument is passed (what clSetKernelArg checks against).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    /// A scalar, vector or struct passed by value: `arg_size` must equal [`ArgInfo::size`].
    Value,
    /// A `__global` pointer: a cl_mem buffer (or NULL).
    GlobalBuffer,
    /// A `__constant` pointer: a cl_mem buffer (or NULL).
    ConstantBuffer,
    /// A `__local` pointer: only a size, no value.
    Local,
    /// An image object.
    Image,
    /// A sampler.
    Sampler,
    /// A pipe object.
    Pipe,
    /// A device queue.
    Queue,
    /// The block literal of a block kernel (first parameter; see
    /// [`crate::block_invoke`]): the address of device-side enqueue's copy.
    BlockLiteral,
}

/// One kernel argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgInfo {
    /// How it is passed.
    pub kind: ArgKind,
    /// Its size in bytes as clSetKernelArg expects it (8 for pointers and
    /// memory objects; the type's size with OpenCL C layout for values).
    pub size: usize,
    /// CL_KERNEL_ARG_ADDRESS_GLOBAL / LOCAL / CONSTANT / PRIVATE.
    pub address_qualifier: u32,
    /// CL_KERNEL_ARG_ACCESS_READ_ONLY / WRITE_ONLY / READ_WRITE / NONE.
    pub access_qualifier: u32,
    /// CL_KERNEL_ARG_TYPE_CONST | RESTRICT | VOLATILE | PIPE bits.
    pub type_qualifier: u64,
    /// The parameter's name, where the module carries it (OpName).
    pub name: Option<String>,
    /// The parameter's OpenCL C type name, where the module carries it.
    pub type_name: Option<String>,
    /// For an image: the image object type it takes
    /// (`CL_MEM_OBJECT_IMAGE2D` ...) and whether it is a depth image (of
    /// channel order `CL_DEPTH`).
    pub image: Option<(u32, bool)>,
}

/// One kernel (an OpEntryPoint of the Kernel execution model).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelInfo {
    /// The entry point's name.
    pub name: String,
    /// The arguments, in order.
    pub args: Vec<ArgInfo>,
    /// CL_KERNEL_ATTRIBUTES of a kernel compiled from OpenCL C: the
    /// `__attribute__`s of its declaration, space-separated, e.g.
    /// `vec_type_hint(uint4) reqd_work_group_size(16,16,1)`, as clift's
    /// OpenCL C front end recorded them in the module (an OpString
    /// `opencl_c_attributes.<kernel>.<attributes>`). Empty for a kernel
    /// without that record: one that came to clift as SPIR-V.
    pub attributes: String,
    /// LocalSize execution mode (reqd_work_group_size).
    pub reqd_work_group_size: Option<[usize; 3]>,
    /// LocalSizeHint execution mode (work_group_size_hint).
    pub work_group_size_hint: Option<[usize; 3]>,
    /// VecTypeHint execution mode, as an OpenCL C type name.
    pub vec_type_hint: Option<String>,
    /// Bytes of `__local` variables the kernel declares (Workgroup storage).
    pub local_mem_size: u64,
    /// Bytes of private (Function storage) variables per work-item.
    pub private_mem_size: u64,
    /// Whether this is a block kernel ([`crate::block_invoke`]): launched
    /// only by device-side enqueue, hidden from the application.
    pub block_invoke: bool,
    /// Whether the kernel (or a function it calls) uses device-side
    /// enqueue: enqueues a kernel or a marker, works with device events or
    /// asks about a block kernel. Its launches need
    /// [`crate::launch_abi::WorkGroupCtx::device_enqueue`].
    pub enqueues: bool,
}

/// A validated module: what the runtime keeps after a successful build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltModule {
    /// The kernels, in the module's entry-point order.
    pub kernels: Vec<KernelInfo>,
    /// CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: bytes of program-scope
    /// variables in the global address space (CrossWorkgroup storage).
    pub global_variable_total_size: usize,
}
