//! Allocated IR → EU instructions, with jump distances resolved.
//!
//! Flow-control instructions carry generation-specific hidden operands (Gen8 moved the IF
//! operands around, for one); rather than restating them here, each is taken from a template
//! the device's own assembler produced once per [`super::Device`] and given its execution
//! controls and jump distances.

use crate::intel::eu::types::sfid;
use crate::intel::eu::{
    self, AccessMode, Branch, Dst, Imm, Message, Opcode, Predicate, RegFile, RegSrc, RegType,
    Region, Src,
};
use crate::intel::msg::SamplerDesc;
use crate::intel::DevInfo;

use super::gen6;
use super::ir::{File, Inst, Op, Program, Reg};
use super::CompileError;
use crate::intel::flow::FlowTemplates;

fn qtr(inst: &Inst) -> (u8, bool) {
    (inst.group / 8, inst.exec_size == 4 && inst.group % 8 == 4)
}

/// A fixed register with its byte offset brought within the register: a part of a split
/// instruction reads `offset` 32 bytes on into the next register (Gen6 MATH halves of a
/// SIMD16 payload read).
fn within_register(r: &Reg) -> Reg {
    let mut r = *r;
    if r.file == File::Fixed {
        r.nr += r.offset / super::ir::REG_SIZE;
        r.offset %= super::ir::REG_SIZE;
    }
    r
}

fn dst_of(r: &Reg) -> Result<Dst, CompileError> {
    let r = &within_register(r);
    Ok(match r.file {
        File::Null | File::Bad => Dst::null(r.ty),
        File::Fixed => {
            let mut d = Dst::reg(RegFile::Grf, reg_nr(r)?, r.offset as u8, r.ty);
            d.hstride = r.stride.max(1);
            d
        }
        other => {
            return Err(CompileError::Internal(format!(
                "destination in file {other:?} survived lowering"
            )))
        }
    })
}

fn reg_nr(r: &Reg) -> Result<u8, CompileError> {
    u8::try_from(r.nr)
        .ok()
        .filter(|&n| n < 128)
        .ok_or_else(|| CompileError::Internal(format!("register g{} out of range", r.nr)))
}

fn src_of(r: &Reg, exec: u8, align16: bool) -> Result<Src, CompileError> {
    let r = &within_register(r);
    match r.file {
        // The encoding has no negate or abs bit for an immediate: fold them into the value
        // (from_nir writes `b2f32` of a constant as a negated immediate), never drop them.
        File::Imm => {
            let r = if r.neg || r.abs {
                crate::intel::fs::opt::copy_prop::fold_imm(*r).ok_or_else(|| {
                    CompileError::Internal(format!("modifier on a {:?} immediate", r.ty))
                })?
            } else {
                *r
            };
            Ok(Src::Imm(Imm {
                ty: r.ty,
                bits: r.imm,
            }))
        }
        File::Fixed => {
            let region = if let Some(rg) = r.region {
                rg
            } else if align16 {
                if r.stride == 0 {
                    Region::SCALAR
                } else {
                    Region::new(4, 4, 1)
                }
            } else if r.stride == 0 || exec == 1 {
                // One channel reads one element whatever the stride, and the hardware
                // requires a width-1 region to have horizontal stride 0.
                Region::SCALAR
            } else {
                let w = exec.min(8);
                Region::new(w * r.stride, w, r.stride)
            };
            let mut s = RegSrc::new(RegFile::Grf, reg_nr(r)?, r.offset as u8, r.ty, region);
            if align16 && r.stride == 0 {
                // Replicate the scalar's component: .xxxx relative to its subregister.
                s.swizzle = 0;
            }
            s.negate = r.neg;
            s.abs = r.abs;
            Ok(Src::Reg(s))
        }
        File::Null => Ok(Src::Reg(RegSrc::new(
            RegFile::Arf,
            0,
            0,
            r.ty,
            Region::new(8, 8, 1),
        ))),
        other => Err(CompileError::Internal(format!(
            "source in file {other:?} survived lowering"
        ))),
    }
}

/// The immediate a relocated MOV carries until the driver patches it: Mesa's value, chosen
/// because no compaction table can hold it, so the instruction keeps its full 32-bit
/// immediate field wherever it ends up.
pub const RELOC_PLACEHOLDER: u32 = 0x4a7c_c037;

/// The EU instruction index and relocation id of every [`Op::MovRelocImm`] in `prog`, given
/// where each IR instruction starts in the generated code ([`Generated::start`]).
pub fn reloc_sites(prog: &Program, start: &[usize]) -> Vec<(usize, u32)> {
    prog.insts
        .iter()
        .zip(start)
        .filter_map(|(i, &at)| match i.op {
            Op::MovRelocImm { id } => Some((at, id)),
            _ => None,
        })
        .collect()
}

/// A program's EU instructions and where each IR instruction starts in them (DO emits nothing on
/// Gen6+, logical pieces such as UNIFORMIZE several instructions).
pub struct Generated {
    /// The instructions.
    pub insts: Vec<eu::Inst>,
    /// Index in `insts` of the first instruction of every IR instruction, plus the end.
    pub start: Vec<usize>,
}

/// Emits `prog` (fully allocated and lowered) as EU instructions.
pub fn generate(
    devinfo: &DevInfo,
    flow: &FlowTemplates,
    prog: &Program,
) -> Result<Generated, CompileError> {
    let targets = crate::intel::flow::targets(&prog.insts)?;
    let mut out = Vec::with_capacity(prog.insts.len());
    let mut start = Vec::with_capacity(prog.insts.len() + 1);
    // Jumps are resolved once every instruction's position is known: (EU index, IR index of
    // the jump, JIP target, UIP target).
    let mut jumps: Vec<(usize, usize, usize, usize)> = Vec::new();
    // Gen6: results that go straight into message registers.
    let plan = if devinfo.ver < 70 {
        gen6::plan_mrfs(prog)
    } else {
        gen6::MrfPlan {
            dst_mrf: vec![None; prog.insts.len()],
            in_place: vec![0; prog.insts.len()],
        }
    };
    for (ip, inst) in prog.insts.iter().enumerate() {
        start.push(out.len());
        let (q, nib) = qtr(inst);
        let mut e = match inst.op {
            Op::Do => continue,
            Op::Uniformize => {
                out.extend(uniformize(inst, devinfo.ver >= 80 && prog.packed_dispatch)?);
                continue;
            }
            Op::MulHigh => {
                out.extend(mul_high(devinfo, inst)?);
                continue;
            }
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
                e.pred = inst.pred.map(|inv| Predicate {
                    control: 1,
                    inverse: inv,
                });
                e
            }
            Op::Send => {
                // Thread ends wait for earlier render-target writes (sendc); a vertex
                // thread's last URB write has nothing to wait for and is a plain send, as
                // brw emits it.
                let mut e = eu::Inst::new(if inst.eot && inst.sfid != sfid::URB {
                    Opcode::Sendc
                } else {
                    Opcode::Send
                });
                e.dst = match inst.dst.file {
                    File::Fixed => Dst::reg(RegFile::Grf, reg_nr(&inst.dst)?, 0, RegType::UW),
                    _ => Dst::null(RegType::UW),
                };
                let payload = inst
                    .src
                    .first()
                    .ok_or_else(|| CompileError::Internal("send without payload".into()))?;
                let desc = match inst.src.get(1) {
                    Some(index) => {
                        out.extend(indexed_descriptor(inst.desc, index)?);
                        Src::Reg(a0_src())
                    }
                    None => Src::Imm(Imm {
                        ty: RegType::UD,
                        bits: inst.desc as u64,
                    }),
                };
                // Gen6 takes a message only from the message registers: the payload the
                // allocator placed in GRFs is copied there first (see `copy_to_mrfs`).
                let (file, nr) = if devinfo.ver < 70 {
                    out.extend(copy_to_mrfs(payload, inst.mlen, plan.in_place[ip])?);
                    (RegFile::Mrf, MESSAGE_MRF)
                } else {
                    (RegFile::Grf, reg_nr(payload)?)
                };
                e.src = vec![
                    Src::Reg(RegSrc::new(file, nr, 0, RegType::UD, Region::new(8, 8, 1))),
                    desc,
                ];
                e.msg = Some(Message {
                    sfid: inst.sfid,
                    base_mrf: 0,
                    ex_desc: 0,
                });
                e.eot = inst.eot;
                e
            }
            Op::Math(m) => {
                let mut e = eu::Inst::new(Opcode::Math);
                e.math_fn = Some(m);
                e.dst = dst_of(&inst.dst)?;
                let mut srcs: Vec<Src> = inst
                    .src
                    .iter()
                    .map(|s| src_of(s, inst.exec_size, false))
                    .collect::<Result<_, _>>()?;
                if srcs.len() == 1 {
                    srcs.push(src_of(&Reg::null(inst.dst.ty), inst.exec_size, false)?);
                }
                e.src = srcs;
                e
            }
            Op::Alu(Opcode::Wait) => {
                // WAIT n0: stall until the gateway signals the notification count.
                let mut e = eu::Inst::new(Opcode::Wait);
                let n0 = eu::types::arf::NOTIFICATION_COUNT;
                e.dst = Dst::reg(RegFile::Arf, n0, 0, RegType::UD);
                e.src = vec![Src::Reg(RegSrc::new(
                    RegFile::Arf,
                    n0,
                    0,
                    RegType::UD,
                    Region::new(0, 1, 0),
                ))];
                e
            }
            Op::Alu(op) => {
                let mut e = eu::Inst::new(op);
                let align16 = op.is_three_src();
                if align16 {
                    e.access_mode = AccessMode::Align16;
                }
                e.dst = dst_of(&inst.dst)?;
                e.src = inst
                    .src
                    .iter()
                    .map(|s| src_of(s, inst.exec_size, align16))
                    .collect::<Result<_, _>>()?;
                e
            }
            Op::DdyFine => {
                let mut e = eu::Inst::new(Opcode::Add);
                e.access_mode = AccessMode::Align16;
                e.dst = dst_of(&inst.dst)?;
                let mut srcs = Vec::new();
                for (k, s) in inst.src.iter().enumerate() {
                    let Src::Reg(mut r) = src_of(s, inst.exec_size, true)? else {
                        return Err(CompileError::Internal("ddy_fine of an immediate".into()));
                    };
                    // .zwzw for the lower row, .xyxy for the upper one.
                    r.swizzle = if k == 0 { 0xee } else { 0x44 };
                    srcs.push(Src::Reg(r));
                }
                e.src = srcs;
                e
            }
            Op::SelExec => {
                let [value, identity] = &inst.src[..] else {
                    return Err(CompileError::Internal(format!("sel_exec operands: {inst}")));
                };
                let mut all = eu::Inst::new(Opcode::Mov);
                all.exec_size = inst.exec_size;
                all.qtr_ctrl = q;
                all.nib_ctrl = nib;
                all.we_all = true;
                all.dst = dst_of(&inst.dst)?;
                all.src = vec![src_of(identity, inst.exec_size, false)?];
                out.push(all);
                let mut e = eu::Inst::new(Opcode::Mov);
                e.dst = dst_of(&inst.dst)?;
                e.src = vec![src_of(value, inst.exec_size, false)?];
                e
            }
            Op::MovRelocImm { .. } => {
                let mut e = eu::Inst::new(Opcode::Mov);
                e.dst = dst_of(&inst.dst)?;
                e.src = vec![Src::Imm(Imm {
                    ty: inst.dst.ty,
                    bits: RELOC_PLACEHOLDER as u64,
                })];
                e
            }
            Op::LoadPayload | Op::FbWrite { .. } | Op::Tex { .. } => {
                return Err(CompileError::Internal(format!(
                    "logical instruction reached codegen: {inst}"
                )))
            }
        };
        e.exec_size = inst.exec_size;
        e.qtr_ctrl = q;
        e.nib_ctrl = nib;
        e.we_all = inst.we_all;
        if !inst.op.is_flow() {
            e.pred = inst.pred.map(|inv| Predicate {
                control: 1,
                inverse: inv,
            });
        }
        // The IR counts flag subregisters in 16-bit units across f0 and f1 (f1.0 = 2).
        e.flag_nr = inst.flag_subnr / 2;
        e.flag_subnr = inst.flag_subnr % 2;
        e.cond_mod = inst.cmod;
        e.saturate = inst.sat;
        if let Some(m) = plan.dst_mrf[ip] {
            e.dst.file = RegFile::Mrf;
            e.dst.nr = m as u8;
        }
        let _ = devinfo;
        out.push(e);
    }
    start.push(out.len());
    for (at, ip, jip, uip) in jumps {
        let dist = |t: usize| (start[t] as i32 - start[ip] as i32) * 16;
        let e = &mut out[at];
        // A template without UIP (ENDIF, WHILE) keeps it zero.
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
    Ok(Generated { insts: out, start })
}

/// The first message register of every Gen6 message.
const MESSAGE_MRF: u8 = gen6::MESSAGE_MRF as u8;

/// Gen6: the moves putting a message of `mlen` registers, which the allocator placed in
/// consecutive GRFs from `payload`, into the message registers from [`MESSAGE_MRF`] (two
/// registers per compressed move, whatever the channels enabled: the header and the
/// disabled channels' slots go as they are), leaving out those `in_place` says were
/// written there directly (bit k: register k; see [`gen6::plan_mrfs`]).
fn copy_to_mrfs(payload: &Reg, mlen: u8, in_place: u32) -> Result<Vec<eu::Inst>, CompileError> {
    let base = reg_nr(payload)?;
    if payload.offset % super::ir::REG_SIZE != 0 || mlen == 0 || MESSAGE_MRF + mlen > 16 {
        return Err(CompileError::Internal(format!(
            "message of {mlen} registers from g{base}.{} does not fit the message registers",
            payload.offset
        )));
    }
    let missing = |k: u8| in_place & (1 << k) == 0;
    let mut out = Vec::new();
    let mut k = 0u8;
    while k < mlen {
        if !missing(k) {
            k += 1;
            continue;
        }
        let exec = if k + 1 < mlen && missing(k + 1) {
            16
        } else {
            8
        };
        let mut e = eu::Inst::new(Opcode::Mov);
        e.exec_size = exec;
        e.we_all = true;
        e.dst = Dst::reg(RegFile::Mrf, MESSAGE_MRF + k, 0, RegType::UD);
        e.src = vec![Src::Reg(RegSrc::new(
            RegFile::Grf,
            base + k,
            0,
            RegType::UD,
            Region::new(8, 8, 1),
        ))];
        out.push(e);
        k += exec / 8;
    }
    Ok(out)
}

/// Whether a source already holds one value for every channel.
fn is_scalar(r: &Reg) -> bool {
    r.file == File::Imm || r.stride == 0
}

/// A one-channel write-mask-all instruction, the form scalar address and flag arithmetic
/// takes.
fn scalar(op: Opcode, dst: Dst, src: Vec<Src>) -> eu::Inst {
    let mut e = eu::Inst::new(op);
    e.exec_size = 1;
    e.we_all = true;
    e.dst = dst;
    e.src = src;
    e
}

fn a0_dst() -> Dst {
    Dst::reg(RegFile::Arf, eu::types::arf::ADDRESS, 0, RegType::UD)
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

fn imm_ud(bits: u32) -> Src {
    Src::Imm(Imm {
        ty: RegType::UD,
        bits: bits as u64,
    })
}

/// UNIFORMIZE: the first enabled channel is the lowest set bit of a flag register that a
/// compare of every enabled channel set (f1, which nothing else in a program uses, cleared
/// first as a whole so that no stale bit survives), and its dword is read back through the
/// address register; a source that is already scalar is just copied. With `ce0` (Gen8+,
/// packed dispatch) the channel-enable register itself is that mask, as brw reads it.
fn uniformize(inst: &Inst, ce0: bool) -> Result<Vec<eu::Inst>, CompileError> {
    let src = &inst.src[0];
    let dst = dst_of(&inst.dst)?;
    let dst_scalar = Src::Reg(RegSrc::new(
        RegFile::Grf,
        reg_nr(&inst.dst)?,
        inst.dst.offset as u8,
        RegType::UD,
        Region::SCALAR,
    ));
    if is_scalar(src) {
        return Ok(vec![scalar(Opcode::Mov, dst, vec![src_of(src, 1, false)?])]);
    }
    if src.file != File::Fixed || src.stride != 1 || src.ty.size() != 4 {
        return Err(CompileError::Internal(format!(
            "uniformize of an unsupported region: {inst}"
        )));
    }
    let f1 = eu::types::arf::FLAG | 1;
    let clear = scalar(
        Opcode::Mov,
        Dst::reg(RegFile::Arf, f1, 0, RegType::UD),
        vec![imm_ud(0)],
    );
    // One compare per 16 channels: a SIMD32 thread's second half sets f1's upper bits.
    let halves = (inst.exec_size as u32).div_ceil(16);
    let enabled = (0..halves).map(|h| {
        let mut e = eu::Inst::new(Opcode::Mov);
        e.exec_size = inst.exec_size.min(16);
        let (q, nib) = qtr(inst);
        e.qtr_ctrl = q + 2 * h as u8;
        e.nib_ctrl = nib;
        e.dst = Dst::null(RegType::UW);
        e.src = vec![Src::Imm(Imm {
            ty: RegType::UW,
            bits: 0,
        })];
        e.cond_mod = eu::CondMod::Z;
        e.flag_nr = 1;
        e
    });
    let first = scalar(
        Opcode::Fbl,
        dst,
        vec![Src::Reg(RegSrc::new(
            RegFile::Arf,
            f1,
            0,
            RegType::UD,
            Region::SCALAR,
        ))],
    );
    let byte = scalar(Opcode::Shl, a0_dst(), vec![dst_scalar, imm_ud(2)]);
    let base = reg_nr(src)? as u32 * super::ir::REG_SIZE + src.offset;
    let addr = scalar(
        Opcode::Add,
        a0_dst(),
        vec![Src::Reg(a0_src()), imm_ud(base)],
    );
    let mut value = RegSrc::new(RegFile::Grf, 0, 0, RegType::UD, Region::SCALAR);
    value.indirect = Some(eu::Indirect {
        addr_subnr: 0,
        offset: 0,
    });
    let read = scalar(Opcode::Mov, dst, vec![Src::Reg(value)]);
    if ce0 {
        let mask = Src::Reg(RegSrc::new(
            RegFile::Arf,
            eu::types::arf::MASK,
            0,
            RegType::UD,
            Region::SCALAR,
        ));
        let first = scalar(Opcode::Fbl, dst_of(&inst.dst)?, vec![mask]);
        return Ok(vec![first, byte, addr, read]);
    }
    Ok(std::iter::once(clear)
        .chain(enabled)
        .chain([first, byte, addr, read])
        .collect())
}

/// MULH as the hardware computes it: `mul acc0, a, b` leaves the partial product of `a` and
/// the low 16 bits of `b` in the accumulator at full precision, and `mach dst, a, b` adds
/// the product of `a` and `b`'s high 16 bits to it and keeps the upper 32 bits.
///
/// Gen7 reads a dword `b` as its low word for the accumulator's product by itself. Gen8+
/// multiplies all 32 bits, so its MUL is told to read the low words only (`b` as UW at twice
/// the stride, an immediate as a UW immediate of its low half), or the MACH would add the
/// high half twice. The MUL names acc0 explicitly; the MACH reads the accumulator
/// implicitly, through the accumulator its quarter control selects, which on Ivy Bridge
/// is the nonexistent integer acc1 for the second quarter: the IR gives Ivy Bridge only
/// first-quarter MULHs (see `mul_high` in `from_nir::alu`), and this refuses any other.
fn mul_high(devinfo: &DevInfo, inst: &Inst) -> Result<Vec<eu::Inst>, CompileError> {
    let fail = |what: &str| Err(CompileError::Internal(format!("{what}: {inst}")));
    if inst.exec_size > 8 {
        return fail("a MULH wider than the accumulator's 8 dwords");
    }
    if devinfo.ver == 70 && inst.group >= 8 {
        return fail("an Ivy Bridge MULH whose MACH would read acc1");
    }
    if inst.sat || inst.cmod != eu::CondMod::None {
        return fail("a MULH with a saturate or conditional modifier");
    }
    let (a, b) = match inst.src.as_slice() {
        [a, b] if a.file != File::Imm && ![a, b].iter().any(|s| s.neg || s.abs) => (a, b),
        _ => return fail("a MULH with an immediate first source or a source modifier"),
    };
    let ty = inst.dst.ty;
    if !matches!(ty, RegType::D | RegType::UD) || a.ty != ty || b.ty != ty {
        return fail("a MULH not of D or UD operands");
    }
    let mul_b = if devinfo.ver >= 80 {
        if b.file == File::Imm {
            Reg::imm(RegType::UW, b.imm as u32 & 0xffff)
        } else {
            Reg {
                ty: RegType::UW,
                stride: b.stride * 2,
                ..*b
            }
        }
    } else {
        *b
    };
    let exec = inst.exec_size;
    let (q, nib) = qtr(inst);
    let controls = |mut e: eu::Inst| {
        e.exec_size = exec;
        e.qtr_ctrl = q;
        e.nib_ctrl = nib;
        e.we_all = inst.we_all;
        e.pred = inst.pred.map(|inv| Predicate {
            control: 1,
            inverse: inv,
        });
        e.flag_nr = inst.flag_subnr / 2;
        e.flag_subnr = inst.flag_subnr % 2;
        e
    };
    let mut mul = eu::Inst::new(Opcode::Mul);
    mul.dst = Dst::reg(
        RegFile::Arf,
        eu::types::arf::ACCUMULATOR,
        (inst.group % 8) * 4,
        ty,
    );
    mul.src = vec![src_of(a, exec, false)?, src_of(&mul_b, exec, false)?];
    let mut mach = eu::Inst::new(Opcode::Mach);
    mach.dst = dst_of(&inst.dst)?;
    mach.src = vec![src_of(a, exec, false)?, src_of(b, exec, false)?];
    Ok(vec![controls(mul), controls(mach)])
}

/// The address-register descriptor of an indexed sampler message: the index (a scalar
/// dword) times 0x101 adds it to the sampler (bits 11:8) and binding-table (bits 7:0)
/// indices, masked to those twelve bits as brw does so that a stray index cannot reach the
/// message type, then the rest of the descriptor is ORed in.
fn indexed_descriptor(desc: u32, index: &Reg) -> Result<Vec<eu::Inst>, CompileError> {
    let mut v = vec![scalar(
        Opcode::Mul,
        a0_dst(),
        vec![
            src_of(
                &Reg {
                    stride: 0,
                    ..*index
                },
                1,
                false,
            )?,
            Src::Imm(Imm {
                ty: RegType::UW,
                bits: 0x101,
            }),
        ],
    )];
    if desc & SamplerDesc::INDEX_BITS != 0 {
        v.push(scalar(
            Opcode::Add,
            a0_dst(),
            vec![Src::Reg(a0_src()), imm_ud(desc & SamplerDesc::INDEX_BITS)],
        ));
    }
    v.push(scalar(
        Opcode::And,
        a0_dst(),
        vec![Src::Reg(a0_src()), imm_ud(SamplerDesc::INDEX_BITS)],
    ));
    v.push(scalar(
        Opcode::Or,
        a0_dst(),
        vec![Src::Reg(a0_src()), imm_ud(desc & !SamplerDesc::INDEX_BITS)],
    ));
    Ok(v)
}
