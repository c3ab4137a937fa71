//! The Vivante shader instruction set: model, encoder, decoder, disassembler, assembler and
//! validator.
//!
//! Every instruction is 128 bits, stored as four little-endian 32-bit words. The layout and the
//! text syntax follow Mesa's isaspec description (`src/etnaviv/isa/etnaviv.xml`), so that
//! decoding and printing the blob-captured words of `shared/vectors/etnaviv` gives Mesa's text,
//! and assembling that text gives the words back.
//!
//! The assembler reads exactly what the disassembler prints, plus a few conveniences: free
//! spacing, modifiers in any order, `;`/`#` comments, an omitted swizzle meaning `.xyzw`,
//! `a0.x___` as the destination of MOVAR/MOVAI (isaspec prints their address-register mask as
//! `void`), and the disassembler's `; dontcare bits in NAME: HEX` note, which restores those
//! bits. Conditional TEXKILL may leave src1 unused, as Mesa 23.3 emits it.
//!
//! Checked against: Mesa's isaspec vectors (`tests/etna_vectors.rs`), every instruction Mesa
//! 23.3 emitted for the corpus, compared with Mesa 23.3's own disassembler
//! (`tests/etna_corpus.rs`), and random instructions and words (`tests/etna_isa_props.rs`).

pub mod asm;
mod bits;
pub mod decode;
pub mod disasm;
pub mod encode;
pub mod float;
pub mod inst;
pub mod opcode;
pub mod text;
pub mod validate;

pub use asm::{assemble, assemble_inst, AsmError};
pub use decode::{decode, DecodeError};
pub use disasm::{disassemble, disassemble_inst};
pub use encode::encode;
pub use inst::*;
pub use opcode::{Class, Format, Opcode, Slot};
pub use text::{format_words, parse_words, words_from_bytes, WordsError};
pub use validate::{validate, validate_program, ValidationError};

/// The "don't care" bits a format allows, as four words (for tools and tests).
pub fn dontcare_mask(format: Format) -> [u32; 4] {
    bits::to_words(bits::dontcare_mask(format))
}
