//! Vertex shaders on Gen8/Gen9 through the scalar backend: hand-written shaders checked on
//! the simulator against the interpreter (per VUE slot), the URB write messages and VUE
//! layout derived by hand from Mesa's rules (brw_vue_map.c, emit_urb_writes), and the
//! failures a driver must see named.

use gpucc::intel::backend::{verify, verify_kernel, Context, Options, VerifyOutcome};
use gpucc::intel::DevInfo;
use gpucc::nir;

fn ctx(p: &str) -> Context {
    Context::new(DevInfo::from_name(p).unwrap())
}

/// A vertex shader with the given header lines, declarations and body of block b0.
fn vs(header: &str, decls: &str, body: &str) -> String {
    format!(
        "shader: MESA_SHADER_VERTEX\nname: test\n{header}inputs: 0\noutputs: 0\nuniforms: 0\n\
         {decls}decl_function main (0 params)\n\nimpl main {{\n    block b0:  // preds:\n\
         {body}    // succs: b1\n    block b1:\n}}\n"
    )
}

fn passes_on_gen8_and_gen9(text: &str) {
    let shader = nir::parse(text).expect("shader parses");
    for p in ["bdw", "skl"] {
        assert_eq!(verify(&ctx(p), &shader, 8), VerifyOutcome::Pass, "{p}");
    }
}

/// The URB write descriptors of the program, in code order: (global offset in slots, mlen,
/// EOT).
fn urb_writes(p: &str, text: &str) -> Vec<(u32, u32, bool)> {
    let shader = nir::parse(text).unwrap();
    let dev = DevInfo::from_name(p).unwrap();
    let k = ctx(p).compile(&shader, &Options::widths(&[8])).unwrap();
    k.disassemble(dev)
        .lines()
        .filter(|l| l.contains("send"))
        .filter_map(|l| l.split_whitespace().last())
        .filter_map(|d| u32::from_str_radix(d.trim_start_matches("0x"), 16).ok())
        // URB SIMD8 write: message type 7 in bits 3:0, header present.
        .filter(|d| d & 0xf == 7 && d >> 19 & 1 == 1)
        .map(|d| (d >> 4 & 0x7ff, d >> 25 & 0xf, d >> 31 == 1))
        .collect()
}

const POS_FROM_ATTR0: &str = "    32    %0 = load_const (0x00000000)\n\
    32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n\
    @store_output (%1, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n";

#[test]
fn passthrough_writes_the_position_slot_and_ends_the_thread() {
    let text = vs("inputs_read: 0\noutputs_written: 0\n", "", POS_FROM_ATTR0);
    passes_on_gen8_and_gen9(&text);
    // The header slot is not written (no point size, layer or viewport): one write of slot
    // 1, header + 4 components, ending the thread.
    assert_eq!(urb_writes("bdw", &text), [(1, 5, true)]);
    let k = ctx("skl")
        .compile(&nir::parse(&text).unwrap(), &Options::widths(&[8, 16]))
        .unwrap();
    assert_eq!(k.simd.len(), 1, "vertex threads are SIMD8 only");
    let v = k.vertex.as_ref().expect("vertex facts");
    assert_eq!(v.nr_attribute_slots, 1);
    assert_eq!(v.urb_read_length(), 1);
    // Two VUE slots (header, position) and one pushed element: one 64-byte unit.
    assert_eq!(v.urb_entry_size(), 1);
    assert_eq!(k.simd[0].dispatch_grf_start, 2);
}

#[test]
fn varyings_and_pushed_uniforms_follow_the_position() {
    // gl_Position = a0; VAR0 = a1 * ubo[0].x; VAR1.yz = a0.xy + a1.zw.
    let body = "    32    %0 = load_const (0x00000000)\n\
    32    %9 = load_const (0x00000001)\n\
    32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC0 slots=1)\n\
    32x4  %2 = @load_input (%0) (base=1, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_GENERIC1 slots=1)\n\
    32x4  %3 = @load_ubo (%0, %0) (access=none, align_mul=1073741824, align_offset=0, range_base=0, range=16)\n\
    32    %4 = fmul %2.x, %3.x\n\
    32    %5 = fmul %2.y, %3.x\n\
    32    %6 = fmul %2.z, %3.y\n\
    32    %7 = fmul %2.w, %3.z\n\
    32x4  %8 = vec4 %4, %5, %6, %7\n\
    32x2  %10 = fadd %1.xy, %2.zw\n\
    @store_output (%1, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n\
    @store_output (%8, %0) (base=32, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())\n\
    @store_output (%10, %0) (base=33, range=1, wrmask=xy, component=1, src_type=float32, io location=VARYING_SLOT_VAR1 slots=1, xfb(), xfb2())\n";
    let text = vs("inputs_read: 15-16\n", "", body);
    passes_on_gen8_and_gen9(&text);
    // Slots 1-2 (position, VAR0) in one message of 8 data registers, slot 3 (VAR1) in the
    // last.
    assert_eq!(urb_writes("bdw", &text), [(1, 9, false), (3, 5, true)]);
    let k = ctx("bdw")
        .compile(&nir::parse(&text).unwrap(), &Options::widths(&[8]))
        .unwrap();
    let v = k.vertex.unwrap();
    assert_eq!(v.inputs_read, 3 << 15);
    assert_eq!(v.vue_map.to_string().lines().count(), 5);
    assert_eq!(v.vue_map.num_slots(), 4);
    assert_eq!(v.urb_entry_size(), 1);
    // The vec4 load_ubo pushes its four dwords (g2), the attributes come after them.
    assert_eq!(k.push_constants.len(), 4);
}

#[test]
fn draw_parameters_come_from_the_element_after_the_attributes() {
    // VAR0 = (vertex id, instance id, base instance, draw id) as integers.
    let body = "    32    %0 = load_const (0x00000000)\n\
    32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n\
    32    %2 = @load_vertex_id () ()\n\
    32    %3 = @load_instance_id () ()\n\
    32    %4 = @load_base_instance () ()\n\
    32    %5 = @load_draw_id () ()\n\
    32x4  %6 = vec4 %2, %3, %4, %5\n\
    @store_output (%1, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n\
    @store_output (%6, %0) (base=32, range=1, wrmask=xyzw, component=0, src_type=int32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())\n";
    let text = vs("inputs_read: 0\n", "", body);
    passes_on_gen8_and_gen9(&text);
    let k = ctx("skl")
        .compile(&nir::parse(&text).unwrap(), &Options::widths(&[8]))
        .unwrap();
    let v = k.vertex.unwrap();
    assert!(v.uses_vertex_id && v.uses_first_vertex && v.uses_instance_id);
    assert!(v.uses_base_instance && v.uses_draw_id);
    // Attribute 0, the draw-parameter element (1), the draw-id element (2).
    assert_eq!(v.draw_params_element(), Some(1));
    assert_eq!(v.draw_id_element(), Some(2));
    assert_eq!(v.nr_attribute_slots, 3);
    assert_eq!(v.urb_read_length(), 2);
}

#[test]
fn point_size_and_layer_fill_the_header_slot() {
    let body = "    32    %0 = load_const (0x00000000)\n\
    32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n\
    32    %2 = load_const (0x00000003)\n\
    @store_output (%1, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n\
    32    %3 = mov %1.w\n\
    @store_output (%3, %0) (base=12, range=1, wrmask=x, component=0, src_type=float32, io location=VARYING_SLOT_PSIZ slots=1, xfb(), xfb2())\n\
    @store_output (%2, %0) (base=22, range=1, wrmask=x, component=0, src_type=int32, io location=VARYING_SLOT_LAYER slots=1, xfb(), xfb2())\n";
    let text = vs("inputs_read: 0\n", "", body);
    passes_on_gen8_and_gen9(&text);
    // Header and position in one message from slot 0.
    assert_eq!(urb_writes("bdw", &text), [(0, 9, true)]);
}

#[test]
fn an_unwritten_position_is_skipped_and_clip_distances_follow_it() {
    // No gl_Position; gl_ClipDistance[0..5] as a compact array (CLIP_DIST0 + offset 1).
    let body = "    32    %0 = load_const (0x00000000)\n\
    32    %9 = load_const (0x00000001)\n\
    32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n\
    @store_output (%1, %0) (base=17, range=2, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_CLIP_DIST0 slots=2, xfb(), xfb2())\n\
    32    %2 = mov %1.x\n\
    @store_output (%2, %9) (base=17, range=2, wrmask=x, component=0, src_type=float32, io location=VARYING_SLOT_CLIP_DIST0 slots=2, xfb(), xfb2())\n";
    let text = vs("inputs_read: 0\n", "", body);
    passes_on_gen8_and_gen9(&text);
    // Header and position skipped: clip distances 0-3 and 4 in slots 2 and 3, one message.
    assert_eq!(urb_writes("bdw", &text), [(2, 9, true)]);
}

#[test]
fn a_shader_without_outputs_still_ends_with_a_urb_write() {
    let body = "    32    %0 = load_const (0x00000000)\n";
    let text = vs("inputs_read: 0\n", "", body);
    // One undefined data register at slot 1 (a write needs at least one).
    assert_eq!(urb_writes("bdw", &text), [(1, 2, true)]);
    passes_on_gen8_and_gen9(&text);
}

#[test]
fn divergent_control_flow_writes_each_vertex_its_own_value() {
    let body = "    32    %0 = load_const (0x00000000)\n\
    32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n\
    32    %2 = flt32 %1.x, %1.y\n\
    32    %3 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)\n\
    32    %7 = mov %1.z\n\
    @store_reg (%7, %3) (base=0, wrmask=x, legacy_fsat=0)\n\
    // succs: b1 b2\n\
    if %2 {\n\
    block b1:  // preds: b0\n\
    32    %4 = fmul %1.w, %1.x\n\
    @store_reg (%4, %3) (base=0, wrmask=x, legacy_fsat=0)\n\
    // succs: b3\n\
    } else {\n\
    block b2:  // preds: b0, succs: b3\n\
    }\n\
    block b3:  // preds: b1 b2\n\
    32    %5 = @load_reg (%3) (base=0, legacy_fabs=0, legacy_fneg=0)\n\
    32x4  %6 = vec4 %5, %1.y, %1.z, %1.w\n\
    @store_output (%6, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n";
    let text = vs("inputs_read: 0\n", "", body).replace("block b1:\n}", "block b4:\n}");
    let text = text.replace(
        "    // succs: b1\n    block b4:",
        "    // succs: b4\n    block b4:",
    );
    passes_on_gen8_and_gen9(&text);
}

#[test]
fn the_check_sees_a_wrong_vue_map() {
    // Two varyings; the program object then claims they are the other way round.
    let body = "    32    %0 = load_const (0x00000000)\n\
    32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n\
    32x4  %2 = fneg %1\n\
    @store_output (%1, %0) (base=32, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())\n\
    @store_output (%2, %0) (base=33, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR1 slots=1, xfb(), xfb2())\n";
    let text = vs("inputs_read: 0\n", "", body);
    let shader = nir::parse(&text).unwrap();
    let c = ctx("bdw");
    let mut k = c.compile(&shader, &Options::widths(&[8])).unwrap();
    assert_eq!(verify_kernel(&c, &shader, &k, 8), VerifyOutcome::Pass);
    let slots = &mut k.vertex.as_mut().unwrap().vue_map.slots;
    let (a, b) = (slots.len() - 2, slots.len() - 1);
    slots.swap(a, b);
    assert!(matches!(
        verify_kernel(&c, &shader, &k, 8),
        VerifyOutcome::Fail { .. }
    ));
}

#[test]
fn gen7_vertex_shaders_compile_simd4x2_with_the_same_vertex_facts() {
    // Ivy Bridge and Haswell run vertex threads SIMD4x2 (the vec4 backend); the program
    // object says so and carries the same vertex facts the scalar Gen8 kernel does.
    let text = vs("inputs_read: 0\noutputs_written: 0\n", "", POS_FROM_ATTR0);
    let shader = nir::parse(&text).unwrap();
    let gen8 = ctx("bdw").compile(&shader, &Options::widths(&[8])).unwrap();
    for p in ["ivb", "hsw"] {
        let k = ctx(p).compile(&shader, &Options::widths(&[8])).unwrap();
        assert!(k.is_simd4x2(), "{p}");
        assert_eq!(k.vertex, gen8.vertex, "{p}");
        // g0, then (no push constants) the one pushed element in g1.
        assert_eq!(k.simd[0].dispatch_grf_start, 1, "{p}");
        assert_eq!(verify(&ctx(p), &shader, 8), VerifyOutcome::Pass, "{p}");
    }
}

#[test]
fn gen9_uniform_block_loads_take_channel_0_at_top_level() {
    // VAR0 = ubo0[offset], the offset a dynamically uniform value computed from a pushed
    // uniform: Gen9's unaligned OWord block read, its address taken from the first live
    // channel. Vertex threads dispatch their channels packed from channel 0, and outside
    // control flow every dispatched channel is live, so the first live channel is channel 0:
    // as brw's eliminate_find_live_channel, no FBL at all, the address broadcast from
    // channel 0.
    let body = "    32    %0 = load_const (0x00000000)\n\
    32    %9 = load_const (0x00000030)\n\
    32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n\
    32x4  %2 = @load_ubo (%0, %0) (access=none, align_mul=1073741824, align_offset=0, range_base=0, range=16)\n\
    32    %3 = iand %2.y, %9\n\
    32x4  %4 = @load_ubo_uniform_block_intel (%0, %3) (access=none, align_mul=4, align_offset=0, range_base=0, range=-1)\n\
    @store_output (%1, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n\
    @store_output (%4, %0) (base=32, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())\n";
    let text = vs("inputs_read: 0\n", "", body);
    let shader = nir::parse(&text).unwrap();
    assert_eq!(verify(&ctx("skl"), &shader, 8), VerifyOutcome::Pass);
    let dev = DevInfo::from_name("skl").unwrap();
    let asm = ctx("skl")
        .compile(&shader, &Options::widths(&[8]))
        .unwrap()
        .disassemble(dev);
    assert!(!asm.lines().any(|l| l.starts_with("fbl")), "{asm}");
    assert!(
        !asm.contains("mask0") && !asm.contains("f1<0,1,0>UD"),
        "{asm}"
    );
    assert!(asm.contains("DC unaligned OWORD block read"), "{asm}");
}

#[test]
fn gen7_indirect_register_stores_write_each_vertex_its_own_element() {
    // `a[i].xy = v` with `i` taken from each vertex's own attribute bits, so the two vertices
    // of a SIMD4x2 thread (the verifier gives them different inputs) pick different
    // elements; every element is read back into the outputs, so a store reaching the wrong
    // element, or the other vertex's element, shows as a mismatch against the interpreter.
    let body = "    32    %0 = load_const (0x00000000)\n\
    32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n\
    32    %2 = @decl_reg () (num_components=2, num_array_elems=4, bit_size=32, divergent=1)\n\
    32    %3 = load_const (0x00000003)\n\
    32    %4 = iand %1.x, %3\n\
    32x2  %5 = fneg %1.zw\n\
    32x2  %6 = fadd %1.yz, %1.wx\n\
    @store_reg (%5, %2) (base=0, wrmask=xy, legacy_fsat=0)\n\
    @store_reg (%5, %2) (base=1, wrmask=xy, legacy_fsat=0)\n\
    @store_reg (%5, %2) (base=2, wrmask=xy, legacy_fsat=0)\n\
    @store_reg (%5, %2) (base=3, wrmask=xy, legacy_fsat=0)\n\
    @store_reg_indirect (%6, %2, %4) (base=0, wrmask=y, legacy_fsat=0)\n\
    32x2  %7 = @load_reg (%2) (base=0, legacy_fabs=0, legacy_fneg=0)\n\
    32x2  %8 = @load_reg (%2) (base=1, legacy_fabs=0, legacy_fneg=0)\n\
    32x2  %9 = @load_reg (%2) (base=2, legacy_fabs=0, legacy_fneg=0)\n\
    32x2  %10 = @load_reg (%2) (base=3, legacy_fabs=0, legacy_fneg=0)\n\
    @store_output (%7, %0) (base=0, range=1, wrmask=xy, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n\
    @store_output (%8, %0) (base=32, range=1, wrmask=xy, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())\n\
    @store_output (%9, %0) (base=33, range=1, wrmask=xy, component=0, src_type=float32, io location=VARYING_SLOT_VAR1 slots=1, xfb(), xfb2())\n\
    @store_output (%10, %0) (base=34, range=1, wrmask=xy, component=0, src_type=float32, io location=VARYING_SLOT_VAR2 slots=1, xfb(), xfb2())\n";
    let text = vs("inputs_read: 0\n", "", body);
    let shader = nir::parse(&text).expect("shader parses");
    for p in ["ivb", "hsw"] {
        let k = ctx(p).compile(&shader, &Options::widths(&[8])).unwrap();
        assert!(k.is_simd4x2(), "{p}");
        assert_eq!(
            verify_kernel(&ctx(p), &shader, &k, 8),
            VerifyOutcome::Pass,
            "{p}"
        );
    }
}

/// A vertex shader keeping twenty vec4 products of its position live at once (more than
/// `spill_vec4`'s 8 registers), across an if/else that each vertex takes on its own
/// attribute values, summed again after it.
fn pressure_vs() -> String {
    let mut body = String::from(
        "    32    %0 = load_const (0x00000000)\n\
    32x4  %1 = @load_input (%0) (base=0, range=1, component=0, dest_type=float32, io location=VERT_ATTRIB_POS slots=1)\n\
    32    %2 = @decl_reg () (num_components=4, num_array_elems=0, bit_size=32, divergent=1)\n",
    );
    let n = 20;
    for k in 0..n {
        let c = (1.0f32 + k as f32 * 0.25).to_bits();
        body += &format!("    32    %{} = load_const (0x{c:08x})\n", 100 + k);
        let swz = ["xyzw", "yzwx", "zwxy", "wxyz"][k % 4];
        body += &format!(
            "    32x4  %{} = fmul %1.{swz}, %{}.xxxx\n",
            200 + k,
            100 + k
        );
    }
    // Sums written out by hand as chains: s = v0 + v1 + ... in order.
    let chain = |body: &mut String, first: usize, count: usize, base: usize| -> usize {
        let mut acc = 200 + first;
        for (i, k) in (first + 1..first + count).enumerate() {
            *body += &format!("    32x4  %{} = fadd %{acc}, %{}\n", base + i, 200 + k);
            acc = base + i;
        }
        acc
    };
    body += "    32    %3 = flt32 %1.x, %1.y\n    // succs: b1 b2\n    if %3 {\n    block b1:  // preds: b0\n";
    let a = chain(&mut body, 0, n / 2, 300);
    body += &format!("    @store_reg (%{a}, %2) (base=0, wrmask=xyzw, legacy_fsat=0)\n    // succs: b3\n    }} else {{\n    block b2:  // preds: b0\n");
    let b = chain(&mut body, n / 2, n / 2, 400);
    body += &format!("    @store_reg (%{b}, %2) (base=0, wrmask=xyzw, legacy_fsat=0)\n    // succs: b3\n    }}\n    block b3:  // preds: b1 b2\n");
    body += "    32x4  %4 = @load_reg (%2) (base=0, legacy_fabs=0, legacy_fneg=0)\n";
    let all = chain(&mut body, 0, n, 500);
    body += &format!("    32x4  %5 = fadd %4, %{all}\n");
    body += "    @store_output (%1, %0) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1, xfb(), xfb2())\n\
    @store_output (%5, %0) (base=32, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_VAR0 slots=1, xfb(), xfb2())\n";
    let text = vs("inputs_read: 0\n", "", &body).replace("block b1:\n}", "block b4:\n}");
    text.replace(
        "    // succs: b1\n    block b4:",
        "    // succs: b4\n    block b4:",
    )
}

#[test]
fn gen7_register_spilling_runs_on_the_simulator() {
    // Forced into 8 registers, the vec4 allocator spills to scratch (OWord dual-block
    // writes and reads, one OWord per vertex); the program still matches the interpreter
    // vertex by vertex, and without the knob the same shader fits and does not spill.
    let shader = nir::parse(&pressure_vs()).expect("shader parses");
    for p in ["ivb", "hsw"] {
        let c = ctx(p);
        let plain = c.compile(&shader, &Options::widths(&[8])).unwrap();
        assert_eq!(plain.simd[0].stats.spills, 0, "{p}");
        let mut opts = Options::widths(&[8]);
        opts.debug |= gpucc::debug::Flags::SPILL_VEC4;
        let k = c.compile(&shader, &opts).unwrap();
        let stats = &k.simd[0].stats;
        assert!(stats.spills > 0 && stats.fills > 0, "{p}: {stats:?}");
        assert!(k.scratch_size >= 32, "{p}: one slot is two OWords");
        let asm = k.disassemble(DevInfo::from_name(p).unwrap());
        assert!(asm.contains("OWORD dual block write"), "{p}\n{asm}");
        assert!(asm.contains("OWORD dual block read"), "{p}\n{asm}");
        assert_eq!(
            verify_kernel(&c, &shader, &k, 8),
            VerifyOutcome::Pass,
            "{p}"
        );
    }
}
