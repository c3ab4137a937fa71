//! What the scalar backend builds for Gen6 (Sandy Bridge) fragment shaders, and what it
//! refuses there.
//!
//! Gen6 runs the same program as Gen7 with four differences the backend handles: messages
//! leave from the message registers (codegen copies each payload there before its SEND),
//! MATH takes plain GRF regions without source modifiers (`lower::lower_math_gen6`),
//! sampler parameters sit in fixed slots (`from_nir::texture`), and IF/ELSE carry one jump
//! count, BREAK's second one pointing past the WHILE (`flow`, `codegen`).
//!
//! What is not built is refused here, by name, before lowering: the instructions Gen7 added
//! (bit-field operations, half-float conversion, carry and borrow, integer three-source
//! operations), messages other than the sampler and the render-target write (data-port
//! surface, scratch and fence messages are Gen7's), and dynamically uniform sampler-array
//! indices (their first-live-channel search uses f1, which Gen6 lacks). Register spilling is
//! not built either: a SIMD8 program that does not fit is refused by `backend::simd`.

use crate::intel::eu::types::sfid;
use crate::intel::eu::{Opcode, RegType};

use super::ir::{Inst, Op, Program};
use crate::error::CompileError;

/// Refuses, naming it, the first instruction of `prog` (freshly translated) that the Gen6
/// path does not build.
pub fn check_program(prog: &Program) -> Result<(), CompileError> {
    match first_unbuilt(&prog.insts) {
        Some(why) => Err(CompileError::Unsupported(format!(
            "Gen6 fragment shader: {why}"
        ))),
        None => Ok(()),
    }
}

/// What the Gen6 path does not build among `insts`, in words, for the first one found.
pub fn first_unbuilt(insts: &[Inst]) -> Option<String> {
    insts.iter().find_map(|inst| match inst.op {
        Op::Alu(
            o @ (Opcode::Csel
            | Opcode::F32to16
            | Opcode::F16to32
            | Opcode::Bfrev
            | Opcode::Bfe
            | Opcode::Bfi1
            | Opcode::Bfi2
            | Opcode::Fbh
            | Opcode::Fbl
            | Opcode::Cbit
            | Opcode::Addc
            | Opcode::Subb
            | Opcode::Madm),
        ) => Some(format!("{} (no such instruction before Gen7)", o.name())),
        Op::Alu(o @ (Opcode::Mad | Opcode::Lrp)) if inst.dst.ty != RegType::F => Some(format!(
            "{} on {:?} (Gen6 three-source operations are float only)",
            o.name(),
            inst.dst.ty
        )),
        Op::Send => Some(format!(
            "{} messages (only the sampler and render-target writes are built)",
            sfid_name(inst.sfid)
        )),
        Op::Uniformize | Op::Tex { indexed: true, .. } => {
            Some("a dynamically uniform sampler-array index".to_string())
        }
        _ => None,
    })
}

/// The shared function a message goes to, in words.
fn sfid_name(id: u8) -> &'static str {
    match id {
        sfid::SAMPLER => "sampler",
        sfid::GATEWAY => "message gateway",
        sfid::DATAPORT_READ => "sampler-cache data port",
        sfid::DATAPORT_WRITE => "render-cache data port",
        sfid::CONSTANT_CACHE => "constant cache",
        sfid::DATA_CACHE => "data cache",
        sfid::PIXEL_INTERPOLATOR => "pixel interpolator",
        _ => "other shared-function",
    }
}
