//! Kernel argument information (-cl-kernel-arg-info) from clang's kernel
//! metadata, as the `kernel_arg_*` OpStrings clift's jit reads.

use std::collections::HashMap;

/// Decodes an LLVM IR metadata string body (`\XX` escapes).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if let Some(v) = s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The strings of a metadata tuple line `!{!"a", !"b"}`.
fn tuple_strings(body: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.find("!\"") {
        let tail = &rest[at + 2..];
        let Some(end) = tail.find('"') else { break };
        v.push(unescape(&tail[..end]));
        rest = &tail[end + 1..];
    }
    v
}

/// The metadata tuples of clang's LLVM IR, by id: `!6` -> the text after
/// `!6 = !{`.
pub(super) fn metadata_tuples(ll: &str) -> HashMap<&str, &str> {
    let mut tuples = HashMap::new();
    for line in ll.lines() {
        if let Some((id, body)) = line.split_once(" = !{") {
            if id.starts_with('!') && !id.contains(' ') {
                tuples.insert(id, body);
            }
        }
    }
    tuples
}

/// The kernels clang's LLVM IR defines: (name, the `define` line).
pub(super) fn kernel_definitions(ll: &str) -> Vec<(String, &str)> {
    let mut out = Vec::new();
    for line in ll
        .lines()
        .filter(|l| l.starts_with("define ") && l.contains(" spir_kernel "))
    {
        let Some(at) = line.find('@') else { continue };
        let rest = &line[at + 1..];
        let name = if let Some(q) = rest.strip_prefix('"') {
            match q.find('"') {
                Some(e) => unescape(&q[..e]),
                None => continue,
            }
        } else {
            rest.chars().take_while(|&c| c != '(').collect()
        };
        out.push((name, line));
    }
    out
}

/// The body of the metadata tuple a kernel's `define` line attaches as
/// `md` (`"!kernel_arg_type "`, with the trailing space).
pub(super) fn attached<'a>(line: &str, md: &str, tuples: &HashMap<&str, &'a str>) -> Option<&'a str> {
    let p = line.find(md)?;
    let id: String = line[p + md.len()..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != ',')
        .collect();
    tuples.get(id.as_str()).copied()
}

/// The OpStrings clift's jit reads argument information from
/// (`kernel_arg_type.<kernel>.<t1>,<t2>,`, likewise `kernel_arg_type_qual`
/// and `kernel_arg_name`), from the kernel metadata of clang's LLVM IR.
pub(super) fn arg_info_strings(ll: &str) -> Vec<String> {
    let tuples = metadata_tuples(ll);
    let mut out = Vec::new();
    for (name, line) in kernel_definitions(ll) {
        for (md, prefix) in [
            ("!kernel_arg_type ", "kernel_arg_type"),
            ("!kernel_arg_type_qual ", "kernel_arg_type_qual"),
            ("!kernel_arg_name ", "kernel_arg_name"),
        ] {
            let Some(body) = attached(line, md, &tuples) else {
                continue;
            };
            let list = tuple_strings(body);
            let mut s = format!("{prefix}.{name}.");
            for item in list {
                s.push_str(&item);
                s.push(',');
            }
            out.push(s);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arg_info_comes_from_kernel_metadata() {
        let ll = "define dso_local spir_kernel void @k(i32 addrspace(1)* %a) #0 !kernel_arg_addr_space !4 \
                  !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 !kernel_arg_name !8 {\n\
                  !6 = !{!\"int*\", !\"float4\"}\n!7 = !{!\"const restrict\", !\"\"}\n!8 = !{!\"a\", !\"b\\5Cc\"}\n";
        assert_eq!(
            arg_info_strings(ll),
            [
                "kernel_arg_type.k.int*,float4,",
                "kernel_arg_type_qual.k.const restrict,,",
                "kernel_arg_name.k.a,b\\c,"
            ]
        );
    }
}
