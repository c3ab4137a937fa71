//! The instruction model: one 128-bit Vivante instruction as named fields.
//!
//! Fields follow the hardware encoding (Mesa's `etnaviv.xml`) rather than a higher-level view,
//! so that every decodable instruction has exactly one representation and
//! `decode(encode(i)) == i` holds. Which fields an instruction uses depends on its
//! [`Format`]; unused fields stay at their defaults:
//!
//! | class | fields besides opcode, `sat`, `ty` and the sources its format reads |
//! |-------|------------------------------------------------------------------------|
//! | ALU   | `cond` (conditional formats), `dst`, `unk`, `rounding`, `pack`, `skphp`, `thread`, `dst_full` |
//! | tex   | `dst`, `tex`, `thread` |
//! | control flow | `cond` (conditional formats), `target`, `dontcare` (bit 34) |
//! | load  | `dst`, `pack`, `left_shift`, `skphp`, `local`, `denorm`, `thread`, `dst_full` |
//! | store | `dst.mask` (the memory write mask), as load otherwise, `dontcare` |
//!
//! Extended opcodes (0x7f) keep their sub-opcode in the opcode itself; src2 is implied.

use super::opcode::{Format, Opcode};

/// Condition codes of SELECT, SET, CMP, BRANCH and TEXKILL (5-bit field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Cond {
    #[default]
    True,
    Gt,
    Lt,
    Ge,
    Le,
    Eq,
    Ne,
    And,
    Or,
    Xor,
    Not,
    Nz,
    Gez,
    Gz,
    Lez,
    Lz,
    /// Selects on the most significant bit of src0 (value 22).
    SelMsb,
}

impl Cond {
    pub const ALL: [Cond; 17] = [
        Cond::True,
        Cond::Gt,
        Cond::Lt,
        Cond::Ge,
        Cond::Le,
        Cond::Eq,
        Cond::Ne,
        Cond::And,
        Cond::Or,
        Cond::Xor,
        Cond::Not,
        Cond::Nz,
        Cond::Gez,
        Cond::Gz,
        Cond::Lez,
        Cond::Lz,
        Cond::SelMsb,
    ];

    pub fn bits(self) -> u32 {
        match self {
            Cond::SelMsb => 22,
            c => c as u32,
        }
    }

    pub fn from_bits(v: u32) -> Option<Cond> {
        match v {
            0..=15 => Some(Cond::ALL[v as usize]),
            22 => Some(Cond::SelMsb),
            _ => None,
        }
    }

    /// Modifier as printed after the mnemonic ("" for the always-true condition).
    pub fn suffix(self) -> &'static str {
        [
            "", ".gt", ".lt", ".ge", ".le", ".eq", ".ne", ".and", ".or", ".xor", ".not", ".nz",
            ".gez", ".gz", ".lez", ".lz", ".selmsb",
        ][Cond::ALL.iter().position(|c| *c == self).unwrap_or(0)]
    }
}

/// Operand data type (3 bits, split over bit 53 and bits 94..95).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DataType {
    #[default]
    F32,
    S32,
    S8,
    U16,
    F16,
    S16,
    U32,
    U8,
}

impl DataType {
    pub const ALL: [DataType; 8] = [
        DataType::F32,
        DataType::S32,
        DataType::S8,
        DataType::U16,
        DataType::F16,
        DataType::S16,
        DataType::U32,
        DataType::U8,
    ];

    pub fn bits(self) -> u32 {
        self as u32
    }

    pub fn from_bits(v: u32) -> DataType {
        DataType::ALL[(v & 7) as usize]
    }

    pub fn suffix(self) -> &'static str {
        ["", ".s32", ".s8", ".u16", ".f16", ".s16", ".u32", ".u8"][self as usize]
    }

    pub fn is_float(self) -> bool {
        matches!(self, DataType::F32 | DataType::F16)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, DataType::S32 | DataType::S16 | DataType::S8)
    }
}

/// Rounding mode of ALU instructions (bits 32..33).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rounding {
    #[default]
    Default,
    Rtz,
    Rtne,
    /// Seen in the blob's output; meaning unknown ("unkown" is isaspec's spelling).
    Unknown3,
}

impl Rounding {
    pub const ALL: [Rounding; 4] = [
        Rounding::Default,
        Rounding::Rtz,
        Rounding::Rtne,
        Rounding::Unknown3,
    ];

    pub fn suffix(self) -> &'static str {
        ["", ".rtz", ".rtne", ".unkown"][self as usize]
    }
}

/// Which half of a dual-issued (two-thread) instruction this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Thread {
    #[default]
    Both,
    T0,
    T1,
}

impl Thread {
    pub fn suffix(self) -> &'static str {
        ["", ".t0", ".t1"][self as usize]
    }
}

/// Register addressing: direct or relative to one component of the address register `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum AddrMode {
    #[default]
    Direct,
    AX,
    AY,
    AZ,
    AW,
}

impl AddrMode {
    pub const ALL: [AddrMode; 5] = [
        AddrMode::Direct,
        AddrMode::AX,
        AddrMode::AY,
        AddrMode::AZ,
        AddrMode::AW,
    ];

    pub fn from_bits(v: u32) -> Option<AddrMode> {
        AddrMode::ALL.get(v as usize).copied()
    }

    pub fn suffix(self) -> &'static str {
        ["", "[a.x]", "[a.y]", "[a.z]", "[a.w]"][self as usize]
    }

    /// Component of the address register used, if any.
    pub fn component(self) -> Option<usize> {
        match self {
            AddrMode::Direct => None,
            m => Some(m as usize - 1),
        }
    }
}

/// Register file a source reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RegGroup {
    #[default]
    Temp,
    Internal,
    /// Uniforms 0..511 (bank 0).
    Uniform,
    /// Uniforms through the second bank select: Mesa 23.3 reads it as uniform 128 + reg;
    /// isaspec prints it like bank 0, so it does not survive a trip through text.
    Uniform1,
    /// The other thread's temporaries in dual-issue code ("th").
    Thread,
}

impl RegGroup {
    pub fn bits(self) -> u32 {
        self as u32
    }

    pub fn from_bits(v: u32) -> Option<RegGroup> {
        [
            RegGroup::Temp,
            RegGroup::Internal,
            RegGroup::Uniform,
            RegGroup::Uniform1,
            RegGroup::Thread,
        ]
        .get(v as usize)
        .copied()
    }

    pub fn prefix(self) -> &'static str {
        ["t", "i", "u", "u", "th"][self as usize]
    }

    pub fn is_uniform(self) -> bool {
        matches!(self, RegGroup::Uniform | RegGroup::Uniform1)
    }
}

/// A source or texture swizzle: two bits per component, x in the low bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle(pub u8);

impl Swizzle {
    pub const IDENTITY: Swizzle = Swizzle(0xe4);
    pub const XXXX: Swizzle = Swizzle(0x00);

    pub fn component(self, i: usize) -> usize {
        ((self.0 >> (2 * i)) & 3) as usize
    }

    pub fn from_components(c: [usize; 4]) -> Swizzle {
        Swizzle((c[0] | c[1] << 2 | c[2] << 4 | c[3] << 6) as u8)
    }

    /// Every component reads `c`.
    pub fn broadcast(c: usize) -> Swizzle {
        Swizzle::from_components([c; 4])
    }
}

impl Default for Swizzle {
    /// The all-zero field (`xxxx`), which is what unused operands hold.
    fn default() -> Swizzle {
        Swizzle::XXXX
    }
}

/// Destination: temporary `reg` (or `reg + a.?`) with a write mask (bit 0 = x).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Dst {
    pub use_: bool,
    pub reg: u8,
    pub amode: AddrMode,
    pub mask: u8,
}

impl Dst {
    pub fn temp(reg: u8, mask: u8) -> Dst {
        Dst {
            use_: true,
            reg,
            amode: AddrMode::Direct,
            mask,
        }
    }
}

/// How a 20-bit immediate is interpreted (HALTI2+ sources in register group 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImmType {
    /// The top 20 bits of an IEEE single (low 12 mantissa bits zero).
    F20,
    /// Two's-complement 20-bit integer.
    S20,
    /// Unsigned 20-bit integer.
    U20,
    /// An IEEE half in the low 16 bits.
    F16,
}

impl ImmType {
    pub const ALL: [ImmType; 4] = [ImmType::F20, ImmType::S20, ImmType::U20, ImmType::F16];

    pub fn name(self) -> &'static str {
        ["f20", "s20", "u20", "f16"][self as usize]
    }
}

/// A 20-bit immediate source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Imm {
    pub ty: ImmType,
    /// The raw 20 bits.
    pub bits: u32,
}

impl Imm {
    pub fn f20(v: f32) -> Imm {
        Imm {
            ty: ImmType::F20,
            bits: v.to_bits() >> 12,
        }
    }
    pub fn s20(v: i32) -> Imm {
        Imm {
            ty: ImmType::S20,
            bits: (v as u32) & 0xf_ffff,
        }
    }
    pub fn u20(v: u32) -> Imm {
        Imm {
            ty: ImmType::U20,
            bits: v & 0xf_ffff,
        }
    }

    /// The 32-bit register value the immediate stands for (replicated to all components).
    pub fn value(self) -> u32 {
        match self.ty {
            ImmType::F20 => self.bits << 12,
            ImmType::S20 => (((self.bits << 12) as i32) >> 12) as u32,
            ImmType::U20 => self.bits,
            ImmType::F16 => super::float::f16_to_f32(self.bits as u16).to_bits(),
        }
    }
}

/// A register source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct RegSrc {
    pub group: RegGroup,
    pub reg: u16,
    pub amode: AddrMode,
    pub swiz: Swizzle,
    pub neg: bool,
    pub abs: bool,
}

/// What a source reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SrcKind {
    Reg(RegSrc),
    Imm(Imm),
}

/// One of the three source slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Src {
    pub use_: bool,
    pub kind: SrcKind,
}

impl Default for Src {
    /// The unused slot: every bit zero.
    fn default() -> Src {
        Src {
            use_: false,
            kind: SrcKind::Reg(RegSrc::default()),
        }
    }
}

impl Src {
    pub fn reg(group: RegGroup, reg: u16, swiz: Swizzle) -> Src {
        Src {
            use_: true,
            kind: SrcKind::Reg(RegSrc {
                group,
                reg,
                swiz,
                ..RegSrc::default()
            }),
        }
    }
    pub fn temp(reg: u16, swiz: Swizzle) -> Src {
        Src::reg(RegGroup::Temp, reg, swiz)
    }
    pub fn uniform(reg: u16, swiz: Swizzle) -> Src {
        Src::reg(RegGroup::Uniform, reg, swiz)
    }
    pub fn imm(imm: Imm) -> Src {
        Src {
            use_: true,
            kind: SrcKind::Imm(imm),
        }
    }
    pub fn negated(mut self) -> Src {
        if let SrcKind::Reg(r) = &mut self.kind {
            r.neg = !r.neg;
        }
        self
    }
    pub fn absolute(mut self) -> Src {
        if let SrcKind::Reg(r) = &mut self.kind {
            r.abs = true;
        }
        self
    }
    /// The uniform slot this source reads, if it reads one (bank 1 starts at 128, as Mesa
    /// 23.3's disassembler numbers it).
    pub fn uniform_index(&self) -> Option<u32> {
        match self.kind {
            SrcKind::Reg(r) if self.use_ && r.group == RegGroup::Uniform => Some(r.reg as u32),
            SrcKind::Reg(r) if self.use_ && r.group == RegGroup::Uniform1 => {
                Some(128 + r.reg as u32)
            }
            _ => None,
        }
    }
}

/// Texture operand of sampling instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Tex {
    /// Sampler index (5 bits).
    pub id: u8,
    pub amode: AddrMode,
    pub swiz: Swizzle,
}

/// One instruction. See the module comment for which fields each format uses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    pub opcode: Opcode,
    pub cond: Cond,
    pub sat: bool,
    pub dst: Dst,
    /// Bit 27 of ALU instructions, meaning unknown (printed ".unk").
    pub unk: bool,
    pub rounding: Rounding,
    /// ".pack" in the disassembly: the PMODE bit (34) is clear. Used by ALU, load and store
    /// formats; texture and control-flow formats leave it at the default.
    pub pack: bool,
    pub skphp: bool,
    pub local: bool,
    pub denorm: bool,
    pub left_shift: u8,
    pub tex: Tex,
    pub src: [Src; 3],
    pub ty: DataType,
    pub thread: Thread,
    /// High-precision destination (".hp").
    pub dst_full: bool,
    /// Branch/call target (instruction index).
    pub target: u16,
    /// Bits the format marks as "don't care" that are set in the word, kept so that decoding
    /// and re-encoding reproduces the blob's words exactly.
    pub dontcare: [u32; 4],
}

impl Inst {
    /// An instruction with every field at its default. The defaults are the encoding Mesa
    /// emits (it never sets the PMODE bit, so `pack` is true), which makes `Inst::new(Nop)`
    /// the all-zero word.
    pub fn new(opcode: Opcode) -> Inst {
        Inst {
            opcode,
            cond: Cond::True,
            sat: false,
            dst: Dst::default(),
            unk: false,
            rounding: Rounding::Default,
            pack: true,
            skphp: false,
            local: false,
            denorm: false,
            left_shift: 0,
            tex: Tex::default(),
            src: [Src::default(); 3],
            ty: DataType::F32,
            thread: Thread::Both,
            dst_full: false,
            target: 0,
            dontcare: [0; 4],
        }
    }

    /// The encoding format, which depends on the opcode and, for BRANCH and TEXKILL, on which
    /// sources are used.
    pub fn format(&self) -> Format {
        self.opcode.format(self.src[0].use_, self.src[1].use_)
    }
}

/// Whether source operands of `op` computed in `ty` are read as floats, so that the negate
/// and absolute-value bits mean `-x` and `|x|`. F2I reads a float whatever its result type;
/// texture, memory, address-register and flow-control instructions take no modifiers (Mesa
/// never gives them any: its modifier pass folds into ALU sources only).
pub fn carries_float_modifiers(op: Opcode, ty: DataType) -> bool {
    use Opcode::*;
    match op {
        Texld | Texldb | Texldl | Texldd | Txf | Load | Store | Movar | Movai | Branch
        | Texkill => false,
        F2i | F2irnd => true,
        _ => ty.is_float(),
    }
}
