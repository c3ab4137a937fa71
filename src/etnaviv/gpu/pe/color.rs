//! The colour formats the pixel engine renders to, as bit fields of a little-endian pixel.
//!
//! Facts (Mesa's hw/state_3d.xml.h PE_FORMAT_*, etnaviv_format.c): the legacy formats 0-6 are
//! named most significant channel first (A8R8G8B8 has blue in byte 0); the HALTI formats
//! (0x11 and up, selected through PE_COLOR_FORMAT's FORMAT_EXT) are named the same way
//! (A8B8G8R8I has red in byte 0). The PE's channel i takes the shader's output component i;
//! formats whose memory order is the other way round (RGBA8 rendered as A8R8G8B8) are handled
//! by the driver swapping red and blue in the shader, the colour mask and the blend colour, so
//! the engine itself never swaps.

use crate::etnaviv::isa::float::{f16_to_f32, f32_to_f16};

/// How a format's channels hold numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Unsigned normalized: [0, 1] scaled to the channel's range.
    Unorm,
    /// Floating point (16-bit half, 32-bit single, or 11/10-bit unsigned small floats).
    Float,
    /// Integer: the shader's raw bits, truncated.
    Int,
}

/// A channel's bit position in the pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub shift: u32,
    pub bits: u32,
}

const fn f(shift: u32, bits: u32) -> Option<Field> {
    Some(Field { shift, bits })
}

/// A render target format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColorFormat {
    pub bytes: u32,
    pub kind: Kind,
    /// Red, green, blue, alpha (shader components 0-3).
    pub channels: [Option<Field>; 4],
    /// Bits the format leaves unused (the X of X8R8G8B8), written as ones.
    pub padding: Option<Field>,
}

impl ColorFormat {
    /// The format PE_COLOR_FORMAT number `n` names (FORMAT, or FORMAT_EXT from 0x10 on).
    pub fn pe(n: u32) -> Option<ColorFormat> {
        use Kind::*;
        let (bytes, kind, channels, padding) = match n {
            0 => (2, Unorm, [f(8, 4), f(4, 4), f(0, 4), None], f(12, 4)),
            1 => (2, Unorm, [f(8, 4), f(4, 4), f(0, 4), f(12, 4)], None),
            2 => (2, Unorm, [f(10, 5), f(5, 5), f(0, 5), None], f(15, 1)),
            3 => (2, Unorm, [f(10, 5), f(5, 5), f(0, 5), f(15, 1)], None),
            4 => (2, Unorm, [f(11, 5), f(5, 6), f(0, 5), None], None),
            5 => (4, Unorm, [f(16, 8), f(8, 8), f(0, 8), None], f(24, 8)),
            6 => (4, Unorm, [f(16, 8), f(8, 8), f(0, 8), f(24, 8)], None),
            0x11 => (2, Float, [f(0, 16), None, None, None], None),
            0x12 => (4, Float, [f(0, 16), f(16, 16), None, None], None),
            0x13 => (8, Float, [f(0, 16), f(16, 16), f(32, 16), f(48, 16)], None),
            0x14 => (4, Float, [f(0, 32), None, None, None], None),
            0x15 => (8, Float, [f(0, 32), f(32, 32), None, None], None),
            0x16 => (4, Unorm, [f(0, 10), f(10, 10), f(20, 10), f(30, 2)], None),
            0x17 => (1, Int, [f(0, 8), None, None, None], None),
            0x18 => (2, Int, [f(0, 8), f(8, 8), None, None], None),
            0x19 => (4, Int, [f(0, 8), f(8, 8), f(16, 8), f(24, 8)], None),
            0x1a => (2, Int, [f(0, 16), None, None, None], None),
            0x1b => (4, Int, [f(0, 16), f(16, 16), None, None], None),
            0x1c => (8, Int, [f(0, 16), f(16, 16), f(32, 16), f(48, 16)], None),
            0x1d => (4, Float, [f(0, 11), f(11, 11), f(22, 10), None], None),
            0x1e => (4, Int, [f(0, 10), f(10, 10), f(20, 10), f(30, 2)], None),
            0x1f => (2, Unorm, [f(0, 8), f(8, 8), None, None], None),
            0x23 => (1, Unorm, [f(0, 8), None, None, None], None),
            _ => return None,
        };
        Some(ColorFormat {
            bytes,
            kind,
            channels,
            padding,
        })
    }

    /// Whether some channel is narrower than 8 bits (where dithering would show).
    pub fn has_narrow_channel(&self) -> bool {
        self.kind == Kind::Unorm && self.channels.iter().flatten().any(|c| c.bits < 8)
    }

    /// The pixel's channels as numbers (missing colour channels read 0, missing alpha 1).
    pub fn decode(&self, raw: u64) -> [f32; 4] {
        let mut out = [0.0, 0.0, 0.0, 1.0];
        for (o, ch) in out.iter_mut().zip(self.channels) {
            if let Some(c) = ch {
                let v = (raw >> c.shift) & mask(c.bits);
                *o = match self.kind {
                    Kind::Unorm => v as f32 / mask(c.bits) as f32,
                    Kind::Float => decode_float(v as u32, c.bits),
                    Kind::Int => f32::from_bits(v as u32),
                };
            }
        }
        out
    }

    /// Packs numeric channels (unorm values are clamped and rounded).
    pub fn encode(&self, v: [f32; 4]) -> u64 {
        let mut raw = self.padding.map_or(0, |p| mask(p.bits) << p.shift);
        for (x, ch) in v.iter().zip(self.channels) {
            if let Some(c) = ch {
                let bits = match self.kind {
                    Kind::Unorm => (x.clamp(0.0, 1.0) * mask(c.bits) as f32).round() as u64,
                    Kind::Float => encode_float(*x, c.bits) as u64,
                    Kind::Int => x.to_bits() as u64,
                };
                raw |= (bits & mask(c.bits)) << c.shift;
            }
        }
        raw
    }

    /// Packs raw 32-bit channel values (integer formats: truncation).
    pub fn encode_raw(&self, v: [u32; 4]) -> u64 {
        let mut raw = 0;
        for (x, ch) in v.iter().zip(self.channels) {
            if let Some(c) = ch {
                raw |= (*x as u64 & mask(c.bits)) << c.shift;
            }
        }
        raw
    }

    /// The bits channel `i` occupies.
    pub fn channel_mask(&self, i: usize) -> u64 {
        self.channels[i].map_or(0, |c| mask(c.bits) << c.shift)
    }
}

pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

/// A float channel of `bits` bits: half, single, or an unsigned 5-bit-exponent small float
/// with a 6-bit (11-bit channel) or 5-bit (10-bit channel) mantissa.
fn decode_float(v: u32, bits: u32) -> f32 {
    match bits {
        16 => f16_to_f32(v as u16),
        32 => f32::from_bits(v),
        _ => {
            let m_bits = bits - 5;
            let (e, m) = (v >> m_bits, v & ((1 << m_bits) - 1));
            let frac = m as f32 / (1 << m_bits) as f32;
            match e {
                0 => frac * 2f32.powi(-14),
                31 if m == 0 => f32::INFINITY,
                31 => f32::NAN,
                _ => (1.0 + frac) * 2f32.powi(e as i32 - 15),
            }
        }
    }
}

fn encode_float(x: f32, bits: u32) -> u32 {
    match bits {
        16 => f32_to_f16(x) as u32,
        32 => x.to_bits(),
        _ => {
            let m_bits = bits - 5;
            if x.is_nan() {
                return (31 << m_bits) | 1;
            }
            if x <= 0.0 {
                return 0;
            }
            // Largest finite value: exponent 30, all mantissa bits.
            let max = (2.0 - 2f32.powi(-(m_bits as i32))) * 2f32.powi(15);
            if x > max {
                return 31 << m_bits;
            }
            let e = x.log2().floor() as i32;
            if e < -14 {
                return (x / 2f32.powi(-14) * (1 << m_bits) as f32).round() as u32;
            }
            let m = ((x / 2f32.powi(e) - 1.0) * (1 << m_bits) as f32).round() as u32;
            // A mantissa that rounds up to 1.0 carries into the exponent.
            (((e + 15) as u32) << m_bits) + m
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a8r8g8b8_puts_blue_in_the_low_byte() {
        let fmt = ColorFormat::pe(6).unwrap();
        let raw = fmt.encode([1.0, 0.5, 0.0, 0.2]);
        // R=255, G=round(127.5)=128, B=0, A=round(51)=51.
        assert_eq!(raw, 0x33ff_8000);
        assert_eq!(fmt.decode(0x33ff_8000)[2], 0.0);
        // X8R8G8B8 writes its padding byte as ones and reads alpha as 1.
        let x = ColorFormat::pe(5).unwrap();
        assert_eq!(x.encode([0.0, 0.0, 1.0, 0.0]), 0xff00_00ff);
        assert_eq!(x.decode(0)[3], 1.0);
    }

    #[test]
    fn r5g6b5_and_rg11b10_floats() {
        let fmt = ColorFormat::pe(4).unwrap();
        assert_eq!(fmt.encode([1.0, 1.0, 0.0, 1.0]), 0xffe0);
        let f = ColorFormat::pe(0x1d).unwrap();
        // 1.0 in an 11-bit float: exponent 15, mantissa 0 -> 15 << 6; in the 10-bit one
        // 15 << 5; 0.5 is exponent 14.
        let raw = f.encode([1.0, 0.5, 1.0, 0.0]);
        assert_eq!(raw, (15 << 6) | ((14 << 6) << 11) | ((15 << 5) << 22));
        assert_eq!(f.decode(raw)[..3], [1.0, 0.5, 1.0]);
    }

    #[test]
    fn integer_formats_truncate_raw_values() {
        let fmt = ColorFormat::pe(0x19).unwrap();
        assert_eq!(fmt.encode_raw([0x1ff, 2, 0xffff_fffe, 4]), 0x04fe_02ff);
    }
}
