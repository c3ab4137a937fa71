//! The message register file of Gen4–Gen6 (MRFs), and how SEND reaches it.
//!
//! Before Gen7 a message is assembled in write-only message registers `m0…` and SEND names
//! the first of them; Gen7 dropped the file (messages come from GRFs). The PRMs give 16 MRFs
//! on Gen4 and Gen5 and 24 on Gen6 (Mesa's `BRW_MAX_MRF`). The simulator keeps them right
//! after the GRFs in the same storage, so a message handler reads a payload the same way
//! whichever file it came from; GRF accesses are still bounded by the GRF file (an indirect
//! access past the last GRF is an error, not an MRF access).
//!
//! Two Gen4–5 behaviours live here:
//!
//! - **compr4**: a compressed (SIMD16) instruction whose MRF destination number has bit 7 set
//!   (Mesa's `BRW_MRF_COMPR4`) writes channels 0–7 to m(n) and channels 8–15 to m(n+4)
//!   instead of m(n+1), so SIMD16 colour payloads land where the render-target write wants
//!   each half.
//! - **the implied move**: a Gen4–5 SEND whose src0 is a GRF copies that register into the
//!   message's first MRF (the instruction's base MRF field) before the message goes out;
//!   Mesa relies on it to put the g0 header in place. It moves one register unless the SEND
//!   is compressed. Gen6 has no implied move (Mesa's
//!   `gfx6_resolve_implied_move` emits the MOV itself), and a Gen6 SEND reads its payload
//!   from src0's own file.

use super::thread::{Loc, Thread, REG_SIZE};
use super::SimError;

/// Bit 7 of a Gen4–5 MRF destination number: the compr4 second-half placement.
const COMPR4: u8 = 0x80;

impl Thread {
    /// End of the GRF file in the register storage (where the MRFs begin).
    pub(super) fn grf_end(&self) -> usize {
        self.devinfo.grf_count as usize * REG_SIZE
    }

    /// The storage register number of message register `m{nr}` (message handlers address
    /// payloads by storage register).
    pub(super) fn mrf_storage_reg(&self, nr: u8) -> Result<usize, String> {
        let n = nr as usize;
        if n >= self.devinfo.mrf_count() {
            return Err(format!(
                "message register m{n} does not exist on {} ({} MRFs)",
                self.devinfo.name,
                self.devinfo.mrf_count()
            ));
        }
        Ok(self.devinfo.grf_count as usize + n)
    }

    /// Byte `byte` of an access that starts at MRF `nr` (bit 7: compr4 on Gen4–5).
    pub(super) fn mrf_loc(&self, nr: u8, byte: isize) -> Result<Loc, String> {
        let total = self.devinfo.mrf_count();
        if total == 0 {
            return Err("unsupported: MRF registers do not exist on Gen7+".into());
        }
        let (reg, byte) = if self.devinfo.ver < 60 && nr & COMPR4 != 0 {
            // Second half (bytes 32..64 of a dword SIMD16 write) goes four registers on.
            let extra = if byte >= REG_SIZE as isize {
                3 * REG_SIZE as isize
            } else {
                0
            };
            (nr & !COMPR4, byte + extra)
        } else {
            (nr, byte)
        };
        let first = self.mrf_storage_reg(reg)? as isize * REG_SIZE as isize;
        let at = first + byte;
        let end = ((self.devinfo.grf_count as usize + total) * REG_SIZE) as isize;
        if byte < 0 || at >= end {
            return Err(format!(
                "access to m{reg} at byte {byte} runs past the last message register"
            ));
        }
        Ok(Loc::Grf(at as usize))
    }

    /// The 8 dwords of message register `m{nr}` (for tests and debuggers: programs cannot
    /// read MRFs).
    pub fn mrf_ud(&self, nr: u32) -> Result<[u32; 8], SimError> {
        let reg = u8::try_from(nr)
            .map_err(|_| SimError::new(format!("no message register m{nr}")))
            .and_then(|n| self.mrf_storage_reg(n).map_err(SimError::new))?;
        Ok(self.grf_ud(reg as u32))
    }

    /// The Gen4–5 implied move: src0 read with the SEND's own region, execution size and
    /// access mode (so `g2<4>.wF` replicates w, `g2<0,1,0>F` one element) and written
    /// contiguously into MRF `mrf` onwards, every channel (the move prepares the message;
    /// the message's own channel enables decide what is used).
    pub(super) fn implied_move(
        &mut self,
        inst: &crate::intel::eu::Inst,
        src0: &crate::intel::eu::RegSrc,
        mrf: u8,
    ) -> Result<(), String> {
        let first = self.mrf_storage_reg(mrf)? * REG_SIZE;
        let size = src0.ty.size() as usize;
        // Only a compressed SEND (compression control 2) moves two registers: an
        // uncompressed SIMD16 one of a 32-bit type moves the header register alone (Mesa's
        // Gen4 varying pull-constant load, `send(16)` of g0 as F, keeps its offsets in the
        // next MRF).
        let channels = if inst.qtr_ctrl != 2 {
            (inst.exec_size as usize).min(REG_SIZE / size)
        } else {
            inst.exec_size as usize
        };
        let end = first + channels * size;
        if end > self.grf.len() {
            return Err(format!("implied move into m{mrf} runs past the last MRF"));
        }
        for i in 0..channels as u32 {
            let loc = self.src_loc(inst, src0, i)?;
            let v = self.read_raw(loc, size)?;
            self.write_raw(Loc::Grf(first + i as usize * size), size, v)?;
        }
        Ok(())
    }
}
