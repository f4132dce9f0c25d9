//! Small edits of the modules llvm-spirv writes (little-endian SPIR-V):
//! kernel argument OpStrings in, parameter names out, capabilities read.

/// The module's words (little-endian SPIR-V only, as llvm-spirv writes).
pub fn words_of(module: &[u8]) -> Option<Vec<u32>> {
    if !module.len().is_multiple_of(4) || module.len() < 20 {
        return None;
    }
    let words: Vec<u32> = module
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    (words[0] == 0x0723_0203).then_some(words)
}

/// The instructions of `words` past the header: (start, opcode, word count).
pub fn instructions(words: &[u32]) -> impl Iterator<Item = (usize, u32, usize)> + '_ {
    let mut at = 5;
    std::iter::from_fn(move || {
        let w = *words.get(at)?;
        let count = (w >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return None;
        }
        let r = (at, w & 0xffff, count);
        at += count;
        Some(r)
    })
}

/// `module` without the OpNames of function parameters (kernel argument
/// names are reported only with -cl-kernel-arg-info).
pub fn strip_parameter_names(module: &[u8]) -> Option<Vec<u8>> {
    let words = words_of(module)?;
    // OpFunctionParameter: result type, result id.
    let params: std::collections::HashSet<u32> = instructions(&words)
        .filter(|&(_, op, n)| op == 55 && n >= 3)
        .map(|(at, _, _)| words[at + 2])
        .collect();
    let mut out = words[..5].to_vec();
    for (at, op, n) in instructions(&words) {
        if op == 5 && n >= 2 && params.contains(&words[at + 1]) {
            continue;
        }
        out.extend_from_slice(&words[at..at + n]);
    }
    Some(out.iter().flat_map(|w| w.to_le_bytes()).collect())
}

/// `module` (little-endian SPIR-V) with an OpString per string added in
/// the debug section. `None` if the module is not one clift can edit.
pub fn insert_strings(module: &[u8], strings: &[String]) -> Option<Vec<u8>> {
    if strings.is_empty() {
        return Some(module.to_vec());
    }
    let mut words = words_of(module)?;
    // Before the first instruction after the entry points and modes.
    let mut at = 5;
    while at < words.len() {
        let op = words[at] & 0xffff;
        let count = (words[at] >> 16) as usize;
        if count == 0 || !matches!(op, 10 | 11 | 14 | 15 | 16 | 17 | 331) {
            break;
        }
        at += count;
    }
    if at > words.len() {
        return None;
    }
    let mut new = Vec::new();
    for s in strings {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        bytes.resize(bytes.len().next_multiple_of(4), 0);
        let count = 2 + bytes.len() / 4;
        if count > 0xffff {
            continue;
        }
        let id = words[3];
        words[3] = id.checked_add(1)?;
        new.push(((count as u32) << 16) | 7);
        new.push(id);
        new.extend(
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
    }
    words.splice(at..at, new);
    Some(words.iter().flat_map(|w| w.to_le_bytes()).collect())
}

/// Whether the module declares capability `cap` (OpCapability).
pub fn declares_capability(module: &[u8], cap: u32) -> bool {
    let Some(words) = words_of(module) else { return false };
    let found = instructions(&words).any(|(at, op, n)| op == 17 && n == 2 && words[at + 1] == cap);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_go_before_the_debug_section() {
        // Capability Kernel; MemoryModel; Name %1 "a".
        let words = [
            0x0723_0203u32,
            0x0001_0000,
            0,
            2,
            0,
            (2 << 16) | 17,
            6,
            (3 << 16) | 14,
            2,
            2,
            (3 << 16) | 5,
            1,
            0x61,
        ];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let out = insert_strings(&bytes, &["abc".into()]).unwrap();
        let w: Vec<u32> = out
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(w[3], 3, "bound raised");
        assert_eq!(&w[10..13], &[(3 << 16) | 7, 2, u32::from_le_bytes(*b"abc\0")]);
        assert_eq!(w[13], (3 << 16) | 5);
    }

    #[test]
    fn capabilities_are_found() {
        // Capability Kernel; Capability Shader; MemoryModel.
        let words = [
            0x0723_0203u32,
            0x0001_0000,
            0,
            1,
            0,
            (2 << 16) | 17,
            6,
            (2 << 16) | 17,
            1,
            (3 << 16) | 14,
            2,
            2,
        ];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert!(declares_capability(&bytes, 6) && declares_capability(&bytes, 1));
        assert!(!declares_capability(&bytes, 2) && !declares_capability(&bytes[..20], 6));
    }
}
