//! Functional simulator of one Intel EU thread (Gen7, Gen7.5, Gen8, Gen9; Gen4, Gen4.5, Gen5
//! and Gen6 as far as Mesa's code for them needs, in files of their own).
//!
//! Without Intel hardware this is how gpucc checks that the code it emits runs correctly, so it
//! follows the hardware where the hardware is surprising rather than where it would be
//! convenient:
//!
//! - **State**: 128 GRFs × 32 bytes; ARFs null, a0 (16-bit subregisters holding GRF byte
//!   addresses), acc0/acc1, f0/f1 (f0.0 = low 16 bits), sr0 (sr0.2 = dispatch mask), cr0
//!   (bits 5:4 rounding mode, bit 7 keeps single-precision denormals), ip.
//! - **Operands** ([`thread`]): align1 regions `<v;w,h>` with direct and `g[a0.n ± imm]`
//!   indirect addressing (Vx1/VxH per-row address subregisters), align16 swizzles and write
//!   masks, V/UV/VF vector immediates, every register type with the conversions of
//!   [`value`]; all sources are read before the destination is written.
//! - **ALU** ([`alu`], [`exec`]): the opcodes the encoder supports on these generations,
//!   predication (normal, any/all-Nh, align16 replication), conditional modifiers writing
//!   `f{n}.{sub}` per channel, saturation, cr0's rounding mode.
//! - **Control flow** ([`flow`]): per-channel IF/ELSE/ENDIF, WHILE, BREAK, CONT, HALT with JIP and
//!   UIP as Mesa encodes them, QtrCtrl/NibCtrl channel groups, `WE_all`, EOT.
//! - **The Gen7 compressed-instruction hazard** (shared/seeds/002): before Gen8 the second and
//!   later GRF writes of a compressed instruction get the channel enables of QtrCtrl+1 (8
//!   channels further) whatever the number of channels per GRF; Haswell uses NibCtrl+1 (4
//!   channels) for a DF execution type, and Ivy Bridge gives every part of a DF instruction the
//!   first part's enables. The simulator applies exactly that — so wrong code gives wrong results
//!   under divergent control flow — and reports each such instruction as a [`Diagnostic`]. The
//!   enables group index wraps within the execution size, so uniform control flow is
//!   unaffected, as observed on hardware.
//! - **Shared functions** ([`shared`], [`send`]): render-target writes, sampler, scratch,
//!   untyped surfaces and atomics, constant-cache reads, gateway barrier, EOT; descriptor
//!   layouts are documented in [`send`].
//! - **Payloads** ([`payload`]): fragment, compute and vertex (Gen8 SIMD8, Gen7 SIMD4x2)
//!   thread payloads as Mesa's backends expect them (the Gen7 forms serve Gen4–6 too).
//! - **Gen4–Gen6**: the MRF file, compr4 and the Gen4–5 implied move (`mrf`), Gen6 MATH's
//!   operand rules (`math_gen6`), Gen4–5 jump counts (`flow_gen4`; Gen6 uses [`flow`]), and
//!   the messages of that era (`send_gen4`, `send_gen45`, `sampler_gen4` for the Gen4/G45
//!   sampler).
//!
//! Outside the model (each an "unsupported: …" error naming the instruction):
//! JMPI/CALL/RET/GOTO and the other unstructured jumps, align16 double-precision operands,
//! the mask/timestamp/notification ARFs, SIMD4x2 sampler messages other than sample,
//! sample_b, sample_l, sample_l_c, resinfo and `ld`, dual-source and replicated render-target
//! writes, typed surfaces and A64 (stateless 64-bit) messages, URB messages other than writes
//! (Gen8 SIMD8, Gen7 interleaved SIMD4x2). Programs are run uncompacted with [`Thread::run`]
//! or from their bytes, compacted
//! or not, with [`Thread::run_binary`]; [`Thread::step`] executes one instruction.
//!
//! Nothing the program does makes the simulator panic: a malformed or unsupported instruction
//! is a [`SimError`] naming the instruction and what is wrong ("unsupported: …" for features
//! outside the model), and a run stops with an error after [`Thread::set_step_limit`] steps.

pub mod alu;
#[cfg(feature = "rig")]
pub mod cli;
mod error;
pub mod exec;
pub mod flow;
mod flow_gen4;
pub mod gs_dispatch;
pub mod gs_payload;
mod math_gen6;
mod mrf;
pub mod payload;
mod sampler_gen4;
pub mod send;
mod send_gen4;
mod send_gen45;
pub mod shared;
pub mod tcs_payload;
pub mod tess_payload;
pub mod thread;
mod urb_read;
pub mod value;

pub use error::SimError;
pub use shared::{AtomicOp, DefaultShared, RtWrite, SharedFunctions};
pub use thread::Thread;

use std::fmt;

/// A note about the run that is not an error: hazards, falling off the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Instruction index.
    pub index: usize,
    /// Instruction byte offset.
    pub offset: usize,
    /// What happened.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instruction {} (byte offset {:#x}): {}",
            self.index, self.offset, self.message
        )
    }
}

/// What a finished run produced.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunResult {
    /// Instructions executed.
    pub steps: u64,
    /// The thread ended with an EOT message.
    pub eot: bool,
    /// Render-target writes, in order.
    pub rt_writes: Vec<RtWrite>,
    /// Hazards and other notes.
    pub diagnostics: Vec<Diagnostic>,
}

impl RunResult {
    /// Whether a diagnostic mentions `needle`.
    pub fn has_diagnostic(&self, needle: &str) -> bool {
        self.diagnostics.iter().any(|d| d.message.contains(needle))
    }
}
