//! Intrinsic indices as Mesa stores them: one 32-bit `const_index` word per index, with
//! Mesa 23.3's packing (`nir_io_semantics`, `nir_io_xfb`, `gl_access_qualifier`, `nir_alu_type`,
//! `mesa_scope`, `nir_memory_semantics`, `nir_variable_mode`, `nir_atomic_op`).
//!
//! A driver adapter walking a `nir_shader` has these words, not nir_print's text, so the C
//! builder takes them and [`from_raw`] turns each into the [`IndexValue`] the parser would have
//! produced from the printed shader: the two import paths then give equal shaders. [`to_raw`]
//! is the inverse, used to feed a parsed shader back through the builder.
//!
//! Indices whose packing is not decoded here (format, image dimension, reduction op and the
//! vendor ones) are given in nir_print's spelling instead; [`raw_supported`] says which.

use super::ir::{IndexValue, VarMode};
use super::opcodes::{IndexKind, Intrinsic};
use super::slots;
use super::types::{AluType, BaseType, Stage};

/// `gl_access_qualifier` bits nir_print names, in its order.
const ACCESS_BITS: [(u32, &str); 9] = [
    (1 << 0, "coherent"),
    (1 << 2, "volatile"),
    (1 << 1, "restrict"),
    (1 << 4, "readonly"),
    (1 << 3, "writeonly"),
    (1 << 6, "reorderable"),
    (1 << 12, "speculatable"),
    (1 << 7, "non-temporal"),
    (1 << 8, "include-helpers"),
];

/// `nir_io_semantics` flag bits nir_print names after `slots=`, in its order.
const IO_FLAGS: [(u32, &str); 8] = [
    (1 << 13, super::ir::IO_DUAL_SOURCE),
    (1 << 14, "fbfetch"),
    (1 << 24, "perview"),
    (1 << 23, "mediump"),
    (1 << 25, "high_16bits"),
    (1 << 27, "high_dvec2"),
    (1 << 28, "no_varying"),
    (1 << 29, "no_sysval_output"),
];

/// `mesa_scope` values, as nir_print writes them (without `SCOPE_`).
const SCOPES: [&str; 7] = [
    "NONE",
    "INVOCATION",
    "SUBGROUP",
    "SHADER_CALL",
    "WORKGROUP",
    "QUEUE_FAMILY",
    "DEVICE",
];

/// `nir_variable_mode` bit n's short name (Mesa 23.3's numbering).
const MODE_BITS: [&str; 18] = [
    "system",
    "uniform",
    "shader_in",
    "shader_out",
    "image",
    "shader_call_data",
    "ray_hit_attrib",
    "ubo",
    "push_const",
    "ssbo",
    "constant",
    "task_payload",
    "node_payload",
    "node_payload_in",
    "shader_temp",
    "function_temp",
    "shared",
    "global",
];

/// `nir_atomic_op` values in order.
const ATOMIC_OPS: [&str; 16] = [
    "iadd", "imin", "umin", "imax", "umax", "iand", "ior", "ixor", "xchg", "fadd", "fmin", "fmax",
    "cmpxchg", "fcmpxchg", "inc_wrap", "dec_wrap",
];

/// Whether `kind` can be given as a raw word ([`from_raw`] decodes it).
pub fn raw_supported(kind: IndexKind) -> bool {
    use IndexKind::*;
    !super::parse::is_text_index(kind)
        || matches!(
            kind,
            Access
                | IoSemantics
                | IoXfb
                | IoXfb2
                | MemoryScope
                | ExecutionScope
                | MemorySemantics
                | MemoryModes
                | AtomicOp
        )
}

/// The prefix the parser expects before a text index's value (`access=`, `io location=`).
fn prefix(kind: IndexKind) -> String {
    match kind.printed_prefix() {
        "" => format!("{}=", kind.name()),
        p => p.to_string(),
    }
}

/// The variable mode nir_print names an I/O intrinsic's location for (`get_location_str`
/// in nir_print.c); None for the intrinsics it prints the number of.
fn io_mode(intrinsic: Intrinsic) -> Option<VarMode> {
    match intrinsic.name() {
        "load_input"
        | "load_interpolated_input"
        | "load_per_vertex_input"
        | "load_input_vertex"
        | "load_coefficients_agx" => Some(VarMode::ShaderIn),
        "load_output"
        | "store_output"
        | "store_per_primitive_output"
        | "store_per_vertex_output" => Some(VarMode::ShaderOut),
        _ => None,
    }
}

/// Decodes Mesa's word for index `kind` of `intrinsic` in a `stage` shader.
pub fn from_raw(
    kind: IndexKind,
    raw: u32,
    intrinsic: Intrinsic,
    stage: Stage,
) -> Result<IndexValue, String> {
    use IndexKind::*;
    let p = prefix(kind);
    Ok(match kind {
        WriteMask => IndexValue::WriteMask(raw),
        SrcType | DestType => IndexValue::Type(alu_type(raw)?),
        Access => {
            let names: Vec<&str> = ACCESS_BITS
                .iter()
                .filter(|(bit, _)| raw & bit != 0)
                .map(|p| p.1)
                .collect();
            let names = if names.is_empty() {
                "none".to_string()
            } else {
                names.join("|")
            };
            IndexValue::Text(format!("{p}{names}"))
        }
        IoSemantics => {
            let location = raw & 0x7f;
            let slots = (raw >> 7) & 0x3f;
            let mut s = format!(
                "{p}{} slots={slots}",
                slots::location_name(location, stage, io_mode(intrinsic))
            );
            for (bit, name) in IO_FLAGS {
                if raw & bit != 0 {
                    s.push(' ');
                    s.push_str(name);
                }
            }
            if stage == Stage::Geometry && io_mode(intrinsic) == Some(VarMode::ShaderOut) {
                let streams = (raw >> 15) & 0xff;
                s.push_str(" gs_streams(");
                for (i, c) in ['x', 'y', 'z', 'w'].iter().enumerate() {
                    let sep = if i == 0 { "" } else { " " };
                    s.push_str(&format!("{sep}{c}={}", (streams >> (i * 2)) & 3));
                }
                s.push(')');
            }
            IndexValue::Text(s)
        }
        IoXfb | IoXfb2 => {
            let first = if kind == IoXfb { 0 } else { 2 };
            let mut outs = Vec::new();
            for i in 0..2u32 {
                let half = raw >> (16 * i);
                let n = half & 0xf;
                if n == 0 {
                    continue;
                }
                let start = first + i;
                let comps = if n > 1 {
                    format!("components={start}..{}", start + n - 1)
                } else {
                    format!("component={start}")
                };
                let buffer = (half >> 4) & 0xf;
                let offset = ((half >> 8) & 0xff) * 4;
                outs.push(format!("{comps} buffer={buffer} offset={offset}"));
            }
            IndexValue::Text(format!("{p}{})", outs.join(", ")))
        }
        MemoryScope | ExecutionScope => {
            let name = SCOPES
                .get(raw as usize)
                .ok_or_else(|| format!("{raw} is no mesa_scope value (0-6)"))?;
            IndexValue::Text(format!("{p}{name}"))
        }
        MemorySemantics => {
            if raw & !0xf != 0 {
                return Err(format!("{raw:#x} has bits no nir_memory_semantics has"));
            }
            let mut s = match raw & 3 {
                0 => "NONE",
                1 => "ACQ",
                2 => "REL",
                _ => "ACQ|REL",
            }
            .to_string();
            if raw & 4 != 0 {
                s.push_str("|AVAILABLE");
            }
            if raw & 8 != 0 {
                s.push_str("|VISIBLE");
            }
            IndexValue::Text(format!("{p}{s}"))
        }
        MemoryModes => {
            if raw >> MODE_BITS.len() != 0 {
                return Err(format!("{raw:#x} has bits no nir_variable_mode has"));
            }
            let names: Vec<&str> = (0..MODE_BITS.len())
                .filter(|b| raw & (1 << b) != 0)
                .map(|b| MODE_BITS[b])
                .collect();
            let names = if names.is_empty() {
                "0".to_string()
            } else {
                names.join("|")
            };
            IndexValue::Text(format!("{p}{names}"))
        }
        AtomicOp => {
            let name = ATOMIC_OPS
                .get(raw as usize)
                .ok_or_else(|| format!("{raw} is no nir_atomic_op value (0-15)"))?;
            IndexValue::Text(format!("{p}{name}"))
        }
        k if super::parse::is_text_index(k) => {
            return Err("not decoded from a raw word; give it in nir_print's spelling".into())
        }
        // nir_print writes every other index with %d: the word read as a signed int.
        _ => IndexValue::Int(raw as i32 as i64),
    })
}

fn alu_type(raw: u32) -> Result<AluType, String> {
    let bits = (raw & 0x79) as u8;
    let base = match raw & !0x79 {
        0 => BaseType::Invalid,
        2 => BaseType::Int,
        4 => BaseType::Uint,
        6 => BaseType::Bool,
        128 => BaseType::Float,
        _ => return Err(format!("{raw:#x} is no nir_alu_type")),
    };
    if !matches!(bits, 0 | 1 | 8 | 16 | 32 | 64) || (base == BaseType::Invalid && bits != 0) {
        return Err(format!("{raw:#x} is no nir_alu_type"));
    }
    Ok(AluType { base, bits })
}

fn alu_type_raw(t: AluType) -> u32 {
    let base = match t.base {
        BaseType::Invalid => 0,
        BaseType::Int => 2,
        BaseType::Uint => 4,
        BaseType::Bool => 6,
        BaseType::Float => 128,
    };
    base | t.bits as u32
}

/// Mesa's word for a parsed index value; None when `kind` has no raw form here or the text
/// does not read as one.
pub fn to_raw(kind: IndexKind, value: &IndexValue) -> Option<u32> {
    use IndexKind::*;
    let text = |v: &IndexValue| match v {
        IndexValue::Text(t) => t.strip_prefix(prefix(kind).as_str()).map(str::to_string),
        _ => None,
    };
    match (kind, value) {
        (_, IndexValue::Int(v)) => Some(*v as u32),
        (_, IndexValue::WriteMask(m)) => Some(*m),
        (_, IndexValue::Type(t)) => Some(alu_type_raw(*t)),
        (Access, v) => {
            let t = text(v)?;
            if t == "none" {
                return Some(0);
            }
            t.split('|').try_fold(0, |acc, w| {
                ACCESS_BITS.iter().find(|p| p.1 == w).map(|p| acc | p.0)
            })
        }
        (IoSemantics, v) => {
            let t = text(v)?;
            let mut words = t.split(' ');
            let location = slots::slot_number(words.next()?)?;
            let slots = words.next()?.strip_prefix("slots=")?.parse::<u32>().ok()?;
            if location > 0x7f || slots > 0x3f {
                return None;
            }
            let mut raw = location | slots << 7;
            let rest: Vec<&str> = words.collect();
            let rest = rest.join(" ");
            let (flags, streams) = match rest.split_once("gs_streams(") {
                Some((f, s)) => (f.to_string(), Some(s.strip_suffix(')')?.to_string())),
                None => (rest, None),
            };
            for w in flags.split(' ').filter(|w| !w.is_empty()) {
                raw |= IO_FLAGS.iter().find(|p| p.1 == w)?.0;
            }
            if let Some(s) = streams {
                for (i, part) in s.split(' ').enumerate() {
                    let v: u32 = part.get(2..)?.parse().ok()?;
                    raw |= (v & 3) << (15 + 2 * i);
                }
            }
            Some(raw)
        }
        (IoXfb | IoXfb2, v) => {
            let t = text(v)?;
            let t = t.strip_suffix(')')?;
            let first = if kind == IoXfb { 0 } else { 2 };
            let mut raw = 0u32;
            for out in t.split(", ").filter(|o| !o.is_empty()) {
                let mut words = out.split(' ');
                let comps = words.next()?;
                let (start, n) = if let Some(r) = comps.strip_prefix("components=") {
                    let (a, b) = r.split_once("..")?;
                    let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
                    (a, b.checked_sub(a)? + 1)
                } else {
                    (comps.strip_prefix("component=")?.parse().ok()?, 1)
                };
                let buffer: u32 = words.next()?.strip_prefix("buffer=")?.parse().ok()?;
                let offset: u32 = words.next()?.strip_prefix("offset=")?.parse().ok()?;
                let i = start.checked_sub(first)?;
                if i > 1 || n > 15 || buffer > 15 || offset / 4 > 0xff {
                    return None;
                }
                raw |= (n | buffer << 4 | (offset / 4) << 8) << (16 * i);
            }
            Some(raw)
        }
        (MemoryScope | ExecutionScope, v) => {
            let t = text(v)?;
            SCOPES.iter().position(|s| *s == t).map(|i| i as u32)
        }
        (MemorySemantics, v) => {
            let t = text(v)?;
            let mut raw = 0;
            for w in t.split('|') {
                raw |= match w {
                    "NONE" => 0,
                    "ACQ" => 1,
                    "REL" => 2,
                    "AVAILABLE" => 4,
                    "VISIBLE" => 8,
                    _ => return None,
                };
            }
            Some(raw)
        }
        (MemoryModes, v) => {
            let t = text(v)?;
            if t == "0" {
                return Some(0);
            }
            t.split('|').try_fold(0, |acc, w| {
                MODE_BITS.iter().position(|m| *m == w).map(|b| acc | 1 << b)
            })
        }
        (AtomicOp, v) => {
            let t = text(v)?;
            ATOMIC_OPS.iter().position(|o| *o == t).map(|i| i as u32)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intr(name: &str) -> Intrinsic {
        Intrinsic::from_name(name).unwrap()
    }

    /// Words packed by hand from Mesa 23.3's nir.h bit-field layout, against the text
    /// nir_print writes for them.
    #[test]
    fn io_semantics_words_decode_to_nir_print_spelling() {
        // location 32 (VARYING_SLOT_VAR0), 1 slot: 32 | 1 << 7.
        let v = from_raw(
            IndexKind::IoSemantics,
            32 | 1 << 7,
            intr("load_input"),
            Stage::Fragment,
        )
        .unwrap();
        assert_eq!(
            v,
            IndexValue::Text("io location=VARYING_SLOT_VAR0 slots=1".into())
        );
        // A vertex input names the attribute: location 15 is VERT_ATTRIB_GENERIC0.
        let v = from_raw(
            IndexKind::IoSemantics,
            15 | 1 << 7,
            intr("load_input"),
            Stage::Vertex,
        )
        .unwrap();
        assert_eq!(
            v,
            IndexValue::Text("io location=VERT_ATTRIB_GENERIC0 slots=1".into())
        );
        // FRAG_RESULT_DATA0 (4), dual-source index 1 (bit 13), mediump (bit 23).
        let raw = 4 | 1 << 7 | 1 << 13 | 1 << 23;
        let v = from_raw(
            IndexKind::IoSemantics,
            raw,
            intr("store_output"),
            Stage::Fragment,
        )
        .unwrap();
        assert_eq!(
            v,
            IndexValue::Text("io location=FRAG_RESULT_DATA0 slots=1 dualsrc mediump".into())
        );
        assert_eq!(to_raw(IndexKind::IoSemantics, &v), Some(raw));
    }

    #[test]
    fn xfb_and_access_words() {
        // out[0]: 2 components, buffer 1, offset 3 dwords; out[1] disabled.
        let raw = 2 | 1 << 4 | 3 << 8;
        let v = from_raw(IndexKind::IoXfb, raw, intr("store_output"), Stage::Vertex).unwrap();
        assert_eq!(
            v,
            IndexValue::Text("xfb(components=0..1 buffer=1 offset=12)".into())
        );
        assert_eq!(to_raw(IndexKind::IoXfb, &v), Some(raw));
        let v = from_raw(IndexKind::IoXfb2, 0, intr("store_output"), Stage::Vertex).unwrap();
        assert_eq!(v, IndexValue::Text("xfb2()".into()));
        // ACCESS_COHERENT | ACCESS_NON_WRITEABLE: printed coherent first, then readonly.
        let v = from_raw(
            IndexKind::Access,
            1 | 1 << 4,
            intr("load_ssbo"),
            Stage::Compute,
        )
        .unwrap();
        assert_eq!(v, IndexValue::Text("access=coherent|readonly".into()));
        assert_eq!(to_raw(IndexKind::Access, &v), Some(1 | 1 << 4));
        let none = from_raw(IndexKind::Access, 0, intr("load_ssbo"), Stage::Compute).unwrap();
        assert_eq!(none, IndexValue::Text("access=none".into()));
    }

    #[test]
    fn plain_words_and_types() {
        // nir_print writes plain indices with %d.
        let v = from_raw(
            IndexKind::Base,
            u32::MAX,
            intr("load_uniform"),
            Stage::Vertex,
        );
        assert_eq!(v, Ok(IndexValue::Int(-1)));
        // nir_type_float | 32 = 160; nir_type_uint | 32 = 36.
        let v = from_raw(
            IndexKind::DestType,
            160,
            intr("load_uniform"),
            Stage::Vertex,
        );
        assert_eq!(v, Ok(IndexValue::Type(AluType::F32)));
        assert_eq!(
            to_raw(IndexKind::SrcType, &IndexValue::Type(AluType::U32)),
            Some(36)
        );
        // Two base-type bits at once (float | int) is no type.
        assert!(from_raw(
            IndexKind::DestType,
            130 | 32,
            intr("load_uniform"),
            Stage::Vertex
        )
        .is_err());
        // SCOPE_WORKGROUP is 4; ACQ|REL is 3; shared memory is bit 16.
        let v = from_raw(IndexKind::MemoryScope, 4, intr("barrier"), Stage::Compute).unwrap();
        assert_eq!(v, IndexValue::Text("memory_scope=WORKGROUP".into()));
        let v = from_raw(
            IndexKind::MemoryModes,
            1 << 16,
            intr("barrier"),
            Stage::Compute,
        );
        assert_eq!(v, Ok(IndexValue::Text("mem_modes=shared".into())));
        let v = from_raw(IndexKind::AtomicOp, 4, intr("ssbo_atomic"), Stage::Compute);
        assert_eq!(v, Ok(IndexValue::Text("atomic_op=umax".into())));
    }
}
