//! The shared functions a SEND talks to, behind [`SharedFunctions`], and their default model.
//!
//! The simulator decodes each message (see [`super::send`] for the descriptor layouts) and
//! calls one of these methods with plain values; a test or the differential checker can supply
//! its own implementation. [`DefaultShared`] is deterministic:
//!
//! - textures follow the NIR reference interpreter's model ([`DefaultSampler`]), so compiled
//!   code and the interpreter see the same texels;
//! - buffer surfaces are byte buffers bound per binding-table index with
//!   [`DefaultShared::bind_buffer`] (or its synonym [`DefaultShared::bind_constants`]); reads
//!   outside a bound buffer return zero and writes outside it are dropped (the hardware's
//!   bounds checking); an unbound binding-table index is an error naming it. A binding-table
//!   entry names one surface whichever shared function reads it, so there is one map: the
//!   constant cache, a sampler `ld` of a buffer and the data-cache messages (untyped, block
//!   and scattered) all see the same bytes at the same index, as Gen9's data-cache block
//!   reads of a UBO need;
//! - scratch is one thread-private byte space that grows on demand;
//! - global memory (A64 messages) is byte ranges mapped at GPU addresses with
//!   [`DefaultShared::map_global`]; unmapped addresses are errors;
//! - render-target writes are captured in order; barriers are counted.

use crate::nir::interp::{DefaultSampler, Sampler, TexRequest};
use std::collections::BTreeMap;

/// One captured render-target write.
#[derive(Debug, Clone, PartialEq)]
pub struct RtWrite {
    /// Binding-table index of the render target.
    pub target: u32,
    /// Channels the message covers (8 or 16).
    pub simd: u32,
    /// Pixels written (bit n = channel n of the thread: a SIMD8 dual-source write for
    /// subspans 2-3 or a slot group 1 write of a SIMD32 thread starts past bit 0).
    pub pixel_mask: u32,
    /// RGBA per thread channel (entries before the message's first channel are zero).
    pub color: Vec<[f32; 4]>,
    /// The second source colour per channel, for dual-source blending messages.
    pub color1: Option<Vec<[f32; 4]>>,
    /// Source depth per channel, when the payload carries it.
    pub depth: Option<Vec<f32>>,
    /// Last render-target write bit.
    pub last: bool,
}

/// Untyped atomic operations (Mesa's `BRW_AOP_*` numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum AtomicOp {
    And,
    Or,
    Xor,
    Mov,
    Inc,
    Dec,
    Add,
    Sub,
    RevSub,
    Imax,
    Imin,
    Umax,
    Umin,
    CmpWr,
    PreDec,
}

impl AtomicOp {
    /// Decodes the 4-bit operation field.
    pub fn from_hw(v: u32) -> Option<AtomicOp> {
        use AtomicOp::*;
        Some(match v {
            1 => And,
            2 => Or,
            3 => Xor,
            4 => Mov,
            5 => Inc,
            6 => Dec,
            7 => Add,
            8 => Sub,
            9 => RevSub,
            10 => Imax,
            11 => Imin,
            12 => Umax,
            13 => Umin,
            14 => CmpWr,
            15 => PreDec,
            _ => return None,
        })
    }

    /// Number of data operands the message carries.
    pub fn operands(self) -> usize {
        match self {
            AtomicOp::Inc | AtomicOp::Dec | AtomicOp::PreDec => 0,
            AtomicOp::CmpWr => 2,
            _ => 1,
        }
    }

    /// The new memory value from the old one and the operands.
    pub fn apply(self, old: u32, a: u32, b: u32) -> u32 {
        use AtomicOp::*;
        match self {
            And => old & a,
            Or => old | a,
            Xor => old ^ a,
            Mov => a,
            Inc => old.wrapping_add(1),
            Dec | PreDec => old.wrapping_sub(1),
            Add => old.wrapping_add(a),
            Sub => old.wrapping_sub(a),
            RevSub => a.wrapping_sub(old),
            Imax => (old as i32).max(a as i32) as u32,
            Imin => (old as i32).min(a as i32) as u32,
            Umax => old.max(a),
            Umin => old.min(a),
            CmpWr => {
                if old == a {
                    b
                } else {
                    old
                }
            }
        }
    }
}

/// The shared functions behind SEND.
pub trait SharedFunctions {
    /// A render-target write (data port, render cache).
    fn render_target_write(&mut self, w: &RtWrite) -> Result<(), String>;
    /// A sampling or fetch message, as the NIR interpreter's [`Sampler`] sees it.
    fn sample(&mut self, req: &TexRequest) -> Result<[f64; 4], String>;
    /// Width, height, depth of level `lod`.
    fn texture_size(&mut self, texture: u32, lod: u32) -> [u32; 3];
    /// Mip level count.
    fn texture_levels(&mut self, texture: u32) -> u32;
    /// Whether the texture returns integers (sampler replies are then D).
    fn texture_is_integer(&mut self, _texture: u32) -> bool {
        false
    }
    /// A sampler `ld` from a buffer surface (Gen7/8 varying pull constants): the four dwords
    /// starting at byte `index`, or `None` when `surface` is a texture. The driver binds UBOs
    /// as RGBA32 buffers with a one-byte pitch, as i965 does, so the coordinate is the byte
    /// offset itself and needs no 16-byte alignment.
    fn buffer_texel(&mut self, _surface: u32, _index: i64) -> Option<[u32; 4]> {
        None
    }
    /// The number of coordinates texture `texture` takes, when known: Gen4–6 sampler
    /// messages carry coordinates in fixed slots the hardware reads as far as the surface's
    /// dimensions (see [`super::send_gen4`]).
    fn coordinate_count(&mut self, _texture: u32) -> Option<usize> {
        None
    }
    /// Reads thread-private scratch bytes.
    fn scratch_read(&mut self, offset: usize, out: &mut [u8]) -> Result<(), String>;
    /// Writes thread-private scratch bytes.
    fn scratch_write(&mut self, offset: usize, data: &[u8]) -> Result<(), String>;
    /// Untyped surface dword read.
    fn untyped_read(&mut self, surface: u32, addr: u32) -> Result<u32, String>;
    /// Untyped surface dword write.
    fn untyped_write(&mut self, surface: u32, addr: u32, v: u32) -> Result<(), String>;
    /// Untyped atomic on a dword, returning the old value.
    fn untyped_atomic(
        &mut self,
        surface: u32,
        addr: u32,
        op: AtomicOp,
        a: u32,
        b: u32,
    ) -> Result<u32, String>;
    /// Constant-cache read of bytes at `offset` of constant buffer `surface`.
    fn constant_read(&mut self, surface: u32, offset: usize, out: &mut [u8]) -> Result<(), String>;
    /// A64 dword read from the flat 64-bit GPU address space (Gen8+ stateless messages).
    fn global_read(&mut self, addr: u64) -> Result<u32, String> {
        Err(format!(
            "A64 read at {addr:#x}: no global memory in this model"
        ))
    }
    /// A message-gateway barrier.
    fn barrier(&mut self) -> Result<(), String>;
    /// A URB write of dword `dword` of the URB entry with handle `handle` (vertex shader
    /// outputs).
    fn urb_write(&mut self, handle: u32, dword: u32, _v: u32) -> Result<(), String> {
        Err(format!(
            "URB write (handle {handle:#x}, dword {dword}): no URB is modelled here"
        ))
    }
    /// The vertex count a Gen7 geometry thread gives the URB entry with handle `handle` in
    /// the header of its last write.
    fn urb_vertex_count(&mut self, handle: u32, count: u32) -> Result<(), String> {
        Err(format!(
            "URB vertex count {count} for handle {handle:#x}: no URB is modelled here"
        ))
    }
    /// A URB read of dword `dword` of the URB entry with handle `handle` (the input
    /// vertices of a geometry or tessellation thread).
    fn urb_read(&mut self, handle: u32, dword: u32) -> Result<u32, String> {
        Err(format!(
            "URB read (handle {handle:#x}, dword {dword}): no URB is modelled here"
        ))
    }
    /// The release of the URB entry with handle `handle` by a thread done with it (a Gen7
    /// TCS's input vertices): a handle released twice, or never, leaks or corrupts the URB.
    fn urb_release(&mut self, handle: u32) -> Result<(), String> {
        Err(format!(
            "URB release of handle {handle:#x}: no URB is modelled here"
        ))
    }
}

/// The default, deterministic shared functions (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct DefaultShared {
    /// Captured render-target writes, in order.
    pub rt_writes: Vec<RtWrite>,
    /// Buffer surfaces by binding-table index: UBOs, SSBOs and shared local memory alike,
    /// read and written by every message that names the index (see the module
    /// documentation).
    pub buffers: BTreeMap<u32, Vec<u8>>,
    /// Thread-private scratch space.
    pub scratch: Vec<u8>,
    /// Barriers seen.
    pub barriers: u32,
    /// Global memory for A64 messages: byte ranges by GPU address (see
    /// [`DefaultShared::map_global`]).
    pub global: BTreeMap<u64, Vec<u8>>,
    /// URB entries written, by handle: dword index to value.
    pub urb: BTreeMap<u32, BTreeMap<u32, u32>>,
    /// Vertex counts Gen7 geometry threads gave their entries, by handle.
    pub urb_vertex_counts: BTreeMap<u32, u32>,
    /// URB handles released, in order (repeats kept, so a double release shows).
    pub urb_released: Vec<u32>,
    /// Coordinates each texture takes (its dimensions, plus one for arrays), where the
    /// caller knows them: see [`SharedFunctions::coordinate_count`].
    pub coordinate_counts: BTreeMap<u32, usize>,
}

impl DefaultShared {
    /// Binds a byte buffer as surface `index` of the binding table (replacing what was
    /// bound there).
    pub fn bind_buffer(&mut self, index: u32, bytes: Vec<u8>) {
        self.buffers.insert(index, bytes);
    }

    /// Binds a uniform buffer at binding-table index `index`: the same as
    /// [`DefaultShared::bind_buffer`] (one surface per index, whichever cache reads it),
    /// named for what the caller binds.
    pub fn bind_constants(&mut self, index: u32, bytes: Vec<u8>) {
        self.bind_buffer(index, bytes);
    }

    /// Places `bytes` at GPU address `base` for A64 messages (a buffer the driver uploaded,
    /// such as a shader's constant data). Reads of unmapped addresses are errors: on the
    /// hardware they would fault.
    pub fn map_global(&mut self, base: u64, bytes: Vec<u8>) {
        self.global.insert(base, bytes);
    }

    fn buffer(&mut self, surface: u32) -> Result<&mut Vec<u8>, String> {
        self.buffers
            .get_mut(&surface)
            .ok_or_else(|| format!("no buffer bound at binding-table index {surface}"))
    }
}

fn dword(buf: &[u8], addr: u32) -> u32 {
    let a = addr as usize;
    match buf.get(a..a.saturating_add(4)) {
        Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        None => 0,
    }
}

fn set_dword(buf: &mut [u8], addr: u32, v: u32) {
    let a = addr as usize;
    if let Some(b) = buf.get_mut(a..a.saturating_add(4)) {
        b.copy_from_slice(&v.to_le_bytes());
    }
}

impl SharedFunctions for DefaultShared {
    fn coordinate_count(&mut self, texture: u32) -> Option<usize> {
        self.coordinate_counts.get(&texture).copied()
    }

    fn render_target_write(&mut self, w: &RtWrite) -> Result<(), String> {
        self.rt_writes.push(w.clone());
        Ok(())
    }

    fn sample(&mut self, req: &TexRequest) -> Result<[f64; 4], String> {
        DefaultSampler.sample(req)
    }

    fn texture_size(&mut self, texture: u32, lod: u32) -> [u32; 3] {
        DefaultSampler.size(texture, lod)
    }

    fn texture_levels(&mut self, texture: u32) -> u32 {
        DefaultSampler.levels(texture)
    }

    fn buffer_texel(&mut self, surface: u32, index: i64) -> Option<[u32; 4]> {
        let buf = self.buffers.get(&surface)?;
        // A coordinate outside the buffer (negative included) reads zeros, as the sampler
        // returns for out-of-bounds buffer texels.
        let Ok(base) = u32::try_from(index) else {
            return Some([0; 4]);
        };
        Some([0, 4, 8, 12].map(|o| dword(buf, base.saturating_add(o))))
    }

    fn scratch_read(&mut self, offset: usize, out: &mut [u8]) -> Result<(), String> {
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.scratch.get(offset + i).copied().unwrap_or(0);
        }
        Ok(())
    }

    fn scratch_write(&mut self, offset: usize, data: &[u8]) -> Result<(), String> {
        let end = offset + data.len();
        if end > 1 << 24 {
            return Err(format!(
                "scratch write at byte {offset} beyond the 16 MiB model"
            ));
        }
        if self.scratch.len() < end {
            self.scratch.resize(end, 0);
        }
        self.scratch[offset..end].copy_from_slice(data);
        Ok(())
    }

    fn untyped_read(&mut self, surface: u32, addr: u32) -> Result<u32, String> {
        Ok(dword(self.buffer(surface)?, addr))
    }

    fn untyped_write(&mut self, surface: u32, addr: u32, v: u32) -> Result<(), String> {
        set_dword(self.buffer(surface)?, addr, v);
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
        let buf = self.buffer(surface)?;
        let old = dword(buf, addr);
        set_dword(buf, addr, op.apply(old, a, b));
        Ok(old)
    }

    fn constant_read(&mut self, surface: u32, offset: usize, out: &mut [u8]) -> Result<(), String> {
        let buf = self.buffer(surface)?;
        for (i, o) in out.iter_mut().enumerate() {
            *o = buf.get(offset + i).copied().unwrap_or(0);
        }
        Ok(())
    }

    fn global_read(&mut self, addr: u64) -> Result<u32, String> {
        let unmapped = || format!("A64 read at {addr:#x}: no global memory mapped there");
        let (&base, bytes) = self
            .global
            .range(..=addr)
            .next_back()
            .ok_or_else(unmapped)?;
        let at = usize::try_from(addr - base).map_err(|_| unmapped())?;
        let b = bytes.get(at..at.saturating_add(4)).ok_or_else(unmapped)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn barrier(&mut self) -> Result<(), String> {
        self.barriers += 1;
        Ok(())
    }

    fn urb_write(&mut self, handle: u32, dword: u32, v: u32) -> Result<(), String> {
        self.urb.entry(handle).or_default().insert(dword, v);
        Ok(())
    }
    fn urb_vertex_count(&mut self, handle: u32, count: u32) -> Result<(), String> {
        self.urb_vertex_counts.insert(handle, count);
        Ok(())
    }
    fn urb_release(&mut self, handle: u32) -> Result<(), String> {
        self.urb_released.push(handle);
        Ok(())
    }
    /// Reads what a write (or the test setting up the input vertices) left; a dword never
    /// written is an error rather than a made-up value.
    fn urb_read(&mut self, handle: u32, dword: u32) -> Result<u32, String> {
        self.urb
            .get(&handle)
            .and_then(|e| e.get(&dword))
            .copied()
            .ok_or_else(|| format!("URB read of dword {dword} of entry {handle:#x}, never written"))
    }
}
