/* Binding a Gen7 (ivb) vertex -> geometry -> fragment pipeline from the program objects
 * alone, as crocus's gfx7 state upload does: 3DSTATE_GS from the geometry program's facts,
 * the URB entry sizes of both stages, the geometry program's input VUE map against the
 * vertex program's output map, and 3DSTATE_SBE from the geometry program's output VUE map
 * (the last stage before the rasteriser). The programs are the bundled examples
 * (examples/intel, the directory is argv[1]): transform.vs.nir, cut.gs.nir, gradient.fs.nir.
 *
 * Expected values follow Mesa 23.3's brw_compile_vs / brw_compile_gs (vec4) by hand:
 *  - VS: reads GENERIC0 and GENERIC1 (2 attribute slots, read length ceil(2 / 2) = 1),
 *    writes POS and VAR0: VUE [0] header (PSIZ), [1] POS, [2] VAR0; entry
 *    ceil(max(2, 3) / 4) = 1 unit of 64 bytes; SIMD4x2 (dispatch mode 2), push data from g1.
 *  - GS: triangles in (3 vertices), at most 4 out as a strip cut with EndPrimitive: one
 *    control bit per vertex, 4 bits -> one 256-bit hword of header (cut format, 0); inputs
 *    POS and VAR0: input map header/POS/VAR0, 3 slots, read length ceil(3 / 2) = 2; output
 *    map the same 3 slots, 48 bytes -> 2 hwords per vertex; URB entry 2 x 32 x 4 + 32 = 288
 *    bytes -> 5 units of 64 (Gen7 has no vertex-count hword); one invocation, so
 *    dual-object dispatch (2); no primitive id, so push data and inputs start at g1; the
 *    vertex handles are not in a Gen7 payload; the vertex count is not static on Gen7 (-1).
 *  - FS: reads VAR0, at GS output slot 2: SBE source 2 - 2 x read offset 1 = 0. */
#include "check.h"

#include <stdint.h>
#include <stdio.h>

#define VARYING_SLOT_POS 0
#define VARYING_SLOT_PSIZ 12
#define VARYING_SLOT_VAR0 32

int
main(int argc, char **argv)
{
   CHECK(argc == 2);
   if (argc != 2)
      return check_report("bind_vs_gs_fs");
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("ivb", &compiler), GPUCC_STATUS_OK, "");
   gpucc_program *vs = compile_file(compiler, argv[1], "transform.vs.nir");
   gpucc_program *gs = compile_file(compiler, argv[1], "cut.gs.nir");
   gpucc_program *fs = compile_file(compiler, argv[1], "gradient.fs.nir");
   if (!vs || !gs || !fs)
      return check_report("bind_vs_gs_fs");

   /* 3DSTATE_VS and the VS URB entries. */
   gpucc_vs_info vsi = {.struct_size = sizeof(vsi)};
   CHECK_STATUS(gpucc_program_vs_info(vs, &vsi), GPUCC_STATUS_OK, "");
   CHECK(vsi.nr_attribute_slots == 2 && vsi.urb_read_length == 1);
   CHECK(vsi.num_vue_slots == 3 && vsi.urb_entry_size == 1);
   CHECK(vsi.dispatch_mode == 2); /* DISPATCH_MODE_4X2_DUAL_OBJECT */
   CHECK(vsi.dispatch_grf_start == 1);

   /* 3DSTATE_GS and the GS URB entries. */
   gpucc_gs_info gsi = {.struct_size = sizeof(gsi)};
   CHECK_STATUS(gpucc_program_gs_info(gs, &gsi), GPUCC_STATUS_OK, "");
   CHECK(gsi.vertices_in == 3 && gsi.vertices_out == 4 && gsi.invocations == 1);
   CHECK(gsi.control_data_format == 0); /* GFX7_GS_CONTROL_DATA_FORMAT_GSCTL_CUT */
   CHECK(gsi.control_data_header_size_hwords == 1);
   CHECK(gsi.output_vertex_size_hwords == 2);
   CHECK(gsi.output_topology == 5); /* _3DPRIM_TRISTRIP */
   CHECK(gsi.static_vertex_count == -1);
   CHECK(gsi.include_primitive_id == 0 && gsi.include_vue_handles == 0);
   CHECK(gsi.urb_read_length == 2);
   CHECK(gsi.urb_entry_size == 5);
   CHECK(gsi.dispatch_grf_start == 1);
   CHECK(gsi.dispatch_mode == 2); /* DISPATCH_MODE_4X2_DUAL_OBJECT */
   CHECK(gsi.num_vue_slots == 3 && gsi.vue_separate == 0);
   CHECK(gsi.vue_slots_valid == ((1ull << VARYING_SLOT_POS) | (1ull << VARYING_SLOT_VAR0)));
   CHECK(gsi.grfs > 0 && gsi.grfs <= 128);
   /* crocus: Output Vertex Size = hwords x 2 - 1, Instance Control = invocations - 1. */
   CHECK(gsi.output_vertex_size_hwords * 2 - 1 == 3 && gsi.invocations - 1 == 0);

   /* The GS reads the VS's VUE: the same slots, in pairs it pulls whole. */
   CHECK(gsi.num_input_vue_slots == vsi.num_vue_slots);
   CHECK(gsi.urb_read_length * 2 >= gsi.num_input_vue_slots);
   int32_t slot = -2;
   CHECK_STATUS(gpucc_program_vue_slot_of(vs, VARYING_SLOT_POS, &slot), GPUCC_STATUS_OK, "");
   CHECK(slot == 1);
   CHECK_STATUS(gpucc_program_vue_slot_of(vs, VARYING_SLOT_VAR0, &slot), GPUCC_STATUS_OK, "");
   CHECK(slot == 2);

   /* 3DSTATE_SBE from the last geometry stage, the GS. */
   const int32_t expected_map[3] = {VARYING_SLOT_PSIZ, VARYING_SLOT_POS, VARYING_SLOT_VAR0};
   for (uint32_t s = 0; s < gsi.num_vue_slots && s < 3; s++) {
      int32_t varying = -2;
      CHECK_STATUS(gpucc_program_vue_slot(gs, s, &varying), GPUCC_STATUS_OK, "");
      CHECK(varying == expected_map[s]);
   }
   gpucc_program_info fsi = {.struct_size = sizeof(fsi)};
   CHECK_STATUS(gpucc_program_get_info(fs, &fsi), GPUCC_STATUS_OK, "");
   CHECK(fsi.inputs == 1);
   gpucc_fs_input in = {.struct_size = sizeof(in)};
   CHECK_STATUS(gpucc_program_fs_input(fs, 0, &in), GPUCC_STATUS_OK, "");
   CHECK(in.varying == VARYING_SLOT_VAR0 && !in.flat);
   CHECK_STATUS(gpucc_program_vue_slot_of(gs, in.varying, &slot), GPUCC_STATUS_OK, "");
   const int32_t read_offset = 1; /* pairs of slots: skip the header and position */
   CHECK(slot - 2 * read_offset == 0);

   /* A fragment program has no output VUE map. */
   CHECK_STATUS(gpucc_program_vue_slot_of(fs, VARYING_SLOT_VAR0, &slot),
                GPUCC_STATUS_INVALID_ARGUMENT,
                "not a vertex, tessellation-evaluation or geometry program");

   gpucc_program_destroy(vs);
   gpucc_program_destroy(gs);
   gpucc_program_destroy(fs);
   gpucc_compiler_destroy(compiler);
   return check_report("bind_vs_gs_fs");
}
