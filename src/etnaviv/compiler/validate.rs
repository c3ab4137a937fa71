//! Invariants of the value-based IR, checked between passes by the pipeline (debug builds,
//! tests, `GPUCC_DEBUG=validate`).
//!
//! What emission relies on and cannot check itself: every operand and destination names an
//! existing value, a write mask and the components a used channel reads stay within the
//! value's width (emission maps them through the allocated register type, which has exactly
//! that many components), and every branch target is a label placed exactly once.

use super::ir::{Item, OperandKind, Program};

/// Checks `p`; the error names the first offending item and what is wrong.
pub fn validate(p: &Program) -> Result<(), String> {
    let mut placed = vec![0u32; p.labels as usize];
    for item in &p.items {
        if let Item::Label(l) = item {
            match placed.get_mut(l.0 as usize) {
                Some(n) => *n += 1,
                None => return Err(format!("label L{} beyond the {} allocated", l.0, p.labels)),
            }
        }
    }
    if let Some(l) = placed.iter().position(|&n| n > 1) {
        return Err(format!("label L{l} placed {} times", placed[l]));
    }
    for (ip, item) in p.items.iter().enumerate() {
        let Item::Instr(ins) = item else { continue };
        let fail = |what: String| Err(format!("item {ip} ({ins}): {what}"));
        let width_of = |v: super::ir::ValueId| p.values.get(v.index()).map(|val| val.width);
        if let Some((v, mask)) = ins.dst {
            let Some(width) = width_of(v) else {
                return fail(format!("destination v{} does not exist", v.0));
            };
            if mask == 0 || mask >> width != 0 {
                return fail(format!("write mask {mask:#06b} on a vec{width}"));
            }
        }
        for (slot, op) in ins.src.iter().enumerate() {
            let Some(op) = op else { continue };
            let OperandKind::Value(v) = op.kind else {
                continue;
            };
            let Some(width) = width_of(v) else {
                return fail(format!(
                    "source {slot} reads v{}, which does not exist",
                    v.0
                ));
            };
            let used = ins.used_channels(slot);
            for c in (0..4).filter(|c| used & (1 << c) != 0) {
                if op.swz[c] >= width {
                    return fail(format!(
                        "source {slot} channel {c} reads component {} of a vec{width}",
                        op.swz[c]
                    ));
                }
            }
        }
        if let Some(t) = ins.target {
            if placed.get(t.0 as usize).copied().unwrap_or(0) != 1 {
                return fail(format!("branch to L{}, which is not placed", t.0));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::ir::{Instr, Label, Operand, Shape, ValueKind};
    use super::*;
    use crate::etnaviv::isa::Opcode;

    fn mov(p: &mut Program, dst: (u32, u8), src: Operand) {
        let mut i = Instr::new(Opcode::Mov, Shape::Aligned);
        i.dst = Some((super::super::ir::ValueId(dst.0), dst.1));
        i.src[2] = Some(src);
        p.push(i);
    }

    #[test]
    fn components_beyond_a_values_width_are_rejected() {
        let mut p = Program::default();
        let a = p.new_value(2, ValueKind::Temp);
        p.new_value(4, ValueKind::Temp);
        mov(&mut p, (1, 0b0011), Operand::value(a, [0, 1, 3, 3]));
        assert!(validate(&p).is_ok(), "channels 2 and 3 are not read");
        mov(&mut p, (1, 0b0111), Operand::value(a, [0, 1, 3, 3]));
        let err = validate(&p).unwrap_err();
        assert!(
            err.contains("channel 2 reads component 3 of a vec2"),
            "{err}"
        );
    }

    #[test]
    fn write_masks_must_fit_the_destination() {
        let mut p = Program::default();
        p.new_value(1, ValueKind::Temp);
        mov(&mut p, (0, 0b0010), Operand::splat(0));
        assert!(validate(&p)
            .unwrap_err()
            .contains("write mask 0b0010 on a vec1"));
        let mut p = Program::default();
        mov(&mut p, (3, 0b0001), Operand::splat(0));
        assert!(validate(&p).unwrap_err().contains("v3 does not exist"));
    }

    #[test]
    fn branches_need_a_label_placed_once() {
        let mut p = Program::default();
        let l = p.new_label();
        let mut b = Instr::new(Opcode::Branch, Shape::Broadcast(1));
        b.target = Some(Label(0));
        p.push(b);
        assert!(validate(&p).unwrap_err().contains("not placed"));
        p.place(l);
        assert!(validate(&p).is_ok());
        p.place(l);
        assert!(validate(&p).unwrap_err().contains("placed 2 times"));
    }
}
