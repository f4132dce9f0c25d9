//! OpenCL C `printf` (OpenCL C 3.0, "printf"): the formatter, in Rust (no
//! C library printf ever sees a kernel's format), and the per-launch
//! buffer its output goes to.
//!
//! The JIT lowers `OpExtInst printf` to a call of [`clift_printf`] with the
//! launch's [`PrintfSink`] (from the work-group context), the format's
//! address and the bytes it may read there, and the arguments packed as
//! 8-byte words: per argument a [`descriptor`] word, then one word per
//! component (integers zero-extended, floats as their bits, pointers as
//! addresses). The format and `%s` strings are known at build to lie in a
//! `__constant` program-scope variable; their bounds are what is left of it.
//!
//! What the spec leaves undefined (an invalid conversion specification, a
//! missing argument, an argument of the wrong type or vector shape, a
//! length modifier the conversion does not take, `*`, `ll`, `z`, `n`, a
//! width or precision above [`MAX_FIELD`]) makes the call print nothing and
//! return -1. Infinities print as `inf`, NaNs as `nan` (`-nan` with the
//! sign bit), pointers as `0x` and hexadecimal digits; `%a` keeps the
//! leading digit a carry makes (`%.0a` of 1.5 is `0x2p+0`), as glibc does.

use std::io::Write;
use std::sync::Mutex;

/// A descriptor's kind: an integer scalar or vector.
pub const KIND_INT: u64 = 1;
/// A descriptor's kind: a floating-point scalar or vector.
pub const KIND_FLOAT: u64 = 2;
/// A descriptor's kind: a pointer whose target is not known at build.
pub const KIND_PTR: u64 = 3;
/// A descriptor's kind: a pointer into a `__constant` program-scope
/// variable with at least `bound` readable bytes (a literal string).
pub const KIND_STR: u64 = 4;

/// The widest field (width or precision) a conversion may ask for: C99's
/// minimum limit on the characters one conversion produces.
pub const MAX_FIELD: usize = 4095;

/// The descriptor word of an argument: `kind` in bits 0-3, the component
/// size in bytes in bits 4-7, the component count in bits 8-15, and for
/// [`KIND_STR`] the readable bytes in bits 16-63.
pub fn descriptor(kind: u64, elem_bytes: u64, count: u64, bound: u64) -> u64 {
    (kind & 0xf) | ((elem_bytes & 0xf) << 4) | ((count & 0xff) << 8) | (bound << 16)
}

/// One argument of a printf call, decoded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg<'a> {
    /// An integer scalar (one value) or vector: the components' bits,
    /// zero-extended, and their size in bytes.
    Int { bytes: u8, vals: &'a [u64] },
    /// A float scalar or vector: the components' bits and their size in
    /// bytes (2, 4 or 8).
    Float { bytes: u8, vals: &'a [u64] },
    /// A pointer (`%p` only).
    Ptr(u64),
    /// A literal string: its address (for `%p`) and its bytes up to the end
    /// of its variable.
    Str { addr: u64, bytes: &'a [u8] },
}

/// The output of one launch's printf calls, printed when the launch
/// completes ([`PrintfSink::take`]), or at each call in immediate mode
/// (the runtime's `CLIFT_PRINTF_IMMEDIATE`).
#[derive(Debug)]
pub struct PrintfSink {
    out: Mutex<Vec<u8>>,
    cap: usize,
    immediate: bool,
}

impl PrintfSink {
    /// A buffer holding at most `cap` bytes (CL_DEVICE_PRINTF_BUFFER_SIZE):
    /// a call whose output does not fit prints nothing and returns -1.
    /// With `immediate`, each call's output is printed at once instead,
    /// without the limit.
    pub fn new(cap: usize, immediate: bool) -> PrintfSink {
        PrintfSink {
            out: Mutex::new(Vec::new()),
            cap,
            immediate,
        }
    }

    /// Appends one call's whole output (or prints it, in immediate mode).
    /// False if it did not fit or could not be written.
    pub fn push(&self, bytes: &[u8]) -> bool {
        if self.immediate {
            return write_stdout(bytes);
        }
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        if out.len().saturating_add(bytes.len()) > self.cap {
            return false;
        }
        out.extend_from_slice(bytes);
        true
    }

    /// The output so far, leaving the buffer empty.
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.out.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Writes `bytes` to the process's standard output in one piece and flushes
/// it. False on an I/O error.
pub fn write_stdout(bytes: &[u8]) -> bool {
    if bytes.is_empty() {
        return true;
    }
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|()| out.flush()).is_ok()
}

/// printf: formats the call into a buffer of its own, then appends it
/// whole to `sink` (or prints it if `sink` is null). Returns 0, or -1 if
/// the format or the arguments are invalid or the output does not fit.
///
/// # Safety
/// `fmt` must be readable for `fmt_len` bytes and `args` for `nwords`
/// words; every [`KIND_STR`] argument's address must be readable for its
/// bound; `sink` is null or a live [`PrintfSink`]. The generated code passes
/// addresses inside the program's `__constant` variables with the bytes
/// left in them, its own stack buffer, and the launch's sink.
pub unsafe extern "C" fn clift_printf(
    sink: *const PrintfSink,
    fmt: *const u8,
    fmt_len: u64,
    args: *const u64,
    nwords: u64,
) -> i32 {
    let (Ok(fmt_len), Ok(nwords)) = (usize::try_from(fmt_len), usize::try_from(nwords)) else {
        return -1;
    };
    let fmt = if fmt_len == 0 {
        &[][..]
    } else {
        // SAFETY: the caller guarantees `fmt` is readable for `fmt_len`
        // bytes (a `__constant` variable, which nothing writes).
        unsafe { std::slice::from_raw_parts(fmt, fmt_len) }
    };
    let words = if nwords == 0 {
        &[][..]
    } else {
        // SAFETY: the caller guarantees `args` holds `nwords` words.
        unsafe { std::slice::from_raw_parts(args, nwords) }
    };
    let Some(decoded) = decode_args(words, |addr, len| {
        let len = usize::try_from(len).ok()?;
        if len == 0 || addr == 0 {
            return Some(&[][..]);
        }
        // SAFETY: a KIND_STR argument's address is readable for its bound
        // (the caller's contract).
        Some(unsafe { std::slice::from_raw_parts(addr as *const u8, len) })
    }) else {
        return -1;
    };
    let mut out = Vec::new();
    if format(fmt, &decoded, &mut out).is_err() {
        return -1;
    }
    let ok = if sink.is_null() {
        write_stdout(&out)
    } else {
        // SAFETY: a non-null `sink` is a live PrintfSink (the launch's).
        unsafe { &*sink }.push(&out)
    };
    if ok {
        0
    } else {
        -1
    }
}

/// Decodes packed argument words ([`descriptor`] then components); `string`
/// gives the bytes of a [`KIND_STR`] argument from its address and bound.
/// None if the words are malformed.
pub fn decode_args<'a>(words: &'a [u64], string: impl Fn(u64, u64) -> Option<&'a [u8]>) -> Option<Vec<Arg<'a>>> {
    let mut out = Vec::new();
    let mut at = 0usize;
    while at < words.len() {
        let d = words[at];
        let kind = d & 0xf;
        let bytes = ((d >> 4) & 0xf) as u8;
        let count = ((d >> 8) & 0xff) as usize;
        let vals = words.get(at + 1..at + 1 + count)?;
        at += 1 + count;
        out.push(match kind {
            KIND_INT if count > 0 && matches!(bytes, 1 | 2 | 4 | 8) => Arg::Int { bytes, vals },
            KIND_FLOAT if count > 0 && matches!(bytes, 2 | 4 | 8) => Arg::Float { bytes, vals },
            KIND_PTR if count == 1 => Arg::Ptr(vals[0]),
            KIND_STR if count == 1 => Arg::Str {
                addr: vals[0],
                bytes: string(vals[0], d >> 16)?,
            },
            _ => return None,
        });
    }
    Some(out)
}

/// Why a call prints nothing: the spec leaves it undefined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Invalid;

/// The length modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Len {
    None,
    Hh,
    H,
    Hl,
    L,
}

/// One parsed conversion specification.
#[derive(Debug, Clone, Copy, Default)]
struct Spec {
    minus: bool,
    plus: bool,
    space: bool,
    hash: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
}

/// Formats `fmt` (up to its first NUL) with `args` into `out`. On an
/// invalid specification or argument, `out` may hold part of the output.
pub fn format(fmt: &[u8], args: &[Arg], out: &mut Vec<u8>) -> Result<(), Invalid> {
    let fmt = match fmt.iter().position(|&c| c == 0) {
        Some(n) => &fmt[..n],
        None => fmt,
    };
    let mut args = args.iter();
    let mut i = 0usize;
    while i < fmt.len() {
        let c = fmt[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        let at = |i: usize| fmt.get(i).copied().unwrap_or(0);
        if at(i) == b'%' {
            out.push(b'%');
            i += 1;
            continue;
        }
        let mut s = Spec::default();
        loop {
            match at(i) {
                b'-' => s.minus = true,
                b'+' => s.plus = true,
                b' ' => s.space = true,
                b'#' => s.hash = true,
                b'0' => s.zero = true,
                _ => break,
            }
            i += 1;
        }
        s.width = number(fmt, &mut i)?.unwrap_or(0);
        if at(i) == b'.' {
            i += 1;
            s.precision = Some(number(fmt, &mut i)?.unwrap_or(0));
        }
        let mut vector = None;
        if at(i) == b'v' {
            i += 1;
            let n = number(fmt, &mut i)?.ok_or(Invalid)?;
            if !matches!(n, 2 | 3 | 4 | 8 | 16) {
                return Err(Invalid);
            }
            vector = Some(n);
        }
        let len = match (at(i), at(i + 1)) {
            (b'h', b'h') => Len::Hh,
            (b'h', b'l') => Len::Hl,
            (b'h', _) => Len::H,
            (b'l', _) => Len::L,
            _ => Len::None,
        };
        i += match len {
            Len::None => 0,
            Len::H | Len::L => 1,
            Len::Hh | Len::Hl => 2,
        };
        let conv = at(i);
        i += 1;
        if s.minus {
            s.zero = false;
        }
        if s.plus {
            s.space = false;
        }
        match conv {
            b'd' | b'i' | b'o' | b'u' | b'x' | b'X' => {
                let arg = args.next().ok_or(Invalid)?;
                let Arg::Int { bytes, vals } = *arg else {
                    return Err(Invalid);
                };
                let width = match (vector, len) {
                    (Some(n), _) if vals.len() != n => return Err(Invalid),
                    (Some(_), Len::None) => return Err(Invalid),
                    (Some(_), l) => {
                        let w = len_bytes(l);
                        if w != bytes {
                            return Err(Invalid);
                        }
                        w
                    }
                    (None, Len::Hl) => return Err(Invalid),
                    (None, _) if vals.len() != 1 => return Err(Invalid),
                    (None, Len::L) if bytes != 8 => return Err(Invalid),
                    (None, Len::L) => 8,
                    (None, _) if bytes > 4 => return Err(Invalid),
                    (None, l) => len_bytes(l),
                };
                for (k, &v) in vals.iter().enumerate() {
                    if k > 0 {
                        out.push(b',');
                    }
                    // The argument as promoted, then converted to the
                    // modifier's type.
                    let v = truncate(sign_extend(v, bytes), width);
                    int(out, &s, conv, v, width);
                }
            }
            b'a' | b'A' | b'e' | b'E' | b'f' | b'F' | b'g' | b'G' => {
                let arg = args.next().ok_or(Invalid)?;
                let Arg::Float { bytes, vals } = *arg else {
                    return Err(Invalid);
                };
                match (vector, len) {
                    (Some(n), _) if vals.len() != n => return Err(Invalid),
                    (Some(_), Len::H | Len::Hl | Len::L) if len_bytes(len) == bytes => {}
                    (Some(_), _) => return Err(Invalid),
                    // A scalar is a double (or a float or half where double
                    // is not supported); `l` has no effect, as in C99.
                    (None, Len::None | Len::L) if vals.len() == 1 => {}
                    (None, _) => return Err(Invalid),
                }
                for (k, &v) in vals.iter().enumerate() {
                    if k > 0 {
                        out.push(b',');
                    }
                    float(out, &s, conv, to_f64(v, bytes));
                }
            }
            b'c' => {
                let arg = args.next().ok_or(Invalid)?;
                match (*arg, vector, len) {
                    (Arg::Int { bytes, vals: [v] }, None, Len::None) if bytes <= 4 => {
                        pad(out, &s, &[], &[*v as u8], false);
                    }
                    _ => return Err(Invalid),
                }
            }
            b's' => {
                let arg = args.next().ok_or(Invalid)?;
                match (*arg, vector, len) {
                    (Arg::Str { bytes, .. }, None, Len::None) => {
                        let end = bytes.iter().position(|&c| c == 0).unwrap_or(bytes.len());
                        let end = s.precision.map_or(end, |p| p.min(end));
                        pad(out, &s, &[], &bytes[..end], false);
                    }
                    _ => return Err(Invalid),
                }
            }
            b'p' => {
                let arg = args.next().ok_or(Invalid)?;
                let addr = match (*arg, vector, len) {
                    (Arg::Ptr(a), None, Len::None) | (Arg::Str { addr: a, .. }, None, Len::None) => a,
                    _ => return Err(Invalid),
                };
                pad(out, &s, b"0x", format!("{addr:x}").as_bytes(), false);
            }
            // `%%` with anything between, `*`, `n`, `ll`, `j`, `z`, `t`,
            // `L`, an unknown conversion, or the end of the format.
            _ => return Err(Invalid),
        }
    }
    Ok(())
}

/// A decimal number at `fmt[*i..]`, if there is one (`*` is not one).
fn number(fmt: &[u8], i: &mut usize) -> Result<Option<usize>, Invalid> {
    let start = *i;
    let mut n = 0usize;
    while let Some(&c) = fmt.get(*i).filter(|c| c.is_ascii_digit()) {
        n = n * 10 + usize::from(c - b'0');
        if n > MAX_FIELD {
            return Err(Invalid);
        }
        *i += 1;
    }
    Ok((*i > start).then_some(n))
}

/// The component size a length modifier names (`int` without one).
fn len_bytes(l: Len) -> u8 {
    match l {
        Len::Hh => 1,
        Len::H => 2,
        Len::None | Len::Hl => 4,
        Len::L => 8,
    }
}

/// `v`'s low `bytes` bytes, sign-extended to 64 bits.
fn sign_extend(v: u64, bytes: u8) -> u64 {
    let s = 64 - 8 * u32::from(bytes);
    (((v << s) as i64) >> s) as u64
}

/// `v`'s low `bytes` bytes.
fn truncate(v: u64, bytes: u8) -> u64 {
    if bytes >= 8 {
        v
    } else {
        v & ((1u64 << (8 * u32::from(bytes))) - 1)
    }
}

/// A float argument's value (halves and floats convert exactly).
fn to_f64(bits: u64, bytes: u8) -> f64 {
    match bytes {
        2 => f64::from(crate::half::clift_half_to_f32(bits as u32)),
        4 => f64::from(f32::from_bits(bits as u32)),
        _ => f64::from_bits(bits),
    }
}

/// Writes `prefix` (sign, base prefix) and `body`, padded to the width:
/// with spaces on the left (on the right with `-`), or with zeros between
/// the two when `zeros`.
fn pad(out: &mut Vec<u8>, s: &Spec, prefix: &[u8], body: &[u8], zeros: bool) {
    let fill = s.width.saturating_sub(prefix.len() + body.len());
    if s.minus {
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
        out.resize(out.len() + fill, b' ');
    } else if zeros {
        out.extend_from_slice(prefix);
        out.resize(out.len() + fill, b'0');
        out.extend_from_slice(body);
    } else {
        out.resize(out.len() + fill, b' ');
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
    }
}

/// The sign a signed conversion writes for a value of sign `negative`.
fn sign(s: &Spec, negative: bool) -> &'static [u8] {
    if negative {
        b"-"
    } else if s.plus {
        b"+"
    } else if s.space {
        b" "
    } else {
        b""
    }
}

/// An integer conversion of `v`, a value of `bytes` bytes.
fn int(out: &mut Vec<u8>, s: &Spec, conv: u8, v: u64, bytes: u8) {
    let signed = matches!(conv, b'd' | b'i');
    let (negative, mag) = if signed {
        let x = sign_extend(v, bytes) as i64;
        (x < 0, x.unsigned_abs())
    } else {
        (false, v)
    };
    let mut digits = match conv {
        b'o' => format!("{mag:o}"),
        b'x' => format!("{mag:x}"),
        b'X' => format!("{mag:X}"),
        _ => format!("{mag}"),
    }
    .into_bytes();
    let precision = s.precision.unwrap_or(1);
    if precision == 0 && mag == 0 {
        digits.clear();
    }
    if digits.len() < precision {
        let mut d = vec![b'0'; precision - digits.len()];
        d.extend_from_slice(&digits);
        digits = d;
    }
    if conv == b'o' && s.hash && digits.first() != Some(&b'0') {
        digits.insert(0, b'0');
    }
    let prefix: &[u8] = match conv {
        b'x' if s.hash && mag != 0 => b"0x",
        b'X' if s.hash && mag != 0 => b"0X",
        b'd' | b'i' => sign(s, negative),
        _ => b"",
    };
    pad(out, s, prefix, &digits, s.zero && s.precision.is_none());
}

/// A floating-point conversion of `x`.
fn float(out: &mut Vec<u8>, s: &Spec, conv: u8, x: f64) {
    let upper = conv.is_ascii_uppercase();
    let negative = x.is_sign_negative();
    let a = x.abs();
    if !a.is_finite() {
        let body: &[u8] = match (a.is_nan(), upper) {
            (true, false) => b"nan",
            (true, true) => b"NAN",
            (false, false) => b"inf",
            (false, true) => b"INF",
        };
        pad(out, s, sign(s, negative), body, false);
        return;
    }
    let body = match conv.to_ascii_lowercase() {
        b'f' => fixed(a, s.precision.unwrap_or(6), s.hash),
        b'e' => exponent(a, s.precision.unwrap_or(6), s.hash, upper),
        b'g' => general(a, s.precision, s.hash, upper),
        _ => hex(a, s.precision, s.hash, upper),
    };
    let sg = sign(s, negative);
    if conv.eq_ignore_ascii_case(&b'a') {
        let mut prefix = sg.to_vec();
        prefix.extend_from_slice(if upper { b"0X" } else { b"0x" });
        pad(out, s, &prefix, &body[2..], s.zero);
    } else {
        pad(out, s, sg, &body, s.zero);
    }
}

/// `%f` of the nonnegative finite `a`: correctly rounded (ties to even).
fn fixed(a: f64, p: usize, hash: bool) -> Vec<u8> {
    let mut v = format!("{a:.p$}").into_bytes();
    if p == 0 && hash {
        v.push(b'.');
    }
    v
}

/// The digits (`d.ddd`) and decimal exponent of `a` with `p` digits after
/// the point, correctly rounded.
fn sci(a: f64, p: usize) -> (Vec<u8>, i32) {
    let t = format!("{a:.p$e}");
    let (m, e) = t.split_once('e').unwrap_or((&t, "0"));
    (m.as_bytes().to_vec(), e.parse().unwrap_or(0))
}

/// `%e` of the nonnegative finite `a`.
fn exponent(a: f64, p: usize, hash: bool, upper: bool) -> Vec<u8> {
    let (mut m, e) = sci(a, p);
    if p == 0 && hash {
        m.push(b'.');
    }
    m.push(if upper { b'E' } else { b'e' });
    m.push(if e < 0 { b'-' } else { b'+' });
    m.extend_from_slice(format!("{:02}", e.unsigned_abs()).as_bytes());
    m
}

/// `%g` of the nonnegative finite `a`.
fn general(a: f64, precision: Option<usize>, hash: bool, upper: bool) -> Vec<u8> {
    let p = match precision {
        None => 6,
        Some(0) => 1,
        Some(p) => p,
    };
    let x = if a == 0.0 { 0 } else { sci(a, p - 1).1 };
    let mut v = if (x as i64) < p as i64 && x >= -4 {
        fixed(a, (p as i64 - 1 - i64::from(x)) as usize, hash)
    } else {
        exponent(a, p - 1, hash, upper)
    };
    if !hash {
        // Trailing zeros of the fraction go, then a bare point.
        let exp_at = v.iter().position(|&c| c == b'e' || c == b'E').unwrap_or(v.len());
        if v[..exp_at].contains(&b'.') {
            let mut end = exp_at;
            while v[end - 1] == b'0' {
                end -= 1;
            }
            if v[end - 1] == b'.' {
                end -= 1;
            }
            v.drain(end..exp_at);
        }
    }
    v
}

/// `%a` of the nonnegative finite `a` (as `0xh.hhhp±d`, the prefix
/// included): exact without a precision, else rounded to nearest, ties to
/// even.
fn hex(a: f64, precision: Option<usize>, hash: bool, upper: bool) -> Vec<u8> {
    let bits = a.to_bits();
    let biased = (bits >> 52) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (mut lead, exp) = match (biased, frac) {
        (0, 0) => (0u64, 0),
        (0, _) => (0, -1022),
        _ => (1, biased - 1023),
    };
    // 13 hex digits hold the 52 fraction bits.
    let mut digits: Vec<u8> = (0..13).rev().map(|k| ((frac >> (4 * k)) & 0xf) as u8).collect();
    match precision {
        None => {
            while digits.last() == Some(&0) {
                digits.pop();
            }
        }
        Some(p) if p < 13 => {
            let drop = 4 * (13 - p) as u32;
            let kept = frac >> drop;
            let rest = frac & ((1u64 << drop) - 1);
            let half = 1u64 << (drop - 1);
            // Ties go to the even last digit kept (the leading one when
            // no fraction digit is kept).
            let odd = if p == 0 { lead & 1 } else { kept & 1 };
            let up = rest > half || (rest == half && odd == 1);
            let mut kept = kept + u64::from(up);
            if p == 0 || kept >> (4 * p) != 0 {
                lead += kept >> (4 * p);
                kept &= (1u64 << (4 * p)) - 1;
            }
            digits = (0..p).rev().map(|k| ((kept >> (4 * k)) & 0xf) as u8).collect();
        }
        Some(p) => digits.resize(p, 0),
    }
    let hexd = |d: u64| {
        let c = b"0123456789abcdef"[d as usize];
        if upper {
            c.to_ascii_uppercase()
        } else {
            c
        }
    };
    let mut v = if upper { b"0X".to_vec() } else { b"0x".to_vec() };
    v.push(hexd(lead));
    if !digits.is_empty() || hash {
        v.push(b'.');
    }
    v.extend(digits.iter().map(|&d| hexd(u64::from(d))));
    v.push(if upper { b'P' } else { b'p' });
    v.push(if exp < 0 { b'-' } else { b'+' });
    v.extend_from_slice(exp.unsigned_abs().to_string().as_bytes());
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(fmt: &str, args: &[Arg]) -> Result<String, Invalid> {
        let mut out = Vec::new();
        format(fmt.as_bytes(), args, &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    fn ok(fmt: &str, args: &[Arg]) -> String {
        run(fmt, args).unwrap_or_else(|_| panic!("{fmt:?} is invalid"))
    }

    fn i32v(v: &[u64]) -> Arg<'_> {
        Arg::Int { bytes: 4, vals: v }
    }

    fn f32b(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    #[test]
    fn integers_with_flags_width_and_precision() {
        let m5 = (-5i32) as u32 as u64;
        let cases: &[(&str, u64, &str)] = &[
            ("%d", 42, "42"),
            ("%i", m5, "-5"),
            ("%5d|", 42, "   42|"),
            ("%-5d|", 42, "42   |"),
            ("%05d", m5, "-0005"),
            ("%+d", 42, "+42"),
            ("% d", 42, " 42"),
            ("%+ d", 42, "+42"),
            ("%.3d", 7, "007"),
            ("%08.3d", 7, "     007"),
            ("%.0d|", 0, "|"),
            ("%u", m5, "4294967291"),
            ("%o", 8, "10"),
            ("%#o", 8, "010"),
            ("%#o", 0, "0"),
            ("%#.0o", 0, "0"),
            ("%x", 255, "ff"),
            ("%X", 255, "FF"),
            ("%#x", 255, "0xff"),
            ("%#x", 0, "0"),
            ("%#010x", 255, "0x000000ff"),
            ("%-#8X|", 255, "0XFF    |"),
            ("%hhd", 0x1ff, "-1"),
            ("%hhu", 0x1ff, "255"),
            ("%hd", 0x18000, "-32768"),
            ("%hx", 0x12345, "2345"),
            ("%+u", 3, "3"),
            ("%d", 0x8000_0000, "-2147483648"),
        ];
        for &(f, v, want) in cases {
            assert_eq!(ok(f, &[i32v(&[v])]), want, "{f}");
        }
        let l = [i64::MIN as u64];
        assert_eq!(ok("%ld", &[Arg::Int { bytes: 8, vals: &l }]), "-9223372036854775808");
        assert_eq!(
            ok(
                "%lu",
                &[Arg::Int {
                    bytes: 8,
                    vals: &[u64::MAX]
                }]
            ),
            "18446744073709551615"
        );
        assert_eq!(
            ok(
                "%lx",
                &[Arg::Int {
                    bytes: 8,
                    vals: &[u64::MAX]
                }]
            ),
            "ffffffffffffffff"
        );
        // `%c`: the int converted to unsigned char.
        assert_eq!(ok("[%3c|%-2c]", &[i32v(&[0x141]), i32v(&[b'z'.into()])]), "[  A|z ]");
    }

    #[test]
    fn floats_in_every_style() {
        let cases: &[(&str, f64, &str)] = &[
            ("%f", 1.5, "1.500000"),
            ("%.0f", 0.5, "0"),
            ("%.0f", 1.5, "2"),
            ("%.0f", 2.5, "2"),
            ("%#.0f", 3.0, "3."),
            ("%8.3f|", -3.25159, "  -3.252|"),
            ("%-8.2f|", 2.0, "2.00    |"),
            ("%08.2f", -2.5, "-0002.50"),
            ("%+f", 0.0, "+0.000000"),
            ("% .1f", 1.0, " 1.0"),
            ("%f", -0.0, "-0.000000"),
            ("%F", 1e20, "100000000000000000000.000000"),
            ("%e", 1234.5, "1.234500e+03"),
            ("%.2e", 1234.5, "1.23e+03"),
            ("%E", 0.000123, "1.230000E-04"),
            ("%e", 0.0, "0.000000e+00"),
            ("%.0e", 25.0, "2e+01"),
            ("%#.0e", 25.0, "2.e+01"),
            ("%e", 1e300, "1.000000e+300"),
            ("%12.3e|", -1.0, "  -1.000e+00|"),
            ("%g", 100000.0, "100000"),
            ("%g", 1000000.0, "1e+06"),
            ("%g", 0.0001, "0.0001"),
            ("%g", 0.00001, "1e-05"),
            ("%g", 1.5, "1.5"),
            ("%g", 0.0, "0"),
            ("%.3g", 3.24159, "3.24"),
            ("%.0g", 3.9, "4"),
            ("%#g", 1.5, "1.50000"),
            ("%#.3g", 1.0, "1.00"),
            ("%G", 1e-10, "1E-10"),
            ("%g", 123456789.0, "1.23457e+08"),
            ("%010g", -1.5, "-0000001.5"),
            ("%a", 1.0, "0x1p+0"),
            ("%a", 0.5, "0x1p-1"),
            ("%a", 0.0, "0x0p+0"),
            ("%a", -2.0, "-0x1p+1"),
            ("%A", 255.0, "0X1.FEP+7"),
            ("%.1a", 1.0, "0x1.0p+0"),
            ("%.0a", 1.5, "0x2p+0"),
            ("%.0a", 1.25, "0x1p+0"),
            ("%#.0a", 1.0, "0x1.p+0"),
            ("%.1a", 1.96875, "0x2.0p+0"),
            ("%.2a", 1.0 / 3.0, "0x1.55p-2"),
            ("%a", 5e-324, "0x0.0000000000001p-1022"),
            ("%12a|", 1.0, "      0x1p+0|"),
            ("%012a|", -1.0, "-0x000001p+0|"),
            ("%f", f64::INFINITY, "inf"),
            ("%F", f64::NEG_INFINITY, "-INF"),
            ("%+e", f64::INFINITY, "+inf"),
            ("%05f", f64::INFINITY, "  inf"),
            ("%g", f64::NAN, "nan"),
            ("%A", -f64::NAN, "-NAN"),
            ("%-6f|", f64::NAN, "nan   |"),
        ];
        for &(f, v, want) in cases {
            let b = [v.to_bits()];
            assert_eq!(ok(f, &[Arg::Float { bytes: 8, vals: &b }]), want, "{f} of {v}");
        }
        // A float argument (double not supported) is its exact value.
        let b = [f32b(0.1)];
        assert_eq!(
            ok(
                "%a %.10f",
                &[Arg::Float { bytes: 4, vals: &b }, Arg::Float { bytes: 4, vals: &b }]
            ),
            "0x1.99999ap-4 0.1000000015"
        );
        // A half (bits 0x3e00 = 1.5).
        assert_eq!(
            ok(
                "%.1v2hf",
                &[Arg::Float {
                    bytes: 2,
                    vals: &[0x3e00, 0xbc00]
                }]
            ),
            "1.5,-1.0"
        );
    }

    #[test]
    fn vectors() {
        let f4 = [f32b(1.0), f32b(2.0), f32b(3.0), f32b(4.0)];
        assert_eq!(
            ok("f4 = %2.2v4hlf", &[Arg::Float { bytes: 4, vals: &f4 }]),
            "f4 = 1.00,2.00,3.00,4.00"
        );
        let uc = [0xfa, 0xfb, 0xfc, 0xfd];
        assert_eq!(
            ok("uc = %#v4hhx", &[Arg::Int { bytes: 1, vals: &uc }]),
            "uc = 0xfa,0xfb,0xfc,0xfd"
        );
        assert_eq!(ok("%v4hhd", &[Arg::Int { bytes: 1, vals: &uc }]), "-6,-5,-4,-3");
        let s2 = [0xffff, 7];
        assert_eq!(
            ok(
                "%v2hd|%v2hu",
                &[Arg::Int { bytes: 2, vals: &s2 }, Arg::Int { bytes: 2, vals: &s2 }]
            ),
            "-1,7|65535,7"
        );
        let l3 = [u64::MAX, 1, 2];
        assert_eq!(ok("%3v3ld", &[Arg::Int { bytes: 8, vals: &l3 }]), " -1,  1,  2");
        let i16: Vec<u64> = (0..16).collect();
        assert_eq!(
            ok("%v16hlx", &[Arg::Int { bytes: 4, vals: &i16 }]),
            "0,1,2,3,4,5,6,7,8,9,a,b,c,d,e,f"
        );
        let f8: Vec<u64> = (0..8).map(|k| f32b(k as f32 / 2.0)).collect();
        assert_eq!(
            ok("%v8hlg", &[Arg::Float { bytes: 4, vals: &f8 }]),
            "0,0.5,1,1.5,2,2.5,3,3.5"
        );
        assert_eq!(
            ok(
                "%v2le",
                &[Arg::Float {
                    bytes: 8,
                    vals: &[1f64.to_bits(), 0]
                }]
            ),
            "1.000000e+00,0.000000e+00"
        );
    }

    #[test]
    fn strings_pointers_and_percent() {
        let s = Arg::Str {
            addr: 0x1000,
            bytes: b"hello\0junk",
        };
        assert_eq!(ok("[%s]", &[s]), "[hello]");
        assert_eq!(ok("[%8s]", &[s]), "[   hello]");
        assert_eq!(ok("[%-8s]", &[s]), "[hello   ]");
        assert_eq!(ok("[%.3s]", &[s]), "[hel]");
        assert_eq!(ok("[%.9s]", &[s]), "[hello]");
        // No NUL before the end of the variable: its bytes, no further.
        assert_eq!(ok("%s", &[Arg::Str { addr: 1, bytes: b"abc" }]), "abc");
        assert_eq!(ok("%p", &[Arg::Ptr(0xdead_beef)]), "0xdeadbeef");
        assert_eq!(ok("%12p|", &[s]), "      0x1000|");
        assert_eq!(ok("100%% %d%%", &[i32v(&[5])]), "100% 5%");
        // Text after a NUL is not part of the format; excess arguments are
        // ignored.
        assert_eq!(ok("a\0%d", &[]), "a");
        assert_eq!(ok("x", &[i32v(&[1])]), "x");
    }

    #[test]
    fn what_the_spec_leaves_undefined_is_refused() {
        let i = [1u64];
        let int = Arg::Int { bytes: 4, vals: &i };
        let long = Arg::Int { bytes: 8, vals: &i };
        let f = Arg::Float { bytes: 4, vals: &i };
        let v2 = Arg::Int {
            bytes: 4,
            vals: &[1, 2],
        };
        let bad: &[(&str, &[Arg])] = &[
            ("%d", &[]),
            ("%d %d", &[int]),
            ("%", &[int]),
            ("%5", &[int]),
            ("%q", &[int]),
            ("%n", &[int]),
            ("%*d", &[int, int]),
            ("%.*d", &[int, int]),
            ("%lld", &[long]),
            ("%zd", &[long]),
            ("%jd", &[long]),
            ("%Lf", &[f]),
            ("%5%", &[]),
            ("%-%", &[]),
            ("%d", &[f]),
            ("%f", &[int]),
            ("%d", &[long]),
            ("%ld", &[int]),
            ("%hld", &[int]),
            ("%hf", &[f]),
            ("%s", &[int]),
            ("%s", &[Arg::Ptr(8)]),
            ("%ls", &[Arg::Str { addr: 1, bytes: b"a\0" }]),
            ("%lc", &[int]),
            ("%hhc", &[int]),
            ("%p", &[int]),
            ("%lp", &[Arg::Ptr(8)]),
            ("%v2d", &[v2]),
            ("%v2hhd", &[v2]),
            ("%v3hld", &[v2]),
            ("%v5hld", &[v2]),
            ("%v1hld", &[int]),
            ("%vhld", &[v2]),
            ("%v2hld", &[int]),
            ("%d", &[v2]),
            ("%v2hlc", &[v2]),
            ("%v2hls", &[v2]),
            (
                "%v2hhf",
                &[Arg::Float {
                    bytes: 4,
                    vals: &[0, 0],
                }],
            ),
            (
                "%v2hf",
                &[Arg::Float {
                    bytes: 4,
                    vals: &[0, 0],
                }],
            ),
            ("%5000d", &[int]),
            ("%.99999f", &[f]),
        ];
        for (fmt, args) in bad {
            assert_eq!(run(fmt, args), Err(Invalid), "{fmt:?}");
        }
    }

    #[test]
    fn packed_arguments_decode() {
        let words = [
            descriptor(KIND_INT, 4, 1, 0),
            7,
            descriptor(KIND_FLOAT, 4, 2, 0),
            f32b(1.0),
            f32b(2.0),
            descriptor(KIND_STR, 8, 1, 3),
            0x40,
            descriptor(KIND_PTR, 8, 1, 0),
            0x80,
        ];
        let args = decode_args(&words, |a, n| (a == 0x40 && n == 3).then_some(&b"ab\0"[..])).unwrap();
        assert_eq!(
            args,
            vec![
                Arg::Int { bytes: 4, vals: &[7] },
                Arg::Float {
                    bytes: 4,
                    vals: &[f32b(1.0), f32b(2.0)]
                },
                Arg::Str {
                    addr: 0x40,
                    bytes: b"ab\0"
                },
                Arg::Ptr(0x80),
            ]
        );
        // Truncated or malformed words are refused.
        assert!(decode_args(&words[..4], |_, _| None).is_none());
        assert!(decode_args(&[descriptor(9, 4, 1, 0), 0], |_, _| None).is_none());
        assert!(decode_args(&[descriptor(KIND_INT, 3, 1, 0), 0], |_, _| None).is_none());
        assert!(decode_args(&[descriptor(KIND_INT, 4, 0, 0)], |_, _| None).is_none());
    }

    #[test]
    fn the_host_function_returns_0_or_minus_1_and_keeps_calls_whole() {
        let sink = PrintfSink::new(64, false);
        let fmt = b"v=%d %s\n\0";
        let s = b"str\0";
        let words = [
            descriptor(KIND_INT, 4, 1, 0),
            42,
            descriptor(KIND_STR, 8, 1, 4),
            s.as_ptr() as u64,
        ];
        let call = |fmt: &[u8], words: &[u64]| {
            // SAFETY: `fmt`, `words` and the string are live for their
            // lengths; `sink` is live.
            unsafe {
                clift_printf(
                    &sink,
                    fmt.as_ptr(),
                    fmt.len() as u64,
                    words.as_ptr(),
                    words.len() as u64,
                )
            }
        };
        assert_eq!(call(fmt, &words), 0);
        assert_eq!(call(b"%q", &words), -1);
        assert_eq!(call(b"%d %d", &words[..2]), -1);
        assert_eq!(sink.take(), b"v=42 str\n");
        // Past the buffer's capacity a call prints nothing and fails.
        let long = [b'x'; 40];
        assert_eq!(call(&long, &[]), 0);
        assert_eq!(call(&long, &[]), -1);
        assert_eq!(sink.take(), long.to_vec());
    }
}
