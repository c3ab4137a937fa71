//! Per-channel structured control flow, as Gen6+ EUs do it without a mask stack.
//!
//! Each channel is either running, waiting for execution to reach a given instruction (the
//! per-channel "resume IP" of the PRM's flow-control chapter), waiting at a loop's WHILE after
//! a BREAK, or not dispatched at all. The jump fields are used exactly as Mesa's
//! `brw_set_uip_jip` sets them (distances in bytes from the instruction, already scaled from the
//! generation's unit by the decoder):
//!
//! - IF: channels whose predicate fails wait at JIP (the instruction after ELSE, or ENDIF).
//! - ELSE: running channels wait at JIP (the ENDIF).
//! - ENDIF: nothing beyond the re-enabling below.
//! - BREAK: predicated channels wait at UIP (the loop's WHILE) as *broken*: the WHILE only
//!   releases them when the loop exits.
//! - CONT: predicated channels wait at UIP (the WHILE), which re-enables them and lets them
//!   loop.
//! - HALT: predicated channels wait at UIP (the halt target, where all join again).
//! - WHILE: running channels whose predicate holds loop back to JIP; the rest, and the broken
//!   channels, wait for the instruction after the WHILE.
//!
//! Whenever an instruction is fetched, every channel waiting for it runs again. After IF, ELSE,
//! ENDIF, BREAK, CONT and HALT, if no channel of the instruction's group runs or waits for the
//! next instruction, execution jumps to JIP (the hardware's "all channels disabled" branch);
//! this is what makes code under a skipped block, including its `WE_all` instructions, not
//! execute.

/// Flow-control state of one channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chan {
    /// Not dispatched, or finished.
    Off,
    /// Executing.
    Active,
    /// Disabled until execution reaches this byte offset.
    Wait(usize),
    /// Left its loop with BREAK: released when the WHILE at this offset exits.
    Break(usize),
}
