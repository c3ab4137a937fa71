//! `gpucc_etna_gpu`: the simulated Vivante GPU behind the executing etnaviv drm-shim.
//!
//! The shim (Mesa patch series, src/etnaviv/drm-shim) keeps GEM objects in shared memory as
//! the noop shim does; on GEM_SUBMIT it hands this entry point the command stream, every
//! buffer of the submission (its GPU address and the shim's CPU mapping of it) and the
//! relocations, and the model executes the stream before the ioctl returns, so the driver's
//! next CPU_PREP sees finished results.

use std::ffi::c_char;

use super::etna_core::{specs_for, EtnaCore};
use super::shader::into_c_string;
use super::status::{guard, write_out, Error, Status};
use crate::etnaviv::gpu::capture::Capture;
use crate::etnaviv::gpu::memory::{Fault, Memory};
use crate::etnaviv::gpu::Gpu;

/// A simulated Vivante GPU (opaque). Not thread-safe: one thread submits at a time (the shim
/// serialises its ioctls).
pub struct EtnaGpu(Gpu);

/// A buffer of a submission, as the kernel would map it for the core.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct EtnaGpuBo {
    /// The buffer's GPU address: the softpin address the driver chose (the submit bo's
    /// `presumed` with ETNA_SUBMIT_SOFTPIN), or the address the shim gave it.
    pub address: u64,
    /// The shim's CPU mapping of the whole buffer, readable and writable for the call.
    pub map: *mut u8,
    pub size: u64,
}

/// A relocation: `drm_etnaviv_gem_submit_reloc` without its flags.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct EtnaGpuReloc {
    /// Byte offset in the stream of the dword that receives the address.
    pub submit_offset: u32,
    /// Index in the submission's buffers.
    pub bo_index: u32,
    /// Added to that buffer's address.
    pub bo_offset: u64,
}

/// Creates a GPU that plays the core `core` describes (the same values the compiler takes,
/// see gpucc_compiler_create_etnaviv). Destroy with gpucc_etna_gpu_destroy.
#[no_mangle]
pub extern "C" fn gpucc_etna_gpu_create(core: *const EtnaCore, out: *mut *mut EtnaGpu) -> Status {
    const ENTRY: &str = "gpucc_etna_gpu_create";
    guard(ENTRY, || {
        if out.is_null() {
            return Err(Error::invalid(format!("{ENTRY}: out is NULL")));
        }
        // SAFETY: per the header, `core` is NULL or a size-prefixed gpucc_etna_core.
        let specs = unsafe { specs_for(ENTRY, core) }?;
        write_out(
            out,
            Box::into_raw(Box::new(EtnaGpu(Gpu::new(specs)))),
            "out",
        )
    })
}

/// The submission's buffers as GPU memory, sorted by address.
struct Mapped<'a> {
    bos: Vec<&'a EtnaGpuBo>,
}

impl Mapped<'_> {
    fn find(&self, address: u32, len: usize, write: bool) -> Result<*mut u8, Fault> {
        let fault = Fault {
            address,
            len,
            write,
        };
        let i = self
            .bos
            .partition_point(|b| b.address <= address as u64)
            .checked_sub(1)
            .ok_or(fault)?;
        let bo = self.bos[i];
        let off = address as u64 - bo.address;
        if off + len as u64 > bo.size {
            return Err(fault);
        }
        // SAFETY: `off + len <= size`, and the caller guarantees `size` bytes at `map`.
        Ok(unsafe { bo.map.add(off as usize) })
    }
}

impl Memory for Mapped<'_> {
    fn buffers(&self) -> Vec<(u32, usize)> {
        // Addresses past 32 bits cannot be reached by the core's 32-bit addresses.
        self.bos
            .iter()
            .filter_map(|b| Some((u32::try_from(b.address).ok()?, b.size as usize)))
            .collect()
    }

    fn read(&self, address: u32, out: &mut [u8]) -> Result<(), Fault> {
        let p = self.find(address, out.len(), false)?;
        // SAFETY: `find` checked that `out.len()` bytes at `p` lie inside one buffer the caller
        // mapped for this call; `out` is the model's own storage, so the two cannot overlap.
        unsafe { std::ptr::copy_nonoverlapping(p, out.as_mut_ptr(), out.len()) };
        Ok(())
    }

    fn write(&mut self, address: u32, data: &[u8]) -> Result<(), Fault> {
        let p = self.find(address, data.len(), true)?;
        // SAFETY: as in `read`; the mapping is writable per the header's contract.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len()) };
        Ok(())
    }
}

/// Executes one submission synchronously: applies the relocations to a copy of the stream and
/// runs it to its end. `stream` holds `stream_size` bytes (a multiple of 4); `bos` and
/// `relocs` are the submission's arrays. Each buffer's `map` must stay valid for the call and
/// buffers must not overlap in GPU addresses (or in memory).
///
/// Errors: GPUCC_STATUS_INVALID_ARGUMENT for NULL arrays with a non-zero count, a stream size
/// that is not a multiple of 4, a relocation naming a missing buffer or an address that does
/// not fit 32 bits; GPUCC_STATUS_UNSUPPORTED when the stream uses a command or state
/// combination the model does not execute, or an engine faults (the message says which and
/// where). Every failure is also kept in the report (gpucc_etna_gpu_report).
#[no_mangle]
pub extern "C" fn gpucc_etna_gpu_submit(
    gpu: *mut EtnaGpu,
    stream: *const u32,
    stream_size: usize,
    bos: *const EtnaGpuBo,
    nr_bos: usize,
    relocs: *const EtnaGpuReloc,
    nr_relocs: usize,
) -> Status {
    const ENTRY: &str = "gpucc_etna_gpu_submit";
    guard(ENTRY, || {
        // SAFETY: a non-NULL gpu is a live handle from gpucc_etna_gpu_create, used by one
        // thread at a time (the header's contract).
        let gpu = unsafe { gpu.as_mut() }
            .ok_or_else(|| Error::invalid(format!("{ENTRY}: gpu is NULL")))?;
        if stream_size % 4 != 0 {
            return Err(Error::invalid(format!(
                "{ENTRY}: stream_size {stream_size} is not a multiple of 4"
            )));
        }
        // SAFETY (all three): each pointer is checked non-NULL when its count is not zero,
        // and the caller owns that many readable elements (the header's contract).
        let stream = unsafe { slice(stream, stream_size / 4, ENTRY, "stream") }?;
        let bos = unsafe { slice(bos, nr_bos, ENTRY, "bos") }?;
        let relocs = unsafe { slice(relocs, nr_relocs, ENTRY, "relocs") }?;
        let mut patched = Vec::with_capacity(relocs.len());
        for (i, r) in relocs.iter().enumerate() {
            let bo = bos.get(r.bo_index as usize).ok_or_else(|| {
                Error::invalid(format!(
                    "{ENTRY}: relocs[{i}].bo_index {} names no buffer (nr_bos {nr_bos})",
                    r.bo_index
                ))
            })?;
            let address = u32::try_from(bo.address + r.bo_offset).map_err(|_| {
                Error::invalid(format!(
                    "{ENTRY}: relocs[{i}] gives an address past 32 bits"
                ))
            })?;
            if r.submit_offset % 4 != 0 {
                return Err(Error::invalid(format!(
                    "{ENTRY}: relocs[{i}].submit_offset {} is not dword-aligned",
                    r.submit_offset
                )));
            }
            patched.push((r.submit_offset as usize / 4, address));
        }
        let mut sorted: Vec<&EtnaGpuBo> = bos.iter().collect();
        sorted.sort_by_key(|b| b.address);
        let mut mem = Mapped { bos: sorted };
        if let Some(dir) = std::env::var_os("GPUCC_ETNA_GPU_CAPTURE") {
            capture(
                &gpu.0,
                std::path::Path::new(&dir),
                stream,
                &patched,
                bos,
                &mem,
            );
        }
        gpu.0
            .submit(&mut mem, stream, &patched)
            .map_err(|e| Error::new(Status::Unsupported, format!("{ENTRY}: {e}")))
    })
}

/// Saves a submission (see crate::etnaviv::gpu::capture); a failure to write is reported on
/// stderr and does not stop the submission.
fn capture(
    gpu: &Gpu,
    dir: &std::path::Path,
    stream: &[u32],
    relocs: &[(usize, u32)],
    bos: &[EtnaGpuBo],
    mem: &Mapped,
) {
    let mut words = stream.to_vec();
    for &(dword, address) in relocs {
        if let Some(w) = words.get_mut(dword) {
            *w = address;
        }
    }
    let buffers: Vec<(u32, usize)> = bos
        .iter()
        .map(|b| (b.address as u32, b.size as usize))
        .collect();
    let c = Capture::take(&words, mem, &buffers);
    let path = dir.join(format!("submit-{:05}.bin", gpu.report.submits));
    let written =
        std::fs::File::create(&path).and_then(|f| c.write_to(&mut std::io::BufWriter::new(f)));
    if let Err(e) = written {
        eprintln!("gpucc: cannot write {}: {e}", path.display());
    }
}

/// A slice from a C array, NULL allowed only for an empty one.
///
/// # Safety
/// A non-NULL `p` points to `n` readable, initialised `T`s that outlive the returned slice.
unsafe fn slice<'a, T>(p: *const T, n: usize, entry: &str, what: &str) -> Result<&'a [T], Error> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Error::invalid(format!(
            "{entry}: {what} is NULL with {n} elements"
        )));
    }
    // SAFETY: non-NULL, and the caller's contract gives `n` elements.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// The run so far as text: submissions, draws, errors, and every command and state the
/// model met without interpreting, by address. Free with gpucc_string_free.
#[no_mangle]
pub extern "C" fn gpucc_etna_gpu_report(gpu: *const EtnaGpu, out: *mut *mut c_char) -> Status {
    const ENTRY: &str = "gpucc_etna_gpu_report";
    guard(ENTRY, || {
        // SAFETY: a non-NULL gpu is a live handle from gpucc_etna_gpu_create.
        let gpu = unsafe { gpu.as_ref() }
            .ok_or_else(|| Error::invalid(format!("{ENTRY}: gpu is NULL")))?;
        write_out(out, into_c_string(gpu.0.report_text()), "out")
    })
}

/// Destroys a GPU. NULL is accepted and ignored.
#[no_mangle]
pub extern "C" fn gpucc_etna_gpu_destroy(gpu: *mut EtnaGpu) {
    guard("gpucc_etna_gpu_destroy", || {
        if !gpu.is_null() {
            // SAFETY: non-NULL GPUs only come from Box::into_raw in gpucc_etna_gpu_create, and
            // the caller gives up the handle by destroying it.
            drop(unsafe { Box::from_raw(gpu) });
        }
        Ok(())
    });
}
