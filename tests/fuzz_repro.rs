//! The inputs in `shared/fuzz-repro` that once crashed or aborted the library, each run the way
//! the fuzzer ran it; every one must now end in a clean error. Issue 24 adds the rest of the
//! directory here as each is fixed; the hand-written equivalents sit beside the code they test
//! (tests/etnabe_unit.rs `uniform_slots_past_the_file_are_a_limit`).

mod common;

use gpucc::compiler::{CompileError, CompileOptions, Compiler};

/// Shaders whose uniform header or `load_uniform` base made the etnaviv translator allocate
/// gigabytes and abort: on every core they are now a uniform-file limit.
#[test]
fn etnaviv_uniform_abort_inputs_are_limits() {
    for name in ["etna-uniforms-header.nir", "etna-load-uniform-base.nir"] {
        let Some(path) = common::shared_path(&format!("fuzz-repro/{name}")) else {
            return;
        };
        let shader = gpucc::nir::parse(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for target in ["gc2000", "gc3000", "gc7000"] {
            let err = Compiler::new(target)
                .unwrap()
                .compile(&shader, &CompileOptions::default())
                .unwrap_err();
            assert!(
                matches!(&err, CompileError::Limit(m) if m.contains("uniform slot")),
                "{name} on {target}: {err}"
            );
        }
    }
}
