//! Tile status (TS): a few bits per tile of a colour or depth surface saying whether the tile's
//! memory is current or the tile reads as the surface's clear value (a "fast clear").
//!
//! The driver allocates the status buffer, fills it with its "all cleared" word through the RS
//! or has the BLT write it, and hands its address, the surface address it describes and the
//! clear value to whichever engine touches the surface (PE: TS_COLOR_*/TS_DEPTH_*, RS: the
//! colour TS states, BLT: BLT_SRC_TS/BLT_DEST_TS, texture unit: TS_SAMPLER_*). Tile `t` covers
//! bytes `t * tile_bytes .. (t + 1) * tile_bytes` from the surface base (whatever the pixel
//! layout inside), and its status is `bits` bits at bit `t * bits` of the status buffer read as
//! little-endian 32-bit words, as the driver's fill words (0x55555555 for 2 bits, 0x11111111 or
//! 0xffffffff for 4) imply. Status 0 means the memory is current; the "cleared" code is the
//! one those fill words repeat. Compression codes are never produced by this model's engines
//! (they write uncompressed tiles and mark them 0), so meeting one is reported as unmodelled.

use super::super::memory::Memory;
use super::super::GpuError;
use super::{feature, has_cache128};
use crate::etnaviv::specs::Specs;

/// What one tile's status says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileState {
    /// The surface memory holds the tile.
    Memory,
    /// The tile reads as the clear value, whatever its memory holds.
    Cleared,
}

/// One surface's tile status as an engine is configured to use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileStatus {
    pub status_base: u32,
    pub surface_base: u32,
    /// The clear value as two 32-bit words; a cleared tile repeats them (low word first)
    /// from the surface base on, so a 16-bit format's value is already replicated.
    pub clear: [u32; 2],
    /// Surface bytes per tile: 64, or 128/256 on cores with 128/256-byte cache lines.
    pub tile_bytes: u32,
    /// Status bits per tile: 2 or 4.
    pub bits: u32,
    /// The status code of a cleared tile.
    pub cleared_code: u32,
}

impl TileStatus {
    /// The tile status of `specs`'s core; `large_tiles` is the TS mode bit of the state that
    /// configures it (256-byte tiles on CACHE128B256BPERLINE cores, or MSAA tiles on
    /// SMALL_MSAA ones).
    pub fn for_core(
        specs: &Specs,
        status_base: u32,
        surface_base: u32,
        clear: [u32; 2],
        large_tiles: bool,
    ) -> TileStatus {
        let cache128 = has_cache128(specs);
        let two_bits = feature(specs, 1, 0x0000_0400) && !cache128;
        let dec400 = feature(specs, 11, 0x0000_0200);
        let tile_bytes = match (cache128, large_tiles) {
            (true, true) | (false, true) => 256,
            (true, false) => 128,
            (false, false) => 64,
        };
        let bits = if two_bits { 2 } else { 4 };
        let cleared_code = if bits == 4 && dec400 { 0xf } else { 1 };
        TileStatus {
            status_base,
            surface_base,
            clear,
            tile_bytes,
            bits,
            cleared_code,
        }
    }

    /// The tile holding `address`, if it lies at or after the surface base.
    pub fn tile_of(&self, address: u32) -> Option<u32> {
        address
            .checked_sub(self.surface_base)
            .map(|o| o / self.tile_bytes)
    }

    fn entry(&self, tile: u32) -> (u32, u32) {
        let bit = tile as u64 * self.bits as u64;
        (
            self.status_base.wrapping_add((bit / 32) as u32 * 4),
            (bit % 32) as u32,
        )
    }

    pub fn state(&self, mem: &dyn Memory, tile: u32) -> Result<TileState, GpuError> {
        let (at, shift) = self.entry(tile);
        let code = (mem.read_u32(at)? >> shift) & ((1 << self.bits) - 1);
        if code == 0 {
            Ok(TileState::Memory)
        } else if code == self.cleared_code {
            Ok(TileState::Cleared)
        } else {
            Err(GpuError::Unmodelled(format!(
                "tile status code 0x{code:x} (compressed tile) at 0x{at:08x}"
            )))
        }
    }

    pub fn set_state(
        &self,
        mem: &mut dyn Memory,
        tile: u32,
        state: TileState,
    ) -> Result<(), GpuError> {
        let (at, shift) = self.entry(tile);
        let mask = ((1u32 << self.bits) - 1) << shift;
        let code = match state {
            TileState::Memory => 0,
            TileState::Cleared => self.cleared_code << shift,
        };
        let word = mem.read_u32(at)?;
        mem.write_u32(at, (word & !mask) | code)?;
        Ok(())
    }

    /// Byte `offset` (from the surface base) of the clear pattern.
    fn clear_byte(&self, offset: u32) -> u8 {
        let pattern = (self.clear[0] as u64) | ((self.clear[1] as u64) << 32);
        (pattern >> (8 * (offset % 8))) as u8
    }

    /// Writes the clear pattern over the memory of `tile` (the status is left alone).
    pub fn fill(&self, mem: &mut dyn Memory, tile: u32) -> Result<(), GpuError> {
        let start = tile * self.tile_bytes;
        let bytes: Vec<u8> = (start..start + self.tile_bytes)
            .map(|o| self.clear_byte(o))
            .collect();
        mem.write(self.surface_base.wrapping_add(start), &bytes)?;
        Ok(())
    }

    /// Reads `out.len()` bytes at `address` (inside one tile) as the engines see them.
    pub fn read(&self, mem: &dyn Memory, address: u32, out: &mut [u8]) -> Result<(), GpuError> {
        match self.tile_of(address) {
            Some(t) if self.state(mem, t)? == TileState::Cleared => {
                let offset = address - self.surface_base;
                for (i, b) in out.iter_mut().enumerate() {
                    *b = self.clear_byte(offset + i as u32);
                }
                Ok(())
            }
            _ => Ok(mem.read(address, out)?),
        }
    }

    /// Makes the tile holding `address` current in memory (filling it with the clear value if
    /// it was cleared), so that a partial write to it keeps the rest of the tile.
    pub fn materialise(&self, mem: &mut dyn Memory, address: u32) -> Result<(), GpuError> {
        if let Some(t) = self.tile_of(address) {
            if self.state(mem, t)? == TileState::Cleared {
                self.fill(mem, t)?;
                self.set_state(mem, t, TileState::Memory)?;
            }
        }
        Ok(())
    }

    /// Writes `data` at `address` (inside one tile) through the tile status.
    pub fn write(&self, mem: &mut dyn Memory, address: u32, data: &[u8]) -> Result<(), GpuError> {
        self.materialise(mem, address)?;
        Ok(mem.write(address, data)?)
    }
}

/// Reads through `ts` when there is one, else straight from memory.
pub fn read_through(
    ts: Option<&TileStatus>,
    mem: &dyn Memory,
    address: u32,
    out: &mut [u8],
) -> Result<(), GpuError> {
    match ts {
        Some(ts) => ts.read(mem, address, out),
        None => Ok(mem.read(address, out)?),
    }
}

/// Writes through `ts` when there is one, else straight to memory.
pub fn write_through(
    ts: Option<&TileStatus>,
    mem: &mut dyn Memory,
    address: u32,
    data: &[u8],
) -> Result<(), GpuError> {
    match ts {
        Some(ts) => ts.write(mem, address, data),
        None => Ok(mem.write(address, data)?),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::etnaviv::gpu::memory::Buffers;

    fn gc2000_ts() -> TileStatus {
        TileStatus::for_core(
            Specs::from_name("gc2000").unwrap(),
            0x8000,
            0x1_0000,
            [0x1122_3344, 0x5566_7788],
            false,
        )
    }

    #[test]
    fn core_parameters_follow_the_feature_bits() {
        let ts = gc2000_ts();
        assert_eq!((ts.tile_bytes, ts.bits, ts.cleared_code), (64, 2, 1));
        let gc7000 = Specs::from_name("gc7000l").unwrap();
        let ts = TileStatus::for_core(gc7000, 0, 0, [0, 0], false);
        assert_eq!((ts.tile_bytes, ts.bits, ts.cleared_code), (128, 4, 0xf));
    }

    #[test]
    fn cleared_tiles_read_as_the_clear_pattern_and_writes_materialise_them() {
        let mut m = Buffers::new();
        // Tiles 0..16; the driver's fill word marks them all cleared, then tile 1 is marked
        // current by hand.
        m.map(0x8000, 0x5555_5551u32.to_le_bytes().to_vec());
        m.map(0x1_0000, vec![0xaa; 64 * 16]);
        let ts = gc2000_ts();
        let mut b = [0; 4];
        ts.read(&m, 0x1_0000 + 64 + 8, &mut b).unwrap();
        assert_eq!(b, [0xaa; 4], "tile 1 is current");
        ts.read(&m, 0x1_0000 + 4, &mut b).unwrap();
        assert_eq!(
            u32::from_le_bytes(b),
            0x5566_7788,
            "odd words take the high half"
        );
        ts.write(&mut m, 0x1_0000 + 8, &[1, 2, 3, 4]).unwrap();
        // Tile 0 now current: status bits 0-1 zero, its other words hold the clear value.
        assert_eq!(m.read_u32(0x8000).unwrap(), 0x5555_5550);
        assert_eq!(m.read_u32(0x1_0000).unwrap(), 0x1122_3344);
        assert_eq!(m.read_u32(0x1_0008).unwrap(), 0x0403_0201);
        assert_eq!(m.read_u32(0x1_003c).unwrap(), 0x5566_7788);
        // Tile 2 was untouched.
        assert_eq!(m.read_u32(0x1_0080).unwrap(), 0xaaaa_aaaa);
    }

    #[test]
    fn a_compressed_code_is_reported() {
        let mut m = Buffers::new();
        m.map(0x8000, 2u32.to_le_bytes().to_vec());
        m.map(0x1_0000, vec![0; 64]);
        let e = gc2000_ts().read(&m, 0x1_0000, &mut [0; 4]).unwrap_err();
        assert!(matches!(e, GpuError::Unmodelled(_)), "{e}");
    }
}
