//! What a dispatcher needs from a compiled compute kernel beyond its code: how many hardware
//! threads make a workgroup, which channels of the last one run, and the push data (CURBE)
//! each thread starts with. The compiler decides the thread payload (see
//! `intel::sim::payload`), so the CURBE is built here, next to the program data, and the DRM
//! launch path and the verifier call this instead of laying the bytes out by hand.
//!
//! The hardware loads a thread's CURBE data from g1 on: the cross-thread block first (Gen7.5
//! and later), then the thread's own block. Two layouts ([`CsPushLayout`]):
//!
//! - **gpucc's own** (`LocalIds`): the payload is g0 (header), then the local invocation ids
//!   (per 8 channels one register each of x, y and z), then the pushed uniform dwords of
//!   [`Kernel::push_constants`]. Because the local ids come first, everything is per-thread:
//!   the cross-thread block is empty, and each thread's block repeats the uniforms after its
//!   ids.
//! - **Mesa's** (`SubgroupId`, brw before Gen12.5): the params are the pushed uniform dwords
//!   and then the subgroup id, the last param (brw's `nir_setup_uniforms` appends
//!   `BRW_PARAM_BUILTIN_SUBGROUP_ID`); the shader computes its local ids from the subgroup id
//!   and its channel index (`brw_nir_lower_cs_intrinsics`). `cs_fill_push_const_info` splits
//!   the params: on Gen7 (no cross-thread data) all are per-thread; on Gen7.5 and later the
//!   whole registers before the subgroup id's register are cross-thread and the register
//!   holding the subgroup id is per-thread. The driver writes thread t's subgroup id = t in
//!   each thread's copy (iris's and crocus's `*_fill_cs_push_const_buffer`). gpucc's pushed
//!   uniforms are whole 32-byte registers of Mesa's UBO ranges, so the subgroup id always
//!   starts its own register: on Gen7.5+ the per-thread block is that one dword.

use crate::intel::kernel::{ComputeInfo, CsParam, CsPushLayout, Kernel};

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
    /// Data every thread of a workgroup shares, loaded first (Gen7.5+; empty in gpucc's own
    /// layout: see the module doc).
    pub cross_thread: PushBlock,
    /// Each thread's own data: in gpucc's layout its local ids, then the uniform dwords; in
    /// Mesa's the params after the cross-thread ones, the subgroup id last.
    pub per_thread: PushBlock,
    /// Registers of local ids at the start of the per-thread block: 3 per 8 channels in
    /// gpucc's layout, 0 in Mesa's.
    pub local_id_regs: u32,
    /// Pushed uniform dwords ([`Kernel::push_constants`], in order).
    pub uniform_dwords: u32,
    /// Params ([`Kernel::cs_params`]; Mesa's `nr_params`): the uniform dwords, and in Mesa's
    /// layout the subgroup id after them.
    pub params: u32,
    /// Which param is the subgroup id (Mesa's `brw_get_subgroup_id_param_index`): the last
    /// one in Mesa's layout, none in gpucc's.
    pub subgroup_id_param: Option<u32>,
}

/// The split of `params` param dwords whose last is the subgroup id, as brw's
/// `cs_fill_push_const_info` makes it: (cross-thread dwords, per-thread dwords).
pub fn mesa_push_split(params: u32, cross_thread_supported: bool) -> (u32, u32) {
    if !cross_thread_supported || params == 0 {
        return (0, params);
    }
    // Every whole register before the subgroup id's (the last param's) register.
    let cross = 8 * ((params - 1) / 8);
    (cross, params - cross)
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
    /// The push layout of a compute kernel at its dispatch width; None for other stages.
    pub fn cs_push(&self) -> Option<CsPush> {
        self.cs_push_at(self.compute.as_ref()?.simd)
    }

    /// The push layout of a compute kernel's SIMD`simd` variant; None for other stages.
    pub fn cs_push_at(&self, simd: u32) -> Option<CsPush> {
        let info = self.compute.as_ref()?;
        let uniform_dwords = self.push_constants.len() as u32;
        Some(match info.push_layout {
            CsPushLayout::LocalIds => {
                let local_id_regs = 3 * simd.div_ceil(8);
                CsPush {
                    cross_thread: PushBlock::of_dwords(0),
                    // The ids fill whole registers, so the uniforms start on a register
                    // boundary.
                    per_thread: PushBlock::of_dwords(8 * local_id_regs + uniform_dwords),
                    local_id_regs,
                    uniform_dwords,
                    params: uniform_dwords,
                    subgroup_id_param: None,
                }
            }
            CsPushLayout::SubgroupId { cross_thread } => {
                let params = uniform_dwords + 1;
                let (cross, per) = mesa_push_split(params, cross_thread);
                CsPush {
                    cross_thread: PushBlock::of_dwords(cross),
                    per_thread: PushBlock::of_dwords(per),
                    local_id_regs: 0,
                    uniform_dwords,
                    params,
                    subgroup_id_param: Some(uniform_dwords),
                }
            }
        })
    }

    /// What each param dword of a compute kernel holds, in param order (empty for other
    /// stages): the pushed uniform dwords, then, in Mesa's layout, the subgroup id.
    pub fn cs_params(&self) -> Vec<CsParam> {
        let Some(info) = self.compute.as_ref() else {
            return Vec::new();
        };
        let mut params: Vec<CsParam> = self
            .push_constants
            .iter()
            .map(|&(block, offset)| CsParam::Uniform { block, offset })
            .collect();
        if matches!(info.push_layout, CsPushLayout::SubgroupId { .. }) {
            params.push(CsParam::SubgroupId);
        }
        params
    }

    /// The CURBE of one workgroup of a compute kernel, reading its uniform dwords from
    /// `uniforms`, the bytes of UBO block 0 (gpucc's own binding model pushes from nowhere
    /// else; see [`Kernel::cs_curbe_with`] for other blocks).
    ///
    /// Errors: not a compute kernel; a pushed dword outside `uniforms` or from another UBO
    /// block (each names the dword).
    pub fn cs_curbe(&self, uniforms: &[u8]) -> Result<Vec<u8>, String> {
        self.cs_curbe_with(|i, block, offset| {
            if block != 0 {
                return Err(format!(
                    "push constant {i} comes from UBO block {block}; only block 0 is given"
                ));
            }
            dword_of(uniforms, offset).ok_or_else(|| {
                format!(
                    "push constant {i} reads bytes {offset}..{} of UBO block 0, but the \
                     uniform data is {} bytes",
                    offset as u64 + 4,
                    uniforms.len()
                )
            })
        })
    }

    /// The CURBE of one workgroup of a compute kernel, 32 bytes per register: the
    /// cross-thread block once, then each thread's block. `uniform(i, block, offset)` gives
    /// pushed dword `i`, dword `offset / 4` of UBO `block`. In gpucc's layout a thread's
    /// block is its local ids (channels past the workgroup's end get id 0), then every
    /// pushed dword; in Mesa's the params are split as [`mesa_push_split`] says and thread
    /// t's subgroup id is t. Unused dwords of a register are 0.
    ///
    /// Errors: not a compute kernel, or what `uniform` returns.
    pub fn cs_curbe_with(
        &self,
        uniform: impl FnMut(usize, u32, u32) -> Result<u32, String>,
    ) -> Result<Vec<u8>, String> {
        let info = self.compute.as_ref().ok_or("not a compute kernel")?;
        self.cs_curbe_at(info.simd, uniform)
    }

    /// [`Kernel::cs_curbe_with`] for the SIMD`simd` variant: `ceil(invocations / simd)`
    /// threads (in gpucc's layout, `3 * simd / 8` registers of local ids each).
    pub fn cs_curbe_at(
        &self,
        simd: u32,
        mut uniform: impl FnMut(usize, u32, u32) -> Result<u32, String>,
    ) -> Result<Vec<u8>, String> {
        let (Some(info), Some(push)) = (self.compute.as_ref(), self.cs_push_at(simd)) else {
            return Err("not a compute kernel".into());
        };
        let simd = simd.max(1);
        // The params' values, the subgroup id as 0 (each thread's copy gets its own).
        let mut values = Vec::with_capacity(push.params as usize);
        for (i, p) in self.cs_params().into_iter().enumerate() {
            values.push(match p {
                CsParam::Uniform { block, offset } => uniform(i, block, offset)?,
                CsParam::SubgroupId => 0,
            });
        }
        let threads = threads_per_group(info.invocations(), simd);
        let cross = push.cross_thread.size as usize;
        let block = push.per_thread.size as usize;
        let mut curbe = vec![0u8; cross + block * threads as usize];
        let mut put = |at: usize, v: u32| curbe[at..at + 4].copy_from_slice(&v.to_le_bytes());
        let split = push.cross_thread.dwords as usize;
        for (d, &v) in values[..split].iter().enumerate() {
            put(4 * d, v);
        }
        let invocations = info.invocations();
        for t in 0..threads {
            let base = cross + block * t as usize;
            // gpucc's layout: the local ids of the thread's channels.
            let channels = if push.local_id_regs > 0 { simd } else { 0 };
            for c in 0..channels {
                let index = t * simd + c;
                if index >= invocations {
                    break;
                }
                let id = info.local_id(index);
                for (k, v) in id.into_iter().enumerate() {
                    let reg = 3 * (c / 8) as usize + k;
                    put(base + reg * REG_BYTES as usize + 4 * (c % 8) as usize, v);
                }
            }
            let params_at = base + (push.local_id_regs * REG_BYTES) as usize;
            for (d, &v) in values[split..].iter().enumerate() {
                let v = if push.subgroup_id_param == Some((split + d) as u32) {
                    t
                } else {
                    v
                };
                put(params_at + 4 * d, v);
            }
        }
        Ok(curbe)
    }
}

/// The little-endian dword at byte `offset` of `bytes`, if it is all there.
fn dword_of(bytes: &[u8], offset: u32) -> Option<u32> {
    let at = offset as usize;
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}
