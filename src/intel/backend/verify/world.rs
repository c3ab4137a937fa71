//! The world both sides of a check see, and how their results compare: the input sets'
//! uniform buffers, constant data and SSBO contents, the probe value of undefined reads,
//! the tolerance of inexact math, and what a simulator error means as a verdict. The
//! fragment, compute ([`super`]) and vertex ([`super::vertex`]) runners share it.

use crate::intel::kernel::Kernel;
use crate::nir::{self, interp, InstrKind, Intrinsic};
use crate::verify::VerifyOutcome;

/// Allowed difference, in units in the last place, where hardware math is involved.
pub const MATH_ULPS: u32 = 64;

/// Size of every UBO read with pull constants, in bytes (reads beyond it return zero on both
/// sides).
pub const PULL_UBO_BYTES: usize = 4096;

/// Number of input sets.
pub const INPUT_SETS: usize = 3;

/// Bytes of every SSBO a compute shader is checked with.
pub const SSBO_BYTES: usize = 4096;

/// GPU address where the checks place a shader's constant data: below 4 GiB, as iris
/// places it (shaders zero-extend the 32-bit `CONST_DATA_ADDR_LOW` relocation), and not
/// zero, so a relocation left unpatched or patched with the wrong half reads unmapped memory.
pub const CONSTANT_DATA_ADDRESS: u64 = 0x1234_5000;

/// Synthetic constant data of `size` bytes for input set `set`: nir_print gives only the
/// size, so both sides read this pattern of small dyadic floats instead of the real bytes.
pub fn constant_data(set: usize, size: u32) -> Vec<u8> {
    (0..size.div_ceil(4))
        .flat_map(|d| {
            let n = (d * 29 + set as u32 * 7) % 31;
            (n as f32 * 0.25 - 3.0).to_bits().to_le_bytes()
        })
        .take(size as usize)
        .collect()
}

/// Bytes mapped after the constant data: Gen9 block loads of constant data read whole
/// 8-dword blocks (as brw emits them), up to 28 bytes past the last dword a shader uses, so
/// a driver must leave that much readable after it (iris uploads the constant data inside
/// the shader's buffer). The checks fill it with a pattern no shader may depend on.
pub const CONSTANT_DATA_TAIL: usize = 32;

/// What the checks map at [`CONSTANT_DATA_ADDRESS`]: the constant data, then
/// [`CONSTANT_DATA_TAIL`] bytes of 0xdeadbeef.
pub(super) fn constant_data_mapping(data: &[u8]) -> Vec<u8> {
    let mut m = data.to_vec();
    m.extend((0..CONSTANT_DATA_TAIL / 4).flat_map(|_| 0xdead_beef_u32.to_le_bytes()));
    m
}

/// The code of `variant` with its relocations patched for constant data at
/// [`CONSTANT_DATA_ADDRESS`].
pub(super) fn relocated_variant(
    kernel: &Kernel,
    variant: &crate::intel::kernel::SimdKernel,
) -> Result<Vec<u8>, VerifyOutcome> {
    use crate::intel::kernel::{RELOC_CONST_DATA_ADDR_HIGH, RELOC_CONST_DATA_ADDR_LOW};
    let values = [
        (RELOC_CONST_DATA_ADDR_LOW, CONSTANT_DATA_ADDRESS as u32),
        (
            RELOC_CONST_DATA_ADDR_HIGH,
            (CONSTANT_DATA_ADDRESS >> 32) as u32,
        ),
    ];
    let code = kernel
        .relocated_code(&values)
        .map_err(|e| VerifyOutcome::Unsupported(format!("relocations: {e}")))?;
    Ok(code[variant.offset as usize..(variant.offset + variant.size) as usize].to_vec())
}

/// SSBO `block`'s initial contents in input set `set`: small distinct integers.
pub(super) fn ssbo_init(set: usize, block: usize) -> Vec<u8> {
    (0..SSBO_BYTES / 4)
        .flat_map(|d| ((d * 7 + block * 1000 + set * 13 + 3) as u32 % 251).to_le_bytes())
        .collect()
}

/// The number of SSBO blocks a shader names (constant block indices) and whether it has a
/// workgroup (execution) barrier.
pub(super) fn compute_resources(shader: &nir::Shader) -> Result<(usize, bool), VerifyOutcome> {
    let Some(imp) = shader.entry() else {
        return Ok((0, false));
    };
    let (mut blocks, mut barrier) = (0usize, false);
    for ins in &imp.instrs {
        let InstrKind::Intrinsic(i) = &ins.kind else {
            continue;
        };
        let name = i.intrinsic.name();
        let block_src = match i.intrinsic {
            Intrinsic::LoadSsbo
            | Intrinsic::SsboAtomic
            | Intrinsic::SsboAtomicSwap
            | Intrinsic::GetSsboSize => Some(0),
            Intrinsic::StoreSsbo => Some(1),
            _ => None,
        };
        if let Some(k) = block_src {
            let b = i
                .srcs
                .get(k)
                .and_then(|&id| imp.const_value(id))
                .and_then(|v| v.first().copied())
                .ok_or_else(|| {
                    VerifyOutcome::Unsupported(format!("{name} with a non-constant block"))
                })?;
            blocks = blocks.max(b as usize + 1);
        }
        if i.intrinsic == Intrinsic::Barrier
            && matches!(i.index(nir::IndexKind::ExecutionScope),
                Some(nir::IndexValue::Text(t)) if !t.ends_with("NONE") && !t.ends_with("none"))
        {
            barrier = true;
        }
    }
    Ok((blocks, barrier))
}

/// A simulator error as a verdict: a feature the simulator lacks makes the check
/// unsupported; anything else is a failed run.
pub(super) fn sim_error(e: crate::intel::sim::SimError) -> VerifyOutcome {
    if e.is_unsupported() {
        VerifyOutcome::Unsupported(format!("simulator: {e}"))
    } else {
        VerifyOutcome::Fail {
            invocation: 0,
            output: "(simulator)".into(),
            expected: "a run".into(),
            got: e.to_string(),
        }
    }
}

/// The undefined-value bits of the second interpreter run (0.25): an output that changes
/// with them depends on a value no path defined (a register read before any write on some
/// path), and the hardware may hold anything there, so it is not compared.
pub(super) const UNDEFINED_PROBE: u64 = 0x3e80_0000;

/// The interpreter's run of `env`, then a second with [`UNDEFINED_PROBE`] in undefined
/// values (left in `env`): what differs between the two depends on a value no path defined
/// (an output left unwritten on some path) and is not compared.
pub(super) fn run_and_probe(
    shader: &nir::Shader,
    env: &mut interp::Environment,
    n: usize,
) -> Result<(interp::RunResult, interp::RunResult), VerifyOutcome> {
    let interpreter =
        |e: interp::InterpError| VerifyOutcome::Unsupported(format!("interpreter: {e}"));
    let expected = interp::run(shader, env, n).map_err(interpreter)?;
    env.undefined_bits = UNDEFINED_PROBE;
    let probe = interp::run(shader, env, n).map_err(interpreter)?;
    Ok((expected, probe))
}

/// Whether `shader` can read a value no instruction wrote: an `undef`, a NIR register
/// (whose load may come before every store on some path), or an integer division (by zero,
/// undefined). Only such shaders need the second interpreter run of [`UNDEFINED_PROBE`].
pub(super) fn may_read_undefined(shader: &nir::Shader) -> bool {
    shader
        .functions
        .iter()
        .filter_map(|f| f.body.as_ref())
        .any(|b| {
            b.instrs.iter().any(|i| match &i.kind {
                InstrKind::Undef(_) => true,
                InstrKind::Intrinsic(x) => x.intrinsic == nir::Intrinsic::DeclReg,
                InstrKind::Alu(a) => interp::is_division(a.op),
                _ => false,
            })
        })
}

/// Dword `dword` of UBO `block` in input set `set`: small dyadic floats, different per set,
/// exact in every format the shaders read. Sets from [`INPUT_SETS`] on (the retries of
/// [`verify_kernel`]) hold small integers instead.
pub(super) fn ubo_dword(set: usize, block: u32, dword: u32) -> u32 {
    // Wrapping: only the pattern matters, and offsets near 4 GiB must not overflow.
    let n = dword
        .wrapping_mul(37)
        .wrapping_add(block.wrapping_mul(5))
        .wrapping_add(set as u32 * 11)
        % 23;
    if set >= INPUT_SETS {
        return n % 5;
    }
    (n as f32 * 0.125 - 1.0).to_bits()
}

pub(super) fn close(a: u32, b: u32, inexact: bool) -> bool {
    if a == b {
        return true;
    }
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    if fa.is_nan() && fb.is_nan() {
        return true;
    }
    if !inexact {
        return false;
    }
    if (fa - fb).abs() <= 1e-6 {
        return true;
    }
    let ulps = (a as i32).wrapping_sub(b as i32).unsigned_abs();
    (a >> 31) == (b >> 31) && ulps <= MATH_ULPS
}

/// The most UBO or constant data bytes the checks build for one shader (each input set
/// holds a copy on both sides): a push constant past it, or more constant data, is not
/// checked, rather than allocated.
pub const MAX_CHECKED_DATA_BYTES: usize = 1 << 20;

/// Why `kernel` needs more memory than [`MAX_CHECKED_DATA_BYTES`] to check, if it does.
pub(super) fn too_large_to_check(kernel: &Kernel) -> Option<String> {
    if kernel.constant_data_size as usize > MAX_CHECKED_DATA_BYTES {
        return Some(format!(
            "{} bytes of constant data (verification builds at most {MAX_CHECKED_DATA_BYTES})",
            kernel.constant_data_size
        ));
    }
    let far = kernel
        .push_constants
        .iter()
        .find(|&&(_, offset)| offset as usize >= MAX_CHECKED_DATA_BYTES)?;
    Some(format!(
        "push constant at UBO {} byte {} (verification builds at most \
         {MAX_CHECKED_DATA_BYTES} bytes per UBO)",
        far.0, far.1
    ))
}

/// The uniform buffers of input set `set`: every block the kernel pushes from, large
/// enough for its pushed dwords, and every block it pulls from, [`PULL_UBO_BYTES`] long,
/// filled with [`ubo_dword`] patterns.
pub(super) fn uniform_buffers(kernel: &Kernel, set: usize) -> Vec<Vec<u8>> {
    let mut ubos: Vec<Vec<u8>> = Vec::new();
    for &(block, offset) in &kernel.push_constants {
        let b = block as usize;
        if ubos.len() <= b {
            ubos.resize(b + 1, Vec::new());
        }
        let need = offset as usize + 4;
        if ubos[b].len() < need {
            ubos[b].resize(need.next_multiple_of(16), 0);
        }
    }
    for &b in &kernel.pull_constant_blocks {
        let b = b as usize;
        if ubos.len() <= b {
            ubos.resize(b + 1, Vec::new());
        }
        let len = ubos[b].len().max(PULL_UBO_BYTES);
        ubos[b].resize(len, 0);
    }
    for (b, bytes) in ubos.iter_mut().enumerate() {
        for (d, chunk) in bytes.chunks_mut(4).enumerate() {
            chunk.copy_from_slice(&ubo_dword(set, b as u32, d as u32).to_le_bytes());
        }
    }
    ubos
}

/// The number of coordinates each texture takes, from the NIR's texture instructions (the
/// coordinate source's components): Gen4–6 sampler messages carry their coordinates in fixed
/// slots the hardware reads only as far as the surface's dimensions, and the simulator has no
/// surface types (see `sim::send_gen4`). Gen7+ messages carry exactly their coordinates.
pub(super) fn texture_coordinate_counts(
    shader: &nir::Shader,
) -> std::collections::BTreeMap<u32, usize> {
    let mut out = std::collections::BTreeMap::new();
    let Some(imp) = shader.entry() else {
        return out;
    };
    for ins in &imp.instrs {
        let nir::InstrKind::Tex(t) = &ins.kind else {
            continue;
        };
        let (Some(texture), Some(&(_, coord))) = (
            t.texture_index,
            t.srcs.iter().find(|(s, _)| *s == nir::tex::TexSrc::Coord),
        ) else {
            continue;
        };
        if let Some(d) = imp.def(coord) {
            out.insert(texture, d.num_components as usize);
        }
    }
    out
}

/// The first dword where the SSBOs the simulated threads left (`got`) differ from the
/// interpreter's (`want`), as a failure naming block and dword.
pub(super) fn compare_ssbos(
    want: &[Vec<u8>],
    got: &[Vec<u8>],
    set: usize,
) -> Option<VerifyOutcome> {
    let word = |v: &[u8], d: usize| {
        v.get(4 * d..4 * d + 4)
            .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    };
    want.iter()
        .zip(got)
        .enumerate()
        .find_map(|(b, (want, got))| {
            let d = (0..want.len() / 4).find(|&d| word(want, d) != word(got, d))?;
            Some(VerifyOutcome::Fail {
                invocation: 0,
                output: format!("SSBO {b} dword {d} (set {set})"),
                expected: format!("{:#010x}", word(want, d)),
                got: format!("{:#010x}", word(got, d)),
            })
        })
}
