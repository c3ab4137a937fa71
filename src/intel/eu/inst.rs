//! The typed instruction model shared by the encoder, decoder, assembler, disassembler,
//! validator and the simulator.
//!
//! An [`Inst`] holds every field of the native encoding in resolved form: regions as element
//! counts, subregister numbers in bytes, jump distances in bytes. Operands that the textual
//! syntax hides (the null destination of a flow-control instruction, the type slots of an
//! unused source) are still present so that decode/encode round-trips bit for bit.

use super::types::{AccessMode, CondMod, MathFn, Opcode, RegFile, RegType, ThreadCtrl};

/// A source region `<vstride;width,hstride>` in elements. `vstride == VXH` marks the
/// Vx1/VxH indirect forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Region {
    /// Vertical stride in elements (0–32) or [`Region::VXH`].
    pub vstride: u8,
    /// Width in elements (1–16).
    pub width: u8,
    /// Horizontal stride in elements (0, 1, 2, 4).
    pub hstride: u8,
}

impl Region {
    /// Encoded vertical stride 0xF: per-element indirect rows.
    pub const VXH: u8 = 0xff;
    /// `<0;1,0>`, the scalar region.
    pub const SCALAR: Region = Region {
        vstride: 0,
        width: 1,
        hstride: 0,
    };

    /// Builds a region.
    pub const fn new(vstride: u8, width: u8, hstride: u8) -> Region {
        Region {
            vstride,
            width,
            hstride,
        }
    }

    /// Hardware encoding of the vertical stride.
    pub fn vstride_hw(v: u8) -> Option<u64> {
        Some(match v {
            0 => 0,
            1 => 1,
            2 => 2,
            4 => 3,
            8 => 4,
            16 => 5,
            32 => 6,
            Region::VXH => 15,
            _ => return None,
        })
    }

    /// Decodes the vertical stride field.
    pub fn vstride_from_hw(h: u64) -> Option<u8> {
        Some(match h {
            0 => 0,
            1..=6 => 1 << (h - 1),
            15 => Region::VXH,
            _ => return None,
        })
    }

    /// Hardware encoding of a width.
    pub fn width_hw(w: u8) -> Option<u64> {
        Some(match w {
            1 => 0,
            2 => 1,
            4 => 2,
            8 => 3,
            16 => 4,
            _ => return None,
        })
    }

    /// Decodes a width field.
    pub fn width_from_hw(h: u64) -> Option<u8> {
        (h <= 4).then(|| 1 << h)
    }

    /// Hardware encoding of a horizontal stride (also used by destinations).
    pub fn hstride_hw(s: u8) -> Option<u64> {
        Some(match s {
            0 => 0,
            1 => 1,
            2 => 2,
            4 => 3,
            _ => return None,
        })
    }

    /// Decodes a horizontal stride field.
    pub fn hstride_from_hw(h: u64) -> u8 {
        match h & 3 {
            0 => 0,
            1 => 1,
            2 => 2,
            _ => 4,
        }
    }
}

/// Register-indirect addressing: `g[a0.sub + imm]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Indirect {
    /// Address subregister number as encoded (a0.N).
    pub addr_subnr: u8,
    /// Signed byte offset added to the address register (10 bits).
    pub offset: i16,
}

/// A destination operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dst {
    /// Register file (flow control on Gen6 even stores an immediate file here).
    pub file: RegFile,
    /// Register number (for ARFs the full number, e.g. 0x30 for f0).
    pub nr: u8,
    /// Subregister offset in bytes.
    pub subnr: u8,
    /// Data type.
    pub ty: RegType,
    /// Horizontal stride in elements (align16 stores the required 1).
    pub hstride: u8,
    /// Align16 channel enables (bit 0 = x).
    pub writemask: u8,
    /// Indirect addressing, when used.
    pub indirect: Option<Indirect>,
}

impl Dst {
    /// A direct destination with stride 1 and all channels enabled.
    pub fn reg(file: RegFile, nr: u8, subnr: u8, ty: RegType) -> Dst {
        Dst {
            file,
            nr,
            subnr,
            ty,
            hstride: 1,
            writemask: 0xf,
            indirect: None,
        }
    }

    /// `null<1>` of type `ty`.
    pub fn null(ty: RegType) -> Dst {
        Dst::reg(RegFile::Arf, 0, 0, ty)
    }
}

/// A register source operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RegSrc {
    /// Register file (never `Imm`).
    pub file: RegFile,
    /// Register number.
    pub nr: u8,
    /// Subregister offset in bytes.
    pub subnr: u8,
    /// Data type.
    pub ty: RegType,
    /// Negate (bitwise NOT for logic instructions on Gen8+).
    pub negate: bool,
    /// Absolute value.
    pub abs: bool,
    /// Region; in align16 only `vstride` is encoded (the rest is canonical `4,1`).
    pub region: Region,
    /// Align16 swizzle, two bits per channel, x in the low bits (0xe4 = .xyzw).
    pub swizzle: u8,
    /// Indirect addressing, when used.
    pub indirect: Option<Indirect>,
}

impl RegSrc {
    /// The identity swizzle `.xyzw`.
    pub const XYZW: u8 = 0xe4;

    /// A direct source with the given region.
    pub fn new(file: RegFile, nr: u8, subnr: u8, ty: RegType, region: Region) -> RegSrc {
        RegSrc {
            file,
            nr,
            subnr,
            ty,
            negate: false,
            abs: false,
            region,
            swizzle: Self::XYZW,
            indirect: None,
        }
    }
}

/// An immediate source: the raw bits (32, or 64 for DF/Q/UQ) and their type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Imm {
    /// Type of the immediate.
    pub ty: RegType,
    /// Value bits, zero-extended.
    pub bits: u64,
}

/// A source operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Src {
    /// A register region.
    Reg(RegSrc),
    /// An immediate.
    Imm(Imm),
}

impl Src {
    /// Data type of the operand.
    pub fn ty(&self) -> RegType {
        match self {
            Src::Reg(r) => r.ty,
            Src::Imm(i) => i.ty,
        }
    }

    /// Register file of the operand.
    pub fn file(&self) -> RegFile {
        match self {
            Src::Reg(r) => r.file,
            Src::Imm(_) => RegFile::Imm,
        }
    }

    /// The immediate, if this is one.
    pub fn as_imm(&self) -> Option<Imm> {
        match self {
            Src::Imm(i) => Some(*i),
            Src::Reg(_) => None,
        }
    }

    /// The register operand, if this is one.
    pub fn as_reg(&self) -> Option<&RegSrc> {
        match self {
            Src::Reg(r) => Some(r),
            Src::Imm(_) => None,
        }
    }
}

/// Predication: `(+f0.0.any4h)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Predicate {
    /// Predicate control field (1 = normal; align16: 2–5 = .x/.y/.z/.w, 6/7 = any4h/all4h;
    /// align1: 2–13 = anyv, allv, any2h … all32h).
    pub control: u8,
    /// Inverted predicate (`-`).
    pub inverse: bool,
}

/// Jump targets of a flow-control instruction, as signed byte distances from the start of the
/// instruction (whatever the generation's hardware unit), plus the Gen4/5 pop count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Branch {
    /// JIP (Gen6+) or the Gen4/5 jump count, in bytes.
    pub jip: i32,
    /// UIP in bytes (Gen6+ IF/ELSE/BREAK/CONT/HALT as the generation defines).
    pub uip: i32,
    /// Gen4/5 pop count.
    pub pop: u8,
}

/// Shared-function message information of SEND/SENDC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Message {
    /// Shared function id (see [`super::types::sfid`]).
    pub sfid: u8,
    /// Gen4/5 base message register (the number printed after the exec size).
    pub base_mrf: u8,
    /// Gen9 SEND/SENDC extended descriptor (bits 31:16; SENDS keeps its own in `src[3]`).
    /// The hardware reads it from src0's region bits and src1's type field. Mesa's compiler
    /// writes it there (zero gives src0 a `<0,1,0>` region), while its assembler and
    /// disassembler treat those bits as the region; so the encoder writes a nonzero value
    /// over the region, and the decoder reports the bits as the region and leaves this zero.
    pub ex_desc: u32,
}

/// One EU instruction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Inst {
    /// Operation.
    pub opcode: Opcode,
    /// Execution size in channels (1–32).
    pub exec_size: u8,
    /// Align1 or Align16.
    pub access_mode: AccessMode,
    /// Gen6+: quarter control (0–3 = 1Q–4Q / 1H–2H). Gen4/5: compression control
    /// (0 none, 1 sechalf, 2 compr, 3 compr4).
    pub qtr_ctrl: u8,
    /// Gen7+ nibble control (selects the odd 4-channel group: 2N, 4N, …).
    pub nib_ctrl: bool,
    /// Execute on all channels regardless of the execution mask (WE_all / nomask).
    pub we_all: bool,
    /// Do not clear the destination dependency scoreboard (NoDDClr).
    pub no_dd_clear: bool,
    /// Do not check destination dependencies (NoDDChk).
    pub no_dd_check: bool,
    /// Thread control.
    pub thread_ctrl: ThreadCtrl,
    /// Predication.
    pub pred: Option<Predicate>,
    /// Flag register number (0/1; Gen7+) used by predicate and conditional modifier.
    pub flag_nr: u8,
    /// Flag subregister number (0/1).
    pub flag_subnr: u8,
    /// Conditional modifier.
    pub cond_mod: CondMod,
    /// Saturate the result to [0, 1] (floats) or the type range.
    pub saturate: bool,
    /// Debug breakpoint.
    pub debug: bool,
    /// Bit 28: AccWrEnable (Gen6+), BranchCtrl (Gen8+ IF/ELSE), mask control extension
    /// (G45/Gen5).
    pub acc_wr: bool,
    /// End of thread (SEND/SENDC).
    pub eot: bool,
    /// Gen6+ MATH function.
    pub math_fn: Option<MathFn>,
    /// Destination (hidden null/immediate for flow control, as the hardware wants it).
    pub dst: Dst,
    /// Sources: two for the 2-source format (src1 absent for unary forms), three for the
    /// 3-source format. For SEND, src1 holds the descriptor (immediate UD, or a0 when
    /// indirect). For the Gen9 split SENDS: both payloads, the descriptor and the extended
    /// descriptor (each an immediate UD or an a0 register).
    pub src: Vec<Src>,
    /// Jump fields of flow-control instructions.
    pub branch: Option<Branch>,
    /// Message fields of SEND/SENDC.
    pub msg: Option<Message>,
}

impl Inst {
    /// A blank instruction of `opcode`: SIMD8 align1, null destination, no sources.
    pub fn new(opcode: Opcode) -> Inst {
        Inst {
            opcode,
            exec_size: 8,
            access_mode: AccessMode::Align1,
            qtr_ctrl: 0,
            nib_ctrl: false,
            we_all: false,
            no_dd_clear: false,
            no_dd_check: false,
            thread_ctrl: ThreadCtrl::Normal,
            pred: None,
            flag_nr: 0,
            flag_subnr: 0,
            cond_mod: CondMod::None,
            saturate: false,
            debug: false,
            acc_wr: false,
            eot: false,
            math_fn: None,
            dst: Dst::null(RegType::UD),
            src: Vec::new(),
            branch: None,
            msg: None,
        }
    }

    /// The immediate message descriptor of a SEND (`None` for an indirect descriptor).
    pub fn send_desc(&self) -> Option<u32> {
        if !self.opcode.is_send() {
            return None;
        }
        self.src
            .get(1)
            .and_then(|s| s.as_imm())
            .map(|i| i.bits as u32)
    }
}
