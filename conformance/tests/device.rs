//! API spec 4.2 (querying devices), 4.3 (partitioning a device) and the
//! device/host timers, through the ICD loader.
//!
//! Tests that need a device of two or more compute units say so on stderr
//! and skip that part on a one-CPU machine rather than fail.

use std::collections::{BTreeMap, BTreeSet};
use std::ptr;

use clift_conformance::*;

// cl_ext_device_fission: exported by the loader, declared by opencl-sys only
// behind a feature this crate does not enable.
#[link(name = "OpenCL")]
extern "C" {
    fn clCreateSubDevicesEXT(
        in_device: cl_device_id,
        properties: *const cl_ulong,
        num_entries: cl_uint,
        out_devices: *mut cl_device_id,
        num_devices: *mut cl_uint,
    ) -> cl_int;
    fn clRetainDeviceEXT(device: cl_device_id) -> cl_int;
    fn clReleaseDeviceEXT(device: cl_device_id) -> cl_int;
}

// ---------------------------------------------------------------------------
// Helpers

fn dev_bytes(d: cl_device_id, param: cl_device_info) -> Result<Vec<u8>, cl_int> {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_bytes(|s, v, r| unsafe { clGetDeviceInfo(d, param, s, v, r) })
}

fn words<T: Copy>(b: &[u8]) -> Vec<T> {
    assert_eq!(
        b.len() % std::mem::size_of::<T>(),
        0,
        "array size is a multiple of the element size"
    );
    b.chunks_exact(std::mem::size_of::<T>())
        // SAFETY: each chunk holds exactly size_of::<T>() bytes; T is plain data.
        .map(|c| unsafe { (c.as_ptr() as *const T).read_unaligned() })
        .collect()
}

fn props_of(d: cl_device_id, param: cl_device_info) -> Vec<isize> {
    words(&dev_bytes(d, param).expect("property array query"))
}

/// `cl_name_version` entries as (version, name).
fn name_versions(b: &[u8]) -> Vec<(u32, String)> {
    assert_eq!(b.len() % 68, 0, "cl_name_version is 68 bytes");
    b.chunks_exact(68)
        .map(|c| {
            let ver = u32::from_ne_bytes([c[0], c[1], c[2], c[3]]);
            let name = &c[4..];
            let end = name.iter().position(|&x| x == 0).expect("name is NUL-terminated");
            (ver, String::from_utf8_lossy(&name[..end]).into_owned())
        })
        .collect()
}

fn version_string(v: u32) -> String {
    format!("{}.{}", v >> 22, (v >> 12) & 0x3ff)
}

fn compute_units(d: cl_device_id) -> u32 {
    device_value(d, CL_DEVICE_MAX_COMPUTE_UNITS)
}

/// clCreateSubDevices with the two-call protocol.
fn sub_devices(d: cl_device_id, props: &[isize]) -> Result<Vec<cl_device_id>, cl_int> {
    let mut n = 0;
    // SAFETY: a terminated property list; count only.
    let rc = unsafe { clCreateSubDevices(d, props.as_ptr(), 0, ptr::null_mut(), &mut n) };
    if rc != CL_SUCCESS {
        return Err(rc);
    }
    let mut out = vec![ptr::null_mut(); n as usize];
    let mut n2 = 0;
    // SAFETY: `out` has room for `n` handles.
    let rc = unsafe { clCreateSubDevices(d, props.as_ptr(), n, out.as_mut_ptr(), &mut n2) };
    if rc != CL_SUCCESS {
        return Err(rc);
    }
    assert_eq!(n, n2, "both calls count the same sub-devices");
    Ok(out)
}

fn release_all(devs: &[cl_device_id]) {
    for &d in devs {
        // SAFETY: each is a sub-device the test created and holds once.
        check(unsafe { clReleaseDevice(d) });
    }
}

/// The CPUs this process may run on.
fn process_cpus() -> Vec<usize> {
    // SAFETY: cpu_set_t is plain data; zeroed is a valid empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `set` is a valid cpu_set_t of the size passed.
    let rc = unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
    assert_eq!(rc, 0, "sched_getaffinity");
    (0..libc::CPU_SETSIZE as usize)
        // SAFETY: `i` is below CPU_SETSIZE.
        .filter(|&i| unsafe { libc::CPU_ISSET(i, &set) })
        .collect()
}

fn forged_device() -> [usize; 4] {
    // SAFETY: a clift handle is readable and its first word is the dispatch
    // table, which the loader reads; the rest of the forged object is junk.
    let dispatch = unsafe { *(device() as *const usize) };
    [dispatch, 0x4141_4141, 0x4242_4242, 0x4343_4343]
}

/// Says that a check was left out, and why.
fn skip(what: &str) {
    eprintln!("SKIPPED: {what}");
}

// ---------------------------------------------------------------------------
// Every query

#[derive(Clone, Copy, Debug)]
enum Ty {
    Uint,
    Bool,
    Ulong,
    Bitfield,
    Size,
    Handle,
    Str,
    SizeArray,
    PropArray,
    NameVersions,
}

#[derive(Clone, Copy, Debug)]
enum Rule {
    Any,
    AtLeast(u64),
    Exactly(u64),
    OneOf(&'static [u64]),
    /// A bitfield that holds at least these bits.
    Has(u64),
}

macro_rules! rows {
    ($($p:ident: $ty:ident, $rule:expr;)*) => {
        &[$((stringify!($p), $p, Ty::$ty, $rule)),*]
    };
}

/// Every clGetDeviceInfo query of OpenCL 2.2 (and of the extensions clift
/// lists), its C type, and its full-profile bound from the device queries table.
const QUERIES: &[(&str, cl_device_info, Ty, Rule)] = rows! {
    CL_DEVICE_TYPE: Bitfield, Rule::Exactly(CL_DEVICE_TYPE_CPU);
    CL_DEVICE_VENDOR_ID: Uint, Rule::Any;
    // "The minimum value is 1."
    CL_DEVICE_MAX_COMPUTE_UNITS: Uint, Rule::AtLeast(1);
    // "The minimum value is 3."
    CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: Uint, Rule::AtLeast(3);
    CL_DEVICE_MAX_WORK_ITEM_SIZES: SizeArray, Rule::AtLeast(1);
    CL_DEVICE_MAX_WORK_GROUP_SIZE: Size, Rule::AtLeast(1);
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR: Uint, Rule::AtLeast(1);
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT: Uint, Rule::AtLeast(1);
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT: Uint, Rule::AtLeast(1);
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG: Uint, Rule::AtLeast(1);
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT: Uint, Rule::AtLeast(1);
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE: Uint, Rule::Any;
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF: Uint, Rule::Any;
    CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: Uint, Rule::AtLeast(1);
    CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: Uint, Rule::AtLeast(1);
    CL_DEVICE_NATIVE_VECTOR_WIDTH_INT: Uint, Rule::AtLeast(1);
    CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG: Uint, Rule::AtLeast(1);
    CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: Uint, Rule::AtLeast(1);
    CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: Uint, Rule::Any;
    CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: Uint, Rule::Any;
    CL_DEVICE_MAX_CLOCK_FREQUENCY: Uint, Rule::Any;
    // "Currently supported values are 32 or 64 bits."
    CL_DEVICE_ADDRESS_BITS: Uint, Rule::OneOf(&[32, 64]);
    // At least max(min(1 GiB, 1/4 of global memory), 32 MiB): the part that
    // needs the memory size is checked in `limits_are_true_for_this_machine`.
    CL_DEVICE_MAX_MEM_ALLOC_SIZE: Ulong, Rule::AtLeast(32 << 20);
    // clift's devices support images, so every image limit is at least its
    // full-profile minimum ("The minimum value is 128 if
    // CL_DEVICE_IMAGE_SUPPORT is CL_TRUE", ...).
    CL_DEVICE_IMAGE_SUPPORT: Bool, Rule::Exactly(CL_TRUE as u64);
    CL_DEVICE_MAX_READ_IMAGE_ARGS: Uint, Rule::AtLeast(128);
    CL_DEVICE_MAX_WRITE_IMAGE_ARGS: Uint, Rule::AtLeast(64);
    CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: Uint, Rule::AtLeast(64);
    CL_DEVICE_IL_VERSION: Str, Rule::Any;
    CL_DEVICE_ILS_WITH_VERSION: NameVersions, Rule::Any;
    CL_DEVICE_IMAGE2D_MAX_WIDTH: Size, Rule::AtLeast(16384);
    CL_DEVICE_IMAGE2D_MAX_HEIGHT: Size, Rule::AtLeast(16384);
    CL_DEVICE_IMAGE3D_MAX_WIDTH: Size, Rule::AtLeast(2048);
    CL_DEVICE_IMAGE3D_MAX_HEIGHT: Size, Rule::AtLeast(2048);
    CL_DEVICE_IMAGE3D_MAX_DEPTH: Size, Rule::AtLeast(2048);
    CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: Size, Rule::AtLeast(65536);
    CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: Size, Rule::AtLeast(2048);
    CL_DEVICE_MAX_SAMPLERS: Uint, Rule::AtLeast(16);
    // Powers of two (checked in `limits_are_true_for_this_machine`), nonzero
    // with 2D images from buffers (required of a 2.x device with images).
    CL_DEVICE_IMAGE_PITCH_ALIGNMENT: Uint, Rule::AtLeast(1);
    CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: Uint, Rule::AtLeast(1);
    // "Support for pipes is required for an OpenCL 2.0, 2.1, or 2.2 device."
    CL_DEVICE_MAX_PIPE_ARGS: Uint, Rule::AtLeast(16);
    CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS: Uint, Rule::AtLeast(1);
    CL_DEVICE_PIPE_MAX_PACKET_SIZE: Uint, Rule::AtLeast(1024);
    // "The minimum value is 1024."
    CL_DEVICE_MAX_PARAMETER_SIZE: Size, Rule::AtLeast(1024);
    // long16, in bits.
    CL_DEVICE_MEM_BASE_ADDR_ALIGN: Uint, Rule::AtLeast(1024);
    // long16, in bytes.
    CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: Uint, Rule::AtLeast(128);
    // "For the full profile, the mandated minimum floating-point capability
    // is: CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN."
    CL_DEVICE_SINGLE_FP_CONFIG: Bitfield, Rule::Has(CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN);
    CL_DEVICE_DOUBLE_FP_CONFIG: Bitfield, Rule::Any;
    CL_DEVICE_HALF_FP_CONFIG: Bitfield, Rule::Any;
    CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: Uint, Rule::OneOf(&[CL_NONE as u64, CL_READ_ONLY_CACHE as u64, CL_READ_WRITE_CACHE as u64]);
    CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: Uint, Rule::Any;
    CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: Ulong, Rule::Any;
    CL_DEVICE_GLOBAL_MEM_SIZE: Ulong, Rule::AtLeast(1);
    // "The minimum value is 64 KB."
    CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: Ulong, Rule::AtLeast(64 << 10);
    // "The minimum value is 8."
    CL_DEVICE_MAX_CONSTANT_ARGS: Uint, Rule::AtLeast(8);
    // "Support for program scope global variables is required for an OpenCL
    // 2.0, 2.1, or 2.2 device. The minimum value is 64 KB".
    CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: Size, Rule::AtLeast(64 << 10);
    CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: Size, Rule::Any;
    CL_DEVICE_LOCAL_MEM_TYPE: Uint, Rule::OneOf(&[CL_LOCAL as u64, CL_GLOBAL as u64]);
    // "The minimum value is 32 KB."
    CL_DEVICE_LOCAL_MEM_SIZE: Ulong, Rule::AtLeast(32 << 10);
    CL_DEVICE_ERROR_CORRECTION_SUPPORT: Bool, Rule::Any;
    CL_DEVICE_HOST_UNIFIED_MEMORY: Bool, Rule::Any;
    CL_DEVICE_PROFILING_TIMER_RESOLUTION: Size, Rule::AtLeast(1);
    CL_DEVICE_ENDIAN_LITTLE: Bool, Rule::Any;
    CL_DEVICE_AVAILABLE: Bool, Rule::Exactly(CL_TRUE as u64);
    CL_DEVICE_COMPILER_AVAILABLE: Bool, Rule::Any;
    CL_DEVICE_LINKER_AVAILABLE: Bool, Rule::Any;
    // "The mandated minimum capability is: CL_EXEC_KERNEL."
    CL_DEVICE_EXECUTION_CAPABILITIES: Bitfield, Rule::Has(CL_EXEC_KERNEL);
    // "The mandated minimum capability is: CL_QUEUE_PROFILING_ENABLE."
    CL_DEVICE_QUEUE_PROPERTIES: Bitfield, Rule::Has(CL_QUEUE_PROFILING_ENABLE);
    CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: Bitfield, Rule::Has(CL_QUEUE_PROFILING_ENABLE);
    CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: Bitfield, Rule::Any;
    CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE: Uint, Rule::Any;
    CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE: Uint, Rule::Any;
    CL_DEVICE_MAX_ON_DEVICE_QUEUES: Uint, Rule::Any;
    CL_DEVICE_MAX_ON_DEVICE_EVENTS: Uint, Rule::Any;
    CL_DEVICE_BUILT_IN_KERNELS: Str, Rule::Any;
    CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: NameVersions, Rule::Any;
    CL_DEVICE_PLATFORM: Handle, Rule::Any;
    CL_DEVICE_NAME: Str, Rule::Any;
    CL_DEVICE_VENDOR: Str, Rule::Any;
    CL_DRIVER_VERSION: Str, Rule::Any;
    CL_DEVICE_PROFILE: Str, Rule::Any;
    CL_DEVICE_VERSION: Str, Rule::Any;
    CL_DEVICE_NUMERIC_VERSION: Uint, Rule::Any;
    CL_DEVICE_OPENCL_C_VERSION: Str, Rule::Any;
    CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR: Uint, Rule::Any;
    CL_DEVICE_EXTENSIONS: Str, Rule::Any;
    CL_DEVICE_EXTENSIONS_WITH_VERSION: NameVersions, Rule::Any;
    // "The minimum value for the FULL profile is 1 MB."
    CL_DEVICE_PRINTF_BUFFER_SIZE: Size, Rule::AtLeast(1 << 20);
    CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: Bool, Rule::Any;
    CL_DEVICE_PARENT_DEVICE: Handle, Rule::Any;
    CL_DEVICE_PARTITION_MAX_SUB_DEVICES: Uint, Rule::Any;
    CL_DEVICE_PARTITION_PROPERTIES: PropArray, Rule::Any;
    CL_DEVICE_PARTITION_AFFINITY_DOMAIN: Bitfield, Rule::Any;
    CL_DEVICE_PARTITION_TYPE: PropArray, Rule::Any;
    CL_DEVICE_REFERENCE_COUNT: Uint, Rule::AtLeast(1);
    // "The mandated minimum capability for an OpenCL 2.0, 2.1, or 2.2 device
    // is CL_DEVICE_SVM_COARSE_GRAIN_BUFFER."
    CL_DEVICE_SVM_CAPABILITIES: Bitfield, Rule::Has(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
    CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT: Uint, Rule::Any;
    CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT: Uint, Rule::Any;
    CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: Uint, Rule::Any;
    // "Support for sub-groups is required for an OpenCL 2.1, OpenCL 2.2 ... device."
    CL_DEVICE_MAX_NUM_SUB_GROUPS: Uint, Rule::AtLeast(1);
    CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: Bool, Rule::Any;
};

/// Checks one query's size against its C type and its value against `rule`.
fn check_query(d: cl_device_id, name: &str, param: cl_device_info, ty: Ty, rule: Rule) {
    let b = dev_bytes(d, param).unwrap_or_else(|e| panic!("{name}: {}", error_name(e)));
    let usz = std::mem::size_of::<usize>();
    let scalar: Option<u64> = match ty {
        Ty::Uint | Ty::Bool => {
            assert_eq!(b.len(), 4, "{name} is a 32-bit value");
            Some(u32::from_ne_bytes([b[0], b[1], b[2], b[3]]) as u64)
        }
        Ty::Ulong | Ty::Bitfield => {
            assert_eq!(b.len(), 8, "{name} is a 64-bit value");
            Some(words::<u64>(&b)[0])
        }
        Ty::Size | Ty::Handle => {
            assert_eq!(b.len(), usz, "{name} is pointer-sized");
            Some(words::<usize>(&b)[0] as u64)
        }
        Ty::Str => {
            assert_eq!(b.last(), Some(&0), "{name} is NUL-terminated");
            assert!(!b[..b.len() - 1].contains(&0), "{name} has one NUL, at the end");
            None
        }
        Ty::SizeArray => {
            assert!(!b.is_empty(), "{name} is a non-empty size_t array");
            assert_eq!(b.len() % usz, 0, "{name} is a size_t array");
            for v in words::<usize>(&b) {
                check_rule(name, v as u64, rule);
            }
            None
        }
        Ty::PropArray => {
            assert_eq!(b.len() % usz, 0, "{name} is a cl_device_partition_property array");
            None
        }
        Ty::NameVersions => {
            name_versions(&b);
            None
        }
    };
    if let Some(v) = scalar {
        if matches!(ty, Ty::Bool) {
            assert!(
                v == CL_TRUE as u64 || v == CL_FALSE as u64,
                "{name} is CL_TRUE or CL_FALSE, got {v}"
            );
        }
        check_rule(name, v, rule);
    }
}

fn check_rule(name: &str, v: u64, rule: Rule) {
    match rule {
        Rule::Any => {}
        Rule::AtLeast(min) => assert!(v >= min, "{name} = {v}, below the minimum {min}"),
        Rule::Exactly(x) => assert_eq!(v, x, "{name}"),
        Rule::OneOf(set) => assert!(set.contains(&v), "{name} = {v}, not one of {set:?}"),
        Rule::Has(bits) => assert_eq!(v & bits, bits, "{name} = {v:#x} lacks the mandated bits {bits:#x}"),
    }
}

#[test]
fn every_query_answers_with_its_type_and_within_its_bounds() {
    let d = device();
    for &(name, param, ty, rule) in QUERIES {
        check_query(d, name, param, ty, rule);
    }
}

#[test]
fn sub_devices_answer_every_query_like_their_parent() {
    let d = device();
    if compute_units(d) < 2 {
        return skip("sub-device queries (needs 2 CPUs)");
    }
    let subs = sub_devices(d, &[CL_DEVICE_PARTITION_EQUALLY, 1, 0]).expect("partition equally by 1");
    // "The device queries ... should return the same information for a
    // root-level device ... and any sub-devices created from this device
    // except for the following queries: CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
    // CL_DEVICE_BUILT_IN_KERNELS, CL_DEVICE_PARENT_DEVICE,
    // CL_DEVICE_PARTITION_TYPE, CL_DEVICE_REFERENCE_COUNT" - and those that
    // count the sub-device's own compute units.
    let differ = [
        CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
        CL_DEVICE_BUILT_IN_KERNELS,
        CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION,
        CL_DEVICE_PARENT_DEVICE,
        CL_DEVICE_PARTITION_TYPE,
        CL_DEVICE_REFERENCE_COUNT,
        CL_DEVICE_MAX_COMPUTE_UNITS,
        CL_DEVICE_PARTITION_MAX_SUB_DEVICES,
        CL_DEVICE_PARTITION_PROPERTIES,
        CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
    ];
    for &s in &subs {
        for &(name, param, ty, rule) in QUERIES {
            check_query(s, name, param, ty, rule);
            if !differ.contains(&param) {
                assert_eq!(dev_bytes(s, param), dev_bytes(d, param), "{name} of a sub-device");
            }
        }
    }
    release_all(&subs);
}

// ---------------------------------------------------------------------------
// Specific values

#[test]
fn identity_and_versions() {
    let d = device();
    assert_eq!(device_value::<cl_device_type>(d, CL_DEVICE_TYPE), CL_DEVICE_TYPE_CPU);
    assert_eq!(device_value::<cl_platform_id>(d, CL_DEVICE_PLATFORM), platform());
    assert_eq!(device_string(d, CL_DEVICE_PROFILE), "FULL_PROFILE");
    let name = device_string(d, CL_DEVICE_NAME);
    assert!(name.starts_with("clift"), "{name}");
    assert!(!device_string(d, CL_DEVICE_VENDOR).is_empty());
    assert!(!device_string(d, CL_DRIVER_VERSION).is_empty());

    // "OpenCL<space><major_version.minor_version><space><vendor-specific information>"
    let version = device_string(d, CL_DEVICE_VERSION);
    assert!(version.starts_with("OpenCL 2.2 "), "{version}");
    // "The major and minor version numbers returned must match those
    // returned via CL_DEVICE_VERSION."
    let numeric: cl_version = device_value(d, CL_DEVICE_NUMERIC_VERSION);
    assert_eq!(version_string(numeric), "2.2");

    // "Support for OpenCL C 2.0 is required for an OpenCL 2.0, OpenCL 2.1, or
    // OpenCL 2.2 device." ("may return an empty string" without a compiler.)
    let c_version = device_string(d, CL_DEVICE_OPENCL_C_VERSION);
    if !c_version.is_empty() {
        assert!(c_version.starts_with("OpenCL C 2.0"), "{c_version}");
        let c_numeric: cl_version = device_value(d, CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR);
        assert_eq!(version_string(c_numeric), "2.0");
    }
    // "If CL_DEVICE_COMPILER_AVAILABLE is CL_TRUE" the linker must be too.
    let compiler: cl_bool = device_value(d, CL_DEVICE_COMPILER_AVAILABLE);
    let linker: cl_bool = device_value(d, CL_DEVICE_LINKER_AVAILABLE);
    assert!(compiler == CL_FALSE || linker == CL_TRUE);

    // "If the vendor has a PCI vendor ID, the low 16 bits must contain that
    // PCI vendor ID, and the remaining bits must be set to zero. Otherwise,
    // the value returned must be a valid Khronos vendor ID" (0x10000 up).
    let vendor: cl_uint = device_value(d, CL_DEVICE_VENDOR_ID);
    assert!(vendor <= 0xffff || (0x10000..=0x1ffff).contains(&vendor), "{vendor:#x}");
}

#[test]
fn extensions_and_ils_agree_with_their_versioned_lists() {
    let d = device();
    let ext = device_string(d, CL_DEVICE_EXTENSIONS);
    let names: BTreeSet<&str> = ext.split(' ').filter(|s| !s.is_empty()).collect();
    assert!(names.contains("cl_khr_icd"), "{ext}");
    assert!(names.contains("cl_khr_extended_versioning"), "{ext}");
    // "The same extension name must not be reported more than once. The list
    // of extensions reported must match the list reported via CL_DEVICE_EXTENSIONS."
    let versioned = name_versions(&dev_bytes(d, CL_DEVICE_EXTENSIONS_WITH_VERSION).unwrap());
    let vnames: BTreeSet<&str> = versioned.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(vnames.len(), versioned.len(), "no extension twice");
    assert_eq!(vnames, names);

    // "An OpenCL 2.2 device must support at least SPIR-V 1.0, SPIR-V 1.1,
    // and SPIR-V 1.2."
    let il = device_string(d, CL_DEVICE_IL_VERSION);
    let ils: BTreeSet<&str> = il.split(' ').filter(|s| !s.is_empty()).collect();
    for v in ["SPIR-V_1.0", "SPIR-V_1.1", "SPIR-V_1.2"] {
        assert!(ils.contains(v), "{il}");
    }
    // "The list of intermediate languages reported must match the list
    // reported via CL_DEVICE_IL_VERSION."
    let ils_v = name_versions(&dev_bytes(d, CL_DEVICE_ILS_WITH_VERSION).unwrap());
    let from_v: BTreeSet<String> = ils_v
        .iter()
        .map(|(v, n)| format!("{n}_{}", version_string(*v)))
        .collect();
    assert_eq!(from_v.len(), ils_v.len(), "no IL version twice");
    assert_eq!(from_v, ils.iter().map(|s| s.to_string()).collect());

    // "The list of reported kernels must match the list returned via
    // CL_DEVICE_BUILT_IN_KERNELS."
    let builtins = device_string(d, CL_DEVICE_BUILT_IN_KERNELS);
    let bk: BTreeSet<&str> = builtins.split(';').filter(|s| !s.is_empty()).collect();
    let bkv = name_versions(&dev_bytes(d, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION).unwrap());
    assert_eq!(bkv.iter().map(|(_, n)| n.as_str()).collect::<BTreeSet<_>>(), bk);
}

#[test]
fn limits_are_true_for_this_machine() {
    let d = device();
    // One compute unit per CPU the process may run on.
    let cpus = process_cpus();
    assert_eq!(compute_units(d) as usize, cpus.len());
    assert_eq!(
        device_value::<cl_uint>(d, CL_DEVICE_ADDRESS_BITS),
        usize::BITS,
        "address bits are the host's pointer width"
    );
    assert_eq!(
        device_value::<cl_bool>(d, CL_DEVICE_ENDIAN_LITTLE),
        cfg!(target_endian = "little") as cl_bool
    );
    assert_eq!(device_value::<cl_bool>(d, CL_DEVICE_HOST_UNIFIED_MEMORY), CL_TRUE);

    // Global memory is the machine's memory.
    let global: cl_ulong = device_value(d, CL_DEVICE_GLOBAL_MEM_SIZE);
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    if let Some(kb) = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    {
        // MemTotal leaves out memory the kernel reserved at boot.
        assert!(
            global >= kb * 1024 && global <= kb * 1024 * 2,
            "{global} vs MemTotal {kb} kB"
        );
    }
    // "max(min(1024 × 1024 × 1024, 1/4th of CL_DEVICE_GLOBAL_MEM_SIZE), 32 × 1024 × 1024)"
    let alloc: cl_ulong = device_value(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    assert!(alloc >= (1u64 << 30).min(global / 4).max(32 << 20), "{alloc}");
    assert!(alloc <= global);

    // Work-group limits agree with each other.
    let dims: cl_uint = device_value(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    let sizes: Vec<usize> = words(&dev_bytes(d, CL_DEVICE_MAX_WORK_ITEM_SIZES).unwrap());
    assert_eq!(sizes.len(), dims as usize, "one size per dimension");
    let wg: usize = device_value(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    assert!(sizes.iter().all(|&s| s <= wg));

    // Double and half precision are listed (cl_khr_fp64 and cl_khr_fp16,
    // which kernels use through the Float64 and Float16 capabilities:
    // tests/exec_fp64*.rs, tests/exec_fp16*.rs).
    let ext = device_string(d, CL_DEVICE_EXTENSIONS);
    assert!(ext.split(' ').any(|e| e == "cl_khr_fp64"), "{ext}");
    assert!(ext.split(' ').any(|e| e == "cl_khr_fp16"), "{ext}");
    // With cl_khr_fp16 the half widths are nonzero, and the half config is
    // at least CL_FP_ROUND_TO_ZERO or CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN;
    // clift's is round to nearest with infinities, NaNs and denormals (its
    // conversions honour every rounding mode, its fma is correctly rounded).
    assert!(device_value::<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) > 0);
    assert!(device_value::<cl_uint>(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) > 0);
    let half: cl_device_fp_config = device_value(d, CL_DEVICE_HALF_FP_CONFIG);
    let want = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM | CL_FP_FMA;
    assert_eq!(half & want, want, "{half:#x}");
    assert_eq!(half & CL_FP_SOFT_FLOAT, 0);

    // Images are supported: the extensions of image writes to 3D images,
    // 2D images from buffers and depth images are listed, with their
    // versions, and cl_khr_image2d_from_buffer's alignments ("in pixels")
    // are powers of two.
    assert_eq!(device_value::<cl_bool>(d, CL_DEVICE_IMAGE_SUPPORT), CL_TRUE);
    let versioned = name_versions(&dev_bytes(d, CL_DEVICE_EXTENSIONS_WITH_VERSION).unwrap());
    for name in [
        "cl_khr_3d_image_writes",
        "cl_khr_image2d_from_buffer",
        "cl_khr_depth_images",
    ] {
        assert!(ext.split(' ').any(|e| e == name), "{name} in {ext}");
        assert!(versioned.contains(&(1 << 22, name.to_string())), "{name} 1.0.0");
    }
    for p in [CL_DEVICE_IMAGE_PITCH_ALIGNMENT, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT] {
        assert!(device_value::<cl_uint>(d, p).is_power_of_two(), "{p:#x}");
    }
    // 1D images and arrays have 2D images' width limit; a 1D image buffer
    // of the largest width fits in the largest allocation of 1-byte texels.
    let max_buffer: usize = device_value(d, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE);
    assert!(max_buffer as u64 <= alloc, "{max_buffer}");

    // On-device queues: "Support for on-device queues is required for an
    // OpenCL 2.0, 2.1, or 2.2 device. When on-device queues are supported,
    // the mandated minimum capability is: CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
    // | CL_QUEUE_PROFILING_ENABLE", and every limit at least its minimum.
    let on_device: cl_command_queue_properties = device_value(d, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES);
    assert_eq!(
        on_device,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE
    );
    let queue_limits = [
        (CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, 16 << 10),
        (CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, 256 << 10),
        (CL_DEVICE_MAX_ON_DEVICE_QUEUES, 1),
        (CL_DEVICE_MAX_ON_DEVICE_EVENTS, 1024),
    ];
    for (p, min) in queue_limits {
        let v: cl_uint = device_value(d, p);
        if on_device == 0 {
            assert_eq!(v, 0, "{p:#x}");
        } else {
            assert!(v >= min, "{p:#x}");
        }
    }
    // The host queue properties are those clCreateCommandQueueWithProperties takes.
    let host: cl_command_queue_properties = device_value(d, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    assert_eq!(
        host & !(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE),
        0
    );

    // The cache the device reports is one this machine has.
    let cache_type: cl_device_mem_cache_type = device_value(d, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE);
    let line: cl_uint = device_value(d, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
    let size: cl_ulong = device_value(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
    let topo = Topology::read(&cpus);
    if topo.caches.is_empty() {
        assert_eq!(cache_type, CL_NONE);
    } else {
        assert_eq!(cache_type, CL_READ_WRITE_CACHE);
        assert!(line.is_power_of_two(), "cache line {line}");
        let sizes: BTreeSet<u64> = topo.caches.values().flat_map(|c| c.values().map(|(s, _)| *s)).collect();
        let largest = *sizes.iter().max().unwrap();
        assert!(size >= largest, "cache size {size} vs the largest cache {largest}");
    }

    // The clock the device reports is the one Linux reports, if any.
    let mhz: cl_uint = device_value(d, CL_DEVICE_MAX_CLOCK_FREQUENCY);
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpuinfo_mhz = cpuinfo
        .lines()
        .filter(|l| l.starts_with("cpu MHz"))
        .filter_map(|l| l.split(':').nth(1)?.trim().parse::<f64>().ok())
        .fold(0.0, f64::max);
    let cpufreq = std::fs::read_to_string(format!(
        "/sys/devices/system/cpu/cpu{}/cpufreq/cpuinfo_max_freq",
        cpus[0]
    ))
    .ok()
    .and_then(|s| s.trim().parse::<u64>().ok());
    match cpufreq {
        Some(khz) => assert_eq!(mhz as u64, khz.div_ceil(1000)),
        None if cpuinfo_mhz > 0.0 => assert_eq!(mhz, cpuinfo_mhz.round() as cl_uint),
        None => {}
    }
}

#[test]
fn root_device_partition_queries() {
    let d = device();
    let n = compute_units(d);
    // "If device is a root-level device, a NULL value is returned."
    assert!(device_value::<cl_device_id>(d, CL_DEVICE_PARENT_DEVICE).is_null());
    // "If the device is a root-level device, a reference count of one is returned."
    assert_eq!(device_value::<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT), 1);
    // "Otherwise the implementation may either return a param_value_size_ret
    // of 0 ... or can return a property value of 0".
    let t = props_of(d, CL_DEVICE_PARTITION_TYPE);
    assert!(t.is_empty() || t == [0], "{t:?}");
    // "The value returned cannot exceed CL_DEVICE_MAX_COMPUTE_UNITS."
    let max: cl_uint = device_value(d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
    assert!(max <= n);
    let supported = props_of(d, CL_DEVICE_PARTITION_PROPERTIES);
    if n < 2 {
        // "If the device cannot be partitioned ... a value of 0 will be returned."
        assert_eq!(supported, [0]);
        skip("partition types of a multi-CPU device (needs 2 CPUs)");
    } else {
        assert_eq!(max, n);
        assert!(supported.contains(&CL_DEVICE_PARTITION_EQUALLY));
        assert!(supported.contains(&CL_DEVICE_PARTITION_BY_COUNTS));
        let domains: cl_device_affinity_domain = device_value(d, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
        assert_eq!(
            supported.contains(&CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN),
            domains != 0
        );
    }
}

// ---------------------------------------------------------------------------
// The machine's topology, read here independently of clift.

/// Per CPU: its NUMA node, and per cache level its (size, sharing CPUs).
struct Topology {
    nodes: BTreeMap<usize, usize>,
    caches: BTreeMap<usize, BTreeMap<u32, (u64, String)>>,
}

impl Topology {
    fn read(cpus: &[usize]) -> Topology {
        let mut nodes = BTreeMap::new();
        if let Ok(dir) = std::fs::read_dir("/sys/devices/system/node") {
            for e in dir.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let Some(node) = name.strip_prefix("node").and_then(|n| n.parse::<usize>().ok()) else {
                    continue;
                };
                let list = std::fs::read_to_string(e.path().join("cpulist")).unwrap_or_default();
                for c in expand(&list) {
                    nodes.insert(c, node);
                }
            }
        }
        let mut caches = BTreeMap::new();
        for &c in cpus {
            let mut levels = BTreeMap::new();
            for k in 0..16 {
                let base = format!("/sys/devices/system/cpu/cpu{c}/cache/index{k}");
                let read = |f: &str| std::fs::read_to_string(format!("{base}/{f}")).map(|s| s.trim().to_string());
                let (Ok(level), Ok(kind), Ok(size), Ok(shared)) =
                    (read("level"), read("type"), read("size"), read("shared_cpu_list"))
                else {
                    continue;
                };
                if kind == "Instruction" {
                    continue;
                }
                let bytes = match size.strip_suffix('K') {
                    Some(k) => k.parse::<u64>().unwrap_or(0) << 10,
                    None => match size.strip_suffix('M') {
                        Some(m) => m.parse::<u64>().unwrap_or(0) << 20,
                        None => size.parse().unwrap_or(0),
                    },
                };
                levels.insert(level.parse::<u32>().unwrap_or(0), (bytes, shared));
            }
            if !levels.is_empty() {
                caches.insert(c, levels);
            }
        }
        Topology { nodes, caches }
    }

    /// How many groups `cpus` fall into along a domain (None if unknown for some CPU).
    fn groups(&self, cpus: &[usize], domain: cl_device_affinity_domain) -> Option<usize> {
        let mut keys = BTreeSet::new();
        for c in cpus {
            let key = match domain {
                CL_DEVICE_AFFINITY_DOMAIN_NUMA => self.nodes.get(c)?.to_string(),
                _ => {
                    let level = match domain {
                        CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE => 4,
                        CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE => 3,
                        CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE => 2,
                        _ => 1,
                    };
                    self.caches.get(c)?.get(&level)?.1.clone()
                }
            };
            keys.insert(key);
        }
        Some(keys.len())
    }
}

fn expand(list: &str) -> Vec<usize> {
    let mut v = Vec::new();
    for part in list.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => v.extend(a.parse::<usize>().unwrap()..=b.parse::<usize>().unwrap()),
            None => v.push(part.parse().unwrap()),
        }
    }
    v
}

const DOMAINS: [cl_device_affinity_domain; 5] = [
    CL_DEVICE_AFFINITY_DOMAIN_NUMA,
    CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE,
];

// ---------------------------------------------------------------------------
// Partitioning

#[test]
fn partition_equally() {
    let d = device();
    let n = compute_units(d);
    if n < 2 {
        // CL_DEVICE_PARTITION_FAILED if the partition name is supported by
        // the implementation but in_device could not be further partitioned.
        expect_err(
            sub_devices(d, &[CL_DEVICE_PARTITION_EQUALLY, 1, 0]).unwrap_err(),
            CL_DEVICE_PARTITION_FAILED,
        );
        return skip("partition equally (needs 2 CPUs)");
    }
    // Groups of all n compute units would leave the device whole: it
    // "could not be further partitioned".
    expect_err(
        sub_devices(d, &[CL_DEVICE_PARTITION_EQUALLY, n as isize, 0]).unwrap_err(),
        CL_DEVICE_PARTITION_FAILED,
    );
    for per in [1, n / 2, n - 1] {
        let props = [CL_DEVICE_PARTITION_EQUALLY, per as isize, 0];
        let subs = sub_devices(d, &props).expect("partition equally");
        // "Split the aggregate device into as many smaller aggregate devices
        // as can be created, each containing n compute units."
        assert_eq!(subs.len() as u32, n / per);
        for &s in &subs {
            assert_eq!(compute_units(s), per);
            assert_eq!(device_value::<cl_device_id>(s, CL_DEVICE_PARENT_DEVICE), d);
            // "Returns the properties argument specified in clCreateSubDevices
            // if device is a sub-device."
            assert_eq!(props_of(s, CL_DEVICE_PARTITION_TYPE), props);
            assert_eq!(device_value::<cl_uint>(s, CL_DEVICE_REFERENCE_COUNT), 1);
            assert_eq!(device_value::<cl_device_type>(s, CL_DEVICE_TYPE), CL_DEVICE_TYPE_CPU);
        }
        release_all(&subs);
    }
}

#[test]
fn partition_by_counts() {
    let d = device();
    let n = compute_units(d);
    if n < 2 {
        expect_err(
            sub_devices(
                d,
                &[
                    CL_DEVICE_PARTITION_BY_COUNTS,
                    1,
                    CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
                    0,
                ],
            )
            .unwrap_err(),
            CL_DEVICE_PARTITION_FAILED,
        );
        return skip("partition by counts (needs 2 CPUs)");
    }
    // "For each non-zero count m in the list, a sub-device is created with m
    // compute units in it."
    let props = [
        CL_DEVICE_PARTITION_BY_COUNTS,
        1,
        n as isize - 1,
        CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
        0,
    ];
    let subs = sub_devices(d, &props).expect("partition by counts");
    assert_eq!(subs.len(), 2);
    assert_eq!(compute_units(subs[0]), 1);
    assert_eq!(compute_units(subs[1]), n - 1);
    for &s in &subs {
        assert_eq!(props_of(s, CL_DEVICE_PARTITION_TYPE), props);
        assert_eq!(device_value::<cl_device_id>(s, CL_DEVICE_PARENT_DEVICE), d);
    }
    // A one-CPU sub-device "could not be further partitioned".
    assert_eq!(props_of(subs[0], CL_DEVICE_PARTITION_PROPERTIES), [0]);
    assert_eq!(device_value::<cl_uint>(subs[0], CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 0);
    expect_err(
        sub_devices(subs[0], &[CL_DEVICE_PARTITION_EQUALLY, 1, 0]).unwrap_err(),
        CL_DEVICE_PARTITION_FAILED,
    );
    // A sub-device of two or more CPUs partitions again.
    if n > 2 {
        let grand = sub_devices(subs[1], &[CL_DEVICE_PARTITION_EQUALLY, 1, 0]).expect("nested partition");
        assert_eq!(grand.len() as u32, n - 1);
        for &g in &grand {
            assert_eq!(device_value::<cl_device_id>(g, CL_DEVICE_PARENT_DEVICE), subs[1]);
        }
        release_all(&grand);
    } else {
        skip("partitioning a sub-device (needs 3 CPUs)");
    }
    // Counts of one CPU each, as many as there are CPUs.
    let mut ones = vec![CL_DEVICE_PARTITION_BY_COUNTS];
    ones.resize(1 + n as usize, 1);
    ones.extend([CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0]);
    let each = sub_devices(d, &ones).expect("one CPU per sub-device");
    assert_eq!(each.len() as u32, n);
    release_all(&each);
    release_all(&subs);
}

/// "CL_DEVICE_PARTITION_FAILED if the partition name is supported by the
/// implementation but in_device could not be further partitioned": a device
/// of one CPU, a sub-device or a sub-sub-device, under every scheme and
/// every affinity domain. A malformed request keeps its own code.
#[test]
fn one_cpu_devices_cannot_be_partitioned_further() {
    let d = device();
    let n = compute_units(d) as isize;
    if n < 2 {
        return skip("one-CPU sub-devices (needs 2 CPUs)");
    }
    let singles = sub_devices(d, &[CL_DEVICE_PARTITION_EQUALLY, 1, 0]).expect("one CPU each");
    let whole = sub_devices(
        d,
        &[
            CL_DEVICE_PARTITION_BY_COUNTS,
            n,
            CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
            0,
        ],
    )
    .expect("one sub-device of every CPU");
    assert_eq!(compute_units(whole[0]), n as u32);
    let grand = sub_devices(whole[0], &[CL_DEVICE_PARTITION_EQUALLY, 1, 0]).expect("sub-sub-devices");
    let counts = |c: &[isize]| {
        let mut v = vec![CL_DEVICE_PARTITION_BY_COUNTS];
        v.extend_from_slice(c);
        v.extend([CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0]);
        v
    };
    let affinity = |dom: cl_device_affinity_domain| vec![CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, dom as isize, 0];
    for &one in [singles[0], singles[1], grand[0], grand[1]].iter() {
        assert_eq!(compute_units(one), 1);
        assert_eq!(props_of(one, CL_DEVICE_PARTITION_PROPERTIES), [0]);
        assert_eq!(device_value::<cl_uint>(one, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 0);
        assert_eq!(
            device_value::<cl_device_affinity_domain>(one, CL_DEVICE_PARTITION_AFFINITY_DOMAIN),
            0
        );
        let mut failing = vec![
            vec![CL_DEVICE_PARTITION_EQUALLY, 1, 0],
            vec![CL_DEVICE_PARTITION_EQUALLY, 2, 0],
            counts(&[1]),
            counts(&[1, 1]),
            counts(&[2]),
            affinity(CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE),
        ];
        failing.extend(DOMAINS.iter().map(|&dom| affinity(dom)));
        for props in &failing {
            let mut count = 7;
            // SAFETY: a terminated property list; count only.
            let rc = unsafe { clCreateSubDevices(one, props.as_ptr(), 0, ptr::null_mut(), &mut count) };
            expect_err(rc, CL_DEVICE_PARTITION_FAILED);
            assert_eq!(count, 7, "{props:?}: nothing written on failure");
            let mut out = [ptr::null_mut(); 2];
            // SAFETY: room for two handles.
            let rc = unsafe { clCreateSubDevices(one, props.as_ptr(), 2, out.as_mut_ptr(), ptr::null_mut()) };
            expect_err(rc, CL_DEVICE_PARTITION_FAILED);
            assert_eq!(out, [ptr::null_mut(); 2], "{props:?}: no sub-device made");
        }
        // What is malformed is refused as such first.
        expect_err(
            sub_devices(one, &[CL_DEVICE_PARTITION_EQUALLY, -1, 0]).unwrap_err(),
            CL_INVALID_DEVICE_PARTITION_COUNT,
        );
        expect_err(
            sub_devices(one, &counts(&[1, -1])).unwrap_err(),
            CL_INVALID_DEVICE_PARTITION_COUNT,
        );
        expect_err(sub_devices(one, &affinity(1 << 10)).unwrap_err(), CL_INVALID_VALUE);
        expect_err(sub_devices(one, &[0x9999, 1, 0]).unwrap_err(), CL_INVALID_VALUE);
    }
    release_all(&grand);
    release_all(&whole);
    release_all(&singles);
}

#[test]
fn partition_by_affinity_domain() {
    let d = device();
    let n = compute_units(d);
    let domains: cl_device_affinity_domain = device_value(d, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
    // The domains clift offers are exactly those along which this machine's
    // CPUs fall into two or more groups.
    let cpus = process_cpus();
    let topo = Topology::read(&cpus);
    let mut expected = 0;
    for dom in DOMAINS {
        if topo.groups(&cpus, dom).is_some_and(|g| g >= 2) {
            expected |= dom;
        }
    }
    if expected != 0 {
        expected |= CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
    }
    assert_eq!(
        domains, expected,
        "affinity domains {domains:#x} vs the machine's topology {expected:#x}"
    );
    if domains == 0 {
        // The CPUs share every level: nothing to split along.
        expect_err(
            sub_devices(
                d,
                &[
                    CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                    CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE as isize,
                    0,
                ],
            )
            .unwrap_err(),
            CL_DEVICE_PARTITION_FAILED,
        );
        return skip("partition by affinity domain (the CPUs share every cache and node)");
    }
    for dom in DOMAINS {
        let props = [CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, dom as isize, 0];
        if domains & dom == 0 {
            // CL_INVALID_VALUE ... if values specified in properties are
            // valid but not are supported by in_device
            expect_err(sub_devices(d, &props).unwrap_err(), CL_INVALID_VALUE);
            continue;
        }
        let subs = sub_devices(d, &props).expect("partition by affinity domain");
        assert_eq!(Some(subs.len()), topo.groups(&cpus, dom));
        assert_eq!(
            subs.iter().map(|&s| compute_units(s)).sum::<u32>(),
            n,
            "every CPU in one sub-device"
        );
        for &s in &subs {
            assert_eq!(props_of(s, CL_DEVICE_PARTITION_TYPE), props);
        }
        release_all(&subs);
    }
    // "In the case where the properties argument to clCreateSubDevices is
    // CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
    // CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, the affinity domain used
    // to perform the partition will be returned" - the first level that
    // splits "in the order NUMA, L4, L3, L2, L1".
    let first = DOMAINS.iter().copied().find(|dom| domains & dom != 0).unwrap();
    let next = [
        CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
        CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE as isize,
        0,
    ];
    let subs = sub_devices(d, &next).expect("next partitionable");
    for &s in &subs {
        assert_eq!(
            props_of(s, CL_DEVICE_PARTITION_TYPE),
            [CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, first as isize, 0]
        );
    }
    release_all(&subs);
}

#[test]
fn create_sub_devices_errors() {
    let d = device();
    let n = compute_units(d) as isize;
    let mut count = 0;
    let call = |dev: cl_device_id, props: &[isize]| {
        let mut c = 0;
        // SAFETY: every list the test passes is terminated.
        unsafe { clCreateSubDevices(dev, props.as_ptr(), 0, ptr::null_mut(), &mut c) }
    };
    // CL_INVALID_DEVICE if in_device is not a valid device.
    let mut fake = forged_device();
    expect_err(
        call(fake.as_mut_ptr().cast(), &[CL_DEVICE_PARTITION_EQUALLY, 1, 0]),
        CL_INVALID_DEVICE,
    );
    // SAFETY: NULL device; the loader or clift rejects it.
    expect_err(
        unsafe {
            clCreateSubDevices(
                ptr::null_mut(),
                [CL_DEVICE_PARTITION_EQUALLY, 1, 0].as_ptr(),
                0,
                ptr::null_mut(),
                &mut count,
            )
        },
        CL_INVALID_DEVICE,
    );
    // CL_INVALID_VALUE if values specified in properties are not valid
    // SAFETY: NULL properties.
    expect_err(
        unsafe { clCreateSubDevices(d, ptr::null(), 0, ptr::null_mut(), &mut count) },
        CL_INVALID_VALUE,
    );
    expect_err(call(d, &[0]), CL_INVALID_VALUE);
    expect_err(call(d, &[0x9999, 1, 0]), CL_INVALID_VALUE);
    // A partition name without its value.
    expect_err(call(d, &[CL_DEVICE_PARTITION_EQUALLY, 0]), CL_INVALID_VALUE);
    // "Only one of the listed partitioning schemes can be specified."
    expect_err(
        call(d, &[CL_DEVICE_PARTITION_EQUALLY, 1, CL_DEVICE_PARTITION_EQUALLY, 1, 0]),
        CL_INVALID_VALUE,
    );
    expect_err(
        call(
            d,
            &[
                CL_DEVICE_PARTITION_BY_COUNTS,
                1,
                CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
                CL_DEVICE_PARTITION_EQUALLY,
                1,
                0,
            ],
        ),
        CL_INVALID_VALUE,
    );
    // No counts at all.
    expect_err(
        call(
            d,
            &[CL_DEVICE_PARTITION_BY_COUNTS, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0],
        ),
        CL_INVALID_VALUE,
    );
    // Not one affinity domain.
    expect_err(
        call(d, &[CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 1 << 10, 0]),
        CL_INVALID_VALUE,
    );
    expect_err(
        call(
            d,
            &[
                CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                (CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE | CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE) as isize,
                0,
            ],
        ),
        CL_INVALID_VALUE,
    );

    if n < 2 {
        return skip("partition count errors (needs 2 CPUs)");
    }
    // CL_INVALID_DEVICE_PARTITION_COUNT if the partition name specified in
    // properties is CL_DEVICE_PARTITION_BY_COUNTS and the number of
    // sub-devices requested exceeds CL_DEVICE_PARTITION_MAX_SUB_DEVICES
    let mut too_many = vec![CL_DEVICE_PARTITION_BY_COUNTS];
    too_many.resize(n as usize + 2, 1);
    too_many.extend([CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0]);
    expect_err(call(d, &too_many), CL_INVALID_DEVICE_PARTITION_COUNT);
    // or if the total number of compute units requested exceeds
    // CL_DEVICE_MAX_COMPUTE_UNITS for in_device
    expect_err(
        call(
            d,
            &[
                CL_DEVICE_PARTITION_BY_COUNTS,
                1,
                n,
                CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
                0,
            ],
        ),
        CL_INVALID_DEVICE_PARTITION_COUNT,
    );
    expect_err(
        call(d, &[CL_DEVICE_PARTITION_EQUALLY, n + 1, 0]),
        CL_INVALID_DEVICE_PARTITION_COUNT,
    );
    // or if the number of compute units requested for one or more
    // sub-devices is less than zero
    expect_err(
        call(
            d,
            &[
                CL_DEVICE_PARTITION_BY_COUNTS,
                1,
                -1,
                CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
                0,
            ],
        ),
        CL_INVALID_DEVICE_PARTITION_COUNT,
    );
    expect_err(
        call(d, &[CL_DEVICE_PARTITION_EQUALLY, -1, 0]),
        CL_INVALID_DEVICE_PARTITION_COUNT,
    );

    // CL_INVALID_VALUE ... if out_devices is not NULL and num_devices is less
    // than the number of sub-devices created by the partition scheme
    let props = [CL_DEVICE_PARTITION_EQUALLY, 1, 0];
    let mut out = vec![ptr::null_mut(); n as usize];
    // SAFETY: `out` has room for n - 1 handles (and more).
    expect_err(
        unsafe { clCreateSubDevices(d, props.as_ptr(), n as cl_uint - 1, out.as_mut_ptr(), &mut count) },
        CL_INVALID_VALUE,
    );
    // SAFETY: as above.
    expect_err(
        unsafe { clCreateSubDevices(d, props.as_ptr(), 0, out.as_mut_ptr(), &mut count) },
        CL_INVALID_VALUE,
    );
    assert!(out.iter().all(|h| h.is_null()), "nothing is written on error");
    // Room for more than needed is fine; NULL num_devices_ret is ignored.
    let mut more = vec![ptr::null_mut(); n as usize + 2];
    // SAFETY: `more` has room for n + 2 handles.
    check(unsafe { clCreateSubDevices(d, props.as_ptr(), n as cl_uint + 2, more.as_mut_ptr(), ptr::null_mut()) });
    assert!(more[..n as usize].iter().all(|h| !h.is_null()));
    assert!(more[n as usize..].iter().all(|h| h.is_null()));
    release_all(&more[..n as usize]);
}

// ---------------------------------------------------------------------------
// Retain and release

#[test]
fn retain_and_release() {
    let d = device();
    // "If device is a root level device ... the device reference count
    // remains unchanged" and the call succeeds.
    // SAFETY: valid root device handle.
    unsafe {
        check(clRetainDevice(d));
        check(clRetainDevice(d));
        check(clReleaseDevice(d));
    }
    assert_eq!(device_value::<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT), 1);
    // SAFETY: as above.
    check(unsafe { clReleaseDevice(d) });
    assert_eq!(device_value::<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT), 1);

    // CL_INVALID_DEVICE if device is not a valid device.
    let mut fake = forged_device();
    let f: cl_device_id = fake.as_mut_ptr().cast();
    // SAFETY: forged handles are detected, not used; NULL is rejected.
    unsafe {
        expect_err(clRetainDevice(f), CL_INVALID_DEVICE);
        expect_err(clReleaseDevice(f), CL_INVALID_DEVICE);
        expect_err(clRetainDevice(ptr::null_mut()), CL_INVALID_DEVICE);
        expect_err(clReleaseDevice(ptr::null_mut()), CL_INVALID_DEVICE);
    }

    if compute_units(d) < 2 {
        return skip("sub-device reference counts (needs 2 CPUs)");
    }
    let subs = sub_devices(d, &[CL_DEVICE_PARTITION_EQUALLY, 1, 0]).unwrap();
    let s = subs[0];
    // A context holds the sub-device, so its memory stays readable (the
    // loader reads a handle's first word) after the application's last release.
    let mut err = 0;
    // SAFETY: one valid device handle; no callback.
    let ctx = unsafe { clCreateContext(ptr::null(), 1, &s, None, ptr::null_mut(), &mut err) };
    check(err);
    // SAFETY: valid sub-device handle.
    unsafe {
        check(clRetainDevice(s));
        assert_eq!(device_value::<cl_uint>(s, CL_DEVICE_REFERENCE_COUNT), 2);
        check(clReleaseDevice(s));
        assert_eq!(device_value::<cl_uint>(s, CL_DEVICE_REFERENCE_COUNT), 1);
        check(clReleaseDevice(s));
    }
    // The released handle is no longer valid.
    let mut v = 0u32;
    // SAFETY: the handle is still readable (the context holds the object);
    // clift must reject it without using it.
    unsafe {
        expect_err(
            clGetDeviceInfo(
                s,
                CL_DEVICE_MAX_COMPUTE_UNITS,
                4,
                (&mut v as *mut u32).cast(),
                ptr::null_mut(),
            ),
            CL_INVALID_DEVICE,
        );
        expect_err(clRetainDevice(s), CL_INVALID_DEVICE);
        expect_err(clReleaseDevice(s), CL_INVALID_DEVICE);
        check(clReleaseContext(ctx));
    }
    release_all(&subs[1..]);
}

#[test]
fn device_fission_extension_is_not_offered() {
    let d = device();
    let ext = device_string(d, CL_DEVICE_EXTENSIONS);
    assert!(!ext.split(' ').any(|e| e == "cl_ext_device_fission"));
    let props: [cl_ulong; 3] = [0x4050, 1, 0]; // CL_DEVICE_PARTITION_EQUALLY_EXT
    let mut n = 0;
    let mut fake = forged_device();
    // SAFETY: valid arguments; the extension's entry points answer
    // CL_INVALID_OPERATION after checking the device.
    unsafe {
        expect_err(
            clCreateSubDevicesEXT(d, props.as_ptr(), 0, ptr::null_mut(), &mut n),
            CL_INVALID_OPERATION,
        );
        expect_err(clRetainDeviceEXT(d), CL_INVALID_OPERATION);
        expect_err(clReleaseDeviceEXT(d), CL_INVALID_OPERATION);
        expect_err(clRetainDeviceEXT(fake.as_mut_ptr().cast()), CL_INVALID_DEVICE);
    }
}

// ---------------------------------------------------------------------------
// clGetDeviceIDs

#[test]
fn get_device_ids_by_type() {
    let p = platform();
    let root = device();
    for ty in [
        CL_DEVICE_TYPE_CPU,
        CL_DEVICE_TYPE_DEFAULT,
        CL_DEVICE_TYPE_ALL,
        CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU,
        CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_ACCELERATOR,
    ] {
        let mut n = 0;
        // SAFETY: count only.
        check(unsafe { clGetDeviceIDs(p, ty, 0, ptr::null_mut(), &mut n) });
        assert_eq!(n, 1, "type {ty:#x}");
        let mut ids = [ptr::null_mut(); 3];
        let mut n2 = 0;
        // "The number of OpenCL devices returned is the minimum of the value
        // specified by num_entries or the number of OpenCL devices whose type
        // matches device_type."
        // SAFETY: `ids` has room for 3 handles.
        check(unsafe { clGetDeviceIDs(p, ty, 3, ids.as_mut_ptr(), &mut n2) });
        assert_eq!(n2, 1);
        assert_eq!(ids[0], root);
        assert!(ids[1].is_null());
    }
    // CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were found.
    for ty in [
        CL_DEVICE_TYPE_GPU,
        CL_DEVICE_TYPE_ACCELERATOR,
        CL_DEVICE_TYPE_CUSTOM,
        CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_CUSTOM,
    ] {
        let mut n = 7;
        // SAFETY: count only.
        expect_err(
            unsafe { clGetDeviceIDs(p, ty, 0, ptr::null_mut(), &mut n) },
            CL_DEVICE_NOT_FOUND,
        );
    }
}

#[test]
fn get_device_ids_errors() {
    let p = platform();
    let mut d = ptr::null_mut();
    let mut n = 0;
    // SAFETY: valid out-pointers; bad values are the point.
    unsafe {
        // CL_INVALID_DEVICE_TYPE if device_type is not a valid value.
        expect_err(clGetDeviceIDs(p, 0, 1, &mut d, &mut n), CL_INVALID_DEVICE_TYPE);
        expect_err(clGetDeviceIDs(p, 1 << 40, 1, &mut d, &mut n), CL_INVALID_DEVICE_TYPE);
        expect_err(
            clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU | (1 << 20), 1, &mut d, &mut n),
            CL_INVALID_DEVICE_TYPE,
        );
        // CL_INVALID_VALUE if num_entries is equal to zero and devices is not NULL
        expect_err(
            clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, &mut d, &mut n),
            CL_INVALID_VALUE,
        );
        // or if both num_devices and devices are NULL.
        expect_err(
            clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, ptr::null_mut(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        // Only the count, or only the list, is fine.
        check(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &mut d, ptr::null_mut()));
        assert_eq!(d, device());
        // CL_INVALID_PLATFORM if platform is not a valid platform: a forged
        // platform object with clift's dispatch table, and a device handle.
        let dispatch = *(p as *const usize);
        let mut fake = [dispatch, 0x5151, 0x5252];
        expect_err(
            clGetDeviceIDs(fake.as_mut_ptr().cast(), CL_DEVICE_TYPE_ALL, 1, &mut d, &mut n),
            CL_INVALID_PLATFORM,
        );
        expect_err(
            clGetDeviceIDs(device().cast(), CL_DEVICE_TYPE_ALL, 1, &mut d, &mut n),
            CL_INVALID_PLATFORM,
        );
    }
}

// ---------------------------------------------------------------------------
// clGetDeviceInfo errors

#[test]
fn get_device_info_errors() {
    let d = device();
    let mut buf = [0u8; 256];
    let mut size = 0usize;
    // SAFETY: `buf` holds 256 bytes; declared sizes never exceed it.
    unsafe {
        // CL_INVALID_VALUE if param_name is not one of the supported values
        expect_err(
            clGetDeviceInfo(d, 0xdead, 256, buf.as_mut_ptr().cast(), &mut size),
            CL_INVALID_VALUE,
        );
        // OpenCL 3.0 queries are not a 2.2 device's.
        for p in [
            CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
            CL_DEVICE_OPENCL_C_ALL_VERSIONS,
            CL_DEVICE_PIPE_SUPPORT,
            CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
        ] {
            expect_err(
                clGetDeviceInfo(d, p, 256, buf.as_mut_ptr().cast(), &mut size),
                CL_INVALID_VALUE,
            );
        }
        // or if size in bytes specified by param_value_size is < size of
        // return type as specified in the Device Queries table and
        // param_value is not a NULL value
        expect_err(
            clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, 3, buf.as_mut_ptr().cast(), &mut size),
            CL_INVALID_VALUE,
        );
        expect_err(
            clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, 4, buf.as_mut_ptr().cast(), &mut size),
            CL_INVALID_VALUE,
        );
        expect_err(
            clGetDeviceInfo(d, CL_DEVICE_NAME, 1, buf.as_mut_ptr().cast(), &mut size),
            CL_INVALID_VALUE,
        );
        // A NULL param_value asks the size only; a NULL size_ret is ignored.
        check(clGetDeviceInfo(
            d,
            CL_DEVICE_MAX_COMPUTE_UNITS,
            0,
            ptr::null_mut(),
            &mut size,
        ));
        assert_eq!(size, 4);
        check(clGetDeviceInfo(
            d,
            CL_DEVICE_MAX_COMPUTE_UNITS,
            256,
            buf.as_mut_ptr().cast(),
            ptr::null_mut(),
        ));
        // CL_INVALID_DEVICE if device is not valid.
        let mut fake = forged_device();
        expect_err(
            clGetDeviceInfo(
                fake.as_mut_ptr().cast(),
                CL_DEVICE_NAME,
                256,
                buf.as_mut_ptr().cast(),
                &mut size,
            ),
            CL_INVALID_DEVICE,
        );
        expect_err(
            clGetDeviceInfo(ptr::null_mut(), CL_DEVICE_NAME, 256, buf.as_mut_ptr().cast(), &mut size),
            CL_INVALID_DEVICE,
        );
        // A handle of another type.
        let ctx = context();
        expect_err(
            clGetDeviceInfo(
                ctx as cl_device_id,
                CL_DEVICE_NAME,
                256,
                buf.as_mut_ptr().cast(),
                &mut size,
            ),
            CL_INVALID_DEVICE,
        );
        check(clReleaseContext(ctx));
    }
}

// ---------------------------------------------------------------------------
// Timers

#[test]
fn timers_are_monotonic_and_agree() {
    let d = device();
    let (mut dev1, mut host1, mut dev2, mut host2, mut h) = (0u64, 0u64, 0u64, 0u64, 0u64);
    // SAFETY: valid handle and out-pointers.
    unsafe {
        check(clGetDeviceAndHostTimer(d, &mut dev1, &mut host1));
        check(clGetHostTimer(d, &mut h));
        std::thread::sleep(std::time::Duration::from_millis(2));
        check(clGetDeviceAndHostTimer(d, &mut dev2, &mut host2));
    }
    assert!(dev1 > 0 && host1 > 0);
    assert!(host1 <= h && h <= host2, "host timer runs forward: {host1} {h} {host2}");
    assert!(dev2 >= dev1 + 2_000_000, "device timer runs forward: {dev1} {dev2}");
    // "a reasonably synchronized pair of timestamps": within a millisecond.
    assert!(dev1.abs_diff(host1) < 1_000_000 && dev2.abs_diff(host2) < 1_000_000);
    // Profiling timestamps share the device timebase: the profiling
    // resolution is that of the timer.
    let res: usize = device_value(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION);
    assert!(res >= 1);
}

#[test]
fn timer_errors() {
    let d = device();
    let (mut t, mut t2) = (0u64, 0u64);
    let mut fake = forged_device();
    // SAFETY: NULL pointers and forged handles are rejected unused.
    unsafe {
        // CL_INVALID_VALUE if host_timestamp is NULL or device_timestamp is NULL.
        expect_err(clGetDeviceAndHostTimer(d, ptr::null_mut(), &mut t), CL_INVALID_VALUE);
        expect_err(clGetDeviceAndHostTimer(d, &mut t, ptr::null_mut()), CL_INVALID_VALUE);
        expect_err(clGetHostTimer(d, ptr::null_mut()), CL_INVALID_VALUE);
        // CL_INVALID_DEVICE if device is not a valid device.
        let f: cl_device_id = fake.as_mut_ptr().cast();
        expect_err(clGetDeviceAndHostTimer(f, &mut t, &mut t2), CL_INVALID_DEVICE);
        expect_err(clGetHostTimer(f, &mut t), CL_INVALID_DEVICE);
        expect_err(clGetHostTimer(ptr::null_mut(), &mut t), CL_INVALID_DEVICE);
    }
}

// ---------------------------------------------------------------------------
// A sub-device's commands run only on its cores

/// A native kernel that records the CPU it runs on in its argument block's
/// first word, which points at the caller's slot.
extern "C" fn record_cpu(args: *mut std::ffi::c_void) {
    // SAFETY: the argument block holds one pointer to a live AtomicI64.
    let slot = unsafe { &*(*(args as *const *const std::sync::atomic::AtomicI64)) };
    // SAFETY: sched_getcpu has no preconditions.
    let cpu = unsafe { libc::sched_getcpu() };
    slot.store(cpu as i64, std::sync::atomic::Ordering::SeqCst);
}

/// The CPUs that native kernels on a queue of `d` ran on, over `runs` blocking
/// waits (which must not run a sub-device's command on the waiting thread).
fn cpus_used_by(d: cl_device_id, runs: usize) -> std::collections::BTreeSet<i64> {
    let mut err = 0;
    // SAFETY: valid device; no callback.
    let ctx = unsafe { clCreateContext(ptr::null(), 1, &d, None, ptr::null_mut(), &mut err) };
    check(err);
    // SAFETY: valid context and device.
    let q = unsafe { clCreateCommandQueueWithProperties(ctx, d, ptr::null(), &mut err) };
    check(err);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..runs {
        let slot = std::sync::atomic::AtomicI64::new(-1);
        let mut args: *const std::sync::atomic::AtomicI64 = &slot;
        let mut ev = ptr::null_mut();
        // SAFETY: an argument block of one pointer, no memory objects; the
        // slot outlives the command (we wait for it below).
        unsafe {
            check(clEnqueueNativeKernel(
                q,
                Some(record_cpu),
                (&mut args as *mut *const std::sync::atomic::AtomicI64).cast(),
                std::mem::size_of::<usize>(),
                0,
                ptr::null(),
                ptr::null_mut(),
                0,
                ptr::null(),
                &mut ev,
            ));
            check(clWaitForEvents(1, &ev));
            check(clReleaseEvent(ev));
        }
        seen.insert(slot.load(std::sync::atomic::Ordering::SeqCst));
    }
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
    seen
}

#[test]
fn sub_device_commands_run_only_on_its_cores() {
    let cpus = process_cpus();
    if cpus.len() < 2 {
        skip("sub-device placement (needs 2 CPUs)");
        return;
    }
    let props = [CL_DEVICE_PARTITION_EQUALLY, 1, 0];
    let subs = sub_devices(device(), &props).expect("partition equally by 1");
    let mut used = Vec::new();
    for &s in &subs {
        let seen = cpus_used_by(s, 50);
        assert_eq!(seen.len(), 1, "a one-CPU sub-device ran on {seen:?}");
        used.push(*seen.iter().next().unwrap());
    }
    used.sort();
    used.dedup();
    assert_eq!(used.len(), subs.len(), "each one-CPU sub-device has its own CPU");
    assert!(used.iter().all(|c| cpus.contains(&(*c as usize))));
    release_all(&subs);
}

/// cl_khr_fp64: listed with its version, CL_DEVICE_DOUBLE_FP_CONFIG holds
/// at least the minimum an OpenCL 2.0 or newer device with double must
/// report ("CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN |
/// CL_FP_DENORM") plus the directed rounding modes clift's conversions
/// honour, and no CL_FP_SOFT_FLOAT or single-only bit; the double vector
/// widths are non-zero ("If double precision is not supported, ... must
/// return 0", so a device with double answers its width).
#[test]
fn double_precision_queries() {
    let d = device();
    let ext = device_string(d, CL_DEVICE_EXTENSIONS);
    assert!(ext.split(' ').any(|e| e == "cl_khr_fp64"), "{ext}");
    let bytes = dev_bytes(d, CL_DEVICE_EXTENSIONS_WITH_VERSION).unwrap();
    let entry = std::mem::size_of::<cl_name_version>();
    assert_eq!(bytes.len() % entry, 0);
    let listed = bytes.chunks(entry).any(|c| {
        let version = u32::from_ne_bytes(c[0..4].try_into().unwrap());
        let name: Vec<u8> = c[4..].iter().copied().take_while(|&b| b != 0).collect();
        name == b"cl_khr_fp64" && version == (1 << 22)
    });
    assert!(listed, "cl_khr_fp64 1.0.0 in CL_DEVICE_EXTENSIONS_WITH_VERSION");
    let cfg: cl_device_fp_config = device_value(d, CL_DEVICE_DOUBLE_FP_CONFIG);
    let want =
        CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
    assert_eq!(cfg, want, "CL_DEVICE_DOUBLE_FP_CONFIG {cfg:#x}");
    for q in [
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
        CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
    ] {
        let w: cl_uint = device_value(d, q);
        assert!(w >= 1, "double vector width {w}");
        let wf: cl_uint = device_value(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT);
        assert!(w <= wf, "no more doubles than floats per register: {w} > {wf}");
    }
    // The platform lists every extension all its devices support.
    let p = platform();
    let pext = info_string(|n, v, r| {
        // SAFETY: the caller's buffer of n bytes and size pointer.
        unsafe { clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS, n, v, r) }
    });
    assert!(pext.split(' ').any(|e| e == "cl_khr_fp64"), "{pext}");
}
