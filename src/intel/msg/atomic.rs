//! The operation field of the untyped atomic messages (Mesa's `BRW_AOP_*`, `brw_eu_defines.h`)
//! and which one a NIR `atomic_op` becomes (`lsc_aop_for_nir_intrinsic` followed by
//! `lsc_op_to_legacy_atomic`), shared by the scalar and vec4 backends.

/// Untyped atomic operations, bits 3:0 of the message control.
pub mod aop {
    /// Bitwise and.
    pub const AND: u32 = 1;
    /// Bitwise or.
    pub const OR: u32 = 2;
    /// Bitwise exclusive or.
    pub const XOR: u32 = 3;
    /// Exchange.
    pub const MOV: u32 = 4;
    /// Increment (no operand).
    pub const INC: u32 = 5;
    /// Decrement (no operand).
    pub const DEC: u32 = 6;
    /// Add.
    pub const ADD: u32 = 7;
    /// Signed maximum.
    pub const IMAX: u32 = 10;
    /// Signed minimum.
    pub const IMIN: u32 = 11;
    /// Unsigned maximum.
    pub const UMAX: u32 = 12;
    /// Unsigned minimum.
    pub const UMIN: u32 = 13;
    /// Compare and write (two operands).
    pub const CMPWR: u32 = 14;
}

/// The operation of NIR's integer `atomic_op` `name` (nir_print's spelling: `iadd`, `umax`,
/// ...) for the `*_atomic` intrinsics, or with `swap` for the `*_atomic_swap` ones
/// (`cmpxchg`); `None` for the float operations and anything else.
pub fn aop_for_nir(name: &str, swap: bool) -> Option<u32> {
    Some(match (name, swap) {
        ("iadd", false) => aop::ADD,
        ("imin", false) => aop::IMIN,
        ("umin", false) => aop::UMIN,
        ("imax", false) => aop::IMAX,
        ("umax", false) => aop::UMAX,
        ("iand", false) => aop::AND,
        ("ior", false) => aop::OR,
        ("ixor", false) => aop::XOR,
        ("xchg", false) => aop::MOV,
        ("cmpxchg", true) => aop::CMPWR,
        _ => return None,
    })
}

/// As [`aop_for_nir`], with Mesa's refinement for an addition of a constant operand: 1 is
/// an increment and -1 a decrement, messages without the operand register.
pub fn aop_for_nir_constant(name: &str, swap: bool, operand: Option<u32>) -> Option<u32> {
    let op = aop_for_nir(name, swap)?;
    Some(match (op, operand) {
        (aop::ADD, Some(1)) => aop::INC,
        (aop::ADD, Some(u32::MAX)) => aop::DEC,
        _ => op,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nir_operations_map_to_mesa_numbers() {
        // brw_eu_defines.h: BRW_AOP_ADD 7, BRW_AOP_UMAX 12, BRW_AOP_CMPWR 14, INC 5, DEC 6.
        assert_eq!(aop_for_nir("iadd", false), Some(7));
        assert_eq!(aop_for_nir("umax", false), Some(12));
        assert_eq!(aop_for_nir("cmpxchg", true), Some(14));
        assert_eq!(aop_for_nir("cmpxchg", false), None);
        assert_eq!(aop_for_nir("fadd", false), None);
        assert_eq!(aop_for_nir_constant("iadd", false, Some(1)), Some(5));
        assert_eq!(
            aop_for_nir_constant("iadd", false, Some(0xffff_ffff)),
            Some(6)
        );
        assert_eq!(aop_for_nir_constant("iadd", false, Some(2)), Some(7));
        assert_eq!(aop_for_nir_constant("umax", false, Some(1)), Some(12));
    }
}
