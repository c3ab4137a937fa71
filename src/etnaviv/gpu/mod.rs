//! A simulated Vivante GPU: the 3D pipeline around the ISA simulator, driven by the command
//! streams Mesa's etnaviv driver submits.
//!
//! gpucc's own piglit runner shows the compiler agrees with its simulators; it cannot show that
//! a real driver, running a real test binary, gets the right pixels. This model executes what
//! the driver actually sends (through the executing drm-shim in the Mesa patch series, or a
//! stream built by hand in a test): the front end ([`front`]) writes states and starts draws
//! and engines, and the engines read their states from [`states::States`] and the buffers
//! through [`memory::Memory`].
//!
//! What the CPU never sees is free to differ from silicon as long as every engine agrees (the
//! inside of a supertile, the tile-status encoding); what the CPU writes or reads (linear and
//! 4×4-tiled buffers, vertex and index data, shader and uniform uploads) follows the layouts the
//! driver uses. State the model does not interpret and commands it does not know are counted and
//! reported by address ([`Report`]), never ignored silently.

pub mod blt;
pub mod capture;
pub mod draw;
mod error;
pub mod fragment;
pub mod front;
pub mod layout;
mod machine;
pub mod memory;
pub mod pe;
pub mod resolve;
pub mod states;
pub mod texture;

pub use error::GpuError;
pub use machine::{Draw, Gpu, Report};

use memory::Memory;

/// Every state range some engine interprets.
pub fn modelled_states() -> Vec<std::ops::Range<u32>> {
    [
        front::STATES,
        draw::STATES,
        pe::STATES,
        resolve::STATES,
        blt::STATES,
        texture::STATES,
    ]
    .concat()
}

impl Gpu {
    /// One GEM_SUBMIT: applies the relocations to a copy of the stream and executes it.
    /// A failure is also recorded in the report, since the driver that submitted cannot see it.
    pub fn submit(
        &mut self,
        mem: &mut dyn Memory,
        stream: &[u32],
        relocs: &[(usize, u32)],
    ) -> Result<(), GpuError> {
        self.report.submits += 1;
        let mut words = stream.to_vec();
        for &(dword, address) in relocs {
            match words.get_mut(dword) {
                Some(w) => *w = address,
                None => {
                    let e = GpuError::stream(dword * 4, "relocation past the end of the stream");
                    self.note_error(&e);
                    return Err(e);
                }
            }
        }
        let r = self.execute(mem, &words);
        if let Err(e) = &r {
            self.note_error(e);
        }
        r
    }

    /// Stores a state and starts the engine it kicks, if any.
    pub(crate) fn load_state(
        &mut self,
        mem: &mut dyn Memory,
        address: u32,
        value: u32,
    ) -> Result<(), GpuError> {
        self.states.set(draw::canonical_state(address), value);
        match address {
            resolve::RS_KICKER => self.resolve(mem),
            resolve::RS_KICKER_INPLACE => self.resolve_in_place(mem, value),
            blt::BLT_COMMAND => self.blt(mem, value),
            _ => Ok(()),
        }
    }

    /// The run's report as text: counts, then every unmodelled state by address.
    pub fn report_text(&self) -> String {
        use std::fmt::Write;
        let r = &self.report;
        let mut s = format!(
            "etnaviv gpu ({}): {} submits, {} draws\n",
            self.specs.name, r.submits, r.draws
        );
        for e in &r.errors {
            let _ = writeln!(s, "error: {e}");
        }
        for (op, n) in &r.unknown_commands {
            let _ = writeln!(s, "command not modelled: opcode {op} x{n}");
        }
        for (what, n) in &r.unmodelled {
            let _ = writeln!(s, "not modelled: {what} x{n}");
        }
        for (a, n) in self.states.unmodelled_writes(&modelled_states()) {
            let _ = writeln!(s, "state not modelled: 0x{a:05x} written x{n}");
        }
        s
    }
}
