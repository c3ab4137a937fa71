//! The input IR: a NIR-like SSA form with Mesa's nir_print text syntax, validator, builder,
//! reference interpreter and the target-neutral passes.
//!
//! # Data model
//!
//! A [`Shader`] holds the header ([`ShaderInfo`]: stage plus every printed info line), the
//! global [`Variable`]s (`decl_var`) and the [`Function`]s; a function's body is an [`Impl`].
//!
//! Inside an [`Impl`] nothing points at anything: everything is an index.
//!
//! - `instrs: Vec<Instr>` is the instruction arena; [`InstrId`] indexes it. Each [`Instr`]
//!   records its block and an [`InstrKind`] (ALU, load_const, undef, phi, jump, intrinsic,
//!   texture, deref).
//! - `blocks: Vec<Block>` holds the basic blocks in program order (the order nir_print numbers
//!   them, so `BlockId(n)` is `bn`); each block lists its instructions in order. The last block
//!   is the end block and is always empty.
//! - `body: Vec<CfNode>` is the structured control-flow tree: blocks, `if` nodes (condition,
//!   then list, else list) and `loop` nodes (body and optional continue list). Lists alternate
//!   block / if-or-loop and start and end with a block, as in NIR.
//! - SSA values are dense [`SsaId`]s (the `N` of `%N`): `defs[N]` describes the value (component
//!   count 1–16, bit size 1/8/16/32/64, divergence) and names its defining instruction.
//!   Instructions refer to sources by `SsaId`; ALU sources add a per-channel swizzle.
//! - Control-flow edges are not stored; [`cfg::Cfg::compute`] derives successors and
//!   predecessors from the tree (see `cfg.rs` for the rules).
//! - Out-of-SSA form uses the `decl_reg`/`load_reg`/`store_reg` intrinsics: a register is the
//!   value defined by `decl_reg`, and loads/stores name it as their register source.
//!
//! Walking: [`Impl::instrs_in_order`] (or `imp.blocks` and their `instrs`) for a linear pass;
//! recurse over `imp.body` for structure. Editing ([`edit`]): [`Impl::alloc_ssa`] +
//! [`Impl::insert_instr`] to add, [`Impl::rewrite_uses`] to forward values,
//! [`Impl::remove_instr`] to detach, then [`Impl::compact`] before validating or printing.
//! [`validate()`] checks that `defs[..].instr`, `Instr::block` and the block lists agree.
//!
//! # Text
//!
//! [`parse()`] reads Mesa 23.3's nir_print output and [`print()`] writes it back byte for byte (all
//! 3,440 corpus dumps). What nir_print derives is recomputed, not stored: block predecessors
//! and successors, column padding, the constant values shown beside sources, the int/float
//! reading of `load_const` (Mesa's `nir_gather_types`), and the variable named after I/O
//! intrinsics. What the model does not interpret is kept as text so it survives a round trip:
//! header info lines ([`ShaderInfo::fields`]), variable initializers, structured intrinsic
//! indices such as `io location=...` or `access=...` ([`IndexValue::Text`]), rare texture
//! fields, and any backend output after the shader ([`Shader::trailer`]). Divergence flags
//! (`con`/`div`) are kept only when the header says the analysis ran, as nir_print does.
//! One deliberate difference: `deref_array` names its index value (`[%3]`) where nir_print
//! shows a constant index by value, which could not be read back.
//!
//! # Tables
//!
//! [`opcodes`] has one table per instruction family (ALU ops, intrinsics) with the signature
//! facts of Mesa 23.3; the parser, printer and validator read only these.

pub mod builder;
pub mod cfg;
pub mod edit;
pub mod geometry;
pub mod import;
pub mod interp;
pub mod ir;
pub mod opcodes;
pub mod parse;
pub mod passes;
pub mod print;
pub mod raw_index;
pub mod slots;
pub mod tex;
pub mod types;
pub mod validate;

pub use builder::Builder;
pub use import::Import;
pub use ir::*;
pub use opcodes::{AluOp, IndexKind, Intrinsic};
pub use parse::{parse, ParseError};
pub use print::print;
pub use types::{AluType, BaseType, GlslType, Stage};
pub use validate::{validate, ValidationError};
