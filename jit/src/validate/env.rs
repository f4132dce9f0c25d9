//! The OpenCL SPIR-V environment rules (OpenCL SPIR-V Environment 2.2,
//! "Validation Rules", "Kernels", "Required Capabilities", "Built-in
//! Variables") for clift's device: OpenCL 2.2 full profile, 64 address bits,
//! cl_khr_fp64, cl_khr_fp16, no images.

use std::collections::{HashMap, HashSet};

use rspirv::dr::Operand;
use rspirv::grammar::INSTRUCTION_TABLE;
use spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel, FunctionParameterAttribute,
    LinkageType, MemoryModel, Op, StorageClass,
};

use super::Diags;
use crate::spirv::{ConstValue, IdKind, Module, Type, NONE};

/// The capabilities clift's device advertises (OpenCL 2.2 full profile with
/// cl_khr_fp64 and cl_khr_fp16, without images), with the SPIR-V version each needs.
fn advertised(c: Capability) -> Option<(u8, u8)> {
    use Capability::*;
    match c {
        Addresses | Float16Buffer | Float16 | Float64 | Int8 | Int16 | Int64 | Int64Atomics | Kernel | Linkage
        | Vector16 | GenericPointer | Groups | DeviceEnqueue | Pipes => Some((1, 0)),
        // Images (CL_DEVICE_IMAGE_SUPPORT): "If the OpenCL environment
        // supports the ImageBasic capability, then the following
        // capabilities must also be supported: LiteralSampler, Sampled1D,
        // Image1D, SampledBuffer, ImageBuffer, ImageReadWrite".
        ImageBasic | ImageReadWrite | LiteralSampler | Sampled1D | Image1D | SampledBuffer | ImageBuffer => {
            Some((1, 0))
        }
        SubgroupDispatch | PipeStorage => Some((1, 1)),
        // cl_khr_subgroup_non_uniform_vote, _ballot, _non_uniform_arithmetic,
        // _shuffle, _shuffle_relative and _clustered_reduce.
        GroupNonUniform
        | GroupNonUniformVote
        | GroupNonUniformBallot
        | GroupNonUniformArithmetic
        | GroupNonUniformShuffle
        | GroupNonUniformShuffleRelative
        | GroupNonUniformClustered => Some((1, 3)),
        _ => None,
    }
}

/// Capabilities that declaring `c` implicitly declares.
fn implied(c: Capability) -> &'static [Capability] {
    use Capability::*;
    match c {
        Vector16 | Float16Buffer | DeviceEnqueue | Pipes => &[Kernel],
        GenericPointer => &[Addresses],
        SubgroupDispatch => &[DeviceEnqueue, Kernel],
        PipeStorage => &[Pipes, Kernel],
        ImageBasic | LiteralSampler => &[Kernel],
        ImageReadWrite => &[ImageBasic, Kernel],
        Image1D => &[Sampled1D],
        ImageBuffer => &[SampledBuffer],
        GroupNonUniformVote
        | GroupNonUniformBallot
        | GroupNonUniformArithmetic
        | GroupNonUniformShuffle
        | GroupNonUniformShuffleRelative
        | GroupNonUniformClustered => &[GroupNonUniform],
        _ => &[],
    }
}

/// Why capability `c` is refused.
fn refusal(c: Capability) -> String {
    use Capability::*;
    let why = match c {
        ImageMipmap => "mipmapped images (cl_khr_mipmap_image) are not supported",
        ImageMSArray
        | StorageImageExtendedFormats
        | ImageQuery
        | ImageGatherExtended
        | ImageCubeArray
        | ImageRect
        | SampledRect
        | SampledCubeArray
        | StorageImageMultisample
        | StorageImageReadWithoutFormat
        | StorageImageWriteWithoutFormat => "OpenCL images do not use it",
        Shader | Matrix | Geometry | Tessellation => "it belongs to graphics shaders, not OpenCL kernels",
        _ => "the device does not advertise it",
    };
    format!("capability {c:?} is not supported: {why}")
}

/// Extensions a module may declare with OpExtension: the SPIR-V ones
/// clift takes (their instructions or decorations need nothing from the
/// lowering), and the OpenCL extensions clift's device reports that the
/// OpenCL SPIR-V environment says a module declares that way ("OpExtension
/// \"cl_khr_extension_name\"": half and double capabilities, 64-bit
/// integer atomics).
const EXTENSIONS: &[&str] = &[
    "SPV_KHR_no_integer_wrap_decoration",
    "cl_khr_fp16",
    "cl_khr_fp64",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
];

/// The declared capabilities with what they imply.
pub struct Caps(Vec<Capability>);

impl Caps {
    pub fn of(m: &Module) -> Caps {
        let mut v: Vec<Capability> = Vec::new();
        for &(c, _) in &m.capabilities {
            for &x in std::iter::once(&c).chain(implied(c)) {
                if !v.contains(&x) {
                    v.push(x);
                }
            }
        }
        Caps(v)
    }
    pub fn has(&self, c: Capability) -> bool {
        self.0.contains(&c)
    }
}

/// The module-level environment rules.
pub fn check(m: &Module, d: &mut Diags) {
    let caps = Caps::of(m);
    for &(c, i) in &m.capabilities {
        match advertised(c) {
            None => d.at(m, i, refusal(c)),
            Some(v) if m.version < v => d.at(
                m,
                i,
                format!(
                    "capability {c:?} needs SPIR-V {}.{}; the module is SPIR-V {}.{}",
                    v.0, v.1, m.version.0, m.version.1
                ),
            ),
            Some(_) => {}
        }
    }
    for &i in &m.extensions {
        let name = m.insts[i as usize].string(0).unwrap_or("");
        if !EXTENSIONS.contains(&name) {
            d.at(m, i, format!("extension \"{name}\" is not supported by clift"));
        }
    }
    for imp in &m.ext_imports {
        if imp.name != "OpenCL.std" {
            d.at(
                m,
                imp.inst,
                format!(
                    "extended instruction set \"{}\" is not supported: OpenCL takes only \"OpenCL.std\"",
                    imp.name
                ),
            );
        }
    }
    memory_model(m, &caps, d);
    instruction_capabilities(m, &caps, d);
    type_rules(m, &caps, d);
    globals(m, d);
    super::calls::imports(m, d);
    decorations(m, d);
    entry_points(m, d);
    execution_modes(m, d);
}

fn memory_model(m: &Module, caps: &Caps, d: &mut Diags) {
    let Some((i, a, mm)) = m.memory_model else {
        d.header("the module has no OpMemoryModel");
        return;
    };
    match a {
        AddressingModel::Physical64 => {
            if !caps.has(Capability::Addresses) {
                d.at(m, i, "the Physical64 addressing model needs the Addresses capability, which the module does not declare");
            }
        }
        AddressingModel::Physical32 => d.at(
            m,
            i,
            "the Physical32 addressing model is for devices with 32 address bits: this device has 64 address bits (CL_DEVICE_ADDRESS_BITS is 64), so the module must use Physical64",
        ),
        other => d.at(m, i, format!("the {other:?} addressing model is not allowed in OpenCL: this device takes Physical64")),
    }
    if mm != MemoryModel::OpenCL {
        d.at(
            m,
            i,
            format!("the {mm:?} memory model is not allowed: OpenCL modules use the OpenCL memory model"),
        );
    } else if !caps.has(Capability::Kernel) {
        d.at(
            m,
            i,
            "the OpenCL memory model needs the Kernel capability, which the module does not declare",
        );
    }
}

/// Every instruction whose grammar names capabilities needs one of them.
fn instruction_capabilities(m: &Module, caps: &Caps, d: &mut Diags) {
    let mut last: Option<(Op, bool)> = None;
    for (i, inst) in m.insts.iter().enumerate() {
        let ok = match last {
            Some((op, ok)) if op == inst.op => ok,
            _ => {
                let ok = match INSTRUCTION_TABLE.lookup_opcode(inst.op as u32) {
                    Some(g) => g.capabilities.is_empty() || g.capabilities.iter().any(|&c| caps.has(c)),
                    None => true,
                };
                last = Some((inst.op, ok));
                ok
            }
        };
        if !ok {
            if let Some(g) = INSTRUCTION_TABLE.lookup_opcode(inst.op as u32) {
                let names: Vec<String> = g.capabilities.iter().map(|c| format!("{c:?}")).collect();
                d.at(
                    m,
                    i as u32,
                    format!(
                        "{} needs one of the capabilities {}, which the module does not declare",
                        inst.opname(),
                        names.join(", ")
                    ),
                );
            }
        }
        if d.full() {
            return;
        }
    }
}

/// Types: integer widths and signedness, float widths, vector sizes,
/// storage classes, and 16-bit floats only behind pointers.
fn type_rules(m: &Module, caps: &Caps, d: &mut Diags) {
    for t in &m.types {
        let i = t.inst;
        match &t.ty {
            Type::Int { width, signed } => {
                let need = match width {
                    8 => Some(Capability::Int8),
                    16 => Some(Capability::Int16),
                    32 => None,
                    64 => Some(Capability::Int64),
                    w => {
                        d.at(m, i, format!("OpTypeInt width {w} is not supported (8, 16, 32 and 64 are)"));
                        continue;
                    }
                };
                if let Some(c) = need {
                    if !caps.has(c) {
                        d.at(m, i, format!("{width}-bit integers need the {c:?} capability, which the module does not declare"));
                    }
                }
                if *signed {
                    d.at(m, i, "OpTypeInt must have Signedness 0 in OpenCL (no signedness semantics)");
                }
            }
            Type::Float { width } => match width {
                32 => {}
                // With cl_khr_fp16 half values are allowed under Float16 or
                // Float16Buffer: llvm-spirv declares only Float16Buffer for
                // OpenCL C half arithmetic (spirv-val accepts that too).
                16 => {
                    if !caps.has(Capability::Float16Buffer) && !caps.has(Capability::Float16) {
                        d.at(m, i, "16-bit floats need the Float16Buffer or Float16 capability, which the module does not declare");
                    }
                }
                64 if !caps.has(Capability::Float64) => d.at(
                    m,
                    i,
                    "64-bit floats (double) need the Float64 capability (cl_khr_fp64), which the module does not declare",
                ),
                64 => {}
                w => d.at(m, i, format!("OpTypeFloat width {w} is not supported (16, 32 and 64 are)")),
            },
            Type::Vector { component, count } => {
                if !matches!(m.ty(*component), Some(Type::Bool | Type::Int { .. } | Type::Float { .. })) {
                    d.at(m, i, format!("vector component type {} must be a scalar (bool, integer or float)", m.show_type(*component)));
                }
                match count {
                    2..=4 => {}
                    8 | 16 => {
                        if !caps.has(Capability::Vector16) {
                            d.at(m, i, format!("{count}-component vectors need the Vector16 capability, which the module does not declare"));
                        }
                    }
                    n => d.at(m, i, format!("vectors of {n} components are not supported (2, 3, 4, 8 and 16 are)")),
                }
            }
            Type::Pointer { storage, .. } => storage_class(m, caps, i, *storage, d),
            Type::Image(img) => {
                if let Err(rule) = image_type(m, caps, img) {
                    d.at(m, i, rule);
                }
            }
            Type::Sampler | Type::SampledImage { .. } if !caps.has(Capability::ImageBasic) => {
                d.at(m, i, "sampler types need the ImageBasic capability, which the module does not declare")
            }
            Type::SampledImage { image } if !matches!(m.ty(*image), Some(Type::Image(_))) => {
                d.at(m, i, format!("the image type of a sampled image type must be an OpTypeImage, not {}", m.show_type(*image)))
            }
            _ => {}
        }
        if d.full() {
            return;
        }
    }
}

/// The OpenCL SPIR-V environment's rules for OpTypeImage ("Validation
/// Rules" and the image types of "Image-Related Data Types") and the
/// capabilities each dimension needs.
fn image_type(m: &Module, caps: &Caps, t: &crate::spirv::ImageType) -> Result<(), String> {
    use spirv::Dim;
    if !caps.has(Capability::ImageBasic) {
        return Err("image types need the ImageBasic capability, which the module does not declare".into());
    }
    if !matches!(m.ty(t.sampled_type), Some(Type::Void)) {
        return Err(format!(
            "the Sampled Type of an image must be OpTypeVoid, not {}",
            m.show_type(t.sampled_type)
        ));
    }
    if t.sampled != 0 {
        return Err(format!("Sampled must be 0 in OpenCL (it is {})", t.sampled));
    }
    if t.multisampled {
        return Err("MS must be 0: multisampled images are not supported".into());
    }
    if t.format != spirv::ImageFormat::Unknown {
        return Err(format!(
            "the Image Format must be Unknown in OpenCL, not {:?}",
            t.format
        ));
    }
    let Some(access) = t.access else {
        return Err("an image type must have an Access Qualifier in OpenCL".into());
    };
    let (need, arrays, depth) = match t.dim {
        Dim::Dim1D => (Capability::Sampled1D, true, false),
        Dim::Dim2D => (Capability::ImageBasic, true, true),
        Dim::Dim3D => (Capability::ImageBasic, false, false),
        Dim::DimBuffer => (Capability::SampledBuffer, false, false),
        d => {
            return Err(format!(
                "image dimension {d:?} is not an OpenCL one (1D, 2D, 3D and Buffer are)"
            ))
        }
    };
    if !caps.has(need) {
        return Err(format!(
            "{:?} images need the {need:?} capability, which the module does not declare",
            t.dim
        ));
    }
    if t.arrayed && !arrays {
        return Err(format!("Arrayed may only be 1 for 1D and 2D images, not {:?}", t.dim));
    }
    match t.depth {
        0 => {}
        1 if depth => {}
        1 => return Err(format!("depth images are 2D (or 2D arrays), not {:?}", t.dim)),
        v => return Err(format!("Depth must be 0 or 1 in OpenCL (it is {v})")),
    }
    if access == spirv::AccessQualifier::ReadWrite && !caps.has(Capability::ImageReadWrite) {
        return Err("read_write images need the ImageReadWrite capability, which the module does not declare".into());
    }
    Ok(())
}

fn storage_class(m: &Module, caps: &Caps, i: u32, s: StorageClass, d: &mut Diags) {
    use StorageClass::*;
    match s {
        UniformConstant | Input | Workgroup | CrossWorkgroup | Function => {}
        Generic => {
            if !caps.has(Capability::GenericPointer) {
                d.at(m, i, "the Generic storage class needs the GenericPointer capability, which the module does not declare");
            }
        }
        other => d.at(
            m,
            i,
            format!(
                "storage class {other:?} is not allowed in OpenCL (UniformConstant, Input, Workgroup, CrossWorkgroup, Function and Generic are)"
            ),
        ),
    }
}

/// Module-scope variables: storage classes, built-ins, imports.
fn globals(m: &Module, d: &mut Diags) {
    for g in &m.globals {
        let i = g.inst;
        match m.pointer(g.ty) {
            None => {
                d.at(
                    m,
                    i,
                    format!("OpVariable's result type {} must be a pointer type", m.show_type(g.ty)),
                );
                continue;
            }
            Some((s, _)) if s != g.storage => {
                d.at(
                    m,
                    i,
                    format!(
                        "OpVariable's storage class {:?} differs from its pointer type's {s:?}",
                        g.storage
                    ),
                );
                continue;
            }
            _ => {}
        }
        let builtin = m.decoration(g.id, Decoration::BuiltIn).is_some();
        match g.storage {
            StorageClass::UniformConstant | StorageClass::CrossWorkgroup | StorageClass::Workgroup => {}
            StorageClass::Input => {
                if !builtin {
                    d.at(
                        m,
                        i,
                        "a module-scope Input variable must be a built-in variable (decorated BuiltIn)",
                    );
                }
            }
            StorageClass::Function => {
                d.at(m, i, "a module-scope OpVariable cannot have the Function storage class");
            }
            other => {
                d.at(
                    m,
                    i,
                    format!("module-scope variables cannot have the {other:?} storage class"),
                );
            }
        }
        if g.storage == StorageClass::Workgroup && g.init.is_some_and(|x| !undefined(m, x)) {
            d.at(m, i, "a Workgroup (__local) variable cannot have an initializer");
        }
        if !builtin {
            if let Some(dec) = m.decoration(g.id, Decoration::LinkageAttributes) {
                if matches!(
                    m.deco_params(dec).get(1),
                    Some(Operand::LinkageType(LinkageType::Import))
                ) {
                    let name = match m.deco_params(dec).first() {
                        Some(Operand::LiteralString(n)) => n.as_str(),
                        _ => "",
                    };
                    d.at(
                        m,
                        i,
                        format!(
                            "unresolved symbol \"{name}\": the variable is imported (LinkageAttributes Import) and no module defines it; link it with clLinkProgram"
                        ),
                    );
                }
            }
        }
    }
}

/// Whether constant `id` is undefined: OpUndef, or a composite of undefined
/// parts (what llvm-spirv writes for LLVM's `undef` initializer of a
/// `__local` variable, which initializes nothing).
fn undefined(m: &Module, id: u32) -> bool {
    let mut stack = vec![id];
    let mut seen = HashSet::new();
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        match m.kind(x) {
            IdKind::Undef => {}
            IdKind::Constant => match m.constant(x).map(|c| &c.value) {
                Some(ConstValue::Composite(parts)) => stack.extend(parts.iter().copied()),
                _ => return false,
            },
            _ => return false,
        }
    }
    true
}

/// The type of size_t and of each OpenCL built-in variable.
enum BuiltInShape {
    /// A vector of 3 size_t (64-bit integers).
    Size3,
    /// A size_t.
    Size,
    /// A 32-bit integer.
    U32,
    /// A vector of 4 32-bit integers (a sub-group mask, `uint4`).
    U32x4,
}

fn builtin_shape(b: BuiltIn) -> Option<BuiltInShape> {
    use BuiltIn::*;
    Some(match b {
        GlobalSize
        | GlobalInvocationId
        | WorkgroupSize
        | EnqueuedWorkgroupSize
        | LocalInvocationId
        | NumWorkgroups
        | WorkgroupId
        | GlobalOffset => BuiltInShape::Size3,
        GlobalLinearId | LocalInvocationIndex => BuiltInShape::Size,
        WorkDim
        | SubgroupSize
        | SubgroupMaxSize
        | NumSubgroups
        | NumEnqueuedSubgroups
        | SubgroupId
        | SubgroupLocalInvocationId => BuiltInShape::U32,
        SubgroupEqMask | SubgroupGeMask | SubgroupGtMask | SubgroupLeMask | SubgroupLtMask => BuiltInShape::U32x4,
        _ => return None,
    })
}

/// Decorations clift knows.
fn known_decoration(k: Decoration) -> bool {
    use Decoration::*;
    matches!(
        k,
        SpecId
            | Restrict
            | Aliased
            | Volatile
            | Constant
            | Coherent
            | NonWritable
            | NonReadable
            | SaturatedConversion
            | FuncParamAttr
            | FPRoundingMode
            | FPFastMathMode
            | LinkageAttributes
            | Alignment
            | MaxByteOffset
            | AlignmentId
            | MaxByteOffsetId
            | BuiltIn
            | CPacked
            | Offset
            | NoSignedWrap
            | NoUnsignedWrap
    )
}

fn decorations(m: &Module, d: &mut Diags) {
    let wrap_ext = m.declares_extension("SPV_KHR_no_integer_wrap_decoration");
    for dec in &m.decorations {
        if !known_decoration(dec.kind) {
            d.at(
                m,
                dec.inst,
                format!("decoration {:?} is not supported by clift", dec.kind),
            );
            continue;
        }
        if matches!(dec.kind, Decoration::NoSignedWrap | Decoration::NoUnsignedWrap) && !wrap_ext {
            d.at(
                m,
                dec.inst,
                format!(
                    "decoration {:?} needs the extension SPV_KHR_no_integer_wrap_decoration",
                    dec.kind
                ),
            );
        }
        match dec.kind {
            Decoration::BuiltIn => {
                let Some(Operand::BuiltIn(b)) = m.deco_params(dec).first() else {
                    continue;
                };
                let Some(g) = m.global(dec.target) else {
                    d.at(
                        m,
                        dec.inst,
                        format!(
                            "BuiltIn {b:?} decorates %{}, which is not a module-scope variable",
                            dec.target
                        ),
                    );
                    continue;
                };
                let Some(shape) = builtin_shape(*b) else {
                    d.at(m, dec.inst, format!("BuiltIn {b:?} is not an OpenCL built-in variable"));
                    continue;
                };
                // Older SPIRV-LLVM-Translator versions put built-in variables
                // in UniformConstant (pyopencl's own test module does);
                // they are read the same way, so both are accepted.
                if !matches!(g.storage, StorageClass::Input | StorageClass::UniformConstant) {
                    d.at(
                        m,
                        g.inst,
                        format!("built-in variable {b:?} must be in the Input (or UniformConstant) storage class"),
                    );
                    continue;
                }
                let pointee = m.pointer(g.ty).map_or(0, |p| p.1);
                let ok = match shape {
                    BuiltInShape::Size3 => match m.ty(pointee) {
                        Some(Type::Vector { component, count: 3 }) => m.int_width(*component) == Some(64),
                        _ => false,
                    },
                    BuiltInShape::Size => matches!(m.ty(pointee), Some(Type::Int { width: 64, .. })),
                    BuiltInShape::U32 => matches!(m.ty(pointee), Some(Type::Int { width: 32, .. })),
                    BuiltInShape::U32x4 => match m.ty(pointee) {
                        Some(Type::Vector { component, count: 4 }) => m.int_width(*component) == Some(32),
                        _ => false,
                    },
                };
                if matches!(shape, BuiltInShape::U32x4) && !m.has_capability(Capability::GroupNonUniformBallot) {
                    d.at(
                        m,
                        g.inst,
                        format!("built-in variable {b:?} needs the GroupNonUniformBallot capability, which the module does not declare"),
                    );
                }
                if !ok {
                    let want = match shape {
                        BuiltInShape::Size3 => "a vector of 3 64-bit integers (size_t with Physical64)",
                        BuiltInShape::Size => "a 64-bit integer (size_t with Physical64)",
                        BuiltInShape::U32 => "a 32-bit integer",
                        BuiltInShape::U32x4 => "a vector of 4 32-bit integers (uint4)",
                    };
                    d.at(m, g.inst, format!("built-in variable {b:?} must have type {want}"));
                }
            }
            Decoration::SpecId
                if !m.constant(dec.target).is_some_and(|c| {
                    matches!(
                        m.insts[c.inst as usize].op,
                        Op::SpecConstant | Op::SpecConstantTrue | Op::SpecConstantFalse
                    )
                }) =>
            {
                d.at(
                        m,
                        dec.inst,
                        format!(
                            "SpecId decorates %{}, which is not an OpSpecConstant, OpSpecConstantTrue or OpSpecConstantFalse",
                            dec.target
                        ),
                    );
            }
            _ => {}
        }
        if d.full() {
            return;
        }
    }
    // SpecIds are unique.
    let mut ids: Vec<(u32, u32)> = m
        .constants
        .iter()
        .filter_map(|c| c.spec_id.map(|s| (s, c.inst)))
        .collect();
    ids.sort_unstable();
    for w in ids.windows(2) {
        if w[0].0 == w[1].0 {
            d.at(
                m,
                w[1].1,
                format!("SpecId {} is used by more than one specialization constant", w[0].0),
            );
        }
    }
}

fn entry_points(m: &Module, d: &mut Diags) {
    let mut names: HashMap<&str, u32> = HashMap::new();
    let blocks: HashSet<usize> = crate::block_invoke::block_kernels(m).into_values().collect();
    for (index, ep) in m.entry_points.iter().enumerate() {
        let i = ep.inst;
        if ep.model != ExecutionModel::Kernel {
            d.at(
                m,
                i,
                format!(
                    "entry point \"{}\" has the {:?} execution model: OpenCL takes only Kernel entry points",
                    ep.name, ep.model
                ),
            );
            continue;
        }
        if let Some(&first) = names.get(ep.name.as_str()) {
            let at = m.insts[first as usize].offset;
            d.at(
                m,
                i,
                format!("two entry points are named \"{}\" (the other at word {at})", ep.name),
            );
        } else {
            names.insert(&ep.name, i);
        }
        let Some(f) = m.function(ep.function) else {
            d.at(
                m,
                i,
                format!(
                    "entry point \"{}\" names %{}, which is not a function",
                    ep.name, ep.function
                ),
            );
            continue;
        };
        if f.blocks.is_empty() {
            d.at(
                m,
                i,
                format!("entry point \"{}\" names %{}, which has no body", ep.name, ep.function),
            );
        }
        if !matches!(m.ty(f.ret), Some(Type::Void)) {
            d.at(
                m,
                f.inst,
                format!(
                    "kernel \"{}\" must return void (OpTypeVoid): its function returns {}",
                    ep.name,
                    m.show_type(f.ret)
                ),
            );
        }
        for &v in &ep.interface {
            if m.global(v).is_none_or(|g| g.storage != StorageClass::Input) {
                d.at(
                    m,
                    i,
                    format!("entry point interface %{v} is not a module-scope Input variable"),
                );
            }
        }
        let block = blocks.contains(&index);
        for (k, &p) in f.params.iter().enumerate() {
            let rule = if block {
                block_kernel_param(m, p, k)
            } else {
                kernel_param(m, p)
            };
            if let Some(rule) = rule {
                d.at(
                    m,
                    m.info(p).map_or(NONE, |x| x.def),
                    format!("kernel \"{}\" parameter {k}: {rule}", ep.name),
                );
            }
        }
    }
}

/// Why parameter `p`, the `k`th of a block kernel (see
/// [`crate::block_invoke`]), is not what device-side enqueue passes: the
/// block literal (a Generic pointer) first, then `__local` pointers.
fn block_kernel_param(m: &Module, p: u32, k: usize) -> Option<String> {
    let ty = m.type_of(p)?;
    let storage = match m.ty(ty)? {
        Type::Pointer { storage, .. } => Some(*storage),
        _ => None,
    };
    let (want, what) = if k == 0 {
        (StorageClass::Generic, "the block literal, a Generic pointer")
    } else {
        (StorageClass::Workgroup, "a Workgroup (__local) pointer")
    };
    (storage != Some(want)).then(|| {
        format!(
            "{} is not {what}: an enqueued block's kernel takes the block literal, then a __local pointer per local-memory argument",
            m.show_type(ty)
        )
    })
}

/// Why parameter `p` of a kernel is not a valid kernel argument, if it is not.
fn kernel_param(m: &Module, p: u32) -> Option<String> {
    let ty = m.type_of(p)?;
    let shown = m.show_type(ty);
    match m.ty(ty)? {
        Type::Int { .. }
        | Type::Float { .. }
        | Type::Vector { .. }
        | Type::Pipe { .. }
        | Type::Queue
        | Type::Image(_)
        | Type::Sampler => None,
        Type::Struct { .. } => struct_members(m, ty),
        Type::Pointer { storage, .. } => match storage {
            StorageClass::CrossWorkgroup | StorageClass::Workgroup | StorageClass::UniformConstant => None,
            StorageClass::Function => {
                let byval = m.decorations(p).iter().any(|dec| {
                    dec.kind == Decoration::FuncParamAttr
                        && matches!(
                            m.deco_params(dec).first(),
                            Some(Operand::FunctionParameterAttribute(FunctionParameterAttribute::ByVal))
                        )
                });
                if byval {
                    None
                } else {
                    Some(format!(
                        "{shown} is a Function (private) pointer without FuncParamAttr ByVal: kernel pointer parameters must be CrossWorkgroup (__global), Workgroup (__local) or UniformConstant (__constant)"
                    ))
                }
            }
            other => Some(format!(
                "{shown} is a {other:?} pointer: kernel pointer parameters must be CrossWorkgroup (__global), Workgroup (__local) or UniformConstant (__constant)"
            )),
        },
        _ => Some(format!("{shown} is not a valid kernel argument type")),
    }
}

/// Why a by-value struct kernel argument is invalid: members must be
/// integers, floats, vectors, pointers, arrays or such structs.
fn struct_members(m: &Module, ty: u32) -> Option<String> {
    let mut stack = vec![ty];
    let mut seen = HashSet::new();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        match m.ty(t) {
            Some(Type::Struct { members }) => stack.extend(members.iter().copied()),
            Some(Type::Array { element, .. }) => stack.push(*element),
            Some(Type::Int { .. } | Type::Float { .. } | Type::Vector { .. } | Type::Pointer { .. }) => {}
            _ => {
                return Some(format!(
                    "the struct {} has a member of type {}, which a kernel argument cannot hold",
                    m.show_type(ty),
                    m.show_type(t)
                ))
            }
        }
    }
    None
}

fn execution_modes(m: &Module, d: &mut Diags) {
    let mut seen: HashSet<(u32, u32)> = HashSet::new();
    let entries: HashSet<u32> = m.entry_points.iter().map(|ep| ep.function).collect();
    for em in &m.exec_modes {
        let i = em.inst;
        if !entries.contains(&em.target) {
            d.at(
                m,
                i,
                format!(
                    "execution mode {:?} targets %{}, which is not an entry point",
                    em.mode, em.target
                ),
            );
            continue;
        }
        use ExecutionMode::*;
        let ok_version = |v: (u8, u8)| m.version >= v;
        match em.mode {
            LocalSize | LocalSizeHint => {
                if em.args.len() != 3 {
                    d.at(m, i, format!("execution mode {:?} takes 3 sizes", em.mode));
                } else if em.args.contains(&0) {
                    d.at(
                        m,
                        i,
                        format!("execution mode {:?} must be at least 1 in every dimension", em.mode),
                    );
                }
            }
            LocalSizeId | LocalSizeHintId => {
                if !ok_version((1, 2)) {
                    d.at(m, i, format!("execution mode {:?} needs SPIR-V 1.2", em.mode));
                }
            }
            VecTypeHint => {
                let v = em.args.first().copied().unwrap_or(0);
                if vec_type_hint(v).is_none() {
                    d.at(m, i, format!("VecTypeHint 0x{v:x} does not encode an OpenCL C type"));
                }
            }
            ContractionOff => {}
            SubgroupSize | SubgroupsPerWorkgroup | SubgroupsPerWorkgroupId => {
                if !ok_version((1, 1)) {
                    d.at(m, i, format!("execution mode {:?} needs SPIR-V 1.1", em.mode));
                } else if em.mode == SubgroupSize && em.args.first() != Some(&(crate::sub_group::SIZE as u32)) {
                    // A kernel that requires another sub-group size cannot
                    // run with clift's (its sub-group built-ins and
                    // collectives would answer for sub-groups of 8).
                    d.at(
                        m,
                        i,
                        format!(
                            "execution mode SubgroupSize {}: clift's sub-groups have {} work-items",
                            em.args.first().copied().unwrap_or(0),
                            crate::sub_group::SIZE
                        ),
                    );
                }
            }
            Initializer | Finalizer => {
                d.at(m, i, format!("execution mode {:?} is not supported by clift", em.mode));
            }
            other => {
                d.at(
                    m,
                    i,
                    format!("execution mode {other:?} is not valid for OpenCL kernels"),
                );
            }
        }
        if matches!(
            em.mode,
            LocalSize | LocalSizeId | LocalSizeHint | LocalSizeHintId | VecTypeHint
        ) && !seen.insert((em.target, em.mode as u32))
        {
            d.at(
                m,
                i,
                format!("execution mode {:?} is given twice for the same entry point", em.mode),
            );
        }
    }
}

/// The OpenCL C type a VecTypeHint literal encodes, e.g. "float4".
pub fn vec_type_hint(v: u32) -> Option<String> {
    let base = match v & 0xffff {
        0 => "char",
        1 => "short",
        2 => "int",
        3 => "long",
        4 => "half",
        5 => "float",
        6 => "double",
        _ => return None,
    };
    match v >> 16 {
        0 | 1 => Some(base.to_string()),
        n @ (2 | 3 | 4 | 8 | 16) => Some(format!("{base}{n}")),
        _ => None,
    }
}

/// Rules that need specialized values: the *Id execution modes.
pub fn check_values(m: &Module, d: &mut Diags) {
    for em in &m.exec_modes {
        if matches!(em.mode, ExecutionMode::LocalSizeId | ExecutionMode::LocalSizeHintId) {
            let vals: Vec<Option<u64>> = em.args.iter().map(|&id| const_int(m, id)).collect();
            if vals.len() != 3 || vals.iter().any(|v| !matches!(v, Some(1..))) {
                d.at(
                    m,
                    em.inst,
                    format!("execution mode {:?} takes 3 integer constants of at least 1", em.mode),
                );
            }
        }
    }
}

/// The value of an integer constant (after specialization).
pub fn const_int(m: &Module, id: u32) -> Option<u64> {
    let c = m.constant(id)?;
    m.int_width(c.ty)?;
    match c.value {
        ConstValue::Scalar(v) => Some(v),
        ConstValue::Null => Some(0),
        _ => None,
    }
}

/// Whether `id` names something whose kind can be an operand value.
pub fn is_value(m: &Module, id: u32) -> bool {
    matches!(
        m.kind(id),
        IdKind::Constant | IdKind::Global | IdKind::Undef | IdKind::Param | IdKind::Value
    )
}
