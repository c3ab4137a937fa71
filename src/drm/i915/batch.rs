//! A GPGPU batch: the command sequence of one compute dispatch and the state it points to,
//! laid out in a single buffer, with the address fields that need relocation recorded.

use super::cmd::{
    media_curbe_load, media_interface_descriptor_load, media_state_flush, null_surface,
    pipeline_select_gpgpu, AddressSlot, BufferSurface, Gen, GpgpuWalker, InterfaceDescriptor,
    MediaVfeState, SimdSize, StateBaseAddress, FORMAT_RAW, MI_BATCH_BUFFER_END, MI_NOOP,
};
use crate::drm::error::{Error, Result};
use crate::intel::cs_dispatch::{last_thread_mask, threads_per_group};
use crate::intel::kernel::Kernel;

/// Which buffer an address refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The batch buffer itself (it also holds the surface and dynamic state).
    Batch,
    /// The buffer holding the kernel's instructions.
    Program,
    /// The n-th buffer bound to the kernel.
    Buffer(usize),
}

/// An address in the batch that the kernel must patch (relocation) or that was written from
/// a pinned address (softpin); either way the batch records what it points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reloc {
    /// Byte offset of the address field in the batch.
    pub offset: u32,
    pub target: Target,
    /// Added to the target's address (includes flag bits such as modify-enable).
    pub delta: u32,
    pub wide: bool,
}

/// A finished batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    pub dwords: Vec<u32>,
    /// Bytes of commands (up to and including MI_BATCH_BUFFER_END and padding): `batch_len`.
    pub command_bytes: u32,
    pub relocs: Vec<Reloc>,
}

impl Batch {
    pub fn bytes(&self) -> Vec<u8> {
        self.dwords.iter().flat_map(|d| d.to_le_bytes()).collect()
    }
}

/// Everything a compute dispatch needs besides the GPU addresses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputeDispatch {
    /// Kernel offset inside the program buffer (64-byte aligned).
    pub kernel_offset: u64,
    pub simd: SimdSize,
    /// Hardware threads per thread group.
    pub threads_in_group: u32,
    /// Push constants as the kernel reads them: cross-thread registers then one block of
    /// per-thread registers for each thread, 32 bytes per register.
    pub curbe: Vec<u8>,
    pub cross_thread_registers: u32,
    pub per_thread_registers: u32,
    /// Sizes in bytes of the buffers bound at binding table entries `first_binding`,
    /// `first_binding + 1`, ...
    pub buffer_sizes: Vec<u32>,
    /// Binding-table index of the first buffer; the entries below it are null surfaces.
    pub first_binding: u32,
    pub groups: [u32; 3],
    /// Hardware thread limit for the VFE.
    pub max_threads: u32,
    pub slm_size: u32,
    pub barrier: bool,
    /// Channel mask of the last thread in a group (all ones when the group fills it).
    pub right_mask: u32,
    pub mocs: u32,
}

/// GPU addresses of the buffers, as presumed (relocations) or pinned (softpin).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Addresses {
    pub batch: u64,
    pub program: u64,
    pub buffers: Vec<u64>,
}

impl Addresses {
    fn of(&self, t: Target) -> u64 {
        match t {
            Target::Batch => self.batch,
            Target::Program => self.program,
            Target::Buffer(i) => self.buffers.get(i).copied().unwrap_or(0),
        }
    }
}

fn align(n: usize, a: usize) -> usize {
    n.div_ceil(a) * a
}

struct Writer {
    dwords: Vec<u32>,
    relocs: Vec<Reloc>,
}

impl Writer {
    fn emit(&mut self, cmd: &[u32]) -> usize {
        let at = self.dwords.len();
        self.dwords.extend_from_slice(cmd);
        at
    }

    fn reloc(&mut self, at: usize, slot: AddressSlot, target: Target, delta: u32) {
        self.relocs.push(Reloc {
            offset: ((at + slot.dword) * 4) as u32,
            target,
            delta,
            wide: slot.wide,
        });
    }

    fn pad_to(&mut self, bytes: usize) {
        self.dwords.resize(bytes / 4, 0);
    }
}

/// Builds the batch of one compute dispatch.
///
/// Layout of the batch buffer (all offsets relative to it, which is also the surface, dynamic
/// and indirect state base): commands from 0, then 64-byte aligned the interface descriptor,
/// the CURBE data, the binding table and the surface states.
pub fn build_compute_batch(gen: Gen, d: &ComputeDispatch, addr: &Addresses) -> Result<Batch> {
    if d.buffer_sizes.len() > 31 {
        return Err(Error::Invalid(format!(
            "a compute dispatch binds at most 31 buffers, got {}",
            d.buffer_sizes.len()
        )));
    }
    // The binding table holds 256 entries (an 8-bit index).
    let entries = d.first_binding as usize + d.buffer_sizes.len();
    if entries > 256 {
        return Err(Error::Invalid(format!(
            "{} buffers from binding-table entry {} pass entry 255",
            d.buffer_sizes.len(),
            d.first_binding
        )));
    }
    let nulls = usize::from(d.first_binding > 0);
    if d.kernel_offset % 64 != 0 {
        return Err(Error::Invalid(format!(
            "kernel offset {:#x} is not 64-byte aligned",
            d.kernel_offset
        )));
    }
    if d.threads_in_group == 0 || d.threads_in_group > 64 || d.groups.contains(&0) {
        return Err(Error::Invalid(
            "a compute dispatch needs at least one thread and one group".into(),
        ));
    }

    // Command lengths are fixed per generation, so the state offsets are known up front.
    let cmd_dwords = 1
        + StateBaseAddress::default().encode(gen).len()
        + MediaVfeState::default().encode(gen).len()
        + 4
        + 4
        + dummy_walker().encode(gen).len()
        + 2
        + 1;
    let command_bytes = align(cmd_dwords * 4, 8);
    let idd_offset = align(command_bytes, 64);
    let curbe_offset = align(idd_offset + 32, 64);
    let curbe_len = align(d.curbe.len(), 32);
    let bt_offset = align(curbe_offset + curbe_len, 64);
    let ss_size = BufferSurface::size(gen);
    let ss_offset = align(bt_offset + 4 * entries, 64);
    // One null surface (when entries are skipped), then the buffers'.
    let buffers_ss = ss_offset + ss_size * nulls;
    let total = buffers_ss + ss_size * d.buffer_sizes.len();

    let mut w = Writer {
        dwords: Vec::with_capacity(total / 4),
        relocs: Vec::new(),
    };
    w.emit(&pipeline_select_gpgpu(gen));

    let sba = StateBaseAddress {
        general: 0,
        surface: addr.batch,
        dynamic: addr.batch,
        indirect: addr.batch,
        instruction: addr.program,
        mocs: d.mocs,
    };
    let at = w.emit(&sba.encode(gen));
    let slots = StateBaseAddress::slots(gen);
    let flags = sba.encode(gen);
    for (i, target) in [
        (1, Target::Batch),
        (2, Target::Batch),
        (3, Target::Batch),
        (4, Target::Program),
    ] {
        // The delta carries the MOCS and modify-enable bits the command has below bit 12.
        let delta = flags[slots[i].dword] & 0xfff;
        w.reloc(at, slots[i], target, delta);
    }

    // Mesa's values for Gen7/8 compute: two URB entries of two units, and a CURBE (in
    // 256-bit units, one GRF each) holding every thread's push constants, rounded up to two.
    let curbe_size = d.cross_thread_registers + d.per_thread_registers * d.threads_in_group;
    let vfe = MediaVfeState {
        max_threads: d.max_threads,
        urb_entries: 2,
        urb_entry_size: 2,
        curbe_size: curbe_size.div_ceil(2) * 2,
        bypass_gateway: true,
        reset_gateway_timer: true,
        ..Default::default()
    };
    w.emit(&vfe.encode(gen));
    w.emit(&media_curbe_load(curbe_len as u32, (curbe_offset) as u32));
    w.emit(&media_interface_descriptor_load(32, idd_offset as u32));

    let width_max = d.threads_in_group - 1;
    let walker = GpgpuWalker {
        idd: 0,
        simd: d.simd,
        thread_width_max: width_max,
        thread_height_max: 0,
        thread_depth_max: 0,
        start: [0; 3],
        groups: d.groups,
        right_mask: d.right_mask,
        bottom_mask: 0xffff_ffff,
    };
    w.emit(&walker.encode(gen));
    w.emit(&media_state_flush(0));
    w.emit(&[MI_BATCH_BUFFER_END]);
    w.pad_to(command_bytes);
    debug_assert!(w.dwords.iter().skip(cmd_dwords).all(|&d| d == MI_NOOP));

    w.pad_to(idd_offset);
    let idd = InterfaceDescriptor {
        kernel_start: d.kernel_offset,
        binding_table: bt_offset as u32,
        // A prefetch count of at most 31 entries.
        binding_table_entries: entries.min(31) as u32,
        curbe_read_length: d.per_thread_registers,
        curbe_read_offset: 0,
        threads_in_group: d.threads_in_group,
        slm_size: d.slm_size,
        barrier: d.barrier,
        cross_thread_read_length: d.cross_thread_registers,
        single_program_flow: false,
    };
    w.emit(&idd.encode(gen));

    w.pad_to(curbe_offset);
    let mut curbe = d.curbe.clone();
    curbe.resize(curbe_len, 0);
    let words: Vec<u32> = curbe
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    w.emit(&words);

    w.pad_to(bt_offset);
    let bt: Vec<u32> = (0..entries)
        .map(|e| match e.checked_sub(d.first_binding as usize) {
            Some(i) => (buffers_ss + i * ss_size) as u32,
            None => ss_offset as u32,
        })
        .collect();
    w.emit(&bt);

    w.pad_to(ss_offset);
    if nulls > 0 {
        w.emit(&null_surface(gen));
    }
    w.pad_to(buffers_ss);
    for (i, &size) in d.buffer_sizes.iter().enumerate() {
        let surface = BufferSurface {
            address: addr.of(Target::Buffer(i)),
            elements: size,
            pitch: 0,
            format: FORMAT_RAW,
            mocs: d.mocs,
        };
        let words = surface.encode(gen).ok_or_else(|| {
            Error::Invalid(format!(
                "buffer {i} of {size} bytes cannot be bound as a RAW surface"
            ))
        })?;
        let at = w.emit(&words);
        w.reloc(at, BufferSurface::address_slot(gen), Target::Buffer(i), 0);
    }

    // The address fields were written with the presumed/pinned addresses; make that true
    // for the relocated fields too (their deltas already include the low flag bits).
    for r in &w.relocs {
        let value = addr.of(r.target) + u64::from(r.delta);
        let i = r.offset as usize / 4;
        w.dwords[i] = value as u32;
        if r.wide {
            w.dwords[i + 1] = (value >> 32) as u32;
        }
    }

    Ok(Batch {
        dwords: w.dwords,
        command_bytes: command_bytes as u32,
        relocs: w.relocs,
    })
}

fn dummy_walker() -> GpgpuWalker {
    GpgpuWalker {
        idd: 0,
        simd: SimdSize::Simd8,
        thread_width_max: 0,
        thread_height_max: 0,
        thread_depth_max: 0,
        start: [0; 3],
        groups: [1; 3],
        right_mask: 0,
        bottom_mask: 0,
    }
}

/// A compute launch at the driver level, before it is turned into hardware fields; for a
/// gpucc kernel, [`ComputeLaunch::for_kernel`] fills it from the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputeLaunch {
    pub kernel_offset: u64,
    /// SIMD width the kernel was compiled for: 8, 16 or 32.
    pub simd_width: u32,
    /// Invocations per work group (x × y × z).
    pub local_size: u32,
    pub per_thread_registers: u32,
    pub cross_thread_registers: u32,
    /// The CURBE: the cross-thread block, then each thread's block, 32 bytes per register.
    pub push_constants: Vec<u8>,
    pub groups: [u32; 3],
    pub shared_memory_bytes: u32,
    pub barrier: bool,
    /// Binding-table index the first buffer is bound at.
    pub first_binding: u32,
}

/// The SLM size field of the interface descriptor: 0 for none, else the size rounded up to
/// a power of two; Gen7/8 count it in 4 KiB units (at least 4 KiB: 4 KiB → 1, 8 → 2,
/// 16 → 4, 32 → 8, 64 → 16), Gen9 as log2(size) - 9 (at least 1 KiB: 1 KiB → 1 ... 64 KiB
/// → 7), per the PRMs' tables (also in Mesa's brw_compiler.h).
pub fn encode_slm_size(gen: Gen, bytes: u32) -> Result<u32> {
    if bytes == 0 {
        return Ok(0);
    }
    if bytes > 64 * 1024 {
        return Err(Error::Invalid(format!(
            "{bytes} bytes of shared memory exceed the 64 KiB of Gen7/8"
        )));
    }
    if gen == Gen::Gen9 {
        let size = bytes.next_power_of_two().max(1024);
        return Ok(size.trailing_zeros() - 9);
    }
    let size = bytes.next_power_of_two().max(4096);
    Ok(size / 4096)
}

impl ComputeLaunch {
    /// The launch of `groups` workgroups of a compiled compute kernel: everything but the
    /// group counts and the uniform data (the bytes of UBO block 0, which its push
    /// constants read) comes from the program, so the driver and the compiler cannot
    /// disagree. The kernel runs at its dispatch width, with its buffers bound where its
    /// SSBO accesses point (SSBO block i at binding-table entry `ssbo_surface_base + i`).
    pub fn for_kernel(kernel: &Kernel, uniforms: &[u8], groups: [u32; 3]) -> Result<Self> {
        let (Some(info), Some(push)) = (kernel.compute.as_ref(), kernel.cs_push()) else {
            return Err(Error::Invalid("the program is not a compute kernel".into()));
        };
        let variant = kernel.variant(info.simd).ok_or_else(|| {
            Error::Invalid(format!("the program has no SIMD{} kernel", info.simd))
        })?;
        // MEDIA_VFE_STATE gets no scratch space here; a spilling kernel would write to
        // address 0.
        if variant.scratch_size > 0 {
            return Err(Error::Unsupported(format!(
                "the SIMD{} kernel spills ({} bytes of scratch per thread); compute dispatch \
                 allocates no scratch space",
                info.simd, variant.scratch_size
            )));
        }
        Ok(ComputeLaunch {
            kernel_offset: u64::from(variant.offset),
            simd_width: info.simd,
            local_size: info.invocations(),
            per_thread_registers: push.per_thread.regs,
            cross_thread_registers: push.cross_thread.regs,
            push_constants: kernel.cs_curbe(uniforms).map_err(Error::Invalid)?,
            groups,
            shared_memory_bytes: info.shared_size,
            barrier: info.uses_barrier,
            first_binding: kernel.ssbo_surface_base,
        })
    }

    /// The hardware-level dispatch: hardware threads per group, the execution mask of the last
    /// thread (the group size modulo the SIMD width, or all channels), thread and MOCS limits.
    pub fn lower(
        &self,
        gen: Gen,
        max_threads: u32,
        buffer_sizes: Vec<u32>,
    ) -> Result<ComputeDispatch> {
        let simd = match self.simd_width {
            8 => SimdSize::Simd8,
            16 => SimdSize::Simd16,
            32 => SimdSize::Simd32,
            w => return Err(Error::Invalid(format!("SIMD width {w} is not 8, 16 or 32"))),
        };
        if self.local_size == 0 {
            return Err(Error::Invalid(
                "a work group needs at least one invocation".into(),
            ));
        }
        let threads = threads_per_group(self.local_size, self.simd_width);
        let right_mask = last_thread_mask(self.local_size, self.simd_width);
        let needed =
            (self.per_thread_registers * threads + self.cross_thread_registers) as usize * 32;
        if self.push_constants.len() > needed {
            return Err(Error::Invalid(format!(
                "{} bytes of push constants exceed the {needed} bytes the registers hold",
                self.push_constants.len()
            )));
        }
        Ok(ComputeDispatch {
            kernel_offset: self.kernel_offset,
            simd,
            threads_in_group: threads,
            curbe: self.push_constants.clone(),
            cross_thread_registers: self.cross_thread_registers,
            per_thread_registers: self.per_thread_registers,
            buffer_sizes,
            first_binding: self.first_binding,
            groups: self.groups,
            max_threads: max_threads.max(1),
            slm_size: encode_slm_size(gen, self.shared_memory_bytes)?,
            barrier: self.barrier,
            right_mask,
            mocs: gen.default_mocs(),
        })
    }
}
