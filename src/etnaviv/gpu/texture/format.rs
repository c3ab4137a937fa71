//! Texel formats: the TEXTURE_FORMAT_* codes of CONFIG0 and the TEXTURE_FORMAT_EXT_* codes of
//! CONFIG1 (facts from Mesa's hw/common_3d.xml.h and the format table in etnaviv_format.c),
//! how many bytes a texel takes and what four components it holds.
//!
//! Vivante names list components from the most significant bit down: A8R8G8B8 is the 32-bit
//! little-endian word `0xAARRGGBB`, so its bytes in memory are B, G, R, A (Mesa samples
//! B8G8R8A8_UNORM through it), and A8B8G8R8 holds R, G, B, A in memory order (R8G8B8A8_UNORM).
//! Depth formats hold their value in the component the driver's swizzle picks up first; the
//! model returns it in R, G and B with alpha 1.

use crate::etnaviv::isa::float::f16_to_f32;

/// A texel format the model decodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    A8,
    L8,
    I8,
    A8L8,
    A4R4G4B4,
    X4R4G4B4,
    A8R8G8B8,
    X8R8G8B8,
    A8B8G8R8,
    X8B8G8R8,
    R5G6B5,
    A1R5G5B5,
    X1R5G5B5,
    D16,
    D24X8,
    E5B9G9R9,
    G8R8,
    R8,
    R16F,
    G16R16F,
    A16B16G16R16F,
    R32F,
    G32R32F,
    A2B10G10R10,
    A2B10G10R10Ui,
    B10G11R11F,
    R8Snorm,
    G8R8Snorm,
    X8B8G8R8Snorm,
    A8B8G8R8Snorm,
    R8I,
    G8R8I,
    A8B8G8R8I,
    R16I,
    G16R16I,
    A16B16G16R16I,
    R32I,
    G32R32I,
}

/// What a format's components are, which decides filtering and what an integer read returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Normalised or float: filtered, returned as numbers.
    Float,
    /// Integer components (the EXT *I formats): never filtered, returned as integers.
    Integer,
    /// A depth value in component 0, which a shadow comparison reads.
    Depth,
}

impl Format {
    /// The format CONFIG0's FORMAT field (`base`) and CONFIG1's FORMAT_EXT field (`ext`)
    /// select: the base format unless it is 0 (NONE), then the extended one. `Err` names a
    /// format the model does not decode (compressed, YUV, ASTC).
    pub fn from_fields(base: u32, ext: u32) -> Result<Format, String> {
        use Format::*;
        if base != 0 {
            return Ok(match base {
                0x01 => A8,
                0x02 => L8,
                0x03 => I8,
                0x04 => A8L8,
                0x05 => A4R4G4B4,
                0x06 => X4R4G4B4,
                0x07 => A8R8G8B8,
                0x08 => X8R8G8B8,
                0x09 => A8B8G8R8,
                0x0a => X8B8G8R8,
                0x0b => R5G6B5,
                0x0c => A1R5G5B5,
                0x0d => X1R5G5B5,
                0x10 => D16,
                0x11 => D24X8,
                0x1d => E5B9G9R9,
                0x0e => return Err("texture format YUY2".into()),
                0x0f => return Err("texture format UYVY".into()),
                0x13..=0x15 => return Err(format!("texture format DXT (0x{base:02x})")),
                0x1e => return Err("texture format ETC1".into()),
                _ => return Err(format!("texture format 0x{base:02x}")),
            });
        }
        Ok(match ext {
            0x06 => G8R8,
            0x07 => R16F,
            0x08 => G16R16F,
            0x09 => A16B16G16R16F,
            0x0a => R32F,
            0x0b => G32R32F,
            0x0c => A2B10G10R10,
            0x0e => R8Snorm,
            0x0f => G8R8Snorm,
            0x10 => X8B8G8R8Snorm,
            0x11 => A8B8G8R8Snorm,
            0x15 => R8I,
            0x16 => G8R8I,
            0x17 => A8B8G8R8I,
            0x18 => R16I,
            0x19 => G16R16I,
            0x1a => A16B16G16R16I,
            0x1b => B10G11R11F,
            0x1c => A2B10G10R10Ui,
            0x21 => R8,
            0x23 => R32I,
            0x24 => G32R32I,
            0x00..=0x05 | 0x0d => return Err(format!("texture format EXT ETC2/EAC (0x{ext:02x})")),
            0x14 => return Err("texture format EXT ASTC".into()),
            _ => return Err(format!("texture format EXT 0x{ext:02x}")),
        })
    }

    /// Bytes per texel.
    pub fn bytes(self) -> u32 {
        use Format::*;
        match self {
            A8 | L8 | I8 | R8 | R8Snorm | R8I => 1,
            A8L8 | A4R4G4B4 | X4R4G4B4 | R5G6B5 | A1R5G5B5 | X1R5G5B5 | D16 | G8R8 | R16F
            | G8R8Snorm | G8R8I | R16I => 2,
            A16B16G16R16F | G32R32F | A16B16G16R16I | G32R32I => 8,
            _ => 4,
        }
    }

    pub fn kind(self) -> Kind {
        use Format::*;
        match self {
            D16 | D24X8 => Kind::Depth,
            A2B10G10R10Ui | R8I | G8R8I | A8B8G8R8I | R16I | G16R16I | A16B16G16R16I | R32I
            | G32R32I => Kind::Integer,
            _ => Kind::Float,
        }
    }

    /// The texel in `b` (exactly [`Format::bytes`] long) as RGBA. Integer formats give their
    /// integer values, sign-extended when `signed` (the descriptor's SIGNED_INT8/16 bits; the
    /// state-based cores have no such bit and read them unsigned). For `raw_bits`, the float
    /// formats R32F and G32R32F give their bits as unsigned integers instead: Mesa samples
    /// R32_UINT/SINT and R32G32_UINT/SINT through them, so an integer read wants the bits.
    pub fn decode(self, b: &[u8], signed: bool, raw_bits: bool) -> [f64; 4] {
        use Format::*;
        let u8n = |i: usize| f64::from(b[i]) / 255.0;
        let s8n = |i: usize| (f64::from(b[i] as i8) / 127.0).max(-1.0);
        let w16 = |i: usize| u16::from_le_bytes([b[2 * i], b[2 * i + 1]]);
        let w32 =
            |i: usize| u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
        let bits = |w: u32, lo: u32, n: u32| (w >> lo) & ((1u32 << n) - 1);
        let unorm =
            |w: u32, lo: u32, n: u32| f64::from(bits(w, lo, n)) / f64::from((1u32 << n) - 1);
        let half = |h: u16| f64::from(f16_to_f32(h));
        let f32b = |w: u32| f64::from(f32::from_bits(w));
        let int8 = |i: usize| {
            if signed {
                f64::from(b[i] as i8)
            } else {
                f64::from(b[i])
            }
        };
        let int16 = |i: usize| {
            if signed {
                f64::from(w16(i) as i16)
            } else {
                f64::from(w16(i))
            }
        };
        let int32 = |i: usize| {
            if signed {
                f64::from(w32(i) as i32)
            } else {
                f64::from(w32(i))
            }
        };
        match self {
            A8 => [0.0, 0.0, 0.0, u8n(0)],
            L8 => [u8n(0), u8n(0), u8n(0), 1.0],
            I8 => [u8n(0); 4],
            R8 => [u8n(0), 0.0, 0.0, 1.0],
            A8L8 => [u8n(0), u8n(0), u8n(0), u8n(1)],
            A4R4G4B4 | X4R4G4B4 => {
                let w = u32::from(w16(0));
                let a = if self == A4R4G4B4 {
                    unorm(w, 12, 4)
                } else {
                    1.0
                };
                [unorm(w, 8, 4), unorm(w, 4, 4), unorm(w, 0, 4), a]
            }
            A8R8G8B8 => [u8n(2), u8n(1), u8n(0), u8n(3)],
            X8R8G8B8 => [u8n(2), u8n(1), u8n(0), 1.0],
            A8B8G8R8 => [u8n(0), u8n(1), u8n(2), u8n(3)],
            X8B8G8R8 => [u8n(0), u8n(1), u8n(2), 1.0],
            R5G6B5 => {
                let w = u32::from(w16(0));
                [unorm(w, 11, 5), unorm(w, 5, 6), unorm(w, 0, 5), 1.0]
            }
            A1R5G5B5 | X1R5G5B5 => {
                let w = u32::from(w16(0));
                let a = if self == A1R5G5B5 {
                    unorm(w, 15, 1)
                } else {
                    1.0
                };
                [unorm(w, 10, 5), unorm(w, 5, 5), unorm(w, 0, 5), a]
            }
            D16 => {
                let d = unorm(u32::from(w16(0)), 0, 16);
                [d, d, d, 1.0]
            }
            D24X8 => {
                // Depth in the upper 24 bits (Mesa's X8Z24 / S8Z24 layouts).
                let d = unorm(w32(0), 8, 24);
                [d, d, d, 1.0]
            }
            E5B9G9R9 => {
                let w = w32(0);
                let scale = 2f64.powi(bits(w, 27, 5) as i32 - 15 - 9);
                [
                    f64::from(bits(w, 0, 9)) * scale,
                    f64::from(bits(w, 9, 9)) * scale,
                    f64::from(bits(w, 18, 9)) * scale,
                    1.0,
                ]
            }
            G8R8 => [u8n(0), u8n(1), 0.0, 1.0],
            R16F => [half(w16(0)), 0.0, 0.0, 1.0],
            G16R16F => [half(w16(0)), half(w16(1)), 0.0, 1.0],
            A16B16G16R16F => [half(w16(0)), half(w16(1)), half(w16(2)), half(w16(3))],
            R32F if raw_bits => [f64::from(w32(0)), 0.0, 0.0, 1.0],
            R32F => [f32b(w32(0)), 0.0, 0.0, 1.0],
            G32R32F if raw_bits => [f64::from(w32(0)), f64::from(w32(1)), 0.0, 1.0],
            G32R32F => [f32b(w32(0)), f32b(w32(1)), 0.0, 1.0],
            A2B10G10R10 => {
                let w = w32(0);
                [
                    unorm(w, 0, 10),
                    unorm(w, 10, 10),
                    unorm(w, 20, 10),
                    unorm(w, 30, 2),
                ]
            }
            A2B10G10R10Ui => {
                let w = w32(0);
                [0, 10, 20, 30].map(|lo| f64::from(bits(w, lo, if lo == 30 { 2 } else { 10 })))
            }
            B10G11R11F => {
                let w = w32(0);
                [
                    small_float(bits(w, 0, 11), 6),
                    small_float(bits(w, 11, 11), 6),
                    small_float(bits(w, 22, 10), 5),
                    1.0,
                ]
            }
            R8Snorm => [s8n(0), 0.0, 0.0, 1.0],
            G8R8Snorm => [s8n(0), s8n(1), 0.0, 1.0],
            X8B8G8R8Snorm => [s8n(0), s8n(1), s8n(2), 1.0],
            A8B8G8R8Snorm => [s8n(0), s8n(1), s8n(2), s8n(3)],
            R8I => [int8(0), 0.0, 0.0, 1.0],
            G8R8I => [int8(0), int8(1), 0.0, 1.0],
            A8B8G8R8I => [int8(0), int8(1), int8(2), int8(3)],
            R16I => [int16(0), 0.0, 0.0, 1.0],
            G16R16I => [int16(0), int16(1), 0.0, 1.0],
            A16B16G16R16I => [int16(0), int16(1), int16(2), int16(3)],
            R32I => [int32(0), 0.0, 0.0, 1.0],
            G32R32I => [int32(0), int32(1), 0.0, 1.0],
        }
    }
}

/// An unsigned float of 5 exponent bits and `mantissa` bits (the 11- and 10-bit components of
/// B10G11R11F).
fn small_float(v: u32, mantissa: u32) -> f64 {
    let e = (v >> mantissa) as i32;
    let m = f64::from(v & ((1 << mantissa) - 1));
    let one = f64::from(1u32 << mantissa);
    match e {
        0 => m / one * 2f64.powi(-14),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + m / one) * 2f64.powi(e - 15),
    }
}

/// sRGB-encoded component to linear (the GL/EXT_texture_sRGB curve).
pub fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_decode_by_their_bit_layouts() {
        let rgba = [0x00, 0x33, 0x66, 0xff];
        // A8B8G8R8 reads the bytes in order; A8R8G8B8 swaps red and blue.
        assert_eq!(
            Format::A8B8G8R8.decode(&rgba, false, false),
            [0.0, 0.2, 0.4, 1.0]
        );
        assert_eq!(
            Format::A8R8G8B8.decode(&rgba, false, false),
            [0.4, 0.2, 0.0, 1.0]
        );
        // R5G6B5 0xf800 is pure red; 0x07e0 pure green.
        assert_eq!(
            Format::R5G6B5.decode(&0xf800u16.to_le_bytes(), false, false),
            [1.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            Format::R5G6B5.decode(&0x07e0u16.to_le_bytes(), false, false),
            [0.0, 1.0, 0.0, 1.0]
        );
        // A4R4G4B4 0xf00f: alpha 1, blue 1.
        assert_eq!(
            Format::A4R4G4B4.decode(&0xf00fu16.to_le_bytes(), false, false),
            [0.0, 0.0, 1.0, 1.0]
        );
        // A1R5G5B5 0x7c00: red, alpha 0.
        assert_eq!(
            Format::A1R5G5B5.decode(&0x7c00u16.to_le_bytes(), false, false),
            [1.0, 0.0, 0.0, 0.0]
        );
        // L8A8: luminance is the low byte, alpha the high one.
        assert_eq!(
            Format::A8L8.decode(&[0xff, 0x00], false, false),
            [1.0, 1.0, 1.0, 0.0]
        );
        assert_eq!(
            Format::A8.decode(&[0xff], false, false),
            [0.0, 0.0, 0.0, 1.0]
        );
        // Half 0x3c00 is 1.0, 0xc000 is -2.0.
        assert_eq!(
            Format::G16R16F.decode(&[0x00, 0x3c, 0x00, 0xc0], false, false),
            [1.0, -2.0, 0.0, 1.0]
        );
        // R16I 0xfffe: 65534 unsigned, -2 signed.
        assert_eq!(Format::R16I.decode(&[0xfe, 0xff], false, false)[0], 65534.0);
        assert_eq!(Format::R16I.decode(&[0xfe, 0xff], true, false)[0], -2.0);
        // R32F read as bits: 1.0f is 0x3f800000.
        let one = 1.0f32.to_le_bytes();
        assert_eq!(Format::R32F.decode(&one, false, false)[0], 1.0);
        assert_eq!(
            Format::R32F.decode(&one, false, true)[0],
            f64::from(0x3f80_0000u32)
        );
        // D24X8: 0xffffff00 is depth 1.0 whatever the low byte.
        assert_eq!(
            Format::D24X8.decode(&0xffff_ff12u32.to_le_bytes(), false, false)[0],
            1.0
        );
        // The selector: base format wins; NONE defers to the extended field.
        assert_eq!(Format::from_fields(9, 0), Ok(Format::A8B8G8R8));
        assert_eq!(Format::from_fields(0, 0x06), Ok(Format::G8R8));
        assert!(Format::from_fields(0x13, 0).is_err());
        assert!(Format::from_fields(0, 0x14).is_err());
    }
}
