//! The row types of the generated opcode tables ([`super::ALU_OPS`], [`super::INTRINSICS`])
//! and their property flags: the shape of the facts, written by hand, below the tables that
//! hold them.

use super::index_kind::IndexKind;
use crate::nir::types::AluType;

/// Operand order does not matter (`a op b == b op a`).
pub const COMMUTATIVE: u8 = 1;
/// `(a op b) op c == a op (b op c)`.
pub const ASSOCIATIVE: u8 = 2;
/// The op selects one of its operands (like `bcsel`), so it forwards values bit-exactly.
pub const SELECTION: u8 = 4;

/// Signature of an ALU opcode.
///
/// A size of 0 means "the vector width of the instruction" (a per-component op); a non-zero
/// size is fixed (horizontal ops such as `fdot3` or `vec4`). A type with bit size 0 takes the
/// instruction's bit size.
#[derive(Debug)]
pub struct AluOpInfo {
    pub name: &'static str,
    pub output_size: u8,
    pub output_type: AluType,
    pub input_sizes: &'static [u8],
    pub input_types: &'static [AluType],
    pub is_conversion: bool,
    pub props: u8,
}

impl AluOpInfo {
    pub fn num_inputs(&self) -> usize {
        self.input_sizes.len()
    }
    pub fn is_commutative(&self) -> bool {
        self.props & COMMUTATIVE != 0
    }
}

/// The intrinsic may be removed when its result is unused.
pub const CAN_ELIMINATE: u8 = 1;
/// The intrinsic may be moved relative to other instructions.
pub const CAN_REORDER: u8 = 2;

/// Signature of an intrinsic.
///
/// Source component counts: 0 = the instruction's `num_components`, -1 = any width.
/// `dest_components`: -1 = no destination, 0 = `num_components`.
#[derive(Debug)]
pub struct IntrinsicInfo {
    pub name: &'static str,
    pub src_components: &'static [i8],
    pub dest_components: i8,
    pub indices: &'static [IndexKind],
    pub flags: u8,
    pub sysval: bool,
    pub bit_sizes: &'static [u8],
    pub bit_size_src: i8,
}

impl IntrinsicInfo {
    pub fn num_srcs(&self) -> usize {
        self.src_components.len()
    }
    pub fn has_dest(&self) -> bool {
        self.dest_components >= 0
    }
}
