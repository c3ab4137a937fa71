//! Helpers of the etnaviv backend tests: a fragment shader around a test's body, the
//! program as disassembly lines, and compiling with the check against the interpreter.

use gpucc::etnaviv::compiler::{verify, Context, Options, VerifyOutcome};
use gpucc::etnaviv::isa::disasm::disassemble_inst;
use gpucc::etnaviv::isa::inst::Inst;
use gpucc::etnaviv::shader::ShaderObject;
use gpucc::etnaviv::specs::Specs;

/// `head` (the declarations and the first instructions of block b0), then `body`, then the
/// store of `%98` to gl_FragColor in the last block `b{end}`, which `body` may open blocks
/// before.
pub fn fragment_shader(head: &str, body: &str, end: u32) -> gpucc::nir::Shader {
    let text = format!(
        "{head}{body}\
         \x20   32    %99 = deref_var &gl_FragColor (shader_out vec4)\n\
         \x20               @store_deref (%99, %98) (wrmask=xyzw, access=none)\n\
         \x20               // succs: b{end} \n    block b{end}:\n}}\n"
    );
    gpucc::nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The program as disassembly lines with single spaces.
pub fn listing(insts: &[Inst]) -> Vec<String> {
    insts
        .iter()
        .map(|i| {
            disassemble_inst(i)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// `shader` compiled for `core`, and its listing, after checking it against the interpreter
/// on three input sets.
pub fn compile_verified(core: &str, shader: &gpucc::nir::Shader) -> (Vec<String>, ShaderObject) {
    let c = Context::new(Specs::from_name(core).expect("known core"));
    let obj = c.compile(shader, &Options::default()).expect("compiles");
    let lines = listing(&obj.insts);
    match verify(&c, shader, 3) {
        VerifyOutcome::Pass => {}
        other => panic!("{core}: {other:?}\n{}", lines.join("\n")),
    }
    (lines, obj)
}
