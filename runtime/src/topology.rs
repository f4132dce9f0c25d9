//! Facts about the machine the CPU device runs on, read once from Linux's
//! `/proc` and `/sys` files: the processor's name, vendor and clock, the
//! memory size, and the cache and NUMA topology that `clCreateSubDevices`
//! partitions along.
//!
//! Nothing here is made up: a fact that cannot be read is reported as
//! unknown (`None`, an empty list), and the device's queries say what they do
//! in that case.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

/// One cache, as one CPU sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cache {
    /// 1 for L1, 2 for L2, ...
    pub level: u32,
    /// Size in bytes.
    pub size: u64,
    /// Coherency line size in bytes (0 if unknown).
    pub line: u32,
    /// The logical CPUs that share this cache instance, sorted.
    pub shared_cpus: Vec<usize>,
}

/// What is known about one logical CPU.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CpuInfo {
    /// The NUMA node the CPU belongs to.
    pub numa_node: Option<usize>,
    /// The CPU's data and unified caches (instruction caches are left out:
    /// the affinity domains speak of data caches), by ascending level.
    pub caches: Vec<Cache>,
}

impl CpuInfo {
    /// The data or unified cache of `level`, if the CPU has one.
    pub fn cache(&self, level: u32) -> Option<&Cache> {
        self.caches.iter().find(|c| c.level == level)
    }

    /// The CPU's last-level (highest level) data cache.
    pub fn last_level_cache(&self) -> Option<&Cache> {
        self.caches.iter().max_by_key(|c| c.level)
    }
}

/// The vendor of the processor, as `/proc/cpuinfo` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuVendor {
    /// The vendor's PCI vendor ID, if clift knows it.
    pub pci_id: Option<u32>,
    /// The vendor's name.
    pub name: String,
}

/// Everything clift reads about the machine, once.
#[derive(Debug, Clone, Default)]
pub struct SystemInfo {
    /// The processor's model name (`model name` in `/proc/cpuinfo`).
    pub model_name: Option<String>,
    /// The processor's vendor.
    pub vendor: Option<CpuVendor>,
    /// The highest clock frequency in MHz: `cpuinfo_max_freq` from cpufreq,
    /// else the highest `cpu MHz` in `/proc/cpuinfo`, else 0 (unknown).
    pub max_clock_mhz: u32,
    /// Physical memory in bytes (0 if unknown).
    pub memory_bytes: u64,
    /// Whether an EDAC memory controller (ECC memory) is present.
    pub ecc_memory: bool,
    /// Per logical CPU (of those the process may run on).
    pub cpus: HashMap<usize, CpuInfo>,
}

static SYSTEM: OnceLock<SystemInfo> = OnceLock::new();

/// The machine's facts, read on first use.
pub fn system() -> &'static SystemInfo {
    SYSTEM.get_or_init(|| SystemInfo::read(&crate::device::available_cpus()))
}

fn read_trimmed(path: impl AsRef<Path>) -> Option<String> {
    std::fs::read_to_string(path).ok().map(|s| s.trim().to_string())
}

/// Parses a Linux CPU list such as `0-3,8,10-11`. `None` if malformed.
pub fn parse_cpu_list(s: &str) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for part in s.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                if b < a {
                    return None;
                }
                out.extend(a..=b);
            }
            None => out.push(part.trim().parse().ok()?),
        }
    }
    out.sort_unstable();
    out.dedup();
    Some(out)
}

/// Parses a sysfs cache size such as `32K`, `1024K`, `32M`.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (digits, mult) = match s.chars().last()? {
        'K' | 'k' => (&s[..s.len() - 1], 1u64 << 10),
        'M' | 'm' => (&s[..s.len() - 1], 1u64 << 20),
        'G' | 'g' => (&s[..s.len() - 1], 1u64 << 30),
        _ => (s, 1),
    };
    digits.trim().parse::<u64>().ok()?.checked_mul(mult)
}

/// The value of the first `key : value` line of `/proc/cpuinfo` text.
fn cpuinfo_field<'a>(cpuinfo: &'a str, key: &str) -> Option<&'a str> {
    cpuinfo.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == key).then(|| v.trim())
    })
}

/// The PCI vendor ID and name of a processor vendor. x86 processors name
/// their vendor with a CPUID string; Arm processors with an implementer code.
fn vendor_of(cpuinfo: &str) -> Option<CpuVendor> {
    // x86: the CPUID vendor string.
    if let Some(v) = cpuinfo_field(cpuinfo, "vendor_id") {
        let known = match v {
            "GenuineIntel" => Some((0x8086, "Intel(R) Corporation")),
            "AuthenticAMD" => Some((0x1022, "Advanced Micro Devices, Inc.")),
            "HygonGenuine" => Some((0x1d94, "Chengdu Haiguang IC Design Co., Ltd.")),
            _ => None,
        };
        return Some(match known {
            Some((id, name)) => CpuVendor {
                pci_id: Some(id),
                name: name.to_string(),
            },
            None => CpuVendor {
                pci_id: None,
                name: v.to_string(),
            },
        });
    }
    // Arm: the MIDR implementer code.
    if let Some(v) = cpuinfo_field(cpuinfo, "CPU implementer") {
        let code = u32::from_str_radix(v.trim_start_matches("0x"), 16).ok();
        return Some(match code {
            Some(0x41) => CpuVendor {
                pci_id: Some(0x13b5),
                name: "ARM Limited".to_string(),
            },
            _ => CpuVendor {
                pci_id: None,
                name: format!("Arm implementer {v}"),
            },
        });
    }
    None
}

/// The highest clock in MHz: cpufreq's maximum of the first CPU that has
/// one, else the highest `cpu MHz` line of `/proc/cpuinfo`.
fn max_clock_mhz(cpus: &[usize], cpuinfo: &str) -> u32 {
    for &c in cpus {
        let path = format!("/sys/devices/system/cpu/cpu{c}/cpufreq/cpuinfo_max_freq");
        if let Some(khz) = read_trimmed(path).and_then(|s| s.parse::<u64>().ok()) {
            if khz > 0 {
                return u32::try_from(khz.div_ceil(1000)).unwrap_or(u32::MAX);
            }
        }
    }
    cpuinfo
        .lines()
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == "cpu MHz").then(|| v.trim().parse::<f64>().ok())?
        })
        .fold(0.0f64, f64::max)
        .round() as u32
}

/// Physical memory: `sysconf`, else `MemTotal` in `/proc/meminfo`, else 0.
fn memory_bytes() -> u64 {
    // SAFETY: sysconf has no memory-safety preconditions.
    let pages = unsafe { libc::sysconf(libc::_SC_PHYS_PAGES) };
    // SAFETY: as above.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if pages > 0 && page > 0 {
        return (pages as u64).saturating_mul(page as u64);
    }
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let v = cpuinfo_field(&m, "MemTotal")?;
            let kb: u64 = v.trim_end_matches("kB").trim().parse().ok()?;
            kb.checked_mul(1024)
        })
        .unwrap_or(0)
}

/// The NUMA node of each CPU, from `/sys/devices/system/node/node*/cpulist`.
fn numa_nodes() -> HashMap<usize, usize> {
    let mut map = HashMap::new();
    let Ok(dir) = std::fs::read_dir("/sys/devices/system/node") else {
        return map;
    };
    for entry in dir.flatten() {
        let name = entry.file_name();
        let Some(node) = name
            .to_str()
            .and_then(|n| n.strip_prefix("node"))
            .and_then(|n| n.parse().ok())
        else {
            continue;
        };
        if let Some(cpus) = read_trimmed(entry.path().join("cpulist")).and_then(|s| parse_cpu_list(&s)) {
            for c in cpus {
                map.insert(c, node);
            }
        }
    }
    map
}

/// The data and unified caches of `cpu`, from
/// `/sys/devices/system/cpu/cpuN/cache/indexK/`.
fn caches_of(cpu: usize) -> Vec<Cache> {
    let mut caches = Vec::new();
    let Ok(dir) = std::fs::read_dir(format!("/sys/devices/system/cpu/cpu{cpu}/cache")) else {
        return caches;
    };
    for entry in dir.flatten() {
        if !entry.file_name().to_str().is_some_and(|n| n.starts_with("index")) {
            continue;
        }
        let p = entry.path();
        let kind = read_trimmed(p.join("type")).unwrap_or_default();
        if kind != "Data" && kind != "Unified" {
            continue;
        }
        let (Some(level), Some(size), Some(shared_cpus)) = (
            read_trimmed(p.join("level")).and_then(|s| s.parse().ok()),
            read_trimmed(p.join("size")).and_then(|s| parse_size(&s)),
            read_trimmed(p.join("shared_cpu_list")).and_then(|s| parse_cpu_list(&s)),
        ) else {
            continue;
        };
        let line = read_trimmed(p.join("coherency_line_size"))
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        caches.push(Cache {
            level,
            size,
            line,
            shared_cpus,
        });
    }
    caches.sort_by_key(|c| c.level);
    caches.dedup_by_key(|c| c.level);
    caches
}

/// Whether Linux's EDAC subsystem has a memory controller, which it only
/// registers for memory with error correction.
fn ecc_memory() -> bool {
    std::fs::read_dir("/sys/devices/system/edac/mc")
        .map(|d| {
            d.flatten()
                .any(|e| e.file_name().to_str().is_some_and(|n| n.starts_with("mc")))
        })
        .unwrap_or(false)
}

impl SystemInfo {
    /// Reads the facts for the logical CPUs `cpus`.
    pub fn read(cpus: &[usize]) -> SystemInfo {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let nodes = numa_nodes();
        SystemInfo {
            model_name: cpuinfo_field(&cpuinfo, "model name")
                .filter(|s| !s.is_empty())
                .map(str::to_string),
            vendor: vendor_of(&cpuinfo),
            max_clock_mhz: max_clock_mhz(cpus, &cpuinfo),
            memory_bytes: memory_bytes(),
            ecc_memory: ecc_memory(),
            cpus: cpus
                .iter()
                .map(|&c| {
                    (
                        c,
                        CpuInfo {
                            numa_node: nodes.get(&c).copied(),
                            caches: caches_of(c),
                        },
                    )
                })
                .collect(),
        }
    }

    /// What is known about `cpu` (an empty record if nothing is).
    pub fn cpu(&self, cpu: usize) -> CpuInfo {
        self.cpus.get(&cpu).cloned().unwrap_or_default()
    }

    /// The identity of the domain `cpu` belongs to at `level`: its NUMA node
    /// for [`Level::Numa`], else the first CPU sharing its cache of that
    /// level. `None` if unknown.
    fn domain_key(&self, cpu: usize, level: Level) -> Option<usize> {
        let info = self.cpus.get(&cpu)?;
        match level {
            Level::Numa => info.numa_node,
            Level::Cache(l) => info.cache(l).and_then(|c| c.shared_cpus.first().copied()),
        }
    }

    /// `cpus` grouped by the domain each belongs to at `level`, each group
    /// in the order of `cpus`, groups in order of their first CPU. `None` if
    /// the domain of some CPU is unknown (the machine has no such level).
    pub fn groups(&self, cpus: &[usize], level: Level) -> Option<Vec<Vec<usize>>> {
        let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
        for &c in cpus {
            let key = self.domain_key(c, level)?;
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, g)) => g.push(c),
                None => groups.push((key, vec![c])),
            }
        }
        Some(groups.into_iter().map(|(_, g)| g).collect())
    }

    /// `cpus` reordered so that CPUs sharing a NUMA node, then an L3, then
    /// an L2 cache are next to each other (unknown levels are ignored), so
    /// that contiguous runs of the result are topologically compact.
    pub fn locality_order(&self, cpus: &[usize]) -> Vec<usize> {
        let mut v = cpus.to_vec();
        v.sort_by_key(|&c| {
            (
                self.domain_key(c, Level::Numa),
                self.domain_key(c, Level::Cache(3)),
                self.domain_key(c, Level::Cache(2)),
                c,
            )
        });
        v
    }
}

/// A level of the memory hierarchy that CPUs can be grouped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// A NUMA node.
    Numa,
    /// A cache of the given level (1 to 4).
    Cache(u32),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists() {
        assert_eq!(parse_cpu_list("0-3,8,10-11"), Some(vec![0, 1, 2, 3, 8, 10, 11]));
        assert_eq!(parse_cpu_list("5"), Some(vec![5]));
        assert_eq!(parse_cpu_list(""), Some(vec![]));
        assert_eq!(parse_cpu_list("3-1"), None);
        assert_eq!(parse_cpu_list("x"), None);
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("32K"), Some(32 * 1024));
        assert_eq!(parse_size("32M"), Some(32 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size(""), None);
    }

    #[test]
    fn vendors() {
        let v = vendor_of("processor\t: 0\nvendor_id\t: AuthenticAMD\n").unwrap();
        assert_eq!(v.pci_id, Some(0x1022));
        let v = vendor_of("CPU implementer\t: 0x41\n").unwrap();
        assert_eq!(v.pci_id, Some(0x13b5));
        assert_eq!(vendor_of("nothing"), None);
    }

    #[test]
    fn grouping() {
        let cache = |level, shared: Vec<usize>| Cache {
            level,
            size: 1024,
            line: 64,
            shared_cpus: shared,
        };
        let mut sys = SystemInfo::default();
        for c in 0..4 {
            sys.cpus.insert(
                c,
                CpuInfo {
                    numa_node: Some(c / 2),
                    caches: vec![
                        cache(1, vec![c]),
                        cache(2, vec![c & !1, c | 1]),
                        cache(3, vec![0, 1, 2, 3]),
                    ],
                },
            );
        }
        assert_eq!(
            sys.groups(&[0, 1, 2, 3], Level::Numa),
            Some(vec![vec![0, 1], vec![2, 3]])
        );
        assert_eq!(sys.groups(&[0, 1, 2, 3], Level::Cache(3)), Some(vec![vec![0, 1, 2, 3]]));
        assert_eq!(sys.groups(&[1, 2], Level::Cache(2)), Some(vec![vec![1], vec![2]]));
        assert_eq!(sys.groups(&[0, 1], Level::Cache(4)), None);
        assert_eq!(sys.locality_order(&[3, 0, 2, 1]), vec![0, 1, 2, 3]);
    }
}
