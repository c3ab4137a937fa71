//! Submissions saved to files, so the pipeline can be developed and tested on what the driver
//! really sent without running the driver again.
//!
//! With `GPUCC_ETNA_GPU_CAPTURE=DIR`, the C entry point writes each submission before
//! executing it to `DIR/submit-NNNNN.bin`: the stream with relocations applied and every
//! buffer of the submission with its address and contents at submit time. [`Capture::replay`]
//! runs one on a fresh memory built from those buffers.
//!
//! Format (little-endian): the 8 bytes `GPUCCSUB`, u32 stream dword count, the dwords, u32
//! buffer count, then per buffer u32 GPU address, u32 size and the bytes. The sparse form
//! (`GPUCCSPS`, [`Capture::write_sparse_to`]) stores per buffer, instead of the bytes, a u32
//! count of runs and each run as u32 offset, u32 length and its bytes, leaving out the
//! 64-byte blocks that are zero: a recording small enough to keep in the repository.

use std::io::{self, Read, Write};

use super::memory::{Buffers, Memory};

const MAGIC: &[u8; 8] = b"GPUCCSUB";
const MAGIC_SPARSE: &[u8; 8] = b"GPUCCSPS";

/// Granularity of the sparse form's runs.
const BLOCK: usize = 64;

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

    /// The sparse form: only the non-zero 64-byte blocks of each buffer.
    pub fn write_sparse_to(&self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(MAGIC_SPARSE)?;
        w.write_all(&(self.stream.len() as u32).to_le_bytes())?;
        for v in &self.stream {
            w.write_all(&v.to_le_bytes())?;
        }
        w.write_all(&(self.buffers.len() as u32).to_le_bytes())?;
        for (a, d) in &self.buffers {
            w.write_all(&a.to_le_bytes())?;
            w.write_all(&(d.len() as u32).to_le_bytes())?;
            let runs = nonzero_runs(d);
            w.write_all(&(runs.len() as u32).to_le_bytes())?;
            for (off, len) in runs {
                w.write_all(&(off as u32).to_le_bytes())?;
                w.write_all(&(len as u32).to_le_bytes())?;
                w.write_all(&d[off..off + len])?;
            }
        }
        Ok(())
    }

    /// Reads either form.
    pub fn read_from(r: &mut impl Read) -> io::Result<Capture> {
        let mut magic = [0; 8];
        r.read_exact(&mut magic)?;
        let sparse = &magic == MAGIC_SPARSE;
        if &magic != MAGIC && !sparse {
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
            if sparse {
                for _ in 0..u32_of(r)? {
                    let (off, len) = (u32_of(r)? as usize, u32_of(r)? as usize);
                    let run = d.get_mut(off..off + len).ok_or_else(|| {
                        io::Error::new(io::ErrorKind::InvalidData, "a run past its buffer's end")
                    })?;
                    r.read_exact(run)?;
                }
            } else {
                r.read_exact(&mut d)?;
            }
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

/// (offset, length) of the runs of `BLOCK`-byte blocks that hold a non-zero byte.
fn nonzero_runs(d: &[u8]) -> Vec<(usize, usize)> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, block) in d.chunks(BLOCK).enumerate() {
        if block.iter().all(|&b| b == 0) {
            continue;
        }
        let off = i * BLOCK;
        match runs.last_mut() {
            Some((o, l)) if *o + *l == off => *l += block.len(),
            _ => runs.push((off, block.len())),
        }
    }
    runs
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

    #[test]
    fn the_sparse_form_keeps_every_non_zero_byte() {
        let mut big = vec![0u8; 1000];
        big[3] = 1;
        big[64] = 2; // the next block: one run with the first
        big[999] = 3; // a last, short block
        let c = Capture {
            stream: vec![1, 2],
            buffers: vec![(0x4000, big.clone()), (0x9000, vec![0; 128])],
        };
        let mut bytes = Vec::new();
        c.write_sparse_to(&mut bytes).unwrap();
        // Magic 8, stream 4 + 8, buffer count 4; the first buffer 8 + run count 4 + two runs
        // (8 + 128 and 8 + 40); the zero buffer 8 + 4.
        assert_eq!(bytes.len(), 8 + 12 + 4 + 12 + 136 + 48 + 12);
        let back = Capture::read_from(&mut bytes.as_slice()).unwrap();
        assert_eq!(back.buffers, c.buffers);
        assert_eq!(nonzero_runs(&big), vec![(0, 128), (960, 40)]);
    }
}
