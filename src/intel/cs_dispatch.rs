//! What a dispatcher needs from a compiled compute kernel beyond its code: how many hardware
//! threads make a workgroup, which channels of the last one run, and the push data (CURBE)
//! each thread starts with. The compiler decides the thread payload (see
//! `intel::sim::payload`), so the CURBE is built here, next to the program data, and the DRM
//! launch path calls this instead of asking the driver to lay the bytes out by hand.
//!
//! The payload of a gpucc compute thread is g0 (header), then the local invocation ids (per 8
//! channels one register each of x, y and z), then the pushed uniform dwords of
//! [`Kernel::push_constants`]. The hardware loads a thread's CURBE data from g1 on, the
//! cross-thread block first and the thread's own block after it. Because the local ids come
//! first here, everything is per-thread: the cross-thread block is empty, and each thread's
//! block repeats the uniforms after its ids. (Mesa pushes its uniforms cross-thread on
//! Haswell and later because its only per-thread value, the subgroup id, is the last param.)

use crate::intel::kernel::{ComputeInfo, Kernel};

/// Bytes per GRF.
const REG_BYTES: u32 = 32;

/// A block of push data (Mesa's `brw_push_const_block`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PushBlock {
    /// Dwords of data, not rounded to registers.
    pub dwords: u32,
    /// Registers the block fills (dwords rounded up to 8).
    pub regs: u32,
    /// Bytes the block takes in the CURBE (`regs` × 32).
    pub size: u32,
}

impl PushBlock {
    /// The block holding `dwords` dwords.
    pub fn of_dwords(dwords: u32) -> PushBlock {
        let regs = dwords.div_ceil(8);
        PushBlock {
            dwords,
            regs,
            size: regs * REG_BYTES,
        }
    }
}

/// The push layout of a compute kernel (Mesa's `brw_cs_prog_data.push`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CsPush {
    /// Data every thread of a workgroup shares, loaded first (empty: see the module doc).
    pub cross_thread: PushBlock,
    /// Each thread's own data: its local ids, then the uniform dwords.
    pub per_thread: PushBlock,
    /// Registers of local ids at the start of the per-thread block: 3 per 8 channels.
    pub local_id_regs: u32,
    /// Uniform dwords after the local ids ([`Kernel::push_constants`], in order).
    pub uniform_dwords: u32,
}

/// Hardware threads of `simd` channels for a workgroup of `invocations`.
pub fn threads_per_group(invocations: u32, simd: u32) -> u32 {
    invocations.div_ceil(simd.max(1))
}

/// Execution mask of the last thread of a workgroup (GPGPU_WALKER's right mask): the
/// channels left over, or all `simd` when the group fills its threads.
pub fn last_thread_mask(invocations: u32, simd: u32) -> u32 {
    let simd = simd.clamp(1, 32);
    let rest = invocations % simd;
    let lanes = if rest == 0 { simd } else { rest };
    u32::MAX >> (32 - lanes)
}

impl ComputeInfo {
    /// Invocations per workgroup (x × y × z).
    pub fn invocations(&self) -> u32 {
        self.local_size.iter().product()
    }

    /// Hardware threads per workgroup at the dispatch width.
    pub fn threads(&self) -> u32 {
        threads_per_group(self.invocations(), self.simd)
    }

    /// The local id (x, y, z) of invocation `index`, x fastest (as GL numbers them).
    pub fn local_id(&self, index: u32) -> [u32; 3] {
        let [x, y, _] = self.local_size.map(|d| d.max(1));
        [index % x, (index / x) % y, index / (x * y)]
    }
}

impl Kernel {
    /// The push layout of a compute kernel; None for other stages.
    pub fn cs_push(&self) -> Option<CsPush> {
        let info = self.compute.as_ref()?;
        let local_id_regs = 3 * info.simd.div_ceil(8);
        let uniform_dwords = self.push_constants.len() as u32;
        Some(CsPush {
            cross_thread: PushBlock::of_dwords(0),
            // The ids fill whole registers, so the uniforms start on a register boundary.
            per_thread: PushBlock::of_dwords(8 * local_id_regs + uniform_dwords),
            local_id_regs,
            uniform_dwords,
        })
    }

    /// The CURBE of one workgroup of a compute kernel: the cross-thread block, then each
    /// thread's block (its local ids, then every pushed dword read from `uniforms`, the bytes
    /// of UBO block 0), 32 bytes per register. Channels past the workgroup's end get id 0.
    ///
    /// Errors: not a compute kernel; a pushed dword outside `uniforms` or from another UBO
    /// block (each names the dword).
    pub fn cs_curbe(&self, uniforms: &[u8]) -> Result<Vec<u8>, String> {
        let (Some(info), Some(push)) = (self.compute.as_ref(), self.cs_push()) else {
            return Err("not a compute kernel".into());
        };
        let mut values = Vec::with_capacity(self.push_constants.len());
        for (i, &(block, offset)) in self.push_constants.iter().enumerate() {
            if block != 0 {
                return Err(format!(
                    "push constant {i} comes from UBO block {block}; only block 0 is pushed"
                ));
            }
            let at = offset as usize;
            let bytes = uniforms.get(at..at + 4).ok_or_else(|| {
                format!(
                    "push constant {i} reads bytes {at}..{} of UBO block 0, but the uniform \
                     data is {} bytes",
                    at + 4,
                    uniforms.len()
                )
            })?;
            values.push(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
        }
        let threads = info.threads();
        let block = push.per_thread.size as usize;
        let mut curbe = vec![0u8; push.cross_thread.size as usize + block * threads as usize];
        let mut put = |at: usize, v: u32| curbe[at..at + 4].copy_from_slice(&v.to_le_bytes());
        let invocations = info.invocations();
        for t in 0..threads {
            let base = push.cross_thread.size as usize + block * t as usize;
            for c in 0..info.simd {
                let index = t * info.simd + c;
                if index >= invocations {
                    break;
                }
                let id = info.local_id(index);
                for (k, v) in id.into_iter().enumerate() {
                    let reg = 3 * (c / 8) as usize + k;
                    put(base + reg * REG_BYTES as usize + 4 * (c % 8) as usize, v);
                }
            }
            let uniforms_at = base + (push.local_id_regs * REG_BYTES) as usize;
            for (d, &v) in values.iter().enumerate() {
                put(uniforms_at + 4 * d, v);
            }
        }
        Ok(curbe)
    }
}
