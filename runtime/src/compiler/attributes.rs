//! CL_KERNEL_ATTRIBUTES of kernels compiled from OpenCL C: "any attributes
//! specified using the `__attribute__` OpenCL C qualifier ... with the kernel
//! function declaration in the program source ... When multiple attributes
//! are present, they are returned as a single, space delimited string."
//!
//! Every kernel of a module the front end makes gets an OpString
//! `opencl_c_attributes.<kernel>.<attributes>` (the jit reads it into
//! [`clift_jit::KernelInfo::attributes`]); kernels that reach clift as SPIR-V
//! have none, and their string is empty. The attributes are written from
//! clang's kernel metadata, in OpenCL C spelling: `vec_type_hint(<type>)`
//! (the SPIR-V VecTypeHint mode loses an integer type's signedness, the
//! metadata keeps it), `work_group_size_hint(x,y,z)`,
//! `reqd_work_group_size(x,y,z)` and `intel_reqd_sub_group_size(n)`. clang
//! is asked for the metadata only when the module has one of the execution
//! modes these attributes become; without them every string is empty.

use std::collections::HashMap;

use super::arg_info::{attached, kernel_definitions, metadata_tuples};
use clift_jit::spirv::edit::{instructions, words_of};

/// The prefix of the OpStrings (the jit reads the same).
pub const PREFIX: &str = "opencl_c_attributes";

/// OpExecutionMode and OpExecutionModeId.
const OP_EXECUTION_MODE: [u32; 2] = [16, 331];
/// LocalSize, LocalSizeHint, VecTypeHint, SubgroupSize, LocalSizeId,
/// LocalSizeHintId: the modes a kernel attribute becomes.
const ATTRIBUTE_MODES: [u32; 6] = [17, 18, 30, 35, 38, 39];
/// OpEntryPoint.
const OP_ENTRY_POINT: u32 = 15;

/// Whether `module` gives any kernel an execution mode that comes from a
/// kernel attribute.
pub fn has_attribute_modes(module: &[u8]) -> bool {
    let Some(words) = words_of(module) else {
        return false;
    };
    let found = instructions(&words)
        .any(|(at, op, n)| OP_EXECUTION_MODE.contains(&op) && n >= 3 && ATTRIBUTE_MODES.contains(&words[at + 2]));
    found
}

/// The names of the module's entry points.
fn entry_points(module: &[u8]) -> Vec<String> {
    let Some(words) = words_of(module) else {
        return Vec::new();
    };
    let names = instructions(&words)
        .filter(|&(_, op, n)| op == OP_ENTRY_POINT && n >= 4)
        .map(|(at, _, n)| {
            let bytes: Vec<u8> = words[at + 3..at + n]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .take_while(|&b| b != 0)
                .collect();
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .collect();
    names
}

/// One OpString per kernel of `module`: its attributes as `metadata`
/// (clang's LLVM IR, when it was asked for) records them.
pub fn attribute_strings(module: &[u8], metadata: Option<&str>) -> Vec<String> {
    let by_kernel: HashMap<String, String> = metadata.map(kernel_attributes).unwrap_or_default();
    entry_points(module)
        .into_iter()
        .map(|k| {
            let text = by_kernel.get(&k).map_or("", String::as_str);
            format!("{PREFIX}.{k}.{text}")
        })
        .collect()
}

/// Each kernel's attributes, from the metadata its `define` line attaches.
fn kernel_attributes(ll: &str) -> HashMap<String, String> {
    let tuples = metadata_tuples(ll);
    kernel_definitions(ll)
        .into_iter()
        .map(|(name, line)| {
            let mut list = Vec::new();
            if let Some(t) = attached(line, "!vec_type_hint ", &tuples).and_then(vec_type_name) {
                list.push(format!("vec_type_hint({t})"));
            }
            for md in [
                "work_group_size_hint",
                "reqd_work_group_size",
                "intel_reqd_sub_group_size",
            ] {
                if let Some(v) = attached(line, &format!("!{md} "), &tuples).and_then(integers) {
                    list.push(format!("{md}({v})"));
                }
            }
            (name, list.join(" "))
        })
        .collect()
}

/// `i32 1, i32 2, i32 4}` as `1,2,4`.
fn integers(body: &str) -> Option<String> {
    let items: Vec<&str> = body.trim_end().strip_suffix('}')?.split(',').map(str::trim).collect();
    let values: Option<Vec<u64>> = items
        .iter()
        .map(|i| i.strip_prefix("i32 ").and_then(|v| v.parse().ok()))
        .collect();
    Some(values?.iter().map(u64::to_string).collect::<Vec<_>>().join(","))
}

/// The OpenCL C type of a `vec_type_hint` tuple (`<2 x i8> undef, i32 0}`:
/// an LLVM type, an undefined value of it, and whether an integer type is
/// signed): `uchar2`.
fn vec_type_name(body: &str) -> Option<String> {
    let (ty, rest) = body.split_once(" undef, i32 ")?;
    let signed = rest.trim_end().strip_suffix('}')?.trim() == "1";
    let (count, element) = match ty.strip_prefix('<').and_then(|v| v.strip_suffix('>')) {
        Some(v) => {
            let (n, e) = v.split_once(" x ")?;
            (Some(n.parse::<u32>().ok()?), e)
        }
        None => (None, ty),
    };
    let base = match element {
        "i8" => "char",
        "i16" => "short",
        "i32" => "int",
        "i64" => "long",
        "half" => "half",
        "float" => "float",
        "double" => "double",
        _ => return None,
    };
    let unsigned = !signed && element.starts_with('i');
    let count = match count {
        None => String::new(),
        Some(n @ (2 | 3 | 4 | 8 | 16)) => n.to_string(),
        Some(_) => return None,
    };
    Some(format!("{}{base}{count}", if unsigned { "u" } else { "" }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module of two kernels, "a" with a LocalSize mode, and "b".
    fn module(with_mode: bool) -> Vec<u8> {
        let name = |s: &str| -> Vec<u32> {
            let mut b = s.as_bytes().to_vec();
            b.push(0);
            b.resize(b.len().next_multiple_of(4), 0);
            b.chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect()
        };
        let mut w = vec![0x0723_0203u32, 0x0001_0000, 0, 10, 0];
        for (id, n) in [(1u32, "a"), (2, "b")] {
            let nm = name(n);
            w.push(((3 + nm.len() as u32) << 16) | OP_ENTRY_POINT);
            w.extend([6, id]);
            w.extend(nm);
        }
        if with_mode {
            w.extend([(6 << 16) | 16, 1, 17, 1, 2, 3]);
        }
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn every_kernel_gets_a_string_empty_without_attributes() {
        let m = module(false);
        assert!(!has_attribute_modes(&m));
        assert_eq!(
            attribute_strings(&m, None),
            ["opencl_c_attributes.a.", "opencl_c_attributes.b."]
        );
        assert!(has_attribute_modes(&module(true)));
    }

    #[test]
    fn attributes_come_from_kernel_metadata_in_opencl_c_spelling() {
        let ll = "define spir_kernel void @a(i32 addrspace(1)* %0) #0 !kernel_arg_addr_space !4 \
                  !vec_type_hint !8 !work_group_size_hint !9 !reqd_work_group_size !10 {\n\
                  define spir_kernel void @b() #0 !vec_type_hint !11 !intel_reqd_sub_group_size !12 {\n\
                  !8 = !{<2 x i8> undef, i32 0}\n!9 = !{i32 4, i32 5, i32 6}\n!10 = !{i32 1, i32 2, i32 3}\n\
                  !11 = !{float undef, i32 0}\n!12 = !{i32 16}\n";
        assert_eq!(
            attribute_strings(&module(true), Some(ll)),
            [
                "opencl_c_attributes.a.vec_type_hint(uchar2) work_group_size_hint(4,5,6) reqd_work_group_size(1,2,3)",
                "opencl_c_attributes.b.vec_type_hint(float) intel_reqd_sub_group_size(16)",
            ]
        );
    }

    #[test]
    fn vec_type_hint_types() {
        for (body, name) in [
            ("<2 x i8> undef, i32 0}", Some("uchar2")),
            ("<2 x i8> undef, i32 1}", Some("char2")),
            ("<4 x i32> undef, i32 1}", Some("int4")),
            ("<16 x i64> undef, i32 0}", Some("ulong16")),
            ("<3 x double> undef, i32 0}", Some("double3")),
            ("<8 x half> undef, i32 0}", Some("half8")),
            ("i16 undef, i32 1}", Some("short")),
            ("i16 undef, i32 0}", Some("ushort")),
            ("float undef, i32 1}", Some("float")),
            ("<5 x i32> undef, i32 0}", None),
            ("i1 undef, i32 0}", None),
        ] {
            assert_eq!(vec_type_name(body).as_deref(), name, "{body}");
        }
    }
}
