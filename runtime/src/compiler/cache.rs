//! Memory and disk caches of compiled modules. An entry records the
//! files of `-I` folders its compile read, with a hash of each; it is
//! used only while every one still hashes the same.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;

use super::Compiled;

/// First bytes of a disk entry.
const MAGIC: &[u8; 8] = b"CLIFTCC2";
/// Entries kept in memory before the map is emptied.
const MEMORY_ENTRIES: usize = 256;

/// A cached compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub spirv: Arc<[u8]>,
    pub log: String,
    /// Files read from `-I` folders, with the hash of their contents.
    pub deps: Vec<(PathBuf, u64)>,
}

fn enabled() -> bool {
    crate::config::get().cache
}

/// Key bytes -> entry.
type Memory = Mutex<HashMap<Vec<u8>, Entry>>;

fn memory() -> &'static Memory {
    static MEM: OnceLock<Memory> = OnceLock::new();
    MEM.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The disk cache's folder.
fn dir() -> Option<&'static Path> {
    crate::config::get().cache_dir.as_deref()
}

fn fnv(bytes: &[u8], seed: u64) -> u64 {
    let mut h = seed;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The hash of a file's contents (`None` if it cannot be read).
fn file_hash(p: &Path) -> Option<u64> {
    std::fs::read(p).ok().map(|b| fnv(&b, 0xcbf2_9ce4_8422_2325))
}

fn file_for(key: &[u8]) -> Option<PathBuf> {
    let a = fnv(key, 0xcbf2_9ce4_8422_2325);
    let b = fnv(key, 0x8422_2325_cbf2_9ce4);
    dir().map(|d| d.join(format!("{a:016x}{b:016x}.spvc")))
}

fn encode(key: &[u8], e: &Entry) -> Vec<u8> {
    let mut deps = String::new();
    for (p, h) in &e.deps {
        deps.push_str(&format!("{h:016x}\t{}\n", p.to_string_lossy()));
    }
    let mut v = Vec::with_capacity(key.len() + e.spirv.len() + e.log.len() + deps.len() + 48);
    v.extend_from_slice(MAGIC);
    for part in [key, &e.spirv[..], e.log.as_bytes(), deps.as_bytes()] {
        v.extend_from_slice(&(part.len() as u64).to_le_bytes());
        v.extend_from_slice(part);
    }
    let sum = fnv(&v, 0xcbf2_9ce4_8422_2325);
    v.extend_from_slice(&sum.to_le_bytes());
    v
}

/// The entry if it is whole and holds `key`.
fn decode(bytes: &[u8], key: &[u8]) -> Option<Entry> {
    let body_len = bytes.len().checked_sub(8)?;
    let (body, sum) = bytes.split_at(body_len);
    if u64::from_le_bytes(sum.try_into().ok()?) != fnv(body, 0xcbf2_9ce4_8422_2325) {
        return None;
    }
    let mut rest = body.strip_prefix(MAGIC)?;
    let mut part = || -> Option<&[u8]> {
        let n = usize::try_from(u64::from_le_bytes(rest.get(..8)?.try_into().ok()?)).ok()?;
        let p = rest.get(8..8usize.checked_add(n)?)?;
        rest = &rest[8 + n..];
        Some(p)
    };
    let (k, spirv, log, deps) = (part()?, part()?, part()?, part()?);
    if k != key || !rest.is_empty() {
        return None;
    }
    clift_jit::check_il(spirv).ok()?;
    let mut dep_list = Vec::new();
    for line in std::str::from_utf8(deps).ok()?.lines() {
        let (h, p) = line.split_once('\t')?;
        dep_list.push((PathBuf::from(p), u64::from_str_radix(h, 16).ok()?));
    }
    Some(Entry {
        spirv: Arc::from(spirv),
        log: String::from_utf8(log.to_vec()).ok()?,
        deps: dep_list,
    })
}

/// What identifies an executable's contents without reading it.
fn identity(tool: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let real = std::fs::canonicalize(tool).ok()?;
    let m = std::fs::metadata(&real).ok()?;
    Some(format!(
        "{}\n{} {} {} {} {}\n",
        real.to_string_lossy(),
        m.dev(),
        m.ino(),
        m.size(),
        m.mtime(),
        m.mtime_nsec()
    ))
}

/// The memo file of `tool`'s `--version` output, and the output it holds
/// if the executable is still the one it was written for. `None` when
/// the cache is off or has no folder.
pub fn version_memo(tool: &Path) -> Option<(PathBuf, Option<String>)> {
    if !enabled() {
        return None;
    }
    let id = identity(tool)?;
    let file = dir()?.join(format!("tool-{:016x}.txt", fnv(id.as_bytes(), 0xcbf2_9ce4_8422_2325)));
    let text = std::fs::read_to_string(&file)
        .ok()
        .and_then(|t| t.strip_prefix(&id).map(str::to_string));
    Some((file, text))
}

/// Records `tool`'s `--version` output in its memo file.
pub fn remember_version(file: &Path, tool: &Path, text: &str) {
    let Some(id) = identity(tool) else { return };
    let mut bytes = id.into_bytes();
    bytes.extend_from_slice(text.as_bytes());
    write_atomically(file, &bytes);
}

/// Writes `bytes` to a temporary name beside `file`, then renames it into
/// place, so a reader sees the old file, none, or the new one.
fn write_atomically(file: &Path, bytes: &[u8]) {
    let Some(parent) = file.parent() else { return };
    if std::fs::create_dir_all(parent).is_err() {
        return;
    }
    static N: AtomicU64 = AtomicU64::new(0);
    let tmp = parent.join(format!(
        ".tmp-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    if std::fs::write(&tmp, bytes).is_ok() && std::fs::rename(&tmp, file).is_ok() {
        return;
    }
    let _ = std::fs::remove_file(&tmp);
}

/// Whether every file the entry's compile read is unchanged.
fn current(e: &Entry) -> bool {
    e.deps.iter().all(|(p, h)| file_hash(p) == Some(*h))
}

pub fn get(key: &[u8]) -> Option<Compiled> {
    if !enabled() {
        return None;
    }
    let found = memory().lock().get(key).cloned();
    let entry = match found {
        Some(e) => e,
        None => {
            let e = decode(&std::fs::read(file_for(key)?).ok()?, key)?;
            remember(key, &e);
            e
        }
    };
    let fresh = current(&entry);
    fresh.then_some(Compiled {
        spirv: entry.spirv,
        log: entry.log,
    })
}

fn remember(key: &[u8], e: &Entry) {
    let mut m = memory().lock();
    if m.len() >= MEMORY_ENTRIES {
        m.clear();
    }
    m.insert(key.to_vec(), e.clone());
}

pub fn put(key: &[u8], c: &Compiled, deps: &[PathBuf]) {
    if !enabled() {
        return;
    }
    let Some(deps) = deps.iter().map(|p| file_hash(p).map(|h| (p.clone(), h))).collect() else {
        return;
    };
    let e = Entry {
        spirv: c.spirv.clone(),
        log: c.log.clone(),
        deps,
    };
    remember(key, &e);
    if let Some(file) = file_for(key) {
        write_atomically(&file, &encode(key, &e));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_damage_is_ignored() {
        let spirv: Vec<u8> = [0x0723_0203u32, 0x0001_0000, 0, 1, 0]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let entry = Entry {
            spirv: Arc::from(spirv),
            log: "warning: x\n".into(),
            deps: vec![(PathBuf::from("/inc/a b.h"), 0x1234)],
        };
        let e = encode(b"key", &entry);
        assert_eq!(decode(&e, b"key"), Some(entry));
        assert_eq!(decode(&e, b"other"), None);
        for n in 0..e.len() {
            assert_eq!(decode(&e[..n], b"key"), None, "truncated to {n}");
        }
        for i in 0..e.len() {
            let mut v = e.clone();
            v[i] ^= 0x10;
            assert_eq!(decode(&v, b"key"), None, "byte {i} changed");
        }
    }
}
