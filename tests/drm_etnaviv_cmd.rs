//! Bit layouts of the etnaviv command stream and shader-state uploads, against words derived
//! by hand from Mesa's hw/cmdstream.xml.h and hw/state.xml.h / state_3d.xml.h, with the upload
//! order of etnaviv_emit.c.
//!
//! LOAD_STATE header: opcode 1 in 31:27 (0x08000000), FIXP bit 26, count in 25:16, state
//! address / 4 in 15:0. Packets are padded to 64 bits.

use gpucc::drm::etnaviv::cmdstream::{load_state_header, CmdStream, Reloc, OP_END};
use gpucc::drm::etnaviv::shader::{
    emit_code, emit_program_state, upload_form, ShaderImage, Stage, UploadForm,
};
use gpucc::etnaviv::specs::Specs;

fn specs(name: &str) -> &'static Specs {
    Specs::from_name(name).unwrap()
}

#[test]
fn load_state_headers() {
    // VS_END_PC (0x800), one value: 0x08000000 | 1 << 16 | 0x800 >> 2.
    assert_eq!(load_state_header(0x0800, 1, false), 0x0801_0200);
    // PA_VIEWPORT_SCALE_X (0xa00) in fixed point: FIXP adds 0x04000000.
    assert_eq!(load_state_header(0x0a00, 1, true), 0x0c01_0280);
    // 1023 values at the VS instruction memory (0x4000 >> 2 = 0x1000).
    assert_eq!(load_state_header(0x4000, 1023, false), 0x0bff_1000);
    assert_eq!(OP_END, 0x1000_0000);
}

#[test]
#[rustfmt::skip]
fn packets_are_padded_to_64_bits() {
    let mut s = CmdStream::new();
    s.set_state(0x0800, 7);
    s.set_states(0x4000, &[1, 2]);
    s.set_states(0x4000, &[1, 2, 3]);
    assert_eq!(
        s.words(),
        &[
            0x0801_0200, 7, // header + 1 value: already even
            0x0802_1000, 1, 2, 0, // header + 2 values: padded
            0x0803_1000, 1, 2, 3, // header + 3 values: even
        ]
    );
    assert_eq!(s.words().len() % 2, 0);
}

#[test]
fn long_uploads_split_at_1023_values() {
    let mut s = CmdStream::new();
    let values: Vec<u32> = (0..1025).collect();
    s.set_states(0x4000, &values);
    let w = s.words();
    assert_eq!(w[0], 0x0bff_1000);
    // The second packet starts 1023 states later: (0x4000 + 4092) >> 2 = 0x13ff, two values.
    assert_eq!(w[1024], 0x0802_13ff);
    assert_eq!(&w[1025..1027], &[1023, 1024]);
    assert_eq!(w.len(), 1028);
}

#[test]
fn relocated_state_records_its_offset() {
    let mut s = CmdStream::new();
    s.set_state(0x0800, 0);
    s.set_state_reloc(0x086c, 1, 0x40, 0x1000);
    // VS_INST_ADDR 0x86c >> 2 = 0x21b; the value is presumed + offset, at byte 12.
    assert_eq!(s.words(), &[0x0801_0200, 0, 0x0801_021b, 0x1040]);
    assert_eq!(
        s.relocs(),
        &[Reloc {
            submit_offset: 12,
            bo_index: 1,
            bo_offset: 0x40
        }]
    );
}

fn image<'a>(stage: Stage, code: &'a [u32]) -> ShaderImage<'a> {
    ShaderImage {
        stage,
        code,
        temps: 2,
        inputs: &[],
        outputs: &[],
        uniforms: &[],
        input_count_unk8: 0,
    }
}

#[test]
fn small_shader_on_core_without_icache_goes_to_the_state_window() {
    let gc400 = specs("gc400");
    let code: Vec<u32> = (1..=8).collect();
    let img = image(Stage::Vertex, &code);
    let form = upload_form(gc400, Stage::Vertex, 2).unwrap();
    assert_eq!(form, UploadForm::StateWindow { offset: 0x4000 });
    let mut s = CmdStream::new();
    emit_code(&mut s, gc400, &img, form, 0, 0).unwrap();
    // GC400 has neither icache nor range registers: just VS_INST_MEM (0x4000 >> 2 = 0x1000),
    // eight values, padded.
    let mut expected = vec![0x0808_1000];
    expected.extend(1..=8);
    expected.push(0);
    assert_eq!(s.words(), expected.as_slice());
}

#[test]
fn state_window_with_range_registers() {
    let gc2000 = specs("gc2000");
    let code = [0xa, 0xb, 0xc, 0xd];
    let img = image(Stage::Fragment, &code);
    let form = upload_form(gc2000, Stage::Fragment, 1).unwrap();
    assert_eq!(form, UploadForm::StateWindow { offset: 0xd000 });
    let mut s = CmdStream::new();
    emit_code(&mut s, gc2000, &img, form, 0, 0).unwrap();
    // PS_RANGE (0x101c >> 2 = 0x407): PS owns slots from 0x100, high = 0 + 0x100.
    // Then the PS window of the 512-slot memory at 0xd000 (>> 2 = 0x3400).
    assert_eq!(
        s.words(),
        &[0x0801_0407, 0x0100_0100, 0x0804_3400, 0xa, 0xb, 0xc, 0xd, 0]
    );
    // Too large for the window and no instruction cache: an error naming the size.
    let e = upload_form(gc2000, Stage::Vertex, 300)
        .unwrap_err()
        .to_string();
    assert!(e.contains("300") && e.contains("gc2000"), "{e}");
}

#[test]
fn pre_halti5_icache_upload() {
    let gc3000 = specs("gc3000");
    let code = vec![0u32; 300 * 4];
    let img = image(Stage::Vertex, &code);
    let form = upload_form(gc3000, Stage::Vertex, 300).unwrap();
    assert_eq!(form, UploadForm::IcachePreHalti5);
    let mut s = CmdStream::new();
    emit_code(&mut s, gc3000, &img, form, 3, 0x2000).unwrap();
    // VS_RANGE (0x85c): high = 299 << 16; VS_ICACHE_CONTROL (0x868): ENABLE | FLUSH_VS (0x11);
    // VS_INST_ADDR (0x86c): the buffer's address.
    assert_eq!(
        s.words(),
        &[
            0x0801_0217,
            0x012b_0000,
            0x0801_021a,
            0x11,
            0x0801_021b,
            0x2000
        ]
    );
    assert_eq!(
        s.relocs(),
        &[Reloc {
            submit_offset: 20,
            bo_index: 3,
            bo_offset: 0
        }]
    );
}

#[test]
#[rustfmt::skip]
fn halti5_icache_upload() {
    let gc7000 = specs("gc7000");
    let code = vec![0u32; 12];
    let img = image(Stage::Fragment, &code);
    let form = upload_form(gc7000, Stage::Fragment, 3).unwrap();
    assert_eq!(form, UploadForm::IcacheHalti5);
    let mut s = CmdStream::new();
    emit_code(&mut s, gc7000, &img, form, 2, 0x1000).unwrap();
    assert_eq!(
        s.words(),
        &[
            0x0801_021f, 0, // PS_NEWRANGE_LOW (0x87c)
            0x0801_0424, 3, // PS_NEWRANGE_HIGH (0x1090): instruction count
            0x0801_040a, 0x1000, // PS_INST_ADDR (0x1028)
            0x0801_5580, 2, // SH_CONFIG (0x15600)
            0x0801_021a, 1, // VS_ICACHE_CONTROL: ENABLE
            0x0801_0425, 2, // PS_ICACHE_COUNT (0x1094): count - 1
        ]
    );
    assert_eq!(s.relocs(), &[Reloc { submit_offset: 20, bo_index: 2, bo_offset: 0 }]);
}

#[test]
#[rustfmt::skip]
fn vertex_program_state() {
    let gc400 = specs("gc400");
    let code = vec![0u32; 8];
    let img = ShaderImage {
        stage: Stage::Vertex,
        code: &code,
        temps: 5,
        inputs: &[0, 1],
        outputs: &[0, 1, 2],
        uniforms: &[0x3f80_0000, 0, 0, 0x3f80_0000],
        input_count_unk8: 8,
    };
    let mut s = CmdStream::new();
    emit_program_state(&mut s, gc400, &img, 0).unwrap();
    assert_eq!(
        s.words(),
        &[
            0x0801_020e, 0, // VS_START_PC (0x838)
            0x0801_0200, 2, // VS_END_PC (0x800): two instructions
            0x0801_0201, 3, // VS_OUTPUT_COUNT (0x804)
            0x0801_0202, 0x802, // VS_INPUT_COUNT (0x808): UNK8 = 8 in 12:8, count 2
            0x0801_0203, 5, // VS_TEMP_REGISTER_CONTROL (0x80c)
            0x0801_0204, 0x0002_0100, // VS_OUTPUT(0) (0x810): registers 0, 1, 2 a byte each
            0x0801_0208, 0x0000_0100, // VS_INPUT(0) (0x820)
            0x0801_0218, 1, // VS_UNIFORM_CACHE (0x860): FLUSH
            0x0804_1400, 0x3f80_0000, 0, 0, 0x3f80_0000, 0, // VS_UNIFORMS (0x5000), padded
        ]
    );
}

#[test]
#[rustfmt::skip]
fn fragment_program_state() {
    let gc400 = specs("gc400");
    let code = vec![0u32; 4];
    let img = ShaderImage {
        stage: Stage::Fragment,
        code: &code,
        temps: 2,
        inputs: &[1, 1, 1],
        outputs: &[0],
        uniforms: &[7],
        input_count_unk8: 31,
    };
    let mut s = CmdStream::new();
    emit_program_state(&mut s, gc400, &img, 0).unwrap();
    assert_eq!(
        s.words(),
        &[
            0x0801_0406, 0, // PS_START_PC (0x1018)
            0x0801_0400, 1, // PS_END_PC (0x1000)
            0x0801_0401, 0, // PS_OUTPUT_REG (0x1004)
            0x0801_0402, 0x1f04, // PS_INPUT_COUNT: UNK8 31, three varyings + position
            0x0801_0403, 4, // PS_TEMP_REGISTER_CONTROL: at least the inputs (4)
            0x0801_0218, 0x11, // VS_UNIFORM_CACHE: FLUSH | PS
            0x0801_1c00, 7, // PS_UNIFORMS (0x7000)
        ]
    );
}

#[test]
fn malformed_code_is_rejected() {
    let gc400 = specs("gc400");
    let code = [1u32, 2, 3];
    let img = image(Stage::Vertex, &code);
    let mut s = CmdStream::new();
    let e = emit_code(
        &mut s,
        gc400,
        &img,
        UploadForm::StateWindow { offset: 0x4000 },
        0,
        0,
    )
    .unwrap_err();
    assert!(e.to_string().contains("multiple of four"), "{e}");
}

#[test]
#[rustfmt::skip]
fn halti5_vertex_program_state() {
    let gc7000 = specs("gc7000");
    let code = vec![0u32; 8];
    let img = ShaderImage {
        stage: Stage::Vertex,
        code: &code,
        temps: 3,
        inputs: &[0],
        outputs: &[0, 1],
        uniforms: &[1, 2, 3, 4],
        input_count_unk8: 8,
    };
    let mut s = CmdStream::new();
    emit_program_state(&mut s, gc7000, &img, 0).unwrap();
    assert_eq!(
        s.words(),
        &[
            // No START/END PC on HALTI5. VS_HALTI5_OUTPUT_COUNT (0x870): 2 | (2 * 0x10) << 8.
            0x0801_021c, 0x2002,
            0x0801_0202, 0x801, // VS_INPUT_COUNT
            0x0801_0203, 3, // VS_TEMP_REGISTER_CONTROL
            // VS_HALTI5_UNK008A0 (0x8a0): 0x0001000e | (0x110 / 2 = 0x88) << 20.
            0x0801_0228, 0x0881_000e,
            0x0801_0238, 0x0000_0100, // VS_HALTI5_OUTPUT(0) (0x8e0)
            0x0801_0230, 0, // VS_HALTI5_INPUT(0) (0x8c0)
            0x0801_0219, 0, // VS_UNIFORM_BASE (0x864): unified bank, VS first
            0x0801_0218, 1, // VS_UNIFORM_CACHE flush
            // Uniforms through the HALTI5 mirror at 0x34000 (>> 2 = 0xd000), padded.
            0x0804_d000, 1, 2, 3, 4, 0,
        ]
    );
}

#[test]
fn halti5_shader_ends_with_prefetch() {
    use gpucc::drm::etnaviv::shader::emit_shader;
    let gc7000 = specs("gc7000");
    let code = vec![0u32; 4];
    let img = ShaderImage {
        outputs: &[0],
        ..image(Stage::Fragment, &code)
    };
    let mut s = CmdStream::new();
    assert_eq!(
        emit_shader(&mut s, gc7000, &img, 1, 0).unwrap(),
        UploadForm::IcacheHalti5
    );
    let w = s.words();
    // The last packet is PS_ICACHE_PREFETCH (0x1048 >> 2 = 0x412) = 0.
    assert_eq!(&w[w.len() - 2..], &[0x0801_0412, 0]);
    // The PS program state on HALTI5 starts at PS_OUTPUT_REG (0x1004): no PS_START_PC (0x1018).
    assert!(!w.contains(&0x0801_0406));
    assert!(w.contains(&0x0801_0401));
}
