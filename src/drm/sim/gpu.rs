//! The simulated GPU's command streamer and media/GPGPU pipe: walks a batch, keeps the state
//! its commands set, and runs each GPGPU_WALKER's thread groups on the EU simulator.
//!
//! The commands modelled are the ones gpucc's DRM layer emits (PIPELINE_SELECT,
//! STATE_BASE_ADDRESS, MEDIA_VFE_STATE, MEDIA_CURBE_LOAD, MEDIA_INTERFACE_DESCRIPTOR_LOAD,
//! GPGPU_WALKER, MEDIA_STATE_FLUSH, MI_NOOP, MI_BATCH_BUFFER_END); anything else stops the
//! batch with an error naming the header and its dword. Field positions follow the Gen7 and
//! Gen8 command layouts; Gen9 keeps Gen8's but for PIPELINE_SELECT's mask bits, a longer
//! STATE_BASE_ADDRESS and the SLM size encoding.
//!
//! Threads: each group's threads are loaded as the hardware loads them (g0 with the group id
//! in dwords 1, 6 and 7; from g1 the cross-thread CURBE block then the thread's own block;
//! the right mask on the last thread), and run in turn. A thread that sends a gateway
//! barrier is paused after the message and the next thread runs, so every thread reaches the
//! barrier before any continues: the interleaving a barrier guarantees. Shared local memory
//! (binding-table index 254) is one block per group.

use std::collections::BTreeMap;

use super::Memory;
use crate::intel::eu::{self, Inst, Opcode};
use crate::intel::sim::{AtomicOp, RtWrite, SharedFunctions, Thread};
use crate::intel::DevInfo;
use crate::nir::interp::TexRequest;

/// A buffer object at its address for one submission.
#[derive(Clone, Copy, Debug)]
pub struct Placed {
    pub handle: u32,
    pub address: u64,
    pub size: u64,
}

/// Binding-table index of shared local memory.
const BTI_SLM: u32 = 254;
/// Steps one thread may take before the node calls it hung.
const STEP_LIMIT: u64 = 10_000_000;

#[derive(Default, Clone, Copy)]
struct Bases {
    surface: u64,
    dynamic: u64,
    instruction: u64,
}

/// What the walker needs from the state commands.
#[derive(Default)]
struct Pipe {
    gpgpu: bool,
    bases: Option<Bases>,
    vfe: bool,
    /// (length, start) relative to the dynamic state base.
    curbe: Option<(u32, u32)>,
    idd: Option<(u32, u32)>,
}

/// One interface descriptor, decoded.
struct Descriptor {
    kernel_start: u64,
    binding_table: u32,
    per_thread_regs: u32,
    curbe_read_offset: u32,
    threads_in_group: u32,
    slm_bytes: usize,
    barrier: bool,
    cross_thread_regs: u32,
}

/// The GPU during one submission.
pub struct Gpu<'a> {
    dev: &'static DevInfo,
    gen8: bool,
    mem: &'a mut Memory,
    placed: Vec<Placed>,
}

fn dword(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

impl<'a> Gpu<'a> {
    pub fn new(dev: &'static DevInfo, mem: &'a mut Memory, placed: Vec<Placed>) -> Gpu<'a> {
        Gpu {
            dev,
            gen8: dev.ver >= 80,
            mem,
            placed,
        }
    }

    /// The buffer and offset behind a GPU address, with `len` bytes available there.
    fn resolve(&self, address: u64, len: u64) -> Result<(u32, usize), String> {
        self.placed
            .iter()
            .find(|p| address >= p.address && address + len <= p.address + p.size)
            .map(|p| (p.handle, (address - p.address) as usize))
            .ok_or_else(|| {
                format!("GPU address {address:#x} (+{len} bytes) is in no buffer of the submission")
            })
    }

    fn read(&self, address: u64, len: usize) -> Result<&[u8], String> {
        let (h, at) = self.resolve(address, len as u64)?;
        Ok(&self.mem.bos[&h][at..at + len])
    }

    fn read_dwords(&self, address: u64, n: usize) -> Result<Vec<u32>, String> {
        let b = self.read(address, 4 * n)?;
        Ok((0..n).map(|i| dword(b, 4 * i)).collect())
    }

    /// Executes the batch in buffer `handle` from `start`, `len` bytes long at most.
    pub fn run_batch(&mut self, handle: u32, start: u32, len: u32) -> Result<(), String> {
        let batch = self.mem.bos[&handle].clone();
        let end = (start as usize + len as usize).min(batch.len());
        let mut pipe = Pipe::default();
        let mut at = start as usize / 4;
        loop {
            if 4 * at + 4 > end {
                return Err(format!(
                    "the batch ends at dword {at} without MI_BATCH_BUFFER_END"
                ));
            }
            let h = dword(&batch, 4 * at);
            let (name, len) = match h >> 16 {
                0 if h == 0 => ("MI_NOOP", 1),
                0x0500 if h == 0x0500_0000 => return Ok(()),
                0x6904 => ("PIPELINE_SELECT", 1),
                0x6101 => ("STATE_BASE_ADDRESS", (h & 0xff) as usize + 2),
                0x7000 => ("MEDIA_VFE_STATE", (h & 0xffff) as usize + 2),
                0x7001 => ("MEDIA_CURBE_LOAD", (h & 0xffff) as usize + 2),
                0x7002 => ("MEDIA_INTERFACE_DESCRIPTOR_LOAD", (h & 0xffff) as usize + 2),
                0x7004 => ("MEDIA_STATE_FLUSH", (h & 0xffff) as usize + 2),
                0x7105 => ("GPGPU_WALKER", (h & 0xff) as usize + 2),
                _ => {
                    return Err(format!(
                        "command {h:#010x} at dword {at} of the batch is not modelled"
                    ))
                }
            };
            if 4 * (at + len) > end {
                return Err(format!("{name} at dword {at} runs past the batch"));
            }
            let cmd: Vec<u32> = (0..len).map(|i| dword(&batch, 4 * (at + i))).collect();
            let expected = match name {
                "STATE_BASE_ADDRESS" => Some(match self.dev.ver {
                    90.. => 19,
                    80 => 16,
                    _ => 10,
                }),
                "MEDIA_VFE_STATE" => Some(if self.gen8 { 9 } else { 8 }),
                "MEDIA_CURBE_LOAD" | "MEDIA_INTERFACE_DESCRIPTOR_LOAD" => Some(4),
                "GPGPU_WALKER" => Some(if self.gen8 { 15 } else { 11 }),
                "MEDIA_STATE_FLUSH" => Some(2),
                _ => None,
            };
            if expected.is_some_and(|e| e != len) {
                return Err(format!(
                    "{name} at dword {at} is {len} dwords, not the {} of Gen{}",
                    expected.unwrap_or(0),
                    self.dev.ver / 10
                ));
            }
            let err = |what: String| format!("{name} at dword {at}: {what}");
            match name {
                "PIPELINE_SELECT" => {
                    if self.dev.ver >= 90 && h >> 8 & 3 != 3 {
                        return Err(err(
                            "its mask bits leave the pipeline selection unchanged".into()
                        ));
                    }
                    if h & 3 != 2 {
                        return Err(err(format!("pipeline {} is not GPGPU (2)", h & 3)));
                    }
                    pipe.gpgpu = true;
                }
                "STATE_BASE_ADDRESS" => pipe.bases = Some(self.bases(&cmd)),
                "MEDIA_VFE_STATE" => {
                    let scratch = cmd[1] & !0x3ff;
                    if scratch != 0 {
                        return Err(err("scratch space is not modelled".into()));
                    }
                    pipe.vfe = true;
                }
                "MEDIA_CURBE_LOAD" => pipe.curbe = Some((cmd[2] & 0x1_ffff, cmd[3])),
                "MEDIA_INTERFACE_DESCRIPTOR_LOAD" => pipe.idd = Some((cmd[2] & 0x1_ffff, cmd[3])),
                "GPGPU_WALKER" => self.walk(&pipe, &cmd).map_err(err)?,
                _ => {}
            }
            at += len;
        }
    }

    fn bases(&self, c: &[u32]) -> Bases {
        // Only bases with their modify-enable bit are taken; the layer sets them all.
        if self.gen8 {
            let b =
                |lo: usize| u64::from(c[lo] & 0xffff_f000) | u64::from(c[lo + 1] & 0xffff) << 32;
            Bases {
                surface: b(4),
                dynamic: b(6),
                instruction: b(10),
            }
        } else {
            let b = |i: usize| u64::from(c[i] & 0xffff_f000);
            Bases {
                surface: b(2),
                dynamic: b(3),
                instruction: b(5),
            }
        }
    }

    fn descriptor(&self, address: u64) -> Result<Descriptor, String> {
        let d = self.read_dwords(address, 8)?;
        let (kernel, bt, curbe, group, cross) = if self.gen8 {
            (
                u64::from(d[0] & 0xffff_ffc0) | u64::from(d[1] & 0xffff) << 32,
                d[4],
                d[5],
                d[6],
                d[7] & 0xff,
            )
        } else {
            let cross = if self.dev.ver == 75 { d[6] & 0xff } else { 0 };
            (u64::from(d[0] & 0xffff_ffc0), d[3], d[4], d[5], cross)
        };
        // Gen7/8 count SLM in 4 KiB units (1, 2, 4, 8, 16); Gen9 encodes log2(bytes) - 9.
        let slm = group >> 16 & 0x1f;
        let slm_bytes = match (self.dev.ver >= 90, slm) {
            (_, 0) => 0,
            (false, 1 | 2 | 4 | 8 | 16) => slm as usize * 4096,
            (true, 1..=7) => 1 << (slm + 9),
            _ => return Err(format!("shared local memory size {slm} is reserved")),
        };
        Ok(Descriptor {
            kernel_start: kernel,
            binding_table: bt & 0xffe0,
            per_thread_regs: curbe >> 16,
            curbe_read_offset: curbe & 0xffff,
            threads_in_group: group & if self.gen8 { 0x3ff } else { 0xff },
            slm_bytes,
            barrier: group >> 21 & 1 == 1,
            cross_thread_regs: cross,
        })
    }

    /// The kernel's instructions from `address` up to and including its EOT send.
    fn kernel(&self, address: u64) -> Result<(Vec<Inst>, Vec<usize>), String> {
        let (h, start) = self.resolve(address, 16)?;
        let code = &self.mem.bos[&h][start..];
        let mut at = 0;
        loop {
            let Some(first) = code.get(at..at + 4) else {
                return Err(format!(
                    "the kernel at {address:#x} runs off its buffer without an EOT send"
                ));
            };
            let size = if dword(first, 0) >> 29 & 1 == 1 {
                8
            } else {
                16
            };
            let one = code
                .get(at..at + size)
                .ok_or_else(|| format!("the kernel at {address:#x} is cut short"))?;
            let (insts, _) = eu::decode_program_at(self.dev, one)
                .map_err(|e| format!("kernel at {address:#x}, byte {at}: {e}"))?;
            at += size;
            if insts
                .first()
                .is_some_and(|i| i.eot && matches!(i.opcode, Opcode::Send | Opcode::Sendc))
            {
                break;
            }
        }
        eu::decode_program_at(self.dev, &code[..at])
            .map_err(|e| format!("kernel at {address:#x}: {e}"))
    }

    fn walk(&mut self, pipe: &Pipe, w: &[u32]) -> Result<(), String> {
        if !pipe.gpgpu {
            return Err("the GPGPU pipeline is not selected".into());
        }
        let bases = pipe.bases.ok_or("no STATE_BASE_ADDRESS before it")?;
        if !pipe.vfe {
            return Err("no MEDIA_VFE_STATE before it".into());
        }
        let (idd_len, idd_start) = pipe.idd.ok_or("no interface descriptors loaded")?;
        let (idd, threads, start, groups, right, bottom) = if self.gen8 {
            (
                w[1] & 0x3f,
                w[4],
                [w[5], w[8], w[11]],
                [w[7], w[10], w[12]],
                w[13],
                w[14],
            )
        } else {
            (
                w[1] & 0x1f,
                w[2],
                [w[3], w[5], w[7]],
                [w[4], w[6], w[8]],
                w[9],
                w[10],
            )
        };
        if 32 * (idd + 1) > idd_len {
            return Err(format!(
                "interface descriptor {idd} is outside the {idd_len} bytes loaded"
            ));
        }
        let desc = self.descriptor(bases.dynamic + u64::from(idd_start) + 32 * u64::from(idd))?;
        let simd = match threads >> 30 {
            0 => 8,
            1 => 16,
            2 => 32,
            _ => return Err("SIMD size 3 is reserved".into()),
        };
        let dims = [threads & 0x3f, threads >> 8 & 0x3f, threads >> 16 & 0x3f].map(|m| m + 1);
        let per_group = dims[0] * dims[1] * dims[2];
        if per_group != desc.threads_in_group {
            return Err(format!(
                "{per_group} threads per group, but the interface descriptor says {}",
                desc.threads_in_group
            ));
        }
        if desc.curbe_read_offset != 0 {
            return Err("a CURBE read offset is not modelled".into());
        }
        let curbe = match pipe.curbe {
            Some((len, start)) => self
                .read(bases.dynamic + u64::from(start), len as usize)?
                .to_vec(),
            None => Vec::new(),
        };
        let cross = desc.cross_thread_regs as usize * 32;
        let per = desc.per_thread_regs as usize * 32;
        let needed = cross + per * per_group as usize;
        if needed > curbe.len() {
            return Err(format!(
                "the threads read {needed} bytes of CURBE, {} were loaded",
                curbe.len()
            ));
        }
        let (insts, offsets) = self.kernel(bases.instruction + desc.kernel_start)?;
        let all = u32::MAX >> (32 - simd);
        for gz in start[2]..groups[2] {
            for gy in start[1]..groups[1] {
                for gx in start[0]..groups[0] {
                    let mut threads = Vec::with_capacity(per_group as usize);
                    for t in 0..per_group as usize {
                        let (x, y) = (t as u32 % dims[0], t as u32 / dims[0] % dims[1]);
                        let mut mask = all;
                        if x + 1 == dims[0] {
                            mask &= right;
                        }
                        if y + 1 == dims[1] {
                            mask &= bottom;
                        }
                        let mut th = Thread::new(self.dev, simd).map_err(|e| e.to_string())?;
                        th.set_grf(0, 1, &[gx]).map_err(|e| e.to_string())?;
                        th.set_grf(0, 6, &[gy, gz]).map_err(|e| e.to_string())?;
                        let mut block = curbe[..cross].to_vec();
                        block.extend_from_slice(&curbe[cross + t * per..cross + (t + 1) * per]);
                        for (r, reg) in block.chunks(32).enumerate() {
                            let words: Vec<u32> = (0..8).map(|i| dword(reg, 4 * i)).collect();
                            th.set_grf(1 + r as u32, 0, &words)
                                .map_err(|e| e.to_string())?;
                        }
                        th.set_dispatch_mask(mask);
                        threads.push(th);
                    }
                    self.run_group(&desc, bases, &insts, &offsets, threads)
                        .map_err(|e| format!("group ({gx}, {gy}, {gz}): {e}"))?;
                }
            }
        }
        Ok(())
    }

    /// Runs a group's threads in turn, switching at barriers.
    fn run_group(
        &mut self,
        desc: &Descriptor,
        bases: Bases,
        insts: &[Inst],
        offsets: &[usize],
        mut threads: Vec<Thread>,
    ) -> Result<(), String> {
        let mut shared = Surfaces {
            gpu: self,
            bases,
            binding_table: desc.binding_table,
            barrier_enabled: desc.barrier,
            at_barrier: false,
            slm: vec![0; desc.slm_bytes],
            cache: BTreeMap::new(),
        };
        let mut pcs: Vec<Option<usize>> = vec![Some(0); threads.len()];
        let mut steps = vec![0u64; threads.len()];
        loop {
            let alive = pcs.iter().filter(|p| p.is_some()).count();
            if alive == 0 {
                return Ok(());
            }
            let mut waiting = 0;
            for (t, th) in threads.iter_mut().enumerate() {
                while let Some(pc) = pcs[t] {
                    if pc >= insts.len() {
                        return Err(format!("thread {t} ran past its EOT"));
                    }
                    shared.at_barrier = false;
                    pcs[t] = th
                        .step_with(insts, offsets, pc, &mut shared)
                        .map_err(|e| format!("thread {t}: {e}"))?;
                    steps[t] += 1;
                    if steps[t] > STEP_LIMIT {
                        return Err(format!("thread {t} still runs after {STEP_LIMIT} steps"));
                    }
                    if shared.at_barrier {
                        waiting += 1;
                        break;
                    }
                }
            }
            if waiting > 0 && waiting < alive {
                return Err(format!(
                    "{waiting} of {alive} threads wait at a barrier the others never reach"
                ));
            }
        }
    }
}

/// A binding-table entry resolved to memory.
#[derive(Clone, Copy)]
enum Surface {
    Null,
    /// A RAW buffer: its address and size in bytes.
    Raw(u64, u64),
}

/// The shared functions of the simulated GPU: data-port messages go through the binding
/// table and surface states into the buffer objects.
struct Surfaces<'g, 'a> {
    gpu: &'g mut Gpu<'a>,
    bases: Bases,
    binding_table: u32,
    barrier_enabled: bool,
    at_barrier: bool,
    slm: Vec<u8>,
    cache: BTreeMap<u32, Surface>,
}

impl Surfaces<'_, '_> {
    fn surface(&mut self, index: u32) -> Result<Surface, String> {
        if let Some(s) = self.cache.get(&index) {
            return Ok(*s);
        }
        let entry = self.bases.surface + u64::from(self.binding_table) + 4 * u64::from(index);
        let state = self
            .gpu
            .read_dwords(entry, 1)
            .map_err(|e| format!("binding-table entry {index}: {e}"))?[0];
        let ss_at = self.bases.surface + u64::from(state & !0x1f);
        let n = if self.gpu.gen8 { 16 } else { 8 };
        let ss = self
            .gpu
            .read_dwords(ss_at, n)
            .map_err(|e| format!("surface state of binding-table entry {index}: {e}"))?;
        let s = match ss[0] >> 29 {
            7 => Surface::Null,
            4 => {
                let format = ss[0] >> 18 & 0x1ff;
                if format != 0x1ff {
                    return Err(format!(
                        "binding-table entry {index}: buffer format {format:#x} is not RAW"
                    ));
                }
                let depth_mask = if self.gpu.gen8 { 0x3ff } else { 0x3f };
                let n =
                    (ss[2] & 0x7f) | (ss[2] >> 16 & 0x3fff) << 7 | (ss[3] >> 21 & depth_mask) << 21;
                let address = if self.gpu.gen8 {
                    u64::from(ss[8]) | u64::from(ss[9] & 0xffff) << 32
                } else {
                    u64::from(ss[1])
                };
                Surface::Raw(address, u64::from(n) + 1)
            }
            t => {
                return Err(format!(
                    "binding-table entry {index}: surface type {t} is not modelled"
                ))
            }
        };
        self.cache.insert(index, s);
        Ok(s)
    }

    /// The bytes of dword `addr` of surface `index`; None when the access is out of bounds
    /// or the surface is null (reads return 0, writes are dropped, as the data port does).
    fn locate(&mut self, index: u32, addr: u32) -> Result<Option<&mut [u8]>, String> {
        let a = u64::from(addr);
        if index == BTI_SLM {
            if self.slm.is_empty() {
                return Err("shared local memory access, but the group has none".into());
            }
            let at = addr as usize;
            return Ok(self.slm.get_mut(at..at.saturating_add(4)));
        }
        match self.surface(index)? {
            Surface::Null => Ok(None),
            Surface::Raw(base, size) => {
                if a + 4 > size {
                    return Ok(None);
                }
                let (h, at) = self.gpu.resolve(base + a, 4)?;
                Ok(self.gpu.mem.bos.get_mut(&h).map(|b| &mut b[at..at + 4]))
            }
        }
    }
}

fn unsupported(what: &str) -> String {
    format!("unsupported: {what} on the simulated render node")
}

impl SharedFunctions for Surfaces<'_, '_> {
    fn render_target_write(&mut self, _w: &RtWrite) -> Result<(), String> {
        Err(unsupported("render-target writes"))
    }

    fn sample(&mut self, _req: &TexRequest) -> Result<[f64; 4], String> {
        Err(unsupported("sampler messages"))
    }

    fn texture_size(&mut self, _texture: u32, _lod: u32) -> [u32; 3] {
        [0; 3]
    }

    fn texture_levels(&mut self, _texture: u32) -> u32 {
        0
    }

    fn scratch_read(&mut self, _offset: usize, _out: &mut [u8]) -> Result<(), String> {
        Err(unsupported("scratch space"))
    }

    fn scratch_write(&mut self, _offset: usize, _data: &[u8]) -> Result<(), String> {
        Err(unsupported("scratch space"))
    }

    fn untyped_read(&mut self, surface: u32, addr: u32) -> Result<u32, String> {
        Ok(self
            .locate(surface, addr)?
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    }

    fn untyped_write(&mut self, surface: u32, addr: u32, v: u32) -> Result<(), String> {
        if let Some(b) = self.locate(surface, addr)? {
            b.copy_from_slice(&v.to_le_bytes());
        }
        Ok(())
    }

    fn untyped_atomic(
        &mut self,
        surface: u32,
        addr: u32,
        op: AtomicOp,
        a: u32,
        b: u32,
    ) -> Result<u32, String> {
        match self.locate(surface, addr)? {
            Some(bytes) => {
                let old = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                bytes.copy_from_slice(&op.apply(old, a, b).to_le_bytes());
                Ok(old)
            }
            None => Ok(0),
        }
    }

    fn constant_read(&mut self, surface: u32, offset: usize, out: &mut [u8]) -> Result<(), String> {
        for (i, chunk) in out.chunks_mut(4).enumerate() {
            let addr = u32::try_from(offset + 4 * i).map_err(|e| e.to_string())?;
            let v = self.untyped_read(surface, addr)?.to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }

    fn barrier(&mut self) -> Result<(), String> {
        if !self.barrier_enabled {
            return Err(
                "a barrier message, but the interface descriptor enables no barrier".into(),
            );
        }
        self.at_barrier = true;
        Ok(())
    }
}
