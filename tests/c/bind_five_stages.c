/* Binding a Gen8 (bdw) vertex -> tessellation control -> tessellation evaluation ->
 * geometry -> fragment pipeline from the program objects alone, as iris's state upload does:
 * 3DSTATE_VS, 3DSTATE_HS, 3DSTATE_TE and 3DSTATE_DS, 3DSTATE_GS and 3DSTATE_SBE from the
 * programs' facts, the URB entry size of each stage for the URB allocation, and each stage's
 * input layout against the previous stage's output layout. The programs are the bundled
 * examples (examples/intel, the directory is argv[1]): transform.vs.nir, relay.tcs.nir,
 * relay.tes.nir, passthrough.gs.nir, gradient.fs.nir.
 *
 * Expected values follow Mesa 23.3 (brw_compile_vs/tcs/tes/gs and the scalar thread
 * payloads) by hand:
 *  - VS: reads GENERIC0 and GENERIC1 (2 attribute slots, read length 1), writes POS and
 *    VAR0: VUE [0] header, [1] POS, [2] VAR0, 48 bytes -> one 64-byte unit; SIMD8 (3), the
 *    payload g0 and the URB handles in g1, so push data from g2.
 *  - TCS: 3 output vertices, SINGLE_PATCH dispatch (0), ceil(3 / 8) = 1 instance; the
 *    payload is g0 and four registers of input vertex handles (g1-g4): dispatch GRF start 5;
 *    inputs pulled (read length 0). Patch URB entry: the two header slots (tess levels; no
 *    patch varyings), then per vertex POS and VAR0: (2 + 3 x 2) x 16 = 128 bytes -> 2 units.
 *  - TES: triangles (domain 1), equal spacing (partitioning 0), counter-clockwise in GL is
 *    the hardware's clockwise (topology 2); it reads the patch slots 2-7 (the vertices' POS
 *    and VAR0 after the header), pushed in pairs: read length 7 / 2 + 1 = 4; the payload is
 *    g0, u, v, w (g1-g3) and the output handles (g4): dispatch GRF start 5; its VUE is
 *    header, POS, VAR0 (3 slots, one unit); no primitive id.
 *  - GS: triangles in, 3 vertices out as one strip, no EndPrimitive (no control data
 *    header), the count a constant 3 (static 3); output vertex 48 bytes -> 2 hwords; URB
 *    entry 2 x 32 x 3 + 32 (the Gen8 vertex-count hword Mesa always counts) = 224 bytes ->
 *    4 units; input VUE header, POS, VAR0 (3 slots: read length (3 + 1) / 2 = 2, but
 *    8 x 2 x 3 vertices = 48 registers pass the 24 Mesa pushes, so 24 / 3 = 8 registers,
 *    read length 1, the VAR0 slot pulled); the payload g0, the
 *    output handles (g1) and three registers of vertex handles (g2-g4): push data from g5.
 *  - FS: reads VAR0 at GS output slot 2: SBE source 2 - 2 x read offset 1 = 0. */
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
      return check_report("bind_five_stages");
   gpucc_compiler *compiler = NULL;
   CHECK_STATUS(gpucc_compiler_create("bdw", &compiler), GPUCC_STATUS_OK, "");
   gpucc_program *vs = compile_file(compiler, argv[1], "transform.vs.nir");
   gpucc_program *tcs = compile_file(compiler, argv[1], "relay.tcs.nir");
   gpucc_program *tes = compile_file(compiler, argv[1], "relay.tes.nir");
   gpucc_program *gs = compile_file(compiler, argv[1], "passthrough.gs.nir");
   gpucc_program *fs = compile_file(compiler, argv[1], "gradient.fs.nir");
   if (!vs || !tcs || !tes || !gs || !fs)
      return check_report("bind_five_stages");

   /* Each program says which stage it is. */
   const struct {
      gpucc_program *p;
      uint32_t stage;
   } stages[] = {
      {vs, GPUCC_STAGE_VERTEX},     {tcs, GPUCC_STAGE_TESS_CTRL}, {tes, GPUCC_STAGE_TESS_EVAL},
      {gs, GPUCC_STAGE_GEOMETRY},   {fs, GPUCC_STAGE_FRAGMENT},
   };
   for (unsigned i = 0; i < 5; i++) {
      gpucc_program_info pi = {.struct_size = sizeof(pi)};
      CHECK_STATUS(gpucc_program_get_info(stages[i].p, &pi), GPUCC_STATUS_OK, "");
      CHECK(pi.stage == stages[i].stage);
   }

   /* 3DSTATE_VS. */
   gpucc_vs_info vsi = {.struct_size = sizeof(vsi)};
   CHECK_STATUS(gpucc_program_vs_info(vs, &vsi), GPUCC_STATUS_OK, "");
   CHECK(vsi.nr_attribute_slots == 2 && vsi.urb_read_length == 1);
   CHECK(vsi.num_vue_slots == 3 && vsi.urb_entry_size == 1);
   CHECK(vsi.dispatch_mode == 3 && vsi.dispatch_grf_start == 2);

   /* 3DSTATE_HS: Instance Count = instances - 1. */
   gpucc_tcs_info tcsi = {.struct_size = sizeof(tcsi)};
   CHECK_STATUS(gpucc_program_tcs_info(tcs, &tcsi), GPUCC_STATUS_OK, "");
   CHECK(tcsi.output_vertices == 3 && tcsi.instances == 1);
   CHECK(tcsi.dispatch_mode == 0 && tcsi.dispatch_grf_start == 5);
   CHECK(tcsi.include_vertex_handles == 1 && tcsi.urb_read_length == 0);
   CHECK(tcsi.num_per_patch_slots == 2 && tcsi.num_per_vertex_slots == 2);
   CHECK(tcsi.urb_entry_size == 2);
   /* The patch entry holds what the TES reads: its pushed pairs of slots lie within it. */
   uint32_t patch_slots = tcsi.num_per_patch_slots + 3 * tcsi.num_per_vertex_slots;
   CHECK(patch_slots == 8 && patch_slots * 16 <= tcsi.urb_entry_size * 64);

   /* 3DSTATE_TE and 3DSTATE_DS. */
   gpucc_tes_info tesi = {.struct_size = sizeof(tesi)};
   CHECK_STATUS(gpucc_program_tes_info(tes, &tesi), GPUCC_STATUS_OK, "");
   CHECK(tesi.domain == 1 && tesi.partitioning == 0 && tesi.output_topology == 2);
   CHECK(tesi.include_primitive_id == 0);
   CHECK(tesi.urb_read_length == 4 && tesi.urb_read_offset == 0);
   CHECK(2 * tesi.urb_read_length <= patch_slots);
   CHECK(tesi.dispatch_grf_start == 5 && tesi.dispatch_mode == 3);
   CHECK(tesi.num_vue_slots == 3 && tesi.urb_entry_size == 1);
   CHECK(tesi.vue_slots_valid == ((1ull << VARYING_SLOT_POS) | (1ull << VARYING_SLOT_VAR0)));
   int32_t slot = -2;
   CHECK_STATUS(gpucc_program_vue_slot_of(tes, VARYING_SLOT_POS, &slot), GPUCC_STATUS_OK, "");
   CHECK(slot == 1);
   CHECK_STATUS(gpucc_program_vue_slot_of(tes, VARYING_SLOT_VAR0, &slot), GPUCC_STATUS_OK, "");
   CHECK(slot == 2);

   /* 3DSTATE_GS, reading the TES's VUE. */
   gpucc_gs_info gsi = {.struct_size = sizeof(gsi)};
   CHECK_STATUS(gpucc_program_gs_info(gs, &gsi), GPUCC_STATUS_OK, "");
   CHECK(gsi.vertices_in == 3 && gsi.vertices_out == 3 && gsi.invocations == 1);
   CHECK(gsi.control_data_header_size_hwords == 0);
   CHECK(gsi.static_vertex_count == 3);
   CHECK(gsi.output_vertex_size_hwords == 2 && gsi.output_topology == 5);
   CHECK(gsi.urb_entry_size == 4);
   CHECK(gsi.dispatch_mode == 3 && gsi.dispatch_grf_start == 5);
   CHECK(gsi.include_primitive_id == 0);
   CHECK(gsi.num_input_vue_slots == tesi.num_vue_slots);
   CHECK(gsi.num_input_vue_slots == 3 && gsi.urb_read_length == 1);

   /* 3DSTATE_SBE from the last geometry stage, the GS. */
   const int32_t expected_map[3] = {VARYING_SLOT_PSIZ, VARYING_SLOT_POS, VARYING_SLOT_VAR0};
   CHECK(gsi.num_vue_slots == 3);
   for (uint32_t s = 0; s < gsi.num_vue_slots && s < 3; s++) {
      int32_t varying = -2;
      CHECK_STATUS(gpucc_program_vue_slot(gs, s, &varying), GPUCC_STATUS_OK, "");
      CHECK(varying == expected_map[s]);
   }
   gpucc_fs_input in = {.struct_size = sizeof(in)};
   CHECK_STATUS(gpucc_program_fs_input(fs, 0, &in), GPUCC_STATUS_OK, "");
   CHECK(in.varying == VARYING_SLOT_VAR0);
   CHECK_STATUS(gpucc_program_vue_slot_of(gs, in.varying, &slot), GPUCC_STATUS_OK, "");
   const int32_t read_offset = 1; /* pairs of slots: skip the header and position */
   CHECK(slot - 2 * read_offset == 0);

   /* The URB allocation sizes each stage's entries from its program: all fit. */
   CHECK(vsi.urb_entry_size >= 1 && tcsi.urb_entry_size >= 1);
   CHECK(tesi.urb_entry_size >= 1 && gsi.urb_entry_size >= 1);

   /* A control program has no output VUE map to query. */
   CHECK_STATUS(gpucc_program_vue_slot_of(tcs, VARYING_SLOT_POS, &slot),
                GPUCC_STATUS_INVALID_ARGUMENT,
                "not a vertex, tessellation-evaluation or geometry program");

   gpucc_program_destroy(vs);
   gpucc_program_destroy(tcs);
   gpucc_program_destroy(tes);
   gpucc_program_destroy(gs);
   gpucc_program_destroy(fs);
   gpucc_compiler_destroy(compiler);
   return check_report("bind_five_stages");
}
