//! `gpucc_etna_core` and `gpucc_compiler_create_etnaviv`: a Vivante target made from the values
//! the kernel reports for a core, as Mesa's etnaviv fills its `etna_specs`.

use super::compiler::Compiler;
use super::status::{guard, write_out, Error, Status};
use crate::etnaviv::specs::{CoreError, CoreParams, Specs};
use crate::target::Target;

/// A Vivante core as its kernel describes it: each field is the DRM_ETNAVIV_PARAM_GPU_*
/// parameter of the same name (what `etna_gpu_get_param` returns in Mesa's etnaviv, which keeps
/// the values in `etna_screen` and `etna_specs`). Fill it from those parameters, or from a
/// core's entry in the kernel's etnaviv_hwdb.c, and pass it to gpucc_compiler_create_etnaviv.
///
/// Size-prefixed: set `struct_size = sizeof(gpucc_etna_core)`. The fields after `num_constants`
/// describe the core but change no code gpucc emits; a struct that ends before one of them
/// (`struct_size` at least 76, the end of `num_constants`, and a multiple of 4) leaves it 0,
/// "not reported", which is how a caller built against an older header gets fields added
/// later. A larger struct (a newer header) is accepted when the bytes past this library's
/// struct are zero.
///
/// Values equal to a preset's, every field, give that preset (gpucc_compiler_target says
/// "gc2000"); any other values give a custom core named
/// "gc<model>-r<revision>-<fingerprint>": model and revision in lower-case hex, the fingerprint
/// eight hex digits of FNV-1a (32-bit) over the 22 value fields as little-endian uint32_t in
/// declaration order (a struct shorter than this one counting its missing fields as 0). The
/// name is the same in every process for the same values, and differs when any value does.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct EtnaCore {
    /// Set by the caller: `sizeof(gpucc_etna_core)` of the header it was built with.
    pub struct_size: u32,
    /// DRM_ETNAVIV_PARAM_GPU_MODEL (chipModel, 0x2000 for GC2000). Mesa's `screen->model`:
    /// decides the uniform split of GC1000 and early GC2000, GC400's lack of vertex samplers,
    /// and whether the shader range registers exist. Not 0.
    pub model: u32,
    /// DRM_ETNAVIV_PARAM_GPU_REVISION (chipRevision, 0x5108). Mesa's `screen->revision`: GC2000
    /// revisions 0x5118 and 0x5140 split their uniforms 256/64.
    pub revision: u32,
    /// DRM_ETNAVIV_PARAM_GPU_FEATURES_0..12: chipFeatures, then chipMinorFeatures0..11 (0 for
    /// words the kernel does not know). Mesa's `screen->features`, read with VIV_FEATURE into
    /// `etna_specs`: `halti` (the HALTI0-5 bits), `has_sin_cos_sqrt`, `has_sign_floor_ceil`,
    /// `has_new_transcendentals`, `has_halti2_instructions`, `has_no_oneconst_limit`, and
    /// `has_icache` (INSTRUCTION_CACHE, or HALTI5). `features[0]` must have PIPE_3D (0x4).
    pub features: [u32; 13],
    /// DRM_ETNAVIV_PARAM_GPU_REGISTER_MAX: temporaries per thread. Mesa's
    /// `etna_specs.max_registers`: a shader needing more is refused. gpucc allocates at most 64
    /// (Mesa's ETNA_MAX_TEMPS) whatever the value. Not 0.
    pub register_max: u32,
    /// DRM_ETNAVIV_PARAM_GPU_INSTRUCTION_COUNT: instruction memory. Mesa's
    /// `etna_specs.max_instructions` on cores without an instruction cache: above 256, a
    /// unified window of 256 per stage (states 0xC000/0xD000); otherwise this many (states
    /// 0x4000/0x6000). A longer program is refused there. Not 0.
    pub instruction_count: u32,
    /// DRM_ETNAVIV_PARAM_GPU_NUM_CONSTANTS: uniform vec4 slots. Mesa's
    /// `etna_specs.num_constants`, which `etna_determine_uniform_limits` splits into
    /// `max_vs_uniforms`/`max_ps_uniforms` (320: 256/64; 256 or more: 256/256; less: 168/64).
    /// 0 (an old kernel) is taken as 168, as Mesa does.
    pub num_constants: u32,
    /// DRM_ETNAVIV_PARAM_GPU_NUM_VARYINGS. Mesa's `etna_specs.max_varyings` (at least 16), a
    /// limit Mesa checks when linking; gpucc derives nothing from it.
    pub num_varyings: u32,
    /// DRM_ETNAVIV_PARAM_GPU_THREAD_COUNT. Mesa 23.3 does not keep it; gpucc derives nothing
    /// from it.
    pub thread_count: u32,
    /// DRM_ETNAVIV_PARAM_GPU_SHADER_CORE_COUNT. Mesa's `etna_specs.shader_core_count`, used for
    /// a vertex shader's VS_LOAD_BALANCING state, which gpucc does not compute.
    pub shader_core_count: u32,
    /// DRM_ETNAVIV_PARAM_GPU_PIXEL_PIPES. Mesa's `etna_specs.pixel_pipes` (resource layout and
    /// resolve); gpucc derives nothing from it.
    pub pixel_pipes: u32,
}

/// Bytes of the fields every `gpucc_etna_core` has (through `num_constants`).
const MIN_SIZE: usize = std::mem::offset_of!(EtnaCore, num_varyings);

const ENTRY: &str = "gpucc_compiler_create_etnaviv";

/// Creates a compiler for the Vivante core `core` describes (see gpucc_etna_core): the preset
/// when every value is a preset's, else a custom core the process keeps once per distinct set
/// of values (creating compilers for the same values again reuses it).
///
/// Errors: GPUCC_STATUS_INVALID_ARGUMENT for NULL, a `struct_size` this library cannot read,
/// or a value the compiler cannot target, naming the field ("core->register_max is 0: the core
/// would have no temporary registers"; model 0, features[0] without PIPE_3D, instruction_count
/// 0 likewise); GPUCC_STATUS_OUT_OF_MEMORY when the process already describes 1024 distinct
/// custom cores.
///
/// Thread safety: as gpucc_compiler_create; any thread may call it at any time.
#[no_mangle]
pub extern "C" fn gpucc_compiler_create_etnaviv(
    core: *const EtnaCore,
    out: *mut *mut Compiler,
) -> Status {
    guard(ENTRY, || {
        if out.is_null() {
            return Err(Error::invalid(format!("{ENTRY}: out is NULL")));
        }
        // SAFETY: `core` is NULL or, per the header, a struct whose first u32 is
        // `struct_size` with `struct_size` readable bytes.
        let specs = unsafe { specs_for(ENTRY, core) }?;
        write_out(out, Compiler::into_handle(Target::Etnaviv(specs)), "out")
    })
}

/// The specs of the core a caller's struct describes, for the entry point `entry`.
///
/// # Safety
/// As [`read_core`].
pub(super) unsafe fn specs_for(
    entry: &str,
    core: *const EtnaCore,
) -> Result<&'static Specs, Error> {
    // SAFETY: passed on from this function's contract.
    let params = unsafe { read_core(entry, core) }?;
    Specs::from_params(&params).map_err(|e| core_error(entry, &e))
}

/// The status and message of a refused core.
fn core_error(entry: &str, e: &CoreError) -> Error {
    match e {
        CoreError::Invalid { .. } => Error::invalid(format!("{entry}: core->{e}")),
        CoreError::TableFull => Error::new(Status::OutOfMemory, format!("{entry}: {e}")),
        CoreError::NameClash(_) => Error::new(Status::Internal, format!("{entry}: {e}")),
    }
}

/// Reads a caller's struct of any version into the core's values.
///
/// # Safety
/// `core` is NULL or points to a struct whose first u32 is `struct_size` and which has
/// `struct_size` readable bytes.
unsafe fn read_core(entry: &str, core: *const EtnaCore) -> Result<CoreParams, Error> {
    if core.is_null() {
        return Err(Error::invalid(format!("{entry}: core is NULL")));
    }
    // SAFETY: a non-NULL core starts with the caller-set struct_size (the contract above).
    let size = unsafe { core.cast::<u32>().read_unaligned() } as usize;
    let known = std::mem::size_of::<EtnaCore>();
    if size < MIN_SIZE || size % 4 != 0 {
        return Err(Error::invalid(format!(
            "{entry}: core->struct_size {size} is not the size of a gpucc_etna_core (a multiple \
             of 4, at least {MIN_SIZE} to hold model through num_constants; this library's is \
             {known})"
        )));
    }
    // SAFETY: the caller owns `size` readable bytes at `core`.
    let bytes = unsafe { std::slice::from_raw_parts(core.cast::<u8>(), size) };
    if let Some(at) = bytes.iter().skip(known).position(|&b| b != 0) {
        return Err(Error::invalid(format!(
            "{entry}: core->struct_size {size} is larger than this library's {known} and byte \
             {} beyond it is not zero (a field this library does not know)",
            known + at
        )));
    }
    let mut c = EtnaCore::default();
    let n = size.min(known);
    // SAFETY: `c` is a repr(C) struct of u32 fields, so any bytes are valid for it; the copy
    // writes its first `n <= size_of` bytes, whole fields since n is a multiple of 4.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), (&mut c as *mut EtnaCore).cast(), n) };
    Ok(CoreParams {
        model: c.model,
        revision: c.revision,
        features: c.features,
        register_max: c.register_max,
        instruction_count: c.instruction_count,
        num_constants: c.num_constants,
        num_varyings: c.num_varyings,
        thread_count: c.thread_count,
        shader_core_count: c.shader_core_count,
        pixel_pipes: c.pixel_pipes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C layout the header promises: 23 uint32_t, the fields in the values' order.
    #[test]
    fn layout() {
        assert_eq!(std::mem::size_of::<EtnaCore>(), 4 * (1 + CoreParams::WORDS));
        assert_eq!(MIN_SIZE, 76);
        assert_eq!(std::mem::offset_of!(EtnaCore, features), 12);
        assert_eq!(std::mem::offset_of!(EtnaCore, pixel_pipes), 88);
    }
}
