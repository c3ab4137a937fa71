//! What crocus's pipeline decides before brw compiles a vertex shader, derived from the NIR
//! as Mesa 23.3 derives it, for the checks that run Mesa's own vec4 code
//! (`tests/vec4_mesa_code.rs` on ivb, `tests/gen4_mesa_code.rs` on snb and g4x).

use gpucc::intel::backend::vertex::vertex_facts;
use gpucc::intel::eu;
use gpucc::intel::kernel::{Flags, Kernel, SimdKernel, Stats, SurfaceUse, SIMD4X2};
use gpucc::intel::DevInfo;
use gpucc::nir::{self, InstrKind, Intrinsic};
use std::collections::BTreeMap;

/// Mesa's program assembled and encoded, with the one-width kernel entry gpucc's checks read
/// for it (all 128 registers counted as used: the check does not need Mesa's figure).
pub fn mesa_code(
    devinfo: &DevInfo,
    asm: &str,
    simd: u32,
    dispatch_grf_start: u32,
) -> Result<(Vec<u8>, SimdKernel), String> {
    let insts = eu::assemble(devinfo, asm).map_err(|e| format!("assembly: {e}"))?;
    let code: Vec<u8> = eu::encode_program(devinfo, &insts)
        .map_err(|e| format!("encoding: {e}"))?
        .concat();
    let entry = SimdKernel {
        simd,
        offset: 0,
        size: code.len() as u32,
        dispatch_grf_start,
        grfs_used: 128,
        stats: Stats {
            simd,
            instructions: insts.len() as u32,
            ..Stats::default()
        },
        scratch_size: 0,
    };
    Ok((code, entry))
}

/// The vertex kernel gpucc's checks take for Mesa's vec4 program: its code, the vertex facts
/// of its NIR, the pushed constants crocus lays out (`push_constants`) and the pulled UBO
/// blocks at their NIR block index.
pub fn mesa_vec4_kernel(
    devinfo: &DevInfo,
    asm: &str,
    shader: &nir::Shader,
    push_constants: Vec<(u32, u32)>,
) -> Result<Kernel, String> {
    let (code, entry) = mesa_code(devinfo, asm, SIMD4X2, 1)?;
    let vertex = vertex_facts(shader).map_err(|e| format!("vertex facts: {e}"))?;
    Ok(Kernel {
        platform: devinfo.name,
        simd: vec![entry],
        code,
        push_constants,
        inputs: Vec::new(),
        num_render_targets: 0,
        pull_constant_blocks: ubo_blocks(shader),
        ubo_surface_base: 0,
        ssbo_surface_base: gpucc::intel::backend::binding::SSBO_SURFACE_BASE,
        ubo_ranges: Vec::new(),
        surfaces: SurfaceUse::default(),
        flags: Flags::default(),
        scratch_size: 0,
        compute: None,
        vertex: Some(vertex),
        geometry: None,
        tess_eval: None,
        tess_ctrl: None,
        relocs: Vec::new(),
        constant_data_size: 0,
    })
}

/// A UBO range brw pushes: block, first 32-byte chunk, chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub block: u32,
    pub start: u32,
    pub length: u32,
}

/// The ranges `brw_nir_analyze_ubo_ranges` picks on crocus on Gen4-5 and Gen7+ (not Gen6,
/// where crocus's `can_push_ubo` is false) (facts from Mesa 23.3): every
/// `load_ubo` with a constant block and a constant byte offset below 2048 marks the 32-byte
/// chunks it reads as used and counts one use of its first chunk; each run of consecutive
/// used chunks of a block is a candidate scored `2 · uses − chunks`, ranked by score (higher
/// first), then block (higher first), then start (lower first); crocus sets
/// `constant_buffer_0_is_relative`, which leaves 3 ranges, one fewer when the shader also
/// reads regular uniforms or images. The vec4 backend then shrinks them to 32 registers in
/// all, in rank order.
pub fn mesa_push_ranges(shader: &nir::Shader) -> Vec<Range> {
    let Some(imp) = shader.entry() else {
        return Vec::new();
    };
    // Per block: used chunks, uses per first chunk.
    let mut blocks: BTreeMap<u32, (u64, [u32; 64])> = BTreeMap::new();
    let mut regular_uniforms = false;
    for ins in &imp.instrs {
        let InstrKind::Intrinsic(i) = &ins.kind else {
            continue;
        };
        let name = i.intrinsic.name();
        if i.intrinsic == Intrinsic::LoadUniform || name.starts_with("image_deref_") {
            regular_uniforms |= matches!(
                name,
                "load_uniform"
                    | "image_deref_load"
                    | "image_deref_store"
                    | "image_deref_atomic"
                    | "image_deref_atomic_swap"
                    | "image_deref_size"
            );
            continue;
        }
        if i.intrinsic != Intrinsic::LoadUbo {
            continue;
        }
        let konst = |k: usize| {
            i.srcs
                .get(k)
                .and_then(|&s| imp.const_value(s))
                .and_then(|v| v.first().copied())
        };
        let (Some(block), Some(offset)) = (konst(0), konst(1)) else {
            continue;
        };
        let chunk = offset / 32;
        if chunk >= 64 {
            continue;
        }
        let def = i.def.and_then(|d| imp.def(d));
        let bytes = def.map_or(4, |d| d.num_components as u64 * (d.bit_size as u64 / 8));
        let start = offset / 32 * 32;
        let end = (offset + bytes).div_ceil(32) * 32;
        let chunks = (end - start) / 32;
        let info = blocks.entry(block as u32).or_insert((0, [0; 64]));
        let bits = if chunks >= 64 {
            u64::MAX
        } else {
            (1u64 << chunks) - 1
        };
        info.0 |= bits << chunk;
        info.1[chunk as usize] += 1;
    }
    let mut ranges: Vec<(i64, Range)> = Vec::new();
    for (&block, &(offsets, uses)) in &blocks {
        let mut c = 0u32;
        while c < 64 {
            if offsets >> c & 1 == 0 {
                c += 1;
                continue;
            }
            let start = c;
            while c < 64 && offsets >> c & 1 == 1 {
                c += 1;
            }
            let benefit: u32 = uses[start as usize..c as usize].iter().sum();
            let r = Range {
                block,
                start,
                length: c - start,
            };
            ranges.push((2 * benefit as i64 - r.length as i64, r));
        }
    }
    ranges.sort_by(|(sa, a), (sb, b)| {
        sb.cmp(sa)
            .then(b.block.cmp(&a.block))
            .then(a.start.cmp(&b.start))
    });
    let keep = 3 - regular_uniforms as usize;
    let mut total = 0;
    ranges
        .into_iter()
        .take(keep)
        .map(|(_, mut r)| {
            r.length = r.length.min(32 - total);
            total += r.length;
            r
        })
        .filter(|r| r.length > 0)
        .collect()
}

/// The push constants of `ranges` as gpucc's kernels list them: (UBO block, byte offset) of
/// every pushed dword in payload order.
pub fn push_layout(ranges: &[Range]) -> Vec<(u32, u32)> {
    ranges
        .iter()
        .flat_map(|r| (0..r.length * 8).map(move |d| (r.block, r.start * 32 + 4 * d)))
        .collect()
}

/// Every UBO block a `load_ubo` names: the blocks a program may pull from. In this corpus
/// Mesa's pull loads (`ld SIMD4x2 Surface = 0`) name binding-table entry 0 and the NIR block
/// 0: crocus has already made the NIR's block index the binding-table index.
pub fn ubo_blocks(shader: &nir::Shader) -> Vec<u32> {
    let Some(imp) = shader.entry() else {
        return Vec::new();
    };
    let mut blocks: Vec<u32> = imp
        .instrs
        .iter()
        .filter_map(|ins| match &ins.kind {
            InstrKind::Intrinsic(i) if i.intrinsic == Intrinsic::LoadUbo => {
                let v = imp.const_value(*i.srcs.first()?)?;
                Some(*v.first()? as u32)
            }
            _ => None,
        })
        .collect();
    blocks.sort();
    blocks.dedup();
    blocks
}
