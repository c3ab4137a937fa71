//! Memory: SSBOs and shared memory as untyped surfaces ([`SSBO_SURFACE_BASE`](crate::intel::backend::binding::SSBO_SURFACE_BASE) + block,
//! [`SLM_SURFACE`]), their atomics, the fences of barriers with a memory scope, NIR scratch
//! (DWORD scattered messages to the stateless surface, one dword per channel) and global
//! constant data read with A64 messages from relocated addresses (per channel, or on Gen9
//! one OWord block read per uniform block load).

use crate::intel::eu::types::sfid;
use crate::intel::eu::{Opcode, RegType};
use crate::intel::msg::{self, Lengths};
use crate::nir::{self, AluOp, IndexKind, InstrKind, Intrinsic, IntrinsicInstr, SsaId};

use super::super::ir::{File, Op, Reg};
use super::{intrinsic_def, intrinsic_src, unsupported, CompileError, Translator};

/// The memory a fence orders, from a barrier's `memory_modes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct MemoryModes {
    /// SSBOs and global memory (untyped data-cache messages).
    global: bool,
    /// Workgroup-shared memory (SLM).
    shared: bool,
    /// Storage images (typed messages: the render cache on Ivybridge).
    image: bool,
}

impl MemoryModes {
    const NONE: MemoryModes = MemoryModes {
        global: false,
        shared: false,
        image: false,
    };
    const ALL: MemoryModes = MemoryModes {
        global: true,
        shared: true,
        image: true,
    };

    /// Reads nir_print's `ssbo|shared|image|global` list (other modes order nothing the
    /// fragment and compute stages write).
    fn parse(text: &str) -> MemoryModes {
        let mut m = MemoryModes::NONE;
        for w in text.split('|').map(str::trim) {
            match w {
                "ssbo" | "global" => m.global = true,
                "shared" => m.shared = true,
                "image" => m.image = true,
                _ => {}
            }
        }
        m
    }
}

/// Binding-table index of shared local memory (Mesa's `BRW_SLM_SURFACE_INDEX`).
pub const SLM_SURFACE: u32 = crate::intel::backend::binding::SLM_SURFACE_INDEX;

/// Descriptor of a Gen8 SIMD8 A64 untyped surface read of `n` dwords per channel (data
/// cache 1, the stateless surface): two registers of 64-bit addresses in, `n` registers
/// back. For `n` = 4 this is Mesa's 0x044460fd.
pub fn a64_untyped_read_desc(n: u32) -> u32 {
    msg::a64_untyped_read(Lengths::new(2, n, false), n, false).encode(80)
}

/// Descriptor of a Gen9 A64 unaligned OWord block read of `dwords` dwords (8, 16 or 32) on
/// data cache 1: the header (the address) in, one reply register per 8 dwords, the address
/// only dword aligned.
fn a64_unaligned_oword_block_read_desc(dwords: u32) -> u32 {
    msg::a64_oword_block_read(Lengths::new(1, dwords / 8, true), dwords, true).encode(90)
}

impl Translator<'_> {
    /// Where an SSBO or shared-memory access goes: the surface, the byte offset operand and
    /// the constant base added to it. Its sources start at `first` (a store's value comes
    /// before them): an SSBO access names its block and then the offset, a shared one only
    /// the offset, and only shared accesses have a `base` index.
    fn surface_location(
        &mut self,
        i: &IntrinsicInstr,
        first: usize,
    ) -> Result<(u32, Reg, u32), CompileError> {
        if matches!(i.intrinsic, Intrinsic::LoadSsbo | Intrinsic::StoreSsbo) {
            let surface = self.ssbo_surface(intrinsic_src(i, first)?)?;
            let offset = self.comp(intrinsic_src(i, first + 1)?, 0)?;
            return Ok((surface, offset, 0));
        }
        self.compute_only(i.intrinsic.name())?;
        let offset = self.comp(intrinsic_src(i, first)?, 0)?;
        let base = i.int_index(IndexKind::Base).unwrap_or(0) as u32;
        Ok((SLM_SURFACE, offset, base))
    }

    /// `load_ssbo` or `load_shared`: an untyped surface read.
    pub(super) fn emit_surface_load(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let name = i.intrinsic.name();
        let (n, bits) = self.def_info(intrinsic_def(i)?)?;
        if bits != 32 {
            return Err(unsupported(format!("{name} of {bits}-bit data")));
        }
        let (surface, offset, base) = self.surface_location(i, 0)?;
        let addr = self.address(offset, base);
        let out = self.untyped_read(surface, addr, n as u32)?;
        self.set(intrinsic_def(i)?, out);
        Ok(())
    }

    /// `store_ssbo` or `store_shared`: untyped surface writes.
    pub(super) fn emit_surface_store(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let name = i.intrinsic.name();
        let (_, bits) = self.def_info(intrinsic_src(i, 0)?)?;
        if bits != 32 {
            return Err(unsupported(format!("{name} of {bits}-bit data")));
        }
        let (surface, offset, base) = self.surface_location(i, 1)?;
        let value = self.value(intrinsic_src(i, 0)?)?.clone();
        let mask = i.int_index(IndexKind::WriteMask).unwrap_or(1) as u32;
        // One message per run of consecutive written components.
        let mut c = 0;
        while c < value.len() as u32 {
            if mask & (1 << c) == 0 {
                c += 1;
                continue;
            }
            let start = c;
            while c < value.len() as u32 && mask & (1 << c) != 0 && c - start < 4 {
                c += 1;
            }
            let addr = self.address(offset, base + 4 * start);
            self.untyped_write(surface, addr, &value[start as usize..c as usize])?;
        }
        Ok(())
    }

    /// An SSBO or shared-memory atomic: an untyped atomic message, its NIR `atomic_op`
    /// mapped to Mesa's `BRW_AOP_*` numbering.
    pub(super) fn emit_surface_atomic(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let name = i.intrinsic.name();
        let ssbo = matches!(
            i.intrinsic,
            Intrinsic::SsboAtomic | Intrinsic::SsboAtomicSwap
        );
        let (surface, first) = if ssbo {
            (self.ssbo_surface(intrinsic_src(i, 0)?)?, 1)
        } else {
            self.compute_only(name)?;
            (SLM_SURFACE, 0)
        };
        let base = if ssbo {
            0
        } else {
            i.int_index(IndexKind::Base).unwrap_or(0) as u32
        };
        let op = match i.index(IndexKind::AtomicOp) {
            // Structured indices keep their spelling (`atomic_op=iadd`).
            Some(nir::IndexValue::Text(t)) => t.strip_prefix("atomic_op=").unwrap_or(t).to_string(),
            _ => return Err(CompileError::Invalid(format!("{name} without atomic_op"))),
        };
        let swap = matches!(
            i.intrinsic,
            Intrinsic::SsboAtomicSwap | Intrinsic::SharedAtomicSwap
        );
        let aop = msg::aop_for_nir(&op, swap)
            .ok_or_else(|| unsupported(format!("{name} with atomic_op={op}")))?;
        let offset = self.comp(intrinsic_src(i, first)?, 0)?;
        let mut data = vec![self.comp(intrinsic_src(i, first + 1)?, 0)?];
        if swap {
            data.push(self.comp(intrinsic_src(i, first + 2)?, 0)?);
        }
        let addr = self.address(offset, base);
        let old = self.untyped_atomic(surface, aop, addr, &data, i.def.is_some());
        if let Some(d) = i.def {
            self.set(d, vec![old]);
        }
        Ok(())
    }

    /// `load_reloc_const_intel`: see `reloc_const`.
    pub(super) fn emit_reloc_const(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let id = i.int_index(IndexKind::ParamIdx).unwrap_or(0) as u32;
        let v = self.reloc_const(id)?;
        self.set(intrinsic_def(i)?, vec![v]);
        Ok(())
    }

    /// `load_global_constant`: see `a64_read`; its block form on Gen9: see
    /// `a64_block_read`.
    pub(super) fn emit_global_constant(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        // The A64 OWord block read is Gen9's (data cache 1 message 0x14); Gen8 reads the
        // same bytes per channel.
        if i.intrinsic == Intrinsic::LoadGlobalConstantUniformBlockIntel && self.devinfo.ver >= 90 {
            return self.a64_block_read(i);
        }
        let (n, bits) = self.def_info(intrinsic_def(i)?)?;
        let addr = self.comp(intrinsic_src(i, 0)?, 0)?;
        let out = self.a64_read(i.intrinsic.name(), addr, n as u32, bits)?;
        self.set(intrinsic_def(i)?, out);
        Ok(())
    }

    /// A 32-bit value the driver writes into the code after compilation (Mesa's
    /// MOV_RELOC_IMM, relocation `id`), moved once with write-mask-all and read as a scalar.
    /// Only Gen8+ reads constant data through such addresses (with A64 messages).
    fn reloc_const(&mut self, id: u32) -> Result<Reg, CompileError> {
        if self.devinfo.ver < 80 {
            return Err(unsupported(format!(
                "load_reloc_const_intel on {} (relocated constant-data addresses are read \
                 with A64 messages, which exist from Gen8 on)",
                self.devinfo.name
            )));
        }
        let small = Reg::vgrf(self.prog.alloc(1), RegType::UD);
        let m = self.push(Op::MovRelocImm { id }, small, vec![]);
        m.exec_size = 1;
        m.we_all = true;
        Ok(Reg { stride: 0, ..small })
    }

    /// `load_global_constant` of `n` dwords per channel from the 64-bit addresses in `addr`
    /// (from `u2u64`): A64 untyped surface reads on data cache 1, SIMD8 only as brw sends
    /// them (a SIMD16 thread sends one per half), whose halves are then gathered into
    /// full-width values.
    fn a64_read(
        &mut self,
        what: &str,
        addr: Reg,
        n: u32,
        bits: u8,
    ) -> Result<Vec<Reg>, CompileError> {
        if self.devinfo.ver < 80 {
            return Err(unsupported(format!(
                "`{what}` on {} (A64 messages exist from Gen8 on)",
                self.devinfo.name
            )));
        }
        if bits != 32 || !(1..=4).contains(&n) {
            return Err(unsupported(format!(
                "`{what}` of {n}x{bits}-bit data (1 to 4 dwords are implemented)"
            )));
        }
        if addr.ty != RegType::UQ || addr.file != File::Vgrf {
            return Err(unsupported(format!(
                "`{what}` from an address that is not a zero-extended 32-bit value"
            )));
        }
        let halves = self.width as u32 / 8;
        let mut parts = Vec::with_capacity(halves as usize);
        for h in 0..halves {
            let dst = Reg::vgrf(self.prog.alloc(n), RegType::UD);
            let send = self.push(Op::Send, dst, vec![addr.reg_offset(2 * h)]);
            send.exec_size = 8;
            send.group = 8 * h as u8;
            send.mlen = 2;
            send.rlen = n as u8;
            send.sfid = sfid::DATA_CACHE_1;
            send.desc = a64_untyped_read_desc(n);
            parts.push(dst);
        }
        if halves == 1 {
            return Ok((0..n).map(|c| parts[0].reg_offset(c)).collect());
        }
        let mut out = Vec::with_capacity(n as usize);
        for c in 0..n {
            let d = self.vgrf(RegType::UD);
            for (h, part) in parts.iter().enumerate() {
                let m = self.alu(
                    Opcode::Mov,
                    d.reg_offset(h as u32),
                    vec![part.reg_offset(c)],
                );
                m.exec_size = 8;
                m.group = 8 * h as u8;
            }
            out.push(d);
        }
        Ok(out)
    }

    /// `load_global_constant_uniform_block_intel` as brw emits it on Gen9: the address of
    /// the first enabled channel in dwords 1:0 of a zeroed header, one A64 unaligned OWord
    /// block read of 8 dwords (one reply register; the address need only be dword
    /// aligned), and the components taken from the reply as scalars. The address is the
    /// zero-extension (`u2u64`) of a 32-bit value, as iris builds it from the relocated
    /// constant-data address, so the 32-bit value is what is made uniform and the high
    /// dword is zero.
    fn a64_block_read(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        use RegType::UD;
        let def = intrinsic_def(i)?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 || !(1..=8).contains(&n) {
            return Err(unsupported(format!(
                "load_global_constant_uniform_block_intel of {n}x{bits}-bit data (up to 8 \
                 dwords, one block, are implemented)"
            )));
        }
        let address = intrinsic_src(i, 0)?;
        let low = match self.imp.def_instr(address).map(|d| &d.kind) {
            Some(InstrKind::Alu(a)) if a.op == AluOp::u2u64 => {
                let s = a
                    .srcs
                    .first()
                    .ok_or_else(|| CompileError::Invalid("u2u64 lacks source 0".into()))?;
                self.comp(s.ssa, s.swizzle[0] as usize)?
            }
            _ => {
                return Err(unsupported(
                    "load_global_constant_uniform_block_intel from an address that is not a \
                     zero-extended 32-bit value",
                ))
            }
        };
        let low = self.uniform_dword(low);
        let header = Reg::vgrf(self.prog.alloc(1), UD);
        let clear = self.alu(Opcode::Mov, header, vec![Reg::imm(UD, 0)]);
        clear.exec_size = 8;
        clear.we_all = true;
        let m = self.alu(Opcode::Mov, header, vec![low]);
        m.exec_size = 1;
        m.we_all = true;
        let reply = Reg::vgrf(self.prog.alloc(1), UD);
        let send = self.push(Op::Send, reply, vec![header]);
        send.exec_size = 8;
        send.we_all = true;
        send.mlen = 1;
        send.rlen = 1;
        send.sfid = sfid::DATA_CACHE_1;
        send.desc = a64_unaligned_oword_block_read_desc(8);
        let mut out = Vec::with_capacity(n as usize);
        for c in 0..n as u32 {
            let d = self.vgrf(UD);
            let src = Reg {
                offset: 4 * c,
                stride: 0,
                ..reply
            };
            self.alu(Opcode::Mov, d, vec![src]);
            out.push(d);
        }
        self.set(def, out);
        Ok(())
    }

    /// `v` as one dword for every channel: itself when it already is one (an immediate, a
    /// push constant or another scalar), else the value of the first enabled channel (see
    /// [`Op::Uniformize`]) — for values NIR knows to be dynamically uniform.
    pub(super) fn uniform_dword(&mut self, v: Reg) -> Reg {
        let v = v.retype(RegType::UD);
        if v.file == File::Imm || v.stride == 0 {
            return v;
        }
        let u = Reg::vgrf(self.prog.alloc(1), RegType::UD);
        self.push(Op::Uniformize, u, vec![v]);
        Reg { stride: 0, ..u }
    }

    /// The binding-table index of the SSBO block `block` names (a constant).
    fn ssbo_surface(&mut self, block: SsaId) -> Result<u32, CompileError> {
        let b = self
            .imp
            .const_value(block)
            .and_then(|v| v.first().copied())
            .ok_or_else(|| unsupported("SSBO access with a non-constant block index"))?;
        let base = self.facts.ssbo_surface_base;
        let index = crate::intel::backend::binding::ssbo_binding_table_index(base, b)
            .map_err(unsupported)?;
        self.facts.surfaces.ssbo_blocks.insert(b as u32);
        Ok(index)
    }

    /// Per-channel byte addresses `offset + base` in a register of their own (a message
    /// payload cannot point at immediates or push constants).
    fn address(&mut self, offset: Reg, base: u32) -> Reg {
        let a = self.vgrf(RegType::UD);
        if base == 0 {
            self.alu(Opcode::Mov, a, vec![offset.retype(RegType::UD)]);
        } else {
            let off = self.in_grf(offset.retype(RegType::UD));
            self.alu(Opcode::Add, a, vec![off, Reg::imm(RegType::UD, base)]);
        }
        a
    }

    /// Shared function and message type of an untyped surface read, write (Gen7: data cache;
    /// Haswell and later: data cache 1, with its own numbering) and its descriptor.
    fn untyped_desc(
        &self,
        write: bool,
        mlen: u32,
        rlen: u32,
        comps: u32,
        surface: u32,
    ) -> (u8, u32) {
        let ver = self.devinfo.ver;
        let len = Lengths::new(mlen, rlen, false);
        let (sfid, desc) = msg::untyped_surface(ver, len, surface, write, comps, self.width == 16);
        (sfid, desc.encode(ver))
    }

    /// Reads `n` consecutive dwords per channel from `addr` on `surface`.
    fn untyped_read(&mut self, surface: u32, addr: Reg, n: u32) -> Result<Vec<Reg>, CompileError> {
        if !(1..=4).contains(&n) {
            return Err(unsupported(format!("{n}-component untyped read")));
        }
        let per = self.per();
        let dst = Reg::vgrf(self.prog.alloc(n * per), RegType::UD);
        let (sfid, desc) = self.untyped_desc(false, per, n * per, n, surface);
        let send = self.push(Op::Send, dst, vec![addr]);
        send.mlen = per as u8;
        send.rlen = (n * per) as u8;
        send.desc = desc;
        send.sfid = sfid;
        Ok((0..n).map(|c| dst.reg_offset(c * per)).collect())
    }

    /// Writes `vals` as consecutive dwords per channel at `addr` on `surface`.
    fn untyped_write(&mut self, surface: u32, addr: Reg, vals: &[Reg]) -> Result<(), CompileError> {
        let n = vals.len() as u32;
        let per = self.per();
        let payload = Reg::vgrf(self.prog.alloc((1 + n) * per), RegType::UD);
        let mut srcs = vec![addr];
        srcs.extend(vals.iter().map(|v| v.retype(RegType::UD)));
        self.push(Op::LoadPayload, payload, srcs);
        let (sfid, desc) = self.untyped_desc(true, (1 + n) * per, 0, n, surface);
        let send = self.push(Op::Send, Reg::null(RegType::UW), vec![payload]);
        send.mlen = ((1 + n) * per) as u8;
        send.desc = desc;
        send.sfid = sfid;
        Ok(())
    }

    /// An untyped atomic (Mesa's `BRW_AOP_*` operation `aop`) on the dword at `addr`,
    /// returning the old value when `ret` is set.
    fn untyped_atomic(
        &mut self,
        surface: u32,
        aop: u32,
        addr: Reg,
        data: &[Reg],
        ret: bool,
    ) -> Reg {
        let per = self.per();
        let n = 1 + data.len() as u32;
        let payload = Reg::vgrf(self.prog.alloc(n * per), RegType::UD);
        let mut srcs = vec![addr];
        srcs.extend(data.iter().map(|v| v.retype(RegType::UD)));
        self.push(Op::LoadPayload, payload, srcs);
        let rlen = if ret { per } else { 0 };
        let dst = if ret {
            self.vgrf(RegType::UD)
        } else {
            Reg::null(RegType::UW)
        };
        let ver = self.devinfo.ver;
        let len = Lengths::new(n * per, rlen, false);
        let (sfid, desc) = msg::untyped_atomic(ver, len, surface, aop, self.width == 8, ret);
        let send = self.push(Op::Send, dst, vec![payload]);
        send.mlen = (n * per) as u8;
        send.rlen = rlen as u8;
        send.desc = desc.encode(ver);
        send.sfid = sfid;
        dst
    }

    /// The fence of a barrier with a memory scope, for the memory its `memory_modes` name
    /// (all of it when the barrier does not say).
    pub(super) fn emit_barrier_fence(&mut self, i: &IntrinsicInstr) {
        let modes = match i.index(IndexKind::MemoryModes) {
            Some(nir::IndexValue::Text(t)) => {
                MemoryModes::parse(t.strip_prefix("mem_modes=").unwrap_or(t))
            }
            _ => MemoryModes::ALL,
        };
        self.emit_memory_fence(modes);
    }

    /// A memory fence as brw emits it before Icelake: one data-cache fence message for SSBO,
    /// shared and image memory, plus on Ivybridge a render-cache fence for images (typed
    /// messages go through the render cache there). Only that two-fence case (and Gen9)
    /// asks for commits; with two fences the thread waits for both replies by reading them.
    ///
    /// Shared memory needs no fence when the shader has none, or when the whole workgroup runs
    /// in this one thread: its messages are processed in order.
    fn emit_memory_fence(&mut self, modes: MemoryModes) {
        let shared = modes.shared
            && self.facts.compute.as_ref().is_some_and(|c| {
                c.shared_size > 0 && c.local_size.iter().product::<u32>() > self.width as u32
            });
        let render = modes.image && self.devinfo.ver == 70;
        // brw also asks for the commit on Gen9 (its simulator requires it there).
        let commit = render || self.devinfo.ver == 90;
        let mut replies = Vec::new();
        if modes.global || shared || modes.image {
            replies.extend(self.fence(sfid::DATA_CACHE, commit));
        }
        if render {
            replies.extend(self.fence(sfid::RENDER_CACHE, commit));
        }
        if replies.len() > 1 {
            for r in replies {
                // A read of the commit reply stalls until that fence has completed.
                let m = self.alu(Opcode::Mov, Reg::null(RegType::UW), vec![r]);
                m.exec_size = 1;
                m.we_all = true;
            }
        }
    }

    /// One fence message (data-port message type 7 on both caches): the thread header as
    /// payload, header present, and with `commit` a one-register reply (function control
    /// bit 5) written when the fence has completed. Returns the reply register.
    fn fence(&mut self, sfid: u8, commit: bool) -> Option<Reg> {
        let dst = commit.then(|| Reg::vgrf(self.prog.alloc(1), RegType::UW));
        let desc = msg::fence(commit).encode(self.devinfo.ver);
        let send = self.push(
            Op::Send,
            dst.unwrap_or(Reg::null(RegType::UW)),
            vec![Reg::fixed(0, 0, RegType::UD, 1)],
        );
        send.exec_size = 1;
        send.we_all = true;
        send.mlen = 1;
        send.rlen = commit as u8;
        send.desc = desc;
        send.sfid = sfid;
        dst.map(|d| Reg { stride: 0, ..d })
    }

    /// Each channel's index in the thread as a dword: the 0..7 vector immediate, plus 8 for
    /// the second half of a SIMD16 thread (and 16 for the upper half of a SIMD32 one),
    /// widened. Written with write-mask-all so that it is whole wherever it is read.
    pub(super) fn emit_channel_index(&mut self) -> Reg {
        use RegType::{UD, UW};
        let words = Reg::vgrf(self.prog.alloc(self.width.div_ceil(16) as u32), UW);
        let m = self.alu(Opcode::Mov, words, vec![Reg::imm(RegType::V, 0x7654_3210)]);
        m.exec_size = 8;
        m.we_all = true;
        if self.width >= 16 {
            let hi = Reg {
                offset: 16,
                ..words
            };
            let a = self.alu(Opcode::Add, hi, vec![words, Reg::imm(UW, 8)]);
            a.exec_size = 8;
            a.we_all = true;
        }
        if self.width == 32 {
            let hi = Reg {
                offset: 32,
                ..words
            };
            let a = self.alu(Opcode::Add, hi, vec![words, Reg::imm(UW, 16)]);
            a.exec_size = 16;
            a.we_all = true;
        }
        let idx = self.vgrf(UD);
        let m = self.alu(Opcode::Mov, idx, vec![words]);
        m.we_all = true;
        idx
    }

    /// `load_scratch` / `store_scratch` of one dword, as brw does before Gen12.5: a DWORD
    /// scattered message to the stateless surface (BTI 255 on Gen7, 253 on Gen8) with a
    /// scratch header. Scratch is swizzled so that the channels' copies of one NIR dword are
    /// consecutive: NIR byte offset `a` of channel `c` is dword `(a / 4) * width + c`.
    pub(super) fn emit_scratch(
        &mut self,
        i: &IntrinsicInstr,
        store: bool,
    ) -> Result<(), CompileError> {
        use RegType::UD;
        let name = i.intrinsic.name();
        let data_def = if store {
            intrinsic_src(i, 0)?
        } else {
            intrinsic_def(i)?
        };
        let (n, bits) = self.def_info(data_def)?;
        if n != 1 || bits != 32 {
            return Err(unsupported(format!(
                "{name} of {n}x{bits}-bit data (one dword per access is implemented)"
            )));
        }
        let align_mul = i.int_index(IndexKind::AlignMul).unwrap_or(4) as u32;
        let align_off = i.int_index(IndexKind::AlignOffset).unwrap_or(0) as u32;
        let align = if align_off != 0 {
            1 << align_off.trailing_zeros()
        } else {
            align_mul
        };
        if align < 4 {
            return Err(unsupported(format!(
                "{name} at a {align}-byte alignment (byte scattered messages)"
            )));
        }
        if store && i.int_index(IndexKind::WriteMask).unwrap_or(1) & 1 == 0 {
            return Ok(());
        }
        let chan = self.chan_index.ok_or_else(|| {
            CompileError::Internal("scratch access without a channel index".into())
        })?;
        let base = i.int_index(IndexKind::Base).unwrap_or(0) as u32;
        let offset = self.comp(intrinsic_src(i, if store { 1 } else { 0 })?, 0)?;
        let nir_addr = self.address(offset, base);
        let addr = self.vgrf(UD);
        let shift = (self.width as u32).trailing_zeros() - 2;
        self.alu(Opcode::Shl, addr, vec![nir_addr, Reg::imm(UD, shift)]);
        self.alu(Opcode::Or, addr, vec![addr, chan]);
        // Scratch header: the per-thread scratch size (g0.3 bits 3:0) and base (g0.5 bits
        // 31:10) the hardware adds to the offsets.
        let header = Reg::vgrf(self.prog.alloc(1), UD);
        let clear = self.alu(Opcode::Mov, header, vec![Reg::imm(UD, 0)]);
        clear.exec_size = 8;
        clear.we_all = true;
        for (dword, mask) in [(3u32, 0xfu32), (5, 0xffff_fc00)] {
            let and = self.alu(
                Opcode::And,
                Reg {
                    offset: 4 * dword,
                    ..header
                },
                vec![Reg::fixed(0, 4 * dword, UD, 0), Reg::imm(UD, mask)],
            );
            and.exec_size = 1;
            and.we_all = true;
        }
        let per = self.per();
        let mut srcs = vec![header, addr];
        if store {
            srcs.push(self.comp(data_def, 0)?.retype(UD));
        }
        let mlen = 1 + per * (srcs.len() as u32 - 1);
        let payload = Reg::vgrf(self.prog.alloc(mlen), UD);
        self.push(Op::LoadPayload, payload, srcs).header_size = 1;
        let bti = if self.devinfo.ver >= 80 { 253 } else { 255 };
        let rlen = if store { 0 } else { per };
        let dst = if store {
            Reg::null(RegType::UW)
        } else {
            self.vgrf(UD)
        };
        let len = Lengths::new(mlen, rlen, true);
        let desc = msg::dword_scattered(len, bti, store, self.width == 16).encode(self.devinfo.ver);
        let send = self.push(Op::Send, dst, vec![payload]);
        send.mlen = mlen as u8;
        send.rlen = rlen as u8;
        send.desc = desc;
        send.sfid = sfid::DATA_CACHE;
        if store {
            self.facts.scratch_writes += 1;
        } else {
            self.facts.scratch_reads += 1;
            self.set(data_def, vec![dst]);
        }
        Ok(())
    }
}
