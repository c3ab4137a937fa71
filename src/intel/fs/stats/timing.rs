//! Issue and latency figures of one EU instruction, per generation.
//!
//! Every number here is a fact taken from Mesa 23.3's performance model
//! (`src/intel/compiler/brw_ir_performance.cpp`, `instruction_desc()`), which is what
//! shader-db's "cycles" column reports. Mesa fitted most of them by linear regression over
//! timings measured with the `tm0` timestamp register; the Gen4/5 extended-math figures come
//! from the BSpec ("Shared Functions - Extended Math", "Performance"). Mesa marks many of them
//! as guesses; they are kept as they are so that an estimate of Mesa's own assembly reproduces
//! Mesa's printed cycle counts, which is what makes the two programs comparable.
//!
//! Mesa states each figure as a linear function of four sizes of the instruction, all in GRF
//! units (32 bytes): the destination size `sd`, the execution size `sx` (channels times the
//! execution type's size), the largest source (or, for a message, the payload) size `ss`, and
//! `sc`, equal to `sd` when a 3-source instruction's second and third sources sit in the same
//! register bank (their reads then take two cycles instead of one), else zero.

use crate::intel::eu::types::{sfid, MathFn, Opcode, RegType};
use crate::intel::eu::Inst;
use crate::intel::msg::{DataPortDesc, MathDesc, ScratchDesc};

/// The asynchronous units that run work for a thread besides the front end that issues it.
/// Each is busy for an instruction's back-end time; a second instruction bound to a busy unit
/// waits for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    /// The ALU pipe (FPU0; co-issue to FPU1 is not modelled).
    Fpu,
    /// Extended math (a pipe of its own on Gen6+, a shared function before).
    Math,
    Sampler,
    PixelInterpolator,
    Urb,
    DataCache,
    RenderCache,
    ConstantCache,
    Gateway,
    Spawner,
}

impl Unit {
    pub(super) const COUNT: usize = 10;

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

/// When an instruction lets the next one issue and when its results can be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Timing {
    /// The unit the back-end time is charged to (`None`: front end only).
    pub unit: Option<Unit>,
    /// Front-end cycles before the next instruction can issue.
    pub issue: i64,
    /// Cycles the back-end unit stays busy.
    pub busy: i64,
    /// Cycles after issue until the sources (a message payload) have been read: a later write
    /// to them waits this long.
    pub src_read: i64,
    /// Cycles after issue until the GRF destination can be read.
    pub dst_ready: i64,
    /// Cycles after issue until an accumulator destination can be read.
    pub acc_ready: i64,
    /// Cycles after issue until a flag destination can be read.
    pub flag_ready: i64,
}

/// The sizes the figures scale with, in GRFs (see the module comment).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Sizes {
    pub sd: i64,
    pub sx: i64,
    pub ss: i64,
    pub sc: i64,
}

/// Mesa's linear form: `issue = df1 + df_sd*sd + df_sc*sc`, `busy = db1 + db_sx*sx`,
/// `src_read = ls1 + l_ss*ss`, `dst_ready = ld1 + l_ss*ss + l_sd*sd`; accumulator and flag
/// latencies are constants.
#[derive(Debug, Clone, Copy)]
struct Linear {
    df1: i64,
    df_sd: i64,
    df_sc: i64,
    db1: i64,
    db_sx: i64,
    ls1: i64,
    ld1: i64,
    la: i64,
    lf: i64,
    l_ss: i64,
    l_sd: i64,
}

impl Linear {
    fn eval(&self, unit: Option<Unit>, s: Sizes) -> Timing {
        Timing {
            unit,
            issue: self.df1 + self.df_sd * s.sd + self.df_sc * s.sc,
            busy: self.db1 + self.db_sx * s.sx,
            src_read: self.ls1 + self.l_ss * s.ss,
            dst_ready: self.ld1 + self.l_ss * s.ss + self.l_sd * s.sd,
            acc_ready: self.la,
            flag_ready: self.lf,
        }
    }
}

/// An ALU figure: issue and busy time `per` cycles per GRF (`sc` adds one cycle per GRF on
/// 3-source forms), then the destination, accumulator and flag latencies.
const fn alu(per: i64, sc: i64, ld: i64, la: i64, lf: i64) -> Linear {
    Linear {
        df1: 0,
        df_sd: per,
        df_sc: sc,
        db1: 0,
        db_sx: per,
        ls1: 0,
        ld1: ld,
        la,
        lf,
        l_ss: 0,
        l_sd: 0,
    }
}

/// A message figure: two front-end cycles to issue, `busy` cycles of the shared function per
/// GRF of execution size plus `busy1`, the payload read after `ls` cycles and the reply after
/// `ld` cycles (both growing by `l_ss` per payload GRF), `l_sd` more per reply GRF.
const fn msg(busy1: i64, busy: i64, ls: i64, ld: i64, l_ss: i64, l_sd: i64) -> Linear {
    Linear {
        df1: 2,
        df_sd: 0,
        df_sc: 0,
        db1: busy1,
        db_sx: busy,
        ls1: ls,
        ld1: ld,
        la: 0,
        lf: 0,
        l_ss,
        l_sd,
    }
}

/// Front-end-only instructions (flow control): `df` cycles, nothing else.
const fn front_end(df: i64) -> Linear {
    Linear {
        df1: df,
        df_sd: 0,
        df_sc: 0,
        db1: 0,
        db_sx: 0,
        ls1: 0,
        ld1: 0,
        la: 0,
        lf: 0,
        l_ss: 0,
        l_sd: 0,
    }
}

/// The generation classes Mesa's model distinguishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Gen {
    /// Gen4, G45, Gen5: math is a message.
    Gen4,
    /// Sandy Bridge.
    Gen6,
    /// Ivy Bridge (and Bay Trail).
    Gen7,
    /// Haswell.
    Gen75,
    /// Broadwell and Skylake (Mesa uses one set of figures for Gen8-Gen10).
    Gen8,
}

impl Gen {
    fn of(ver: u32) -> Gen {
        match ver {
            80.. => Gen::Gen8,
            75.. => Gen::Gen75,
            70.. => Gen::Gen7,
            60.. => Gen::Gen6,
            _ => Gen::Gen4,
        }
    }
}

/// The ALU latencies (destination, accumulator, flag) of the plain 2-source group on each
/// generation; Gen8 uses 12/8/16 for 64-bit execution types.
fn plain(g: Gen, wide: bool) -> (i64, i64, i64) {
    match g {
        Gen::Gen8 if wide => (12, 8, 16),
        Gen::Gen8 => (8, 4, 12),
        Gen::Gen75 => (10, 6, 16),
        _ => (12, 8, 18),
    }
}

/// MOV, CMP, ADD, MUL (and MAD, LRP on Gen7) are slower on floats before Gen8.
fn arith(g: Gen, float: bool, wide: bool) -> (i64, i64, i64) {
    match g {
        Gen::Gen75 if float => (12, 8, 18),
        Gen::Gen7 if float => (14, 10, 20),
        _ => plain(g, wide),
    }
}

/// Everything the figures depend on besides the generation.
pub(super) struct Info {
    /// The execution type (after Mesa's promotion of 32x32-bit integer multiplies to 64-bit).
    pub exec_ty: RegType,
    pub sizes: Sizes,
    /// The message descriptor of a SEND (the data-port message type picks the figures).
    pub desc: u32,
}

/// The timing of `inst` on generation `ver` (×10).
pub(super) fn timing(ver: u32, inst: &Inst, info: &Info) -> Timing {
    let g = Gen::of(ver);
    let wide = info.exec_ty.size() > 4;
    let float = info.exec_ty == RegType::F;
    let s = info.sizes;
    let fpu = Some(Unit::Fpu);
    let with = |(ld, la, lf): (i64, i64, i64), per: i64, sc: i64| alu(per, sc, ld, la, lf);
    let per = |w: bool| if w && g == Gen::Gen8 { 4 } else { 2 };
    match inst.opcode {
        Opcode::Mov | Opcode::Cmp | Opcode::Add | Opcode::Mul => {
            with(arith(g, float, wide), per(wide), 0).eval(fpu, s)
        }
        Opcode::Mad => with(arith(g, float, wide), per(wide), 1).eval(fpu, s),
        Opcode::Bfe | Opcode::Bfi2 | Opcode::Csel => with(plain(g, false), 2, 1).eval(fpu, s),
        Opcode::F32to16 => with(plain(g, false), 4, 0).eval(fpu, s),
        Opcode::Dp4 | Opcode::Dph | Opcode::Dp3 | Opcode::Dp2 => {
            let l = match g {
                Gen::Gen8 => (12, 8, 16),
                _ => plain(g, false),
            };
            with(l, 2, 0).eval(fpu, s)
        }
        // PLN is what Mesa's LINTERP becomes; Gen8 issues it at half rate.
        Opcode::Pln => match g {
            Gen::Gen8 => with((12, 8, 16), 4, 0).eval(fpu, s),
            _ => with(plain(g, false), 2, 0).eval(fpu, s),
        },
        Opcode::Lrp => match g {
            Gen::Gen8 => with((12, 8, 16), 4, 1).eval(fpu, s),
            _ => with(plain(g, false), 2, 1).eval(fpu, s),
        },
        Opcode::Math => math(g, inst.math_fn.unwrap_or(MathFn::Inv)).eval(Some(Unit::Math), s),
        // Gen6+ have no DO instruction; the Gen4/5 one costs a front-end slot.
        Opcode::Do => front_end(if g == Gen::Gen4 { 2 } else { 0 }).eval(None, s),
        // The HALT that ends a discard region jumps to the next instruction: it is Mesa's
        // HALT_TARGET, a free pseudo-instruction in Mesa's model.
        Opcode::Halt if is_halt_target(inst) => front_end(0).eval(None, s),
        op if op.is_flow() || matches!(op, Opcode::Jmpi | Opcode::Brd | Opcode::Brc) => {
            let df = match g {
                Gen::Gen8 => 8,
                Gen::Gen75 => 6,
                _ => 2,
            };
            front_end(df).eval(None, s)
        }
        Opcode::Send | Opcode::Sendc | Opcode::Sends | Opcode::Sendsc => send(ver, inst, info),
        // Mesa's model runs on its IR, where the NOPs its generator inserts (Gen8 flow-control
        // workarounds) do not exist yet; charge them nothing so both sides count alike.
        Opcode::Nop => front_end(0).eval(None, s),
        Opcode::Wait | Opcode::Illegal | Opcode::Nenop => front_end(2).eval(None, s),
        // The remaining ALU operations (SEL, logic, shifts, rounding, bit counting, MAC,
        // LINE, NOP, ...) share one set of figures.
        _ => with(plain(g, wide), per(wide), 0).eval(fpu, s),
    }
}

/// A HALT whose both jumps land on the next instruction.
fn is_halt_target(inst: &Inst) -> bool {
    inst.branch.is_some_and(|b| b.jip == 16 && b.uip == 16)
}

/// Gen6+ extended math: the unit's rate and latency depend on the function only in three
/// classes (single-operand transcendental, POW and integer division).
fn math(g: Gen, f: MathFn) -> Linear {
    let em = |df1: i64, df_sd: i64, db_sx: i64, ld: i64| Linear {
        df1,
        df_sd,
        df_sc: 0,
        db1: 0,
        db_sx,
        ls1: 0,
        ld1: ld,
        la: 0,
        lf: 0,
        l_ss: 0,
        l_sd: 0,
    };
    match f {
        MathFn::IntDivQuotient | MathFn::IntDivRemainder | MathFn::IntDivQuotientAndRemainder => {
            Linear {
                db1: 26,
                ..em(2, 0, 0, 28)
            }
        }
        // FDIV has POW's two operands.
        MathFn::Pow | MathFn::Fdiv => match g {
            Gen::Gen8 => em(-2, 4, 8, 24),
            Gen::Gen75 => em(0, 2, 4, 20),
            _ => em(0, 2, 4, 22),
        },
        _ => match g {
            Gen::Gen8 => em(-2, 4, 4, 16),
            Gen::Gen75 => em(0, 2, 2, 12),
            _ => em(0, 2, 2, 14),
        },
    }
}

/// Gen4/5 extended math, a message to the shared math unit: busy `db` cycles per GRF of
/// execution size, result after `ld` plus 8 per reply GRF (BSpec figures, as Mesa has them).
fn gen4_math(function: u32) -> Linear {
    let (db, ld) = match function {
        1 => (8, 22),           // INV
        5 => (16, 44),          // RSQ
        2 | 4 | 12 => (24, 66), // LOG, SQRT, integer quotient
        3 | 13 => (32, 88),     // EXP, integer remainder
        6..=8 => (48, 132),     // SIN, COS, SINCOS
        _ => (64, 176),         // POW and the rest
    };
    msg(0, db, 0, ld, 0, 8)
}

fn send(ver: u32, inst: &Inst, info: &Info) -> Timing {
    let g = Gen::of(ver);
    let s = info.sizes;
    let id = inst.msg.map_or(sfid::NULL, |m| m.sfid);
    let desc = info.desc;
    // Gen7 typed/untyped atomics on the render and data caches (message type 6), and the
    // Haswell data-port-1 atomics (2, 3, 6, 7): the reply waits 400 cycles per GRF.
    let atomic = msg(30, 400, 10, 100, 0, 400);
    let (unit, lin) = match id {
        sfid::SAMPLER => (Unit::Sampler, msg(0, 16, 8, 750, 2, 0)),
        sfid::MATH if g == Gen::Gen4 => {
            (Unit::Math, gen4_math(MathDesc::decode(ver, desc).function))
        }
        sfid::CONSTANT_CACHE | sfid::DATAPORT_READ => {
            (Unit::ConstantCache, msg(0, 16, 10, 100, 0, 0))
        }
        sfid::DATAPORT_WRITE => {
            if g >= Gen::Gen7 && dp_msg_type(ver, desc) == 6 {
                (Unit::RenderCache, msg(30, 450, 10, 100, 0, 400))
            } else {
                (Unit::RenderCache, msg(0, 450, 10, 300, 0, 0))
            }
        }
        sfid::DATA_CACHE | sfid::DATA_CACHE_1 => {
            let t = dp_msg_type(ver, desc);
            let is_atomic = if g >= Gen::Gen75 {
                matches!(t, 2 | 3 | 6 | 7)
            } else {
                t == 6
            };
            if is_atomic {
                (Unit::DataCache, atomic)
            } else if ScratchDesc::is_scratch(ver, id, desc) {
                // Gen7+ scratch block messages: Mesa's scratch read and write figures.
                (Unit::DataCache, msg(0, 8, 10, 100, 0, 0))
            } else {
                (Unit::DataCache, msg(0, 20, 10, 100, 0, 0))
            }
        }
        sfid::PIXEL_INTERPOLATOR => (
            Unit::PixelInterpolator,
            Linear {
                db1: 14,
                ..msg(0, 0, 0, 90, 0, 0)
            },
        ),
        sfid::URB => (Unit::Urb, msg(0, 6, 32, 200, 0, 0)),
        sfid::GATEWAY => (
            Unit::Gateway,
            Linear {
                df1: 90,
                ..front_end(0)
            },
        ),
        sfid::THREAD_SPAWNER => (Unit::Spawner, msg(0, 0, 10, 0, 0, 0)),
        // Anything else (VME, CRE, null): a data-cache access is the closest figure.
        _ => (Unit::DataCache, msg(0, 20, 10, 100, 0, 0)),
    };
    lin.eval(Some(unit), s)
}

/// The message type of a data-port descriptor (Mesa's model reads the Gen6 layout before
/// Gen7, as `brw_dp_desc_msg_type` does).
fn dp_msg_type(ver: u32, desc: u32) -> u32 {
    DataPortDesc::decode(ver.max(60), desc).msg_type
}
