//! The CPU device: its limits and capabilities (the values `clinfo` shows), the
//! cores it owns, and the thread pool that runs its commands on those cores.

use std::sync::{Arc, OnceLock};

use crate::error::{fail, ClResult};
use crate::info::{make_version, InfoValue};
use crate::object::{ApiHeader, ApiObject};
use opencl_sys::*;

/// Extensions every clift device supports, in the order `clinfo` lists them.
/// Only what works end to end is here; later features add their names.
pub const DEVICE_EXTENSIONS: &[&str] = &["cl_khr_icd", "cl_khr_extended_versioning"];

/// [`DEVICE_EXTENSIONS`] with their versions, for `*_EXTENSIONS_WITH_VERSION`.
pub const DEVICE_EXTENSION_VERSIONS: [(u32, &str); 2] = [
    (make_version(1, 0, 0), "cl_khr_icd"),
    (make_version(1, 0, 0), "cl_khr_extended_versioning"),
];

/// A CPU device: the root device (all cores available to the process) or a
/// sub-device (a subset of its parent's cores).
#[repr(C)]
pub struct Device {
    header: ApiHeader,
    parent: Option<Arc<Device>>,
    /// Logical CPU numbers this device runs on.
    cpus: Vec<usize>,
    /// The partition property list this sub-device was created with (empty for a root device).
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

    /// The thread pool that runs this device's commands and work-groups, one
    /// thread per CPU of the device, each pinned to the device's CPUs.
    pub fn pool(&self) -> &rayon::ThreadPool {
        self.pool.get_or_init(|| {
            let cpus = self.cpus.clone();
            let pin = self.parent.is_some();
            rayon::ThreadPoolBuilder::new()
                .num_threads(self.cpus.len().max(1))
                .thread_name(|i| format!("clift-worker-{i}"))
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

    /// Largest single allocation, in bytes.
    pub fn max_mem_alloc_size(&self) -> u64 {
        (self.global_mem_size() / 4).max(128 * 1024 * 1024)
    }

    /// Global memory size: the system's physical memory.
    pub fn global_mem_size(&self) -> u64 {
        // SAFETY: sysconf has no memory-safety preconditions.
        let pages = unsafe { libc::sysconf(libc::_SC_PHYS_PAGES) };
        // SAFETY: as above.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if pages <= 0 || page <= 0 {
            return 1 << 30;
        }
        pages as u64 * page as u64
    }

    /// `clCreateSubDevices`: partitions this device as `props` asks.
    pub fn partition(self: &Arc<Self>, props: &[isize]) -> ClResult<Vec<Arc<Device>>> {
        let Some(&kind) = props.first() else {
            return fail(CL_INVALID_VALUE);
        };
        let n = self.cpus.len();
        match kind as cl_device_partition_property {
            CL_DEVICE_PARTITION_EQUALLY => {
                let per = *props.get(1).ok_or(crate::error::ClError(CL_INVALID_VALUE))?;
                if per <= 0 {
                    return fail(CL_INVALID_VALUE);
                }
                let per = per as usize;
                if per > n {
                    return fail(CL_DEVICE_PARTITION_FAILED);
                }
                Ok(self
                    .cpus
                    .chunks_exact(per)
                    .map(|c| Device::new_sub(self, c.to_vec(), vec![kind, per as isize, 0]))
                    .collect())
            }
            _ => fail(CL_INVALID_VALUE),
        }
    }

    /// `clGetDeviceInfo`.
    pub fn info(&self, param: cl_device_info) -> ClResult<InfoValue> {
        Ok(match param {
            CL_DEVICE_TYPE => InfoValue::u64(CL_DEVICE_TYPE_CPU),
            CL_DEVICE_MAX_COMPUTE_UNITS => InfoValue::u32(self.compute_units()),
            CL_DEVICE_NAME => InfoValue::string("clift CPU"),
            CL_DEVICE_ADDRESS_BITS => InfoValue::u32(64),
            CL_DEVICE_IL_VERSION => InfoValue::string("SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2"),
            CL_DEVICE_PARTITION_TYPE => InfoValue::isizes(&self.partition),
            CL_DEVICE_REFERENCE_COUNT => InfoValue::u32(self.header().ref_count()),
            _ => return fail(CL_INVALID_VALUE),
        })
    }
}
