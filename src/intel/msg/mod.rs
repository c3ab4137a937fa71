//! Message descriptors of SEND: the one place that knows where each field of a descriptor
//! sits on each generation.
//!
//! A SEND names a shared function (its SFID) and carries a 32-bit descriptor: a common part
//! ([`Lengths`]: message length, response length, header present) and function-control bits
//! whose layout depends on the shared function and moved between Gen4 and Gen9. Each shared
//! function has a typed descriptor here with `encode(ver)` and `decode(ver, desc)`, where
//! `ver` is [`DevInfo::ver`](crate::intel::DevInfo::ver) (generation ×10). Code generation
//! builds descriptors with them, and the simulator, the disassembler, the validator and the
//! performance model read them back through them, so a bit position is written once.
//!
//! The layouts are Mesa 23.3's (`brw_eu.h` descriptor helpers, `brw_inst.h` function-control
//! fields, `brw_eu_defines.h` message numbers, `brw_disasm.c`); the submodules say which
//! message each holds. Decoding never fails: a field keeps whatever bits the descriptor has,
//! so the disassembler can print a descriptor no backend would build. Encoding asserts (in
//! debug builds) that every field fits its bits.

mod atomic;
mod dataport;
mod fields;
mod misc;
mod render;
mod sampler;
mod scratch;
mod urb;

#[cfg(test)]
mod tests;

pub use atomic::{aop, aop_for_nir, aop_for_nir_constant};
pub use dataport::{
    a64_oword_block_read, a64_untyped_read, dc, dword_scattered, fence, oword_block,
    oword_block_dwords_code, oword_block_size, untyped_atomic, untyped_atomic_simd4x2,
    untyped_surface, DataPortDesc, DpControl, Gen4DpReadDesc, Gen4DpWriteDesc, OwordBlock,
};
pub use fields::Lengths;
pub use misc::{
    ex_mlen, split_dword3, with_dword3, GatewayDesc, MathDesc, PixelInterpDesc, SpawnerDesc,
};
pub use render::{RenderTargetWriteDesc, RtSubtype};
pub use sampler::{SamplerDesc, SamplerMsg, SimdMode};
pub use scratch::ScratchDesc;
pub use urb::UrbDesc;
