//! Bounds on the sizes a shader's header declares, checked before a compile starts: the
//! header is input, and a fuzzed `constants: 4000000000` once made verification build 8 GB
//! of constant data. Past a bound the compile fails with [`CompileError::Limit`] naming the
//! header line, which the C ABI reports as `GPUCC_STATUS_INVALID_ARGUMENT`.

use crate::nir;

use super::CompileError;

/// The most constant data (`constants:`, bytes) a shader may declare: 1 GiB. Mesa appends a
/// shader's constant data to its code, and the instruction pool that holds both in Mesa's
/// Gen7/Gen8 Vulkan driver (hasvk's `INSTRUCTION_STATE_POOL`) spans 1 GiB.
pub const MAX_CONSTANT_DATA_BYTES: u32 = 1 << 30;

/// The largest default uniform block (`uniforms:`, bytes, as brw counts them) a shader may
/// declare: 64 KiB, the 16K floats of constant buffer 0 that iris and crocus advertise
/// (`PIPE_SHADER_CAP_MAX_CONST_BUFFER0_SIZE`). The scalar backend reads uniforms through
/// UBOs, so the count is otherwise unused; a larger one is not a shader Mesa could hand over.
pub const MAX_UNIFORM_BYTES: u32 = 64 * 1024;

/// Checks the sizes `shader`'s header declares against the bounds above.
pub fn check_header(shader: &nir::Shader) -> Result<(), CompileError> {
    let info = &shader.info;
    if info.constant_data_size > MAX_CONSTANT_DATA_BYTES {
        return Err(CompileError::Limit(format!(
            "constants: {} bytes of constant data exceed the {MAX_CONSTANT_DATA_BYTES} the \
             instruction pool holds",
            info.constant_data_size
        )));
    }
    if info.num_uniforms > MAX_UNIFORM_BYTES {
        return Err(CompileError::Limit(format!(
            "uniforms: {} bytes of default uniforms exceed the {MAX_UNIFORM_BYTES} of constant \
             buffer 0",
            info.num_uniforms
        )));
    }
    Ok(())
}
