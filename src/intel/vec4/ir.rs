//! The vec4 IR: every virtual register is one GRF holding four components for each of the two
//! vertices of a SIMD4x2 thread (vertex 0 in channels 0-3, vertex 1 in 4-7). Instructions are
//! align16: each source has a swizzle, each destination a write mask, and an operation reads
//! and writes whole vec4s, so one IR instruction is one hardware instruction (except the
//! URB header, which is two).

use std::fmt;

use crate::intel::eu::{CondMod, MathFn, Opcode, RegType};
use crate::intel::msg::SamplerMsg;

/// The identity swizzle `.xyzw` (two bits per channel, x lowest).
pub const XYZW: u8 = 0xe4;

/// The swizzle that reads component `c` in every channel.
pub const fn replicate(c: u8) -> u8 {
    c * 0x55
}

/// Component read by channel `ch` of swizzle `s`.
pub const fn swz_get(s: u8, ch: u8) -> u8 {
    (s >> (2 * ch)) & 3
}

/// `outer` applied after `inner`: channel `ch` reads `inner`'s component `outer[ch]`.
pub fn swz_compose(inner: u8, outer: u8) -> u8 {
    (0..4).fold(0, |s, ch| {
        s | swz_get(inner, swz_get(outer, ch)) << (2 * ch)
    })
}

/// [`Op::TcsOutputHeader`]'s destination already holds zero, the patch handle in dwords 0
/// and 1 and a channel mask in dword 5.
pub const HEADER_BASE: u8 = 1;
/// [`Op::TcsOutputHeader`]'s destination already holds its channel mask (with
/// [`HEADER_BASE`]).
pub const HEADER_MASK: u8 = 2;
/// [`Op::TcsOutputHeader`]'s destination already holds its per-slot offsets in dwords 3 and
/// 4: the same source's, or zero when it has none (with [`HEADER_BASE`]).
pub const HEADER_OFFSETS: u8 = 4;

/// The three registers below the URB message registers that spill and fill messages are
/// built in (header, offsets, data); kept out of allocation once a program spills.
pub const SCRATCH_MSG: u32 = 109;

/// Patch slots a tessellation-evaluation thread has pushed at most (Mesa's vec4 TES pushes
/// the first 24: twelve registers); the others are read with URB read messages.
pub const MAX_PATCH_PUSH_SLOTS: u32 = 24;

/// Where an operand lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum File {
    /// No register (a null destination).
    Null,
    /// Virtual register `nr` (one GRF after allocation).
    Vgrf,
    /// Pushed vertex element `nr` (one payload GRF after the push constants).
    Attr,
    /// Push-constant vec4 `nr`: half `nr % 2` of payload GRF `1 + nr / 2`, read with a zero
    /// vertical stride so both vertices see it.
    Uniform,
    /// A tessellation-evaluation thread's pushed patch slot `nr`: half `nr % 2` of payload
    /// GRF `attr_base + nr / 2`, read with a zero vertical stride (both domain points of a
    /// thread belong to one patch), like a push constant.
    Patch,
    /// Immediate `imm`, the same in every channel.
    Imm,
    /// Hardware GRF `nr` (message registers, after allocation every register).
    Fixed,
}

/// A source operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Src {
    /// File.
    pub file: File,
    /// Register number in the file.
    pub nr: u32,
    /// Data type.
    pub ty: RegType,
    /// Align16 swizzle.
    pub swizzle: u8,
    /// Negate.
    pub negate: bool,
    /// Absolute value.
    pub abs: bool,
    /// Immediate bits ([`File::Imm`]).
    pub imm: u32,
}

impl Src {
    /// Register `nr` of `file`, read `.xyzw`.
    pub fn reg(file: File, nr: u32, ty: RegType) -> Src {
        Src {
            file,
            nr,
            ty,
            swizzle: XYZW,
            negate: false,
            abs: false,
            imm: 0,
        }
    }

    /// Virtual register `nr`.
    pub fn vgrf(nr: u32, ty: RegType) -> Src {
        Src::reg(File::Vgrf, nr, ty)
    }

    /// An immediate.
    pub fn imm(ty: RegType, bits: u32) -> Src {
        Src {
            imm: bits,
            ..Src::reg(File::Imm, 0, ty)
        }
    }

    /// The float immediate `v`.
    pub fn imm_f(v: f32) -> Src {
        Src::imm(RegType::F, v.to_bits())
    }

    /// The same operand read as `ty`.
    pub fn retype(self, ty: RegType) -> Src {
        Src { ty, ..self }
    }

    /// The same operand with `swizzle` applied on top of its own.
    pub fn swizzled(self, swizzle: u8) -> Src {
        Src {
            swizzle: swz_compose(self.swizzle, swizzle),
            ..self
        }
    }

    /// The operand negated.
    pub fn negated(self) -> Src {
        Src {
            negate: !self.negate,
            ..self
        }
    }

    /// Whether this reads a register a virtual register (as opposed to payload or immediate).
    pub fn is_vgrf(&self) -> bool {
        self.file == File::Vgrf
    }
}

/// A destination operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dst {
    /// [`File::Null`], [`File::Vgrf`] or [`File::Fixed`].
    pub file: File,
    /// Register number.
    pub nr: u32,
    /// Data type.
    pub ty: RegType,
    /// Channels written (bit 0 = x).
    pub writemask: u8,
}

impl Dst {
    /// Virtual register `nr`, channels `writemask`.
    pub fn vgrf(nr: u32, ty: RegType, writemask: u8) -> Dst {
        Dst {
            file: File::Vgrf,
            nr,
            ty,
            writemask,
        }
    }

    /// Hardware GRF `nr`.
    pub fn fixed(nr: u32, ty: RegType, writemask: u8) -> Dst {
        Dst {
            file: File::Fixed,
            nr,
            ty,
            writemask,
        }
    }

    /// The null register.
    pub fn null(ty: RegType) -> Dst {
        Dst {
            file: File::Null,
            nr: 0,
            ty,
            writemask: 0xf,
        }
    }

    /// The register read back as a source, `.xyzw`.
    pub fn as_src(&self) -> Src {
        Src::reg(self.file, self.nr, self.ty)
    }
}

/// What an instruction does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// A plain ALU instruction.
    Alu(Opcode),
    /// An extended-math function.
    Math(MathFn),
    /// The high dword of the 64-bit product of the two sources (their type, D or UD, says
    /// signed or not): `mul` into the accumulator, then `mach` (Mesa's `imul_high` and
    /// `umul_high` on Gen7).
    MulHigh,
    /// Builds the URB write header in its destination: g0 copied, then the channel-enable
    /// byte 0xff00 ORed into dword 5 (Mesa's `or(1) g.5 g0.5 0xff00`).
    UrbHeader,
    /// Keeps only the channels of `mask` (bit c: channel c, 0–7) in the channel-enable byte
    /// of the URB header in the destination (dword 5 bits 15:8, `and(1)`): a control-data
    /// write to one dword of an OWord (Mesa's `GS_OPCODE_SET_CHANNEL_MASKS`).
    UrbChannelMask {
        /// The channels kept.
        mask: u8,
    },
    /// A SIMD4x2 interleaved URB write: `mlen` registers from the (fixed) header register
    /// in `src[0]`, at URB row `offset`; `eot` ends the thread (and, in a vertex shader,
    /// marks the VUE complete).
    UrbWrite {
        /// Offset in 256-bit URB rows (128-bit slots for an OWord write).
        offset: u32,
        /// Message length in registers, header included.
        mlen: u32,
        /// Last write: end of thread.
        eot: bool,
        /// What kind of write (vertex, geometry vertex, control data, thread end).
        kind: UrbKind,
    },
    /// Geometry shaders: header dwords 3 and 4 (each object's per-slot offset, in 256-bit
    /// rows) = x of each object's half of `src[0]` × `hwords` (Mesa's
    /// `GS_OPCODE_SET_WRITE_OFFSET`: `mul(2)`, or `mov(2)` of the product of an immediate).
    GsWriteOffset {
        /// The multiplier (the output vertex size in 256-bit rows).
        hwords: u32,
    },
    /// Geometry shaders: header dword 2 = the two objects' vertex counts, the low words of
    /// x of each half of `src[0]` (Mesa's `GS_OPCODE_SET_VERTEX_COUNT`, `mov(2)` of words).
    GsVertexCount,
    /// Geometry shaders: g0.2 cleared, as the scratch messages built from g0 need it (Mesa's
    /// `GS_OPCODE_SET_DWORD_2` in the prolog).
    GsClearR0Dword2,
    /// Geometry shaders with instancing: each half's instance number, bits 31:27 of g0.0
    /// (first half) and g0.1 (second), into every component of the destination's half
    /// (Mesa's `GS_OPCODE_GET_INSTANCE_ID`, an align1 `shr(8)` of `g0<1,4,0>`).
    GsInstanceId,
    /// A pull-constant load: the sampler's SIMD4x2 `ld` from binding-table entry `surface`
    /// of the 16 bytes at the byte offset in `src[0]`'s x (per vertex) into the destination.
    /// When `indexed`, the entry is `surface` plus x of the first half of `src[1]` (from
    /// [`Op::Broadcast`]), put in the descriptor through the address register (a UBO array
    /// read at a run-time block index).
    PullLoad {
        /// Binding-table index (the base of a run-time one).
        surface: u32,
        /// The entry is offset by `src[1]`.
        indexed: bool,
    },
    /// The sampler message header in its (fixed) destination: g0 copied with every channel
    /// enabled, then the texel offsets `offset_bits` in dword 2 when not zero (Mesa's
    /// `generate_tex` on Gen7; the vertex stage's g0.2 is delivered as 0).
    SamplerHeader {
        /// Header dword 2: u, v, r offsets in bits 11:8, 7:4, 3:0.
        offset_bits: u32,
    },
    /// The enabled vertex a uniform value is read from (Mesa's `FIND_LIVE_CHANNEL` in
    /// align16): x of the destination's first half is 0 when the first vertex is enabled,
    /// else 1. Expands to a move of 1 with every channel and a move of 0 under the mask.
    FindLiveChannel,
    /// x of the destination's first half = x of `src[0]`'s half that x of `src[1]`'s first
    /// half names (0 or 1, from [`Op::FindLiveChannel`]; Mesa's SIMD4x2 `BROADCAST`: a
    /// flag from the index in f1.0 and a predicated `sel(4)` of the two halves).
    Broadcast,
    /// A SIMD4x2 sampler message: the message registers are the (fixed, consecutive)
    /// sources, header first when `header`; one reply register, four components per vertex.
    /// When `indexed`, a last source (x of its first half, from [`Op::Broadcast`]) is added
    /// to both `surface` and `sampler` through an address-register descriptor.
    Tex {
        /// Which message.
        msg: TexMsg,
        /// Binding-table index.
        surface: u32,
        /// Sampler state index.
        sampler: u32,
        /// A header leads the message.
        header: bool,
        /// A run-time index is the last source.
        indexed: bool,
    },
    /// Tessellation evaluation: the header of the patch URB reads in the destination (Mesa's
    /// `TES_OPCODE_CREATE_INPUT_READ_HEADER`): zero, every channel enabled in dword 5, the
    /// patch URB handle (g1.3) in dwords 0 and 1 for both domain points.
    TesInputHeader,
    /// Tessellation evaluation: `src[0]`'s header copied with each point's per-slot offset
    /// (x of each half of `src[1]`) in dwords 3 and 4 (Mesa's
    /// `TES_OPCODE_ADD_INDIRECT_URB_OFFSET`).
    TesIndirectOffset,
    /// A SIMD4x2 interleaved OWord URB read with per-slot offsets, from the header in
    /// `src[0]`: each point's slot `offset` + its per-slot offset into its half of the
    /// destination (Mesa's `VEC4_OPCODE_URB_READ`).
    UrbRead {
        /// Global offset in 128-bit slots.
        offset: u32,
    },
    /// Tessellation evaluation: the patch's primitive id (g1.7) in every channel (Mesa's
    /// `TES_OPCODE_GET_PRIMITIVE_ID`, an align1 move).
    TesPrimitiveId,
    /// Tessellation control: each half's invocation (output vertex) in its x: `2i` and
    /// `2i + 1` for instance `i`, from g0.2 bits 22:16 (Ivy Bridge) or 23:17 (Haswell)
    /// (Mesa's `TCS_OPCODE_GET_INSTANCE_ID`).
    TcsInstanceId,
    /// Tessellation control: the patch's primitive id (g0.1) in every channel (Mesa's
    /// `TCS_OPCODE_GET_PRIMITIVE_ID`).
    TcsPrimitiveId,
    /// Tessellation control: the header of a URB read from input vertices (Mesa's
    /// `VEC4_TCS_OPCODE_SET_INPUT_URB_OFFSETS`): every channel enabled, dwords 0 and 1 the
    /// ICP handles of the vertex each half names (`src[0]`: an immediate, or x of each
    /// half, gathered through the address register), dwords 3 and 4 each half's per-slot
    /// offset (x of each half of `src[1]`) when there is a second source.
    TcsInputHeader,
    /// Tessellation control: the header of a URB read or write of the patch entry (Mesa's
    /// `VEC4_TCS_OPCODE_SET_OUTPUT_URB_OFFSETS`): the channels of `mask` enabled in both
    /// halves, the patch handle (g0.0) in dwords 0 and 1, each half's per-slot offset (x of
    /// each half of `src[0]`) in dwords 3 and 4 when there is a source.
    TcsOutputHeader {
        /// The components written (bit c: component c).
        mask: u8,
        /// What the (fixed) destination already holds from the header before it, which is
        /// not written again ([`HEADER_BASE`], [`HEADER_MASK`], [`HEADER_OFFSETS`]; see
        /// `tcs_headers`); 0 builds the whole header.
        held: u8,
    },
    /// Tessellation control: the barrier message header (Mesa's
    /// `TCS_OPCODE_CREATE_BARRIER_HEADER`): the barrier id from g0.2, the thread count
    /// `instances` and the enable bit in dword 2.
    TcsBarrierHeader {
        /// Threads per patch meeting at the barrier.
        instances: u32,
    },
    /// A message-gateway barrier from the header in `src[0]` (Mesa's `SHADER_OPCODE_BARRIER`).
    Barrier,
    /// Tessellation control: the input vertices `vertex` and `vertex + 1` released (Mesa's
    /// `TCS_OPCODE_RELEASE_INPUT`: a URB OWord read marked complete, no reply, from their two
    /// ICP handles; one handle, not interleaved, when `unpaired`). The header is built in
    /// the (fixed) destination.
    TcsReleaseInput {
        /// The first vertex of the pair.
        vertex: u32,
        /// The last vertex of an odd count, alone.
        unpaired: bool,
    },
    /// Tessellation control: the end of the thread (Mesa's `TCS_OPCODE_THREAD_END`): a
    /// masked OWord write of zero to header dword 0 of the patch entry, with EOT; the message
    /// is built in the (fixed) destination and the register after it.
    TcsThreadEnd,
    /// An untyped atomic on binding-table entry `surface` (Mesa's
    /// `VEC4_OPCODE_UNTYPED_ATOMIC`): the message registers are the (fixed, consecutive)
    /// sources, the address in x of each half, then for an operation with an operand that
    /// operand in x of each half of the next; the old value into x of each half of the
    /// destination, or nothing to a null destination. Codegen picks the message: Haswell's
    /// SIMD4x2 atomic, Ivy Bridge's SIMD8 one narrowed to channels 0 and 4 by the `.x` mask.
    UntypedAtomic {
        /// Binding-table index.
        surface: u32,
        /// The operation (`BRW_AOP_*`, [`crate::intel::msg::aop`]).
        aop: u32,
    },
    /// Register spilling: writes all of `src[0]` to scratch slot `slot` (an OWord per vertex,
    /// at OWords `2 slot` and `2 slot + 1`) with an OWord dual block write; expands to the
    /// message setup in the registers from [`SCRATCH_MSG`] and the send.
    ScratchWrite {
        /// Spill slot.
        slot: u32,
    },
    /// Register filling: reads scratch slot `slot` (as for [`Op::ScratchWrite`]) into the
    /// destination with an OWord dual block read.
    ScratchRead {
        /// Spill slot.
        slot: u32,
    },
    /// `if` on the flag (predicated).
    If,
    /// `else`.
    Else,
    /// `endif`.
    EndIf,
    /// Start of a loop (emits nothing on Gen6+).
    Do,
    /// Loop back edge.
    While,
    /// `break` (predicated or not).
    Break,
    /// `continue`.
    Continue,
}

/// What a URB write is, which decides its descriptor bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UrbKind {
    /// A vertex shader's VUE: the last write is `complete`.
    Vertex,
    /// A Gen4-5 vertex shader's VUE: as `Vertex`, the message not padded to whole rows.
    Gen4Vertex,
    /// A geometry shader's vertex: an HWord write with per-slot offsets.
    GsVertex,
    /// A geometry shader's control data (cut bits or stream ids): an OWord write.
    GsControl,
    /// A geometry thread's end: the header alone, with the vertex counts.
    GsEnd,
    /// A tessellation-control write to the patch entry: an OWord write with per-slot
    /// offsets and channel masks, the header and one data register.
    TcsOutput,
}

/// The SIMD4x2 sampler messages the vertex stage sends (Gen5+ message types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TexMsg {
    /// `sample_l`: u v r in the first parameter register, the level in x of the second.
    SampleL,
    /// `sample_l_c`: the reference in x and the level in y of the second register.
    SampleLC,
    /// `ld`: integer u v r and the level in w of one register.
    Ld,
    /// `resinfo`: the level in x; width, height, depth, levels back.
    Resinfo,
}

impl TexMsg {
    /// The sampler message type.
    pub fn msg_type(self) -> u32 {
        match self {
            TexMsg::SampleL => SamplerMsg::SAMPLE_L,
            TexMsg::SampleLC => SamplerMsg::SAMPLE_L_C,
            TexMsg::Ld => SamplerMsg::LD,
            TexMsg::Resinfo => SamplerMsg::RESINFO,
        }
    }

    /// Mesa's disassembly name.
    pub fn name(self) -> &'static str {
        match self {
            TexMsg::SampleL => "sample_l",
            TexMsg::SampleLC => "sample_l_c",
            TexMsg::Ld => "ld",
            TexMsg::Resinfo => "resinfo",
        }
    }
}

impl Op {
    /// Whether the instruction is a message to a shared function (a SEND).
    pub fn is_send(&self) -> bool {
        matches!(
            self,
            Op::UrbWrite { .. }
                | Op::UrbRead { .. }
                | Op::PullLoad { .. }
                | Op::Tex { .. }
                | Op::ScratchWrite { .. }
                | Op::ScratchRead { .. }
                | Op::Barrier
                | Op::TcsReleaseInput { .. }
                | Op::TcsThreadEnd
                | Op::UntypedAtomic { .. }
        )
    }

    /// Control flow.
    pub fn is_flow(&self) -> bool {
        matches!(
            self,
            Op::If | Op::Else | Op::EndIf | Op::Do | Op::While | Op::Break | Op::Continue
        )
    }
}

/// One instruction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Inst {
    /// Operation.
    pub op: Op,
    /// Destination.
    pub dst: Dst,
    /// Sources.
    pub src: Vec<Src>,
    /// Predicated on f0 (per channel); `Some(true)` inverts it.
    pub pred: Option<bool>,
    /// Predicate control when predicated: 1 = each channel its own flag bit, 6/7 = any/all
    /// of its vertex's four (align16 `any4h`/`all4h`).
    pub pred_ctrl: u8,
    /// Conditional modifier (writes f0).
    pub cmod: CondMod,
    /// Saturate.
    pub sat: bool,
}

impl Inst {
    /// An instruction with no predicate, modifier or saturation.
    pub fn new(op: Op, dst: Dst, src: Vec<Src>) -> Inst {
        Inst {
            op,
            dst,
            src,
            pred: None,
            pred_ctrl: 1,
            cmod: CondMod::None,
            sat: false,
        }
    }

    /// Whether the instruction does more than write its destination (flow, flags, messages).
    pub fn has_side_effects(&self) -> bool {
        self.op.is_flow()
            || matches!(
                self.op,
                Op::UrbWrite { .. }
                    | Op::UrbHeader
                    | Op::SamplerHeader { .. }
                    | Op::ScratchWrite { .. }
                    | Op::GsWriteOffset { .. }
                    | Op::GsVertexCount
                    | Op::GsClearR0Dword2
                    | Op::Barrier
                    | Op::TcsBarrierHeader { .. }
                    | Op::TcsReleaseInput { .. }
                    | Op::TcsThreadEnd
                    | Op::UntypedAtomic { .. }
            )
            || (matches!(
                self.op,
                Op::PullLoad { .. } | Op::Tex { .. } | Op::FindLiveChannel | Op::Broadcast
            ) && self.dst.file != File::Vgrf)
            || self.cmod != CondMod::None
            || self.dst.file == File::Fixed
    }

    /// The components of source `i`'s register this instruction reads, as a mask (bit 0 =
    /// x): channel `ch` of a per-channel operation reads component `swizzle[ch]` for each
    /// channel it writes; a dot product reads its first two, three or four channels whatever
    /// it writes (DPH: three of the first source, four of the second), a pull load its
    /// offset's x, and other messages every channel.
    pub fn components_read(&self, i: usize) -> u8 {
        let channels = match self.op {
            Op::Alu(Opcode::Dp4) => 0xf,
            Op::Alu(Opcode::Dp3) => 0x7,
            Op::Alu(Opcode::Dp2) => 0x3,
            Op::Alu(Opcode::Dph) if i == 0 => 0x7,
            Op::Alu(Opcode::Dph | Opcode::Send) => 0xf,
            Op::Alu(_) | Op::Math(_) | Op::MulHigh if self.dst.file != File::Null => {
                self.dst.writemask
            }
            // The sampler's SIMD4x2 `ld` takes its offset from each vertex's x, as the GS
            // header fields their counts.
            Op::PullLoad { .. } | Op::GsWriteOffset { .. } | Op::GsVertexCount | Op::Broadcast => {
                0x1
            }
            Op::TesIndirectOffset if i == 1 => 0x1,
            Op::TcsInputHeader | Op::TcsOutputHeader { .. } => 0x1,
            Op::Tex { indexed: true, .. } if i + 1 == self.src.len() => 0x1,
            _ => 0xf,
        };
        let swizzle = self.src[i].swizzle;
        (0..4u8)
            .filter(|ch| channels >> ch & 1 != 0)
            .fold(0, |m, ch| m | 1 << swz_get(swizzle, ch))
    }

    /// Whether this is a plain whole-value copy `mov dst, src` with no modifiers.
    pub fn is_raw_mov(&self) -> bool {
        self.op == Op::Alu(Opcode::Mov)
            && self.pred.is_none()
            && self.cmod == CondMod::None
            && !self.sat
            && !self.src[0].negate
            && !self.src[0].abs
            && same_bits(self.src[0].ty, self.dst.ty)
    }
}

/// Whether a `mov` from `a` to `b` copies the bits unchanged: the same type, or two dword
/// integer types (a float-integer mov converts).
fn same_bits(a: RegType, b: RegType) -> bool {
    a == b || matches!((a, b), (RegType::D | RegType::UD, RegType::D | RegType::UD))
}

/// A vec4 program: straight-line instructions with structured control flow markers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Program {
    /// Instructions in order.
    pub insts: Vec<Inst>,
    /// Virtual registers allocated so far.
    pub num_vgrfs: u32,
    /// Attribute elements are interleaved (two per register, read with a zero vertical
    /// stride, as push constants are): three-source instructions cannot read them.
    pub interleaved_attrs: bool,
}

impl Program {
    /// Drops the instructions whose entry in `marked` is set (one entry per instruction).
    pub fn remove_marked(&mut self, marked: &[bool]) {
        let mut k = 0;
        self.insts.retain(|_| {
            k += 1;
            !marked[k - 1]
        });
    }

    /// A fresh virtual register.
    pub fn vgrf(&mut self) -> u32 {
        self.num_vgrfs += 1;
        self.num_vgrfs - 1
    }
}

fn swz_text(s: u8) -> String {
    if s == XYZW {
        return String::new();
    }
    let c = |i: u8| ['x', 'y', 'z', 'w'][swz_get(s, i) as usize];
    format!(".{}{}{}{}", c(0), c(1), c(2), c(3))
}

fn mask_text(m: u8) -> String {
    if m == 0xf {
        return String::new();
    }
    let s: String = (0..4)
        .filter(|i| m >> i & 1 != 0)
        .map(|i| ['x', 'y', 'z', 'w'][i])
        .collect();
    format!(".{s}")
}

impl fmt::Display for Src {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let body = match self.file {
            File::Imm => return write!(f, "{:#x}{}", self.imm, self.ty),
            File::Null => "null".to_string(),
            File::Vgrf => format!("v{}", self.nr),
            File::Attr => format!("attr{}", self.nr),
            File::Uniform => format!("u{}", self.nr),
            File::Patch => format!("patch{}", self.nr),
            File::Fixed => format!("g{}", self.nr),
        };
        let body = format!("{body}{}{}", swz_text(self.swizzle), self.ty);
        let body = if self.abs { format!("|{body}|") } else { body };
        write!(f, "{}{body}", if self.negate { "-" } else { "" })
    }
}

impl fmt::Display for Dst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.file {
            File::Null => write!(f, "null{}", self.ty),
            File::Fixed => write!(f, "g{}{}{}", self.nr, mask_text(self.writemask), self.ty),
            _ => write!(f, "v{}{}{}", self.nr, mask_text(self.writemask), self.ty),
        }
    }
}

impl fmt::Display for Inst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(inv) = self.pred {
            let ctrl = match self.pred_ctrl {
                6 => ".any4h",
                7 => ".all4h",
                _ => "",
            };
            write!(f, "({}f0{ctrl}) ", if inv { "-" } else { "+" })?;
        }
        let name = match self.op {
            Op::Alu(o) => o.name().to_string(),
            Op::Math(m) => format!("math {}", m.name()),
            Op::MulHigh => "mul_high".into(),
            Op::UrbHeader => "urb_header".into(),
            Op::PullLoad { surface, indexed } => format!(
                "pull_load(bti {surface}{})",
                if indexed { " +index" } else { "" }
            ),
            Op::ScratchWrite { slot } => format!("scratch_write(slot {slot})"),
            Op::UntypedAtomic { surface, aop } => {
                format!("untyped_atomic(bti {surface} op {aop})")
            }
            Op::ScratchRead { slot } => format!("scratch_read(slot {slot})"),
            Op::SamplerHeader { offset_bits } => format!("sampler_header({offset_bits:#x})"),
            Op::Tex {
                msg,
                surface,
                sampler,
                header,
                indexed,
            } => format!(
                "{}(bti {surface} sampler {sampler}{}{})",
                msg.name(),
                if header { " header" } else { "" },
                if indexed { " +index" } else { "" }
            ),
            Op::FindLiveChannel => "find_live_channel".into(),
            Op::Broadcast => "broadcast".into(),
            Op::UrbWrite {
                offset,
                mlen,
                eot,
                kind,
            } => {
                format!(
                    "urb_write{}(off {offset} mlen {mlen}{})",
                    match kind {
                        UrbKind::Vertex => "",
                        UrbKind::Gen4Vertex => "_gen4",
                        UrbKind::GsVertex => "_per_slot",
                        UrbKind::GsControl => "_oword",
                        UrbKind::GsEnd => "_gs_end",
                        UrbKind::TcsOutput => "_tcs",
                    },
                    if eot { " eot" } else { "" }
                )
            }
            Op::GsWriteOffset { hwords } => format!("gs_write_offset(x{hwords})"),
            Op::GsVertexCount => "gs_vertex_count".into(),
            Op::GsClearR0Dword2 => "gs_clear_r0.2".into(),
            Op::GsInstanceId => "gs_instance_id".into(),
            Op::UrbChannelMask { mask } => format!("urb_channel_mask({mask:#04x})"),
            Op::TesInputHeader => "tes_input_header".into(),
            Op::TesIndirectOffset => "tes_indirect_offset".into(),
            Op::UrbRead { offset } => format!("urb_read(off {offset})"),
            Op::TesPrimitiveId => "tes_primitive_id".into(),
            Op::TcsInstanceId => "tcs_instance_id".into(),
            Op::TcsPrimitiveId => "tcs_primitive_id".into(),
            Op::TcsInputHeader => "tcs_input_header".into(),
            Op::TcsOutputHeader { mask, held: 0 } => format!("tcs_output_header({mask:#x})"),
            Op::TcsOutputHeader { mask, held } => {
                format!("tcs_output_header({mask:#x} held {held:#x})")
            }
            Op::TcsBarrierHeader { instances } => format!("tcs_barrier_header({instances})"),
            Op::Barrier => "barrier".into(),
            Op::TcsReleaseInput { vertex, unpaired } => format!(
                "tcs_release_input({vertex}{})",
                if unpaired { " unpaired" } else { "" }
            ),
            Op::TcsThreadEnd => "tcs_thread_end".into(),
            Op::If => "if".into(),
            Op::Else => "else".into(),
            Op::EndIf => "endif".into(),
            Op::Do => "do".into(),
            Op::While => "while".into(),
            Op::Break => "break".into(),
            Op::Continue => "continue".into(),
        };
        write!(f, "{name}")?;
        if self.sat {
            write!(f, ".sat")?;
        }
        if self.cmod != CondMod::None {
            write!(f, ".{}", self.cmod.suffix())?;
        }
        if self.op.is_flow() {
            return Ok(());
        }
        write!(f, " {}", self.dst)?;
        for s in &self.src {
            write!(f, ", {s}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in &self.insts {
            writeln!(f, "{i}")?;
        }
        Ok(())
    }
}

crate::intel::flow::impl_flow_inst!(Inst, Op);
