/* The facts a Gen8+ driver programs 3DSTATE_GS from, read from a geometry program object
 * alone (examples/intel/strips.gs.nir: triangles in, up to 40 vertices out as strips cut
 * with EndPrimitive, a vertex count that varies per primitive, gl_PrimitiveIDIn read).
 * Expected values follow Mesa's brw_compile_gs and gs_thread_payload by hand:
 *  - input VUE map: header and POS (2 slots), read length ceil(2 / 2) = 1, and 8 x 1 x 3
 *    vertices = 24 registers fit the 24 Mesa pushes;
 *  - output VUE map: header, POS, VAR0 = 3 slots = 48 bytes -> 2 hwords per vertex;
 *  - cut bits: 40 vertices x 1 bit -> one 256-bit hword of header;
 *  - URB entry: 2 x 32 x 40 + 32 (header) + 32 (vertex count) = 2624 bytes -> 41 x 64;
 *  - payload: g0, g1 (output handles), g2 (primitive ids), g3-g5 (vertex handles): the push
 *    constants would start at g6. */
#include "check.h"

#include <stddef.h>
#include <stdint.h>

#define VARYING_SLOT_POS 0
#define VARYING_SLOT_PSIZ 12
#define VARYING_SLOT_VAR0 32

static const char gs_text[] =
   "shader: MESA_SHADER_GEOMETRY\n"
   "name: strips\n"
   "stage: 3\n"
   "next_stage: 4\n"
   "inputs_read: 0\n"
   "outputs_written: 0,32\n"
   "system_values_read: 0x00000000'00000001'00000000\n"
   "output_primitive: TRIANGLE_STRIP\n"
   "input_primitive: TRIANGLES\n"
   "vertices_out: 40\n"
   "invocations: 1\n"
   "vertices_in: 3\n"
   "uses_end_primitive: true\n"
   "active_stream_mask: 0x01\n"
   "inputs: 1\n"
   "outputs: 2\n"
   "uniforms: 0\n"
   "decl_var shader_in INTERP_MODE_NONE none vec4[3] gl_in (VARYING_SLOT_POS.xyzw, 1, 0)\n"
   "decl_var shader_out INTERP_MODE_NONE none vec4 gl_Position (VARYING_SLOT_POS.xyzw, 0, 0)\n"
   "decl_var shader_out INTERP_MODE_FLAT none int n (VARYING_SLOT_VAR0.x, 32, 0)\n"
   "decl_function main (0 params)\n"
   "\n"
   "impl main {\n"
   "    block b0:   // preds: \n"
   "    32     %0 = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)\n"
   "    32     %1 = load_const (0x00000000)\n"
   "    32     %2 = load_const (0x00000001)\n"
   "    32     %3 = load_const (0x00000003)\n"
   "    32     %4 = load_const (0x00000007)\n"
   "    32     %5 = load_const (0x00000002)\n"
   "    32     %6 = load_const (0x0000001f = 31)\n"
   "    32     %7 = @load_primitive_id () ()\n"
   "    32     %8 = iand %7, %4 (0x7)\n"
   "    32     %9 = iadd %8, %6 (0x1f)\n"
   "                @store_reg (%1, %0) (base=0, wrmask=x, legacy_fsat=0)\n"
   "                // succs: b1 \n"
   "    loop {\n"
   "        block b1:   // preds: b0 b6\n"
   "        32    %10 = @load_reg (%0) (base=0, legacy_fabs=0, legacy_fneg=0)\n"
   "        32    %11 = uge32 %10, %9\n"
   "                    // succs: b2 b3 \n"
   "        if %11 {\n"
   "            block b2:   // preds: b1\n"
   "            break\n"
   "            // succs: b7 \n"
   "        } else {\n"
   "            block b3:  // preds: b1, succs: b4 \n"
   "        }\n"
   "        block b4:   // preds: b3\n"
   "        32    %12 = umod %10, %3 (0x3)\n"
   "        32x4  %13 = @load_per_vertex_input (%12, %1 (0x0)) (base=1, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_POS slots=1)\n"
   "                    @store_output (%13, %1 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=VARYING_SLOT_POS slots=1 gs_streams(x=0 y=0 z=0 w=0), xfb(), xfb2())  // gl_Position\n"
   "                    @store_output (%10, %1 (0x0)) (base=32, range=1, wrmask=x, component=0, src_type=int32, io location=VARYING_SLOT_VAR0 slots=1 gs_streams(x=0), xfb(), xfb2())  // n\n"
   "                    @emit_vertex_with_counter (%10, %1 (0x0)) (stream_id=0)\n"
   "        32    %14 = iadd %10, %2 (0x1)\n"
   "        32    %15 = iand %10, %3 (0x3)\n"
   "        32    %16 = ieq32 %15, %5 (0x2)\n"
   "                    // succs: b5 b6 \n"
   "        if %16 {\n"
   "            block b5:   // preds: b4\n"
   "                        @end_primitive_with_counter (%14, %1 (0x0)) (stream_id=0)\n"
   "                        // succs: b6 \n"
   "        } else {\n"
   "            block b6:  // preds: b4, succs: b7 \n"
   "        }\n"
   "        block b7:   // preds: b5 b6\n"
   "                    @store_reg (%14, %0) (base=0, wrmask=x, legacy_fsat=0)\n"
   "                    // succs: b1 \n"
   "    }\n"
   "    block b8:   // preds: b2\n"
   "    32    %17 = @load_reg (%0) (base=0, legacy_fabs=0, legacy_fneg=0)\n"
   "                @set_vertex_and_primitive_count (%17, %1 (0x0)) (stream_id=0)\n"
   "                // succs: b9 \n"
   "    block b9:\n"
   "}\n";

int
main(void)
{
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("skl", &compiler), GPUCC_STATUS_OK, "");
   gpucc_program *gs = compile_text(compiler, gs_text, sizeof(gs_text) - 1);
   gpucc_program *fs = compile_text(compiler, tiny_shader, sizeof(tiny_shader) - 1);
   if (!gs || !fs)
      return check_report("bind_gs");

   gpucc_program_info pi = {.struct_size = sizeof(gpucc_program_info)};
   CHECK_STATUS(gpucc_program_get_info(gs, &pi), GPUCC_STATUS_OK, "");
   CHECK(pi.stage == GPUCC_STAGE_GEOMETRY);

   gpucc_gs_info gsi;
   memset(&gsi, 0xab, sizeof(gsi));
   gsi.struct_size = sizeof(gsi);
   CHECK_STATUS(gpucc_program_gs_info(gs, &gsi), GPUCC_STATUS_OK, "");
   CHECK(gsi.vertices_in == 3 && gsi.vertices_out == 40 && gsi.invocations == 1);
   CHECK(gsi.control_data_format == 0); /* GFX7_GS_CONTROL_DATA_FORMAT_GSCTL_CUT */
   CHECK(gsi.control_data_header_size_hwords == 1);
   CHECK(gsi.output_vertex_size_hwords == 2);
   CHECK(gsi.output_topology == 5); /* _3DPRIM_TRISTRIP */
   CHECK(gsi.static_vertex_count == -1);
   CHECK(gsi.include_primitive_id == 1 && gsi.include_vue_handles == 1);
   CHECK(gsi.urb_read_length == 1);
   CHECK(gsi.urb_entry_size == 41);
   CHECK(gsi.dispatch_grf_start == 6);
   CHECK(gsi.grfs > 0 && gsi.grfs <= 128);
   CHECK(gsi.dispatch_mode == 3); /* DISPATCH_MODE_SIMD8 */
   CHECK(gsi.num_vue_slots == 3 && gsi.vue_separate == 0);
   CHECK(gsi.vue_slots_valid == ((1ull << VARYING_SLOT_POS) | (1ull << VARYING_SLOT_VAR0)));
   CHECK(gsi.num_input_vue_slots == 2);
   CHECK(gsi.clip_distance_mask == 0 && gsi.cull_distance_mask == 0);

   const int32_t expected_map[3] = {VARYING_SLOT_PSIZ, VARYING_SLOT_POS, VARYING_SLOT_VAR0};
   for (uint32_t s = 0; s < gsi.num_vue_slots && s < 3; s++) {
      int32_t varying = -2;
      CHECK_STATUS(gpucc_program_gs_vue_slot(gs, s, &varying), GPUCC_STATUS_OK, "");
      CHECK(varying == expected_map[s]);
   }
   int32_t varying = 0;
   CHECK_STATUS(gpucc_program_gs_vue_slot(gs, 3, &varying), GPUCC_STATUS_INVALID_ARGUMENT,
                "slot 3 of a 3-slot VUE map");

   /* 3DSTATE_GS as iris programs it, from the facts alone. */
   uint32_t output_vertex_size = gsi.output_vertex_size_hwords * 2 - 1;
   uint32_t instance_control = gsi.invocations - 1;
   uint32_t output_length = (gsi.num_vue_slots + 1) / 2 - 1;
   CHECK(output_vertex_size == 3 && instance_control == 0);
   CHECK((output_length > 1 ? output_length : 1) == 1);

   /* A caller built against a shorter gpucc_gs_info gets only the fields it knows. */
   gpucc_gs_info old;
   memset(&old, 0xab, sizeof(old));
   old.struct_size = offsetof(gpucc_gs_info, urb_entry_size);
   CHECK_STATUS(gpucc_program_gs_info(gs, &old), GPUCC_STATUS_OK, "");
   CHECK(old.urb_read_length == 1 && old.struct_size == sizeof(gpucc_gs_info));
   CHECK(old.urb_entry_size == 0xabababab);

   /* The wrong stage is named. */
   CHECK_STATUS(gpucc_program_gs_info(fs, &gsi), GPUCC_STATUS_INVALID_ARGUMENT,
                "not a geometry program");

   gpucc_program_destroy(gs);
   gpucc_program_destroy(fs);
   gpucc_compiler_destroy(compiler);
   return check_report("bind_gs");
}
