//! Allocated vec4 IR → align16 EU instructions, with jump distances resolved.
//!
//! Flow-control instructions are taken from templates the device's assembler produced (their
//! hidden operands differ by generation), as the scalar backend does.

use crate::intel::eu::types::sfid;
use crate::intel::eu::{
    self, AccessMode, Branch, CondMod, Dst, Imm, Message, Opcode, Predicate, RegFile, RegSrc,
    RegType, Region, Src as EuSrc, ThreadCtrl,
};
use crate::intel::msg::{
    self, dc, DataPortDesc, GatewayDesc, Gen4DpReadDesc, Lengths, MathDesc, SamplerDesc,
    SamplerMsg, SimdMode, UrbDesc,
};
use crate::intel::DevInfo;

use super::gen4::MATH_MRF;
use super::gen6::PULL_MSG;
use super::ir::{
    replicate, swz_get, File, Inst, Op, Program, Src, TexMsg, HEADER_BASE, HEADER_MASK,
    HEADER_OFFSETS, SCRATCH_MSG,
};
use super::urb::urb_desc;
use super::CompileError;
use crate::intel::flow::FlowTemplates;

/// Predicate control `.x` of align16: every channel tests its vertex's x flag bit (what an
/// IF on a scalar condition uses, as Mesa emits `(+f0.0.x) if`).
const PRED_ALIGN16_X: u8 = 2;

/// Binding-table index of the scratch space on Gen7 (Mesa's `brw_scratch_surface_idx`).
const SCRATCH_BTI: u32 = 255;

/// Descriptor of a Gen7 data-cache OWord dual block write of one OWord per block to scratch:
/// the header, the offsets and one data register (Mesa's `generate_scratch_write`; its
/// assembly shows 0x060a80ff).
pub fn scratch_write_desc(ver: u32) -> u32 {
    let len = Lengths::new(3, 0, true);
    DataPortDesc::new(len, SCRATCH_BTI, dc::OWORD_DUAL_BLOCK_WRITE, 0).encode(ver)
}

/// Descriptor of the matching OWord dual block read: the header and the offsets, one reply
/// register (Mesa's assembly shows 0x041880ff).
pub fn scratch_read_desc(ver: u32) -> u32 {
    let len = Lengths::new(2, 1, true);
    DataPortDesc::new(len, SCRATCH_BTI, dc::OWORD_DUAL_BLOCK_READ, 0).encode(ver)
}

/// `mov(8) dst g0 { align16 WE_all }`: the thread header every message header starts from
/// (URB, sampler and scratch messages alike).
fn copy_g0(dst: Dst) -> eu::Inst {
    let mut m = eu::Inst::new(Opcode::Mov);
    m.access_mode = AccessMode::Align16;
    m.we_all = true;
    m.dst = dst;
    m.src = vec![EuSrc::Reg(RegSrc::new(
        RegFile::Grf,
        0,
        0,
        RegType::UD,
        Region::new(4, 4, 1),
    ))];
    m
}

/// The header (g0) and the two vertices' OWord offsets (`2 slot` at dword 0, `2 slot + 1` at
/// dword 4) of a scratch message, in the registers from [`SCRATCH_MSG`].
fn scratch_setup(out: &mut Vec<eu::Inst>, slot: u32) {
    out.push(copy_g0(Dst::reg(
        RegFile::Grf,
        SCRATCH_MSG as u8,
        0,
        RegType::UD,
    )));
    for (sub, off) in [(0, 2 * slot), (16, 2 * slot + 1)] {
        let mut o = eu::Inst::new(Opcode::Mov);
        o.exec_size = 1;
        o.we_all = true;
        o.dst = Dst::reg(RegFile::Grf, (SCRATCH_MSG + 1) as u8, sub, RegType::UD);
        o.src = vec![EuSrc::Imm(Imm {
            ty: RegType::UD,
            bits: off as u64,
        })];
        out.push(o);
    }
}

/// The align16 data-cache send of a scratch message built at [`SCRATCH_MSG`].
fn scratch_send(desc: u32) -> eu::Inst {
    let mut e = eu::Inst::new(Opcode::Send);
    e.access_mode = AccessMode::Align16;
    e.src = vec![
        EuSrc::Reg(RegSrc::new(
            RegFile::Grf,
            SCRATCH_MSG as u8,
            0,
            RegType::F,
            Region::new(4, 4, 1),
        )),
        EuSrc::Imm(Imm {
            ty: RegType::UD,
            bits: desc as u64,
        }),
    ];
    e.msg = Some(Message {
        sfid: sfid::DATA_CACHE,
        base_mrf: 0,
        ex_desc: 0,
    });
    e
}

/// Descriptor of a Gen7 sampler `ld` in SIMD4x2 mode from binding-table entry `surface`:
/// the offsets in one register, one reply register, no header (Mesa's
/// `generate_pull_constant_load_gfx7`).
pub fn pull_load_desc(ver: u32, surface: u32) -> u32 {
    SamplerDesc {
        len: Lengths::new(1, 1, false),
        binding_table_index: surface,
        sampler: 0,
        msg_type: SamplerMsg::LD,
        simd_mode: SimdMode::SIMD4X2,
        return_format: 0,
    }
    .encode(ver)
}

/// Descriptor of a Gen7 SIMD4x2 sampler message of `mlen` registers with one reply register
/// (Mesa's `brw_sampler_desc`).
pub fn tex_desc(ver: u32, msg: TexMsg, surface: u32, sampler: u32, mlen: u32, header: bool) -> u32 {
    SamplerDesc {
        len: Lengths::new(mlen, 1, header),
        binding_table_index: surface,
        sampler,
        msg_type: msg.msg_type(),
        simd_mode: SimdMode::SIMD4X2,
        return_format: 0,
    }
    .encode(ver)
}

/// Descriptor of the Gen6 sampler-cache OWord dual block read of one OWord per block from
/// binding-table entry `surface`: header and offsets, one reply register (Mesa's gfx6
/// pull-constant load; its snb assembly shows 0x04184000 for surface 0).
pub fn gen6_pull_desc(surface: u32) -> u32 {
    let len = Lengths::new(2, 1, true);
    DataPortDesc::new(len, surface, GEN6_OWORD_DUAL_BLOCK_READ, 0).encode(60)
}

/// Gen6's data-port message type of the OWord dual block read (`GFX6_DATAPORT_READ_MESSAGE_
/// OWORD_DUAL_BLOCK_READ`).
const GEN6_OWORD_DUAL_BLOCK_READ: u32 = 2;

/// The message of a Gen6 pull-constant load: g0 into m[`PULL_MSG`], then each vertex's
/// offset in OWords (the IR's byte offset in x, or an immediate, divided by 16) in dwords 0
/// and 4 of the next MRF.
fn gen6_pull_setup(
    out: &mut Vec<eu::Inst>,
    alloc: &[u32],
    layout: &Layout,
    offset: &Src,
) -> Result<(), CompileError> {
    out.push(copy_g0(Dst::reg(
        RegFile::Mrf,
        PULL_MSG as u8,
        0,
        RegType::UD,
    )));
    let mut o = eu::Inst::new(Opcode::Mov);
    o.access_mode = AccessMode::Align16;
    o.dst = Dst::reg(RegFile::Mrf, PULL_MSG as u8 + 1, 0, RegType::UD);
    if offset.file == File::Imm {
        o.src = vec![EuSrc::Imm(Imm {
            ty: RegType::UD,
            bits: (offset.imm / 16) as u64,
        })];
    } else {
        o.opcode = Opcode::Shr;
        let mut s = src_of(alloc, layout, offset)?;
        if let EuSrc::Reg(r) = &mut s {
            r.swizzle = 0;
            r.ty = RegType::UD;
        }
        o.src = vec![
            s,
            EuSrc::Imm(Imm {
                ty: RegType::UD,
                bits: 4,
            }),
        ];
    }
    out.push(o);
    Ok(())
}

/// `g0<4,4,1>F`: the source of a Gen4-5 SEND whose implied move puts the thread header in
/// its first message register.
fn g0_vec4() -> RegSrc {
    RegSrc::new(RegFile::Grf, 0, 0, RegType::F, Region::new(4, 4, 1))
}

/// Descriptor of the Gen4-5 data port's OWord dual block read of one OWord per block from
/// binding-table entry `surface` (Mesa's pre-Gen6 `generate_pull_constant_load`; its g4x
/// assembly shows 0x04211000 for surface 0 with the SFID in bits 27:24): header and
/// offsets, one reply register, the data cache.
pub fn gen4_pull_desc(ver: u32, surface: u32) -> u32 {
    Gen4DpReadDesc {
        len: Lengths::new(2, 1, true),
        binding_table_index: surface,
        msg_control: 0,
        // G45_DATAPORT_READ_MESSAGE_OWORD_DUAL_BLOCK_READ; Gen4 numbers it 1.
        msg_type: if ver >= 45 { 2 } else { 1 },
        target_cache: 0,
    }
    .encode(ver)
}

/// The offsets of a Gen4-5 pull-constant load: each vertex's byte offset (x of the IR's
/// offset, or an immediate) into the MRF after [`PULL_MSG`], which the implied move of g0
/// heads; all eight channels, so dwords 0 and 4 hold the two vertices'.
fn gen4_pull_setup(
    out: &mut Vec<eu::Inst>,
    alloc: &[u32],
    layout: &Layout,
    offset: &Src,
) -> Result<(), CompileError> {
    let mut o = eu::Inst::new(Opcode::Mov);
    o.access_mode = AccessMode::Align16;
    o.dst = Dst::reg(RegFile::Mrf, PULL_MSG as u8 + 1, 0, RegType::UD);
    if offset.file == File::Imm {
        o.src = vec![EuSrc::Imm(Imm {
            ty: RegType::UD,
            bits: (offset.imm & !15) as u64,
        })];
    } else {
        let mut s = src_of(alloc, layout, offset)?;
        if let EuSrc::Reg(r) = &mut s {
            r.swizzle = replicate(swz_get(offset.swizzle, 0));
            r.ty = RegType::UD;
        }
        o.src = vec![s];
    }
    out.push(o);
    Ok(())
}

/// A Gen4-5 math message (Mesa's `gfx4_math`): the first operand reaches m[`MATH_MRF`] by
/// the SEND's implied move, a second one is moved into the next MRF first; the response
/// honours the destination's write mask, saturation is the descriptor's.
fn gen4_math(
    ver: u32,
    out: &mut Vec<eu::Inst>,
    alloc: &[u32],
    layout: &Layout,
    inst: &Inst,
    f: eu::MathFn,
) -> Result<eu::Inst, CompileError> {
    let nops = inst.src.len() as u32;
    if nops == 2 {
        let mut m = eu::Inst::new(Opcode::Mov);
        m.access_mode = AccessMode::Align16;
        m.dst = Dst::reg(RegFile::Mrf, MATH_MRF as u8 + 1, 0, inst.src[1].ty);
        m.src = vec![src_of(alloc, layout, &inst.src[1])?];
        out.push(m);
    }
    let src0 = match src_of(alloc, layout, &inst.src[0])? {
        EuSrc::Reg(r) if r.file == RegFile::Grf && !r.negate && !r.abs => r,
        _ => {
            return Err(CompileError::Internal(format!(
                "Gen4 math operand is not a plain GRF: {inst}"
            )))
        }
    };
    let mut e = eu::Inst::new(Opcode::Send);
    e.dst = dst_of(alloc, layout, inst)?;
    e.src = vec![
        EuSrc::Reg(src0),
        EuSrc::Imm(Imm {
            ty: RegType::UD,
            bits: MathDesc {
                len: Lengths::new(nops, 1, false),
                function: f.hw() as u32,
                signed: inst.src[0].ty == RegType::D,
                partial_precision: false,
                saturate: inst.sat,
                scalar: false,
            }
            .encode(ver) as u64,
        }),
    ];
    e.msg = Some(Message {
        sfid: sfid::MATH,
        base_mrf: MATH_MRF as u8,
        ex_desc: 0,
    });
    Ok(e)
}

/// Where the payload puts things: push constants and attribute element 0's register.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// First push-constant register (g1, or g2 after a geometry thread's primitive ids).
    pub uniform_base: u32,
    /// First attribute register.
    pub attr_base: u32,
    /// Gen6: the fixed registers from `urb::MSG_BASE` are message registers (see
    /// [`super::gen6`]).
    pub mrfs: bool,
    /// Attribute elements two per register, both halves reading the same copy (a geometry
    /// thread in single or dual-instance dispatch).
    pub interleaved: bool,
}

/// The file and number of fixed IR register `nr`: a message register on Gen6 when it is one.
fn fixed(layout: &Layout, nr: u32) -> (RegFile, u32) {
    match super::gen6::mrf_of(nr) {
        Some(m) if layout.mrfs => (RegFile::Mrf, m),
        _ => (RegFile::Grf, nr),
    }
}

fn grf(alloc: &[u32], layout: &Layout, s: &Src) -> Result<(u8, u8, Region), CompileError> {
    let (file, nr, sub, region) = reg(alloc, layout, s)?;
    if file != RegFile::Grf {
        return Err(CompileError::Internal(format!(
            "{s} is a message register where a GRF is read"
        )));
    }
    Ok((nr, sub, region))
}

/// The register file, number, subregister and region of register operand `s`.
fn reg(alloc: &[u32], layout: &Layout, s: &Src) -> Result<(RegFile, u8, u8, Region), CompileError> {
    let four = Region::new(4, 4, 1);
    let mut file = RegFile::Grf;
    let (nr, sub, region) = match s.file {
        File::Vgrf => (
            *alloc
                .get(s.nr as usize)
                .ok_or_else(|| CompileError::Internal(format!("v{} has no register", s.nr)))?,
            0,
            four,
        ),
        File::Attr if layout.interleaved => (
            layout.attr_base + s.nr / 2,
            (s.nr % 2) * 16,
            Region::new(0, 4, 1),
        ),
        File::Attr => (layout.attr_base + s.nr, 0, four),
        File::Uniform => (
            layout.uniform_base + s.nr / 2,
            (s.nr % 2) * 16,
            Region::new(0, 4, 1),
        ),
        File::Patch => (
            layout.attr_base + s.nr / 2,
            (s.nr % 2) * 16,
            Region::new(0, 4, 1),
        ),
        File::Fixed => {
            let (f, nr) = fixed(layout, s.nr);
            file = f;
            (nr, 0, four)
        }
        File::Null => return Ok((RegFile::Grf, 0, 0, four)),
        File::Imm => return Err(CompileError::Internal("immediate as a register".into())),
    };
    let nr = u8::try_from(nr)
        .ok()
        .filter(|&n| n < 128)
        .ok_or_else(|| CompileError::Internal(format!("register g{nr} out of range")))?;
    Ok((file, nr, sub as u8, region))
}

fn src_of(alloc: &[u32], layout: &Layout, s: &Src) -> Result<EuSrc, CompileError> {
    if s.file == File::Imm {
        if s.negate || s.abs {
            return Err(CompileError::Internal(format!("modifier on immediate {s}")));
        }
        return Ok(EuSrc::Imm(Imm {
            ty: s.ty,
            bits: s.imm as u64,
        }));
    }
    if s.file == File::Null {
        let mut r = RegSrc::new(RegFile::Arf, 0, 0, s.ty, Region::new(4, 4, 1));
        r.swizzle = RegSrc::XYZW;
        return Ok(EuSrc::Reg(r));
    }
    let (file, nr, sub, region) = reg(alloc, layout, s)?;
    let mut r = RegSrc::new(file, nr, sub, s.ty, region);
    r.swizzle = s.swizzle;
    r.negate = s.negate;
    r.abs = s.abs;
    Ok(EuSrc::Reg(r))
}

fn dst_of(alloc: &[u32], layout: &Layout, inst: &Inst) -> Result<Dst, CompileError> {
    let d = &inst.dst;
    let mut file = RegFile::Grf;
    let nr = match d.file {
        File::Null => {
            let mut n = Dst::null(d.ty);
            n.writemask = d.writemask;
            return Ok(n);
        }
        File::Vgrf => *alloc
            .get(d.nr as usize)
            .ok_or_else(|| CompileError::Internal(format!("v{} has no register", d.nr)))?,
        File::Fixed => {
            let (f, nr) = fixed(layout, d.nr);
            file = f;
            nr
        }
        _ => {
            return Err(CompileError::Internal(format!(
                "destination in {:?}: {inst}",
                d.file
            )))
        }
    };
    let nr = u8::try_from(nr)
        .map_err(|_| CompileError::Internal(format!("register g{nr} out of range")))?;
    let mut out = Dst::reg(file, nr, 0, d.ty);
    out.writemask = d.writemask;
    Ok(out)
}

fn a0_src() -> RegSrc {
    RegSrc::new(
        RegFile::Arf,
        eu::types::arf::ADDRESS,
        0,
        RegType::UD,
        Region::SCALAR,
    )
}

/// The address-register descriptor of a pull-constant load at a run-time binding-table
/// index (Mesa's `generate_pull_constant_load_gfx7` with a register surface): the index in
/// dword `sub / 4` of g`nr`, masked to the binding-table field (bits 7:0) and added to
/// `desc`'s entry, then the rest of `desc` ORed in.
fn indexed_pull_descriptor(desc: u32, nr: u8, sub: u8) -> Vec<eu::Inst> {
    let scalar = |op, src: Vec<EuSrc>| {
        let mut e = eu::Inst::new(op);
        e.exec_size = 1;
        e.we_all = true;
        e.dst = Dst::reg(RegFile::Arf, eu::types::arf::ADDRESS, 0, RegType::UD);
        e.src = src;
        e
    };
    let imm = |bits: u32| {
        EuSrc::Imm(Imm {
            ty: RegType::UD,
            bits: bits as u64,
        })
    };
    let index = EuSrc::Reg(RegSrc::new(
        RegFile::Grf,
        nr,
        sub,
        RegType::UD,
        Region::SCALAR,
    ));
    let base = desc & 0xff;
    let mut v = vec![scalar(Opcode::And, vec![index, imm(0xff)])];
    if base != 0 {
        v.push(scalar(Opcode::Add, vec![EuSrc::Reg(a0_src()), imm(base)]));
    }
    v.push(scalar(
        Opcode::Or,
        vec![EuSrc::Reg(a0_src()), imm(desc & !0xff)],
    ));
    v
}

/// The address-register descriptor of an indexed sampler message (Mesa's `generate_tex`
/// for a non-constant sampler index, then the descriptor ORed in as
/// `brw_send_indirect_message` does): the index in dword `sub / 4` of g`nr` times 0x101
/// adds it to the sampler (bits 11:8) and binding-table (7:0) indices of `desc`, masked
/// to those twelve bits so a stray index cannot reach the message type.
fn indexed_descriptor(desc: u32, nr: u8, sub: u8) -> Vec<eu::Inst> {
    let a0 = || Dst::reg(RegFile::Arf, eu::types::arf::ADDRESS, 0, RegType::UD);
    let imm = |ty, bits: u32| {
        EuSrc::Imm(Imm {
            ty,
            bits: bits as u64,
        })
    };
    let scalar = |op, src: Vec<EuSrc>| {
        let mut e = eu::Inst::new(op);
        e.exec_size = 1;
        e.we_all = true;
        e.dst = a0();
        e.src = src;
        e
    };
    let index = EuSrc::Reg(RegSrc::new(
        RegFile::Grf,
        nr,
        sub,
        RegType::UD,
        Region::SCALAR,
    ));
    let base = desc & SamplerDesc::INDEX_BITS;
    let mut v = vec![scalar(Opcode::Mul, vec![index, imm(RegType::UW, 0x101)])];
    if base != 0 {
        v.push(scalar(
            Opcode::Add,
            vec![EuSrc::Reg(a0_src()), imm(RegType::UD, base)],
        ));
    }
    v.push(scalar(
        Opcode::And,
        vec![
            EuSrc::Reg(a0_src()),
            imm(RegType::UD, SamplerDesc::INDEX_BITS),
        ],
    ));
    v.push(scalar(
        Opcode::Or,
        vec![
            EuSrc::Reg(a0_src()),
            imm(RegType::UD, desc & !SamplerDesc::INDEX_BITS),
        ],
    ));
    v
}

/// An align1 instruction of `exec_size` channels that runs whatever the execution mask
/// (the message-header setup of Mesa's vec4 generator).
fn align1_we_all(op: Opcode, exec_size: u8, dst: Dst, src: Vec<EuSrc>) -> eu::Inst {
    let mut o = eu::Inst::new(op);
    o.exec_size = exec_size;
    o.we_all = true;
    o.dst = dst;
    o.src = src;
    o
}

fn imm_ud(bits: u32) -> EuSrc {
    EuSrc::Imm(Imm {
        ty: RegType::UD,
        bits: bits as u64,
    })
}

/// Descriptor of a Gen7 SIMD4x2 URB read: an interleaved OWord read with per-slot offsets
/// at `offset` 128-bit slots, the header alone, one reply register (Mesa's
/// `generate_vec4_urb_read`).
pub fn urb_read_desc(ver: u32, offset: u32) -> u32 {
    UrbDesc {
        len: Lengths::new(1, 1, true),
        opcode: UrbDesc::READ_OWORD,
        global_offset: offset,
        swizzle: UrbDesc::SWIZZLE_INTERLEAVE,
        per_slot_offset: true,
        ..UrbDesc::default()
    }
    .encode(ver)
}

/// Dword `k` of g0 as a scalar source.
fn g0_dword(k: u8) -> EuSrc {
    EuSrc::Reg(RegSrc::new(
        RegFile::Grf,
        0,
        4 * k,
        RegType::UD,
        Region::SCALAR,
    ))
}

/// Descriptor of a TCS input release (Mesa's `TCS_OPCODE_RELEASE_INPUT`): an OWord read
/// marked complete, the header alone, no reply; interleaved over two ICP handles unless the
/// vertex is `unpaired`.
pub fn tcs_release_desc(ver: u32, unpaired: bool) -> u32 {
    UrbDesc {
        len: Lengths::new(1, 0, true),
        opcode: UrbDesc::READ_OWORD,
        swizzle: if unpaired {
            0
        } else {
            UrbDesc::SWIZZLE_INTERLEAVE
        },
        complete: true,
        ..UrbDesc::default()
    }
    .encode(ver)
}

/// Descriptor of a TCS thread's last message (Mesa's `TCS_OPCODE_THREAD_END`): an OWord
/// write of the header and one register, not interleaved, at offset 0 (the encoder adds EOT).
pub fn tcs_thread_end_desc(ver: u32) -> u32 {
    UrbDesc {
        len: Lengths::new(2, 0, true),
        opcode: UrbDesc::WRITE_OWORD,
        ..UrbDesc::default()
    }
    .encode(ver)
}

/// The generated program.
pub struct Generated {
    /// Instructions.
    pub insts: Vec<eu::Inst>,
}

/// Emits `prog` with virtual register `v` in GRF `alloc[v]`.
pub fn generate(
    devinfo: &DevInfo,
    flow: &FlowTemplates,
    prog: &Program,
    alloc: &[u32],
    layout: &Layout,
) -> Result<Generated, CompileError> {
    let targets = crate::intel::flow::targets(&prog.insts)?;
    let gen4_jumps = match &flow.gen4 {
        Some(_) => crate::intel::flow::gen4_jumps(&prog.insts)?,
        None => Vec::new(),
    };
    let mut out: Vec<eu::Inst> = Vec::with_capacity(prog.insts.len() + 2);
    let mut start = Vec::with_capacity(prog.insts.len() + 1);
    let mut jumps = Vec::new();
    for (ip, inst) in prog.insts.iter().enumerate() {
        start.push(out.len());
        let mut e = match inst.op {
            Op::Do => match &flow.gen4 {
                // Gen4-5: DO is an instruction (the WHILE's jump lands after it).
                Some(g) => {
                    out.push(g.do_.clone());
                    continue;
                }
                None => continue,
            },
            Op::If | Op::Else | Op::EndIf | Op::While | Op::Break | Op::Continue => {
                let (tmpl, jip, uip) = match inst.op {
                    Op::If => (&flow.if_, targets[ip].0, targets[ip].1),
                    Op::Else => (&flow.else_, targets[ip].0, targets[ip].1),
                    Op::EndIf => (&flow.endif, ip + 1, ip + 1),
                    Op::While => (&flow.while_, targets[ip].0, targets[ip].0),
                    Op::Break => (&flow.break_, targets[ip].0, targets[ip].1),
                    _ => (&flow.cont, targets[ip].0, targets[ip].1),
                };
                jumps.push((out.len(), ip, jip, uip));
                let mut e = tmpl.clone();
                if let (Some(g), Op::If) = (&flow.gen4, inst.op) {
                    // An IF without ELSE is an IFF, which jumps past its ENDIF.
                    let to_else = matches!(gen4_jumps[ip], Some((t, _))
                        if prog.insts.get(t).map(|i| i.op) == Some(Op::Else));
                    if !to_else {
                        e = g.iff.clone();
                    }
                }
                e.pred = inst.pred.map(|inv| Predicate {
                    control: if inst.op == Op::If { PRED_ALIGN16_X } else { 1 },
                    inverse: inv,
                });
                out.push(e);
                continue;
            }
            // Gen4-5: the URB write's implied move puts g0 in place.
            Op::UrbHeader if devinfo.ver < 60 => continue,
            Op::UrbHeader => {
                let d = dst_of(alloc, layout, inst)?;
                out.push(copy_g0(d));
                if devinfo.ver < 70 {
                    // Gen6's URB write has no channel masks in its header.
                    continue;
                }
                let mut o = eu::Inst::new(Opcode::Or);
                o.exec_size = 1;
                o.we_all = true;
                o.dst = Dst::reg(RegFile::Grf, d.nr, 20, RegType::UD);
                o.src = vec![
                    EuSrc::Reg(RegSrc::new(
                        RegFile::Grf,
                        0,
                        20,
                        RegType::UD,
                        Region::SCALAR,
                    )),
                    EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: 0xff00,
                    }),
                ];
                out.push(o);
                continue;
            }
            Op::UrbChannelMask { mask } => {
                let d = dst_of(alloc, layout, inst)?;
                let mut o = eu::Inst::new(Opcode::And);
                o.exec_size = 1;
                o.we_all = true;
                o.dst = Dst::reg(RegFile::Grf, d.nr, 20, RegType::UD);
                o.src = vec![
                    EuSrc::Reg(RegSrc::new(
                        RegFile::Grf,
                        d.nr,
                        20,
                        RegType::UD,
                        Region::SCALAR,
                    )),
                    EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: !(0xff00 & !(u64::from(mask) << 8)) & 0xffff_ffff,
                    }),
                ];
                out.push(o);
                continue;
            }
            Op::GsWriteOffset { hwords } => {
                // Align1, two channels, every channel: dwords 3 and 4 of the header.
                let d = dst_of(alloc, layout, inst)?;
                let s = &inst.src[0];
                let mut o = eu::Inst::new(Opcode::Mov);
                o.exec_size = 2;
                o.we_all = true;
                o.dst = Dst::reg(RegFile::Grf, d.nr, 12, RegType::UD);
                if s.file == File::Imm {
                    o.src = vec![EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: s.imm.wrapping_mul(hwords) as u64,
                    })];
                } else {
                    let (nr, sub, _) = grf(alloc, layout, s)?;
                    o.opcode = Opcode::Mul;
                    o.src = vec![
                        EuSrc::Reg(RegSrc::new(
                            RegFile::Grf,
                            nr,
                            sub,
                            RegType::UD,
                            Region::new(8, 2, 4),
                        )),
                        EuSrc::Imm(Imm {
                            ty: RegType::UW,
                            bits: hwords as u64,
                        }),
                    ];
                }
                out.push(o);
                continue;
            }
            Op::GsVertexCount => {
                // The low words of dwords 0 and 4 of the count into words 4 and 5.
                let d = dst_of(alloc, layout, inst)?;
                let s = &inst.src[0];
                let mut o = eu::Inst::new(Opcode::Mov);
                o.we_all = true;
                if s.file == File::Imm {
                    o.exec_size = 1;
                    o.dst = Dst::reg(RegFile::Grf, d.nr, 8, RegType::UD);
                    o.src = vec![EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: ((s.imm & 0xffff) * 0x1_0001) as u64,
                    })];
                } else {
                    let (nr, sub, _) = grf(alloc, layout, s)?;
                    o.exec_size = 2;
                    o.dst = Dst::reg(RegFile::Grf, d.nr, 8, RegType::UW);
                    o.src = vec![EuSrc::Reg(RegSrc::new(
                        RegFile::Grf,
                        nr,
                        sub,
                        RegType::UW,
                        Region::new(8, 1, 0),
                    ))];
                }
                out.push(o);
                continue;
            }
            Op::GsClearR0Dword2 => {
                let mut o = eu::Inst::new(Opcode::Mov);
                o.exec_size = 1;
                o.we_all = true;
                o.dst = Dst::reg(RegFile::Grf, 0, 8, RegType::UD);
                o.src = vec![EuSrc::Imm(Imm {
                    ty: RegType::UD,
                    bits: 0,
                })];
                out.push(o);
                continue;
            }
            Op::TesInputHeader => {
                // Align1, every channel: zero, the channel enables in dword 5, the patch
                // handle (g1.3, its reserved bits masked off) in dwords 0 and 1.
                let d = dst_of(alloc, layout, inst)?;
                out.push(align1_we_all(
                    Opcode::Mov,
                    8,
                    Dst::reg(RegFile::Grf, d.nr, 0, RegType::UD),
                    vec![imm_ud(0)],
                ));
                out.push(align1_we_all(
                    Opcode::Mov,
                    1,
                    Dst::reg(RegFile::Grf, d.nr, 20, RegType::UD),
                    vec![imm_ud(0xff00)],
                ));
                out.push(align1_we_all(
                    Opcode::And,
                    2,
                    Dst::reg(RegFile::Grf, d.nr, 0, RegType::UD),
                    vec![
                        EuSrc::Reg(RegSrc::new(
                            RegFile::Grf,
                            1,
                            12,
                            RegType::UD,
                            Region::SCALAR,
                        )),
                        imm_ud(0x1fff),
                    ],
                ));
                continue;
            }
            Op::TesIndirectOffset => {
                // The header copied, then x of each half of the offsets into dwords 3 and 4.
                let d = dst_of(alloc, layout, inst)?;
                let (h, _, _) = grf(alloc, layout, &inst.src[0])?;
                out.push(align1_we_all(
                    Opcode::Mov,
                    8,
                    Dst::reg(RegFile::Grf, d.nr, 0, RegType::UD),
                    vec![EuSrc::Reg(RegSrc::new(
                        RegFile::Grf,
                        h,
                        0,
                        RegType::UD,
                        Region::new(4, 4, 1),
                    ))],
                ));
                let o = &inst.src[1];
                let (nr, sub, _) = grf(alloc, layout, o)?;
                out.push(align1_we_all(
                    Opcode::Mov,
                    2,
                    Dst::reg(RegFile::Grf, d.nr, 12, RegType::UD),
                    vec![EuSrc::Reg(RegSrc::new(
                        RegFile::Grf,
                        nr,
                        sub + 4 * swz_get(o.swizzle, 0),
                        RegType::UD,
                        Region::new(4, 1, 0),
                    ))],
                ));
                continue;
            }
            Op::TesPrimitiveId => {
                // Align1 under the execution mask: g1.7 into every channel.
                let d = dst_of(alloc, layout, inst)?;
                let mut o = eu::Inst::new(Opcode::Mov);
                o.exec_size = 8;
                o.dst = Dst::reg(RegFile::Grf, d.nr, 0, RegType::D);
                o.src = vec![EuSrc::Reg(RegSrc::new(
                    RegFile::Grf,
                    1,
                    28,
                    RegType::D,
                    Region::SCALAR,
                ))];
                out.push(o);
                continue;
            }
            Op::TcsInstanceId => {
                // The instance number from g0.2 (bits 22:16 on Ivy Bridge, 23:17 on Haswell),
                // doubled, in x of the first half; one more in x of the second.
                let d = dst_of(alloc, layout, inst)?;
                let (mask, shift) = if devinfo.ver == 70 {
                    (0x007f_0000, 16)
                } else {
                    (0x00fe_0000, 17)
                };
                let x = |sub: u8| Dst::reg(RegFile::Grf, d.nr, sub, RegType::UD);
                let xs = EuSrc::Reg(RegSrc::new(
                    RegFile::Grf,
                    d.nr,
                    0,
                    RegType::UD,
                    Region::SCALAR,
                ));
                out.push(align1_we_all(
                    Opcode::And,
                    1,
                    x(0),
                    vec![g0_dword(2), imm_ud(mask)],
                ));
                out.push(align1_we_all(
                    Opcode::Shr,
                    1,
                    x(0),
                    vec![xs, imm_ud(shift - 1)],
                ));
                out.push(align1_we_all(Opcode::Add, 1, x(16), vec![xs, imm_ud(1)]));
                continue;
            }
            Op::TcsPrimitiveId => {
                // Align1 under the execution mask: g0.1 into every channel.
                let d = dst_of(alloc, layout, inst)?;
                let mut o = eu::Inst::new(Opcode::Mov);
                o.exec_size = 8;
                o.dst = Dst::reg(RegFile::Grf, d.nr, 0, RegType::UD);
                o.src = vec![g0_dword(1)];
                out.push(o);
                continue;
            }
            Op::TcsInputHeader | Op::TcsOutputHeader { .. } => {
                let d = dst_of(alloc, layout, inst)?;
                let (file, nr) = (d.file, d.nr);
                let at = |sub: u8| Dst::reg(file, nr, sub, RegType::UD);
                let held = match inst.op {
                    Op::TcsOutputHeader { held, .. } if held & HEADER_BASE != 0 => held,
                    _ => 0,
                };
                if held == 0 {
                    out.push(align1_we_all(Opcode::Mov, 8, at(0), vec![imm_ud(0)]));
                }
                let offset = match inst.op {
                    Op::TcsOutputHeader { mask, .. } => {
                        let m = u32::from(mask & 0xf);
                        if held & HEADER_MASK == 0 {
                            out.push(align1_we_all(
                                Opcode::Mov,
                                1,
                                at(20),
                                vec![imm_ud(m << 8 | m << 12)],
                            ));
                        }
                        if held == 0 {
                            out.push(align1_we_all(Opcode::Mov, 2, at(0), vec![g0_dword(0)]));
                        } else if held & HEADER_OFFSETS == 0 && inst.src.is_empty() {
                            // Another header's per-slot offsets cleared.
                            out.push(align1_we_all(Opcode::Mov, 2, at(12), vec![imm_ud(0)]));
                        }
                        inst.src.first().filter(|_| held & HEADER_OFFSETS == 0)
                    }
                    _ => {
                        out.push(align1_we_all(Opcode::Mov, 1, at(20), vec![imm_ud(0xff00)]));
                        let v = &inst.src[0];
                        if v.file == File::Imm {
                            let handle = EuSrc::Reg(RegSrc::new(
                                RegFile::Grf,
                                (1 + v.imm / 8) as u8,
                                (4 * (v.imm % 8)) as u8,
                                RegType::UD,
                                Region::SCALAR,
                            ));
                            out.push(align1_we_all(Opcode::Mov, 2, at(0), vec![handle]));
                        } else {
                            // Each half's handle through the address register: the byte
                            // address of g1.0 plus four bytes per vertex.
                            let (vn, vsub, _) = grf(alloc, layout, v)?;
                            let vsub = vsub + 4 * swz_get(v.swizzle, 0);
                            for half in 0..2u8 {
                                let a0 =
                                    Dst::reg(RegFile::Arf, eu::types::arf::ADDRESS, 0, RegType::UW);
                                let mut a0s = a0_src();
                                a0s.ty = RegType::UW;
                                out.push(align1_we_all(
                                    Opcode::Add,
                                    1,
                                    a0,
                                    vec![
                                        EuSrc::Reg(RegSrc::new(
                                            RegFile::Grf,
                                            vn,
                                            vsub + 16 * half,
                                            RegType::UW,
                                            Region::SCALAR,
                                        )),
                                        EuSrc::Imm(Imm {
                                            ty: RegType::UW,
                                            bits: 8,
                                        }),
                                    ],
                                ));
                                out.push(align1_we_all(
                                    Opcode::Shl,
                                    1,
                                    a0,
                                    vec![
                                        EuSrc::Reg(a0s),
                                        EuSrc::Imm(Imm {
                                            ty: RegType::UW,
                                            bits: 2,
                                        }),
                                    ],
                                ));
                                let mut value =
                                    RegSrc::new(RegFile::Grf, 0, 0, RegType::UD, Region::SCALAR);
                                value.indirect = Some(eu::Indirect {
                                    addr_subnr: 0,
                                    offset: 0,
                                });
                                out.push(align1_we_all(
                                    Opcode::Mov,
                                    1,
                                    at(4 * half),
                                    vec![EuSrc::Reg(value)],
                                ));
                            }
                        }
                        inst.src.get(1)
                    }
                };
                if let Some(o) = offset {
                    let (on, osub, _) = grf(alloc, layout, o)?;
                    out.push(align1_we_all(
                        Opcode::Mov,
                        2,
                        at(12),
                        vec![EuSrc::Reg(RegSrc::new(
                            RegFile::Grf,
                            on,
                            osub + 4 * swz_get(o.swizzle, 0),
                            RegType::UD,
                            Region::new(4, 1, 0),
                        ))],
                    ));
                }
                continue;
            }
            Op::TcsBarrierHeader { instances } => {
                // Dword 2: the barrier id (g0.2 bits 15:12 on Ivy Bridge, 16:13 on Haswell)
                // moved to bits 27:24, the thread count at 9 and the enable bit 15.
                let d = dst_of(alloc, layout, inst)?;
                let (file, nr) = (d.file, d.nr);
                let at = |sub: u8| Dst::reg(file, nr, sub, RegType::UD);
                let m2 = EuSrc::Reg(RegSrc::new(file, nr, 8, RegType::UD, Region::SCALAR));
                let (mask, shift) = if devinfo.ver == 70 {
                    (0xf000, 12)
                } else {
                    (0x1_e000, 11)
                };
                out.push(align1_we_all(Opcode::Mov, 8, at(0), vec![imm_ud(0)]));
                out.push(align1_we_all(
                    Opcode::And,
                    1,
                    at(8),
                    vec![g0_dword(2), imm_ud(mask)],
                ));
                out.push(align1_we_all(
                    Opcode::Shl,
                    1,
                    at(8),
                    vec![m2, imm_ud(shift)],
                ));
                out.push(align1_we_all(
                    Opcode::Or,
                    1,
                    at(8),
                    vec![m2, imm_ud(instances << 9 | 1 << 15)],
                ));
                continue;
            }
            Op::Barrier => {
                let (file, nr, _, _) = reg(alloc, layout, &inst.src[0])?;
                let mut e = eu::Inst::new(Opcode::Send);
                e.we_all = true;
                e.dst = Dst::null(RegType::UW);
                e.src = vec![
                    EuSrc::Reg(RegSrc::new(file, nr, 0, RegType::UD, Region::new(8, 8, 1))),
                    imm_ud(
                        GatewayDesc {
                            len: Lengths::new(1, 0, false),
                            subfunction: GatewayDesc::BARRIER,
                        }
                        .encode(devinfo.ver),
                    ),
                ];
                e.msg = Some(Message {
                    sfid: sfid::GATEWAY,
                    base_mrf: 0,
                    ex_desc: 0,
                });
                out.push(e);
                // WAIT n0: stall until the gateway signals that every thread arrived.
                let mut w = eu::Inst::new(Opcode::Wait);
                let n0 = eu::types::arf::NOTIFICATION_COUNT;
                w.exec_size = 1;
                w.we_all = true;
                w.dst = Dst::reg(RegFile::Arf, n0, 0, RegType::UD);
                w.src = vec![EuSrc::Reg(RegSrc::new(
                    RegFile::Arf,
                    n0,
                    0,
                    RegType::UD,
                    Region::new(0, 1, 0),
                ))];
                out.push(w);
                continue;
            }
            Op::TcsReleaseInput { vertex, unpaired } => {
                let d = dst_of(alloc, layout, inst)?;
                let (file, nr) = (d.file, d.nr);
                out.push(align1_we_all(
                    Opcode::Mov,
                    8,
                    Dst::reg(file, nr, 0, RegType::UD),
                    vec![imm_ud(0)],
                ));
                out.push(align1_we_all(
                    Opcode::Mov,
                    2,
                    Dst::reg(file, nr, 0, RegType::UD),
                    vec![EuSrc::Reg(RegSrc::new(
                        RegFile::Grf,
                        (1 + vertex / 8) as u8,
                        (4 * (vertex % 8)) as u8,
                        RegType::UD,
                        Region::new(2, 2, 1),
                    ))],
                ));
                let mut e = eu::Inst::new(Opcode::Send);
                e.access_mode = AccessMode::Align16;
                e.dst = Dst::null(RegType::F);
                e.src = vec![
                    EuSrc::Reg(RegSrc::new(file, nr, 0, RegType::UD, Region::new(4, 4, 1))),
                    imm_ud(tcs_release_desc(devinfo.ver, unpaired)),
                ];
                e.msg = Some(Message {
                    sfid: sfid::URB,
                    base_mrf: 0,
                    ex_desc: 0,
                });
                out.push(e);
                continue;
            }
            Op::TcsThreadEnd => {
                // Zero written to dword 0 of the patch entry alone (channel x of the first
                // OWord enabled), ending the thread.
                let d = dst_of(alloc, layout, inst)?;
                let (file, nr) = (d.file, d.nr);
                let at = |n: u8, sub: u8| Dst::reg(file, n, sub, RegType::UD);
                out.push(align1_we_all(Opcode::Mov, 8, at(nr, 0), vec![imm_ud(0)]));
                out.push(align1_we_all(
                    Opcode::Mov,
                    1,
                    at(nr, 20),
                    vec![imm_ud(0x100)],
                ));
                out.push(align1_we_all(Opcode::Mov, 1, at(nr, 0), vec![g0_dword(0)]));
                out.push(align1_we_all(
                    Opcode::Mov,
                    8,
                    at(nr + 1, 0),
                    vec![imm_ud(0)],
                ));
                let mut e = eu::Inst::new(Opcode::Send);
                e.access_mode = AccessMode::Align16;
                e.dst = Dst::null(RegType::F);
                e.src = vec![
                    EuSrc::Reg(RegSrc::new(file, nr, 0, RegType::UD, Region::new(4, 4, 1))),
                    imm_ud(tcs_thread_end_desc(devinfo.ver)),
                ];
                e.msg = Some(Message {
                    sfid: sfid::URB,
                    base_mrf: 0,
                    ex_desc: 0,
                });
                e.eot = true;
                out.push(e);
                continue;
            }
            Op::UrbRead { offset } => {
                let mut e = eu::Inst::new(Opcode::Send);
                e.dst = dst_of(alloc, layout, inst)?;
                let (nr, _, _) = grf(alloc, layout, &inst.src[0])?;
                e.src = vec![
                    EuSrc::Reg(RegSrc::new(
                        RegFile::Grf,
                        nr,
                        0,
                        RegType::UD,
                        Region::new(4, 4, 1),
                    )),
                    EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: urb_read_desc(devinfo.ver, offset) as u64,
                    }),
                ];
                e.msg = Some(Message {
                    sfid: sfid::URB,
                    base_mrf: 0,
                    ex_desc: 0,
                });
                e
            }
            Op::UrbWrite {
                offset,
                mlen,
                eot,
                kind,
            } => {
                let mut e = eu::Inst::new(Opcode::Send);
                e.access_mode = AccessMode::Align16;
                e.dst = Dst::null(RegType::F);
                let (file, nr, _, _) = reg(alloc, layout, &inst.src[0])?;
                // Gen4-5: g0 goes to the header MRF by the implied move.
                let (file, nr, base_mrf) = if devinfo.ver < 60 {
                    (RegFile::Grf, 0, nr)
                } else {
                    (file, nr, 0)
                };
                e.src = vec![
                    EuSrc::Reg(RegSrc::new(file, nr, 0, RegType::F, Region::new(4, 4, 1))),
                    EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: urb_desc(devinfo.ver, offset, mlen, eot, kind) as u64,
                    }),
                ];
                e.msg = Some(Message {
                    sfid: sfid::URB,
                    base_mrf,
                    ex_desc: 0,
                });
                e.eot = eot;
                out.push(e);
                continue;
            }
            Op::SamplerHeader { offset_bits } => {
                // g0 copied whole, then (align1, one channel) the offsets in dword 2.
                let d = dst_of(alloc, layout, inst)?;
                out.push(copy_g0(d));
                if offset_bits != 0 {
                    let mut o = eu::Inst::new(Opcode::Mov);
                    o.exec_size = 1;
                    o.we_all = true;
                    o.dst = Dst::reg(d.file, d.nr, 8, RegType::UD);
                    o.src = vec![EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: offset_bits as u64,
                    })];
                    out.push(o);
                }
                continue;
            }
            Op::Tex {
                msg,
                surface,
                sampler,
                header,
                indexed,
            } => {
                // The message registers are the sources, consecutive from the first; an
                // index, when there is one, follows them.
                let regs = &inst.src[..inst.src.len().saturating_sub(indexed as usize)];
                let first = regs.first().ok_or_else(|| {
                    CompileError::Internal(format!("sampler message without a payload: {inst}"))
                })?;
                if regs
                    .iter()
                    .enumerate()
                    .any(|(k, s)| s.file != File::Fixed || s.nr != first.nr + k as u32)
                {
                    return Err(CompileError::Internal(format!(
                        "sampler message registers are not consecutive: {inst}"
                    )));
                }
                let desc = tex_desc(
                    devinfo.ver,
                    msg,
                    surface,
                    sampler,
                    regs.len() as u32,
                    header,
                );
                let desc = if indexed {
                    let (nr, sub, _) = grf(alloc, layout, &inst.src[inst.src.len() - 1])?;
                    out.extend(indexed_descriptor(desc, nr, sub));
                    EuSrc::Reg(a0_src())
                } else {
                    EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: desc as u64,
                    })
                };
                let mut e = eu::Inst::new(Opcode::Send);
                e.dst = dst_of(alloc, layout, inst)?;
                let (file, nr, _, _) = reg(alloc, layout, first)?;
                e.src = vec![
                    EuSrc::Reg(RegSrc::new(file, nr, 0, RegType::F, Region::new(4, 4, 1))),
                    desc,
                ];
                e.msg = Some(Message {
                    sfid: sfid::SAMPLER,
                    base_mrf: 0,
                    ex_desc: 0,
                });
                e
            }
            Op::GsInstanceId => {
                // Align1: dwords 0–3 from g0.0, 4–7 from g0.1, shifted down to bits 4:0.
                let d = dst_of(alloc, layout, inst)?;
                let mut o = eu::Inst::new(Opcode::Shr);
                o.exec_size = 8;
                o.dst = Dst::reg(RegFile::Grf, d.nr, 0, RegType::UD);
                o.src = vec![
                    EuSrc::Reg(RegSrc::new(
                        RegFile::Grf,
                        0,
                        0,
                        RegType::UD,
                        Region::new(1, 4, 0),
                    )),
                    EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: 27,
                    }),
                ];
                out.push(o);
                continue;
            }
            Op::FindLiveChannel => {
                // x of the first half: 1 in every case, then 0 where the first vertex runs.
                let d = dst_of(alloc, layout, inst)?;
                for (bits, we_all) in [(1, true), (0, false)] {
                    let mut o = eu::Inst::new(Opcode::Mov);
                    o.access_mode = AccessMode::Align16;
                    o.exec_size = 4;
                    o.we_all = we_all;
                    o.dst = Dst {
                        writemask: 1,
                        ..Dst::reg(RegFile::Grf, d.nr, 0, RegType::UD)
                    };
                    o.src = vec![EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits,
                    })];
                    out.push(o);
                }
                continue;
            }
            Op::Broadcast => {
                // f1.0 from the index in all four channels of the first half, then the
                // second half's x where it is set, the first's elsewhere.
                let d = dst_of(alloc, layout, inst)?;
                let x_of = |s: &Src, half: u8| -> Result<EuSrc, CompileError> {
                    let (nr, sub, _) = grf(alloc, layout, s)?;
                    let mut r = RegSrc::new(
                        RegFile::Grf,
                        nr,
                        sub + 16 * half,
                        RegType::UD,
                        Region::new(4, 4, 1),
                    );
                    r.swizzle = replicate(swz_get(s.swizzle, 0));
                    Ok(EuSrc::Reg(r))
                };
                let mut t = eu::Inst::new(Opcode::Mov);
                t.access_mode = AccessMode::Align16;
                t.exec_size = 4;
                t.we_all = true;
                t.cond_mod = CondMod::Nz;
                t.flag_nr = 1;
                t.dst = Dst::null(RegType::F);
                t.src = vec![x_of(&inst.src[1], 0)?];
                out.push(t);
                let mut sel = eu::Inst::new(Opcode::Sel);
                sel.access_mode = AccessMode::Align16;
                sel.exec_size = 4;
                sel.we_all = true;
                sel.pred = Some(Predicate {
                    control: 1,
                    inverse: false,
                });
                sel.flag_nr = 1;
                sel.dst = Dst {
                    writemask: 1,
                    ..Dst::reg(RegFile::Grf, d.nr, 0, RegType::UD)
                };
                sel.src = vec![x_of(&inst.src[0], 1)?, x_of(&inst.src[0], 0)?];
                out.push(sel);
                continue;
            }
            Op::ScratchWrite { slot } => {
                scratch_setup(&mut out, slot);
                let (nr, _, _) = grf(alloc, layout, &inst.src[0])?;
                let mut m = eu::Inst::new(Opcode::Mov);
                m.access_mode = AccessMode::Align16;
                m.dst = Dst::reg(RegFile::Grf, (SCRATCH_MSG + 2) as u8, 0, RegType::UD);
                m.src = vec![EuSrc::Reg(RegSrc::new(
                    RegFile::Grf,
                    nr,
                    0,
                    RegType::UD,
                    Region::new(4, 4, 1),
                ))];
                out.push(m);
                let mut e = scratch_send(scratch_write_desc(devinfo.ver));
                e.dst = Dst::null(RegType::F);
                e
            }
            Op::ScratchRead { slot } => {
                scratch_setup(&mut out, slot);
                let mut e = scratch_send(scratch_read_desc(devinfo.ver));
                e.dst = dst_of(alloc, layout, inst)?;
                e
            }
            Op::PullLoad { indexed: true, .. } if devinfo.ver < 70 => {
                return Err(CompileError::Unsupported(format!(
                    "Gen{} pull-constant loads at a run-time block index",
                    if devinfo.ver < 60 { "4-5" } else { "6" }
                )));
            }
            Op::PullLoad { surface, .. } if devinfo.ver < 60 => {
                gen4_pull_setup(&mut out, alloc, layout, &inst.src[0])?;
                let mut e = eu::Inst::new(Opcode::Send);
                e.dst = dst_of(alloc, layout, inst)?;
                e.src = vec![
                    EuSrc::Reg(g0_vec4()),
                    EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: gen4_pull_desc(devinfo.ver, surface) as u64,
                    }),
                ];
                e.msg = Some(Message {
                    sfid: sfid::DATAPORT_READ,
                    base_mrf: PULL_MSG as u8,
                    ex_desc: 0,
                });
                e
            }
            Op::PullLoad { surface, .. } if devinfo.ver < 70 => {
                gen6_pull_setup(&mut out, alloc, layout, &inst.src[0])?;
                let mut e = eu::Inst::new(Opcode::Send);
                e.dst = dst_of(alloc, layout, inst)?;
                e.src = vec![
                    EuSrc::Reg(RegSrc::new(
                        RegFile::Mrf,
                        PULL_MSG as u8,
                        0,
                        RegType::F,
                        Region::new(4, 4, 1),
                    )),
                    EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: gen6_pull_desc(surface) as u64,
                    }),
                ];
                e.msg = Some(Message {
                    sfid: sfid::DATAPORT_READ,
                    base_mrf: 0,
                    ex_desc: 0,
                });
                e
            }
            Op::PullLoad { surface, indexed } => {
                let desc = pull_load_desc(devinfo.ver, surface);
                let desc = if indexed {
                    let (nr, sub, _) = grf(alloc, layout, &inst.src[1])?;
                    out.extend(indexed_pull_descriptor(desc, nr, sub));
                    EuSrc::Reg(a0_src())
                } else {
                    EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: desc as u64,
                    })
                };
                let mut e = eu::Inst::new(Opcode::Send);
                e.dst = dst_of(alloc, layout, inst)?;
                let (nr, _, _) = grf(alloc, layout, &inst.src[0])?;
                let mut s = RegSrc::new(RegFile::Grf, nr, 0, RegType::UD, Region::new(4, 4, 1));
                s.swizzle = 0;
                e.src = vec![EuSrc::Reg(s), desc];
                e.msg = Some(Message {
                    sfid: sfid::SAMPLER,
                    base_mrf: 0,
                    ex_desc: 0,
                });
                e
            }
            Op::UntypedAtomic { surface, aop } => {
                let first = inst.src.first().ok_or_else(|| {
                    CompileError::Internal(format!("atomic without a payload: {inst}"))
                })?;
                let returns = inst.dst.file != File::Null;
                let len = Lengths::new(inst.src.len() as u32, returns as u32, false);
                let (sf, desc) =
                    msg::untyped_atomic_simd4x2(devinfo.ver, len, surface, aop, returns);
                let mut e = eu::Inst::new(Opcode::Send);
                e.dst = dst_of(alloc, layout, inst)?;
                // Only x: on Ivy Bridge the enabled channels are the message's (0 and 4).
                e.dst.writemask = 0x1;
                let (file, nr, _, _) = reg(alloc, layout, first)?;
                e.src = vec![
                    EuSrc::Reg(RegSrc::new(file, nr, 0, RegType::UD, Region::new(4, 4, 1))),
                    EuSrc::Imm(Imm {
                        ty: RegType::UD,
                        bits: desc.encode(devinfo.ver) as u64,
                    }),
                ];
                e.msg = Some(Message {
                    sfid: sf,
                    base_mrf: 0,
                    ex_desc: 0,
                });
                e
            }
            Op::Math(f) if devinfo.ver < 60 => {
                gen4_math(devinfo.ver, &mut out, alloc, layout, inst, f)?
            }
            Op::MulHigh => {
                // The low product into the accumulator, then MACH for the high dword.
                let srcs: Vec<EuSrc> = inst
                    .src
                    .iter()
                    .map(|s| src_of(alloc, layout, s))
                    .collect::<Result<_, _>>()?;
                let mut mul = eu::Inst::new(Opcode::Mul);
                mul.access_mode = AccessMode::Align16;
                mul.dst = Dst::reg(RegFile::Arf, eu::types::arf::ACCUMULATOR, 0, inst.dst.ty);
                mul.src = srcs.clone();
                out.push(mul);
                let mut e = eu::Inst::new(Opcode::Mach);
                e.dst = dst_of(alloc, layout, inst)?;
                e.src = srcs;
                e
            }
            Op::Math(f) => {
                let mut e = eu::Inst::new(Opcode::Math);
                e.math_fn = Some(f);
                e.dst = dst_of(alloc, layout, inst)?;
                let mut srcs: Vec<EuSrc> = inst
                    .src
                    .iter()
                    .map(|s| src_of(alloc, layout, s))
                    .collect::<Result<_, _>>()?;
                if srcs.len() == 1 {
                    srcs.push(src_of(
                        alloc,
                        layout,
                        &Src::reg(File::Null, 0, inst.dst.ty),
                    )?);
                }
                e.src = srcs;
                e
            }
            Op::Alu(op) => {
                let mut e = eu::Inst::new(op);
                e.dst = dst_of(alloc, layout, inst)?;
                e.src = inst
                    .src
                    .iter()
                    .map(|s| src_of(alloc, layout, s))
                    .collect::<Result<_, _>>()?;
                // Ivy Bridge updates the flag of a CMP to null only with a thread switch
                // after it (Mesa's brw_CMP workaround).
                if op == Opcode::Cmp && inst.dst.file == File::Null && devinfo.ver == 70 {
                    e.thread_ctrl = ThreadCtrl::Switch;
                }
                e
            }
        };
        e.access_mode = AccessMode::Align16;
        e.exec_size = 8;
        e.pred = inst.pred.map(|inv| Predicate {
            control: inst.pred_ctrl,
            inverse: inv,
        });
        e.cond_mod = inst.cmod;
        // A Gen4-5 math message saturates by its descriptor.
        e.saturate = inst.sat && !(devinfo.ver < 60 && matches!(inst.op, Op::Math(_)));
        if inst.cmod != CondMod::None || inst.pred.is_some() {
            e.flag_nr = 0;
            e.flag_subnr = 0;
        }
        if devinfo.ver == 60 && matches!(inst.op, Op::Math(_)) {
            // Gen6 MATH exists in align1 only: eight channels, whole registers (the
            // operands were made plain GRF reads by `gen6::lower_math`).
            e.access_mode = AccessMode::Align1;
            e.dst.writemask = 0xf;
        }
        out.push(e);
    }
    start.push(out.len());
    if flow.gen4.is_some() {
        // Gen4-5 jump counts, in instructions from the jumping one (as bytes here).
        for (at, ip, _, _) in jumps {
            let (target, pop) = gen4_jumps[ip].ok_or_else(|| {
                CompileError::Internal(format!("no Gen4 jump for {}", prog.insts[ip]))
            })?;
            out[at].branch = Some(Branch {
                jip: (start[target] as i32 - start[ip] as i32) * 16,
                uip: 0,
                pop,
            });
        }
        return Ok(Generated { insts: out });
    }
    for (at, ip, jip, uip) in jumps {
        let dist = |t: usize| (start[t] as i32 - start[ip] as i32) * 16;
        let e = &mut out[at];
        let has_uip = e.branch.unwrap_or_default().uip != 0;
        // Gen6's BREAK goes on past the WHILE (Gen7's stops at it).
        let uip = if devinfo.ver < 70 && prog.insts[ip].op == Op::Break {
            uip + 1
        } else {
            uip
        };
        e.branch = Some(Branch {
            jip: dist(jip),
            uip: if has_uip { dist(uip) } else { 0 },
            pop: 0,
        });
    }
    Ok(Generated { insts: out })
}

#[cfg(test)]
mod tests {
    #[test]
    fn urb_read_descriptor_matches_mesa() {
        // Mesa's ivb TES assembly (16in-1out): `send(8) g16<1>D g15<4>UD 0x02194013 urb
        // MsgDesc: offset 2 read OWord per-slot interleave mlen 1 rlen 1`.
        assert_eq!(super::urb_read_desc(70, 2), 0x0219_4013);
    }

    #[test]
    fn pull_load_descriptor_matches_mesa() {
        // Mesa's ivb assembly: `send(8) g5<1>F g4<4>.xUD 0x02107000 sampler MsgDesc: ld
        // SIMD4x2 Surface = 0 Sampler = 0 mlen 1 rlen 1`.
        assert_eq!(super::pull_load_desc(70, 0), 0x0210_7000);
    }

    #[test]
    fn gen6_pull_load_descriptor_matches_mesa() {
        // Mesa's snb assembly: `send(8) g7<1>F m17<4>F 0x04184000 dp_sampler MsgDesc: (bti
        // 0, msg_ctrl 0, msg_type 2, write_commit 0) mlen 2 rlen 1`.
        assert_eq!(super::gen6_pull_desc(0), 0x0418_4000);
        assert_eq!(super::gen6_pull_desc(3), 0x0418_4003);
    }

    #[test]
    fn g4x_descriptors_match_mesa() {
        use crate::intel::eu::types::sfid;
        use crate::intel::eu::MathFn;
        use crate::intel::msg::{self, Lengths, MathDesc};
        // Mesa's g4x assembly prints the whole dword (SFID in 27:24 before Gen5): `send(8)
        // 14 g3<1>F g0<4>F 0x04211000 read MsgDesc: OWord Dual Block Read MsgCtrl = 0x0
        // Surface = 0 mlen 2 rlen 1`, `send(8) 1 g3<1>.wF g2<4>.wF 0x01110001 math
        // MsgDesc: inv mlen 1 rlen 1` and `send(8) 1 null<1>F g0<4>F 0x8640c400 urb
        // MsgDesc: offset 0 urb_write interleave used complete mlen 4 rlen 0 { EOT }`.
        let d = |desc: u32, sf: u8, eot: bool| msg::with_dword3(45, desc, sf, eot);
        assert_eq!(
            d(super::gen4_pull_desc(45, 0), sfid::DATAPORT_READ, false),
            0x0421_1000
        );
        let inv = MathDesc {
            len: Lengths::new(1, 1, false),
            function: MathFn::Inv.hw() as u32,
            ..MathDesc::default()
        };
        assert_eq!(d(inv.encode(45), sfid::MATH, false), 0x0111_0001);
        let urb = crate::intel::vec4::urb::urb_desc(
            45,
            0,
            4,
            true,
            crate::intel::vec4::ir::UrbKind::Gen4Vertex,
        );
        assert_eq!(d(urb, sfid::URB, true), 0x8640_c400);
    }

    #[test]
    fn sampler_descriptors_match_mesa() {
        use super::{tex_desc, TexMsg};
        // Mesa's ivb assembly (shader-db tesseract 136, dolphin efb2tex): `send(8) g14<1>F
        // g114<4>F 0x04102000 sampler MsgDesc: sample_l SIMD4x2 Surface = 0 Sampler = 0
        // mlen 2 rlen 1` and `send(8) g16<1>D g114<4>F 0x0210a000 sampler MsgDesc: resinfo
        // SIMD4x2 Surface = 0 Sampler = 0 mlen 1 rlen 1`.
        assert_eq!(tex_desc(70, TexMsg::SampleL, 0, 0, 2, false), 0x0410_2000);
        assert_eq!(tex_desc(70, TexMsg::Resinfo, 0, 0, 1, false), 0x0210_a000);
        // The same `ld` as the pull-constant load (type 7), from surface 3 with a header:
        // bit 19, mlen 2.
        assert_eq!(tex_desc(70, TexMsg::Ld, 3, 0, 2, true), 0x0418_7003);
        // Sampler 5, sample_l_c (type 6).
        assert_eq!(tex_desc(70, TexMsg::SampleLC, 1, 5, 2, false), 0x0410_6501);
    }
}
