//! Opcodes and the encoding format each one uses.
//!
//! A Vivante opcode is 7 bits: bits 0..5 of the instruction plus bit 80 as the seventh bit.
//! Opcode 0x7f is an escape: the real operation is a 9-bit code in the src2 register field.

/// How an instruction's 128 bits are laid out; each variant corresponds to one of the bitset
/// families of Mesa's `etnaviv.xml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// NOP, RET, BARRIER: destination only, printed without modifiers.
    AluNoSrc,
    /// TEXKILL without a condition.
    KillNoSrc,
    /// TEXKILL with a condition on src0 (and src1).
    KillCond,
    AluSrc0,
    AluSrc2,
    AluSrc01,
    AluCondSrc01,
    AluSrc02,
    AluSrc12,
    AluSrc012,
    AluCondSrc012,
    /// TEXLD: coordinate in src0, optional comparator in src2.
    TexSrc0MaybeSrc2,
    TexSrc01,
    TexSrc012,
    /// TEXLDB/TEXLDL: coordinate, optional bias/lod in src1 (and src2).
    TexSrc0MaybeSrc12,
    /// Unconditional BRANCH and CALL.
    CfNoSrc,
    /// Conditional BRANCH on one source.
    CfSrc0,
    /// Conditional BRANCH comparing two sources.
    CfSrc01,
    Load,
    Store,
    /// Opcode 0x7f with the operation in src2.
    ExtSrc0,
}

/// Whether a source slot must be used, must be empty, or may be either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Absent,
    Present,
    Optional,
}

/// The broad family a format belongs to, which fixes the meaning of bits 12..42 and 127.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Alu,
    Tex,
    Cf,
    Load,
    Store,
}

impl Format {
    pub fn slots(self) -> [Slot; 3] {
        use Slot::*;
        match self {
            Format::AluNoSrc | Format::KillNoSrc | Format::CfNoSrc => [Absent, Absent, Absent],
            Format::KillCond => [Present, Optional, Absent],
            Format::AluSrc0 | Format::CfSrc0 | Format::ExtSrc0 => [Present, Absent, Absent],
            Format::AluSrc2 => [Absent, Absent, Present],
            Format::AluSrc01 | Format::AluCondSrc01 | Format::CfSrc01 | Format::Load => {
                [Present, Present, Absent]
            }
            Format::TexSrc01 => [Present, Present, Absent],
            Format::AluSrc02 => [Present, Absent, Present],
            Format::AluSrc12 => [Absent, Present, Present],
            Format::AluSrc012 | Format::AluCondSrc012 | Format::TexSrc012 | Format::Store => {
                [Present, Present, Present]
            }
            Format::TexSrc0MaybeSrc2 => [Present, Absent, Optional],
            Format::TexSrc0MaybeSrc12 => [Optional, Optional, Optional],
        }
    }

    pub fn has_cond(self) -> bool {
        matches!(
            self,
            Format::KillCond
                | Format::AluCondSrc01
                | Format::AluCondSrc012
                | Format::CfSrc0
                | Format::CfSrc01
        )
    }

    pub fn class(self) -> Class {
        match self {
            Format::TexSrc0MaybeSrc2
            | Format::TexSrc01
            | Format::TexSrc012
            | Format::TexSrc0MaybeSrc12 => Class::Tex,
            Format::CfNoSrc | Format::CfSrc0 | Format::CfSrc01 => Class::Cf,
            Format::Load => Class::Load,
            Format::Store => Class::Store,
            _ => Class::Alu,
        }
    }
}

macro_rules! opcodes {
    ($($variant:ident = $value:expr, $name:expr, $format:ident;)*) => {
        /// Every operation of the instruction set that gpucc knows.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Opcode {
            $($variant,)*
            /// Extended opcode 11 (bit scan from the least significant bit).
            BitFindLsb,
            /// Extended opcode 12 (bit scan from the most significant bit).
            BitFindMsb,
        }

        impl Opcode {
            /// Every opcode, extended ones last.
            pub const ALL: &'static [Opcode] = &[$(Opcode::$variant,)* Opcode::BitFindLsb, Opcode::BitFindMsb];

            /// The 7-bit opcode field (0x7f for extended opcodes).
            pub fn bits(self) -> u32 {
                match self {
                    $(Opcode::$variant => $value,)*
                    Opcode::BitFindLsb | Opcode::BitFindMsb => EXTENDED,
                }
            }

            pub fn name(self) -> &'static str {
                match self {
                    $(Opcode::$variant => $name,)*
                    Opcode::BitFindLsb => "bit_findlsb",
                    Opcode::BitFindMsb => "bit_findmsb",
                }
            }

            fn base_format(self) -> Format {
                match self {
                    $(Opcode::$variant => Format::$format,)*
                    Opcode::BitFindLsb | Opcode::BitFindMsb => Format::ExtSrc0,
                }
            }

            /// The opcode with 7-bit field `v` (not the extended ones).
            pub fn from_bits(v: u32) -> Option<Opcode> {
                match v {
                    $($value => Some(Opcode::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

/// The escape opcode value.
pub const EXTENDED: u32 = 0x7f;

opcodes! {
    Nop = 0x00, "nop", AluNoSrc;
    Add = 0x01, "add", AluSrc02;
    Mad = 0x02, "mad", AluSrc012;
    Mul = 0x03, "mul", AluSrc01;
    Dp3 = 0x05, "dp3", AluSrc01;
    Dp4 = 0x06, "dp4", AluSrc01;
    Dsx = 0x07, "dsx", AluSrc02;
    Dsy = 0x08, "dsy", AluSrc02;
    Mov = 0x09, "mov", AluSrc2;
    Movar = 0x0a, "movar", AluSrc2;
    Rcp = 0x0c, "rcp", AluSrc2;
    Rsq = 0x0d, "rsq", AluSrc2;
    Select = 0x0f, "select", AluCondSrc012;
    Set = 0x10, "set", AluCondSrc01;
    Exp = 0x11, "exp", AluSrc2;
    Log = 0x12, "log", AluSrc2;
    Frc = 0x13, "frc", AluSrc2;
    Call = 0x14, "call", CfNoSrc;
    Ret = 0x15, "ret", AluNoSrc;
    Branch = 0x16, "branch", CfNoSrc;
    Texkill = 0x17, "texkill", KillNoSrc;
    Texld = 0x18, "texld", TexSrc0MaybeSrc2;
    Texldb = 0x19, "texldb", TexSrc0MaybeSrc12;
    Texldd = 0x1a, "texldd", TexSrc012;
    Texldl = 0x1b, "texldl", TexSrc0MaybeSrc12;
    Sqrt = 0x21, "sqrt", AluSrc2;
    Sin = 0x22, "sin", AluSrc2;
    Cos = 0x23, "cos", AluSrc2;
    BranchAny = 0x24, "branch_any", CfSrc01;
    Floor = 0x25, "floor", AluSrc2;
    Ceil = 0x26, "ceil", AluSrc2;
    Sign = 0x27, "sign", AluSrc2;
    Barrier = 0x2a, "barrier", AluNoSrc;
    Swizzle = 0x2b, "swizzle", AluSrc012;
    I2i = 0x2c, "i2i", AluSrc01;
    I2f = 0x2d, "i2f", AluSrc0;
    F2i = 0x2e, "f2i", AluSrc0;
    F2irnd = 0x2f, "f2irnd", AluSrc0;
    Cmp = 0x31, "cmp", AluCondSrc012;
    Load = 0x32, "load", Load;
    Store = 0x33, "store", Store;
    Clamp0Max = 0x36, "clamp0_max", AluSrc01;
    Iaddsat = 0x3b, "iaddsat", AluSrc02;
    Imullo0 = 0x3c, "imullo0", AluSrc01;
    Imulhi0 = 0x40, "imulhi0", AluSrc01;
    Idiv0 = 0x44, "idiv0", AluSrc01;
    Imod = 0x48, "imod", AluSrc01;
    Txf = 0x49, "txf", TexSrc012;
    Imadlo0 = 0x4c, "imadlo0", AluSrc012;
    Imadlosat0 = 0x4e, "imadlosat0", AluSrc012;
    Movai = 0x56, "movai", AluSrc2;
    Iabs = 0x57, "iabs", AluSrc2;
    Leadzero = 0x58, "leadzero", AluSrc2;
    Lshift = 0x59, "lshift", AluSrc02;
    Rshift = 0x5a, "rshift", AluSrc02;
    Rotate = 0x5b, "rotate", AluSrc02;
    Or = 0x5c, "or", AluSrc02;
    And = 0x5d, "and", AluSrc02;
    Xor = 0x5e, "xor", AluSrc02;
    Not = 0x5f, "not", AluSrc2;
    BitExtract = 0x60, "bit_extract", AluSrc012;
    Popcount = 0x61, "popcount", AluSrc2;
    Div = 0x64, "div", AluSrc12;
    AtomicAdd = 0x65, "atomic_add", AluSrc012;
    AtomicXchg = 0x66, "atomic_xchg", AluSrc012;
    AtomicCmpXchg = 0x67, "atomic_cmp_xchg", AluSrc012;
    AtomicMin = 0x68, "atomic_min", AluSrc012;
    AtomicMax = 0x69, "atomic_max", AluSrc012;
    AtomicOr = 0x6a, "atomic_or", AluSrc012;
    AtomicAnd = 0x6b, "atomic_and", AluSrc012;
    AtomicXor = 0x6c, "atomic_xor", AluSrc012;
    BitRev = 0x6d, "bit_rev", AluSrc0;
    Texldlpcf = 0x6f, "texldlpcf", TexSrc012;
    Texldgpcf = 0x70, "texldgpcf", TexSrc012;
    Conv = 0x72, "conv", AluSrc01;
    Dp2 = 0x73, "dp2", AluSrc01;
    NormDp2 = 0x74, "norm_dp2", AluSrc0;
    NormDp3 = 0x75, "norm_dp3", AluSrc0;
    NormDp4 = 0x76, "norm_dp4", AluSrc0;
    NormMul = 0x77, "norm_mul", AluSrc01;
    ImgLoad = 0x79, "img_load", Load;
    ImgStore = 0x7a, "img_store", Store;
    Tg4 = 0x7d, "tg4", TexSrc01;
}

impl Opcode {
    /// The 9-bit code in src2 of an extended opcode.
    pub fn ext_bits(self) -> Option<u32> {
        match self {
            Opcode::BitFindLsb => Some(11),
            Opcode::BitFindMsb => Some(12),
            _ => None,
        }
    }

    pub fn from_ext_bits(v: u32) -> Option<Opcode> {
        match v {
            11 => Some(Opcode::BitFindLsb),
            12 => Some(Opcode::BitFindMsb),
            _ => None,
        }
    }

    pub fn from_name(name: &str) -> Option<Opcode> {
        Opcode::ALL.iter().copied().find(|o| o.name() == name)
    }

    /// The format, given which of src0/src1 are used (BRANCH and TEXKILL have several).
    pub fn format(self, src0_use: bool, src1_use: bool) -> Format {
        match self {
            Opcode::Branch => match (src0_use, src1_use) {
                (false, false) => Format::CfNoSrc,
                (true, false) => Format::CfSrc0,
                _ => Format::CfSrc01,
            },
            Opcode::Texkill if src0_use || src1_use => Format::KillCond,
            _ => self.base_format(),
        }
    }

    /// Every format this opcode can be encoded with.
    pub fn formats(self) -> &'static [Format] {
        match self {
            Opcode::Branch => &[Format::CfNoSrc, Format::CfSrc0, Format::CfSrc01],
            Opcode::Texkill => &[Format::KillNoSrc, Format::KillCond],
            _ => match self.base_format() {
                Format::AluNoSrc => &[Format::AluNoSrc],
                Format::AluSrc0 => &[Format::AluSrc0],
                Format::AluSrc2 => &[Format::AluSrc2],
                Format::AluSrc01 => &[Format::AluSrc01],
                Format::AluCondSrc01 => &[Format::AluCondSrc01],
                Format::AluSrc02 => &[Format::AluSrc02],
                Format::AluSrc12 => &[Format::AluSrc12],
                Format::AluSrc012 => &[Format::AluSrc012],
                Format::AluCondSrc012 => &[Format::AluCondSrc012],
                Format::TexSrc0MaybeSrc2 => &[Format::TexSrc0MaybeSrc2],
                Format::TexSrc01 => &[Format::TexSrc01],
                Format::TexSrc012 => &[Format::TexSrc012],
                Format::TexSrc0MaybeSrc12 => &[Format::TexSrc0MaybeSrc12],
                Format::CfNoSrc => &[Format::CfNoSrc],
                Format::CfSrc01 => &[Format::CfSrc01],
                Format::Load => &[Format::Load],
                Format::Store => &[Format::Store],
                Format::ExtSrc0 => &[Format::ExtSrc0],
                _ => &[],
            },
        }
    }
}
