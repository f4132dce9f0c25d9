//! Helper functions a program needs, each written once per type and
//! emitted before the kernels that call them: the safe integer operators,
//! the hashes, NaN guards.

use crate::types::{Scalar, Ty};

/// The helpers one or more units use, in an order where each comes after
/// the helpers it calls.
#[derive(Default, Clone)]
pub struct Helpers {
    list: Vec<(String, String)>,
}

/// Definitions every program starts with.
pub const PRELUDE: &str = "\
static ulong hmix(ulong h, ulong v) {
    h ^= v + 0x9e3779b97f4a7c15UL + (h << 6) + (h >> 2);
    return h * 0x100000001b3UL;
}
static ulong canon_f(float x) { return isnan(x) ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong canon_d(double x) { return isnan(x) ? 0x7ff8000000000000UL : as_ulong(x); }
";

impl Helpers {
    pub fn new(_fp16: bool) -> Helpers {
        Helpers::default()
    }

    /// The helpers, in dependency order.
    pub fn list(&self) -> Vec<(String, String)> {
        self.list.clone()
    }

    fn add(&mut self, name: String, text: impl FnOnce(&mut Helpers) -> String) -> String {
        if !self.list.iter().any(|(n, _)| *n == name) {
            let t = text(self);
            self.list.push((name.clone(), t));
        }
        name
    }

    /// `ulong bits_<s>(s v)`: an integer's value, a float's bits (NaN as
    /// one canonical NaN).
    pub fn bits(&mut self, s: Scalar) -> String {
        let name = format!("bits_{}", s.name());
        let body = match s {
            Scalar::Float => "canon_f(v)".to_string(),
            Scalar::Double => "canon_d(v)".to_string(),
            Scalar::Half => "canon_f(convert_float(v))".to_string(),
            _ => "(ulong)v".to_string(),
        };
        let ty = s.name();
        self.add(name.clone(), |_| {
            format!("static ulong {name}({ty} v) {{ return {body}; }}\n")
        })
    }

    /// `ulong hash_<t>(ulong h, t v)`: `h` mixed with every component.
    pub fn hash(&mut self, t: Ty) -> String {
        self.mixer(format!("hash_{}", t.name()), t, |hp| hp.bits(t.s))
    }

    /// `ulong hashraw_<t>(ulong h, t v)`, for a floating-point type `t`:
    /// `h` mixed with every component's bits as they are, NaNs included
    /// (which the spec leaves open between implementations, but not
    /// between clift's scalar and vector bodies of one module).
    pub fn hash_raw(&mut self, t: Ty) -> String {
        let bits = match t.s {
            Scalar::Float => "(ulong)as_uint",
            Scalar::Half => "(ulong)as_ushort",
            _ => "as_ulong",
        };
        self.mixer(format!("hashraw_{}", t.name()), t, |_| bits.to_string())
    }

    /// `ulong <name>(ulong h, t v)`: `h` mixed with `bits(v)` of every
    /// component, `bits` the function `bits_of` names (adding the helpers
    /// it needs first).
    fn mixer(&mut self, name: String, t: Ty, bits_of: impl FnOnce(&mut Helpers) -> String) -> String {
        let tn = t.name();
        self.add(name.clone(), |hp| {
            let bits = bits_of(hp);
            if t.n == 1 {
                format!("static ulong {name}(ulong h, {tn} v) {{ return hmix(h, {bits}(v)); }}\n")
            } else {
                let mut body = String::new();
                for i in 0..t.n as usize {
                    body.push_str(&format!("    h = hmix(h, {bits}(v.s{}));\n", Ty::lane(i)));
                }
                format!("static ulong {name}(ulong h, {tn} v) {{\n{body}    return h;\n}}\n")
            }
        })
    }

    /// `t nonan_<t>(t x)`: `x` with NaNs replaced by 1.
    pub fn nonan(&mut self, t: Ty) -> String {
        let name = format!("nonan_{}", t.name());
        let tn = t.name();
        self.add(name.clone(), |_| {
            if t.n == 1 {
                format!("static {tn} {name}({tn} x) {{ return isnan(x) ? ({tn})1 : x; }}\n")
            } else {
                format!("static {tn} {name}({tn} x) {{ return select(x, ({tn})1, isnan(x)); }}\n")
            }
        })
    }

    /// `t fop_<op>_<t>(t a, t b)` for a floating-point type `t`: `a op b`
    /// (`op` one of `add`, `sub`, `mul`, `div`), but the NaN literal where
    /// both operands are NaNs. Which of two NaNs an operation passes on is
    /// left open (IEEE 754, 6.2.3); x86 passes its first operand's, and
    /// compilers commute sums and products (Cranelift to fold a load into
    /// the instruction, LLVM at will), so two bodies of one kernel may
    /// differ there. A single NaN operand's bits pass through unchanged.
    pub fn float_op(&mut self, op: &str, t: Ty) -> String {
        let name = format!("fop_{op}_{}", t.name());
        let tn = t.name();
        let sym = match op {
            "add" => "+",
            "sub" => "-",
            "mul" => "*",
            _ => "/",
        };
        self.add(name.clone(), |_| {
            if t.n == 1 {
                format!("static {tn} {name}({tn} a, {tn} b) {{ return (isnan(a) && isnan(b)) ? ({tn})NAN : a {sym} b; }}\n")
            } else {
                format!(
                    "static {tn} {name}({tn} a, {tn} b) {{ return select(a {sym} b, ({tn})(NAN), isnan(a) & isnan(b)); }}\n"
                )
            }
        })
    }

    /// `t fma3_<t>(t a, t b, t c)`: `fma(a, b, c)`, but the NaN literal
    /// where two or three operands are NaNs (see [`Helpers::float_op`]:
    /// x86's fused multiply-adds pass on the first NaN in the order their
    /// form takes the operands, which the register allocation picks).
    pub fn fma(&mut self, t: Ty) -> String {
        let name = format!("fma3_{}", t.name());
        let tn = t.name();
        self.add(name.clone(), |_| {
            if t.n == 1 {
                format!(
                    "static {tn} {name}({tn} a, {tn} b, {tn} c) {{ return ((isnan(a) && isnan(b)) || (isnan(c) && (isnan(a) || isnan(b)))) ? ({tn})NAN : fma(a, b, c); }}\n"
                )
            } else {
                format!(
                    "static {tn} {name}({tn} a, {tn} b, {tn} c) {{ return select(fma(a, b, c), ({tn})(NAN), (isnan(a) & isnan(b)) | (isnan(c) & (isnan(a) | isnan(b)))); }}\n"
                )
            }
        })
    }

    /// `t <f>_both_<t>(t x)` for `f` one of `fract`, `modf` and `sincos`:
    /// the result plus the value the function stores through its pointer
    /// (into a private variable), added as [`Helpers::float_op`] adds.
    pub fn pointer_math(&mut self, f: &str, t: Ty) -> String {
        let name = format!("{f}_both_{}", t.name());
        let tn = t.name();
        self.add(name.clone(), |hp| {
            let add = hp.float_op("add", t);
            format!(
                "static {tn} {name}({tn} x) {{ {tn} p; {tn} r = {f}(x, &p); return {add}(r, p); }}
"
            )
        })
    }

    /// `t clampx_<t>(t x, t a, t b)`: clamp between the smaller and the
    /// larger of `a` and `b` (clamp with min > max is undefined).
    pub fn clamp(&mut self, t: Ty) -> String {
        let name = format!("clampx_{}", t.name());
        let tn = t.name();
        self.add(name.clone(), |_| {
            format!("static {tn} {name}({tn} x, {tn} a, {tn} b) {{ return clamp(x, min(a, b), max(a, b)); }}\n")
        })
    }

    /// `abs` of a signed int or long vector or scalar, which PoCL 3.1
    /// gets wrong for the smallest value (0 instead of 2^31): that value's
    /// result is written out, every other goes to `abs`.
    pub fn abs(&mut self, t: Ty) -> String {
        let name = format!("absx_{}", t.name());
        let tn = t.name();
        let un = t.with(t.s.unsigned()).name();
        let (lo, _) = t.s.range();
        let min = crate::lit::int(t.s, lo);
        let big = crate::lit::int(t.s.unsigned(), -lo);
        self.add(name.clone(), |_| {
            if t.n == 1 {
                format!("static {un} {name}({tn} x) {{ return x == {min} ? {big} : abs(x); }}\n")
            } else {
                format!("static {un} {name}({tn} x) {{ return select(abs(x), ({un})({big}), x == ({tn})({min})); }}\n")
            }
        })
    }

    /// `abs_diff` of signed int or long operands, which PoCL 3.1 gets wrong
    /// when the difference does not fit the signed type (0, or no store at
    /// all): `abs_diff` gets the operands of equal sign, the others' result
    /// is computed in unsigned arithmetic (the same value, by definition).
    pub fn abs_diff(&mut self, t: Ty) -> String {
        let name = format!("absdiffx_{}", t.name());
        let tn = t.name();
        let un = t.with(t.s.unsigned()).name();
        self.add(name.clone(), |_| {
            if t.n == 1 {
                format!(
                    "static {un} {name}({tn} x, {tn} y) {{\n    int same = (x < 0) == (y < 0);\n    \
                     {un} d = abs_diff(x, same ? y : x);\n    \
                     return same ? d : (x > y ? ({un})x - ({un})y : ({un})y - ({un})x);\n}}\n"
                )
            } else {
                let sn = t.compare_result().name();
                format!(
                    "static {un} {name}({tn} x, {tn} y) {{\n    {sn} same = (x < ({tn})0) == (y < ({tn})0);\n    \
                     {un} d = abs_diff(x, select(x, y, same));\n    \
                     {un} m = select(as_{un}(y) - as_{un}(x), as_{un}(x) - as_{un}(y), x > y);\n    \
                     return select(m, d, same);\n}}\n"
                )
            }
        })
    }

    /// A safe integer operation: `add`, `sub`, `mul` (wrapping), `div`,
    /// `rem` (a zero divisor, or MIN / -1, leaves `a`), `shl`, `shr` (count
    /// taken modulo the width), `neg` (wrapping; one operand).
    pub fn int_op(&mut self, op: &str, t: Ty) -> String {
        let name = format!("{op}_{}", t.name());
        let tn = t.name();
        let s = t.s;
        let signed = s.is_signed_int();
        let vector = t.n > 1;
        let u = t.with(s.unsigned()).name();
        let w = if s.bits() == 64 { "ulong" } else { "uint" };
        let m = s.bits() - 1;
        let (lo, _) = s.range();
        let min = crate::lit::int(s, lo);
        let sym = match op {
            "add" => "+",
            "sub" => "-",
            "mul" => "*",
            "div" => "/",
            "rem" => "%",
            _ => "",
        };
        let body = match op {
            "add" | "sub" | "mul" => {
                if !vector {
                    format!("return ({tn})(({w})a {sym} ({w})b);")
                } else if signed {
                    format!("return as_{tn}(as_{u}(a) {sym} as_{u}(b));")
                } else {
                    format!("return a {sym} b;")
                }
            }
            "div" | "rem" => {
                if !vector {
                    if signed {
                        format!("return (b == 0 || (a == {min} && b == -1)) ? a : ({tn})(a {sym} b);")
                    } else {
                        format!("return b == 0 ? a : ({tn})(a {sym} b);")
                    }
                } else {
                    // The divisor's bad lanes become 1 by masks, not by
                    // select: PoCL 3.1 miscompiles `a / select(b, 1, c)`
                    // on char8 (every lane divided by 1).
                    let bad = if signed {
                        format!("(b == ({tn})0) | ((a == ({tn})({min})) & (b == ({tn})(-1)))")
                    } else {
                        format!("b == ({tn})0")
                    };
                    format!("{tn} c = as_{tn}({bad}); return a {sym} ((b & ~c) | (c & ({tn})1));")
                }
            }
            "shl" => {
                if !vector {
                    format!("return ({tn})(({w})a << (({w})b & {m}u));")
                } else if signed {
                    format!("return as_{tn}(as_{u}(a) << (as_{u}(b) & ({u})({m}u)));")
                } else {
                    format!("return a << (b & ({tn})({m}u));")
                }
            }
            "shr" => {
                if !vector {
                    format!("return ({tn})(a >> (b & {m}));")
                } else {
                    format!("return a >> (b & ({tn})({m}));")
                }
            }
            "neg" => {
                if !vector {
                    return self.add(name.clone(), |_| {
                        format!("static {tn} {name}({tn} a) {{ return ({tn})(({w})0 - ({w})a); }}\n")
                    });
                } else if signed {
                    return self.add(name.clone(), |_| {
                        format!("static {tn} {name}({tn} a) {{ return as_{tn}(-as_{u}(a)); }}\n")
                    });
                } else {
                    return self.add(name.clone(), |_| {
                        format!("static {tn} {name}({tn} a) {{ return -a; }}\n")
                    });
                }
            }
            _ => unreachable!("unknown integer operation {op}"),
        };
        self.add(name.clone(), |_| {
            format!("static {tn} {name}({tn} a, {tn} b) {{ {body} }}\n")
        })
    }
}
