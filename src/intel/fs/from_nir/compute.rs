//! What only compute shaders have: the workgroup size and shared-memory size of the shader
//! info, local invocation ids (payload registers after the header) and workgroup ids (in the
//! header, g0), gateway barriers, and the message to the thread spawner that ends the thread.

use crate::intel::eu::types::sfid;
use crate::intel::eu::{Opcode, RegType};
use crate::nir::{self, IndexKind, IntrinsicInstr};

use super::super::ir::{Op, Reg};
use super::{intrinsic_def, unsupported, CompileError, Translator};

/// What a compute shader's dispatch needs to know.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ComputeFacts {
    /// Workgroup size (`workgroup_size` of the shader info).
    pub local_size: [u32; 3],
    /// Workgroup-shared memory in bytes (`shared_size`).
    pub shared_size: u32,
    /// The shader synchronises its workgroup with gateway barriers.
    pub uses_barrier: bool,
}

/// Reads the workgroup and shared-memory sizes of a compute shader's info block
/// (`workgroup_size: 8, 1, 1`, `shared_size: 64`).
pub(in crate::intel::fs) fn compute_facts(
    shader: &nir::Shader,
) -> Result<ComputeFacts, CompileError> {
    let info = &shader.info;
    let size = info
        .field("workgroup_size")
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
    let shared_size = match info.field("shared_size") {
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
        if execution {
            self.emit_gateway_barrier()?;
        }
        Ok(())
    }

    pub(super) fn compute_only(&self, what: &str) -> Result<&ComputeFacts, CompileError> {
        self.facts
            .compute
            .as_ref()
            .ok_or_else(|| unsupported(format!("{what} outside a compute shader")))
    }

    /// Local invocation id component `k`: the payload holds one register per 8 channels for
    /// each of x, y and z, so wider threads gather their halves into one value.
    fn local_id(&mut self, k: u32) -> Reg {
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
        let send = self.push(Op::Send, Reg::null(RegType::UW), vec![payload]);
        send.exec_size = 8;
        send.we_all = true;
        send.mlen = 1;
        send.desc = (1 << 25) | 4;
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
        let send = self.push(Op::Send, Reg::null(RegType::UW), vec![payload]);
        send.exec_size = 8;
        send.we_all = true;
        send.mlen = 1;
        send.desc = (1 << 25) | (1 << 4);
        send.sfid = sfid::THREAD_SPAWNER;
        send.eot = true;
    }
}

/// Workgroup id component `k` from the thread header (g0.1, g0.6, g0.7).
fn workgroup_id(k: usize) -> Reg {
    Reg::fixed(0, [4, 24, 28][k], RegType::UD, 0)
}
