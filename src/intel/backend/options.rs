//! The options of one Intel compile, read by the layer (widths), by both backends (what to
//! print, validation, optimization, the binding model) and by the scalar translator (the
//! previous stage's VUE slots).

use crate::debug;
use crate::intel::backend::binding::BindingModel;

/// Compile options.
#[derive(Debug, Clone)]
pub struct Options {
    /// Dispatch widths to try (8, 16, 32); a width not listed is never built. SIMD32
    /// (fragment shaders only) is tried and kept as Mesa's `brw_compile_fs` decides.
    pub simd: Vec<u32>,
    /// What to print while compiling (`GPUCC_DEBUG` by default).
    pub debug: debug::Flags,
    /// Validate the IR after every pass (on in debug builds and with `GPUCC_DEBUG=validate`).
    pub validate: bool,
    /// Run the optimization passes (off only to measure what they gain).
    pub optimize: bool,
    /// Where surfaces sit and how uniform data is pushed.
    pub binding: BindingModel,
    /// Fragment: the previous stage's VUE map `slots_valid` (the key's `input_slots_valid`),
    /// which lays out more than 16 inputs as brw's `calculate_urb_setup` does.
    pub input_slots_valid: Option<u64>,
    /// Tessellation control: the input patch's vertices (the key's `tcs_input_vertices`),
    /// whose URB handles a Gen7 program releases; None takes the output vertex count.
    pub tcs_input_vertices: Option<u32>,
}

impl Default for Options {
    fn default() -> Options {
        Options::widths(&[8, 16, 32])
    }
}

impl Options {
    /// Options compiling exactly the given widths, with the process's `GPUCC_DEBUG` flags.
    pub fn widths(simd: &[u32]) -> Options {
        Options {
            simd: simd.to_vec(),
            debug: debug::flags(),
            validate: debug::validate_by_default(),
            optimize: true,
            binding: Default::default(),
            input_slots_valid: None,
            tcs_input_vertices: None,
        }
    }

    /// The same options with the IR validated after every pass (what tests ask for).
    pub fn validating(mut self) -> Options {
        self.validate = true;
        self
    }
}
