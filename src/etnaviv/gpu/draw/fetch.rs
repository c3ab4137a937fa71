//! Vertex fetch: the index stream and the vertex elements, read from memory and converted to
//! the four 32-bit components a vertex shader input register receives.
//!
//! Facts (Mesa 23.3 hw/state.xml.h, etnaviv_state.c, etnaviv_emit.c, etnaviv_format.c): before
//! HALTI5 each element is one FE_VERTEX_ELEMENT_CONFIG word (type 3:0, stream 10:8, component
//! count 13:12 with 0 meaning four, normalize 15:14, byte offset in the vertex 23:16); HALTI5
//! splits it into NFE_GENERIC_ATTRIB_CONFIG0 (same fields) and CONFIG1 (the end offset and the
//! "nonconsecutive" flag, which only tell the fetcher how the elements pack). Streams are a
//! base address and a stride: FE_VERTEX_STREAMS_* (0x680/0x6a0) up to HALTI1, with the single
//! stream form 0x64c/0x650 on cores that have one stream, NFE_VERTEX_STREAMS_* (0x14600/
//! 0x14640, divisor 0x14680) from HALTI2. The driver writes NORMALIZE 1 for normalized formats
//! and 0 otherwise; 32-bit integer attributes use the FLOAT type (a plain copy) and 8/16-bit
//! ones the BYTE_I/SHORT_I types. From HALTI2 the per-element GENERIC_ATTRIB_SCALE is the
//! integer 1 for pure-integer formats and 1.0 otherwise; the model reads it as "integer
//! attribute" (raw values, a missing w of integer 1) against "float attribute".

use crate::etnaviv::isa::float::f16_to_f32;

use super::super::memory::Memory;
use super::super::{Gpu, GpuError};
use super::reg;

/// One vertex element as the states describe it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element {
    pub ty: u32,
    pub stream: usize,
    pub components: usize,
    pub normalize: bool,
    pub offset: u32,
    /// GENERIC_ATTRIB_SCALE is the integer 1: the attribute is a pure integer.
    pub integer: bool,
}

/// One vertex stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stream {
    pub base: u32,
    pub stride: u32,
    /// Instance divisor (0: per vertex).
    pub divisor: u32,
}

/// Element types (FE_DATA_TYPE_*).
mod ty {
    pub const BYTE: u32 = 0;
    pub const UNSIGNED_BYTE: u32 = 1;
    pub const SHORT: u32 = 2;
    pub const UNSIGNED_SHORT: u32 = 3;
    pub const INT: u32 = 4;
    pub const UNSIGNED_INT: u32 = 5;
    pub const INT_2_10_10_10_REV: u32 = 6;
    pub const UNSIGNED_INT_2_10_10_10_REV: u32 = 7;
    pub const FLOAT: u32 = 8;
    pub const HALF_FLOAT: u32 = 9;
    pub const FIXED: u32 = 11;
    pub const BYTE_I: u32 = 14;
    pub const SHORT_I: u32 = 15;
}

impl Gpu {
    /// The vertex elements 0..count as the core's generation keeps them.
    pub(super) fn vertex_elements(&mut self, count: usize) -> Vec<Element> {
        let halti = self.specs.halti();
        (0..count)
            .map(|i| {
                let (config, scale) = if halti >= 5 {
                    (
                        self.states.at(reg::NFE_GENERIC_ATTRIB_CONFIG0, i),
                        self.states.at(reg::NFE_GENERIC_ATTRIB_SCALE, i),
                    )
                } else if halti >= 2 {
                    (
                        self.states.at(reg::FE_VERTEX_ELEMENT_CONFIG, i),
                        self.states.at(reg::FE_GENERIC_ATTRIB_SCALE, i),
                    )
                } else {
                    (self.states.at(reg::FE_VERTEX_ELEMENT_CONFIG, i), 0)
                };
                let integer = scale == 1;
                if halti >= 2 && !integer && scale != 1.0f32.to_bits() {
                    self.unmodelled(format!("vertex attribute scale 0x{scale:08x}"));
                }
                if (config >> 4) & 3 != 0 {
                    self.unmodelled("vertex element endian swap");
                }
                let normalize = match (config >> 14) & 3 {
                    0 => false,
                    1 => true,
                    n => {
                        self.unmodelled(format!("vertex element normalize mode {n}"));
                        true
                    }
                };
                Element {
                    ty: config & 0xf,
                    stream: ((config >> 8) & 7) as usize,
                    components: match (config >> 12) & 3 {
                        0 => 4,
                        n => n as usize,
                    },
                    normalize,
                    offset: (config >> 16) & 0xff,
                    integer,
                }
            })
            .collect()
    }

    /// Vertex stream `i`.
    pub(super) fn vertex_stream(&self, i: usize) -> Stream {
        let s = &self.states;
        if self.specs.halti() >= 2 {
            Stream {
                base: s.at(reg::NFE_VERTEX_STREAMS_BASE_ADDR, i),
                stride: s.at(reg::NFE_VERTEX_STREAMS_CONTROL, i) & 0xff,
                divisor: s.at(reg::NFE_VERTEX_STREAMS_VERTEX_DIVISOR, i),
            }
        } else if i > 0 || s.at(reg::FE_VERTEX_STREAMS_BASE_ADDR, 0) != 0 {
            Stream {
                base: s.at(reg::FE_VERTEX_STREAMS_BASE_ADDR, i),
                stride: s.at(reg::FE_VERTEX_STREAMS_CONTROL, i) & 0xff,
                divisor: 0,
            }
        } else {
            // Cores with a single stream use the older pair of states (the driver picks by
            // the kernel's stream count, which the model does not have; a zero address in the
            // stream array is never a real buffer).
            Stream {
                base: s.get(reg::FE_VERTEX_STREAM_BASE_ADDR),
                stride: s.get(reg::FE_VERTEX_STREAM_CONTROL) & 0xff,
                divisor: 0,
            }
        }
    }

    /// The indices of an indexed draw, `count` of them from index `first` of the index
    /// stream. `None` stands for the primitive restart index when restart is enabled.
    pub(super) fn fetch_indices(
        &mut self,
        mem: &dyn Memory,
        first: u32,
        count: usize,
    ) -> Result<Vec<Option<u32>>, GpuError> {
        let control = self.states.get(reg::FE_INDEX_STREAM_CONTROL);
        let base = self.states.get(reg::FE_INDEX_STREAM_BASE_ADDR);
        let size = match control & 3 {
            0 => 1,
            1 => 2,
            2 => 4,
            _ => return Err(GpuError::Unmodelled("index type 3".into())),
        };
        let restart =
            (control & 0x100 != 0).then(|| self.states.get(reg::FE_PRIMITIVE_RESTART_INDEX));
        let mut bytes = vec![0; count * size];
        let at = base.wrapping_add(first.wrapping_mul(size as u32));
        mem.read(at, &mut bytes)?;
        Ok(bytes
            .chunks_exact(size)
            .map(|c| {
                let mut b = [0; 4];
                b[..size].copy_from_slice(c);
                let v = u32::from_le_bytes(b);
                (Some(v) != restart).then_some(v)
            })
            .collect())
    }
}

/// Reads element `e` of vertex `index` (already chosen per vertex or per instance) from
/// `stream`: the four components the shader input receives, missing ones filled with
/// (0, 0, 0, 1).
pub fn fetch_element(
    mem: &dyn Memory,
    e: &Element,
    stream: &Stream,
    index: u32,
) -> Result<[u32; 4], GpuError> {
    let size = match e.ty {
        ty::BYTE | ty::UNSIGNED_BYTE | ty::BYTE_I => 1,
        ty::SHORT | ty::UNSIGNED_SHORT | ty::HALF_FLOAT | ty::SHORT_I => 2,
        ty::INT | ty::UNSIGNED_INT | ty::FLOAT | ty::FIXED => 4,
        ty::INT_2_10_10_10_REV | ty::UNSIGNED_INT_2_10_10_10_REV => 0,
        t => return Err(GpuError::Unmodelled(format!("vertex element type {t}"))),
    };
    let address = stream
        .base
        .wrapping_add(index.wrapping_mul(stream.stride))
        .wrapping_add(e.offset);
    let one = if e.integer || matches!(e.ty, ty::BYTE_I | ty::SHORT_I) {
        1
    } else {
        1.0f32.to_bits()
    };
    let mut out = [0, 0, 0, one];
    if size == 0 {
        // Packed 2_10_10_10: x in bits 9:0, y 19:10, z 29:20, w 31:30.
        let word = mem.read_u32(address)?;
        let signed = e.ty == ty::INT_2_10_10_10_REV;
        for (c, o) in out.iter_mut().enumerate().take(e.components) {
            let (shift, bits) = if c < 3 { (10 * c as u32, 10) } else { (30, 2) };
            let raw = (word >> shift) & ((1 << bits) - 1);
            let v = if signed {
                (((raw << (32 - bits)) as i32) >> (32 - bits)) as f32
            } else {
                raw as f32
            };
            let v = match (e.normalize, signed) {
                (false, _) => v,
                (true, false) => v / ((1u32 << bits) - 1) as f32,
                (true, true) => (v / ((1u32 << (bits - 1)) - 1) as f32).max(-1.0),
            };
            *o = v.to_bits();
        }
        return Ok(out);
    }
    let mut bytes = vec![0; size * e.components];
    mem.read(address, &mut bytes)?;
    for (c, o) in out.iter_mut().enumerate().take(e.components) {
        let b = &bytes[c * size..(c + 1) * size];
        let raw = match size {
            1 => u32::from(b[0]),
            2 => u32::from(u16::from_le_bytes([b[0], b[1]])),
            _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        };
        *o = convert(e, raw, size as u32 * 8);
    }
    Ok(out)
}

/// One component of `bits` bits as the shader sees it.
fn convert(e: &Element, raw: u32, bits: u32) -> u32 {
    let sext = |v: u32| ((v << (32 - bits)) as i32 >> (32 - bits)) as i64;
    let signed = matches!(e.ty, ty::BYTE | ty::SHORT | ty::INT);
    let as_float = |v: i64| -> u32 {
        let f = if !e.normalize {
            v as f64
        } else if signed {
            // GL 4.2's rule: c / (2^(b-1) - 1), clamped at -1.
            (v as f64 / ((1u64 << (bits - 1)) - 1) as f64).max(-1.0)
        } else {
            v as f64 / ((1u64 << bits) - 1) as f64
        };
        (f as f32).to_bits()
    };
    match e.ty {
        ty::FLOAT => raw,
        ty::HALF_FLOAT => f16_to_f32(raw as u16).to_bits(),
        ty::FIXED => (raw as i32 as f32 / 65536.0).to_bits(),
        // The integer types reach an integer shader input unconverted (sign-extended: the
        // driver gives signed and unsigned integer formats the same type).
        ty::BYTE_I | ty::SHORT_I => sext(raw) as u32,
        _ if e.integer => {
            if signed {
                sext(raw) as u32
            } else {
                raw
            }
        }
        _ if signed => as_float(sext(raw)),
        _ => as_float(i64::from(raw)),
    }
}
