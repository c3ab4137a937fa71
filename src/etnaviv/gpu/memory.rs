//! What the simulated GPU sees of memory: buffer objects at GPU addresses.
//!
//! The GPU reaches only the buffers a submission lists (the kernel maps exactly those into the
//! core's MMU), each at the address the kernel or the driver (softpin) gave it. Every access
//! names a GPU address and a length; an access outside every buffer is a fault, which the
//! model reports with the address rather than reading or writing anything.

use std::fmt;

/// An access outside every mapped buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub address: u32,
    pub len: usize,
    pub write: bool,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let what = if self.write { "write" } else { "read" };
        write!(
            f,
            "MMU fault: {what} of {} bytes at 0x{:08x} is outside every buffer of the submission",
            self.len, self.address
        )
    }
}

/// GPU-visible memory.
pub trait Memory {
    fn read(&self, address: u32, out: &mut [u8]) -> Result<(), Fault>;
    fn write(&mut self, address: u32, data: &[u8]) -> Result<(), Fault>;

    fn read_u32(&self, address: u32) -> Result<u32, Fault> {
        let mut b = [0; 4];
        self.read(address, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn write_u32(&mut self, address: u32, value: u32) -> Result<(), Fault> {
        self.write(address, &value.to_le_bytes())
    }

    /// Every buffer as (GPU address, size), sorted by address: what a shader's LOAD can reach.
    fn buffers(&self) -> Vec<(u32, usize)>;

    /// A copy of every buffer, for shaders that LOAD through addresses in their uniforms.
    fn snapshot(&self) -> Vec<(u64, Vec<u8>)> {
        self.buffers()
            .into_iter()
            .filter_map(|(a, size)| {
                let mut d = vec![0; size];
                self.read(a, &mut d).ok().map(|_| (u64::from(a), d))
            })
            .collect()
    }
}

/// Buffers owned by the model: what tests and the command line use.
#[derive(Clone, Debug, Default)]
pub struct Buffers {
    /// (GPU address, contents), sorted by address, not overlapping.
    bufs: Vec<(u32, Vec<u8>)>,
}

impl Buffers {
    pub fn new() -> Buffers {
        Buffers::default()
    }

    /// Maps `data` at `address`. Panics when it overlaps a mapped buffer: that is a bug in the
    /// caller's address plan, not a GPU condition.
    pub fn map(&mut self, address: u32, data: Vec<u8>) {
        let end = address as u64 + data.len() as u64;
        assert!(end <= 1 << 32, "buffer at 0x{address:08x} ends past 4 GiB");
        for (a, d) in &self.bufs {
            let e = *a as u64 + d.len() as u64;
            assert!(
                end <= *a as u64 || e <= address as u64,
                "buffer at 0x{address:08x} overlaps the one at 0x{a:08x}"
            );
        }
        let at = self.bufs.partition_point(|(a, _)| *a < address);
        self.bufs.insert(at, (address, data));
    }

    /// The contents of the buffer mapped at exactly `address`.
    pub fn get(&self, address: u32) -> Option<&[u8]> {
        self.bufs
            .iter()
            .find(|(a, _)| *a == address)
            .map(|(_, d)| d.as_slice())
    }

    fn find(&self, address: u32, len: usize) -> Option<(usize, usize)> {
        let i = self
            .bufs
            .partition_point(|(a, _)| *a <= address)
            .checked_sub(1)?;
        let (base, data) = &self.bufs[i];
        let off = (address - base) as usize;
        (off + len <= data.len()).then_some((i, off))
    }
}

impl Memory for Buffers {
    fn buffers(&self) -> Vec<(u32, usize)> {
        self.bufs.iter().map(|(a, d)| (*a, d.len())).collect()
    }

    fn read(&self, address: u32, out: &mut [u8]) -> Result<(), Fault> {
        let fault = Fault {
            address,
            len: out.len(),
            write: false,
        };
        let (i, off) = self.find(address, out.len()).ok_or(fault)?;
        out.copy_from_slice(&self.bufs[i].1[off..off + out.len()]);
        Ok(())
    }

    fn write(&mut self, address: u32, data: &[u8]) -> Result<(), Fault> {
        let fault = Fault {
            address,
            len: data.len(),
            write: true,
        };
        let (i, off) = self.find(address, data.len()).ok_or(fault)?;
        self.bufs[i].1[off..off + data.len()].copy_from_slice(data);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accesses_inside_a_buffer_only() {
        let mut m = Buffers::new();
        m.map(0x1000, vec![0; 16]);
        m.map(0x3000, vec![0; 8]);
        m.write_u32(0x100c, 0xdead_beef).unwrap();
        assert_eq!(m.read_u32(0x100c).unwrap(), 0xdead_beef);
        // Straddling the end of the first buffer.
        assert_eq!(
            m.read_u32(0x100e),
            Err(Fault {
                address: 0x100e,
                len: 4,
                write: false
            })
        );
        // Between buffers, and below the first.
        assert!(m.write_u32(0x2000, 1).is_err());
        assert!(m.read_u32(0x0ffc).is_err());
        assert_eq!(m.read_u32(0x3004).unwrap(), 0);
    }
}
