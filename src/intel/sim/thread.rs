//! One EU thread's architectural state and operand access.

use super::flow::Chan;
use super::shared::DefaultShared;
use super::value::{from_bits, to_bits, vf_to_f32, FloatEnv, Val};
use super::SimError;
use crate::intel::eu::{AccessMode, Dst, Inst, RegFile, RegSrc, RegType, Region, Src};
use crate::intel::DevInfo;

/// Bytes of one register.
pub const REG_SIZE: usize = 32;

/// ARF storage: 16 kinds (the high nibble of the register number) × 4 registers each.
const ARF_REGS_PER_KIND: usize = 4;

/// Where one element of an operand lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Loc {
    /// Byte offset in the GRF file.
    Grf(usize),
    /// Byte offset in the ARF storage.
    Arf(usize),
    /// The null register: reads zero, writes vanish.
    Null,
}

/// One EU hardware thread: 128 GRFs of 32 bytes, the ARFs the EU ISA names (a0, acc0/acc1,
/// f0/f1, sr0, cr0, ip, …), the per-channel flow-control state, and the default shared
/// functions (see [`super::shared`]).
#[derive(Debug, Clone)]
pub struct Thread {
    pub(super) devinfo: DevInfo,
    pub(super) simd: u32,
    pub(super) grf: Vec<u8>,
    pub(super) arf: Vec<u8>,
    pub(super) chans: [Chan; 32],
    pub(super) step_limit: u64,
    pub(super) shared: DefaultShared,
    /// The integer accumulator's dwords at full precision (acc0 elements 0-7, then acc1's):
    /// an integer MUL into the accumulator keeps the whole product there, beyond the 32 bits
    /// a read of acc0 returns, and MACH builds on it. Any other write to an element's bytes
    /// leaves only those bits, and the element has no full-precision value.
    pub(super) acc_full: [Option<i128>; ACC_DWORDS],
}

/// Dwords of the integer accumulator kept at full precision: acc0 and acc1.
pub(super) const ACC_DWORDS: usize = 16;

impl Thread {
    /// A thread of `simd` channels (1–32) on `devinfo`, every register zero and every
    /// dispatched channel enabled.
    pub fn new(devinfo: &DevInfo, simd: u32) -> Result<Thread, SimError> {
        if !(1..=32).contains(&simd) {
            return Err(SimError::new(format!(
                "SIMD width {simd} is outside 1..=32"
            )));
        }
        if devinfo.ver < 40 {
            return Err(SimError::new(format!(
                "unsupported: the simulator models Gen4-Gen9, not {} (Gen{})",
                devinfo.name,
                devinfo.ver as f32 / 10.0
            )));
        }
        let mut t = Thread {
            devinfo: devinfo.clone(),
            simd,
            grf: vec![0; (devinfo.grf_count as usize + devinfo.mrf_count()) * REG_SIZE],
            arf: vec![0; 16 * ARF_REGS_PER_KIND * REG_SIZE],
            chans: [Chan::Off; 32],
            step_limit: 1_000_000,
            shared: DefaultShared::default(),
            acc_full: [None; ACC_DWORDS],
        };
        t.set_dispatch_mask(if simd == 32 {
            u32::MAX
        } else {
            (1u32 << simd) - 1
        });
        Ok(t)
    }

    /// The device this thread models.
    pub fn devinfo(&self) -> &DevInfo {
        &self.devinfo
    }

    /// The dispatch width.
    pub fn simd(&self) -> u32 {
        self.simd
    }

    /// Enables exactly the channels of `mask` (bit n = channel n), as the thread dispatcher
    /// does for partially covered pixel groups; also stored in sr0.2 as the hardware does.
    pub fn set_dispatch_mask(&mut self, mask: u32) {
        let width_mask = if self.simd == 32 {
            u32::MAX
        } else {
            (1u32 << self.simd) - 1
        };
        let mask = mask & width_mask;
        for (c, ch) in self.chans.iter_mut().enumerate() {
            *ch = if mask >> c & 1 == 1 {
                Chan::Active
            } else {
                Chan::Off
            };
        }
        let sr0 = arf_base(0x70) + 8;
        self.arf[sr0..sr0 + 4].copy_from_slice(&mask.to_le_bytes());
    }

    /// Maximum number of instructions a run may execute before it fails.
    pub fn set_step_limit(&mut self, steps: u64) {
        self.step_limit = steps;
    }

    /// Writes 32-bit words into consecutive GRF bytes starting at `reg` (a register number)
    /// and `dword` (a dword offset inside it; may run into the following registers).
    pub fn set_grf(&mut self, reg: u32, dword: u32, words: &[u32]) -> Result<(), SimError> {
        let start = reg as usize * REG_SIZE + dword as usize * 4;
        let end = start + words.len() * 4;
        if end > self.grf_end() {
            return Err(SimError::new(format!(
                "set_grf: g{reg}.{dword} + {} dwords runs past the last GRF",
                words.len()
            )));
        }
        for (i, w) in words.iter().enumerate() {
            self.grf[start + i * 4..start + i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        Ok(())
    }

    /// Writes floats into consecutive GRF dwords (see [`Thread::set_grf`]).
    pub fn set_grf_f32(&mut self, reg: u32, dword: u32, vals: &[f32]) -> Result<(), SimError> {
        let words: Vec<u32> = vals.iter().map(|f| f.to_bits()).collect();
        self.set_grf(reg, dword, &words)
    }

    /// The 8 dwords of GRF `reg`.
    pub fn grf_ud(&self, reg: u32) -> [u32; 8] {
        let mut out = [0u32; 8];
        let base = reg as usize * REG_SIZE;
        for (i, o) in out.iter_mut().enumerate() {
            if let Some(b) = self.grf.get(base + i * 4..base + i * 4 + 4) {
                *o = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
        }
        out
    }

    /// The 8 floats of GRF `reg`.
    pub fn grf_f(&self, reg: u32) -> [f32; 8] {
        self.grf_ud(reg).map(f32::from_bits)
    }

    /// Raw GRF bytes.
    pub fn grf_bytes(&self) -> &[u8] {
        &self.grf[..self.grf_end()]
    }

    /// The 32 bits of flag register `f{nr}` (f0.0 in the low half, f0.1 in the high half).
    pub fn flag(&self, nr: u32) -> u32 {
        let b = arf_base(0x30) + (nr as usize & 1) * REG_SIZE;
        u32::from_le_bytes([
            self.arf[b],
            self.arf[b + 1],
            self.arf[b + 2],
            self.arf[b + 3],
        ])
    }

    /// Sets flag register `f{nr}`.
    pub fn set_flag(&mut self, nr: u32, value: u32) {
        let b = arf_base(0x30) + (nr as usize & 1) * REG_SIZE;
        self.arf[b..b + 4].copy_from_slice(&value.to_le_bytes());
    }

    /// Sets cr0.0 (rounding mode in bits 5:4, single-precision denormals kept with bit 7).
    pub fn set_cr0(&mut self, value: u32) {
        let b = arf_base(0x80);
        self.arf[b..b + 4].copy_from_slice(&value.to_le_bytes());
    }

    /// Sets address subregister `a0.n` (16-bit, in bytes of the GRF file).
    pub fn set_a0(&mut self, n: u32, value: u16) {
        let b = arf_base(0x10) + n as usize * 2;
        if b + 2 <= arf_base(0x10) + REG_SIZE {
            self.arf[b..b + 2].copy_from_slice(&value.to_le_bytes());
        }
    }

    /// The default shared functions (captured render-target writes, buffers, scratch).
    pub fn shared(&self) -> &DefaultShared {
        &self.shared
    }

    /// Mutable access to the default shared functions, to bind buffers before a run.
    pub fn shared_mut(&mut self) -> &mut DefaultShared {
        &mut self.shared
    }

    pub(super) fn float_env(&self) -> FloatEnv {
        let b = arf_base(0x80);
        FloatEnv::from_cr0(u32::from_le_bytes([
            self.arf[b],
            self.arf[b + 1],
            self.arf[b + 2],
            self.arf[b + 3],
        ]))
    }

    /// Bit of flag `f{nr}.{subnr}` for channel `ch`.
    pub(super) fn flag_bit(&self, nr: u8, subnr: u8, ch: u32) -> bool {
        let bit = self.flag_bit_index(subnr, ch);
        bit < 32 && (self.flag(nr as u32) >> bit) & 1 == 1
    }

    pub(super) fn set_flag_bit(&mut self, nr: u8, subnr: u8, ch: u32, v: bool) {
        let bit = self.flag_bit_index(subnr, ch);
        if bit >= 32 {
            return;
        }
        let f = self.flag(nr as u32);
        let f = if v { f | 1 << bit } else { f & !(1 << bit) };
        self.set_flag(nr as u32, f);
    }

    /// The bit of the flag register (f0.0 = bits 0-15) that channel `ch` uses with flag
    /// subregister `subnr`: channels count from the start of the thread, as Mesa's flag
    /// model (`flag_mask`) has it, so a second-half instruction on f0.0 reaches f0.1's bits.
    /// Gen6 has f0 alone, yet Mesa's Gen6 SIMD32 code (which crocus dispatches) pairs f0.1
    /// with second-half SIMD16 instructions that read what SIMD8 third- and fourth-quarter
    /// instructions wrote to f0.0 (bits 16-31); the model gives those channels the f0 bit of
    /// their own number, where Mesa's model would run past Gen6's flag register. Inferred
    /// from Mesa's code, not from a PRM statement.
    fn flag_bit_index(&self, subnr: u8, ch: u32) -> u32 {
        let bit = subnr as u32 * 16 + ch;
        if self.devinfo.ver == 60 && bit >= 32 {
            ch
        } else {
            bit
        }
    }

    fn a0(&self, sub: u8) -> Result<usize, String> {
        let b = arf_base(0x10) + sub as usize * 2;
        if b + 2 > arf_base(0x10) + REG_SIZE {
            return Err(format!("address subregister a0.{sub} does not exist"));
        }
        Ok(u16::from_le_bytes([self.arf[b], self.arf[b + 1]]) as usize)
    }

    fn loc(&self, file: RegFile, nr: u8, byte: isize) -> Result<Loc, String> {
        match file {
            RegFile::Grf => {
                let abs = nr as isize * REG_SIZE as isize + byte;
                if abs < 0 || abs as usize >= self.grf_end() {
                    return Err(format!(
                        "register access at byte {abs} is outside the GRF file"
                    ));
                }
                Ok(Loc::Grf(abs as usize))
            }
            RegFile::Arf => {
                if nr & 0xf0 == 0 {
                    return Ok(Loc::Null);
                }
                let kind = nr >> 4;
                if !matches!(kind, 1 | 2 | 3 | 4 | 7 | 8 | 0xa) {
                    return Err(format!("unsupported: architecture register {nr:#x}"));
                }
                let reg = (nr & 0xf) as isize;
                let off = reg * REG_SIZE as isize + byte;
                let limit = (ARF_REGS_PER_KIND * REG_SIZE) as isize;
                if off < 0 || off >= limit {
                    return Err(format!(
                        "access to ARF {nr:#x} at byte {byte} is out of range"
                    ));
                }
                Ok(Loc::Arf(
                    (nr >> 4) as usize * ARF_REGS_PER_KIND * REG_SIZE + off as usize,
                ))
            }
            RegFile::Mrf => self.mrf_loc(nr, byte),
            RegFile::Imm => Err("immediate used as a register".into()),
        }
    }

    pub(super) fn read_raw(&self, loc: Loc, size: usize) -> Result<u64, String> {
        let (mem, at) = match loc {
            Loc::Null => return Ok(0),
            Loc::Grf(a) => (&self.grf, a),
            Loc::Arf(a) => (&self.arf, a),
        };
        let bytes = mem
            .get(at..at + size)
            .ok_or_else(|| format!("element at byte {at} runs past its register file"))?;
        let mut v = 0u64;
        for (i, b) in bytes.iter().enumerate() {
            v |= (*b as u64) << (8 * i);
        }
        Ok(v)
    }

    pub(super) fn write_raw(&mut self, loc: Loc, size: usize, v: u64) -> Result<(), String> {
        if let Loc::Arf(a) = loc {
            let acc = arf_base(0x20);
            let first = a.saturating_sub(acc) / 4;
            let end = (a + size).saturating_sub(acc).div_ceil(4).min(ACC_DWORDS);
            for e in self.acc_full.get_mut(first..end).into_iter().flatten() {
                *e = None;
            }
        }
        let (mem, at) = match loc {
            Loc::Null => return Ok(()),
            Loc::Grf(a) => (&mut self.grf, a),
            Loc::Arf(a) => (&mut self.arf, a),
        };
        let bytes = mem
            .get_mut(at..at + size)
            .ok_or_else(|| format!("element at byte {at} runs past its register file"))?;
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (v >> (8 * i)) as u8;
        }
        Ok(())
    }

    /// The location of element `i` (0-based within the instruction) of a register source.
    pub(super) fn src_loc(&self, inst: &Inst, r: &RegSrc, i: u32) -> Result<Loc, String> {
        let size = r.ty.size() as isize;
        let i = i as isize;
        let (file, nr, base) = match r.indirect {
            Some(ind) if r.region.vstride == Region::VXH => {
                let width = r.region.width.max(1) as isize;
                let row = i / width;
                let col = i % width;
                let a = self.a0(ind.addr_subnr + row as u8)? as isize + ind.offset as isize;
                let byte = a + col * r.region.hstride as isize * size;
                return self.loc(RegFile::Grf, 0, byte);
            }
            Some(ind) => (
                RegFile::Grf,
                0u8,
                self.a0(ind.addr_subnr)? as isize + ind.offset as isize,
            ),
            None => (r.file, r.nr, r.subnr as isize),
        };
        let byte = if inst.access_mode == AccessMode::Align16 {
            if r.region == Region::SCALAR && inst.opcode.is_three_src() {
                base
            } else {
                let group = i / 4;
                let comp = (r.swizzle >> (2 * (i % 4))) & 3;
                base + group * r.region.vstride as isize * size + comp as isize * size
            }
        } else {
            let width = r.region.width.max(1) as isize;
            let row = i / width;
            let col = i % width;
            base + (row * r.region.vstride as isize + col * r.region.hstride as isize) * size
        };
        self.loc(file, nr, byte)
    }

    /// Reads element `i` of a source, applying abs/negate (negate is NOT for logic ops on
    /// Gen8+).
    pub(super) fn read_src(&self, inst: &Inst, s: &Src, i: u32) -> Result<Val, String> {
        let env = self.float_env();
        match s {
            Src::Imm(imm) => Ok(match imm.ty {
                RegType::V | RegType::UV => {
                    let nib = (imm.bits >> (4 * (i % 8))) & 0xf;
                    if imm.ty == RegType::V {
                        Val::Int(((nib as i8) << 4 >> 4) as i128)
                    } else {
                        Val::Int(nib as i128)
                    }
                }
                RegType::VF => Val::Float(vf_to_f32((imm.bits >> (8 * (i % 4))) as u8) as f64),
                ty => from_bits(ty, imm.bits, env),
            }),
            Src::Reg(r) => {
                let loc = self.src_loc(inst, r, i)?;
                let raw = self.read_raw(loc, r.ty.size() as usize)?;
                let mut v = from_bits(r.ty, raw, env);
                if r.abs {
                    v = match v {
                        Val::Int(x) => Val::Int(x.abs()),
                        Val::Float(f) => Val::Float(f.abs()),
                    };
                }
                if r.negate {
                    v = match v {
                        Val::Int(x) if inst.opcode.is_logic() && self.devinfo.ver >= 80 => {
                            Val::Int(!x)
                        }
                        Val::Int(x) => Val::Int(-x),
                        Val::Float(f) => Val::Float(-f),
                    };
                }
                Ok(v)
            }
        }
    }

    /// The location of channel `i`'s destination element, or `None` when the align16 write
    /// mask disables its component.
    pub(super) fn dst_loc(&self, inst: &Inst, d: &Dst, i: u32) -> Result<Option<Loc>, String> {
        let size = d.ty.size() as isize;
        let i_s = i as isize;
        let (file, nr, base) = match d.indirect {
            Some(ind) => (
                RegFile::Grf,
                0u8,
                self.a0(ind.addr_subnr)? as isize + ind.offset as isize,
            ),
            None => (d.file, d.nr, d.subnr as isize),
        };
        if inst.access_mode == AccessMode::Align16 {
            if d.writemask >> (i % 4) & 1 == 0 {
                return Ok(None);
            }
            return self.loc(file, nr, base + i_s * size).map(Some);
        }
        self.loc(file, nr, base + i_s * d.hstride as isize * size)
            .map(Some)
    }

    /// Converts and writes a result element.
    pub(super) fn write_dst(
        &mut self,
        loc: Loc,
        ty: RegType,
        v: Val,
        sat: bool,
    ) -> Result<(), String> {
        let bits = to_bits(ty, v, sat, self.float_env());
        self.write_raw(loc, ty.size() as usize, bits)
    }
}

/// Byte offset of ARF register `nr` in the ARF storage.
pub(super) fn arf_base(nr: u8) -> usize {
    ((nr >> 4) as usize * ARF_REGS_PER_KIND + (nr & 0x3) as usize) * REG_SIZE
}
