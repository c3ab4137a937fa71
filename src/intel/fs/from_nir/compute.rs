//! What only compute shaders have: the workgroup size and shared-memory size of the shader
//! info, local invocation ids (payload registers after the header in gpucc's binding model,
//! computed from the pushed subgroup id in Mesa's) and workgroup ids (in the header, g0),
//! gateway barriers, and the message to the thread spawner that ends the thread.

use crate::intel::eu::types::{sfid, MathFn};
use crate::intel::eu::{Opcode, RegType};
use crate::intel::msg::{GatewayDesc, Lengths, SpawnerDesc};
use crate::nir::{self, IndexKind, InstrKind, Intrinsic, IntrinsicInstr};

use super::super::ir::{File, Op, Reg};
use super::facts::ComputeFacts;
use super::translator::LocalIds;
use super::{intrinsic_def, unsupported, CompileError, Translator};

/// Whether the shader reads any of `intrinsics`.
fn reads_any(imp: &nir::Impl, intrinsics: &[Intrinsic]) -> bool {
    imp.instrs.iter().any(
        |ins| matches!(&ins.kind, InstrKind::Intrinsic(i) if intrinsics.contains(&i.intrinsic)),
    )
}

/// Whether the shader reads a value made from the local invocation id or index.
pub(super) fn reads_local_ids(imp: &nir::Impl) -> bool {
    reads_any(
        imp,
        &[
            Intrinsic::LoadLocalInvocationId,
            Intrinsic::LoadLocalInvocationIndex,
            Intrinsic::LoadGlobalInvocationId,
            Intrinsic::LoadGlobalInvocationIdZeroBase,
        ],
    )
}

/// Whether the shader reads its channel's subgroup invocation (after
/// `brw_nir_lower_cs_intrinsics`, the local ids are computed from it in the NIR) or the
/// first enabled channel's (`first_invocation`, see `subgroup.rs`).
pub(super) fn reads_subgroup_invocation(imp: &nir::Impl) -> bool {
    reads_any(
        imp,
        &[
            Intrinsic::LoadSubgroupInvocation,
            Intrinsic::FirstInvocation,
        ],
    )
}

/// The order in which brw hands out local ids to the invocations of a workgroup, numbered
/// `subgroup id × width + channel` (`brw_nir_lower_cs_intrinsics`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum IdOrder {
    /// x fastest: shaders without textures and images, and linear derivative groups.
    XMajor,
    /// Columns of four rows, x-major over the columns: shaders with textures or images
    /// whose workgroup is a multiple of 4 high.
    Block1x4,
    /// y fastest: other shaders with textures or images.
    YMajor,
}

/// Reads the workgroup and shared-memory sizes of a compute shader's info block
/// (`workgroup_size: 8, 1, 1`, `shared_size: 64`; Mesa 23.3's nir_print spells them
/// `workgroup-size` and `shared-size`, which are read too).
pub(in crate::intel) fn compute_facts(shader: &nir::Shader) -> Result<ComputeFacts, CompileError> {
    let info = &shader.info;
    let field = |key: &str| {
        info.field(key)
            .or_else(|| info.field(&key.replace('_', "-")))
    };
    let size = field("workgroup_size")
        .ok_or_else(|| unsupported("compute shader without a fixed workgroup_size"))?;
    let dims: Vec<u32> = size
        .split(',')
        .map(|d| d.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            CompileError::Invalid(format!("workgroup_size `{size}` is not three integers"))
        })?;
    let [x, y, z] = dims[..] else {
        return Err(CompileError::Invalid(format!(
            "workgroup_size `{size}` is not three integers"
        )));
    };
    if x == 0 || y == 0 || z == 0 || x * y * z > 1024 {
        return Err(CompileError::Invalid(format!(
            "workgroup_size {x}x{y}x{z} is outside 1..=1024 invocations"
        )));
    }
    let shared_size = match field("shared_size") {
        Some(s) => s
            .trim()
            .parse::<u32>()
            .map_err(|_| CompileError::Invalid(format!("shared_size `{s}` is not an integer")))?,
        None => 0,
    };
    if shared_size > 64 * 1024 {
        return Err(unsupported(format!(
            "{shared_size} bytes of shared memory (64 KiB per workgroup)"
        )));
    }
    Ok(ComputeFacts {
        local_size: [x, y, z],
        shared_size,
        uses_barrier: false,
        subgroup_id_param: None,
    })
}

impl Translator<'_> {
    /// `load_local_invocation_id`, from the payload.
    pub(super) fn emit_local_invocation_id(
        &mut self,
        i: &IntrinsicInstr,
    ) -> Result<(), CompileError> {
        let (n, _) = self.def_info(intrinsic_def(i)?)?;
        let out = (0..n as u32).map(|k| self.local_id(k)).collect();
        self.set(intrinsic_def(i)?, out);
        Ok(())
    }

    /// `load_workgroup_id`, from the thread header.
    pub(super) fn emit_workgroup_id(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let name = i.intrinsic.name();
        self.compute_only(name)?;
        let (n, _) = self.def_info(intrinsic_def(i)?)?;
        let out = (0..n as usize).map(|k| workgroup_id(k.min(2))).collect();
        self.set(intrinsic_def(i)?, out);
        Ok(())
    }

    /// `load_workgroup_size`: the fixed size of the shader info, as immediates.
    pub(super) fn emit_workgroup_size(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let name = i.intrinsic.name();
        let size = self.compute_only(name)?.local_size;
        let (n, _) = self.def_info(intrinsic_def(i)?)?;
        let out = (0..n as usize)
            .map(|k| Reg::imm(RegType::UD, size[k.min(2)]))
            .collect();
        self.set(intrinsic_def(i)?, out);
        Ok(())
    }

    /// `load_local_invocation_index`, the local id flattened (x fastest).
    pub(super) fn emit_local_invocation_index(
        &mut self,
        i: &IntrinsicInstr,
    ) -> Result<(), CompileError> {
        let name = i.intrinsic.name();
        let [sx, sy, sz] = self.compute_only(name)?.local_size;
        if let Some(ids) = self.local_ids {
            self.set(intrinsic_def(i)?, vec![ids.index]);
            return Ok(());
        }
        let x = self.local_id(0);
        let index = if sy * sz == 1 {
            x
        } else {
            // ((z * sy) + y) * sx + x
            let (y, z) = (self.local_id(1), self.local_id(2));
            let t = self.vgrf(RegType::UD);
            self.alu(Opcode::Mul, t, vec![z, Reg::imm(RegType::UD, sy)]);
            self.alu(Opcode::Add, t, vec![t, y]);
            self.alu(Opcode::Mul, t, vec![t, Reg::imm(RegType::UD, sx)]);
            self.alu(Opcode::Add, t, vec![t, x]);
            t
        };
        self.set(intrinsic_def(i)?, vec![index]);
        Ok(())
    }

    /// `load_global_invocation_id`: workgroup id × workgroup size + local id.
    pub(super) fn emit_global_invocation_id(
        &mut self,
        i: &IntrinsicInstr,
    ) -> Result<(), CompileError> {
        let name = i.intrinsic.name();
        let size = self.compute_only(name)?.local_size;
        let (n, _) = self.def_info(intrinsic_def(i)?)?;
        let mut out = Vec::new();
        for k in 0..n as usize {
            let k = k.min(2);
            let local = self.local_id(k as u32);
            let t = self.vgrf(RegType::UD);
            self.alu(
                Opcode::Mul,
                t,
                vec![workgroup_id(k), Reg::imm(RegType::UD, size[k])],
            );
            self.alu(Opcode::Add, t, vec![t, local]);
            out.push(t);
        }
        self.set(intrinsic_def(i)?, out);
        Ok(())
    }

    /// `load_subgroup_id` of NIR that `brw_nir_lower_cs_intrinsics` has lowered (Mesa's
    /// compute hand-over): the pushed subgroup id param, or 0 where the workgroup fits in one
    /// thread at this width (as `brw_nir_lower_simd` folds it). gpucc's own layout pushes
    /// local ids instead, so there is no subgroup id to read.
    pub(super) fn emit_subgroup_id(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let name = i.intrinsic.name();
        let facts = self.compute_only(name)?;
        let slot = facts.subgroup_id_param.ok_or_else(|| {
            unsupported(format!(
                "`{name}` under gpucc's binding model (its threads get local ids, not a \
                 subgroup id: compile with Mesa's binding model)"
            ))
        })?;
        let value = if self.one_thread_workgroup() {
            Reg::imm(RegType::UD, 0)
        } else {
            Reg {
                file: File::Uniform,
                nr: slot,
                ty: RegType::UD,
                stride: 0,
                ..Reg::BAD
            }
        };
        self.set(intrinsic_def(i)?, vec![value]);
        Ok(())
    }

    /// `load_subgroup_invocation`: the channel's index in its thread, computed at the top of
    /// the shader.
    pub(super) fn emit_subgroup_invocation(
        &mut self,
        i: &IntrinsicInstr,
    ) -> Result<(), CompileError> {
        let chan = self.chan_index.ok_or_else(|| {
            CompileError::Internal("load_subgroup_invocation without a channel index".into())
        })?;
        self.set(intrinsic_def(i)?, vec![chan]);
        Ok(())
    }

    /// `barrier`, with a memory scope (a fence) or an execution scope (a gateway barrier)
    /// or both.
    pub(super) fn emit_barrier(&mut self, i: &IntrinsicInstr) -> Result<(), CompileError> {
        let scope = |k: IndexKind, key: &str, default: bool| match i.index(k) {
            Some(nir::IndexValue::Text(t)) => !t
                .strip_prefix(key)
                .unwrap_or(t)
                .eq_ignore_ascii_case("none"),
            Some(nir::IndexValue::Int(v)) => *v != 0,
            _ => default,
        };
        let execution = scope(IndexKind::ExecutionScope, "execution_scope=", false);
        // As brw: the memory part first (a fence), then the workgroup meets.
        if scope(IndexKind::MemoryScope, "memory_scope=", false) {
            self.emit_barrier_fence(i);
        }
        // A workgroup that fits in one thread runs in lockstep already: brw emits no
        // barrier for it (and does not report one in `uses_barrier`).
        if execution && !self.one_thread_workgroup() {
            self.emit_gateway_barrier()?;
        }
        Ok(())
    }

    /// A compute workgroup that one thread of this width runs whole (its invocations in
    /// lockstep; subgroup id 0).
    fn one_thread_workgroup(&self) -> bool {
        self.facts
            .compute
            .as_ref()
            .is_some_and(|c| c.local_size.iter().product::<u32>() <= self.width as u32)
    }

    pub(super) fn compute_only(&self, what: &str) -> Result<&ComputeFacts, CompileError> {
        self.facts
            .compute
            .as_ref()
            .ok_or_else(|| unsupported(format!("{what} outside a compute shader")))
    }

    /// Local invocation id component `k`: the payload holds one register per 8 channels for
    /// each of x, y and z, so wider threads gather their halves into one value. (In Mesa's
    /// binding model, the value computed at the top of the shader.)
    fn local_id(&mut self, k: u32) -> Reg {
        if let Some(ids) = self.local_ids {
            return ids.id[k as usize];
        }
        let d = self.vgrf(RegType::UD);
        for h in 0..self.width as u32 / 8 {
            let m = self.alu(
                Opcode::Mov,
                d.reg_offset(h),
                vec![Reg::fixed(1 + 3 * h + k, 0, RegType::UD, 1)],
            );
            m.exec_size = 8;
            m.group = 8 * h as u8;
        }
        d
    }

    /// Mesa's binding model: every channel's local invocation id and index, from the
    /// subgroup id (the pushed param after the uniforms) and the channel index, as
    /// `brw_nir_lower_cs_intrinsics` and `brw_nir_lower_simd` compute them: the invocation's
    /// linear number is `subgroup id × width + channel` (just the channel when the workgroup
    /// fits in one thread), split into x, y and z in the order brw picks from the shader
    /// info ([`IdOrder`]), and the index is the linear number or, for the orders that are
    /// not x-major, `x + y × size_x + z × size_x × size_y`.
    pub(super) fn emit_local_ids_from_subgroup_id(
        &mut self,
        shader: &nir::Shader,
    ) -> Result<LocalIds, CompileError> {
        use RegType::UD;
        let facts = self.compute_only("load_local_invocation_id")?;
        let ([sx, sy, sz], slot) = (facts.local_size, facts.subgroup_id_param);
        let slot = slot.ok_or_else(|| {
            CompileError::Internal("local ids from a subgroup id that is not pushed".into())
        })?;
        let n = sx * sy * sz;
        if n == 1 {
            let zero = Reg::imm(UD, 0);
            return Ok(LocalIds {
                id: [zero; 3],
                index: zero,
            });
        }
        let number = |key: &str| {
            shader
                .info
                .field(key)
                .and_then(|v| v.trim().parse::<u32>().ok())
                .unwrap_or(0)
        };
        let order = match number("derivative_group") {
            // DERIVATIVE_GROUP_NONE
            0 if number("num_textures") == 0 && number("num_images") == 0 => IdOrder::XMajor,
            0 if sy % 4 == 0 => IdOrder::Block1x4,
            0 => IdOrder::YMajor,
            // DERIVATIVE_GROUP_LINEAR
            2 => IdOrder::XMajor,
            g => {
                return Err(unsupported(format!(
                    "local ids of derivative group {g} (NV_compute_shader_derivatives quads)"
                )))
            }
        };
        let chan = match self.chan_index {
            Some(c) => c,
            None => self.emit_channel_index(),
        };
        let width = self.width as u32;
        let linear = if self.one_thread_workgroup() {
            // brw_nir_lower_simd: the subgroup id of a one-thread workgroup is 0.
            chan
        } else {
            let sgid = Reg {
                file: File::Uniform,
                nr: slot,
                ty: UD,
                stride: 0,
                ..Reg::BAD
            };
            let first = self.vgrf(UD);
            self.alu(
                Opcode::Shl,
                first,
                vec![sgid, Reg::imm(UD, width.trailing_zeros())],
            );
            let l = self.vgrf(UD);
            self.alu(Opcode::Add, l, vec![first, chan]);
            l
        };
        let sxy = sx * sy;
        let (x, y) = match order {
            IdOrder::XMajor => {
                let x = self.umod_imm(linear, sx);
                let row = self.udiv_imm(linear, sx);
                (x, self.umod_imm(row, sy))
            }
            IdOrder::Block1x4 => {
                // x = (linear / 4) % sx; y = (linear % 4 + (linear / 4 / sx) * 4) % sy
                let column = self.udiv_imm(linear, 4);
                let x = self.umod_imm(column, sx);
                let within = self.umod_imm(linear, 4);
                let band = self.udiv_imm(column, sx);
                let top = self.vgrf(UD);
                self.alu(Opcode::Shl, top, vec![band, Reg::imm(UD, 2)]);
                let y = self.vgrf(UD);
                self.alu(Opcode::Add, y, vec![top, within]);
                (x, self.umod_imm(y, sy))
            }
            IdOrder::YMajor => {
                let y = self.umod_imm(linear, sy);
                let column = self.udiv_imm(linear, sy);
                (self.umod_imm(column, sx), y)
            }
        };
        // Every running channel's linear number is below the workgroup size: with one
        // layer, z is 0.
        let z = if sz == 1 {
            Reg::imm(UD, 0)
        } else {
            self.udiv_imm(linear, sxy)
        };
        let index = if order == IdOrder::XMajor {
            linear
        } else {
            // x + y * sx + z * sx * sy; a component that is an immediate is 0 (a mod by 1,
            // or z of a one-layer workgroup).
            let mut sum = x;
            for (v, k) in [(y, sx), (z, sxy)] {
                if v.file == File::Imm {
                    continue;
                }
                let scaled = self.vgrf(UD);
                self.alu(Opcode::Mul, scaled, vec![v, Reg::imm(UD, k)]);
                let next = self.vgrf(UD);
                self.alu(Opcode::Add, next, vec![scaled, sum]);
                sum = next;
            }
            sum
        };
        Ok(LocalIds {
            id: [x, y, z],
            index,
        })
    }

    /// `x / d` for a constant `d` ≥ 1 (x below 2^31): a shift for powers of two, else the
    /// extended-math integer division.
    fn udiv_imm(&mut self, x: Reg, d: u32) -> Reg {
        use RegType::{D, UD};
        if d == 1 {
            return x;
        }
        if d.is_power_of_two() {
            let q = self.vgrf(UD);
            self.alu(Opcode::Shr, q, vec![x, Reg::imm(UD, d.trailing_zeros())]);
            return q;
        }
        let q = self.math(MathFn::IntDivQuotient, D, vec![x, Reg::imm(D, d)]);
        q.retype(UD)
    }

    /// `x % d` for a constant `d` ≥ 1 (x below 2^31), as [`Self::udiv_imm`].
    fn umod_imm(&mut self, x: Reg, d: u32) -> Reg {
        use RegType::{D, UD};
        if d == 1 {
            return Reg::imm(UD, 0);
        }
        if d.is_power_of_two() {
            let r = self.vgrf(UD);
            self.alu(Opcode::And, r, vec![x, Reg::imm(UD, d - 1)]);
            return r;
        }
        let r = self.math(MathFn::IntDivRemainder, D, vec![x, Reg::imm(D, d)]);
        r.retype(UD)
    }

    /// A workgroup barrier: a gateway message carrying the barrier id from the thread header
    /// (g0.2 bits 27:24 on Gen7 and Gen8), then a wait on the notification register until
    /// every thread of the workgroup has sent its own.
    fn emit_gateway_barrier(&mut self) -> Result<(), CompileError> {
        use RegType::UD;
        let facts = self
            .facts
            .compute
            .as_mut()
            .ok_or_else(|| unsupported("barrier outside a compute shader"))?;
        facts.uses_barrier = true;
        let payload = Reg::vgrf(self.prog.alloc(1), UD);
        let clear = self.alu(Opcode::Mov, payload, vec![Reg::imm(UD, 0)]);
        clear.exec_size = 8;
        clear.we_all = true;
        let id = Reg {
            offset: 8,
            ..payload
        };
        let and = self.alu(
            Opcode::And,
            id,
            vec![Reg::fixed(0, 8, UD, 0), Reg::imm(UD, 0x0f00_0000)],
        );
        and.exec_size = 1;
        and.we_all = true;
        let desc = GatewayDesc {
            len: Lengths::new(1, 0, false),
            subfunction: GatewayDesc::BARRIER,
        }
        .encode(self.devinfo.ver);
        let send = self.push(Op::Send, Reg::null(RegType::UW), vec![payload]);
        send.exec_size = 8;
        send.we_all = true;
        send.mlen = 1;
        send.desc = desc;
        send.sfid = sfid::GATEWAY;
        let wait = self.alu(Opcode::Wait, Reg::BAD, vec![]);
        wait.exec_size = 1;
        wait.we_all = true;
        Ok(())
    }

    /// Ends a compute thread: a thread-spawner message with the thread header (root thread,
    /// no URB dereference), as the end-of-thread send.
    pub(super) fn emit_cs_terminate(&mut self) {
        use RegType::UD;
        let payload = Reg::vgrf(self.prog.alloc(1), UD);
        let copy = self.alu(Opcode::Mov, payload, vec![Reg::fixed(0, 0, UD, 1)]);
        copy.exec_size = 8;
        copy.we_all = true;
        // Dereference the resource of a root thread, but not a URB entry.
        let desc = SpawnerDesc {
            len: Lengths::new(1, 0, false),
            opcode: 0,
            request_type: 0,
            resource_select: 1,
        }
        .encode(self.devinfo.ver);
        let send = self.push(Op::Send, Reg::null(RegType::UW), vec![payload]);
        send.exec_size = 8;
        send.we_all = true;
        send.mlen = 1;
        send.desc = desc;
        send.sfid = sfid::THREAD_SPAWNER;
        send.eot = true;
    }
}

/// Workgroup id component `k` from the thread header (g0.1, g0.6, g0.7).
fn workgroup_id(k: usize) -> Reg {
    Reg::fixed(0, [4, 24, 28][k], RegType::UD, 0)
}
