//! The CPU device: its limits and capabilities (the values `clinfo` shows), the
//! cores it owns, and the thread pool that runs its commands on those cores.
//!
//! Every `clGetDeviceInfo` answer of OpenCL 2.2 (and of the extensions the
//! device lists) is here, each from a named constant (a limit clift itself
//! sets and enforces) or from a fact about the machine read once by
//! [`crate::topology`]. Beside each value is the spec text that bounds it.

use std::sync::{Arc, OnceLock};

use crate::error::{fail, ClResult};
use crate::info::{make_version, InfoValue};
use crate::object::{ApiHeader, ApiObject};
use crate::topology::{self, Level};
use opencl_sys::*;

/// Extensions every clift device supports, in the order `clinfo` lists them.
/// Only what works end to end is here; later features add their names.
pub const DEVICE_EXTENSIONS: &[&str] = &[
    "cl_khr_byte_addressable_store",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_icd",
    "cl_khr_extended_versioning",
    "cl_khr_il_program",
    "cl_khr_fp64",
    "cl_khr_fp16",
    "cl_khr_subgroups",
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_3d_image_writes",
    "cl_khr_image2d_from_buffer",
    "cl_khr_depth_images",
];

/// [`DEVICE_EXTENSIONS`] with their versions, for `*_EXTENSIONS_WITH_VERSION`.
pub const DEVICE_EXTENSION_VERSIONS: [(u32, &str); 23] = [
    (make_version(1, 0, 0), "cl_khr_byte_addressable_store"),
    (make_version(1, 0, 0), "cl_khr_global_int32_base_atomics"),
    (make_version(1, 0, 0), "cl_khr_global_int32_extended_atomics"),
    (make_version(1, 0, 0), "cl_khr_local_int32_base_atomics"),
    (make_version(1, 0, 0), "cl_khr_local_int32_extended_atomics"),
    (make_version(1, 0, 0), "cl_khr_int64_base_atomics"),
    (make_version(1, 0, 0), "cl_khr_int64_extended_atomics"),
    (make_version(1, 0, 0), "cl_khr_icd"),
    (make_version(1, 0, 0), "cl_khr_extended_versioning"),
    (make_version(1, 0, 0), "cl_khr_il_program"),
    (make_version(1, 0, 0), "cl_khr_fp64"),
    (make_version(1, 0, 0), "cl_khr_fp16"),
    (make_version(1, 0, 0), "cl_khr_subgroups"),
    (make_version(1, 0, 0), "cl_khr_subgroup_extended_types"),
    (make_version(1, 0, 0), "cl_khr_subgroup_non_uniform_vote"),
    (make_version(1, 0, 0), "cl_khr_subgroup_ballot"),
    (make_version(1, 0, 0), "cl_khr_subgroup_non_uniform_arithmetic"),
    (make_version(1, 0, 0), "cl_khr_subgroup_shuffle"),
    (make_version(1, 0, 0), "cl_khr_subgroup_shuffle_relative"),
    (make_version(1, 0, 0), "cl_khr_subgroup_clustered_reduce"),
    (make_version(1, 0, 0), "cl_khr_3d_image_writes"),
    (make_version(1, 0, 0), "cl_khr_image2d_from_buffer"),
    (make_version(1, 0, 0), "cl_khr_depth_images"),
];

/// The OpenCL version the device implements.
pub const DEVICE_VERSION: (u32, u32) = (2, 2);

/// The OpenCL C version the device's compiler targets: "Support for OpenCL C
/// 2.0 is required for an OpenCL 2.0, OpenCL 2.1, or OpenCL 2.2 device."
pub const OPENCL_C_VERSION: (u32, u32) = (2, 0);

/// "An OpenCL 2.2 device must support at least SPIR-V 1.0, SPIR-V 1.1, and
/// SPIR-V 1.2." And 1.3, where the GroupNonUniform instructions of the
/// cl_khr_subgroup_* extensions are (the OpenCL SPIR-V environment: "An
/// OpenCL environment supporting SPIR-V 1.3 must support SPIR-V 1.3
/// modules that declare the capabilities required for SPIR-V 1.2").
pub const IL_VERSIONS: [(u32, &str); 4] = [
    (make_version(1, 0, 0), "SPIR-V"),
    (make_version(1, 1, 0), "SPIR-V"),
    (make_version(1, 2, 0), "SPIR-V"),
    (make_version(1, 3, 0), "SPIR-V"),
];

/// "Maximum dimensions that specify the global and local work-item IDs ...
/// The minimum value is 3."
pub const MAX_WORK_ITEM_DIMENSIONS: u32 = 3;

/// Largest work-group, in work-items. A CPU work-group runs on one thread, so
/// the limit only bounds the per-work-group state clift allocates (local
/// memory and the work-item contexts of barriers); 4096 is what CPU runtimes
/// commonly choose.
pub const MAX_WORK_GROUP_SIZE: usize = 4096;

/// Largest work-group in each dimension: any shape within
/// [`MAX_WORK_GROUP_SIZE`] work-items.
pub const MAX_WORK_ITEM_SIZES: [usize; MAX_WORK_ITEM_DIMENSIONS as usize] = [MAX_WORK_GROUP_SIZE; 3];

/// SPIR-V's universal limit on the parameters of one function ("Function
/// parameters, per function: 255"), which `spirv-val` enforces: no kernel,
/// nor a function it calls, can take more when it comes as SPIR-V.
pub const SPIRV_MAX_FUNCTION_PARAMETERS: usize = 255;

/// "Max size in bytes of all arguments that can be passed to a kernel. The
/// minimum value is 1024. ... For all other values, a maximum of 255
/// arguments can be passed to a kernel." Kept to what a kernel can express
/// in SPIR-V: 254 pointer-sized (8-byte) arguments, so a kernel whose
/// pointers or longs fill it, and a function that takes all of them and
/// one more, stay within [`SPIRV_MAX_FUNCTION_PARAMETERS`]. (Arguments of
/// 4 bytes or fewer cannot fill even the minimum: 255 of them are at most
/// 1020 bytes.)
pub const MAX_PARAMETER_SIZE: usize = (SPIRV_MAX_FUNCTION_PARAMETERS - 1) * 8;

/// "Max number of arguments declared with the __constant qualifier in a
/// kernel. The minimum value is 8." Constant memory is ordinary memory on a
/// CPU, so the bound is the parameters': as many `__constant` pointers as
/// fit in [`MAX_PARAMETER_SIZE`] beside one more pointer (the kernel's
/// output), 253.
pub const MAX_CONSTANT_ARGS: u32 = (MAX_PARAMETER_SIZE / 8 - 1) as u32;

/// "Alignment requirement (in bits) for sub-buffer offsets. The minimum value
/// is the size (in bits) of the largest OpenCL built-in data type supported
/// by the device (long16 in FULL profile)": 128 bytes.
pub const MEM_BASE_ADDR_ALIGN_BITS: u32 = 128 * 8;

/// "The minimum value is the size (in bytes) of the largest OpenCL data type
/// supported by the device (long16 in FULL profile)."
pub const MIN_DATA_TYPE_ALIGN_SIZE: u32 = 128;

/// "Maximum size in bytes of the internal buffer that holds the output of
/// printf calls from a kernel. The minimum value for the FULL profile is 1 MB."
pub const PRINTF_BUFFER_SIZE: usize = 1 << 20;

/// "Size of local memory region in bytes. The minimum value is 32 KB." Local
/// memory is carved from host memory per work-group; clift offers at least
/// this much, or the per-core L2 cache size when larger (see
/// [`local_mem_size`]).
pub const MIN_LOCAL_MEM_SIZE: u64 = 64 << 10;

/// "The maximum number of bytes of storage that may be allocated for any
/// single variable in program scope ... The minimum value is 64 KB if the
/// device supports program scope global variables."
pub const MAX_GLOBAL_VARIABLE_SIZE: usize = 64 << 10;

/// "The maximum number of pipe objects that can be passed as arguments to a
/// kernel. The minimum value is 16 for devices supporting pipes." A pipe
/// argument is an 8-byte address like a buffer's: nothing limits them but
/// the parameter size; 64 is what clift promises and tests.
pub const MAX_PIPE_ARGS: u32 = 64;

/// "The maximum number of reservations that can be active for a pipe per
/// work-item in a kernel. ... The minimum value is 1 for devices supporting
/// pipes." A reservation id carries its reservation
/// (`clift_jit::pipe`), so nothing limits how many are active but the
/// pipe's room; 64 is what clift promises and tests.
pub const PIPE_MAX_ACTIVE_RESERVATIONS: u32 = 64;

/// "The maximum size of pipe packet in bytes. ... The minimum value is 1024
/// bytes if the device supports pipes." The protocol takes any size; 64 KiB
/// keeps a packet within what one private variable of a kernel may be.
pub const PIPE_MAX_PACKET_SIZE: u32 = 64 << 10;

/// "Maximum number of sub-groups in a work-group ... The minimum value is 1
/// if the device supports sub-groups ... Support for sub-groups is required
/// for an OpenCL 2.1, OpenCL 2.2 ... device." Sub-groups have
/// `clift_jit::sub_group::SIZE` work-items: the largest work-group holds
/// this many.
pub const MAX_NUM_SUB_GROUPS: u32 = MAX_WORK_GROUP_SIZE.div_ceil(clift_jit::sub_group::SIZE as usize) as u32;

/// CL_DEVICE_IMAGE_SUPPORT: images are host memory laid out as the image
/// descriptor says (`clift_builtins::image::ImageDesc`); kernels read,
/// sample and write them through the built-ins' texel conversions.
pub const IMAGE_SUPPORT: bool = true;

/// "Max number of image objects arguments of a kernel declared with the
/// read_only qualifier. The minimum value is 128 if CL_DEVICE_IMAGE_SUPPORT
/// is CL_TRUE." An image argument is one pointer to its descriptor: only
/// the parameter size bounds them; clift promises the minimum.
pub const MAX_READ_IMAGE_ARGS: u32 = 128;

/// "Max number of image objects arguments of a kernel declared with the
/// write_only qualifier. The minimum value is 64 if CL_DEVICE_IMAGE_SUPPORT
/// is CL_TRUE."
pub const MAX_WRITE_IMAGE_ARGS: u32 = 64;

/// "Max number of image objects arguments of a kernel declared with the
/// write_only or read_write qualifier. ... The minimum value is 64 if
/// CL_DEVICE_IMAGE_SUPPORT is CL_TRUE."
pub const MAX_READ_WRITE_IMAGE_ARGS: u32 = 64;

/// "Maximum number of samplers that can be used in a kernel. The minimum
/// value is 16 if CL_DEVICE_IMAGE_SUPPORT is CL_TRUE." A sampler is a
/// 32-bit value (`clift_builtins::image::sampler`).
pub const MAX_SAMPLERS: u32 = 16;

/// "Max width (height) of 2D image or 1D image not created from a buffer
/// object in pixels. The minimum value is 16384 if CL_DEVICE_IMAGE_SUPPORT
/// is CL_TRUE." Also the limit of 1D images and arrays' widths.
pub const IMAGE2D_MAX_SIZE: usize = 16384;

/// "Max width (height, depth) of 3D image in pixels. The minimum value is
/// 2048 if CL_DEVICE_IMAGE_SUPPORT is CL_TRUE."
pub const IMAGE3D_MAX_SIZE: usize = 2048;

/// "Max number of pixels for a 1D image created from a buffer object. The
/// minimum value is 65536 if CL_DEVICE_IMAGE_SUPPORT is CL_TRUE." A 1D
/// image buffer views its buffer's bytes, so the buffer's size is the real
/// bound; 2^27 pixels is 128 MiB of 1-byte texels, the smallest
/// CL_DEVICE_MAX_MEM_ALLOC_SIZE clift reports.
pub const IMAGE_MAX_BUFFER_SIZE: usize = 1 << 27;

/// "Max number of images in a 1D or 2D image array. The minimum value is
/// 2048 if CL_DEVICE_IMAGE_SUPPORT is CL_TRUE."
pub const IMAGE_MAX_ARRAY_SIZE: usize = 2048;

/// "The row pitch alignment size in pixels for 2D images created from a
/// buffer. The value returned must be a power of 2." Any row of whole
/// texels will do on a CPU.
pub const IMAGE_PITCH_ALIGNMENT: u32 = 1;

/// "This query specifies the minimum alignment in pixels of the host_ptr
/// specified to clCreateBuffer ... when a 2D image is created from a buffer
/// which was created using CL_MEM_USE_HOST_PTR. The value returned must be
/// a power of 2." One pixel: every texel then starts at a multiple of its
/// own size.
pub const IMAGE_BASE_ADDRESS_ALIGNMENT: u32 = 1;

/// Single-precision capabilities common to every CPU clift runs on: IEEE 754
/// denormals, infinities and NaNs, all four rounding modes in hardware (x87/
/// SSE MXCSR, Arm FPCR), and correctly rounded division and square root.
/// `CL_FP_FMA` is added when the processor has fused multiply-add
/// ([`single_fp_config`]).
pub const SINGLE_FP_CONFIG_BASE: cl_device_fp_config = CL_FP_DENORM
    | CL_FP_INF_NAN
    | CL_FP_ROUND_TO_NEAREST
    | CL_FP_ROUND_TO_ZERO
    | CL_FP_ROUND_TO_INF
    | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;

/// CL_DEVICE_DOUBLE_FP_CONFIG with `cl_khr_fp64`: "If double precision is
/// supported by the device, then the minimum double precision
/// floating-point capability for OpenCL 2.0 or newer devices is: CL_FP_FMA |
/// CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM." clift also has
/// the directed rounding modes (conversions honour all four). Its double
/// `fma` is always correctly rounded (hardware fused multiply-add where
/// the processor has it, else the C library's `fma`, which the spec's
/// minimum leaves no choice but to report as `CL_FP_FMA` too).
pub const DOUBLE_FP_CONFIG: cl_device_fp_config =
    CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;

/// CL_DEVICE_HALF_FP_CONFIG with `cl_khr_fp16` (the minimum is
/// CL_FP_ROUND_TO_ZERO, or CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN). Half
/// arithmetic rounds to nearest even, keeps infinities, NaNs and
/// denormals, and conversions to half honour all four rounding modes; half
/// `fma` is correctly rounded (computed in double, rounded once).
pub const HALF_FP_CONFIG: cl_device_fp_config =
    CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;

/// "The mandated minimum capability is: CL_EXEC_KERNEL." clift also runs
/// native kernels (`clEnqueueNativeKernel`) on its worker threads.
pub const EXECUTION_CAPABILITIES: cl_device_exec_capabilities = CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL;

/// "The mandated minimum capability for an OpenCL 2.0, 2.1, or 2.2 device is
/// CL_DEVICE_SVM_COARSE_GRAIN_BUFFER." Host and device share one address
/// space and one memory: buffers allocated with `clSVMAlloc` are
/// fine-grained as well; kernels dereference any host pointer, `malloc`ed
/// or on a stack (fine-grain system SVM), as plain addresses; and a
/// kernel's atomics are the CPU's own atomic instructions, sequentially
/// consistent, on the same memory host threads use, so they are atomic
/// with respect to host threads' atomics at the same time (SVM atomics).
pub const SVM_CAPABILITIES: cl_device_svm_capabilities = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER
    | CL_DEVICE_SVM_FINE_GRAIN_BUFFER
    | CL_DEVICE_SVM_FINE_GRAIN_SYSTEM
    | CL_DEVICE_SVM_ATOMICS;

/// The affinity domains, outermost first, as CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE
/// searches them: "in the order NUMA, L4, L3, L2, L1".
const AFFINITY_LEVELS: [(cl_device_affinity_domain, Level); 5] = [
    (CL_DEVICE_AFFINITY_DOMAIN_NUMA, Level::Numa),
    (CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE, Level::Cache(4)),
    (CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, Level::Cache(3)),
    (CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, Level::Cache(2)),
    (CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, Level::Cache(1)),
];

/// A CPU device: the root device (all cores available to the process) or a
/// sub-device (a subset of its parent's cores).
#[repr(C)]
pub struct Device {
    header: ApiHeader,
    parent: Option<Arc<Device>>,
    /// Logical CPU numbers this device runs on.
    cpus: Vec<usize>,
    /// The partition property list this sub-device was created with,
    /// terminators included (empty for a root device).
    partition: Vec<isize>,
    pool: OnceLock<rayon::ThreadPool>,
}
crate::api_object!(Device);

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device").field("cpus", &self.cpus).finish()
    }
}

/// Logical CPUs this process may run on.
pub fn available_cpus() -> Vec<usize> {
    // SAFETY: cpu_set_t is plain data; zeroed is a valid empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `set` is a valid cpu_set_t of the size passed.
    let rc = unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
    if rc != 0 {
        let n = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        return (0..n).collect();
    }
    (0..libc::CPU_SETSIZE as usize)
        // SAFETY: `i` is below CPU_SETSIZE, the bound CPU_ISSET requires.
        .filter(|&i| unsafe { libc::CPU_ISSET(i, &set) })
        .collect()
}

/// Pins the calling thread to `cpus`.
fn pin_current_thread(cpus: &[usize]) {
    // SAFETY: cpu_set_t is plain data; zeroed is a valid empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &c in cpus {
        if c < libc::CPU_SETSIZE as usize {
            // SAFETY: `c` is below CPU_SETSIZE.
            unsafe { libc::CPU_SET(c, &mut set) };
        }
    }
    // SAFETY: `set` is a valid cpu_set_t; pid 0 is the calling thread. A failure
    // leaves the thread unpinned, which only costs locality.
    unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
}

/// The width in bytes of the processor's SIMD registers for (8/16-bit
/// integers, 32/64-bit integers, floats), detected at run time.
fn simd_bytes() -> (u32, u32, u32) {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        let bytes = |wide: bool, mid: bool| {
            if wide {
                64
            } else if mid {
                32
            } else {
                16
            }
        };
        let avx512f = std::arch::is_x86_feature_detected!("avx512f");
        let small = bytes(
            std::arch::is_x86_feature_detected!("avx512bw"),
            std::arch::is_x86_feature_detected!("avx2"),
        );
        let int = bytes(avx512f, std::arch::is_x86_feature_detected!("avx2"));
        let float = bytes(avx512f, std::arch::is_x86_feature_detected!("avx"));
        (small, int, float)
    }
    #[cfg(target_arch = "aarch64")]
    {
        // Advanced SIMD (NEON) is part of every AArch64 processor: 128 bits.
        (16, 16, 16)
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64")))]
    {
        // No SIMD clift knows of: one element per register, the width of the widest type.
        (0, 0, 0)
    }
}

/// The native vector width for a scalar of `size` bytes in registers of
/// `bytes` bytes (1 when there is no SIMD).
fn vector_width(bytes: u32, size: u32) -> u32 {
    (bytes / size).max(1)
}

/// Native vector widths: (char, short, int, long, float, double), from the
/// SIMD width.
fn native_vector_widths() -> [u32; 6] {
    static WIDTHS: OnceLock<[u32; 6]> = OnceLock::new();
    *WIDTHS.get_or_init(|| {
        let (small, int, float) = simd_bytes();
        [
            vector_width(small, 1),
            vector_width(small, 2),
            vector_width(int, 4),
            vector_width(int, 8),
            vector_width(float, 4),
            vector_width(float, 8),
        ]
    })
}

/// Whether the processor has fused multiply-add in hardware.
fn has_hardware_fma() -> bool {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(target_arch = "aarch64")]
    {
        // FMADD is part of the AArch64 base instruction set.
        true
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64")))]
    {
        false
    }
}

/// CL_DEVICE_SINGLE_FP_CONFIG: "CL_FP_FMA - the fma kernel builtin is
/// implemented using hardware-accelerated fused multiply-add".
pub fn single_fp_config() -> cl_device_fp_config {
    SINGLE_FP_CONFIG_BASE | if has_hardware_fma() { CL_FP_FMA } else { 0 }
}

/// Local memory per work-group: the smallest per-core L2 cache of the
/// machine (so one work-group's local memory stays in its core's cache), but
/// at least [`MIN_LOCAL_MEM_SIZE`]. The same for a root device and its
/// sub-devices, as the spec requires of every query but five.
pub fn local_mem_size() -> u64 {
    topology::system()
        .cpus
        .values()
        .filter_map(|c| c.cache(2).map(|l2| l2.size))
        .min()
        .unwrap_or(0)
        .max(MIN_LOCAL_MEM_SIZE)
}

/// Physical memory of the machine: the device's global memory.
pub fn system_memory() -> u64 {
    topology::system().memory_bytes
}

/// The vendor ID: "If the vendor has a PCI vendor ID, the low 16 bits must
/// contain that PCI vendor ID, and the remaining bits must be set to zero.
/// Otherwise, the value returned must be a valid Khronos vendor ID". The
/// device is the host processor, so its vendor's PCI ID is reported (as
/// other CPU implementations do). clift has no Khronos vendor ID of its own
/// (0x10006 belongs to PoCL), so for a processor vendor clift does not know,
/// 0 is reported: no valid ID can be given, and 0 claims no one else's.
pub fn vendor_id() -> u32 {
    topology::system().vendor.as_ref().and_then(|v| v.pci_id).unwrap_or(0)
}

/// clift's own vendor name, for a processor whose vendor is unknown.
const CLIFT_VENDOR: &str = "The clift developers";

/// The vendor name: the processor's vendor (the device is the processor),
/// else the platform's vendor.
pub fn vendor_name() -> String {
    match &topology::system().vendor {
        Some(v) => v.name.clone(),
        None => CLIFT_VENDOR.to_string(),
    }
}

/// The device name: clift's, with the processor's model.
pub fn device_name() -> String {
    match &topology::system().model_name {
        Some(m) => format!("clift CPU ({m})"),
        None => "clift CPU".to_string(),
    }
}

/// A partition scheme of `clCreateSubDevices`, checked for form.
enum Scheme {
    Equally(usize),
    ByCounts(Vec<usize>),
    ByAffinity(cl_device_affinity_domain),
}

/// Reads a property list (terminators included) as a partition scheme.
fn parse_scheme(props: &[isize]) -> ClResult<Scheme> {
    let count = |v: isize| -> ClResult<usize> {
        // CL_INVALID_DEVICE_PARTITION_COUNT ... if the number of compute
        // units requested for one or more sub-devices is less than zero
        usize::try_from(v).or(fail(CL_INVALID_DEVICE_PARTITION_COUNT))
    };
    match props {
        // "Only one of the listed partitioning schemes can be specified in
        // properties"; "The list is terminated with 0."
        // (A zero n cannot come from a C list, where it ends the list.)
        [CL_DEVICE_PARTITION_EQUALLY, n, 0] if *n != 0 => Ok(Scheme::Equally(count(*n)?)),
        // "This property is followed by a list of compute unit counts
        // terminated with 0 or CL_DEVICE_PARTITION_BY_COUNTS_LIST_END."
        [CL_DEVICE_PARTITION_BY_COUNTS, counts @ .., CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0]
            if !counts.is_empty() && !counts.contains(&0) =>
        {
            Ok(Scheme::ByCounts(
                counts.iter().map(|&c| count(c)).collect::<ClResult<_>>()?,
            ))
        }
        [CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, d, 0] => {
            let d = *d as cl_device_affinity_domain;
            let known =
                AFFINITY_LEVELS.iter().any(|(bit, _)| *bit == d) || d == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
            if known {
                Ok(Scheme::ByAffinity(d))
            } else {
                // CL_INVALID_VALUE if values specified in properties are not valid
                fail(CL_INVALID_VALUE)
            }
        }
        // CL_INVALID_VALUE if values specified in properties are not valid
        _ => fail(CL_INVALID_VALUE),
    }
}

impl Device {
    /// The root device over every CPU available to the process.
    pub fn new_root() -> Arc<Device> {
        Arc::new(Device {
            header: ApiHeader::new(),
            parent: None,
            cpus: available_cpus(),
            partition: Vec::new(),
            pool: OnceLock::new(),
        })
    }

    /// A sub-device of `parent` over `cpus`.
    fn new_sub(parent: &Arc<Device>, cpus: Vec<usize>, partition: Vec<isize>) -> Arc<Device> {
        Arc::new(Device {
            header: ApiHeader::new(),
            parent: Some(parent.clone()),
            cpus,
            partition,
            pool: OnceLock::new(),
        })
    }

    /// Whether this is a root device (not created by clCreateSubDevices).
    pub fn is_root(&self) -> bool {
        self.parent.is_none()
    }

    /// The parent device, for sub-devices.
    pub fn parent(&self) -> Option<&Arc<Device>> {
        self.parent.as_ref()
    }

    /// The logical CPUs this device runs on.
    pub fn cpus(&self) -> &[usize] {
        &self.cpus
    }

    /// Number of compute units: one per logical CPU.
    pub fn compute_units(&self) -> u32 {
        self.cpus.len() as u32
    }

    /// The partition property list this sub-device was created with,
    /// terminators included (empty for a root device).
    pub fn partition_type(&self) -> &[isize] {
        &self.partition
    }

    /// The thread pool that runs this device's commands and work-groups, one
    /// thread per CPU of the device, each pinned to the device's CPUs.
    pub fn pool(&self) -> &rayon::ThreadPool {
        self.pool.get_or_init(|| {
            let cpus = self.cpus.clone();
            let pin = self.parent.is_some();
            rayon::ThreadPoolBuilder::new()
                .num_threads(self.cpus.len().max(1))
                .thread_name(|i| format!("clift-worker-{i}"))
                // Kernels keep private variables on the stack (up to
                // jit::lower::MAX_STACK); reserved, not committed.
                .stack_size(16 << 20)
                .start_handler(move |_| {
                    if pin {
                        pin_current_thread(&cpus);
                    }
                })
                .build()
                .unwrap_or_else(|_| {
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(1)
                        .build()
                        .expect("a one-thread pool can always be built")
                })
        })
    }

    /// Largest single allocation, in bytes: a quarter of the memory, but at
    /// least 128 MiB (within the memory). The spec's minimum is
    /// "max(min(1024 × 1024 × 1024, 1/4th of CL_DEVICE_GLOBAL_MEM_SIZE), 32 × 1024 × 1024)".
    pub fn max_mem_alloc_size(&self) -> u64 {
        let global = self.global_mem_size();
        (global / 4).max((128u64 << 20).min(global))
    }

    /// Global memory size: the system's physical memory.
    pub fn global_mem_size(&self) -> u64 {
        system_memory()
    }

    /// The last-level caches of the device's CPUs: (total size of the
    /// distinct cache instances, line size). `None` if the machine does not
    /// tell.
    fn global_mem_cache(&self) -> Option<(u64, u32)> {
        let sys = topology::system();
        let mut seen: Vec<usize> = Vec::new();
        let mut total = 0u64;
        let mut line = 0u32;
        for &c in &self.cpus {
            let info = sys.cpu(c);
            let llc = info.last_level_cache()?;
            let id = *llc.shared_cpus.first()?;
            if !seen.contains(&id) {
                seen.push(id);
                total = total.saturating_add(llc.size);
                line = line.max(llc.line);
            }
        }
        (total > 0).then_some((total, line))
    }

    /// Whether `cpus` can be split into at least two sub-devices: "If the
    /// device cannot be partitioned (i.e. there is no partitioning scheme
    /// supported by the device that will return at least two sub-devices)".
    fn partitionable(&self) -> bool {
        self.cpus.len() >= 2
    }

    /// CL_DEVICE_PARTITION_MAX_SUB_DEVICES: one sub-device per CPU at most
    /// ("The value returned cannot exceed CL_DEVICE_MAX_COMPUTE_UNITS"), none
    /// for a device of one CPU.
    pub fn max_sub_devices(&self) -> u32 {
        if self.partitionable() {
            self.compute_units()
        } else {
            0
        }
    }

    /// The groups of the device's CPUs at `level`, if there are at least two.
    fn split_at(&self, level: Level) -> Option<Vec<Vec<usize>>> {
        topology::system().groups(&self.cpus, level).filter(|g| g.len() >= 2)
    }

    /// CL_DEVICE_PARTITION_AFFINITY_DOMAIN: the domains along which this
    /// device's CPUs really fall into two or more groups, plus
    /// NEXT_PARTITIONABLE when there is any.
    pub fn affinity_domains(&self) -> cl_device_affinity_domain {
        let mut mask = 0;
        for (bit, level) in AFFINITY_LEVELS {
            if self.split_at(level).is_some() {
                mask |= bit;
            }
        }
        if mask != 0 {
            mask |= CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
        }
        mask
    }

    /// CL_DEVICE_PARTITION_PROPERTIES.
    pub fn partition_properties(&self) -> Vec<isize> {
        if !self.partitionable() {
            // "If the device cannot be partitioned ... a value of 0 will be returned."
            return vec![0];
        }
        let mut v = vec![CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS];
        if self.affinity_domains() != 0 {
            v.push(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
        }
        v
    }

    /// `clCreateSubDevices`: partitions this device as `props` asks. `props`
    /// is the application's property list with its terminators (for
    /// CL_DEVICE_PARTITION_BY_COUNTS both the list end and the final 0). The
    /// sub-devices are returned unregistered; each holds its parent.
    pub fn partition(self: &Arc<Self>, props: &[isize]) -> ClResult<Vec<Arc<Device>>> {
        let scheme = parse_scheme(props)?;
        let n = self.cpus.len();
        // CL_DEVICE_PARTITION_FAILED if the partition name is supported by
        // the implementation but in_device could not be further partitioned.
        if !self.partitionable() {
            return fail(CL_DEVICE_PARTITION_FAILED);
        }
        let ordered = topology::system().locality_order(&self.cpus);
        let groups: Vec<(Vec<usize>, Vec<isize>)> = match scheme {
            Scheme::Equally(per) => {
                // "Split the aggregate device into as many smaller aggregate
                // devices as can be created, each containing n compute units."
                // CL_INVALID_DEVICE_PARTITION_COUNT ... if the total number
                // of compute units requested exceeds CL_DEVICE_MAX_COMPUTE_UNITS
                if per > n {
                    return fail(CL_INVALID_DEVICE_PARTITION_COUNT);
                }
                // Groups of all its compute units leave the device whole:
                // it "could not be further partitioned" (the Khronos
                // conformance suite's negative_create_sub_devices asks
                // CL_DEVICE_PARTITION_FAILED of CL_DEVICE_MAX_COMPUTE_UNITS).
                if per == n {
                    return fail(CL_DEVICE_PARTITION_FAILED);
                }
                ordered
                    .chunks_exact(per)
                    .map(|c| (c.to_vec(), props.to_vec()))
                    .collect()
            }
            Scheme::ByCounts(counts) => {
                // CL_INVALID_DEVICE_PARTITION_COUNT if the partition name
                // specified in properties is CL_DEVICE_PARTITION_BY_COUNTS and
                // the number of sub-devices requested exceeds
                // CL_DEVICE_PARTITION_MAX_SUB_DEVICES
                if counts.len() > self.max_sub_devices() as usize {
                    return fail(CL_INVALID_DEVICE_PARTITION_COUNT);
                }
                // or if the total number of compute units requested exceeds
                // CL_DEVICE_MAX_COMPUTE_UNITS for in_device
                let total = counts.iter().try_fold(0usize, |a, &c| a.checked_add(c));
                if !matches!(total, Some(t) if t <= n) {
                    return fail(CL_INVALID_DEVICE_PARTITION_COUNT);
                }
                let mut rest = ordered.as_slice();
                counts
                    .iter()
                    .map(|&c| {
                        let (head, tail) = rest.split_at(c);
                        rest = tail;
                        (head.to_vec(), props.to_vec())
                    })
                    .collect()
            }
            Scheme::ByAffinity(domain) => {
                let supported = self.affinity_domains();
                if supported == 0 {
                    // The CPUs share every level of the hierarchy: the device
                    // "could not be further partitioned" along any domain.
                    return fail(CL_DEVICE_PARTITION_FAILED);
                }
                // "CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE - ... find
                // the first level along which the device or sub-device may be
                // further subdivided in the order NUMA, L4, L3, L2, L1".
                let used = if domain == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE {
                    AFFINITY_LEVELS
                        .iter()
                        .map(|(bit, _)| *bit)
                        .find(|bit| supported & bit != 0)
                        .unwrap_or(0)
                } else if supported & domain != 0 {
                    domain
                } else {
                    // CL_INVALID_VALUE ... if values specified in properties
                    // are valid but not are supported by in_device
                    return fail(CL_INVALID_VALUE);
                };
                let Some((_, level)) = AFFINITY_LEVELS.iter().find(|(bit, _)| *bit == used) else {
                    return fail(CL_DEVICE_PARTITION_FAILED);
                };
                let Some(groups) = self.split_at(*level) else {
                    return fail(CL_DEVICE_PARTITION_FAILED);
                };
                // "In the case where the properties argument to
                // clCreateSubDevices is CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                // CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, the affinity
                // domain used to perform the partition will be returned."
                let recorded = vec![CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, used as isize, 0];
                groups.into_iter().map(|g| (g, recorded.clone())).collect()
            }
        };
        Ok(groups
            .into_iter()
            .map(|(cpus, recorded)| Device::new_sub(self, cpus, recorded))
            .collect())
    }

    /// `clGetDeviceInfo`: every query of OpenCL 2.2 and of the extensions
    /// in [`DEVICE_EXTENSIONS`].
    pub fn info(&self, param: cl_device_info) -> ClResult<InfoValue> {
        let [w_char, w_short, w_int, w_long, w_float, w_double] = native_vector_widths();
        let version = format!(
            "OpenCL {}.{} clift {}",
            DEVICE_VERSION.0,
            DEVICE_VERSION.1,
            crate::platform::CLIFT_VERSION
        );
        Ok(match param {
            // "The device must report a single device type".
            CL_DEVICE_TYPE => InfoValue::u64(CL_DEVICE_TYPE_CPU),
            CL_DEVICE_VENDOR_ID => InfoValue::u32(vendor_id()),
            // "The minimum value is 1."
            CL_DEVICE_MAX_COMPUTE_UNITS => InfoValue::u32(self.compute_units()),
            CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => InfoValue::u32(MAX_WORK_ITEM_DIMENSIONS),
            // Also CL_DEVICE_MAX_WORK_GROUP_SIZES (the same enum value).
            CL_DEVICE_MAX_WORK_ITEM_SIZES => InfoValue::usizes(&MAX_WORK_ITEM_SIZES),
            CL_DEVICE_MAX_WORK_GROUP_SIZE => InfoValue::usize(MAX_WORK_GROUP_SIZE),
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR | CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR => InfoValue::u32(w_char),
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT | CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT => InfoValue::u32(w_short),
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT | CL_DEVICE_NATIVE_VECTOR_WIDTH_INT => InfoValue::u32(w_int),
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG | CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG => InfoValue::u32(w_long),
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT | CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT => InfoValue::u32(w_float),
            // cl_khr_fp64 is supported: the doubles a SIMD register holds.
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE | CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE => InfoValue::u32(w_double),
            // cl_khr_fp16 is supported: as many halves as 16-bit lanes.
            CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF | CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => InfoValue::u32(w_short),
            // "Clock frequency of the device in MHz." 0 when the machine does not tell.
            CL_DEVICE_MAX_CLOCK_FREQUENCY => InfoValue::u32(topology::system().max_clock_mhz),
            // "Currently supported values are 32 or 64 bits."
            CL_DEVICE_ADDRESS_BITS => InfoValue::u32(usize::BITS),
            CL_DEVICE_MAX_MEM_ALLOC_SIZE => InfoValue::u64(self.max_mem_alloc_size()),
            CL_DEVICE_IMAGE_SUPPORT => InfoValue::bool(IMAGE_SUPPORT),
            CL_DEVICE_MAX_READ_IMAGE_ARGS => InfoValue::u32(MAX_READ_IMAGE_ARGS),
            CL_DEVICE_MAX_WRITE_IMAGE_ARGS => InfoValue::u32(MAX_WRITE_IMAGE_ARGS),
            CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS => InfoValue::u32(MAX_READ_WRITE_IMAGE_ARGS),
            CL_DEVICE_MAX_SAMPLERS => InfoValue::u32(MAX_SAMPLERS),
            CL_DEVICE_IMAGE2D_MAX_WIDTH | CL_DEVICE_IMAGE2D_MAX_HEIGHT => InfoValue::usize(IMAGE2D_MAX_SIZE),
            CL_DEVICE_IMAGE3D_MAX_WIDTH | CL_DEVICE_IMAGE3D_MAX_HEIGHT | CL_DEVICE_IMAGE3D_MAX_DEPTH => {
                InfoValue::usize(IMAGE3D_MAX_SIZE)
            }
            CL_DEVICE_IMAGE_MAX_BUFFER_SIZE => InfoValue::usize(IMAGE_MAX_BUFFER_SIZE),
            CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => InfoValue::usize(IMAGE_MAX_ARRAY_SIZE),
            // Also CL_DEVICE_IMAGE_PITCH_ALIGNMENT_KHR and
            // CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT_KHR (the same enum
            // values, cl_khr_image2d_from_buffer).
            CL_DEVICE_IMAGE_PITCH_ALIGNMENT => InfoValue::u32(IMAGE_PITCH_ALIGNMENT),
            CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT => InfoValue::u32(IMAGE_BASE_ADDRESS_ALIGNMENT),
            // Also CL_DEVICE_IL_VERSION_KHR (the same enum value).
            CL_DEVICE_IL_VERSION => {
                let v: Vec<String> = IL_VERSIONS
                    .iter()
                    .map(|(ver, name)| format!("{name}_{}.{}", ver >> 22, (ver >> 12) & 0x3ff))
                    .collect();
                InfoValue::string(&v.join(" "))
            }
            // "The list of intermediate languages reported must match the
            // list reported via CL_DEVICE_IL_VERSION."
            CL_DEVICE_ILS_WITH_VERSION => InfoValue::name_versions(&IL_VERSIONS),
            CL_DEVICE_MAX_PIPE_ARGS => InfoValue::u32(MAX_PIPE_ARGS),
            CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS => InfoValue::u32(PIPE_MAX_ACTIVE_RESERVATIONS),
            CL_DEVICE_PIPE_MAX_PACKET_SIZE => InfoValue::u32(PIPE_MAX_PACKET_SIZE),
            CL_DEVICE_MAX_PARAMETER_SIZE => InfoValue::usize(MAX_PARAMETER_SIZE),
            CL_DEVICE_MEM_BASE_ADDR_ALIGN => InfoValue::u32(MEM_BASE_ADDR_ALIGN_BITS),
            CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => InfoValue::u32(MIN_DATA_TYPE_ALIGN_SIZE),
            CL_DEVICE_SINGLE_FP_CONFIG => InfoValue::u64(single_fp_config()),
            CL_DEVICE_DOUBLE_FP_CONFIG => InfoValue::u64(DOUBLE_FP_CONFIG),
            CL_DEVICE_HALF_FP_CONFIG => InfoValue::u64(HALF_FP_CONFIG),
            // "Valid values are: CL_NONE, CL_READ_ONLY_CACHE, and CL_READ_WRITE_CACHE."
            CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => InfoValue::u32(match self.global_mem_cache() {
                Some(_) => CL_READ_WRITE_CACHE,
                None => CL_NONE,
            }),
            CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => {
                InfoValue::u32(self.global_mem_cache().map(|(_, line)| line).unwrap_or(0))
            }
            // May differ between a device and its sub-devices: the last-level
            // caches the device's CPUs use.
            CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => {
                InfoValue::u64(self.global_mem_cache().map(|(size, _)| size).unwrap_or(0))
            }
            CL_DEVICE_GLOBAL_MEM_SIZE => InfoValue::u64(self.global_mem_size()),
            // "The minimum value is 64 KB." Constant memory is global memory
            // on a CPU: any buffer that can be allocated can be __constant.
            CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => InfoValue::u64(self.max_mem_alloc_size()),
            CL_DEVICE_MAX_CONSTANT_ARGS => InfoValue::u32(MAX_CONSTANT_ARGS),
            CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE => InfoValue::usize(MAX_GLOBAL_VARIABLE_SIZE),
            // "Maximum preferred total size, in bytes, of all program variables
            // in the global address space. This is a performance hint." The
            // storage with the fastest access on a CPU is its last-level cache.
            CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE => {
                let llc = topology::system()
                    .cpus
                    .values()
                    .filter_map(|c| c.last_level_cache().map(|l| l.size))
                    .min()
                    .unwrap_or(0);
                InfoValue::usize(usize::try_from(llc).unwrap_or(usize::MAX))
            }
            // Local memory is ordinary (cached) host memory: "CL_GLOBAL".
            CL_DEVICE_LOCAL_MEM_TYPE => InfoValue::u32(CL_GLOBAL),
            CL_DEVICE_LOCAL_MEM_SIZE => InfoValue::u64(local_mem_size()),
            CL_DEVICE_ERROR_CORRECTION_SUPPORT => InfoValue::bool(topology::system().ecc_memory),
            // "If the memory described by CL_DEVICE_GLOBAL_MEM_SIZE is primarily
            // host memory, such as for CPUs, ... the device should return CL_TRUE".
            CL_DEVICE_HOST_UNIFIED_MEMORY => InfoValue::bool(true),
            CL_DEVICE_PROFILING_TIMER_RESOLUTION => {
                InfoValue::usize(usize::try_from(crate::timer::resolution_ns()).unwrap_or(usize::MAX))
            }
            CL_DEVICE_ENDIAN_LITTLE => InfoValue::bool(cfg!(target_endian = "little")),
            CL_DEVICE_AVAILABLE => InfoValue::bool(true),
            // OpenCL C compiles when clang and llvm-spirv were found
            // (crate::compiler); clift links SPIR-V itself.
            CL_DEVICE_COMPILER_AVAILABLE => InfoValue::bool(crate::compiler::available()),
            CL_DEVICE_LINKER_AVAILABLE => InfoValue::bool(true),
            CL_DEVICE_EXECUTION_CAPABILITIES => InfoValue::u64(EXECUTION_CAPABILITIES),
            // Also CL_DEVICE_QUEUE_PROPERTIES (the same enum value).
            CL_DEVICE_QUEUE_ON_HOST_PROPERTIES => InfoValue::u64(crate::queue::SUPPORTED_QUEUE_PROPERTIES),
            // "Support for on-device queues is required for an OpenCL 2.0,
            // 2.1, or 2.2 device": the values are crate::device_queue's, each
            // at or above the spec's minimum.
            CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES => InfoValue::u64(crate::device_queue::ON_DEVICE_PROPERTIES),
            CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE => InfoValue::u32(crate::device_queue::PREFERRED_SIZE),
            CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE => InfoValue::u32(crate::device_queue::MAX_SIZE),
            CL_DEVICE_MAX_ON_DEVICE_QUEUES => InfoValue::u32(crate::device_queue::MAX_ON_DEVICE_QUEUES),
            CL_DEVICE_MAX_ON_DEVICE_EVENTS => InfoValue::u32(crate::device_queue::MAX_ON_DEVICE_EVENTS),
            // "An empty string is returned if no built-in kernels are supported."
            CL_DEVICE_BUILT_IN_KERNELS => InfoValue::string(""),
            CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION => InfoValue::name_versions(&[]),
            CL_DEVICE_PLATFORM => InfoValue::handle(crate::platform::Platform::get().handle()),
            CL_DEVICE_NAME => InfoValue::string(&device_name()),
            CL_DEVICE_VENDOR => InfoValue::string(&vendor_name()),
            CL_DRIVER_VERSION => InfoValue::string(crate::platform::CLIFT_VERSION),
            CL_DEVICE_PROFILE => InfoValue::string("FULL_PROFILE"),
            // "OpenCL<space><major_version.minor_version><space><vendor-specific information>"
            CL_DEVICE_VERSION => InfoValue::string(&version),
            // "The major and minor version numbers returned must match those
            // returned via CL_DEVICE_VERSION."
            CL_DEVICE_NUMERIC_VERSION => InfoValue::u32(make_version(DEVICE_VERSION.0, DEVICE_VERSION.1, 0)),
            // "OpenCL<space>C<space><major_version.minor_version><space><vendor-specific information>"
            CL_DEVICE_OPENCL_C_VERSION => {
                InfoValue::string(&format!("OpenCL C {}.{} clift", OPENCL_C_VERSION.0, OPENCL_C_VERSION.1))
            }
            // cl_khr_extended_versioning: "The major and minor version numbers
            // returned must match those returned via CL_DEVICE_OPENCL_C_VERSION."
            CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR => {
                InfoValue::u32(make_version(OPENCL_C_VERSION.0, OPENCL_C_VERSION.1, 0))
            }
            CL_DEVICE_EXTENSIONS => InfoValue::string(&DEVICE_EXTENSIONS.join(" ")),
            CL_DEVICE_EXTENSIONS_WITH_VERSION => InfoValue::name_versions(&DEVICE_EXTENSION_VERSIONS),
            CL_DEVICE_PRINTF_BUFFER_SIZE => InfoValue::usize(PRINTF_BUFFER_SIZE),
            // No interop API shares memory with clift, so no fast path exists.
            CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => InfoValue::bool(true),
            // "If device is a root-level device, a NULL value is returned."
            CL_DEVICE_PARENT_DEVICE => {
                InfoValue::handle(self.parent.as_ref().map(crate::object::handle_of).unwrap_or(0))
            }
            CL_DEVICE_PARTITION_MAX_SUB_DEVICES => InfoValue::u32(self.max_sub_devices()),
            CL_DEVICE_PARTITION_PROPERTIES => InfoValue::isizes(&self.partition_properties()),
            CL_DEVICE_PARTITION_AFFINITY_DOMAIN => InfoValue::u64(self.affinity_domains()),
            // "Otherwise the implementation may either return a
            // param_value_size_ret of 0 ... or can return a property value of 0".
            CL_DEVICE_PARTITION_TYPE => {
                if self.partition.is_empty() {
                    InfoValue::isizes(&[0])
                } else {
                    InfoValue::isizes(&self.partition)
                }
            }
            // "If the device is a root-level device, a reference count of one
            // is returned." (Root devices ignore retain and release.)
            CL_DEVICE_REFERENCE_COUNT => InfoValue::u32(self.header().ref_count()),
            CL_DEVICE_SVM_CAPABILITIES => InfoValue::u64(SVM_CAPABILITIES),
            // "This query can return 0 which indicates that the preferred
            // alignment is aligned to the natural size of the type."
            CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT
            | CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT
            | CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT => InfoValue::u32(0),
            CL_DEVICE_MAX_NUM_SUB_GROUPS => InfoValue::u32(MAX_NUM_SUB_GROUPS),
            // "must return CL_TRUE for devices that support the
            // cl_khr_subgroups extension". One thread runs a work-group's
            // sub-groups, and a work-item in a loop that reads memory
            // through an atomic (a spin on another sub-group) yields to the
            // others (clift_jit::lower::progress).
            CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS => InfoValue::bool(true),
            // CL_INVALID_VALUE if param_name is not one of the supported values
            _ => return fail(CL_INVALID_VALUE),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root device over `cpus` (which need not exist: only partitioning
    /// by counts is exercised on it, never its threads).
    fn fake_root(cpus: Vec<usize>) -> Arc<Device> {
        Arc::new(Device {
            header: ApiHeader::new(),
            parent: None,
            cpus,
            partition: Vec::new(),
            pool: OnceLock::new(),
        })
    }

    fn err<T: std::fmt::Debug>(r: ClResult<T>) -> cl_int {
        r.expect_err("an error").0
    }

    #[test]
    fn property_lists_are_checked_for_form() {
        let d = fake_root(vec![0, 1, 2, 3]);
        assert_eq!(err(d.partition(&[])), CL_INVALID_VALUE);
        assert_eq!(err(d.partition(&[0])), CL_INVALID_VALUE);
        assert_eq!(err(d.partition(&[CL_DEVICE_PARTITION_EQUALLY, 0])), CL_INVALID_VALUE);
        assert_eq!(err(d.partition(&[CL_DEVICE_PARTITION_EQUALLY, 0, 0])), CL_INVALID_VALUE);
        assert_eq!(err(d.partition(&[CL_DEVICE_PARTITION_EQUALLY, 2])), CL_INVALID_VALUE);
        assert_eq!(
            err(d.partition(&[CL_DEVICE_PARTITION_EQUALLY, 2, 1, 0])),
            CL_INVALID_VALUE
        );
        assert_eq!(
            err(d.partition(&[CL_DEVICE_PARTITION_BY_COUNTS, 0, 0])),
            CL_INVALID_VALUE
        );
        assert_eq!(
            err(d.partition(&[CL_DEVICE_PARTITION_BY_COUNTS, 1, 0])),
            CL_INVALID_VALUE
        );
        assert_eq!(
            err(d.partition(&[CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 3, 0])),
            CL_INVALID_VALUE
        );
        assert_eq!(
            err(d.partition(&[CL_DEVICE_PARTITION_EQUALLY, -2, 0])),
            CL_INVALID_DEVICE_PARTITION_COUNT
        );
        assert_eq!(
            err(d.partition(&[CL_DEVICE_PARTITION_EQUALLY, 5, 0])),
            CL_INVALID_DEVICE_PARTITION_COUNT
        );
        assert_eq!(
            err(d.partition(&[CL_DEVICE_PARTITION_BY_COUNTS, 2, 3, 0, 0])),
            CL_INVALID_DEVICE_PARTITION_COUNT
        );
        assert_eq!(
            err(d.partition(&[CL_DEVICE_PARTITION_BY_COUNTS, 1, 1, 1, 1, 1, 0, 0])),
            CL_INVALID_DEVICE_PARTITION_COUNT
        );
        assert_eq!(
            err(d.partition(&[CL_DEVICE_PARTITION_BY_COUNTS, isize::MAX, isize::MAX, 0, 0])),
            CL_INVALID_DEVICE_PARTITION_COUNT
        );
    }

    #[test]
    fn equal_and_counted_partitions_use_disjoint_cpus() {
        let d = fake_root(vec![0, 1, 2, 3, 4]);
        let props = [CL_DEVICE_PARTITION_EQUALLY, 2, 0];
        let subs = d.partition(&props).unwrap();
        // "If n does not divide evenly ... the remaining compute units are not used."
        assert_eq!(subs.len(), 2);
        let mut seen: Vec<usize> = subs.iter().flat_map(|s| s.cpus().to_vec()).collect();
        assert_eq!(seen.len(), 4);
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 4, "no CPU in two sub-devices");
        for s in &subs {
            assert_eq!(s.partition_type(), props);
            assert!(Arc::ptr_eq(s.parent().unwrap(), &d));
            assert_eq!(s.compute_units(), 2);
            assert!(s.cpus().iter().all(|c| d.cpus().contains(c)));
        }

        let props = [CL_DEVICE_PARTITION_BY_COUNTS, 3, 1, 0, 0];
        let subs = d.partition(&props).unwrap();
        assert_eq!(subs.iter().map(|s| s.compute_units()).collect::<Vec<_>>(), [3, 1]);
        // A sub-device partitions again, within its own CPUs.
        let grand = subs[0].partition(&[CL_DEVICE_PARTITION_EQUALLY, 1, 0]).unwrap();
        assert_eq!(grand.len(), 3);
        for g in &grand {
            assert!(subs[0].cpus().contains(&g.cpus()[0]));
        }
        // One CPU cannot be split further.
        assert_eq!(subs[1].partition_properties(), [0]);
        assert_eq!(subs[1].max_sub_devices(), 0);
        assert_eq!(
            err(subs[1].partition(&[CL_DEVICE_PARTITION_EQUALLY, 1, 0])),
            CL_DEVICE_PARTITION_FAILED
        );
    }

    #[test]
    fn every_answer_has_its_c_size() {
        let d = fake_root(available_cpus());
        let ptr = std::mem::size_of::<usize>();
        for (param, size) in [
            (CL_DEVICE_TYPE, 8),
            (CL_DEVICE_MAX_COMPUTE_UNITS, 4),
            (CL_DEVICE_MAX_WORK_GROUP_SIZE, ptr),
            (CL_DEVICE_MAX_WORK_ITEM_SIZES, 3 * ptr),
            (CL_DEVICE_GLOBAL_MEM_SIZE, 8),
            (CL_DEVICE_SINGLE_FP_CONFIG, 8),
            (CL_DEVICE_LOCAL_MEM_TYPE, 4),
            (CL_DEVICE_PROFILING_TIMER_RESOLUTION, ptr),
            (CL_DEVICE_PARENT_DEVICE, ptr),
            (CL_DEVICE_ILS_WITH_VERSION, 4 * 68),
            (CL_DEVICE_PARTITION_TYPE, ptr),
        ] {
            assert_eq!(d.info(param).unwrap().0.len(), size, "{param:#x}");
        }
        assert_eq!(err(d.info(0xdead)), CL_INVALID_VALUE);
        assert_eq!(err(d.info(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES)), CL_INVALID_VALUE);
    }

    /// The CPU the calling thread runs on.
    fn current_cpu() -> usize {
        // SAFETY: sched_getcpu has no preconditions.
        let c = unsafe { libc::sched_getcpu() };
        usize::try_from(c).expect("sched_getcpu")
    }

    #[test]
    fn sub_device_work_runs_only_on_its_cpus() {
        let root = Device::new_root();
        if root.cpus().len() < 2 {
            eprintln!("SKIPPED: pinning needs two CPUs");
            return;
        }
        let subs = root.partition(&[CL_DEVICE_PARTITION_EQUALLY, 1, 0]).unwrap();
        for s in &subs {
            for _ in 0..50 {
                let (cpu, n) = s.pool().install(|| (current_cpu(), rayon::current_num_threads()));
                assert!(s.cpus().contains(&cpu), "ran on {cpu}, device has {:?}", s.cpus());
                assert_eq!(n, 1, "one worker per CPU of the sub-device");
            }
        }
    }

    #[test]
    fn affinity_domains_split_along_the_machine_topology() {
        let root = Device::new_root();
        let domains = root.affinity_domains();
        for (bit, level) in AFFINITY_LEVELS {
            let groups = topology::system().groups(root.cpus(), level);
            assert_eq!(
                domains & bit != 0,
                groups.as_ref().is_some_and(|g| g.len() >= 2),
                "{bit:#x}"
            );
            if domains & bit != 0 {
                let props = [CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, bit as isize, 0];
                let subs = root.partition(&props).unwrap();
                let expect = groups.unwrap();
                assert_eq!(subs.iter().map(|s| s.cpus().to_vec()).collect::<Vec<_>>(), expect);
            }
        }
    }
}
