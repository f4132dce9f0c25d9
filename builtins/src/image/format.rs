//! Which (channel order, channel data type) pairs exist, how their texels
//! are laid out in memory, and which of them clift offers.
//!
//! Valid pairs (the API spec's "Image Format Descriptor" tables, as OpenCL
//! 2.x words them):
//! - R, A, RG, RA, RGBA, and Rx / RGx (which store like R / RG): the twelve
//!   plain types (UNORM and SNORM 8/16, signed and unsigned 8/16/32, HALF,
//!   FLOAT); RGBA also UNORM_INT_101010_2 ("The channel order must be
//!   CL_RGBA");
//! - RGB and RGBx: only UNORM_SHORT_565, UNORM_SHORT_555 and
//!   UNORM_INT_101010 ("The channel order must be CL_RGB or CL_RGBx"; a
//!   texel's bits "must be a power of two", which three 8-, 16- or 32-bit
//!   channels are not);
//! - BGRA, ARGB, ABGR: the 8-bit types (UNORM, SNORM, signed, unsigned);
//! - INTENSITY, LUMINANCE: UNORM and SNORM 8/16, HALF, FLOAT;
//! - DEPTH: UNORM_INT16 and FLOAT;
//! - sRGB, sRGBx, sRGBA, sBGRA: UNORM_INT8 (sRGB is 3 bytes a texel, as the
//!   CTS stores it);
//! - DEPTH_STENCIL and UNORM_INT24 belong to cl_khr_gl_depth_images, whose
//!   images "can only be created using the clCreateFromGLTexture API":
//!   clift has no GL sharing, so they are not valid here.
//!
//! Rx and RGx: the current API text calls them "two channel" and "three
//! channel" formats with the last channel ignored, but OpenCL 2.x's table
//! groups "CL_R, CL_Rx, or CL_A" and "CL_RG, CL_RGx, or CL_RA", and the
//! Khronos CTS (`get_format_channel_count`) and PoCL store Rx with one
//! channel and RGx with two; clift does the same, so applications and the
//! CTS agree with it on the bytes of a texel.

use super::{data_type as dt, image_type as it, kind, order as o, Format};

/// How one channel (or, for the packed types, one whole texel) is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Channel {
    Unorm8,
    Unorm16,
    Snorm8,
    Snorm16,
    Sint8,
    Sint16,
    Sint32,
    Uint8,
    Uint16,
    Uint32,
    Half,
    Float,
    /// R in bits 15:11, G in 10:5, B in 4:0 of a 16-bit word.
    Unorm565,
    /// Bit 15 unused, R in 14:10, G in 9:5, B in 4:0.
    Unorm555,
    /// Bits 31:30 unused, R in 29:20, G in 19:10, B in 9:0.
    Unorm101010,
    /// R in 31:22, G in 21:12, B in 11:2, A in 1:0.
    Unorm1010102,
}

impl Channel {
    pub(crate) const fn of(data_type: u32) -> Option<Channel> {
        Some(match data_type {
            dt::UNORM_INT8 => Channel::Unorm8,
            dt::UNORM_INT16 => Channel::Unorm16,
            dt::SNORM_INT8 => Channel::Snorm8,
            dt::SNORM_INT16 => Channel::Snorm16,
            dt::SIGNED_INT8 => Channel::Sint8,
            dt::SIGNED_INT16 => Channel::Sint16,
            dt::SIGNED_INT32 => Channel::Sint32,
            dt::UNSIGNED_INT8 => Channel::Uint8,
            dt::UNSIGNED_INT16 => Channel::Uint16,
            dt::UNSIGNED_INT32 => Channel::Uint32,
            dt::HALF_FLOAT => Channel::Half,
            dt::FLOAT => Channel::Float,
            dt::UNORM_SHORT_565 => Channel::Unorm565,
            dt::UNORM_SHORT_555 => Channel::Unorm555,
            dt::UNORM_INT_101010 => Channel::Unorm101010,
            dt::UNORM_INT_101010_2 => Channel::Unorm1010102,
            _ => return None,
        })
    }

    /// The [`kind`] read_image / write_image use for this type.
    pub(crate) const fn kind(self) -> u32 {
        match self {
            Channel::Sint8 | Channel::Sint16 | Channel::Sint32 => kind::INT,
            Channel::Uint8 | Channel::Uint16 | Channel::Uint32 => kind::UINT,
            _ => kind::FLOAT,
        }
    }

    /// Bytes of one channel, or of the whole texel for the packed types.
    const fn bytes(self) -> usize {
        match self {
            Channel::Unorm8 | Channel::Snorm8 | Channel::Sint8 | Channel::Uint8 => 1,
            Channel::Unorm16
            | Channel::Snorm16
            | Channel::Sint16
            | Channel::Uint16
            | Channel::Half
            | Channel::Unorm565
            | Channel::Unorm555 => 2,
            Channel::Sint32 | Channel::Uint32 | Channel::Float | Channel::Unorm101010 | Channel::Unorm1010102 => 4,
        }
    }

    /// The number of fields of a packed type; `None` for the others.
    const fn packed_fields(self) -> Option<usize> {
        match self {
            Channel::Unorm565 | Channel::Unorm555 | Channel::Unorm101010 => Some(3),
            Channel::Unorm1010102 => Some(4),
            _ => None,
        }
    }

    /// The twelve types every plain order takes.
    const fn plain(self) -> bool {
        self.packed_fields().is_none()
    }
}

/// Whether `order` and `ch` combine (see the module's list).
const fn pair_valid(order: u32, ch: Channel) -> bool {
    use Channel::*;
    match order {
        o::R | o::A | o::RG | o::RA | o::RX | o::RGX => ch.plain(),
        o::RGBA => ch.plain() || matches!(ch, Unorm1010102),
        o::RGB | o::RGBX => matches!(ch, Unorm565 | Unorm555 | Unorm101010),
        o::BGRA | o::ARGB | o::ABGR => matches!(ch, Unorm8 | Snorm8 | Sint8 | Uint8),
        o::INTENSITY | o::LUMINANCE => matches!(ch, Unorm8 | Unorm16 | Snorm8 | Snorm16 | Half | Float),
        o::DEPTH => matches!(ch, Unorm16 | Float),
        o::SRGB | o::SRGBX | o::SRGBA | o::SBGRA => matches!(ch, Unorm8),
        _ => false,
    }
}

pub(crate) const fn is_srgb_order(order: u32) -> bool {
    matches!(order, o::SRGB | o::SRGBX | o::SRGBA | o::SBGRA)
}

// RGBA component bits of the read masks.
const R: u8 = 1;
const G: u8 = 2;
const B: u8 = 4;
const A: u8 = 8;

/// What an order stores: its channel count, for each stored channel the
/// RGBA components it is read into (a mask) and the component it is
/// written from, and whether the border color's alpha is 1 (OpenCL C,
/// "Determining the Border Color or Value": (0, 0, 0, 0) for A, INTENSITY,
/// Rx, RA, RGx, RGBx, sRGBx, ARGB, BGRA, ABGR, RGBA, sRGBA and sBGRA;
/// (0, 0, 0, 1) for R, RG, RGB and LUMINANCE; sRGB, which that list does
/// not name, has no alpha and is treated as RGB; DEPTH's border value is
/// 0, and its other components are R's).
const fn order_info(order: u32) -> Option<(usize, [u8; 4], [u8; 4], bool)> {
    Some(match order {
        o::R | o::DEPTH => (1, [R, 0, 0, 0], [0, 0, 0, 0], true),
        o::RX => (1, [R, 0, 0, 0], [0, 0, 0, 0], false),
        o::A => (1, [A, 0, 0, 0], [3, 0, 0, 0], false),
        o::INTENSITY => (1, [R | G | B | A, 0, 0, 0], [0, 0, 0, 0], false),
        o::LUMINANCE => (1, [R | G | B, 0, 0, 0], [0, 0, 0, 0], true),
        o::RG => (2, [R, G, 0, 0], [0, 1, 0, 0], true),
        o::RGX => (2, [R, G, 0, 0], [0, 1, 0, 0], false),
        o::RA => (2, [R, A, 0, 0], [0, 3, 0, 0], false),
        o::RGB | o::SRGB => (3, [R, G, B, 0], [0, 1, 2, 0], true),
        // The ignored fourth channel is written with the alpha component
        // (as the CTS's reference packs it) and never read.
        o::RGBX | o::SRGBX => (4, [R, G, B, 0], [0, 1, 2, 3], false),
        o::RGBA | o::SRGBA => (4, [R, G, B, A], [0, 1, 2, 3], false),
        o::BGRA | o::SBGRA => (4, [B, G, R, A], [2, 1, 0, 3], false),
        o::ARGB => (4, [A, R, G, B], [3, 0, 1, 2], false),
        o::ABGR => (4, [A, B, G, R], [3, 2, 1, 0], false),
        _ => return None,
    })
}

/// [`Layout::from`]'s mark of a component the order lacks.
pub(crate) const DEFAULT: u8 = 4;

/// Everything the conversions need to know about a valid format.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub(crate) channel: Channel,
    /// Stored channels (fields, for the packed types), 1 to 4.
    pub(crate) count: usize,
    /// Bytes a texel, 1 to 16.
    pub(crate) size: usize,
    /// For each RGBA component, the stored channel it is read from, or
    /// [`DEFAULT`] for the components an order lacks (0, alpha 1).
    pub(crate) from: [u8; 4],
    /// For each stored channel, the RGBA component written to it.
    pub(crate) write: [u8; 4],
    /// R, G and B are sRGB-encoded.
    pub(crate) srgb: bool,
    /// The border color in the format's own [`kind`].
    pub(crate) border: [u32; 4],
}

// The enums' ranges: orders R to ABGR, data types SNORM_INT8 to
// UNORM_INT_101010_2.
const ORDER_BASE: u32 = o::R;
const ORDERS_N: usize = (o::ABGR - o::R + 1) as usize;
const TYPE_BASE: u32 = dt::SNORM_INT8;
const TYPES_N: usize = (dt::UNORM_INT_101010_2 - dt::SNORM_INT8 + 1) as usize;

/// The layout of every (order, data type) pair of the ranges, `None` for
/// the pairs that do not combine.
static LAYOUTS: [Option<Layout>; ORDERS_N * TYPES_N] = {
    let mut table = [None; ORDERS_N * TYPES_N];
    let mut i = 0;
    while i < table.len() {
        let format = Format {
            order: ORDER_BASE + (i / TYPES_N) as u32,
            data_type: TYPE_BASE + (i % TYPES_N) as u32,
        };
        table[i] = Layout::compute(format);
        i += 1;
    }
    table
};

impl Layout {
    /// The layout of a valid format, from a table built at compile time.
    pub(crate) fn of(format: Format) -> Option<&'static Layout> {
        let o = format.order.wrapping_sub(ORDER_BASE) as usize;
        let t = format.data_type.wrapping_sub(TYPE_BASE) as usize;
        if o < ORDERS_N && t < TYPES_N {
            LAYOUTS[o * TYPES_N + t].as_ref()
        } else {
            None
        }
    }

    const fn compute(format: Format) -> Option<Layout> {
        let Some(channel) = Channel::of(format.data_type) else {
            return None;
        };
        if !pair_valid(format.order, channel) {
            return None;
        }
        let Some((count, read, write, alpha_one)) = order_info(format.order) else {
            return None;
        };
        let (count, size, read, write) = match channel.packed_fields() {
            Some(n) => (n, channel.bytes(), [R, G, B, A], [0, 1, 2, 3]),
            None => (count, count * channel.bytes(), read, write),
        };
        let mut from = [DEFAULT; 4];
        let mut i = 0;
        while i < 4 {
            let mut c = 0;
            while c < 4 {
                if read[i] >> c & 1 != 0 {
                    from[c] = i as u8;
                }
                c += 1;
            }
            i += 1;
        }
        let one = if channel.kind() == kind::FLOAT {
            1f32.to_bits()
        } else {
            1
        };
        Some(Layout {
            channel,
            count,
            size,
            from,
            write,
            srgb: is_srgb_order(format.order),
            border: [0, 0, 0, if alpha_one { one } else { 0 }],
        })
    }
}

/// The number of channels an order stores (Rx: 1, RGx: 2, sRGB: 3; see the
/// module's comment).
pub(crate) const fn order_channels(order: u32) -> Option<usize> {
    match order_info(order) {
        Some((n, ..)) => Some(n),
        None => None,
    }
}

/// SPIR-V's ImageChannelOrder for a `cl_channel_order` (what
/// OpImageQueryOrder returns; the SPIR-V environment spec's "Image Channel
/// Order Mapping": R = 0 ... ABGR = 19, in the order of the OpenCL values).
pub fn spirv_channel_order(order: u32) -> Option<u32> {
    (o::R..=o::ABGR).contains(&order).then(|| order - o::R)
}

/// SPIR-V's ImageChannelDataType for a `cl_channel_type` (what
/// OpImageQueryFormat returns: SnormInt8 = 0 ... UnormInt24 = 15,
/// UnormInt101010_2 = 16, in the order of the OpenCL values).
pub fn spirv_channel_data_type(data_type: u32) -> Option<u32> {
    (dt::SNORM_INT8..=dt::UNORM_INT_101010_2)
        .contains(&data_type)
        .then(|| data_type - dt::SNORM_INT8)
}

/// The data types in the order the lists give them (the spec's minimum
/// table's order, then the packed ones).
const TYPES: [u32; 16] = [
    dt::UNORM_INT8,
    dt::UNORM_INT16,
    dt::SNORM_INT8,
    dt::SNORM_INT16,
    dt::SIGNED_INT8,
    dt::SIGNED_INT16,
    dt::SIGNED_INT32,
    dt::UNSIGNED_INT8,
    dt::UNSIGNED_INT16,
    dt::UNSIGNED_INT32,
    dt::HALF_FLOAT,
    dt::FLOAT,
    dt::UNORM_SHORT_565,
    dt::UNORM_SHORT_555,
    dt::UNORM_INT_101010,
    dt::UNORM_INT_101010_2,
];

/// The orders in the order the lists give them (after the minimum list's
/// formats, which come first).
const ORDERS: [u32; 19] = [
    o::R,
    o::RG,
    o::RGBA,
    o::BGRA,
    o::SRGBA,
    o::DEPTH,
    o::A,
    o::RA,
    o::INTENSITY,
    o::LUMINANCE,
    o::RGB,
    o::ARGB,
    o::ABGR,
    o::RX,
    o::RGX,
    o::RGBX,
    o::SRGB,
    o::SRGBX,
    o::SBGRA,
];

/// Which formats a list holds.
#[derive(Clone, Copy)]
enum Offer {
    /// 2D images and 2D arrays: every valid format.
    WithDepth,
    /// 1D images, 1D arrays and 3D images: no DEPTH (OpenCL C has depth
    /// image types only for 2D images and 2D arrays).
    NoDepth,
    /// 1D image buffers: neither DEPTH nor the sRGB orders.
    Buffer,
}

const fn offered(order: u32, data_type: u32, offer: Offer) -> bool {
    let Some(ch) = Channel::of(data_type) else {
        return false;
    };
    if !pair_valid(order, ch) {
        return false;
    }
    // CL_Rx, CL_RGx, CL_RGBx and CL_sRGBx are not offered: the API spec
    // makes Rx two channels and RGx three (the last ignored) and lists
    // their border colour with the orders that have alpha, while the
    // Khronos conformance suite and the other implementations store Rx as
    // one channel and RGx as two and clamp them to an opaque border. None
    // is in the minimum lists; an application relying on either layout
    // would read wrong texels from one side.
    if matches!(order, o::RX | o::RGX | o::RGBX | o::SRGBX) {
        return false;
    }
    // CL_UNORM_INT_101010_2 (OpenCL 2.1) is not offered either: OpenCL C
    // 2.0, the device's, has no CLK_UNORM_INT_101010_2 for a kernel to
    // compare get_image_channel_data_type with.
    if data_type == dt::UNORM_INT_101010_2 {
        return false;
    }
    match offer {
        Offer::WithDepth => true,
        Offer::NoDepth => order != o::DEPTH,
        Offer::Buffer => order != o::DEPTH && !is_srgb_order(order),
    }
}

/// Whether a format is in the API spec's "Minimum list of supported image
/// formats for reading or writing (OpenCL 2.0, 2.1, or 2.2)" but DEPTH
/// (R, RG and RGBA with the twelve plain types; BGRA and sRGBA with
/// UNORM_INT8).
const fn minimum(order: u32, data_type: u32) -> bool {
    match Channel::of(data_type) {
        Some(ch) => match order {
            o::R | o::RG | o::RGBA => ch.plain(),
            o::BGRA | o::SRGBA => data_type == dt::UNORM_INT8,
            _ => false,
        },
        None => false,
    }
}

/// The formats of a list in its order: the minimum list's first (so that
/// applications taking the first format that fits get one every device
/// has), then the others, by [`ORDERS`] and [`TYPES`]. Writes the first `N`
/// to `list`; returns how many there are.
const fn walk<const N: usize>(offer: Offer, list: &mut [Format; N]) -> usize {
    let mut n = 0;
    let mut pass = 0;
    while pass < 2 {
        let mut i = 0;
        while i < ORDERS.len() {
            let mut j = 0;
            while j < TYPES.len() {
                let (order, data_type) = (ORDERS[i], TYPES[j]);
                if offered(order, data_type, offer) && minimum(order, data_type) == (pass == 0) {
                    if n < N {
                        list[n] = Format { order, data_type };
                    }
                    n += 1;
                }
                j += 1;
            }
            i += 1;
        }
        pass += 1;
    }
    n
}

const fn count(offer: Offer) -> usize {
    walk(offer, &mut [])
}

const fn build<const N: usize>(offer: Offer) -> [Format; N] {
    let mut list = [Format { order: 0, data_type: 0 }; N];
    walk(offer, &mut list);
    list
}

const N_WITH_DEPTH: usize = count(Offer::WithDepth);
const N_NO_DEPTH: usize = count(Offer::NoDepth);
const N_BUFFER: usize = count(Offer::Buffer);
static WITH_DEPTH: [Format; N_WITH_DEPTH] = build(Offer::WithDepth);
static NO_DEPTH: [Format; N_NO_DEPTH] = build(Offer::NoDepth);
static BUFFER: [Format; N_BUFFER] = build(Offer::Buffer);

/// The list for an image type; empty for a value that is not one.
pub(crate) fn supported(image_type: u32) -> &'static [Format] {
    match image_type {
        it::IMAGE2D | it::IMAGE2D_ARRAY => &WITH_DEPTH,
        it::IMAGE1D | it::IMAGE1D_ARRAY | it::IMAGE3D => &NO_DEPTH,
        it::IMAGE1D_BUFFER => &BUFFER,
        _ => &[],
    }
}
