//! Intel scalar-backend helpers for tests that compile hand-written NIR.

use gpucc::intel::fs::{verify, Context, Options, VerifyOutcome};
use gpucc::intel::DevInfo;
use gpucc::nir;

/// The platforms the backend is verified on.
pub const PLATFORMS: [&str; 3] = ["ivb", "hsw", "bdw"];

/// Compiles `text` for platform `p` at one SIMD width and returns Mesa-syntax assembly.
pub fn asm(p: &str, text: &str, simd: u32) -> String {
    let shader = nir::parse(text).expect("shader parses");
    let dev = DevInfo::from_name(p).unwrap();
    let k = Context::new(dev)
        .compile(&shader, &Options::widths(&[simd]))
        .unwrap_or_else(|e| panic!("{p}: {e}"));
    k.disassemble(dev)
}

/// Asserts that `text` runs on the simulator as on the reference interpreter on every
/// platform of [`PLATFORMS`], SIMD8 and SIMD16.
pub fn passes_everywhere(text: &str) {
    let shader = nir::parse(text).expect("shader parses");
    for p in PLATFORMS {
        let ctx = Context::new(DevInfo::from_name(p).unwrap());
        for simd in [8, 16] {
            assert_eq!(
                verify(&ctx, &shader, simd),
                VerifyOutcome::Pass,
                "{p} SIMD{simd}"
            );
        }
    }
}
