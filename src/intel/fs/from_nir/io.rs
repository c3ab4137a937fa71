//! The fragment thread's inputs and outputs: the payload layout (barycentrics, source depth
//! and W), attribute setup data for interpolated and flat inputs, push constants and pull
//! constants (UBO loads), colour and depth outputs, discards, and the render-target writes
//! that end the thread.
//!
//! Centroid, sample and non-perspective barycentrics are packed in the payload in Mesa's
//! `brw_barycentric_mode` order; dual-source blending sends a second colour in the render
//! target 0 write.

use crate::intel::eu::types::sfid;
use crate::intel::eu::{CondMod, MathFn, Opcode, RegType, Region};
use crate::intel::msg::{self, Lengths, OwordBlock};
use crate::intel::vue::{
    VueMap, VARYING_SLOT_LAYER, VARYING_SLOT_POS, VARYING_SLOT_PSIZ, VARYING_SLOT_VIEWPORT,
};
use crate::nir::{self, IndexKind, InstrKind, Intrinsic, IntrinsicInstr, SsaId};

use super::super::ir::{File, Op, Reg, TexKind};
use super::{intrinsic_def, intrinsic_src, unsupported, CompileError, Translator};

impl Translator<'_> {
    /// A barycentric load: the payload registers of its mode (see `plan_payload`).
    pub(super) fn emit_barycentric(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let name = i.intrinsic.name();
        let mode = barycentric_mode(i.intrinsic, i);
        let base = self.facts.payload.barycentric[mode]
            .ok_or_else(|| unsupported(format!("{name} outside a fragment shader")))?;
        self.set(
            intrinsic_def(i)?,
            vec![Reg::fixed(base, 0, RegType::F, 1); 2],
        );
        Ok(())
    }

    /// `load_interpolated_input`: PLN of each component's plane with the barycentrics.
    pub(super) fn emit_interpolated_input(
        &mut self,
        i: &IntrinsicInstr,
    ) -> Result<(), CompileError> {
        let bary_id = intrinsic_src(i, 0)?;
        let bary = self.comp(bary_id, 0)?;
        // `noperspective` inputs read barycentrics of interpolation mode 3.
        let noperspective = matches!(
            self.imp.def_instr(bary_id).map(|d| &d.kind),
            Some(InstrKind::Intrinsic(b)) if b.int_index(IndexKind::InterpMode) == Some(3)
        );
        let base = i.int_index(IndexKind::Base).unwrap_or(0) as u32;
        if noperspective && !self.facts.noperspective_inputs.contains(&base) {
            self.facts.noperspective_inputs.push(base);
        }
        let mut out = Vec::new();
        // SIMD32: the upper 16 channels' barycentrics are a set of their own further on in
        // the payload, so each half gets its own PLN.
        let upper_bary = if self.width == 32 {
            Some(self.upper_payload_reg(bary)?)
        } else {
            None
        };
        for attr in self.input_attrs(i, intrinsic_src(i, 1)?, intrinsic_def(i)?, false)? {
            let d = self.vgrf(RegType::F);
            match upper_bary {
                None => {
                    self.alu(Opcode::Pln, d, vec![attr, bary]);
                }
                Some(hi) => {
                    self.half(Opcode::Pln, 0, d, vec![attr, bary]);
                    self.half(Opcode::Pln, 1, d.horiz_offset(16), vec![attr, hi]);
                }
            }
            out.push(d);
        }
        self.set(intrinsic_def(i)?, out);
        Ok(())
    }

    /// `load_input` of a flat input: the constant term of each component's plane.
    pub(super) fn emit_flat_input(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let mut out = Vec::new();
        for attr in self.input_attrs(i, intrinsic_src(i, 0)?, intrinsic_def(i)?, true)? {
            let d = self.vgrf(RegType::UD);
            self.alu(Opcode::Mov, d, vec![attr]);
            out.push(d);
        }
        self.set(intrinsic_def(i)?, out);
        Ok(())
    }

    /// `load_frag_coord`: the pixel position from the subspan origins in g1, source depth,
    /// and 1/W.
    pub(super) fn emit_frag_coord(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let mut out = Vec::new();
        for (sub, pattern) in [(4u32, 0x1010_1010u32), (5, 0x1100_1100)] {
            let t = self.vgrf(RegType::UW);
            // SIMD32 reads channels 16-31's subspans from g2.
            for h in 0..self.halves() {
                let src = Reg {
                    region: Some(Region::new(2, 4, 0)),
                    ..Reg::fixed(1 + h, sub * 2, RegType::UW, 1)
                };
                let add = vec![src, Reg::imm(RegType::V, pattern)];
                if self.width == 32 {
                    self.half(Opcode::Add, h, t.horiz_offset(16 * h), add);
                } else {
                    self.alu(Opcode::Add, t, add);
                }
            }
            // The integer pixel position, as Mesa's brw returns it: the NIR Mesa hands
            // the Intel backend adds the half-pixel offset itself after the load (see
            // the corpus' `fadd %frag_coord.x, 0.5` and Mesa's own ivb assembly).
            let d = self.vgrf(RegType::F);
            self.alu(Opcode::Mov, d, vec![t]);
            out.push(d);
        }
        let p = self.facts.payload.clone();
        let z = self.vgrf(RegType::F);
        let zsrc = Reg::fixed(p.source_depth.unwrap_or(0), 0, RegType::F, 1);
        let w = self.vgrf(RegType::F);
        let wsrc = Reg::fixed(p.source_w.unwrap_or(0), 0, RegType::F, 1);
        if self.width == 32 {
            let zhi = Reg::fixed(p.upper.source_depth.unwrap_or(0), 0, RegType::F, 1);
            let whi = Reg::fixed(p.upper.source_w.unwrap_or(0), 0, RegType::F, 1);
            self.half(Opcode::Mov, 0, z, vec![zsrc]);
            self.half(Opcode::Mov, 1, z.horiz_offset(16), vec![zhi]);
            for (h, (dst, src)) in [(w, wsrc), (w.horiz_offset(16), whi)]
                .into_iter()
                .enumerate()
            {
                let inv = self.push(Op::Math(MathFn::Inv), dst, vec![src]);
                inv.exec_size = 16;
                inv.group = 16 * h as u8;
            }
        } else {
            self.alu(Opcode::Mov, z, vec![zsrc]);
            self.push(Op::Math(MathFn::Inv), w, vec![wsrc]);
        }
        out.push(z);
        out.push(w);
        self.set(intrinsic_def(i)?, out);
        Ok(())
    }

    /// `load_front_face` as a boolean: the header's back-facing bit (g0.0 bit 15), inverted.
    pub(super) fn emit_front_face(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let t = self.vgrf(RegType::D);
        self.alu(
            Opcode::Asr,
            t,
            vec![Reg::fixed(0, 0, RegType::W, 0), Reg::imm(RegType::D, 15)],
        );
        let d = self.vgrf(RegType::D);
        self.alu(Opcode::Not, d, vec![t]);
        self.set(intrinsic_def(i)?, vec![d]);
        Ok(())
    }

    /// `load_ubo`: at a constant offset, push-constant slots: in gpucc's binding model
    /// numbered in order of first use while the push block has room, in Mesa's those of the
    /// UBO ranges chosen before translation; pull-constant messages for the rest, and for
    /// loads at a run-time offset.
    pub(super) fn emit_load_ubo(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let block = self
            .imp
            .const_value(intrinsic_src(i, 0)?)
            .and_then(|v| v.first().copied());
        let offset = self
            .imp
            .const_value(intrinsic_src(i, 1)?)
            .and_then(|v| v.first().copied());
        let Some(block) = block else {
            return self.emit_indexed_pull_constant(i);
        };
        let block = self.ubo_block(block)?;
        let Some(offset) = offset else {
            // Mesa forms the block intrinsic on Gen9 and later only (earlier block reads
            // have alignment limits and no split sends, says brw_nir.c), so the block
            // message is Gen9's; anything else reads the same bytes per channel.
            if i.intrinsic == Intrinsic::LoadUboUniformBlockIntel && self.devinfo.ver >= 90 {
                return self.emit_ubo_block_load(i, block, intrinsic_src(i, 1)?);
            }
            return self.emit_pull_constant(i, block, None, intrinsic_src(i, 1)?);
        };
        let (n, bits) = self.def_info(intrinsic_def(i)?)?;
        if bits != 32 || offset % 4 != 0 {
            return Err(unsupported("load_ubo of non-dword data"));
        }
        let mut keys = Vec::with_capacity(n as usize);
        for c in 0..n as u32 {
            let dword = u32::try_from(offset)
                .ok()
                .and_then(|o| o.checked_add(4 * c))
                .ok_or_else(|| {
                    CompileError::Limit(format!(
                        "load_ubo at byte offset {offset} (+{}) is past 4 GiB",
                        4 * c
                    ))
                })?;
            keys.push((block, dword));
        }
        // Push what fits (in order of first use), pull the rest: a load whose new dwords
        // would take the push block past MAX_PUSH_REGS reads its bytes with a pull message,
        // as Mesa pulls what its push ranges leave out.
        let new = keys
            .iter()
            .filter(|k| !self.push_index.contains_key(k))
            .count();
        if (self.push_fixed && new > 0)
            || self.facts.push.len() + new > self.max_push_regs as usize * 8
        {
            return self.emit_pull_constant(i, block, None, intrinsic_src(i, 1)?);
        }
        let mut out = Vec::new();
        for key in keys {
            let next = self.facts.push.len() as u32;
            let slot = *self.push_index.entry(key).or_insert(next);
            if slot == next {
                self.facts.push.push(key);
            }
            out.push(Reg {
                file: File::Uniform,
                nr: slot,
                ty: RegType::UD,
                stride: 0,
                ..Reg::BAD
            });
        }
        self.set(intrinsic_def(i)?, out);
        Ok(())
    }

    /// `store_output` of a colour (render target n), the second colour of dual-source
    /// blending, or depth; the render-target writes at the end of the thread send them.
    pub(super) fn emit_store_output(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let loc = i.io_location().unwrap_or("").to_string();
        let dual = i.io_dual_source();
        let first = io_component(i)? as usize;
        let mask = i.int_index(IndexKind::WriteMask).unwrap_or(0xf) as u32;
        let val = self.value(intrinsic_src(i, 0)?)?.clone();
        if dual {
            // The second colour of dual-source blending: blend factors for render
            // target 0, sent in the same message as the first.
            if loc != "FRAG_RESULT_DATA0" && loc != "FRAG_RESULT_COLOR" {
                return Err(unsupported(format!(
                    "dual-source blending into {loc} (only render target 0 blends \
                     with two sources)"
                )));
            }
            if self.dual_src.is_none() {
                let regs = (0..4).map(|_| self.vgrf(RegType::UD)).collect();
                self.dual_src = Some(regs);
            }
            let regs = self.dual_src.clone().unwrap_or_default();
            for (c, v) in val.iter().enumerate() {
                if mask & (1 << c) != 0 && first + c < 4 {
                    self.alu(Opcode::Mov, regs[first + c], vec![v.retype(RegType::UD)]);
                }
            }
            return Ok(());
        }
        if loc == "FRAG_RESULT_DEPTH" {
            let d = self.vgrf(RegType::F);
            self.alu(Opcode::Mov, d, vec![val[0].retype(RegType::F)]);
            self.depth = Some(d);
            self.facts.computes_depth = true;
            return Ok(());
        }
        let rt = if loc == "FRAG_RESULT_COLOR" {
            0
        } else if let Some(n) = loc.strip_prefix("FRAG_RESULT_DATA") {
            n.parse::<u32>()
                .map_err(|_| unsupported(format!("output {loc}")))?
        } else {
            return Err(unsupported(format!(
                "`store_output` to {loc}, which is not a fragment output"
            )));
        };
        if !self.outputs.contains_key(&rt) {
            let regs = (0..4).map(|_| self.vgrf(RegType::UD)).collect();
            self.outputs.insert(rt, regs);
        }
        let regs = self.outputs[&rt].clone();
        for (c, v) in val.iter().enumerate() {
            if mask & (1 << c) != 0 && first + c < 4 {
                self.alu(Opcode::Mov, regs[first + c], vec![v.retype(RegType::UD)]);
            }
        }
        Ok(())
    }

    /// `discard`, `terminate` or `demote`.
    pub(super) fn emit_discard(&mut self) {
        // Clear the live bit of every channel running this.
        let flag = self.kill_flag();
        let g0 = Reg::fixed(0, 0, RegType::UD, 0);
        let k = self.alu(Opcode::Cmp, Reg::null(RegType::UD), vec![g0, g0]);
        k.cmod = CondMod::Nz;
        k.flag_subnr = flag;
        k.pred = Some(false);
    }

    /// `discard_if`, `terminate_if` or `demote_if`.
    pub(super) fn emit_discard_if(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        // Live pixels stay live where the condition is false; where it is `inot b` of a
        // boolean, they stay live where `b` is true, and the NOT is not needed.
        let cond = intrinsic_src(i, 0)?;
        let (c, cmod) = match self.inot_of_boolean(cond) {
            Some(b) => (self.comp(b.ssa, b.swizzle[0] as usize)?, CondMod::Nz),
            None => (self.comp(cond, 0)?, CondMod::Z),
        };
        let c = self.in_grf(c.retype(RegType::D));
        let flag = self.kill_flag();
        let k = self.alu(
            Opcode::Cmp,
            Reg::null(RegType::D),
            vec![c, Reg::imm(RegType::D, 0)],
        );
        k.cmod = cmod;
        k.flag_subnr = flag;
        k.pred = Some(false);
        Ok(())
    }

    pub(super) fn plan_payload(&mut self) {
        let mut modes = [false; 6];
        let mut frag_coord = false;
        for ins in &self.imp.instrs {
            if let InstrKind::Intrinsic(i) = &ins.kind {
                match i.intrinsic {
                    intr @ (Intrinsic::LoadBarycentricPixel
                    | Intrinsic::LoadBarycentricCentroid
                    | Intrinsic::LoadBarycentricSample) => modes[barycentric_mode(intr, i)] = true,
                    Intrinsic::LoadFragCoord => frag_coord = true,
                    Intrinsic::Discard
                    | Intrinsic::DiscardIf
                    | Intrinsic::Terminate
                    | Intrinsic::TerminateIf
                    | Intrinsic::Demote
                    | Intrinsic::DemoteIf => self.facts.uses_kill = true,
                    _ => {}
                }
            }
        }
        // Per 16 channels (Mesa's payload width): each enabled barycentric set, then source
        // depth and W; SIMD32 has two pixel-info registers and a second such run.
        let halves = self.halves();
        let width = self.width.min(16) as u32;
        let per_bary = 2 * width.div_ceil(8);
        let mut n = 1 + halves;
        let p = &mut self.facts.payload;
        for h in 0..halves {
            let (bary, depth, w) = if h == 0 {
                (&mut p.barycentric, &mut p.source_depth, &mut p.source_w)
            } else {
                let u = &mut p.upper;
                (&mut u.barycentric, &mut u.source_depth, &mut u.source_w)
            };
            for (mode, used) in modes.iter().enumerate() {
                if *used {
                    bary[mode] = Some(n);
                    n += per_bary;
                }
            }
            if frag_coord {
                *depth = Some(n);
                n += width / 8;
                *w = Some(n);
                n += width / 8;
            }
        }
        p.bary_pixel = p.barycentric[0];
        p.num_regs = n;
    }

    /// A UBO load at a run-time offset: sampler `ld` messages from the buffer surface
    /// (`UBO_SURFACE_BASE + block`), one per four components. The surface has a one-byte
    /// pitch (see `Kernel::pull_constant_blocks`), so the coordinate is the byte offset
    /// itself and each reply holds the four dwords from there, whatever the offset's
    /// alignment: the message is one register per eight channels, with no row index to
    /// compute, no level source and no per-component select, as Mesa's
    /// VARYING_PULL_CONSTANT_LOAD emits it on Gen7 and Gen8. With `index` (a scalar from
    /// [`Translator::descriptor_index`]) the message is indexed: the block is `block` plus
    /// that run-time value.
    fn emit_pull_constant(
        &mut self,
        i: &IntrinsicInstr,
        block: u32,
        index: Option<Reg>,
        offset: SsaId,
    ) -> Result<(), CompileError> {
        use RegType::UD;
        let def = i
            .def
            .ok_or_else(|| CompileError::Invalid("load_ubo has no result".into()))?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported("load_ubo of non-dword data"));
        }
        let surface = self.facts.ubo_surface_base + block;
        if index.is_none() && !self.facts.pull_blocks.contains(&block) {
            self.facts.pull_blocks.push(block);
        }
        let off = self.comp(offset, 0)?.retype(UD);
        let off = self.in_grf(off);
        let per = self.per();
        let n = n as u32;
        let mut out = Vec::with_capacity(n as usize);
        for group in 0..n.div_ceil(4) {
            let addr = if group == 0 {
                off
            } else {
                let b = self.vgrf(UD);
                self.alu(Opcode::Add, b, vec![off, Reg::imm(UD, 16 * group)]);
                b
            };
            let dst = Reg::vgrf(self.prog.alloc(4 * per), UD);
            self.push(
                Op::Tex {
                    kind: TexKind::Ld,
                    surface: surface as u8,
                    sampler: 0,
                    indexed: index.is_some(),
                },
                dst,
                std::iter::once(addr).chain(index).collect(),
            );
            // Copies out of the reply let its unused and dead components be reused early
            // (register coalescing removes the copies that cost nothing to keep).
            for k in 0..(n - 4 * group).min(4) {
                let d = self.vgrf(UD);
                self.alu(Opcode::Mov, d, vec![dst.reg_offset(k * per)]);
                out.push(d);
            }
        }
        self.set(def, out);
        Ok(())
    }

    /// `load_ubo` of an element of a UBO array at a run-time block index, which GLSL
    /// requires to be dynamically uniform: the pull-constant `ld` of
    /// [`Self::emit_pull_constant`] with the first enabled channel's index added to the
    /// binding-table index at run time (as brw reads such blocks through an indirect
    /// descriptor; the index also lands in the sampler field, which `ld` does not use). Any
    /// block the shader declares (`num_ubos`) may be read, so every one is bound as pulled.
    fn emit_indexed_pull_constant(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        if self.num_ubos == 0 {
            return Err(CompileError::Invalid(
                "load_ubo with a run-time block index in a shader declaring no UBO (num_ubos)"
                    .into(),
            ));
        }
        self.ubo_block(u64::from(self.num_ubos - 1))?;
        for b in 0..self.num_ubos {
            if !self.facts.pull_blocks.contains(&b) {
                self.facts.pull_blocks.push(b);
            }
        }
        let index = self.descriptor_index(intrinsic_src(i, 0)?)?;
        self.emit_pull_constant(i, 0, Some(index), intrinsic_src(i, 1)?)
    }

    /// `load_ubo_uniform_block_intel` at a run-time offset that is the same in every
    /// channel, as brw emits it on Gen9: the offset of the first enabled channel (see
    /// [`Op::Uniformize`]) in dword 2 of a zeroed header, then unaligned OWord block reads
    /// on the data cache of 8 dwords (16 or 32 for longer vectors, Mesa's
    /// `choose_oword_block_size_dwords`), one register of reply per 8 dwords, whose dwords
    /// are the components as scalars. The surface is the binding-table entry the sampler's
    /// pull loads use: one surface whichever cache reads it.
    fn emit_ubo_block_load(
        &mut self,
        i: &IntrinsicInstr,
        block: u32,
        offset: SsaId,
    ) -> Result<(), CompileError> {
        use RegType::UD;
        let def = intrinsic_def(i)?;
        let (n, bits) = self.def_info(def)?;
        if bits != 32 {
            return Err(unsupported(format!(
                "load_ubo_uniform_block_intel of {bits}-bit data"
            )));
        }
        let surface = self.facts.ubo_surface_base + block;
        if !self.facts.pull_blocks.contains(&block) {
            self.facts.pull_blocks.push(block);
        }
        let addr = self.uniform_dword(self.comp(offset, 0)?);
        let total = (n as u32).next_multiple_of(8);
        let mut replies = Vec::new();
        let mut loaded = 0;
        while loaded < total {
            let dwords = oword_block_dwords(total - loaded);
            let header = Reg::vgrf(self.prog.alloc(1), UD);
            let clear = self.alu(Opcode::Mov, header, vec![Reg::imm(UD, 0)]);
            clear.exec_size = 8;
            clear.we_all = true;
            let dword2 = Reg {
                offset: 8,
                ..header
            };
            let at = if loaded == 0 {
                self.alu(Opcode::Mov, dword2, vec![addr])
            } else if addr.file == File::Imm {
                let bytes = (addr.imm as u32).wrapping_add(4 * loaded);
                self.alu(Opcode::Mov, dword2, vec![Reg::imm(UD, bytes)])
            } else {
                self.alu(Opcode::Add, dword2, vec![addr, Reg::imm(UD, 4 * loaded)])
            };
            at.exec_size = 1;
            at.we_all = true;
            let rlen = dwords / 8;
            let reply = Reg::vgrf(self.prog.alloc(rlen), UD);
            let desc = unaligned_oword_block_read_desc(self.devinfo.ver, dwords, surface);
            let send = self.push(Op::Send, reply, vec![header]);
            send.exec_size = if dwords <= 8 { 8 } else { 16 };
            send.we_all = true;
            send.mlen = 1;
            send.rlen = rlen as u8;
            send.sfid = sfid::DATA_CACHE;
            send.desc = desc;
            replies.push((loaded, reply));
            loaded += dwords;
        }
        let mut out = Vec::with_capacity(n as usize);
        for c in 0..n as u32 {
            // The block holding dword c: the last one starting at or before it.
            let &(first, reply) = replies
                .iter()
                .rev()
                .find(|(first, _)| *first <= c)
                .ok_or_else(|| CompileError::Internal("block load without a reply".into()))?;
            let src = Reg {
                offset: 4 * (c - first),
                stride: 0,
                ..reply
            };
            let d = self.vgrf(UD);
            self.alu(Opcode::Mov, d, vec![src]);
            out.push(d);
        }
        self.set(def, out);
        Ok(())
    }

    /// The attribute-setup registers of an input load's components. An interpolated input
    /// reads each component's plane (a, b, c coefficients) for PLN; a flat one reads the
    /// constant term, the fourth dword of the plane.
    fn input_attrs(
        &mut self,
        i: &IntrinsicInstr,
        offset: SsaId,
        def: SsaId,
        flat: bool,
    ) -> Result<Vec<Reg>, CompileError> {
        let off = self
            .imp
            .const_value(offset)
            .and_then(|v| v.first().copied());
        if off != Some(0) {
            return Err(unsupported("indirect input offset"));
        }
        let base = i.int_index(IndexKind::Base).unwrap_or(0) as u32;
        let first = io_component(i)?;
        let slot = self.input_slot(base, i, flat);
        let (n, _) = self.def_info(def)?;
        let (extra, ty) = if flat {
            (12, RegType::UD)
        } else {
            (0, RegType::F)
        };
        Ok((0..n as u32)
            .map(|c| Reg {
                file: File::Attr,
                nr: slot,
                offset: (first + c) * 16 + extra,
                ty,
                stride: 0,
                ..Reg::BAD
            })
            .collect())
    }

    /// Numbers the input slots before translation, in varying-slot order: Mesa's
    /// `calculate_urb_setup` gives the attribute setup data of the inputs a fragment shader
    /// reads in slot order, and a driver binding gpucc's program next to Mesa's expectations
    /// (the SBE, the VUE map it links against) sees the same layout. Numbering on first use
    /// would follow the shader's code order instead.
    ///
    /// Past 16 inputs, with the previous stage's `slots_valid` and SSO flag in `prev`, the
    /// slots are those of its VUE map from the first one brw requires
    /// (`brw_compute_first_urb_slot_required`) to its end, as `calculate_urb_setup` lays
    /// them out when the SBE cannot rearrange them: the driver then feeds attribute i from
    /// VUE slot first + i.
    pub(super) fn number_inputs(&mut self, prev: Option<(u64, bool)>) -> Result<(), CompileError> {
        let imp = self.imp;
        let mut loads: Vec<(u32, &IntrinsicInstr, bool)> = imp
            .blocks
            .iter()
            .flat_map(|b| b.instrs.iter().map(|&id| imp.instr(id)))
            .filter_map(|ins| match &ins.kind {
                InstrKind::Intrinsic(i) => match i.intrinsic {
                    Intrinsic::LoadInterpolatedInput => Some((i, false)),
                    Intrinsic::LoadInput => Some((i, true)),
                    _ => None,
                },
                _ => None,
            })
            .map(|(i, flat)| (i.int_index(IndexKind::Base).unwrap_or(0) as u32, i, flat))
            .collect();
        loads.sort_by_key(|l| l.0);
        // The attributes the SBE must provide, as brw counts them: the header varyings
        // share one (Mesa's `unique_fs_attrs`).
        let read: u64 = loads
            .iter()
            .filter(|l| l.0 < 64)
            .fold(0, |m, l| m | 1u64 << l.0)
            & FS_VARYING_INPUT_MASK;
        let mut unique = read;
        if unique & VUE_HEADER_BITS != 0 {
            unique = (unique & !VUE_HEADER_BITS) | 1 << VARYING_SLOT_PSIZ;
        }
        match prev {
            Some((valid, separate)) if unique.count_ones() > 16 => {
                self.number_inputs_by_vue_map(&loads, read, valid, separate)?
            }
            _ => {
                for (base, i, flat) in loads {
                    self.input_slot(base, i, flat);
                }
            }
        }
        Ok(())
    }

    /// The layout past 16 inputs (see [`Translator::number_inputs`]).
    fn number_inputs_by_vue_map(
        &mut self,
        loads: &[(u32, &IntrinsicInstr, bool)],
        read: u64,
        valid: u64,
        separate: bool,
    ) -> Result<(), CompileError> {
        let vue = VueMap::new(valid, separate);
        if let Some(h) = [VARYING_SLOT_LAYER, VARYING_SLOT_VIEWPORT]
            .into_iter()
            .find(|h| read & 1 << h != 0)
        {
            return Err(unsupported(format!(
                "reading {} (a VUE header field) in a fragment shader with more than 16 inputs, \
                 laid out by input_slots_valid",
                varying_name(h)
            )));
        }
        // brw_compute_first_urb_slot_required: the pair of slots holding the first varying
        // read (POS, varying 0, never counts).
        let first = vue
            .slots
            .iter()
            .position(|s| s.is_some_and(|v| v > 0 && v < 64 && read & 1 << v != 0))
            .map_or(0, |i| i & !1);
        for v in (0..64).filter(|v| read & 1 << v != 0) {
            if !vue.slot_of(v).is_some_and(|s| s as usize >= first) {
                return Err(CompileError::Invalid(format!(
                    "compile key input_slots_valid={valid:#x}: the shader reads {}, which the \
                     previous stage does not write",
                    varying_name(v)
                )));
            }
        }
        for (k, slot) in vue.slots.iter().enumerate().skip(first) {
            let index = (k - first) as u32;
            let load = slot.and_then(|v| loads.iter().find(|l| l.0 == v));
            match (slot, load) {
                (Some(v), Some(&(base, i, flat))) if read & 1 << v != 0 => {
                    self.input_index.insert(base, index);
                    let loc = i.io_location().unwrap_or("").to_string();
                    self.facts.inputs.push((base, loc, flat));
                }
                (Some(v), _) => {
                    self.facts.unread_inputs.push(index as usize);
                    self.facts.inputs.push((*v, varying_name(*v), false));
                }
                (None, _) => {
                    self.facts.unread_inputs.push(index as usize);
                    self.facts
                        .inputs
                        .push((u32::MAX, "BRW_VARYING_SLOT_PAD".to_string(), false));
                }
            }
        }
        Ok(())
    }

    /// Skylake's pixel shader can hang when dispatched with only the header phases of the
    /// payload (SKL PRM vol. 16, workaround 0877): a Gen9 fragment program with neither
    /// inputs nor push constants gets one input slot, the layer, as brw's
    /// `gfx9_ps_header_only_workaround` gives it. The shader never reads it.
    pub(super) fn header_only_workaround(&mut self) {
        if self.devinfo.gen() == 9 && self.facts.inputs.is_empty() && self.facts.push.is_empty() {
            let layer = nir::slots::slot_number("VARYING_SLOT_LAYER").unwrap_or(22);
            self.facts
                .inputs
                .push((layer, "VARYING_SLOT_LAYER".to_string(), false));
        }
    }

    fn input_slot(&mut self, base: u32, i: &IntrinsicInstr, flat: bool) -> u32 {
        let next = self.facts.inputs.len() as u32;
        let slot = *self.input_index.entry(base).or_insert(next);
        if slot == next {
            let loc = i.io_location().unwrap_or("").to_string();
            self.facts.inputs.push((base, loc, flat));
        }
        slot
    }

    pub(super) fn emit_fb_writes(&mut self) {
        let mut targets: Vec<(u32, Vec<Reg>)> =
            self.outputs.iter().map(|(k, v)| (*k, v.clone())).collect();
        if targets.is_empty() && self.dual_src.is_none() {
            // No colour written: the render target gets undefined values, so the payload
            // is left unwritten (LOAD_PAYLOAD skips undefined sources), as in Mesa.
            targets.push((0, vec![Reg::BAD; 4]));
        }
        self.facts.num_render_targets = targets.iter().map(|t| t.0 + 1).max().unwrap_or(1);
        if let Some(second) = self.dual_src.clone() {
            // Dual-source blending writes render target 0 only, with both colours in one
            // message (eight colour sources; `lower_logical_sends` picks the message).
            targets.retain(|t| t.0 == 0);
            if targets.is_empty() {
                let regs = (0..4).map(|_| Reg::imm(RegType::UD, 0)).collect();
                targets.push((0, regs));
            }
            targets[0].1.extend(second);
            self.facts.num_render_targets = 1;
            self.facts.dual_source_blend = true;
        }
        let n = targets.len();
        for (k, (rt, regs)) in targets.into_iter().enumerate() {
            let mut src: Vec<Reg> = regs.iter().map(|r| r.retype(RegType::F)).collect();
            if let Some(d) = self.depth {
                src.push(d);
            }
            let uses_kill = self.facts.uses_kill;
            let kill_flag = self.kill_flag();
            let w = self.push(
                Op::FbWrite {
                    target: rt as u8,
                    last: k + 1 == n,
                },
                Reg::null(RegType::UW),
                src,
            );
            if uses_kill {
                // Discarded pixels are left out of the write by predicating it on the
                // live-pixel flag.
                w.pred = Some(false);
                w.flag_subnr = kill_flag;
            }
        }
    }
}

impl Translator<'_> {
    /// A constant UBO block index: binding-table entry `ubo_surface_base + block`, which
    /// must be one of the 256 a message can name, whether the loads are pushed or pulled (a
    /// block of 0x3f800000 once reached the push layout and made verification allocate
    /// 25 GB).
    fn ubo_block(&self, block: u64) -> Result<u32, CompileError> {
        let last = 255 - self.facts.ubo_surface_base;
        u32::try_from(block)
            .ok()
            .filter(|&b| b <= last)
            .ok_or_else(|| unsupported(format!("UBO block index {block} over {last}")))
    }
}

/// Mesa's `BRW_FS_VARYING_INPUT_MASK`: every varying but the position and the facing, which
/// come in the payload rather than through attribute setup.
const FS_VARYING_INPUT_MASK: u64 = !(1 << VARYING_SLOT_POS | 1 << VARYING_SLOT_FACE);
/// `VARYING_SLOT_FACE`.
const VARYING_SLOT_FACE: u32 = 24;
/// The varyings of the VUE header slot (point size, layer, viewport).
const VUE_HEADER_BITS: u64 =
    1 << VARYING_SLOT_PSIZ | 1 << VARYING_SLOT_LAYER | 1 << VARYING_SLOT_VIEWPORT;

/// A varying's name as NIR prints it.
fn varying_name(v: u32) -> String {
    crate::nir::slots::varying_slot_name(v)
        .map(str::to_string)
        .unwrap_or_else(|| format!("VARYING_SLOT_{v}"))
}

/// The `component` index of an I/O intrinsic, the first channel of its vec4 slot: 0-3. A
/// negative or larger value in the text is invalid, not wrapped into some other channel.
fn io_component(i: &IntrinsicInstr) -> Result<u32, CompileError> {
    let c = i.int_index(IndexKind::Component).unwrap_or(0);
    u32::try_from(c).ok().filter(|&c| c < 4).ok_or_else(|| {
        CompileError::Invalid(format!(
            "{} component {c} (a slot has components 0-3)",
            i.intrinsic.name()
        ))
    })
}

/// The dwords of the next OWord block of a block load with `left` dwords still to read
/// (a multiple of 8): the largest of 32, 16 and 8 that fits, as Mesa's
/// `choose_oword_block_size_dwords` picks them without an LSC.
fn oword_block_dwords(left: u32) -> u32 {
    match left {
        32.. => 32,
        16..=31 => 16,
        _ => 8,
    }
}

/// Descriptor of a Gen9 data-cache (SFID 10) unaligned OWord block read of `dwords` dwords
/// (8, 16 or 32) from binding-table index `surface`: the header in, one reply register per
/// 8 dwords.
fn unaligned_oword_block_read_desc(ver: u32, dwords: u32, surface: u32) -> u32 {
    let len = Lengths::new(1, dwords / 8, true);
    msg::oword_block(len, surface, OwordBlock::UnalignedRead, dwords).encode(ver)
}

/// Mesa's `brw_barycentric_mode` of a barycentric load: pixel, centroid or sample, plus 3
/// for `noperspective` inputs (`INTERP_MODE_NOPERSPECTIVE` = 3).
fn barycentric_mode(intr: Intrinsic, i: &IntrinsicInstr) -> usize {
    let at = match intr {
        Intrinsic::LoadBarycentricCentroid => 1,
        Intrinsic::LoadBarycentricSample => 2,
        _ => 0,
    };
    let noperspective = i.int_index(IndexKind::InterpMode) == Some(3);
    at + 3 * noperspective as usize
}

/// Whether `shader` stores a second colour for dual-source blending (a `store_output` whose
/// I/O semantics say `dualsrc`).
pub fn writes_dual_source(shader: &nir::Shader) -> bool {
    shader.entry().is_some_and(|imp| {
        imp.instrs.iter().any(|ins| match &ins.kind {
            InstrKind::Intrinsic(i) if i.intrinsic == Intrinsic::StoreOutput => i.io_dual_source(),
            _ => false,
        })
    })
}
