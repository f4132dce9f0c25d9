//! The generator proper: declarations, statements and expressions of one
//! kernel, every construct free of undefined behaviour by construction.

use std::fmt::Write as _;

use crate::helpers::Helpers;
use crate::lit;
use crate::rng::Rng;
use crate::types::{Scalar, Ty, INTS, WIDTHS};
use crate::{Unit, COUNTERS, HALVES_PER_ITEM, IN_WORDS, LOCAL_COUNTERS, OUT_PER_ITEM, RES_PER_ITEM};

/// The operation every atomic on global counter `i` uses: each counter sees
/// one commutative operation only, so its final value does not depend on
/// the order the work-items run in.
pub const COUNTER_OPS: [&str; COUNTERS] = ["add", "sub", "min", "max", "or", "and", "xor", "add"];
/// The same for the kernel's local counters, and their first values.
pub const LOCAL_COUNTER_OPS: [(&str, &str); LOCAL_COUNTERS] =
    [("add", "0u"), ("max", "0u"), ("or", "0u"), ("min", "0xffffffffu")];

/// The math built-ins the generator writes on `double` and `float`
/// operands (in programs compared across clift's modes alone: see
/// `Gen::float_expr`), whose vector forms must give the scalar ones' bits.
const MATH_BOTH: [&str; 42] = [
    "exp",
    "log",
    "log2",
    "log10",
    "sin",
    "cos",
    "tan",
    "erf",
    "atan",
    "asin",
    "acos",
    "pow",
    "expm1",
    "tanh",
    "sinh",
    "cosh",
    "log1p",
    "atan2",
    "asinh",
    "acosh",
    "atanh",
    "erfc",
    "cbrt",
    "hypot",
    "mix",
    "step",
    "smoothstep",
    "sign",
    "maxmag",
    "minmag",
    "degrees",
    "radians",
    "fdim",
    "pown",
    "powr",
    "rootn",
    "logb",
    "fract",
    "modf",
    "sincos",
    "fmod",
    "remainder",
];

/// Those of [`MATH_FLOAT_ONLY`] it writes on `double` operands too, beside
/// [`MATH_BOTH`] (a list of their own, so that the picks for floats stay
/// as they were).
const MATH_DOUBLE_TOO: [&str; 4] = ["atanpi", "asinpi", "acospi", "atan2pi"];

/// Those it writes on `float` operands beside [`MATH_BOTH`] (the `half_`
/// and `native_` forms, the pi forms, ldexp); of these, only
/// [`MATH_DOUBLE_TOO`] on `double` ones.
const MATH_FLOAT_ONLY: [&str; 16] = [
    "exp2",
    "exp10",
    "native_exp",
    "half_sin",
    "atanpi",
    "asinpi",
    "acospi",
    "atan2pi",
    "native_recip",
    "native_divide",
    "half_sqrt",
    "sinpi",
    "cospi",
    "tanpi",
    "ldexp",
    "native_rsqrt",
];

#[derive(Clone)]
struct Var {
    name: String,
    ty: Ty,
    mutable: bool,
}

#[derive(Clone)]
struct Arr {
    name: String,
    ty: Ty,
}

/// Private arrays' length.
const ARR_LEN: usize = 8;
/// Program-scope `__constant` tables' length.
const CONST_LEN: usize = 16;

struct StructDef {
    name: String,
    fields: Vec<Ty>,
}

#[derive(Clone)]
struct SVar {
    name: String,
    def: usize,
}

#[derive(Clone, Copy)]
enum Param {
    V(Ty),
    S(usize),
}

struct Func {
    name: String,
    ret: Ty,
    params: Vec<Param>,
}

#[derive(Clone, Copy)]
struct Ctx {
    kernel: bool,
    /// Every work-item of the group reaches this point together: barriers
    /// are allowed.
    uniform: bool,
    in_loop: bool,
    nest: u32,
}

/// Where a local-memory buffer's elements come from.
#[derive(Clone)]
enum LocalElem {
    V(Ty),
    S(usize),
}

pub(crate) struct Gen {
    r: Rng,
    tag: String,
    fp16: bool,
    /// A math built-in rounded within its bound (not exactly) was written
    /// (only in `fp16` programs): see [`crate::Unit::math`].
    math: bool,
    pub(crate) helpers: Helpers,
    scalars: Vec<Scalar>,
    vars: Vec<Var>,
    arrays: Vec<Arr>,
    svars: Vec<SVar>,
    structs: Vec<StructDef>,
    funcs: Vec<Func>,
    consts: Vec<(String, Scalar)>,
    lbufs: Vec<(String, LocalElem)>,
    next: usize,
    local_size: usize,
    /// The kernel uses local memory and barriers (see [`uses_barriers`]).
    barriers: bool,
    budget: usize,
}

/// Whether the kernel of `seed` uses local memory and barriers: half of
/// the seeds, drawn from a stream of their own so that the programs of the
/// seeds that do are the same as before the other half existed. Kernels
/// without them take paths of clift's 4-lane bodies that kernels with
/// barriers cannot: a chunk whose lanes disagree at a branch before any
/// store is abandoned and rerun in the scalar body, which a chunk of a
/// kernel with barriers never is.
pub fn uses_barriers(seed: u64) -> bool {
    !Rng::new(seed ^ 0x6261_7272_6965_7273).chance(1, 2)
}

impl Gen {
    pub(crate) fn new(seed: u64, fp16: bool) -> Gen {
        let mut scalars: Vec<Scalar> = INTS.to_vec();
        scalars.extend([Scalar::Float, Scalar::Double]);
        if fp16 {
            scalars.push(Scalar::Half);
        }
        let mut r = Rng::new(seed);
        let local_size = r.pick(&[4, 8, 16, 32]);
        Gen {
            r,
            tag: format!("{seed:x}"),
            fp16,
            math: false,
            helpers: Helpers::new(fp16),
            scalars,
            vars: Vec::new(),
            arrays: Vec::new(),
            svars: Vec::new(),
            structs: Vec::new(),
            funcs: Vec::new(),
            consts: Vec::new(),
            lbufs: Vec::new(),
            next: 0,
            local_size,
            barriers: uses_barriers(seed),
            budget: 0,
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    fn global_name(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}_{}", self.next, self.tag)
    }

    fn ty(&mut self) -> Ty {
        let s = self.r.pick(&self.scalars);
        let n = WIDTHS[self.r.weighted(&[6, 2, 1, 3, 1, 1])];
        Ty::new(s, n)
    }

    // ---------------------------------------------------------------------
    // The unit: structs, constants, functions, the kernel.

    pub(crate) fn unit(mut self, seed: u64) -> Unit {
        let mut text = String::new();
        for _ in 0..self.r.below(3) {
            let name = self.global_name("S");
            let fields: Vec<Ty> = (0..2 + self.r.below(4)).map(|_| self.ty()).collect();
            let _ = writeln!(text, "typedef struct {{");
            for (i, f) in fields.iter().enumerate() {
                let _ = writeln!(text, "    {} f{i};", f.name());
            }
            let _ = writeln!(text, "}} {name};");
            self.structs.push(StructDef { name, fields });
        }
        for _ in 0..self.r.below(3) {
            let s = self.r.pick(&self.scalars);
            let name = self.global_name("C");
            let items: Vec<String> = (0..CONST_LEN).map(|_| lit::constant(&mut self.r, s)).collect();
            let _ = writeln!(
                text,
                "__constant {} {name}[{CONST_LEN}] = {{ {} }};",
                s.name(),
                items.join(", ")
            );
            self.consts.push((name, s));
        }
        for _ in 0..self.r.below(3) {
            let f = self.function();
            text.push_str(&f);
        }
        let name = format!("k_{}", self.tag);
        text.push_str(&self.kernel(&name));
        let global_size = self.local_size * (1 + self.r.below(4));
        Unit {
            seed,
            name,
            local_size: self.local_size,
            global_size,
            fp16: self.fp16,
            math: self.math,
            helpers: self.helpers.list(),
            text,
        }
    }

    fn function(&mut self) -> String {
        let name = self.global_name("f");
        let ret = self.ty();
        let mut params = Vec::new();
        let mut decl = Vec::new();
        self.vars.clear();
        self.svars.clear();
        self.arrays.clear();
        for i in 0..1 + self.r.below(4) {
            let pname = format!("p{i}");
            if !self.structs.is_empty() && self.r.chance(1, 4) {
                let def = self.r.below(self.structs.len());
                decl.push(format!("{} {pname}", self.structs[def].name));
                self.svars.push(SVar { name: pname, def });
                params.push(Param::S(def));
            } else {
                let t = self.ty();
                decl.push(format!("{} {pname}", t.name()));
                self.vars.push(Var {
                    name: pname,
                    ty: t,
                    mutable: true,
                });
                params.push(Param::V(t));
            }
        }
        let mut body = String::new();
        self.budget = 4 + self.r.below(6);
        let ctx = Ctx {
            kernel: false,
            uniform: false,
            in_loop: false,
            nest: 1,
        };
        self.block(ctx, &mut body, 1);
        let e = self.expr(ret, 3);
        let _ = writeln!(body, "    return {e};");
        self.funcs.push(Func {
            name: name.clone(),
            ret,
            params,
        });
        self.vars.clear();
        self.svars.clear();
        format!("static {} {name}({}) {{\n{body}}}\n", ret.name(), decl.join(", "))
    }

    fn kernel(&mut self, name: &str) -> String {
        self.vars.clear();
        self.svars.clear();
        self.arrays.clear();
        let l = self.local_size;
        for v in ["gid", "lid"] {
            self.vars.push(Var {
                name: v.into(),
                ty: Ty::scalar(Scalar::UInt),
                mutable: false,
            });
        }
        let mut body = String::new();
        for _ in 0..3 + self.r.below(6) {
            let t = self.ty();
            let n = self.fresh("v");
            let e = self.expr(t, 3);
            let _ = writeln!(body, "    {} {n} = {e};", t.name());
            self.vars.push(Var {
                name: n,
                ty: t,
                mutable: true,
            });
        }
        for _ in 0..self.r.below(3) {
            let t = self.ty();
            let n = self.fresh("a");
            let _ = writeln!(body, "    {} {n}[{ARR_LEN}];", t.name());
            let _ = writeln!(body, "    for (int i = 0; i < {ARR_LEN}; i++)");
            self.vars.push(Var {
                name: "i".into(),
                ty: Ty::scalar(Scalar::Int),
                mutable: false,
            });
            let e = self.expr(t, 2);
            self.vars.pop();
            let _ = writeln!(body, "        {n}[i] = {e};");
            self.arrays.push(Arr { name: n, ty: t });
        }
        for def in 0..self.structs.len() {
            let n = self.fresh("s");
            let fields: Vec<Ty> = self.structs[def].fields.clone();
            let inits: Vec<String> = fields.iter().map(|&f| self.expr(f, 2)).collect();
            let _ = writeln!(body, "    {} {n} = {{ {} }};", self.structs[def].name, inits.join(", "));
            self.svars.push(SVar { name: n, def });
        }
        self.budget = 10 + self.r.below(25);
        let ctx = Ctx {
            kernel: true,
            uniform: true,
            in_loop: false,
            nest: 0,
        };
        self.block(ctx, &mut body, 1);

        let mut k = String::new();
        let _ = writeln!(
            k,
            "__kernel void {name}(__global ulong *out, __global ulong *res, __global uint *cnt,\n        \
             __global const uint *in, __global half *hs) {{"
        );
        let _ = writeln!(k, "    const uint gid = (uint)get_global_id(0);");
        let _ = writeln!(k, "    const uint lid = (uint)get_local_id(0);");
        let _ = writeln!(k, "    __global half *hsp = hs + gid * {HALVES_PER_ITEM}u;");
        let _ = writeln!(k, "    __global ulong *resp = res + gid * {RES_PER_ITEM}u;");
        if self.barriers {
            let _ = writeln!(k, "    __local uint lcnt[{LOCAL_COUNTERS}];");
        }
        for (n, e) in &self.lbufs {
            let tn = match e {
                LocalElem::V(t) => t.name(),
                LocalElem::S(d) => self.structs[*d].name.clone(),
            };
            let _ = writeln!(k, "    __local {tn} {n}[{l}];");
        }
        if self.barriers {
            let _ = writeln!(k, "    if (lid < {LOCAL_COUNTERS}u) {{");
            for (i, (_, init)) in LOCAL_COUNTER_OPS.iter().enumerate() {
                let _ = writeln!(k, "        if (lid == {i}u) lcnt[{i}] = {init};");
            }
            let _ = writeln!(k, "    }}");
            let _ = writeln!(k, "    barrier(CLK_LOCAL_MEM_FENCE);");
        }
        let _ = writeln!(k, "    ulong h = 0xcbf29ce484222325UL;");
        let _ = writeln!(k, "    ulong hr = 0x84222325cbf29ce4UL;");
        k.push_str(&body);
        if self.barriers {
            let _ = writeln!(k, "    barrier(CLK_LOCAL_MEM_FENCE);");
            let _ = writeln!(
                k,
                "    for (int i = 0; i < {LOCAL_COUNTERS}; i++) h = hmix(h, lcnt[i]);"
            );
        }
        let vars: Vec<Var> = self.vars.iter().filter(|v| v.mutable).cloned().collect();
        // Floating-point values also go into `hr` with their bits as they
        // are (NaNs as made): the harness compares it between clift's
        // bodies of one module only.
        let floating = |t: Ty| matches!(t.s, Scalar::Float | Scalar::Double | Scalar::Half);
        for v in vars {
            let hf = self.helpers.hash(v.ty);
            let _ = writeln!(k, "    h = {hf}(h, {});", v.name);
            if floating(v.ty) {
                let hr = self.helpers.hash_raw(v.ty);
                let _ = writeln!(k, "    hr = {hr}(hr, {});", v.name);
            }
        }
        let arrays = self.arrays.clone();
        for a in arrays {
            let hf = self.helpers.hash(a.ty);
            let _ = writeln!(k, "    for (int i = 0; i < {ARR_LEN}; i++) h = {hf}(h, {}[i]);", a.name);
            if floating(a.ty) {
                let hr = self.helpers.hash_raw(a.ty);
                let _ = writeln!(
                    k,
                    "    for (int i = 0; i < {ARR_LEN}; i++) hr = {hr}(hr, {}[i]);",
                    a.name
                );
            }
        }
        let svars = self.svars.clone();
        for s in svars {
            let fields = self.structs[s.def].fields.clone();
            for (i, f) in fields.iter().enumerate() {
                let hf = self.helpers.hash(*f);
                let _ = writeln!(k, "    h = {hf}(h, {}.f{i});", s.name);
                if floating(*f) {
                    let hr = self.helpers.hash_raw(*f);
                    let _ = writeln!(k, "    hr = {hr}(hr, {}.f{i});", s.name);
                }
            }
        }
        let _ = writeln!(k, "    out[{OUT_PER_ITEM}u * gid] = h;");
        let _ = writeln!(k, "    out[{OUT_PER_ITEM}u * gid + 1u] = hr;");
        let _ = writeln!(k, "}}");
        k
    }

    // ---------------------------------------------------------------------
    // Statements.

    fn block(&mut self, ctx: Ctx, out: &mut String, ind: usize) {
        let (nv, na, ns) = (self.vars.len(), self.arrays.len(), self.svars.len());
        let n = 1 + self.r.below(4);
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            self.stmt(ctx, out, ind);
        }
        self.vars.truncate(nv);
        self.arrays.truncate(na);
        self.svars.truncate(ns);
    }

    fn pad(ind: usize) -> String {
        "    ".repeat(ind)
    }

    fn mutable_vars(&self) -> Vec<Var> {
        self.vars.iter().filter(|v| v.mutable).cloned().collect()
    }

    fn stmt(&mut self, ctx: Ctx, out: &mut String, ind: usize) {
        let p = Self::pad(ind);
        let muts = self.mutable_vars();
        let vecs: Vec<Var> = muts.iter().filter(|v| v.ty.n > 1).cloned().collect();
        let deep = ctx.nest < 3;
        let bar = self.barriers;
        let weights = [
            8,                                                            // 0 assign
            if vecs.is_empty() { 0 } else { 2 },                          // 1 component assign
            if self.arrays.is_empty() { 0 } else { 2 },                   // 2 array element
            if self.svars.is_empty() { 0 } else { 2 },                    // 3 struct field
            if deep { 3 } else { 0 },                                     // 4 if / else
            if deep { 2 } else { 0 },                                     // 5 for
            if deep { 1 } else { 0 },                                     // 6 switch
            if ctx.in_loop { 1 } else { 0 },                              // 7 break / continue
            if ctx.kernel { 2 } else { 0 },                               // 8 global atomic
            if ctx.kernel && bar { 1 } else { 0 },                        // 9 local atomic
            if ctx.kernel && bar && ctx.uniform { 2 } else { 0 },         // 10 local memory exchange
            if ctx.kernel && bar && ctx.uniform && deep { 1 } else { 0 }, // 11 uniform loop
            if ctx.kernel { 2 } else { 0 },                               // 12 result store
            if ctx.kernel { 1 } else { 0 },                               // 13 half store
            1,                                                            // 14 block with a declaration
            if self.svars.len() > 1 { 1 } else { 0 },                     // 15 struct copy
        ];
        match self.r.weighted(&weights) {
            0 if !muts.is_empty() => {
                let v = muts[self.r.below(muts.len())].clone();
                let e = self.expr(v.ty, 3);
                let _ = writeln!(out, "{p}{} = {e};", v.name);
            }
            0 => self.decl_block(ctx, out, ind),
            1 => {
                let v = vecs[self.r.below(vecs.len())].clone();
                let k = if v.ty.n == 3 {
                    self.r.pick(&[1, 2])
                } else {
                    self.r.pick(&[1, 2, v.ty.n / 2])
                };
                let k = k.clamp(1, v.ty.n);
                // Distinct components: an l-value swizzle may not repeat one.
                let mut lanes: Vec<usize> = (0..v.ty.n as usize).collect();
                for i in 0..lanes.len() {
                    let j = i + self.r.below(lanes.len() - i);
                    lanes.swap(i, j);
                }
                let sw: String = lanes[..k as usize].iter().map(|&i| Ty::lane(i)).collect();
                let e = self.expr(Ty::new(v.ty.s, k), 2);
                let _ = writeln!(out, "{p}{}.s{sw} = {e};", v.name);
            }
            2 => {
                let a = self.arrays[self.r.below(self.arrays.len())].clone();
                let i = self.index(ARR_LEN, ctx.kernel);
                let e = self.expr(a.ty, 3);
                let _ = writeln!(out, "{p}{}[{i}] = {e};", a.name);
            }
            3 => {
                let s = self.svars[self.r.below(self.svars.len())].clone();
                let fields = &self.structs[s.def].fields;
                let f = self.r.below(fields.len());
                let t = fields[f];
                let e = self.expr(t, 3);
                let _ = writeln!(out, "{p}{}.f{f} = {e};", s.name);
            }
            4 => {
                let c = self.cond(ctx.kernel);
                let inner = Ctx {
                    uniform: false,
                    nest: ctx.nest + 1,
                    ..ctx
                };
                let _ = writeln!(out, "{p}if ({c}) {{");
                self.block(inner, out, ind + 1);
                if self.r.chance(1, 2) {
                    let _ = writeln!(out, "{p}}} else {{");
                    self.block(inner, out, ind + 1);
                }
                let _ = writeln!(out, "{p}}}");
            }
            5 => {
                let i = self.fresh("i");
                let trips = 1 + self.r.below(6);
                // A constant trip count, or one that differs between
                // work-items without a `break`: one more iteration for
                // some, or a counter starting at a local id and stepping
                // by 2 (their loops exit through one edge, so clift runs
                // the block after such a loop under its mask too).
                match self.r.below(4) {
                    0 => {
                        let _ = writeln!(
                            out,
                            "{p}for (int {i} = 0; {i} < {trips} + (int)(get_global_id(0) % 3); {i}++) {{"
                        );
                    }
                    1 => {
                        let _ = writeln!(
                            out,
                            "{p}for (int {i} = (int)(get_local_id(0) % 5); {i} < {trips}; {i} += 2) {{"
                        );
                    }
                    _ => {
                        let _ = writeln!(out, "{p}for (int {i} = 0; {i} < {trips}; {i}++) {{");
                    }
                }
                self.vars.push(Var {
                    name: i,
                    ty: Ty::scalar(Scalar::Int),
                    mutable: false,
                });
                let inner = Ctx {
                    uniform: false,
                    in_loop: true,
                    nest: ctx.nest + 1,
                    ..ctx
                };
                self.block(inner, out, ind + 1);
                self.vars.pop();
                let _ = writeln!(out, "{p}}}");
            }
            6 => {
                let t = Ty::scalar(self.r.pick(&INTS));
                let e = self.expr(t, 2);
                let inner = Ctx {
                    uniform: false,
                    nest: ctx.nest + 1,
                    ..ctx
                };
                let _ = writeln!(out, "{p}switch ((int)({e} & 3)) {{");
                for case in ["case 0:", "case 1:", "case 2:", "default:"] {
                    let _ = writeln!(out, "{p}{case} {{");
                    self.block(inner, out, ind + 1);
                    // Sometimes fall through into the next case.
                    if case == "default:" || self.r.chance(2, 3) {
                        let _ = writeln!(out, "{p}}} break;");
                    } else {
                        let _ = writeln!(out, "{p}}}");
                    }
                }
                let _ = writeln!(out, "{p}}}");
            }
            7 => {
                let c = self.cond(ctx.kernel);
                let what = if self.r.chance(1, 2) { "break" } else { "continue" };
                let _ = writeln!(out, "{p}if ({c}) {what};");
            }
            8 => {
                let i = self.r.below(COUNTERS);
                let op = COUNTER_OPS[i];
                if (op == "add" || op == "sub") && self.r.chance(1, 4) {
                    let f = if op == "add" { "atomic_inc" } else { "atomic_dec" };
                    let _ = writeln!(out, "{p}{f}(&cnt[{i}]);");
                } else {
                    let e = self.expr(Ty::scalar(Scalar::UInt), 2);
                    let _ = writeln!(out, "{p}atomic_{op}(&cnt[{i}], {e});");
                }
            }
            9 => {
                let i = self.r.below(LOCAL_COUNTERS);
                let e = self.expr(Ty::scalar(Scalar::UInt), 2);
                let _ = writeln!(out, "{p}atomic_{}(&lcnt[{i}], {e});", LOCAL_COUNTER_OPS[i].0);
            }
            10 => self.local_exchange(out, &p),
            11 => {
                let u = self.fresh("u");
                let trips = 1 + self.r.below(3);
                let _ = writeln!(out, "{p}for (int {u} = 0; {u} < {trips}; {u}++) {{");
                self.vars.push(Var {
                    name: u,
                    ty: Ty::scalar(Scalar::Int),
                    mutable: false,
                });
                // No break or continue inside: every work-item runs every
                // iteration, so barriers stay in uniform control flow.
                let inner = Ctx {
                    uniform: true,
                    in_loop: false,
                    nest: ctx.nest + 1,
                    ..ctx
                };
                self.block(inner, out, ind + 1);
                self.vars.pop();
                let _ = writeln!(out, "{p}}}");
            }
            12 => {
                if self.r.chance(1, 3) {
                    let n = self.r.pick(&[2u8, 4, 8]);
                    let src = Ty::new(self.r.pick(&INTS), n);
                    let e = self.expr(src, 2);
                    let i = self.index(RES_PER_ITEM / n as usize, ctx.kernel);
                    let _ = writeln!(out, "{p}vstore{n}(convert_ulong{n}({e}), {i}, resp);");
                } else {
                    let t = Ty::scalar(self.r.pick(&self.scalars));
                    let e = self.expr(t, 3);
                    let bits = self.helpers.bits(t.s);
                    let i = self.index(RES_PER_ITEM, ctx.kernel);
                    let _ = writeln!(out, "{p}resp[{i}] = {bits}({e});");
                }
            }
            13 => {
                let n = self.r.pick(&[1u8, 1, 2, 4, 8]);
                let s = self.r.pick(&[Scalar::Float, Scalar::Float, Scalar::Double]);
                let t = Ty::new(s, n);
                let e = self.expr(t, 3);
                let g = self.helpers.nonan(t);
                let mode = self.r.pick(&["", "_rte", "_rtz", "_rtp", "_rtn"]);
                let i = self.index(HALVES_PER_ITEM / n as usize, ctx.kernel);
                let f = if n == 1 {
                    format!("vstore_half{mode}")
                } else {
                    format!("vstore_half{n}{mode}")
                };
                let _ = writeln!(out, "{p}{f}({g}({e}), {i}, hsp);");
            }
            14 => self.decl_block(ctx, out, ind),
            15 => {
                let a = self.r.below(self.svars.len());
                let b = self.r.below(self.svars.len());
                if self.svars[a].def == self.svars[b].def {
                    let _ = writeln!(out, "{p}{} = {};", self.svars[a].name, self.svars[b].name);
                } else {
                    self.decl_block(ctx, out, ind);
                }
            }
            _ => self.decl_block(ctx, out, ind),
        }
    }

    /// `{ T t = e; ...statements... }`: a nested scope with a new variable.
    fn decl_block(&mut self, ctx: Ctx, out: &mut String, ind: usize) {
        let p = Self::pad(ind);
        let t = self.ty();
        let n = self.fresh("t");
        let e = self.expr(t, 3);
        let _ = writeln!(out, "{p}{{");
        let _ = writeln!(out, "{p}    {} {n} = {e};", t.name());
        let nv = self.vars.len();
        self.vars.push(Var {
            name: n.clone(),
            ty: t,
            mutable: true,
        });
        self.block(
            Ctx {
                nest: ctx.nest + 1,
                ..ctx
            },
            out,
            ind + 1,
        );
        // What the block computed flows out through a variable of the
        // enclosing scope, else it would be dead code.
        let outer: Vec<Var> = self.vars[..nv].iter().filter(|v| v.mutable).cloned().collect();
        if !outer.is_empty() {
            let v = outer[self.r.below(outer.len())].clone();
            let conv = self.convert(v.ty, &n, t);
            let _ = writeln!(out, "{p}    {} = {conv};", v.name);
        }
        self.vars.truncate(nv);
        let _ = writeln!(out, "{p}}}");
    }

    /// Work-items swap values through local memory between two barriers.
    fn local_exchange(&mut self, out: &mut String, p: &str) {
        let l = self.local_size;
        let other = match self.r.below(4) {
            0 => format!("(lid + {}u) % {l}u", 1 + self.r.below(l)),
            1 => format!("{}u - lid", l - 1),
            2 => "lid ^ 1u".to_string(),
            _ => format!("(lid * {}u) % {l}u", 2 * self.r.below(l) + 1),
        };
        let use_struct = !self.svars.is_empty() && self.r.chance(1, 4);
        if use_struct {
            let s = self.svars[self.r.below(self.svars.len())].clone();
            let buf = self.lbuf(LocalElem::S(s.def));
            let _ = writeln!(out, "{p}{buf}[lid] = {};", s.name);
            let _ = writeln!(out, "{p}barrier(CLK_LOCAL_MEM_FENCE);");
            let _ = writeln!(out, "{p}{} = {buf}[{other}];", s.name);
        } else {
            let muts = self.mutable_vars();
            let (t, target) = if muts.is_empty() || self.r.chance(1, 5) {
                (self.ty(), None)
            } else {
                let v = muts[self.r.below(muts.len())].clone();
                (v.ty, Some(v.name))
            };
            let buf = self.lbuf(LocalElem::V(t));
            let e = self.expr(t, 3);
            let _ = writeln!(out, "{p}{buf}[lid] = {e};");
            let _ = writeln!(out, "{p}barrier(CLK_LOCAL_MEM_FENCE);");
            match target {
                Some(v) => {
                    let _ = writeln!(out, "{p}{v} = {buf}[{other}];");
                }
                None => {
                    let hf = self.helpers.hash(t);
                    let _ = writeln!(out, "{p}h = {hf}(h, {buf}[{other}]);");
                }
            }
        }
        let _ = writeln!(out, "{p}barrier(CLK_LOCAL_MEM_FENCE);");
    }

    fn lbuf(&mut self, e: LocalElem) -> String {
        let n = self.fresh("lb");
        self.lbufs.push((n.clone(), e));
        n
    }

    /// A condition (an int scalar), often depending on the work-item so
    /// that work-items diverge.
    fn cond(&mut self, kernel: bool) -> String {
        match self.r.below(4) {
            0 if kernel => {
                let m = self.r.pick(&[1u32, 3, 7]);
                format!("(gid & {m}u) == {}u", self.r.below(m as usize + 1))
            }
            1 => {
                let t = self.ty();
                let t = Ty::scalar(t.s);
                let a = self.expr(t, 2);
                let b = self.expr(t, 2);
                let op = self.r.pick(&["<", "<=", ">", ">=", "==", "!="]);
                format!("{a} {op} {b}")
            }
            _ => {
                let t = Ty::scalar(self.r.pick(&INTS));
                self.expr(t, 2)
            }
        }
    }

    /// An index in `0..len` (`len` a power of two).
    fn index(&mut self, len: usize, kernel: bool) -> String {
        let m = len - 1;
        match self.r.below(5) {
            0 if kernel => format!("((gid + {}u) & {m}u)", self.r.below(len)),
            // Clamped to the array (the stencil pattern), with an offset
            // that clamps some lanes at either end.
            4 if kernel => {
                let d = self.r.below(2 * len + 1) as i64 - len as i64;
                match self.r.below(3) {
                    0 => format!("clamp((int)gid + {d}, 0, {m})"),
                    // Every element, every second or every third
                    // (strided reads).
                    1 => {
                        let step = 1 + self.r.below(3);
                        format!("min({step}u * gid + {}u, {m}u)", self.r.below(len))
                    }
                    // Taken modulo a width below the array's (ring
                    // buffers) where d is odd.
                    _ if d % 2 != 0 && m > 0 => format!("((uint)((int)gid + {}) % {m}u)", d + len as i64),
                    // For even d, by d (no draw of its own, so that the
                    // programs around it stay as they were): min and max,
                    // the clamp written with conditional expressions (clang
                    // -O2: selects of the comparisons' own operands), lanes
                    // moving down, or `x + 1 < len ? x + 1 : x` (a select
                    // by a comparison of the sequence).
                    _ => match d.rem_euclid(8) / 2 {
                        0 => format!("max(min((int)gid + {d}, {m}), 0)"),
                        1 => {
                            let i = format!("((int)gid + {d})");
                            format!("({i} < 0 ? 0 : ({i} > {m} ? {m} : {i}))")
                        }
                        2 => format!("clamp({m} - (int)gid + {d}, 0, {m})"),
                        _ => {
                            let x = format!("(int)(gid & {m}u)");
                            format!("({x} + 1 < {len} ? {x} + 1 : {x})")
                        }
                    },
                }
            }
            1 => format!("{}", self.r.below(len)),
            _ => {
                let t = Ty::scalar(self.r.pick(&INTS));
                let e = self.expr(t, 1);
                format!("((uint){e} & {m}u)")
            }
        }
    }

    // ---------------------------------------------------------------------
    // Expressions.

    fn expr(&mut self, t: Ty, d: u32) -> String {
        if d == 0 || self.r.chance(1, 4) {
            return self.leaf(t);
        }
        if t.s.is_float() {
            self.float_expr(t, d)
        } else {
            self.int_expr(t, d)
        }
    }

    fn leaf(&mut self, t: Ty) -> String {
        let vars: Vec<String> = self.vars.iter().filter(|v| v.ty == t).map(|v| v.name.clone()).collect();
        let arrays: Vec<String> = self
            .arrays
            .iter()
            .filter(|a| a.ty == t)
            .map(|a| a.name.clone())
            .collect();
        let mut fields = Vec::new();
        for s in &self.svars {
            for (i, f) in self.structs[s.def].fields.iter().enumerate() {
                if *f == t {
                    fields.push(format!("{}.f{i}", s.name));
                }
            }
        }
        let consts: Vec<String> = self.consts.iter().filter(|c| c.1 == t.s).map(|c| c.0.clone()).collect();
        let kernel = self.vars.iter().any(|v| v.name == "gid");
        let weights = [
            if vars.is_empty() { 0 } else { 6 },
            2,
            if kernel && t.s != Scalar::Half { 3 } else { 0 },
            if consts.is_empty() { 0 } else { 2 },
            if arrays.is_empty() { 0 } else { 2 },
            if fields.is_empty() { 0 } else { 2 },
            if kernel && t.s.is_int() { 1 } else { 0 },
        ];
        match self.r.weighted(&weights) {
            0 => vars[self.r.below(vars.len())].clone(),
            2 => self.input(t),
            3 => {
                let c = consts[self.r.below(consts.len())].clone();
                let i = self.index(CONST_LEN, kernel);
                if t.n == 1 {
                    format!("{c}[{i}]")
                } else {
                    format!("(({})({c}[{i}]))", t.name())
                }
            }
            4 => {
                let a = arrays[self.r.below(arrays.len())].clone();
                let i = self.index(ARR_LEN, kernel);
                format!("{a}[{i}]")
            }
            5 => fields[self.r.below(fields.len())].clone(),
            6 => {
                let w = if self.r.chance(1, 2) { "gid" } else { "lid" };
                if t.n == 1 {
                    format!("(({}){w})", t.name())
                } else {
                    format!("(({})(({}){w}))", t.name(), t.s.name())
                }
            }
            _ => lit::value(&mut self.r, t),
        }
    }

    /// A read of the input buffer as type `t` (floats never NaN or
    /// infinite: one exponent bit is cleared, so no signaling NaN exists).
    fn input(&mut self, t: Ty) -> String {
        let bits = t.s.unsigned();
        let lanes = if t.n == 3 { 4 } else { t.n as usize };
        let count = IN_WORDS * 4 / (t.s.bytes() * lanes);
        let i = self.index(count, true);
        let raw = if t.n == 1 {
            format!("((__global const {} *)in)[{i}]", bits.name())
        } else {
            format!("vload{}({i}, (__global const {} *)in)", t.n, bits.name())
        };
        match t.s {
            Scalar::Float => format!("as_{}({raw} & ({})0xf7ffffffu)", t.name(), t.with(bits).name()),
            Scalar::Double => {
                format!("as_{}({raw} & ({})0xf7ffffffffffffffUL)", t.name(), t.with(bits).name())
            }
            s if s == bits => raw,
            _ => format!("as_{}({raw})", t.name()),
        }
    }

    /// Value `e` of type `from` converted to `to` (same width or scalar).
    fn convert(&mut self, to: Ty, e: &str, from: Ty) -> String {
        if from == to {
            return e.to_string();
        }
        let from_e = if from.n != to.n {
            // Reduce or widen through the first component / a splat.
            let scalar = if from.n == 1 {
                e.to_string()
            } else {
                format!("({e}).s0")
            };
            if to.n == 1 {
                return self.convert(to, &scalar, Ty::scalar(from.s));
            }
            format!("(({})({scalar}))", Ty::new(from.s, to.n).name())
        } else {
            e.to_string()
        };
        let sat = if to.s.is_int() && from.s.is_float() { "_sat" } else { "" };
        format!("convert_{}{sat}({from_e})", to.name())
    }

    fn int_expr(&mut self, t: Ty, d: u32) -> String {
        let s = t.s;
        let vector = t.n > 1;
        let cmp_ok = (t.n == 1 && s == Scalar::Int) || (vector && s.is_signed_int());
        let shuffle_ok = matches!(t.n, 2 | 4 | 8 | 16);
        let fns: Vec<(usize, &Func)> = self.funcs.iter().enumerate().filter(|(_, f)| f.ret == t).collect();
        let call_ok = !fns.is_empty();
        let w = [
            8,                                                // 0 binary operator
            2,                                                // 1 unary
            4,                                                // 2 two-operand built-in
            2,                                                // 3 one-operand built-in
            2,                                                // 4 three-operand built-in
            2,                                                // 5 select / ternary
            if cmp_ok { 3 } else { 0 },                       // 6 comparison
            4,                                                // 7 conversion
            2,                                                // 8 as_type
            3,                                                // 9 swizzle
            if vector { 2 } else { 0 },                       // 10 construction
            if shuffle_ok { 1 } else { 0 },                   // 11 shuffle
            if call_ok { 2 } else { 0 },                      // 12 call
            if !s.is_signed_int() { 2 } else { 0 },           // 13 abs / abs_diff
            if s.narrower().is_some() { 1 } else { 0 },       // 14 upsample
            if t == Ty::scalar(Scalar::Int) { 1 } else { 0 }, // 15 any / all
        ];
        let d1 = d - 1;
        match self.r.weighted(&w) {
            0 => {
                let a = self.expr(t, d1);
                let b = self.expr(t, d1);
                let op = self
                    .r
                    .pick(&["add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr"]);
                match op {
                    "and" | "or" | "xor" => {
                        let sym = match op {
                            "and" => "&",
                            "or" => "|",
                            _ => "^",
                        };
                        if vector {
                            format!("({a} {sym} {b})")
                        } else {
                            format!("(({})({a} {sym} {b}))", t.name())
                        }
                    }
                    // By a constant (neither 0 nor -1: defined for every
                    // dividend), which compilers divide by multiplying
                    // with its reciprocal.
                    "div" | "rem" if self.r.chance(1, 3) => {
                        let (lo, hi) = s.range();
                        let divisors: Vec<i128> = [
                            2,
                            3,
                            5,
                            7,
                            10,
                            16,
                            100,
                            641,
                            1000,
                            65535,
                            0x7fff_ffff,
                            0xffff_fffe,
                            -2,
                            -3,
                            -7,
                            -16,
                            -1000,
                            lo,
                            hi,
                        ]
                        .into_iter()
                        .filter(|&c| lo <= c && c <= hi && c != 0 && c != -1)
                        .collect();
                        let c = crate::lit::int(s, self.r.pick(&divisors));
                        let sym = if op == "div" { "/" } else { "%" };
                        if vector {
                            format!("({a} {sym} ({})({c}))", t.name())
                        } else {
                            format!("(({})({a} {sym} {c}))", t.name())
                        }
                    }
                    _ => {
                        let f = self.helpers.int_op(op, t);
                        format!("{f}({a}, {b})")
                    }
                }
            }
            1 => {
                let a = self.expr(t, d1);
                if self.r.chance(1, 2) {
                    if vector {
                        format!("(~{a})")
                    } else {
                        format!("(({})~{a})", t.name())
                    }
                } else {
                    let f = self.helpers.int_op("neg", t);
                    format!("{f}({a})")
                }
            }
            2 => {
                let a = self.expr(t, d1);
                let b = self.expr(t, d1);
                let f = self
                    .r
                    .pick(&["min", "max", "add_sat", "sub_sat", "hadd", "rhadd", "mul_hi", "rotate"]);
                format!("{f}({a}, {b})")
            }
            3 => {
                let a = self.expr(t, d1);
                let f = self.r.pick(&["popcount", "clz"]);
                format!("{f}({a})")
            }
            4 => {
                let a = self.expr(t, d1);
                let b = self.expr(t, d1);
                let c = self.expr(t, d1);
                match self.r.below(3) {
                    0 => format!("mad_sat({a}, {b}, {c})"),
                    1 => format!("bitselect({a}, {b}, {c})"),
                    _ => {
                        let f = self.helpers.clamp(t);
                        format!("{f}({a}, {b}, {c})")
                    }
                }
            }
            5 => self.select(t, d1),
            6 => self.compare(t, d1),
            7 => self.conversion(t, d1),
            8 => self.as_type(t, d1),
            9 => self.swizzle(t, d1),
            10 => self.construct(t, d1),
            11 => self.shuffle(t, d1),
            12 => self.call(t, d1),
            13 => {
                let u = t.with(if self.r.chance(1, 2) { s.signed() } else { s });
                let a = self.expr(u, d1);
                if self.r.chance(1, 2) {
                    if u.s.is_signed_int() && u.s.bits() >= 32 {
                        let f = self.helpers.abs(u);
                        format!("{f}({a})")
                    } else {
                        format!("abs({a})")
                    }
                } else {
                    let b = self.expr(u, d1);
                    if u.s.is_signed_int() && u.s.bits() >= 32 {
                        let f = self.helpers.abs_diff(u);
                        format!("{f}({a}, {b})")
                    } else {
                        format!("abs_diff({a}, {b})")
                    }
                }
            }
            14 => {
                let n = s.narrower().expect("weight is 0 otherwise");
                let hi = self.expr(t.with(n), d1);
                let lo = self.expr(t.with(n.unsigned()), d1);
                format!("upsample({hi}, {lo})")
            }
            _ => {
                let n = self.r.pick(&[2u8, 3, 4, 8, 16]);
                let u = Ty::new(
                    self.r.pick(&[Scalar::Char, Scalar::Short, Scalar::Int, Scalar::Long]),
                    n,
                );
                let a = self.expr(u, d1);
                let f = if self.r.chance(1, 2) { "any" } else { "all" };
                format!("{f}({a})")
            }
        }
    }

    fn float_expr(&mut self, t: Ty, d: u32) -> String {
        let s = t.s;
        let vector = t.n > 1;
        let shuffle_ok = matches!(t.n, 2 | 4 | 8 | 16);
        let call_ok = self.funcs.iter().any(|f| f.ret == t);
        let w = [
            8,                                       // 0 + - * (and / on doubles)
            1,                                       // 1 negation
            3,                                       // 2 exact one-operand functions
            2,                                       // 3 fmin / fmax
            1,                                       // 4 copysign
            if s == Scalar::Half { 0 } else { 1 },   // 5 fma
            if s == Scalar::Half { 0 } else { 1 },   // 6 nextafter
            if s == Scalar::Double { 1 } else { 0 }, // 7 sqrt
            2,                                       // 8 select / ternary
            4,                                       // 9 conversion
            1,                                       // 10 as_type
            3,                                       // 11 swizzle
            if vector { 2 } else { 0 },              // 12 construction
            if shuffle_ok { 1 } else { 0 },          // 13 shuffle
            if call_ok { 2 } else { 0 },             // 14 call
            if s == Scalar::Float && matches!(t.n, 1 | 2 | 4 | 8 | 16) && self.in_kernel() {
                2
            } else {
                0
            }, // 15 vload_half
            match s {
                Scalar::Float if self.fp16 => 8,
                Scalar::Double if self.fp16 => 4,
                _ => 0,
            }, // 16 math rounded within its bound
        ];
        let d1 = d - 1;
        match self.r.weighted(&w) {
            0 => {
                let a = self.expr(t, d1);
                let b = self.expr(t, d1);
                let ops: &[&str] = if s == Scalar::Double {
                    &["+", "-", "*", "/"]
                } else {
                    &["+", "-", "*"]
                };
                let op = match self.r.pick(ops) {
                    "+" => "add",
                    "-" => "sub",
                    "*" => "mul",
                    _ => "div",
                };
                let f = self.helpers.float_op(op, t);
                format!("{f}({a}, {b})")
            }
            1 => {
                let a = self.expr(t, d1);
                format!("(-{a})")
            }
            2 => {
                let a = self.expr(t, d1);
                let f = self.r.pick(&["fabs", "floor", "ceil", "trunc", "rint", "round"]);
                if f == "rint" && t == Ty::scalar(Scalar::Float) {
                    // PoCL 3.1's scalar float rint never returns for
                    // +infinity or values from 2^31 up: keep those (which
                    // are already integers, rint's result) away from it.
                    format!("(fabs({a}) >= 0x1p23f ? {a} : rint({a}))")
                } else {
                    format!("{f}({a})")
                }
            }
            3 => {
                // fmin(-0, +0) may be either zero: adding +0 makes it +0.
                let a = self.expr(t, d1);
                let b = self.expr(t, d1);
                let f = self.r.pick(&["fmin", "fmax"]);
                format!("({f}({a}, {b}) + ({})0)", t.name())
            }
            4 => {
                // The sign of a NaN is not specified: never copy it.
                let a = self.expr(t, d1);
                let b = self.expr(t, d1);
                let g = self.helpers.nonan(t);
                format!("copysign({a}, {g}({b}))")
            }
            5 => {
                let a = self.expr(t, d1);
                let b = self.expr(t, d1);
                let c = self.expr(t, d1);
                let f = self.helpers.fma(t);
                format!("{f}({a}, {b}, {c})")
            }
            6 => {
                let a = self.expr(t, d1);
                let b = self.expr(t, d1);
                format!("nextafter({a}, {b})")
            }
            7 => {
                let a = self.expr(t, d1);
                format!("sqrt({a})")
            }
            8 => self.select(t, d1),
            9 => self.conversion(t, d1),
            10 => self.as_type(t, d1),
            11 => self.swizzle(t, d1),
            12 => self.construct(t, d1),
            13 => self.shuffle(t, d1),
            14 => self.call(t, d1),
            16 => {
                // Implementations round these differently (within their
                // ulp bounds): only in programs compared across clift's
                // modes alone (`Unit::math`), whose scalar and vector forms
                // must agree bit for bit.
                self.math = true;
                let a = self.expr(t, d1);
                // (No half_ or native_ forms of double.)
                let f = if s == Scalar::Double {
                    let k = self.r.below(MATH_BOTH.len() + MATH_DOUBLE_TOO.len());
                    *MATH_BOTH
                        .iter()
                        .chain(&MATH_DOUBLE_TOO)
                        .nth(k)
                        .expect("k below the length")
                } else {
                    let k = self.r.below(MATH_BOTH.len() + MATH_FLOAT_ONLY.len());
                    *MATH_BOTH
                        .iter()
                        .chain(&MATH_FLOAT_ONLY)
                        .nth(k)
                        .expect("k below the length")
                };
                match f {
                    // An int of the same width: pown's, ldexp's and rootn's
                    // n, kept small (pown of a large n is mostly 0 or inf).
                    "pown" | "ldexp" | "rootn" => {
                        let n = self.expr(t.with(Scalar::Int), d1);
                        format!("{f}({a}, ({n}) % 40)")
                    }
                    "pow" | "powr" | "atan2" | "atan2pi" | "hypot" | "step" | "maxmag" | "minmag" | "native_divide"
                    | "fdim" | "fmod" | "remainder" => {
                        let b = self.expr(t, d1);
                        format!("{f}({a}, {b})")
                    }
                    "mix" | "smoothstep" => {
                        let (b, c) = (self.expr(t, d1), self.expr(t, d1));
                        format!("{f}({a}, {b}, {c})")
                    }
                    // A second result through a pointer.
                    "fract" | "modf" | "sincos" => {
                        let h = self.helpers.pointer_math(f, t);
                        format!("{h}({a})")
                    }
                    _ => format!("{f}({a})"),
                }
            }
            _ => {
                let i = self.index(HALVES_PER_ITEM / t.n as usize, true);
                if t.n == 1 {
                    format!("vload_half({i}, hsp)")
                } else {
                    format!("vload_half{}({i}, hsp)", t.n)
                }
            }
        }
    }

    fn in_kernel(&self) -> bool {
        self.vars.iter().any(|v| v.name == "gid")
    }

    fn select(&mut self, t: Ty, d: u32) -> String {
        let a = self.expr(t, d);
        let b = self.expr(t, d);
        if t.n == 1 && self.r.chance(1, 2) {
            let c = self.cond(self.in_kernel());
            // A conditional promotes short operands to int: cast it back.
            return format!("(({})(({c}) ? {a} : {b}))", t.name());
        }
        let cs = if self.r.chance(1, 2) {
            t.s.signed()
        } else {
            t.s.unsigned()
        };
        let c = self.expr(t.with(cs), d);
        format!("select({a}, {b}, {c})")
    }

    fn compare(&mut self, t: Ty, d: u32) -> String {
        let candidates: Vec<Scalar> = self
            .scalars
            .iter()
            .copied()
            .filter(|u| t.n == 1 || u.bits() == t.s.bits())
            .collect();
        let u = Ty::new(self.r.pick(&candidates), t.n);
        let a = self.expr(u, d);
        if u.s.is_float() && self.r.chance(1, 3) {
            let f = self.r.pick(&["isnan", "isinf", "isfinite", "isnormal"]);
            return format!("{f}({a})");
        }
        let b = self.expr(u, d);
        if u.s.is_float() && self.r.chance(1, 3) {
            // The relational built-ins (same result types as the
            // operators), with the ones no operator spells: ordered and
            // not equal, ordered, unordered.
            let f = self.r.pick(&[
                "isequal",
                "isnotequal",
                "isgreater",
                "isgreaterequal",
                "isless",
                "islessequal",
                "islessgreater",
                "isordered",
                "isunordered",
            ]);
            return format!("{f}({a}, {b})");
        }
        let op = self.r.pick(&["<", "<=", ">", ">=", "==", "!="]);
        format!("({a} {op} {b})")
    }

    fn conversion(&mut self, t: Ty, d: u32) -> String {
        let u = Ty::new(self.r.pick(&self.scalars), t.n);
        let a = self.expr(u, d);
        let sat = if t.s.is_int() && (u.s.is_float() || self.r.chance(1, 2)) {
            "_sat"
        } else {
            ""
        };
        let rnd = if self.r.chance(1, 2) {
            self.r.pick(&["_rte", "_rtz", "_rtp", "_rtn"])
        } else {
            ""
        };
        if t.n == 1 && sat.is_empty() && rnd.is_empty() && !(t.s.is_int() && u.s.is_float()) && self.r.chance(1, 2) {
            return format!("(({}){a})", t.name());
        }
        format!("convert_{}{sat}{rnd}({a})", t.name())
    }

    fn as_type(&mut self, t: Ty, d: u32) -> String {
        let mut options = Vec::new();
        for &s in &self.scalars {
            for n in WIDTHS {
                let u = Ty::new(s, n);
                let ok = if t.n == 3 || n == 3 {
                    t.n == n && s.bits() == t.s.bits()
                } else {
                    u.bytes() == t.bytes()
                };
                if ok {
                    options.push(u);
                }
            }
        }
        let u = self.r.pick(&options);
        let a = self.expr(u, d);
        let a = if u.s.is_float() {
            // A NaN's payload is not specified: never look at its bits.
            let g = self.helpers.nonan(u);
            format!("{g}({a})")
        } else {
            a
        };
        format!("as_{}({a})", t.name())
    }

    fn swizzle(&mut self, t: Ty, d: u32) -> String {
        let m = if t.n == 16 {
            16
        } else {
            self.r.pick(&[2u8, 3, 4, 8, 16])
        };
        let u = Ty::new(t.s, m);
        let a = self.expr(u, d);
        if m != 3 && m == 2 * t.n && self.r.chance(1, 3) {
            let part = self.r.pick(&["lo", "hi", "even", "odd"]);
            return format!("({a}).{part}");
        }
        if m <= 4 && t.n <= 4 && self.r.chance(1, 3) {
            let sw: String = (0..t.n)
                .map(|_| ['x', 'y', 'z', 'w'][self.r.below(m as usize)])
                .collect();
            return format!("({a}).{sw}");
        }
        let sw: String = (0..t.n).map(|_| Ty::lane(self.r.below(m as usize))).collect();
        format!("({a}).s{sw}")
    }

    fn construct(&mut self, t: Ty, d: u32) -> String {
        let mut left = t.n;
        let mut parts = Vec::new();
        while left > 0 {
            let sizes: Vec<u8> = [1u8, 2, 3, 4, 8].iter().copied().filter(|&k| k <= left).collect();
            let k = self.r.pick(&sizes);
            // Each component in parentheses: clang-15 crashes on a vector
            // literal whose first component is a constant vector and a
            // later one a swizzle of a vector expression of the result's
            // width (`(float4)((float3)(1.0f), (a + a).s2)`; seed 301390,
            // README "Known compiler defects").
            parts.push(format!("({})", self.expr(Ty::new(t.s, k), d)));
            left -= k;
        }
        format!("(({})({}))", t.name(), parts.join(", "))
    }

    fn shuffle(&mut self, t: Ty, d: u32) -> String {
        let m = self.r.pick(&[2u8, 4, 8, 16]);
        let u = Ty::new(t.s, m);
        let two = self.r.chance(1, 3);
        let a = self.expr(u, d);
        let range = if two { 2 * m as usize } else { m as usize };
        let mask: Vec<String> = (0..t.n).map(|_| format!("{}", self.r.below(range))).collect();
        let mask = format!("(({})({}))", t.with(t.s.unsigned()).name(), mask.join(", "));
        if two {
            let b = self.expr(u, d);
            format!("shuffle2({a}, {b}, {mask})")
        } else {
            format!("shuffle({a}, {mask})")
        }
    }

    fn call(&mut self, t: Ty, d: u32) -> String {
        let fns: Vec<usize> = (0..self.funcs.len()).filter(|&i| self.funcs[i].ret == t).collect();
        let f = fns[self.r.below(fns.len())];
        let params = self.funcs[f].params.clone();
        let mut args = Vec::new();
        for p in params {
            match p {
                Param::V(pt) => args.push(self.expr(pt, d)),
                Param::S(def) => {
                    let same: Vec<String> = self
                        .svars
                        .iter()
                        .filter(|s| s.def == def)
                        .map(|s| s.name.clone())
                        .collect();
                    if same.is_empty() {
                        return self.leaf(t);
                    }
                    args.push(same[self.r.below(same.len())].clone());
                }
            }
        }
        format!("{}({})", self.funcs[f].name, args.join(", "))
    }
}
