//! The scalar ("FS") backend: NIR fragment and compute shaders in, [`Kernel`]s out, for
//! Gen7–Gen9 (Gen9 as Gen8 plus its sampler `ld` parameter order and committed fences), and
//! Gen6 fragment shaders at SIMD8 and SIMD16 ([`gen6`] says what differs there).
//!
//! The pipeline, run once per dispatch width that the Intel layer's
//! [`simd`](crate::intel::backend::simd) choice builds:
//!
//! 1. [`from_nir`] translates the shader at the width (8, 16 or, for fragment shaders, 32
//!    channels: a SIMD32 program is made of SIMD16 halves, its sampler and render-target
//!    messages split in two, as Mesa builds it on Gen7-Gen9);
//! 2. [`lower`] turns logical sends into payload loads and SENDs, expands LOAD_PAYLOAD, splits
//!    multiplies and instructions the hardware cannot run at the width;
//! 3. push constants and attribute setup data are given their payload registers;
//! 4. [`opt`] removes copies (copy propagation, dead code, register coalescing);
//! 5. [`sched`] orders each block for register pressure, trying Mesa's heuristics in turn,
//!    and [`liveness`] and [`regalloc`] place the virtual registers with the first order that
//!    fits; when none does, a SIMD8 program spills registers to scratch (from the order with
//!    the least pressure), a SIMD16 or SIMD32 one is dropped (as Mesa does);
//! 6. [`sched`] reorders the allocated program to hide latency;
//! 7. [`codegen`] emits EU instructions, which the EU validator checks before they are
//!    encoded and compacted.
//!
//! The layer tries SIMD32 as Mesa's `brw_compile_fs` tries it (no narrower program spilled,
//! SIMD16 did not fail) and keeps it only when the cycle model's throughput beats the
//! narrower programs'.
//!
//! The order is written once, in [`pipeline`]; `GPUCC_DEBUG` (see [`crate::debug`]) prints
//! the IR after each step that changed it (`fs`), the allocator's work (`ra`), the final
//! assembly (`asm`), statistics (`stats`) and per-pass times (`time`) through
//! [`Options::debug`](crate::intel::backend::Options::debug).

pub mod alloc_check;
pub mod codegen;
pub mod device;
pub mod from_nir;
pub mod gen6;
pub mod ir;
pub mod limits;
pub mod liveness;
pub mod lower;
pub mod opt;
pub mod pipeline;
pub mod regalloc;
pub mod sched;
pub mod stats;
pub mod validate;

use crate::intel::eu;
use crate::intel::kernel::Reloc;
use crate::intel::msg::ScratchDesc;
use crate::intel::DevInfo;

use ir::{File, Program, Reg, REG_SIZE};

/// Why a compile failed: the one error type of every backend (see [`crate::error`]).
pub use crate::error::CompileError;
pub use device::Device;

/// The relocations of one variant, at the byte offsets of their immediates in its compacted
/// code: a relocated MOV is never compacted (its placeholder fits no table), and a full
/// instruction keeps its 32-bit immediate in bytes 12..16.
fn reloc_offsets(sites: &[(usize, u32)], code: &[eu::Encoded]) -> Result<Vec<Reloc>, CompileError> {
    let mut relocs = Vec::with_capacity(sites.len());
    for &(index, id) in sites {
        let inst = code.get(index).ok_or_else(|| {
            CompileError::Internal(format!("relocated instruction {index} was not emitted"))
        })?;
        if inst.bytes().len() != 16 {
            return Err(CompileError::Internal(format!(
                "relocated instruction {index} was compacted"
            )));
        }
        let start: usize = code[..index].iter().map(|e| e.bytes().len()).sum();
        relocs.push(Reloc {
            id,
            offset: start as u32 + 12,
            delta: 0,
        });
    }
    Ok(relocs)
}

/// Puts register spills after the scratch the NIR addresses itself (as Mesa does): the
/// allocator numbers its scratch blocks from zero, so every scratch block message moves up by
/// the NIR's per-thread scratch bytes, and the thread's scratch grows by as much.
fn place_spills_after_nir_scratch(
    ver: u32,
    prog: &mut Program,
    spilled: &mut regalloc::SpillStats,
    nir_bytes: u32,
) -> Result<(), CompileError> {
    if nir_bytes == 0 {
        return Ok(());
    }
    let base = nir_bytes.next_multiple_of(REG_SIZE);
    for inst in &mut prog.insts {
        if inst.op == ir::Op::Send && ScratchDesc::is_scratch(ver, inst.sfid, inst.desc) {
            let mut scratch = ScratchDesc::decode(ver, inst.desc);
            scratch.offset += base / REG_SIZE;
            if scratch.offset > ScratchDesc::MAX_OFFSET {
                return Err(CompileError::Unsupported(format!(
                    "register spills beyond {} bytes of NIR scratch (block offsets are 12 bits)",
                    nir_bytes
                )));
            }
            inst.desc = scratch.encode(ver);
        }
    }
    spilled.scratch_bytes += base;
    Ok(())
}

/// Gives push constants and attribute setup data their payload registers and returns the
/// number of registers the payload occupies (none of which the allocator may use).
/// GRFs the thread payload takes: the fixed part, the push constants, then the attribute
/// setup (fragment) or the pushed vertex elements (vertex), which [`assign_payload_files`]
/// lays out in that order.
fn payload_regs(facts: &from_nir::ShaderFacts) -> u32 {
    let urb_start = facts.payload.num_regs + facts.push_dwords().div_ceil(8);
    match (&facts.vertex, &facts.geometry, &facts.tess_eval) {
        (Some(v), _, _) => urb_start + 4 * v.nr_attribute_slots,
        // Each input vertex's pushed part (Mesa's `assign_gs_urb_setup`).
        (_, Some(g), _) => urb_start + 8 * g.urb_read_length * g.vertices_in,
        (_, _, Some(tes)) => urb_start + tes.urb_read_length,
        _ => urb_start + 2 * facts.inputs.len() as u32,
    }
}

/// The payload must leave registers for the program: a payload past the file (a vertex
/// shader pushing 32 elements of 4 GRFs each) is a limit of the shader, named, not an
/// internal error of the passes that place it.
fn check_payload(dev: &DevInfo, facts: &from_nir::ShaderFacts) -> Result<(), CompileError> {
    let regs = payload_regs(facts);
    if regs >= dev.grf_count {
        let what = match &facts.vertex {
            Some(v) => format!(
                "{} pushed vertex elements of 4 GRFs each",
                v.nr_attribute_slots
            ),
            None => format!("{} input slots of 2 GRFs each", facts.inputs.len()),
        };
        return Err(CompileError::Limit(format!(
            "the thread payload ({what}, {} push-constant dwords) takes {regs} GRFs, leaving none \
             of the {} for the program",
            facts.push_dwords(),
            dev.grf_count
        )));
    }
    Ok(())
}

fn assign_payload_files(prog: &mut Program, facts: &from_nir::ShaderFacts) -> u32 {
    let curb_start = facts.payload.num_regs;
    let curb_regs = facts.push_dwords().div_ceil(8);
    let urb_start = curb_start + curb_regs;
    let urb_regs = facts.vertex.is_some() || facts.geometry.is_some() || facts.tess_eval.is_some();
    let fix = |r: &mut Reg| match r.file {
        // A vertex element component or a pushed component of a geometry input vertex (a
        // whole register of eight channels' values), or a scalar of the pushed patch URB
        // entry (a TES: register and offset already placed).
        File::Attr if urb_regs => {
            r.file = File::Fixed;
            r.nr += urb_start;
        }
        File::Uniform => {
            let slot = r.nr;
            r.file = File::Fixed;
            r.nr = curb_start + slot / 8;
            r.offset = (slot % 8) * 4;
            r.stride = 0;
        }
        File::Attr => {
            let comp = r.offset / 16;
            let within = r.offset % 16;
            r.file = File::Fixed;
            r.nr = urb_start + 2 * r.nr + comp / 2;
            r.offset = (comp % 2) * 16 + within;
            r.stride = 0;
        }
        _ => {}
    };
    for inst in &mut prog.insts {
        fix(&mut inst.dst);
        for s in &mut inst.src {
            fix(s);
        }
    }
    payload_regs(facts)
}
