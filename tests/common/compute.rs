//! Compute shaders more than one test binary runs: the header every hand-written compute
//! shader starts with, a loop with divergent, memory-dependent trip counts, and the compile
//! and verify steps the Mesa push-layout tests share.

/// A compute shader's header and `main` declaration: `size` invocations per workgroup and
/// `shared` bytes of shared memory.
pub fn header(name: &str, size: [u32; 3], shared: u32) -> String {
    format!(
        "shader: MESA_SHADER_COMPUTE\nname: {name}\nworkgroup_size: {}, {}, {}\nshared_size: {shared}\n\
         inputs: 0\noutputs: 0\nuniforms: 0\ndecl_function main (0 params)\n\n",
        size[0], size[1], size[2]
    )
}

/// Each invocation reads dword `index` of SSBO 0, loops `value & 7` times (so neighbouring
/// channels leave the loop at different iterations) accumulating `acc * 7 + i` from its index,
/// and stores the result at byte `out_offset + 4 * index`.
pub fn divergent_loop(name: &str, size: [u32; 3], out_offset: u32) -> String {
    header(name, size, 0)
        + &format!(
            r#"impl main {{
    block b0:  // preds:
    32    %0 = @load_local_invocation_index () ()
    32    %1 = load_const (0x00000000)
    32    %2 = load_const (0x00000004)
    32    %3 = load_const (0x00000007)
    32    %4 = load_const (0x00000001)
    32    %5 = imul %0, %2
    32    %6 = @load_ssbo (%1, %5) (access=none, align_mul=4, align_offset=0)
    32    %7 = iand %6, %3
    32    %8 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
    32    %9 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)
    @store_reg (%1, %8) (base=0, wrmask=x, legacy_fsat=0)
    @store_reg (%0, %9) (base=0, wrmask=x, legacy_fsat=0)
    // succs: b1
    loop {{
        block b1:  // preds: b0 b4
        32    %10 = @load_reg (%8) (base=0, legacy_fabs=0, legacy_fneg=0)
        32    %11 = uge32 %10, %7
        // succs: b2 b3
        if %11 {{
            block b2:  // preds: b1
            break
            // succs: b5
        }} else {{
            block b3:  // preds: b1
            // succs: b4
        }}
        block b4:  // preds: b3
        32    %12 = @load_reg (%9) (base=0, legacy_fabs=0, legacy_fneg=0)
        32    %13 = imul %12, %3
        32    %14 = iadd %13, %10
        @store_reg (%14, %9) (base=0, wrmask=x, legacy_fsat=0)
        32    %15 = iadd %10, %4
        @store_reg (%15, %8) (base=0, wrmask=x, legacy_fsat=0)
        // succs: b1
    }}
    block b5:  // preds: b2
    32    %16 = @load_reg (%9) (base=0, legacy_fabs=0, legacy_fneg=0)
    32    %17 = load_const (0x{out_offset:08x})
    32    %18 = iadd %5, %17
    @store_ssbo (%16, %1, %18) (wrmask=x, access=none, align_mul=4, align_offset=0)
    // succs: b6
    block b6:
}}
"#
        )
}

/// Parses hand-written NIR, showing the text when it does not parse.
pub fn parse(text: &str) -> gpucc::nir::Shader {
    gpucc::nir::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The Intel program of `text` for `target` under `options`.
pub fn compile(
    target: &str,
    text: &str,
    options: &gpucc::compiler::CompileOptions,
) -> gpucc::intel::kernel::Kernel {
    let program = gpucc::compiler::Compiler::new(target)
        .unwrap()
        .compile(&parse(text), options)
        .unwrap_or_else(|e| panic!("{target}: {e}\n{text}"));
    match program.code {
        gpucc::program::Code::Intel(k) => k,
        gpucc::program::Code::Etnaviv(_) => panic!("not an Intel program"),
    }
}

/// `text` verifies against the interpreter on `target` with `options`.
pub fn assert_verifies(
    target: &str,
    text: &str,
    options: &gpucc::compiler::CompileOptions,
    what: &str,
) {
    assert_eq!(
        gpucc::compiler::Compiler::new(target)
            .unwrap()
            .verify_options(&parse(text), options),
        gpucc::verify::VerifyOutcome::Pass,
        "{target} {what}"
    );
}

/// A pushed UBO range (`brw_ubo_range`).
pub fn range(block: u32, start: u32, length: u32) -> gpucc::intel::ubo_ranges::UboRange {
    gpucc::intel::ubo_ranges::UboRange {
        block,
        start,
        length,
    }
}
