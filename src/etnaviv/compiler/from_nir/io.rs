//! I/O and payload intrinsics: inputs (registers the shader object reports), output stores
//! through variable derefs (coalesced into the output register when they are the only
//! writer), uniforms read directly, relative to the address register or from a UBO with
//! LOAD, the fragment payload (position, front face) and discards.

use super::{unsupported, Binding, InputInfo, OutputInfo, Tr, R};
use crate::etnaviv::compiler::consts::UniformContent;
use crate::etnaviv::compiler::ir::{Instr, Operand, OperandKind, Shape, Value, ValueId, ValueKind};
use crate::etnaviv::compiler::CompileError;
use crate::etnaviv::isa::{Cond, DataType, Opcode};
use crate::nir::ir::{
    DerefInstr, DerefKind, IndexValue, InstrKind, IntrinsicInstr, SsaId, VarMode,
};
use crate::nir::opcodes::{IndexKind, Intrinsic};
use crate::nir::types::{BaseType, Stage};

/// The def of a load, which every load must have.
fn load_def(ii: &IntrinsicInstr) -> R<SsaId> {
    ii.def
        .ok_or_else(|| CompileError::Invalid("load without def".into()))
}

impl Tr<'_> {
    /// The value `val` itself when a store of it to output `slot` can simply make it the
    /// output register: the slot's only store, all components from x on. Other uses of the
    /// value read the output register (it is defined once and holds the value to the end),
    /// as Mesa's allocator gives a stored def the output's whole register, instead of a
    /// MOV into a separate output.
    fn coalescible_output(&self, val: SsaId, slot: u32, frac: u8, wrmask: u8) -> Option<ValueId> {
        let width = self.imp.def(val)?.num_components;
        if frac != 0 || wrmask != (1 << width) - 1 || self.stores.get(&slot) != Some(&1) {
            return None;
        }
        match self.bind.get(val.0 as usize)?.as_ref()? {
            Binding::Src {
                kind: OperandKind::Value(v),
                swz: [0, 1, 2, 3],
                neg: false,
                abs: false,
            } if self.p.values[v.index()].kind == ValueKind::Temp
                && !self.phi_values.contains(v) =>
            {
                Some(*v)
            }
            _ => None,
        }
    }

    pub(super) fn deref(&mut self, d: &DerefInstr) -> R<()> {
        let b = match &d.kind {
            DerefKind::Var(name) => Binding::Deref(name.clone(), 0),
            DerefKind::Array { parent, index } => {
                let (name, base) = match self.binding(*parent)? {
                    Binding::Deref(n, o) => (n.clone(), *o),
                    _ => return unsupported("deref of a non-variable"),
                };
                let idx = match self.imp.const_value(*index) {
                    Some(v) => v[0] as u32,
                    None => return unsupported("indirect array indexing of variables"),
                };
                Binding::Deref(name, base + idx)
            }
        };
        self.bind[d.def.0 as usize] = Some(b);
        Ok(())
    }

    fn const_src(&self, id: SsaId) -> Option<u32> {
        self.imp.const_value(id).map(|v| v[0] as u32)
    }

    pub(super) fn intrinsic(&mut self, ii: &IntrinsicInstr) -> R<()> {
        match ii.intrinsic {
            Intrinsic::LoadUniform => self.load_uniform(ii),
            Intrinsic::LoadUbo => self.load_ubo(ii),
            Intrinsic::LoadTextureScale => self.load_texture_scale(ii),
            Intrinsic::LoadTextureSizeEtna => self.load_texture_size(ii),
            Intrinsic::LoadInput => self.load_input(ii),
            Intrinsic::LoadFragCoord | Intrinsic::LoadFrontFace => self.load_payload(ii),
            Intrinsic::LoadVertexId | Intrinsic::LoadInstanceId => self.load_vertex_ids(ii),
            Intrinsic::StoreDeref => self.store(ii),
            Intrinsic::Discard
            | Intrinsic::Terminate
            | Intrinsic::DiscardIf
            | Intrinsic::TerminateIf => self.discard(ii),
            other => unsupported(format!("intrinsic {}", other.name())),
        }
    }

    /// `u[base + offset]` with a constant offset binds the uniform's components, which costs
    /// no instruction; the offset is a float on cores without integers. They are bound as
    /// cells to place (see [`OperandKind::Const`]), so that a vector or an instruction
    /// reading components of several slots can have them gathered into one.
    fn load_uniform(&mut self, ii: &IntrinsicInstr) -> R<()> {
        let base = ii.int_index(IndexKind::Base).unwrap_or(0).max(0);
        let def = load_def(ii)?;
        let off = match ii.srcs.first().and_then(|&s| self.const_src(s)) {
            Some(o) if self.int_bools => o,
            Some(o) => f32::from_bits(o) as u32,
            None => {
                let base = self.user_uniform(base, "load_uniform base")?;
                return self.indirect_uniform(ii, base, def);
            }
        };
        let slot = self.user_uniform(base.saturating_add(i64::from(off)), "load_uniform slot")?;
        let cells = [0, 1, 2, 3].map(|c| UniformContent::User(4 * slot + c));
        self.bind[def.0 as usize] = Some(Binding::plain(OperandKind::Const(cells)));
        Ok(())
    }

    /// Notes uniform slot `slot` as the application's, after checking that the stage's
    /// uniform file has it: a slot past the file is a limit of the core, and must not grow
    /// the file to whatever size the input names (a fuzzed base of 2^30 asked for 4 GiB).
    pub(super) fn user_uniform(&mut self, slot: i64, what: &str) -> R<u32> {
        let max = self
            .specs
            .uniform_limits()
            .max_for(self.stage == Stage::Fragment);
        match u32::try_from(slot) {
            Ok(s) if s < max => {
                self.uniforms.note_user(s);
                Ok(s)
            }
            _ => Err(CompileError::Limit(format!(
                "{what} {slot} is past the {max} uniform slots {} has for a {} shader",
                self.specs.name,
                self.stage.mesa_name()
            ))),
        }
    }

    /// The scale of a texture unit's coordinates: a uniform the driver fills in.
    fn load_texture_scale(&mut self, ii: &IntrinsicInstr) -> R<()> {
        let unit = match ii.srcs.first().and_then(|&s| self.const_src(s)) {
            Some(u) => u,
            None => return unsupported("indirect texture scale"),
        };
        let def = load_def(ii)?;
        let slot = self.uniforms.texture_scale(unit);
        self.bind[def.0 as usize] = Some(Binding::plain(OperandKind::Uniform(slot)));
        Ok(())
    }

    /// `load_texture_size_etna`, what `etna_nir_lower_texture` makes of `txs`: the texture's
    /// width, height and depth, integers in a uniform slot the driver fills (Mesa's
    /// `ETNA_UNIFORM_TEXTURE_WIDTH`, `_HEIGHT`, `_DEPTH`). A core without integers would read
    /// the integer bits as floats (Mesa's lowering leaves them integers there too), so it is
    /// refused.
    fn load_texture_size(&mut self, ii: &IntrinsicInstr) -> R<()> {
        if !self.specs.has_integers() {
            return unsupported(format!(
                "`load_texture_size_etna` on {}: the texture size uniforms hold integers, and \
                 this core has no integer operations to read them",
                self.specs.name
            ));
        }
        let unit = match ii.srcs.first().and_then(|&s| self.const_src(s)) {
            Some(u) => u,
            None => return unsupported("indirect texture size"),
        };
        let def = load_def(ii)?;
        let slot = self.uniforms.texture_size(unit);
        self.bind[def.0 as usize] = Some(Binding::plain(OperandKind::Uniform(slot)));
        Ok(())
    }

    /// An input binds the components of its slot's register (see [`Tr::input`]).
    fn load_input(&mut self, ii: &IntrinsicInstr) -> R<()> {
        let off = match ii.srcs.first().and_then(|&s| self.const_src(s)) {
            Some(o) => o,
            None => return unsupported("indirect input loads"),
        };
        let base = ii.int_index(IndexKind::Base).unwrap_or(0).max(0);
        let slot = u32::try_from(base.saturating_add(i64::from(off))).map_err(|_| {
            CompileError::Limit(format!("input slot {base} + {off} has no register"))
        })?;
        let c = ii.int_index(IndexKind::Component).unwrap_or(0);
        let comp = u8::try_from(c).ok().filter(|&c| c < 4).ok_or_else(|| {
            CompileError::Invalid(format!(
                "load_input component {c} (a slot has components 0-3)"
            ))
        })?;
        let integer = ii
            .type_index(IndexKind::DestType)
            .is_some_and(|t| t.base != BaseType::Float);
        let def = load_def(ii)?;
        let n = self.def(def)?.num_components;
        let v = self.input(slot, integer, comp + n, ii)?;
        self.bind[def.0 as usize] = Some(Binding::value(v, comp));
        Ok(())
    }

    /// The fragment payload the rasterizer leaves in fixed registers: the position in t0,
    /// the front-face flag in i0. The position is an input value pinned in t0 (fragment
    /// inputs proper start at t1), so that t0 is taken only while the position is read.
    fn load_payload(&mut self, ii: &IntrinsicInstr) -> R<()> {
        let def = load_def(ii)?;
        let b = if ii.intrinsic == Intrinsic::LoadFragCoord {
            let position = ValueKind::Input { reg: 0 };
            let v = match self.p.values.iter().position(|v| v.kind == position) {
                Some(i) => ValueId(i as u32),
                None => self.p.new_value(4, position),
            };
            Binding::value(v, 0)
        } else {
            // The rasterizer leaves 1.0 (front) or 0.0 in i0. Mesa's etnaviv widens the load
            // to 32 bits and compares it with zero itself, so its 32-bit load is just that
            // register, and so is a 1-bit one on cores whose booleans are 1.0 / 0.0. A 1-bit
            // load on a core with integer booleans must be ~0 / 0 like every other boolean
            // (b2i32 ANDs it with 1): CMP.NE against zero makes it one.
            let raw = Operand {
                kind: OperandKind::Internal(0),
                swz: [0; 4],
                neg: false,
                abs: false,
            };
            if self.def(def)?.bit_size == 1 && self.int_bools {
                let v = self.p.new_value(1, ValueKind::Temp);
                self.emit(
                    Opcode::Cmp,
                    DataType::F32,
                    Cond::Ne,
                    (v, 1),
                    [
                        Some(raw),
                        Some(Operand::splat(0)),
                        Some(Operand::splat(u32::MAX)),
                    ],
                    Shape::Aligned,
                );
                Binding::value(v, 0)
            } else {
                Binding::Src {
                    kind: raw.kind,
                    swz: raw.swz,
                    neg: false,
                    abs: false,
                }
            }
        };
        self.bind[def.0 as usize] = Some(b);
        Ok(())
    }

    /// `load_vertex_id` and `load_instance_id`: components x and y of the input register
    /// after the vertex attributes, which the front end fills when the driver enables it, as
    /// Mesa's etnaviv does (`vs_id_in_reg` = `infile.num_reg`; the driver sets
    /// VS_INPUT_COUNT's ID_ENABLE and, on HALTI5 cores, FE_HALTI5_ID_CONFIG with the vertex
    /// id at component 4 * reg and the instance id at 4 * reg + 1). x holds gl_VertexID as
    /// `load_vertex_id` means it (the index of the vertex fetched). Mesa's etnaviv exposes
    /// the ids from HALTI2 on (PIPE_CAP_VS_INSTANCEID); older cores are refused.
    fn load_vertex_ids(&mut self, ii: &IntrinsicInstr) -> R<()> {
        if self.stage != Stage::Vertex {
            return unsupported(format!("`{}` outside a vertex shader", ii.intrinsic.name()));
        }
        if self.specs.halti() < 2 {
            return unsupported(format!(
                "`{}` on {} (HALTI{}): Mesa's etnaviv gives vertex shaders the vertex and \
                 instance id register from HALTI2 on (PIPE_CAP_VS_INSTANCEID)",
                ii.intrinsic.name(),
                self.specs.name,
                self.specs.halti()
            ));
        }
        let reg = match self.vs_id_reg {
            Some(r) => r,
            None => {
                let reg = self.attribute_registers();
                if reg >= self.specs.temp_count() {
                    return Err(CompileError::Limit(format!(
                        "the vertex id register t{reg} (after the attributes) is past the {} \
                         registers of {}",
                        self.specs.temp_count(),
                        self.specs.name
                    )));
                }
                self.vs_id_reg = Some(reg as u8);
                reg as u8
            }
        };
        let kind = ValueKind::Input { reg };
        let v = match self.p.values.iter().position(|v| v.kind == kind) {
            Some(i) => ValueId(i as u32),
            None => self.p.new_value(4, kind),
        };
        let comp = u8::from(ii.intrinsic == Intrinsic::LoadInstanceId);
        let def = load_def(ii)?;
        self.bind[def.0 as usize] = Some(Binding::value(v, comp));
        Ok(())
    }

    /// The vertex attribute registers, Mesa's `infile.num_reg`: one per declared input
    /// variable, up to the highest driver location; without declarations (hand-written NIR),
    /// up to the highest input slot read.
    fn attribute_registers(&self) -> u32 {
        let declared = self
            .shader
            .variables
            .iter()
            .filter(|v| v.mode == VarMode::ShaderIn)
            .map(|v| v.driver_location.saturating_add(1))
            .max();
        declared.unwrap_or_else(|| {
            self.imp
                .instrs
                .iter()
                .filter_map(|x| match &x.kind {
                    InstrKind::Intrinsic(i) if i.intrinsic == Intrinsic::LoadInput => {
                        let base = i.int_index(IndexKind::Base).unwrap_or(0).max(0);
                        let off = i.srcs.first().and_then(|&s| self.const_src(s)).unwrap_or(0);
                        u32::try_from(base.saturating_add(i64::from(off)).saturating_add(1)).ok()
                    }
                    _ => None,
                })
                .max()
                .unwrap_or(0)
        })
    }

    /// Discards: TEXKILL, unconditional or on a boolean.
    fn discard(&mut self, ii: &IntrinsicInstr) -> R<()> {
        self.uses_discard = true;
        if matches!(ii.intrinsic, Intrinsic::Discard | Intrinsic::Terminate) {
            self.p
                .push(Instr::new(Opcode::Texkill, Shape::Broadcast(0)));
            return Ok(());
        }
        let c = self.operand(ii.srcs[0], [0; 4])?;
        let c = self.plain(c);
        let mut k = Instr::new(Opcode::Texkill, Shape::Broadcast(4));
        k.cond = Cond::Nz;
        k.ty = self.bool_type();
        k.src[0] = Some(c);
        self.p.push(k);
        Ok(())
    }

    /// A load from a uniform buffer, as Mesa emits it on HALTI2+ cores: LOAD.u32 reads
    /// consecutive words from the byte address `src0.x + src1.x` into the enabled
    /// components, src0 being the offset and src1 a uniform the driver fills with the
    /// buffer's address. The words land in the destination's components in order, which the
    /// register classes' ascending component sets preserve.
    fn load_ubo(&mut self, ii: &IntrinsicInstr) -> R<()> {
        if !self.specs.has_halti2_instructions() {
            return unsupported(format!(
                "`load_ubo` on {}, which has no LOAD instruction",
                self.specs.name
            ));
        }
        let index = match ii.srcs.first().and_then(|&s| self.const_src(s)) {
            Some(i) => i,
            None => return unsupported("UBO loads from a non-constant buffer index"),
        };
        let offset = ii
            .srcs
            .get(1)
            .ok_or_else(|| CompileError::Invalid("load_ubo without an offset".into()))?;
        let def = load_def(ii)?;
        let off = self.operand(*offset, [0; 4])?;
        let slot = self.uniforms.ubo_address(index);
        let d = self.new_def(def)?;
        let n = self.p.values[d.index()].width;
        let addr = Operand {
            kind: OperandKind::Uniform(slot),
            swz: [0; 4],
            neg: false,
            abs: false,
        };
        self.emit(
            Opcode::Load,
            DataType::U32,
            Cond::True,
            (d, (1 << n) - 1),
            [Some(off), Some(addr), None],
            Shape::Broadcast(1),
        );
        Ok(())
    }

    /// `u[base + offset]`: the offset goes to the address register (MOVAR floors a float
    /// offset on cores without integers, MOVAI takes an integer), and a MOV reads the slot
    /// relative to it right away, before anything else can change `a.x`.
    fn indirect_uniform(&mut self, ii: &IntrinsicInstr, base: u32, def: SsaId) -> R<()> {
        let range = ii.int_index(IndexKind::Range).unwrap_or(1).max(1) as u32;
        for k in 0..range.min(1024) {
            self.user_uniform(i64::from(base) + i64::from(k), "indirect uniform range")?;
        }
        let off = self.operand(ii.srcs[0], [0; 4])?;
        let off = self.plain(off);
        let mut mova = Instr::new(
            if self.int_bools {
                Opcode::Movai
            } else {
                Opcode::Movar
            },
            Shape::Broadcast(1),
        );
        mova.ty = if self.int_bools {
            DataType::S32
        } else {
            DataType::F32
        };
        mova.addr_mask = 1;
        mova.src[2] = Some(off);
        self.p.push(mova);
        let v = self.new_def(def)?;
        let n = self.p.values[v.index()].width;
        let src = Operand {
            kind: OperandKind::UniformRel(base),
            swz: [0, 1, 2, 3].map(|c: u8| c.min(n - 1)),
            neg: false,
            abs: false,
        };
        self.mov((v, (1 << n) - 1), src);
        Ok(())
    }

    fn input(&mut self, slot: u32, integer: bool, comps: u8, ii: &IntrinsicInstr) -> R<ValueId> {
        if let Some(i) = self.inputs.iter_mut().find(|i| i.slot == slot) {
            i.comps = i.comps.max(comps);
            return Ok(i.value);
        }
        // Fragment inputs start at t1 (t0 holds the position).
        let reg = match self.stage {
            Stage::Fragment => slot.saturating_add(1),
            _ => slot,
        };
        if reg >= self.specs.temp_count() {
            return Err(CompileError::Limit(format!(
                "input slot {slot} has no register"
            )));
        }
        let v = self.p.new_value(4, ValueKind::Input { reg: reg as u8 });
        // The slot name from the io semantics (`io location=VARYING_SLOT_VAR0 slots=1`).
        let name = match ii.index(IndexKind::IoSemantics) {
            Some(IndexValue::Text(t)) => t
                .split_whitespace()
                .find_map(|w| w.strip_prefix("location="))
                .unwrap_or("")
                .to_string(),
            _ => String::new(),
        };
        self.inputs.push(InputInfo {
            slot,
            value: v,
            reg: reg as u8,
            comps,
            integer,
            name,
        });
        Ok(v)
    }

    fn store(&mut self, ii: &IntrinsicInstr) -> R<()> {
        let (var_name, idx) = match self.binding(ii.srcs[0])? {
            Binding::Deref(n, i) => (n.clone(), *i),
            _ => return unsupported("`store_deref` through a deref that is not a variable"),
        };
        let var = self
            .shader
            .variables
            .iter()
            .find(|v| v.name == var_name)
            .ok_or_else(|| {
                CompileError::Invalid(format!("variable `{var_name}` is not declared"))
            })?;
        if var.mode != VarMode::ShaderOut {
            return unsupported(format!("stores to {} variables", var.mode.name()));
        }
        let slot = var.driver_location + idx;
        let frac = var.location_frac() as u8;
        let val = ii.srcs[1];
        let width = self.def(val)?.num_components;
        let wrmask = ii.int_index(IndexKind::WriteMask).unwrap_or(0xf) as u8 & ((1 << width) - 1);
        if frac as u32 + width as u32 > 4 {
            return unsupported("outputs crossing a vec4 slot");
        }
        if let Some(v) = self.coalescible_output(val, slot, frac, wrmask) {
            self.p.values[v.index()] = Value {
                width: 4,
                kind: ValueKind::Output,
            };
            self.outputs.push(OutputInfo {
                slot,
                value: v,
                comps: wrmask,
                name: var.location.split('.').next().unwrap_or("").to_string(),
            });
            return Ok(());
        }
        let out = match self.outputs.iter_mut().find(|o| o.slot == slot) {
            Some(o) => {
                o.comps |= wrmask << frac;
                o.value
            }
            None => {
                let v = self.p.new_value(4, ValueKind::Output);
                self.outputs.push(OutputInfo {
                    slot,
                    value: v,
                    comps: wrmask << frac,
                    name: var.location.split('.').next().unwrap_or("").to_string(),
                });
                v
            }
        };
        let comps = [0u8, 1, 2, 3].map(|c| c.saturating_sub(frac).min(width - 1));
        let op = self.operand(val, comps)?;
        if wrmask != 0 {
            self.mov((out, wrmask << frac), op);
        }
        Ok(())
    }
}
