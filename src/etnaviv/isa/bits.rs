//! Bit positions of the 128-bit instruction (bit 0 is the least significant bit of word 0).
//!
//! Positions come from the field definitions of Mesa's `src/etnaviv/isa/etnaviv.xml`.

/// Low 6 bits of the opcode; the seventh is [`OPCODE_BIT6`].
pub const OPCODE: (u32, u32) = (0, 6);
pub const OPCODE_BIT6: u32 = 80;
pub const COND: (u32, u32) = (6, 5);
pub const SAT: u32 = 11;
pub const DST_USE: u32 = 12;
pub const DST_AMODE: (u32, u32) = (13, 3);
pub const DST_REG: (u32, u32) = (16, 7);
pub const DST_MASK: (u32, u32) = (23, 4);
pub const UNK: u32 = 27;
pub const TEX_ID: (u32, u32) = (27, 5);
pub const RMODE: (u32, u32) = (32, 2);
pub const TEX_AMODE: (u32, u32) = (32, 3);
/// Set when the instruction is *not* packed.
pub const PMODE: u32 = 34;
pub const TEX_SWIZ: (u32, u32) = (35, 8);
pub const LEFT_SHIFT: (u32, u32) = (35, 3);
pub const SKPHP: u32 = 39;
pub const LOCAL: u32 = 40;
pub const DENORM: u32 = 42;
pub const TYPE_BIT2: u32 = 53;
pub const TYPE_BIT01: (u32, u32) = (94, 2);
pub const LOW_HALF: u32 = 109;
pub const HIGH_HALF: u32 = 120;
pub const DST_FULL: u32 = 127;
pub const TARGET: (u32, u32) = (103, 15);

/// Field positions of one source slot.
pub struct SrcBits {
    pub use_: u32,
    pub reg: u32,
    pub swiz: u32,
    pub neg: u32,
    pub abs: u32,
    pub amode: u32,
    pub group: u32,
}

pub const SRC: [SrcBits; 3] = [
    SrcBits {
        use_: 43,
        reg: 44,
        swiz: 54,
        neg: 62,
        abs: 63,
        amode: 64,
        group: 67,
    },
    SrcBits {
        use_: 70,
        reg: 71,
        swiz: 81,
        neg: 89,
        abs: 90,
        amode: 91,
        group: 96,
    },
    SrcBits {
        use_: 99,
        reg: 100,
        swiz: 110,
        neg: 118,
        abs: 119,
        amode: 121,
        group: 124,
    },
];

/// Register group value that marks a 20-bit immediate.
pub const GROUP_IMMEDIATE: u32 = 7;

pub fn get(v: u128, (lo, width): (u32, u32)) -> u32 {
    ((v >> lo) & ((1u128 << width) - 1)) as u32
}

pub fn bit(v: u128, pos: u32) -> bool {
    (v >> pos) & 1 == 1
}

pub fn put(v: &mut u128, (lo, width): (u32, u32), x: u32) {
    let mask = ((1u128 << width) - 1) << lo;
    *v = (*v & !mask) | ((u128::from(x) << lo) & mask);
}

pub fn put_bit(v: &mut u128, pos: u32, x: bool) {
    put(v, (pos, 1), x as u32);
}

pub fn to_u128(w: [u32; 4]) -> u128 {
    w.iter()
        .rev()
        .fold(0u128, |acc, &x| (acc << 32) | u128::from(x))
}

pub fn to_words(v: u128) -> [u32; 4] {
    [
        v as u32,
        (v >> 32) as u32,
        (v >> 64) as u32,
        (v >> 96) as u32,
    ]
}

fn range(lo: u32, hi: u32) -> u128 {
    ((1u128 << (hi - lo + 1)) - 1) << lo
}

/// Bits a format declares "don't care": they may hold anything and do not change meaning.
pub fn dontcare_mask(format: super::opcode::Format) -> u128 {
    use super::opcode::Format;
    match format {
        Format::CfNoSrc | Format::CfSrc0 | Format::CfSrc01 => 1u128 << PMODE,
        Format::Store => range(12, 22) | range(27, 33) | (1u128 << 41),
        _ => 0,
    }
}
