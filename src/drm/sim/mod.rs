//! A simulated i915 render node: a device model behind the [`Ioctl`] seam that keeps GEM
//! buffer contents and executes the compute batches the DRM layer submits on the EU simulator.
//!
//! No Intel GPU is reachable where gpucc is tested, and a batch whose fields are only checked
//! one by one can still be wrong as a whole (a CURBE offset, a binding-table index or a thread
//! payload the compiler and the dispatcher disagree on). This node runs the batch as the
//! hardware would ([`gpu`]): it applies relocations (Gen7) or takes the pinned addresses
//! (Gen8+), walks the commands, resolves the interface descriptor, CURBE, binding table and
//! surface states from the buffers, and runs every thread of every group, with the untyped
//! surface messages reading and writing the buffer objects.
//!
//! Open one with [`SimIoctl::new`], with the path `sim:<target>` (`sim:ivb`, `sim:hsw`,
//! `sim:bdw`, `sim:skl`) in [`crate::drm::Device::open`], or with `GPUCC_SIM_NODE=<target>` when no
//! path is given. What is not modelled: CPU mappings (MMAP_OFFSET answers ENODEV, so the
//! layer writes with PWRITE and reads with PREAD), HANDLE_LUT, rings other than render,
//! typed surfaces and the sampler, and the kernel's write-back of object offsets.

pub mod gpu;
mod memory;

pub use memory::Memory;

use std::cell::RefCell;

use super::ioctl::{DriverVersion, Ioctl, Mapping};
use super::uapi::drm as core;
use super::uapi::i915::{self as uapi, exec, exec_object, param};
use super::uapi::Pod;
use crate::intel::DevInfo;

/// The PCI id the node reports per target (from the kernel's i915_pciids.h: Ivy Bridge GT2
/// mobile, Haswell GT2 mobile, Broadwell GT2 ULT, Skylake GT2).
pub fn chipset_for(target: &str) -> Option<u16> {
    Some(match target {
        "ivb" => 0x0166,
        "hsw" => 0x0416,
        "bdw" => 0x1616,
        "skl" => 0x1912,
        _ => return None,
    })
}

/// The targets a simulated node can play.
pub const TARGETS: [&str; 4] = ["ivb", "hsw", "bdw", "skl"];

struct State {
    mem: Memory,
    contexts: u32,
    /// Why the last failing ioctl failed, for the layer's error message.
    detail: Option<String>,
    /// Batches executed so far.
    executed: u32,
}

/// The simulated render node.
pub struct SimIoctl {
    target: &'static str,
    chipset: u16,
    devinfo: &'static DevInfo,
    state: RefCell<State>,
}

impl SimIoctl {
    /// A node with the GPU of compiler target `target` (ivb, hsw, bdw or skl).
    pub fn new(target: &str) -> Result<SimIoctl, String> {
        let chipset = chipset_for(target).ok_or_else(|| {
            format!(
                "no simulated render node for '{target}' (known: {})",
                TARGETS.join(", ")
            )
        })?;
        let devinfo = DevInfo::from_name(target)
            .ok_or_else(|| format!("no device description for '{target}'"))?;
        Ok(SimIoctl {
            target: devinfo.name,
            chipset,
            devinfo,
            state: RefCell::new(State {
                mem: Memory {
                    next_handle: 1,
                    // Away from 0, below 4 GiB so that Gen7's 32-bit fields can hold it.
                    next_address: 0x0100_0000,
                    ..Default::default()
                },
                contexts: 0,
                detail: None,
                executed: 0,
            }),
        })
    }

    pub fn target(&self) -> &'static str {
        self.target
    }

    /// The contents of buffer `handle` (None once closed or never created).
    pub fn contents(&self, handle: u32) -> Option<Vec<u8>> {
        self.state.borrow().mem.bos.get(&handle).cloned()
    }

    /// Batches executed so far.
    pub fn executed(&self) -> u32 {
        self.state.borrow().executed
    }

    fn softpin(&self) -> bool {
        self.devinfo.ver >= 80
    }

    fn answer(&self, name: &str, arg: &mut [u8]) -> Result<(), String> {
        let mut st = self.state.borrow_mut();
        let st = &mut *st;
        let mem = &mut st.mem;
        let missing = |h: u32| format!("{name}: no buffer object {h}");
        match name {
            n if n == uapi::GEM_CREATE.name => {
                let mut a = uapi::DrmI915GemCreate::from_bytes(arg);
                let size = a.size.max(1).div_ceil(4096) * 4096;
                let len = usize::try_from(size)
                    .ok()
                    .filter(|&l| l <= 1 << 30)
                    .ok_or_else(|| format!("{name}: {size} bytes is more than the model holds"))?;
                a.handle = mem.next_handle;
                a.size = size;
                mem.next_handle += 1;
                mem.bos.insert(a.handle, vec![0; len]);
                mem.home.insert(a.handle, mem.next_address);
                mem.next_address += size.div_ceil(65536) * 65536;
                arg.copy_from_slice(a.as_bytes());
            }
            n if n == uapi::GEM_PWRITE.name || n == uapi::GEM_PREAD.name => {
                let a = uapi::DrmI915GemPwrite::from_bytes(arg);
                let bo = mem
                    .bos
                    .get_mut(&a.handle)
                    .ok_or_else(|| missing(a.handle))?;
                let range = usize::try_from(a.offset)
                    .ok()
                    .zip(usize::try_from(a.size).ok())
                    .and_then(|(o, s)| Some(o..o.checked_add(s)?))
                    .filter(|r| r.end <= bo.len())
                    .ok_or_else(|| {
                        format!(
                            "{name}: {} bytes at offset {} pass the end of buffer {} ({} bytes)",
                            a.size,
                            a.offset,
                            a.handle,
                            bo.len()
                        )
                    })?;
                if range.is_empty() {
                    return Ok(());
                }
                if a.data_ptr == 0 {
                    return Err(format!("{name}: data_ptr is NULL"));
                }
                if n == uapi::GEM_PWRITE.name {
                    // SAFETY: the ioctl's contract: `data_ptr` points at `size` readable bytes
                    // for the duration of the call (the layer passes a live slice).
                    let src =
                        unsafe { std::slice::from_raw_parts(a.data_ptr as *const u8, range.len()) };
                    bo[range].copy_from_slice(src);
                } else {
                    // SAFETY: as above, `size` writable bytes the caller owns.
                    let dst = unsafe {
                        std::slice::from_raw_parts_mut(a.data_ptr as *mut u8, range.len())
                    };
                    dst.copy_from_slice(&bo[range]);
                }
            }
            n if n == uapi::GEM_MMAP_OFFSET.name || n == uapi::GEM_MMAP.name => {
                return Err(format!(
                    "{name}: the simulated node has no CPU mappings (use PWRITE/PREAD)"
                ));
            }
            n if n == uapi::GEM_SET_DOMAIN.name => {
                let a = uapi::DrmI915GemSetDomain::from_bytes(arg);
                mem.bos.get(&a.handle).ok_or_else(|| missing(a.handle))?;
            }
            n if n == uapi::GEM_WAIT.name => {
                // Execution finished inside EXECBUFFER2: every buffer is idle.
                let a = uapi::DrmI915GemWait::from_bytes(arg);
                mem.bos
                    .get(&a.bo_handle)
                    .ok_or_else(|| missing(a.bo_handle))?;
            }
            n if n == core::GEM_CLOSE.name => {
                let a = core::DrmGemClose::from_bytes(arg);
                mem.bos.remove(&a.handle).ok_or_else(|| missing(a.handle))?;
                mem.home.remove(&a.handle);
            }
            n if n == uapi::GEM_CONTEXT_CREATE.name => {
                let mut a = uapi::DrmI915GemContextCreate::from_bytes(arg);
                st.contexts += 1;
                a.ctx_id = st.contexts;
                arg.copy_from_slice(a.as_bytes());
            }
            n if n == uapi::GEM_CONTEXT_DESTROY.name => {}
            n if n == uapi::GEM_EXECBUFFER2.name => {
                let a = uapi::DrmI915GemExecbuffer2::from_bytes(arg);
                execbuffer(self.devinfo, mem, &a)?;
                st.executed += 1;
            }
            other => return Err(format!("{other}: not modelled by the simulated node")),
        }
        Ok(())
    }
}

/// The objects of a submission, read from the caller's array.
fn objects(a: &uapi::DrmI915GemExecbuffer2) -> Result<Vec<uapi::DrmI915GemExecObject2>, String> {
    let n = a.buffer_count as usize;
    if n == 0 || a.buffers_ptr == 0 {
        return Err("EXECBUFFER2 without objects".into());
    }
    let size = std::mem::size_of::<uapi::DrmI915GemExecObject2>();
    // SAFETY: the ioctl's contract: `buffers_ptr` points at `buffer_count` exec objects
    // that stay valid for the call (the layer's ExecList owns them).
    let bytes = unsafe { std::slice::from_raw_parts(a.buffers_ptr as *const u8, n * size) };
    Ok(bytes
        .chunks(size)
        .map(uapi::DrmI915GemExecObject2::from_bytes)
        .collect())
}

fn relocations(o: &uapi::DrmI915GemExecObject2) -> Vec<uapi::DrmI915GemRelocationEntry> {
    let n = o.relocation_count as usize;
    if n == 0 || o.relocs_ptr == 0 {
        return Vec::new();
    }
    let size = std::mem::size_of::<uapi::DrmI915GemRelocationEntry>();
    // SAFETY: as for the objects: `relocs_ptr` points at `relocation_count` entries that
    // the caller keeps alive for the call.
    let bytes = unsafe { std::slice::from_raw_parts(o.relocs_ptr as *const u8, n * size) };
    bytes
        .chunks(size)
        .map(uapi::DrmI915GemRelocationEntry::from_bytes)
        .collect()
}

/// EXECBUFFER2: place the objects, apply relocations, run the batch.
fn execbuffer(
    dev: &'static DevInfo,
    mem: &mut Memory,
    a: &uapi::DrmI915GemExecbuffer2,
) -> Result<(), String> {
    let ring = a.flags & 0x3f;
    if ring != 0 && ring != exec::RENDER {
        return Err(format!("EXECBUFFER2: ring {ring} is not the render ring"));
    }
    if a.flags & exec::HANDLE_LUT != 0 {
        return Err("EXECBUFFER2: I915_EXEC_HANDLE_LUT is not modelled".into());
    }
    let objs = objects(a)?;
    let mut placed = Vec::with_capacity(objs.len());
    for o in &objs {
        let bo = mem
            .bos
            .get(&o.handle)
            .ok_or_else(|| format!("EXECBUFFER2: no buffer object {}", o.handle))?;
        let address = if o.flags & exec_object::PINNED != 0 {
            if dev.ver < 80 {
                return Err("EXECBUFFER2: softpin on a Gen7 node".into());
            }
            o.offset
        } else {
            mem.home[&o.handle]
        };
        placed.push(gpu::Placed {
            handle: o.handle,
            address,
            size: bo.len() as u64,
        });
    }
    for (i, p) in placed.iter().enumerate() {
        for q in &placed[i + 1..] {
            if p.address < q.address + q.size && q.address < p.address + p.size {
                return Err(format!(
                    "EXECBUFFER2: buffers {} and {} overlap in the GPU address space",
                    p.handle, q.handle
                ));
            }
        }
    }
    // Relocations: the target's address plus the delta, 64 bits wide from Gen8 on.
    let wide = dev.ver >= 80;
    for o in &objs {
        for r in relocations(o) {
            let target = placed
                .iter()
                .find(|p| p.handle == r.target_handle)
                .ok_or_else(|| {
                    format!(
                        "EXECBUFFER2: relocation at byte {} of buffer {} targets buffer {}, \
                         which is not in the submission",
                        r.offset, o.handle, r.target_handle
                    )
                })?;
            let value = target.address.wrapping_add(u64::from(r.delta));
            let bo = mem.bos.get_mut(&o.handle).expect("checked above");
            let at = r.offset as usize;
            let bytes: &[u8] = if wide {
                &value.to_le_bytes()
            } else {
                &value.to_le_bytes()[..4]
            };
            bo.get_mut(at..at + bytes.len())
                .ok_or_else(|| {
                    format!(
                        "EXECBUFFER2: relocation at byte {at} passes the end of buffer {}",
                        o.handle
                    )
                })?
                .copy_from_slice(bytes);
        }
    }
    let batch = if a.flags & exec::BATCH_FIRST != 0 {
        &objs[0]
    } else {
        &objs[objs.len() - 1]
    };
    gpu::Gpu::new(dev, mem, placed).run_batch(batch.handle, a.batch_start_offset, a.batch_len)
}

impl Ioctl for SimIoctl {
    fn ioctl(&self, name: &'static str, _request: u64, arg: &mut [u8]) -> Result<(), i32> {
        match self.answer(name, arg) {
            Ok(()) => {
                self.state.borrow_mut().detail = None;
                Ok(())
            }
            Err(detail) => {
                let errno = if detail.contains("no buffer object") {
                    libc::ENOENT
                } else if name == uapi::GEM_MMAP_OFFSET.name || name == uapi::GEM_MMAP.name {
                    libc::ENODEV
                } else {
                    libc::EINVAL
                };
                self.state.borrow_mut().detail = Some(detail);
                Err(errno)
            }
        }
    }

    fn mmap(&self, _offset: u64, _len: usize) -> Result<Mapping, i32> {
        Err(libc::ENODEV)
    }

    fn i915_getparam(&self, p: i32) -> Result<i32, i32> {
        let gen8 = self.softpin();
        match p {
            param::CHIPSET_ID => Ok(i32::from(self.chipset)),
            param::REVISION => Ok(0),
            param::HAS_EXEC_SOFTPIN => Ok(i32::from(gen8)),
            param::HAS_EXEC_NO_RELOC => Ok(1),
            param::HAS_EXEC_HANDLE_LUT => Ok(0),
            _ => Err(libc::EINVAL),
        }
    }

    fn version(&self) -> Result<DriverVersion, i32> {
        Ok(DriverVersion {
            name: "i915".into(),
            major: 1,
            minor: 6,
            patchlevel: 0,
            date: "20201103".into(),
            desc: format!("gpucc simulated render node ({})", self.target),
        })
    }

    fn failure_detail(&self) -> Option<String> {
        self.state.borrow().detail.clone()
    }
}
