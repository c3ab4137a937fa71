//! Rules an encodable instruction must also follow to be meaningful on a given core.
//!
//! The one-const rule: the uniform read port delivers one vec4 per instruction, so an
//! instruction may read several components of one uniform register but not two different
//! uniform registers, unless the core lifts the limit (`SH_NO_ONECONST_LIMIT`). Operand-use
//! rules: each source slot is used exactly when the instruction's format reads it,
//! destinations are present where the operation writes one, registers, samplers and immediates
//! are within the core's means, and operations the core lacks are not used.

use std::fmt;

use super::inst::*;
use super::opcode::{Class, Format, Opcode, Slot};
use crate::etnaviv::specs::Specs;

/// A rule an instruction breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// Index of the instruction in the program (0 for a single instruction).
    pub index: usize,
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "instruction {}: {}", self.index, self.message)
    }
}

impl std::error::Error for ValidationError {}

fn needs_halti2(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        I2i | I2f
            | F2i
            | F2irnd
            | Cmp
            | Load
            | Store
            | Clamp0Max
            | Iaddsat
            | Imullo0
            | Imulhi0
            | Idiv0
            | Imod
            | Txf
            | Imadlo0
            | Imadlosat0
            | Movai
            | Iabs
            | Leadzero
            | Lshift
            | Rshift
            | Rotate
            | Or
            | And
            | Xor
            | Not
            | BitExtract
            | Popcount
            | Div
            | AtomicAdd
            | AtomicXchg
            | AtomicCmpXchg
            | AtomicMin
            | AtomicMax
            | AtomicOr
            | AtomicAnd
            | AtomicXor
            | BitRev
            | Conv
            | Dp2
            | NormDp2
            | NormDp3
            | NormDp4
            | NormMul
            | ImgLoad
            | ImgStore
            | Tg4
            | Swizzle
            | BranchAny
            | BitFindLsb
            | BitFindMsb
    )
}

/// Operations that write no register even though their format has a destination field.
fn writes_no_register(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Nop | Opcode::Ret | Opcode::Barrier | Opcode::Texkill | Opcode::Movai
    )
}

/// Checks one instruction against the rules of `specs`.
pub fn validate(specs: &Specs, inst: &Inst) -> Result<(), String> {
    let format = inst.format();
    let op = inst.opcode;
    let name = op.name();
    if !specs.has_halti2_instructions() && needs_halti2(op) {
        return Err(format!(
            "{name} needs the HALTI2 instruction set, which {} lacks",
            specs.name
        ));
    }
    if matches!(op, Opcode::Sin | Opcode::Cos | Opcode::Sqrt) && !specs.has_sin_cos_sqrt() {
        return Err(format!("{} has no {name}", specs.name));
    }
    if matches!(op, Opcode::Floor | Opcode::Ceil | Opcode::Sign) && !specs.has_sign_floor_ceil() {
        return Err(format!("{} has no {name}", specs.name));
    }
    if op == Opcode::Div && !specs.has_new_transcendentals() {
        return Err(format!("{} has no {name}", specs.name));
    }
    for (slot, rule) in format.slots().iter().enumerate() {
        let src = &inst.src[slot];
        match rule {
            Slot::Absent if *src != Src::default() => {
                return Err(format!("{name} does not read src{slot}"));
            }
            Slot::Present if !src.use_ => return Err(format!("{name} reads src{slot}")),
            _ => {}
        }
        if !src.use_ {
            continue;
        }
        match src.kind {
            SrcKind::Imm(_) if !specs.has_halti2_instructions() => {
                return Err(format!(
                    "src{slot}: immediates need HALTI2 ({} lacks it)",
                    specs.name
                ));
            }
            SrcKind::Reg(r)
                if r.group == RegGroup::Temp && u32::from(r.reg) >= specs.temp_count() =>
            {
                return Err(format!(
                    "src{slot}: t{} beyond the {} temporaries",
                    r.reg,
                    specs.temp_count()
                ));
            }
            SrcKind::Reg(r) if r.group.is_uniform() => {
                let limit = specs
                    .uniform_limits()
                    .max_vs_uniforms
                    .max(specs.uniform_limits().max_ps_uniforms);
                if u32::from(r.reg) >= limit {
                    return Err(format!("src{slot}: u{} beyond the {limit} uniforms", r.reg));
                }
            }
            _ => {}
        }
    }
    let has_dst_field = matches!(format.class(), Class::Alu | Class::Tex | Class::Load);
    if has_dst_field {
        if matches!(op, Opcode::Movar | Opcode::Movai) {
            if inst.dst.use_ || inst.dst.mask == 0 {
                return Err(format!(
                    "{name} writes the address register: dst must be a0 with a mask"
                ));
            }
        } else if writes_no_register(op) {
            if inst.dst.use_ {
                return Err(format!("{name} writes no register"));
            }
        } else if !inst.dst.use_ {
            return Err(format!("{name} needs a destination"));
        } else if inst.dst.mask == 0 {
            return Err(format!("{name} has an empty write mask"));
        } else if u32::from(inst.dst.reg) >= specs.temp_count() {
            return Err(format!(
                "destination t{} beyond the {} temporaries",
                inst.dst.reg,
                specs.temp_count()
            ));
        }
    }
    if format.class() == Class::Tex {
        let s = specs.sampler_limits();
        let total = s.vertex_offset.max(s.fragment_count) + s.vertex_count;
        if u32::from(inst.tex.id) >= total {
            return Err(format!(
                "sampler {} beyond the {total} samplers",
                inst.tex.id
            ));
        }
    }
    if format == Format::KillCond && !specs.has_halti2_instructions() && inst.ty != DataType::F32 {
        return Err("integer conditions need HALTI2".into());
    }
    if specs.has_one_const_limit() {
        let mut uniform = None;
        for (slot, src) in inst.src.iter().enumerate() {
            if format.slots()[slot] == Slot::Absent {
                continue;
            }
            if let Some(u) = src.uniform_index() {
                match uniform {
                    None => uniform = Some(u),
                    Some(prev) if prev != u => {
                        return Err(format!(
                            "reads two uniform registers (u{} and u{}); {} allows one per instruction",
                            prev,
                            u,
                            specs.name
                        ));
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

/// Checks every instruction, and that branch targets stay inside the program.
pub fn validate_program(specs: &Specs, program: &[Inst]) -> Result<(), ValidationError> {
    for (index, inst) in program.iter().enumerate() {
        validate(specs, inst).map_err(|message| ValidationError { index, message })?;
        if inst.format().class() == Class::Cf && usize::from(inst.target) > program.len() {
            return Err(ValidationError {
                index,
                message: format!(
                    "branch target {} outside the program of {}",
                    inst.target,
                    program.len()
                ),
            });
        }
    }
    Ok(())
}
