//! The OpenCL C types the generator uses: scalars and vectors of them.

/// A scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    /// Arithmetic only in programs generated for `cl_khr_fp16`; otherwise
    /// halves exist only in memory, through `vload_half` and `vstore_half`.
    Half,
    Float,
    Double,
}

use Scalar::*;

/// The integer scalars.
pub const INTS: [Scalar; 8] = [Char, UChar, Short, UShort, Int, UInt, Long, ULong];

impl Scalar {
    /// The OpenCL C spelling.
    pub fn name(self) -> &'static str {
        match self {
            Char => "char",
            UChar => "uchar",
            Short => "short",
            UShort => "ushort",
            Int => "int",
            UInt => "uint",
            Long => "long",
            ULong => "ulong",
            Half => "half",
            Float => "float",
            Double => "double",
        }
    }

    /// Size in bits.
    pub fn bits(self) -> u32 {
        match self {
            Char | UChar => 8,
            Short | UShort | Half => 16,
            Int | UInt | Float => 32,
            Long | ULong | Double => 64,
        }
    }

    /// Size in bytes.
    pub fn bytes(self) -> usize {
        self.bits() as usize / 8
    }

    pub fn is_float(self) -> bool {
        matches!(self, Half | Float | Double)
    }

    pub fn is_int(self) -> bool {
        !self.is_float()
    }

    pub fn is_signed_int(self) -> bool {
        matches!(self, Char | Short | Int | Long)
    }

    /// The unsigned integer of the same size (floats too: their bits).
    pub fn unsigned(self) -> Scalar {
        match self.bits() {
            8 => UChar,
            16 => UShort,
            32 => UInt,
            _ => ULong,
        }
    }

    /// The signed integer of the same size.
    pub fn signed(self) -> Scalar {
        match self.bits() {
            8 => Char,
            16 => Short,
            32 => Int,
            _ => Long,
        }
    }

    /// The integer of twice the size and the same signedness (`upsample`).
    pub fn wider(self) -> Option<Scalar> {
        Some(match self {
            Char => Short,
            UChar => UShort,
            Short => Int,
            UShort => UInt,
            Int => Long,
            UInt => ULong,
            _ => return None,
        })
    }

    /// The integer of half the size and the same signedness.
    pub fn narrower(self) -> Option<Scalar> {
        Some(match self {
            Short => Char,
            UShort => UChar,
            Int => Short,
            UInt => UShort,
            Long => Int,
            ULong => UInt,
            _ => return None,
        })
    }

    /// Smallest and largest value of an integer scalar.
    pub fn range(self) -> (i128, i128) {
        let b = self.bits();
        if self.is_signed_int() {
            (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
        } else {
            (0, (1i128 << b) - 1)
        }
    }
}

/// Vector widths OpenCL C has (1 is the scalar).
pub const WIDTHS: [u8; 6] = [1, 2, 3, 4, 8, 16];

/// A scalar (`n == 1`) or vector type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ty {
    pub s: Scalar,
    pub n: u8,
}

impl Ty {
    pub const fn new(s: Scalar, n: u8) -> Ty {
        Ty { s, n }
    }

    pub const fn scalar(s: Scalar) -> Ty {
        Ty { s, n: 1 }
    }

    /// The OpenCL C spelling (`int`, `float4`).
    pub fn name(self) -> String {
        if self.n == 1 {
            self.s.name().to_string()
        } else {
            format!("{}{}", self.s.name(), self.n)
        }
    }

    /// The same shape with another scalar.
    pub fn with(self, s: Scalar) -> Ty {
        Ty { s, n: self.n }
    }

    /// Size in bytes (a 3-vector takes the room of a 4-vector).
    pub fn bytes(self) -> usize {
        self.s.bytes() * if self.n == 3 { 4 } else { self.n as usize }
    }

    /// The type a comparison of two values of this type yields: `int` for
    /// scalars, the signed integer vector of the same element size for
    /// vectors.
    pub fn compare_result(self) -> Ty {
        if self.n == 1 {
            Ty::scalar(Int)
        } else {
            self.with(self.s.signed())
        }
    }

    /// Swizzle component names: `s0` .. `sf`.
    pub fn lane(i: usize) -> char {
        char::from_digit(i as u32, 16).expect("lane below 16")
    }
}
