//! What the API reports about each kernel of a validated module: its
//! arguments (kind, size, qualifiers, names, type names), the execution
//! modes its attributes became, its OpenCL C attribute list (when the
//! module records one), and memory sizes.

use std::collections::HashSet;

use rspirv::dr::Operand;
use spirv::{Decoration, ExecutionMode, FunctionParameterAttribute, Op, StorageClass};

use crate::interface::{ArgInfo, ArgKind, BuiltModule, KernelInfo};
use crate::spirv::{ConstValue, EntryPoint, Id, IdKind, Module, Type};
use crate::validate::calls;
use crate::validate::env::{const_int, vec_type_hint};

/// CL_KERNEL_ARG_ADDRESS_* (cl.h).
pub const ADDRESS_GLOBAL: u32 = 0x119B;
pub const ADDRESS_LOCAL: u32 = 0x119C;
pub const ADDRESS_CONSTANT: u32 = 0x119D;
pub const ADDRESS_PRIVATE: u32 = 0x119E;
/// CL_KERNEL_ARG_ACCESS_* (cl.h).
pub const ACCESS_READ_ONLY: u32 = 0x11A0;
pub const ACCESS_WRITE_ONLY: u32 = 0x11A1;
pub const ACCESS_READ_WRITE: u32 = 0x11A2;
pub const ACCESS_NONE: u32 = 0x11A3;
/// CL_KERNEL_ARG_TYPE_* (cl.h).
pub const TYPE_CONST: u64 = 1;
pub const TYPE_RESTRICT: u64 = 1 << 1;
pub const TYPE_VOLATILE: u64 = 1 << 2;
pub const TYPE_PIPE: u64 = 1 << 3;

/// The kernels and program-scope sizes of a validated, laid-out module.
pub fn extract(m: &Module) -> BuiltModule {
    let graph = calls::call_graph(m);
    let strings: Vec<&str> = m
        .insts
        .iter()
        .filter(|i| i.op == Op::String)
        .filter_map(|i| i.string(0))
        .collect();
    let memory: Vec<(u64, Vec<Id>)> = (0..m.functions.len()).map(|f| function_memory(m, f)).collect();
    let blocks: HashSet<usize> = crate::block_invoke::block_kernels(m).into_values().collect();
    let kernels = m
        .entry_points
        .iter()
        .enumerate()
        .filter_map(|(k, ep)| kernel(m, &graph, &strings, &memory, ep, blocks.contains(&k)))
        .collect();
    let global_variable_total_size = m
        .globals
        .iter()
        .filter(|g| g.storage == StorageClass::CrossWorkgroup)
        .filter_map(|g| m.pointer(g.ty).and_then(|(_, p)| m.layout(p)))
        .map(|l| l.size as usize)
        .sum();
    BuiltModule {
        kernels,
        global_variable_total_size,
    }
}

/// The comma-separated list an llvm-spirv OpString carries for `kernel`
/// ("kernel_arg_type.<kernel>.<t1>,<t2>," and "kernel_arg_type_qual...").
fn arg_strings(strings: &[&str], prefix: &str, kernel: &str) -> Option<Vec<String>> {
    let head = format!("{prefix}.{kernel}.");
    strings.iter().find_map(|s| {
        let rest = s.strip_prefix(&head)?;
        let mut v: Vec<String> = rest.split(',').map(str::to_string).collect();
        if v.last().is_some_and(String::is_empty) {
            v.pop();
        }
        Some(v)
    })
}

/// The prefix of the OpStrings in which clift's OpenCL C front end records
/// each kernel's attributes: `opencl_c_attributes.<kernel>.<attributes>`.
pub const ATTRIBUTES_PREFIX: &str = "opencl_c_attributes";

/// The attribute list clift's OpenCL C front end recorded for `kernel`
/// (`opencl_c_attributes.<kernel>.<attributes>`).
fn opencl_c_attributes(strings: &[&str], kernel: &str) -> Option<String> {
    let head = format!("{ATTRIBUTES_PREFIX}.{kernel}.");
    strings.iter().find_map(|s| s.strip_prefix(&head)).map(str::to_string)
}

fn kernel(
    m: &Module,
    graph: &[Vec<(u32, u32)>],
    strings: &[&str],
    memory: &[(u64, Vec<Id>)],
    ep: &EntryPoint,
    block_invoke: bool,
) -> Option<KernelInfo> {
    let f = m.function(ep.function)?;
    let findex = m.info(ep.function)?.index;
    let type_names = arg_strings(strings, "kernel_arg_type", &ep.name);
    let type_quals = arg_strings(strings, "kernel_arg_type_qual", &ep.name);
    // clift's OpenCL C front end records the source's parameter names too
    // (llvm-spirv names only some of a kernel's parameters).
    let arg_names = arg_strings(strings, "kernel_arg_name", &ep.name);
    let args = f
        .params
        .iter()
        .enumerate()
        .map(|(k, &p)| {
            let mut a = arg_info(m, p, k, type_names.as_ref(), type_quals.as_ref(), arg_names.as_ref())?;
            if block_invoke && k == 0 {
                (a.kind, a.size, a.address_qualifier) = (ArgKind::BlockLiteral, 8, ADDRESS_PRIVATE);
            }
            Some(a)
        })
        .collect::<Option<Vec<_>>>()?;
    let (reqd, hint, vth) = size_hints(m, ep);
    let (private, local) = kernel_memory(m, graph, memory, findex);
    Some(KernelInfo {
        name: ep.name.clone(),
        args,
        attributes: opencl_c_attributes(strings, &ep.name).unwrap_or_default(),
        reqd_work_group_size: reqd,
        work_group_size_hint: hint,
        vec_type_hint: vth,
        local_mem_size: local,
        private_mem_size: private,
        block_invoke,
        enqueues: uses_device_enqueue(m, graph, findex),
    })
}

/// Whether function `findex` or one it calls uses device-side enqueue
/// (see [`KernelInfo::enqueues`]).
fn uses_device_enqueue(m: &Module, graph: &[Vec<(u32, u32)>], findex: u32) -> bool {
    calls::reachable(graph, findex).into_iter().any(|fi| {
        m.functions.get(fi as usize).is_some_and(|f| {
            f.blocks.iter().any(|b| {
                b.body()
                    .any(|i| crate::block_invoke::is_device_enqueue(m.insts[i as usize].op))
            })
        })
    })
}

/// `reqd_work_group_size`, `work_group_size_hint` and `vec_type_hint`.
type SizeHints = (Option<[usize; 3]>, Option<[usize; 3]>, Option<String>);

/// What `clGetKernelArgInfo` and the launch need of parameter `p`, the
/// `k`th of its kernel: the names and qualifiers come from the strings
/// clift's OpenCL C front end records when there are any (`type_names`,
/// `type_quals`, `arg_names`), else from the module's decorations and names.
fn arg_info(
    m: &Module,
    p: Id,
    k: usize,
    type_names: Option<&Vec<String>>,
    type_quals: Option<&Vec<String>>,
    arg_names: Option<&Vec<String>>,
) -> Option<ArgInfo> {
    let ty = m.type_of(p)?;
    let has_attr = |a: FunctionParameterAttribute| {
        m.decorations(p).iter().any(|d| {
            d.kind == Decoration::FuncParamAttr
                && matches!(m.deco_params(d).first(), Some(Operand::FunctionParameterAttribute(x)) if *x == a)
        })
    };
    let (kind, size, address) = match m.ty(ty)? {
        Type::Pointer { storage, pointee } => match storage {
            StorageClass::CrossWorkgroup => (ArgKind::GlobalBuffer, 8, ADDRESS_GLOBAL),
            StorageClass::UniformConstant => (ArgKind::ConstantBuffer, 8, ADDRESS_CONSTANT),
            StorageClass::Workgroup => (ArgKind::Local, 8, ADDRESS_LOCAL),
            // A struct passed by value (FuncParamAttr ByVal).
            _ => (
                ArgKind::Value,
                m.layout(*pointee).map_or(0, |l| l.size as usize),
                ADDRESS_PRIVATE,
            ),
        },
        Type::Pipe { .. } => (ArgKind::Pipe, 8, ADDRESS_GLOBAL),
        Type::Queue => (ArgKind::Queue, 8, ADDRESS_PRIVATE),
        Type::Image(_) => (ArgKind::Image, 8, ADDRESS_GLOBAL),
        Type::Sampler => (ArgKind::Sampler, 8, ADDRESS_PRIVATE),
        _ => (
            ArgKind::Value,
            m.layout(ty).map_or(0, |l| l.size as usize),
            ADDRESS_PRIVATE,
        ),
    };
    let mut qual = 0u64;
    match type_quals.and_then(|q| q.get(k)) {
        Some(q) => {
            for w in q.split_whitespace() {
                qual |= match w {
                    "const" => TYPE_CONST,
                    "restrict" => TYPE_RESTRICT,
                    "volatile" => TYPE_VOLATILE,
                    "pipe" => TYPE_PIPE,
                    _ => 0,
                };
            }
        }
        None => {
            if has_attr(FunctionParameterAttribute::NoAlias) {
                qual |= TYPE_RESTRICT;
            }
            if m.decoration(p, Decoration::Volatile).is_some() {
                qual |= TYPE_VOLATILE;
            }
        }
    }
    if kind == ArgKind::ConstantBuffer {
        qual |= TYPE_CONST;
    }
    if kind == ArgKind::Pipe {
        qual |= TYPE_PIPE;
    }
    // "If argument is not an image type and is not declared with the
    // pipe qualifier, CL_KERNEL_ARG_ACCESS_NONE is returned."
    let qualifier = |a: spirv::AccessQualifier| match a {
        spirv::AccessQualifier::ReadOnly => ACCESS_READ_ONLY,
        spirv::AccessQualifier::WriteOnly => ACCESS_WRITE_ONLY,
        spirv::AccessQualifier::ReadWrite => ACCESS_READ_WRITE,
    };
    let access = match m.ty(ty) {
        Some(Type::Pipe { access }) => qualifier(*access),
        // An image without a qualifier is read_only in OpenCL C.
        Some(Type::Image(t)) => t.access.map_or(ACCESS_READ_ONLY, qualifier),
        _ => ACCESS_NONE,
    };
    Some(ArgInfo {
        kind,
        size,
        address_qualifier: address,
        access_qualifier: access,
        type_qualifier: qual,
        name: arg_names
            .and_then(|n| n.get(k))
            .cloned()
            .or_else(|| m.name(p).map(str::to_string)),
        type_name: type_names.and_then(|t| t.get(k)).cloned(),
        image: match m.ty(ty) {
            Some(Type::Image(t)) => Some((image_object_type(t), t.depth == 1)),
            _ => None,
        },
    })
}

/// The image object type (`cl_mem_object_type`) a kernel's image
/// parameter of type `t` takes.
fn image_object_type(t: &crate::spirv::ImageType) -> u32 {
    use clift_builtins::image::image_type as it;
    match (t.dim, t.arrayed) {
        (spirv::Dim::Dim1D, false) => it::IMAGE1D,
        (spirv::Dim::Dim1D, true) => it::IMAGE1D_ARRAY,
        (spirv::Dim::Dim2D, false) => it::IMAGE2D,
        (spirv::Dim::Dim2D, true) => it::IMAGE2D_ARRAY,
        (spirv::Dim::DimBuffer, _) => it::IMAGE1D_BUFFER,
        _ => it::IMAGE3D,
    }
}

/// The work-group sizes and type hint the kernel's execution modes give:
/// `reqd_work_group_size`, `work_group_size_hint`, `vec_type_hint`.
fn size_hints(m: &Module, ep: &EntryPoint) -> SizeHints {
    let (mut reqd, mut hint, mut vth) = (None, None, None);
    for em in m.exec_modes.iter().filter(|e| e.target == ep.function) {
        let sizes = |ids: bool| -> Option<[usize; 3]> {
            let v: Vec<u64> = if ids {
                em.args.iter().map(|&id| const_int(m, id)).collect::<Option<_>>()?
            } else {
                em.args.iter().map(|&x| u64::from(x)).collect()
            };
            Some([*v.first()? as usize, *v.get(1)? as usize, *v.get(2)? as usize])
        };
        match em.mode {
            ExecutionMode::LocalSize | ExecutionMode::LocalSizeId => {
                if let Some(s) = sizes(em.mode == ExecutionMode::LocalSizeId) {
                    reqd = Some(s);
                }
            }
            ExecutionMode::LocalSizeHint | ExecutionMode::LocalSizeHintId => {
                if let Some(s) = sizes(em.mode == ExecutionMode::LocalSizeHintId) {
                    hint = Some(s);
                }
            }
            ExecutionMode::VecTypeHint => {
                if let Some(t) = em.args.first().and_then(|&v| vec_type_hint(v)) {
                    vth = Some(t);
                }
            }
            _ => {}
        }
    }

    (reqd, hint, vth)
}

/// The kernel's private and local memory: the Function variables and
/// __local module variables of every function it may call.
fn kernel_memory(m: &Module, graph: &[Vec<(u32, u32)>], memory: &[(u64, Vec<Id>)], findex: u32) -> (u64, u64) {
    let mut private = 0u64;
    let mut locals: HashSet<Id> = HashSet::new();
    for fi in calls::reachable(graph, findex) {
        if let Some((p, l)) = memory.get(fi as usize) {
            private = private.saturating_add(*p);
            locals.extend(l.iter().copied());
        }
    }
    let local = locals
        .iter()
        .filter_map(|&g| m.global(g).and_then(|g| m.pointer(g.ty)).and_then(|(_, p)| m.layout(p)))
        .fold(0u64, |a, l| a.saturating_add(l.size));

    (private, local)
}

/// Bytes of Function variables of function `f`, and the Workgroup module
/// variables it refers to (directly or through constant expressions).
fn function_memory(m: &Module, f: usize) -> (u64, Vec<Id>) {
    let mut private = 0u64;
    let mut locals: HashSet<Id> = HashSet::new();
    let mut seen_consts: HashSet<Id> = HashSet::new();
    for b in &m.functions[f].blocks {
        for i in b.start + 1..=b.end {
            let inst = &m.insts[i as usize];
            if inst.op == Op::Variable {
                if let Some(l) = inst
                    .result_type
                    .and_then(|t| m.pointer(t))
                    .and_then(|(_, p)| m.layout(p))
                {
                    private = private.saturating_add(l.size);
                }
            }
            let mut stack: Vec<Id> = inst.id_operands().map(|(_, id)| id).collect();
            while let Some(id) = stack.pop() {
                match m.kind(id) {
                    IdKind::Global if m.global(id).is_some_and(|g| g.storage == StorageClass::Workgroup) => {
                        locals.insert(id);
                    }
                    IdKind::Constant if seen_consts.insert(id) => {
                        if let Some(c) = m.constant(id) {
                            if matches!(c.value, ConstValue::Expr | ConstValue::Composite(_)) {
                                stack.extend(m.insts[c.inst as usize].id_operands().map(|(_, x)| x));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    (private, locals.into_iter().collect())
}
