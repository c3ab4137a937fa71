//! A fragment shader that writes no colour still ends with a render-target write (the thread
//! must end), but its colour is undefined, so the payload is not filled: Mesa 23.3 emits
//! the single SEND for such shaders (shader-db tesseract 18, 264-270, sauerbraten 11).

mod common;

use common::intel_fs::{asm, passes_everywhere};

const EMPTY: &str = "shader: MESA_SHADER_FRAGMENT\nname: no-output\ninputs: 0\noutputs: 0\n\
uniforms: 0\ndecl_function main (0 params)\n\nimpl main {\n    block b0:  // preds:\n    \
// succs: b1\n    block b1:\n}\n";

#[test]
fn a_shader_without_outputs_is_one_render_target_write() {
    passes_everywhere(EMPTY);
    for p in ["ivb", "hsw", "bdw"] {
        for simd in [8, 16] {
            let text = asm(p, EMPTY, simd);
            let lines: Vec<&str> = text
                .lines()
                .filter(|l| !l.starts_with(' ') && !l.is_empty() && !l.starts_with("SIMD"))
                .collect();
            assert_eq!(lines.len(), 1, "{p} SIMD{simd}:\n{text}");
            assert!(lines[0].starts_with("sendc"), "{p} SIMD{simd}:\n{text}");
        }
    }
}
