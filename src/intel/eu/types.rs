//! The vocabulary of the EU ISA: opcodes, register files, data types and the small enums of an
//! instruction's control fields. Hardware numbers live next to each name so that the encoder and
//! decoder share one table per concept.

use std::fmt;

/// One Gen4–Gen9 opcode. Several share a hardware number on different generations (for example
/// 35 is IFF before Gen6 and BRC from Gen7), so the mapping goes through [`Opcode::from_hw`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Opcode {
    Illegal,
    Mov,
    Sel,
    Movi,
    Not,
    And,
    Or,
    Xor,
    Shr,
    Shl,
    Dim,
    Smov,
    Asr,
    Cmp,
    Cmpn,
    Csel,
    F32to16,
    F16to32,
    Bfrev,
    Bfe,
    Bfi1,
    Bfi2,
    Jmpi,
    Brd,
    If,
    Iff,
    Brc,
    Else,
    Endif,
    Do,
    Case,
    While,
    Break,
    Continue,
    Halt,
    Calla,
    Msave,
    Call,
    Mrest,
    Ret,
    Push,
    Fork,
    Goto,
    Pop,
    Wait,
    Send,
    Sendc,
    Sends,
    Sendsc,
    Math,
    Add,
    Mul,
    Avg,
    Frc,
    Rndu,
    Rndd,
    Rnde,
    Rndz,
    Mac,
    Mach,
    Lzd,
    Fbh,
    Fbl,
    Cbit,
    Addc,
    Subb,
    Sad2,
    Sada2,
    Dp4,
    Dph,
    Dp3,
    Dp2,
    Line,
    Pln,
    Mad,
    Lrp,
    Madm,
    Nenop,
    Nop,
}

/// Static facts about an opcode: hardware number, printed name, operand counts and the
/// generations (×10, inclusive) that have it.
#[derive(Debug, Clone, Copy)]
pub struct OpcodeDesc {
    /// The opcode.
    pub op: Opcode,
    /// Value of the 7-bit opcode field.
    pub hw: u8,
    /// Mesa's mnemonic.
    pub name: &'static str,
    /// Sources the disassembler prints.
    pub nsrc: u8,
    /// Destinations the disassembler prints.
    pub ndst: u8,
    /// First generation (×10) with this opcode.
    pub min_ver: u32,
    /// Last generation (×10) with this opcode.
    pub max_ver: u32,
}

macro_rules! opcodes {
    ($( $op:ident $hw:literal $name:literal $nsrc:literal $ndst:literal $lo:literal $hi:literal ;)*) => {
        /// Opcode table in the spirit of Mesa's `opcode_descs` (Gen4–Gen9 rows only).
        pub static OPCODES: &[OpcodeDesc] = &[
            $( OpcodeDesc { op: Opcode::$op, hw: $hw, name: $name, nsrc: $nsrc, ndst: $ndst, min_ver: $lo, max_ver: $hi }, )*
        ];
    };
}

opcodes! {
    Illegal 0 "illegal" 0 0 40 90;
    Mov 1 "mov" 1 1 40 90;
    Sel 2 "sel" 2 1 40 90;
    Movi 3 "movi" 2 1 45 90;
    Not 4 "not" 1 1 40 90;
    And 5 "and" 2 1 40 90;
    Or 6 "or" 2 1 40 90;
    Xor 7 "xor" 2 1 40 90;
    Shr 8 "shr" 2 1 40 90;
    Shl 9 "shl" 2 1 40 90;
    Dim 10 "dim" 1 1 75 75;
    Smov 10 "smov" 0 0 80 90;
    Asr 12 "asr" 2 1 40 90;
    Cmp 16 "cmp" 2 1 40 90;
    Cmpn 17 "cmpn" 2 1 40 90;
    Csel 18 "csel" 3 1 80 90;
    F32to16 19 "f32to16" 1 1 70 75;
    F16to32 20 "f16to32" 1 1 70 75;
    Bfrev 23 "bfrev" 1 1 70 90;
    Bfe 24 "bfe" 3 1 70 90;
    Bfi1 25 "bfi1" 2 1 70 90;
    Bfi2 26 "bfi2" 3 1 70 90;
    Jmpi 32 "jmpi" 0 0 40 90;
    Brd 33 "brd" 0 0 70 90;
    If 34 "if" 0 0 40 90;
    Iff 35 "iff" 0 0 40 50;
    Brc 35 "brc" 0 0 70 90;
    Else 36 "else" 0 0 40 90;
    Endif 37 "endif" 0 0 40 90;
    Do 38 "do" 0 0 40 50;
    Case 38 "case" 0 0 60 60;
    While 39 "while" 0 0 40 90;
    Break 40 "break" 0 0 40 90;
    Continue 41 "cont" 0 0 40 90;
    Halt 42 "halt" 0 0 40 90;
    Calla 43 "calla" 0 0 75 90;
    Msave 44 "msave" 0 0 40 50;
    Call 44 "call" 0 0 60 90;
    Mrest 45 "mrest" 0 0 40 50;
    Ret 45 "ret" 0 0 60 90;
    Push 46 "push" 0 0 40 50;
    Fork 46 "fork" 0 0 60 60;
    Goto 46 "goto" 0 0 80 90;
    Pop 47 "pop" 2 0 40 50;
    Wait 48 "wait" 0 1 40 90;
    Send 49 "send" 1 1 40 90;
    Sendc 50 "sendc" 1 1 40 90;
    Sends 51 "sends" 2 1 90 90;
    Sendsc 52 "sendsc" 2 1 90 90;
    Math 56 "math" 2 1 60 90;
    Add 64 "add" 2 1 40 90;
    Mul 65 "mul" 2 1 40 90;
    Avg 66 "avg" 2 1 40 90;
    Frc 67 "frc" 1 1 40 90;
    Rndu 68 "rndu" 1 1 40 90;
    Rndd 69 "rndd" 1 1 40 90;
    Rnde 70 "rnde" 1 1 40 90;
    Rndz 71 "rndz" 1 1 40 90;
    Mac 72 "mac" 2 1 40 90;
    Mach 73 "mach" 2 1 40 90;
    Lzd 74 "lzd" 1 1 40 90;
    Fbh 75 "fbh" 1 1 70 90;
    Fbl 76 "fbl" 1 1 70 90;
    Cbit 77 "cbit" 1 1 70 90;
    Addc 78 "addc" 2 1 70 90;
    Subb 79 "subb" 2 1 70 90;
    Sad2 80 "sad2" 2 1 40 90;
    Sada2 81 "sada2" 2 1 40 90;
    Dp4 84 "dp4" 2 1 40 90;
    Dph 85 "dph" 2 1 40 90;
    Dp3 86 "dp3" 2 1 40 90;
    Dp2 87 "dp2" 2 1 40 90;
    Line 89 "line" 2 1 40 90;
    Pln 90 "pln" 2 1 45 90;
    Mad 91 "mad" 3 1 60 90;
    Lrp 92 "lrp" 3 1 60 90;
    Madm 93 "madm" 3 1 80 90;
    Nenop 125 "nenop" 0 0 45 45;
    Nop 126 "nop" 0 0 40 90;
}

impl Opcode {
    /// The table row of this opcode.
    pub fn desc(self) -> &'static OpcodeDesc {
        OPCODES
            .iter()
            .find(|d| d.op == self)
            .expect("every opcode has a row")
    }

    /// Why Gen6 cannot run this opcode with a `dst_ty` destination, in words: an opcode that
    /// came later (BFE, BFREV, ADDC, F32TO16 and the rest with Gen7; CSEL and MADM with Gen8,
    /// from the table's first generation), or a three-source operation on a type other than
    /// float.
    pub fn missing_on_gen6(self, dst_ty: RegType) -> Option<String> {
        if self.desc().min_ver > 60 {
            Some(format!("{} (no such instruction before Gen7)", self.name()))
        } else if matches!(self, Opcode::Mad | Opcode::Lrp) && dst_ty != RegType::F {
            Some(format!(
                "{} on {dst_ty:?} (Gen6 three-source operations are float only)",
                self.name()
            ))
        } else {
            None
        }
    }

    /// Mesa's mnemonic.
    pub fn name(self) -> &'static str {
        self.desc().name
    }

    /// Whether generation `ver` (×10) has this opcode.
    pub fn exists_on(self, ver: u32) -> bool {
        let d = self.desc();
        ver >= d.min_ver && ver <= d.max_ver
    }

    /// The opcode with hardware number `hw` on generation `ver`.
    pub fn from_hw(ver: u32, hw: u8) -> Option<Opcode> {
        OPCODES
            .iter()
            .find(|d| d.hw == hw && ver >= d.min_ver && ver <= d.max_ver)
            .map(|d| d.op)
    }

    /// The opcode spelled `name` on generation `ver`.
    pub fn from_name(ver: u32, name: &str) -> Option<Opcode> {
        OPCODES
            .iter()
            .find(|d| d.name == name && ver >= d.min_ver && ver <= d.max_ver)
            .map(|d| d.op)
    }

    /// Uses the 3-source encoding (align16 on Gen6–Gen9).
    pub fn is_three_src(self) -> bool {
        self.desc().nsrc == 3
    }

    /// SEND or SENDC (the shared-function message instructions).
    pub fn is_send(self) -> bool {
        matches!(
            self,
            Opcode::Send | Opcode::Sendc | Opcode::Sends | Opcode::Sendsc
        )
    }

    /// Bitwise logic whose source negate bit means NOT on Gen8+.
    pub fn is_logic(self) -> bool {
        matches!(self, Opcode::And | Opcode::Not | Opcode::Or | Opcode::Xor)
    }

    /// Structured flow control whose jump fields replace part of the operands.
    pub fn is_flow(self) -> bool {
        matches!(
            self,
            Opcode::If
                | Opcode::Iff
                | Opcode::Else
                | Opcode::Endif
                | Opcode::Do
                | Opcode::While
                | Opcode::Break
                | Opcode::Continue
                | Opcode::Halt
        )
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Register file of an operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegFile {
    /// Architecture registers: null, a0, acc, f, sr, cr, n, ip, tdr, tm, mask…
    Arf,
    /// General register file `gN`.
    Grf,
    /// Message registers `mN` (before Gen7).
    Mrf,
    /// Immediate value.
    Imm,
}

impl RegFile {
    /// Two-bit hardware encoding.
    pub fn hw(self) -> u64 {
        match self {
            RegFile::Arf => 0,
            RegFile::Grf => 1,
            RegFile::Mrf => 2,
            RegFile::Imm => 3,
        }
    }

    /// Decodes the two-bit file field.
    pub fn from_hw(v: u64) -> RegFile {
        match v & 3 {
            0 => RegFile::Arf,
            1 => RegFile::Grf,
            2 => RegFile::Mrf,
            _ => RegFile::Imm,
        }
    }
}

/// Architecture register numbers (high nibble of the register number).
pub mod arf {
    /// The null register.
    pub const NULL: u8 = 0x00;
    /// Address register a0.
    pub const ADDRESS: u8 = 0x10;
    /// Accumulators acc0/acc1.
    pub const ACCUMULATOR: u8 = 0x20;
    /// Flag registers f0/f1.
    pub const FLAG: u8 = 0x30;
    /// Mask register.
    pub const MASK: u8 = 0x40;
    /// Mask stack.
    pub const MASK_STACK: u8 = 0x50;
    /// Mask stack depth.
    pub const MASK_STACK_DEPTH: u8 = 0x60;
    /// State register sr0.
    pub const STATE: u8 = 0x70;
    /// Control register cr0.
    pub const CONTROL: u8 = 0x80;
    /// Notification count n0.
    pub const NOTIFICATION_COUNT: u8 = 0x90;
    /// Instruction pointer.
    pub const IP: u8 = 0xa0;
    /// Thread dependency register.
    pub const TDR: u8 = 0xb0;
    /// Timestamp tm0.
    pub const TIMESTAMP: u8 = 0xc0;
}

/// Data type of an operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum RegType {
    UD,
    D,
    UW,
    W,
    UB,
    B,
    DF,
    F,
    UQ,
    Q,
    HF,
    /// Packed signed half-byte vector immediate.
    V,
    /// Packed unsigned half-byte vector immediate.
    UV,
    /// Packed restricted 8-bit float vector immediate.
    VF,
}

impl RegType {
    /// Every type, for parsers and random generators.
    pub const ALL: [RegType; 14] = [
        RegType::UD,
        RegType::D,
        RegType::UW,
        RegType::W,
        RegType::UB,
        RegType::B,
        RegType::DF,
        RegType::F,
        RegType::UQ,
        RegType::Q,
        RegType::HF,
        RegType::V,
        RegType::UV,
        RegType::VF,
    ];

    /// Mesa's suffix letters.
    pub fn letters(self) -> &'static str {
        match self {
            RegType::UD => "UD",
            RegType::D => "D",
            RegType::UW => "UW",
            RegType::W => "W",
            RegType::UB => "UB",
            RegType::B => "B",
            RegType::DF => "DF",
            RegType::F => "F",
            RegType::UQ => "UQ",
            RegType::Q => "Q",
            RegType::HF => "HF",
            RegType::V => "V",
            RegType::UV => "UV",
            RegType::VF => "VF",
        }
    }

    /// Size in bytes of one element, as Mesa counts it (2 for the V/UV half-byte vectors, 4 for
    /// VF), which is also the unit of printed subregister numbers.
    pub fn size(self) -> u32 {
        match self {
            RegType::UB | RegType::B => 1,
            RegType::UW | RegType::W | RegType::HF | RegType::V | RegType::UV => 2,
            RegType::UD | RegType::D | RegType::F | RegType::VF => 4,
            RegType::DF | RegType::UQ | RegType::Q => 8,
        }
    }

    /// Floating-point types.
    pub fn is_float(self) -> bool {
        matches!(self, RegType::F | RegType::DF | RegType::HF | RegType::VF)
    }

    /// Signed integer or float.
    pub fn is_signed(self) -> bool {
        !matches!(
            self,
            RegType::UD | RegType::UW | RegType::UB | RegType::UQ | RegType::UV
        )
    }

    /// Hardware encoding of a register (non-immediate) operand of this type on `ver`.
    pub fn reg_hw(self, ver: u32) -> Option<u64> {
        Some(match self {
            RegType::UD => 0,
            RegType::D => 1,
            RegType::UW => 2,
            RegType::W => 3,
            RegType::UB => 4,
            RegType::B => 5,
            RegType::DF if ver >= 70 => 6,
            RegType::F => 7,
            RegType::UQ if ver >= 80 => 8,
            RegType::Q if ver >= 80 => 9,
            RegType::HF if ver >= 80 => 10,
            _ => return None,
        })
    }

    /// Hardware encoding of an immediate of this type on `ver`.
    pub fn imm_hw(self, ver: u32) -> Option<u64> {
        Some(match self {
            RegType::UD => 0,
            RegType::D => 1,
            RegType::UW => 2,
            RegType::W => 3,
            RegType::UV if ver >= 60 => 4,
            RegType::VF => 5,
            RegType::V => 6,
            RegType::F => 7,
            RegType::UQ if ver >= 80 => 8,
            RegType::Q if ver >= 80 => 9,
            RegType::DF if ver >= 80 => 10,
            RegType::HF if ver >= 80 => 11,
            _ => return None,
        })
    }

    /// The register type with hardware number `hw` in register file `file` on `ver`.
    pub fn from_hw(ver: u32, file: RegFile, hw: u64) -> Option<RegType> {
        RegType::ALL.iter().copied().find(|t| {
            if file == RegFile::Imm {
                t.imm_hw(ver) == Some(hw)
            } else {
                t.reg_hw(ver) == Some(hw)
            }
        })
    }

    /// Encoding in the 3-source align16 type fields (Gen7+).
    pub fn three_src_hw(self, ver: u32) -> Option<u64> {
        Some(match self {
            RegType::F => 0,
            RegType::D => 1,
            RegType::UD => 2,
            RegType::DF => 3,
            RegType::HF if ver >= 80 => 4,
            _ => return None,
        })
    }

    /// Decodes a 3-source align16 type field.
    pub fn from_three_src_hw(ver: u32, hw: u64) -> Option<RegType> {
        [
            RegType::F,
            RegType::D,
            RegType::UD,
            RegType::DF,
            RegType::HF,
        ]
        .into_iter()
        .find(|t| t.three_src_hw(ver) == Some(hw))
    }

    /// Parses Mesa's suffix letters.
    pub fn from_letters(s: &str) -> Option<RegType> {
        RegType::ALL.iter().copied().find(|t| t.letters() == s)
    }
}

impl fmt::Display for RegType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letters())
    }
}

/// Conditional modifier (also used by SEL and flow control as an embedded condition).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[allow(missing_docs)]
pub enum CondMod {
    #[default]
    None,
    Z,
    Nz,
    G,
    Ge,
    L,
    Le,
    /// Value 7: reserved on Gen4–Gen5 (R on early parts).
    R,
    O,
    U,
}

impl CondMod {
    /// All modifiers with their hardware numbers and suffixes.
    pub const TABLE: [(CondMod, u8, &'static str); 10] = [
        (CondMod::None, 0, ""),
        (CondMod::Z, 1, "z"),
        (CondMod::Nz, 2, "nz"),
        (CondMod::G, 3, "g"),
        (CondMod::Ge, 4, "ge"),
        (CondMod::L, 5, "l"),
        (CondMod::Le, 6, "le"),
        (CondMod::R, 7, "r"),
        (CondMod::O, 8, "o"),
        (CondMod::U, 9, "u"),
    ];

    /// Hardware value.
    pub fn hw(self) -> u8 {
        Self::TABLE.iter().find(|e| e.0 == self).map_or(0, |e| e.1)
    }

    /// Decodes the 4-bit field.
    pub fn from_hw(v: u8) -> Option<CondMod> {
        Self::TABLE.iter().find(|e| e.1 == v).map(|e| e.0)
    }

    /// Suffix without the dot (`"nz"`).
    pub fn suffix(self) -> &'static str {
        Self::TABLE.iter().find(|e| e.0 == self).map_or("", |e| e.2)
    }

    /// Parses a suffix.
    pub fn from_suffix(s: &str) -> Option<CondMod> {
        Self::TABLE
            .iter()
            .find(|e| e.2 == s && !s.is_empty())
            .map(|e| e.0)
    }
}

/// Function of the Gen6+ MATH instruction (and of the Gen4/5 math shared-function message).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum MathFn {
    Inv,
    Log,
    Exp,
    Sqrt,
    Rsq,
    Sin,
    Cos,
    Sincos,
    Fdiv,
    Pow,
    IntDivQuotientAndRemainder,
    IntDivQuotient,
    IntDivRemainder,
    Invm,
    Rsqrtm,
}

impl MathFn {
    /// Functions with hardware numbers and Mesa's names.
    pub const TABLE: [(MathFn, u8, &'static str); 15] = [
        (MathFn::Inv, 1, "inv"),
        (MathFn::Log, 2, "log"),
        (MathFn::Exp, 3, "exp"),
        (MathFn::Sqrt, 4, "sqrt"),
        (MathFn::Rsq, 5, "rsq"),
        (MathFn::Sin, 6, "sin"),
        (MathFn::Cos, 7, "cos"),
        (MathFn::Sincos, 8, "sincos"),
        (MathFn::Fdiv, 9, "fdiv"),
        (MathFn::Pow, 10, "pow"),
        (MathFn::IntDivQuotientAndRemainder, 11, "intdivmod"),
        (MathFn::IntDivQuotient, 12, "intdiv"),
        (MathFn::IntDivRemainder, 13, "intmod"),
        (MathFn::Invm, 14, "invm"),
        (MathFn::Rsqrtm, 15, "rsqrtm"),
    ];

    /// Hardware value.
    pub fn hw(self) -> u8 {
        Self::TABLE.iter().find(|e| e.0 == self).map_or(0, |e| e.1)
    }

    /// Decodes the 4-bit field.
    pub fn from_hw(v: u8) -> Option<MathFn> {
        Self::TABLE.iter().find(|e| e.1 == v).map(|e| e.0)
    }

    /// Mesa's name.
    pub fn name(self) -> &'static str {
        Self::TABLE.iter().find(|e| e.0 == self).map_or("", |e| e.2)
    }

    /// Parses Mesa's name.
    pub fn from_name(s: &str) -> Option<MathFn> {
        Self::TABLE.iter().find(|e| e.2 == s).map(|e| e.0)
    }

    /// Takes two operands.
    pub fn is_binary(self) -> bool {
        matches!(
            self,
            MathFn::Pow
                | MathFn::Fdiv
                | MathFn::IntDivQuotient
                | MathFn::IntDivRemainder
                | MathFn::IntDivQuotientAndRemainder
                | MathFn::Invm
        )
    }
}

/// Align1 (scalar regions) or Align16 (vec4 swizzles and write masks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AccessMode {
    /// Region-based addressing.
    #[default]
    Align1,
    /// 16-byte aligned vec4 addressing.
    Align16,
}

/// Thread control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ThreadCtrl {
    /// No special scheduling.
    #[default]
    Normal,
    /// Keep this thread scheduled until the next non-atomic instruction.
    Atomic,
    /// Switch threads after this instruction.
    Switch,
    /// Encoding 3 (reserved).
    Reserved,
}

impl ThreadCtrl {
    /// Hardware value.
    pub fn hw(self) -> u64 {
        match self {
            ThreadCtrl::Normal => 0,
            ThreadCtrl::Atomic => 1,
            ThreadCtrl::Switch => 2,
            ThreadCtrl::Reserved => 3,
        }
    }

    /// Decodes the 2-bit field.
    pub fn from_hw(v: u64) -> ThreadCtrl {
        match v & 3 {
            0 => ThreadCtrl::Normal,
            1 => ThreadCtrl::Atomic,
            2 => ThreadCtrl::Switch,
            _ => ThreadCtrl::Reserved,
        }
    }
}

/// Shared function ids (SFIDs) with Mesa's names; the numbering changed at Gen6.
pub mod sfid {
    /// Null.
    pub const NULL: u8 = 0;
    /// Extended math (Gen4/5).
    pub const MATH: u8 = 1;
    /// Sampler.
    pub const SAMPLER: u8 = 2;
    /// Message gateway.
    pub const GATEWAY: u8 = 3;
    /// Gen4/5 data port read; Gen6+ sampler cache data port.
    pub const DATAPORT_READ: u8 = 4;
    /// Gen4/5 data port write; Gen6+ render cache.
    pub const DATAPORT_WRITE: u8 = 5;
    /// URB.
    pub const URB: u8 = 6;
    /// Thread spawner.
    pub const THREAD_SPAWNER: u8 = 7;
    /// VME.
    pub const VME: u8 = 8;
    /// Gen6+ constant cache.
    pub const CONSTANT_CACHE: u8 = 9;
    /// Gen7+ data cache (port 0).
    pub const DATA_CACHE: u8 = 10;
    /// Gen7+ pixel interpolator.
    pub const PIXEL_INTERPOLATOR: u8 = 11;
    /// Haswell+ data cache port 1.
    pub const DATA_CACHE_1: u8 = 12;
    /// Haswell+ check-and-refinement engine.
    pub const CRE: u8 = 13;
    /// Gen6+ name of [`DATAPORT_READ`]: the sampler-cache data port (read-only).
    pub const SAMPLER_CACHE: u8 = DATAPORT_READ;
    /// Gen6+ name of [`DATAPORT_WRITE`]: the render-cache data port (render-target writes,
    /// Gen7 image fences).
    pub const RENDER_CACHE: u8 = DATAPORT_WRITE;

    /// Mesa's printed name of `id` on generation `ver`.
    pub fn name(ver: u32, id: u8) -> Option<&'static str> {
        let gfx4 = [
            Some("null"),
            Some("math"),
            Some("sampler"),
            Some("gateway"),
            Some("read"),
            Some("write"),
            Some("urb"),
            Some("thread_spawner"),
            Some("vme"),
        ];
        let gfx6 = [
            Some("null"),
            Some("math"),
            Some("sampler"),
            Some("gateway"),
            Some("dp_sampler"),
            Some("render"),
            Some("urb"),
            Some("thread_spawner"),
            Some("vme"),
            Some("const"),
            Some("data"),
            Some("pixel interp"),
            Some("dp data 1"),
            Some("cre"),
        ];
        let table: &[Option<&'static str>] = if ver >= 60 { &gfx6 } else { &gfx4 };
        table.get(id as usize).copied().flatten()
    }

    /// The id printed as `name` on generation `ver`.
    pub fn from_name(ver: u32, name: &str) -> Option<u8> {
        (0..16u8).find(|&i| self::name(ver, i) == Some(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcode_numbers_depend_on_the_generation() {
        // Mesa's opcode_descs: 35 is IFF up to Gen5 and BRC from Gen7; 46 is PUSH, FORK, GOTO.
        assert_eq!(Opcode::from_hw(40, 35), Some(Opcode::Iff));
        assert_eq!(Opcode::from_hw(60, 35), None);
        assert_eq!(Opcode::from_hw(70, 35), Some(Opcode::Brc));
        assert_eq!(Opcode::from_hw(50, 46), Some(Opcode::Push));
        assert_eq!(Opcode::from_hw(60, 46), Some(Opcode::Fork));
        assert_eq!(Opcode::from_hw(80, 46), Some(Opcode::Goto));
        assert_eq!(Opcode::from_hw(75, 10), Some(Opcode::Dim));
        assert_eq!(Opcode::from_hw(70, 10), None);
        assert_eq!(Opcode::from_name(60, "math"), Some(Opcode::Math));
        assert_eq!(Opcode::from_name(50, "math"), None);
        assert_eq!(Opcode::from_name(90, "sends"), Some(Opcode::Sends));
    }

    #[test]
    fn type_encodings_follow_brw_reg_type() {
        // brw_reg_type.c: DF is register type 6 from Gen7, immediate type 10 from Gen8;
        // UV is immediate 4 from Gen6; HF is 10 (register) / 11 (immediate) from Gen8.
        assert_eq!(RegType::DF.reg_hw(60), None);
        assert_eq!(RegType::DF.reg_hw(70), Some(6));
        assert_eq!(RegType::DF.imm_hw(70), None);
        assert_eq!(RegType::DF.imm_hw(80), Some(10));
        assert_eq!(RegType::UV.imm_hw(50), None);
        assert_eq!(RegType::UV.imm_hw(60), Some(4));
        assert_eq!(RegType::HF.reg_hw(80), Some(10));
        assert_eq!(RegType::HF.imm_hw(90), Some(11));
        assert_eq!(RegType::from_hw(80, RegFile::Imm, 5), Some(RegType::VF));
        assert_eq!(RegType::from_three_src_hw(70, 3), Some(RegType::DF));
    }

    #[test]
    fn sfid_names_changed_at_gen6() {
        assert_eq!(sfid::name(50, 4), Some("read"));
        assert_eq!(sfid::name(60, 4), Some("dp_sampler"));
        assert_eq!(sfid::from_name(75, "dp data 1"), Some(12));
        assert_eq!(sfid::from_name(50, "data"), None);
    }
}
