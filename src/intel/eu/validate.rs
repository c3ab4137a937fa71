//! Validator for hardware operand and region rules: placeholder.

use super::Inst;
use crate::intel::DevInfo;

/// A broken hardware rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// Instruction index.
    pub index: usize,
    /// The rule and how it is broken.
    pub message: String,
}

/// Checks every instruction.
pub fn validate(_devinfo: &DevInfo, _insts: &[Inst]) -> Vec<ValidationError> {
    Vec::new()
}
