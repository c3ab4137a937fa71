//! Submissions saved to files, so the pipeline can be developed and tested on what the driver
//! really sent without running the driver again.
//!
//! With `GPUCC_ETNA_GPU_CAPTURE=DIR`, the C entry point writes each submission before
//! executing it to `DIR/submit-NNNNN.bin`: the stream with relocations applied and every
//! buffer of the submission with its address and contents at submit time. [`Capture::replay`]
//! runs one on a fresh memory built from those buffers.
//!
//! Format (little-endian): the 8 bytes `GPUCCSUB`, u32 stream dword count, the dwords, u32
//! buffer count, then per buffer u32 GPU address, u32 size and the bytes.

use std::io::{self, Read, Write};

use super::memory::{Buffers, Memory};

const MAGIC: &[u8; 8] = b"GPUCCSUB";

/// One submission as captured.
#[derive(Clone, Debug, Default)]
pub struct Capture {
    pub stream: Vec<u32>,
    pub buffers: Vec<(u32, Vec<u8>)>,
}

impl Capture {
    pub fn write_to(&self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(MAGIC)?;
        w.write_all(&(self.stream.len() as u32).to_le_bytes())?;
        for v in &self.stream {
            w.write_all(&v.to_le_bytes())?;
        }
        w.write_all(&(self.buffers.len() as u32).to_le_bytes())?;
        for (a, d) in &self.buffers {
            w.write_all(&a.to_le_bytes())?;
            w.write_all(&(d.len() as u32).to_le_bytes())?;
            w.write_all(d)?;
        }
        Ok(())
    }

    pub fn read_from(r: &mut impl Read) -> io::Result<Capture> {
        let mut magic = [0; 8];
        r.read_exact(&mut magic)?;
        if &magic != MAGIC {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "not a gpucc submission capture",
            ));
        }
        let u32_of = |r: &mut dyn Read| -> io::Result<u32> {
            let mut b = [0; 4];
            r.read_exact(&mut b)?;
            Ok(u32::from_le_bytes(b))
        };
        let n = u32_of(r)? as usize;
        let stream = (0..n).map(|_| u32_of(r)).collect::<io::Result<Vec<_>>>()?;
        let nb = u32_of(r)? as usize;
        let mut buffers = Vec::with_capacity(nb);
        for _ in 0..nb {
            let a = u32_of(r)?;
            let size = u32_of(r)? as usize;
            let mut d = vec![0; size];
            r.read_exact(&mut d)?;
            buffers.push((a, d));
        }
        Ok(Capture { stream, buffers })
    }

    /// The captured buffers as a memory of their own.
    pub fn memory(&self) -> Buffers {
        let mut m = Buffers::new();
        for (a, d) in &self.buffers {
            m.map(*a, d.clone());
        }
        m
    }

    /// Reads every buffer of a submission from `mem` (which must hold them all).
    pub fn take(stream: &[u32], mem: &dyn Memory, buffers: &[(u32, usize)]) -> Capture {
        let buffers = buffers
            .iter()
            .map(|&(a, size)| {
                let mut d = vec![0; size];
                // A buffer the memory cannot read is captured as zeros; the replay then
                // differs, which is visible, rather than the capture failing the submission.
                let _ = mem.read(a, &mut d);
                (a, d)
            })
            .collect();
        Capture {
            stream: stream.to_vec(),
            buffers,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_reads_back_as_written() {
        let c = Capture {
            stream: vec![0x0801_0280, 7],
            buffers: vec![(0x1000, vec![1, 2, 3, 4]), (0x8000, vec![9; 12])],
        };
        let mut bytes = Vec::new();
        c.write_to(&mut bytes).unwrap();
        let back = Capture::read_from(&mut bytes.as_slice()).unwrap();
        assert_eq!(back.stream, c.stream);
        assert_eq!(back.buffers, c.buffers);
        assert_eq!(back.memory().read_u32(0x8008).unwrap(), 0x0909_0909);
        assert!(Capture::read_from(&mut &b"GPUCCSUX"[..]).is_err());
    }
}
