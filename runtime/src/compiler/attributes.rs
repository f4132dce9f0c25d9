//! CL_KERNEL_ATTRIBUTES of kernels compiled from OpenCL C: "any attributes
//! specified using the `__attribute__` OpenCL C qualifier ... with the kernel
//! function declaration in the program source ... When multiple attributes
//! are present, they are returned as a single, space delimited string."
//!
//! Every kernel of a module the front end makes gets an OpString
//! `opencl_c_attributes.<kernel>.<attributes>` (the jit reads it into
//! [`clift_jit::KernelInfo::attributes`]); kernels that reach clift as SPIR-V
//! have no such string, and their attributes are empty. The attributes are written from
//! clang's kernel metadata, in OpenCL C spelling: `vec_type_hint(<type>)`
//! (the SPIR-V VecTypeHint mode loses an integer type's signedness, the
//! metadata keeps it), `work_group_size_hint(x,y,z)`,
//! `reqd_work_group_size(x,y,z)` and `intel_reqd_sub_group_size(n)`. clang
//! is asked for the metadata only when the module has one of the execution
//! modes these attributes become; without them every string is empty.

use std::collections::HashMap;

use clift_jit::kernels::ATTRIBUTES_PREFIX;
use clift_jit::spirv::edit::ExecutionMode;

use super::arg_info::{attached, kernel_definitions, metadata_tuples};

/// The execution modes a kernel attribute becomes (a module with none of
/// them has no attribute to record).
pub const ATTRIBUTE_MODES: [ExecutionMode; 6] = [
    ExecutionMode::LocalSize,
    ExecutionMode::LocalSizeHint,
    ExecutionMode::VecTypeHint,
    ExecutionMode::SubgroupSize,
    ExecutionMode::LocalSizeId,
    ExecutionMode::LocalSizeHintId,
];

/// One OpString per kernel, in the order of `kernels` (the module's entry
/// points): its attributes as `metadata` (clang's LLVM IR, when it was
/// asked for) records them.
pub fn attribute_strings(kernels: &[String], metadata: Option<&str>) -> Vec<String> {
    let by_kernel: HashMap<String, String> = metadata.map(kernel_attributes).unwrap_or_default();
    kernels
        .iter()
        .map(|k| {
            let text = by_kernel.get(k).map_or("", String::as_str);
            format!("{ATTRIBUTES_PREFIX}.{k}.{text}")
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

    fn kernels() -> Vec<String> {
        vec!["a".into(), "b".into()]
    }

    #[test]
    fn every_kernel_gets_a_string_empty_without_attributes() {
        assert_eq!(
            attribute_strings(&kernels(), None),
            ["opencl_c_attributes.a.", "opencl_c_attributes.b."]
        );
    }

    #[test]
    fn attributes_come_from_kernel_metadata_in_opencl_c_spelling() {
        let ll = "define spir_kernel void @a(i32 addrspace(1)* %0) #0 !kernel_arg_addr_space !4 \
                  !vec_type_hint !8 !work_group_size_hint !9 !reqd_work_group_size !10 {\n\
                  define spir_kernel void @b() #0 !vec_type_hint !11 !intel_reqd_sub_group_size !12 {\n\
                  !8 = !{<2 x i8> undef, i32 0}\n!9 = !{i32 4, i32 5, i32 6}\n!10 = !{i32 1, i32 2, i32 3}\n\
                  !11 = !{float undef, i32 0}\n!12 = !{i32 16}\n";
        assert_eq!(
            attribute_strings(&kernels(), Some(ll)),
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
