//! The scalar backend's IR: one instruction list per shader, at one dispatch width, with
//! structured control flow kept as marker instructions (IF/ELSE/ENDIF, DO/WHILE, BREAK,
//! CONTINUE) so the hardware's SIMD control flow maps one to one.
//!
//! Operands name virtual GRFs (sized in whole registers), fixed hardware registers, immediates,
//! push-constant slots and attribute setup data. Logical instructions (LOAD_PAYLOAD, FB_WRITE,
//! TEX) carry their operands unlowered until the passes in `lower` turn them into moves and
//! sends that codegen can emit one for one.

use std::fmt;

use crate::intel::eu::types::sfid;
use crate::intel::eu::{CondMod, MathFn, Opcode, RegType, Region};

/// Bytes in one general register.
pub const REG_SIZE: u32 = 32;

/// Where an operand lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum File {
    /// No operand.
    Bad,
    /// A virtual register; `nr` indexes [`Program::vgrf_sizes`].
    Vgrf,
    /// A hardware GRF fixed before allocation (payload registers).
    Fixed,
    /// An immediate; the bits are in [`Reg::imm`].
    Imm,
    /// A push-constant dword; `nr` is the dword slot in the push layout.
    Uniform,
    /// Attribute setup data; `nr` is the input slot, the component is `offset / 16`.
    Attr,
    /// The null register.
    Null,
    /// A Gen4–6 message register.
    Mrf,
}

/// An operand: a region of a register file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Reg {
    /// Register file.
    pub file: File,
    /// Register number in its file.
    pub nr: u32,
    /// Byte offset from the start of the register.
    pub offset: u32,
    /// Element type.
    pub ty: RegType,
    /// Element stride; 0 reads one element for every channel.
    pub stride: u8,
    /// Negate source modifier.
    pub neg: bool,
    /// Absolute-value source modifier.
    pub abs: bool,
    /// Immediate bits.
    pub imm: u64,
    /// An explicit source region for the rare reads that a stride cannot say (quad
    /// broadcasts for derivatives, subspan coordinates).
    pub region: Option<Region>,
}

impl Reg {
    /// No operand.
    pub const BAD: Reg = Reg {
        file: File::Bad,
        nr: 0,
        offset: 0,
        ty: RegType::UD,
        stride: 1,
        neg: false,
        abs: false,
        imm: 0,
        region: None,
    };

    /// A full-width region of virtual register `nr`.
    pub fn vgrf(nr: u32, ty: RegType) -> Reg {
        Reg {
            file: File::Vgrf,
            nr,
            ty,
            ..Reg::BAD
        }
    }

    /// A fixed hardware register region.
    pub fn fixed(nr: u32, offset: u32, ty: RegType, stride: u8) -> Reg {
        Reg {
            file: File::Fixed,
            nr,
            offset,
            ty,
            stride,
            ..Reg::BAD
        }
    }

    /// A 32-bit immediate.
    pub fn imm(ty: RegType, bits: u32) -> Reg {
        Reg {
            file: File::Imm,
            ty,
            stride: 0,
            imm: bits as u64,
            ..Reg::BAD
        }
    }

    /// A float immediate.
    pub fn imm_f(v: f32) -> Reg {
        Reg::imm(RegType::F, v.to_bits())
    }

    /// The null destination.
    pub fn null(ty: RegType) -> Reg {
        Reg {
            file: File::Null,
            ty,
            ..Reg::BAD
        }
    }

    /// The same region read as `ty` (same byte layout).
    pub fn retype(mut self, ty: RegType) -> Reg {
        self.ty = ty;
        self
    }

    /// The region `n` whole registers further on.
    pub fn reg_offset(mut self, n: u32) -> Reg {
        self.offset += n * REG_SIZE;
        self
    }

    /// The region starting `channels` channels further on (scalars stay put).
    pub fn horiz_offset(mut self, channels: u32) -> Reg {
        self.offset += channels * self.stride as u32 * self.ty.size();
        self
    }

    /// Negated copy.
    pub fn negate(mut self) -> Reg {
        self.neg = !self.neg;
        self
    }

    /// Absolute-value copy.
    pub fn absolute(mut self) -> Reg {
        self.abs = true;
        self.neg = false;
        self
    }

    /// Registers touched by `channels` channels of this region.
    pub fn regs_read(&self, channels: u32) -> u32 {
        match self.file {
            File::Imm | File::Bad | File::Null | File::Uniform | File::Attr => 0,
            _ => {
                let bytes = if self.stride == 0 {
                    self.ty.size()
                } else {
                    channels * self.stride as u32 * self.ty.size()
                };
                let start = self.offset % REG_SIZE;
                (start + bytes).div_ceil(REG_SIZE)
            }
        }
    }

    /// Whether this operand is a virtual register.
    pub fn is_vgrf(&self) -> bool {
        self.file == File::Vgrf
    }
}

/// A sampler message kind (the logical texture opcode).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TexKind {
    /// Implicit-derivative sample.
    Sample,
    /// Sample with LOD bias.
    SampleB,
    /// Sample at an explicit LOD.
    SampleL,
    /// Shadow-compare sample.
    SampleC,
    /// Shadow compare at an explicit LOD.
    SampleLC,
    /// Sample with explicit derivatives.
    SampleD,
    /// Texel fetch.
    Ld,
    /// Size query.
    Resinfo,
}

/// What an instruction does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// A hardware ALU opcode emitted as is.
    Alu(Opcode),
    /// Extended math.
    Math(MathFn),
    /// Gathers `header_size` one-register header sources then full-width sources into
    /// consecutive registers of the destination.
    LoadPayload,
    /// Render-target write: sources are the colour components (4), then optional depth.
    FbWrite {
        /// Render target index.
        target: u8,
        /// Whether this is the last write of the thread.
        last: bool,
    },
    /// Sampler message: sources are the message parameters in payload order.
    Tex {
        /// Message kind.
        kind: TexKind,
        /// Binding-table index of the surface.
        surface: u8,
        /// Sampler index.
        sampler: u8,
        /// The last source is a run-time array index, the same in every channel (see
        /// [`Op::Uniformize`]), added to both `surface` and `sampler`: an element of a
        /// sampler array.
        indexed: bool,
    },
    /// A lowered send: `src[0]` is the payload, `desc`/`sfid` in the instruction. A second,
    /// scalar source makes it an indexed sampler message: that dword is added to the
    /// binding-table (bits 7:0) and sampler (bits 11:8) indices of `desc` at run time, through
    /// the address register the hardware takes a descriptor from.
    Send,
    /// The value `src[0]` holds in the first enabled channel, as one dword for all channels
    /// (`dst` is a one-register scalar). A sampler-array index that GLSL requires to be
    /// dynamically uniform is still a per-channel value in NIR; this is how it becomes a
    /// scalar a message descriptor can use (Mesa's FIND_LIVE_CHANNEL + BROADCAST).
    Uniformize,
    /// `src[0]` in the channels the execution mask enables and `src[1]` (an immediate) in
    /// the others: a write-all MOV of `src[1]` then a masked MOV of `src[0]` (Mesa's
    /// SEL_EXEC). One instruction, so that every pass sees one complete definition of `dst`;
    /// the allocator keeps `dst` apart from `src[0]`, which the first MOV would overwrite.
    SelExec,
    /// A move of a 32-bit immediate the driver patches after compilation (Mesa's
    /// MOV_RELOC_IMM), such as the address of the shader's constant data. It is not a MOV so
    /// that no pass propagates the placeholder immediate away from its relocation.
    MovRelocImm {
        /// Relocation id (Mesa's `brw_shader_reloc_id`).
        id: u32,
    },
    /// The high 32 bits of the 64-bit product of `src[0]` and `src[1]` (NIR's `umul_high` when
    /// the destination is UD, `imul_high` when it is D). It stays one instruction through the
    /// passes, a pure function of its sources like MATH, and codegen emits it as the
    /// hardware's pair `mul acc0, a, b` + `mach dst, a, b` (brw's MULH), so that nothing
    /// between the two can disturb the accumulator and no pass has to know about that
    /// implicit operand. At most 8 channels at a time: the accumulator holds eight dwords at
    /// full precision. `src[0]` is a register, `src[1]` a register or an immediate, neither
    /// with a source modifier.
    MulHigh,
    /// Fine y derivative: `src[0]` minus `src[1]` read as the lower and upper pixel rows of
    /// each subspan (an align16 ADD with .zwzw / .xyxy swizzles).
    DdyFine,
    /// Structured control flow.
    If,
    /// Structured control flow.
    Else,
    /// Structured control flow.
    EndIf,
    /// Loop start (no hardware instruction on Gen6+).
    Do,
    /// Loop end and back edge.
    While,
    /// Leave the innermost loop.
    Break,
    /// Next iteration of the innermost loop.
    Continue,
}

impl Op {
    /// Whether this marks or changes control flow.
    pub fn is_flow(self) -> bool {
        matches!(
            self,
            Op::If | Op::Else | Op::EndIf | Op::Do | Op::While | Op::Break | Op::Continue
        )
    }

    /// Whether this becomes a message to a shared function.
    pub fn is_send(self) -> bool {
        matches!(self, Op::FbWrite { .. } | Op::Tex { .. } | Op::Send)
    }
}

/// One backend instruction.
#[derive(Debug, PartialEq)]
pub struct Inst {
    /// Operation.
    pub op: Op,
    /// Channels executed.
    pub exec_size: u8,
    /// First channel (multiple of the exec size where the hardware needs it; 8 = second half).
    pub group: u8,
    /// Execute regardless of the execution mask.
    pub we_all: bool,
    /// Predicated on flag subregister `flag_subnr`; `Some(true)` inverts.
    pub pred: Option<bool>,
    /// Flag subregister used by `pred` and `cmod`, in 16-bit units: f0.0 = 0, f0.1 = 1,
    /// f1.0 = 2, f1.1 = 3. An instruction of channel group 16 reaches the subregister's
    /// next 16 bits, as the hardware offsets flag bits by the group.
    pub flag_subnr: u8,
    /// Conditional modifier.
    pub cmod: CondMod,
    /// Saturate.
    pub sat: bool,
    /// Destination.
    pub dst: Reg,
    /// Sources.
    pub src: Vec<Reg>,
    /// LOAD_PAYLOAD: number of leading one-register header sources.
    pub header_size: u8,
    /// Sends: message length in registers.
    pub mlen: u8,
    /// Sends: response length in registers.
    pub rlen: u8,
    /// Sends: message descriptor.
    pub desc: u32,
    /// Sends: shared-function id.
    pub sfid: u8,
    /// Sends: end of thread.
    pub eot: bool,
    /// Gen4/5: the destination is a COMPR4 message register (colour sources interleaved).
    pub compr4: bool,
}

/// Every field but the sources is `Copy`; `clone_from` keeps the destination's source
/// buffer, so a program copied into a kept buffer (the optimizer's start-of-round snapshot)
/// allocates nothing once it has grown.
impl Clone for Inst {
    fn clone(&self) -> Inst {
        Inst {
            src: self.src.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, other: &Inst) {
        let mut src = std::mem::take(&mut self.src);
        src.clone_from(&other.src);
        *self = Inst { src, ..*other };
    }
}

impl Inst {
    /// An instruction with the given operands and default controls.
    pub fn new(op: Op, exec_size: u8, dst: Reg, src: Vec<Reg>) -> Inst {
        Inst {
            op,
            exec_size,
            group: 0,
            we_all: false,
            pred: None,
            flag_subnr: 0,
            cmod: CondMod::None,
            sat: false,
            dst,
            src,
            header_size: 0,
            mlen: 0,
            rlen: 0,
            desc: 0,
            sfid: sfid::NULL,
            eot: false,
            compr4: false,
        }
    }

    /// Registers written by the destination.
    pub fn regs_written(&self) -> u32 {
        match self.op {
            Op::Send | Op::Tex { .. } if self.rlen > 0 => self.rlen as u32,
            Op::Uniformize => 1,
            Op::LoadPayload => {
                let w = self.exec_size as u32 * self.dst.ty.size();
                let per = w.div_ceil(REG_SIZE);
                self.header_size as u32 + (self.src.len() as u32 - self.header_size as u32) * per
            }
            _ if self.dst.file == File::Null || self.dst.file == File::Bad => 0,
            _ => self.dst.regs_read(self.exec_size as u32),
        }
    }

    /// Whether this is a MOV that only copies: no predicate, condition, saturation or source
    /// modifier (types and regions are the caller's to check).
    pub fn is_unmodified_mov(&self) -> bool {
        self.op == Op::Alu(Opcode::Mov)
            && self.src.len() == 1
            && self.pred.is_none()
            && self.cmod == CondMod::None
            && !self.sat
            && !self.src[0].neg
            && !self.src[0].abs
    }

    /// Whether the destination fully overwrites the registers it touches for every channel
    /// (no predicate, stride 1, register aligned, a whole number of registers).
    pub fn is_full_write(&self) -> bool {
        self.pred.is_none()
            && (self.dst.offset % REG_SIZE == 0)
            && (self.dst.stride == 1)
            && (self.exec_size as u32 * self.dst.ty.size()) % REG_SIZE == 0
    }
}

/// A shader in the backend IR.
#[derive(Debug, Default)]
pub struct Program {
    /// Instructions in program order.
    pub insts: Vec<Inst>,
    /// Size in registers of each virtual GRF.
    pub vgrf_sizes: Vec<u32>,
    /// The thread's enabled channels are exactly the dispatched ones, from channel 0 up, with
    /// no helper invocations (vertex threads; Mesa's `brw_stage_has_packed_dispatch`): on
    /// Gen8+ the first live channel is the lowest bit of the channel-enable register ce0.
    pub packed_dispatch: bool,
}

/// `clone_from` reuses the destination's buffers (see [`Inst`]'s).
impl Clone for Program {
    fn clone(&self) -> Program {
        Program {
            insts: self.insts.clone(),
            vgrf_sizes: self.vgrf_sizes.clone(),
            packed_dispatch: self.packed_dispatch,
        }
    }

    fn clone_from(&mut self, other: &Program) {
        self.insts.clone_from(&other.insts);
        self.vgrf_sizes.clone_from(&other.vgrf_sizes);
        self.packed_dispatch = other.packed_dispatch;
    }
}

impl Program {
    /// How many sources read each VGRF, indexed by VGRF number: the passes that rewrite a
    /// value's only reader need to know it is the only one.
    pub fn vgrf_read_counts(&self) -> Vec<u32> {
        let mut reads = vec![0u32; self.vgrf_sizes.len()];
        for inst in &self.insts {
            for s in &inst.src {
                if s.file == File::Vgrf {
                    if let Some(n) = reads.get_mut(s.nr as usize) {
                        *n += 1;
                    }
                }
            }
        }
        reads
    }

    /// Allocates a virtual GRF of `regs` registers.
    pub fn alloc(&mut self, regs: u32) -> u32 {
        self.vgrf_sizes.push(regs.max(1));
        self.vgrf_sizes.len() as u32 - 1
    }
}

fn type_suffix(ty: RegType) -> &'static str {
    ty.letters()
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.neg {
            f.write_str("-")?;
        }
        if self.abs {
            f.write_str("|")?;
        }
        match self.file {
            File::Bad => f.write_str("(none)")?,
            File::Null => f.write_str("null")?,
            File::Imm => write!(f, "{:#x}", self.imm)?,
            File::Vgrf => {
                write!(f, "vgrf{}", self.nr)?;
                if self.offset != 0 {
                    write!(f, "+{}", self.offset)?;
                }
            }
            File::Fixed => write!(f, "g{}.{}", self.nr, self.offset / self.ty.size())?,
            File::Mrf => write!(f, "m{}.{}", self.nr, self.offset / self.ty.size())?,
            File::Uniform => write!(f, "u{}", self.nr)?,
            File::Attr => write!(f, "attr{}.{}", self.nr, self.offset / 16)?,
        }
        if self.abs {
            f.write_str("|")?;
        }
        if self.file != File::Imm && self.file != File::Null && self.stride != 1 {
            write!(f, "<{}>", self.stride)?;
        }
        write!(f, ":{}", type_suffix(self.ty))
    }
}

impl fmt::Display for Inst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(inv) = self.pred {
            write!(
                f,
                "({}f{}.{}) ",
                if inv { "-" } else { "+" },
                self.flag_subnr / 2,
                self.flag_subnr % 2
            )?;
        }
        match self.op {
            Op::Alu(o) => f.write_str(o.name())?,
            Op::Math(m) => write!(f, "math.{m:?}")?,
            Op::LoadPayload => f.write_str("load_payload")?,
            Op::FbWrite { target, last } => {
                write!(f, "fb_write.rt{target}{}", if last { ".last" } else { "" })?
            }
            Op::Tex {
                kind,
                surface,
                sampler,
                indexed,
            } => write!(
                f,
                "tex.{kind:?}.t{surface}.s{sampler}{}",
                if indexed { "+idx" } else { "" }
            )?,
            Op::Send => write!(f, "send.sfid{}.{:#x}", self.sfid, self.desc)?,
            Op::DdyFine => f.write_str("ddy_fine")?,
            Op::MulHigh => f.write_str("mulh")?,
            Op::Uniformize => f.write_str("uniformize")?,
            Op::SelExec => f.write_str("sel_exec")?,
            Op::MovRelocImm { id } => write!(f, "mov_reloc_imm.id{id}")?,
            Op::If => f.write_str("if")?,
            Op::Else => f.write_str("else")?,
            Op::EndIf => f.write_str("endif")?,
            Op::Do => f.write_str("do")?,
            Op::While => f.write_str("while")?,
            Op::Break => f.write_str("break")?,
            Op::Continue => f.write_str("continue")?,
        }
        if self.cmod != CondMod::None {
            write!(f, ".{}", self.cmod.suffix().trim_start_matches('.'))?;
        }
        if self.sat {
            f.write_str(".sat")?;
        }
        write!(f, "({}", self.exec_size)?;
        if self.group != 0 {
            write!(f, "@{}", self.group)?;
        }
        f.write_str(")")?;
        if self.dst.file != File::Bad {
            write!(f, " {}", self.dst)?;
        }
        for s in &self.src {
            write!(f, ", {s}")?;
        }
        if self.we_all {
            f.write_str(" NoMask")?;
        }
        if self.header_size > 0 {
            write!(f, " header={}", self.header_size)?;
        }
        if self.mlen > 0 || self.rlen > 0 {
            write!(f, " mlen={} rlen={}", self.mlen, self.rlen)?;
        }
        if self.compr4 {
            f.write_str(" COMPR4")?;
        }
        if self.eot {
            f.write_str(" EOT")?;
        }
        Ok(())
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (ip, i) in self.insts.iter().enumerate() {
            writeln!(f, "{ip:4}: {i}")?;
        }
        Ok(())
    }
}

crate::intel::flow::impl_flow_inst!(Inst, Op);
