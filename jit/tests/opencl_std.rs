//! Every OpenCL.std instruction through code generation: for each
//! opcode of rspirv's grammar for the set, a module is generated with
//! rspirv's builder holding one kernel per operand form (scalar and vector
//! widths, the storage classes of pointer operands, rounding modes, ...),
//! each calling the instruction on values loaded from global buffers and
//! storing the result. The module must pass clift's front end (a rejection
//! is a bug of this generator); then every kernel must either compile or be
//! refused with a build log naming the instruction, and a refusal fails the
//! test unless the table (`clift_builtins::opencl_std::OPENCL_STD`) refuses
//! the instruction or OpenCL C lacks that form (the half_ and native_
//! functions on half or double). Iterating over the
//! grammar, with a form for every category, means a new opcode cannot be
//! left out.

use std::collections::HashMap;

use clift_builtins::opencl_std::{lookup, Category, Impl, OPENCL_STD};
use clift_jit::{compile, compile_kernels, front_end, BuildOptions, CodegenConfig, FrontEnd};
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use rspirv::grammar::{ExtInstOp, OperandQuantifier, OPENCL_STD_100_INSTRUCTION_TABLE};
use spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionModel, FPRoundingMode, FunctionControl, MemoryModel,
    OpenclStd100Op as Cl, StorageClass, Word,
};

/// A scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum S {
    F32,
    /// cl_khr_fp64 (the Float64 capability).
    F64,
    /// cl_khr_fp16: the vload_half/vstore_half data, and half values.
    F16,
    I8,
    I16,
    I32,
    I64,
}

/// A scalar (`n == 1`) or vector type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct T {
    s: S,
    n: u32,
}

const fn t(s: S, n: u32) -> T {
    T { s, n }
}

const F: T = t(S::F32, 1);
const F2: T = t(S::F32, 2);
const F3: T = t(S::F32, 3);
const F4: T = t(S::F32, 4);
const D: T = t(S::F64, 1);
const D2: T = t(S::F64, 2);
const D3: T = t(S::F64, 3);
const D4: T = t(S::F64, 4);
const I: T = t(S::I32, 1);
const I2: T = t(S::I32, 2);
const I4: T = t(S::I32, 4);
const L: T = t(S::I64, 1);
const L4: T = t(S::I64, 4);
const SH: T = t(S::I16, 1);
const C: T = t(S::I8, 1);
const HALF: T = t(S::F16, 1);
const H4: T = t(S::F16, 4);

/// The float forms every float instruction is tried on.
const FLOATS: &[T] = &[F, F4, D, D4, HALF, H4];
/// The integer forms every integer instruction is tried on.
const INTS: &[T] = &[I, I4, L, SH, C];

impl T {
    /// The integer type of the same shape (an int for a float, a double
    /// and a half, as ilogb, ldexp, frexp and remquo take).
    fn int(self) -> T {
        let s = match self.s {
            S::F32 | S::F64 | S::F16 => S::I32,
            s => s,
        };
        t(s, self.n)
    }

    /// The integer type of the same shape and width as a float type
    /// (long for double, short for half: nan's code, select's condition,
    /// a private half buffer's elements).
    fn same_width_int(self) -> T {
        match self.s {
            S::F64 => t(S::I64, self.n),
            S::F16 => t(S::I16, self.n),
            _ => self.int(),
        }
    }

    /// Twice as wide (upsample's result).
    fn wide(self) -> T {
        let s = match self.s {
            S::I8 => S::I16,
            S::I16 => S::I32,
            S::I32 => S::I64,
            s => panic!("no integer twice as wide as {s:?}"),
        };
        t(s, self.n)
    }

    /// The OpenCL C spelling, for messages.
    fn show(self) -> String {
        let s = match self.s {
            S::F32 => "float",
            S::F64 => "double",
            S::F16 => "half",
            S::I8 => "char",
            S::I16 => "short",
            S::I32 => "int",
            S::I64 => "long",
        };
        if self.n == 1 {
            s.to_string()
        } else {
            format!("{s}{}", self.n)
        }
    }
}

/// Where a pointer operand points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Space {
    /// A kernel argument (CrossWorkgroup).
    Global,
    /// A Function variable.
    Private,
    /// A Function variable cast to Generic.
    Generic,
}

/// One operand of the instruction.
#[derive(Clone, Copy, Debug)]
enum A {
    /// A value of this type, loaded from an input buffer at the global id.
    V(T),
    /// A pointer to one value of this type the instruction writes (fract's
    /// iptr); a private result is copied to a global buffer afterwards.
    Out(T, Space),
    /// A size_t offset (the global id; 0 where the buffer is private).
    Offset,
    /// A pointer to an array of elements of this type (vloadn's p).
    Buf(T, Space),
    /// A literal (vloadn's n).
    Lit(u32),
    /// A rounding mode literal (vstore_half_r's).
    Mode(FPRoundingMode),
    /// The address of a string literal in a __constant variable (printf).
    Str(&'static str),
}

/// One kernel: the instruction's result type (`None`: void) and operands.
#[derive(Clone, Debug)]
struct Form {
    result: Option<T>,
    args: Vec<A>,
}

impl Form {
    /// `float4 fract(float4, private float4*)`.
    fn show(&self, name: &str) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| match *a {
                A::V(t) => t.show(),
                A::Out(t, s) | A::Buf(t, s) => format!("{s:?} {}*", t.show()),
                A::Offset => "size_t".into(),
                A::Lit(n) => format!("{n}"),
                A::Mode(r) => format!("{r:?}"),
                A::Str(s) => format!("{s:?}"),
            })
            .collect();
        let r = self.result.map_or("void".to_string(), T::show);
        format!("{r} {name}({})", args.join(", "))
    }
}

fn same(n: usize, types: &[T]) -> Vec<Form> {
    types
        .iter()
        .map(|&t| Form {
            result: Some(t),
            args: vec![A::V(t); n],
        })
        .collect()
}

/// The pointee types and storage classes a pointer result is tried with.
const OUT_FORMS: &[(T, Space)] = &[
    (F, Space::Global),
    (F, Space::Private),
    (F, Space::Generic),
    (F3, Space::Global),
    (F4, Space::Global),
    (F4, Space::Private),
    (F4, Space::Generic),
    (D, Space::Global),
    (D, Space::Private),
    (D4, Space::Generic),
];

/// Instructions writing a second result through their last operand: the
/// value operands `before` (of the result's type), then a pointer to the
/// result's type (`int_out`: to the int type of its shape).
fn with_out(before: usize, int_out: bool) -> Vec<Form> {
    OUT_FORMS
        .iter()
        .map(|&(t, space)| {
            let mut args = vec![A::V(t); before];
            args.push(A::Out(if int_out { t.int() } else { t }, space));
            Form { result: Some(t), args }
        })
        .collect()
}

const MODES: [FPRoundingMode; 4] = [
    FPRoundingMode::RTE,
    FPRoundingMode::RTZ,
    FPRoundingMode::RTP,
    FPRoundingMode::RTN,
];

/// The kernels trying instruction `op` (of `category`, with `operands`
/// fixed operands). Instructions not named here get the form of their
/// category: `operands` values of the float (math, common) or integer
/// types; a category without such a form fails the test, so a new
/// instruction gets a generator.
fn forms(op: Cl, category: Category, operands: usize) -> Vec<Form> {
    use Cl::*;
    let void = |args: Vec<A>| Form { result: None, args };
    let of = |r: T, args: Vec<A>| Form { result: Some(r), args };
    match op {
        // Math with a pointer result.
        fract | modf | sincos => with_out(1, false),
        frexp | lgamma_r => with_out(1, true),
        remquo => with_out(2, true),
        // Math with an int operand or result.
        ilogb => FLOATS.iter().map(|&t| of(t.int(), vec![A::V(t)])).collect(),
        ldexp | pown | rootn => FLOATS.iter().map(|&t| of(t, vec![A::V(t), A::V(t.int())])).collect(),
        nan => FLOATS.iter().map(|&t| of(t, vec![A::V(t.same_width_int())])).collect(),
        // Geometric (the fast_ forms are float only in OpenCL C; doubles
        // are tried anyway).
        cross => same(2, &[F3, F4, D3, D4]),
        distance | fast_distance => [F, F2, F3, F4, D, D2, D3, D4]
            .iter()
            .map(|&v| of(t(v.s, 1), vec![A::V(v), A::V(v)]))
            .collect(),
        length | fast_length => [F, F2, F3, F4, D, D2, D3, D4]
            .iter()
            .map(|&v| of(t(v.s, 1), vec![A::V(v)]))
            .collect(),
        normalize | fast_normalize => same(1, &[F, F2, F3, F4, D, D2, D3, D4]),
        // Integer.
        s_mul24 | u_mul24 => same(2, &[I, I4]),
        s_mad24 | u_mad24 => same(3, &[I, I4]),
        s_upsample | u_upsample => [C, SH, I, I4]
            .iter()
            .map(|&t| of(t.wide(), vec![A::V(t), A::V(t)]))
            .collect(),
        // Relational.
        bitselect => same(3, &[F, F4, D, D4, I, I4, L, C]),
        select => [F, F4, D, D4, I, I4, L, t(S::I8, 4)]
            .iter()
            .map(|&t| of(t, vec![A::V(t), A::V(t), A::V(t.same_width_int())]))
            .collect(),
        // Vector loads and stores.
        vloadn => {
            let mut v: Vec<Form> = [
                (F, 2),
                (F, 3),
                (F, 4),
                (D, 2),
                (D, 3),
                (I, 2),
                (I, 3),
                (I, 4),
                (C, 4),
                (L, 2),
            ]
            .iter()
            .map(|&(e, n)| of(t(e.s, n), vec![A::Offset, A::Buf(e, Space::Global), A::Lit(n)]))
            .collect();
            for space in [Space::Private, Space::Generic] {
                v.push(of(F4, vec![A::Offset, A::Buf(F, space), A::Lit(4)]));
            }
            v
        }
        vstoren => {
            let mut v: Vec<Form> = [F2, F3, F4, D2, D4, I2, t(S::I32, 3), I4, t(S::I8, 4), t(S::I64, 2)]
                .iter()
                .map(|&d| void(vec![A::V(d), A::Offset, A::Buf(t(d.s, 1), Space::Global)]))
                .collect();
            for space in [Space::Private, Space::Generic] {
                v.push(void(vec![A::V(F4), A::Offset, A::Buf(F, space)]));
            }
            v
        }
        vload_half => [Space::Global, Space::Private, Space::Generic]
            .iter()
            .map(|&s| of(F, vec![A::Offset, A::Buf(HALF, s)]))
            .collect(),
        vload_halfn | vloada_halfn => {
            let mut v: Vec<Form> = [2, 3, 4]
                .iter()
                .map(|&n| of(t(S::F32, n), vec![A::Offset, A::Buf(HALF, Space::Global), A::Lit(n)]))
                .collect();
            v.push(of(F4, vec![A::Offset, A::Buf(HALF, Space::Private), A::Lit(4)]));
            v
        }
        vstore_half => [
            (F, Space::Global),
            (F, Space::Private),
            (F, Space::Generic),
            (D, Space::Global),
        ]
        .iter()
        .map(|&(d, s)| void(vec![A::V(d), A::Offset, A::Buf(HALF, s)]))
        .collect(),
        vstore_half_r => [F, D]
            .iter()
            .flat_map(|&d| {
                MODES
                    .iter()
                    .map(move |&r| void(vec![A::V(d), A::Offset, A::Buf(HALF, Space::Global), A::Mode(r)]))
            })
            .collect(),
        vstore_halfn | vstorea_halfn => {
            let mut v: Vec<Form> = [F2, F3, F4, D3, D4]
                .iter()
                .map(|&d| void(vec![A::V(d), A::Offset, A::Buf(HALF, Space::Global)]))
                .collect();
            v.push(void(vec![A::V(F4), A::Offset, A::Buf(HALF, Space::Private)]));
            v
        }
        vstore_halfn_r | vstorea_halfn_r => {
            let mut v = Vec::new();
            for d in [F3, F4, D4] {
                for r in MODES {
                    v.push(void(vec![A::V(d), A::Offset, A::Buf(HALF, Space::Global), A::Mode(r)]));
                }
            }
            v
        }
        // Miscellaneous.
        shuffle => [(F4, I4), (F4, I2), (F2, I4), (D4, L4), (I4, I4), (I2, I2)]
            .iter()
            .map(|&(x, m)| of(t(x.s, m.n), vec![A::V(x), A::V(m)]))
            .collect(),
        shuffle2 => [(F4, I4), (F2, I4), (D2, L4), (I4, I2), (I2, I2)]
            .iter()
            .map(|&(x, m)| of(t(x.s, m.n), vec![A::V(x), A::V(x), A::V(m)]))
            .collect(),
        printf => vec![
            of(I, vec![A::Str("hello\n")]),
            of(
                I,
                vec![
                    A::Str("f=%f i=%d v=%v4f l=%ld c=%c s=%s d=%f dv=%v2lf\n"),
                    A::V(F),
                    A::V(I),
                    A::V(F4),
                    A::V(L),
                    A::V(C),
                    A::Str("abc"),
                    A::V(D),
                    A::V(D2),
                ],
            ),
        ],
        prefetch => [F, F4, I, L4]
            .iter()
            .map(|&e| void(vec![A::Buf(e, Space::Global), A::V(L)]))
            .collect(),
        _ => match category {
            Category::Math | Category::Common => same(operands, FLOATS),
            Category::Integer => same(operands, INTS),
            other => panic!("{op:?} ({other:?}): no kernel form; add one to `forms`"),
        },
    }
}

/// Builds one module of kernels `k0`, `k1`, ... calling OpenCL.std
/// instruction `opcode` in the forms `forms`.
struct Gen {
    b: Builder,
    set: Word,
    gid: Word,
    caps: Vec<Capability>,
    consts: HashMap<(Word, u64), Word>,
}

type R<X> = Result<X, rspirv::dr::Error>;

impl Gen {
    fn new() -> Gen {
        let mut b = Builder::new();
        b.set_version(1, 0);
        let set = b.ext_inst_import("OpenCL.std");
        b.memory_model(AddressingModel::Physical64, MemoryModel::OpenCL);
        let mut g = Gen {
            b,
            set,
            gid: 0,
            caps: vec![Capability::Addresses, Capability::Kernel, Capability::Int64],
            consts: HashMap::new(),
        };
        let v3 = g.ty(t(S::I64, 3));
        let p = g.ptr(StorageClass::Input, v3);
        g.gid = g.b.variable(p, None, StorageClass::Input, None);
        g.b.decorate(
            g.gid,
            Decoration::BuiltIn,
            [Operand::BuiltIn(BuiltIn::GlobalInvocationId)],
        );
        g.b.decorate(g.gid, Decoration::Constant, []);
        g
    }

    fn cap(&mut self, c: Capability) {
        if !self.caps.contains(&c) {
            self.caps.push(c);
        }
    }

    fn scalar(&mut self, s: S) -> Word {
        match s {
            S::F32 => self.b.type_float(32, None),
            S::F64 => {
                self.cap(Capability::Float64);
                self.b.type_float(64, None)
            }
            S::F16 => {
                self.cap(Capability::Float16Buffer);
                self.b.type_float(16, None)
            }
            S::I8 => {
                self.cap(Capability::Int8);
                self.b.type_int(8, 0)
            }
            S::I16 => {
                self.cap(Capability::Int16);
                self.b.type_int(16, 0)
            }
            S::I32 => self.b.type_int(32, 0),
            S::I64 => self.b.type_int(64, 0),
        }
    }

    fn ty(&mut self, t: T) -> Word {
        let c = self.scalar(t.s);
        if t.n == 1 {
            return c;
        }
        if t.n > 4 {
            self.cap(Capability::Vector16);
        }
        self.b.type_vector(c, t.n)
    }

    fn ptr(&mut self, sc: StorageClass, pointee: Word) -> Word {
        if sc == StorageClass::Generic {
            self.cap(Capability::GenericPointer);
        }
        self.b.type_pointer(None, sc, pointee)
    }

    fn global_ptr(&mut self, t: T) -> Word {
        let e = self.ty(t);
        self.ptr(StorageClass::CrossWorkgroup, e)
    }

    fn constant(&mut self, s: S, v: u64) -> Word {
        let ty = self.scalar(s);
        if let Some(&c) = self.consts.get(&(ty, v)) {
            return c;
        }
        let c = if s == S::I64 {
            self.b.constant_bit64(ty, v)
        } else {
            self.b.constant_bit32(ty, v as u32)
        };
        self.consts.insert((ty, v), c);
        c
    }

    /// A __constant char array holding `s` and a NUL.
    fn string(&mut self, s: &str) -> Word {
        let char_t = self.scalar(S::I8);
        let bytes: Vec<u8> = s.bytes().chain([0]).collect();
        let len = self.constant(S::I32, bytes.len() as u64);
        let arr = self.b.type_array(char_t, len);
        let parts: Vec<Word> = bytes.iter().map(|&c| self.constant(S::I8, c.into())).collect();
        let init = self.b.constant_composite(arr, parts);
        let p = self.ptr(StorageClass::UniformConstant, arr);
        let var = self.b.variable(p, None, StorageClass::UniformConstant, Some(init));
        self.b.decorate(var, Decoration::Constant, []);
        var
    }

    /// Kernel `name`: loads the value operands at the global id, calls the
    /// instruction, stores its result (and private pointer results) at the
    /// global id.
    fn kernel(&mut self, name: &str, opcode: u32, form: &Form) -> R<()> {
        let void = self.b.type_void();
        let ulong = self.scalar(S::I64);
        // Module-scope strings first (no function is open).
        let strings: Vec<Option<Word>> = form
            .args
            .iter()
            .map(|a| match a {
                A::Str(s) => Some(self.string(s)),
                _ => None,
            })
            .collect();
        // Parameters: the result buffer, then per operand its buffer.
        let mut param_types = Vec::new();
        if let Some(r) = form.result {
            param_types.push(self.global_ptr(r));
        }
        for a in &form.args {
            match *a {
                A::V(t) | A::Out(t, _) | A::Buf(t, Space::Global) => param_types.push(self.global_ptr(t)),
                _ => {}
            }
        }
        let fn_t = self.b.type_function(void, param_types.clone());
        let f = self.b.begin_function(void, None, FunctionControl::NONE, fn_t)?;
        let mut params = Vec::new();
        for &p in &param_types {
            params.push(self.b.function_parameter(p)?);
        }
        let mut params = params.into_iter();
        let out = form.result.map(|_| params.next().expect("result parameter"));
        self.b.begin_block(None)?;
        // Function variables come first in the block.
        let mut vars = Vec::new();
        for a in &form.args {
            vars.push(match *a {
                A::Out(t, Space::Private | Space::Generic) => {
                    let e = self.ty(t);
                    let p = self.ptr(StorageClass::Function, e);
                    Some(self.b.variable(p, None, StorageClass::Function, None))
                }
                A::Buf(t, Space::Private | Space::Generic) => {
                    // Float16Buffer allows no half arrays: a private
                    // half buffer is an array of shorts.
                    let e = self.ty(if t.s == S::F16 { t.same_width_int() } else { t });
                    let n = self.constant(S::I32, 16);
                    let arr = self.b.type_array(e, n);
                    let p = self.ptr(StorageClass::Function, arr);
                    Some(self.b.variable(p, None, StorageClass::Function, None))
                }
                _ => None,
            });
        }
        let v3 = self.ty(t(S::I64, 3));
        let ids = self.b.load(v3, None, self.gid, None, [])?;
        let gid = self.b.composite_extract(ulong, None, ids, [0])?;
        let private_buf = form
            .args
            .iter()
            .any(|a| matches!(a, A::Buf(_, Space::Private | Space::Generic)));
        let mut operands = Vec::new();
        let mut copy_out = Vec::new();
        for (k, a) in form.args.iter().enumerate() {
            let op = match *a {
                A::V(t) => {
                    let p = params.next().expect("input parameter");
                    let pt = self.global_ptr(t);
                    let at = self.b.in_bounds_ptr_access_chain(pt, None, p, gid, [])?;
                    let vt = self.ty(t);
                    Operand::IdRef(self.b.load(vt, None, at, None, [])?)
                }
                A::Out(t, Space::Global) => {
                    let p = params.next().expect("pointer parameter");
                    let pt = self.global_ptr(t);
                    Operand::IdRef(self.b.in_bounds_ptr_access_chain(pt, None, p, gid, [])?)
                }
                A::Out(t, space) => {
                    let var = vars[k].expect("variable");
                    copy_out.push((t, var, params.next().expect("copy-out parameter")));
                    Operand::IdRef(self.generic(t, var, space)?)
                }
                A::Offset => Operand::IdRef(if private_buf { self.constant(S::I64, 0) } else { gid }),
                A::Buf(_, Space::Global) => Operand::IdRef(params.next().expect("buffer parameter")),
                A::Buf(t, space) => {
                    let stored = if t.s == S::F16 { t.same_width_int() } else { t };
                    let e = self.ty(stored);
                    let pt = self.ptr(StorageClass::Function, e);
                    let zero = self.constant(S::I32, 0);
                    let mut first = self
                        .b
                        .in_bounds_access_chain(pt, None, vars[k].expect("variable"), [zero])?;
                    if stored != t {
                        let e = self.ty(t);
                        let pt = self.ptr(StorageClass::Function, e);
                        first = self.b.bitcast(pt, None, first)?;
                    }
                    Operand::IdRef(self.generic(t, first, space)?)
                }
                A::Lit(n) => Operand::LiteralBit32(n),
                A::Mode(r) => Operand::FPRoundingMode(r),
                A::Str(_) => {
                    let char_t = self.scalar(S::I8);
                    let pt = self.ptr(StorageClass::UniformConstant, char_t);
                    let zero = self.constant(S::I64, 0);
                    let var = strings[k].expect("string");
                    Operand::IdRef(self.b.in_bounds_ptr_access_chain(pt, None, var, zero, [zero])?)
                }
            };
            operands.push(op);
        }
        let rt = match form.result {
            Some(r) => self.ty(r),
            None => void,
        };
        let r = self.b.ext_inst(rt, None, self.set, opcode, operands)?;
        if let (Some(rty), Some(out)) = (form.result, out) {
            let pt = self.global_ptr(rty);
            let at = self.b.in_bounds_ptr_access_chain(pt, None, out, gid, [])?;
            self.b.store(at, r, None, [])?;
        }
        for (t, var, dst) in copy_out {
            let vt = self.ty(t);
            let v = self.b.load(vt, None, var, None, [])?;
            let pt = self.global_ptr(t);
            let at = self.b.in_bounds_ptr_access_chain(pt, None, dst, gid, [])?;
            self.b.store(at, v, None, [])?;
        }
        self.b.ret()?;
        self.b.end_function()?;
        self.b.entry_point(ExecutionModel::Kernel, f, name, [self.gid]);
        Ok(())
    }

    /// `p` (a Function pointer to `t`), cast to Generic for that space.
    fn generic(&mut self, t: T, p: Word, space: Space) -> R<Word> {
        if space != Space::Generic {
            return Ok(p);
        }
        let e = self.ty(t);
        let gt = self.ptr(StorageClass::Generic, e);
        self.b.ptr_cast_to_generic(gt, None, p)
    }

    fn finish(mut self) -> Vec<u8> {
        for c in std::mem::take(&mut self.caps) {
            self.b.capability(c);
        }
        let words = self.b.module().assemble();
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}

/// The module for instruction `opcode` in `forms`, kernel `k<i>` for form i.
fn module(opcode: u32, forms: &[Form]) -> R<Vec<u8>> {
    let mut g = Gen::new();
    for (i, form) in forms.iter().enumerate() {
        g.kernel(&format!("k{i}"), opcode, form)?;
    }
    Ok(g.finish())
}

/// Whether a build log names OpenCL.std instruction `name`.
fn names(log: &str, name: &str) -> bool {
    log.contains(&format!("OpenCL.std {name}"))
        || log
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == name)
}

/// Whether OpenCL C lacks `form` of `name`, so that clift may refuse it
/// even for an instruction the table marks as supported: the half_ and
/// native_ functions are defined on float only.
fn outside_opencl_c(name: &str, form: &Form) -> bool {
    (name.starts_with("half_") || name.starts_with("native_"))
        && form.args.iter().any(|a| matches!(a, A::V(t) if t.s != S::F32))
}

/// What became of one opcode's kernels.
#[derive(Default)]
struct Outcome {
    compiled: usize,
    refused: Vec<(String, String)>,
    bad: Vec<String>,
}

/// Compiles the kernels of `front`. `compile` is `compile_kernels`' first
/// attempt (every kernel, with 4-lane bodies); it is called first so that a
/// failure or panic there, which `compile_kernels` hides by retrying
/// without them, is seen (and fails the test); `compile_kernels` then sorts out which kernels
/// compile and why the others do not.
fn compile_all(name: &str, front: &FrontEnd, forms: &[Form], refused_row: bool) -> Outcome {
    let mut o = Outcome::default();
    let kernels: Vec<String> = (0..forms.len()).map(|i| format!("k{i}")).collect();
    let first = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        compile(front, &CodegenConfig::default())
    }));
    let first_err = match first {
        Ok(Ok(prog)) => {
            for k in &kernels {
                if prog.kernel(k).is_some() {
                    o.compiled += 1;
                } else {
                    o.bad.push(format!("{k}: compile() succeeded without it"));
                }
            }
            None
        }
        Ok(Err(e)) => Some(e.log()),
        Err(_) => Some("the code generator panicked".to_string()),
    };
    let Some(first_err) = first_err else {
        return o;
    };
    let (prog, failed) = compile_kernels(front, &CodegenConfig::default());
    for (i, k) in kernels.iter().enumerate() {
        let form = forms[i].show(name);
        if let Some((_, e)) = failed.iter().find(|(n, _)| n == k) {
            let log = e.log();
            if names(&log, name) && !log.contains("panicked") {
                if !refused_row && !outside_opencl_c(name, &forms[i]) {
                    o.bad.push(format!(
                        "{form}: refused, but the table marks {name} as supported:\n{}",
                        log.trim_end()
                    ));
                }
                o.refused.push((form, log.trim_end().to_string()));
            } else {
                o.bad
                    .push(format!("{form}: refused without naming the instruction:\n{log}"));
            }
        } else if prog.as_ref().is_some_and(|p| p.kernel(k).is_some()) {
            o.compiled += 1;
        } else {
            o.bad.push(format!("{form}: neither compiled nor refused"));
        }
    }
    // compile_kernels retries without 4-lane bodies: a kernel that
    // compiles only then lost its 4-lane body to an error or a panic.
    if (o.refused.is_empty() && o.bad.is_empty()) || first_err.contains("panicked") {
        o.bad.push(format!(
            "compile() (compile_kernels' first attempt, with 4-lane bodies) failed:\n{}",
            first_err.trim_end()
        ));
    }
    if refused_row && o.compiled > 0 {
        o.bad
            .push(format!("the table refuses {name}, but {} kernels compiled", o.compiled));
    }
    o
}

#[test]
fn every_opencl_std_instruction_compiles_or_is_refused_by_name() {
    let start = std::time::Instant::now();
    let (mut ops_compiled, mut ops_refused, mut kernels_compiled, mut kernels_refused) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut seen = 0;
    for inst in OPENCL_STD_100_INSTRUCTION_TABLE.iter() {
        let ExtInstOp::OpenclStd100(op) = inst.opcode else {
            panic!("{} is not an OpenCL.std opcode", inst.opname);
        };
        seen += 1;
        let name = inst.opname;
        let Some(row) = lookup(op as u32) else {
            failures.push(format!("{name}: not in clift_builtins::opencl_std::OPENCL_STD"));
            continue;
        };
        assert_eq!(row.name, name);
        let fixed = inst
            .operands
            .iter()
            .filter(|o| o.quantifier == OperandQuantifier::One)
            .count();
        let variadic = inst.operands.iter().any(|o| o.quantifier != OperandQuantifier::One);
        let forms = forms(op, row.category, fixed);
        assert!(!forms.is_empty(), "{name}: no forms");
        for f in &forms {
            let n = f.args.len();
            assert!(
                n == fixed || (variadic && n > fixed),
                "generator: {} has {n} operands, the grammar {fixed}",
                f.show(name)
            );
        }
        let bytes = module(op as u32, &forms).unwrap_or_else(|e| panic!("{name}: rspirv builder: {e:?}"));
        let front = match front_end(&bytes, &BuildOptions::default()) {
            Ok(f) => f,
            Err(e) => panic!(
                "{name}: the generated module fails clift's front end (a bug of this test's generator):\n{}",
                e.log()
            ),
        };
        assert_eq!(front.built().kernels.len(), forms.len(), "{name}");
        let o = compile_all(name, &front, &forms, matches!(row.imp, Impl::Refused(_)));
        kernels_compiled += o.compiled;
        kernels_refused += o.refused.len();
        if o.refused.is_empty() {
            ops_compiled += 1;
        } else {
            ops_refused += 1;
            for (form, log) in &o.refused {
                println!("refused: {form}: {log}");
            }
        }
        failures.extend(o.bad.into_iter().map(|b| format!("{name}: {b}")));
    }
    assert_eq!(seen, OPENCL_STD.len(), "the grammar and the table differ in size");
    println!(
        "OpenCL.std: {seen} instructions: {ops_compiled} compiled in every form, {ops_refused} refused by name \
         in some form; kernels: {kernels_compiled} compiled, {kernels_refused} refused by name ({:.1} s)",
        start.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_log_names_an_instruction_only_by_its_whole_name() {
    assert!(names(
        "word 147: OpExtInst %22: OpenCL.std cross: cross takes two 3- or 4-component vectors",
        "cross"
    ));
    assert!(names("word 9: OpExtInst %5: sin on double is not supported", "sin"));
    assert!(!names("word 9: OpExtInst %5: since the sinh of ...", "sin"));
    assert!(!names("word 0: internal error: the code generator panicked", "sin"));
}
