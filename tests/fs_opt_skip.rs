//! The optimizer skips a pass while the program is one the pass already found nothing to do
//! in (`opt::optimize_with`). That rests on two rules every pass must keep: a pass that reports
//! no progress leaves the program as it was, and one that found nothing finds nothing after
//! the renumbering between rounds. A pass breaking either would silently change what the
//! optimizer makes; here every corpus fragment shader is optimized with and without skipping,
//! at each width, and the two programs must be the same.

mod common;

use gpucc::intel::fs::{opt, pipeline};
use gpucc::intel::DevInfo;
use gpucc::nir;

#[test]
fn skipping_passes_changes_no_program() {
    for platform in ["ivb", "bdw"] {
        let Some(dir) = common::shared_path(&format!("corpus/nir/{platform}")) else {
            return;
        };
        let dev = DevInfo::from_name(platform).unwrap();
        let mut compared = 0;
        for f in common::files_with_suffix(&dir, ".fs.nir") {
            let shader = nir::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
            for width in [8, 16, 32] {
                let Ok(prepared) = pipeline::prepare(dev, &shader, width, pipeline::ASSIGN_PAYLOAD)
                else {
                    continue;
                };
                let mut skipped = prepared.prog;
                let mut full = skipped.clone();
                opt::optimize(&mut skipped, opt::Level::Full);
                opt::optimize_without_skipping(&mut full, opt::Level::Full);
                assert!(
                    skipped.insts == full.insts && skipped.vgrf_sizes == full.vgrf_sizes,
                    "{platform} SIMD{width} {}: skipping passes changed the program",
                    f.display()
                );
                compared += 1;
            }
        }
        // Every fragment shader at SIMD8 and SIMD16 at least.
        assert!(
            compared >= 2 * 580,
            "{platform}: {compared} programs compared"
        );
    }
}
