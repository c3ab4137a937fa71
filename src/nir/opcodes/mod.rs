//! Instruction-family tables: the single source of truth for the parser, printer, validator and
//! interpreter. One row per ALU opcode ([`ALU_OPS`]) and per intrinsic ([`INTRINSICS`]), with
//! the signature facts of Mesa 23.3's `nir_opcodes.py` / `nir_intrinsics.py`.

mod alu_table;
mod index_kind;
mod info;
mod intrinsic_table;

pub use alu_table::{AluOp, ALU_OPS};
pub use index_kind::{IndexKind, INDEX_NAMES};
pub use info::{
    AluOpInfo, IntrinsicInfo, ASSOCIATIVE, CAN_ELIMINATE, CAN_REORDER, COMMUTATIVE, SELECTION,
};
pub use intrinsic_table::{Intrinsic, INTRINSICS};

/// The ALU type the generated table's rows name (`super::AluType`).
use super::types::AluType;

impl AluOp {
    pub fn info(self) -> &'static AluOpInfo {
        &ALU_OPS[self as usize]
    }
    pub fn name(self) -> &'static str {
        self.info().name
    }
    /// `vec2` ... `vec16`: gathers scalar sources into a vector (one component per source).
    pub fn is_vector_constructor(self) -> bool {
        use AluOp::*;
        matches!(self, vec2 | vec3 | vec4 | vec5 | vec8 | vec16)
    }
    /// The comparisons that give a 32-bit boolean (0 or ~0): what the backends turn into one
    /// CMP, and what an `inot` or a flag test can take apart again.
    pub fn is_comparison32(self) -> bool {
        use AluOp::*;
        matches!(
            self,
            flt32 | fge32 | feq32 | fneu32 | ilt32 | ige32 | ieq32 | ine32 | ult32 | uge32
        )
    }
    /// The opcode spelled `name` in NIR text.
    pub fn from_name(name: &str) -> Option<AluOp> {
        ALU_OPS
            .binary_search_by(|o| o.name.cmp(name))
            .ok()
            .map(|i| alu_table::ALL[i])
    }
}

impl Intrinsic {
    pub fn info(self) -> &'static IntrinsicInfo {
        &INTRINSICS[self as usize]
    }
    pub fn name(self) -> &'static str {
        self.info().name
    }
    /// The intrinsic spelled `name` in NIR text.
    pub fn from_name(name: &str) -> Option<Intrinsic> {
        INTRINSICS
            .binary_search_by(|o| o.name.cmp(name))
            .ok()
            .map(|i| intrinsic_table::ALL[i])
    }
    /// For the register intrinsics, which source names the register: `load_reg*` read it
    /// from source 0, `store_reg*` write the value in source 0 to the register in source 1.
    /// None for every other intrinsic (they may not read a register handle at all).
    pub fn register_src(self) -> Option<usize> {
        match self {
            Intrinsic::LoadReg | Intrinsic::LoadRegIndirect => Some(0),
            Intrinsic::StoreReg | Intrinsic::StoreRegIndirect => Some(1),
            _ => None,
        }
    }
    /// Position of `kind` among this intrinsic's constant indices.
    pub fn index_slot(self, kind: IndexKind) -> Option<usize> {
        self.info().indices.iter().position(|&k| k == kind)
    }
}

impl IndexKind {
    /// Mesa's name (`write_mask`, `io_semantics`, ...).
    pub fn name(self) -> &'static str {
        INDEX_NAMES[self as usize]
    }
    /// The prefix nir_print writes before the value: most indices print as `name=value`,
    /// a few have their own spelling.
    pub fn printed_prefix(self) -> &'static str {
        match self {
            IndexKind::WriteMask => "wrmask=",
            IndexKind::IoSemantics => "io location=",
            IndexKind::IoXfb => "xfb(",
            IndexKind::IoXfb2 => "xfb2(",
            // nir_print (Mesa 23.3) shortens these two, unlike their index names.
            IndexKind::MemorySemantics => "mem_semantics=",
            IndexKind::MemoryModes => "mem_modes=",
            _ => "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_lookup_round_trips() {
        for w in ALU_OPS.windows(2) {
            assert!(w[0].name < w[1].name);
        }
        for w in INTRINSICS.windows(2) {
            assert!(w[0].name < w[1].name);
        }
        for (i, info) in ALU_OPS.iter().enumerate() {
            let op = AluOp::from_name(info.name).unwrap();
            assert_eq!(op as usize, i);
            assert_eq!(info.input_sizes.len(), info.input_types.len());
        }
        assert!(AluOp::from_name("nonsense").is_none());
    }

    /// The enums are positional: `Intrinsic::LoadInput` means row `LoadInput as usize` of the
    /// table. Check that every variant's identifier spells its row's name, so a backend arm on
    /// `Intrinsic::LoadInput` really matches `load_input` (and one on `AluOp::fadd` matches
    /// `fadd`), and that every row has exactly one variant.
    #[test]
    fn enum_variants_spell_their_table_rows() {
        fn camel(name: &str) -> String {
            name.split('_')
                .map(|w| {
                    let mut c = w.chars();
                    c.next()
                        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                        .unwrap_or_default()
                })
                .collect()
        }
        assert_eq!(intrinsic_table::ALL.len(), INTRINSICS.len());
        for (i, (&intr, info)) in intrinsic_table::ALL.iter().zip(&INTRINSICS).enumerate() {
            assert_eq!(intr as usize, i);
            assert_eq!(intr.name(), info.name);
            assert_eq!(format!("{intr:?}"), camel(info.name));
            assert_eq!(Intrinsic::from_name(intr.name()), Some(intr));
        }
        assert_eq!(
            Intrinsic::from_name("load_ubo_uniform_block_intel"),
            Some(Intrinsic::LoadUboUniformBlockIntel)
        );
        assert_eq!(Intrinsic::LoadInput.name(), "load_input");
        assert!(Intrinsic::from_name("load_nonsense").is_none());

        assert_eq!(alu_table::ALL.len(), ALU_OPS.len());
        for (i, (&op, info)) in alu_table::ALL.iter().zip(&ALU_OPS).enumerate() {
            assert_eq!(op as usize, i);
            assert_eq!(format!("{op:?}"), info.name);
            assert_eq!(AluOp::from_name(op.name()), Some(op));
        }
    }

    #[test]
    fn signatures_match_nir_definitions() {
        // Facts from nir_opcodes.py: ffma is a 3-source float op, fdot3 reduces two vec3 to a
        // scalar, vec4 gathers four scalars, flt32 compares floats into a 32-bit boolean.
        let ffma = AluOp::from_name("ffma").unwrap().info();
        assert_eq!(ffma.num_inputs(), 3);
        assert_eq!(ffma.output_type, AluType::F0);
        let fdot3 = AluOp::from_name("fdot3").unwrap().info();
        assert_eq!((fdot3.output_size, fdot3.input_sizes), (1, &[3u8, 3][..]));
        assert!(fdot3.is_commutative());
        let vec4 = AluOp::from_name("vec4").unwrap().info();
        assert_eq!(
            (vec4.output_size, vec4.input_sizes),
            (4, &[1u8, 1, 1, 1][..])
        );
        let flt = AluOp::from_name("flt32").unwrap().info();
        assert_eq!(flt.output_type, AluType::B32);
        assert!(!flt.is_commutative());
        let store = Intrinsic::from_name("store_output").unwrap().info();
        assert_eq!(store.src_components, &[0, 1]);
        assert!(!store.has_dest());
        let ubo = Intrinsic::from_name("load_ubo").unwrap().info();
        assert_eq!(ubo.dest_components, 0);
        assert_eq!(ubo.indices[0], IndexKind::Access);
    }
}
